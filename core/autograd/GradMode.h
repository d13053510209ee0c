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
//
// Inference mode (`opscope.inference_mode()`) goes further, as torch's InferenceMode: grad mode is
// off, the Autograd keys are excluded (their kernels are not even called), ADInplaceOrView is no
// longer forced on, and every tensor made inside is an *inference tensor* — no autograd keys, no
// ADInplaceOrView key, so ops on it skip both layers also later. Outside inference mode such a
// tensor cannot be written in place, saved for backward, or made to require grad (torch's errors).
#pragma once

#include "core/runtime/DispatchKey.h"

namespace opscope::autograd {

bool grad_mode_enabled();
void set_grad_mode_enabled(bool enabled);
bool inference_mode_enabled();

// Enters (enabled) or leaves (!enabled) inference mode for the scope.
class InferenceModeGuard {
 public:
  explicit InferenceModeGuard(bool enabled = true);
  ~InferenceModeGuard();
  InferenceModeGuard(const InferenceModeGuard&) = delete;
  InferenceModeGuard& operator=(const InferenceModeGuard&) = delete;

 private:
  bool grad_mode_, inference_mode_;
  DispatchKeySet included_, excluded_;
};

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
