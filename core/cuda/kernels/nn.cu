// CUDA kernels of the nn family that need more than one pass over a row: softmax /
// log_softmax, layer norm, nll_loss; and the Philox-driven random fills (dropout, uniform_,
// normal_, bernoulli_, randint's ranges).
#include "core/cuda/kernels/Reduce.cuh"

namespace opscope::cuda {

namespace {

// --- softmax ------------------------------------------------------------------------------------

// max, sum of exp(x - max), then the write: out = exp(x - max) / sum, or x - max - log(sum).
template <bool Log, typename In, typename Out>
__global__ void softmax_rows_kernel(const In* in, Out* out, int64_t rows, int64_t cols) {
  using A = acc_t<In>;
  A* shared = shared_mem<A>();
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const In* row = in + r * cols;
    Out* orow = out + r * cols;
    A m = lowest<A>();
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) m = nan_max(m, cvt<A>(row[c]));
    m = block_reduce(m, shared, [](A a, A b) { return nan_max(a, b); });
    A s = A(0);
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) s += exp(cvt<A>(row[c]) - m);
    s = block_reduce(s, shared, [](A a, A b) { return a + b; });
    if constexpr (Log) {
      const A shift = m + log(s);
      for (int64_t c = threadIdx.x; c < cols; c += blockDim.x)
        orow[c] = cvt<Out>(cvt<A>(row[c]) - shift);
    } else {
      const A inv = A(1) / s;  // as the CPU kernel (core/ops/cpu/softmax.cpp)
      for (int64_t c = threadIdx.x; c < cols; c += blockDim.x)
        orow[c] = cvt<Out>(exp(cvt<A>(row[c]) - m) * inv);
    }
  }
}

// Note [Rows that fit a warp's registers]
// A row of at most kWarpRow (1024) elements is read once into the registers of one warp, 32 per
// lane at most (lane l holds elements l, l + 32, ...): the input is read once and the output
// written once, with shuffles for the reductions and no shared memory or block barrier; four
// warps (four rows) to a block, so an SM keeps many rows in flight where a block per row kept
// one per 256 threads. Layer norm and softmax / log_softmax take it. On the H200 (2026-11-27,
// bench_cuda, torch 2.11 in the same process): layer_norm of (16384, 1024) 0.094 ms with a block
// per row -> 0.052 (torch 0.057); softmax of (16384, 1024) 0.063 -> 0.046 ms (torch 0.038),
// log_softmax 0.065 -> 0.047 (0.036), softmax of (16384, 128) 0.015 -> 0.0064 (0.0070). (A first
// warp softmax, 2026-11-26, had measured 0.159 ms against the block kernel's 0.126; this one
// sizes its registers to the row, 1 to 32 a lane.) Longer rows take the block kernels: up to
// 8 * 256 elements held in registers (Note [A softmax row in registers]), beyond that one read
// of the row per pass.
constexpr int64_t kWarpRow = 1024;
constexpr int kWarpsPerBlock = 4;

inline unsigned warp_row_grid(int64_t rows) {
  const int64_t blocks = (rows + kWarpsPerBlock - 1) / kWarpsPerBlock;
  return static_cast<unsigned>(blocks < (int64_t(1) << 20) ? blocks : int64_t(1) << 20);
}

// Note [A softmax row in registers]
// A row of at most 8 * blockDim.x elements is read from memory once: each thread keeps its N
// elements (c = threadIdx.x + i * blockDim.x, coalesced) in registers through the max, the sum
// and the write, where the block kernel above reads the row once per pass. The arithmetic is the
// block kernel's, step for step, so both give the same bits.
template <bool Log, typename In, typename Out, int N>
__global__ void softmax_rows_in_registers_kernel(const In* in, Out* out, int64_t rows,
                                                 int64_t cols) {
  using A = acc_t<In>;
  A* shared = shared_mem<A>();
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const In* row = in + r * cols;
    Out* orow = out + r * cols;
    A v[N];
    A m = lowest<A>();
#pragma unroll
    for (int i = 0; i < N; ++i) {
      const int64_t c = threadIdx.x + int64_t(i) * blockDim.x;
      v[i] = c < cols ? cvt<A>(row[c]) : lowest<A>();
      m = nan_max(m, v[i]);
    }
    m = block_reduce(m, shared, [](A a, A b) { return nan_max(a, b); });
    A s = A(0);
#pragma unroll
    for (int i = 0; i < N; ++i) {
      if (threadIdx.x + int64_t(i) * blockDim.x >= cols) continue;
      const A e = exp(v[i] - m);
      s += e;
      if constexpr (!Log) v[i] = e;
    }
    s = block_reduce(s, shared, [](A a, A b) { return a + b; });
    const A shift = Log ? m + log(s) : A(0);
    const A inv = A(1) / s;
#pragma unroll
    for (int i = 0; i < N; ++i) {
      const int64_t c = threadIdx.x + int64_t(i) * blockDim.x;
      if (c < cols) orow[c] = cvt<Out>(Log ? v[i] - shift : v[i] * inv);
    }
  }
}

// Rows of at most 32 * K elements, a warp each (lane l holds elements l, l + 32, ...): the layer
// norm warp kernel's scheme (Note [Rows that fit a warp's registers]) with K sized to the row,
// max and sum by shuffles.
template <bool Log, typename In, typename Out, int K>
__global__ void softmax_warp_kernel(const In* in, Out* out, int64_t rows, int64_t cols) {
  using A = acc_t<In>;
  const int lane = threadIdx.x % 32;
  const int64_t stride = int64_t(gridDim.x) * kWarpsPerBlock;
  for (int64_t r = int64_t(blockIdx.x) * kWarpsPerBlock + threadIdx.x / 32; r < rows;
       r += stride) {
    const In* row = in + r * cols;
    Out* orow = out + r * cols;
    A v[K];
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const int64_t c = lane + 32 * k;
      v[k] = c < cols ? cvt<A>(row[c]) : lowest<A>();
    }
    A m = lowest<A>();
#pragma unroll
    for (int k = 0; k < K; ++k) m = nan_max(m, v[k]);
    m = warp_allreduce(m, [](A a, A b) { return nan_max(a, b); });
    A s = A(0);
#pragma unroll
    for (int k = 0; k < K; ++k) {
      if (lane + 32 * k < cols) {
        const A e = exp(v[k] - m);
        s += e;
        if constexpr (!Log) v[k] = e;
      }
    }
    s = warp_allreduce(s, [](A a, A b) { return a + b; });
    const A shift = Log ? m + log(s) : A(0);
    const A inv = A(1) / s;
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const int64_t c = lane + 32 * k;
      if (c < cols) orow[c] = cvt<Out>(Log ? v[k] - shift : v[k] * inv);
    }
  }
}

template <bool Log, typename In, typename Out>
void softmax_launch_rows(const RowLaunch& l, const void* in, void* out, int64_t rows,
                         int64_t cols, cudaStream_t stream) {
  using A = acc_t<In>;
  const auto* x = static_cast<const In*>(in);
  auto* y = static_cast<Out*>(out);
  const size_t shared = l.block * sizeof(A);
  const int64_t per_thread = (cols + l.block - 1) / l.block;
  auto launch = [&](auto kernel) {
    kernel<<<l.grid, l.block, shared, stream>>>(x, y, rows, cols);
  };
  auto by_warps = [&](auto kernel) {
    kernel<<<warp_row_grid(rows), 32 * kWarpsPerBlock, 0, stream>>>(x, y, rows, cols);
  };
  if (cols <= kWarpRow) {
    if (cols <= 32) {
      by_warps(softmax_warp_kernel<Log, In, Out, 1>);
    } else if (cols <= 64) {
      by_warps(softmax_warp_kernel<Log, In, Out, 2>);
    } else if (cols <= 128) {
      by_warps(softmax_warp_kernel<Log, In, Out, 4>);
    } else if (cols <= 256) {
      by_warps(softmax_warp_kernel<Log, In, Out, 8>);
    } else if (cols <= 512) {
      by_warps(softmax_warp_kernel<Log, In, Out, 16>);
    } else {
      by_warps(softmax_warp_kernel<Log, In, Out, 32>);
    }
  } else if (per_thread <= 8) {  // rows of 1025 to 2048 (blocks of 256)
    launch(softmax_rows_in_registers_kernel<Log, In, Out, 8>);
  } else {
    launch(softmax_rows_kernel<Log, In, Out>);
  }
}

template <typename In, typename Out>
void softmax_launch(bool log, const void* in, void* out, int64_t rows, int64_t cols,
                    void* stream) {
  const RowLaunch l = row_launch(rows, cols);
  if (log) {
    softmax_launch_rows<true, In, Out>(l, in, out, rows, cols, as_stream(stream));
  } else {
    softmax_launch_rows<false, In, Out>(l, in, out, rows, cols, as_stream(stream));
  }
}

// --- layer norm ---------------------------------------------------------------------------------

template <typename T, typename A>
__global__ void layer_norm_kernel(const T* in, const T* w, const T* b, T* out, A* mean_out,
                                  A* rstd_out, int64_t rows, int64_t cols, A eps) {
  A* shared = shared_mem<A>();
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const T* row = in + r * cols;
    T* orow = out + r * cols;
    A s = A(0);
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) s += cvt<A>(row[c]);
    s = block_reduce(s, shared, [](A x, A y) { return x + y; });
    const A m = s / static_cast<A>(cols);
    A sq = A(0);
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
      A d = cvt<A>(row[c]) - m;
      sq += d * d;
    }
    sq = block_reduce(sq, shared, [](A x, A y) { return x + y; });
    const A rstd = A(1) / sqrt(sq / static_cast<A>(cols) + eps);
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
      A v = (cvt<A>(row[c]) - m) * rstd;
      if (w) v *= cvt<A>(w[c]);
      if (b) v += cvt<A>(b[c]);
      orow[c] = cvt<T>(v);
    }
    if (threadIdx.x == 0) {
      mean_out[r] = m;
      rstd_out[r] = rstd;
    }
  }
}

// Rows of at most kWarpRow elements: Note [Rows that fit a warp's registers].
template <typename T, typename A>
__global__ void layer_norm_warp_kernel(const T* in, const T* w, const T* b, T* out, A* mean_out,
                                       A* rstd_out, int64_t rows, int64_t cols, A eps) {
  const int lane = threadIdx.x % 32;
  const int64_t stride = int64_t(gridDim.x) * kWarpsPerBlock;
  for (int64_t r = int64_t(blockIdx.x) * kWarpsPerBlock + threadIdx.x / 32; r < rows;
       r += stride) {
    const T* row = in + r * cols;
    T* orow = out + r * cols;
    A v[32];
    A s = A(0);
#pragma unroll
    for (int k = 0; k < 32; ++k) {
      const int64_t c = lane + 32 * k;
      v[k] = c < cols ? cvt<A>(row[c]) : A(0);
      s += v[k];
    }
    s = warp_allreduce(s, [](A x, A y) { return x + y; });
    const A m = s / static_cast<A>(cols);
    A sq = A(0);
#pragma unroll
    for (int k = 0; k < 32; ++k) {
      if (lane + 32 * k < cols) {
        v[k] -= m;
        sq += v[k] * v[k];
      }
    }
    sq = warp_allreduce(sq, [](A x, A y) { return x + y; });
    const A rstd = A(1) / sqrt(sq / static_cast<A>(cols) + eps);
#pragma unroll
    for (int k = 0; k < 32; ++k) {
      const int64_t c = lane + 32 * k;
      if (c < cols) {
        A y = v[k] * rstd;
        if (w) y *= cvt<A>(w[c]);
        if (b) y += cvt<A>(b[c]);
        orow[c] = cvt<T>(y);
      }
    }
    if (lane == 0) {
      mean_out[r] = m;
      rstd_out[r] = rstd;
    }
  }
}

// --- nll_loss -----------------------------------------------------------------------------------

template <typename T, typename A>
__global__ void nll_loss_none_kernel(const T* self, const int64_t* target, const T* weight,
                                     T* out, int64_t n, int64_t c, int64_t ignore_index,
                                     int64_t* bad) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t t = target[i];
    if (t == ignore_index) {
      out[i] = cvt<T>(A(0));
      continue;
    }
    if (t < 0 || t >= c) {
      *bad = t + 1;  // the host reads the flag and raises torch's message
      out[i] = cvt<T>(A(0));
      continue;
    }
    const A w = weight ? cvt<A>(weight[t]) : A(1);
    out[i] = cvt<T>(-w * cvt<A>(self[i * c + t]));
  }
}

// One block: the weighted sum and the total weight; the mean divides them.
template <typename T, typename A>
__global__ void nll_loss_reduce_kernel(const T* self, const int64_t* target, const T* weight,
                                       T* out, T* total_weight, int64_t n, int64_t c,
                                       bool mean, int64_t ignore_index, int64_t* bad) {
  A* shared = shared_mem<A>();
  A s = A(0), tw = A(0);
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x) {
    const int64_t t = target[i];
    if (t == ignore_index) continue;
    if (t < 0 || t >= c) {
      *bad = t + 1;
      continue;
    }
    const A w = weight ? cvt<A>(weight[t]) : A(1);
    s -= w * cvt<A>(self[i * c + t]);
    tw += w;
  }
  s = block_reduce(s, shared, [](A x, A y) { return x + y; });
  tw = block_reduce(tw, shared, [](A x, A y) { return x + y; });
  if (threadIdx.x == 0) {
    out[0] = cvt<T>(mean ? s / tw : s);
    total_weight[0] = cvt<T>(tw);
  }
}

// --- Philox4x32-10 (as core/runtime/Generator.cpp's philox4x32) ------------------------------

struct U4 {
  uint32_t x[4];
};

__device__ __forceinline__ U4 philox(uint64_t seed, uint64_t counter) {
  uint32_t c0 = static_cast<uint32_t>(counter), c1 = static_cast<uint32_t>(counter >> 32);
  uint32_t c2 = 0, c3 = 0;
  uint32_t k0 = static_cast<uint32_t>(seed), k1 = static_cast<uint32_t>(seed >> 32);
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
    uint64_t p0 = static_cast<uint64_t>(0xD2511F53u) * c0;
    uint64_t p1 = static_cast<uint64_t>(0xCD9E8D57u) * c2;
    uint32_t hi0 = static_cast<uint32_t>(p0 >> 32), lo0 = static_cast<uint32_t>(p0);
    uint32_t hi1 = static_cast<uint32_t>(p1 >> 32), lo1 = static_cast<uint32_t>(p1);
    uint32_t n0 = hi1 ^ c1 ^ k0, n2 = hi0 ^ c3 ^ k1;
    c0 = n0;
    c1 = lo1;
    c2 = n2;
    c3 = lo0;
  }
  return U4{{c0, c1, c2, c3}};
}

__device__ __forceinline__ float u24(uint32_t x) {
  return static_cast<float>(x >> 8) * (1.0f / 16777216.0f);
}
__device__ __forceinline__ double u53(uint32_t hi, uint32_t lo) {
  uint64_t x = (static_cast<uint64_t>(hi) << 32) | lo;
  return static_cast<double>(x >> 11) * (1.0 / 9007199254740992.0);
}

// Element i's uniform in [0, 1): counter block offset + i (one block per element keeps the
// mapping simple; the host reserves n blocks). Double draws take 53 bits, the rest 24.
template <typename A>
__device__ __forceinline__ A uniform_at(uint64_t seed, uint64_t offset, int64_t i, int lane = 0) {
  U4 r = philox(seed, offset + static_cast<uint64_t>(i));
  if constexpr (std::is_same_v<A, double>) return u53(r.x[2 * lane], r.x[2 * lane + 1]);
  return u24(r.x[lane]);
}

template <typename T>
__global__ void dropout_kernel(const T* in, T* out, bool* mask, int64_t n, float p1m,
                               acc_t<T> scale, uint64_t seed, uint64_t offset) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const bool keep = uniform_at<float>(seed, offset, i) < p1m;
    mask[i] = keep;
    out[i] = cvt<T>(keep ? cvt<acc_t<T>>(in[i]) * scale : acc_t<T>(0));
  }
}

template <typename T>
__global__ void uniform_kernel(T* data, int64_t n, acc_t<T> from, acc_t<T> to, uint64_t seed,
                               uint64_t offset) {
  using A = acc_t<T>;
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    A u = uniform_at<A>(seed, offset, i);
    A v = from + u * (to - from);
    if (v >= to) v = from;  // rounding never reaches `to`
    data[i] = cvt<T>(v);
  }
}

// Box-Muller from the element's own counter block (two uniforms), so any n works.
template <typename T>
__global__ void normal_kernel(T* data, int64_t n, acc_t<T> mean, acc_t<T> std, uint64_t seed,
                              uint64_t offset) {
  using A = acc_t<T>;
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    A u1 = uniform_at<A>(seed, offset, i, 0), u2 = uniform_at<A>(seed, offset, i, 1);
    A radius = sqrt(A(-2) * log(A(1) - u1));  // 1 - u1 in (0, 1]: no log(0)
    A z = radius * cos(A(6.283185307179586) * u2);
    data[i] = cvt<T>(mean + std * z);
  }
}

template <typename T>
__global__ void bernoulli_kernel(T* data, int64_t n, float p, uint64_t seed, uint64_t offset) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    data[i] = cvt<T>(uniform_at<float>(seed, offset, i) < p ? 1.0f : 0.0f);
  }
}

template <typename T>
__global__ void random_range_kernel(T* data, int64_t n, uint64_t range, int64_t base,
                                    uint64_t seed, uint64_t offset) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    U4 r = philox(seed, offset + static_cast<uint64_t>(i));
    uint64_t x = (static_cast<uint64_t>(r.x[0]) << 32) | r.x[1];
    data[i] = cvt<T>(static_cast<int64_t>(static_cast<uint64_t>(base) + x % range));
  }
}

}  // namespace

void launch_random_range(DT dt, void* data, int64_t n, uint64_t range, int64_t base,
                         uint64_t seed, uint64_t offset, void* stream) {
  if (n == 0) return;
  dispatch_dt(dt, "random_cuda", [&]<typename T>() {
    random_range_kernel<T><<<grid_for(n), kBlock, 0, as_stream(stream)>>>(
        static_cast<T*>(data), n, range, base, seed, offset);
  });
  check_launch("random_cuda");
}

void launch_softmax_rows(bool log, DT in_dt, DT out_dt, const void* in, void* out, int64_t rows,
                         int64_t cols, void* stream) {
  if (rows == 0 || cols == 0) return;
  if (in_dt != out_dt) {
    if (out_dt != DT::Float) throw_cuda_error("softmax_cuda", "unsupported output dtype");
    if (in_dt == DT::Half) softmax_launch<half, float>(log, in, out, rows, cols, stream);
    else if (in_dt == DT::BFloat16) softmax_launch<bf16, float>(log, in, out, rows, cols, stream);
    else throw_cuda_error("softmax_cuda", "unsupported input dtype");
  } else {
    dispatch_float(in_dt, "softmax_cuda", [&]<typename T>() {
      softmax_launch<T, T>(log, in, out, rows, cols, stream);
    });
  }
  check_launch("softmax_cuda");
}

void launch_layer_norm(DT dt, const void* in, const void* w, const void* b, void* out, void* mean,
                       void* rstd, int64_t rows, int64_t cols, double eps, void* stream) {
  if (rows == 0) return;
  const RowLaunch l = row_launch(rows, cols);
  dispatch_float(dt, "layer_norm_cuda", [&]<typename T>() {
    using A = acc_t<T>;
    if (cols > 0 && cols <= kWarpRow) {
      layer_norm_warp_kernel<T, A>
          <<<warp_row_grid(rows), 32 * kWarpsPerBlock, 0, as_stream(stream)>>>(
              static_cast<const T*>(in), static_cast<const T*>(w), static_cast<const T*>(b),
              static_cast<T*>(out), static_cast<A*>(mean), static_cast<A*>(rstd), rows, cols,
              static_cast<A>(eps));
      return;
    }
    layer_norm_kernel<T, A><<<l.grid, l.block, l.block * sizeof(A), as_stream(stream)>>>(
        static_cast<const T*>(in), static_cast<const T*>(w), static_cast<const T*>(b),
        static_cast<T*>(out), static_cast<A*>(mean), static_cast<A*>(rstd), rows, cols,
        static_cast<A>(eps));
  });
  check_launch("layer_norm_cuda");
}

void launch_nll_loss(DT dt, const void* self, const int64_t* target, const void* weight,
                     void* out, void* total_weight, int64_t n, int64_t c, int64_t reduction,
                     int64_t ignore_index, int64_t* bad, void* stream) {
  dispatch_float(dt, "nll_loss_cuda", [&]<typename T>() {
    using A = acc_t<T>;
    if (reduction == 0) {
      if (n == 0) return;
      nll_loss_none_kernel<T, A><<<grid_for(n), kBlock, 0, as_stream(stream)>>>(
          static_cast<const T*>(self), target, static_cast<const T*>(weight),
          static_cast<T*>(out), n, c, ignore_index, bad);
    } else {
      nll_loss_reduce_kernel<T, A><<<1, kBlock, kBlock * sizeof(A), as_stream(stream)>>>(
          static_cast<const T*>(self), target, static_cast<const T*>(weight),
          static_cast<T*>(out), static_cast<T*>(total_weight), n, c, reduction == 1,
          ignore_index, bad);
    }
  });
  check_launch("nll_loss_cuda");
}

void launch_dropout(DT dt, const void* in, void* out, bool* mask, int64_t n, double p1m,
                    double scale, uint64_t seed, uint64_t offset, void* stream) {
  if (n == 0) return;
  dispatch_float(dt, "dropout_cuda", [&]<typename T>() {
    dropout_kernel<T><<<grid_for(n), kBlock, 0, as_stream(stream)>>>(
        static_cast<const T*>(in), static_cast<T*>(out), mask, n, static_cast<float>(p1m),
        static_cast<acc_t<T>>(scale), seed, offset);
  });
  check_launch("dropout_cuda");
}

void launch_uniform(DT dt, void* data, int64_t n, double from, double to, uint64_t seed,
                    uint64_t offset, void* stream) {
  if (n == 0) return;
  dispatch_float(dt, "uniform_cuda", [&]<typename T>() {
    using A = acc_t<T>;
    uniform_kernel<T><<<grid_for(n), kBlock, 0, as_stream(stream)>>>(
        static_cast<T*>(data), n, static_cast<A>(from), static_cast<A>(to), seed, offset);
  });
  check_launch("uniform_cuda");
}

void launch_normal(DT dt, void* data, int64_t n, double mean, double std, uint64_t seed,
                   uint64_t offset, void* stream) {
  if (n == 0) return;
  dispatch_float(dt, "normal_cuda", [&]<typename T>() {
    using A = acc_t<T>;
    normal_kernel<T><<<grid_for(n), kBlock, 0, as_stream(stream)>>>(
        static_cast<T*>(data), n, static_cast<A>(mean), static_cast<A>(std), seed, offset);
  });
  check_launch("normal_cuda");
}

void launch_bernoulli(DT dt, void* data, int64_t n, double p, uint64_t seed, uint64_t offset,
                      void* stream) {
  if (n == 0) return;
  dispatch_dt(dt, "bernoulli_cuda", [&]<typename T>() {
    bernoulli_kernel<T><<<grid_for(n), kBlock, 0, as_stream(stream)>>>(
        static_cast<T*>(data), n, static_cast<float>(p), seed, offset);
  });
  check_launch("bernoulli_cuda");
}

}  // namespace opscope::cuda
