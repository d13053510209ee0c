// The view / shape family: schemas, one def row per overload (the kernels are registered at the end
// of the files that define them). Kernels are in core/ops/composite/views.cpp; see core/ops/views.h
// for what each op does.
//
// Keys follow PyTorch 1.13. Ops torch implements once for every backend are
// CompositeExplicitAutograd here. view, as_strided, _reshape_alias and unfold have CPU and Meta
// kernels in torch; their kernels only touch geometry, so one CompositeExplicitAutograd kernel
// serves every backend (the trace still reads view[CPU]). Ops torch writes in terms of other ops
// (reshape, flatten, narrow, ...) are CompositeImplicitAutograd. Python names follow torch:
// `view`, `expand`, `view_as`, `expand_as` and `unfold` are methods only; `slice`, `alias`,
// `_reshape_alias` and `_unsafe_view` exist only as opscope.ops.aten.<name>.
#include "core/ops/views.h"

#include "core/dispatch/Library.h"

namespace opscope {

static Library view_ops(Library::FRAGMENT, "aten", [](Library& m) {

  // Views built directly.
  m.def("view(Tensor(a) self, SymInt[] size) -> Tensor(a)", Variants::Method);
  // The same memory read as another dtype. No derivative entry (torch: not differentiable), so
  // the result has no grad_fn and does not require grad.
  m.def("view.dtype(Tensor(a) self, ScalarType dtype) -> Tensor(a)", Variants::Method);
  m.def("_reshape_alias(Tensor(a) self, SymInt[] size, SymInt[] stride) -> Tensor(a)",
        Variants::None);
  m.def("_unsafe_view(Tensor self, SymInt[] size) -> Tensor", Variants::None);
  m.def("alias(Tensor(a) self) -> Tensor(a)", Variants::None);
  // A view outside autograd: no derivative entry, so the Autograd key falls through and the
  // result has no grad_fn and does not require grad.
  m.def("detach(Tensor(a) self) -> Tensor(a)");
  m.def(
      "as_strided(Tensor(a) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) "
      "-> Tensor(a)");

  // Views through as_strided.
  m.def("transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)");
  m.def("t(Tensor(a) self) -> Tensor(a)");
  m.def("permute(Tensor(a) self, int[] dims) -> Tensor(a)");
  m.def("squeeze(Tensor(a) self) -> Tensor(a)");
  m.def("squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)");
  m.def("unsqueeze(Tensor(a) self, int dim) -> Tensor(a)");
  m.def("expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a)",
        Variants::Method);
  m.def("select.int(Tensor(a) self, int dim, int index) -> Tensor(a)");
  m.def(
      "slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, "
      "SymInt step=1) -> Tensor(a)",
      Variants::None);
  m.def("diagonal(Tensor(a) self, int offset=0, int dim1=0, int dim2=1) -> Tensor(a)");
  m.def("unfold(Tensor(a) self, int dimension, int size, int step) -> Tensor(a)", Variants::Method);
  m.def("unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]");

  // Defined by other ops.
  m.def("reshape(Tensor(a) self, SymInt[] shape) -> Tensor(a)");
  m.def("view_as(Tensor(a) self, Tensor other) -> Tensor(a)", Variants::Method);
  m.def("expand_as(Tensor(a) self, Tensor other) -> Tensor(a)", Variants::Method);
  // The shorthands of composite/views_shorthands.cpp: (*s) -> (numel), self as other's shape,
  // (*s) -> size (expand), every tensor to the broadcast shape, (*, m, n) -> (*, n, m).
  m.def("ravel(Tensor(a) self) -> Tensor(a)");
  m.def("reshape_as(Tensor(a) self, Tensor other) -> Tensor(a)", Variants::Method);
  m.def("broadcast_to(Tensor(a) self, int[] size) -> Tensor(a)");
  m.def("broadcast_tensors(Tensor[] tensors) -> Tensor[]", Variants::Function);
  m.def("mT(Tensor(a) self) -> Tensor(a)", Variants::Method);  // a property in Python
  m.def("mH(Tensor(a) self) -> Tensor(a)", Variants::Method);  // a property in Python
  // (*, m, n) -> (*, n, m): the conjugate transpose, for real tensors mH
  m.def("adjoint(Tensor(a) self) -> Tensor(a)");
  // The complex-conjugate family on real tensors (opscope has no complex dtype): self itself,
  // as torch returns it for non-complex tensors; is_conj / is_neg are False.
  m.def("conj(Tensor(a) self) -> Tensor(a)");
  m.def("resolve_conj(Tensor(a) self) -> Tensor(a)");
  m.def("resolve_neg(Tensor(a) self) -> Tensor(a)");
  m.def("conj_physical(Tensor self) -> Tensor");
  m.def("real(Tensor(a) self) -> Tensor(a)", Variants::Function);  // a property in Python
  m.def("is_conj(Tensor self) -> bool");
  m.def("is_neg(Tensor self) -> bool");
  m.def("narrow(Tensor(a) self, int dim, int start, int length) -> Tensor(a)");
  m.def("flatten.using_ints(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a)");
  m.def("unflatten.int(Tensor(a) self, int dim, int[] sizes) -> Tensor(a)");
  m.def("movedim.intlist(Tensor(a) self, int[] source, int[] destination) -> Tensor(a)");
  m.def("movedim.int(Tensor(a) self, int source, int destination) -> Tensor(a)");
  m.def("moveaxis.intlist(Tensor(a) self, int[] source, int[] destination) -> Tensor(a)");
  m.def("moveaxis.int(Tensor(a) self, int source, int destination) -> Tensor(a)");
  m.def("swapaxes(Tensor(a) self, int axis0, int axis1) -> Tensor(a)");
  m.def("swapdims(Tensor(a) self, int dim0, int dim1) -> Tensor(a)");

  // In place: self takes the view's geometry (kernels in core/ops/composite/views_inplace.cpp;
  // swapaxes_ / swapdims_ are aliases of transpose_, composite/aliases.cpp).
  constexpr Variants kMethod = Variants::Method;
  m.def("unsqueeze_(Tensor(a!) self, int dim) -> Tensor(a!)", kMethod);
  m.def("squeeze_(Tensor(a!) self) -> Tensor(a!)", kMethod);
  m.def("squeeze_.dim(Tensor(a!) self, int dim) -> Tensor(a!)", kMethod);
  m.def("t_(Tensor(a!) self) -> Tensor(a!)", kMethod);
  m.def("transpose_(Tensor(a!) self, int dim0, int dim1) -> Tensor(a!)", kMethod);
  m.def("swapaxes_(Tensor(a!) self, int axis0, int axis1) -> Tensor(a!)", kMethod);
  m.def("swapdims_(Tensor(a!) self, int dim0, int dim1) -> Tensor(a!)", kMethod);
  m.def(
      "as_strided_(Tensor(a!) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) "
      "-> Tensor(a!)",
      Variants::FunctionAndMethod);
  m.def(
      "resize_(Tensor(a!) self, SymInt[] size, *, MemoryFormat? memory_format=None) "
      "-> Tensor(a!)",
      kMethod);

  // The backward ops of views (their derivatives call them): grad_output -> input_sizes.
  m.def(
      "select_backward(Tensor grad_output, SymInt[] input_sizes, int dim, SymInt index) -> "
      "Tensor");
  m.def(
      "slice_backward(Tensor grad_output, SymInt[] input_sizes, int dim, SymInt start, "
      "SymInt end, SymInt step) -> Tensor");
  m.def(
      "diagonal_backward(Tensor grad_output, SymInt[] input_sizes, int offset, int dim1, "
      "int dim2) -> Tensor");
  m.def(
      "unfold_backward(Tensor grad_in, SymInt[] input_sizes, int dim, int size, int step) -> "
      "Tensor");
});

}  // namespace opscope
