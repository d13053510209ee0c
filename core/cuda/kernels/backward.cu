// CUDA kernels of the gradient ops a training step's backward calls (launchers declared in
// LaunchBackward.h, host side in backward.cpp): threshold_backward (elementwise),
// _softmax_backward_data / _log_softmax_backward_data (one block per row: a block-wide sum, then
// the write), nll_loss_backward (one thread per sample writes its one nonzero), the gelu / silu /
// softplus / sigmoid / tanh / leaky_relu / hardtanh / elu / hardsigmoid / hardswish / mish
// gradients (elementwise) and native_layer_norm_backward (Note [Layer norm's gradient
// on the GPU]).
#include "core/cuda/kernels/LaunchBackward.h"
#include "core/cuda/kernels/Reduce.cuh"

namespace opscope::cuda {

namespace {

// Compared in the accumulation type (float for half / bfloat16); the gradient passes through.
template <typename T>
struct ThresholdBackward {
  acc_t<T> threshold;
  __device__ T operator()(T g, T x) const {
    return cvt<acc_t<T>>(x) <= threshold ? cvt<T>(acc_t<T>(0)) : g;
  }
};

template <bool Log, typename T>
__global__ void softmax_backward_rows_kernel(const T* grad, const T* out, T* gin, int64_t rows,
                                             int64_t cols) {
  using A = acc_t<T>;
  A* shared = shared_mem<A>();
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const T* g = grad + r * cols;
    const T* y = out + r * cols;
    T* gi = gin + r * cols;
    A s = A(0);
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x)
      s += Log ? cvt<A>(g[c]) : cvt<A>(g[c]) * cvt<A>(y[c]);
    s = block_reduce(s, shared, [](A a, A b) { return a + b; });
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
      if constexpr (Log) {
        gi[c] = cvt<T>(cvt<A>(g[c]) - exp(cvt<A>(y[c])) * s);
      } else {
        gi[c] = cvt<T>(cvt<A>(y[c]) * (cvt<A>(g[c]) - s));
      }
    }
  }
}

template <typename T>
__global__ void nll_loss_backward_kernel(const T* grad, const int64_t* target, const T* weight,
                                         const T* total_weight, T* gin, int64_t n, int64_t c,
                                         bool per_row, bool mean, int64_t ignore_index,
                                         int64_t* bad) {
  using A = acc_t<T>;
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t t = target[i];
    if (t == ignore_index) continue;
    if (t < 0 || t >= c) {
      *bad = t + 1;  // the host reads the flag and raises torch's message
      continue;
    }
    A g = cvt<A>(grad[per_row ? i : 0]);
    if (!per_row && mean) g /= cvt<A>(total_weight[0]);
    const A w = weight ? cvt<A>(weight[t]) : A(1);
    gin[i * c + t] = cvt<T>(-w * g);
  }
}

// The activations' derivatives times the gradient, in the accumulation type, as the CPU kernels
// (core/ops/cpu/activation.cpp).
template <typename T>
struct GeluErfBackward {
  __device__ T operator()(T g, T xv) const {
    using A = acc_t<T>;
    const A x = cvt<A>(xv);
    const A cdf = A(0.5) * (A(1) + erf(x * A(0.70710678118654752440)));
    const A pdf = A(0.39894228040143267794) * exp(A(-0.5) * x * x);
    return cvt<T>(cvt<A>(g) * (cdf + x * pdf));
  }
};
template <typename T>
struct GeluTanhBackward {
  __device__ T operator()(T g, T xv) const {
    using A = acc_t<T>;
    const A x = cvt<A>(xv), beta = A(0.79788456080286535588), kappa = A(0.044715);
    const A x2 = x * x, t = tanh(beta * (x + kappa * x2 * x));
    const A left = A(0.5) * (A(1) + t);
    const A right = A(0.5) * x * (A(1) - t * t) * beta * (A(1) + A(3) * kappa * x2);
    return cvt<T>(cvt<A>(g) * (left + right));
  }
};
template <typename T>
struct SiluBackward {
  __device__ T operator()(T g, T xv) const {
    using A = acc_t<T>;
    const A x = cvt<A>(xv), s = A(1) / (A(1) + exp(-x));
    return cvt<T>(cvt<A>(g) * s * (A(1) + x * (A(1) - s)));
  }
};
template <typename T>
struct SoftplusBackward {
  acc_t<T> beta, threshold;
  __device__ T operator()(T g, T xv) const {
    using A = acc_t<T>;
    const A xb = cvt<A>(xv) * beta;
    if (xb > threshold) return g;
    const A z = exp(xb);
    return cvt<T>(cvt<A>(g) * z / (z + A(1)));
  }
};

template <typename T>
struct SigmoidBackward {  // from the result y
  __device__ T operator()(T g, T y) const {
    using A = acc_t<T>;
    return cvt<T>(cvt<A>(g) * (A(1) - cvt<A>(y)) * cvt<A>(y));
  }
};
template <typename T>
struct TanhBackward {  // from the result y
  __device__ T operator()(T g, T y) const {
    using A = acc_t<T>;
    return cvt<T>(cvt<A>(g) * (A(1) - cvt<A>(y) * cvt<A>(y)));
  }
};

template <typename T>
struct LeakyReluBackward {
  acc_t<T> slope;
  __device__ T operator()(T g, T xv) const {
    using A = acc_t<T>;
    return cvt<A>(xv) > A(0) ? g : cvt<T>(cvt<A>(g) * slope);
  }
};
template <typename T>
struct HardtanhBackward {
  acc_t<T> lo, hi;
  __device__ T operator()(T g, T xv) const {
    using A = acc_t<T>;
    const A x = cvt<A>(xv);
    return (x <= lo || x >= hi) ? cvt<T>(A(0)) : g;
  }
};
template <typename T>
struct EluBackward {
  acc_t<T> negcoef, poscoef, negiptcoef;
  bool is_result;
  __device__ T operator()(T g, T xv) const {
    using A = acc_t<T>;
    const A x = cvt<A>(xv), gv = cvt<A>(g);
    if (x > A(0)) return cvt<T>(gv * poscoef);
    return cvt<T>(is_result ? gv * negiptcoef * (x + negcoef)
                            : gv * negiptcoef * negcoef * exp(x * negiptcoef));
  }
};

template <typename T>
struct HardsigmoidBackward {
  __device__ T operator()(T g, T xv) const {
    using A = acc_t<T>;
    const A x = cvt<A>(xv);
    return cvt<T>((x > A(-3) && x < A(3)) ? cvt<A>(g) / A(6) : A(0));
  }
};
template <typename T>
struct HardswishBackward {
  __device__ T operator()(T g, T xv) const {
    using A = acc_t<T>;
    const A x = cvt<A>(xv);
    if (x < A(-3)) return cvt<T>(A(0));
    return x <= A(3) ? cvt<T>(cvt<A>(g) * (x / A(3) + A(0.5))) : g;
  }
};
template <typename T>
struct MishBackward {
  __device__ T operator()(T g, T xv) const {
    using A = acc_t<T>;
    const A x = cvt<A>(xv), s = A(1) / (A(1) + exp(-x)), t = tanh(log1p(exp(x)));
    return cvt<T>(cvt<A>(g) * (t + x * s * (A(1) - t * t)));
  }
};

template <typename T>
struct LogSigmoidBackward {  // g (1 - sigmoid(x)), exp(-|x|) recomputed
  __device__ T operator()(T g, T xv) const {
    using A = acc_t<T>;
    const A x = cvt<A>(xv), z = exp(-fabs(x));
    return cvt<T>(cvt<A>(g) * (x < A(0) ? A(1) / (A(1) + z) : z / (A(1) + z)));
  }
};

// Note [Layer norm's gradient on the GPU]
// dx: one block per row, two block-wide sums (of dxhat and dxhat xhat, dxhat = dy gamma), then
// the write, as the CPU kernel (Note [Layer norm's gradient in one pass per row]). dgamma and
// dbeta sum down the M rows: a block covers 32 columns with 16 rows of threads, the rows split
// into up to kLayerNormRowBlocks blocks each writing its partial sums (no atomics: the same bits
// every run), which a second kernel adds per column.
constexpr int64_t kLayerNormRowBlocks = 64;

template <typename T>
__global__ void layer_norm_backward_dx_kernel(const T* dy, const T* x, const acc_t<T>* mean,
                                              const acc_t<T>* rstd, const T* gamma, T* dx,
                                              int64_t rows, int64_t cols) {
  using A = acc_t<T>;
  A* shared = shared_mem<A>();
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const T* g = dy + r * cols;
    const T* xr = x + r * cols;
    const A m = mean[r], rs = rstd[r];
    A s1 = A(0), s2 = A(0);
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
      const A dxhat = gamma ? cvt<A>(g[c]) * cvt<A>(gamma[c]) : cvt<A>(g[c]);
      s1 += dxhat;
      s2 += dxhat * (cvt<A>(xr[c]) - m) * rs;
    }
    s1 = block_reduce(s1, shared, [](A a, A b) { return a + b; });
    s2 = block_reduce(s2, shared, [](A a, A b) { return a + b; });
    const A m1 = s1 / A(cols), m2 = s2 / A(cols);
    T* out = dx + r * cols;
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
      const A dxhat = gamma ? cvt<A>(g[c]) * cvt<A>(gamma[c]) : cvt<A>(g[c]);
      out[c] = cvt<T>(rs * (dxhat - m1 - (cvt<A>(xr[c]) - m) * rs * m2));
    }
  }
}

// Block (32, 16) over 32 columns; blockIdx.y picks one of gridDim.y blocks of rows. Writes
// partial[blockIdx.y][col] (dgamma's sums) and partial[gridDim.y + blockIdx.y][col] (dbeta's).
template <typename T>
__global__ void layer_norm_backward_columns_kernel(const T* dy, const T* x, const acc_t<T>* mean,
                                                   const acc_t<T>* rstd, acc_t<T>* partial,
                                                   int64_t rows, int64_t cols) {
  using A = acc_t<T>;
  __shared__ A sg[16][33], sb[16][33];
  const int64_t col = int64_t(blockIdx.x) * 32 + threadIdx.x;
  A acc_g = A(0), acc_b = A(0);
  if (col < cols) {
    for (int64_t r = int64_t(blockIdx.y) * 16 + threadIdx.y; r < rows;
         r += int64_t(gridDim.y) * 16) {
      const A g = cvt<A>(dy[r * cols + col]);
      acc_g += g * (cvt<A>(x[r * cols + col]) - mean[r]) * rstd[r];
      acc_b += g;
    }
  }
  sg[threadIdx.y][threadIdx.x] = acc_g;
  sb[threadIdx.y][threadIdx.x] = acc_b;
  __syncthreads();
  if (threadIdx.y == 0 && col < cols) {
    A tg = A(0), tb = A(0);
    for (int i = 0; i < 16; ++i) {
      tg += sg[i][threadIdx.x];
      tb += sb[i][threadIdx.x];
    }
    partial[int64_t(blockIdx.y) * cols + col] = tg;
    partial[(int64_t(gridDim.y) + blockIdx.y) * cols + col] = tb;
  }
}

template <typename T>
__global__ void layer_norm_backward_sum_partials_kernel(const acc_t<T>* partial, T* dgamma,
                                                        T* dbeta, int64_t parts, int64_t cols) {
  using A = acc_t<T>;
  for (int64_t col = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; col < cols;
       col += int64_t(gridDim.x) * blockDim.x) {
    A tg = A(0), tb = A(0);
    for (int64_t p = 0; p < parts; ++p) {
      tg += partial[p * cols + col];
      tb += partial[(parts + p) * cols + col];
    }
    if (dgamma) dgamma[col] = cvt<T>(tg);
    if (dbeta) dbeta[col] = cvt<T>(tb);
  }
}

}  // namespace

void launch_activation_backward(ActivationGrad op, const ElementwiseArgs& args, double p0,
                                double p1, void* stream, double p2, double p3) {
  const char* name = op == ActivationGrad::Silu         ? "silu_backward_cuda"
                     : op == ActivationGrad::Softplus   ? "softplus_backward_cuda"
                     : op == ActivationGrad::SigmoidOut ? "sigmoid_backward_cuda"
                     : op == ActivationGrad::TanhOut    ? "tanh_backward_cuda"
                     : op == ActivationGrad::LeakyRelu  ? "leaky_relu_backward_cuda"
                     : op == ActivationGrad::Hardtanh   ? "hardtanh_backward_cuda"
                     : op == ActivationGrad::Elu        ? "elu_backward_cuda"
                     : op == ActivationGrad::Hardsigmoid ? "hardsigmoid_backward_cuda"
                     : op == ActivationGrad::Hardswish  ? "hardswish_backward_cuda"
                     : op == ActivationGrad::Mish       ? "mish_backward_cuda"
                     : op == ActivationGrad::LogSigmoid ? "log_sigmoid_backward_cuda"
                                                        : "GeluBackwardCUDAKernelImpl";
  dispatch_float(args.dtypes[0], name, [&]<typename T>() {
    switch (op) {
      case ActivationGrad::GeluErf:
        gpu_elementwise<T, T, T>(args, GeluErfBackward<T>{}, stream, name);
        break;
      case ActivationGrad::GeluTanh:
        gpu_elementwise<T, T, T>(args, GeluTanhBackward<T>{}, stream, name);
        break;
      case ActivationGrad::Silu:
        gpu_elementwise<T, T, T>(args, SiluBackward<T>{}, stream, name);
        break;
      case ActivationGrad::SigmoidOut:
        gpu_elementwise<T, T, T>(args, SigmoidBackward<T>{}, stream, name);
        break;
      case ActivationGrad::TanhOut:
        gpu_elementwise<T, T, T>(args, TanhBackward<T>{}, stream, name);
        break;
      case ActivationGrad::LeakyRelu:
        gpu_elementwise<T, T, T>(args, LeakyReluBackward<T>{static_cast<acc_t<T>>(p0)}, stream,
                                 name);
        break;
      case ActivationGrad::Hardtanh:
        gpu_elementwise<T, T, T>(
            args, HardtanhBackward<T>{static_cast<acc_t<T>>(p0), static_cast<acc_t<T>>(p1)},
            stream, name);
        break;
      case ActivationGrad::Elu:
        gpu_elementwise<T, T, T>(
            args,
            EluBackward<T>{static_cast<acc_t<T>>(p0), static_cast<acc_t<T>>(p1),
                           static_cast<acc_t<T>>(p2), p3 != 0},
            stream, name);
        break;
      case ActivationGrad::Hardsigmoid:
        gpu_elementwise<T, T, T>(args, HardsigmoidBackward<T>{}, stream, name);
        break;
      case ActivationGrad::Hardswish:
        gpu_elementwise<T, T, T>(args, HardswishBackward<T>{}, stream, name);
        break;
      case ActivationGrad::Mish:
        gpu_elementwise<T, T, T>(args, MishBackward<T>{}, stream, name);
        break;
      case ActivationGrad::LogSigmoid:
        gpu_elementwise<T, T, T>(args, LogSigmoidBackward<T>{}, stream, name);
        break;
      case ActivationGrad::Softplus:
        gpu_elementwise<T, T, T>(
            args, SoftplusBackward<T>{static_cast<acc_t<T>>(p0), static_cast<acc_t<T>>(p1)},
            stream, name);
        break;
    }
  });
}

int64_t layer_norm_partial_rows(int64_t M) {
  const int64_t blocks = (M + 255) / 256;  // at least 16 rows of threads x 16 rows each
  return blocks < 1 ? 1 : (blocks > kLayerNormRowBlocks ? kLayerNormRowBlocks : blocks);
}

void launch_layer_norm_backward(DT dt, const void* dy, const void* x, const void* mean,
                                const void* rstd, const void* gamma, void* dx, void* dgamma,
                                void* dbeta, void* partial, int64_t M, int64_t N, void* stream) {
  dispatch_float(dt, "LayerNormBackwardKernelImpl", [&]<typename T>() {
    using A = acc_t<T>;
    const T* g = static_cast<const T*>(dy);
    const T* xs = static_cast<const T*>(x);
    const A* mu = static_cast<const A*>(mean);
    const A* rs = static_cast<const A*>(rstd);
    if (dx) {
      const RowLaunch l = row_launch(M, N);
      layer_norm_backward_dx_kernel<T><<<l.grid, l.block, l.block * sizeof(A),
                                         as_stream(stream)>>>(
          g, xs, mu, rs, static_cast<const T*>(gamma), static_cast<T*>(dx), M, N);
    }
    if (dgamma || dbeta) {
      const int64_t parts = layer_norm_partial_rows(M);
      const dim3 grid(static_cast<unsigned>((N + 31) / 32), static_cast<unsigned>(parts));
      layer_norm_backward_columns_kernel<T><<<grid, dim3(32, 16), 0, as_stream(stream)>>>(
          g, xs, mu, rs, static_cast<A*>(partial), M, N);
      const int64_t blocks = (N + 255) / 256;
      layer_norm_backward_sum_partials_kernel<T>
          <<<static_cast<unsigned>(blocks < 65535 ? blocks : 65535), 256, 0,
             as_stream(stream)>>>(static_cast<const A*>(partial), static_cast<T*>(dgamma),
                                  static_cast<T*>(dbeta), parts, N);
    }
  });
  check_launch("LayerNormBackwardKernelImpl");
}

void launch_threshold_backward(const ElementwiseArgs& args, double threshold, void* stream) {
  dispatch_numeric(args.dtypes[0], "threshold_cuda", [&]<typename T>() {
    gpu_elementwise<T, T, T>(args, ThresholdBackward<T>{static_cast<acc_t<T>>(threshold)}, stream,
                             "threshold_cuda");
  });
}

void launch_softmax_backward_rows(bool log, DT dt, const void* grad_output, const void* output,
                                  void* grad_input, int64_t rows, int64_t cols, void* stream) {
  if (rows == 0 || cols == 0) return;
  dispatch_float(dt, "softmax_backward_cuda", [&]<typename T>() {
    using A = acc_t<T>;
    const RowLaunch l = row_launch(rows, cols);
    const auto* g = static_cast<const T*>(grad_output);
    const auto* y = static_cast<const T*>(output);
    auto* gi = static_cast<T*>(grad_input);
    if (log) {
      softmax_backward_rows_kernel<true, T>
          <<<l.grid, l.block, l.block * sizeof(A), as_stream(stream)>>>(g, y, gi, rows, cols);
    } else {
      softmax_backward_rows_kernel<false, T>
          <<<l.grid, l.block, l.block * sizeof(A), as_stream(stream)>>>(g, y, gi, rows, cols);
    }
  });
  check_launch("softmax_backward_cuda");
}

void launch_nll_loss_backward(DT dt, const void* grad_output, const int64_t* target,
                              const void* weight, const void* total_weight, void* grad_input,
                              int64_t n, int64_t c, bool per_row, bool mean, int64_t ignore_index,
                              int64_t* bad, void* stream) {
  if (n == 0) return;
  dispatch_float(dt, "nll_loss_backward_cuda", [&]<typename T>() {
    nll_loss_backward_kernel<T><<<grid_for(n), kBlock, 0, as_stream(stream)>>>(
        static_cast<const T*>(grad_output), target, static_cast<const T*>(weight),
        static_cast<const T*>(total_weight), static_cast<T*>(grad_input), n, c, per_row, mean,
        ignore_index, bad);
  });
  check_launch("nll_loss_backward_cuda");
}

}  // namespace opscope::cuda
