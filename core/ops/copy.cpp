// The copy family's schemas, one def row per overload. See core/ops/copy.h. Kernels, registered
// at the end of their files: core/ops/cpu/copy.cpp (copy_, fill_, zero_) and
// core/ops/composite/copy.cpp (_to_copy, to, clone, contiguous).
#include "core/ops/copy.h"

#include "core/dispatch/Library.h"

namespace opscope {

static Library copy_ops(Library::FRAGMENT, "aten", [](Library& m) {
  m.def("copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)");

  m.def(
      "_to_copy(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
      "bool? pin_memory=None, bool non_blocking=False, MemoryFormat? memory_format=None) -> Tensor",
      Variants::Function);
  m.def(
      "to.dtype(Tensor(a) self, ScalarType dtype, bool non_blocking=False, bool copy=False, "
      "MemoryFormat? memory_format=None) -> Tensor(a)",
      Variants::Method);
  m.def(
      "to.device(Tensor(a) self, Device device, ScalarType dtype, bool non_blocking=False, "
      "bool copy=False, MemoryFormat? memory_format=None) -> Tensor(a)",
      Variants::Method);
  m.def(
      "to.other(Tensor(a) self, Tensor other, bool non_blocking=False, bool copy=False, "
      "MemoryFormat? memory_format=None) -> Tensor(a)",
      Variants::Method);
  m.def(
      "to.dtype_layout(Tensor(a) self, *, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None, bool non_blocking=False, bool copy=False, "
      "MemoryFormat? memory_format=None) -> Tensor(a)",
      Variants::Method);

  // self [*s] -> [*s] in other's dtype (and device): to.dtype_layout
  m.def("type_as(Tensor self, Tensor other) -> Tensor", Variants::Method);

  m.def("clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor");
  m.def("contiguous(Tensor(a) self, *, MemoryFormat memory_format=contiguous_format) -> Tensor(a)",
        Variants::Method);

  m.def("fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("fill_.Tensor(Tensor(a!) self, Tensor value) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("zero_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  // self (n, n, ...) or (h, w) -> its main diagonal set to fill_value (a tall matrix with wrap:
  // again every w + 1 rows)
  m.def("fill_diagonal_(Tensor(a!) self, Scalar fill_value, bool wrap=False) -> Tensor(a!)",
        Variants::Method);
});

namespace ops {

using OptInt = std::optional<int64_t>;

}  // namespace ops
}  // namespace opscope
