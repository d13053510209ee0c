// CPU kernels of the comparisons (eq, ne, lt, le, gt, ge) and the bitwise ops (bitwise_and / or /
// xor / not); see core/ops/elementwise.h.
#include <type_traits>

#include "core/ops/cpu/Loops.h"
#include "core/ops/elementwise_kernels.h"

namespace opscope::cpu {

namespace {

enum class Cmp { Eq, Ne, Lt, Le, Gt, Ge };

template <Cmp C, typename A>
inline bool compare_values(A a, A b) {
  if constexpr (C == Cmp::Eq)
    return a == b;
  else if constexpr (C == Cmp::Ne)
    return a != b;
  else if constexpr (C == Cmp::Lt)
    return a < b;
  else if constexpr (C == Cmp::Le)
    return a <= b;
  else if constexpr (C == Cmp::Gt)
    return a > b;
  else
    return a >= b;
}

constexpr const char* compare_name(Cmp c) {
  constexpr const char* names[] = {"eq_cpu", "ne_cpu", "lt_cpu", "le_cpu", "gt_cpu", "ge_cpu"};
  return names[static_cast<int>(c)];
}

// A Bool output gets T, T -> bool directly; another out= dtype got a temporary of the common
// dtype from the iterator, which holds 1 / 0 (see TensorIterator::comparison_op).
template <Cmp C>
void comparison_kernel(TensorIterator& iter) {
  bool bool_out = iter.dtype(0) == ScalarType::Bool;
  dispatch_dtype(iter.common_dtype(), compare_name(C), [&]<typename T>() {
    using A = acc_type_t<T>;
    if (bool_out) {
      cpu_kernel(iter, [](T a, T b) -> bool { return compare_values<C>(A(a), A(b)); });
    } else {
      cpu_kernel(iter, [](T a, T b) -> T { return static_cast<T>(compare_values<C>(A(a), A(b))); });
    }
  });
}

template <Cmp C>
Tensor compare(const Tensor& out, const Tensor& self, const Tensor& other) {
  TensorIterator iter = TensorIterator::comparison_op(out, self, other);
  comparison_kernel<C>(iter);
  return iter.output();
}

// PyTorch's comparison kernels take a Scalar `other` as a wrapped number, without a trace step.
template <Cmp C>
Tensor compare(const Tensor& out, const Tensor& self, const Scalar& other) {
  Tensor wrapped = wrapped_scalar_tensor(other);
  return compare<C>(out, self, wrapped);
}

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

// self, other broadcast -> self == other
Tensor eq_tensor(const Tensor& self, const Tensor& other) {
  return compare<Cmp::Eq>(Tensor(), self, other);
}
Tensor eq_scalar(const Tensor& self, const Scalar& other) {
  return compare<Cmp::Eq>(Tensor(), self, other);
}
Tensor eq_tensor_(const Tensor& self, const Tensor& other) {
  return compare<Cmp::Eq>(self, self, other);
}
Tensor eq_scalar_(const Tensor& self, const Scalar& other) {
  return compare<Cmp::Eq>(self, self, other);
}
Tensor eq_tensor_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return compare<Cmp::Eq>(out, self, other);
}
Tensor eq_scalar_out(const Tensor& self, const Scalar& other, const Tensor& out) {
  return compare<Cmp::Eq>(out, self, other);
}

// self, other broadcast -> self != other
Tensor ne_tensor(const Tensor& self, const Tensor& other) {
  return compare<Cmp::Ne>(Tensor(), self, other);
}
Tensor ne_scalar(const Tensor& self, const Scalar& other) {
  return compare<Cmp::Ne>(Tensor(), self, other);
}
Tensor ne_tensor_(const Tensor& self, const Tensor& other) {
  return compare<Cmp::Ne>(self, self, other);
}
Tensor ne_scalar_(const Tensor& self, const Scalar& other) {
  return compare<Cmp::Ne>(self, self, other);
}
Tensor ne_tensor_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return compare<Cmp::Ne>(out, self, other);
}
Tensor ne_scalar_out(const Tensor& self, const Scalar& other, const Tensor& out) {
  return compare<Cmp::Ne>(out, self, other);
}

// self, other broadcast -> self < other
Tensor lt_tensor(const Tensor& self, const Tensor& other) {
  return compare<Cmp::Lt>(Tensor(), self, other);
}
Tensor lt_scalar(const Tensor& self, const Scalar& other) {
  return compare<Cmp::Lt>(Tensor(), self, other);
}
Tensor lt_tensor_(const Tensor& self, const Tensor& other) {
  return compare<Cmp::Lt>(self, self, other);
}
Tensor lt_scalar_(const Tensor& self, const Scalar& other) {
  return compare<Cmp::Lt>(self, self, other);
}
Tensor lt_tensor_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return compare<Cmp::Lt>(out, self, other);
}
Tensor lt_scalar_out(const Tensor& self, const Scalar& other, const Tensor& out) {
  return compare<Cmp::Lt>(out, self, other);
}

// self, other broadcast -> self <= other
Tensor le_tensor(const Tensor& self, const Tensor& other) {
  return compare<Cmp::Le>(Tensor(), self, other);
}
Tensor le_scalar(const Tensor& self, const Scalar& other) {
  return compare<Cmp::Le>(Tensor(), self, other);
}
Tensor le_tensor_(const Tensor& self, const Tensor& other) {
  return compare<Cmp::Le>(self, self, other);
}
Tensor le_scalar_(const Tensor& self, const Scalar& other) {
  return compare<Cmp::Le>(self, self, other);
}
Tensor le_tensor_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return compare<Cmp::Le>(out, self, other);
}
Tensor le_scalar_out(const Tensor& self, const Scalar& other, const Tensor& out) {
  return compare<Cmp::Le>(out, self, other);
}

// self, other broadcast -> self > other
Tensor gt_tensor(const Tensor& self, const Tensor& other) {
  return compare<Cmp::Gt>(Tensor(), self, other);
}
Tensor gt_scalar(const Tensor& self, const Scalar& other) {
  return compare<Cmp::Gt>(Tensor(), self, other);
}
Tensor gt_tensor_(const Tensor& self, const Tensor& other) {
  return compare<Cmp::Gt>(self, self, other);
}
Tensor gt_scalar_(const Tensor& self, const Scalar& other) {
  return compare<Cmp::Gt>(self, self, other);
}
Tensor gt_tensor_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return compare<Cmp::Gt>(out, self, other);
}
Tensor gt_scalar_out(const Tensor& self, const Scalar& other, const Tensor& out) {
  return compare<Cmp::Gt>(out, self, other);
}

// self, other broadcast -> self >= other
Tensor ge_tensor(const Tensor& self, const Tensor& other) {
  return compare<Cmp::Ge>(Tensor(), self, other);
}
Tensor ge_scalar(const Tensor& self, const Scalar& other) {
  return compare<Cmp::Ge>(Tensor(), self, other);
}
Tensor ge_tensor_(const Tensor& self, const Tensor& other) {
  return compare<Cmp::Ge>(self, self, other);
}
Tensor ge_scalar_(const Tensor& self, const Scalar& other) {
  return compare<Cmp::Ge>(self, self, other);
}
Tensor ge_tensor_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return compare<Cmp::Ge>(out, self, other);
}
Tensor ge_scalar_out(const Tensor& self, const Scalar& other, const Tensor& out) {
  return compare<Cmp::Ge>(out, self, other);
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

}  // namespace opscope::cpu
