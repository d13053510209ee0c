#include "profiler/Recorder.h"

#include <atomic>
#include <ctime>

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

void TraceRecorder::push(Event e) {
  std::lock_guard lock(mutex_);
  events_.push_back(std::move(e));
}

void TraceRecorder::on_enter(const DispatchStep& s) {
  Event e{EventKind::Enter, now_ns(), trace_thread_id(), s.id};
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
  push(std::move(e));
}

void TraceRecorder::on_exit(const DispatchStep& s, const Stack* returns) {
  Event e{EventKind::Exit, now_ns(), trace_thread_id(), s.id};
  e.threw = returns == nullptr;
  if (returns && first_step_of_op(s.kind))
    for (const IValue& v : *returns) e.values.push_back(ValueRecord::of(v));
  push(std::move(e));
}

void TraceRecorder::on_autograd(const AutogradEvent& a) {
  EventKind kind = a.kind == AutogradEventKind::NodeCreated ? EventKind::NodeCreated
                   : a.kind == AutogradEventKind::NodeBegin ? EventKind::NodeBegin
                                                            : EventKind::NodeEnd;
  Event e{kind, now_ns(), trace_thread_id(), 0};
  e.node = a.node;
  e.sequence_nr = a.sequence_nr;
  e.node_id = reinterpret_cast<uintptr_t>(a.id);
  if (a.next) e.next = *a.next;
  push(std::move(e));
}

void TraceRecorder::start(std::shared_ptr<TraceRecorder> self) {
  OPSCOPE_CHECK(self.get() == this, "TraceRecorder::start: pass the recorder's own shared_ptr");
  handle_ = add_dispatch_observer(std::move(self));
}

void TraceRecorder::stop() {
  handle_.reset();
}

std::vector<Event> TraceRecorder::take() {
  std::lock_guard lock(mutex_);
  return std::move(events_);
}

}  // namespace opscope::profiler
