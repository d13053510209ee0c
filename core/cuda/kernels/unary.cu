// CUDA kernels of the unary elementwise ops (exp, log, sin, ..., sigmoid, tanh, erf, the
// roundings, neg / abs / sign) and the activations torch files beside them (relu, gelu, silu,
// softplus, leaky_relu, hardtanh, elu, hardsigmoid, hardswish, mish, log_sigmoid). One functor per dtype with the op as a runtime switch: the branch is uniform across
// a launch and keeps nvcc to one instantiation per dtype.
#include "core/cuda/kernels/Loops.cuh"

namespace opscope::cuda {

namespace {

template <typename A>
__device__ __forceinline__ A float_unary(UnaryOp op, A x, A pa, A pb, A pc) {
  switch (op) {
    case UnaryOp::Exp: return exp(x);
    case UnaryOp::Exp2: return exp2(x);
    case UnaryOp::Expm1: return expm1(x);
    case UnaryOp::Log: return log(x);
    case UnaryOp::Log2: return log2(x);
    case UnaryOp::Log10: return log10(x);
    case UnaryOp::Log1p: return log1p(x);
    case UnaryOp::Sqrt: return sqrt(x);
    case UnaryOp::Rsqrt: return A(1) / sqrt(x);
    case UnaryOp::Reciprocal: return A(1) / x;
    case UnaryOp::Sin: return sin(x);
    case UnaryOp::Cos: return cos(x);
    case UnaryOp::Tan: return tan(x);
    case UnaryOp::Asin: return asin(x);
    case UnaryOp::Acos: return acos(x);
    case UnaryOp::Atan: return atan(x);
    case UnaryOp::Sinh: return sinh(x);
    case UnaryOp::Cosh: return cosh(x);
    case UnaryOp::Tanh: return tanh(x);
    case UnaryOp::Erf: return erf(x);
    case UnaryOp::Sigmoid: return A(1) / (A(1) + exp(-x));
    case UnaryOp::Gelu: return A(0.5) * x * (A(1) + erf(x * A(0.70710678118654752440)));
    case UnaryOp::GeluTanh: {
      const A inner = A(0.79788456080286535588) * (x + A(0.044715) * x * x * x);
      return A(0.5) * x * (A(1) + tanh(inner));
    }
    case UnaryOp::Silu: return x / (A(1) + exp(-x));
    case UnaryOp::Softplus:  // pa = beta, pb = threshold
      return x * pa > pb ? x : log1p(exp(x * pa)) / pa;
    case UnaryOp::Floor: return floor(x);
    case UnaryOp::Ceil: return ceil(x);
    case UnaryOp::Round: return nearbyint(x);  // half to even, as torch.round
    case UnaryOp::Trunc: return trunc(x);
    case UnaryOp::Neg: return -x;
    case UnaryOp::Abs: return fabs(x);
    case UnaryOp::Sign: return x != x ? x : A((A(0) < x) - (x < A(0)));
    case UnaryOp::Relu: return x != x ? x : (x > A(0) ? x : A(0));  // NaN stays, as clamp_min
    case UnaryOp::Threshold: return x <= pa ? pb : x;  // pa = threshold, pb = value; NaN stays
    case UnaryOp::LeakyRelu: return x > A(0) ? x : x * pa;  // pa = negative_slope
    case UnaryOp::Hardtanh: return x != x ? x : (x < pa ? pa : (x > pb ? pb : x));  // [pa, pb]
    case UnaryOp::Elu:  // pa = alpha scale, pb = scale, pc = input_scale
      return x <= A(0) ? expm1(x * pc) * pa : x * pb;
    case UnaryOp::Hardsigmoid: return fmin(fmax(x + A(3), A(0)), A(6)) / A(6);
    case UnaryOp::Hardswish: return x * fmin(fmax(x + A(3), A(0)), A(6)) / A(6);
    case UnaryOp::Mish: return x * tanh(log1p(exp(x)));
    case UnaryOp::LogSigmoid: return fmin(x, A(0)) - log1p(exp(-fabs(x)));
  }
  return x;
}

template <typename T>
struct FloatUnary {
  UnaryOp op;
  acc_t<T> pa, pb, pc;
  __device__ T operator()(T x) const {
    return cvt<T>(float_unary<acc_t<T>>(op, cvt<acc_t<T>>(x), pa, pb, pc));
  }
};

// Integers: the roundings are the identity, neg wraps (through the unsigned twin).
template <typename T>
struct IntUnary {
  UnaryOp op;
  T lo, hi;  // hardtanh's bounds; threshold's threshold and value
  __device__ T operator()(T x) const {
    using U = std::make_unsigned_t<T>;
    switch (op) {
      case UnaryOp::Neg: return static_cast<T>(U(0) - static_cast<U>(x));
      case UnaryOp::Abs:
        if constexpr (std::is_signed_v<T>)
          return x < 0 ? static_cast<T>(U(0) - static_cast<U>(x)) : x;
        return x;
      case UnaryOp::Sign:
        if constexpr (std::is_signed_v<T>) return static_cast<T>((T(0) < x) - (x < T(0)));
        return static_cast<T>(x != 0);
      case UnaryOp::Relu: return x > T(0) ? x : T(0);
      case UnaryOp::Hardtanh: return x < lo ? lo : (x > hi ? hi : x);
      case UnaryOp::Threshold: return x <= lo ? hi : x;
      default: return x;
    }
  }
};

}  // namespace

void launch_unary(UnaryOp op, const ElementwiseArgs& args, double a, double b, void* stream,
                  double c) {
  dispatch_numeric(args.dtypes[0], "unary_cuda", [&]<typename T>() {
    if constexpr (IsFloat<T>::value) {
      using A = acc_t<T>;
      gpu_elementwise<T, T>(
          args, FloatUnary<T>{op, static_cast<A>(a), static_cast<A>(b), static_cast<A>(c)}, stream,
          "unary_cuda");
    } else {
      const auto to_t = [](double v) { return static_cast<T>(static_cast<int64_t>(v)); };
      gpu_elementwise<T, T>(args, IntUnary<T>{op, to_t(a), to_t(b)}, stream, "unary_cuda");
    }
  });
}

}  // namespace opscope::cuda
