// CPU kernels of the unary pointwise ops (see core/ops/pointwise.h): the float functions (exp,
// log, sin, sigmoid, erf, gelu, ...), abs, sign, the roundings, the is* classifications and
// nan_to_num. Binary and ternary ops are in pointwise_binary.cpp.
//
// A float function builds a TensorIterator that promotes integer / bool inputs to the default
// float dtype, then runs one of two loops per run of the innermost dim: SLEEF's vector kernel
// (pointwise_vec.h) for float32 / float64 when the CPU has AVX2 — on strided runs through a small
// buffer — or a scalar loop over std:: functions (float16 / bfloat16 compute in float).
#include <cmath>
#include <limits>
#include <type_traits>

#include "core/ops/copy.h"
#include "core/ops/cpu/Loops.h"
#include "core/ops/cpu/unary_vec.h"
#include "core/ops/binary.h"
#include "core/ops/pointwise_kernels.h"
#include "core/ops/compare.h"
#include "core/ops/unary.h"

namespace opscope {

namespace cpu::vec {

bool available() {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool yes = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return yes;
#else
  return false;
#endif
}

bool vec_unary(UnaryOp op, const float* x, float* y, int64_t n, const double* params) {
  return available() && avx2_unary(op, x, y, n, params);
}
bool vec_unary(UnaryOp op, const double* x, double* y, int64_t n, const double* params) {
  return available() && avx2_unary(op, x, y, n, params);
}

}  // namespace cpu::vec

namespace cpu {

namespace {

using vec::UnaryOp;
constexpr int64_t kBufferElems = 256;

// out = f(in) over a built iterator whose operands are both of dtype T. `vop` names the vector
// kernel to use for float / double (when the CPU has one), `f` is the scalar form on acc_type_t<T>.
template <typename T, typename F>
void unary_loop(TensorIterator& iter, std::optional<UnaryOp> vop, const F& f,
                const double* params = nullptr) {
  using A = acc_type_t<T>;
  constexpr bool vectorizable = std::is_same_v<T, float> || std::is_same_v<T, double>;
  const bool use_vec = vectorizable && vop && vec::available();
  iter.for_each([&](char** data, const int64_t* strides, int64_t n) {
    if constexpr (vectorizable) {
      if (use_vec) {
        if (strides[0] == sizeof(T) && strides[1] == sizeof(T)) {
          vec::vec_unary(*vop, reinterpret_cast<const T*>(data[1]), reinterpret_cast<T*>(data[0]),
                         n, params);
          return;
        }
        // Strided: gather a block, compute it in place, scatter it.
        T buf[kBufferElems];
        for (int64_t start = 0; start < n; start += kBufferElems) {
          int64_t m = std::min(kBufferElems, n - start);
          const char* in = data[1] + start * strides[1];
          for (int64_t i = 0; i < m; ++i) buf[i] = *reinterpret_cast<const T*>(in + i * strides[1]);
          vec::vec_unary(*vop, buf, buf, m, params);
          char* out = data[0] + start * strides[0];
          for (int64_t i = 0; i < m; ++i) *reinterpret_cast<T*>(out + i * strides[0]) = buf[i];
        }
        return;
      }
    }
    if (strides[0] == sizeof(T) && strides[1] == sizeof(T)) {
      T* out = reinterpret_cast<T*>(data[0]);
      const T* in = reinterpret_cast<const T*>(data[1]);
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<T>(f(A(in[i])));
      return;
    }
    for (int64_t i = 0; i < n; ++i) {
      *reinterpret_cast<T*>(data[0] + i * strides[0]) =
          static_cast<T>(f(A(*reinterpret_cast<const T*>(data[1] + i * strides[1]))));
    }
  });
}

// PyTorch's build_borrowing_unary_float_op: integer and bool inputs compute in the default float
// dtype; out= / in-place outputs must be able to hold the result.
TensorIterator unary_float_iter(const Tensor& out, const Tensor& self) {
  return TensorIteratorConfig()
      .add_output(out)
      .add_input(self)
      .promote_inputs_to_common_dtype(true)
      .promote_integer_inputs_to_float(true)
      .cast_common_dtype_to_outputs(true)
      .enforce_safe_casting_to_output(true)
      .build();
}

[[noreturn]] void not_implemented(std::string_view name, ScalarType t) {
  throw Error(detail::str("\"", name, "\" not implemented for '", cpp_name(t), "'"));
}

// A float function: `name` is the kernel PyTorch names in its dtype error; `half` whether
// PyTorch's CPU kernel takes float16.
template <typename F>
Tensor unary_float(const Tensor& out, const Tensor& self, std::string_view name, bool half,
                   std::optional<UnaryOp> vop, const F& f) {
  TensorIterator iter = unary_float_iter(out, self);
  dispatch_dtype_if(iter.common_dtype(), name, kFloatingOnly, [&]<typename T>() {
    if (std::is_same_v<T, Half> && !half) not_implemented(name, iter.common_dtype());
    unary_loop<T>(iter, vop, f);
  });
  return iter.output();
}

// A float-only function of self's own dtype (gelu, silu, softplus): no integer promotion.
template <typename F>
Tensor unary_same_float(const Tensor& out, const Tensor& self, std::string_view name,
                        std::optional<UnaryOp> vop, const F& f, const double* params = nullptr) {
  TensorIterator iter = TensorIterator::unary_op(out, self);
  dispatch_dtype_if(iter.common_dtype(), name, kFloatingOnly, [&]<typename T>() {
    if (std::is_same_v<T, Half>) not_implemented(name, iter.common_dtype());
    unary_loop<T>(iter, vop, f, params);
  });
  return iter.output();
}

// The roundings: the identity on integer tensors (as PyTorch), an error for bool and float16.
template <typename F>
Tensor rounding(const Tensor& out, const Tensor& self, std::string_view name, const F& f) {
  TensorIterator iter = TensorIterator::unary_op(out, self);
  dispatch_dtype(iter.common_dtype(), name, [&]<typename T>() {
    if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, Half>) {
      not_implemented(name, iter.common_dtype());
    } else if constexpr (std::is_integral_v<T>) {
      cpu_kernel(iter, [](T a) -> T { return a; });
    } else {
      using A = acc_type_t<T>;
      cpu_kernel(iter, [&f](T a) -> T { return static_cast<T>(f(A(a))); });
    }
  });
  return iter.output();
}

// Round half to even, as std::nearbyint in the default rounding mode (and PyTorch).
template <typename A>
A round_even(A x) {
  return std::nearbyint(x);
}

// PyTorch's round.decimals: x * 10^d rounded, divided back (negative d: divide first).
template <typename A>
A round_decimals(A x, int64_t decimals) {
  bool neg = decimals < 0;
  A ten_pow = static_cast<A>(std::pow(A(10), static_cast<A>(neg ? -decimals : decimals)));
  return neg ? std::nearbyint(x / ten_pow) * ten_pow : std::nearbyint(x * ten_pow) / ten_pow;
}

Tensor abs_impl(const Tensor& out, const Tensor& self) {
  TensorIterator iter = TensorIterator::unary_op(out, self);
  dispatch_dtype_if(iter.common_dtype(), "abs_cpu", kAllButBool, [&]<typename T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      unary_loop<T>(iter, UnaryOp::Abs, [](T a) { return std::abs(a); });
    } else if constexpr (std::is_unsigned_v<T>) {
      cpu_kernel(iter, [](T a) -> T { return a; });
    } else if constexpr (std::is_integral_v<T>) {
      // Wraps for the most negative value, as PyTorch: abs(int8 -128) is -128.
      using U = std::make_unsigned_t<T>;
      cpu_kernel(iter, [](T a) -> T { return static_cast<T>(a < 0 ? U(0) - U(a) : U(a)); });
    } else {
      using A = acc_type_t<T>;
      cpu_kernel(iter, [](T a) -> T { return static_cast<T>(std::abs(A(a))); });
    }
  });
  return iter.output();
}

Tensor sign_impl(const Tensor& out, const Tensor& self) {
  TensorIterator iter = TensorIterator::unary_op(out, self);
  dispatch_dtype(iter.common_dtype(), "sign_cpu", [&]<typename T>() {
    if constexpr (std::is_same_v<T, bool>) {
      cpu_kernel(iter, [](bool a) -> bool { return a; });
    } else {
      using A = acc_type_t<T>;  // NaN -> 0, as PyTorch's (0 < x) - (x < 0)
      cpu_kernel(iter, [](T a) -> T {
        return static_cast<T>(static_cast<A>((A(0) < A(a)) - (A(a) < A(0))));
      });
    }
  });
  return iter.output();
}

// Bool result of a predicate on each element (the value converted to acc_type_t).
template <typename F>
Tensor classify(const Tensor& out, const Tensor& self, bool integral_value, const F& f) {
  Tensor result = out.defined() ? out : make_empty(self.sizes(), ScalarType::Bool, self.device());
  if (out.defined()) resize_output(result, self.sizes());
  if (!is_floating(self.dtype())) return ops::fill_(result, integral_value);
  Tensor boolean = result.dtype() == ScalarType::Bool
                       ? result
                       : make_empty(self.sizes(), ScalarType::Bool, self.device());
  TensorIterator iter = TensorIteratorConfig()
                            .add_output(boolean)
                            .add_input(self)
                            .check_all_same_dtype(false)
                            .build();
  dispatch_dtype(self.dtype(), "classify", [&]<typename T>() {
    using A = acc_type_t<T>;
    cpu_kernel(iter, [&f](T a) -> bool { return f(A(a)); });
  });
  if (!boolean.is_same(result)) ops::copy_(result, boolean);
  return result;
}

// The largest finite value of T (std::numeric_limits knows no Half / BFloat16).
template <typename T>
double max_finite() {
  if constexpr (std::is_same_v<T, Half>)
    return 65504.0;
  else if constexpr (std::is_same_v<T, BFloat16>)
    return 3.3895313892515355e38;
  else
    return static_cast<double>(std::numeric_limits<T>::max());
}

Tensor nan_to_num_impl(const Tensor& out, const Tensor& self, std::optional<double> nan,
                       std::optional<double> posinf, std::optional<double> neginf) {
  TensorIterator iter = TensorIterator::unary_op(out, self);
  dispatch_dtype(iter.common_dtype(), "nan_to_num", [&]<typename T>() {
    if constexpr (std::is_integral_v<T>) {
      cpu_kernel(iter, [](T a) -> T { return a; });
    } else {
      using A = acc_type_t<T>;
      // Defaults: 0 for NaN, the dtype's largest / lowest finite value for +-inf.
      const T nan_v = static_cast<T>(static_cast<A>(nan.value_or(0.0)));
      const T pos_v = static_cast<T>(static_cast<A>(posinf.value_or(max_finite<T>())));
      const T neg_v = static_cast<T>(static_cast<A>(neginf.value_or(-max_finite<T>())));
      cpu_kernel(iter, [=](T a) -> T {
        A v = A(a);
        return v != v                                     ? nan_v
               : v == std::numeric_limits<A>::infinity()  ? pos_v
               : v == -std::numeric_limits<A>::infinity() ? neg_v
                                                          : a;
      });
    }
  });
  return iter.output();
}

UnaryOp gelu_op(std::string_view approximate) {
  if (approximate == "none") return UnaryOp::GeluErf;
  if (approximate == "tanh") return UnaryOp::GeluTanh;
  throw Error(detail::str("approximate argument must be either none or tanh."));
}

// GELU on bfloat16 as PyTorch 1.13 computes it: in bfloat16 arithmetic, rounding after every
// step (gelu(-2.5) is -0.0146, not the nearer -0.0155).
Tensor gelu_bfloat16(const Tensor& out, const Tensor& self, bool tanh) {
  TensorIterator iter = TensorIterator::unary_op(out, self);
  auto r = [](float v) { return static_cast<float>(BFloat16(v)); };
  if (tanh) {
    const float beta = r(static_cast<float>(M_SQRT2 * M_2_SQRTPI * 0.5)), kappa = r(0.044715f);
    cpu_kernel(iter, [=](BFloat16 a) -> BFloat16 {
      float x = static_cast<float>(a);
      float inner = r(beta * r(x + r(kappa * r(r(x * x) * x))));
      return BFloat16(r(0.5f * x) * r(1.0f + r(std::tanh(inner))));
    });
  } else {
    const float alpha = r(static_cast<float>(M_SQRT1_2));
    cpu_kernel(iter, [=](BFloat16 a) -> BFloat16 {
      float x = static_cast<float>(a);
      return BFloat16(r(x * 0.5f) * r(1.0f + r(std::erf(r(x * alpha)))));
    });
  }
  return iter.output();
}

Tensor gelu_impl(const Tensor& out, const Tensor& self, std::string_view approximate) {
  if (self.dtype() == ScalarType::BFloat16 && (!out.defined() || out.dtype() == self.dtype()))
    return gelu_bfloat16(out, self, gelu_op(approximate) == UnaryOp::GeluTanh);
  if (gelu_op(approximate) == UnaryOp::GeluErf) {
    return unary_same_float(out, self, "GeluKernelImpl", UnaryOp::GeluErf, [](auto x) {
      using A = decltype(x);
      return x * A(0.5) * (A(1) + std::erf(x * A(M_SQRT1_2)));
    });
  }
  return unary_same_float(out, self, "GeluKernelImpl", UnaryOp::GeluTanh, [](auto x) {
    using A = decltype(x);
    const A beta = A(M_SQRT2 * M_2_SQRTPI * 0.5), kappa = A(0.044715);
    return A(0.5) * x * (A(1) + std::tanh(beta * (x + kappa * x * x * x)));
  });
}

Tensor softplus_impl(const Tensor& out, const Tensor& self, const Scalar& beta,
                     const Scalar& threshold) {
  const double params[2] = {beta.to_double(), threshold.to_double()};
  return unary_same_float(
      out, self, "softplus_cpu", UnaryOp::Softplus,
      [b = params[0], t = params[1]](auto x) {
        using A = decltype(x);
        return x * A(b) > A(t) ? x : std::log1p(std::exp(x * A(b))) / A(b);
      },
      params);
}

}  // namespace

// --- the float functions: self [*s] -> f(self) [*s], integers -> the default float dtype -----

#define OPSCOPE_UNARY_FLOAT(op, name, half, vop, expr)          \
  namespace {                                                   \
  Tensor op##_impl(const Tensor& out, const Tensor& self) {     \
    return unary_float(out, self, name, half, vop, [](auto x) { \
      using A = decltype(x);                                    \
      (void)sizeof(A);                                          \
      return expr;                                              \
    });                                                         \
  }                                                             \
  }                                                             \
  Tensor op(const Tensor& self) {                               \
    return op##_impl(Tensor(), self);                           \
  }                                                             \
  Tensor op##_(const Tensor& self) {                            \
    return op##_impl(self, self);                               \
  }                                                             \
  Tensor op##_out(const Tensor& self, const Tensor& out) {      \
    return op##_impl(out, self);                                \
  }

OPSCOPE_UNARY_FLOAT(exp, "exp_vml_cpu", false, UnaryOp::Exp, std::exp(x))
OPSCOPE_UNARY_FLOAT(exp2, "exp2_cpu", true, UnaryOp::Exp2, std::exp2(x))
OPSCOPE_UNARY_FLOAT(expm1, "expm1_vml_cpu", false, UnaryOp::Expm1, std::expm1(x))
OPSCOPE_UNARY_FLOAT(log, "log_vml_cpu", false, UnaryOp::Log, std::log(x))
OPSCOPE_UNARY_FLOAT(log2, "log2_vml_cpu", false, UnaryOp::Log2, std::log2(x))
OPSCOPE_UNARY_FLOAT(log10, "log10_vml_cpu", false, UnaryOp::Log10, std::log10(x))
OPSCOPE_UNARY_FLOAT(log1p, "log1p_vml_cpu", false, UnaryOp::Log1p, std::log1p(x))
OPSCOPE_UNARY_FLOAT(sqrt, "sqrt_vml_cpu", false, UnaryOp::Sqrt, std::sqrt(x))
OPSCOPE_UNARY_FLOAT(rsqrt, "rsqrt_cpu", false, UnaryOp::Rsqrt, A(1) / std::sqrt(x))
OPSCOPE_UNARY_FLOAT(reciprocal, "reciprocal_cpu", true, UnaryOp::Reciprocal, A(1) / x)
OPSCOPE_UNARY_FLOAT(sin, "sin_vml_cpu", false, UnaryOp::Sin, std::sin(x))
OPSCOPE_UNARY_FLOAT(cos, "cos_vml_cpu", false, UnaryOp::Cos, std::cos(x))
OPSCOPE_UNARY_FLOAT(tan, "tan_vml_cpu", false, UnaryOp::Tan, std::tan(x))
OPSCOPE_UNARY_FLOAT(asin, "asin_vml_cpu", false, UnaryOp::Asin, std::asin(x))
OPSCOPE_UNARY_FLOAT(acos, "acos_vml_cpu", false, UnaryOp::Acos, std::acos(x))
OPSCOPE_UNARY_FLOAT(atan, "atan_vml_cpu", false, UnaryOp::Atan, std::atan(x))
OPSCOPE_UNARY_FLOAT(sinh, "sinh_cpu", false, UnaryOp::Sinh, std::sinh(x))
OPSCOPE_UNARY_FLOAT(cosh, "cosh_cpu", false, UnaryOp::Cosh, std::cosh(x))
OPSCOPE_UNARY_FLOAT(tanh, "tanh_vml_cpu", false, UnaryOp::Tanh, std::tanh(x))
OPSCOPE_UNARY_FLOAT(erf, "erf_vml_cpu", false, UnaryOp::Erf, std::erf(x))
OPSCOPE_UNARY_FLOAT(sigmoid, "sigmoid_cpu", false, UnaryOp::Sigmoid, A(1) / (A(1) + std::exp(-x)))
#undef OPSCOPE_UNARY_FLOAT

// self [*s] -> x * sigmoid(x) [*s] (floating dtypes only)
namespace {
Tensor silu_impl(const Tensor& out, const Tensor& self) {
  return unary_same_float(out, self, "silu_cpu", UnaryOp::Silu, [](auto x) {
    using A = decltype(x);
    return x / (A(1) + std::exp(-x));
  });
}
}  // namespace
Tensor silu(const Tensor& self) {
  return silu_impl(Tensor(), self);
}
Tensor silu_(const Tensor& self) {
  return silu_impl(self, self);
}
Tensor silu_out(const Tensor& self, const Tensor& out) {
  return silu_impl(out, self);
}

// self [*s] -> gelu(self) [*s]; approximate "none" (erf) or "tanh"
Tensor gelu(const Tensor& self, std::string_view approximate) {
  return gelu_impl(Tensor(), self, approximate);
}
Tensor gelu_(const Tensor& self, std::string_view approximate) {
  return gelu_impl(self, self, approximate);
}
Tensor gelu_out(const Tensor& self, std::string_view approximate, const Tensor& out) {
  return gelu_impl(out, self, approximate);
}

// self [*s] -> log(1 + exp(beta * x)) / beta, or x where beta * x > threshold
Tensor softplus(const Tensor& self, const Scalar& beta, const Scalar& threshold) {
  return softplus_impl(Tensor(), self, beta, threshold);
}
Tensor softplus_out(const Tensor& self, const Scalar& beta, const Scalar& threshold,
                    const Tensor& out) {
  return softplus_impl(out, self, beta, threshold);
}

// self [*s] -> |self| [*s], same dtype (not bool)
Tensor abs_out(const Tensor& self, const Tensor& out) {
  return abs_impl(out, self);
}

// self [*s] -> -1, 0 or 1 [*s] (NaN -> 0), same dtype
Tensor sign(const Tensor& self) {
  return sign_impl(Tensor(), self);
}
Tensor sign_(const Tensor& self) {
  return sign_impl(self, self);
}
Tensor sign_out(const Tensor& self, const Tensor& out) {
  return sign_impl(out, self);
}

// --- roundings: self [*s] -> [*s], same dtype ---------------------------------------------------

#define OPSCOPE_ROUNDING(op, name, fn)                     \
  Tensor op(const Tensor& self) {                          \
    return rounding(Tensor(), self, name, fn);             \
  }                                                        \
  Tensor op##_(const Tensor& self) {                       \
    return rounding(self, self, name, fn);                 \
  }                                                        \
  Tensor op##_out(const Tensor& self, const Tensor& out) { \
    return rounding(out, self, name, fn);                  \
  }

OPSCOPE_ROUNDING(floor, "floor_vml_cpu", [](auto x) { return std::floor(x); })
OPSCOPE_ROUNDING(ceil, "ceil_vml_cpu", [](auto x) { return std::ceil(x); })
OPSCOPE_ROUNDING(trunc, "trunc_vml_cpu", [](auto x) { return std::trunc(x); })
OPSCOPE_ROUNDING(round, "round_vml_cpu", [](auto x) { return round_even(x); })
#undef OPSCOPE_ROUNDING

namespace {
Tensor round_decimals_impl(const Tensor& out, const Tensor& self, int64_t decimals) {
  TensorIterator iter = TensorIterator::unary_op(out, self);
  dispatch_dtype_if(iter.common_dtype(), "round_cpu", kFloatingOnly, [&]<typename T>() {
    if (std::is_same_v<T, Half>) not_implemented("round_cpu", iter.common_dtype());
    using A = acc_type_t<T>;
    cpu_kernel(iter,
               [decimals](T a) -> T { return static_cast<T>(round_decimals(A(a), decimals)); });
  });
  return iter.output();
}
}  // namespace
Tensor round_decimals(const Tensor& self, int64_t decimals) {
  return round_decimals_impl(Tensor(), self, decimals);
}
Tensor round_decimals_(const Tensor& self, int64_t decimals) {
  return round_decimals_impl(self, self, decimals);
}
Tensor round_decimals_out(const Tensor& self, int64_t decimals, const Tensor& out) {
  return round_decimals_impl(out, self, decimals);
}

// --- classification: self [*s] -> bool [*s] -----------------------------------------------------

Tensor isnan(const Tensor& self) {
  return classify(Tensor(), self, false, [](auto x) { return x != x; });
}
Tensor isposinf(const Tensor& self) {
  return isposinf_out(self, Tensor());
}
Tensor isposinf_out(const Tensor& self, const Tensor& out) {
  OPSCOPE_CHECK(!out.defined() || out.dtype() == ScalarType::Bool,
                "isposinf does not support non-boolean outputs.");
  return classify(out, self, false,
                  [](auto x) { return x == std::numeric_limits<decltype(x)>::infinity(); });
}
Tensor isneginf(const Tensor& self) {
  return isneginf_out(self, Tensor());
}
Tensor isneginf_out(const Tensor& self, const Tensor& out) {
  OPSCOPE_CHECK(!out.defined() || out.dtype() == ScalarType::Bool,
                "isneginf does not support non-boolean outputs.");
  return classify(out, self, false,
                  [](auto x) { return x == -std::numeric_limits<decltype(x)>::infinity(); });
}

// self [*s] -> [*s]: NaN, +inf, -inf replaced (floating dtypes; integers copied)
Tensor nan_to_num_out(const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                      std::optional<double> neginf, const Tensor& out) {
  return nan_to_num_impl(out, self, nan, posinf, neginf);
}

// relu = clamp_min(self, 0), as PyTorch (bool refused)
Tensor relu(const Tensor& self) {
  OPSCOPE_CHECK(self.dtype() != ScalarType::Bool, "Boolean inputs not supported for relu");
  return ops::clamp_min(self, 0);
}
Tensor relu_(const Tensor& self) {
  OPSCOPE_CHECK(self.dtype() != ScalarType::Bool, "Boolean inputs not supported for relu");
  return ops::clamp_min_(self, 0);
}

}  // namespace cpu
}  // namespace opscope
