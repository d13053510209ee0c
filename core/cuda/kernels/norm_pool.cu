// CUDA kernels of batch norm (forward in training and eval, backward) and 2-D max / average
// pooling (forward, backward); host side in norm_pool.cpp. Float and double only, as the CPU
// kernels (core/ops/cpu/normalization.cpp, pool.cpp), whose arithmetic each kernel follows.
//
// Batch norm: per-channel sums take one block per channel over the channel's N runs of S values,
// in double (block_reduce); the elementwise passes are grid-stride loops, channel c = (e / S) % C.
// Pooling: one thread per output cell for the forwards; max pooling's backward adds each
// gradient at its recorded index (atomicAdd); average pooling's backward gathers, for each input
// cell, the windows covering it in the order the CPU kernel adds them.
#include "core/cuda/kernels/LaunchTraining.h"
#include "core/cuda/kernels/Reduce.cuh"

namespace opscope::cuda {

namespace {

template <typename F>
void float_or_double(DT dt, const char* what, F&& f) {
  if (dt == DT::Double) return f.template operator()<double>();
  if (dt == DT::Float) return f.template operator()<float>();
  throw_cuda_error(what, "expected float32 or float64");
}

unsigned channel_grid(int64_t C) { return static_cast<unsigned>(C < 65535 ? (C < 1 ? 1 : C) : 65535); }

// --- batch norm ------------------------------------------------------------------------------

template <typename T>
__global__ void bn_train_stats_kernel(const T* x, int64_t N, int64_t C, int64_t S, double eps,
                                      double momentum, double* mean, double* invstd, T* save_mean,
                                      T* save_invstd, T* running_mean, T* running_var) {
  double* shared = shared_mem<double>();
  const int64_t n = N * S;
  for (int64_t c = blockIdx.x; c < C; c += gridDim.x) {
    double s = 0;
    for (int64_t j = threadIdx.x; j < n; j += blockDim.x) {
      const int64_t b = j / S, k = j - b * S;
      s += static_cast<double>(x[(b * C + c) * S + k]);
    }
    s = block_reduce(s, shared, [](double a, double b) { return a + b; });
    const double m = s / static_cast<double>(n);
    double sq = 0;
    for (int64_t j = threadIdx.x; j < n; j += blockDim.x) {
      const int64_t b = j / S, k = j - b * S;
      const double d = static_cast<double>(x[(b * C + c) * S + k]) - m;
      sq += d * d;
    }
    sq = block_reduce(sq, shared, [](double a, double b) { return a + b; });
    if (threadIdx.x == 0) {
      if (n == 0) {  // nothing to learn from: NaN statistics, the running ones kept
        mean[c] = invstd[c] = nan("");
        save_mean[c] = save_invstd[c] = T(nan(""));
      } else {
        const double var = sq / static_cast<double>(n);
        const double is = 1.0 / sqrt(var + eps);
        mean[c] = m;
        invstd[c] = is;
        save_mean[c] = static_cast<T>(m);
        save_invstd[c] = static_cast<T>(is);
        if (running_mean && running_var) {
          const double unbiased = n > 1 ? var * static_cast<double>(n) / static_cast<double>(n - 1)
                                        : static_cast<double>(INFINITY);
          running_mean[c] = static_cast<T>((1 - momentum) * static_cast<double>(running_mean[c]) +
                                           momentum * m);
          running_var[c] = static_cast<T>((1 - momentum) * static_cast<double>(running_var[c]) +
                                          momentum * unbiased);
        }
      }
    }
  }
}

template <typename T>
__global__ void bn_given_stats_kernel(const T* m, const T* v, bool v_is_invstd, double eps,
                                      int64_t C, double* mean, double* invstd) {
  for (int64_t c = first_index(); c < C; c += grid_step()) {
    mean[c] = static_cast<double>(m[c]);
    const double vc = static_cast<double>(v[c]);
    invstd[c] = v_is_invstd ? vc : 1.0 / sqrt(vc + eps);
  }
}

template <typename T>
__global__ void bn_apply_kernel(const T* x, T* y, const double* mean, const double* invstd,
                                const T* w, const T* b, int64_t N, int64_t C, int64_t S) {
  const int64_t total = N * C * S;
  for (int64_t e = first_index(); e < total; e += grid_step()) {
    const int64_t c = (e / S) % C;
    const double scale = invstd[c] * (w ? static_cast<double>(w[c]) : 1.0);
    const double shift = b ? static_cast<double>(b[c]) : 0.0;
    y[e] = static_cast<T>((static_cast<double>(x[e]) - mean[c]) * scale + shift);
  }
}

template <typename T>
__global__ void bn_backward_reduce_kernel(const T* dy, const T* x, const double* mean,
                                          double* sum_dy, double* sum_dy_xmu, int64_t N,
                                          int64_t C, int64_t S) {
  double* shared = shared_mem<double>();
  const int64_t n = N * S;
  for (int64_t c = blockIdx.x; c < C; c += gridDim.x) {
    const double m = mean[c];
    double a = 0, b2 = 0;
    for (int64_t j = threadIdx.x; j < n; j += blockDim.x) {
      const int64_t b = j / S, k = j - b * S;
      const int64_t at = (b * C + c) * S + k;
      const double g = static_cast<double>(dy[at]);
      a += g;
      b2 += g * (static_cast<double>(x[at]) - m);
    }
    a = block_reduce(a, shared, [](double u, double v) { return u + v; });
    b2 = block_reduce(b2, shared, [](double u, double v) { return u + v; });
    if (threadIdx.x == 0) {
      sum_dy[c] = a;
      sum_dy_xmu[c] = b2;
    }
  }
}

template <typename T>
__global__ void bn_backward_input_kernel(const T* dy, const T* x, T* dx, const double* mean,
                                         const double* invstd, const double* sum_dy,
                                         const double* sum_dy_xmu, const T* w, bool train,
                                         int64_t N, int64_t C, int64_t S) {
  const int64_t total = N * C * S;
  const double count = static_cast<double>(N * S);
  for (int64_t e = first_index(); e < total; e += grid_step()) {
    const int64_t c = (e / S) % C;
    const double is = invstd[c];
    const double k = is * (w ? static_cast<double>(w[c]) : 1.0);
    double p = 0, q = 0;
    if (train && count > 0) {
      p = -k * is * is * sum_dy_xmu[c] / count;
      q = -k * sum_dy[c] / count - mean[c] * p;
    }
    dx[e] = static_cast<T>(static_cast<double>(dy[e]) * k + static_cast<double>(x[e]) * p + q);
  }
}

template <typename T>
__global__ void bn_backward_params_kernel(const double* invstd, const double* sum_dy,
                                          const double* sum_dy_xmu, T* gw, T* gb, int64_t C) {
  for (int64_t c = first_index(); c < C; c += grid_step()) {
    if (gw) gw[c] = static_cast<T>(sum_dy_xmu[c] * invstd[c]);
    if (gb) gb[c] = static_cast<T>(sum_dy[c]);
  }
}

// --- pooling ---------------------------------------------------------------------------------

template <typename T>
__device__ __forceinline__ T neg_inf() {
  return -static_cast<T>(INFINITY);
}

template <typename T>
__global__ void max_pool2d_kernel(const T* in, T* out, int64_t* indices, PoolGeom g) {
  const int64_t total = g.planes * g.OH * g.OW;
  for (int64_t e = first_index(); e < total; e += grid_step()) {
    const int64_t ow = e % g.OW, oh = (e / g.OW) % g.OH, plane = e / (g.OW * g.OH);
    const T* ip = in + plane * g.H * g.W;
    int64_t h0 = oh * g.sH - g.pH;
    const int64_t h1 = min(h0 + (g.kH - 1) * g.dH + 1, g.H);
    while (h0 < 0) h0 += g.dH;
    int64_t w0 = ow * g.sW - g.pW;
    const int64_t w1 = min(w0 + (g.kW - 1) * g.dW + 1, g.W);
    while (w0 < 0) w0 += g.dW;
    T best = neg_inf<T>();
    int64_t best_at = h0 * g.W + w0;
    for (int64_t h = h0; h < h1; h += g.dH) {
      for (int64_t w = w0; w < w1; w += g.dW) {
        const T v = ip[h * g.W + w];
        if (v > best || v != v) {  // as torch: the last NaN wins
          best = v;
          best_at = h * g.W + w;
        }
      }
    }
    out[e] = best;
    indices[e] = best_at;
  }
}

template <typename T>
__global__ void max_pool2d_backward_kernel(const T* gy, const int64_t* indices, T* gi,
                                           PoolGeom g) {
  const int64_t total = g.planes * g.OH * g.OW, area = g.H * g.W;
  for (int64_t e = first_index(); e < total; e += grid_step()) {
    const int64_t plane = e / (g.OH * g.OW);
    const int64_t at = indices[e];
    if (at >= 0 && at < area) atomicAdd(gi + plane * area + at, gy[e]);
  }
}

// One window of avg_pool2d: its clipped bounds and divisor (0: empty, output 0), as the CPU
// kernel's avg_window.
struct AvgWin {
  int64_t h0, h1, w0, w1, divisor;
};

__device__ __forceinline__ AvgWin avg_win(const PoolGeom& g, int64_t oh, int64_t ow,
                                          bool count_include_pad, int64_t divisor_override) {
  int64_t h0 = oh * g.sH - g.pH, w0 = ow * g.sW - g.pW;
  int64_t h1 = min(h0 + g.kH, g.H + g.pH), w1 = min(w0 + g.kW, g.W + g.pW);
  const int64_t pool_size = (h1 - h0) * (w1 - w0);
  h0 = max(h0, int64_t(0));
  w0 = max(w0, int64_t(0));
  h1 = min(h1, g.H);
  w1 = min(w1, g.W);
  if (h0 >= h1 || w0 >= w1) return {h0, h1, w0, w1, 0};
  const int64_t divisor = divisor_override != 0 ? divisor_override
                          : count_include_pad   ? pool_size
                                                : (h1 - h0) * (w1 - w0);
  return {h0, h1, w0, w1, divisor};
}

template <typename T>
__global__ void avg_pool2d_kernel(const T* in, T* out, PoolGeom g, bool count_include_pad,
                                  int64_t divisor_override) {
  const int64_t total = g.planes * g.OH * g.OW;
  for (int64_t e = first_index(); e < total; e += grid_step()) {
    const int64_t ow = e % g.OW, oh = (e / g.OW) % g.OH, plane = e / (g.OW * g.OH);
    const T* ip = in + plane * g.H * g.W;
    const AvgWin win = avg_win(g, oh, ow, count_include_pad, divisor_override);
    if (win.divisor == 0) {
      out[e] = T(0);
      continue;
    }
    T sum = 0;
    for (int64_t h = win.h0; h < win.h1; ++h)
      for (int64_t w = win.w0; w < win.w1; ++w) sum += ip[h * g.W + w];
    out[e] = sum / T(win.divisor);
  }
}

// The first window index o whose window [o s - p, o s - p + k) contains i, and the last, in
// [0, out).
__device__ __forceinline__ void covering(int64_t i, int64_t k, int64_t s, int64_t p, int64_t out,
                                         int64_t* lo, int64_t* hi) {
  const int64_t num = i + p - k + 1;  // o s >= i + p - k + 1
  int64_t first = num <= 0 ? 0 : (num + s - 1) / s;
  int64_t last = (i + p) / s;          // o s <= i + p
  if (last > out - 1) last = out - 1;
  *lo = first;
  *hi = last;
}

template <typename T>
__global__ void avg_pool2d_backward_kernel(const T* gy, T* gi, PoolGeom g, bool count_include_pad,
                                           int64_t divisor_override) {
  const int64_t total = g.planes * g.H * g.W;
  for (int64_t e = first_index(); e < total; e += grid_step()) {
    const int64_t w = e % g.W, h = (e / g.W) % g.H, plane = e / (g.W * g.H);
    const T* src = gy + plane * g.OH * g.OW;
    int64_t oh0, oh1, ow0, ow1;
    covering(h, g.kH, g.sH, g.pH, g.OH, &oh0, &oh1);
    covering(w, g.kW, g.sW, g.pW, g.OW, &ow0, &ow1);
    T acc = 0;
    for (int64_t oh = oh0; oh <= oh1; ++oh) {
      for (int64_t ow = ow0; ow <= ow1; ++ow) {
        const AvgWin win = avg_win(g, oh, ow, count_include_pad, divisor_override);
        if (win.divisor == 0) continue;
        if (h < win.h0 || h >= win.h1 || w < win.w0 || w >= win.w1) continue;
        acc += src[oh * g.OW + ow] / T(win.divisor);
      }
    }
    gi[e] = acc;
  }
}

}  // namespace

void launch_batch_norm_train_stats(DT dt, const void* x, int64_t N, int64_t C, int64_t S,
                                   double eps, double momentum, double* mean, double* invstd,
                                   void* save_mean, void* save_invstd, void* running_mean,
                                   void* running_var, void* stream) {
  if (C == 0) return;
  float_or_double(dt, "batch_norm_cuda", [&]<typename T>() {
    bn_train_stats_kernel<T><<<channel_grid(C), kBlock, kBlock * sizeof(double),
                               as_stream(stream)>>>(
        static_cast<const T*>(x), N, C, S, eps, momentum, mean, invstd,
        static_cast<T*>(save_mean), static_cast<T*>(save_invstd), static_cast<T*>(running_mean),
        static_cast<T*>(running_var));
  });
  check_launch("batch_norm_cuda");
}

void launch_batch_norm_given_stats(DT dt, const void* m, const void* v, bool v_is_invstd,
                                   double eps, int64_t C, double* mean, double* invstd,
                                   void* stream) {
  if (C == 0) return;
  float_or_double(dt, "batch_norm_cuda", [&]<typename T>() {
    bn_given_stats_kernel<T><<<grid_for(C), kBlock, 0, as_stream(stream)>>>(
        static_cast<const T*>(m), static_cast<const T*>(v), v_is_invstd, eps, C, mean, invstd);
  });
  check_launch("batch_norm_cuda");
}

void launch_batch_norm_apply(DT dt, const void* x, void* y, const double* mean,
                             const double* invstd, const void* w, const void* b, int64_t N,
                             int64_t C, int64_t S, void* stream) {
  if (N * C * S == 0) return;
  float_or_double(dt, "batch_norm_cuda", [&]<typename T>() {
    bn_apply_kernel<T><<<grid_for(N * C * S), kBlock, 0, as_stream(stream)>>>(
        static_cast<const T*>(x), static_cast<T*>(y), mean, invstd, static_cast<const T*>(w),
        static_cast<const T*>(b), N, C, S);
  });
  check_launch("batch_norm_cuda");
}

void launch_batch_norm_backward_reduce(DT dt, const void* dy, const void* x, const double* mean,
                                       double* sum_dy, double* sum_dy_xmu, int64_t N, int64_t C,
                                       int64_t S, void* stream) {
  if (C == 0) return;
  float_or_double(dt, "batch_norm_backward_cuda", [&]<typename T>() {
    bn_backward_reduce_kernel<T><<<channel_grid(C), kBlock, kBlock * sizeof(double),
                                   as_stream(stream)>>>(
        static_cast<const T*>(dy), static_cast<const T*>(x), mean, sum_dy, sum_dy_xmu, N, C, S);
  });
  check_launch("batch_norm_backward_cuda");
}

void launch_batch_norm_backward_input(DT dt, const void* dy, const void* x, void* dx,
                                      const double* mean, const double* invstd,
                                      const double* sum_dy, const double* sum_dy_xmu,
                                      const void* w, bool train, int64_t N, int64_t C, int64_t S,
                                      void* stream) {
  if (N * C * S == 0) return;
  float_or_double(dt, "batch_norm_backward_cuda", [&]<typename T>() {
    bn_backward_input_kernel<T><<<grid_for(N * C * S), kBlock, 0, as_stream(stream)>>>(
        static_cast<const T*>(dy), static_cast<const T*>(x), static_cast<T*>(dx), mean, invstd,
        sum_dy, sum_dy_xmu, static_cast<const T*>(w), train, N, C, S);
  });
  check_launch("batch_norm_backward_cuda");
}

void launch_batch_norm_backward_params(DT dt, const double* invstd, const double* sum_dy,
                                       const double* sum_dy_xmu, void* grad_weight,
                                       void* grad_bias, int64_t C, void* stream) {
  if (C == 0 || (!grad_weight && !grad_bias)) return;
  float_or_double(dt, "batch_norm_backward_cuda", [&]<typename T>() {
    bn_backward_params_kernel<T><<<grid_for(C), kBlock, 0, as_stream(stream)>>>(
        invstd, sum_dy, sum_dy_xmu, static_cast<T*>(grad_weight), static_cast<T*>(grad_bias), C);
  });
  check_launch("batch_norm_backward_cuda");
}

void launch_max_pool2d(DT dt, const void* in, void* out, int64_t* indices, const PoolGeom& g,
                       void* stream) {
  const int64_t total = g.planes * g.OH * g.OW;
  if (total == 0) return;
  float_or_double(dt, "max_pool2d_cuda", [&]<typename T>() {
    max_pool2d_kernel<T><<<grid_for(total), kBlock, 0, as_stream(stream)>>>(
        static_cast<const T*>(in), static_cast<T*>(out), indices, g);
  });
  check_launch("max_pool2d_cuda");
}

void launch_max_pool2d_backward(DT dt, const void* grad_output, const int64_t* indices,
                                void* grad_input, const PoolGeom& g, void* stream) {
  const int64_t total = g.planes * g.OH * g.OW;
  const int64_t in_bytes = g.planes * g.H * g.W * (dt == DT::Double ? 8 : 4);
  if (in_bytes > 0) {
    cudaError_t err = cudaMemsetAsync(grad_input, 0, static_cast<size_t>(in_bytes),
                                      as_stream(stream));
    if (err != cudaSuccess) throw_cuda_error("max_pool2d_backward_cuda", cudaGetErrorString(err));
  }
  if (total == 0) return;
  float_or_double(dt, "max_pool2d_backward_cuda", [&]<typename T>() {
    max_pool2d_backward_kernel<T><<<grid_for(total), kBlock, 0, as_stream(stream)>>>(
        static_cast<const T*>(grad_output), indices, static_cast<T*>(grad_input), g);
  });
  check_launch("max_pool2d_backward_cuda");
}

void launch_avg_pool2d(DT dt, const void* in, void* out, const PoolGeom& g,
                       bool count_include_pad, int64_t divisor_override, void* stream) {
  const int64_t total = g.planes * g.OH * g.OW;
  if (total == 0) return;
  float_or_double(dt, "avg_pool2d_cuda", [&]<typename T>() {
    avg_pool2d_kernel<T><<<grid_for(total), kBlock, 0, as_stream(stream)>>>(
        static_cast<const T*>(in), static_cast<T*>(out), g, count_include_pad, divisor_override);
  });
  check_launch("avg_pool2d_cuda");
}

void launch_avg_pool2d_backward(DT dt, const void* grad_output, void* grad_input,
                                const PoolGeom& g, bool count_include_pad,
                                int64_t divisor_override, void* stream) {
  const int64_t total = g.planes * g.H * g.W;
  if (total == 0) return;
  float_or_double(dt, "avg_pool2d_backward_cuda", [&]<typename T>() {
    avg_pool2d_backward_kernel<T><<<grid_for(total), kBlock, 0, as_stream(stream)>>>(
        static_cast<const T*>(grad_output), static_cast<T*>(grad_input), g, count_include_pad,
        divisor_override);
  });
  check_launch("avg_pool2d_backward_cuda");
}

}  // namespace opscope::cuda
