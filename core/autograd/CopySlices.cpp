// See Note [In-place on a view] in core/autograd/CopySlices.h.
#include "core/autograd/CopySlices.h"

#include "core/autograd/AutogradMeta.h"
#include "core/ops/copy.h"
#include "core/ops/factories.h"
#include "core/ops/reduce.h"
#include "core/ops/views.h"

namespace opscope::autograd {

Geometry::Geometry(const Tensor& t)
    : sizes(t.sizes()), strides(t.strides()), offset(t->storage_offset()) {}

Geometry::Geometry(const Tensor& t, const Tensor& base) : Geometry(t) {
  offset -= base->storage_offset();
}

namespace {

// A tensor of zeros laid out like `base` (same strides), so a view's geometry relative to the base
// finds the same elements in it.
Tensor zeros_like_layout(const Geometry& base, const Tensor& like) {
  Tensor r =
      ops::empty_strided(base.sizes, base.strides, like.dtype(), std::nullopt, like.device());
  return ops::zero_(r);
}

}  // namespace

bool is_differentiable_view(const Tensor& t) {
  return t->view_base() && is_floating(t.dtype());
}

Tensor view_base_of(const Tensor& view) {
  return Tensor(intrusive_ptr<TensorImpl>(view->view_base()));
}

void check_inplace_on_view(const Tensor& view) {
  TensorImpl* b = view->view_base();
  OPSCOPE_CHECK(!b->requires_grad() || !is_leaf(view_base_of(view)),
                "a view of a leaf Variable that requires grad is being used in an in-place "
                "operation.");
}

CopySlices::CopySlices(const Tensor& base, const Tensor& view, std::shared_ptr<Node> fn)
    : base_(base), view_(view, base), dtype_(base.dtype()), fn_(std::move(fn)) {
  add_next_edge(gradient_edge(base));  // the base's history before the write
  const auto& edges = fn_->next_edges();
  for (size_t i = 1; i < edges.size(); ++i) add_next_edge(edges[i]);  // the op's other inputs
}

// The base's gradient, with the part the view covers replaced by what the in-place op's node
// makes of it; the op's other inputs get that node's gradients.
variable_list CopySlices::apply(variable_list&& grads) {
  Tensor result = ops::empty_strided(base_.sizes, base_.strides, grads[0].dtype(), std::nullopt,
                                     grads[0].device());
  ops::copy_(result, grads[0]);
  Tensor slice = ops::as_strided(result, view_.sizes, view_.strides, view_.offset);
  variable_list res = fn_->apply({ops::clone(slice)});
  OPSCOPE_CHECK(!res.empty(), "CopySlices: ", fn_->name(), " returned no gradients");
  if (res[0].defined())
    ops::copy_(slice, res[0]);
  else
    ops::zero_(slice);  // the op overwrote the view without reading it (copy_, fill_)
  res[0] = std::move(result);
  return res;
}

AsStridedBackward0::AsStridedBackward0(const Tensor& base, const Tensor& view)
    : base_(base), view_(view, base) {}

// Zeros shaped like the base, with g where the view's elements are (summed over the dims the view
// repeats with stride 0, as for an expanded view).
variable_list AsStridedBackward0::apply(variable_list&& grads) {
  Tensor g = std::move(grads[0]);
  DimVector sizes = view_.sizes;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (view_.strides[d] != 0 || sizes[d] <= 1) continue;
    g = ops::sum(g, IntArrayRef({static_cast<int64_t>(d)}), /*keepdim=*/true, std::nullopt);
    sizes[d] = 1;
  }
  Tensor result = zeros_like_layout(base_, g);
  ops::copy_(ops::as_strided(result, sizes, view_.strides, view_.offset), g);
  return {result};
}

void rebase_history(const Tensor& view, const std::shared_ptr<Node>& fn) {
  fn->add_input_metadata(view);
  Tensor base = view_base_of(view);
  auto copy_slices = std::make_shared<CopySlices>(base, view, fn);
  set_history(base, copy_slices);
  report_node_created(*copy_slices);
  // The view's own grad_fn is remade from the base's (refresh_view_grad_fn) when next read: the
  // write has moved the version counter past the view's attr version.
}

void refresh_view_grad_fn(const Tensor& view) {
  TensorImpl* b = view->view_base();
  if (!is_differentiable_view(view) || view->view_attr_version() == view->version()) return;
  AutogradMeta* m = get_autograd_meta(view);
  const bool base_requires_grad = b->requires_grad();
  if (!base_requires_grad) {
    if (m) m->grad_fn.reset();  // the base left autograd (detach_): so does the view
    view->set_view_attr_version(view->version());
    return;
  }
  Tensor base = view_base_of(view);
  auto fn = std::make_shared<AsStridedBackward0>(base, view);
  fn->add_next_edge(gradient_edge(base));
  set_history(view, fn);
  report_node_created(*fn);
}

}  // namespace opscope::autograd
