#include "profiler/Recorder.h"

#include <algorithm>
#include <atomic>
#include <ctime>

#include "core/runtime/Blas.h"

namespace opscope::profiler {

uint64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

uint64_t trace_thread_id() {
  static std::atomic<uint64_t> next{1};
  thread_local uint64_t id = next.fetch_add(1);
  return id;
}

namespace {
bool first_step_of_op(DispatchCallKind k) {
  return k == DispatchCallKind::Call || k == DispatchCallKind::CallBoxed;
}

// A step that runs a backend's own kernel (not a composite, not autograd): where an op's work is
// done, so where its stack is taken.
bool runs_backend_kernel(const DispatchStep& s) {
  return kBackendKeys.has(s.chosen) && (s.entry->provenance == Provenance::Kernel ||
                                        s.entry->provenance == Provenance::DefaultBackend);
}

// The recorders capturing stacks, told of each BLAS call by one hook (blas::add_call_hook).
std::mutex g_blas_listeners_mutex;
std::vector<TraceRecorder*> g_blas_listeners;

// Captures here, in the function the BLAS wrapper calls, so that skipping this one frame leaves
// the stack as a breakpoint on the routine would show it (the routine itself as frame #0).
void on_blas_call(const char* routine, const void* entry) {
  std::lock_guard lock(g_blas_listeners_mutex);
  for (TraceRecorder* r : g_blas_listeners)
    r->on_blas_call(routine, capture_stack(/*skip=*/1, entry));
}

void listen_to_blas(TraceRecorder* r, bool on) {
  std::lock_guard lock(g_blas_listeners_mutex);
  auto it = std::find(g_blas_listeners.begin(), g_blas_listeners.end(), r);
  if (on && it == g_blas_listeners.end()) {
    if (g_blas_listeners.empty()) blas::add_call_hook(&on_blas_call);
    g_blas_listeners.push_back(r);
  } else if (!on && it != g_blas_listeners.end()) {
    g_blas_listeners.erase(it);
    if (g_blas_listeners.empty()) blas::remove_call_hook(&on_blas_call);
  }
}
}  // namespace

ValueRecord ValueRecord::of(const IValue& v) {
  ValueRecord r;
  if (!v.is_tensor()) {
    r.value = v;
    return r;
  }
  r.is_tensor = true;
  const Tensor& t = v.to_tensor();
  if (!t.defined()) return r;
  r.defined = true;
  r.sizes = DimVector(t.sizes().begin(), t.sizes().end());
  r.strides = DimVector(t.strides().begin(), t.strides().end());
  r.dtype = t.dtype();
  r.device = t.device();
  r.requires_grad = t->requires_grad();
  r.keys = t.key_set();
  return r;
}

Event::Event(EventKind k, uint64_t step)
    : kind(k), t_ns(now_ns()), thread(trace_thread_id()), step_id(step) {}

void TraceRecorder::push(Event e) {
  std::lock_guard lock(mutex_);
  events_.push_back(std::move(e));
}

void TraceRecorder::on_enter(const DispatchStep& s) {
  Event e(EventKind::Enter, s.id);
  e.op = s.op;
  e.call = s.kind;
  e.key_set = s.key_set;
  e.fallthrough = s.fallthrough_keys;
  e.tls_included = s.tls_included;
  e.tls_excluded = s.tls_excluded;
  e.chosen = s.chosen;
  e.entry = s.entry;
  if (first_step_of_op(s.kind)) {
    e.values.reserve(s.args->size());
    for (const IValue& v : *s.args) e.values.push_back(ValueRecord::of(v));
  } else {
    e.arg_keys = s.arg_key_sets;
  }
  if (options_.stacks && runs_backend_kernel(s))
    e.stack = std::make_unique<RawStack>(capture_stack(/*skip=*/1));  // from the dispatcher
  push(std::move(e));
}

void TraceRecorder::on_blas_call(const char* routine, RawStack stack) {
  Event e(EventKind::BlasCall);
  e.routine = routine;
  e.stack = std::make_unique<RawStack>(std::move(stack));
  push(std::move(e));
}

void TraceRecorder::on_memory(const MemoryEvent& m) {
  if (!options_.memory) return;
  Event e(m.is_alloc ? EventKind::Alloc : EventKind::Free);
  e.ptr = reinterpret_cast<uintptr_t>(m.ptr);
  e.bytes = m.bytes;
  e.total_bytes = m.total_bytes;
  e.device = m.device;
  push(std::move(e));
}

void TraceRecorder::on_scope(const ScopeEvent& s) {
  Event e(s.begin ? EventKind::ScopeBegin : EventKind::ScopeEnd);
  e.node = std::string(s.name);
  e.node_id = s.id;
  push(std::move(e));
}

void TraceRecorder::on_exit(const DispatchStep& s, const Stack* returns) {
  Event e(EventKind::Exit, s.id);
  e.threw = returns == nullptr;
  if (returns && first_step_of_op(s.kind))
    for (const IValue& v : *returns) e.values.push_back(ValueRecord::of(v));
  push(std::move(e));
}

void TraceRecorder::on_autograd(const AutogradEvent& a) {
  EventKind kind = a.kind == AutogradEventKind::NodeCreated ? EventKind::NodeCreated
                   : a.kind == AutogradEventKind::NodeBegin ? EventKind::NodeBegin
                                                            : EventKind::NodeEnd;
  Event e(kind);
  e.node = a.node;
  e.sequence_nr = a.sequence_nr;
  e.node_id = reinterpret_cast<uintptr_t>(a.id);
  if (a.next) e.next = *a.next;
  push(std::move(e));
}

void TraceRecorder::start(std::shared_ptr<TraceRecorder> self) {
  OPSCOPE_CHECK(self.get() == this, "TraceRecorder::start: pass the recorder's own shared_ptr");
  handle_ = add_dispatch_observer(std::move(self));
  if (options_.stacks) {
    listen_to_blas(this, true);
    listening_to_blas_ = true;
  }
}

void TraceRecorder::stop() {
  if (listening_to_blas_) {
    listen_to_blas(this, false);
    listening_to_blas_ = false;
  }
  handle_.reset();
}

TraceRecorder::~TraceRecorder() {
  if (listening_to_blas_) listen_to_blas(this, false);
}

std::vector<Event> TraceRecorder::take() {
  std::lock_guard lock(mutex_);
  return std::move(events_);
}

}  // namespace opscope::profiler
