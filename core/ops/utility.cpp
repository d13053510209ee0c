// item and _local_scalar_dense (see core/ops/utility.h): their schemas, item's composite kernel
// and their C++ entry points, which call through the boxed path. The CPU kernel of
// _local_scalar_dense is in core/ops/cpu/utility.cpp.
#include "core/ops/utility.h"

#include "core/dispatch/Library.h"

namespace opscope {

namespace composite {

// The value of a one-element tensor.
Scalar item(const Tensor& self) {
  OPSCOPE_CHECK(self.numel() == 1, "a Tensor with ", self.numel(),
                " elements cannot be converted to Scalar");
  return ops::_local_scalar_dense(self);
}

}  // namespace composite

static Library utility_ops(Library::FRAGMENT, "aten", [](Library& m) {
  // Python's Tensor.item() checks and converts in the binding (core/python/tensor_type.cpp);
  // these are for C++ callers, whose traces then read item -> _local_scalar_dense as torch's.
  m.def("item(Tensor self) -> Scalar", Variants::None);
  m.impl("item", DispatchKey::CompositeImplicitAutograd, fn<&composite::item>);
  m.def("_local_scalar_dense(Tensor self) -> Scalar", Variants::None);
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
