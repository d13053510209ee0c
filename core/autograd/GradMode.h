// Grad mode: whether ops record the autograd graph on this thread.
//
// Semantically, with grad mode on (the default) an op whose differentiable input requires grad
// records a node, and its outputs require grad; `opscope.no_grad()` turns that off for a scope,
// `enable_grad()` back on, `set_grad_enabled(b)` either way. Nothing else changes: the ops run the
// same kernels, and the Autograd kernel still appears in a dispatch trace (it checks the mode), as
// in PyTorch.
//
// In implementation terms: a thread-local bool beside the dispatch key sets (LocalDispatchState),
// and an RAII guard that restores it.
#pragma once

namespace opscope::autograd {

bool grad_mode_enabled();
void set_grad_mode_enabled(bool enabled);

class GradModeGuard {
 public:
  explicit GradModeGuard(bool enabled) : saved_(grad_mode_enabled()) {
    set_grad_mode_enabled(enabled);
  }
  ~GradModeGuard() { set_grad_mode_enabled(saved_); }
  GradModeGuard(const GradModeGuard&) = delete;
  GradModeGuard& operator=(const GradModeGuard&) = delete;

 private:
  bool saved_;
};

}  // namespace opscope::autograd
