// CUDA kernels of the reductions over the rows of a contiguous [rows, cols] block: sum, mean,
// prod, amax / amin, the vector norms, logsumexp, any / all, max / min with indices (argmax),
// var / std. The host side (reduce.cpp) permutes the reduced dims last and makes the input
// contiguous, so every reduction here is "one row -> one value".
//
// In implementation terms one block per row (grid-stride over rows), each thread accumulating a
// strided slice of the row, then a tree in shared memory: a fixed order, so results are
// deterministic run to run. Blocks are 32..256 threads, the fewest that cover a row. A reduction
// over middle dims of a contiguous input (sum(0) of a matrix: a bias gradient) reads it in place
// instead: Note [Reducing down columns].
#include <algorithm>
#include <cstdint>

#include "core/cuda/kernels/Reduce.cuh"

namespace opscope::cuda {

namespace {

template <typename A>
struct ReduceFns {
  ReduceOp op;
  A p;
  __device__ A identity() const {
    switch (op) {
      case ReduceOp::Prod:
      case ReduceOp::All: return A(1);
      case ReduceOp::Max: return lowest<A>();
      case ReduceOp::Min:
      case ReduceOp::NormNegInf: return highest<A>();
      default: return A(0);
    }
  }
  __device__ A transform(A x) const {
    switch (op) {
      case ReduceOp::NormP:
        if constexpr (std::is_floating_point_v<A>) return pow(abs_val(x), p);
        return x;
      case ReduceOp::Norm0: return x != A(0) ? A(1) : A(0);
      case ReduceOp::Norm1:
      case ReduceOp::NormInf:
      case ReduceOp::NormNegInf: return abs_val(x);
      case ReduceOp::Norm2: return x * x;
      case ReduceOp::Any:
      case ReduceOp::All: return x != A(0) ? A(1) : A(0);
      default: return x;
    }
  }
  __device__ A combine(A a, A b) const {
    switch (op) {
      case ReduceOp::Prod: return a * b;
      case ReduceOp::All: return (a != A(0) && b != A(0)) ? A(1) : A(0);
      case ReduceOp::Max:
      case ReduceOp::NormInf: return nan_max(a, b);
      case ReduceOp::Min:
      case ReduceOp::NormNegInf: return nan_min(a, b);
      case ReduceOp::Any: return (a != A(0) || b != A(0)) ? A(1) : A(0);
      default: return a + b;
    }
  }
  __device__ A project(A acc, int64_t cols) const {
    switch (op) {
      case ReduceOp::Mean: return acc / static_cast<A>(cols);
      case ReduceOp::NormP:
        if constexpr (std::is_floating_point_v<A>) return pow(acc, A(1) / p);
        return acc;
      case ReduceOp::Norm2:
        if constexpr (std::is_floating_point_v<A>) return sqrt(acc);
        return acc;
      default: return acc;
    }
  }
};

template <typename T, typename A>
__global__ void reduce_rows_kernel(const T* in, T* out, int64_t rows, int64_t cols,
                                   ReduceFns<A> f) {
  A* shared = shared_mem<A>();
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const T* row = in + r * cols;
    A acc = f.identity();
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x)
      acc = f.combine(acc, f.transform(cvt<A>(row[c])));
    acc = block_reduce(acc, shared, [&f](A a, A b) { return f.combine(a, b); });
    if (threadIdx.x == 0) out[r] = cvt<T>(f.project(acc, cols));
  }
}

// Note [Splitting long rows]
// One block per row leaves the GPU idle when there are few rows: a full reduction (x.sum(),
// a loss's mean()) is one row, and a single block reads 2M elements in ~1.5 ms where the
// whole GPU takes ~5 us (seen on the H200, 2026-11-27: aten::mean was 44% of a transformer
// block step's device time). A few long rows are therefore cut into chunks of >= 4096
// elements, about 1024 chunks in all: a block reduces each chunk to a partial (transformed and
// combined, not projected), then one block per row combines that row's partials in order and
// projects. Fixed orders throughout: the same result run to run.
template <typename T, typename A>
__global__ void reduce_row_chunks_kernel(const T* in, A* partials, int64_t rows, int64_t cols,
                                         int64_t chunk, int64_t splits, ReduceFns<A> f) {
  A* shared = shared_mem<A>();
  for (int64_t b = blockIdx.x; b < rows * splits; b += gridDim.x) {
    const int64_t r = b / splits, j = b - r * splits;
    const int64_t begin = j * chunk, end = begin + chunk < cols ? begin + chunk : cols;
    const T* row = in + r * cols;
    A acc = f.identity();
    for (int64_t c = begin + threadIdx.x; c < end; c += blockDim.x)
      acc = f.combine(acc, f.transform(cvt<A>(row[c])));
    acc = block_reduce(acc, shared, [&f](A x, A y) { return f.combine(x, y); });
    if (threadIdx.x == 0) partials[b] = acc;
  }
}

template <typename T, typename A>
__global__ void reduce_row_partials_kernel(const A* partials, T* out, int64_t rows,
                                           int64_t splits, int64_t cols, ReduceFns<A> f) {
  A* shared = shared_mem<A>();
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    A acc = f.identity();
    for (int64_t j = threadIdx.x; j < splits; j += blockDim.x)
      acc = f.combine(acc, partials[r * splits + j]);
    acc = block_reduce(acc, shared, [&f](A x, A y) { return f.combine(x, y); });
    if (threadIdx.x == 0) out[r] = cvt<T>(f.project(acc, cols));
  }
}

// Note [Reducing down columns]
// A reduction over the middle dims of a contiguous [outer, reduced, inner] input (sum(0) of a
// matrix: every bias gradient) reads it in place. A block covers 32 neighbouring columns — a
// warp reads 32 neighbouring elements of a row, one coalesced segment — with 16 warps taking
// every 16th row between them, four rows in flight per thread; the 16 partials of a column are
// then combined in shared memory. Few columns (a bias of 512) would leave most of the GPU idle,
// so the rows are also split among up to 64 blocks along y (Launch.h reduce_cols_splits) whose
// partials go to a workspace [splits, outer * inner] that a second launch combines. Every step
// has a fixed order: the result is the same run to run. float32 inputs of 4096 columns or more
// read four neighbouring columns per thread (reduce_cols_vec4_kernel, cols_vec4 below). Still
// 1.8x torch's time on (4096, 4096); not yet looked into: 512 blocks of 512 threads are about
// 1.3 waves of the H200's SMs, and the partials take a second launch.
constexpr int kColsX = 32;
constexpr int kColsY = 16;

// Transform: apply f.transform to what is read (the input; a workspace of partials is not).
// Project: write f.project(result) as Out (the last pass); otherwise the raw partial (Out = A).
template <bool Transform, bool Project, typename In, typename Out, typename A>
__global__ void reduce_cols_kernel(const In* in, Out* out, int64_t outer, int64_t reduced,
                                   int64_t inner, int64_t chunk, int64_t count, ReduceFns<A> f) {
  __shared__ A part[kColsY][kColsX + 1];
  const int64_t n = outer * inner;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t r0 = blockIdx.y * chunk;
  const int64_t r1 = r0 + chunk < reduced ? r0 + chunk : reduced;
  Out* dst = out + blockIdx.y * n;
  for (int64_t base = int64_t(blockIdx.x) * kColsX; base < n;
       base += int64_t(gridDim.x) * kColsX) {
    const int64_t j = base + tx;
    A acc = f.identity();
    if (j < n) {
      const int64_t o = j / inner, i = j - o * inner;
      const In* col = in + o * reduced * inner + i;
      auto load = [&](int64_t r) {
        A v = cvt<A>(col[r * inner]);
        if constexpr (Transform) v = f.transform(v);
        return v;
      };
      int64_t r = r0 + ty;
      for (; r + 3 * kColsY < r1; r += 4 * kColsY) {
        const A v0 = load(r), v1 = load(r + kColsY), v2 = load(r + 2 * kColsY),
                v3 = load(r + 3 * kColsY);
        acc = f.combine(acc, f.combine(f.combine(v0, v1), f.combine(v2, v3)));
      }
      for (; r < r1; r += kColsY) acc = f.combine(acc, load(r));
    }
    part[ty][tx] = acc;
    __syncthreads();
    if (ty == 0 && j < n) {
      A total = part[0][tx];
      for (int y = 1; y < kColsY; ++y) total = f.combine(total, part[y][tx]);
      if constexpr (Project) {
        dst[j] = cvt<Out>(f.project(total, count));
      } else {
        dst[j] = total;
      }
    }
    __syncthreads();
  }
}

// The same for float32 columns four at a time (inner a multiple of 4, the input 16-byte aligned):
// a thread reads a float4 of four neighbouring columns per row, a block covers 128 columns, and
// each column's value is combined in the scalar kernel's order, so the two give the same bits for
// the same row chunks. Four float4 loads in flight per thread instead of four floats.
template <bool Transform, bool Project, typename Out>
__global__ void reduce_cols_vec4_kernel(const float* in, Out* out, int64_t outer,
                                        int64_t reduced, int64_t inner, int64_t chunk,
                                        int64_t count, ReduceFns<float> f) {
  __shared__ float4 part[kColsY][kColsX];
  const int64_t nv = outer * inner / 4;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t r0 = blockIdx.y * chunk;
  const int64_t r1 = r0 + chunk < reduced ? r0 + chunk : reduced;
  Out* dst = out + blockIdx.y * outer * inner;
  auto combine4 = [&](float4 a, float4 b) {
    return make_float4(f.combine(a.x, b.x), f.combine(a.y, b.y), f.combine(a.z, b.z),
                       f.combine(a.w, b.w));
  };
  for (int64_t base = int64_t(blockIdx.x) * kColsX; base < nv;
       base += int64_t(gridDim.x) * kColsX) {
    const int64_t q = base + tx;  // columns 4q .. 4q + 3, one outer slice (inner % 4 == 0)
    const float id = f.identity();
    float4 acc = make_float4(id, id, id, id);
    if (q < nv) {
      const int64_t j = 4 * q, o = j / inner, i = j - o * inner;
      const float4* col = reinterpret_cast<const float4*>(in + o * reduced * inner + i);
      const int64_t step = inner / 4;
      auto load = [&](int64_t r) {
        const float4 v = col[r * step];
        if constexpr (!Transform) return v;
        return make_float4(f.transform(v.x), f.transform(v.y), f.transform(v.z),
                           f.transform(v.w));
      };
      int64_t r = r0 + ty;
      for (; r + 3 * kColsY < r1; r += 4 * kColsY) {
        const float4 v0 = load(r), v1 = load(r + kColsY), v2 = load(r + 2 * kColsY),
                     v3 = load(r + 3 * kColsY);
        acc = combine4(acc, combine4(combine4(v0, v1), combine4(v2, v3)));
      }
      for (; r < r1; r += kColsY) acc = combine4(acc, load(r));
    }
    part[ty][tx] = acc;
    __syncthreads();
    if (ty == 0 && q < nv) {
      float4 total = part[0][tx];
      for (int y = 1; y < kColsY; ++y) total = combine4(total, part[y][tx]);
      const float t[4] = {total.x, total.y, total.z, total.w};
      for (int k = 0; k < 4; ++k) {
        if constexpr (Project) {
          dst[4 * q + k] = cvt<Out>(f.project(t[k], count));
        } else {
          dst[4 * q + k] = t[k];
        }
      }
    }
    __syncthreads();
  }
}

// logsumexp: max, then log(sum(exp(x - max))) + max; an all -inf row gives -inf.
template <typename T, typename A>
__global__ void logsumexp_rows_kernel(const T* in, T* out, int64_t rows, int64_t cols) {
  A* shared = shared_mem<A>();
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const T* row = in + r * cols;
    A m = lowest<A>();
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) m = nan_max(m, cvt<A>(row[c]));
    m = block_reduce(m, shared, [](A a, A b) { return nan_max(a, b); });
    A shift = isinf(m) ? A(0) : m;
    A s = A(0);
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) s += exp(cvt<A>(row[c]) - shift);
    s = block_reduce(s, shared, [](A a, A b) { return a + b; });
    if (threadIdx.x == 0) out[r] = cvt<T>(log(s) + shift);
  }
}

template <typename A>
struct ValIdx {
  A v;
  int64_t i;
};

// The better of two (value, index) pairs: NaN first, then the larger (smaller) value, then the
// smaller index — torch's first occurrence.
template <bool IsMax, typename A>
__device__ __forceinline__ ValIdx<A> pick(ValIdx<A> a, ValIdx<A> b) {
  bool a_nan = is_nan(a.v), b_nan = is_nan(b.v);
  if (a_nan || b_nan) {
    if (a_nan && b_nan) return a.i <= b.i ? a : b;
    return a_nan ? a : b;
  }
  if (a.v == b.v) return a.i <= b.i ? a : b;
  return (IsMax ? a.v > b.v : a.v < b.v) ? a : b;
}

template <bool IsMax, typename T, typename A>
__global__ void arg_reduce_rows_kernel(const T* in, T* values, int64_t* indices, int64_t rows,
                                       int64_t cols) {
  ValIdx<A>* shared = shared_mem<ValIdx<A>>();
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const T* row = in + r * cols;
    ValIdx<A> best{IsMax ? lowest<A>() : highest<A>(), INT64_MAX};
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x)
      best = pick<IsMax>(best, ValIdx<A>{cvt<A>(row[c]), c});
    best = block_reduce(best, shared,
                        [](ValIdx<A> a, ValIdx<A> b) { return pick<IsMax>(a, b); });
    if (threadIdx.x == 0) {
      if (values) values[r] = cvt<T>(best.v);
      indices[r] = best.i == INT64_MAX ? 0 : best.i;
    }
  }
}

// Two passes over the row: the mean, then the squared deviations from it (no cancellation).
template <typename T, typename A>
__global__ void var_rows_kernel(const T* in, T* var, T* mean, int64_t rows, int64_t cols,
                                A correction, bool take_sqrt) {
  A* shared = shared_mem<A>();
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const T* row = in + r * cols;
    A s = A(0);
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) s += cvt<A>(row[c]);
    s = block_reduce(s, shared, [](A a, A b) { return a + b; });
    const A m = s / static_cast<A>(cols);
    A sq = A(0);
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
      A d = cvt<A>(row[c]) - m;
      sq += d * d;
    }
    sq = block_reduce(sq, shared, [](A a, A b) { return a + b; });
    if (threadIdx.x == 0) {
      A dof = static_cast<A>(cols) - correction;
      if (dof < A(0)) dof = A(0);
      A v = sq / dof;
      var[r] = cvt<T>(take_sqrt ? sqrt(v) : v);
      if (mean) mean[r] = cvt<T>(m);
    }
  }
}

}  // namespace

int64_t reduce_rows_splits(int64_t rows, int64_t cols) {
  if (rows >= 512 || cols < 16384) return 1;  // enough rows, or rows too short to cut
  int64_t splits = 1024 / rows;
  if (splits > cols / 4096) splits = cols / 4096;
  if (splits < 2) return 1;
  const int64_t chunk = (cols + splits - 1) / splits;
  return (cols + chunk - 1) / chunk;  // no empty chunk
}

int64_t reduce_rows_workspace_bytes(int64_t rows, int64_t cols) {
  const int64_t splits = reduce_rows_splits(rows, cols);
  return splits > 1 ? rows * splits * 8 : 0;  // 8: the widest accumulator
}

void launch_reduce_rows(ReduceOp op, DT in_dt, DT out_dt, const void* in, void* out, int64_t rows,
                        int64_t cols, double p, void* workspace, void* stream) {
  if (rows == 0) return;
  if (in_dt != out_dt) throw_cuda_error("reduce_cuda", "input and output dtypes differ");
  const int64_t splits = op == ReduceOp::LogSumExp ? 1 : reduce_rows_splits(rows, cols);
  if (splits > 1) {  // Note [Splitting long rows]
    if (workspace == nullptr) throw_cuda_error("reduce_cuda", "no workspace");
    const int64_t chunk = (cols + splits - 1) / splits;
    const int64_t chunks = rows * splits;
    const unsigned grid1 = static_cast<unsigned>(chunks < 65536 ? chunks : 65536);
    const unsigned grid2 = static_cast<unsigned>(rows < 65536 ? rows : 65536);
    constexpr unsigned kThreads = 256;
    dispatch_dt(in_dt, "reduce_cuda", [&]<typename T>() {
      using A = std::conditional_t<IsFloat<T>::value, acc_t<T>, int64_t>;
      ReduceFns<A> f{op, static_cast<A>(p)};
      A* partials = static_cast<A*>(workspace);
      reduce_row_chunks_kernel<T, A><<<grid1, kThreads, kThreads * sizeof(A), as_stream(stream)>>>(
          static_cast<const T*>(in), partials, rows, cols, chunk, splits, f);
      reduce_row_partials_kernel<T, A>
          <<<grid2, kThreads, kThreads * sizeof(A), as_stream(stream)>>>(
              partials, static_cast<T*>(out), rows, splits, cols, f);
    });
    check_launch("reduce_cuda");
    return;
  }
  const RowLaunch l = row_launch(rows, cols);
  if (op == ReduceOp::LogSumExp) {
    dispatch_float(in_dt, "logsumexp_cuda", [&]<typename T>() {
      using A = acc_t<T>;
      logsumexp_rows_kernel<T, A><<<l.grid, l.block, l.block * sizeof(A), as_stream(stream)>>>(
          static_cast<const T*>(in), static_cast<T*>(out), rows, cols);
    });
    check_launch("logsumexp_cuda");
    return;
  }
  dispatch_dt(in_dt, "reduce_cuda", [&]<typename T>() {
    // Integers and bool accumulate in int64 (the host passed them as int64 where torch's result
    // is int64), the 16-bit floats in float.
    using A = std::conditional_t<IsFloat<T>::value, acc_t<T>, int64_t>;
    ReduceFns<A> f{op, static_cast<A>(p)};
    reduce_rows_kernel<T, A><<<l.grid, l.block, l.block * sizeof(A), as_stream(stream)>>>(
        static_cast<const T*>(in), static_cast<T*>(out), rows, cols, f);
  });
  check_launch("reduce_cuda");
}

// Row splits for `col_blocks` blocks of columns: about 512 blocks (four per SM of an H100 / H200),
// each still reading 64 rows or more.
int64_t splits_for(int64_t col_blocks, int64_t reduced) {
  int64_t splits = 512 / (col_blocks > 0 ? col_blocks : 1);
  if (splits > reduced / 64) splits = reduced / 64;
  if (splits > 64) splits = 64;
  return splits > 1 ? splits : 1;
}

int64_t reduce_cols_splits(int64_t outer, int64_t reduced, int64_t inner) {
  return splits_for((outer * inner + kColsX - 1) / kColsX, reduced);
}

// Whether the float32 columns go four at a time (reduce_cols_vec4_kernel): inner a multiple of 4,
// the input 16-byte aligned, and at least 4096 columns (32 blocks of 128). Measured on the H200
// (2026-11-27, torch 2.11 beside): sum(0) of (4096, 4096) 0.071 -> 0.051 ms (torch 0.028),
// amax(0) 0.073 -> 0.059 (0.028); but (4096, 512), four column blocks split 64 ways, went
// 0.0146 -> 0.0181 (torch 0.0113), so fewer columns stay with the scalar kernel.
bool cols_vec4(int64_t n, int64_t inner, const void* in) {
  return n >= 4096 && inner % 4 == 0 && reinterpret_cast<uintptr_t>(in) % 16 == 0;
}

int64_t vec4_splits(int64_t outer, int64_t reduced, int64_t inner) {
  return splits_for((outer * inner / 4 + kColsX - 1) / kColsX, reduced);
}

int64_t reduce_cols_workspace_bytes(int64_t outer, int64_t reduced, int64_t inner) {
  // Room for either kernel's partials (the host does not pass the dtype).
  int64_t splits = reduce_cols_splits(outer, reduced, inner);
  if (cols_vec4(outer * inner, inner, nullptr))
    splits = std::max(splits, vec4_splits(outer, reduced, inner));
  return splits > 1 ? splits * outer * inner * 8 : 0;  // 8: the widest accumulator
}

void launch_reduce_cols(ReduceOp op, DT dt, const void* in, void* out, int64_t outer,
                        int64_t reduced, int64_t inner, double p, void* workspace,
                        void* stream) {
  const int64_t n = outer * inner;
  if (n == 0) return;
  const int64_t splits = reduce_cols_splits(outer, reduced, inner);
  if (splits > 1 && workspace == nullptr) throw_cuda_error("reduce_cuda", "no workspace");
  int64_t col_blocks = (n + kColsX - 1) / kColsX;
  if (col_blocks > (int64_t(1) << 20)) col_blocks = int64_t(1) << 20;  // then a grid-stride loop
  const dim3 block(kColsX, kColsY);
  dispatch_dt(dt, "reduce_cuda", [&]<typename T>() {
    using A = std::conditional_t<IsFloat<T>::value, acc_t<T>, int64_t>;
    ReduceFns<A> f{op, static_cast<A>(p)};
    const T* src = static_cast<const T*>(in);
    T* dst = static_cast<T*>(out);
    if constexpr (std::is_same_v<T, float>) {
      if (cols_vec4(n, inner, in)) {
        const int64_t vsplits = vec4_splits(outer, reduced, inner);
        int64_t vblocks = (n / 4 + kColsX - 1) / kColsX;
        if (vblocks > (int64_t(1) << 20)) vblocks = int64_t(1) << 20;
        if (vsplits == 1) {
          reduce_cols_vec4_kernel<true, true, float>
              <<<dim3(unsigned(vblocks), 1), block, 0, as_stream(stream)>>>(
                  src, dst, outer, reduced, inner, reduced, reduced, f);
          return;
        }
        if (workspace == nullptr) throw_cuda_error("reduce_cuda", "no workspace");
        float* partials = static_cast<float*>(workspace);
        reduce_cols_vec4_kernel<true, false, float>
            <<<dim3(unsigned(vblocks), unsigned(vsplits)), block, 0, as_stream(stream)>>>(
                src, partials, outer, reduced, inner, (reduced + vsplits - 1) / vsplits, reduced,
                f);
        reduce_cols_vec4_kernel<false, true, float>
            <<<dim3(unsigned(vblocks), 1), block, 0, as_stream(stream)>>>(
                partials, dst, 1, vsplits, n, vsplits, reduced, f);
        return;
      }
    }
    if (splits == 1) {
      reduce_cols_kernel<true, true, T, T, A>
          <<<dim3(unsigned(col_blocks), 1), block, 0, as_stream(stream)>>>(
              src, dst, outer, reduced, inner, reduced, reduced, f);
      return;
    }
    A* partials = static_cast<A*>(workspace);
    const int64_t chunk = (reduced + splits - 1) / splits;
    reduce_cols_kernel<true, false, T, A, A>
        <<<dim3(unsigned(col_blocks), unsigned(splits)), block, 0, as_stream(stream)>>>(
            src, partials, outer, reduced, inner, chunk, reduced, f);
    reduce_cols_kernel<false, true, A, T, A>
        <<<dim3(unsigned(col_blocks), 1), block, 0, as_stream(stream)>>>(
            partials, dst, 1, splits, n, splits, reduced, f);
  });
  check_launch("reduce_cuda");
}

void launch_arg_reduce_rows(bool is_max, DT dt, const void* in, void* values, int64_t* indices,
                            int64_t rows, int64_t cols, void* stream) {
  if (rows == 0) return;
  const RowLaunch l = row_launch(rows, cols);
  dispatch_numeric(dt, "arg_reduce_cuda", [&]<typename T>() {
    using A = std::conditional_t<IsFloat<T>::value, acc_t<T>, int64_t>;
    size_t smem = l.block * sizeof(ValIdx<A>);
    if (is_max) {
      arg_reduce_rows_kernel<true, T, A><<<l.grid, l.block, smem, as_stream(stream)>>>(
          static_cast<const T*>(in), static_cast<T*>(values), indices, rows, cols);
    } else {
      arg_reduce_rows_kernel<false, T, A><<<l.grid, l.block, smem, as_stream(stream)>>>(
          static_cast<const T*>(in), static_cast<T*>(values), indices, rows, cols);
    }
  });
  check_launch("arg_reduce_cuda");
}

void launch_var_rows(DT dt, const void* in, void* var, void* mean, int64_t rows, int64_t cols,
                     double correction, bool take_sqrt, void* stream) {
  if (rows == 0) return;
  const RowLaunch l = row_launch(rows, cols);
  dispatch_float(dt, "var_cuda", [&]<typename T>() {
    using A = acc_t<T>;
    var_rows_kernel<T, A><<<l.grid, l.block, l.block * sizeof(A), as_stream(stream)>>>(
        static_cast<const T*>(in), static_cast<T*>(var), static_cast<T*>(mean), rows, cols,
        static_cast<A>(correction), take_sqrt);
  });
  check_launch("var_cuda");
}

}  // namespace opscope::cuda
