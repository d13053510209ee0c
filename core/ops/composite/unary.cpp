// Composite kernels of the unary family (see core/ops/unary.h): the alias absolute, the
// functional / in-place forms of ops whose out= form is the kernel (abs, logical_not,
// nan_to_num), and the decompositions square, positive, deg2rad and rad2deg.
// Each calls other ops through ops::, so a trace shows the children PyTorch's would.
#include <limits>

#include "core/dispatch/Library.h"
#include "core/ops/TensorIterator.h"
#include "core/ops/binary.h"
#include "core/ops/compare.h"
#include "core/ops/copy.h"
#include "core/ops/factories.h"
#include "core/ops/indexing.h"
#include "core/ops/nn.h"
#include "core/ops/unary.h"

namespace opscope::composite {

namespace {
Tensor empty_of(const Tensor& self, ScalarType dtype) {
  return make_empty({0}, dtype, self.device());
}
}  // namespace

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

Tensor logical_not(const Tensor& self) {
  return ops::logical_not_out(empty_of(self, ScalarType::Bool), self);
}
Tensor logical_not_(const Tensor& self) {
  return ops::logical_not_out(self, self);
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

// --- deg2rad / rad2deg: self [*s] -> self * π/180 (180/π) [*s] ---------------------------------
// torch's CompositeExplicitAutograd kernels: an empty_like result (integers and bool: of the
// default float dtype), then the out= form, a mul.out by the constant as a wrapped number.

namespace {
constexpr double kRadiansPerDegree = 0.017453292519943295769236907684886127134428718885417;
constexpr double kDegreesPerRadian = 57.295779513082320876798154814105170332405472466564;

Tensor empty_float_like(const Tensor& self) {
  ScalarType dtype = is_integral(self.dtype(), true) ? default_dtype() : self.dtype();
  return ops::empty_like(self, dtype);
}
}  // namespace

Tensor deg2rad_out(const Tensor& self, const Tensor& out) {
  return ops::mul_out(out, self, wrapped_scalar_tensor(kRadiansPerDegree));
}
Tensor deg2rad(const Tensor& self) {
  return ops::deg2rad_out(empty_float_like(self), self);
}
Tensor deg2rad_(const Tensor& self) {
  return ops::deg2rad_out(self, self);
}
Tensor rad2deg_out(const Tensor& self, const Tensor& out) {
  return ops::mul_out(out, self, wrapped_scalar_tensor(kDegreesPerRadian));
}
Tensor rad2deg(const Tensor& self) {
  return ops::rad2deg_out(empty_float_like(self), self);
}
Tensor rad2deg_(const Tensor& self) {
  return ops::rad2deg_out(self, self);
}

static Library composite_implicit_unary(Library::IMPL, "aten",
                                        DispatchKey::CompositeImplicitAutograd, [](Library& m) {
                                          m.impl("absolute", fn<&absolute>);
                                          m.impl("absolute_", fn<&absolute_>);
                                          m.impl("absolute.out", fn<&absolute_out>);
                                          m.impl("square", fn<&square>);
                                          m.impl("square_", fn<&square_>);
                                          m.impl("square.out", fn<&square_out>);
                                          m.impl("positive", fn<&positive>);
                                        });

static Library composite_explicit_unary(Library::IMPL, "aten",
                                        DispatchKey::CompositeExplicitAutograd, [](Library& m) {
                                          m.impl("abs", fn<&abs>);
                                          m.impl("abs_", fn<&abs_>);
                                          m.impl("logical_not", fn<&logical_not>);
                                          m.impl("logical_not_", fn<&logical_not_>);
                                          m.impl("nan_to_num", fn<&nan_to_num>);
                                          m.impl("nan_to_num_", fn<&nan_to_num_>);
                                          m.impl("deg2rad", fn<&deg2rad>);
                                          m.impl("deg2rad_", fn<&deg2rad_>);
                                          m.impl("deg2rad.out", fn<&deg2rad_out>);
                                          m.impl("rad2deg", fn<&rad2deg>);
                                          m.impl("rad2deg_", fn<&rad2deg_>);
                                          m.impl("rad2deg.out", fn<&rad2deg_out>);
                                        });

}  // namespace opscope::composite
