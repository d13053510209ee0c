// The linear-algebra family: schemas, their kernels' registrations, and the C++ entry points.
// Kernels: core/ops/cpu/linear.cpp (dot, vdot, mv, mm, bmm and their out= forms) and
// core/ops/composite/linear.cpp (matmul). See core/ops/linear.h for what each op does.
//
// Keys: the products are CPU kernels (torch 1.13 registers mv and the dot / vdot out= forms as
// CompositeExplicitAutograd over addmv_ / fill_; here they are CPU kernels too), matmul is
// CompositeImplicitAutograd, so its trace shows the ops it decomposes into.
#include "core/ops/linear.h"

#include "core/dispatch/Library.h"

namespace opscope {

// Defined in core/ops/cpu/linear.cpp.
namespace cpu {
Tensor dot(const Tensor& self, const Tensor& tensor);
Tensor dot_out(const Tensor& self, const Tensor& tensor, const Tensor& out);
Tensor vdot(const Tensor& self, const Tensor& other);
Tensor vdot_out(const Tensor& self, const Tensor& other, const Tensor& out);
Tensor mv(const Tensor& self, const Tensor& vec);
Tensor mv_out(const Tensor& self, const Tensor& vec, const Tensor& out);
Tensor mm(const Tensor& self, const Tensor& mat2);
Tensor mm_out(const Tensor& self, const Tensor& mat2, const Tensor& out);
Tensor bmm(const Tensor& self, const Tensor& mat2);
Tensor bmm_out(const Tensor& self, const Tensor& mat2, const Tensor& out);
}  // namespace cpu

// Defined in core/ops/composite/linear.cpp.
namespace composite {
Tensor matmul(const Tensor& self, const Tensor& other);
}  // namespace composite

static Library linear_ops(Library::FRAGMENT, "aten", [](Library& m) {
  constexpr DispatchKey kCPU = DispatchKey::CPU;
  constexpr Variants kFunction = Variants::Function;  // out= forms: torch.mm(a, b, out=c) only

  m.def("dot(Tensor self, Tensor tensor) -> Tensor");
  m.impl("dot", kCPU, fn<&cpu::dot>);
  m.def("dot.out(Tensor self, Tensor tensor, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.impl("dot.out", kCPU, fn<&cpu::dot_out>);
  m.def("vdot(Tensor self, Tensor other) -> Tensor");
  m.impl("vdot", kCPU, fn<&cpu::vdot>);
  m.def("vdot.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.impl("vdot.out", kCPU, fn<&cpu::vdot_out>);
  m.def("mv(Tensor self, Tensor vec) -> Tensor");
  m.impl("mv", kCPU, fn<&cpu::mv>);
  m.def("mv.out(Tensor self, Tensor vec, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.impl("mv.out", kCPU, fn<&cpu::mv_out>);
  m.def("mm(Tensor self, Tensor mat2) -> Tensor");
  m.impl("mm", kCPU, fn<&cpu::mm>);
  m.def("mm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.impl("mm.out", kCPU, fn<&cpu::mm_out>);
  m.def("bmm(Tensor self, Tensor mat2) -> Tensor");
  m.impl("bmm", kCPU, fn<&cpu::bmm>);
  m.def("bmm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.impl("bmm.out", kCPU, fn<&cpu::bmm_out>);

  m.def("matmul(Tensor self, Tensor other) -> Tensor");
  m.impl("matmul", DispatchKey::CompositeImplicitAutograd, fn<&composite::matmul>);
});

// --- entry points ------------------------------------------------------------------------------

namespace ops {

namespace {
using Binary = Tensor(const Tensor&, const Tensor&);
using BinaryOut = Tensor(const Tensor&, const Tensor&, const Tensor&);
}  // namespace

Tensor dot(const Tensor& self, const Tensor& tensor) {
  static const auto op = typed_op<Binary>("aten::dot");
  return op.call(self, tensor);
}
Tensor dot_out(const Tensor& self, const Tensor& tensor, const Tensor& out) {
  static const auto op = typed_op<BinaryOut>("aten::dot.out");
  return op.call(self, tensor, out);
}
Tensor vdot(const Tensor& self, const Tensor& other) {
  static const auto op = typed_op<Binary>("aten::vdot");
  return op.call(self, other);
}
Tensor vdot_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  static const auto op = typed_op<BinaryOut>("aten::vdot.out");
  return op.call(self, other, out);
}
Tensor mv(const Tensor& self, const Tensor& vec) {
  static const auto op = typed_op<Binary>("aten::mv");
  return op.call(self, vec);
}
Tensor mv_out(const Tensor& self, const Tensor& vec, const Tensor& out) {
  static const auto op = typed_op<BinaryOut>("aten::mv.out");
  return op.call(self, vec, out);
}
Tensor mm(const Tensor& self, const Tensor& mat2) {
  static const auto op = typed_op<Binary>("aten::mm");
  return op.call(self, mat2);
}
Tensor mm_out(const Tensor& self, const Tensor& mat2, const Tensor& out) {
  static const auto op = typed_op<BinaryOut>("aten::mm.out");
  return op.call(self, mat2, out);
}
Tensor bmm(const Tensor& self, const Tensor& mat2) {
  static const auto op = typed_op<Binary>("aten::bmm");
  return op.call(self, mat2);
}
Tensor bmm_out(const Tensor& self, const Tensor& mat2, const Tensor& out) {
  static const auto op = typed_op<BinaryOut>("aten::bmm.out");
  return op.call(self, mat2, out);
}
Tensor matmul(const Tensor& self, const Tensor& other) {
  static const auto op = typed_op<Binary>("aten::matmul");
  return op.call(self, other);
}

}  // namespace ops
}  // namespace opscope
