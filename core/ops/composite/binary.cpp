// Composite kernels of the elementwise family: the Scalar overloads, which wrap the number into
// a 0-d tensor that promotes like a Python number (wrapped_scalar_tensor) and call the Tensor
// overload, so a trace reads `add.Scalar -> add.Tensor` as PyTorch's does. See
// core/ops/elementwise.h.
#include "core/ops/elementwise_kernels.h"
#include "core/ops/TensorIterator.h"

namespace opscope::composite {

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

}  // namespace opscope::composite
