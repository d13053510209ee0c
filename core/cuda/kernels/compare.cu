// CUDA kernels of the comparison family: eq / ne / lt / le / gt / ge, isnan / isinf / ...,
// where, clamp (scalar and tensor bounds).
#include "core/cuda/kernels/Loops.cuh"

namespace opscope::cuda {

namespace {

template <typename T>
__device__ __forceinline__ bool compare_values(CompareOp op, T a, T b) {
  switch (op) {
    case CompareOp::Eq: return a == b;
    case CompareOp::Ne: return a != b;
    case CompareOp::Lt: return a < b;
    case CompareOp::Le: return a <= b;
    case CompareOp::Gt: return a > b;
    case CompareOp::Ge: return a >= b;
    default: return false;
  }
}

template <typename T, typename R>
struct Compare {
  CompareOp op;
  __device__ R operator()(T a, T b) const {
    return cvt<R>(compare_values<acc_t<T>>(op, cvt<acc_t<T>>(a), cvt<acc_t<T>>(b)));
  }
};

template <typename T>
struct Classify {
  CompareOp op;
  __device__ bool operator()(T x) const {
    if constexpr (IsFloat<T>::value) {
      acc_t<T> v = cvt<acc_t<T>>(x);
      switch (op) {
        case CompareOp::IsNan: return v != v;
        case CompareOp::IsPosInf: return isinf(v) && v > 0;
        case CompareOp::IsNegInf: return isinf(v) && v < 0;
        case CompareOp::IsInf: return isinf(v);
        case CompareOp::IsFinite: return isfinite(v);
        default: return false;
      }
    } else {
      return op == CompareOp::IsFinite;  // integers are finite, never nan or inf
    }
  }
};

template <typename T>
struct Where {
  __device__ T operator()(bool c, T a, T b) const { return c ? a : b; }
};

// min(max(x, lo), hi) with NaN in x (or a bound) propagating, as torch's clamp.
template <typename A>
__device__ __forceinline__ A clamp_value(A x, bool has_lo, A lo, bool has_hi, A hi) {
  if constexpr (std::is_floating_point_v<A>) {
    if (x != x) return x;
    if (has_lo) x = (lo != lo) ? lo : (x < lo ? lo : x);
    if (has_hi) x = (hi != hi) ? hi : (x > hi ? hi : x);
    return x;
  } else {
    if (has_lo && x < lo) x = lo;
    if (has_hi && x > hi) x = hi;
    return x;
  }
}

template <typename T>
struct ClampTensor {
  bool has_lo, has_hi;
  __device__ T operator()(T x, T lo, T hi) const {
    using A = acc_t<T>;
    return cvt<T>(clamp_value<A>(cvt<A>(x), has_lo, cvt<A>(lo), has_hi, cvt<A>(hi)));
  }
};

// Scalar bounds, as torch's clamp_scalar kernels: NaN in x stays (the host fills NaN for a NaN
// bound when both are given).
template <typename T>
struct ClampScalar {
  bool has_lo, has_hi;
  acc_t<T> lo, hi;
  __device__ T operator()(T x) const {
    acc_t<T> v = cvt<acc_t<T>>(x);
    if (has_lo) v = v < lo ? lo : v;
    if (has_hi) v = hi < v ? hi : v;
    return cvt<T>(v);
  }
};

}  // namespace

void launch_compare(CompareOp op, const ElementwiseArgs& args, void* stream) {
  if (op >= CompareOp::IsNan) {
    dispatch_dt(args.dtypes[1], "classify_cuda", [&]<typename T>() {
      gpu_elementwise<bool, T>(args, Classify<T>{op}, stream, "classify_cuda");
    });
    return;
  }
  // Output bool, or (out= of another dtype) the inputs' dtype holding 1 / 0.
  const bool bool_out = args.dtypes[0] == DT::Bool;
  dispatch_dt(args.dtypes[1], "compare_cuda", [&]<typename T>() {
    if (bool_out) {
      gpu_elementwise<bool, T, T>(args, Compare<T, bool>{op}, stream, "compare_cuda");
    } else {
      gpu_elementwise<T, T, T>(args, Compare<T, T>{op}, stream, "compare_cuda");
    }
  });
}

void launch_where(const ElementwiseArgs& args, void* stream) {
  dispatch_dt(args.dtypes[0], "where_cuda", [&]<typename T>() {
    gpu_elementwise<T, bool, T, T>(args, Where<T>{}, stream, "where_cuda");
  });
}

void launch_clamp(const ElementwiseArgs& args, bool has_lo, bool has_hi, void* stream) {
  dispatch_numeric(args.dtypes[0], "clamp_cuda", [&]<typename T>() {
    gpu_elementwise<T, T, T, T>(args, ClampTensor<T>{has_lo, has_hi}, stream, "clamp_cuda");
  });
}

void launch_clamp_scalar(const ElementwiseArgs& args, bool has_lo, double lo, int64_t ilo,
                         bool has_hi, double hi, int64_t ihi, void* stream) {
  dispatch_numeric(args.dtypes[0], "clamp_scalar_cuda", [&]<typename T>() {
    using A = acc_t<T>;
    ClampScalar<T> f{has_lo, has_hi,
                     IsFloat<T>::value ? static_cast<A>(lo) : static_cast<A>(ilo),
                     IsFloat<T>::value ? static_cast<A>(hi) : static_cast<A>(ihi)};
    gpu_elementwise<T, T>(args, f, stream, "clamp_scalar_cuda");
  });
}

}  // namespace opscope::cuda
