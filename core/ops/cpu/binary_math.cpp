// CPU kernels of the binary math ops (see core/ops/binary.h): logaddexp / logaddexp2, hypot,
// copysign, fmax / fmin, xlogy, heaviside, gcd / lcm and nextafter. Each is one
// `*_impl(out, self, other)` over a TensorIterator (out undefined: allocated; out == self: in
// place; else out=), registered in its functional / in-place / out= forms (KernelForms.h), with
// torch 1.13's dtype sets and the kernel names of its dtype errors. Their Scalar overloads and
// ldexp / float_power are composite (core/ops/composite/binary.cpp).
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <type_traits>

#include "core/dispatch/Library.h"
#include "core/ops/KernelForms.h"
#include "core/ops/binary.h"
#include "core/ops/cpu/Loops.h"
#include "core/ops/cpu/special_functions.h"
#include "core/ops/cpu/unary_vec.h"

namespace opscope::cpu {

namespace {

template <typename T>
constexpr bool is_half_v = std::is_same_v<T, Half>;

// A float-only op of the operands' common dtype (integers refused, not promoted), float16 refused
// unless `half`: logaddexp, hypot, nextafter.
template <typename F>
void float_only(TensorIterator& iter, std::string_view name, bool half, const F& body) {
  dispatch_dtype_if(iter.common_dtype(), name, kFloatingOnly, [&]<typename T>() {
    if (is_half_v<T> && !half) throw Error(detail::str("\"", name, "\" not implemented for 'Half'"));
    body.template operator()<T>();
  });
}

// out = f(a, b) over a float-only op's TensorIterator: float32 / float64 runs whose three operands
// are contiguous go through the AVX2 kernel `vop` (unary_vec.h: SLEEF, as torch's vectorized
// kernels), every other run and dtype through f.
template <typename T, typename F>
void binary_vec_loop(TensorIterator& iter, vec::BinaryOp vop, const F& f) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    if (vec::available()) {
      iter.for_each([&](char** data, const int64_t* strides, int64_t n) {
        constexpr int64_t s = sizeof(T);
        if (strides[0] == s && strides[1] == s && strides[2] == s &&
            vec::vec_binary(vop, reinterpret_cast<const T*>(data[1]),
                            reinterpret_cast<const T*>(data[2]), reinterpret_cast<T*>(data[0]),
                            n)) {
          return;
        }
        for (int64_t i = 0; i < n; ++i) {
          *reinterpret_cast<T*>(data[0] + i * strides[0]) =
              f(*reinterpret_cast<const T*>(data[1] + i * strides[1]),
                *reinterpret_cast<const T*>(data[2] + i * strides[2]));
        }
      });
      return;
    }
  }
  cpu_kernel(iter, f);
}

// log2(2^a + 2^b), the same way.
template <typename A>
A log_add_exp2(A a, A b) {
  if (std::isinf(a) && a == b) return a;
  const A m = std::max(a, b);
  return m + std::log1p(std::exp2(-std::abs(a - b))) / std::numbers::ln2_v<A>;
}

// |v| as the unsigned type of T: the most negative value's magnitude too (2^63 for int64).
template <typename T>
std::make_unsigned_t<T> magnitude(T v) {
  using U = std::make_unsigned_t<T>;
  return v < 0 ? static_cast<U>(U(0) - static_cast<U>(v)) : static_cast<U>(v);
}

// Euclid on the magnitudes, in unsigned arithmetic: torch's calc_gcd for every pair it computes
// without overflow, and no division trap where it overflows (the most negative value: its
// magnitude, 2^63, wraps back to itself when the result is cast to T).
template <typename T>
std::make_unsigned_t<T> gcd_magnitude(T x, T y) {
  auto a = magnitude(x), b = magnitude(y);
  while (a != 0) {
    const auto c = a;
    a = static_cast<decltype(a)>(b % a);
    b = c;
  }
  return b;
}

// The bfloat16 after `from` in the direction of `to` (std::nextafter has no bfloat16): one step
// of the 16-bit pattern, away from zero when moving outward, towards it when moving inward.
BFloat16 next_after(BFloat16 from, BFloat16 to) {
  const float f = from, t = to;
  BFloat16 r;
  if (std::isnan(f) || std::isnan(t)) return BFloat16(std::numeric_limits<float>::quiet_NaN());
  if (f == t) return to;
  if (f == 0) {  // the smallest subnormal, with to's sign
    r.x = static_cast<uint16_t>((to.x & 0x8000u) | 1u);
    return r;
  }
  r.x = static_cast<uint16_t>(((f < t) == (f > 0)) ? from.x + 1 : from.x - 1);
  return r;
}

}  // namespace

// self, other (broadcast) -> ln(e^self + e^other), floating only
Tensor logaddexp_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  TensorIterator iter = TensorIterator::binary_op(out, self, other);
  float_only(iter, "logaddexp_cpu", false, [&]<typename T>() {
    using A = acc_type_t<T>;
    binary_vec_loop<T>(iter, vec::BinaryOp::LogAddExp,
                       [](T a, T b) -> T { return static_cast<T>(special::log_add_exp(A(a), A(b))); });
  });
  return iter.output();
}

// self, other (broadcast) -> log2(2^self + 2^other), floating only
Tensor logaddexp2_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  TensorIterator iter = TensorIterator::binary_op(out, self, other);
  float_only(iter, "logaddexp2_cpu", false, [&]<typename T>() {
    using A = acc_type_t<T>;
    binary_vec_loop<T>(iter, vec::BinaryOp::LogAddExp2,
                       [](T a, T b) -> T { return static_cast<T>(log_add_exp2(A(a), A(b))); });
  });
  return iter.output();
}

// self, other (broadcast) -> sqrt(self^2 + other^2) without overflow, floating only
Tensor hypot_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  TensorIterator iter = TensorIterator::binary_op(out, self, other);
  float_only(iter, "hypot_cpu", false, [&]<typename T>() {
    using A = acc_type_t<T>;
    binary_vec_loop<T>(iter, vec::BinaryOp::Hypot,
                       [](T a, T b) -> T { return static_cast<T>(std::hypot(A(a), A(b))); });
  });
  return iter.output();
}

// self, other (broadcast) -> |self| with other's sign (-0.0 counts); integers -> the default float
Tensor copysign_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  TensorIterator iter = TensorIterator::binary_float_op(out, self, other);
  float_only(iter, "copysign_cpu", true, [&]<typename T>() {
    using A = acc_type_t<T>;
    cpu_kernel(iter, [](T a, T b) -> T { return static_cast<T>(std::copysign(A(a), A(b))); });
  });
  return iter.output();
}

namespace {

// self, other (broadcast) -> the larger (smaller); a NaN loses to a number (maximum: wins)
template <bool Max>
Tensor fmax_fmin_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  TensorIterator iter = TensorIterator::binary_op(out, self, other);
  dispatch_dtype(iter.common_dtype(), Max ? "fmax_cpu" : "fmin_cpu", [&]<typename T>() {
    if constexpr (std::is_same_v<T, bool>) {
      cpu_kernel(iter, [](bool a, bool b) -> bool { return Max ? (a || b) : (a && b); });
    } else if constexpr (std::is_integral_v<T>) {
      cpu_kernel(iter, [](T a, T b) -> T { return Max ? std::max(a, b) : std::min(a, b); });
    } else {
      using A = acc_type_t<T>;
      cpu_kernel(iter, [](T a, T b) -> T {
        return static_cast<T>(Max ? std::fmax(A(a), A(b)) : std::fmin(A(a), A(b)));
      });
    }
  });
  return iter.output();
}
}  // namespace

Tensor fmax_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  return fmax_fmin_impl<true>(out, self, other);
}
Tensor fmin_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  return fmax_fmin_impl<false>(out, self, other);
}

// self, other (broadcast) -> self * log(other), 0 where self is 0 (unless other is NaN);
// integers -> the default float
Tensor xlogy_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  TensorIterator iter = TensorIterator::binary_float_op(out, self, other);
  float_only(iter, "xlogy_cpu", true, [&]<typename T>() {
    using A = acc_type_t<T>;
    cpu_kernel(iter, [](T x, T y) -> T {
      if (std::isnan(A(y))) return static_cast<T>(std::numeric_limits<A>::quiet_NaN());
      if (A(x) == 0) return static_cast<T>(0);
      return static_cast<T>(A(x) * std::log(A(y)));
    });
  });
  return iter.output();
}

// self, values (broadcast, one dtype) -> 0 where self < 0, 1 where self > 0, values where 0
Tensor heaviside_impl(const Tensor& out, const Tensor& self, const Tensor& values) {
  OPSCOPE_CHECK(self.dtype() == values.dtype() && (!out.defined() || out.dtype() == self.dtype()),
                "heaviside is not yet implemented for tensors with different dtypes.");
  TensorIterator iter = TensorIterator::binary_op(out, self, values);
  dispatch_dtype(iter.common_dtype(), "heaviside_cpu", [&]<typename T>() {
    using A = acc_type_t<T>;
    cpu_kernel(iter, [](T a, T v) -> T { return A(a) == A(0) ? v : static_cast<T>(A(a) > A(0)); });
  });
  return iter.output();
}

namespace {

// self, other (broadcast) -> the greatest common divisor (least common multiple) of the
// magnitudes, integers only (0 with 0: 0)
template <bool Lcm>
Tensor gcd_lcm_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  TensorIterator iter = TensorIterator::binary_op(out, self, other);
  const char* name = Lcm ? "lcm_cpu" : "gcd_cpu";
  dispatch_dtype(iter.common_dtype(), name, [&]<typename T>() {
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      cpu_kernel(iter, [](T a, T b) -> T {
        const auto g = gcd_magnitude(a, b);
        if constexpr (!Lcm) {
          return static_cast<T>(g);
        } else {  // |a| / g * |b|, wrapping in the unsigned type as torch's does in T
          if (g == 0) return T(0);
          const auto m = static_cast<decltype(g)>(magnitude(a) / g * magnitude(b));
          const T r = static_cast<T>(m);
          return static_cast<T>(r < 0 ? static_cast<T>(magnitude(r)) : r);
        }
      });
    } else {
      throw Error(detail::str("\"", name, "\" not implemented for '", cpp_name(iter.common_dtype()),
                              "'"));
    }
  });
  return iter.output();
}
}  // namespace

Tensor gcd_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  return gcd_lcm_impl<false>(out, self, other);
}
Tensor lcm_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  return gcd_lcm_impl<true>(out, self, other);
}

// self, other (broadcast) -> the next representable value after self towards other
Tensor nextafter_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  TensorIterator iter = TensorIterator::binary_op(out, self, other);
  float_only(iter, "nextafter_cpu", false, [&]<typename T>() {
    if constexpr (std::is_same_v<T, BFloat16>) {
      cpu_kernel(iter, [](T a, T b) -> T { return next_after(a, b); });
    } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      cpu_kernel(iter, [](T a, T b) -> T { return std::nextafter(a, b); });
    }
  });
  return iter.output();
}

static Library cpu_binary_math(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("logaddexp", functional<&logaddexp_impl>());
  m.impl("logaddexp.out", out<&logaddexp_impl>());
  m.impl("logaddexp2", functional<&logaddexp2_impl>());
  m.impl("logaddexp2.out", out<&logaddexp2_impl>());
  m.impl("hypot", functional<&hypot_impl>());
  m.impl("hypot_", inplace<&hypot_impl>());
  m.impl("hypot.out", out<&hypot_impl>());
  m.impl("copysign.Tensor", functional<&copysign_impl>());
  m.impl("copysign_.Tensor", inplace<&copysign_impl>());
  m.impl("copysign.out", out<&copysign_impl>());
  m.impl("fmax", functional<&fmax_impl>());
  m.impl("fmax.out", out<&fmax_impl>());
  m.impl("fmin", functional<&fmin_impl>());
  m.impl("fmin.out", out<&fmin_impl>());
  m.impl("xlogy.Tensor", functional<&xlogy_impl>());
  m.impl("xlogy_.Tensor", inplace<&xlogy_impl>());
  m.impl("xlogy.OutTensor", out<&xlogy_impl>());
  m.impl("heaviside", functional<&heaviside_impl>());
  m.impl("heaviside_", inplace<&heaviside_impl>());
  m.impl("heaviside.out", out<&heaviside_impl>());
  m.impl("gcd", functional<&gcd_impl>());
  m.impl("gcd_", inplace<&gcd_impl>());
  m.impl("gcd.out", out<&gcd_impl>());
  m.impl("lcm", functional<&lcm_impl>());
  m.impl("lcm_", inplace<&lcm_impl>());
  m.impl("lcm.out", out<&lcm_impl>());
  m.impl("nextafter", functional<&nextafter_impl>());
  m.impl("nextafter_", inplace<&nextafter_impl>());
  m.impl("nextafter.out", out<&nextafter_impl>());
});

}  // namespace opscope::cpu
