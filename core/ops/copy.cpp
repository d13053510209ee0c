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

Tensor copy_(const Tensor& self, const Tensor& src, bool non_blocking) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&, bool)>("aten::copy_");
  return op.call(self, src, non_blocking);
}

Tensor _to_copy(const Tensor& self, std::optional<ScalarType> dtype, OptInt layout,
                std::optional<Device> device, std::optional<bool> pin_memory, bool non_blocking,
                OptInt memory_format) {
  static const auto op =
      typed_op<Tensor(const Tensor&, std::optional<ScalarType>, OptInt, std::optional<Device>,
                      std::optional<bool>, bool, OptInt)>("aten::_to_copy");
  return op.call(self, dtype, layout, device, pin_memory, non_blocking, memory_format);
}

Tensor to(const Tensor& self, ScalarType dtype, bool non_blocking, bool copy,
          OptInt memory_format) {
  static const auto op =
      typed_op<Tensor(const Tensor&, ScalarType, bool, bool, OptInt)>("aten::to.dtype");
  return op.call(self, dtype, non_blocking, copy, memory_format);
}

Tensor to(const Tensor& self, Device device, ScalarType dtype, bool non_blocking, bool copy,
          OptInt memory_format) {
  static const auto op =
      typed_op<Tensor(const Tensor&, std::optional<Device>, ScalarType, bool, bool, OptInt)>(
          "aten::to.device");
  return op.call(self, device, dtype, non_blocking, copy, memory_format);
}

Tensor to(const Tensor& self, const Tensor& other, bool non_blocking, bool copy,
          OptInt memory_format) {
  static const auto op =
      typed_op<Tensor(const Tensor&, const Tensor&, bool, bool, OptInt)>("aten::to.other");
  return op.call(self, other, non_blocking, copy, memory_format);
}

Tensor to(const Tensor& self, std::optional<ScalarType> dtype, OptInt layout,
          std::optional<Device> device, std::optional<bool> pin_memory, bool non_blocking,
          bool copy, OptInt memory_format) {
  static const auto op =
      typed_op<Tensor(const Tensor&, std::optional<ScalarType>, OptInt, std::optional<Device>,
                      std::optional<bool>, bool, bool, OptInt)>("aten::to.dtype_layout");
  return op.call(self, dtype, layout, device, pin_memory, non_blocking, copy, memory_format);
}

Tensor clone(const Tensor& self, OptInt memory_format) {
  static const auto op = typed_op<Tensor(const Tensor&, OptInt)>("aten::clone");
  return op.call(self, memory_format);
}

Tensor contiguous(const Tensor& self, MemoryFormatArg memory_format) {
  static const auto op = typed_op<Tensor(const Tensor&, MemoryFormatArg)>("aten::contiguous");
  return op.call(self, memory_format);
}

Tensor fill_(const Tensor& self, const Scalar& value) {
  static const auto op = typed_op<Tensor(const Tensor&, const Scalar&)>("aten::fill_.Scalar");
  return op.call(self, value);
}

Tensor fill_(const Tensor& self, const Tensor& value) {
  static const auto op = typed_op<Tensor(const Tensor&, const Tensor&)>("aten::fill_.Tensor");
  return op.call(self, value);
}

Tensor zero_(const Tensor& self) {
  static const auto op = typed_op<Tensor(const Tensor&)>("aten::zero_");
  return op.call(self);
}

}  // namespace ops
}  // namespace opscope
