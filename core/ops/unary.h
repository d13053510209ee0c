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

// --- absolute ------------------------------------------------------------------------------------
// absolute(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> absolute{"aten::absolute"};
// absolute_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> absolute_{"aten::absolute_"};
// absolute.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> absolute_out{"aten::absolute.out"};

// --- sign ----------------------------------------------------------------------------------------
// sign(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> sign{"aten::sign"};
// sign_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> sign_{"aten::sign_"};
// sign.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> sign_out{"aten::sign.out"};

// --- exp -----------------------------------------------------------------------------------------
// exp(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> exp{"aten::exp"};
// exp_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> exp_{"aten::exp_"};
// exp.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> exp_out{"aten::exp.out"};

// --- exp2 ----------------------------------------------------------------------------------------
// exp2(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> exp2{"aten::exp2"};
// exp2_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> exp2_{"aten::exp2_"};
// exp2.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> exp2_out{"aten::exp2.out"};

// --- expm1 ---------------------------------------------------------------------------------------
// expm1(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> expm1{"aten::expm1"};
// expm1_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> expm1_{"aten::expm1_"};
// expm1.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> expm1_out{"aten::expm1.out"};

// --- log -----------------------------------------------------------------------------------------
// log(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> log{"aten::log"};
// log_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> log_{"aten::log_"};
// log.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> log_out{"aten::log.out"};

// --- log2 ----------------------------------------------------------------------------------------
// log2(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> log2{"aten::log2"};
// log2_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> log2_{"aten::log2_"};
// log2.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> log2_out{"aten::log2.out"};

// --- log10 ---------------------------------------------------------------------------------------
// log10(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> log10{"aten::log10"};
// log10_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> log10_{"aten::log10_"};
// log10.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> log10_out{"aten::log10.out"};

// --- log1p ---------------------------------------------------------------------------------------
// log1p(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> log1p{"aten::log1p"};
// log1p_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> log1p_{"aten::log1p_"};
// log1p.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> log1p_out{"aten::log1p.out"};

// --- sqrt ----------------------------------------------------------------------------------------
// sqrt(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> sqrt{"aten::sqrt"};
// sqrt_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> sqrt_{"aten::sqrt_"};
// sqrt.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> sqrt_out{"aten::sqrt.out"};

// --- rsqrt ---------------------------------------------------------------------------------------
// rsqrt(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> rsqrt{"aten::rsqrt"};
// rsqrt_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> rsqrt_{"aten::rsqrt_"};
// rsqrt.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> rsqrt_out{"aten::rsqrt.out"};

// --- sin -----------------------------------------------------------------------------------------
// sin(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> sin{"aten::sin"};
// sin_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> sin_{"aten::sin_"};
// sin.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> sin_out{"aten::sin.out"};

// --- cos -----------------------------------------------------------------------------------------
// cos(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> cos{"aten::cos"};
// cos_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> cos_{"aten::cos_"};
// cos.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> cos_out{"aten::cos.out"};

// --- tan -----------------------------------------------------------------------------------------
// tan(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> tan{"aten::tan"};
// tan_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> tan_{"aten::tan_"};
// tan.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> tan_out{"aten::tan.out"};

// --- asin ----------------------------------------------------------------------------------------
// asin(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> asin{"aten::asin"};
// asin_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> asin_{"aten::asin_"};
// asin.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> asin_out{"aten::asin.out"};

// --- acos ----------------------------------------------------------------------------------------
// acos(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> acos{"aten::acos"};
// acos_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> acos_{"aten::acos_"};
// acos.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> acos_out{"aten::acos.out"};

// --- atan ----------------------------------------------------------------------------------------
// atan(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> atan{"aten::atan"};
// atan_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> atan_{"aten::atan_"};
// atan.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> atan_out{"aten::atan.out"};

// --- sinh ----------------------------------------------------------------------------------------
// sinh(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> sinh{"aten::sinh"};
// sinh_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> sinh_{"aten::sinh_"};
// sinh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> sinh_out{"aten::sinh.out"};

// --- cosh ----------------------------------------------------------------------------------------
// cosh(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> cosh{"aten::cosh"};
// cosh_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> cosh_{"aten::cosh_"};
// cosh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> cosh_out{"aten::cosh.out"};

// --- tanh ----------------------------------------------------------------------------------------
// tanh(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> tanh{"aten::tanh"};
// tanh_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> tanh_{"aten::tanh_"};
// tanh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> tanh_out{"aten::tanh.out"};

// --- sigmoid -------------------------------------------------------------------------------------
// sigmoid(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> sigmoid{"aten::sigmoid"};
// sigmoid_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> sigmoid_{"aten::sigmoid_"};
// sigmoid.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> sigmoid_out{"aten::sigmoid.out"};

// --- erf -----------------------------------------------------------------------------------------
// erf(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> erf{"aten::erf"};
// erf_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> erf_{"aten::erf_"};
// erf.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> erf_out{"aten::erf.out"};

// --- floor ---------------------------------------------------------------------------------------
// floor(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> floor{"aten::floor"};
// floor_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> floor_{"aten::floor_"};
// floor.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> floor_out{"aten::floor.out"};

// --- ceil ----------------------------------------------------------------------------------------
// ceil(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> ceil{"aten::ceil"};
// ceil_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> ceil_{"aten::ceil_"};
// ceil.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> ceil_out{"aten::ceil.out"};

// --- round ---------------------------------------------------------------------------------------
// round(Tensor self) -> Tensor
// round.decimals(Tensor self, *, int decimals) -> Tensor
inline constexpr Overloads round{Op<Tensor(const Tensor&)>{"aten::round"},
                                 Op<Tensor(const Tensor&, int64_t)>{"aten::round.decimals"}};
// round_(Tensor(a!) self) -> Tensor(a!)
// round_.decimals(Tensor(a!) self, *, int decimals) -> Tensor(a!)
inline constexpr Overloads round_{Op<Tensor(const Tensor&)>{"aten::round_"},
                                  Op<Tensor(const Tensor&, int64_t)>{"aten::round_.decimals"}};
// round.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
// round.decimals_out(Tensor self, *, int decimals, Tensor(a!) out) -> Tensor(a!)
inline constexpr Overloads round_out{
    Op<Tensor(Out, const Tensor&)>{"aten::round.out"},
    Op<Tensor(Out, const Tensor&, int64_t)>{"aten::round.decimals_out"}};

// --- trunc ---------------------------------------------------------------------------------------
// trunc(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> trunc{"aten::trunc"};
// trunc_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> trunc_{"aten::trunc_"};
// trunc.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> trunc_out{"aten::trunc.out"};

// --- reciprocal ----------------------------------------------------------------------------------
// reciprocal(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> reciprocal{"aten::reciprocal"};
// reciprocal_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> reciprocal_{"aten::reciprocal_"};
// reciprocal.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> reciprocal_out{"aten::reciprocal.out"};

// --- round ---------------------------------------------------------------------------------------

// --- logical_not ---------------------------------------------------------------------------------
// logical_not(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> logical_not{"aten::logical_not"};
// logical_not_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> logical_not_{"aten::logical_not_"};
// logical_not.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> logical_not_out{"aten::logical_not.out"};

// --- nan_to_num ----------------------------------------------------------------------------------
// nan_to_num(Tensor self, float? nan=None, float? posinf=None, float? neginf=None) -> Tensor
inline constexpr Op<Tensor(const Tensor&, Default<std::optional<double>>,
                           Default<std::optional<double>>, Default<std::optional<double>>)>
    nan_to_num{"aten::nan_to_num"};
// nan_to_num_(Tensor(a!) self, float? nan=None, float? posinf=None, float? neginf=None) ->
// Tensor(a!)
inline constexpr Op<Tensor(const Tensor&, Default<std::optional<double>>,
                           Default<std::optional<double>>, Default<std::optional<double>>)>
    nan_to_num_{"aten::nan_to_num_"};
// nan_to_num.out(Tensor self, float? nan=None, float? posinf=None, float? neginf=None, *,
// Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&, Default<std::optional<double>>,
                           Default<std::optional<double>>, Default<std::optional<double>>)>
    nan_to_num_out{"aten::nan_to_num.out"};

// --- square --------------------------------------------------------------------------------------
// square(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> square{"aten::square"};
// square_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> square_{"aten::square_"};
// square.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> square_out{"aten::square.out"};

// --- positive ------------------------------------------------------------------------------------
// positive(Tensor(a) self) -> Tensor(a)
inline constexpr Op<Tensor(const Tensor&)> positive{"aten::positive"};

// --- neg: -self (not for bool) ----------------------------------------------------------------
// neg(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> neg{"aten::neg"};
// neg_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> neg_{"aten::neg_"};
// neg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> neg_out{"aten::neg.out"};

// --- bitwise_not ---------------------------------------------------------------------------------
// bitwise_not(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> bitwise_not{"aten::bitwise_not"};
// bitwise_not_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> bitwise_not_{"aten::bitwise_not_"};
// bitwise_not.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> bitwise_not_out{"aten::bitwise_not.out"};

}  // namespace opscope::ops
