#include "core/autograd/GradMode.h"

#include "core/dispatch/LocalDispatchState.h"

namespace opscope::autograd {

bool grad_mode_enabled() {
  return local_dispatch_key_set().grad_mode;
}
void set_grad_mode_enabled(bool enabled) {
  local_dispatch_key_set().grad_mode = enabled;
}

}  // namespace opscope::autograd
