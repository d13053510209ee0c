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

#include "core/runtime/Scalar.h"
#include "core/tensor/Tensor.h"

namespace opscope::ops {

// --- remainder -----------------------------------------------------------------------------------
// remainder.Tensor(Tensor self, Tensor other) -> Tensor
Tensor remainder(const Tensor& self, const Tensor& other);
// remainder_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
Tensor remainder_(const Tensor& self, const Tensor& other);
// remainder.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
Tensor remainder_out(const Tensor& out, const Tensor& self, const Tensor& other);
// remainder.Scalar(Tensor self, Scalar other) -> Tensor
Tensor remainder(const Tensor& self, const Scalar& other);
// remainder_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
Tensor remainder_(const Tensor& self, const Scalar& other);
// remainder.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
Tensor remainder_out(const Tensor& out, const Tensor& self, const Scalar& other);
// remainder.Scalar_Tensor(Scalar self, Tensor other) -> Tensor
Tensor remainder(const Scalar& self, const Tensor& other);
// remainder.Scalar_Tensor_out(Scalar self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
Tensor remainder_out(const Tensor& out, const Scalar& self, const Tensor& other);

// --- fmod ----------------------------------------------------------------------------------------
// fmod.Tensor(Tensor self, Tensor other) -> Tensor
Tensor fmod(const Tensor& self, const Tensor& other);
// fmod_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
Tensor fmod_(const Tensor& self, const Tensor& other);
// fmod.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
Tensor fmod_out(const Tensor& out, const Tensor& self, const Tensor& other);
// fmod.Scalar(Tensor self, Scalar other) -> Tensor
Tensor fmod(const Tensor& self, const Scalar& other);
// fmod_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
Tensor fmod_(const Tensor& self, const Scalar& other);
// fmod.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
Tensor fmod_out(const Tensor& out, const Tensor& self, const Scalar& other);

// --- floor_divide --------------------------------------------------------------------------------
// floor_divide(Tensor self, Tensor other) -> Tensor
Tensor floor_divide(const Tensor& self, const Tensor& other);
// floor_divide_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
Tensor floor_divide_(const Tensor& self, const Tensor& other);
// floor_divide.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
Tensor floor_divide_out(const Tensor& out, const Tensor& self, const Tensor& other);
// floor_divide.Scalar(Tensor self, Scalar other) -> Tensor
Tensor floor_divide(const Tensor& self, const Scalar& other);
// floor_divide_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
Tensor floor_divide_(const Tensor& self, const Scalar& other);

// --- abs -----------------------------------------------------------------------------------------
// abs(Tensor self) -> Tensor
Tensor abs(const Tensor& self);
// abs_(Tensor(a!) self) -> Tensor(a!)
Tensor abs_(const Tensor& self);
// abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor abs_out(const Tensor& out, const Tensor& self);

// --- absolute ------------------------------------------------------------------------------------
// absolute(Tensor self) -> Tensor
Tensor absolute(const Tensor& self);
// absolute_(Tensor(a!) self) -> Tensor(a!)
Tensor absolute_(const Tensor& self);
// absolute.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor absolute_out(const Tensor& out, const Tensor& self);

// --- sign ----------------------------------------------------------------------------------------
// sign(Tensor self) -> Tensor
Tensor sign(const Tensor& self);
// sign_(Tensor(a!) self) -> Tensor(a!)
Tensor sign_(const Tensor& self);
// sign.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor sign_out(const Tensor& out, const Tensor& self);

// --- exp -----------------------------------------------------------------------------------------
// exp(Tensor self) -> Tensor
Tensor exp(const Tensor& self);
// exp_(Tensor(a!) self) -> Tensor(a!)
Tensor exp_(const Tensor& self);
// exp.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor exp_out(const Tensor& out, const Tensor& self);

// --- exp2 ----------------------------------------------------------------------------------------
// exp2(Tensor self) -> Tensor
Tensor exp2(const Tensor& self);
// exp2_(Tensor(a!) self) -> Tensor(a!)
Tensor exp2_(const Tensor& self);
// exp2.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor exp2_out(const Tensor& out, const Tensor& self);

// --- expm1 ---------------------------------------------------------------------------------------
// expm1(Tensor self) -> Tensor
Tensor expm1(const Tensor& self);
// expm1_(Tensor(a!) self) -> Tensor(a!)
Tensor expm1_(const Tensor& self);
// expm1.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor expm1_out(const Tensor& out, const Tensor& self);

// --- log -----------------------------------------------------------------------------------------
// log(Tensor self) -> Tensor
Tensor log(const Tensor& self);
// log_(Tensor(a!) self) -> Tensor(a!)
Tensor log_(const Tensor& self);
// log.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor log_out(const Tensor& out, const Tensor& self);

// --- log2 ----------------------------------------------------------------------------------------
// log2(Tensor self) -> Tensor
Tensor log2(const Tensor& self);
// log2_(Tensor(a!) self) -> Tensor(a!)
Tensor log2_(const Tensor& self);
// log2.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor log2_out(const Tensor& out, const Tensor& self);

// --- log10 ---------------------------------------------------------------------------------------
// log10(Tensor self) -> Tensor
Tensor log10(const Tensor& self);
// log10_(Tensor(a!) self) -> Tensor(a!)
Tensor log10_(const Tensor& self);
// log10.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor log10_out(const Tensor& out, const Tensor& self);

// --- log1p ---------------------------------------------------------------------------------------
// log1p(Tensor self) -> Tensor
Tensor log1p(const Tensor& self);
// log1p_(Tensor(a!) self) -> Tensor(a!)
Tensor log1p_(const Tensor& self);
// log1p.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor log1p_out(const Tensor& out, const Tensor& self);

// --- sqrt ----------------------------------------------------------------------------------------
// sqrt(Tensor self) -> Tensor
Tensor sqrt(const Tensor& self);
// sqrt_(Tensor(a!) self) -> Tensor(a!)
Tensor sqrt_(const Tensor& self);
// sqrt.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor sqrt_out(const Tensor& out, const Tensor& self);

// --- rsqrt ---------------------------------------------------------------------------------------
// rsqrt(Tensor self) -> Tensor
Tensor rsqrt(const Tensor& self);
// rsqrt_(Tensor(a!) self) -> Tensor(a!)
Tensor rsqrt_(const Tensor& self);
// rsqrt.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor rsqrt_out(const Tensor& out, const Tensor& self);

// --- sin -----------------------------------------------------------------------------------------
// sin(Tensor self) -> Tensor
Tensor sin(const Tensor& self);
// sin_(Tensor(a!) self) -> Tensor(a!)
Tensor sin_(const Tensor& self);
// sin.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor sin_out(const Tensor& out, const Tensor& self);

// --- cos -----------------------------------------------------------------------------------------
// cos(Tensor self) -> Tensor
Tensor cos(const Tensor& self);
// cos_(Tensor(a!) self) -> Tensor(a!)
Tensor cos_(const Tensor& self);
// cos.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor cos_out(const Tensor& out, const Tensor& self);

// --- tan -----------------------------------------------------------------------------------------
// tan(Tensor self) -> Tensor
Tensor tan(const Tensor& self);
// tan_(Tensor(a!) self) -> Tensor(a!)
Tensor tan_(const Tensor& self);
// tan.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor tan_out(const Tensor& out, const Tensor& self);

// --- asin ----------------------------------------------------------------------------------------
// asin(Tensor self) -> Tensor
Tensor asin(const Tensor& self);
// asin_(Tensor(a!) self) -> Tensor(a!)
Tensor asin_(const Tensor& self);
// asin.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor asin_out(const Tensor& out, const Tensor& self);

// --- acos ----------------------------------------------------------------------------------------
// acos(Tensor self) -> Tensor
Tensor acos(const Tensor& self);
// acos_(Tensor(a!) self) -> Tensor(a!)
Tensor acos_(const Tensor& self);
// acos.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor acos_out(const Tensor& out, const Tensor& self);

// --- atan ----------------------------------------------------------------------------------------
// atan(Tensor self) -> Tensor
Tensor atan(const Tensor& self);
// atan_(Tensor(a!) self) -> Tensor(a!)
Tensor atan_(const Tensor& self);
// atan.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor atan_out(const Tensor& out, const Tensor& self);

// --- sinh ----------------------------------------------------------------------------------------
// sinh(Tensor self) -> Tensor
Tensor sinh(const Tensor& self);
// sinh_(Tensor(a!) self) -> Tensor(a!)
Tensor sinh_(const Tensor& self);
// sinh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor sinh_out(const Tensor& out, const Tensor& self);

// --- cosh ----------------------------------------------------------------------------------------
// cosh(Tensor self) -> Tensor
Tensor cosh(const Tensor& self);
// cosh_(Tensor(a!) self) -> Tensor(a!)
Tensor cosh_(const Tensor& self);
// cosh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor cosh_out(const Tensor& out, const Tensor& self);

// --- tanh ----------------------------------------------------------------------------------------
// tanh(Tensor self) -> Tensor
Tensor tanh(const Tensor& self);
// tanh_(Tensor(a!) self) -> Tensor(a!)
Tensor tanh_(const Tensor& self);
// tanh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor tanh_out(const Tensor& out, const Tensor& self);

// --- sigmoid -------------------------------------------------------------------------------------
// sigmoid(Tensor self) -> Tensor
Tensor sigmoid(const Tensor& self);
// sigmoid_(Tensor(a!) self) -> Tensor(a!)
Tensor sigmoid_(const Tensor& self);
// sigmoid.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor sigmoid_out(const Tensor& out, const Tensor& self);

// --- erf -----------------------------------------------------------------------------------------
// erf(Tensor self) -> Tensor
Tensor erf(const Tensor& self);
// erf_(Tensor(a!) self) -> Tensor(a!)
Tensor erf_(const Tensor& self);
// erf.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor erf_out(const Tensor& out, const Tensor& self);

// --- floor ---------------------------------------------------------------------------------------
// floor(Tensor self) -> Tensor
Tensor floor(const Tensor& self);
// floor_(Tensor(a!) self) -> Tensor(a!)
Tensor floor_(const Tensor& self);
// floor.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor floor_out(const Tensor& out, const Tensor& self);

// --- ceil ----------------------------------------------------------------------------------------
// ceil(Tensor self) -> Tensor
Tensor ceil(const Tensor& self);
// ceil_(Tensor(a!) self) -> Tensor(a!)
Tensor ceil_(const Tensor& self);
// ceil.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor ceil_out(const Tensor& out, const Tensor& self);

// --- round ---------------------------------------------------------------------------------------
// round(Tensor self) -> Tensor
Tensor round(const Tensor& self);
// round_(Tensor(a!) self) -> Tensor(a!)
Tensor round_(const Tensor& self);
// round.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor round_out(const Tensor& out, const Tensor& self);

// --- trunc ---------------------------------------------------------------------------------------
// trunc(Tensor self) -> Tensor
Tensor trunc(const Tensor& self);
// trunc_(Tensor(a!) self) -> Tensor(a!)
Tensor trunc_(const Tensor& self);
// trunc.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor trunc_out(const Tensor& out, const Tensor& self);

// --- reciprocal ----------------------------------------------------------------------------------
// reciprocal(Tensor self) -> Tensor
Tensor reciprocal(const Tensor& self);
// reciprocal_(Tensor(a!) self) -> Tensor(a!)
Tensor reciprocal_(const Tensor& self);
// reciprocal.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor reciprocal_out(const Tensor& out, const Tensor& self);

// --- round ---------------------------------------------------------------------------------------
// round.decimals(Tensor self, *, int decimals) -> Tensor
Tensor round(const Tensor& self, int64_t decimals);
// round_.decimals(Tensor(a!) self, *, int decimals) -> Tensor(a!)
Tensor round_(const Tensor& self, int64_t decimals);
// round.decimals_out(Tensor self, *, int decimals, Tensor(a!) out) -> Tensor(a!)
Tensor round_out(const Tensor& out, const Tensor& self, int64_t decimals);

// --- atan2 ---------------------------------------------------------------------------------------
// atan2(Tensor self, Tensor other) -> Tensor
Tensor atan2(const Tensor& self, const Tensor& other);
// atan2_(Tensor(a!) self, Tensor other) -> Tensor(a!)
Tensor atan2_(const Tensor& self, const Tensor& other);
// atan2.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
Tensor atan2_out(const Tensor& out, const Tensor& self, const Tensor& other);

// --- arctan2 -------------------------------------------------------------------------------------
// arctan2(Tensor self, Tensor other) -> Tensor
Tensor arctan2(const Tensor& self, const Tensor& other);
// arctan2_(Tensor(a!) self, Tensor other) -> Tensor(a!)
Tensor arctan2_(const Tensor& self, const Tensor& other);
// arctan2.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
Tensor arctan2_out(const Tensor& out, const Tensor& self, const Tensor& other);

// --- relu ----------------------------------------------------------------------------------------
// relu(Tensor self) -> Tensor
Tensor relu(const Tensor& self);
// relu_(Tensor(a!) self) -> Tensor(a!)
Tensor relu_(const Tensor& self);
// relu.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor relu_out(const Tensor& out, const Tensor& self);

// --- gelu ----------------------------------------------------------------------------------------
// gelu(Tensor self, *, str approximate="none") -> Tensor
Tensor gelu(const Tensor& self, std::string_view approximate = "none");
// gelu_(Tensor(a!) self, *, str approximate="none") -> Tensor(a!)
Tensor gelu_(const Tensor& self, std::string_view approximate = "none");
// gelu.out(Tensor self, *, str approximate="none", Tensor(a!) out) -> Tensor(a!)
Tensor gelu_out(const Tensor& out, const Tensor& self, std::string_view approximate = "none");

// --- silu ----------------------------------------------------------------------------------------
// silu(Tensor self) -> Tensor
Tensor silu(const Tensor& self);
// silu_(Tensor(a!) self) -> Tensor(a!)
Tensor silu_(const Tensor& self);
// silu.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor silu_out(const Tensor& out, const Tensor& self);

// --- softplus ------------------------------------------------------------------------------------
// softplus(Tensor self, Scalar beta=1, Scalar threshold=20) -> Tensor
Tensor softplus(const Tensor& self, const Scalar& beta = 1, const Scalar& threshold = 20);
// softplus.out(Tensor self, Scalar beta=1, Scalar threshold=20, *, Tensor(a!) out) -> Tensor(a!)
Tensor softplus_out(const Tensor& out, const Tensor& self, const Scalar& beta = 1,
                    const Scalar& threshold = 20);

// --- clamp ---------------------------------------------------------------------------------------
// clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor
Tensor clamp(const Tensor& self, const std::optional<Scalar>& min = std::nullopt,
             const std::optional<Scalar>& max = std::nullopt);
// clamp_(Tensor(a!) self, Scalar? min=None, Scalar? max=None) -> Tensor(a!)
Tensor clamp_(const Tensor& self, const std::optional<Scalar>& min = std::nullopt,
              const std::optional<Scalar>& max = std::nullopt);
// clamp.out(Tensor self, Scalar? min=None, Scalar? max=None, *, Tensor(a!) out) -> Tensor(a!)
Tensor clamp_out(const Tensor& out, const Tensor& self,
                 const std::optional<Scalar>& min = std::nullopt,
                 const std::optional<Scalar>& max = std::nullopt);
// clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor
Tensor clamp(const Tensor& self, const Tensor& min, const Tensor& max);
// clamp_.Tensor(Tensor(a!) self, Tensor? min=None, Tensor? max=None) -> Tensor(a!)
Tensor clamp_(const Tensor& self, const Tensor& min, const Tensor& max);
// clamp.Tensor_out(Tensor self, Tensor? min=None, Tensor? max=None, *, Tensor(a!) out) ->
// Tensor(a!)
Tensor clamp_out(const Tensor& out, const Tensor& self, const Tensor& min, const Tensor& max);

// --- clip ----------------------------------------------------------------------------------------
// clip(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor
Tensor clip(const Tensor& self, const std::optional<Scalar>& min = std::nullopt,
            const std::optional<Scalar>& max = std::nullopt);
// clip_(Tensor(a!) self, Scalar? min=None, Scalar? max=None) -> Tensor(a!)
Tensor clip_(const Tensor& self, const std::optional<Scalar>& min = std::nullopt,
             const std::optional<Scalar>& max = std::nullopt);
// clip.out(Tensor self, Scalar? min=None, Scalar? max=None, *, Tensor(a!) out) -> Tensor(a!)
Tensor clip_out(const Tensor& out, const Tensor& self,
                const std::optional<Scalar>& min = std::nullopt,
                const std::optional<Scalar>& max = std::nullopt);
// clip.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor
Tensor clip(const Tensor& self, const Tensor& min, const Tensor& max);
// clip_.Tensor(Tensor(a!) self, Tensor? min=None, Tensor? max=None) -> Tensor(a!)
Tensor clip_(const Tensor& self, const Tensor& min, const Tensor& max);
// clip.Tensor_out(Tensor self, Tensor? min=None, Tensor? max=None, *, Tensor(a!) out) -> Tensor(a!)
Tensor clip_out(const Tensor& out, const Tensor& self, const Tensor& min, const Tensor& max);

// --- clamp_min -----------------------------------------------------------------------------------
// clamp_min(Tensor self, Scalar min) -> Tensor
Tensor clamp_min(const Tensor& self, const Scalar& min);
// clamp_min_(Tensor(a!) self, Scalar min) -> Tensor(a!)
Tensor clamp_min_(const Tensor& self, const Scalar& min);
// clamp_min.out(Tensor self, Scalar min, *, Tensor(a!) out) -> Tensor(a!)
Tensor clamp_min_out(const Tensor& out, const Tensor& self, const Scalar& min);
// clamp_min.Tensor(Tensor self, Tensor min) -> Tensor
Tensor clamp_min(const Tensor& self, const Tensor& min);
// clamp_min_.Tensor(Tensor(a!) self, Tensor min) -> Tensor(a!)
Tensor clamp_min_(const Tensor& self, const Tensor& min);
// clamp_min.Tensor_out(Tensor self, Tensor min, *, Tensor(a!) out) -> Tensor(a!)
Tensor clamp_min_out(const Tensor& out, const Tensor& self, const Tensor& min);

// --- clamp_max -----------------------------------------------------------------------------------
// clamp_max(Tensor self, Scalar max) -> Tensor
Tensor clamp_max(const Tensor& self, const Scalar& max);
// clamp_max_(Tensor(a!) self, Scalar max) -> Tensor(a!)
Tensor clamp_max_(const Tensor& self, const Scalar& max);
// clamp_max.out(Tensor self, Scalar max, *, Tensor(a!) out) -> Tensor(a!)
Tensor clamp_max_out(const Tensor& out, const Tensor& self, const Scalar& max);
// clamp_max.Tensor(Tensor self, Tensor max) -> Tensor
Tensor clamp_max(const Tensor& self, const Tensor& max);
// clamp_max_.Tensor(Tensor(a!) self, Tensor max) -> Tensor(a!)
Tensor clamp_max_(const Tensor& self, const Tensor& max);
// clamp_max.Tensor_out(Tensor self, Tensor max, *, Tensor(a!) out) -> Tensor(a!)
Tensor clamp_max_out(const Tensor& out, const Tensor& self, const Tensor& max);

// --- maximum -------------------------------------------------------------------------------------
// maximum(Tensor self, Tensor other) -> Tensor
Tensor maximum(const Tensor& self, const Tensor& other);
// maximum.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
Tensor maximum_out(const Tensor& out, const Tensor& self, const Tensor& other);

// --- minimum -------------------------------------------------------------------------------------
// minimum(Tensor self, Tensor other) -> Tensor
Tensor minimum(const Tensor& self, const Tensor& other);
// minimum.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
Tensor minimum_out(const Tensor& out, const Tensor& self, const Tensor& other);

// --- where ---------------------------------------------------------------------------------------
// where.self(Tensor condition, Tensor self, Tensor other) -> Tensor
Tensor where(const Tensor& condition, const Tensor& self, const Tensor& other);
// where.self_out(Tensor condition, Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
Tensor where_out(const Tensor& out, const Tensor& condition, const Tensor& self,
                 const Tensor& other);
// where.ScalarSelf(Tensor condition, Scalar self, Tensor other) -> Tensor
Tensor where(const Tensor& condition, const Scalar& self, const Tensor& other);
// where.ScalarOther(Tensor condition, Tensor self, Scalar other) -> Tensor
Tensor where(const Tensor& condition, const Tensor& self, const Scalar& other);
// where.Scalar(Tensor condition, Scalar self, Scalar other) -> Tensor
Tensor where(const Tensor& condition, const Scalar& self, const Scalar& other);

// --- lerp ----------------------------------------------------------------------------------------
// lerp.Scalar(Tensor self, Tensor end, Scalar weight) -> Tensor
Tensor lerp(const Tensor& self, const Tensor& end, const Scalar& weight);
// lerp_.Scalar(Tensor(a!) self, Tensor end, Scalar weight) -> Tensor(a!)
Tensor lerp_(const Tensor& self, const Tensor& end, const Scalar& weight);
// lerp.Scalar_out(Tensor self, Tensor end, Scalar weight, *, Tensor(a!) out) -> Tensor(a!)
Tensor lerp_out(const Tensor& out, const Tensor& self, const Tensor& end, const Scalar& weight);
// lerp.Tensor(Tensor self, Tensor end, Tensor weight) -> Tensor
Tensor lerp(const Tensor& self, const Tensor& end, const Tensor& weight);
// lerp_.Tensor(Tensor(a!) self, Tensor end, Tensor weight) -> Tensor(a!)
Tensor lerp_(const Tensor& self, const Tensor& end, const Tensor& weight);
// lerp.Tensor_out(Tensor self, Tensor end, Tensor weight, *, Tensor(a!) out) -> Tensor(a!)
Tensor lerp_out(const Tensor& out, const Tensor& self, const Tensor& end, const Tensor& weight);

// --- logical_and ---------------------------------------------------------------------------------
// logical_and(Tensor self, Tensor other) -> Tensor
Tensor logical_and(const Tensor& self, const Tensor& other);
// logical_and_(Tensor(a!) self, Tensor other) -> Tensor(a!)
Tensor logical_and_(const Tensor& self, const Tensor& other);
// logical_and.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
Tensor logical_and_out(const Tensor& out, const Tensor& self, const Tensor& other);

// --- logical_or ----------------------------------------------------------------------------------
// logical_or(Tensor self, Tensor other) -> Tensor
Tensor logical_or(const Tensor& self, const Tensor& other);
// logical_or_(Tensor(a!) self, Tensor other) -> Tensor(a!)
Tensor logical_or_(const Tensor& self, const Tensor& other);
// logical_or.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
Tensor logical_or_out(const Tensor& out, const Tensor& self, const Tensor& other);

// --- logical_xor ---------------------------------------------------------------------------------
// logical_xor(Tensor self, Tensor other) -> Tensor
Tensor logical_xor(const Tensor& self, const Tensor& other);
// logical_xor_(Tensor(a!) self, Tensor other) -> Tensor(a!)
Tensor logical_xor_(const Tensor& self, const Tensor& other);
// logical_xor.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
Tensor logical_xor_out(const Tensor& out, const Tensor& self, const Tensor& other);

// --- logical_not ---------------------------------------------------------------------------------
// logical_not(Tensor self) -> Tensor
Tensor logical_not(const Tensor& self);
// logical_not_(Tensor(a!) self) -> Tensor(a!)
Tensor logical_not_(const Tensor& self);
// logical_not.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor logical_not_out(const Tensor& out, const Tensor& self);

// --- isnan ---------------------------------------------------------------------------------------
// isnan(Tensor self) -> Tensor
Tensor isnan(const Tensor& self);
// isnan.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor isnan_out(const Tensor& out, const Tensor& self);

// --- isinf ---------------------------------------------------------------------------------------
// isinf(Tensor self) -> Tensor
Tensor isinf(const Tensor& self);
// isinf.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor isinf_out(const Tensor& out, const Tensor& self);

// --- isfinite ------------------------------------------------------------------------------------
// isfinite(Tensor self) -> Tensor
Tensor isfinite(const Tensor& self);

// --- isposinf ------------------------------------------------------------------------------------
// isposinf(Tensor self) -> Tensor
Tensor isposinf(const Tensor& self);
// isposinf.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor isposinf_out(const Tensor& out, const Tensor& self);

// --- isneginf ------------------------------------------------------------------------------------
// isneginf(Tensor self) -> Tensor
Tensor isneginf(const Tensor& self);
// isneginf.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor isneginf_out(const Tensor& out, const Tensor& self);

// --- nan_to_num ----------------------------------------------------------------------------------
// nan_to_num(Tensor self, float? nan=None, float? posinf=None, float? neginf=None) -> Tensor
Tensor nan_to_num(const Tensor& self, std::optional<double> nan = std::nullopt,
                  std::optional<double> posinf = std::nullopt,
                  std::optional<double> neginf = std::nullopt);
// nan_to_num_(Tensor(a!) self, float? nan=None, float? posinf=None, float? neginf=None) ->
// Tensor(a!)
Tensor nan_to_num_(const Tensor& self, std::optional<double> nan = std::nullopt,
                   std::optional<double> posinf = std::nullopt,
                   std::optional<double> neginf = std::nullopt);
// nan_to_num.out(Tensor self, float? nan=None, float? posinf=None, float? neginf=None, *,
// Tensor(a!) out) -> Tensor(a!)
Tensor nan_to_num_out(const Tensor& out, const Tensor& self,
                      std::optional<double> nan = std::nullopt,
                      std::optional<double> posinf = std::nullopt,
                      std::optional<double> neginf = std::nullopt);

// --- square --------------------------------------------------------------------------------------
// square(Tensor self) -> Tensor
Tensor square(const Tensor& self);
// square_(Tensor(a!) self) -> Tensor(a!)
Tensor square_(const Tensor& self);
// square.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor square_out(const Tensor& out, const Tensor& self);

// --- positive ------------------------------------------------------------------------------------
// positive(Tensor(a) self) -> Tensor(a)
Tensor positive(const Tensor& self);

// --- bitwise_left_shift --------------------------------------------------------------------------
// bitwise_left_shift.Tensor(Tensor self, Tensor other) -> Tensor
Tensor bitwise_left_shift(const Tensor& self, const Tensor& other);
// bitwise_left_shift_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
Tensor bitwise_left_shift_(const Tensor& self, const Tensor& other);
// bitwise_left_shift.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
Tensor bitwise_left_shift_out(const Tensor& out, const Tensor& self, const Tensor& other);
// bitwise_left_shift.Tensor_Scalar(Tensor self, Scalar other) -> Tensor
Tensor bitwise_left_shift(const Tensor& self, const Scalar& other);
// bitwise_left_shift_.Tensor_Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
Tensor bitwise_left_shift_(const Tensor& self, const Scalar& other);
// bitwise_left_shift.Tensor_Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
Tensor bitwise_left_shift_out(const Tensor& out, const Tensor& self, const Scalar& other);
// bitwise_left_shift.Scalar_Tensor(Scalar self, Tensor other) -> Tensor
Tensor bitwise_left_shift(const Scalar& self, const Tensor& other);
// bitwise_left_shift.Scalar_Tensor_out(Scalar self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
Tensor bitwise_left_shift_out(const Tensor& out, const Scalar& self, const Tensor& other);

// --- bitwise_right_shift -------------------------------------------------------------------------
// bitwise_right_shift.Tensor(Tensor self, Tensor other) -> Tensor
Tensor bitwise_right_shift(const Tensor& self, const Tensor& other);
// bitwise_right_shift_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
Tensor bitwise_right_shift_(const Tensor& self, const Tensor& other);
// bitwise_right_shift.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
Tensor bitwise_right_shift_out(const Tensor& out, const Tensor& self, const Tensor& other);
// bitwise_right_shift.Tensor_Scalar(Tensor self, Scalar other) -> Tensor
Tensor bitwise_right_shift(const Tensor& self, const Scalar& other);
// bitwise_right_shift_.Tensor_Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
Tensor bitwise_right_shift_(const Tensor& self, const Scalar& other);
// bitwise_right_shift.Tensor_Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
Tensor bitwise_right_shift_out(const Tensor& out, const Tensor& self, const Scalar& other);
// bitwise_right_shift.Scalar_Tensor(Scalar self, Tensor other) -> Tensor
Tensor bitwise_right_shift(const Scalar& self, const Tensor& other);
// bitwise_right_shift.Scalar_Tensor_out(Scalar self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
Tensor bitwise_right_shift_out(const Tensor& out, const Scalar& self, const Tensor& other);

}  // namespace opscope::ops
