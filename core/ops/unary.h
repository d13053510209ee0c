// Pointwise math ops: remainder, fmod, floor_divide, abs, sign, exp / log / trig / hyperbolic
// functions, sigmoid, relu, gelu, silu, softplus, erf, rounding (floor, ceil, round, trunc),
// clamp / clip, maximum / minimum, where, lerp, logical_and / or / xor / not, the bit shifts,
// isnan / isinf / isfinite / isposinf / isneginf, nan_to_num, reciprocal, square, positive.
//
// Semantically each computes out[i] = f(self[i], ...) over the broadcast shape of its tensor
// operands, with PyTorch 1.13's type rules:
//   - "float" functions (exp, log, sin, sqrt, sigmoid, erf, atan2, reciprocal, ...) promote
//     integer and bool inputs to the default float dtype: exp(int64) -> float32;
//   - abs, sign, floor, ceil, round, trunc, relu, clamp, maximum, remainder, ... keep the
//     dtype (floor / ceil / round / trunc of an integer tensor is the identity);
//   - logical ops and is* classifications return bool; where(cond, a, b) promotes a and b.
// In-place forms write back into self's dtype, which must be able to hold the result:
// int_tensor.exp_() raises "result type Float can't be cast to the desired output type Long".
// Like PyTorch's CPU kernels, most transcendental functions reject float16 ("\"exp_vml_cpu\" not
// implemented for 'Half'") while bfloat16 computes in float.
//
// In implementation terms: CPU kernels run over a TensorIterator (core/ops/cpu/pointwise.cpp
// for the unary functions, pointwise_binary.cpp for the rest); for contiguous float32 / float64
// data, the transcendental functions go through SLEEF's vectorized 1-ulp (u10) functions, as
// PyTorch's do, when the CPU has AVX2 and FMA (core/ops/cpu/pointwise_avx2.cpp). Aliases
// (absolute, arctan2, clip), square, positive, the Scalar overloads and the logical ops'
// functional forms are composite kernels (core/ops/composite/pointwise.cpp), registered on the
// same keys as in PyTorch, so a trace reads `clip -> clamp`, `square -> pow.Tensor_Scalar`.
//
//   Tensor x = ops::randn({4, 5});                        // f32[4, 5]
//   Tensor y = ops::exp(x);                               // f32[4, 5]
//   Tensor z = ops::clamp(y, 0.5, 2.0);                   // f32[4, 5]
//   Tensor w = ops::where(ops::gt(x, 0), x, ops::zeros_like(x));
//   Tensor i = ops::exp(ops::arange(3));                  // int64 in, f32[3] out
#pragma once

#include <optional>
#include <string_view>

#include "core/dispatch/Op.h"
#include "core/runtime/Scalar.h"
#include "core/tensor/Tensor.h"

namespace opscope::ops {

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
// floor_divide.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&, const Tensor&)> floor_divide_out{
    "aten::floor_divide.out"};

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

// --- atan2 ---------------------------------------------------------------------------------------
// atan2(Tensor self, Tensor other) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> atan2{"aten::atan2"};
// atan2_(Tensor(a!) self, Tensor other) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> atan2_{"aten::atan2_"};
// atan2.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&, const Tensor&)> atan2_out{"aten::atan2.out"};

// --- arctan2 -------------------------------------------------------------------------------------
// arctan2(Tensor self, Tensor other) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> arctan2{"aten::arctan2"};
// arctan2_(Tensor(a!) self, Tensor other) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> arctan2_{"aten::arctan2_"};
// arctan2.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&, const Tensor&)> arctan2_out{"aten::arctan2.out"};

// --- relu ----------------------------------------------------------------------------------------
// relu(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> relu{"aten::relu"};
// relu_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> relu_{"aten::relu_"};
// relu.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> relu_out{"aten::relu.out"};

// --- gelu ----------------------------------------------------------------------------------------
// gelu(Tensor self, *, str approximate="none") -> Tensor
inline constexpr Op<Tensor(const Tensor&, Default<std::string_view>)> gelu{"aten::gelu"};
// gelu_(Tensor(a!) self, *, str approximate="none") -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&, Default<std::string_view>)> gelu_{"aten::gelu_"};
// gelu.out(Tensor self, *, str approximate="none", Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&, Default<std::string_view>)> gelu_out{
    "aten::gelu.out"};

// --- silu ----------------------------------------------------------------------------------------
// silu(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> silu{"aten::silu"};
// silu_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> silu_{"aten::silu_"};
// silu.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> silu_out{"aten::silu.out"};

// --- softplus ------------------------------------------------------------------------------------
// softplus(Tensor self, Scalar beta=1, Scalar threshold=20) -> Tensor
inline constexpr Op<Tensor(const Tensor&, Default<const Scalar&>, Default<const Scalar&>)> softplus{
    "aten::softplus"};
// softplus.out(Tensor self, Scalar beta=1, Scalar threshold=20, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&, Default<const Scalar&>, Default<const Scalar&>)>
    softplus_out{"aten::softplus.out"};

// --- clamp ---------------------------------------------------------------------------------------
// clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor
// clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor
inline constexpr Overloads clamp{
    Op<Tensor(const Tensor&, Default<const std::optional<Scalar>&>,
              Default<const std::optional<Scalar>&>)>{"aten::clamp"},
    Op<Tensor(const Tensor&, const Tensor&, const Tensor&)>{"aten::clamp.Tensor"}};
// clamp_(Tensor(a!) self, Scalar? min=None, Scalar? max=None) -> Tensor(a!)
// clamp_.Tensor(Tensor(a!) self, Tensor? min=None, Tensor? max=None) -> Tensor(a!)
inline constexpr Overloads clamp_{
    Op<Tensor(const Tensor&, Default<const std::optional<Scalar>&>,
              Default<const std::optional<Scalar>&>)>{"aten::clamp_"},
    Op<Tensor(const Tensor&, const Tensor&, const Tensor&)>{"aten::clamp_.Tensor"}};
// clamp.out(Tensor self, Scalar? min=None, Scalar? max=None, *, Tensor(a!) out) -> Tensor(a!)
// clamp.Tensor_out(Tensor self, Tensor? min=None, Tensor? max=None, *, Tensor(a!) out) ->
// Tensor(a!)
inline constexpr Overloads clamp_out{
    Op<Tensor(Out, const Tensor&, Default<const std::optional<Scalar>&>,
              Default<const std::optional<Scalar>&>)>{"aten::clamp.out"},
    Op<Tensor(Out, const Tensor&, const Tensor&, const Tensor&)>{"aten::clamp.Tensor_out"}};

// --- clip ----------------------------------------------------------------------------------------
// clip(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor
// clip.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor
inline constexpr Overloads clip{
    Op<Tensor(const Tensor&, Default<const std::optional<Scalar>&>,
              Default<const std::optional<Scalar>&>)>{"aten::clip"},
    Op<Tensor(const Tensor&, const Tensor&, const Tensor&)>{"aten::clip.Tensor"}};
// clip_(Tensor(a!) self, Scalar? min=None, Scalar? max=None) -> Tensor(a!)
// clip_.Tensor(Tensor(a!) self, Tensor? min=None, Tensor? max=None) -> Tensor(a!)
inline constexpr Overloads clip_{
    Op<Tensor(const Tensor&, Default<const std::optional<Scalar>&>,
              Default<const std::optional<Scalar>&>)>{"aten::clip_"},
    Op<Tensor(const Tensor&, const Tensor&, const Tensor&)>{"aten::clip_.Tensor"}};
// clip.out(Tensor self, Scalar? min=None, Scalar? max=None, *, Tensor(a!) out) -> Tensor(a!)
// clip.Tensor_out(Tensor self, Tensor? min=None, Tensor? max=None, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Overloads clip_out{
    Op<Tensor(Out, const Tensor&, Default<const std::optional<Scalar>&>,
              Default<const std::optional<Scalar>&>)>{"aten::clip.out"},
    Op<Tensor(Out, const Tensor&, const Tensor&, const Tensor&)>{"aten::clip.Tensor_out"}};

// --- clamp_min -----------------------------------------------------------------------------------
// clamp_min(Tensor self, Scalar min) -> Tensor
// clamp_min.Tensor(Tensor self, Tensor min) -> Tensor
inline constexpr Overloads clamp_min{
    Op<Tensor(const Tensor&, const Scalar&)>{"aten::clamp_min"},
    Op<Tensor(const Tensor&, const Tensor&)>{"aten::clamp_min.Tensor"}};
// clamp_min_(Tensor(a!) self, Scalar min) -> Tensor(a!)
// clamp_min_.Tensor(Tensor(a!) self, Tensor min) -> Tensor(a!)
inline constexpr Overloads clamp_min_{
    Op<Tensor(const Tensor&, const Scalar&)>{"aten::clamp_min_"},
    Op<Tensor(const Tensor&, const Tensor&)>{"aten::clamp_min_.Tensor"}};
// clamp_min.out(Tensor self, Scalar min, *, Tensor(a!) out) -> Tensor(a!)
// clamp_min.Tensor_out(Tensor self, Tensor min, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Overloads clamp_min_out{
    Op<Tensor(Out, const Tensor&, const Scalar&)>{"aten::clamp_min.out"},
    Op<Tensor(Out, const Tensor&, const Tensor&)>{"aten::clamp_min.Tensor_out"}};

// --- clamp_max -----------------------------------------------------------------------------------
// clamp_max(Tensor self, Scalar max) -> Tensor
// clamp_max.Tensor(Tensor self, Tensor max) -> Tensor
inline constexpr Overloads clamp_max{
    Op<Tensor(const Tensor&, const Scalar&)>{"aten::clamp_max"},
    Op<Tensor(const Tensor&, const Tensor&)>{"aten::clamp_max.Tensor"}};
// clamp_max_(Tensor(a!) self, Scalar max) -> Tensor(a!)
// clamp_max_.Tensor(Tensor(a!) self, Tensor max) -> Tensor(a!)
inline constexpr Overloads clamp_max_{
    Op<Tensor(const Tensor&, const Scalar&)>{"aten::clamp_max_"},
    Op<Tensor(const Tensor&, const Tensor&)>{"aten::clamp_max_.Tensor"}};
// clamp_max.out(Tensor self, Scalar max, *, Tensor(a!) out) -> Tensor(a!)
// clamp_max.Tensor_out(Tensor self, Tensor max, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Overloads clamp_max_out{
    Op<Tensor(Out, const Tensor&, const Scalar&)>{"aten::clamp_max.out"},
    Op<Tensor(Out, const Tensor&, const Tensor&)>{"aten::clamp_max.Tensor_out"}};

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

// --- where ---------------------------------------------------------------------------------------
// where.self(Tensor condition, Tensor self, Tensor other) -> Tensor
// where.ScalarSelf(Tensor condition, Scalar self, Tensor other) -> Tensor
// where.ScalarOther(Tensor condition, Tensor self, Scalar other) -> Tensor
// where.Scalar(Tensor condition, Scalar self, Scalar other) -> Tensor
inline constexpr Overloads where{
    Op<Tensor(const Tensor&, const Tensor&, const Tensor&)>{"aten::where.self"},
    Op<Tensor(const Tensor&, const Scalar&, const Tensor&)>{"aten::where.ScalarSelf"},
    Op<Tensor(const Tensor&, const Tensor&, const Scalar&)>{"aten::where.ScalarOther"},
    Op<Tensor(const Tensor&, const Scalar&, const Scalar&)>{"aten::where.Scalar"}};
// where.self_out(Tensor condition, Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&, const Tensor&, const Tensor&)> where_out{
    "aten::where.self_out"};

// --- lerp ----------------------------------------------------------------------------------------
// lerp.Scalar(Tensor self, Tensor end, Scalar weight) -> Tensor
// lerp.Tensor(Tensor self, Tensor end, Tensor weight) -> Tensor
inline constexpr Overloads lerp{
    Op<Tensor(const Tensor&, const Tensor&, const Scalar&)>{"aten::lerp.Scalar"},
    Op<Tensor(const Tensor&, const Tensor&, const Tensor&)>{"aten::lerp.Tensor"}};
// lerp_.Scalar(Tensor(a!) self, Tensor end, Scalar weight) -> Tensor(a!)
// lerp_.Tensor(Tensor(a!) self, Tensor end, Tensor weight) -> Tensor(a!)
inline constexpr Overloads lerp_{
    Op<Tensor(const Tensor&, const Tensor&, const Scalar&)>{"aten::lerp_.Scalar"},
    Op<Tensor(const Tensor&, const Tensor&, const Tensor&)>{"aten::lerp_.Tensor"}};
// lerp.Scalar_out(Tensor self, Tensor end, Scalar weight, *, Tensor(a!) out) -> Tensor(a!)
// lerp.Tensor_out(Tensor self, Tensor end, Tensor weight, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Overloads lerp_out{
    Op<Tensor(Out, const Tensor&, const Tensor&, const Scalar&)>{"aten::lerp.Scalar_out"},
    Op<Tensor(Out, const Tensor&, const Tensor&, const Tensor&)>{"aten::lerp.Tensor_out"}};

// --- logical_and ---------------------------------------------------------------------------------
// logical_and(Tensor self, Tensor other) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> logical_and{"aten::logical_and"};
// logical_and_(Tensor(a!) self, Tensor other) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> logical_and_{"aten::logical_and_"};
// logical_and.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&, const Tensor&)> logical_and_out{
    "aten::logical_and.out"};

// --- logical_or ----------------------------------------------------------------------------------
// logical_or(Tensor self, Tensor other) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> logical_or{"aten::logical_or"};
// logical_or_(Tensor(a!) self, Tensor other) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> logical_or_{"aten::logical_or_"};
// logical_or.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&, const Tensor&)> logical_or_out{
    "aten::logical_or.out"};

// --- logical_xor ---------------------------------------------------------------------------------
// logical_xor(Tensor self, Tensor other) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> logical_xor{"aten::logical_xor"};
// logical_xor_(Tensor(a!) self, Tensor other) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> logical_xor_{"aten::logical_xor_"};
// logical_xor.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&, const Tensor&)> logical_xor_out{
    "aten::logical_xor.out"};

// --- logical_not ---------------------------------------------------------------------------------
// logical_not(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> logical_not{"aten::logical_not"};
// logical_not_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> logical_not_{"aten::logical_not_"};
// logical_not.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> logical_not_out{"aten::logical_not.out"};

// --- isnan ---------------------------------------------------------------------------------------
// isnan(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> isnan{"aten::isnan"};
// isnan.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> isnan_out{"aten::isnan.out"};

// --- isinf ---------------------------------------------------------------------------------------
// isinf(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> isinf{"aten::isinf"};
// isinf.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> isinf_out{"aten::isinf.out"};

// --- isfinite ------------------------------------------------------------------------------------
// isfinite(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> isfinite{"aten::isfinite"};

// --- isposinf ------------------------------------------------------------------------------------
// isposinf(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> isposinf{"aten::isposinf"};
// isposinf.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> isposinf_out{"aten::isposinf.out"};

// --- isneginf ------------------------------------------------------------------------------------
// isneginf(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> isneginf{"aten::isneginf"};
// isneginf.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> isneginf_out{"aten::isneginf.out"};

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

}  // namespace opscope::ops
