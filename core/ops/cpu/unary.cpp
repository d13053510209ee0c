// CPU kernels of the unary ops (see core/ops/unary.h): the float functions (exp, log, sin,
// sigmoid, erf, ...), abs, sign, the roundings and nan_to_num; with them the is* classifications
// (isnan, isposinf, isneginf; core/ops/compare.h); sigmoid_backward and tanh_backward, the
// gradients of sigmoid and tanh from their results. The activations built on the same loops
// (unary_loops.h) are in activation.cpp. Binary ops are in binary.cpp and
// binary_more.cpp. Each op is one `*_impl(out, self, ...)`, registered at the end of the file in
// its functional / in-place / out= forms (core/ops/KernelForms.h).
//
// A float function builds a TensorIterator that promotes integer / bool inputs to the default
// float dtype, then runs one of two loops per run of the innermost dim: SLEEF's vector kernel
// (unary_vec.h) for float32 / float64 when the CPU has AVX2 — on strided runs through a small
// buffer — or a scalar loop over std:: functions (float16 / bfloat16 compute in float).
#include <cmath>
#include <limits>
#include <type_traits>

#include "core/dispatch/Library.h"
#include "core/ops/KernelForms.h"
#include "core/ops/binary.h"
#include "core/ops/compare.h"
#include "core/ops/copy.h"
#include "core/ops/cpu/Loops.h"
#include "core/ops/cpu/unary_loops.h"
#include "core/ops/cpu/unary_vec.h"
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
bool vec_activation_backward(UnaryOp op, const float* g, const float* x, float* y, int64_t n,
                             const double* params) {
  return available() && avx2_activation_backward(op, g, x, y, n, params);
}
bool vec_activation_backward(UnaryOp op, const double* g, const double* x, double* y, int64_t n,
                             const double* params) {
  return available() && avx2_activation_backward(op, g, x, y, n, params);
}
bool vec_binary(BinaryOp op, const float* a, const float* b, float* y, int64_t n) {
  return available() && avx2_binary(op, a, b, y, n);
}
bool vec_binary(BinaryOp op, const double* a, const double* b, double* y, int64_t n) {
  return available() && avx2_binary(op, a, b, y, n);
}

}  // namespace cpu::vec

namespace cpu {

namespace {

using vec::UnaryOp;

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

}  // namespace

// self [*s] -> |self| [*s], same dtype (not bool)
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

// self [*s] -> -1, 0 or 1 [*s] (NaN -> 0), same dtype
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

namespace {

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

}  // namespace

// self [*s] -> [*s]: NaN, +inf, -inf replaced (floating dtypes; integers copied)
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

// --- the float functions: self [*s] -> f(self) [*s], integers -> the default float dtype -----

Tensor exp_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, "exp_vml_cpu", false, UnaryOp::Exp,
                     [](auto x) { return std::exp(x); });
}

Tensor exp2_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, "exp2_cpu", true, UnaryOp::Exp2,
                     [](auto x) { return std::exp2(x); });
}

Tensor expm1_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, "expm1_vml_cpu", false, UnaryOp::Expm1,
                     [](auto x) { return std::expm1(x); });
}

Tensor log_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, "log_vml_cpu", false, UnaryOp::Log,
                     [](auto x) { return std::log(x); });
}

Tensor log2_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, "log2_vml_cpu", false, UnaryOp::Log2,
                     [](auto x) { return std::log2(x); });
}

Tensor log10_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, "log10_vml_cpu", false, UnaryOp::Log10,
                     [](auto x) { return std::log10(x); });
}

Tensor log1p_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, "log1p_vml_cpu", false, UnaryOp::Log1p,
                     [](auto x) { return std::log1p(x); });
}

Tensor sqrt_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, "sqrt_vml_cpu", false, UnaryOp::Sqrt,
                     [](auto x) { return std::sqrt(x); });
}

Tensor rsqrt_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, "rsqrt_cpu", false, UnaryOp::Rsqrt, [](auto x) {
    using A = decltype(x);
    return A(1) / std::sqrt(x);
  });
}

Tensor reciprocal_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, "reciprocal_cpu", true, UnaryOp::Reciprocal, [](auto x) {
    using A = decltype(x);
    return A(1) / x;
  });
}

Tensor sin_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, "sin_vml_cpu", false, UnaryOp::Sin,
                     [](auto x) { return std::sin(x); });
}

Tensor cos_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, "cos_vml_cpu", false, UnaryOp::Cos,
                     [](auto x) { return std::cos(x); });
}

Tensor tan_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, "tan_vml_cpu", false, UnaryOp::Tan,
                     [](auto x) { return std::tan(x); });
}

Tensor asin_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, "asin_vml_cpu", false, UnaryOp::Asin,
                     [](auto x) { return std::asin(x); });
}

Tensor acos_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, "acos_vml_cpu", false, UnaryOp::Acos,
                     [](auto x) { return std::acos(x); });
}

Tensor atan_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, "atan_vml_cpu", false, UnaryOp::Atan,
                     [](auto x) { return std::atan(x); });
}

Tensor sinh_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, "sinh_cpu", false, UnaryOp::Sinh,
                     [](auto x) { return std::sinh(x); });
}

Tensor cosh_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, "cosh_cpu", false, UnaryOp::Cosh,
                     [](auto x) { return std::cosh(x); });
}

Tensor tanh_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, "tanh_vml_cpu", false, UnaryOp::Tanh,
                     [](auto x) { return std::tanh(x); });
}

Tensor erf_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, "erf_vml_cpu", false, UnaryOp::Erf,
                     [](auto x) { return std::erf(x); });
}

Tensor sigmoid_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, "sigmoid_cpu", false, UnaryOp::Sigmoid, [](auto x) {
    using A = decltype(x);
    return A(1) / (A(1) + std::exp(-x));
  });
}

// self [*s] -> log(self / (1 - self)) [*s]; with eps, self clamped to [eps, 1 - eps] first (NaN
// stays NaN). float32 / float64 / bfloat16, as torch's logit_cpu — which computes bfloat16 in
// bfloat16, rounding after each step (its clamp bounds too), reproduced here.
Tensor logit_impl(const Tensor& out, const Tensor& self, std::optional<double> eps) {
  const bool bf16 = self.dtype() == ScalarType::BFloat16;
  auto r = [bf16](auto v) {
    if constexpr (std::is_same_v<decltype(v), float>)
      return bf16 ? static_cast<float>(BFloat16(v)) : v;
    else
      return v;
  };
  if (!eps)
    return unary_float(out, self, "logit_cpu", false, std::nullopt, [r](auto x) {
      using A = decltype(x);
      return std::log(r(x / r(A(1) - x)));
    });
  return unary_float(out, self, "logit_cpu", false, std::nullopt, [r, e = *eps](auto x) {
    using A = decltype(x);
    const A lo = r(A(e)), hi = r(A(1) - lo);
    x = x < lo ? lo : (x > hi ? hi : x);
    return std::log(r(x / r(A(1) - x)));
  });
}

// --- roundings: self [*s] -> [*s], same dtype ---------------------------------------------------

Tensor floor_impl(const Tensor& out, const Tensor& self) {
  return rounding(out, self, "floor_vml_cpu", [](auto x) { return std::floor(x); });
}

Tensor ceil_impl(const Tensor& out, const Tensor& self) {
  return rounding(out, self, "ceil_vml_cpu", [](auto x) { return std::ceil(x); });
}

Tensor trunc_impl(const Tensor& out, const Tensor& self) {
  return rounding(out, self, "trunc_vml_cpu", [](auto x) { return std::trunc(x); });
}

Tensor round_impl(const Tensor& out, const Tensor& self) {
  return rounding(out, self, "round_vml_cpu", [](auto x) { return round_even(x); });
}

// self [*s] -> self rounded to `decimals` decimal places [*s]
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

// --- classification: self [*s] -> bool [*s] -----------------------------------------------------

Tensor isnan(const Tensor& self) {
  return classify(Tensor(), self, false, [](auto x) { return x != x; });
}
Tensor isposinf_out(const Tensor& self, const Tensor& out) {
  OPSCOPE_CHECK(!out.defined() || out.dtype() == ScalarType::Bool,
                "isposinf does not support non-boolean outputs.");
  return classify(out, self, false,
                  [](auto x) { return x == std::numeric_limits<decltype(x)>::infinity(); });
}
Tensor isposinf(const Tensor& self) {
  return isposinf_out(self, Tensor());
}
Tensor isneginf_out(const Tensor& self, const Tensor& out) {
  OPSCOPE_CHECK(!out.defined() || out.dtype() == ScalarType::Bool,
                "isneginf does not support non-boolean outputs.");
  return classify(out, self, false,
                  [](auto x) { return x == -std::numeric_limits<decltype(x)>::infinity(); });
}
Tensor isneginf(const Tensor& self) {
  return isneginf_out(self, Tensor());
}

// grad_output, output (broadcast) -> grad_output * (1 - output) * output (sigmoid's gradient from
// its result; floating dtypes, Half included, as torch 1.13's sigmoid_backward_cpu)
Tensor sigmoid_backward_impl(const Tensor& grad_input, const Tensor& grad_output,
                             const Tensor& output) {
  TensorIterator iter = TensorIterator::binary_op(grad_input, grad_output, output);
  dispatch_dtype_if(iter.common_dtype(), "sigmoid_backward_cpu", kFloatingOnly, [&]<typename T>() {
    using A = acc_type_t<T>;
    cpu_kernel(iter, [](T g, T y) -> T { return static_cast<T>(A(g) * (A(1) - A(y)) * A(y)); });
  });
  return iter.output();
}

// grad_output, output (broadcast) -> grad_output * (1 - output^2) (tanh's gradient from its
// result; Half refused, as torch 1.13's tanh_backward_cpu)
Tensor tanh_backward_impl(const Tensor& grad_input, const Tensor& grad_output,
                          const Tensor& output) {
  TensorIterator iter = TensorIterator::binary_op(grad_input, grad_output, output);
  dispatch_dtype_if(iter.common_dtype(), "tanh_backward_cpu", kFloatingOnly, [&]<typename T>() {
    if (std::is_same_v<T, Half>) not_implemented("tanh_backward_cpu", iter.common_dtype());
    using A = acc_type_t<T>;
    cpu_kernel(iter, [](T g, T y) -> T { return static_cast<T>(A(g) * (A(1) - A(y) * A(y))); });
  });
  return iter.output();
}

static Library cpu_unary(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("abs.out", out<&abs_impl>());
  m.impl("sign", functional<&sign_impl>());
  m.impl("sign_", inplace<&sign_impl>());
  m.impl("sign.out", out<&sign_impl>());
  m.impl("sgn", functional<&sign_impl>());  // real dtypes only: sign's kernel
  m.impl("sgn_", inplace<&sign_impl>());
  m.impl("sgn.out", out<&sign_impl>());
  m.impl("exp", functional<&exp_impl>());
  m.impl("exp_", inplace<&exp_impl>());
  m.impl("exp.out", out<&exp_impl>());
  m.impl("exp2", functional<&exp2_impl>());
  m.impl("exp2_", inplace<&exp2_impl>());
  m.impl("exp2.out", out<&exp2_impl>());
  m.impl("expm1", functional<&expm1_impl>());
  m.impl("expm1_", inplace<&expm1_impl>());
  m.impl("expm1.out", out<&expm1_impl>());
  m.impl("log", functional<&log_impl>());
  m.impl("log_", inplace<&log_impl>());
  m.impl("log.out", out<&log_impl>());
  m.impl("log2", functional<&log2_impl>());
  m.impl("log2_", inplace<&log2_impl>());
  m.impl("log2.out", out<&log2_impl>());
  m.impl("log10", functional<&log10_impl>());
  m.impl("log10_", inplace<&log10_impl>());
  m.impl("log10.out", out<&log10_impl>());
  m.impl("log1p", functional<&log1p_impl>());
  m.impl("log1p_", inplace<&log1p_impl>());
  m.impl("log1p.out", out<&log1p_impl>());
  m.impl("sqrt", functional<&sqrt_impl>());
  m.impl("sqrt_", inplace<&sqrt_impl>());
  m.impl("sqrt.out", out<&sqrt_impl>());
  m.impl("rsqrt", functional<&rsqrt_impl>());
  m.impl("rsqrt_", inplace<&rsqrt_impl>());
  m.impl("rsqrt.out", out<&rsqrt_impl>());
  m.impl("sin", functional<&sin_impl>());
  m.impl("sin_", inplace<&sin_impl>());
  m.impl("sin.out", out<&sin_impl>());
  m.impl("cos", functional<&cos_impl>());
  m.impl("cos_", inplace<&cos_impl>());
  m.impl("cos.out", out<&cos_impl>());
  m.impl("tan", functional<&tan_impl>());
  m.impl("tan_", inplace<&tan_impl>());
  m.impl("tan.out", out<&tan_impl>());
  m.impl("asin", functional<&asin_impl>());
  m.impl("asin_", inplace<&asin_impl>());
  m.impl("asin.out", out<&asin_impl>());
  m.impl("acos", functional<&acos_impl>());
  m.impl("acos_", inplace<&acos_impl>());
  m.impl("acos.out", out<&acos_impl>());
  m.impl("atan", functional<&atan_impl>());
  m.impl("atan_", inplace<&atan_impl>());
  m.impl("atan.out", out<&atan_impl>());
  m.impl("sinh", functional<&sinh_impl>());
  m.impl("sinh_", inplace<&sinh_impl>());
  m.impl("sinh.out", out<&sinh_impl>());
  m.impl("cosh", functional<&cosh_impl>());
  m.impl("cosh_", inplace<&cosh_impl>());
  m.impl("cosh.out", out<&cosh_impl>());
  m.impl("tanh", functional<&tanh_impl>());
  m.impl("tanh_", inplace<&tanh_impl>());
  m.impl("tanh.out", out<&tanh_impl>());
  m.impl("sigmoid", functional<&sigmoid_impl>());
  m.impl("sigmoid_backward", functional<&sigmoid_backward_impl>());
  m.impl("sigmoid_backward.grad_input", out<&sigmoid_backward_impl>());
  m.impl("tanh_backward", functional<&tanh_backward_impl>());
  m.impl("tanh_backward.grad_input", out<&tanh_backward_impl>());
  m.impl("sigmoid_", inplace<&sigmoid_impl>());
  m.impl("sigmoid.out", out<&sigmoid_impl>());
  m.impl("logit", functional<&logit_impl>());
  m.impl("logit_", inplace<&logit_impl>());
  m.impl("logit.out", out<&logit_impl>());
  m.impl("erf", functional<&erf_impl>());
  m.impl("erf_", inplace<&erf_impl>());
  m.impl("erf.out", out<&erf_impl>());
  m.impl("floor", functional<&floor_impl>());
  m.impl("floor_", inplace<&floor_impl>());
  m.impl("floor.out", out<&floor_impl>());
  m.impl("ceil", functional<&ceil_impl>());
  m.impl("ceil_", inplace<&ceil_impl>());
  m.impl("ceil.out", out<&ceil_impl>());
  m.impl("round", functional<&round_impl>());
  m.impl("round_", inplace<&round_impl>());
  m.impl("round.out", out<&round_impl>());
  m.impl("trunc", functional<&trunc_impl>());
  m.impl("trunc_", inplace<&trunc_impl>());
  m.impl("trunc.out", out<&trunc_impl>());
  m.impl("reciprocal", functional<&reciprocal_impl>());
  m.impl("reciprocal_", inplace<&reciprocal_impl>());
  m.impl("reciprocal.out", out<&reciprocal_impl>());
  m.impl("round.decimals", functional<&round_decimals_impl>());
  m.impl("round_.decimals", inplace<&round_decimals_impl>());
  m.impl("round.decimals_out", out<&round_decimals_impl>());
  m.impl("isnan", fn<&isnan>);
  m.impl("isposinf", fn<&isposinf>);
  m.impl("isposinf.out", fn<&isposinf_out>);
  m.impl("isneginf", fn<&isneginf>);
  m.impl("isneginf.out", fn<&isneginf_out>);
  m.impl("nan_to_num.out", out<&nan_to_num_impl>());
});

}  // namespace cpu
}  // namespace opscope
