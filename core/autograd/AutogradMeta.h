// AutogradMeta: what autograd keeps on a tensor — requires_grad, .grad, and (with the autograd
// engine) grad_fn and view bookkeeping.
//
// Semantically a tensor takes part in autograd when it requires grad: a leaf the user marked
// (`requires_grad=True`), or the output of a recorded op. Most tensors never do, so the metadata
// is allocated on first use (TensorImpl's autograd slot stays null otherwise).
#pragma once

#include "core/tensor/Tensor.h"

namespace opscope::autograd {

struct AutogradMeta final : AutogradMetaInterface {
  bool requires_grad_ = false;
  Tensor grad;
  bool requires_grad() const override { return requires_grad_; }
};

// The tensor's metadata, or null when it has none yet.
AutogradMeta* get_autograd_meta(const Tensor& t);
// The tensor's metadata, created when missing.
AutogradMeta& materialize_autograd_meta(const Tensor& t);
// Marks a leaf as requiring grad. Only floating-point tensors can (RuntimeError otherwise, with
// torch's message).
void set_requires_grad(const Tensor& t, bool requires_grad);

}  // namespace opscope::autograd
