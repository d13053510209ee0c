// The copy family's declarations and C++ entry points. See core/ops/copy.h.
#include "core/ops/copy.h"

#include "core/dispatch/Library.h"

namespace opscope {

static Library copy_ops(Library::FRAGMENT, "aten", [](Library& m) {
  m.def("copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)");
  m.impl("copy_", DispatchKey::CPU, fn<&cpu::copy_>);

  m.def(
      "_to_copy(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
      "bool? pin_memory=None, bool non_blocking=False, MemoryFormat? memory_format=None) -> Tensor",
      Variants::Function);
  m.impl("_to_copy", DispatchKey::CompositeExplicitAutograd, fn<&composite::_to_copy>);
  m.def(
      "to.dtype(Tensor(a) self, ScalarType dtype, bool non_blocking=False, bool copy=False, "
      "MemoryFormat? memory_format=None) -> Tensor(a)",
      Variants::Method);
  m.impl("to.dtype", DispatchKey::CompositeImplicitAutograd, fn<&composite::to_dtype>);
  m.def(
      "to.device(Tensor(a) self, Device device, ScalarType dtype, bool non_blocking=False, "
      "bool copy=False, MemoryFormat? memory_format=None) -> Tensor(a)",
      Variants::Method);
  m.impl("to.device", DispatchKey::CompositeImplicitAutograd, fn<&composite::to_device>);
  m.def(
      "to.other(Tensor(a) self, Tensor other, bool non_blocking=False, bool copy=False, "
      "MemoryFormat? memory_format=None) -> Tensor(a)",
      Variants::Method);
  m.impl("to.other", DispatchKey::CompositeImplicitAutograd, fn<&composite::to_other>);
  m.def(
      "to.dtype_layout(Tensor(a) self, *, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None, bool non_blocking=False, bool copy=False, "
      "MemoryFormat? memory_format=None) -> Tensor(a)",
      Variants::Method);
  m.impl("to.dtype_layout", DispatchKey::CompositeImplicitAutograd,
         fn<&composite::to_dtype_layout>);

  m.def("clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor");
  m.impl("clone", DispatchKey::CompositeExplicitAutograd, fn<&composite::clone>);
  m.def("contiguous(Tensor(a) self, *, MemoryFormat memory_format=contiguous_format) -> Tensor(a)",
        Variants::Method);
  m.impl("contiguous", DispatchKey::CompositeImplicitAutograd, fn<&composite::contiguous>);

  m.def("fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.impl("fill_.Scalar", DispatchKey::CPU, fn<&cpu::fill_>);
  m.def("fill_.Tensor(Tensor(a!) self, Tensor value) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.impl("fill_.Tensor", DispatchKey::CPU, fn<&cpu::fill_tensor_>);
  m.def("zero_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.impl("zero_", DispatchKey::CPU, fn<&cpu::zero_>);
});

namespace ops {

using OptInt = std::optional<int64_t>;

}  // namespace ops
}  // namespace opscope
