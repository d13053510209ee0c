#include "profiler/Recorder.h"

#include <algorithm>
#include <atomic>
#include <ctime>
#include <utility>

#include "core/runtime/Blas.h"

namespace opscope::profiler {

uint64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

uint32_t trace_thread_id() {
  static std::atomic<uint32_t> next{1};
  thread_local uint32_t id = next.fetch_add(1);
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

// The recorders capturing stacks, told of each BLAS call by one hook (blas::add_call_hook). Held
// weakly, and called on a snapshot taken under the mutex: a capture on a thread that released the
// GIL (the backward engine) takes it for the Python frames' references, so it must not run with
// the mutex held — a thread holding the GIL may be waiting for it, in its own BLAS call or in
// stop(). See Note [No Python object dies under a lock] in core/dispatch/Observer.cpp.
struct BlasListener {
  const TraceRecorder* recorder;  // to find it again, also from its destructor
  std::weak_ptr<TraceRecorder> weak;
};
std::mutex g_blas_listeners_mutex;
std::vector<BlasListener> g_blas_listeners;

// Captures here, in the function the BLAS wrapper calls, so that skipping this one frame leaves
// the stack as a breakpoint on the routine would show it (the routine itself as frame #0).
void on_blas_call(const char* routine, const void* entry) {
  std::vector<std::shared_ptr<TraceRecorder>> listeners;
  {
    std::lock_guard lock(g_blas_listeners_mutex);
    for (const BlasListener& l : g_blas_listeners)
      if (std::shared_ptr<TraceRecorder> r = l.weak.lock()) listeners.push_back(std::move(r));
  }
  for (const std::shared_ptr<TraceRecorder>& r : listeners)
    if (r->recording()) r->on_blas_call(routine, capture_stack(/*skip=*/1, entry));
  // `listeners` may hold a recorder's last reference: it goes here, with no lock held.
}

void listen_to_blas(const TraceRecorder* r, std::weak_ptr<TraceRecorder> weak, bool on) {
  std::lock_guard lock(g_blas_listeners_mutex);
  auto it = std::find_if(g_blas_listeners.begin(), g_blas_listeners.end(),
                         [&](const BlasListener& l) { return l.recorder == r; });
  if (on && it == g_blas_listeners.end()) {
    if (g_blas_listeners.empty()) blas::add_call_hook(&on_blas_call);
    g_blas_listeners.push_back({r, std::move(weak)});
  } else if (!on && it != g_blas_listeners.end()) {
    g_blas_listeners.erase(it);  // a weak_ptr: erasing it frees no recorder
    if (g_blas_listeners.empty()) blas::remove_call_hook(&on_blas_call);
  }
}
}  // namespace

Event::Event(EventKind k, uint64_t step)
    : kind(k), t_ns(now_ns()), thread(trace_thread_id()), step_id(step) {}

template <typename Fill>
void TraceRecorder::record(EventKind k, uint64_t step, Fill&& fill) {
  if (!recording()) return;  // a thread still holding the list it saw before stop()
  std::lock_guard lock(mutex_);
  fill(recording_.events.emplace_back(k, step));
}

uint32_t TraceRecorder::keep_values(const Stack& stack) {
  auto begin = static_cast<uint32_t>(recording_.values.size());
  for (const IValue& v : stack) {
    ValueRecord& r = recording_.values.emplace_back();
    if (!v.is_tensor()) {
      r.value = v;
      continue;
    }
    r.is_tensor = true;
    const Tensor& t = v.to_tensor();
    if (!t.defined()) continue;
    r.defined = true;
    r.dtype = t.dtype();
    r.device = t.device();
    r.requires_grad = t->requires_grad();
    r.keys = t.key_set();
    r.ndim = static_cast<uint32_t>(t.dim());
    r.dims_begin = static_cast<uint32_t>(recording_.dims.size());
    recording_.dims.append(t.sizes().begin(), t.sizes().end());
    recording_.dims.append(t.strides().begin(), t.strides().end());
  }
  return begin;
}

EventDetail& TraceRecorder::add_detail(Event& e) {
  e.detail = static_cast<uint32_t>(recording_.details.size());
  return recording_.details.emplace_back();
}

void TraceRecorder::on_enter(const DispatchStep& s) {
  if (!recording()) return;
  std::unique_ptr<RawStack> stack;
  if (options_.stacks && runs_backend_kernel(s))
    stack = std::make_unique<RawStack>(capture_stack(/*skip=*/1));  // from the dispatcher
  record(EventKind::Enter, s.id, [&](Event& e) {
    e.op = *s.op;
    e.call = s.kind;
    e.key_set = s.key_set;
    e.fallthrough = s.fallthrough_keys;
    e.tls_included = s.tls_included;
    e.tls_excluded = s.tls_excluded;
    e.chosen = s.chosen;
    e.entry = s.entry;
    if (first_step_of_op(s.kind)) {
      e.values_begin = keep_values(*s.args);
      e.values_count = static_cast<uint32_t>(s.args->size());
    } else {
      e.keys_begin = static_cast<uint32_t>(recording_.keys.size());
      e.keys_count = static_cast<uint32_t>(s.arg_key_sets.size());
      recording_.keys.append(s.arg_key_sets.begin(), s.arg_key_sets.end());
    }
    if (stack) add_detail(e).stack = std::move(stack);
  });
}

void TraceRecorder::on_exit(const DispatchStep& s, const Stack* returns) {
  record(EventKind::Exit, s.id, [&](Event& e) {
    e.threw = returns == nullptr;
    if (returns && first_step_of_op(s.kind)) {
      e.values_begin = keep_values(*returns);
      e.values_count = static_cast<uint32_t>(returns->size());
    }
  });
}

void TraceRecorder::on_blas_call(const char* routine, RawStack stack) {
  record(EventKind::BlasCall, 0, [&](Event& e) {
    EventDetail& d = add_detail(e);
    d.routine = routine;
    d.stack = std::make_unique<RawStack>(std::move(stack));
  });
}

void TraceRecorder::on_memory(const MemoryEvent& m) {
  if (!options_.memory) return;
  record(m.is_alloc ? EventKind::Alloc : EventKind::Free, 0, [&](Event& e) {
    e.ptr = reinterpret_cast<uintptr_t>(m.ptr);
    e.bytes = m.bytes;
    e.total_bytes = m.total_bytes;
    e.device = m.device;
  });
}

void TraceRecorder::on_scope(const ScopeEvent& s) {
  record(s.begin ? EventKind::ScopeBegin : EventKind::ScopeEnd, 0, [&](Event& e) {
    EventDetail& d = add_detail(e);
    d.name = std::string(s.name);
    d.id = s.id;
  });
}

void TraceRecorder::on_autograd(const AutogradEvent& a) {
  EventKind kind = a.kind == AutogradEventKind::NodeCreated ? EventKind::NodeCreated
                   : a.kind == AutogradEventKind::NodeBegin ? EventKind::NodeBegin
                                                            : EventKind::NodeEnd;
  record(kind, 0, [&](Event& e) {
    EventDetail& d = add_detail(e);
    d.name = a.node;
    d.sequence_nr = a.sequence_nr;
    d.id = reinterpret_cast<uintptr_t>(a.id);
    if (a.next) d.next = *a.next;
  });
}

void TraceRecorder::start(std::shared_ptr<TraceRecorder> self) {
  OPSCOPE_CHECK(self.get() == this, "TraceRecorder::start: pass the recorder's own shared_ptr");
  recording_now_.store(true, std::memory_order_relaxed);
  if (options_.stacks) {
    listen_to_blas(this, self, true);
    listening_to_blas_ = true;
  }
  handle_ = add_dispatch_observer(std::move(self));
}

void TraceRecorder::stop() {
  recording_now_.store(false, std::memory_order_relaxed);
  if (listening_to_blas_) {
    listen_to_blas(this, {}, false);
    listening_to_blas_ = false;
  }
  handle_.reset();
}

TraceRecorder::~TraceRecorder() {
  if (listening_to_blas_) listen_to_blas(this, {}, false);
}

Recording TraceRecorder::take() {
  std::lock_guard lock(mutex_);
  return std::exchange(recording_, Recording());
}

}  // namespace opscope::profiler
