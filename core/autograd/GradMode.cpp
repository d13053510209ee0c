#include "core/autograd/GradMode.h"

namespace opscope::autograd {

namespace {
thread_local bool t_grad_mode = true;
}

bool grad_mode_enabled() {
  return t_grad_mode;
}
void set_grad_mode_enabled(bool enabled) {
  t_grad_mode = enabled;
}

}  // namespace opscope::autograd
