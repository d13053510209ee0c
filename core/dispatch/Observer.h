// The dispatcher's observer hook: see every dispatch step as it happens.
//
// Semantically an observer is told, for every call / redispatch / boxed call of every op, what
// the dispatcher decided and why: the keys each tensor argument brought, the thread-local include
// and exclude sets, the resulting key set, which keys were fallthrough for this op, the key
// chosen, and the kernel that ran (its name, how the table got it, where it was registered). It
// is told again when the kernel returns (or throws), so nesting gives the tree of composite ops
// and redispatches. The trace recorder (profiler/Recorder.h) is the observer that traces, the
// profiler, the views and OPSCOPE_LOG=dispatch read from; op hooks (profiler/Hooks.h) are another.
// Autograd reports to the same observers: the node an op's Autograd kernel records (inside that
// op's step), and each node the backward engine runs (begin ... end, with the ops its formula
// calls nested in between); a node's sequence number links it to the forward op that made it.
// The allocator reports each allocation and free, and user scopes (RecordScope, Python's
// opscope.profiler.record_function) their beginning and end, to the same observers, so a trace
// sees them in order with the steps around them.
//
// In implementation terms: when no observer is installed the dispatcher pays one predictable
// branch on a relaxed atomic load; when one is, the call takes a slower path that boxes the
// arguments (so the observer sees them as IValues) and notifies every observer in order. Each
// thread keeps its own copy of the observer list, refreshed when the list's generation moves,
// so an observed step takes no lock.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/runtime/DispatchKey.h"
#include "core/dispatch/IValue.h"
#include "core/runtime/Device.h"
#include "core/runtime/SmallVector.h"

namespace opscope {

class OperatorHandle;
struct DispatchTableEntry;

enum class DispatchCallKind : uint8_t { Call, Redispatch, CallBoxed, RedispatchBoxed };
std::string_view to_string(DispatchCallKind k);  // "call", "redispatch", "callBoxed", ...

struct DispatchStep {
  const OperatorHandle* op;  // valid during the step only (copy the handle to keep it)
  DispatchCallKind kind;
  DispatchKeySet key_set;           // keys this call dispatched on (after include/exclude)
  DispatchKeySet fallthrough_keys;  // keys in key_set skipped because the op's kernel falls through
  DispatchKeySet tls_included;      // the thread's include set at the time
  DispatchKeySet tls_excluded;      // the thread's exclude set at the time
  DispatchKey chosen;               // the highest-priority key left
  const DispatchTableEntry* entry;  // kernel name, provenance, registration site
  const Stack* args;                // the arguments, boxed (schema order)
  // Each argument's own key set, in argument order (empty set for non-tensor arguments).
  SmallVector<DispatchKeySet, 8> arg_key_sets;
  uint64_t id;  // unique per step, in program order
};

enum class AutogradEventKind : uint8_t {
  NodeCreated,  // an Autograd kernel (or autograd.Function.apply) recorded the node
  NodeBegin,    // the engine is about to run the node (its hooks, then its formula)
  NodeEnd,      // ... and is done with it (also when it threw)
};
std::string_view to_string(AutogradEventKind k);  // "node_created", "node_begin", "node_end"

struct AutogradEvent {
  AutogradEventKind kind;
  const std::string& node;  // PyTorch's name: "MulBackward0", "AccumulateGrad", "MyExpBackward"
  uint64_t sequence_nr;     // the node's creation order (the forward op's, for its backward)
  const void* id;           // the node itself: the same for its creation and its runs
  // The node's next functions' names, in edge order ("" for an edge to nothing): with
  // NodeCreated only.
  const std::vector<std::string>* next = nullptr;
};

// An allocation (after it) or a free (before it), as the device's allocator reports it.
struct MemoryEvent {
  bool is_alloc;
  const void* ptr;
  size_t bytes;
  Device device;
  int64_t total_bytes;  // the allocator's current bytes once this event is done
};

// A user scope (RecordScope) beginning or ending.
struct ScopeEvent {
  bool begin;
  std::string_view name;  // both at the beginning and at the end
  uint64_t id;            // unique per scope, in program order
};

class DispatchObserver {
 public:
  virtual ~DispatchObserver() = default;
  virtual void on_enter(const DispatchStep& step) = 0;
  // `returns` holds the outputs, boxed; null when the kernel threw.
  virtual void on_exit(const DispatchStep& step, const Stack* returns) = 0;
  virtual void on_autograd(const AutogradEvent& /*event*/) {}
  virtual void on_memory(const MemoryEvent& /*event*/) {}
  virtual void on_scope(const ScopeEvent& /*event*/) {}
};

// A named user scope, seen by observers as a ScopeEvent pair: PyTorch's RECORD_FUNCTION /
// record_function. Nothing is recorded when no observer is installed.
//   { RecordScope scope("my block"); ... }
class RecordScope {
 public:
  explicit RecordScope(std::string name);
  ~RecordScope();
  RecordScope(const RecordScope&) = delete;
  RecordScope& operator=(const RecordScope&) = delete;

 private:
  std::string name_;
  uint64_t id_;
};
// The same, unscoped (for Python's context managers): begin returns the scope's id for end.
uint64_t record_scope_begin(std::string_view name);
void record_scope_end(uint64_t id, std::string_view name);

// Installs an observer until the returned handle is dropped.
class ObserverHandle {
 public:
  ObserverHandle() = default;
  explicit ObserverHandle(std::shared_ptr<DispatchObserver> o) : observer_(std::move(o)) {}
  ObserverHandle(ObserverHandle&& o) noexcept = default;
  ObserverHandle& operator=(ObserverHandle&& o) noexcept;
  ~ObserverHandle();
  void reset();

 private:
  std::shared_ptr<DispatchObserver> observer_;
};
[[nodiscard]] ObserverHandle add_dispatch_observer(std::shared_ptr<DispatchObserver> observer);

namespace detail {
extern std::atomic<int> g_num_dispatch_observers;
inline bool dispatch_observed() {
  return __builtin_expect(g_num_dispatch_observers.load(std::memory_order_relaxed) != 0, 0);
}
using ObserverList = std::vector<std::shared_ptr<DispatchObserver>>;
// The installed observers, as this thread last saw them (refreshed when they changed): a
// snapshot that stays valid while held, whatever is added or removed meanwhile.
std::shared_ptr<const ObserverList> dispatch_observers();
// Tells every observer (call only when dispatch_observed()).
void notify_autograd(const AutogradEvent& event);
}  // namespace detail

}  // namespace opscope
