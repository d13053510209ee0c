// The C++ entry points of the pointwise family (core/ops/pointwise.h): each calls its op through
// the dispatcher. Schemas and kernels are registered in core/ops/pointwise.cpp.
#include "core/dispatch/Dispatcher.h"
#include "core/ops/pointwise.h"

namespace opscope::ops {

Tensor remainder(const Tensor& self, const Tensor& other) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::remainder.Tensor");
  return op.call(self, other);
}

Tensor remainder_(const Tensor& self, const Tensor& other) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::remainder_.Tensor");
  return op.call(self, other);
}

Tensor remainder_out(const Tensor& out, const Tensor& self, const Tensor& other) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Tensor&, const Tensor&)>("aten::remainder.Tensor_out");
  return op.call(self, other, out);
}

Tensor remainder(const Tensor& self, const Scalar& other) {
  static const auto op = typed_op<Tensor(const Tensor&, const Scalar&)>("aten::remainder.Scalar");
  return op.call(self, other);
}

Tensor remainder_(const Tensor& self, const Scalar& other) {
  static const auto op = typed_op<Tensor(const Tensor&, const Scalar&)>("aten::remainder_.Scalar");
  return op.call(self, other);
}

Tensor remainder_out(const Tensor& out, const Tensor& self, const Scalar& other) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Scalar&, const Tensor&)>("aten::remainder.Scalar_out");
  return op.call(self, other, out);
}

Tensor remainder(const Scalar& self, const Tensor& other) {
  static const auto op =
      typed_op<Tensor(const Scalar&, const Tensor&)>("aten::remainder.Scalar_Tensor");
  return op.call(self, other);
}

Tensor remainder_out(const Tensor& out, const Scalar& self, const Tensor& other) {
  static const auto op = typed_op<Tensor(const Scalar&, const Tensor&, const Tensor&)>(
      "aten::remainder.Scalar_Tensor_out");
  return op.call(self, other, out);
}

Tensor fmod(const Tensor& self, const Tensor& other) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::fmod.Tensor");
  return op.call(self, other);
}

Tensor fmod_(const Tensor& self, const Tensor& other) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::fmod_.Tensor");
  return op.call(self, other);
}

Tensor fmod_out(const Tensor& out, const Tensor& self, const Tensor& other) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Tensor&, const Tensor&)>("aten::fmod.Tensor_out");
  return op.call(self, other, out);
}

Tensor fmod(const Tensor& self, const Scalar& other) {
  static const auto op = typed_op<Tensor(const Tensor&, const Scalar&)>("aten::fmod.Scalar");
  return op.call(self, other);
}

Tensor fmod_(const Tensor& self, const Scalar& other) {
  static const auto op = typed_op<Tensor(const Tensor&, const Scalar&)>("aten::fmod_.Scalar");
  return op.call(self, other);
}

Tensor fmod_out(const Tensor& out, const Tensor& self, const Scalar& other) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Scalar&, const Tensor&)>("aten::fmod.Scalar_out");
  return op.call(self, other, out);
}

Tensor floor_divide(const Tensor& self, const Tensor& other) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::floor_divide");
  return op.call(self, other);
}

Tensor floor_divide_(const Tensor& self, const Tensor& other) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Tensor&)>("aten::floor_divide_.Tensor");
  return op.call(self, other);
}

Tensor floor_divide_out(const Tensor& out, const Tensor& self, const Tensor& other) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Tensor&, const Tensor&)>("aten::floor_divide.out");
  return op.call(self, other, out);
}

Tensor floor_divide(const Tensor& self, const Scalar& other) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Scalar&)>("aten::floor_divide.Scalar");
  return op.call(self, other);
}

Tensor floor_divide_(const Tensor& self, const Scalar& other) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Scalar&)>("aten::floor_divide_.Scalar");
  return op.call(self, other);
}

Tensor abs(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::abs");
  return op.call(self);
}

Tensor abs_(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::abs_");
  return op.call(self);
}

Tensor abs_out(const Tensor& out, const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::abs.out");
  return op.call(self, out);
}

Tensor absolute(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::absolute");
  return op.call(self);
}

Tensor absolute_(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::absolute_");
  return op.call(self);
}

Tensor absolute_out(const Tensor& out, const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::absolute.out");
  return op.call(self, out);
}

Tensor sign(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::sign");
  return op.call(self);
}

Tensor sign_(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::sign_");
  return op.call(self);
}

Tensor sign_out(const Tensor& out, const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::sign.out");
  return op.call(self, out);
}

Tensor exp(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::exp");
  return op.call(self);
}

Tensor exp_(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::exp_");
  return op.call(self);
}

Tensor exp_out(const Tensor& out, const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::exp.out");
  return op.call(self, out);
}

Tensor exp2(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::exp2");
  return op.call(self);
}

Tensor exp2_(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::exp2_");
  return op.call(self);
}

Tensor exp2_out(const Tensor& out, const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::exp2.out");
  return op.call(self, out);
}

Tensor expm1(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::expm1");
  return op.call(self);
}

Tensor expm1_(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::expm1_");
  return op.call(self);
}

Tensor expm1_out(const Tensor& out, const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::expm1.out");
  return op.call(self, out);
}

Tensor log(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::log");
  return op.call(self);
}

Tensor log_(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::log_");
  return op.call(self);
}

Tensor log_out(const Tensor& out, const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::log.out");
  return op.call(self, out);
}

Tensor log2(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::log2");
  return op.call(self);
}

Tensor log2_(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::log2_");
  return op.call(self);
}

Tensor log2_out(const Tensor& out, const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::log2.out");
  return op.call(self, out);
}

Tensor log10(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::log10");
  return op.call(self);
}

Tensor log10_(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::log10_");
  return op.call(self);
}

Tensor log10_out(const Tensor& out, const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::log10.out");
  return op.call(self, out);
}

Tensor log1p(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::log1p");
  return op.call(self);
}

Tensor log1p_(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::log1p_");
  return op.call(self);
}

Tensor log1p_out(const Tensor& out, const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::log1p.out");
  return op.call(self, out);
}

Tensor sqrt(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::sqrt");
  return op.call(self);
}

Tensor sqrt_(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::sqrt_");
  return op.call(self);
}

Tensor sqrt_out(const Tensor& out, const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::sqrt.out");
  return op.call(self, out);
}

Tensor rsqrt(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::rsqrt");
  return op.call(self);
}

Tensor rsqrt_(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::rsqrt_");
  return op.call(self);
}

Tensor rsqrt_out(const Tensor& out, const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::rsqrt.out");
  return op.call(self, out);
}

Tensor sin(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::sin");
  return op.call(self);
}

Tensor sin_(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::sin_");
  return op.call(self);
}

Tensor sin_out(const Tensor& out, const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::sin.out");
  return op.call(self, out);
}

Tensor cos(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::cos");
  return op.call(self);
}

Tensor cos_(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::cos_");
  return op.call(self);
}

Tensor cos_out(const Tensor& out, const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::cos.out");
  return op.call(self, out);
}

Tensor tan(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::tan");
  return op.call(self);
}

Tensor tan_(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::tan_");
  return op.call(self);
}

Tensor tan_out(const Tensor& out, const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::tan.out");
  return op.call(self, out);
}

Tensor asin(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::asin");
  return op.call(self);
}

Tensor asin_(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::asin_");
  return op.call(self);
}

Tensor asin_out(const Tensor& out, const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::asin.out");
  return op.call(self, out);
}

Tensor acos(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::acos");
  return op.call(self);
}

Tensor acos_(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::acos_");
  return op.call(self);
}

Tensor acos_out(const Tensor& out, const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::acos.out");
  return op.call(self, out);
}

Tensor atan(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::atan");
  return op.call(self);
}

Tensor atan_(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::atan_");
  return op.call(self);
}

Tensor atan_out(const Tensor& out, const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::atan.out");
  return op.call(self, out);
}

Tensor sinh(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::sinh");
  return op.call(self);
}

Tensor sinh_(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::sinh_");
  return op.call(self);
}

Tensor sinh_out(const Tensor& out, const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::sinh.out");
  return op.call(self, out);
}

Tensor cosh(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::cosh");
  return op.call(self);
}

Tensor cosh_(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::cosh_");
  return op.call(self);
}

Tensor cosh_out(const Tensor& out, const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::cosh.out");
  return op.call(self, out);
}

Tensor tanh(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::tanh");
  return op.call(self);
}

Tensor tanh_(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::tanh_");
  return op.call(self);
}

Tensor tanh_out(const Tensor& out, const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::tanh.out");
  return op.call(self, out);
}

Tensor sigmoid(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::sigmoid");
  return op.call(self);
}

Tensor sigmoid_(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::sigmoid_");
  return op.call(self);
}

Tensor sigmoid_out(const Tensor& out, const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::sigmoid.out");
  return op.call(self, out);
}

Tensor erf(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::erf");
  return op.call(self);
}

Tensor erf_(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::erf_");
  return op.call(self);
}

Tensor erf_out(const Tensor& out, const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::erf.out");
  return op.call(self, out);
}

Tensor floor(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::floor");
  return op.call(self);
}

Tensor floor_(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::floor_");
  return op.call(self);
}

Tensor floor_out(const Tensor& out, const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::floor.out");
  return op.call(self, out);
}

Tensor ceil(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::ceil");
  return op.call(self);
}

Tensor ceil_(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::ceil_");
  return op.call(self);
}

Tensor ceil_out(const Tensor& out, const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::ceil.out");
  return op.call(self, out);
}

Tensor round(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::round");
  return op.call(self);
}

Tensor round_(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::round_");
  return op.call(self);
}

Tensor round_out(const Tensor& out, const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::round.out");
  return op.call(self, out);
}

Tensor trunc(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::trunc");
  return op.call(self);
}

Tensor trunc_(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::trunc_");
  return op.call(self);
}

Tensor trunc_out(const Tensor& out, const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::trunc.out");
  return op.call(self, out);
}

Tensor reciprocal(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::reciprocal");
  return op.call(self);
}

Tensor reciprocal_(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::reciprocal_");
  return op.call(self);
}

Tensor reciprocal_out(const Tensor& out, const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::reciprocal.out");
  return op.call(self, out);
}

Tensor round(const Tensor& self, int64_t decimals) {
  static const auto op = typed_op<Tensor(const Tensor&, int64_t)>("aten::round.decimals");
  return op.call(self, decimals);
}

Tensor round_(const Tensor& self, int64_t decimals) {
  static const auto op = typed_op<Tensor(const Tensor&, int64_t)>("aten::round_.decimals");
  return op.call(self, decimals);
}

Tensor round_out(const Tensor& out, const Tensor& self, int64_t decimals) {
  static const auto op =
      typed_op<Tensor(const Tensor&, int64_t, const Tensor&)>("aten::round.decimals_out");
  return op.call(self, decimals, out);
}

Tensor atan2(const Tensor& self, const Tensor& other) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::atan2");
  return op.call(self, other);
}

Tensor atan2_(const Tensor& self, const Tensor& other) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::atan2_");
  return op.call(self, other);
}

Tensor atan2_out(const Tensor& out, const Tensor& self, const Tensor& other) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Tensor&, const Tensor&)>("aten::atan2.out");
  return op.call(self, other, out);
}

Tensor arctan2(const Tensor& self, const Tensor& other) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::arctan2");
  return op.call(self, other);
}

Tensor arctan2_(const Tensor& self, const Tensor& other) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::arctan2_");
  return op.call(self, other);
}

Tensor arctan2_out(const Tensor& out, const Tensor& self, const Tensor& other) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Tensor&, const Tensor&)>("aten::arctan2.out");
  return op.call(self, other, out);
}

Tensor relu(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::relu");
  return op.call(self);
}

Tensor relu_(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::relu_");
  return op.call(self);
}

Tensor relu_out(const Tensor& out, const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::relu.out");
  return op.call(self, out);
}

Tensor gelu(const Tensor& self, std::string_view approximate) {
  static const auto op = typed_op<Tensor(const Tensor&, std::string_view)>("aten::gelu");
  return op.call(self, approximate);
}

Tensor gelu_(const Tensor& self, std::string_view approximate) {
  static const auto op = typed_op<Tensor(const Tensor&, std::string_view)>("aten::gelu_");
  return op.call(self, approximate);
}

Tensor gelu_out(const Tensor& out, const Tensor& self, std::string_view approximate) {
  static const auto op =
      typed_op<Tensor(const Tensor&, std::string_view, const Tensor&)>("aten::gelu.out");
  return op.call(self, approximate, out);
}

Tensor silu(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::silu");
  return op.call(self);
}

Tensor silu_(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::silu_");
  return op.call(self);
}

Tensor silu_out(const Tensor& out, const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::silu.out");
  return op.call(self, out);
}

Tensor softplus(const Tensor& self, const Scalar& beta, const Scalar& threshold) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Scalar&, const Scalar&)>("aten::softplus");
  return op.call(self, beta, threshold);
}

Tensor softplus_out(const Tensor& out, const Tensor& self, const Scalar& beta,
                    const Scalar& threshold) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Scalar&, const Scalar&, const Tensor&)>(
          "aten::softplus.out");
  return op.call(self, beta, threshold, out);
}

Tensor clamp(const Tensor& self, const std::optional<Scalar>& min,
             const std::optional<Scalar>& max) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const std::optional<Scalar>&, const std::optional<Scalar>&)>(
          "aten::clamp");
  return op.call(self, min, max);
}

Tensor clamp_(const Tensor& self, const std::optional<Scalar>& min,
              const std::optional<Scalar>& max) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const std::optional<Scalar>&, const std::optional<Scalar>&)>(
          "aten::clamp_");
  return op.call(self, min, max);
}

Tensor clamp_out(const Tensor& out, const Tensor& self, const std::optional<Scalar>& min,
                 const std::optional<Scalar>& max) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const std::optional<Scalar>&, const std::optional<Scalar>&,
                      const Tensor&)>("aten::clamp.out");
  return op.call(self, min, max, out);
}

Tensor clamp(const Tensor& self, const Tensor& min, const Tensor& max) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Tensor&, const Tensor&)>("aten::clamp.Tensor");
  return op.call(self, min, max);
}

Tensor clamp_(const Tensor& self, const Tensor& min, const Tensor& max) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Tensor&, const Tensor&)>("aten::clamp_.Tensor");
  return op.call(self, min, max);
}

Tensor clamp_out(const Tensor& out, const Tensor& self, const Tensor& min, const Tensor& max) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Tensor&, const Tensor&, const Tensor&)>(
          "aten::clamp.Tensor_out");
  return op.call(self, min, max, out);
}

Tensor clip(const Tensor& self, const std::optional<Scalar>& min,
            const std::optional<Scalar>& max) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const std::optional<Scalar>&, const std::optional<Scalar>&)>(
          "aten::clip");
  return op.call(self, min, max);
}

Tensor clip_(const Tensor& self, const std::optional<Scalar>& min,
             const std::optional<Scalar>& max) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const std::optional<Scalar>&, const std::optional<Scalar>&)>(
          "aten::clip_");
  return op.call(self, min, max);
}

Tensor clip_out(const Tensor& out, const Tensor& self, const std::optional<Scalar>& min,
                const std::optional<Scalar>& max) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const std::optional<Scalar>&, const std::optional<Scalar>&,
                      const Tensor&)>("aten::clip.out");
  return op.call(self, min, max, out);
}

Tensor clip(const Tensor& self, const Tensor& min, const Tensor& max) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Tensor&, const Tensor&)>("aten::clip.Tensor");
  return op.call(self, min, max);
}

Tensor clip_(const Tensor& self, const Tensor& min, const Tensor& max) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Tensor&, const Tensor&)>("aten::clip_.Tensor");
  return op.call(self, min, max);
}

Tensor clip_out(const Tensor& out, const Tensor& self, const Tensor& min, const Tensor& max) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Tensor&, const Tensor&, const Tensor&)>(
          "aten::clip.Tensor_out");
  return op.call(self, min, max, out);
}

Tensor clamp_min(const Tensor& self, const Scalar& min) {
  static const auto op = typed_op<Tensor(const Tensor&, const Scalar&)>("aten::clamp_min");
  return op.call(self, min);
}

Tensor clamp_min_(const Tensor& self, const Scalar& min) {
  static const auto op = typed_op<Tensor(const Tensor&, const Scalar&)>("aten::clamp_min_");
  return op.call(self, min);
}

Tensor clamp_min_out(const Tensor& out, const Tensor& self, const Scalar& min) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Scalar&, const Tensor&)>("aten::clamp_min.out");
  return op.call(self, min, out);
}

Tensor clamp_min(const Tensor& self, const Tensor& min) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::clamp_min.Tensor");
  return op.call(self, min);
}

Tensor clamp_min_(const Tensor& self, const Tensor& min) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::clamp_min_.Tensor");
  return op.call(self, min);
}

Tensor clamp_min_out(const Tensor& out, const Tensor& self, const Tensor& min) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Tensor&, const Tensor&)>("aten::clamp_min.Tensor_out");
  return op.call(self, min, out);
}

Tensor clamp_max(const Tensor& self, const Scalar& max) {
  static const auto op = typed_op<Tensor(const Tensor&, const Scalar&)>("aten::clamp_max");
  return op.call(self, max);
}

Tensor clamp_max_(const Tensor& self, const Scalar& max) {
  static const auto op = typed_op<Tensor(const Tensor&, const Scalar&)>("aten::clamp_max_");
  return op.call(self, max);
}

Tensor clamp_max_out(const Tensor& out, const Tensor& self, const Scalar& max) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Scalar&, const Tensor&)>("aten::clamp_max.out");
  return op.call(self, max, out);
}

Tensor clamp_max(const Tensor& self, const Tensor& max) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::clamp_max.Tensor");
  return op.call(self, max);
}

Tensor clamp_max_(const Tensor& self, const Tensor& max) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::clamp_max_.Tensor");
  return op.call(self, max);
}

Tensor clamp_max_out(const Tensor& out, const Tensor& self, const Tensor& max) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Tensor&, const Tensor&)>("aten::clamp_max.Tensor_out");
  return op.call(self, max, out);
}

Tensor maximum(const Tensor& self, const Tensor& other) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::maximum");
  return op.call(self, other);
}

Tensor maximum_out(const Tensor& out, const Tensor& self, const Tensor& other) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Tensor&, const Tensor&)>("aten::maximum.out");
  return op.call(self, other, out);
}

Tensor minimum(const Tensor& self, const Tensor& other) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::minimum");
  return op.call(self, other);
}

Tensor minimum_out(const Tensor& out, const Tensor& self, const Tensor& other) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Tensor&, const Tensor&)>("aten::minimum.out");
  return op.call(self, other, out);
}

Tensor where(const Tensor& condition, const Tensor& self, const Tensor& other) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Tensor&, const Tensor&)>("aten::where.self");
  return op.call(condition, self, other);
}

Tensor where_out(const Tensor& out, const Tensor& condition, const Tensor& self,
                 const Tensor& other) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Tensor&, const Tensor&, const Tensor&)>(
          "aten::where.self_out");
  return op.call(condition, self, other, out);
}

Tensor where(const Tensor& condition, const Scalar& self, const Tensor& other) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Scalar&, const Tensor&)>("aten::where.ScalarSelf");
  return op.call(condition, self, other);
}

Tensor where(const Tensor& condition, const Tensor& self, const Scalar& other) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Tensor&, const Scalar&)>("aten::where.ScalarOther");
  return op.call(condition, self, other);
}

Tensor where(const Tensor& condition, const Scalar& self, const Scalar& other) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Scalar&, const Scalar&)>("aten::where.Scalar");
  return op.call(condition, self, other);
}

Tensor lerp(const Tensor& self, const Tensor& end, const Scalar& weight) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Tensor&, const Scalar&)>("aten::lerp.Scalar");
  return op.call(self, end, weight);
}

Tensor lerp_(const Tensor& self, const Tensor& end, const Scalar& weight) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Tensor&, const Scalar&)>("aten::lerp_.Scalar");
  return op.call(self, end, weight);
}

Tensor lerp_out(const Tensor& out, const Tensor& self, const Tensor& end, const Scalar& weight) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Tensor&, const Scalar&, const Tensor&)>(
          "aten::lerp.Scalar_out");
  return op.call(self, end, weight, out);
}

Tensor lerp(const Tensor& self, const Tensor& end, const Tensor& weight) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Tensor&, const Tensor&)>("aten::lerp.Tensor");
  return op.call(self, end, weight);
}

Tensor lerp_(const Tensor& self, const Tensor& end, const Tensor& weight) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Tensor&, const Tensor&)>("aten::lerp_.Tensor");
  return op.call(self, end, weight);
}

Tensor lerp_out(const Tensor& out, const Tensor& self, const Tensor& end, const Tensor& weight) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Tensor&, const Tensor&, const Tensor&)>(
          "aten::lerp.Tensor_out");
  return op.call(self, end, weight, out);
}

Tensor logical_and(const Tensor& self, const Tensor& other) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::logical_and");
  return op.call(self, other);
}

Tensor logical_and_(const Tensor& self, const Tensor& other) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::logical_and_");
  return op.call(self, other);
}

Tensor logical_and_out(const Tensor& out, const Tensor& self, const Tensor& other) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Tensor&, const Tensor&)>("aten::logical_and.out");
  return op.call(self, other, out);
}

Tensor logical_or(const Tensor& self, const Tensor& other) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::logical_or");
  return op.call(self, other);
}

Tensor logical_or_(const Tensor& self, const Tensor& other) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::logical_or_");
  return op.call(self, other);
}

Tensor logical_or_out(const Tensor& out, const Tensor& self, const Tensor& other) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Tensor&, const Tensor&)>("aten::logical_or.out");
  return op.call(self, other, out);
}

Tensor logical_xor(const Tensor& self, const Tensor& other) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::logical_xor");
  return op.call(self, other);
}

Tensor logical_xor_(const Tensor& self, const Tensor& other) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::logical_xor_");
  return op.call(self, other);
}

Tensor logical_xor_out(const Tensor& out, const Tensor& self, const Tensor& other) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Tensor&, const Tensor&)>("aten::logical_xor.out");
  return op.call(self, other, out);
}

Tensor logical_not(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::logical_not");
  return op.call(self);
}

Tensor logical_not_(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::logical_not_");
  return op.call(self);
}

Tensor logical_not_out(const Tensor& out, const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::logical_not.out");
  return op.call(self, out);
}

Tensor isnan(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::isnan");
  return op.call(self);
}

Tensor isnan_out(const Tensor& out, const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::isnan.out");
  return op.call(self, out);
}

Tensor isinf(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::isinf");
  return op.call(self);
}

Tensor isinf_out(const Tensor& out, const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::isinf.out");
  return op.call(self, out);
}

Tensor isfinite(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::isfinite");
  return op.call(self);
}

Tensor isposinf(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::isposinf");
  return op.call(self);
}

Tensor isposinf_out(const Tensor& out, const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::isposinf.out");
  return op.call(self, out);
}

Tensor isneginf(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::isneginf");
  return op.call(self);
}

Tensor isneginf_out(const Tensor& out, const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::isneginf.out");
  return op.call(self, out);
}

Tensor nan_to_num(const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                  std::optional<double> neginf) {
  static const auto op =
      typed_op<Tensor(const Tensor&, std::optional<double>, std::optional<double>,
                      std::optional<double>)>("aten::nan_to_num");
  return op.call(self, nan, posinf, neginf);
}

Tensor nan_to_num_(const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                   std::optional<double> neginf) {
  static const auto op =
      typed_op<Tensor(const Tensor&, std::optional<double>, std::optional<double>,
                      std::optional<double>)>("aten::nan_to_num_");
  return op.call(self, nan, posinf, neginf);
}

Tensor nan_to_num_out(const Tensor& out, const Tensor& self, std::optional<double> nan,
                      std::optional<double> posinf, std::optional<double> neginf) {
  static const auto op =
      typed_op<Tensor(const Tensor&, std::optional<double>, std::optional<double>,
                      std::optional<double>, const Tensor&)>("aten::nan_to_num.out");
  return op.call(self, nan, posinf, neginf, out);
}

Tensor square(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::square");
  return op.call(self);
}

Tensor square_(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::square_");
  return op.call(self);
}

Tensor square_out(const Tensor& out, const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::square.out");
  return op.call(self, out);
}

Tensor positive(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::positive");
  return op.call(self);
}

Tensor bitwise_left_shift(const Tensor& self, const Tensor& other) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Tensor&)>("aten::bitwise_left_shift.Tensor");
  return op.call(self, other);
}

Tensor bitwise_left_shift_(const Tensor& self, const Tensor& other) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Tensor&)>("aten::bitwise_left_shift_.Tensor");
  return op.call(self, other);
}

Tensor bitwise_left_shift_out(const Tensor& out, const Tensor& self, const Tensor& other) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&, const Tensor&)>(
      "aten::bitwise_left_shift.Tensor_out");
  return op.call(self, other, out);
}

Tensor bitwise_left_shift(const Tensor& self, const Scalar& other) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Scalar&)>("aten::bitwise_left_shift.Tensor_Scalar");
  return op.call(self, other);
}

Tensor bitwise_left_shift_(const Tensor& self, const Scalar& other) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Scalar&)>("aten::bitwise_left_shift_.Tensor_Scalar");
  return op.call(self, other);
}

Tensor bitwise_left_shift_out(const Tensor& out, const Tensor& self, const Scalar& other) {
  static const auto op = typed_op<Tensor(const Tensor&, const Scalar&, const Tensor&)>(
      "aten::bitwise_left_shift.Tensor_Scalar_out");
  return op.call(self, other, out);
}

Tensor bitwise_left_shift(const Scalar& self, const Tensor& other) {
  static const auto op =
      typed_op<Tensor(const Scalar&, const Tensor&)>("aten::bitwise_left_shift.Scalar_Tensor");
  return op.call(self, other);
}

Tensor bitwise_left_shift_out(const Tensor& out, const Scalar& self, const Tensor& other) {
  static const auto op = typed_op<Tensor(const Scalar&, const Tensor&, const Tensor&)>(
      "aten::bitwise_left_shift.Scalar_Tensor_out");
  return op.call(self, other, out);
}

Tensor bitwise_right_shift(const Tensor& self, const Tensor& other) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Tensor&)>("aten::bitwise_right_shift.Tensor");
  return op.call(self, other);
}

Tensor bitwise_right_shift_(const Tensor& self, const Tensor& other) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Tensor&)>("aten::bitwise_right_shift_.Tensor");
  return op.call(self, other);
}

Tensor bitwise_right_shift_out(const Tensor& out, const Tensor& self, const Tensor& other) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&, const Tensor&)>(
      "aten::bitwise_right_shift.Tensor_out");
  return op.call(self, other, out);
}

Tensor bitwise_right_shift(const Tensor& self, const Scalar& other) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Scalar&)>("aten::bitwise_right_shift.Tensor_Scalar");
  return op.call(self, other);
}

Tensor bitwise_right_shift_(const Tensor& self, const Scalar& other) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Scalar&)>("aten::bitwise_right_shift_.Tensor_Scalar");
  return op.call(self, other);
}

Tensor bitwise_right_shift_out(const Tensor& out, const Tensor& self, const Scalar& other) {
  static const auto op = typed_op<Tensor(const Tensor&, const Scalar&, const Tensor&)>(
      "aten::bitwise_right_shift.Tensor_Scalar_out");
  return op.call(self, other, out);
}

Tensor bitwise_right_shift(const Scalar& self, const Tensor& other) {
  static const auto op =
      typed_op<Tensor(const Scalar&, const Tensor&)>("aten::bitwise_right_shift.Scalar_Tensor");
  return op.call(self, other);
}

Tensor bitwise_right_shift_out(const Tensor& out, const Scalar& self, const Tensor& other) {
  static const auto op = typed_op<Tensor(const Scalar&, const Tensor&, const Tensor&)>(
      "aten::bitwise_right_shift.Scalar_Tensor_out");
  return op.call(self, other, out);
}

}  // namespace opscope::ops
