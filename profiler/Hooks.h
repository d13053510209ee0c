// Op hooks: your functions called at every op call, before its kernel and after it — PyTorch's
// RecordFunction callbacks (at::addGlobalCallback), and the C++ twin of opscope.profiler.add_hook.
//
// Semantically a hook sees each call of an op once (its first dispatch step; the redispatches
// below it, such as mm[AutogradCPU] → mm[CPU], are the same call), on the thread that calls it,
// with the op, the arguments, and — on exit — the results or that it threw:
//
//   profiler::OpHookHandle h = profiler::add_op_hook(
//       [](const profiler::OpCall& c) { std::printf("-> %s\n", c.op->full_name().c_str()); },
//       [](const profiler::OpCall& c) { std::printf("<- %s\n", c.op->full_name().c_str()); });
//   ...                                       // every op called from now on, any thread
//   h.remove();                               // or let h go out of scope
//
// Ops a hook calls itself are not reported to hooks (no hook sees its own work, and a hook that
// prints a tensor does not recurse). Hooks run in the order added, exits in reverse.
//
// In implementation terms a hook is a dispatch observer (core/dispatch/Observer.h) that keeps
// only the first step of each op; with none installed the dispatcher pays its usual one branch.
#pragma once

#include <functional>
#include <memory>

#include "core/dispatch/Dispatcher.h"

namespace opscope::profiler {

struct OpCall {
  const OperatorHandle* op;  // valid during the hook only (copy the handle to keep it)
  const DispatchStep* step;  // the first step: key set, chosen key, kernel, ...
  const Stack* inputs;       // boxed, schema order
  const Stack* outputs;      // on exit: the results; null on enter and when the op threw
  bool threw = false;        // on exit
};

using OpHook = std::function<void(const OpCall&)>;

class OpHookHandle {
 public:
  OpHookHandle() = default;
  explicit OpHookHandle(ObserverHandle h) : handle_(std::move(h)) {}
  void remove() { handle_.reset(); }

 private:
  ObserverHandle handle_;
};

// Either hook may be empty. Hooks may throw on enter (the op call then throws before its kernel);
// an exception from an exit hook while the op itself threw is dropped.
[[nodiscard]] OpHookHandle add_op_hook(OpHook on_enter, OpHook on_exit);

// True while the calling thread runs a hook: ops it calls are not reported.
bool in_op_hook();

}  // namespace opscope::profiler
