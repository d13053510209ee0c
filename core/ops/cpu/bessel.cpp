// CPU kernels of the modified Bessel functions of the first kind (schemas in core/ops/unary.cpp):
// i0 = I0(x), special_i1 = I1(x), and the exponentially scaled special_i0e = exp(-|x|) I0(x),
// special_i1e = exp(-|x|) I1(x). torch.special.i0 is an alias of i0 (composite/aliases.cpp).
//
// Semantically I0 is even and I1 odd; both grow like exp(|x|) / sqrt(2 pi |x|). Integers and bool
// promote to the default float dtype; float16 is refused by all four and bfloat16 by i1 / i1e, as
// torch 1.13's CPU kernels ("i0_vml_cpu", "i0e_cpu", "i1_cpu", "i1e_cpu"). bfloat16 computes in
// float.
//
// Note [Cephes' Chebyshev expansions for I0 and I1]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// In implementation terms these are Cephes' approximations (Stephen L. Moshier, 3-clause BSD;
// torch's ATen/native/Math.h and scipy.special use the same expansions): with a = |x|,
//     a <= 8:  exp(-a) I0(a)         = sum_k A0[k] T_k(a / 2 - 2)
//              exp(-a) I1(a) / a     = sum_k A1[k] T_k(a / 2 - 2)
//     a > 8:   exp(-a) sqrt(a) I0(a) = sum_k B0[k] T_k(32 / a - 2)
//              exp(-a) sqrt(a) I1(a) = sum_k B1[k] T_k(32 / a - 2)
// T_k the Chebyshev polynomials, summed by Clenshaw's recurrence from the highest order down (the
// tables list the coefficients highest order first). float evaluates in float, with torch's
// shorter I1 tables (the terms below float's precision dropped), so results follow torch's
// float kernels to the last bit or so; double agrees with scipy.special within a few ulp.
#include <type_traits>

#include "core/dispatch/Library.h"
#include "core/ops/KernelForms.h"
#include "core/ops/cpu/Loops.h"
#include "core/ops/cpu/bessel.h"
#include "core/ops/cpu/unary_loops.h"

namespace opscope::cpu {

namespace {

// torch's AT_DISPATCH_FLOATING_TYPES: float and double only (i1, i1e).
inline constexpr auto kFloatDouble = []<typename T>() {
  return std::bool_constant < std::is_same_v<T, float> || std::is_same_v < T, double >> {};
};

template <typename F>
Tensor float_double_only(const Tensor& out, const Tensor& self, std::string_view name, F f) {
  TensorIterator iter = unary_float_iter(out, self);
  dispatch_dtype_if(iter.common_dtype(), name, kFloatDouble,
                    [&]<typename T>() { unary_loop<T>(iter, std::nullopt, f); });
  return iter.output();
}

}  // namespace

// self [*s] -> I0(self) [*s]
Tensor i0_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, "i0_vml_cpu", false, std::nullopt,
                     [](auto x) { return bessel::i0(x); });
}

// self [*s] -> exp(-|self|) I0(self) [*s]
Tensor special_i0e_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, "i0e_cpu", false, std::nullopt,
                     [](auto x) { return bessel::scaled_i0(std::abs(x)); });
}

// self [*s] -> I1(self) [*s]
Tensor special_i1_impl(const Tensor& out, const Tensor& self) {
  return float_double_only(out, self, "i1_cpu", [](auto x) { return bessel::i1(x); });
}

// self [*s] -> exp(-|self|) I1(self) [*s]
Tensor special_i1e_impl(const Tensor& out, const Tensor& self) {
  return float_double_only(out, self, "i1e_cpu", [](auto x) {
    using T = decltype(x);
    const T r = bessel::scaled_i1(std::abs(x));
    return x < T(0) ? -r : r;
  });
}

static Library cpu_bessel(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("i0", functional<&i0_impl>());
  m.impl("i0_", inplace<&i0_impl>());
  m.impl("i0.out", out<&i0_impl>());
  m.impl("special_i0e", functional<&special_i0e_impl>());
  m.impl("special_i0e.out", out<&special_i0e_impl>());
  m.impl("special_i1", functional<&special_i1_impl>());
  m.impl("special_i1.out", out<&special_i1_impl>());
  m.impl("special_i1e", functional<&special_i1e_impl>());
  m.impl("special_i1e.out", out<&special_i1e_impl>());
});

}  // namespace opscope::cpu
