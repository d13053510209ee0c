// The pointwise family's declarations and C++ entry points (see core/ops/pointwise.h). Kernels
// in core/ops/cpu/pointwise*.cpp and core/ops/composite/pointwise.cpp.
#include "core/dispatch/Library.h"
#include "core/ops/pointwise_kernels.h"

namespace opscope {

static Library pointwise_ops(Library::FRAGMENT, "aten", [](Library& m) {
  m.def("remainder.Tensor(Tensor self, Tensor other) -> Tensor");
  m.impl("remainder.Tensor", DispatchKey::CPU, fn<&cpu::remainder_tensor>);
  m.def("remainder_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", Variants::Method);
  m.impl("remainder_.Tensor", DispatchKey::CPU, fn<&cpu::remainder_tensor_>);
  m.def("remainder.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("remainder.Tensor_out", DispatchKey::CPU, fn<&cpu::remainder_tensor_out>);
  m.def("remainder.Scalar(Tensor self, Scalar other) -> Tensor");
  m.impl("remainder.Scalar", DispatchKey::CompositeExplicitAutograd,
         fn<&composite::remainder_scalar>);
  m.def("remainder_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", Variants::Method);
  m.impl("remainder_.Scalar", DispatchKey::CompositeExplicitAutograd,
         fn<&composite::remainder_scalar_>);
  m.def("remainder.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("remainder.Scalar_out", DispatchKey::CompositeExplicitAutograd,
         fn<&composite::remainder_scalar_out>);
  m.def("remainder.Scalar_Tensor(Scalar self, Tensor other) -> Tensor");
  m.impl("remainder.Scalar_Tensor", DispatchKey::CPU, fn<&cpu::remainder_scalar_tensor>);
  m.def("remainder.Scalar_Tensor_out(Scalar self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("remainder.Scalar_Tensor_out", DispatchKey::CompositeExplicitAutograd,
         fn<&composite::remainder_scalar_tensor_out>);
  m.def("fmod.Tensor(Tensor self, Tensor other) -> Tensor");
  m.impl("fmod.Tensor", DispatchKey::CPU, fn<&cpu::fmod_tensor>);
  m.def("fmod_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", Variants::Method);
  m.impl("fmod_.Tensor", DispatchKey::CPU, fn<&cpu::fmod_tensor_>);
  m.def("fmod.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("fmod.Tensor_out", DispatchKey::CPU, fn<&cpu::fmod_tensor_out>);
  m.def("fmod.Scalar(Tensor self, Scalar other) -> Tensor");
  m.impl("fmod.Scalar", DispatchKey::CompositeExplicitAutograd, fn<&composite::fmod_scalar>);
  m.def("fmod_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", Variants::Method);
  m.impl("fmod_.Scalar", DispatchKey::CompositeExplicitAutograd, fn<&composite::fmod_scalar_>);
  m.def("fmod.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("fmod.Scalar_out", DispatchKey::CompositeExplicitAutograd,
         fn<&composite::fmod_scalar_out>);
  m.def("floor_divide(Tensor self, Tensor other) -> Tensor");
  m.impl("floor_divide", DispatchKey::CPU, fn<&cpu::floor_divide>);
  m.def("floor_divide_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", Variants::Method);
  m.impl("floor_divide_.Tensor", DispatchKey::CPU, fn<&cpu::floor_divide_tensor_>);
  m.def("floor_divide.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("floor_divide.out", DispatchKey::CPU, fn<&cpu::floor_divide_out>);
  m.def("floor_divide.Scalar(Tensor self, Scalar other) -> Tensor");
  m.impl("floor_divide.Scalar", DispatchKey::CompositeImplicitAutograd,
         fn<&composite::floor_divide_scalar>);
  m.def("floor_divide_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", Variants::Method);
  m.impl("floor_divide_.Scalar", DispatchKey::CompositeImplicitAutograd,
         fn<&composite::floor_divide_scalar_>);
  m.def("abs(Tensor self) -> Tensor");
  m.impl("abs", DispatchKey::CompositeExplicitAutograd, fn<&composite::abs>);
  m.def("abs_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.impl("abs_", DispatchKey::CompositeExplicitAutograd, fn<&composite::abs_>);
  m.def("abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("abs.out", DispatchKey::CPU, fn<&cpu::abs_out>);
  m.def("absolute(Tensor self) -> Tensor");
  m.impl("absolute", DispatchKey::CompositeImplicitAutograd, fn<&composite::absolute>);
  m.def("absolute_(Tensor(a!) self) -> Tensor(a!)", Variants::Method);
  m.impl("absolute_", DispatchKey::CompositeImplicitAutograd, fn<&composite::absolute_>);
  m.def("absolute.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("absolute.out", DispatchKey::CompositeImplicitAutograd, fn<&composite::absolute_out>);
  m.def("sign(Tensor self) -> Tensor");
  m.impl("sign", DispatchKey::CPU, fn<&cpu::sign>);
  m.def("sign_(Tensor(a!) self) -> Tensor(a!)", Variants::Method);
  m.impl("sign_", DispatchKey::CPU, fn<&cpu::sign_>);
  m.def("sign.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("sign.out", DispatchKey::CPU, fn<&cpu::sign_out>);
  m.def("exp(Tensor self) -> Tensor");
  m.impl("exp", DispatchKey::CPU, fn<&cpu::exp>);
  m.def("exp_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.impl("exp_", DispatchKey::CPU, fn<&cpu::exp_>);
  m.def("exp.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("exp.out", DispatchKey::CPU, fn<&cpu::exp_out>);
  m.def("exp2(Tensor self) -> Tensor");
  m.impl("exp2", DispatchKey::CPU, fn<&cpu::exp2>);
  m.def("exp2_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.impl("exp2_", DispatchKey::CPU, fn<&cpu::exp2_>);
  m.def("exp2.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("exp2.out", DispatchKey::CPU, fn<&cpu::exp2_out>);
  m.def("expm1(Tensor self) -> Tensor");
  m.impl("expm1", DispatchKey::CPU, fn<&cpu::expm1>);
  m.def("expm1_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.impl("expm1_", DispatchKey::CPU, fn<&cpu::expm1_>);
  m.def("expm1.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("expm1.out", DispatchKey::CPU, fn<&cpu::expm1_out>);
  m.def("log(Tensor self) -> Tensor");
  m.impl("log", DispatchKey::CPU, fn<&cpu::log>);
  m.def("log_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.impl("log_", DispatchKey::CPU, fn<&cpu::log_>);
  m.def("log.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("log.out", DispatchKey::CPU, fn<&cpu::log_out>);
  m.def("log2(Tensor self) -> Tensor");
  m.impl("log2", DispatchKey::CPU, fn<&cpu::log2>);
  m.def("log2_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.impl("log2_", DispatchKey::CPU, fn<&cpu::log2_>);
  m.def("log2.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("log2.out", DispatchKey::CPU, fn<&cpu::log2_out>);
  m.def("log10(Tensor self) -> Tensor");
  m.impl("log10", DispatchKey::CPU, fn<&cpu::log10>);
  m.def("log10_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.impl("log10_", DispatchKey::CPU, fn<&cpu::log10_>);
  m.def("log10.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("log10.out", DispatchKey::CPU, fn<&cpu::log10_out>);
  m.def("log1p(Tensor self) -> Tensor");
  m.impl("log1p", DispatchKey::CPU, fn<&cpu::log1p>);
  m.def("log1p_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.impl("log1p_", DispatchKey::CPU, fn<&cpu::log1p_>);
  m.def("log1p.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("log1p.out", DispatchKey::CPU, fn<&cpu::log1p_out>);
  m.def("sqrt(Tensor self) -> Tensor");
  m.impl("sqrt", DispatchKey::CPU, fn<&cpu::sqrt>);
  m.def("sqrt_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.impl("sqrt_", DispatchKey::CPU, fn<&cpu::sqrt_>);
  m.def("sqrt.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("sqrt.out", DispatchKey::CPU, fn<&cpu::sqrt_out>);
  m.def("rsqrt(Tensor self) -> Tensor");
  m.impl("rsqrt", DispatchKey::CPU, fn<&cpu::rsqrt>);
  m.def("rsqrt_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.impl("rsqrt_", DispatchKey::CPU, fn<&cpu::rsqrt_>);
  m.def("rsqrt.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("rsqrt.out", DispatchKey::CPU, fn<&cpu::rsqrt_out>);
  m.def("sin(Tensor self) -> Tensor");
  m.impl("sin", DispatchKey::CPU, fn<&cpu::sin>);
  m.def("sin_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.impl("sin_", DispatchKey::CPU, fn<&cpu::sin_>);
  m.def("sin.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("sin.out", DispatchKey::CPU, fn<&cpu::sin_out>);
  m.def("cos(Tensor self) -> Tensor");
  m.impl("cos", DispatchKey::CPU, fn<&cpu::cos>);
  m.def("cos_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.impl("cos_", DispatchKey::CPU, fn<&cpu::cos_>);
  m.def("cos.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("cos.out", DispatchKey::CPU, fn<&cpu::cos_out>);
  m.def("tan(Tensor self) -> Tensor");
  m.impl("tan", DispatchKey::CPU, fn<&cpu::tan>);
  m.def("tan_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.impl("tan_", DispatchKey::CPU, fn<&cpu::tan_>);
  m.def("tan.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("tan.out", DispatchKey::CPU, fn<&cpu::tan_out>);
  m.def("asin(Tensor self) -> Tensor");
  m.impl("asin", DispatchKey::CPU, fn<&cpu::asin>);
  m.def("asin_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.impl("asin_", DispatchKey::CPU, fn<&cpu::asin_>);
  m.def("asin.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("asin.out", DispatchKey::CPU, fn<&cpu::asin_out>);
  m.def("acos(Tensor self) -> Tensor");
  m.impl("acos", DispatchKey::CPU, fn<&cpu::acos>);
  m.def("acos_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.impl("acos_", DispatchKey::CPU, fn<&cpu::acos_>);
  m.def("acos.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("acos.out", DispatchKey::CPU, fn<&cpu::acos_out>);
  m.def("atan(Tensor self) -> Tensor");
  m.impl("atan", DispatchKey::CPU, fn<&cpu::atan>);
  m.def("atan_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.impl("atan_", DispatchKey::CPU, fn<&cpu::atan_>);
  m.def("atan.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("atan.out", DispatchKey::CPU, fn<&cpu::atan_out>);
  m.def("sinh(Tensor self) -> Tensor");
  m.impl("sinh", DispatchKey::CPU, fn<&cpu::sinh>);
  m.def("sinh_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.impl("sinh_", DispatchKey::CPU, fn<&cpu::sinh_>);
  m.def("sinh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("sinh.out", DispatchKey::CPU, fn<&cpu::sinh_out>);
  m.def("cosh(Tensor self) -> Tensor");
  m.impl("cosh", DispatchKey::CPU, fn<&cpu::cosh>);
  m.def("cosh_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.impl("cosh_", DispatchKey::CPU, fn<&cpu::cosh_>);
  m.def("cosh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("cosh.out", DispatchKey::CPU, fn<&cpu::cosh_out>);
  m.def("tanh(Tensor self) -> Tensor");
  m.impl("tanh", DispatchKey::CPU, fn<&cpu::tanh>);
  m.def("tanh_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.impl("tanh_", DispatchKey::CPU, fn<&cpu::tanh_>);
  m.def("tanh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("tanh.out", DispatchKey::CPU, fn<&cpu::tanh_out>);
  m.def("sigmoid(Tensor self) -> Tensor");
  m.impl("sigmoid", DispatchKey::CPU, fn<&cpu::sigmoid>);
  m.def("sigmoid_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.impl("sigmoid_", DispatchKey::CPU, fn<&cpu::sigmoid_>);
  m.def("sigmoid.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("sigmoid.out", DispatchKey::CPU, fn<&cpu::sigmoid_out>);
  m.def("erf(Tensor self) -> Tensor");
  m.impl("erf", DispatchKey::CPU, fn<&cpu::erf>);
  m.def("erf_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.impl("erf_", DispatchKey::CPU, fn<&cpu::erf_>);
  m.def("erf.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("erf.out", DispatchKey::CPU, fn<&cpu::erf_out>);
  m.def("floor(Tensor self) -> Tensor");
  m.impl("floor", DispatchKey::CPU, fn<&cpu::floor>);
  m.def("floor_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.impl("floor_", DispatchKey::CPU, fn<&cpu::floor_>);
  m.def("floor.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("floor.out", DispatchKey::CPU, fn<&cpu::floor_out>);
  m.def("ceil(Tensor self) -> Tensor");
  m.impl("ceil", DispatchKey::CPU, fn<&cpu::ceil>);
  m.def("ceil_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.impl("ceil_", DispatchKey::CPU, fn<&cpu::ceil_>);
  m.def("ceil.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("ceil.out", DispatchKey::CPU, fn<&cpu::ceil_out>);
  m.def("round(Tensor self) -> Tensor");
  m.impl("round", DispatchKey::CPU, fn<&cpu::round>);
  m.def("round_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.impl("round_", DispatchKey::CPU, fn<&cpu::round_>);
  m.def("round.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("round.out", DispatchKey::CPU, fn<&cpu::round_out>);
  m.def("trunc(Tensor self) -> Tensor");
  m.impl("trunc", DispatchKey::CPU, fn<&cpu::trunc>);
  m.def("trunc_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.impl("trunc_", DispatchKey::CPU, fn<&cpu::trunc_>);
  m.def("trunc.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("trunc.out", DispatchKey::CPU, fn<&cpu::trunc_out>);
  m.def("reciprocal(Tensor self) -> Tensor");
  m.impl("reciprocal", DispatchKey::CPU, fn<&cpu::reciprocal>);
  m.def("reciprocal_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.impl("reciprocal_", DispatchKey::CPU, fn<&cpu::reciprocal_>);
  m.def("reciprocal.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("reciprocal.out", DispatchKey::CPU, fn<&cpu::reciprocal_out>);
  m.def("round.decimals(Tensor self, *, int decimals) -> Tensor");
  m.impl("round.decimals", DispatchKey::CPU, fn<&cpu::round_decimals>);
  m.def("round_.decimals(Tensor(a!) self, *, int decimals) -> Tensor(a!)",
        Variants::FunctionAndMethod);
  m.impl("round_.decimals", DispatchKey::CPU, fn<&cpu::round_decimals_>);
  m.def("round.decimals_out(Tensor self, *, int decimals, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("round.decimals_out", DispatchKey::CPU, fn<&cpu::round_decimals_out>);
  m.def("atan2(Tensor self, Tensor other) -> Tensor");
  m.impl("atan2", DispatchKey::CPU, fn<&cpu::atan2>);
  m.def("atan2_(Tensor(a!) self, Tensor other) -> Tensor(a!)", Variants::Method);
  m.impl("atan2_", DispatchKey::CPU, fn<&cpu::atan2_>);
  m.def("atan2.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("atan2.out", DispatchKey::CPU, fn<&cpu::atan2_out>);
  m.def("arctan2(Tensor self, Tensor other) -> Tensor");
  m.impl("arctan2", DispatchKey::CompositeImplicitAutograd, fn<&composite::arctan2>);
  m.def("arctan2_(Tensor(a!) self, Tensor other) -> Tensor(a!)", Variants::Method);
  m.impl("arctan2_", DispatchKey::CompositeImplicitAutograd, fn<&composite::arctan2_>);
  m.def("arctan2.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("arctan2.out", DispatchKey::CompositeImplicitAutograd, fn<&composite::arctan2_out>);
  m.def("relu(Tensor self) -> Tensor");
  m.impl("relu", DispatchKey::CPU, fn<&cpu::relu>);
  m.def("relu_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.impl("relu_", DispatchKey::CPU, fn<&cpu::relu_>);
  m.def("relu.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("relu.out", DispatchKey::CompositeExplicitAutograd, fn<&composite::relu_out>);
  m.def("gelu(Tensor self, *, str approximate=\"none\") -> Tensor", Variants::None);
  m.impl("gelu", DispatchKey::CPU, fn<&cpu::gelu>);
  m.def("gelu_(Tensor(a!) self, *, str approximate=\"none\") -> Tensor(a!)", Variants::None);
  m.impl("gelu_", DispatchKey::CPU, fn<&cpu::gelu_>);
  m.def("gelu.out(Tensor self, *, str approximate=\"none\", Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("gelu.out", DispatchKey::CPU, fn<&cpu::gelu_out>);
  m.def("silu(Tensor self) -> Tensor", Variants::None);
  m.impl("silu", DispatchKey::CPU, fn<&cpu::silu>);
  m.def("silu_(Tensor(a!) self) -> Tensor(a!)", Variants::None);
  m.impl("silu_", DispatchKey::CPU, fn<&cpu::silu_>);
  m.def("silu.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("silu.out", DispatchKey::CPU, fn<&cpu::silu_out>);
  m.def("softplus(Tensor self, Scalar beta=1, Scalar threshold=20) -> Tensor", Variants::None);
  m.impl("softplus", DispatchKey::CPU, fn<&cpu::softplus>);
  m.def(
      "softplus.out(Tensor self, Scalar beta=1, Scalar threshold=20, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      Variants::Function);
  m.impl("softplus.out", DispatchKey::CPU, fn<&cpu::softplus_out>);
  m.def("clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor");
  m.impl("clamp", DispatchKey::CPU, fn<&cpu::clamp>);
  m.def("clamp_(Tensor(a!) self, Scalar? min=None, Scalar? max=None) -> Tensor(a!)",
        Variants::FunctionAndMethod);
  m.impl("clamp_", DispatchKey::CPU, fn<&cpu::clamp_>);
  m.def(
      "clamp.out(Tensor self, Scalar? min=None, Scalar? max=None, *, Tensor(a!) out) -> Tensor(a!)",
      Variants::Function);
  m.impl("clamp.out", DispatchKey::CPU, fn<&cpu::clamp_out>);
  m.def("clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor");
  m.impl("clamp.Tensor", DispatchKey::CPU, fn<&cpu::clamp_tensor>);
  m.def("clamp_.Tensor(Tensor(a!) self, Tensor? min=None, Tensor? max=None) -> Tensor(a!)",
        Variants::FunctionAndMethod);
  m.impl("clamp_.Tensor", DispatchKey::CPU, fn<&cpu::clamp_tensor_>);
  m.def(
      "clamp.Tensor_out(Tensor self, Tensor? min=None, Tensor? max=None, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      Variants::Function);
  m.impl("clamp.Tensor_out", DispatchKey::CPU, fn<&cpu::clamp_tensor_out>);
  m.def("clip(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor");
  m.impl("clip", DispatchKey::CompositeImplicitAutograd, fn<&composite::clip>);
  m.def("clip_(Tensor(a!) self, Scalar? min=None, Scalar? max=None) -> Tensor(a!)",
        Variants::FunctionAndMethod);
  m.impl("clip_", DispatchKey::CompositeImplicitAutograd, fn<&composite::clip_>);
  m.def(
      "clip.out(Tensor self, Scalar? min=None, Scalar? max=None, *, Tensor(a!) out) -> Tensor(a!)",
      Variants::Function);
  m.impl("clip.out", DispatchKey::CompositeImplicitAutograd, fn<&composite::clip_out>);
  m.def("clip.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor");
  m.impl("clip.Tensor", DispatchKey::CompositeImplicitAutograd, fn<&composite::clip_tensor>);
  m.def("clip_.Tensor(Tensor(a!) self, Tensor? min=None, Tensor? max=None) -> Tensor(a!)",
        Variants::FunctionAndMethod);
  m.impl("clip_.Tensor", DispatchKey::CompositeImplicitAutograd, fn<&composite::clip_tensor_>);
  m.def(
      "clip.Tensor_out(Tensor self, Tensor? min=None, Tensor? max=None, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      Variants::Function);
  m.impl("clip.Tensor_out", DispatchKey::CompositeImplicitAutograd,
         fn<&composite::clip_tensor_out>);
  m.def("clamp_min(Tensor self, Scalar min) -> Tensor");
  m.impl("clamp_min", DispatchKey::CPU, fn<&cpu::clamp_min>);
  m.def("clamp_min_(Tensor(a!) self, Scalar min) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.impl("clamp_min_", DispatchKey::CPU, fn<&cpu::clamp_min_>);
  m.def("clamp_min.out(Tensor self, Scalar min, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("clamp_min.out", DispatchKey::CPU, fn<&cpu::clamp_min_out>);
  m.def("clamp_min.Tensor(Tensor self, Tensor min) -> Tensor");
  m.impl("clamp_min.Tensor", DispatchKey::CPU, fn<&cpu::clamp_min_tensor>);
  m.def("clamp_min_.Tensor(Tensor(a!) self, Tensor min) -> Tensor(a!)",
        Variants::FunctionAndMethod);
  m.impl("clamp_min_.Tensor", DispatchKey::CPU, fn<&cpu::clamp_min_tensor_>);
  m.def("clamp_min.Tensor_out(Tensor self, Tensor min, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("clamp_min.Tensor_out", DispatchKey::CPU, fn<&cpu::clamp_min_tensor_out>);
  m.def("clamp_max(Tensor self, Scalar max) -> Tensor");
  m.impl("clamp_max", DispatchKey::CPU, fn<&cpu::clamp_max>);
  m.def("clamp_max_(Tensor(a!) self, Scalar max) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.impl("clamp_max_", DispatchKey::CPU, fn<&cpu::clamp_max_>);
  m.def("clamp_max.out(Tensor self, Scalar max, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("clamp_max.out", DispatchKey::CPU, fn<&cpu::clamp_max_out>);
  m.def("clamp_max.Tensor(Tensor self, Tensor max) -> Tensor");
  m.impl("clamp_max.Tensor", DispatchKey::CPU, fn<&cpu::clamp_max_tensor>);
  m.def("clamp_max_.Tensor(Tensor(a!) self, Tensor max) -> Tensor(a!)",
        Variants::FunctionAndMethod);
  m.impl("clamp_max_.Tensor", DispatchKey::CPU, fn<&cpu::clamp_max_tensor_>);
  m.def("clamp_max.Tensor_out(Tensor self, Tensor max, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("clamp_max.Tensor_out", DispatchKey::CPU, fn<&cpu::clamp_max_tensor_out>);
  m.def("maximum(Tensor self, Tensor other) -> Tensor");
  m.impl("maximum", DispatchKey::CPU, fn<&cpu::maximum>);
  m.def("maximum.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("maximum.out", DispatchKey::CPU, fn<&cpu::maximum_out>);
  m.def("minimum(Tensor self, Tensor other) -> Tensor");
  m.impl("minimum", DispatchKey::CPU, fn<&cpu::minimum>);
  m.def("minimum.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("minimum.out", DispatchKey::CPU, fn<&cpu::minimum_out>);
  m.def("where.self(Tensor condition, Tensor self, Tensor other) -> Tensor", Variants::Function);
  m.impl("where.self", DispatchKey::CPU, fn<&cpu::where_self>);
  m.def(
      "where.self_out(Tensor condition, Tensor self, Tensor other, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      Variants::Function);
  m.impl("where.self_out", DispatchKey::CPU, fn<&cpu::where_self_out>);
  m.def("where.ScalarSelf(Tensor condition, Scalar self, Tensor other) -> Tensor",
        Variants::Function);
  m.impl("where.ScalarSelf", DispatchKey::CompositeImplicitAutograd,
         fn<&composite::where_scalarself>);
  m.def("where.ScalarOther(Tensor condition, Tensor self, Scalar other) -> Tensor",
        Variants::Function);
  m.impl("where.ScalarOther", DispatchKey::CompositeImplicitAutograd,
         fn<&composite::where_scalarother>);
  m.def("where.Scalar(Tensor condition, Scalar self, Scalar other) -> Tensor", Variants::Function);
  m.impl("where.Scalar", DispatchKey::CompositeImplicitAutograd, fn<&composite::where_scalar>);
  m.def("where(Tensor condition) -> Tensor[]", Variants::Function);  // = nonzero(as_tuple=True)
  m.impl("where", DispatchKey::CompositeImplicitAutograd, fn<&composite::where_condition>);
  m.def("lerp.Scalar(Tensor self, Tensor end, Scalar weight) -> Tensor");
  m.impl("lerp.Scalar", DispatchKey::CPU, fn<&cpu::lerp_scalar>);
  m.def("lerp_.Scalar(Tensor(a!) self, Tensor end, Scalar weight) -> Tensor(a!)", Variants::Method);
  m.impl("lerp_.Scalar", DispatchKey::CPU, fn<&cpu::lerp_scalar_>);
  m.def("lerp.Scalar_out(Tensor self, Tensor end, Scalar weight, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("lerp.Scalar_out", DispatchKey::CPU, fn<&cpu::lerp_scalar_out>);
  m.def("lerp.Tensor(Tensor self, Tensor end, Tensor weight) -> Tensor");
  m.impl("lerp.Tensor", DispatchKey::CPU, fn<&cpu::lerp_tensor>);
  m.def("lerp_.Tensor(Tensor(a!) self, Tensor end, Tensor weight) -> Tensor(a!)", Variants::Method);
  m.impl("lerp_.Tensor", DispatchKey::CPU, fn<&cpu::lerp_tensor_>);
  m.def("lerp.Tensor_out(Tensor self, Tensor end, Tensor weight, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("lerp.Tensor_out", DispatchKey::CPU, fn<&cpu::lerp_tensor_out>);
  m.def("logical_and(Tensor self, Tensor other) -> Tensor");
  m.impl("logical_and", DispatchKey::CompositeExplicitAutograd, fn<&composite::logical_and>);
  m.def("logical_and_(Tensor(a!) self, Tensor other) -> Tensor(a!)", Variants::Method);
  m.impl("logical_and_", DispatchKey::CompositeExplicitAutograd, fn<&composite::logical_and_>);
  m.def("logical_and.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("logical_and.out", DispatchKey::CPU, fn<&cpu::logical_and_out>);
  m.def("logical_or(Tensor self, Tensor other) -> Tensor");
  m.impl("logical_or", DispatchKey::CompositeExplicitAutograd, fn<&composite::logical_or>);
  m.def("logical_or_(Tensor(a!) self, Tensor other) -> Tensor(a!)", Variants::Method);
  m.impl("logical_or_", DispatchKey::CompositeExplicitAutograd, fn<&composite::logical_or_>);
  m.def("logical_or.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("logical_or.out", DispatchKey::CPU, fn<&cpu::logical_or_out>);
  m.def("logical_xor(Tensor self, Tensor other) -> Tensor");
  m.impl("logical_xor", DispatchKey::CompositeExplicitAutograd, fn<&composite::logical_xor>);
  m.def("logical_xor_(Tensor(a!) self, Tensor other) -> Tensor(a!)", Variants::Method);
  m.impl("logical_xor_", DispatchKey::CompositeExplicitAutograd, fn<&composite::logical_xor_>);
  m.def("logical_xor.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("logical_xor.out", DispatchKey::CPU, fn<&cpu::logical_xor_out>);
  m.def("logical_not(Tensor self) -> Tensor");
  m.impl("logical_not", DispatchKey::CompositeExplicitAutograd, fn<&composite::logical_not>);
  m.def("logical_not_(Tensor(a!) self) -> Tensor(a!)", Variants::Method);
  m.impl("logical_not_", DispatchKey::CompositeExplicitAutograd, fn<&composite::logical_not_>);
  m.def("logical_not.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("logical_not.out", DispatchKey::CPU, fn<&cpu::logical_not_out>);
  m.def("isnan(Tensor self) -> Tensor");
  m.impl("isnan", DispatchKey::CPU, fn<&cpu::isnan>);
  m.def("isnan.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("isnan.out", DispatchKey::CompositeExplicitAutograd, fn<&composite::isnan_out>);
  m.def("isinf(Tensor self) -> Tensor");
  m.impl("isinf", DispatchKey::CompositeExplicitAutograd, fn<&composite::isinf>);
  m.def("isinf.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("isinf.out", DispatchKey::CompositeExplicitAutograd, fn<&composite::isinf_out>);
  m.def("isfinite(Tensor self) -> Tensor");
  m.impl("isfinite", DispatchKey::CompositeImplicitAutograd, fn<&composite::isfinite>);
  m.def("isposinf(Tensor self) -> Tensor");
  m.impl("isposinf", DispatchKey::CPU, fn<&cpu::isposinf>);
  m.def("isposinf.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("isposinf.out", DispatchKey::CPU, fn<&cpu::isposinf_out>);
  m.def("isneginf(Tensor self) -> Tensor");
  m.impl("isneginf", DispatchKey::CPU, fn<&cpu::isneginf>);
  m.def("isneginf.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("isneginf.out", DispatchKey::CPU, fn<&cpu::isneginf_out>);
  m.def(
      "nan_to_num(Tensor self, float? nan=None, float? posinf=None, float? neginf=None) -> Tensor");
  m.impl("nan_to_num", DispatchKey::CompositeExplicitAutograd, fn<&composite::nan_to_num>);
  m.def(
      "nan_to_num_(Tensor(a!) self, float? nan=None, float? posinf=None, float? neginf=None) -> "
      "Tensor(a!)",
      Variants::FunctionAndMethod);
  m.impl("nan_to_num_", DispatchKey::CompositeExplicitAutograd, fn<&composite::nan_to_num_>);
  m.def(
      "nan_to_num.out(Tensor self, float? nan=None, float? posinf=None, float? neginf=None, *, "
      "Tensor(a!) out) -> Tensor(a!)",
      Variants::Function);
  m.impl("nan_to_num.out", DispatchKey::CPU, fn<&cpu::nan_to_num_out>);
  m.def("square(Tensor self) -> Tensor");
  m.impl("square", DispatchKey::CompositeImplicitAutograd, fn<&composite::square>);
  m.def("square_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.impl("square_", DispatchKey::CompositeImplicitAutograd, fn<&composite::square_>);
  m.def("square.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("square.out", DispatchKey::CompositeImplicitAutograd, fn<&composite::square_out>);
  m.def("positive(Tensor(a) self) -> Tensor(a)");
  m.impl("positive", DispatchKey::CompositeImplicitAutograd, fn<&composite::positive>);
  m.def("bitwise_left_shift.Tensor(Tensor self, Tensor other) -> Tensor");
  m.impl("bitwise_left_shift.Tensor", DispatchKey::CPU, fn<&cpu::bitwise_left_shift_tensor>);
  m.def("bitwise_left_shift_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)",
        Variants::Method);
  m.impl("bitwise_left_shift_.Tensor", DispatchKey::CPU, fn<&cpu::bitwise_left_shift_tensor_>);
  m.def("bitwise_left_shift.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("bitwise_left_shift.Tensor_out", DispatchKey::CPU,
         fn<&cpu::bitwise_left_shift_tensor_out>);
  m.def("bitwise_left_shift.Tensor_Scalar(Tensor self, Scalar other) -> Tensor");
  m.impl("bitwise_left_shift.Tensor_Scalar", DispatchKey::CompositeExplicitAutograd,
         fn<&composite::bitwise_left_shift_tensor_scalar>);
  m.def("bitwise_left_shift_.Tensor_Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)",
        Variants::Method);
  m.impl("bitwise_left_shift_.Tensor_Scalar", DispatchKey::CompositeExplicitAutograd,
         fn<&composite::bitwise_left_shift_tensor_scalar_>);
  m.def(
      "bitwise_left_shift.Tensor_Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      Variants::Function);
  m.impl("bitwise_left_shift.Tensor_Scalar_out", DispatchKey::CompositeExplicitAutograd,
         fn<&composite::bitwise_left_shift_tensor_scalar_out>);
  m.def("bitwise_left_shift.Scalar_Tensor(Scalar self, Tensor other) -> Tensor");
  m.impl("bitwise_left_shift.Scalar_Tensor", DispatchKey::CompositeExplicitAutograd,
         fn<&composite::bitwise_left_shift_scalar_tensor>);
  m.def(
      "bitwise_left_shift.Scalar_Tensor_out(Scalar self, Tensor other, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      Variants::Function);
  m.impl("bitwise_left_shift.Scalar_Tensor_out", DispatchKey::CompositeExplicitAutograd,
         fn<&composite::bitwise_left_shift_scalar_tensor_out>);
  m.def("bitwise_right_shift.Tensor(Tensor self, Tensor other) -> Tensor");
  m.impl("bitwise_right_shift.Tensor", DispatchKey::CPU, fn<&cpu::bitwise_right_shift_tensor>);
  m.def("bitwise_right_shift_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)",
        Variants::Method);
  m.impl("bitwise_right_shift_.Tensor", DispatchKey::CPU, fn<&cpu::bitwise_right_shift_tensor_>);
  m.def(
      "bitwise_right_shift.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
      Variants::Function);
  m.impl("bitwise_right_shift.Tensor_out", DispatchKey::CPU,
         fn<&cpu::bitwise_right_shift_tensor_out>);
  m.def("bitwise_right_shift.Tensor_Scalar(Tensor self, Scalar other) -> Tensor");
  m.impl("bitwise_right_shift.Tensor_Scalar", DispatchKey::CompositeExplicitAutograd,
         fn<&composite::bitwise_right_shift_tensor_scalar>);
  m.def("bitwise_right_shift_.Tensor_Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)",
        Variants::Method);
  m.impl("bitwise_right_shift_.Tensor_Scalar", DispatchKey::CompositeExplicitAutograd,
         fn<&composite::bitwise_right_shift_tensor_scalar_>);
  m.def(
      "bitwise_right_shift.Tensor_Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      Variants::Function);
  m.impl("bitwise_right_shift.Tensor_Scalar_out", DispatchKey::CompositeExplicitAutograd,
         fn<&composite::bitwise_right_shift_tensor_scalar_out>);
  m.def("bitwise_right_shift.Scalar_Tensor(Scalar self, Tensor other) -> Tensor");
  m.impl("bitwise_right_shift.Scalar_Tensor", DispatchKey::CompositeExplicitAutograd,
         fn<&composite::bitwise_right_shift_scalar_tensor>);
  m.def(
      "bitwise_right_shift.Scalar_Tensor_out(Scalar self, Tensor other, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      Variants::Function);
  m.impl("bitwise_right_shift.Scalar_Tensor_out", DispatchKey::CompositeExplicitAutograd,
         fn<&composite::bitwise_right_shift_scalar_tensor_out>);
});

}  // namespace opscope
