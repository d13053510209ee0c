#include "core/dispatch/Observer.h"

#include <algorithm>
#include <mutex>
#include <utility>

#include "core/dispatch/Dispatcher.h"
#include "core/runtime/Allocator.h"

namespace opscope {

std::string_view to_string(DispatchCallKind k) {
  switch (k) {
    case DispatchCallKind::Call:
      return "call";
    case DispatchCallKind::Redispatch:
      return "redispatch";
    case DispatchCallKind::CallBoxed:
      return "callBoxed";
    case DispatchCallKind::RedispatchBoxed:
      return "redispatchBoxed";
  }
  return "?";
}

std::string_view to_string(AutogradEventKind k) {
  switch (k) {
    case AutogradEventKind::NodeCreated:
      return "node_created";
    case AutogradEventKind::NodeBegin:
      return "node_begin";
    case AutogradEventKind::NodeEnd:
      return "node_end";
  }
  return "?";
}

// Note [No Python object dies under a lock]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Observers may own Python objects: an op hook's callable (opscope.profiler.add_hook), a trace
// recorder's stacks, which hold references to Python code objects. Dropping such a reference
// from C++ takes the GIL (PyCallable, the stack provider's release), and so does capturing a
// stack on a thread that released it (the backward engine). Meanwhile a thread that holds the GIL
// — the interpreter running a cell — may wait for our locks: it adds or removes an observer, or
// dispatches an op and refreshes its copy of the observer list. So:
//
//   never take the GIL, and never destroy anything that may own a Python object, while holding
//   a lock that a GIL holder can wait for.
//
// Otherwise thread A holds the lock and waits for the GIL, thread B holds the GIL and waits for
// the lock, and the process hangs (it did: hooks removed, or trace(with_stack=True) ending, while
// other threads ran backward — tests/python/test_threads.py). The locks stay leaves under the GIL:
//   - under a lock, only move or swap what may die (shared_ptrs) into a local declared before it,
//     which is destroyed after the lock is let go (`doomed` below);
//   - do what needs the GIL (capturing a stack, calling Python) before taking the lock, or after
//     letting it go, on a snapshot taken under it (profiler/Recorder.cpp's BLAS listeners);
//   - a thread's copy of the list is not dropped when the thread ends: its Python state is gone
//     by then and the interpreter may be finalizing, when taking the GIL ends the thread
//     (pthread_exit) in the middle of a destructor and std::terminate()s the process; the copy is
//     handed over to the next add / remove (ThreadObservers below);
//   - the backward engine runs without the GIL (opscope._C releases it), so a lock taken inside
//     the engine (Note [Concurrent accumulation] in core/autograd/Engine.cpp) is never waited for
//     by a GIL holder; Python called from inside it takes the GIL itself.
// A destructor that takes the GIL then runs on whatever thread drops the last reference, with
// no lock of ours held: it waits for the GIL like any Python thread.

namespace detail {
std::atomic<int> g_num_dispatch_observers{0};

namespace {
// The observer list is copied on write: add / remove publish a new list and bump the generation;
// each thread keeps the list it last saw and takes the new one when the generation moved. A list
// can hold the last reference of an observer that owns Python objects, so a list is never let go
// with g_observers_mutex held: see Note [No Python object dies under a lock].
std::mutex g_observers_mutex;
// Never destroyed (like the dispatcher's tables): a static destructor or another thread may still
// dispatch while the process exits.
std::shared_ptr<const ObserverList>& g_observers =
    *new std::shared_ptr<const ObserverList>(std::make_shared<const ObserverList>());
std::atomic<uint64_t> g_observers_generation{1};
std::atomic<uint64_t> g_next_step_id{1};
std::atomic<uint64_t> g_next_scope_id{1};

// Lists let go by threads that ended, for the next add / remove to drop (after its unlock).
// Never destroyed, as g_observers: what is left here when the process exits stays.
std::vector<std::shared_ptr<const ObserverList>>& g_ended_threads_lists =
    *new std::vector<std::shared_ptr<const ObserverList>>();

struct ThreadObservers {
  uint64_t generation = 0;
  std::shared_ptr<const ObserverList> list;
  // A thread's copy can be the last holder of an observer that owns Python objects, and this
  // destructor runs after the thread's Python state is gone — maybe while the interpreter
  // finalizes, when taking the GIL ends the thread (pthread_exit) in the middle of a destructor
  // and the process with it (std::terminate). So the copy is not dropped here: it is handed over
  // to the next thread that adds or removes an observer, or kept until the process exits.
  ~ThreadObservers() {
    if (!list) return;
    std::lock_guard lock(g_observers_mutex);
    g_ended_threads_lists.push_back(std::move(list));
  }
};
thread_local ThreadObservers t_observers;

// What an add / remove lets go of once g_observers_mutex is released: the list it replaced,
// the calling thread's old copy, the copies of threads that ended.
// See Note [No Python object dies under a lock].
struct DoomedLists {
  std::shared_ptr<const ObserverList> replaced, own_copy;
  std::vector<std::shared_ptr<const ObserverList>> of_ended_threads;
};

// The allocator's hook while any observer is installed: each allocation and free to every one.
void forward_memory(void* ptr, size_t nbytes, Device device, bool is_alloc,
                    const AllocatorStats& after) {
  if (!dispatch_observed()) return;
  MemoryEvent e{is_alloc, ptr, nbytes, device, after.current_bytes};
  for (const auto& o : *dispatch_observers()) o->on_memory(e);
}

void notify_scope(const ScopeEvent& e) {
  for (const auto& o : *dispatch_observers()) o->on_scope(e);
}

// Publishes `list` (call with g_observers_mutex held); returns the list it replaces, for the
// caller to let go once the mutex is released (Note [No Python object dies under a lock]).
[[nodiscard]] std::shared_ptr<const ObserverList> publish(ObserverList list) {
  int before = static_cast<int>(g_observers->size());
  int after = static_cast<int>(list.size());
  std::shared_ptr<const ObserverList> old =
      std::exchange(g_observers, std::make_shared<const ObserverList>(std::move(list)));
  g_observers_generation.fetch_add(1, std::memory_order_release);
  g_num_dispatch_observers.store(after, std::memory_order_release);
  if (before == 0 && after > 0) add_alloc_observer(&forward_memory);
  if (before > 0 && after == 0) remove_alloc_observer(&forward_memory);
  return old;
}

// Takes the current list into this thread's copy; returns the copy it replaces (to be let go by
// the caller after unlocking). Call with g_observers_mutex held.
[[nodiscard]] std::shared_ptr<const ObserverList> refresh_thread_copy() {
  ThreadObservers& t = t_observers;
  t.generation = g_observers_generation.load(std::memory_order_relaxed);
  return std::exchange(t.list, g_observers);
}
}  // namespace

std::shared_ptr<const ObserverList> dispatch_observers() {
  ThreadObservers& t = t_observers;
  uint64_t generation = g_observers_generation.load(std::memory_order_acquire);
  if (t.generation != generation) {
    // The list this thread saw last may be the last holder of a removed observer: it dies here,
    // after the unlock. See Note [No Python object dies under a lock].
    std::shared_ptr<const ObserverList> doomed;
    {
      std::lock_guard lock(g_observers_mutex);
      doomed = refresh_thread_copy();
    }
  }
  return t.list;
}

void notify_autograd(const AutogradEvent& event) {
  for (const auto& o : *dispatch_observers()) o->on_autograd(event);
}

ObservedCall::ObservedCall(const OperatorHandle& op, DispatchCallKind kind, DispatchKeySet ks,
                           DispatchKey chosen, const DispatchTableEntry& e, Stack args)
    : args_(std::move(args)), observers_(dispatch_observers()) {
  const LocalDispatchKeySet& local = local_dispatch_key_set();
  step_.op = &op;
  step_.kind = kind;
  step_.key_set = ks;
  step_.fallthrough_keys = ks - op.entry().non_fallthrough_keys();
  step_.tls_included = local.included;
  step_.tls_excluded = local.excluded;
  step_.chosen = chosen;
  step_.entry = &e;
  step_.args = &args_;
  step_.arg_key_sets.reserve(args_.size());
  for (const IValue& v : args_) step_.arg_key_sets.push_back(keys_of(v));
  step_.id = g_next_step_id.fetch_add(1, std::memory_order_relaxed);
  // An observer may refuse the call (a C++ op hook throwing): the ones already told of the step
  // are told it threw, so that every enter they saw has its exit.
  size_t entered = 0;
  try {
    for (const auto& o : *observers_) {
      o->on_enter(step_);
      ++entered;
    }
  } catch (...) {
    while (entered > 0) (*observers_)[--entered]->on_exit(step_, nullptr);
    throw;
  }
}

void ObservedCall::finish(Stack returns) {
  finished_ = true;
  for (auto it = observers_->rbegin(); it != observers_->rend(); ++it)
    (*it)->on_exit(step_, &returns);
}

ObservedCall::~ObservedCall() {
  if (finished_) return;
  for (auto it = observers_->rbegin(); it != observers_->rend(); ++it)
    (*it)->on_exit(step_, nullptr);
}
}  // namespace detail

ObserverHandle add_dispatch_observer(std::shared_ptr<DispatchObserver> observer) {
  OPSCOPE_CHECK(observer != nullptr, "add_dispatch_observer: the observer is null");
  detail::DoomedLists doomed;  // let go after the unlock: Note [No Python object dies under a lock]
  {
    std::lock_guard lock(detail::g_observers_mutex);
    detail::ObserverList list = *detail::g_observers;
    list.push_back(observer);
    doomed.replaced = detail::publish(std::move(list));
    doomed.of_ended_threads = std::exchange(detail::g_ended_threads_lists, {});
  }
  return ObserverHandle(std::move(observer));
}

ObserverHandle& ObserverHandle::operator=(ObserverHandle&& o) noexcept {
  if (this != &o) {
    reset();
    observer_ = std::move(o.observer_);
  }
  return *this;
}

ObserverHandle::~ObserverHandle() {
  reset();
}

void ObserverHandle::reset() {
  if (!observer_) return;
  // The observer, the list it was removed from and this thread's copy of that list: what may hold
  // its last references, let go after the unlock (Note [No Python object dies under a lock]).
  std::shared_ptr<DispatchObserver> observer = std::move(observer_);
  detail::DoomedLists doomed;
  {
    std::lock_guard lock(detail::g_observers_mutex);
    detail::ObserverList list = *detail::g_observers;
    auto it = std::find(list.begin(), list.end(), observer);
    if (it != list.end()) {
      list.erase(it);
      doomed.replaced = detail::publish(std::move(list));
    }
    // This thread lets go of the old list now (other threads when they next look).
    doomed.own_copy = detail::refresh_thread_copy();
    doomed.of_ended_threads = std::exchange(detail::g_ended_threads_lists, {});
  }
  // Unlocked: the observer is usually freed right here, with whatever Python objects it owns.
}

// --- user scopes ---------------------------------------------------------------------------------

uint64_t record_scope_begin(std::string_view name) {
  uint64_t id = detail::g_next_scope_id.fetch_add(1, std::memory_order_relaxed);
  if (detail::dispatch_observed()) detail::notify_scope({true, name, id});
  return id;
}

void record_scope_end(uint64_t id, std::string_view name) {
  if (detail::dispatch_observed()) detail::notify_scope({false, name, id});
}

RecordScope::RecordScope(std::string name)
    : name_(std::move(name)), id_(record_scope_begin(name_)) {}

RecordScope::~RecordScope() {
  record_scope_end(id_, name_);
}

}  // namespace opscope
