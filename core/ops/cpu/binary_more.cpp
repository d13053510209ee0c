// CPU kernels of the binary ops beyond the arithmetic of binary.cpp (see core/ops/binary.h):
// remainder, fmod, floor_divide, atan2, lerp, the logical ops' out= forms, bitwise and / or / xor
// (and bitwise_not, unary, beside them) and the bit shifts. Each op is one `*_impl(out, ...)` over
// a TensorIterator (out undefined: allocated; out == self: in place; else out=).
#include <atomic>
#include <bit>
#include <cmath>
#include <limits>
#include <type_traits>

#include "core/dispatch/Library.h"
#include "core/ops/binary.h"
#include "core/ops/compare.h"
#include "core/ops/copy.h"
#include "core/ops/cpu/Loops.h"
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

// --- bitwise and / or / xor / not -------------------------------------------------------------

enum class Bit { And, Or, Xor };

template <Bit B>
void bitwise_kernel(TensorIterator& iter) {
  constexpr const char* name = B == Bit::And  ? "bitwise_and_cpu"
                               : B == Bit::Or ? "bitwise_or_cpu"
                                              : "bitwise_xor_cpu";
  dispatch_dtype_if(iter.common_dtype(), name, kIntegralAndBool, [&]<typename T>() {
    if constexpr (std::is_same_v<T, bool>) {
      if constexpr (B == Bit::And)
        cpu_kernel(iter, [](bool a, bool b) -> bool { return a && b; });
      else if constexpr (B == Bit::Or)
        cpu_kernel(iter, [](bool a, bool b) -> bool { return a || b; });
      else
        cpu_kernel(iter, [](bool a, bool b) -> bool { return a != b; });
    } else {
      if constexpr (B == Bit::And)
        cpu_kernel(iter, [](T a, T b) -> T { return static_cast<T>(a & b); });
      else if constexpr (B == Bit::Or)
        cpu_kernel(iter, [](T a, T b) -> T { return static_cast<T>(a | b); });
      else
        cpu_kernel(iter, [](T a, T b) -> T { return static_cast<T>(a ^ b); });
    }
  });
}

template <Bit B>
Tensor bitwise(const Tensor& out, const Tensor& self, const Tensor& other) {
  TensorIterator iter = TensorIterator::binary_op(out, self, other);
  bitwise_kernel<B>(iter);
  return iter.output();
}

Tensor bitwise_not_impl(const Tensor& out, const Tensor& self) {
  TensorIterator iter = TensorIterator::unary_op(out, self);
  dispatch_dtype_if(iter.common_dtype(), "bitwise_not_cpu", kIntegralAndBool, [&]<typename T>() {
    if constexpr (std::is_same_v<T, bool>)
      cpu_kernel(iter, [](bool a) -> bool { return !a; });
    else
      cpu_kernel(iter, [](T a) -> T { return static_cast<T>(~a); });
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
// self, other broadcast -> self & other
Tensor bitwise_and(const Tensor& self, const Tensor& other) {
  return bitwise<Bit::And>(Tensor(), self, other);
}
Tensor bitwise_and_(const Tensor& self, const Tensor& other) {
  return bitwise<Bit::And>(self, self, other);
}
Tensor bitwise_and_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return bitwise<Bit::And>(out, self, other);
}

// self, other broadcast -> self | other
Tensor bitwise_or(const Tensor& self, const Tensor& other) {
  return bitwise<Bit::Or>(Tensor(), self, other);
}
Tensor bitwise_or_(const Tensor& self, const Tensor& other) {
  return bitwise<Bit::Or>(self, self, other);
}
Tensor bitwise_or_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return bitwise<Bit::Or>(out, self, other);
}

// self, other broadcast -> self ^ other
Tensor bitwise_xor(const Tensor& self, const Tensor& other) {
  return bitwise<Bit::Xor>(Tensor(), self, other);
}
Tensor bitwise_xor_(const Tensor& self, const Tensor& other) {
  return bitwise<Bit::Xor>(self, self, other);
}
Tensor bitwise_xor_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return bitwise<Bit::Xor>(out, self, other);
}

// self [*s] -> ~self (logical not for bool)
Tensor bitwise_not(const Tensor& self) {
  return bitwise_not_impl(Tensor(), self);
}
Tensor bitwise_not_(const Tensor& self) {
  return bitwise_not_impl(self, self);
}
Tensor bitwise_not_out(const Tensor& self, const Tensor& out) {
  return bitwise_not_impl(out, self);
}

static Library cpu_binary_more(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("remainder.Tensor", fn<&remainder_tensor>);
  m.impl("remainder_.Tensor", fn<&remainder_tensor_>);
  m.impl("remainder.Tensor_out", fn<&remainder_tensor_out>);
  m.impl("remainder.Scalar_Tensor", fn<&remainder_scalar_tensor>);
  m.impl("fmod.Tensor", fn<&fmod_tensor>);
  m.impl("fmod_.Tensor", fn<&fmod_tensor_>);
  m.impl("fmod.Tensor_out", fn<&fmod_tensor_out>);
  m.impl("floor_divide", fn<&floor_divide>);
  m.impl("floor_divide_.Tensor", fn<&floor_divide_tensor_>);
  m.impl("floor_divide.out", fn<&floor_divide_out>);
  m.impl("atan2", fn<&atan2>);
  m.impl("atan2_", fn<&atan2_>);
  m.impl("atan2.out", fn<&atan2_out>);
  m.impl("lerp.Scalar", fn<&lerp_scalar>);
  m.impl("lerp_.Scalar", fn<&lerp_scalar_>);
  m.impl("lerp.Scalar_out", fn<&lerp_scalar_out>);
  m.impl("lerp.Tensor", fn<&lerp_tensor>);
  m.impl("lerp_.Tensor", fn<&lerp_tensor_>);
  m.impl("lerp.Tensor_out", fn<&lerp_tensor_out>);
  m.impl("logical_and.out", fn<&logical_and_out>);
  m.impl("logical_or.out", fn<&logical_or_out>);
  m.impl("logical_xor.out", fn<&logical_xor_out>);
  m.impl("logical_not.out", fn<&logical_not_out>);
  m.impl("bitwise_left_shift.Tensor", fn<&bitwise_left_shift_tensor>);
  m.impl("bitwise_left_shift_.Tensor", fn<&bitwise_left_shift_tensor_>);
  m.impl("bitwise_left_shift.Tensor_out", fn<&bitwise_left_shift_tensor_out>);
  m.impl("bitwise_right_shift.Tensor", fn<&bitwise_right_shift_tensor>);
  m.impl("bitwise_right_shift_.Tensor", fn<&bitwise_right_shift_tensor_>);
  m.impl("bitwise_right_shift.Tensor_out", fn<&bitwise_right_shift_tensor_out>);
  m.impl("bitwise_and.Tensor", fn<&bitwise_and>);
  m.impl("bitwise_and_.Tensor", fn<&bitwise_and_>);
  m.impl("bitwise_and.Tensor_out", fn<&bitwise_and_out>);
  m.impl("bitwise_or.Tensor", fn<&bitwise_or>);
  m.impl("bitwise_or_.Tensor", fn<&bitwise_or_>);
  m.impl("bitwise_or.Tensor_out", fn<&bitwise_or_out>);
  m.impl("bitwise_xor.Tensor", fn<&bitwise_xor>);
  m.impl("bitwise_xor_.Tensor", fn<&bitwise_xor_>);
  m.impl("bitwise_xor.Tensor_out", fn<&bitwise_xor_out>);
  m.impl("bitwise_not", fn<&bitwise_not>);
  m.impl("bitwise_not_", fn<&bitwise_not_>);
  m.impl("bitwise_not.out", fn<&bitwise_not_out>);
});

}  // namespace opscope::cpu
