// CUDA kernels of the reductions over the rows of a contiguous [rows, cols] block: sum, mean,
// prod, amax / amin, the vector norms, logsumexp, any / all, max / min with indices (argmax),
// var / std. The host side (reduce.cpp) permutes the reduced dims last and makes the input
// contiguous, so every reduction here is "one row -> one value".
//
// In implementation terms one block per row (grid-stride over rows), each thread accumulating a
// strided slice of the row, then a tree in shared memory: a fixed order, so results are
// deterministic run to run. Blocks are 32..256 threads, the fewest that cover a row. A reduction
// over middle dims of a contiguous input (sum(0) of a matrix: a bias gradient) reads it in place
// instead, one thread per result walking its column.
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

template <typename T, typename A>
__global__ void reduce_cols_kernel(const T* in, T* out, int64_t outer, int64_t reduced,
                                   int64_t inner, ReduceFns<A> f) {
  for (int64_t j = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; j < outer * inner;
       j += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t o = j / inner, i = j - o * inner;
    const T* col = in + o * reduced * inner + i;
    A acc = f.identity();
    for (int64_t r = 0; r < reduced; ++r) acc = f.combine(acc, f.transform(cvt<A>(col[r * inner])));
    out[j] = cvt<T>(f.project(acc, reduced));
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

void launch_reduce_rows(ReduceOp op, DT in_dt, DT out_dt, const void* in, void* out, int64_t rows,
                        int64_t cols, double p, void* stream) {
  if (rows == 0) return;
  if (in_dt != out_dt) throw_cuda_error("reduce_cuda", "input and output dtypes differ");
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

void launch_reduce_cols(ReduceOp op, DT dt, const void* in, void* out, int64_t outer,
                        int64_t reduced, int64_t inner, double p, void* stream) {
  const int64_t n = outer * inner;
  if (n == 0) return;
  dispatch_dt(dt, "reduce_cuda", [&]<typename T>() {
    using A = std::conditional_t<IsFloat<T>::value, acc_t<T>, int64_t>;
    ReduceFns<A> f{op, static_cast<A>(p)};
    reduce_cols_kernel<T, A><<<grid_for(n), kBlock, 0, as_stream(stream)>>>(
        static_cast<const T*>(in), static_cast<T*>(out), outer, reduced, inner, f);
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
