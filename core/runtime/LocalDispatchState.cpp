#include "core/runtime/LocalDispatchState.h"

namespace opscope {

LocalDispatchKeySet& local_dispatch_key_set() {
  static thread_local LocalDispatchKeySet state;
  return state;
}

IncludeDispatchKeyGuard::IncludeDispatchKeyGuard(DispatchKeySet ks)
    : saved_(local_dispatch_key_set().included) {
  local_dispatch_key_set().included = saved_ | ks;
}
IncludeDispatchKeyGuard::~IncludeDispatchKeyGuard() {
  local_dispatch_key_set().included = saved_;
}

ExcludeDispatchKeyGuard::ExcludeDispatchKeyGuard(DispatchKeySet ks)
    : saved_(local_dispatch_key_set().excluded) {
  local_dispatch_key_set().excluded = saved_ | ks;
}
ExcludeDispatchKeyGuard::~ExcludeDispatchKeyGuard() {
  local_dispatch_key_set().excluded = saved_;
}

}  // namespace opscope
