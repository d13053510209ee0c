// The tensor utilities: schemas, registrations, the composite kernels (isclose, allclose) and the
// C++ entry points. See core/ops/utility.h. The CPU kernel of equal is in core/ops/cpu/utility.cpp.
#include "core/ops/utility.h"

#include "core/dispatch/Library.h"
#include "core/ops/copy.h"
#include "core/ops/binary.h"
#include "core/ops/unary.h"
#include "core/ops/reduce.h"
#include "core/ops/compare.h"
#include "core/ops/nn.h"
#include "core/runtime/ScalarType.h"
#include "core/ops/TensorIterator.h"

namespace opscope {

namespace cpu {
bool equal(const Tensor& self, const Tensor& other);
Scalar _local_scalar_dense(const Tensor& self);
}  // namespace cpu

namespace composite {

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

// The value of a one-element tensor.
Scalar item(const Tensor& self) {
  OPSCOPE_CHECK(self.numel() == 1, "a Tensor with ", self.numel(),
                " elements cannot be converted to Scalar");
  return ops::_local_scalar_dense(self);
}

}  // namespace composite

static Library utility_ops(Library::FRAGMENT, "aten", [](Library& m) {
  m.def("equal(Tensor self, Tensor other) -> bool");
  m.impl("equal", DispatchKey::CPU, fn<&cpu::equal>);
  m.def(
      "isclose(Tensor self, Tensor other, float rtol=1e-05, float atol=1e-08, "
      "bool equal_nan=False) -> Tensor");
  m.impl("isclose", DispatchKey::CompositeImplicitAutograd, fn<&composite::isclose>);
  m.def(
      "allclose(Tensor self, Tensor other, float rtol=1e-05, float atol=1e-08, "
      "bool equal_nan=False) -> bool");
  m.impl("allclose", DispatchKey::CompositeExplicitAutograd, fn<&composite::allclose>);
  // Python's Tensor.item() checks and converts in the binding (core/python/tensor_type.cpp);
  // these are for C++ callers, whose traces then read item -> _local_scalar_dense as torch's.
  m.def("item(Tensor self) -> Scalar", Variants::None);
  m.impl("item", DispatchKey::CompositeImplicitAutograd, fn<&composite::item>);
  m.def("_local_scalar_dense(Tensor self) -> Scalar", Variants::None);
  m.impl("_local_scalar_dense", DispatchKey::CPU, fn<&cpu::_local_scalar_dense>);
});

namespace ops {

// Scalar returns travel boxed (IValue), so these two call through the boxed path.
namespace {
Scalar call_scalar_op(std::string_view full_name, const Tensor& self) {
  Stack stack{IValue(self)};
  Dispatcher::singleton().find_by_full_name(full_name).call_boxed(&stack);
  return stack.back().to_scalar();
}
}  // namespace

Scalar item(const Tensor& self) {
  return call_scalar_op("aten::item", self);
}
Scalar _local_scalar_dense(const Tensor& self) {
  return call_scalar_op("aten::_local_scalar_dense", self);
}

}  // namespace ops
}  // namespace opscope
