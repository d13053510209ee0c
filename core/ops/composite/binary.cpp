// Composite kernels of the binary family (see core/ops/binary.h): the Scalar overloads, which wrap
// the number into a 0-d tensor that promotes like a Python number (wrapped_scalar_tensor) and call
// the Tensor overload, so a trace reads `add.Scalar -> add.Tensor` as PyTorch's does; the alias
// arctan2; the functional / in-place forms of the logical ops, whose out= form is the kernel;
// ldexp and float_power, decomposed as torch's CompositeImplicitAutograd kernels.
#include "core/ops/binary.h"
#include "core/dispatch/Library.h"
#include "core/ops/copy.h"
#include "core/ops/TensorIterator.h"

namespace opscope::composite {

namespace {
Tensor empty_of(const Tensor& self, ScalarType dtype) {
  return make_empty({0}, dtype, self.device());
}
}  // namespace

// self [*s], other a number -> self + alpha * other
Tensor add_scalar(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return ops::add(self, wrapped_scalar_tensor(other), alpha);
}
Tensor add_scalar_(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return ops::add_(self, wrapped_scalar_tensor(other), alpha);
}

// self [*s], other a number -> self - alpha * other
Tensor sub_scalar(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return ops::sub(self, wrapped_scalar_tensor(other), alpha);
}
Tensor sub_scalar_(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return ops::sub_(self, wrapped_scalar_tensor(other), alpha);
}

// self [*s], other a number -> other - alpha * self
Tensor rsub_scalar(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return ops::sub(wrapped_scalar_tensor(other), self, alpha);
}

// self [*s], other a number -> self * other
Tensor mul_scalar(const Tensor& self, const Scalar& other) {
  return ops::mul(self, wrapped_scalar_tensor(other));
}
Tensor mul_scalar_(const Tensor& self, const Scalar& other) {
  return ops::mul_(self, wrapped_scalar_tensor(other));
}

// self [*s], other a number -> self / other
Tensor div_scalar(const Tensor& self, const Scalar& other) {
  return ops::div(self, wrapped_scalar_tensor(other));
}
Tensor div_scalar_(const Tensor& self, const Scalar& other) {
  return ops::div_(self, wrapped_scalar_tensor(other));
}
Tensor div_scalar_mode(const Tensor& self, const Scalar& other, ops::RoundingMode rounding_mode) {
  return ops::div(self, wrapped_scalar_tensor(other), rounding_mode);
}
Tensor div_scalar_mode_(const Tensor& self, const Scalar& other, ops::RoundingMode rounding_mode) {
  return ops::div_(self, wrapped_scalar_tensor(other), rounding_mode);
}

// self [*s], other a number (or self a number, other [*s]) -> self & | ^ other
Tensor bitwise_and_scalar(const Tensor& self, const Scalar& other) {
  return ops::bitwise_and(self, wrapped_scalar_tensor(other));
}
Tensor bitwise_and_scalar_tensor(const Scalar& self, const Tensor& other) {
  return ops::bitwise_and(wrapped_scalar_tensor(self), other);
}
Tensor bitwise_and_scalar_(const Tensor& self, const Scalar& other) {
  return ops::bitwise_and_(self, wrapped_scalar_tensor(other));
}
Tensor bitwise_and_scalar_out(const Tensor& self, const Scalar& other, const Tensor& out) {
  return ops::bitwise_and_out(out, self, wrapped_scalar_tensor(other));
}

Tensor bitwise_or_scalar(const Tensor& self, const Scalar& other) {
  return ops::bitwise_or(self, wrapped_scalar_tensor(other));
}
Tensor bitwise_or_scalar_tensor(const Scalar& self, const Tensor& other) {
  return ops::bitwise_or(wrapped_scalar_tensor(self), other);
}
Tensor bitwise_or_scalar_(const Tensor& self, const Scalar& other) {
  return ops::bitwise_or_(self, wrapped_scalar_tensor(other));
}
Tensor bitwise_or_scalar_out(const Tensor& self, const Scalar& other, const Tensor& out) {
  return ops::bitwise_or_out(out, self, wrapped_scalar_tensor(other));
}

Tensor bitwise_xor_scalar(const Tensor& self, const Scalar& other) {
  return ops::bitwise_xor(self, wrapped_scalar_tensor(other));
}
Tensor bitwise_xor_scalar_tensor(const Scalar& self, const Tensor& other) {
  return ops::bitwise_xor(wrapped_scalar_tensor(self), other);
}
Tensor bitwise_xor_scalar_(const Tensor& self, const Scalar& other) {
  return ops::bitwise_xor_(self, wrapped_scalar_tensor(other));
}
Tensor bitwise_xor_scalar_out(const Tensor& self, const Scalar& other, const Tensor& out) {
  return ops::bitwise_xor_out(out, self, wrapped_scalar_tensor(other));
}

// --- remainder / fmod / floor_divide with a number
// ------------------------------------------------

Tensor remainder_scalar(const Tensor& self, const Scalar& other) {
  return ops::remainder(self, wrapped_scalar_tensor(other));
}
Tensor remainder_scalar_(const Tensor& self, const Scalar& other) {
  return ops::remainder_(self, wrapped_scalar_tensor(other));
}
Tensor remainder_scalar_out(const Tensor& self, const Scalar& other, const Tensor& out) {
  return ops::remainder_out(out, self, wrapped_scalar_tensor(other));
}
Tensor remainder_scalar_tensor_out(const Scalar& self, const Tensor& other, const Tensor& out) {
  return ops::remainder_out(out, wrapped_scalar_tensor(self), other);
}
Tensor fmod_scalar(const Tensor& self, const Scalar& other) {
  return ops::fmod(self, wrapped_scalar_tensor(other));
}
Tensor fmod_scalar_(const Tensor& self, const Scalar& other) {
  return ops::fmod_(self, wrapped_scalar_tensor(other));
}
Tensor fmod_scalar_out(const Tensor& self, const Scalar& other, const Tensor& out) {
  return ops::fmod_out(out, self, wrapped_scalar_tensor(other));
}
Tensor floor_divide_scalar(const Tensor& self, const Scalar& other) {
  return ops::floor_divide(self, wrapped_scalar_tensor(other));
}
Tensor floor_divide_scalar_(const Tensor& self, const Scalar& other) {
  return ops::floor_divide_(self, wrapped_scalar_tensor(other));
}

Tensor arctan2(const Tensor& self, const Tensor& other) {
  return ops::atan2(self, other);
}
Tensor arctan2_(const Tensor& self, const Tensor& other) {
  return ops::atan2_(self, other);
}
Tensor arctan2_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return ops::atan2_out(out, self, other);
}

// --- logical: bool results, or in place into self
// -------------------------------------------------

Tensor logical_and(const Tensor& self, const Tensor& other) {
  return ops::logical_and_out(empty_of(self, ScalarType::Bool), self, other);
}
Tensor logical_and_(const Tensor& self, const Tensor& other) {
  return ops::logical_and_out(self, self, other);
}
Tensor logical_or(const Tensor& self, const Tensor& other) {
  return ops::logical_or_out(empty_of(self, ScalarType::Bool), self, other);
}
Tensor logical_or_(const Tensor& self, const Tensor& other) {
  return ops::logical_or_out(self, self, other);
}
Tensor logical_xor(const Tensor& self, const Tensor& other) {
  return ops::logical_xor_out(empty_of(self, ScalarType::Bool), self, other);
}
Tensor logical_xor_(const Tensor& self, const Tensor& other) {
  return ops::logical_xor_out(self, self, other);
}

// --- shifts with a number
// -------------------------------------------------------------------------

Tensor bitwise_left_shift_tensor_scalar(const Tensor& self, const Scalar& other) {
  return ops::bitwise_left_shift(self, wrapped_scalar_tensor(other));
}
Tensor bitwise_left_shift_tensor_scalar_(const Tensor& self, const Scalar& other) {
  return ops::bitwise_left_shift_(self, wrapped_scalar_tensor(other));
}
Tensor bitwise_left_shift_tensor_scalar_out(const Tensor& self, const Scalar& other,
                                            const Tensor& out) {
  return ops::bitwise_left_shift_out(out, self, wrapped_scalar_tensor(other));
}
Tensor bitwise_left_shift_scalar_tensor(const Scalar& self, const Tensor& other) {
  return ops::bitwise_left_shift(wrapped_scalar_tensor(self), other);
}
Tensor bitwise_left_shift_scalar_tensor_out(const Scalar& self, const Tensor& other,
                                            const Tensor& out) {
  return ops::bitwise_left_shift_out(out, wrapped_scalar_tensor(self), other);
}
Tensor bitwise_right_shift_tensor_scalar(const Tensor& self, const Scalar& other) {
  return ops::bitwise_right_shift(self, wrapped_scalar_tensor(other));
}
Tensor bitwise_right_shift_tensor_scalar_(const Tensor& self, const Scalar& other) {
  return ops::bitwise_right_shift_(self, wrapped_scalar_tensor(other));
}
Tensor bitwise_right_shift_tensor_scalar_out(const Tensor& self, const Scalar& other,
                                             const Tensor& out) {
  return ops::bitwise_right_shift_out(out, self, wrapped_scalar_tensor(other));
}
Tensor bitwise_right_shift_scalar_tensor(const Scalar& self, const Tensor& other) {
  return ops::bitwise_right_shift(wrapped_scalar_tensor(self), other);
}
Tensor bitwise_right_shift_scalar_tensor_out(const Scalar& self, const Tensor& other,
                                             const Tensor& out) {
  return ops::bitwise_right_shift_out(out, wrapped_scalar_tensor(self), other);
}

// --- the math ops' Scalar overloads: the number wrapped, the Tensor overload called ------------

Tensor copysign_scalar(const Tensor& self, const Scalar& other) {
  return ops::copysign(self, wrapped_scalar_tensor(other));
}
Tensor copysign_scalar_(const Tensor& self, const Scalar& other) {
  return ops::copysign_(self, wrapped_scalar_tensor(other));
}
Tensor copysign_scalar_out(const Tensor& self, const Scalar& other, const Tensor& out) {
  return ops::copysign_out(out, self, wrapped_scalar_tensor(other));
}
Tensor xlogy_scalar_self(const Scalar& self, const Tensor& other) {
  return ops::xlogy(wrapped_scalar_tensor(self), other);
}
Tensor xlogy_scalar_other(const Tensor& self, const Scalar& other) {
  return ops::xlogy(self, wrapped_scalar_tensor(other));
}
Tensor xlogy_scalar_other_(const Tensor& self, const Scalar& other) {
  return ops::xlogy_(self, wrapped_scalar_tensor(other));
}
Tensor xlogy_out_scalar_self(const Scalar& self, const Tensor& other, const Tensor& out) {
  return ops::xlogy_out(out, wrapped_scalar_tensor(self), other);
}
Tensor xlogy_out_scalar_other(const Tensor& self, const Scalar& other, const Tensor& out) {
  return ops::xlogy_out(out, self, wrapped_scalar_tensor(other));
}

// --- ldexp: self * 2^other, as torch's CompositeImplicitAutograd kernel (mul, pow.Scalar) -----

Tensor ldexp(const Tensor& self, const Tensor& other) {
  return ops::mul(self, ops::pow(Scalar(2.0), other));
}
Tensor ldexp_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return ops::mul_out(out, self, ops::pow(Scalar(2.0), other));
}
Tensor ldexp_(const Tensor& self, const Tensor& other) {
  return ops::ldexp_out(self, self, other);
}

// --- float_power: pow in float64, both operands converted first (torch's CompositeImplicit
// kernels: `to` then pow; an out= or in-place tensor must already be float64) ---------------------

namespace {
Tensor as_double(const Tensor& t) {
  return ops::to(t, ScalarType::Float64);
}
void check_double(const Tensor& t, const char* what) {
  OPSCOPE_CHECK(t.dtype() == ScalarType::Float64, "the ", what, " has dtype ",
                cpp_name(t.dtype()), " but the operation's result requires dtype Double");
}
}  // namespace

Tensor float_power_tensor_tensor(const Tensor& self, const Tensor& exponent) {
  return ops::pow(as_double(self), as_double(exponent));
}
Tensor float_power_tensor_scalar(const Tensor& self, const Scalar& exponent) {
  return ops::pow(as_double(self), Scalar(exponent.to_double()));
}
Tensor float_power_scalar(const Scalar& self, const Tensor& exponent) {
  return ops::pow(Scalar(self.to_double()), as_double(exponent));
}
Tensor float_power_tensor_tensor_out(const Tensor& self, const Tensor& exponent,
                                     const Tensor& out) {
  check_double(out, "output given to float_power");
  return ops::pow_out(out, as_double(self), as_double(exponent));
}
Tensor float_power_tensor_scalar_out(const Tensor& self, const Scalar& exponent,
                                     const Tensor& out) {
  check_double(out, "output given to float_power");
  return ops::pow_out(out, as_double(self), Scalar(exponent.to_double()));
}
Tensor float_power_scalar_out(const Scalar& self, const Tensor& exponent, const Tensor& out) {
  check_double(out, "output given to float_power");
  return ops::pow_out(out, Scalar(self.to_double()), as_double(exponent));
}
Tensor float_power_tensor_(const Tensor& self, const Tensor& exponent) {
  check_double(self, "base given to float_power_");
  return ops::pow_(self, as_double(exponent));
}
Tensor float_power_scalar_(const Tensor& self, const Scalar& exponent) {
  check_double(self, "base given to float_power_");
  return ops::pow_(self, Scalar(exponent.to_double()));
}

static Library composite_implicit_binary(Library::IMPL, "aten",
                                         DispatchKey::CompositeImplicitAutograd, [](Library& m) {
                                           m.impl("floor_divide.Scalar", fn<&floor_divide_scalar>);
                                           m.impl("floor_divide_.Scalar",
                                                  fn<&floor_divide_scalar_>);
                                           m.impl("arctan2", fn<&arctan2>);
                                           m.impl("arctan2_", fn<&arctan2_>);
                                           m.impl("arctan2.out", fn<&arctan2_out>);
                                           m.impl("bitwise_and_.Scalar", fn<&bitwise_and_scalar_>);
                                           m.impl("bitwise_or_.Scalar", fn<&bitwise_or_scalar_>);
                                           m.impl("bitwise_xor_.Scalar", fn<&bitwise_xor_scalar_>);
                                           m.impl("ldexp.Tensor", fn<&ldexp>);
                                           m.impl("ldexp.out", fn<&ldexp_out>);
                                           m.impl("ldexp_", fn<&ldexp_>);
                                           m.impl("float_power.Tensor_Tensor",
                                                  fn<&float_power_tensor_tensor>);
                                           m.impl("float_power.Tensor_Scalar",
                                                  fn<&float_power_tensor_scalar>);
                                           m.impl("float_power.Scalar", fn<&float_power_scalar>);
                                           m.impl("float_power.Tensor_Tensor_out",
                                                  fn<&float_power_tensor_tensor_out>);
                                           m.impl("float_power.Tensor_Scalar_out",
                                                  fn<&float_power_tensor_scalar_out>);
                                           m.impl("float_power.Scalar_out",
                                                  fn<&float_power_scalar_out>);
                                           m.impl("float_power_.Tensor", fn<&float_power_tensor_>);
                                           m.impl("float_power_.Scalar", fn<&float_power_scalar_>);
                                         });

static Library composite_explicit_binary(
    Library::IMPL, "aten", DispatchKey::CompositeExplicitAutograd, [](Library& m) {
      m.impl("remainder.Scalar", fn<&remainder_scalar>);
      m.impl("remainder_.Scalar", fn<&remainder_scalar_>);
      m.impl("remainder.Scalar_out", fn<&remainder_scalar_out>);
      m.impl("remainder.Scalar_Tensor_out", fn<&remainder_scalar_tensor_out>);
      m.impl("copysign.Scalar", fn<&copysign_scalar>);
      m.impl("copysign_.Scalar", fn<&copysign_scalar_>);
      m.impl("copysign.Scalar_out", fn<&copysign_scalar_out>);
      m.impl("xlogy.Scalar_Self", fn<&xlogy_scalar_self>);
      m.impl("xlogy.Scalar_Other", fn<&xlogy_scalar_other>);
      m.impl("xlogy_.Scalar_Other", fn<&xlogy_scalar_other_>);
      m.impl("xlogy.OutScalar_Self", fn<&xlogy_out_scalar_self>);
      m.impl("xlogy.OutScalar_Other", fn<&xlogy_out_scalar_other>);
      m.impl("fmod.Scalar", fn<&fmod_scalar>);
      m.impl("fmod_.Scalar", fn<&fmod_scalar_>);
      m.impl("fmod.Scalar_out", fn<&fmod_scalar_out>);
      m.impl("logical_and", fn<&logical_and>);
      m.impl("logical_and_", fn<&logical_and_>);
      m.impl("logical_or", fn<&logical_or>);
      m.impl("logical_or_", fn<&logical_or_>);
      m.impl("logical_xor", fn<&logical_xor>);
      m.impl("logical_xor_", fn<&logical_xor_>);
      m.impl("bitwise_left_shift.Tensor_Scalar", fn<&bitwise_left_shift_tensor_scalar>);
      m.impl("bitwise_left_shift_.Tensor_Scalar", fn<&bitwise_left_shift_tensor_scalar_>);
      m.impl("bitwise_left_shift.Tensor_Scalar_out", fn<&bitwise_left_shift_tensor_scalar_out>);
      m.impl("bitwise_left_shift.Scalar_Tensor", fn<&bitwise_left_shift_scalar_tensor>);
      m.impl("bitwise_left_shift.Scalar_Tensor_out", fn<&bitwise_left_shift_scalar_tensor_out>);
      m.impl("bitwise_right_shift.Tensor_Scalar", fn<&bitwise_right_shift_tensor_scalar>);
      m.impl("bitwise_right_shift_.Tensor_Scalar", fn<&bitwise_right_shift_tensor_scalar_>);
      m.impl("bitwise_right_shift.Tensor_Scalar_out", fn<&bitwise_right_shift_tensor_scalar_out>);
      m.impl("bitwise_right_shift.Scalar_Tensor", fn<&bitwise_right_shift_scalar_tensor>);
      m.impl("bitwise_right_shift.Scalar_Tensor_out", fn<&bitwise_right_shift_scalar_tensor_out>);
      m.impl("add.Scalar", fn<&add_scalar>);
      m.impl("add_.Scalar", fn<&add_scalar_>);
      m.impl("sub.Scalar", fn<&sub_scalar>);
      m.impl("sub_.Scalar", fn<&sub_scalar_>);
      m.impl("rsub.Scalar", fn<&rsub_scalar>);
      m.impl("mul.Scalar", fn<&mul_scalar>);
      m.impl("mul_.Scalar", fn<&mul_scalar_>);
      m.impl("div.Scalar", fn<&div_scalar>);
      m.impl("div_.Scalar", fn<&div_scalar_>);
      m.impl("div.Scalar_mode", fn<&div_scalar_mode>);
      m.impl("div_.Scalar_mode", fn<&div_scalar_mode_>);
      m.impl("bitwise_and.Scalar", fn<&bitwise_and_scalar>);
      m.impl("bitwise_and.Scalar_Tensor", fn<&bitwise_and_scalar_tensor>);
      m.impl("bitwise_and.Scalar_out", fn<&bitwise_and_scalar_out>);
      m.impl("bitwise_or.Scalar", fn<&bitwise_or_scalar>);
      m.impl("bitwise_or.Scalar_Tensor", fn<&bitwise_or_scalar_tensor>);
      m.impl("bitwise_or.Scalar_out", fn<&bitwise_or_scalar_out>);
      m.impl("bitwise_xor.Scalar", fn<&bitwise_xor_scalar>);
      m.impl("bitwise_xor.Scalar_Tensor", fn<&bitwise_xor_scalar_tensor>);
      m.impl("bitwise_xor.Scalar_out", fn<&bitwise_xor_scalar_out>);
    });

}  // namespace opscope::composite
