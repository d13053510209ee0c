// The pointwise family's kernels, for its Library block (core/ops/pointwise.cpp). Private to
// core/ops: callers use the ops:: entry points of core/ops/pointwise.h. Each kernel's C++
// signature follows its schema (out= last).
#pragma once

#include "core/ops/unary.h"

namespace opscope {

namespace cpu {
// core/ops/cpu/pointwise.cpp, pointwise_binary.cpp
Tensor remainder_tensor(const Tensor& self, const Tensor& other);
Tensor remainder_tensor_(const Tensor& self, const Tensor& other);
Tensor remainder_tensor_out(const Tensor& self, const Tensor& other, const Tensor& out);
Tensor remainder_scalar_tensor(const Scalar& self, const Tensor& other);
Tensor fmod_tensor(const Tensor& self, const Tensor& other);
Tensor fmod_tensor_(const Tensor& self, const Tensor& other);
Tensor fmod_tensor_out(const Tensor& self, const Tensor& other, const Tensor& out);
Tensor floor_divide(const Tensor& self, const Tensor& other);
Tensor floor_divide_tensor_(const Tensor& self, const Tensor& other);
Tensor floor_divide_out(const Tensor& self, const Tensor& other, const Tensor& out);
Tensor abs_out(const Tensor& self, const Tensor& out);
Tensor sign(const Tensor& self);
Tensor sign_(const Tensor& self);
Tensor sign_out(const Tensor& self, const Tensor& out);
Tensor exp(const Tensor& self);
Tensor exp_(const Tensor& self);
Tensor exp_out(const Tensor& self, const Tensor& out);
Tensor exp2(const Tensor& self);
Tensor exp2_(const Tensor& self);
Tensor exp2_out(const Tensor& self, const Tensor& out);
Tensor expm1(const Tensor& self);
Tensor expm1_(const Tensor& self);
Tensor expm1_out(const Tensor& self, const Tensor& out);
Tensor log(const Tensor& self);
Tensor log_(const Tensor& self);
Tensor log_out(const Tensor& self, const Tensor& out);
Tensor log2(const Tensor& self);
Tensor log2_(const Tensor& self);
Tensor log2_out(const Tensor& self, const Tensor& out);
Tensor log10(const Tensor& self);
Tensor log10_(const Tensor& self);
Tensor log10_out(const Tensor& self, const Tensor& out);
Tensor log1p(const Tensor& self);
Tensor log1p_(const Tensor& self);
Tensor log1p_out(const Tensor& self, const Tensor& out);
Tensor sqrt(const Tensor& self);
Tensor sqrt_(const Tensor& self);
Tensor sqrt_out(const Tensor& self, const Tensor& out);
Tensor rsqrt(const Tensor& self);
Tensor rsqrt_(const Tensor& self);
Tensor rsqrt_out(const Tensor& self, const Tensor& out);
Tensor sin(const Tensor& self);
Tensor sin_(const Tensor& self);
Tensor sin_out(const Tensor& self, const Tensor& out);
Tensor cos(const Tensor& self);
Tensor cos_(const Tensor& self);
Tensor cos_out(const Tensor& self, const Tensor& out);
Tensor tan(const Tensor& self);
Tensor tan_(const Tensor& self);
Tensor tan_out(const Tensor& self, const Tensor& out);
Tensor asin(const Tensor& self);
Tensor asin_(const Tensor& self);
Tensor asin_out(const Tensor& self, const Tensor& out);
Tensor acos(const Tensor& self);
Tensor acos_(const Tensor& self);
Tensor acos_out(const Tensor& self, const Tensor& out);
Tensor atan(const Tensor& self);
Tensor atan_(const Tensor& self);
Tensor atan_out(const Tensor& self, const Tensor& out);
Tensor sinh(const Tensor& self);
Tensor sinh_(const Tensor& self);
Tensor sinh_out(const Tensor& self, const Tensor& out);
Tensor cosh(const Tensor& self);
Tensor cosh_(const Tensor& self);
Tensor cosh_out(const Tensor& self, const Tensor& out);
Tensor tanh(const Tensor& self);
Tensor tanh_(const Tensor& self);
Tensor tanh_out(const Tensor& self, const Tensor& out);
Tensor sigmoid(const Tensor& self);
Tensor sigmoid_(const Tensor& self);
Tensor sigmoid_out(const Tensor& self, const Tensor& out);
Tensor erf(const Tensor& self);
Tensor erf_(const Tensor& self);
Tensor erf_out(const Tensor& self, const Tensor& out);
Tensor floor(const Tensor& self);
Tensor floor_(const Tensor& self);
Tensor floor_out(const Tensor& self, const Tensor& out);
Tensor ceil(const Tensor& self);
Tensor ceil_(const Tensor& self);
Tensor ceil_out(const Tensor& self, const Tensor& out);
Tensor round(const Tensor& self);
Tensor round_(const Tensor& self);
Tensor round_out(const Tensor& self, const Tensor& out);
Tensor trunc(const Tensor& self);
Tensor trunc_(const Tensor& self);
Tensor trunc_out(const Tensor& self, const Tensor& out);
Tensor reciprocal(const Tensor& self);
Tensor reciprocal_(const Tensor& self);
Tensor reciprocal_out(const Tensor& self, const Tensor& out);
Tensor round_decimals(const Tensor& self, int64_t decimals);
Tensor round_decimals_(const Tensor& self, int64_t decimals);
Tensor round_decimals_out(const Tensor& self, int64_t decimals, const Tensor& out);
Tensor atan2(const Tensor& self, const Tensor& other);
Tensor atan2_(const Tensor& self, const Tensor& other);
Tensor atan2_out(const Tensor& self, const Tensor& other, const Tensor& out);
Tensor relu(const Tensor& self);
Tensor relu_(const Tensor& self);
Tensor gelu(const Tensor& self, std::string_view approximate);
Tensor gelu_(const Tensor& self, std::string_view approximate);
Tensor gelu_out(const Tensor& self, std::string_view approximate, const Tensor& out);
Tensor silu(const Tensor& self);
Tensor silu_(const Tensor& self);
Tensor silu_out(const Tensor& self, const Tensor& out);
Tensor softplus(const Tensor& self, const Scalar& beta, const Scalar& threshold);
Tensor softplus_out(const Tensor& self, const Scalar& beta, const Scalar& threshold,
                    const Tensor& out);
Tensor clamp(const Tensor& self, const std::optional<Scalar>& min,
             const std::optional<Scalar>& max);
Tensor clamp_(const Tensor& self, const std::optional<Scalar>& min,
              const std::optional<Scalar>& max);
Tensor clamp_out(const Tensor& self, const std::optional<Scalar>& min,
                 const std::optional<Scalar>& max, const Tensor& out);
Tensor clamp_tensor(const Tensor& self, const Tensor& min, const Tensor& max);
Tensor clamp_tensor_(const Tensor& self, const Tensor& min, const Tensor& max);
Tensor clamp_tensor_out(const Tensor& self, const Tensor& min, const Tensor& max,
                        const Tensor& out);
Tensor clamp_min(const Tensor& self, const Scalar& min);
Tensor clamp_min_(const Tensor& self, const Scalar& min);
Tensor clamp_min_out(const Tensor& self, const Scalar& min, const Tensor& out);
Tensor clamp_min_tensor(const Tensor& self, const Tensor& min);
Tensor clamp_min_tensor_(const Tensor& self, const Tensor& min);
Tensor clamp_min_tensor_out(const Tensor& self, const Tensor& min, const Tensor& out);
Tensor clamp_max(const Tensor& self, const Scalar& max);
Tensor clamp_max_(const Tensor& self, const Scalar& max);
Tensor clamp_max_out(const Tensor& self, const Scalar& max, const Tensor& out);
Tensor clamp_max_tensor(const Tensor& self, const Tensor& max);
Tensor clamp_max_tensor_(const Tensor& self, const Tensor& max);
Tensor clamp_max_tensor_out(const Tensor& self, const Tensor& max, const Tensor& out);
Tensor maximum(const Tensor& self, const Tensor& other);
Tensor maximum_out(const Tensor& self, const Tensor& other, const Tensor& out);
Tensor minimum(const Tensor& self, const Tensor& other);
Tensor minimum_out(const Tensor& self, const Tensor& other, const Tensor& out);
Tensor where_self(const Tensor& condition, const Tensor& self, const Tensor& other);
Tensor where_self_out(const Tensor& condition, const Tensor& self, const Tensor& other,
                      const Tensor& out);
Tensor lerp_scalar(const Tensor& self, const Tensor& end, const Scalar& weight);
Tensor lerp_scalar_(const Tensor& self, const Tensor& end, const Scalar& weight);
Tensor lerp_scalar_out(const Tensor& self, const Tensor& end, const Scalar& weight,
                       const Tensor& out);
Tensor lerp_tensor(const Tensor& self, const Tensor& end, const Tensor& weight);
Tensor lerp_tensor_(const Tensor& self, const Tensor& end, const Tensor& weight);
Tensor lerp_tensor_out(const Tensor& self, const Tensor& end, const Tensor& weight,
                       const Tensor& out);
Tensor logical_and_out(const Tensor& self, const Tensor& other, const Tensor& out);
Tensor logical_or_out(const Tensor& self, const Tensor& other, const Tensor& out);
Tensor logical_xor_out(const Tensor& self, const Tensor& other, const Tensor& out);
Tensor logical_not_out(const Tensor& self, const Tensor& out);
Tensor isnan(const Tensor& self);
Tensor isposinf(const Tensor& self);
Tensor isposinf_out(const Tensor& self, const Tensor& out);
Tensor isneginf(const Tensor& self);
Tensor isneginf_out(const Tensor& self, const Tensor& out);
Tensor nan_to_num_out(const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                      std::optional<double> neginf, const Tensor& out);
Tensor bitwise_left_shift_tensor(const Tensor& self, const Tensor& other);
Tensor bitwise_left_shift_tensor_(const Tensor& self, const Tensor& other);
Tensor bitwise_left_shift_tensor_out(const Tensor& self, const Tensor& other, const Tensor& out);
Tensor bitwise_right_shift_tensor(const Tensor& self, const Tensor& other);
Tensor bitwise_right_shift_tensor_(const Tensor& self, const Tensor& other);
Tensor bitwise_right_shift_tensor_out(const Tensor& self, const Tensor& other, const Tensor& out);
}  // namespace cpu

namespace composite {
// core/ops/composite/pointwise.cpp
Tensor remainder_scalar(const Tensor& self, const Scalar& other);
Tensor remainder_scalar_(const Tensor& self, const Scalar& other);
Tensor remainder_scalar_out(const Tensor& self, const Scalar& other, const Tensor& out);
Tensor remainder_scalar_tensor_out(const Scalar& self, const Tensor& other, const Tensor& out);
Tensor fmod_scalar(const Tensor& self, const Scalar& other);
Tensor fmod_scalar_(const Tensor& self, const Scalar& other);
Tensor fmod_scalar_out(const Tensor& self, const Scalar& other, const Tensor& out);
Tensor floor_divide_scalar(const Tensor& self, const Scalar& other);
Tensor floor_divide_scalar_(const Tensor& self, const Scalar& other);
Tensor abs(const Tensor& self);
Tensor abs_(const Tensor& self);
Tensor absolute(const Tensor& self);
Tensor absolute_(const Tensor& self);
Tensor absolute_out(const Tensor& self, const Tensor& out);
Tensor arctan2(const Tensor& self, const Tensor& other);
Tensor arctan2_(const Tensor& self, const Tensor& other);
Tensor arctan2_out(const Tensor& self, const Tensor& other, const Tensor& out);
Tensor relu_out(const Tensor& self, const Tensor& out);
Tensor clip(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max);
Tensor clip_(const Tensor& self, const std::optional<Scalar>& min,
             const std::optional<Scalar>& max);
Tensor clip_out(const Tensor& self, const std::optional<Scalar>& min,
                const std::optional<Scalar>& max, const Tensor& out);
Tensor clip_tensor(const Tensor& self, const Tensor& min, const Tensor& max);
Tensor clip_tensor_(const Tensor& self, const Tensor& min, const Tensor& max);
Tensor clip_tensor_out(const Tensor& self, const Tensor& min, const Tensor& max, const Tensor& out);
Tensor where_scalarself(const Tensor& condition, const Scalar& self, const Tensor& other);
Tensor where_scalarother(const Tensor& condition, const Tensor& self, const Scalar& other);
Tensor where_scalar(const Tensor& condition, const Scalar& self, const Scalar& other);
std::vector<Tensor> where_condition(const Tensor& condition);
Tensor logical_and(const Tensor& self, const Tensor& other);
Tensor logical_and_(const Tensor& self, const Tensor& other);
Tensor logical_or(const Tensor& self, const Tensor& other);
Tensor logical_or_(const Tensor& self, const Tensor& other);
Tensor logical_xor(const Tensor& self, const Tensor& other);
Tensor logical_xor_(const Tensor& self, const Tensor& other);
Tensor logical_not(const Tensor& self);
Tensor logical_not_(const Tensor& self);
Tensor isnan_out(const Tensor& self, const Tensor& out);
Tensor isinf(const Tensor& self);
Tensor isinf_out(const Tensor& self, const Tensor& out);
Tensor isfinite(const Tensor& self);
Tensor nan_to_num(const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                  std::optional<double> neginf);
Tensor nan_to_num_(const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                   std::optional<double> neginf);
Tensor square(const Tensor& self);
Tensor square_(const Tensor& self);
Tensor square_out(const Tensor& self, const Tensor& out);
Tensor positive(const Tensor& self);
Tensor bitwise_left_shift_tensor_scalar(const Tensor& self, const Scalar& other);
Tensor bitwise_left_shift_tensor_scalar_(const Tensor& self, const Scalar& other);
Tensor bitwise_left_shift_tensor_scalar_out(const Tensor& self, const Scalar& other,
                                            const Tensor& out);
Tensor bitwise_left_shift_scalar_tensor(const Scalar& self, const Tensor& other);
Tensor bitwise_left_shift_scalar_tensor_out(const Scalar& self, const Tensor& other,
                                            const Tensor& out);
Tensor bitwise_right_shift_tensor_scalar(const Tensor& self, const Scalar& other);
Tensor bitwise_right_shift_tensor_scalar_(const Tensor& self, const Scalar& other);
Tensor bitwise_right_shift_tensor_scalar_out(const Tensor& self, const Scalar& other,
                                             const Tensor& out);
Tensor bitwise_right_shift_scalar_tensor(const Scalar& self, const Tensor& other);
Tensor bitwise_right_shift_scalar_tensor_out(const Scalar& self, const Tensor& other,
                                             const Tensor& out);
}  // namespace composite

}  // namespace opscope
