// The ADInplaceOrView kernel: version counters for in-place and out= ops.
//
// Semantically, every op that writes into an existing tensor (add_, copy_, fill_, the out=
// variants) bumps the version counter the tensor shares with its views (see Note [Views share
// storage]); autograd compares versions to detect that a tensor it saved was modified. PyTorch
// generates one such kernel per mutating op; here one boxed kernel serves them all, registered
// (in InplaceOrView.cpp, as each op is defined) for every schema with a write alias (`Tensor(a!)`).
#pragma once

#include "core/dispatch/KernelFunction.h"

namespace opscope::autograd {

KernelFunction ad_inplace_or_view_kernel();

}  // namespace opscope::autograd
