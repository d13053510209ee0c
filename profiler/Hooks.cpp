#include "profiler/Hooks.h"

namespace opscope::profiler {

namespace {

thread_local bool t_in_hook = false;

struct InHook {
  InHook() { t_in_hook = true; }
  ~InHook() { t_in_hook = false; }
};

bool first_step_of_op(DispatchCallKind k) {
  return k == DispatchCallKind::Call || k == DispatchCallKind::CallBoxed;
}

class HookObserver final : public DispatchObserver {
 public:
  HookObserver(OpHook on_enter, OpHook on_exit)
      : on_enter_(std::move(on_enter)), on_exit_(std::move(on_exit)) {}

  void on_enter(const DispatchStep& s) override {
    if (!on_enter_ || t_in_hook || !first_step_of_op(s.kind)) return;
    InHook guard;
    on_enter_(OpCall{s.op, &s, s.args, nullptr, false});
  }

  void on_exit(const DispatchStep& s, const Stack* returns) override {
    if (!on_exit_ || t_in_hook || !first_step_of_op(s.kind)) return;
    InHook guard;
    OpCall call{s.op, &s, s.args, returns, returns == nullptr};
    if (returns != nullptr) {
      on_exit_(call);
      return;
    }
    try {  // the op is already throwing: its exception is the one to see
      on_exit_(call);
    } catch (...) {
    }
  }

 private:
  OpHook on_enter_, on_exit_;
};

}  // namespace

OpHookHandle add_op_hook(OpHook on_enter, OpHook on_exit) {
  return OpHookHandle(add_dispatch_observer(
      std::make_shared<HookObserver>(std::move(on_enter), std::move(on_exit))));
}

bool in_op_hook() {
  return t_in_hook;
}

}  // namespace opscope::profiler
