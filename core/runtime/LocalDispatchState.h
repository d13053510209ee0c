// Thread-local dispatch state: the include / exclude key sets, and the RAII guards that change
// them for a scope.
//
// Semantically, the dispatcher computes each call's keys as
//     (keys of the tensor arguments ∪ included) − excluded
// so a thread can switch a layer off for a scope (AutoDispatchBelowAutograd: "autograd has been
// handled, don't come back to it") or force one on (BackendSelect for factories with no tensor
// arguments, Python for a __torch_dispatch__ mode). Guards restore the previous sets on scope
// exit, also when an exception passes.
//
// In implementation terms: two 64-bit masks in a thread_local, read on every dispatch.
#pragma once

#include "core/runtime/DispatchKey.h"

namespace opscope {

struct LocalDispatchKeySet {
  DispatchKeySet included = kDefaultIncluded;
  DispatchKeySet excluded;
  // Autograd's grad mode (core/autograd/GradMode.h), kept with the key sets — as c10 keeps it in
  // its thread-local state — because the dispatcher reads it too: see Note [The Autograd
  // kernel's no-grad path] in Dispatcher.h.
  bool grad_mode = true;
  // Inference mode (opscope.inference_mode): see core/autograd/GradMode.h.
  bool inference_mode = false;
};

LocalDispatchKeySet& local_dispatch_key_set();

// Adds keys to the thread's include set for the scope.
class IncludeDispatchKeyGuard {
 public:
  explicit IncludeDispatchKeyGuard(DispatchKeySet ks);
  explicit IncludeDispatchKeyGuard(DispatchKey k) : IncludeDispatchKeyGuard(DispatchKeySet(k)) {}
  ~IncludeDispatchKeyGuard();
  IncludeDispatchKeyGuard(const IncludeDispatchKeyGuard&) = delete;
  IncludeDispatchKeyGuard& operator=(const IncludeDispatchKeyGuard&) = delete;

 private:
  DispatchKeySet saved_;
};

// Adds keys to the thread's exclude set for the scope.
class ExcludeDispatchKeyGuard {
 public:
  explicit ExcludeDispatchKeyGuard(DispatchKeySet ks);
  explicit ExcludeDispatchKeyGuard(DispatchKey k) : ExcludeDispatchKeyGuard(DispatchKeySet(k)) {}
  ~ExcludeDispatchKeyGuard();
  ExcludeDispatchKeyGuard(const ExcludeDispatchKeyGuard&) = delete;
  ExcludeDispatchKeyGuard& operator=(const ExcludeDispatchKeyGuard&) = delete;

 private:
  DispatchKeySet saved_;
};

// "Autograd has been handled": excludes every Autograd key for the scope (PyTorch's
// AutoDispatchBelowAutograd).
struct AutoDispatchBelowAutograd : ExcludeDispatchKeyGuard {
  AutoDispatchBelowAutograd() : ExcludeDispatchKeyGuard(kAutogradKeys) {}
};
// Excludes Autograd and ADInplaceOrView (PyTorch's AutoDispatchBelowADInplaceOrView), what the
// Autograd kernel uses around its redispatch.
struct AutoDispatchBelowADInplaceOrView : ExcludeDispatchKeyGuard {
  AutoDispatchBelowADInplaceOrView()
      : ExcludeDispatchKeyGuard(kAutogradKeys.add(DispatchKey::ADInplaceOrView)) {}
};

}  // namespace opscope
