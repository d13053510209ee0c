// AutogradMeta: what autograd keeps on a tensor — requires_grad, .grad, grad_fn.
//
// Semantically a tensor takes part in autograd when it requires grad: a leaf the user marked
// (`requires_grad=True`), or the output of a recorded op, which has a grad_fn (see
// core/autograd/Node.h). Most tensors never do, so the metadata is allocated on first use
// (TensorImpl's autograd slot stays null otherwise).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "core/tensor/Tensor.h"

namespace opscope::autograd {

class Node;

struct AutogradMeta final : AutogradMetaInterface {
  ~AutogradMeta() override;
  bool requires_grad_ = false;  // set by the user, on leaves
  Tensor grad;
  std::shared_ptr<Node> grad_fn;         // null for leaves
  std::weak_ptr<Node> grad_accumulator;  // a leaf's AccumulateGrad, while a graph holds it
  uint32_t output_nr = 0;                // which input of grad_fn this tensor's grad is
  // A leaf's hooks (Tensor.register_hook), run by its AccumulateGrad: (id, hook).
  std::vector<std::pair<uint64_t, std::function<Tensor(const Tensor&)>>> leaf_hooks;
  // retain_grad on a non-leaf: the id of the pre-hook on grad_fn that fills .grad (0: none). The
  // hook points at this metadata, so the destructor takes it off grad_fn.
  uint64_t retain_hook = 0;
  bool requires_grad() const override { return requires_grad_ || grad_fn != nullptr; }
};

// The tensor's metadata, or null when it has none yet.
AutogradMeta* get_autograd_meta(const Tensor& t);
// The tensor's metadata, created when missing.
AutogradMeta& materialize_autograd_meta(const Tensor& t);
// Marks a leaf as requiring grad. Only floating-point tensors can (RuntimeError otherwise, with
// torch's message); a non-leaf cannot be changed (torch: "you can only change requires_grad flags
// of leaf variables").
void set_requires_grad(const Tensor& t, bool requires_grad);

}  // namespace opscope::autograd
