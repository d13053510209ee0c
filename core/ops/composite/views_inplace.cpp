// The in-place shape ops: unsqueeze_, squeeze_, t_, transpose_, as_strided_ and resize_ change
// self's sizes and strides (resize_ its storage too), not its values. Schemas in
// core/ops/views.cpp; swapaxes_ / swapdims_ are aliases of transpose_ (composite/aliases.cpp).
//
// Each takes the geometry its functional view would have — the same checks and messages — and
// gives it to self. Being in-place ops, they bump self's version (ADInplaceOrView) and refuse a
// leaf that requires grad, as torch does; on a tensor with history, autograd records torch's
// node for the in-place form (TBackward1, UnsqueezeBackward1, ... in
// core/autograd/derivatives/views.cpp). Two cases torch handles and opscope refuses, with
// NotImplementedError rather than a graph whose shapes no longer match: a view whose base
// requires grad (its base's history would need the new geometry), and as_strided_.
#include "core/autograd/GradMode.h"
#include "core/dispatch/Library.h"
#include "core/ops/TensorIterator.h"
#include "core/ops/views.h"

namespace opscope::composite {

namespace {

// See the note at the top: `any` refuses every tensor that requires grad (as_strided_), else
// only views.
void refuse_grad(const Tensor& self, const char* op, const char* functional, bool any = false) {
  const bool refused = autograd::grad_mode_enabled() && self->requires_grad() &&
                       (any || self->view_base() != nullptr);
  OPSCOPE_CHECK_AS(NotImplementedError, !refused, op, " on ",
                   any ? "a tensor" : "a view of a tensor",
                   " that requires grad is not differentiable in opscope; use ", functional,
                   " (out of place) instead");
}

// self takes view's sizes, strides and offset; view is a view of self.
Tensor adopt_geometry(const Tensor& self, const Tensor& view) {
  self->set_geometry(view.sizes(), view.strides(), view->storage_offset());
  return self;
}

}  // namespace

// (2, 3) -> (2, 1, 3) for dim 1, in place.
Tensor unsqueeze_(const Tensor& self, int64_t dim) {
  refuse_grad(self, "unsqueeze_()", "unsqueeze()");
  return adopt_geometry(self, ops::unsqueeze(self, dim));
}

// Drops every dim of size 1, in place.
Tensor squeeze_(const Tensor& self) {
  refuse_grad(self, "squeeze_()", "squeeze()");
  return adopt_geometry(self, ops::squeeze(self));
}

// Drops dim if its size is 1, in place.
Tensor squeeze__dim(const Tensor& self, int64_t dim) {
  refuse_grad(self, "squeeze_()", "squeeze()");
  return adopt_geometry(self, ops::squeeze(self, dim));
}

// (M, N) -> (N, M), in place; (N) and () unchanged.
Tensor t_(const Tensor& self) {
  OPSCOPE_CHECK(self.dim() <= 2, "t_() expects a tensor with <= 2 dimensions, but self is ",
                self.dim(), "D");
  refuse_grad(self, "t_()", "t()");
  return adopt_geometry(self, ops::t(self));
}

// Swaps dims dim0 and dim1, in place.
Tensor transpose_(const Tensor& self, int64_t dim0, int64_t dim1) {
  refuse_grad(self, "transpose_()", "transpose()");
  return adopt_geometry(self, ops::transpose(self, dim0, dim1));
}

// Any geometry inside self's storage, in place (offset None keeps self's).
Tensor as_strided_(const Tensor& self, IntArrayRef size, IntArrayRef stride,
                   std::optional<int64_t> storage_offset) {
  refuse_grad(self, "as_strided_()", "as_strided()", true);
  return adopt_geometry(self, ops::as_strided(self, size, stride, storage_offset));
}

// self -> size, contiguous, its storage grown when it is too small; values kept where the old
// and new layouts overlap in memory, the rest uninitialized. Same sizes: self unchanged.
Tensor resize_(const Tensor& self, IntArrayRef size, std::optional<int64_t> memory_format) {
  OPSCOPE_CHECK(!self->requires_grad(), "cannot resize variables that require grad");
  OPSCOPE_CHECK_AS(NotImplementedError, !memory_format || *memory_format == 0,
                   "opscope's resize_ supports only torch.contiguous_format");
  // torch 1.13's message for a negative size, as its resize_ computes the new numel first.
  for (int64_t s : size) OPSCOPE_CHECK(s >= 0, "numel: integer multiplication overflow");
  resize_output(self, size);
  return self;
}

static Library composite_views_inplace(
    Library::IMPL, "aten", DispatchKey::CompositeExplicitAutograd, [](Library& m) {
      m.impl("unsqueeze_", fn<&unsqueeze_>);
      m.impl("squeeze_", fn<&squeeze_>);
      m.impl("squeeze_.dim", fn<&squeeze__dim>);
      m.impl("t_", fn<&t_>);
      m.impl("transpose_", fn<&transpose_>);
      m.impl("as_strided_", fn<&as_strided_>);
      m.impl("resize_", fn<&resize_>);
    });

}  // namespace opscope::composite
