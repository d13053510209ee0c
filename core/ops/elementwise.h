// Elementwise ops: arithmetic (add, sub, rsub, mul, div, neg, pow), comparisons (eq, ne, lt, le,
// gt, ge) and bitwise ops (bitwise_and / or / xor / not).
//
// Semantically each computes out[i] = f(self[i], other[i]) over the broadcast shape of its
// operands, in their common dtype (see Note [Type promotion] in core/runtime/ScalarType.h):
// int32 + float32 -> float32, int64 tensor + 2.5 -> the default float dtype, float16 tensor +
// float64 0-d tensor -> float16. True division promotes integers to the default float dtype;
// div with rounding_mode "trunc" / "floor" keeps them (integer division by zero raises
// "ZeroDivisionError"). Comparisons return bool. Each op has PyTorch's overloads: `.Tensor`,
// `.Scalar` (a Python number, wrapped into a 0-d tensor), the in-place `op_` (the result is
// cast back into self's dtype, which must be able to hold it: int_tensor.add_(0.5) raises
// "result type Float can't be cast to the desired output type Long") and `.out` (out= is
// resized to the broadcast shape).
//
// In implementation terms, as in PyTorch 1.13: the Tensor overloads are CPU kernels over a
// TensorIterator (core/ops/cpu/elementwise.cpp, elementwise_compare.cpp); the arithmetic Scalar
// overloads are CompositeExplicitAutograd kernels that wrap the number and call the Tensor
// overload, so a trace reads `add.Scalar -> add.Tensor`; comparisons take Scalars in their CPU
// kernel directly. Entry points for out= variants take `out` first, like at::add_out.
//
//   Tensor a = ops::ones({2, 3}, ScalarType::Float32);
//   Tensor b = ops::arange(3.0);                          // f32[3]
//   Tensor c = ops::add(a, b, 2);                         // a + 2 * b, f32[2, 3]
//   Tensor d = ops::div(c, 2, "floor");                   // f32[2, 3]
//   Tensor m = ops::gt(c, 1.5);                           // b8[2, 3]
//   ops::mul_(a, b);                                      // in place, a stays f32[2, 3]
#pragma once

#include <optional>
#include <string_view>

#include "core/runtime/Scalar.h"
#include "core/tensor/Tensor.h"

namespace opscope::ops {

using RoundingMode = std::optional<std::string_view>;  // None, "trunc" or "floor"

// --- add: self + alpha * other ----------------------------------------------------------------
// add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor     self, other broadcast
Tensor add(const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
// add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)
Tensor add_(const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
// add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
Tensor add_out(const Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
// add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor
Tensor add(const Tensor& self, const Scalar& other, const Scalar& alpha = 1);
// add_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)
Tensor add_(const Tensor& self, const Scalar& other, const Scalar& alpha = 1);

// --- sub: self - alpha * other (not for bool) -------------------------------------------------
// sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
Tensor sub(const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
// sub_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)
Tensor sub_(const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
// sub.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
Tensor sub_out(const Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
// sub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor
Tensor sub(const Tensor& self, const Scalar& other, const Scalar& alpha = 1);
// sub_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)
Tensor sub_(const Tensor& self, const Scalar& other, const Scalar& alpha = 1);

// --- rsub: other - alpha * self ---------------------------------------------------------------
// rsub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
Tensor rsub(const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
// rsub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor
Tensor rsub(const Tensor& self, const Scalar& other, const Scalar& alpha = 1);

// --- mul: self * other (logical and for bool) -------------------------------------------------
// mul.Tensor(Tensor self, Tensor other) -> Tensor
Tensor mul(const Tensor& self, const Tensor& other);
// mul_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
Tensor mul_(const Tensor& self, const Tensor& other);
// mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
Tensor mul_out(const Tensor& out, const Tensor& self, const Tensor& other);
// mul.Scalar(Tensor self, Scalar other) -> Tensor
Tensor mul(const Tensor& self, const Scalar& other);
// mul_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
Tensor mul_(const Tensor& self, const Scalar& other);

// --- div: self / other; rounding_mode None (true division), "trunc" or "floor" ---------------
// div.Tensor(Tensor self, Tensor other) -> Tensor               integers -> default float dtype
Tensor div(const Tensor& self, const Tensor& other);
// div_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
Tensor div_(const Tensor& self, const Tensor& other);
// div.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
Tensor div_out(const Tensor& out, const Tensor& self, const Tensor& other);
// div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor
Tensor div(const Tensor& self, const Tensor& other, RoundingMode rounding_mode);
// div_.Tensor_mode(Tensor(a!) self, Tensor other, *, str? rounding_mode) -> Tensor(a!)
Tensor div_(const Tensor& self, const Tensor& other, RoundingMode rounding_mode);
// div.out_mode(Tensor self, Tensor other, *, str? rounding_mode, Tensor(a!) out) -> Tensor(a!)
Tensor div_out(const Tensor& out, const Tensor& self, const Tensor& other,
               RoundingMode rounding_mode);
// div.Scalar(Tensor self, Scalar other) -> Tensor
Tensor div(const Tensor& self, const Scalar& other);
// div_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
Tensor div_(const Tensor& self, const Scalar& other);
// div.Scalar_mode(Tensor self, Scalar other, *, str? rounding_mode) -> Tensor
Tensor div(const Tensor& self, const Scalar& other, RoundingMode rounding_mode);
// div_.Scalar_mode(Tensor(a!) self, Scalar other, *, str? rounding_mode) -> Tensor(a!)
Tensor div_(const Tensor& self, const Scalar& other, RoundingMode rounding_mode);

// --- neg: -self (not for bool) ----------------------------------------------------------------
// neg(Tensor self) -> Tensor
Tensor neg(const Tensor& self);
// neg_(Tensor(a!) self) -> Tensor(a!)
Tensor neg_(const Tensor& self);
// neg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor neg_out(const Tensor& out, const Tensor& self);

// --- pow: self ** exponent --------------------------------------------------------------------
// pow.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor    self, exponent broadcast
Tensor pow(const Tensor& self, const Tensor& exponent);
// pow.Tensor_Scalar(Tensor self, Scalar exponent) -> Tensor
// (integer self with a negative integer exponent: "Integers to negative integer powers are not
// allowed.")
Tensor pow(const Tensor& self, const Scalar& exponent);
// pow.Scalar(Scalar self, Tensor exponent) -> Tensor           -> exponent's shape
Tensor pow(const Scalar& self, const Tensor& exponent);
// pow_.Scalar(Tensor(a!) self, Scalar exponent) -> Tensor(a!)
Tensor pow_(const Tensor& self, const Scalar& exponent);
// pow_.Tensor(Tensor(a!) self, Tensor exponent) -> Tensor(a!)
Tensor pow_(const Tensor& self, const Tensor& exponent);
// pow.Tensor_Tensor_out(Tensor self, Tensor exponent, *, Tensor(a!) out) -> Tensor(a!)
Tensor pow_out(const Tensor& out, const Tensor& self, const Tensor& exponent);
// pow.Tensor_Scalar_out(Tensor self, Scalar exponent, *, Tensor(a!) out) -> Tensor(a!)
Tensor pow_out(const Tensor& out, const Tensor& self, const Scalar& exponent);
// pow.Scalar_out(Scalar self, Tensor exponent, *, Tensor(a!) out) -> Tensor(a!)
Tensor pow_out(const Tensor& out, const Scalar& self, const Tensor& exponent);

// --- comparisons: bool results (or 1 / 0 in self's dtype in place) ----------------------------
// eq.Tensor(Tensor self, Tensor other) -> Tensor          self, other broadcast -> bool
Tensor eq(const Tensor& self, const Tensor& other);
// eq.Scalar(Tensor self, Scalar other) -> Tensor
Tensor eq(const Tensor& self, const Scalar& other);
// eq_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)   1/0 in self's dtype
Tensor eq_(const Tensor& self, const Tensor& other);
// eq_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
Tensor eq_(const Tensor& self, const Scalar& other);
// eq.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
Tensor eq_out(const Tensor& out, const Tensor& self, const Tensor& other);
// eq.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
Tensor eq_out(const Tensor& out, const Tensor& self, const Scalar& other);

// ne.Tensor(Tensor self, Tensor other) -> Tensor          self, other broadcast -> bool
Tensor ne(const Tensor& self, const Tensor& other);
// ne.Scalar(Tensor self, Scalar other) -> Tensor
Tensor ne(const Tensor& self, const Scalar& other);
// ne_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)   1/0 in self's dtype
Tensor ne_(const Tensor& self, const Tensor& other);
// ne_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
Tensor ne_(const Tensor& self, const Scalar& other);
// ne.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
Tensor ne_out(const Tensor& out, const Tensor& self, const Tensor& other);
// ne.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
Tensor ne_out(const Tensor& out, const Tensor& self, const Scalar& other);

// lt.Tensor(Tensor self, Tensor other) -> Tensor          self, other broadcast -> bool
Tensor lt(const Tensor& self, const Tensor& other);
// lt.Scalar(Tensor self, Scalar other) -> Tensor
Tensor lt(const Tensor& self, const Scalar& other);
// lt_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)   1/0 in self's dtype
Tensor lt_(const Tensor& self, const Tensor& other);
// lt_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
Tensor lt_(const Tensor& self, const Scalar& other);
// lt.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
Tensor lt_out(const Tensor& out, const Tensor& self, const Tensor& other);
// lt.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
Tensor lt_out(const Tensor& out, const Tensor& self, const Scalar& other);

// le.Tensor(Tensor self, Tensor other) -> Tensor          self, other broadcast -> bool
Tensor le(const Tensor& self, const Tensor& other);
// le.Scalar(Tensor self, Scalar other) -> Tensor
Tensor le(const Tensor& self, const Scalar& other);
// le_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)   1/0 in self's dtype
Tensor le_(const Tensor& self, const Tensor& other);
// le_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
Tensor le_(const Tensor& self, const Scalar& other);
// le.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
Tensor le_out(const Tensor& out, const Tensor& self, const Tensor& other);
// le.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
Tensor le_out(const Tensor& out, const Tensor& self, const Scalar& other);

// gt.Tensor(Tensor self, Tensor other) -> Tensor          self, other broadcast -> bool
Tensor gt(const Tensor& self, const Tensor& other);
// gt.Scalar(Tensor self, Scalar other) -> Tensor
Tensor gt(const Tensor& self, const Scalar& other);
// gt_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)   1/0 in self's dtype
Tensor gt_(const Tensor& self, const Tensor& other);
// gt_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
Tensor gt_(const Tensor& self, const Scalar& other);
// gt.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
Tensor gt_out(const Tensor& out, const Tensor& self, const Tensor& other);
// gt.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
Tensor gt_out(const Tensor& out, const Tensor& self, const Scalar& other);

// ge.Tensor(Tensor self, Tensor other) -> Tensor          self, other broadcast -> bool
Tensor ge(const Tensor& self, const Tensor& other);
// ge.Scalar(Tensor self, Scalar other) -> Tensor
Tensor ge(const Tensor& self, const Scalar& other);
// ge_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)   1/0 in self's dtype
Tensor ge_(const Tensor& self, const Tensor& other);
// ge_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
Tensor ge_(const Tensor& self, const Scalar& other);
// ge.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
Tensor ge_out(const Tensor& out, const Tensor& self, const Tensor& other);
// ge.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
Tensor ge_out(const Tensor& out, const Tensor& self, const Scalar& other);

// --- bitwise: integers and bool only ----------------------------------------------------------
// bitwise_and.Tensor(Tensor self, Tensor other) -> Tensor
Tensor bitwise_and(const Tensor& self, const Tensor& other);
// bitwise_and.Scalar(Tensor self, Scalar other) -> Tensor
Tensor bitwise_and(const Tensor& self, const Scalar& other);
// bitwise_and.Scalar_Tensor(Scalar self, Tensor other) -> Tensor
Tensor bitwise_and(const Scalar& self, const Tensor& other);
// bitwise_and_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
Tensor bitwise_and_(const Tensor& self, const Tensor& other);
// bitwise_and_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
Tensor bitwise_and_(const Tensor& self, const Scalar& other);
// bitwise_and.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
Tensor bitwise_and_out(const Tensor& out, const Tensor& self, const Tensor& other);
// bitwise_and.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
Tensor bitwise_and_out(const Tensor& out, const Tensor& self, const Scalar& other);

// bitwise_or.Tensor(Tensor self, Tensor other) -> Tensor
Tensor bitwise_or(const Tensor& self, const Tensor& other);
// bitwise_or.Scalar(Tensor self, Scalar other) -> Tensor
Tensor bitwise_or(const Tensor& self, const Scalar& other);
// bitwise_or.Scalar_Tensor(Scalar self, Tensor other) -> Tensor
Tensor bitwise_or(const Scalar& self, const Tensor& other);
// bitwise_or_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
Tensor bitwise_or_(const Tensor& self, const Tensor& other);
// bitwise_or_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
Tensor bitwise_or_(const Tensor& self, const Scalar& other);
// bitwise_or.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
Tensor bitwise_or_out(const Tensor& out, const Tensor& self, const Tensor& other);
// bitwise_or.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
Tensor bitwise_or_out(const Tensor& out, const Tensor& self, const Scalar& other);

// bitwise_xor.Tensor(Tensor self, Tensor other) -> Tensor
Tensor bitwise_xor(const Tensor& self, const Tensor& other);
// bitwise_xor.Scalar(Tensor self, Scalar other) -> Tensor
Tensor bitwise_xor(const Tensor& self, const Scalar& other);
// bitwise_xor.Scalar_Tensor(Scalar self, Tensor other) -> Tensor
Tensor bitwise_xor(const Scalar& self, const Tensor& other);
// bitwise_xor_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
Tensor bitwise_xor_(const Tensor& self, const Tensor& other);
// bitwise_xor_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
Tensor bitwise_xor_(const Tensor& self, const Scalar& other);
// bitwise_xor.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
Tensor bitwise_xor_out(const Tensor& out, const Tensor& self, const Tensor& other);
// bitwise_xor.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
Tensor bitwise_xor_out(const Tensor& out, const Tensor& self, const Scalar& other);
// bitwise_not(Tensor self) -> Tensor
Tensor bitwise_not(const Tensor& self);
// bitwise_not_(Tensor(a!) self) -> Tensor(a!)
Tensor bitwise_not_(const Tensor& self);
// bitwise_not.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor bitwise_not_out(const Tensor& out, const Tensor& self);

}  // namespace opscope::ops
