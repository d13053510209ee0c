// Unary ops: one tensor in, one elementwise function of it out — exp / log / trig / hyperbolic
// functions, sqrt, rsqrt, sigmoid, erf, reciprocal, the roundings (floor, ceil, round, trunc),
// abs, sign, neg, square, positive, nan_to_num, logical_not, bitwise_not.
//
// Semantically each computes out[i] = f(self[i]) (scalar parameters allowed: round's decimals,
// nan_to_num's replacements), with PyTorch 1.13's type rules:
//   - "float" functions (exp, log, sin, sqrt, sigmoid, erf, reciprocal, ...) promote integer and
//     bool inputs to the default float dtype: exp(int64) -> float32;
//   - abs, sign, neg, floor, ceil, round, trunc keep the dtype (a rounding of an integer tensor
//     is the identity);
//   - logical_not returns bool.
// In-place forms write back into self's dtype, which must be able to hold the result:
// int_tensor.exp_() raises "result type Float can't be cast to the desired output type Long".
// Like PyTorch's CPU kernels, most transcendental functions reject float16 ("\"exp_vml_cpu\" not
// implemented for 'Half'") while bfloat16 computes in float.
//
// In implementation terms: CPU kernels run over a TensorIterator (core/ops/cpu/unary.cpp); for
// contiguous float32 / float64 data the transcendental functions go through SLEEF's vectorized
// 1-ulp (u10) functions, as PyTorch's do, when the CPU has AVX2 and FMA
// (core/ops/cpu/unary_avx2.cpp). absolute, square and positive are composite kernels
// (core/ops/composite/unary.cpp), registered on the same keys as in PyTorch, so a trace reads
// `square -> pow.Tensor_Scalar`. See core/ops/README.md for what belongs in this family.
//
//   Tensor x = ops::randn({4, 5});                        // f32[4, 5]
//   Tensor y = ops::exp(x);                               // f32[4, 5]
//   Tensor i = ops::exp(ops::arange(3));                  // int64 in, f32[3] out
#pragma once

#include <optional>

#include "core/dispatch/Op.h"
#include "core/runtime/Scalar.h"
#include "core/tensor/Tensor.h"

namespace opscope::ops {

// --- abs -----------------------------------------------------------------------------------------
// abs(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> abs{"aten::abs"};
// abs_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> abs_{"aten::abs_"};
// abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> abs_out{"aten::abs.out"};

// --- sign ----------------------------------------------------------------------------------------
// sign(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> sign{"aten::sign"};
// sgn(Tensor self) -> Tensor: x / |x|, 0 at 0 (for real dtypes, sign's values)
inline constexpr Op<Tensor(const Tensor&)> sgn{"aten::sgn"};

// --- exp -----------------------------------------------------------------------------------------
// exp(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> exp{"aten::exp"};
// exp_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> exp_{"aten::exp_"};

// --- log -----------------------------------------------------------------------------------------
// log(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> log{"aten::log"};
// log_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> log_{"aten::log_"};

// --- sqrt ----------------------------------------------------------------------------------------
// sqrt(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> sqrt{"aten::sqrt"};
// rsqrt(Tensor self) -> Tensor: 1 / sqrt(self)
inline constexpr Op<Tensor(const Tensor&)> rsqrt{"aten::rsqrt"};
// sqrt_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> sqrt_{"aten::sqrt_"};

// --- sin -----------------------------------------------------------------------------------------
// sin(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> sin{"aten::sin"};

// --- cos -----------------------------------------------------------------------------------------
// cos(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> cos{"aten::cos"};

// --- sinh ----------------------------------------------------------------------------------------
// sinh(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> sinh{"aten::sinh"};

// --- cosh ----------------------------------------------------------------------------------------
// cosh(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> cosh{"aten::cosh"};

// --- tanh ----------------------------------------------------------------------------------------
// tanh(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> tanh{"aten::tanh"};

// --- sigmoid -------------------------------------------------------------------------------------
// sigmoid(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> sigmoid{"aten::sigmoid"};
// sigmoid_backward(Tensor grad_output, Tensor output) -> Tensor
// grad_output * (1 - output) * output (broadcast): sigmoid's gradient from its result.
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> sigmoid_backward{
    "aten::sigmoid_backward"};
// tanh_backward(Tensor grad_output, Tensor output) -> Tensor
// grad_output * (1 - output^2) (broadcast): tanh's gradient from its result.
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> tanh_backward{"aten::tanh_backward"};

// --- erf -----------------------------------------------------------------------------------------
// erf(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> erf{"aten::erf"};

// --- floor ---------------------------------------------------------------------------------------
// floor(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> floor{"aten::floor"};

// --- ceil ----------------------------------------------------------------------------------------
// ceil(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> ceil{"aten::ceil"};

// --- round ---------------------------------------------------------------------------------------
// round(Tensor self) -> Tensor
// round.decimals(Tensor self, *, int decimals) -> Tensor
inline constexpr Overloads round{Op<Tensor(const Tensor&)>{"aten::round"},
                                 Op<Tensor(const Tensor&, int64_t)>{"aten::round.decimals"}};

// --- trunc ---------------------------------------------------------------------------------------
// trunc(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> trunc{"aten::trunc"};

// --- reciprocal ----------------------------------------------------------------------------------
// reciprocal(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> reciprocal{"aten::reciprocal"};

// --- logical_not ---------------------------------------------------------------------------------
// logical_not(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> logical_not{"aten::logical_not"};
// logical_not_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> logical_not_{"aten::logical_not_"};
// logical_not.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> logical_not_out{"aten::logical_not.out"};

// --- nan_to_num ----------------------------------------------------------------------------------
// nan_to_num.out(Tensor self, float? nan=None, float? posinf=None, float? neginf=None, *,
// Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&, Default<std::optional<double>>,
                           Default<std::optional<double>>, Default<std::optional<double>>)>
    nan_to_num_out{"aten::nan_to_num.out"};

// --- neg: -self (not for bool) ----------------------------------------------------------------
// neg(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> neg{"aten::neg"};

// --- bitwise_not ---------------------------------------------------------------------------------
// bitwise_not(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> bitwise_not{"aten::bitwise_not"};

// --- the inverse hyperbolic functions, the error and gamma families, sinc, frac, signbit --------
// (kernels in core/ops/cpu/unary_math.cpp; acosh / asinh / atanh have the arc* aliases,
// lgamma / digamma / erfc / erfinv / polygamma / sinc torch.special's special_* aliases)
// acosh(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> acosh{"aten::acosh"};
// asinh(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> asinh{"aten::asinh"};
// atanh(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> atanh{"aten::atanh"};
// erfc(Tensor self) -> Tensor: 1 - erf(self), without the cancellation
inline constexpr Op<Tensor(const Tensor&)> erfc{"aten::erfc"};
// erfinv(Tensor self) -> Tensor: erf's inverse on [-1, 1]
inline constexpr Op<Tensor(const Tensor&)> erfinv{"aten::erfinv"};
// lgamma(Tensor self) -> Tensor: ln |Γ(self)|
inline constexpr Op<Tensor(const Tensor&)> lgamma{"aten::lgamma"};
// digamma(Tensor self) -> Tensor: ψ(self) = Γ'(self) / Γ(self)
inline constexpr Op<Tensor(const Tensor&)> digamma{"aten::digamma"};
// polygamma(int n, Tensor self) -> Tensor: ψ's n-th derivative
inline constexpr Op<Tensor(int64_t, const Tensor&)> polygamma{"aten::polygamma"};
// sinc(Tensor self) -> Tensor: sin(π self) / (π self), 1 at 0
inline constexpr Op<Tensor(const Tensor&)> sinc{"aten::sinc"};
// frac(Tensor self) -> Tensor: self - trunc(self)
inline constexpr Op<Tensor(const Tensor&)> frac{"aten::frac"};
// signbit(Tensor self) -> Tensor: bool, whether the sign bit is set
inline constexpr Op<Tensor(const Tensor&)> signbit{"aten::signbit"};
// deg2rad.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!): self * π / 180 (composite: mul.out)
inline constexpr Op<Tensor(Out, const Tensor&)> deg2rad_out{"aten::deg2rad.out"};
// rad2deg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!): self * 180 / π (composite: mul.out)
inline constexpr Op<Tensor(Out, const Tensor&)> rad2deg_out{"aten::rad2deg.out"};

// --- the modified Bessel functions of the first kind (kernels in core/ops/cpu/bessel.cpp) ------
// i0(Tensor self) -> Tensor: I0(self); special_i1: I1(self); special_i0e / special_i1e:
// exp(-|self|) I0(self) / I1(self). Integers promote to the default float dtype.
inline constexpr Op<Tensor(const Tensor&)> i0{"aten::i0"};
inline constexpr Op<Tensor(const Tensor&)> special_i1{"aten::special_i1"};
inline constexpr Op<Tensor(const Tensor&)> special_i0e{"aten::special_i0e"};
inline constexpr Op<Tensor(const Tensor&)> special_i1e{"aten::special_i1e"};
// floor_ / ceil_ / round_ / cos_(Tensor(a!) self) -> Tensor(a!): in place
inline constexpr Op<Tensor(const Tensor&)> floor_{"aten::floor_"};
inline constexpr Op<Tensor(const Tensor&)> ceil_{"aten::ceil_"};
inline constexpr Op<Tensor(const Tensor&)> round_{"aten::round_"};
inline constexpr Op<Tensor(const Tensor&)> cos_{"aten::cos_"};

}  // namespace opscope::ops
