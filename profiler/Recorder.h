// The trace recorder: everything a scope of Python did, op by op (`with opscope.trace() as t`).
//
// Semantically a trace is the sequence of what the dispatcher and autograd reported while the
// recorder was installed, in order: each dispatch step entered (the op, how it was called, the key
// set and why — each argument's keys, the thread's include / exclude sets, the keys this op falls
// through —, the key chosen, the kernel, how the table got it and where it was registered, the
// arguments' metadata), each step left (the outputs' metadata, or that it threw), each autograd
// node created and each node the backward engine ran; and, when asked, each allocation and free,
// each user scope (record_function), and call stacks: at every backend kernel's step, and right
// before every BLAS routine. Steps nest: a redispatch inside its op's step, a composite's
// children inside it, a backward node's ops inside its run. Python turns the events into the
// tree of ops the views draw (opscope/profiler/).
//
// In implementation terms the recorder is a DispatchObserver keeping plain records (no Python
// objects, no strings for what can be pointed at: ops and table entries live as long as the
// process) in one vector behind a mutex; timestamps are CLOCK_MONOTONIC nanoseconds.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "core/dispatch/Dispatcher.h"
#include "profiler/Stack.h"

namespace opscope::profiler {

// What a trace keeps of one argument or result: a tensor's metadata, or a value's text.
struct ValueRecord {
  bool is_tensor = false;
  bool defined = false;  // for tensors: false for None / an undefined tensor
  DimVector sizes, strides;
  ScalarType dtype = ScalarType::Float32;
  Device device;
  bool requires_grad = false;
  DispatchKeySet keys;  // the tensor's own key set
  IValue value;         // non-tensors: the value itself (printed only when a view asks)
  static ValueRecord of(const IValue& v);
};

enum class EventKind : uint8_t {
  Enter,
  Exit,
  NodeCreated,
  NodeBegin,
  NodeEnd,
  Alloc,
  Free,
  ScopeBegin,
  ScopeEnd,
  BlasCall,  // a BLAS routine is about to run: its stack
};

struct Event {
  // An event of this kind, now, on this thread.
  explicit Event(EventKind k, uint64_t step = 0);
  EventKind kind;
  uint64_t t_ns;     // CLOCK_MONOTONIC
  uint64_t thread;   // a small number per thread, in order of first appearance
  uint64_t step_id;  // Enter / Exit: the dispatch step (DispatchStep::id)
  // Enter
  const OperatorHandle* op = nullptr;
  DispatchCallKind call = DispatchCallKind::Call;
  DispatchKeySet key_set, fallthrough, tls_included, tls_excluded;
  DispatchKey chosen = DispatchKey::Undefined;
  const DispatchTableEntry* entry = nullptr;
  // Enter: the arguments; Exit: the results — for an op's first step only (call, callBoxed): its
  // redispatches see the same arguments, so they keep only each argument's key set.
  std::vector<ValueRecord> values;
  std::vector<DispatchKeySet> arg_keys;  // Enter
  bool threw = false;                    // Exit
  // NodeCreated / NodeBegin / NodeEnd; ScopeBegin / ScopeEnd: `node` is the scope's name and
  // `node_id` its id
  std::string node;
  uint64_t sequence_nr = 0;
  uintptr_t node_id = 0;
  std::vector<std::string> next;  // NodeCreated: the next functions' names ("" for none)
  // Alloc / Free
  uintptr_t ptr = 0;
  uint64_t bytes = 0;
  int64_t total_bytes = 0;  // the device allocator's current bytes after the event
  Device device;
  // Enter of a backend kernel's step, BlasCall: the stack there (when recording stacks)
  std::unique_ptr<RawStack> stack;
  const char* routine = nullptr;  // BlasCall: "cblas_sgemm"
};

struct RecorderOptions {
  bool stacks = false;  // capture stacks at backend kernels and BLAS calls
  bool memory = true;   // record allocations and frees
};

class TraceRecorder final : public DispatchObserver {
 public:
  explicit TraceRecorder(RecorderOptions options = {}) : options_(options) {}
  ~TraceRecorder() override;
  void on_enter(const DispatchStep& step) override;
  void on_exit(const DispatchStep& step, const Stack* returns) override;
  void on_autograd(const AutogradEvent& event) override;
  void on_memory(const MemoryEvent& event) override;
  void on_scope(const ScopeEvent& event) override;
  // Called (from the BLAS call hook) right before a BLAS routine runs, with the stack there.
  void on_blas_call(const char* routine, RawStack stack);

  // Starts recording (installs the recorder) / stops it; events stay until taken.
  void start(std::shared_ptr<TraceRecorder> self);
  void stop();
  std::vector<Event> take();

 private:
  void push(Event e);
  RecorderOptions options_;
  bool listening_to_blas_ = false;
  std::mutex mutex_;
  std::vector<Event> events_;
  ObserverHandle handle_;
};

// Nanoseconds of CLOCK_MONOTONIC.
uint64_t now_ns();
// This thread's number in traces (1, 2, ... in order of first use).
uint64_t trace_thread_id();

}  // namespace opscope::profiler
