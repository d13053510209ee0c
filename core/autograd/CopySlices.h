// In-place ops on views: CopySlices and the regenerated grad_fn of a view.
//
// Note [In-place on a view]
// Semantically, writing in place into a view writes into its base, so the base's history must
// change too. PyTorch's answer, reproduced here:
//
//   y = x * 2          y.grad_fn = MulBackward0
//   v = y[0]           v.grad_fn = SelectBackward0 ──► MulBackward0
//   v.mul_(3)          y.grad_fn = CopySlices ──► MulBackward0 (y's old history)
//                                   └─ runs MulBackward0 (of mul_) on the part of y that v covers
//                      v.grad_fn = AsStridedBackward0 ──► CopySlices  (made when next asked for)
//
// CopySlices takes the gradient of the whole base, hands the slice the view covers to the in-place
// op's own node, and puts what that returns back into the slice; the rest passes through. Every
// view remembers the version at which its grad_fn was set: when the shared version counter has
// moved on (some in-place write to the base or any view of it), the view's grad_fn is remade
// from the base's current history as AsStridedBackward0, the next time anyone asks for it.
//
// In implementation terms a view is a tensor whose TensorImpl has a view_base (its root base,
// set when the view is made; detach() and _unsafe_view make none). Geometry is kept as sizes,
// strides and the storage offset relative to the base, so both nodes rebuild the slice with
// as_strided on a tensor laid out like the base.
#pragma once

#include "core/autograd/Node.h"

namespace opscope::autograd {

// Sizes, strides and storage offset: where a view's elements sit in its base's storage.
struct Geometry {
  DimVector sizes, strides;
  int64_t offset = 0;
  explicit Geometry(const Tensor& t);
  Geometry(const Tensor& t, const Tensor& base);  // offset relative to base's
};

class CopySlices final : public Node {
 public:
  // `fn` recorded the in-place op on `view`; `base` is view's base, whose grad_fn this becomes.
  CopySlices(const Tensor& base, const Tensor& view, std::shared_ptr<Node> fn);
  std::string name() const override { return "CopySlices"; }
  variable_list apply(variable_list&& grads) override;
  void release_variables() override { fn_->release_variables(); }

 private:
  Geometry base_, view_;
  ScalarType dtype_;
  std::shared_ptr<Node> fn_;
};

// The grad_fn a view gets after an in-place write: its part of the base's gradient.
class AsStridedBackward0 final : public Node {
 public:
  AsStridedBackward0(const Tensor& base, const Tensor& view);
  std::string name() const override { return "AsStridedBackward0"; }
  variable_list apply(variable_list&& grads) override;

 private:
  Geometry base_, view_;
};

// A view autograd tracks: a tensor with a view_base, of a floating dtype. In-place writes into it
// rewrite its base's history.
bool is_differentiable_view(const Tensor& t);
// The view's base, as a tensor.
Tensor view_base_of(const Tensor& view);
// torch's check for a recorded in-place write into a view: its base must not be a leaf that
// requires grad ("a view of a leaf Variable that requires grad is being used in an in-place
// operation.").
void check_inplace_on_view(const Tensor& view);

// Makes `fn` (the node of an in-place op on `view`) part of the history of view's base: the
// base's grad_fn becomes a CopySlices around fn; the view's own grad_fn is remade when next read.
void rebase_history(const Tensor& view, const std::shared_ptr<Node>& fn);

// If `view` (a tensor with a view_base) has a stale grad_fn, remakes it (see the Note).
void refresh_view_grad_fn(const Tensor& view);

}  // namespace opscope::autograd
