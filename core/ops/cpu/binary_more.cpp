// CPU kernels of the binary and ternary pointwise ops (see core/ops/pointwise.h): remainder,
// fmod, floor_divide, atan2, maximum / minimum, clamp / clamp_min / clamp_max, where, lerp, the
// logical ops' out= forms and the bit shifts. Each op is one `*_impl(out, ...)` over a
// TensorIterator (out undefined: allocated; out == self: in place; else out=).
#include <atomic>
#include <bit>
#include <cmath>
#include <limits>
#include <type_traits>

#include "core/ops/copy.h"
#include "core/ops/cpu/Loops.h"
#include "core/ops/binary.h"
#include "core/ops/pointwise_kernels.h"
#include "core/ops/compare.h"
#include "core/ops/unary.h"

namespace opscope::cpu {

namespace {

template <typename T>
constexpr bool is_half_v = std::is_same_v<T, Half>;

// --- remainder / fmod ---------------------------------------------------------------------------

// Python's %: the result takes the divisor's sign.
template <bool Python>
Tensor mod_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  TensorIterator iter = TensorIterator::binary_op(out, self, other);
  const char* name = Python ? "remainder_cpu" : "fmod_cpu";
  dispatch_dtype_if(iter.common_dtype(), name, kAllButBool, [&]<typename T>() {
    if constexpr (std::is_integral_v<T>) {
      std::atomic<bool> by_zero{false};
      std::atomic<bool>* flag = &by_zero;
      cpu_kernel(iter, [flag](T a, T b) -> T {
        if (b == 0) {
          flag->store(true, std::memory_order_relaxed);
          return 0;
        }
        if constexpr (std::is_signed_v<T>) {
          if (b == -1) return 0;  // also for the most negative a, which would trap
        }
        T r = static_cast<T>(a % b);
        if constexpr (Python && std::is_signed_v<T>) {
          if (r != 0 && ((r < 0) != (b < 0))) r = static_cast<T>(r + b);
        }
        return r;
      });
      OPSCOPE_CHECK(!by_zero.load(), "ZeroDivisionError");
    } else {
      using A = acc_type_t<T>;
      cpu_kernel(iter, [](T a, T b) -> T {
        A m = std::fmod(A(a), A(b));
        if (Python && m != 0 && ((A(b) < 0) != (m < 0))) m += A(b);
        return static_cast<T>(m);
      });
    }
  });
  return iter.output();
}

// --- atan2 --------------------------------------------------------------------------------------

Tensor atan2_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  TensorIterator iter = TensorIterator::binary_float_op(out, self, other);
  dispatch_dtype_if(iter.common_dtype(), "atan2_cpu", kFloatingOnly, [&]<typename T>() {
    if (is_half_v<T>) throw Error("\"atan2_cpu\" not implemented for 'Half'");
    using A = acc_type_t<T>;
    cpu_kernel(iter, [](T a, T b) -> T { return static_cast<T>(std::atan2(A(a), A(b))); });
  });
  return iter.output();
}

// --- maximum / minimum: NaN-propagating ---------------------------------------------------------

template <typename A>
inline A max_propagate(A a, A b) {
  if constexpr (!std::is_integral_v<A>) {
    if (a != a || b != b) return std::numeric_limits<A>::quiet_NaN();
  }
  return a > b ? a : b;
}
template <typename A>
inline A min_propagate(A a, A b) {
  if constexpr (!std::is_integral_v<A>) {
    if (a != a || b != b) return std::numeric_limits<A>::quiet_NaN();
  }
  return a < b ? a : b;
}

template <bool Max>
void max_min_kernel(TensorIterator& iter) {
  dispatch_dtype(iter.common_dtype(), Max ? "maximum_cpu" : "minimum_cpu", [&]<typename T>() {
    if constexpr (std::is_same_v<T, bool>) {
      if (Max)
        cpu_kernel(iter, [](bool a, bool b) -> bool { return a || b; });
      else
        cpu_kernel(iter, [](bool a, bool b) -> bool { return a && b; });
    } else {
      using A = acc_type_t<T>;
      cpu_kernel(iter, [](T a, T b) -> T {
        return static_cast<T>(Max ? max_propagate(A(a), A(b)) : min_propagate(A(a), A(b)));
      });
    }
  });
}

template <bool Max>
Tensor max_min_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  TensorIterator iter = TensorIterator::binary_op(out, self, other);
  max_min_kernel<Max>(iter);
  return iter.output();
}

// --- clamp --------------------------------------------------------------------------------------

// PyTorch's clamp with Scalar bounds: a non-floating self takes part in promotion with the
// bounds (int_tensor.clamp(0.5) is float); in place that must not change self's dtype.
Tensor promote_for_clamp(const Tensor& out, const Tensor& self, const std::optional<Scalar>& min,
                         const std::optional<Scalar>& max) {
  if (is_floating(self.dtype())) return self;
  ScalarType t = self.dtype();
  // result_type of self with the bounds, as PyTorch's ResultTypeState.
  Tensor probe = self;
  if (min) t = result_type(probe, *min);
  if (max) t = promote_types(t, result_type(self, *max));
  if (min && max && !is_floating(t)) {
    // Two integral / bool bounds: the tensor's category wins, as for one.
    t = promote_types(result_type(self, *min), result_type(self, *max));
  }
  OPSCOPE_CHECK(t == self.dtype() || !out.defined() || !out.is_same(self), "result type ",
                cpp_name(t), " can't be cast to the desired output type ",
                typemeta_name(self.dtype()));
  return t == self.dtype() ? self : ops::to(self, t);
}

enum class Bound { Both, Min, Max };

Tensor clamp_scalar_impl(const Tensor& out, const Tensor& self, const std::optional<Scalar>& min,
                         const std::optional<Scalar>& max, Bound which) {
  OPSCOPE_CHECK(min || max, "torch.clamp: At least one of 'min' or 'max' must not be None");
  Tensor input = promote_for_clamp(out, self, min, max);
  TensorIterator iter = TensorIterator::unary_op(out, input);
  if (min && max && (std::isnan(min->to_double()) || std::isnan(max->to_double()))) {
    // As PyTorch: a NaN bound makes every element NaN.
    Tensor result = iter.output();
    if (!is_floating(result.dtype())) return result;
    return ops::fill_(result, std::numeric_limits<double>::quiet_NaN());
  }
  const char* name = which == Bound::Both  ? "clamp_scalar_cpu"
                     : which == Bound::Min ? "clamp_min_cpu"
                                           : "clamp_max_scalar_cpu";
  dispatch_dtype_if(iter.common_dtype(), name, kAllButBool, [&]<typename T>() {
    if (is_half_v<T>) throw Error(detail::str("\"", name, "\" not implemented for 'Half'"));
    using A = acc_type_t<T>;
    if (min && max) {
      const A lo = A(checked_convert<T>(*min)), hi = A(checked_convert<T>(*max));
      cpu_kernel(iter, [lo, hi](T a) -> T {
        A v = A(a);
        v = v < lo ? lo : v;  // std::max(a, lo): NaN stays
        return static_cast<T>(hi < v ? hi : v);
      });
    } else if (min) {
      const A lo = A(checked_convert<T>(*min));
      cpu_kernel(iter, [lo](T a) -> T { return A(a) < lo ? static_cast<T>(lo) : a; });
    } else {
      const A hi = A(checked_convert<T>(*max));
      cpu_kernel(iter, [hi](T a) -> T { return hi < A(a) ? static_cast<T>(hi) : a; });
    }
  });
  return iter.output();
}

Tensor clamp_tensor_impl(const Tensor& out, const Tensor& self, const Tensor& min,
                         const Tensor& max) {
  OPSCOPE_CHECK(min.defined() || max.defined(),
                "torch.clamp: At least one of 'min' or 'max' must not be None");
  auto config = [&]() {
    TensorIteratorConfig c;
    c.add_output(out)
        .add_input(self)
        .promote_inputs_to_common_dtype(true)
        .cast_common_dtype_to_outputs(true)
        .enforce_safe_casting_to_output(true);
    return c;
  };
  if (min.defined() && max.defined()) {
    TensorIteratorConfig c = config();
    TensorIterator iter = c.add_input(min).add_input(max).build();
    dispatch_dtype_if(iter.common_dtype(), "clamp_cpu", kAllButBool, [&]<typename T>() {
      if (is_half_v<T>) throw Error("\"clamp_cpu\" not implemented for 'Half'");
      using A = acc_type_t<T>;
      cpu_kernel(iter, [](T a, T lo, T hi) -> T {
        return static_cast<T>(min_propagate(max_propagate(A(a), A(lo)), A(hi)));
      });
    });
    return iter.output();
  }
  TensorIteratorConfig c = config();
  TensorIterator iter = c.add_input(min.defined() ? min : max).build();
  if (min.defined())
    max_min_kernel<true>(iter);
  else
    max_min_kernel<false>(iter);
  return iter.output();
}

// --- where --------------------------------------------------------------------------------------

Tensor where_impl(const Tensor& out, const Tensor& condition, const Tensor& self,
                  const Tensor& other) {
  OPSCOPE_CHECK(condition.dtype() == ScalarType::Bool || condition.dtype() == ScalarType::UInt8,
                "where expected condition to be a boolean tensor, but got a tensor with dtype ",
                cpp_name(condition.dtype()));
  ScalarType t = result_type(self, other);
  Tensor cond =
      condition.dtype() == ScalarType::Bool ? condition : ops::to(condition, ScalarType::Bool);
  Tensor a = self.dtype() == t ? self : ops::to(self, t);
  Tensor b = other.dtype() == t ? other : ops::to(other, t);
  Tensor result = out;
  if (!result.defined()) result = make_empty({0}, t, self.device());
  OPSCOPE_CHECK(result.dtype() == t, "Expected out type to be ", cpp_name(t), " but got ",
                cpp_name(result.dtype()));
  TensorIterator iter = TensorIteratorConfig()
                            .add_output(result)
                            .add_input(cond)
                            .add_input(a)
                            .add_input(b)
                            .check_all_same_dtype(false)
                            .build();
  dispatch_dtype(t, "where_cpu", [&]<typename T>() {
    if constexpr (sizeof(T) == 1) {
      cpu_kernel(iter, [](bool c, T x, T y) -> T { return c ? x : y; });
    } else {
      // Branch-free: a random mask would mispredict every other element.
      using U = std::conditional_t<sizeof(T) == 2, uint16_t,
                                   std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>;
      cpu_kernel(iter, [](bool c, T x, T y) -> T {
        U mask = U(0) - static_cast<U>(c);
        U bits = (std::bit_cast<U>(x) & mask) | (std::bit_cast<U>(y) & ~mask);
        return std::bit_cast<T>(bits);
      });
    }
  });
  return result;
}

// --- lerp ---------------------------------------------------------------------------------------

// self + weight * (end - self), from whichever end is nearer for accuracy (PyTorch's formula).
template <typename A>
inline A lerp_value(A self, A end, A weight) {
  return std::abs(weight) < A(0.5) ? self + weight * (end - self)
                                   : end - (end - self) * (A(1) - weight);
}

void lerp_check(const Tensor& self, const Tensor& other, const char* what) {
  OPSCOPE_CHECK(self.dtype() == other.dtype(), "expected dtype ", typemeta_name(self.dtype()),
                " for `", what, "` but got dtype ", typemeta_name(other.dtype()));
}

Tensor lerp_scalar_impl(const Tensor& out, const Tensor& self, const Tensor& end,
                        const Scalar& weight) {
  lerp_check(self, end, "end");
  TensorIterator iter =
      TensorIteratorConfig().add_output(out).add_input(self).add_input(end).build();
  dispatch_dtype_if(iter.common_dtype(), "lerp_kernel_scalar", kFloatingOnly, [&]<typename T>() {
    if (is_half_v<T>) throw Error("\"lerp_kernel_scalar\" not implemented for 'Half'");
    using A = acc_type_t<T>;
    const A w = static_cast<A>(weight.to_double());
    cpu_kernel(iter, [w](T a, T b) -> T { return static_cast<T>(lerp_value(A(a), A(b), w)); });
  });
  return iter.output();
}

Tensor lerp_tensor_impl(const Tensor& out, const Tensor& self, const Tensor& end,
                        const Tensor& weight) {
  lerp_check(self, end, "end");
  lerp_check(self, weight, "weight");
  TensorIterator iter = TensorIteratorConfig()
                            .add_output(out)
                            .add_input(self)
                            .add_input(end)
                            .add_input(weight)
                            .build();
  dispatch_dtype_if(iter.common_dtype(), "lerp_kernel_tensor", kFloatingOnly, [&]<typename T>() {
    if (is_half_v<T>) throw Error("\"lerp_kernel_tensor\" not implemented for 'Half'");
    using A = acc_type_t<T>;
    cpu_kernel(iter,
               [](T a, T b, T w) -> T { return static_cast<T>(lerp_value(A(a), A(b), A(w))); });
  });
  return iter.output();
}

// --- logical ------------------------------------------------------------------------------------

enum class Logic { And, Or, Xor };

template <Logic L>
inline bool logic(bool a, bool b) {
  if constexpr (L == Logic::And)
    return a && b;
  else if constexpr (L == Logic::Or)
    return a || b;
  else
    return a != b;
}

// Inputs in their common dtype, read as `!= 0`; a bool out= gets the result directly, another
// dtype 1 / 0 (TensorIterator::comparison_op casts).
template <Logic L>
Tensor logical_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  TensorIterator iter = TensorIterator::comparison_op(out, self, other);
  const bool bool_out = iter.dtype(0) == ScalarType::Bool;
  dispatch_dtype(iter.common_dtype(), "logical_cpu", [&]<typename T>() {
    using A = acc_type_t<T>;
    if (bool_out)
      cpu_kernel(iter, [](T a, T b) -> bool { return logic<L>(A(a) != A(0), A(b) != A(0)); });
    else
      cpu_kernel(
          iter, [](T a, T b) -> T { return static_cast<T>(logic<L>(A(a) != A(0), A(b) != A(0))); });
  });
  return iter.output();
}

Tensor logical_not_impl(const Tensor& out, const Tensor& self) {
  resize_output(out, self.sizes());
  TensorIterator iter =
      TensorIteratorConfig().add_output(out).add_input(self).check_all_same_dtype(false).build();
  dispatch_dtype(self.dtype(), "logical_not_cpu", [&]<typename T>() {
    using A = acc_type_t<T>;
    dispatch_dtype(out.dtype(), "logical_not_cpu", [&]<typename R>() {
      cpu_kernel(iter, [](T a) -> R { return static_cast<R>(A(a) == A(0)); });
    });
  });
  return out;
}

// --- shifts -------------------------------------------------------------------------------------

// As x86 does it for C's promoted operands: the count taken modulo 32 (64 for int64).
template <bool Left, typename T>
inline T shift(T a, T b) {
  if constexpr (sizeof(T) == 8) {
    auto n = static_cast<uint64_t>(b) & 63;
    if constexpr (Left)
      return static_cast<T>(static_cast<uint64_t>(a) << n);
    else
      return static_cast<T>(a >> n);
  } else {
    auto n = static_cast<uint32_t>(b) & 31;
    if constexpr (Left)
      return static_cast<T>(static_cast<uint32_t>(static_cast<int32_t>(a)) << n);
    else
      return static_cast<T>(static_cast<int32_t>(a) >> n);
  }
}

template <bool Left>
Tensor shift_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  TensorIterator iter = TensorIterator::binary_op(out, self, other);
  const char* name = Left ? "lshift_cpu" : "rshift_cpu";
  dispatch_dtype(iter.common_dtype(), name, [&]<typename T>() {
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      cpu_kernel(iter, [](T a, T b) -> T { return shift<Left>(a, b); });
    } else {
      throw Error(
          detail::str("\"", name, "\" not implemented for '", cpp_name(iter.common_dtype()), "'"));
    }
  });
  return iter.output();
}

}  // namespace

// --- remainder / fmod / floor_divide: self, other broadcast -----------------------------------

Tensor remainder_tensor(const Tensor& self, const Tensor& other) {
  return mod_impl<true>(Tensor(), self, other);
}
Tensor remainder_tensor_(const Tensor& self, const Tensor& other) {
  return mod_impl<true>(self, self, other);
}
Tensor remainder_tensor_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return mod_impl<true>(out, self, other);
}
// self a number, other [*s] -> [*s]
Tensor remainder_scalar_tensor(const Scalar& self, const Tensor& other) {
  return mod_impl<true>(Tensor(), wrapped_scalar_tensor(self), other);
}
Tensor fmod_tensor(const Tensor& self, const Tensor& other) {
  return mod_impl<false>(Tensor(), self, other);
}
Tensor fmod_tensor_(const Tensor& self, const Tensor& other) {
  return mod_impl<false>(self, self, other);
}
Tensor fmod_tensor_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return mod_impl<false>(out, self, other);
}
// floor_divide is div(rounding_mode="floor"), as in PyTorch 1.13.
Tensor floor_divide(const Tensor& self, const Tensor& other) {
  return ops::div(self, other, "floor");
}
Tensor floor_divide_tensor_(const Tensor& self, const Tensor& other) {
  return ops::div_(self, other, "floor");
}
Tensor floor_divide_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return ops::div_out(out, self, other, "floor");
}

// self, other broadcast -> atan2(self, other), integers -> the default float dtype
Tensor atan2(const Tensor& self, const Tensor& other) {
  return atan2_impl(Tensor(), self, other);
}
Tensor atan2_(const Tensor& self, const Tensor& other) {
  return atan2_impl(self, self, other);
}
Tensor atan2_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return atan2_impl(out, self, other);
}

// self, other broadcast -> elementwise max / min, NaN if either is NaN
Tensor maximum(const Tensor& self, const Tensor& other) {
  return max_min_impl<true>(Tensor(), self, other);
}
Tensor maximum_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return max_min_impl<true>(out, self, other);
}
Tensor minimum(const Tensor& self, const Tensor& other) {
  return max_min_impl<false>(Tensor(), self, other);
}
Tensor minimum_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return max_min_impl<false>(out, self, other);
}

// --- clamp: self [*s] (min, max broadcast) -> [*s] ---------------------------------------------

using OptScalar = std::optional<Scalar>;
Tensor clamp(const Tensor& self, const OptScalar& min, const OptScalar& max) {
  return clamp_scalar_impl(Tensor(), self, min, max, Bound::Both);
}
Tensor clamp_(const Tensor& self, const OptScalar& min, const OptScalar& max) {
  return clamp_scalar_impl(self, self, min, max, Bound::Both);
}
Tensor clamp_out(const Tensor& self, const OptScalar& min, const OptScalar& max,
                 const Tensor& out) {
  return clamp_scalar_impl(out, self, min, max, Bound::Both);
}
Tensor clamp_tensor(const Tensor& self, const Tensor& min, const Tensor& max) {
  return clamp_tensor_impl(Tensor(), self, min, max);
}
Tensor clamp_tensor_(const Tensor& self, const Tensor& min, const Tensor& max) {
  return clamp_tensor_impl(self, self, min, max);
}
Tensor clamp_tensor_out(const Tensor& self, const Tensor& min, const Tensor& max,
                        const Tensor& out) {
  return clamp_tensor_impl(out, self, min, max);
}
Tensor clamp_min(const Tensor& self, const Scalar& min) {
  return clamp_scalar_impl(Tensor(), self, min, std::nullopt, Bound::Min);
}
Tensor clamp_min_(const Tensor& self, const Scalar& min) {
  return clamp_scalar_impl(self, self, min, std::nullopt, Bound::Min);
}
Tensor clamp_min_out(const Tensor& self, const Scalar& min, const Tensor& out) {
  return clamp_scalar_impl(out, self, min, std::nullopt, Bound::Min);
}
Tensor clamp_min_tensor(const Tensor& self, const Tensor& min) {
  return clamp_tensor_impl(Tensor(), self, min, Tensor());
}
Tensor clamp_min_tensor_(const Tensor& self, const Tensor& min) {
  return clamp_tensor_impl(self, self, min, Tensor());
}
Tensor clamp_min_tensor_out(const Tensor& self, const Tensor& min, const Tensor& out) {
  return clamp_tensor_impl(out, self, min, Tensor());
}
Tensor clamp_max(const Tensor& self, const Scalar& max) {
  return clamp_scalar_impl(Tensor(), self, std::nullopt, max, Bound::Max);
}
Tensor clamp_max_(const Tensor& self, const Scalar& max) {
  return clamp_scalar_impl(self, self, std::nullopt, max, Bound::Max);
}
Tensor clamp_max_out(const Tensor& self, const Scalar& max, const Tensor& out) {
  return clamp_scalar_impl(out, self, std::nullopt, max, Bound::Max);
}
Tensor clamp_max_tensor(const Tensor& self, const Tensor& max) {
  return clamp_tensor_impl(Tensor(), self, Tensor(), max);
}
Tensor clamp_max_tensor_(const Tensor& self, const Tensor& max) {
  return clamp_tensor_impl(self, self, Tensor(), max);
}
Tensor clamp_max_tensor_out(const Tensor& self, const Tensor& max, const Tensor& out) {
  return clamp_tensor_impl(out, self, Tensor(), max);
}

// condition, self, other broadcast -> condition ? self : other, in result_type(self, other)
Tensor where_self(const Tensor& condition, const Tensor& self, const Tensor& other) {
  return where_impl(Tensor(), condition, self, other);
}
Tensor where_self_out(const Tensor& condition, const Tensor& self, const Tensor& other,
                      const Tensor& out) {
  return where_impl(out, condition, self, other);
}

// self, end (, weight) broadcast -> self + weight * (end - self); one floating dtype
Tensor lerp_scalar(const Tensor& self, const Tensor& end, const Scalar& weight) {
  return lerp_scalar_impl(Tensor(), self, end, weight);
}
Tensor lerp_scalar_(const Tensor& self, const Tensor& end, const Scalar& weight) {
  return lerp_scalar_impl(self, self, end, weight);
}
Tensor lerp_scalar_out(const Tensor& self, const Tensor& end, const Scalar& weight,
                       const Tensor& out) {
  return lerp_scalar_impl(out, self, end, weight);
}
Tensor lerp_tensor(const Tensor& self, const Tensor& end, const Tensor& weight) {
  return lerp_tensor_impl(Tensor(), self, end, weight);
}
Tensor lerp_tensor_(const Tensor& self, const Tensor& end, const Tensor& weight) {
  return lerp_tensor_impl(self, self, end, weight);
}
Tensor lerp_tensor_out(const Tensor& self, const Tensor& end, const Tensor& weight,
                       const Tensor& out) {
  return lerp_tensor_impl(out, self, end, weight);
}

// self, other broadcast -> bool (out='s dtype when given)
Tensor logical_and_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return logical_impl<Logic::And>(out, self, other);
}
Tensor logical_or_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return logical_impl<Logic::Or>(out, self, other);
}
Tensor logical_xor_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return logical_impl<Logic::Xor>(out, self, other);
}
Tensor logical_not_out(const Tensor& self, const Tensor& out) {
  return logical_not_impl(out, self);
}

// --- shifts: self, other broadcast, integer dtypes ----------------------------------------------

Tensor bitwise_left_shift_tensor(const Tensor& self, const Tensor& other) {
  return shift_impl<true>(Tensor(), self, other);
}
Tensor bitwise_left_shift_tensor_(const Tensor& self, const Tensor& other) {
  return shift_impl<true>(self, self, other);
}
Tensor bitwise_left_shift_tensor_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return shift_impl<true>(out, self, other);
}
Tensor bitwise_right_shift_tensor(const Tensor& self, const Tensor& other) {
  return shift_impl<false>(Tensor(), self, other);
}
Tensor bitwise_right_shift_tensor_(const Tensor& self, const Tensor& other) {
  return shift_impl<false>(self, self, other);
}
Tensor bitwise_right_shift_tensor_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return shift_impl<false>(out, self, other);
}
}  // namespace opscope::cpu
