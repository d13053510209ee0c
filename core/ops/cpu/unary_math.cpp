// CPU kernels of the unary ops beyond unary.cpp's (see core/ops/unary.h): the inverse hyperbolic
// functions (acosh, asinh, atanh), the error and gamma families (erfc, erfinv, lgamma, digamma,
// polygamma), sinc, frac and signbit. The float functions promote integers to the default float
// dtype and compute bfloat16 in float (unary_loops.h's unary_float), with the kernel names
// torch 1.13 gives in its dtype errors; none has a SLEEF vector form here (torch's CPU kernels
// for these are scalar too, but acosh / asinh / atanh). The functions <cmath> lacks are in
// special_functions.h.
#include <cmath>
#include <numbers>
#include <type_traits>

#include "core/dispatch/Library.h"
#include "core/ops/KernelForms.h"
#include "core/ops/cpu/Loops.h"
#include "core/ops/cpu/special_functions.h"
#include "core/ops/cpu/unary_loops.h"
#include "core/ops/unary.h"

namespace opscope::cpu {

namespace {

// ln |Γ(x)| without writing the global signgam (std::lgamma does: a data race between threads).
inline float log_gamma(float x) {
  int sign;
  return ::lgammaf_r(x, &sign);
}
inline double log_gamma(double x) {
  int sign;
  return ::lgamma_r(x, &sign);
}

}  // namespace

// --- the float functions: self [*s] -> f(self) [*s], integers -> the default float dtype -------

Tensor acosh_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, "acosh_cpu", false, std::nullopt,
                     [](auto x) { return std::acosh(x); });
}

Tensor asinh_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, "asinh_cpu", false, std::nullopt,
                     [](auto x) { return std::asinh(x); });
}

Tensor atanh_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, "atanh_cpu", false, std::nullopt,
                     [](auto x) { return std::atanh(x); });
}

Tensor erfc_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, "erfc_vml_cpu", false, std::nullopt,
                     [](auto x) { return std::erfc(x); });
}

Tensor erfinv_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, "erfinv_vml_cpu", false, std::nullopt, [](auto x) {
    return static_cast<decltype(x)>(special::erfinv(double(x)));
  });
}

Tensor lgamma_impl(const Tensor& out, const Tensor& self) {
  // float32 / float64 through SLEEF's lgamma where the CPU has AVX2, as torch's vectorized kernel
  return unary_float(out, self, "lgamma_vml_cpu", false, vec::UnaryOp::Lgamma,
                     [](auto x) { return log_gamma(x); });
}

Tensor digamma_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, "digamma", false, std::nullopt,
                     [](auto x) { return special::digamma(x); });
}

// sin(πx) / πx, 1 at 0 (πx computed in the operand's float type, as torch).
Tensor sinc_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, "sinc_cpu", false, std::nullopt, [](auto x) {
    using A = decltype(x);
    if (x == A(0)) return A(1);
    const A product = std::numbers::pi_v<A> * x;
    return std::sin(product) / product;
  });
}

// n (>= 0), self [*s] -> ψ⁽ⁿ⁾(self) [*s]: digamma for n = 0, torch's trigamma kernel for 1
Tensor polygamma_impl(const Tensor& out, int64_t n, const Tensor& self) {
  OPSCOPE_CHECK(n >= 0, "polygamma(n, x) does not support negative n.");
  const char* name = n == 0 ? "digamma" : n == 1 ? "trigamma" : "polygamma";
  return unary_float(out, self, name, false, std::nullopt,
                     [n](auto x) { return special::polygamma(n, x); });
}
Tensor polygamma(int64_t n, const Tensor& self) {
  return polygamma_impl(Tensor(), n, self);
}
Tensor polygamma_out(int64_t n, const Tensor& self, const Tensor& out) {
  return polygamma_impl(out, n, self);
}
Tensor polygamma_(const Tensor& self, int64_t n) {
  return polygamma_impl(self, n, self);
}

// self [*s] -> self - trunc(self) [*s], same floating dtype (float16 too; integers refused)
Tensor frac_impl(const Tensor& out, const Tensor& self) {
  TensorIterator iter = TensorIterator::unary_op(out, self);
  dispatch_dtype_if(iter.common_dtype(), "frac_cpu", kFloatingOnly, [&]<typename T>() {
    using A = acc_type_t<T>;
    cpu_kernel(iter, [](T a) -> T { return static_cast<T>(A(a) - std::trunc(A(a))); });
  });
  return iter.output();
}

// self [*s] -> bool [*s]: whether the sign bit is set (-0.0 and -NaN too; unsigned and bool:
// never)
Tensor signbit_impl(const Tensor& out, const Tensor& self) {
  Tensor result = out.defined() ? out : make_empty(self.sizes(), ScalarType::Bool, self.device());
  OPSCOPE_CHECK(result.dtype() == ScalarType::Bool, "signbit.out: expected a bool out tensor, got ",
                typemeta_name(result.dtype()));
  TensorIterator iter = TensorIteratorConfig()
                            .add_output(result)
                            .add_input(self)
                            .check_all_same_dtype(false)
                            .build();
  dispatch_dtype(self.dtype(), "signbit_cpu", [&]<typename T>() {
    if constexpr (std::is_unsigned_v<T> || std::is_same_v<T, bool>) {
      cpu_kernel(iter, [](T) -> bool { return false; });
    } else if constexpr (std::is_integral_v<T>) {
      cpu_kernel(iter, [](T a) -> bool { return a < 0; });
    } else if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
      // The top bit of the 16 (std::signbit of the widened float trips GCC 12's vectorizer).
      cpu_kernel(iter, [](T a) -> bool { return (a.x >> 15) != 0; });
    } else {
      cpu_kernel(iter, [](T a) -> bool { return std::signbit(a); });
    }
  });
  return iter.output();
}
Tensor signbit(const Tensor& self) {
  return signbit_impl(Tensor(), self);
}
Tensor signbit_out(const Tensor& self, const Tensor& out) {
  return signbit_impl(out, self);
}

static Library cpu_unary_math(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("acosh", functional<&acosh_impl>());
  m.impl("acosh_", inplace<&acosh_impl>());
  m.impl("acosh.out", out<&acosh_impl>());
  m.impl("asinh", functional<&asinh_impl>());
  m.impl("asinh_", inplace<&asinh_impl>());
  m.impl("asinh.out", out<&asinh_impl>());
  m.impl("atanh", functional<&atanh_impl>());
  m.impl("atanh_", inplace<&atanh_impl>());
  m.impl("atanh.out", out<&atanh_impl>());
  m.impl("erfc", functional<&erfc_impl>());
  m.impl("erfc_", inplace<&erfc_impl>());
  m.impl("erfc.out", out<&erfc_impl>());
  m.impl("erfinv", functional<&erfinv_impl>());
  m.impl("erfinv_", inplace<&erfinv_impl>());
  m.impl("erfinv.out", out<&erfinv_impl>());
  m.impl("lgamma", functional<&lgamma_impl>());
  m.impl("lgamma_", inplace<&lgamma_impl>());
  m.impl("lgamma.out", out<&lgamma_impl>());
  m.impl("digamma", functional<&digamma_impl>());
  m.impl("digamma_", inplace<&digamma_impl>());
  m.impl("digamma.out", out<&digamma_impl>());
  m.impl("polygamma", fn<&polygamma>);
  m.impl("polygamma.out", fn<&polygamma_out>);
  m.impl("polygamma_", fn<&polygamma_>);
  m.impl("sinc", functional<&sinc_impl>());
  m.impl("sinc_", inplace<&sinc_impl>());
  m.impl("sinc.out", out<&sinc_impl>());
  m.impl("frac", functional<&frac_impl>());
  m.impl("frac_", inplace<&frac_impl>());
  m.impl("frac.out", out<&frac_impl>());
  m.impl("signbit", fn<&signbit>);
  m.impl("signbit.out", fn<&signbit_out>);
});

}  // namespace opscope::cpu
