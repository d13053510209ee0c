// Composite kernels of the compare family (see core/ops/compare.h): aliases (clip), where with
// numbers (wrapped into 0-d tensors that promote like Python numbers), the classifications built
// from other ops (isinf, isfinite, the out= forms of isnan / isinf), isclose and allclose. Each
// calls other ops through ops::, so a trace shows the children PyTorch's would.
#include <algorithm>
#include <limits>

#include "core/dispatch/Library.h"
#include "core/ops/TensorIterator.h"
#include "core/ops/binary.h"
#include "core/ops/compare.h"
#include "core/ops/copy.h"
#include "core/ops/factories.h"
#include "core/ops/indexing.h"
#include "core/ops/reduce.h"
#include "core/ops/unary.h"
#include "core/ops/utility.h"
#include "core/runtime/ScalarType.h"

namespace opscope::composite {

namespace {
// out= of a composite computed elsewhere: resize, then copy.
Tensor copy_into(const Tensor& out, const Tensor& value) {
  resize_output(out, value.sizes());
  return ops::copy_(out, value);
}
}  // namespace

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
// self [*s] -> all True [*s] (bool): torch's ones_like for a real tensor
Tensor isreal(const Tensor& self) {
  return ops::ones_like(self, ScalarType::Bool);
}

Tensor isfinite(const Tensor& self) {
  if (!is_floating(self.dtype())) return ops::ones_like(self, ScalarType::Bool);
  return ops::mul(ops::eq(self, self),
                  ops::ne(ops::abs(self), std::numeric_limits<double>::infinity()));
}

// |self - other| <= atol + rtol * |other| where finite, or self == other (nan == nan with
// equal_nan), as torch 1.13's at::isclose — including its order of ops.
Tensor isclose(const Tensor& self, const Tensor& other, double rtol, double atol, bool equal_nan) {
  OPSCOPE_CHECK(self.dtype() == other.dtype(), cpp_name(self.dtype()), " did not match ",
                cpp_name(other.dtype()));
  OPSCOPE_CHECK(rtol >= 0, "rtol must be greater than or equal to zero, but got ", rtol);
  OPSCOPE_CHECK(atol >= 0, "atol must be greater than or equal to zero, but got ", atol);
  Tensor close = ops::eq(self, other);
  if (equal_nan && is_floating(self.dtype()))
    ops::bitwise_or_(close, ops::bitwise_and_(ops::isnan(self), ops::isnan(other)));
  // Zero tolerances: closeness is equality (and nan must not count as close).
  if (rtol == 0 && atol == 0) return close;
  // Bools compute their error in the default float dtype; integers keep their (common) dtype for
  // the difference, so it cannot be truncated.
  const Tensor cast_self = self.dtype() == ScalarType::Bool ? ops::to(self, default_dtype()) : self;
  const Tensor cast_other =
      other.dtype() == ScalarType::Bool ? ops::to(other, default_dtype()) : other;
  Tensor allowed_error = ops::add(ops::abs(ops::mul(cast_other, wrapped_scalar_tensor(rtol))),
                                  wrapped_scalar_tensor(atol));
  Tensor actual_error = ops::abs(ops::sub(cast_self, cast_other));
  ops::bitwise_or_(
      close, ops::bitwise_and_(ops::isfinite(actual_error), ops::le(actual_error, allowed_error)));
  return close;
}

// isclose(...).all() as a bool.
bool allclose(const Tensor& self, const Tensor& other, double rtol, double atol, bool equal_nan) {
  return ops::item(ops::all(ops::isclose(self, other, rtol, atol, equal_nan))).to_bool();
}

// Whether self and other have the same sizes (dtypes and strides aside).
bool is_same_size(const Tensor& self, const Tensor& other) {
  return std::ranges::equal(self.sizes(), other.sizes());
}

// bool(self): the one element != 0 (nan counts as nonzero); no element, or several, is an error.
bool is_nonzero(const Tensor& self) {
  const int64_t n = self.numel();
  OPSCOPE_CHECK(n != 0, "Boolean value of Tensor with no values is ambiguous");
  OPSCOPE_CHECK(n < 2, "Boolean value of Tensor with more than one value is ambiguous");
  Scalar value = ops::item(self);
  if (value.is_floating_point()) return value.to_double() != 0;
  if (value.is_integral()) return value.to_long() != 0;
  return value.to_bool();
}

static Library composite_implicit_compare(Library::IMPL, "aten",
                                          DispatchKey::CompositeImplicitAutograd, [](Library& m) {
                                            m.impl("clip", fn<&clip>);
                                            m.impl("clip_", fn<&clip_>);
                                            m.impl("clip.out", fn<&clip_out>);
                                            m.impl("clip.Tensor", fn<&clip_tensor>);
                                            m.impl("clip_.Tensor", fn<&clip_tensor_>);
                                            m.impl("clip.Tensor_out", fn<&clip_tensor_out>);
                                            m.impl("where.ScalarSelf", fn<&where_scalarself>);
                                            m.impl("where.ScalarOther", fn<&where_scalarother>);
                                            m.impl("where.Scalar", fn<&where_scalar>);
                                            m.impl("where", fn<&where_condition>);
                                            m.impl("isfinite", fn<&isfinite>);
                                            m.impl("isreal", fn<&isreal>);
                                            m.impl("isclose", fn<&isclose>);
                                            m.impl("is_nonzero", fn<&is_nonzero>);
                                          });

static Library composite_explicit_compare(Library::IMPL, "aten",
                                          DispatchKey::CompositeExplicitAutograd, [](Library& m) {
                                            m.impl("isnan.out", fn<&isnan_out>);
                                            m.impl("isinf", fn<&isinf>);
                                            m.impl("isinf.out", fn<&isinf_out>);
                                            m.impl("allclose", fn<&allclose>);
                                            m.impl("is_same_size", fn<&is_same_size>);
                                          });

}  // namespace opscope::composite
