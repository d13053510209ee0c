#include "core/autograd/AutogradMeta.h"

#include "core/autograd/GradMode.h"
#include "core/autograd/Node.h"

namespace opscope::autograd {

AutogradMeta::~AutogradMeta() {
  if (retain_hook && grad_fn) grad_fn->remove_pre_hook(retain_hook);
}

AutogradMeta* get_autograd_meta(const Tensor& t) {
  return static_cast<AutogradMeta*>(t->autograd_meta());
}

AutogradMeta& materialize_autograd_meta(const Tensor& t) {
  if (!t->autograd_meta()) t->set_autograd_meta(std::make_unique<AutogradMeta>());
  return *get_autograd_meta(t);
}

void set_requires_grad(const Tensor& t, bool requires_grad) {
  OPSCOPE_CHECK(!requires_grad || is_floating(t.dtype()),
                "only Tensors of floating point and complex dtype can require gradients");
  OPSCOPE_CHECK(!requires_grad || !t->is_inference() || inference_mode_enabled(),
                "Setting requires_grad=True on inference tensor outside InferenceMode is not "
                "allowed.");
  AutogradMeta* m = get_autograd_meta(t);
  if (m && m->grad_fn) {
    OPSCOPE_CHECK(requires_grad,
                  "you can only change requires_grad flags of leaf variables. If you want to use "
                  "a computed variable in a subgraph that doesn't require differentiation use "
                  "var_no_grad = var.detach().");
    return;
  }
  if (!requires_grad && !m) return;
  materialize_autograd_meta(t).requires_grad_ = requires_grad;
}

}  // namespace opscope::autograd
