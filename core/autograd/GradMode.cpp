#include "core/autograd/GradMode.h"

#include "core/runtime/LocalDispatchState.h"

namespace opscope::autograd {

bool grad_mode_enabled() {
  return local_dispatch_key_set().grad_mode;
}
void set_grad_mode_enabled(bool enabled) {
  local_dispatch_key_set().grad_mode = enabled;
}
bool inference_mode_enabled() {
  return local_dispatch_key_set().inference_mode;
}

InferenceModeGuard::InferenceModeGuard(bool enabled) {
  LocalDispatchKeySet& tls = local_dispatch_key_set();
  grad_mode_ = tls.grad_mode;
  inference_mode_ = tls.inference_mode;
  included_ = tls.included;
  excluded_ = tls.excluded;
  tls.grad_mode = !enabled;
  tls.inference_mode = enabled;
  if (enabled) {
    tls.included = tls.included - DispatchKeySet(DispatchKey::ADInplaceOrView);
    tls.excluded = tls.excluded | kAutogradKeys;
  } else {
    tls.included = tls.included | DispatchKeySet(DispatchKey::ADInplaceOrView);
    tls.excluded = tls.excluded - kAutogradKeys;
  }
}

InferenceModeGuard::~InferenceModeGuard() {
  LocalDispatchKeySet& tls = local_dispatch_key_set();
  tls.grad_mode = grad_mode_;
  tls.inference_mode = inference_mode_;
  tls.included = included_;
  tls.excluded = excluded_;
}

}  // namespace opscope::autograd
