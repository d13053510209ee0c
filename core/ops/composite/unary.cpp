// Composite kernels of the pointwise family (see core/ops/pointwise.h): aliases (absolute,
// arctan2, clip), the Scalar overloads (the number wrapped into a 0-d tensor that promotes like a
// Python number, then the Tensor overload), the functional / in-place forms of ops whose out=
// form is the kernel (abs, logical_*, nan_to_num), and decompositions (isinf, isfinite, square).
// Each calls other ops through ops::, so a trace shows the children PyTorch's would.
#include <limits>

#include "core/ops/copy.h"
#include "core/ops/binary.h"
#include "core/ops/factories.h"
#include "core/ops/indexing.h"
#include "core/ops/pointwise_kernels.h"
#include "core/ops/compare.h"
#include "core/ops/nn.h"
#include "core/ops/unary.h"
#include "core/ops/TensorIterator.h"

namespace opscope::composite {

namespace {
Tensor empty_of(const Tensor& self, ScalarType dtype) {
  return make_empty({0}, dtype, self.device());
}
// out= of a composite computed elsewhere: resize, then copy.
Tensor copy_into(const Tensor& out, const Tensor& value) {
  resize_output(out, value.sizes());
  return ops::copy_(out, value);
}
}  // namespace

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

// --- abs and aliases
// ------------------------------------------------------------------------------

Tensor abs(const Tensor& self) {
  return ops::abs_out(empty_of(self, self.dtype()), self);
}
Tensor abs_(const Tensor& self) {
  return ops::abs_out(self, self);
}
Tensor absolute(const Tensor& self) {
  return ops::abs(self);
}
Tensor absolute_(const Tensor& self) {
  return ops::abs_(self);
}
Tensor absolute_out(const Tensor& self, const Tensor& out) {
  return ops::abs_out(out, self);
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
Tensor relu_out(const Tensor& self, const Tensor& out) {
  return copy_into(out, ops::relu(self));
}

using OptScalar = std::optional<Scalar>;
Tensor clip(const Tensor& self, const OptScalar& min, const OptScalar& max) {
  return ops::clamp(self, min, max);
}
Tensor clip_(const Tensor& self, const OptScalar& min, const OptScalar& max) {
  return ops::clamp_(self, min, max);
}
Tensor clip_out(const Tensor& self, const OptScalar& min, const OptScalar& max, const Tensor& out) {
  return ops::clamp_out(out, self, min, max);
}
Tensor clip_tensor(const Tensor& self, const Tensor& min, const Tensor& max) {
  return ops::clamp(self, min, max);
}
Tensor clip_tensor_(const Tensor& self, const Tensor& min, const Tensor& max) {
  return ops::clamp_(self, min, max);
}
Tensor clip_tensor_out(const Tensor& self, const Tensor& min, const Tensor& max,
                       const Tensor& out) {
  return ops::clamp_out(out, self, min, max);
}

// --- where with numbers: wrapped, so they promote like Python numbers
// ------------------------------

Tensor where_scalarself(const Tensor& condition, const Scalar& self, const Tensor& other) {
  return ops::where(condition, wrapped_scalar_tensor(self), other);
}
Tensor where_scalarother(const Tensor& condition, const Tensor& self, const Scalar& other) {
  return ops::where(condition, self, wrapped_scalar_tensor(other));
}
Tensor where_scalar(const Tensor& condition, const Scalar& self, const Scalar& other) {
  return ops::where(condition, wrapped_scalar_tensor(self), wrapped_scalar_tensor(other));
}
// where(Tensor condition) -> Tensor[]: the indices of the true elements, one tensor per dim.
std::vector<Tensor> where_condition(const Tensor& condition) {
  return ops::nonzero_numpy(condition);
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
Tensor logical_not(const Tensor& self) {
  return ops::logical_not_out(empty_of(self, ScalarType::Bool), self);
}
Tensor logical_not_(const Tensor& self) {
  return ops::logical_not_out(self, self);
}

// --- classification
// -------------------------------------------------------------------------------

Tensor isnan_out(const Tensor& self, const Tensor& out) {
  return copy_into(out, ops::isnan(self));
}
// |self| == inf; integer tensors are never infinite
Tensor isinf(const Tensor& self) {
  if (!is_floating(self.dtype())) return ops::zeros_like(self, ScalarType::Bool);
  return ops::eq(ops::abs(self), std::numeric_limits<double>::infinity());
}
Tensor isinf_out(const Tensor& self, const Tensor& out) {
  return copy_into(out, ops::isinf(self));
}
// (self == self) * (|self| != inf)
Tensor isfinite(const Tensor& self) {
  if (!is_floating(self.dtype())) return ops::ones_like(self, ScalarType::Bool);
  return ops::mul(ops::eq(self, self),
                  ops::ne(ops::abs(self), std::numeric_limits<double>::infinity()));
}

Tensor nan_to_num(const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                  std::optional<double> neginf) {
  return ops::nan_to_num_out(ops::empty_like(self), self, nan, posinf, neginf);
}
Tensor nan_to_num_(const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                   std::optional<double> neginf) {
  return ops::nan_to_num_out(self, self, nan, posinf, neginf);
}

// --- square = pow(self, 2); positive = self
// -------------------------------------------------------

Tensor square(const Tensor& self) {
  return ops::pow(self, 2);
}
Tensor square_(const Tensor& self) {
  return ops::pow_(self, 2);
}
Tensor square_out(const Tensor& self, const Tensor& out) {
  return ops::pow_out(out, self, 2);
}
Tensor positive(const Tensor& self) {
  OPSCOPE_CHECK(self.dtype() != ScalarType::Bool,
                "The `+` operator, on a bool tensor is not supported.");
  return self;
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
}  // namespace opscope::composite
