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

#include "core/dispatch/Op.h"
#include "core/runtime/Scalar.h"
#include "core/tensor/Tensor.h"

namespace opscope::ops {

using RoundingMode = std::optional<std::string_view>;  // None, "trunc" or "floor"

// --- add: self + alpha * other ----------------------------------------------------------------
// add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor     self, other broadcast
// add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor
inline constexpr Overloads add{
    Op<Tensor(const Tensor&, const Tensor&, Default<const Scalar&>)>{"aten::add.Tensor"},
    Op<Tensor(const Tensor&, const Scalar&, Default<const Scalar&>)>{"aten::add.Scalar"}};
// add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)
// add_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)
inline constexpr Overloads add_{
    Op<Tensor(const Tensor&, const Tensor&, Default<const Scalar&>)>{"aten::add_.Tensor"},
    Op<Tensor(const Tensor&, const Scalar&, Default<const Scalar&>)>{"aten::add_.Scalar"}};
// add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&, const Tensor&, Default<const Scalar&>)> add_out{
    "aten::add.out"};

// --- sub: self - alpha * other (not for bool) -------------------------------------------------
// sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
// sub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor
inline constexpr Overloads sub{
    Op<Tensor(const Tensor&, const Tensor&, Default<const Scalar&>)>{"aten::sub.Tensor"},
    Op<Tensor(const Tensor&, const Scalar&, Default<const Scalar&>)>{"aten::sub.Scalar"}};
// sub_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)
// sub_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)
inline constexpr Overloads sub_{
    Op<Tensor(const Tensor&, const Tensor&, Default<const Scalar&>)>{"aten::sub_.Tensor"},
    Op<Tensor(const Tensor&, const Scalar&, Default<const Scalar&>)>{"aten::sub_.Scalar"}};
// sub.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&, const Tensor&, Default<const Scalar&>)> sub_out{
    "aten::sub.out"};

// --- rsub: other - alpha * self ---------------------------------------------------------------
// rsub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
// rsub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor
inline constexpr Overloads rsub{
    Op<Tensor(const Tensor&, const Tensor&, Default<const Scalar&>)>{"aten::rsub.Tensor"},
    Op<Tensor(const Tensor&, const Scalar&, Default<const Scalar&>)>{"aten::rsub.Scalar"}};

// --- mul: self * other (logical and for bool) -------------------------------------------------
// mul.Tensor(Tensor self, Tensor other) -> Tensor
// mul.Scalar(Tensor self, Scalar other) -> Tensor
inline constexpr Overloads mul{Op<Tensor(const Tensor&, const Tensor&)>{"aten::mul.Tensor"},
                               Op<Tensor(const Tensor&, const Scalar&)>{"aten::mul.Scalar"}};
// mul_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
// mul_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
inline constexpr Overloads mul_{Op<Tensor(const Tensor&, const Tensor&)>{"aten::mul_.Tensor"},
                                Op<Tensor(const Tensor&, const Scalar&)>{"aten::mul_.Scalar"}};
// mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&, const Tensor&)> mul_out{"aten::mul.out"};

// --- div: self / other; rounding_mode None (true division), "trunc" or "floor" ---------------
// div.Tensor(Tensor self, Tensor other) -> Tensor               integers -> default float dtype
// div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor
// div.Scalar(Tensor self, Scalar other) -> Tensor
// div.Scalar_mode(Tensor self, Scalar other, *, str? rounding_mode) -> Tensor
inline constexpr Overloads div{
    Op<Tensor(const Tensor&, const Tensor&)>{"aten::div.Tensor"},
    Op<Tensor(const Tensor&, const Tensor&, RoundingMode)>{"aten::div.Tensor_mode"},
    Op<Tensor(const Tensor&, const Scalar&)>{"aten::div.Scalar"},
    Op<Tensor(const Tensor&, const Scalar&, RoundingMode)>{"aten::div.Scalar_mode"}};
// div_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
// div_.Tensor_mode(Tensor(a!) self, Tensor other, *, str? rounding_mode) -> Tensor(a!)
// div_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
// div_.Scalar_mode(Tensor(a!) self, Scalar other, *, str? rounding_mode) -> Tensor(a!)
inline constexpr Overloads div_{
    Op<Tensor(const Tensor&, const Tensor&)>{"aten::div_.Tensor"},
    Op<Tensor(const Tensor&, const Tensor&, RoundingMode)>{"aten::div_.Tensor_mode"},
    Op<Tensor(const Tensor&, const Scalar&)>{"aten::div_.Scalar"},
    Op<Tensor(const Tensor&, const Scalar&, RoundingMode)>{"aten::div_.Scalar_mode"}};
// div.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
// div.out_mode(Tensor self, Tensor other, *, str? rounding_mode, Tensor(a!) out) -> Tensor(a!)
inline constexpr Overloads div_out{
    Op<Tensor(Out, const Tensor&, const Tensor&)>{"aten::div.out"},
    Op<Tensor(Out, const Tensor&, const Tensor&, RoundingMode)>{"aten::div.out_mode"}};

// --- neg: -self (not for bool) ----------------------------------------------------------------
// neg(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> neg{"aten::neg"};
// neg_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> neg_{"aten::neg_"};
// neg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> neg_out{"aten::neg.out"};

// --- pow: self ** exponent --------------------------------------------------------------------
// pow.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor    self, exponent broadcast
// pow.Tensor_Scalar(Tensor self, Scalar exponent) -> Tensor
// (integer self with a negative integer exponent: "Integers to negative integer powers are not
// allowed.")
// pow.Scalar(Scalar self, Tensor exponent) -> Tensor           -> exponent's shape
inline constexpr Overloads pow{Op<Tensor(const Tensor&, const Tensor&)>{"aten::pow.Tensor_Tensor"},
                               Op<Tensor(const Tensor&, const Scalar&)>{"aten::pow.Tensor_Scalar"},
                               Op<Tensor(const Scalar&, const Tensor&)>{"aten::pow.Scalar"}};
// pow_.Scalar(Tensor(a!) self, Scalar exponent) -> Tensor(a!)
// pow_.Tensor(Tensor(a!) self, Tensor exponent) -> Tensor(a!)
inline constexpr Overloads pow_{Op<Tensor(const Tensor&, const Scalar&)>{"aten::pow_.Scalar"},
                                Op<Tensor(const Tensor&, const Tensor&)>{"aten::pow_.Tensor"}};
// pow.Tensor_Tensor_out(Tensor self, Tensor exponent, *, Tensor(a!) out) -> Tensor(a!)
// pow.Tensor_Scalar_out(Tensor self, Scalar exponent, *, Tensor(a!) out) -> Tensor(a!)
// pow.Scalar_out(Scalar self, Tensor exponent, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Overloads pow_out{
    Op<Tensor(Out, const Tensor&, const Tensor&)>{"aten::pow.Tensor_Tensor_out"},
    Op<Tensor(Out, const Tensor&, const Scalar&)>{"aten::pow.Tensor_Scalar_out"},
    Op<Tensor(Out, const Scalar&, const Tensor&)>{"aten::pow.Scalar_out"}};

// --- comparisons: bool results (or 1 / 0 in self's dtype in place) ----------------------------
// eq.Tensor(Tensor self, Tensor other) -> Tensor          self, other broadcast -> bool
// eq.Scalar(Tensor self, Scalar other) -> Tensor
inline constexpr Overloads eq{Op<Tensor(const Tensor&, const Tensor&)>{"aten::eq.Tensor"},
                              Op<Tensor(const Tensor&, const Scalar&)>{"aten::eq.Scalar"}};
// eq_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)   1/0 in self's dtype
// eq_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
inline constexpr Overloads eq_{Op<Tensor(const Tensor&, const Tensor&)>{"aten::eq_.Tensor"},
                               Op<Tensor(const Tensor&, const Scalar&)>{"aten::eq_.Scalar"}};
// eq.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
// eq.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Overloads eq_out{
    Op<Tensor(Out, const Tensor&, const Tensor&)>{"aten::eq.Tensor_out"},
    Op<Tensor(Out, const Tensor&, const Scalar&)>{"aten::eq.Scalar_out"}};

// ne.Tensor(Tensor self, Tensor other) -> Tensor          self, other broadcast -> bool
// ne.Scalar(Tensor self, Scalar other) -> Tensor
inline constexpr Overloads ne{Op<Tensor(const Tensor&, const Tensor&)>{"aten::ne.Tensor"},
                              Op<Tensor(const Tensor&, const Scalar&)>{"aten::ne.Scalar"}};
// ne_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)   1/0 in self's dtype
// ne_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
inline constexpr Overloads ne_{Op<Tensor(const Tensor&, const Tensor&)>{"aten::ne_.Tensor"},
                               Op<Tensor(const Tensor&, const Scalar&)>{"aten::ne_.Scalar"}};
// ne.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
// ne.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Overloads ne_out{
    Op<Tensor(Out, const Tensor&, const Tensor&)>{"aten::ne.Tensor_out"},
    Op<Tensor(Out, const Tensor&, const Scalar&)>{"aten::ne.Scalar_out"}};

// lt.Tensor(Tensor self, Tensor other) -> Tensor          self, other broadcast -> bool
// lt.Scalar(Tensor self, Scalar other) -> Tensor
inline constexpr Overloads lt{Op<Tensor(const Tensor&, const Tensor&)>{"aten::lt.Tensor"},
                              Op<Tensor(const Tensor&, const Scalar&)>{"aten::lt.Scalar"}};
// lt_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)   1/0 in self's dtype
// lt_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
inline constexpr Overloads lt_{Op<Tensor(const Tensor&, const Tensor&)>{"aten::lt_.Tensor"},
                               Op<Tensor(const Tensor&, const Scalar&)>{"aten::lt_.Scalar"}};
// lt.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
// lt.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Overloads lt_out{
    Op<Tensor(Out, const Tensor&, const Tensor&)>{"aten::lt.Tensor_out"},
    Op<Tensor(Out, const Tensor&, const Scalar&)>{"aten::lt.Scalar_out"}};

// le.Tensor(Tensor self, Tensor other) -> Tensor          self, other broadcast -> bool
// le.Scalar(Tensor self, Scalar other) -> Tensor
inline constexpr Overloads le{Op<Tensor(const Tensor&, const Tensor&)>{"aten::le.Tensor"},
                              Op<Tensor(const Tensor&, const Scalar&)>{"aten::le.Scalar"}};
// le_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)   1/0 in self's dtype
// le_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
inline constexpr Overloads le_{Op<Tensor(const Tensor&, const Tensor&)>{"aten::le_.Tensor"},
                               Op<Tensor(const Tensor&, const Scalar&)>{"aten::le_.Scalar"}};
// le.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
// le.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Overloads le_out{
    Op<Tensor(Out, const Tensor&, const Tensor&)>{"aten::le.Tensor_out"},
    Op<Tensor(Out, const Tensor&, const Scalar&)>{"aten::le.Scalar_out"}};

// gt.Tensor(Tensor self, Tensor other) -> Tensor          self, other broadcast -> bool
// gt.Scalar(Tensor self, Scalar other) -> Tensor
inline constexpr Overloads gt{Op<Tensor(const Tensor&, const Tensor&)>{"aten::gt.Tensor"},
                              Op<Tensor(const Tensor&, const Scalar&)>{"aten::gt.Scalar"}};
// gt_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)   1/0 in self's dtype
// gt_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
inline constexpr Overloads gt_{Op<Tensor(const Tensor&, const Tensor&)>{"aten::gt_.Tensor"},
                               Op<Tensor(const Tensor&, const Scalar&)>{"aten::gt_.Scalar"}};
// gt.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
// gt.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Overloads gt_out{
    Op<Tensor(Out, const Tensor&, const Tensor&)>{"aten::gt.Tensor_out"},
    Op<Tensor(Out, const Tensor&, const Scalar&)>{"aten::gt.Scalar_out"}};

// ge.Tensor(Tensor self, Tensor other) -> Tensor          self, other broadcast -> bool
// ge.Scalar(Tensor self, Scalar other) -> Tensor
inline constexpr Overloads ge{Op<Tensor(const Tensor&, const Tensor&)>{"aten::ge.Tensor"},
                              Op<Tensor(const Tensor&, const Scalar&)>{"aten::ge.Scalar"}};
// ge_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)   1/0 in self's dtype
// ge_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
inline constexpr Overloads ge_{Op<Tensor(const Tensor&, const Tensor&)>{"aten::ge_.Tensor"},
                               Op<Tensor(const Tensor&, const Scalar&)>{"aten::ge_.Scalar"}};
// ge.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
// ge.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Overloads ge_out{
    Op<Tensor(Out, const Tensor&, const Tensor&)>{"aten::ge.Tensor_out"},
    Op<Tensor(Out, const Tensor&, const Scalar&)>{"aten::ge.Scalar_out"}};

// --- bitwise: integers and bool only ----------------------------------------------------------
// bitwise_and.Tensor(Tensor self, Tensor other) -> Tensor
// bitwise_and.Scalar(Tensor self, Scalar other) -> Tensor
// bitwise_and.Scalar_Tensor(Scalar self, Tensor other) -> Tensor
inline constexpr Overloads bitwise_and{
    Op<Tensor(const Tensor&, const Tensor&)>{"aten::bitwise_and.Tensor"},
    Op<Tensor(const Tensor&, const Scalar&)>{"aten::bitwise_and.Scalar"},
    Op<Tensor(const Scalar&, const Tensor&)>{"aten::bitwise_and.Scalar_Tensor"}};
// bitwise_and_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
// bitwise_and_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
inline constexpr Overloads bitwise_and_{
    Op<Tensor(const Tensor&, const Tensor&)>{"aten::bitwise_and_.Tensor"},
    Op<Tensor(const Tensor&, const Scalar&)>{"aten::bitwise_and_.Scalar"}};
// bitwise_and.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
// bitwise_and.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Overloads bitwise_and_out{
    Op<Tensor(Out, const Tensor&, const Tensor&)>{"aten::bitwise_and.Tensor_out"},
    Op<Tensor(Out, const Tensor&, const Scalar&)>{"aten::bitwise_and.Scalar_out"}};

// bitwise_or.Tensor(Tensor self, Tensor other) -> Tensor
// bitwise_or.Scalar(Tensor self, Scalar other) -> Tensor
// bitwise_or.Scalar_Tensor(Scalar self, Tensor other) -> Tensor
inline constexpr Overloads bitwise_or{
    Op<Tensor(const Tensor&, const Tensor&)>{"aten::bitwise_or.Tensor"},
    Op<Tensor(const Tensor&, const Scalar&)>{"aten::bitwise_or.Scalar"},
    Op<Tensor(const Scalar&, const Tensor&)>{"aten::bitwise_or.Scalar_Tensor"}};
// bitwise_or_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
// bitwise_or_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
inline constexpr Overloads bitwise_or_{
    Op<Tensor(const Tensor&, const Tensor&)>{"aten::bitwise_or_.Tensor"},
    Op<Tensor(const Tensor&, const Scalar&)>{"aten::bitwise_or_.Scalar"}};
// bitwise_or.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
// bitwise_or.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Overloads bitwise_or_out{
    Op<Tensor(Out, const Tensor&, const Tensor&)>{"aten::bitwise_or.Tensor_out"},
    Op<Tensor(Out, const Tensor&, const Scalar&)>{"aten::bitwise_or.Scalar_out"}};

// bitwise_xor.Tensor(Tensor self, Tensor other) -> Tensor
// bitwise_xor.Scalar(Tensor self, Scalar other) -> Tensor
// bitwise_xor.Scalar_Tensor(Scalar self, Tensor other) -> Tensor
inline constexpr Overloads bitwise_xor{
    Op<Tensor(const Tensor&, const Tensor&)>{"aten::bitwise_xor.Tensor"},
    Op<Tensor(const Tensor&, const Scalar&)>{"aten::bitwise_xor.Scalar"},
    Op<Tensor(const Scalar&, const Tensor&)>{"aten::bitwise_xor.Scalar_Tensor"}};
// bitwise_xor_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
// bitwise_xor_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
inline constexpr Overloads bitwise_xor_{
    Op<Tensor(const Tensor&, const Tensor&)>{"aten::bitwise_xor_.Tensor"},
    Op<Tensor(const Tensor&, const Scalar&)>{"aten::bitwise_xor_.Scalar"}};
// bitwise_xor.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
// bitwise_xor.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Overloads bitwise_xor_out{
    Op<Tensor(Out, const Tensor&, const Tensor&)>{"aten::bitwise_xor.Tensor_out"},
    Op<Tensor(Out, const Tensor&, const Scalar&)>{"aten::bitwise_xor.Scalar_out"}};
// bitwise_not(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> bitwise_not{"aten::bitwise_not"};
// bitwise_not_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> bitwise_not_{"aten::bitwise_not_"};
// bitwise_not.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> bitwise_not_out{"aten::bitwise_not.out"};

}  // namespace opscope::ops
