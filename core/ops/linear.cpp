// The linear-algebra family: schemas, their kernels' registrations, and the C++ entry points.
// Kernels: core/ops/cpu/linear.cpp (dot, vdot, mv, mm, bmm, addmm, addmv, baddbmm and their out=
// and in-place forms) and core/ops/composite/linear.cpp (matmul, linear, outer, ger). See
// core/ops/linear.h for what each op does.
//
// Keys: the products are CPU kernels (torch 1.13 registers mv and the dot / vdot out= forms as
// CompositeExplicitAutograd over addmv_ / fill_; here they are CPU kernels too); matmul, linear,
// outer and ger are CompositeImplicitAutograd, so their traces show the ops they decompose into;
// linear.out is CompositeExplicitAutograd, as in torch.
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
Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
             const Scalar& alpha);
Tensor addmm_out(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
                 const Scalar& alpha, const Tensor& out);
Tensor addmm_(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
              const Scalar& alpha);
Tensor addmv(const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta,
             const Scalar& alpha);
Tensor addmv_out(const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta,
                 const Scalar& alpha, const Tensor& out);
Tensor addmv_(const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta,
              const Scalar& alpha);
Tensor baddbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
               const Scalar& alpha);
Tensor baddbmm_out(const Tensor& self, const Tensor& batch1, const Tensor& batch2,
                   const Scalar& beta, const Scalar& alpha, const Tensor& out);
Tensor baddbmm_(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
                const Scalar& alpha);
}  // namespace cpu

// Defined in core/ops/composite/linear.cpp.
namespace composite {
Tensor matmul(const Tensor& self, const Tensor& other);
Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias);
Tensor linear_out(const Tensor& input, const Tensor& weight, const Tensor& bias, const Tensor& out);
Tensor outer(const Tensor& self, const Tensor& vec2);
Tensor outer_out(const Tensor& self, const Tensor& vec2, const Tensor& out);
Tensor ger(const Tensor& self, const Tensor& vec2);
Tensor ger_out(const Tensor& self, const Tensor& vec2, const Tensor& out);
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

  m.def("addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor");
  m.impl("addmm", kCPU, fn<&cpu::addmm>);
  m.def(
      "addmm.out(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1, "
      "Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.impl("addmm.out", kCPU, fn<&cpu::addmm_out>);
  m.def(
      "addmm_(Tensor(a!) self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) "
      "-> Tensor(a!)");
  m.impl("addmm_", kCPU, fn<&cpu::addmm_>);
  m.def("addmv(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) -> Tensor");
  m.impl("addmv", kCPU, fn<&cpu::addmv>);
  m.def(
      "addmv.out(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1, "
      "Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.impl("addmv.out", kCPU, fn<&cpu::addmv_out>);
  m.def(
      "addmv_(Tensor(a!) self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) "
      "-> Tensor(a!)");
  m.impl("addmv_", kCPU, fn<&cpu::addmv_>);
  m.def(
      "baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) "
      "-> Tensor");
  m.impl("baddbmm", kCPU, fn<&cpu::baddbmm>);
  m.def(
      "baddbmm.out(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, "
      "Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.impl("baddbmm.out", kCPU, fn<&cpu::baddbmm_out>);
  m.def(
      "baddbmm_(Tensor(a!) self, Tensor batch1, Tensor batch2, *, Scalar beta=1, "
      "Scalar alpha=1) -> Tensor(a!)");
  m.impl("baddbmm_", kCPU, fn<&cpu::baddbmm_>);

  constexpr DispatchKey kImplicit = DispatchKey::CompositeImplicitAutograd;
  m.def("matmul(Tensor self, Tensor other) -> Tensor");
  m.impl("matmul", kImplicit, fn<&composite::matmul>);
  m.def("linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor");
  m.impl("linear", kImplicit, fn<&composite::linear>);
  m.def(
      "linear.out(Tensor input, Tensor weight, Tensor? bias=None, *, Tensor(a!) out) "
      "-> Tensor(a!)",
      kFunction);
  m.impl("linear.out", DispatchKey::CompositeExplicitAutograd, fn<&composite::linear_out>);
  m.def("outer(Tensor self, Tensor vec2) -> Tensor");
  m.impl("outer", kImplicit, fn<&composite::outer>);
  m.def("outer.out(Tensor self, Tensor vec2, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.impl("outer.out", kImplicit, fn<&composite::outer_out>);
  m.def("ger(Tensor self, Tensor vec2) -> Tensor");
  m.impl("ger", kImplicit, fn<&composite::ger>);
  m.def("ger.out(Tensor self, Tensor vec2, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.impl("ger.out", kImplicit, fn<&composite::ger_out>);
});

}  // namespace opscope
