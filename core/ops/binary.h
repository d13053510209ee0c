// Binary ops: two operands (tensors or Scalars) combined elementwise by arithmetic or logic —
// add, sub, rsub, mul, div, pow, remainder, fmod, floor_divide, atan2, maximum, minimum, lerp,
// logical_and / or / xor, bitwise_and / or / xor and the shifts.
//
// Semantically each computes out[i] = f(self[i], other[i]) over the broadcast shape of its
// operands, in their common dtype (see Note [Type promotion] in core/runtime/ScalarType.h):
// int32 + float32 -> float32, int64 tensor + 2.5 -> the default float dtype, float16 tensor +
// float64 0-d tensor -> float16. True division promotes integers to the default float dtype;
// div with rounding_mode "trunc" / "floor" keeps them (integer division by zero raises
// "ZeroDivisionError"); logical ops return bool. lerp has a third operand, the weight:
// self + weight * (end - self). Each op has PyTorch's overloads: `.Tensor`, `.Scalar` (a Python
// number, wrapped into a 0-d tensor), the in-place `op_` (the result is cast back into self's
// dtype, which must be able to hold it: int_tensor.add_(0.5) raises "result type Float can't be
// cast to the desired output type Long") and `.out` (out= is resized to the broadcast shape).
//
// In implementation terms, as in PyTorch 1.13: the Tensor overloads are CPU kernels over a
// TensorIterator (core/ops/cpu/binary.cpp); the arithmetic Scalar overloads are
// CompositeExplicitAutograd kernels that wrap the number and call the Tensor overload, so a
// trace reads `add.Scalar -> add.Tensor`. Entry points for out= variants take `out` first, like
// at::add_out. See core/ops/README.md for what belongs in this family.
//
//   Tensor a = ops::ones({2, 3}, ScalarType::Float32);
//   Tensor b = ops::arange(3.0);                          // f32[3]
//   Tensor c = ops::add(a, b, 2);                         // a + 2 * b, f32[2, 3]
//   Tensor d = ops::div(c, 2, "floor");                   // f32[2, 3]
//   ops::mul_(a, b);                                      // in place, a stays f32[2, 3]
#pragma once

#include <optional>
#include <string_view>

#include "core/dispatch/Op.h"
#include "core/runtime/Scalar.h"
#include "core/tensor/Tensor.h"

namespace opscope::ops {

using RoundingMode = std::optional<std::string_view>;  // None, "trunc" or "floor"

// --- remainder -----------------------------------------------------------------------------------
// remainder.Tensor(Tensor self, Tensor other) -> Tensor
// remainder.Scalar(Tensor self, Scalar other) -> Tensor
// remainder.Scalar_Tensor(Scalar self, Tensor other) -> Tensor
inline constexpr Overloads remainder{
    Op<Tensor(const Tensor&, const Tensor&)>{"aten::remainder.Tensor"},
    Op<Tensor(const Tensor&, const Scalar&)>{"aten::remainder.Scalar"},
    Op<Tensor(const Scalar&, const Tensor&)>{"aten::remainder.Scalar_Tensor"}};
// remainder_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
// remainder_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
inline constexpr Overloads remainder_{
    Op<Tensor(const Tensor&, const Tensor&)>{"aten::remainder_.Tensor"},
    Op<Tensor(const Tensor&, const Scalar&)>{"aten::remainder_.Scalar"}};
// remainder.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
// remainder.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
// remainder.Scalar_Tensor_out(Scalar self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Overloads remainder_out{
    Op<Tensor(Out, const Tensor&, const Tensor&)>{"aten::remainder.Tensor_out"},
    Op<Tensor(Out, const Tensor&, const Scalar&)>{"aten::remainder.Scalar_out"},
    Op<Tensor(Out, const Scalar&, const Tensor&)>{"aten::remainder.Scalar_Tensor_out"}};

// --- fmod ----------------------------------------------------------------------------------------
// fmod.Tensor(Tensor self, Tensor other) -> Tensor
// fmod.Scalar(Tensor self, Scalar other) -> Tensor
inline constexpr Overloads fmod{Op<Tensor(const Tensor&, const Tensor&)>{"aten::fmod.Tensor"},
                                Op<Tensor(const Tensor&, const Scalar&)>{"aten::fmod.Scalar"}};
// fmod_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
// fmod_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
inline constexpr Overloads fmod_{Op<Tensor(const Tensor&, const Tensor&)>{"aten::fmod_.Tensor"},
                                 Op<Tensor(const Tensor&, const Scalar&)>{"aten::fmod_.Scalar"}};
// fmod.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
// fmod.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Overloads fmod_out{
    Op<Tensor(Out, const Tensor&, const Tensor&)>{"aten::fmod.Tensor_out"},
    Op<Tensor(Out, const Tensor&, const Scalar&)>{"aten::fmod.Scalar_out"}};

// --- floor_divide --------------------------------------------------------------------------------
// floor_divide(Tensor self, Tensor other) -> Tensor
// floor_divide.Scalar(Tensor self, Scalar other) -> Tensor
inline constexpr Overloads floor_divide{
    Op<Tensor(const Tensor&, const Tensor&)>{"aten::floor_divide"},
    Op<Tensor(const Tensor&, const Scalar&)>{"aten::floor_divide.Scalar"}};
// floor_divide_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
// floor_divide_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
inline constexpr Overloads floor_divide_{
    Op<Tensor(const Tensor&, const Tensor&)>{"aten::floor_divide_.Tensor"},
    Op<Tensor(const Tensor&, const Scalar&)>{"aten::floor_divide_.Scalar"}};

// --- atan2 ---------------------------------------------------------------------------------------
// atan2(Tensor self, Tensor other) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> atan2{"aten::atan2"};
// atan2_(Tensor(a!) self, Tensor other) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> atan2_{"aten::atan2_"};
// atan2.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&, const Tensor&)> atan2_out{"aten::atan2.out"};

// --- maximum -------------------------------------------------------------------------------------
// maximum(Tensor self, Tensor other) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> maximum{"aten::maximum"};
// maximum.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&, const Tensor&)> maximum_out{"aten::maximum.out"};

// --- minimum -------------------------------------------------------------------------------------
// minimum(Tensor self, Tensor other) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> minimum{"aten::minimum"};
// minimum.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&, const Tensor&)> minimum_out{"aten::minimum.out"};

// --- logical_and ---------------------------------------------------------------------------------
// logical_and(Tensor self, Tensor other) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> logical_and{"aten::logical_and"};
// logical_and.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&, const Tensor&)> logical_and_out{
    "aten::logical_and.out"};
// logical_and_(Tensor(a!) self, Tensor other) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> logical_and_{"aten::logical_and_"};
// lerp_.Tensor(Tensor(a!) self, Tensor end, Tensor weight) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&)> lerp_{
    "aten::lerp_.Tensor"};
// true_divide.Tensor(Tensor self, Tensor other) -> Tensor: an alias of div.Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> true_divide{"aten::true_divide.Tensor"};

// --- logical_or ----------------------------------------------------------------------------------
// logical_or(Tensor self, Tensor other) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> logical_or{"aten::logical_or"};
// logical_or.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&, const Tensor&)> logical_or_out{
    "aten::logical_or.out"};

// --- logical_xor ---------------------------------------------------------------------------------
// logical_xor(Tensor self, Tensor other) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> logical_xor{"aten::logical_xor"};
// logical_xor.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&, const Tensor&)> logical_xor_out{
    "aten::logical_xor.out"};

// --- bitwise_left_shift --------------------------------------------------------------------------
// bitwise_left_shift.Tensor(Tensor self, Tensor other) -> Tensor
// bitwise_left_shift.Tensor_Scalar(Tensor self, Scalar other) -> Tensor
// bitwise_left_shift.Scalar_Tensor(Scalar self, Tensor other) -> Tensor
inline constexpr Overloads bitwise_left_shift{
    Op<Tensor(const Tensor&, const Tensor&)>{"aten::bitwise_left_shift.Tensor"},
    Op<Tensor(const Tensor&, const Scalar&)>{"aten::bitwise_left_shift.Tensor_Scalar"},
    Op<Tensor(const Scalar&, const Tensor&)>{"aten::bitwise_left_shift.Scalar_Tensor"}};
// bitwise_left_shift_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
// bitwise_left_shift_.Tensor_Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
inline constexpr Overloads bitwise_left_shift_{
    Op<Tensor(const Tensor&, const Tensor&)>{"aten::bitwise_left_shift_.Tensor"},
    Op<Tensor(const Tensor&, const Scalar&)>{"aten::bitwise_left_shift_.Tensor_Scalar"}};
// bitwise_left_shift.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
// bitwise_left_shift.Tensor_Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
// bitwise_left_shift.Scalar_Tensor_out(Scalar self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Overloads bitwise_left_shift_out{
    Op<Tensor(Out, const Tensor&, const Tensor&)>{"aten::bitwise_left_shift.Tensor_out"},
    Op<Tensor(Out, const Tensor&, const Scalar&)>{"aten::bitwise_left_shift.Tensor_Scalar_out"},
    Op<Tensor(Out, const Scalar&, const Tensor&)>{"aten::bitwise_left_shift.Scalar_Tensor_out"}};

// --- bitwise_right_shift -------------------------------------------------------------------------
// bitwise_right_shift.Tensor(Tensor self, Tensor other) -> Tensor
// bitwise_right_shift.Tensor_Scalar(Tensor self, Scalar other) -> Tensor
// bitwise_right_shift.Scalar_Tensor(Scalar self, Tensor other) -> Tensor
inline constexpr Overloads bitwise_right_shift{
    Op<Tensor(const Tensor&, const Tensor&)>{"aten::bitwise_right_shift.Tensor"},
    Op<Tensor(const Tensor&, const Scalar&)>{"aten::bitwise_right_shift.Tensor_Scalar"},
    Op<Tensor(const Scalar&, const Tensor&)>{"aten::bitwise_right_shift.Scalar_Tensor"}};
// bitwise_right_shift_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
// bitwise_right_shift_.Tensor_Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
inline constexpr Overloads bitwise_right_shift_{
    Op<Tensor(const Tensor&, const Tensor&)>{"aten::bitwise_right_shift_.Tensor"},
    Op<Tensor(const Tensor&, const Scalar&)>{"aten::bitwise_right_shift_.Tensor_Scalar"}};
// bitwise_right_shift.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
// bitwise_right_shift.Tensor_Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
// bitwise_right_shift.Scalar_Tensor_out(Scalar self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Overloads bitwise_right_shift_out{
    Op<Tensor(Out, const Tensor&, const Tensor&)>{"aten::bitwise_right_shift.Tensor_out"},
    Op<Tensor(Out, const Tensor&, const Scalar&)>{"aten::bitwise_right_shift.Tensor_Scalar_out"},
    Op<Tensor(Out, const Scalar&, const Tensor&)>{"aten::bitwise_right_shift.Scalar_Tensor_out"}};

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

// --- the math ops: logaddexp / logaddexp2, hypot, copysign, fmax / fmin, xlogy, heaviside,
// gcd / lcm, nextafter (core/ops/cpu/binary_math.cpp), ldexp and float_power (composite) ------
// logaddexp(Tensor self, Tensor other) -> Tensor: ln(e^self + e^other)
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> logaddexp{"aten::logaddexp"};
// logaddexp2(Tensor self, Tensor other) -> Tensor: log2(2^self + 2^other)
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> logaddexp2{"aten::logaddexp2"};
// hypot(Tensor self, Tensor other) -> Tensor: sqrt(self^2 + other^2)
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> hypot{"aten::hypot"};
// copysign.Tensor(Tensor self, Tensor other) -> Tensor: |self| with other's sign
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> copysign{"aten::copysign.Tensor"};
// copysign_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> copysign_{"aten::copysign_.Tensor"};
// copysign.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&, const Tensor&)> copysign_out{"aten::copysign.out"};
// fmax(Tensor self, Tensor other) -> Tensor: the larger; NaN only where both are
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> fmax{"aten::fmax"};
// fmin(Tensor self, Tensor other) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> fmin{"aten::fmin"};
// xlogy.Tensor(Tensor self, Tensor other) -> Tensor: self * log(other), 0 where self is 0
// xlogy.Scalar_Other(Tensor self, Scalar other) -> Tensor
// xlogy.Scalar_Self(Scalar self, Tensor other) -> Tensor
inline constexpr Overloads xlogy{Op<Tensor(const Tensor&, const Tensor&)>{"aten::xlogy.Tensor"},
                                 Op<Tensor(const Tensor&, const Scalar&)>{"aten::xlogy.Scalar_Other"},
                                 Op<Tensor(const Scalar&, const Tensor&)>{"aten::xlogy.Scalar_Self"}};
// xlogy_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> xlogy_{"aten::xlogy_.Tensor"};
// xlogy.OutTensor(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
// xlogy.OutScalar_Other(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
// xlogy.OutScalar_Self(Scalar self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Overloads xlogy_out{
    Op<Tensor(Out, const Tensor&, const Tensor&)>{"aten::xlogy.OutTensor"},
    Op<Tensor(Out, const Tensor&, const Scalar&)>{"aten::xlogy.OutScalar_Other"},
    Op<Tensor(Out, const Scalar&, const Tensor&)>{"aten::xlogy.OutScalar_Self"}};
// ldexp.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!): self * 2^other
inline constexpr Op<Tensor(Out, const Tensor&, const Tensor&)> ldexp_out{"aten::ldexp.out"};

}  // namespace opscope::ops
