#include "profiler/Recorder.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <ctime>
#include <functional>
#include <unordered_map>
#include <utility>

#include "core/runtime/Blas.h"
#include "core/runtime/Log.h"
#include "core/tensor/Tensor.h"

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
    if (r->recording() && r->take_stack_slot()) r->on_blas_call(routine, capture_stack(/*skip=*/1, entry));
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

namespace {
// Whether an event of this kind starts a span that a later event ends (see Note [The recorder's
// own time]); the others end one or are instants.
bool opens_a_span(EventKind k) {
  return k == EventKind::Enter || k == EventKind::NodeBegin || k == EventKind::ScopeBegin;
}
}  // namespace

// Note [A bounded recording]
// The REPL and the kernel record every line a user runs, for hours: a 10^6-iteration loop must
// not keep 10^7 events (a gigabyte) nor a stack per op. So a recorder may have a bound: past
// max_events it keeps no new top-level item — the item being recorded when the bound is reached
// is kept whole, so that no kept item is cut — and counts the items it leaves out with their
// time, for the view's "… N more ops" line; events outside any item (another thread's
// allocations) are dropped too. The count needs to know when a thread enters and leaves a
// top-level item, so every event says whether it opens one (an op's first step, a backward node's
// run, a user scope), closes one, or neither; a depth per thread does the rest.
//
// Note [The recorder's own time]
// An event's time is taken where the recorder's own work is outside the span it opens or closes:
// a closing event's (an op step's exit, a node's end) before the recorder stores anything, an
// opening event's once it has stored the arguments. Storing is cheap, but it writes fresh memory
// as the recording grows — on this project's VMs ~10 us a page the first time a process touches
// it — and inside the span that landed in the op: the first profile of a training step showed
// mm at 3x and threshold_backward at 20x their times.
template <typename Fill>
void TraceRecorder::record(EventKind k, uint64_t step, Edge edge, Fill&& fill) {
  if (!recording()) return;  // a thread still holding the list it saw before stop()
  // An opening event's time is read once it is stored; this first read is for the others, and
  // for the bound's accounting.
  const bool opens = opens_a_span(k);
  const uint64_t t_ns = !opens || options_.max_events != 0 ? now_ns() : 0;
  uint32_t thread = trace_thread_id();
  std::lock_guard lock(mutex_);
  if (options_.max_events != 0 && !keep_event(thread, edge, t_ns)) return;
  Event& e = recording_.events.emplace_back(k, step, t_ns, thread);
  fill(e);
  if (opens) e.t_ns = now_ns();
  if (options_.sink) options_.sink(recording_, e);
  if (!options_.keep) recording_.truncate();
}

void Recording::truncate() {
  events.truncate();
  values.truncate();
  dims.truncate();
  keys.truncate();
  details.truncate();
}

bool TraceRecorder::keep_event(uint32_t thread, Edge edge, uint64_t t_ns) {
  if (threads_.size() <= thread) threads_.resize(thread + 1);
  ThreadState& t = threads_[thread];
  bool full = recording_.events.size() >= options_.max_events;
  if (edge == Edge::Opens && t.depth++ == 0) {
    t.keeping = !full;
    t.item_start_ns = t_ns;
    if (full) ++dropped_items_;
  }
  bool keep = t.depth > 0 ? t.keeping : !full;
  if (edge == Edge::Closes && t.depth > 0 && --t.depth == 0 && !t.keeping)
    dropped_ns_ += t_ns - t.item_start_ns;
  return keep;
}

bool TraceRecorder::take_stack_slot() {
  return options_.max_stacks == 0 ||
         stacks_taken_.fetch_add(1, std::memory_order_relaxed) < options_.max_stacks;
}

uint64_t TraceRecorder::dropped_items() const {
  std::lock_guard lock(mutex_);
  return dropped_items_;
}

uint64_t TraceRecorder::dropped_ns() const {
  std::lock_guard lock(mutex_);
  return dropped_ns_;
}

uint32_t TraceRecorder::keep_values(const Stack& stack) {
  auto begin = static_cast<uint32_t>(recording_.values.size());
  for (const IValue& v : stack) {
    ValueRecord& r = recording_.values.emplace_back();
    if (v.tag() == IValue::Tag::TensorList) {
      r.list_text = v.str();
      r.keys = detail::keys_of(v);
      r.value = IValue(std::vector<Tensor>{});
      continue;
    }
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
  if (options_.stacks && runs_backend_kernel(s) && take_stack_slot())
    stack = std::make_unique<RawStack>(capture_stack(/*skip=*/1));  // from the dispatcher
  Edge edge = first_step_of_op(s.kind) ? Edge::Opens : Edge::None;
  const uint64_t mark = device_mark(s);  // last: the kernel runs right after it
  record(EventKind::Enter, s.id, edge, [&](Event& e) {
    e.device_ns = mark;
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
  Edge edge = first_step_of_op(s.kind) ? Edge::Closes : Edge::None;
  const uint64_t mark = device_mark(s);
  record(EventKind::Exit, s.id, edge, [&](Event& e) {
    e.device_ns = mark;
    e.threw = returns == nullptr;
    if (returns && first_step_of_op(s.kind)) {
      e.values_begin = keep_values(*returns);
      e.values_count = static_cast<uint32_t>(returns->size());
    }
  });
}

uint64_t TraceRecorder::device_mark(const DispatchStep& s) {
  if (!timeline_ || s.chosen != DispatchKey::CUDA || !runs_backend_kernel(s) || !recording())
    return 0;
  // Views (a tensor sharing its input's storage) and the empty family (an allocation) launch
  // nothing: their marks would time only the host's work between the two records.
  const OperatorEntry& entry = s.op->entry();
  if ((entry.has_schema() && entry.schema().is_view()) ||
      entry.qualified_name().starts_with("aten::empty"))
    return 0;
  int index = -1;  // the first CUDA tensor argument's device (the kernel's guard goes there)
  for (size_t i = 0; s.args && i < s.args->size(); ++i) {
    const IValue& v = (*s.args)[i];
    if (v.is_tensor() && v.to_tensor().defined() && v.to_tensor().device().is_cuda()) {
      index = v.to_tensor().device().index;
      break;
    }
  }
  return timeline_->mark(index);
}

void TraceRecorder::on_blas_call(const char* routine, RawStack stack) {
  record(EventKind::BlasCall, 0, Edge::None, [&](Event& e) {
    EventDetail& d = add_detail(e);
    d.routine = routine;
    d.stack = std::make_unique<RawStack>(std::move(stack));
  });
}

void TraceRecorder::on_memory(const MemoryEvent& m) {
  if (!options_.memory) return;
  record(m.is_alloc ? EventKind::Alloc : EventKind::Free, 0, Edge::None, [&](Event& e) {
    e.ptr = reinterpret_cast<uintptr_t>(m.ptr);
    e.bytes = m.bytes;
    e.total_bytes = m.total_bytes;
    e.device = m.device;
  });
}

void TraceRecorder::on_scope(const ScopeEvent& s) {
  record(s.begin ? EventKind::ScopeBegin : EventKind::ScopeEnd, 0,
         s.begin ? Edge::Opens : Edge::Closes, [&](Event& e) {
    EventDetail& d = add_detail(e);
    d.name = std::string(s.name);
    d.id = s.id;
  });
}

void TraceRecorder::on_autograd(const AutogradEvent& a) {
  EventKind kind = a.kind == AutogradEventKind::NodeCreated ? EventKind::NodeCreated
                   : a.kind == AutogradEventKind::NodeBegin ? EventKind::NodeBegin
                                                            : EventKind::NodeEnd;
  Edge edge = kind == EventKind::NodeBegin ? Edge::Opens
              : kind == EventKind::NodeEnd ? Edge::Closes
                                           : Edge::None;
  record(kind, 0, edge, [&](Event& e) {
    EventDetail& d = add_detail(e);
    d.name = a.node;
    d.sequence_nr = a.sequence_nr;
    d.id = reinterpret_cast<uintptr_t>(a.id);
    if (a.next) d.next = *a.next;
  });
}

void TraceRecorder::start(std::shared_ptr<TraceRecorder> self) {
  OPSCOPE_CHECK(self.get() == this, "TraceRecorder::start: pass the recorder's own shared_ptr");
  if (options_.device_time && !timeline_) timeline_ = make_device_timeline(DeviceType::CUDA);
  // Note [Pages touched ahead of the recorder] (Chunked.cpp)
  decltype(recording_.events)::get_ready();
  decltype(recording_.values)::get_ready();
  decltype(recording_.dims)::get_ready();
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
  if (timeline_) {  // mark ids -> times (Note [Device time of an op])
    uint64_t first = 0;
    std::vector<DeviceTimeline::MarkTime> times = timeline_->resolve(first);
    for (size_t i = 0; i < recording_.events.size(); ++i) {
      Event& e = recording_.events[i];
      if (e.device_ns == 0) continue;
      const uint64_t k = e.device_ns - first;  // an id past this batch (or before it): dropped
      e.device_ns = k < times.size() ? times[k].ns : 0;
      e.device_stream = k < times.size() ? times[k].stream : 0;
      if (k < times.size()) e.device = Device(DeviceType::CUDA, times[k].device);
    }
  }
  return std::exchange(recording_, Recording());
}

// Note [Folding a loop]
// The default view after a REPL line or a cell gives one line per top-level item; after a loop
// of 100,000 iterations it gives one line per distinct way the items ran, with counts and total
// times — within half a second, which turning 10^6 events into Python objects cannot do. So the
// grouping is done here, on the raw events, and Python renders only each group's first item.
// Two items are in one group when they ran the same way: the same ops entered in the same order,
// with the same dispatch keys and table entries (so the same kernels), the same argument
// tensors' dtypes and shapes, the same nodes created and the same exceptions — everything a
// summary line shows except timings and non-tensor argument values. Those values are hashed
// apart: when they differ within a group (`x * i`), the group says so and the view shows "…".
namespace {

inline void mix(uint64_t& h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
}

uint64_t hash_value(const IValue& v) {
  uint64_t h = static_cast<uint64_t>(v.tag());
  switch (v.tag()) {
    case IValue::Tag::Double: {
      double d = v.to_double();
      uint64_t bits;
      std::memcpy(&bits, &d, sizeof bits);
      mix(h, bits);
      break;
    }
    case IValue::Tag::Int:
      mix(h, static_cast<uint64_t>(v.to_int()));
      break;
    case IValue::Tag::Bool:
      mix(h, v.to_bool());
      break;
    case IValue::Tag::String:
      mix(h, std::hash<std::string>()(v.to_string()));
      break;
    case IValue::Tag::IntList:
      for (int64_t x : v.to_int_list()) mix(h, static_cast<uint64_t>(x));
      break;
    case IValue::Tag::ScalarType:
      mix(h, static_cast<uint64_t>(v.to_scalar_type()));
      break;
    default:  // lists of doubles and tensors, devices, generators: by kind
      break;
  }
  return h;
}

// What one thread is inside while the events are walked.
struct OpenItems {
  struct Open {
    EventKind kind;  // Enter, NodeBegin or ScopeBegin
    uint64_t id;     // the step id, or the node's / scope's id
  };
  std::vector<Open> stack;
  ItemSpan span;
  uint64_t shape_hash = 0, value_hash = 0;
};

}  // namespace

ItemGroups group_items(const Recording& r, size_t keep_items) {
  ItemGroups out;
  std::vector<OpenItems> threads;
  std::unordered_map<uint64_t, size_t> group_of;   // shape hash -> index in out.groups
  std::vector<uint64_t> group_value_hash;          // the first item's value hash, per group
  for (size_t i = 0; i < r.events.size(); ++i) {
    const Event& e = r.events[i];
    if (threads.size() <= e.thread) threads.resize(e.thread + 1);
    OpenItems& t = threads[e.thread];
    const EventDetail* detail = r.detail_of(e);
    bool opens = false;
    uint64_t closes = 0;  // the id the event closes, with closing_kind
    EventKind closing_kind = EventKind::Enter;
    bool is_close = false;
    switch (e.kind) {
      case EventKind::Enter:
        opens = e.call == DispatchCallKind::Call || e.call == DispatchCallKind::CallBoxed;
        break;
      case EventKind::Exit:
        is_close = true, closes = e.step_id, closing_kind = EventKind::Enter;
        break;
      case EventKind::NodeBegin:
      case EventKind::ScopeBegin:
        opens = true;
        break;
      case EventKind::NodeEnd:
        is_close = true, closes = detail->id, closing_kind = EventKind::NodeBegin;
        break;
      case EventKind::ScopeEnd:
        is_close = true, closes = detail->id, closing_kind = EventKind::ScopeBegin;
        break;
      default:
        break;
    }
    if (opens && t.stack.empty()) {
      t.span = ItemSpan{i, i, e.thread, e.t_ns, 0, 0};
      t.shape_hash = t.value_hash = 0;
    }
    if (t.stack.empty() && !opens) continue;  // outside any item: not part of one
    // What this event says about how the item ran.
    switch (e.kind) {
      case EventKind::Enter:
        mix(t.shape_hash, reinterpret_cast<uintptr_t>(e.entry));
        mix(t.shape_hash, static_cast<uint64_t>(e.chosen));
        mix(t.shape_hash, static_cast<uint64_t>(e.call));
        for (uint32_t v = e.values_begin; v < e.values_begin + e.values_count; ++v) {
          const ValueRecord& val = r.values[v];
          if (!val.is_tensor) {
            mix(t.value_hash, hash_value(val.value));
            mix(t.shape_hash, static_cast<uint64_t>(val.value.tag()));
            continue;
          }
          mix(t.shape_hash, val.defined);
          if (!val.defined) continue;
          mix(t.shape_hash, static_cast<uint64_t>(val.dtype));
          mix(t.shape_hash, val.requires_grad);
          mix(t.shape_hash, val.ndim);
          for (uint32_t d = 0; d < val.ndim; ++d)
            mix(t.shape_hash, static_cast<uint64_t>(r.dims[val.dims_begin + d]));
        }
        break;
      case EventKind::Exit:
        mix(t.shape_hash, e.threw);
        break;
      case EventKind::NodeCreated:
      case EventKind::NodeBegin:
      case EventKind::ScopeBegin:
        mix(t.shape_hash, std::hash<std::string>()(detail->name));
        break;
      default:
        break;
    }
    if (opens) {
      uint64_t id = e.kind == EventKind::Enter ? e.step_id : detail->id;
      t.stack.push_back({e.kind, id});
      continue;
    }
    if (!is_close) continue;
    auto it = std::find_if(t.stack.rbegin(), t.stack.rend(), [&](const OpenItems::Open& o) {
      return o.kind == closing_kind && o.id == closes;
    });
    if (it == t.stack.rend()) continue;  // a redispatch's exit, or an item opened before
    t.stack.erase(std::prev(it.base()), t.stack.end());
    if (!t.stack.empty()) continue;
    // The item is complete.
    t.span.end = i;
    t.span.duration_ns = e.t_ns - t.span.start_ns;
    auto [slot, inserted] = group_of.try_emplace(t.shape_hash, out.groups.size());
    if (inserted) {
      out.groups.push_back(ItemGroup{t.span, 0, 0, false});
      group_value_hash.push_back(t.value_hash);
    }
    ItemGroup& g = out.groups[slot->second];
    g.count += 1;
    g.total_ns += t.span.duration_ns;
    g.values_vary = g.values_vary || group_value_hash[slot->second] != t.value_hash;
    t.span.group = slot->second;
    if (out.items.size() < keep_items) out.items.push_back(t.span);
    ++out.item_count;
  }
  return out;
}

// --- OPSCOPE_LOG=dispatch ---------------------------------------------------------------------
namespace {

// "(CPU, ADInplaceOrView*, >AutogradCPU)": > marks `chosen`, * the keys of `fallthrough`.
std::string keys_str(DispatchKeySet ks, DispatchKeySet fallthrough = {},
                     DispatchKey chosen = DispatchKey::Undefined) {
  std::string out = "(";
  bool first = true;
  for (int i = 1; i < kNumRuntimeKeys; ++i) {
    auto k = static_cast<DispatchKey>(i);
    if (!ks.has(k)) continue;
    out += first ? "" : ", ";
    first = false;
    if (k == chosen) out += ">";
    out += to_string(k);
    if (fallthrough.has(k)) out += "*";
  }
  return out + ")";
}

// An argument as IValue::str() gives it: "f32[2, 3]" for a tensor, "None", the value's text.
std::string value_str(const Recording& r, const ValueRecord& v) {
  if (!v.is_tensor) return v.str();
  if (!v.defined) return "None";
  std::vector<int64_t> sizes(v.ndim);
  for (uint32_t d = 0; d < v.ndim; ++d) sizes[d] = r.dims[v.dims_begin + d];
  return std::string(short_dtype(v.dtype)) + shape_str(sizes);
}

}  // namespace

std::string StepLog::lines(const Recording& r, const Event& e) {
  if (threads_.size() <= e.thread) threads_.resize(e.thread + 1);
  Thread& t = threads_[e.thread];
  std::string pad(t.depth * 2, ' ');
  std::string out;
  switch (e.kind) {
    case EventKind::Enter: {
      // This step's arguments, and each one's keys.
      std::vector<std::string> args;
      std::vector<DispatchKeySet> arg_keys;
      if (!first_step_of_op(e.call)) {  // a redispatch: its op's arguments
        for (uint32_t i = 0; i < e.keys_count; ++i) arg_keys.push_back(r.keys[e.keys_begin + i]);
        if (!t.open_args.empty()) args = t.open_args.back();
        args.resize(arg_keys.size(), "?");  // the step it redispatches from was not recorded
      } else {
        for (uint32_t i = e.values_begin; i < e.values_begin + e.values_count; ++i) {
          const ValueRecord& v = r.values[i];
          args.push_back(value_str(r, v));
          // A tensor list's keys: its tensors'.
          arg_keys.push_back(v.is_tensor || v.value.tag() == IValue::Tag::TensorList
                                 ? v.keys
                                 : detail::keys_of(v.value));
        }
      }
      const FunctionSchema* schema = e.op.entry().has_schema() ? &e.op.schema() : nullptr;
      out = pad + "[" + std::string(to_string(e.call)) + "] op=[" + e.op.full_name() + "], key=[" +
            std::string(to_string(e.chosen)) + "]  kernel: " + e.entry->kernel.name() + " [" +
            std::string(trace_provenance(*e.entry)) + "] " + e.entry->site + "\n";
      out += pad + "    keys: " + keys_str(e.key_set, e.fallthrough, e.chosen) + "\n";
      out += pad + "    args: ";
      for (size_t i = 0; i < args.size(); ++i) {
        if (i) out += "; ";
        if (schema && i < schema->arguments.size()) out += schema->arguments[i].name + "=";
        out += args[i];
        if (!arg_keys[i].empty()) out += " " + keys_str(arg_keys[i]);
      }
      out += "\n" + pad + "    tls: included " + keys_str(e.tls_included) + " excluded " +
             keys_str(e.tls_excluded) + "\n";
      t.open_args.push_back(std::move(args));
      ++t.depth;
      break;
    }
    case EventKind::Exit:
      if (!t.open_args.empty()) t.open_args.pop_back();
      if (t.depth > 0) --t.depth;
      if (e.threw) out = std::string(t.depth * 2, ' ') + "  (threw)\n";
      break;
    case EventKind::NodeCreated: {
      const EventDetail& d = *r.detail_of(e);
      out = pad + "[autograd] created " + d.name + " #" + std::to_string(d.sequence_nr) + " -> (";
      for (size_t i = 0; i < d.next.size(); ++i)
        out += (i ? ", " : "") + (d.next[i].empty() ? std::string("None") : d.next[i]);
      out += ")\n";
      break;
    }
    case EventKind::NodeBegin: {
      const EventDetail& d = *r.detail_of(e);
      out = pad + "[backward] " + d.name + " #" + std::to_string(d.sequence_nr) + "\n";
      ++t.depth;
      break;
    }
    case EventKind::NodeEnd:
      if (t.depth > 0) --t.depth;
      break;
    default:  // allocations (OPSCOPE_LOG=alloc has them), scopes, BLAS calls
      break;
  }
  return out;
}

void set_dispatch_log(bool on, int fd) {
  // Never destroyed: a static destructor or another thread may still dispatch at exit.
  static auto* current = new std::shared_ptr<TraceRecorder>();
  if (*current) std::exchange(*current, nullptr)->stop();
  if (!on) return;
  RecorderOptions options;
  options.memory = false;
  options.keep = false;
  auto log = std::make_shared<StepLog>();  // used under the recorder's lock only
  options.sink = [log, fd](const Recording& r, const Event& e) {
    std::string text = log->lines(r, e);
    if (!text.empty()) log_write(fd, text);
  };
  *current = std::make_shared<TraceRecorder>(std::move(options));
  (*current)->start(*current);
}

namespace {
// Reads OPSCOPE_LOG once, when this library loads (see core/runtime/Log.h).
struct DispatchLogFromEnvironment {
  DispatchLogFromEnvironment() {
    if (log_requested("dispatch")) set_dispatch_log(true);
  }
} dispatch_log_from_environment;
}  // namespace

}  // namespace opscope::profiler
