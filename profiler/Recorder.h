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
// process) in append-only chunked arrays behind a mutex — events in one, the arguments' records
// and key sets in others that events index, so that recording allocates nothing per step beyond
// a chunk now and then and never moves what it recorded; timestamps are CLOCK_MONOTONIC
// nanoseconds.
//
// A recorder may also hand each event, as it records it, to a sink: OPSCOPE_LOG=dispatch is such
// a recorder, keeping nothing, whose sink prints each step (StepLog below, set_dispatch_log).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "core/dispatch/Dispatcher.h"
#include "core/runtime/DeviceTimer.h"
#include "profiler/Chunked.h"
#include "profiler/Stack.h"

namespace opscope::profiler {

// What a trace keeps of one argument or result: a tensor's metadata, or a value itself.
struct ValueRecord {
  bool is_tensor = false;
  bool defined = false;  // for tensors: false for None / an undefined tensor
  bool requires_grad = false;
  ScalarType dtype = ScalarType::Float32;
  Device device;
  uint32_t ndim = 0;
  uint32_t dims_begin = 0;  // the sizes, then the strides: 2 * ndim entries of Recording::dims
  DispatchKeySet keys;      // the tensor's own key set; a tensor list's: its tensors'
  IValue value;             // non-tensors: the value itself (printed only when a view asks)
  // A tensor list keeps its text instead of its tensors (`value` is then an empty list): a trace
  // must not keep an op's tensors alive — a recorded training loop would hold every step's
  // gradients (the optimizer's _fused_sgd_ takes them as lists) until the trace is read.
  std::string list_text;
  std::string str() const {  // non-tensors: what IValue::str() gives
    return value.tag() == IValue::Tag::TensorList ? list_text : value.str();
  }
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

// What only some events have, kept aside so that events stay small (Event::detail).
struct EventDetail {
  // NodeCreated / NodeBegin / NodeEnd: the node's name; ScopeBegin / ScopeEnd: the scope's
  std::string name;
  uint64_t sequence_nr = 0;
  uintptr_t id = 0;               // the node, or the scope's id
  std::vector<std::string> next;  // NodeCreated: the next functions' names ("" for none)
  // Enter of a backend kernel's step, BlasCall: the stack there (when recording stacks)
  std::unique_ptr<RawStack> stack;
  const char* routine = nullptr;  // BlasCall: "cblas_sgemm"
};

struct Event {
  // An event of this kind at t_ns (CLOCK_MONOTONIC) on thread `thread` (trace_thread_id()).
  Event(EventKind k, uint64_t step, uint64_t t_ns, uint32_t thread)
      : kind(k), t_ns(t_ns), thread(thread), step_id(step) {}
  static constexpr uint32_t kNoDetail = UINT32_MAX;

  EventKind kind;
  DispatchCallKind call = DispatchCallKind::Call;  // Enter
  DispatchKey chosen = DispatchKey::Undefined;     // Enter
  bool threw = false;                              // Exit
  uint64_t t_ns;                                   // CLOCK_MONOTONIC
  uint32_t thread;   // a small number per thread, in order of first appearance
  uint64_t step_id;  // Enter / Exit: the dispatch step (DispatchStep::id)
  // Enter
  OperatorHandle op;  // by value: the caller's handle may be a temporary
  const DispatchTableEntry* entry = nullptr;
  DispatchKeySet key_set, fallthrough, tls_included, tls_excluded;
  // Enter: the arguments; Exit: the results — for an op's first step only (call, callBoxed): its
  // redispatches see the same arguments, so they keep only each argument's key set. Both are
  // ranges of the Recording's `values` / `keys`.
  uint32_t values_begin = 0, values_count = 0;
  uint32_t keys_begin = 0, keys_count = 0;  // Enter of a redispatch
  // Alloc / Free; Enter of a timed CUDA kernel step: its device
  Device device;
  uintptr_t ptr = 0;
  uint64_t bytes = 0;
  int64_t total_bytes = 0;  // the device allocator's current bytes after the event
  // Node and scope events, stacks: an index into Recording::details
  uint32_t detail = kNoDetail;
  // Enter / Exit of a CUDA kernel step, when the recorder times the device (Note [Device time of
  // an op], core/runtime/DeviceTimer.h): the stream's mark right before / after the kernel, as a
  // mark id while recording and as CLOCK_MONOTONIC ns once taken (0: none); the stream's id.
  uint64_t device_ns = 0;
  int64_t device_stream = 0;
};

// What a recorder hands over: the events, and the records they index.
struct Recording {
  Chunked<Event> events;
  Chunked<ValueRecord> values;
  Chunked<int64_t> dims;
  Chunked<DispatchKeySet> keys;
  Chunked<EventDetail> details;
  const EventDetail* detail_of(const Event& e) const {
    return e.detail == Event::kNoDetail ? nullptr : &details[e.detail];
  }
  // Forgets every event, keeping the memory to record the next ones in.
  void truncate();
};

// What a recorder hands each event to as soon as it has recorded it (RecorderOptions::sink):
// called under the recorder's lock, in recording order, with the recording the event is in.
using EventSink = std::function<void(const Recording& recording, const Event& event)>;

struct RecorderOptions {
  bool stacks = false;  // capture stacks at backend kernels and BLAS calls
  bool memory = true;   // record allocations and frees
  // Bounds, for recorders that run all the time (the REPL's and the kernel's, one per line or
  // cell): past max_events events no new top-level item is kept — only counted (dropped_items,
  // dropped_ns) —, and past max_stacks stacks none is captured. 0: no bound. See Note [A bounded
  // recording].
  size_t max_events = 0;
  size_t max_stacks = 0;
  // Told of each event as it is recorded (see EventSink).
  EventSink sink;
  // false: the events go to the sink only — each is forgotten once the sink has seen it, so the
  // recorder holds nothing (no tensor list an argument kept, no memory that grows) and take()
  // finds nothing.
  bool keep = true;
  // Mark the stream around each CUDA kernel step, for the device's own time (Note [Device time
  // of an op]): ~2 us of host time a step. Without a CUDA backend nothing is marked.
  bool device_time = false;
};

// Where a recording's top-level items are, and which of them ran the same way: what a loop's
// view folds together (opscope.interactive's default view). A top-level item is an op called
// from outside any op, a backward node the engine ran, or a user scope, with everything inside
// it on its thread.
struct ItemSpan {
  size_t begin = 0, end = 0;  // its first and last event (other threads' events may lie between)
  uint32_t thread = 0;
  uint64_t start_ns = 0, duration_ns = 0;
  size_t group = 0;  // its index in ItemGroups::groups
};
struct ItemGroup {
  ItemSpan first;         // the first item that ran this way
  uint64_t count = 0;     // how many did
  uint64_t total_ns = 0;  // and their time together
  // The same ops, keys, kernels, nodes and tensor shapes, but not the same non-tensor arguments
  // (`x * i` in a loop over i): a view shows those arguments as "…".
  bool values_vary = false;
};
struct ItemGroups {
  std::vector<ItemGroup> groups;  // in order of first appearance
  std::vector<ItemSpan> items;    // the first `keep_items` items, in order
  uint64_t item_count = 0;
};
// Finds the top-level items and groups them by what ran (see Note [Folding a loop]).
ItemGroups group_items(const Recording& r, size_t keep_items);

class TraceRecorder final : public DispatchObserver {
 public:
  explicit TraceRecorder(RecorderOptions options = {}) : options_(std::move(options)) {}
  ~TraceRecorder() override;
  void on_enter(const DispatchStep& step) override;
  void on_exit(const DispatchStep& step, const Stack* returns) override;
  void on_autograd(const AutogradEvent& event) override;
  void on_memory(const MemoryEvent& event) override;
  void on_scope(const ScopeEvent& event) override;
  // Called (from the BLAS call hook) right before a BLAS routine runs, with the stack there.
  void on_blas_call(const char* routine, RawStack stack);

  // Starts recording (installs the recorder) / stops it; events stay until taken. Once stopped
  // it records nothing more, also from threads that still hold the observer list they saw
  // before (they let it go on their next op): no event comes after take(), and no stack is kept
  // alive in a recorder nobody will read.
  void start(std::shared_ptr<TraceRecorder> self);
  void stop();
  Recording take();
  bool recording() const { return recording_now_.load(std::memory_order_relaxed); }
  // Whether max_stacks allows one more stack (counts it).
  bool take_stack_slot();
  // Top-level items left out past max_events, and their time (see RecorderOptions).
  uint64_t dropped_items() const;
  uint64_t dropped_ns() const;

 private:
  // Whether an event opens a top-level item, closes it, or neither (what the bound counts).
  enum class Edge : uint8_t { None, Opens, Closes };
  // Appends an event of kind k, now, and lets fill(event) complete it, under the lock — unless
  // the bound leaves it out.
  template <typename Fill>
  void record(EventKind k, uint64_t step, Edge edge, Fill&& fill);
  // Under the lock: whether an event on this thread is kept, counting the items left out.
  bool keep_event(uint32_t thread, Edge edge, uint64_t t_ns);

  // A mark on the stream of a CUDA kernel step's device (0: not such a step, or no timeline).
  uint64_t device_mark(const DispatchStep& step);
  uint32_t keep_values(const Stack& stack);  // appends to recording_.values; returns the begin
  EventDetail& add_detail(Event& e);         // a new detail for e
  RecorderOptions options_;
  bool listening_to_blas_ = false;
  std::atomic<bool> recording_now_{false};
  mutable std::mutex mutex_;
  Recording recording_;
  ObserverHandle handle_;
  std::unique_ptr<DeviceTimeline> timeline_;  // options_.device_time, made by start()
  // The bound's book-keeping, under mutex_: per thread (by trace_thread_id), how deep in
  // top-level items it is and whether the one it is in is kept.
  struct ThreadState {
    uint32_t depth = 0;
    bool keeping = true;
    uint64_t item_start_ns = 0;
  };
  std::vector<ThreadState> threads_;
  uint64_t dropped_items_ = 0, dropped_ns_ = 0;
  std::atomic<size_t> stacks_taken_{0};
};

// OPSCOPE_LOG=dispatch's text: a recording's events as indented lines, given one at a time in
// recording order (a recorder's sink). One entry per dispatch step:
//   [call] op=[aten::mm], key=[AutogradCPU]  kernel: opscope::autograd::... [autograd kernel]
//   core/...:12
//     keys: (CPU, ADInplaceOrView*, >AutogradCPU)  (> the key chosen, * keys this op falls through)
//     args: self=f32[2, 3] (CPU, ADInplaceOrView, AutogradCPU); mat2=...
//     tls: included (BackendSelect, ADInplaceOrView) excluded ()
// the steps it makes inside indented under it, "  (threw)" after a step that threw; autograd's
// nodes as
//   [autograd] created MulBackward0 #12 -> (AccumulateGrad, None)
//   [backward] MulBackward0 #12      (the ops its formula runs indented under it)
// Allocations, scopes and BLAS calls print nothing (OPSCOPE_LOG=alloc prints allocations). A
// step's first line alone matches PyTorch's TORCH_SHOW_DISPATCH_TRACE.
class StepLog {
 public:
  // The lines for e ("" when it prints nothing).
  std::string lines(const Recording& r, const Event& e);

 private:
  struct Thread {
    size_t depth = 0;
    // Each open step's arguments as text: a redispatch prints its op's, which the recording
    // keeps with the op's first step only.
    std::vector<std::vector<std::string>> open_args;
  };
  std::vector<Thread> threads_;  // by Event::thread
};

// Switches OPSCOPE_LOG=dispatch on (printing to fd) or off: a recorder that keeps nothing,
// with a sink that writes each event's StepLog lines as it is recorded. Started when this library
// loads if OPSCOPE_LOG names dispatch (core/runtime/Log.h); opscope._C._set_dispatch_log from
// Python.
void set_dispatch_log(bool on, int fd = 2);

// Nanoseconds of CLOCK_MONOTONIC.
uint64_t now_ns();
// This thread's number in traces (1, 2, ... in order of first use).
uint32_t trace_thread_id();

}  // namespace opscope::profiler
