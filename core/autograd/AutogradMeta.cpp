#include "core/autograd/AutogradMeta.h"

namespace opscope::autograd {

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
  if (!requires_grad && !t->autograd_meta()) return;
  materialize_autograd_meta(t).requires_grad_ = requires_grad;
}

}  // namespace opscope::autograd
