// Backend fallbacks and the generic BackendSelect kernel.
//
// Semantically a backend fallback is what a dispatch key does for every op that has no kernel of
// its own for it. As in PyTorch 1.13: BackendSelect, ADInplaceOrView and the Autograd keys fall
// through (an op without an autograd formula simply runs below autograd), PythonTLSSnapshot falls
// through until the Python layer registers itself.
//
// backend_select is the BackendSelect kernel of factory ops (zeros, arange, rand, ...): they have
// no tensor argument to dispatch on, so it reads their `device=` argument (default cpu) and
// redispatches to that backend — PyTorch generates one such kernel per factory; one boxed kernel
// does it here for all of them.
#pragma once

#include "core/dispatch/Dispatcher.h"

namespace opscope {

void backend_select(const OperatorHandle& op, DispatchKeySet ks, Stack* stack);
// For Library::impl: m.impl("zeros", DispatchKey::BackendSelect, backend_select_kernel()).
KernelFunction backend_select_kernel();

}  // namespace opscope
