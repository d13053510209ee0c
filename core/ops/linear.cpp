// The linear-algebra family's schemas: one def row per overload (what PyTorch keeps in
// native_functions.yaml). See core/ops/linear.h for what each op does.
//
// Kernels, each registered beside its definition: the products (dot, vdot, mv, mm, bmm, addmm,
// addmv, baddbmm and their out= and in-place forms) are CPU kernels in core/ops/cpu/linear.cpp
// (torch 1.13 registers mv and the dot / vdot out= forms as CompositeExplicitAutograd over
// addmv_ / fill_; here they are CPU kernels too); matmul, linear, outer, ger, einsum and
// tensordot are CompositeImplicitAutograd in core/ops/composite/linear.cpp, so their traces show
// the ops they decompose into; linear.out and tensordot.out are CompositeExplicitAutograd there.
#include "core/ops/linear.h"

#include "core/dispatch/Library.h"

namespace opscope {

static Library linear_ops(Library::FRAGMENT, "aten", [](Library& m) {
  constexpr Variants kFunction = Variants::Function;  // out= forms: torch.mm(a, b, out=c) only

  // self (K), tensor (K) -> ()
  m.def("dot(Tensor self, Tensor tensor) -> Tensor");
  m.def("dot.out(Tensor self, Tensor tensor, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.def("vdot(Tensor self, Tensor other) -> Tensor");
  m.def("vdot.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  // self (M,K), vec (K) -> (M)
  m.def("mv(Tensor self, Tensor vec) -> Tensor");
  m.def("mv.out(Tensor self, Tensor vec, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  // self (M,K), mat2 (K,N) -> (M,N)
  m.def("mm(Tensor self, Tensor mat2) -> Tensor");
  m.def("mm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  // self (B,M,K), mat2 (B,K,N) -> (B,M,N)
  m.def("bmm(Tensor self, Tensor mat2) -> Tensor");
  m.def("bmm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!)", kFunction);

  // beta * self + alpha * mat1 @ mat2: self broadcastable to (M,N), mat1 (M,K), mat2 (K,N)
  m.def("addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor");
  m.def(
      "addmm.out(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1, "
      "Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.def(
      "addmm_(Tensor(a!) self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) "
      "-> Tensor(a!)");
  // beta * self + alpha * mat @ vec: self broadcastable to (M), mat (M,K), vec (K)
  m.def("addmv(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) -> Tensor");
  m.def(
      "addmv.out(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1, "
      "Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.def(
      "addmv_(Tensor(a!) self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) "
      "-> Tensor(a!)");
  // beta * self + alpha * batch1 @ batch2: batch1 (B,M,K), batch2 (B,K,N) -> (B,M,N)
  m.def(
      "baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) "
      "-> Tensor");
  m.def(
      "baddbmm.out(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, "
      "Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.def(
      "baddbmm_(Tensor(a!) self, Tensor batch1, Tensor batch2, *, Scalar beta=1, "
      "Scalar alpha=1) -> Tensor(a!)");

  // (*b1, n, k) · (*b2, k, m) -> (broadcast(b1, b2), n, m); see Note [How matmul decomposes]
  m.def("matmul(Tensor self, Tensor other) -> Tensor");
  m.def("matmul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  // input (*, K), weight (N,K), bias (N) -> (*, N)
  m.def("linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor");
  m.def(
      "linear.out(Tensor input, Tensor weight, Tensor? bias=None, *, Tensor(a!) out) "
      "-> Tensor(a!)",
      kFunction);
  // self (M), vec2 (N) -> (M,N)
  m.def("outer(Tensor self, Tensor vec2) -> Tensor");
  m.def("outer.out(Tensor self, Tensor vec2, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.def("ger(Tensor self, Tensor vec2) -> Tensor");
  m.def("ger.out(Tensor self, Tensor vec2, *, Tensor(a!) out) -> Tensor(a!)", kFunction);

  // "ij,jk->ik", [(I,J), (J,K)] -> (I,K); see Note [How einsum decomposes]. opscope.einsum is
  // torch.functional's Python function over it (variadic operands, the sublist form).
  m.def("einsum(str equation, Tensor[] tensors, *, int[]? path=None) -> Tensor");
  // self (*A, *C), other (*C, *B) with C at dims_self / dims_other -> (*A, *B)
  m.def("tensordot(Tensor self, Tensor other, int[] dims_self, int[] dims_other) -> Tensor",
        kFunction);
  m.def(
      "tensordot.out(Tensor self, Tensor other, int[] dims_self, int[] dims_other, *, "
      "Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  // self (*A, k), other (*B, k) -> (*A, *B): sums over the last dims (a 0-d operand multiplies)
  m.def("inner(Tensor self, Tensor other) -> Tensor");
  m.def("inner.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
});

}  // namespace opscope
