// Capturing a stack: the unwinder for the C++ frames, the provider for the Python ones, and where
// the Python frames go among the C++ ones. Symbolization is in Symbols.cpp.
#include "profiler/Stack.h"

#include <dlfcn.h>
#include <unwind.h>
#define UNW_LOCAL_ONLY
#include <libunwind.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdlib>

// Note [Where the Python frames go]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// CPython 3.11 runs Python code in one C function, _PyEval_EvalFrameDefault. One C activation of
// it runs one or more Python frames: a call from Python to a Python function is inlined (the new
// _PyInterpreterFrame is pushed and the same C loop goes on), while a call that passes through C
// — a hook the autograd engine calls, a Python kernel the dispatcher calls, __call__ through a
// type slot, a generator resumed — starts a new activation. Each activation keeps a _PyCFrame as
// a local variable (on the C stack) linked into tstate->cframe; its Python frames run from
// cframe->current_frame back through `previous` to the frame it started with, the one marked
// `is_entry` (Include/internal/pycore_frame.h).
//
// So the Python frames come in groups, one per activation, and each group knows the address of a
// local variable of its C frame: the group's anchor. A C frame i spans the stack from its own
// stack pointer sp[i] up to its caller's, sp[i+1] (the stack grows down), so the group stands
// right before (innermost of) the C frame whose span holds the anchor — among the C frames it
// called (the call machinery that led to the next C++ code) and the eval loop frame itself.
//
// The fast unwinder returns return addresses only. There an activation is recognized by its
// return address lying in _PyEval_EvalFrameDefault (the provider gives the range): the k-th such
// frame from the innermost runs the k-th group. The count must equal the number of activations
// the provider saw; when it does not (a compiler that moved part of the eval loop into a .cold
// section, a PEP 523 eval function, a stack deeper than kMaxFrames), the capture takes the exact
// path: libgcc's unwinder with each frame's stack pointer places each group by its anchor, and
// remembers the return addresses that held an activation, so that the next captures of the same
// path are fast again. Names are never needed: Debian's python3.11 is stripped, only its exported
// functions have names.

// Note [Capturing cheaply]
// ~~~~~~~~~~~~~~~~~~~~~~~~
// - C++ frames: libunwind's unw_backtrace keeps, per thread and per return address, how to find
//   the caller (its trace cache): ~10 ns a frame once warm. libgcc's _Unwind_Backtrace interprets
//   the DWARF call-frame program at every step, ~350 ns a frame on a 2-core VM — and stacks under
//   pytest or Jupyter have a hundred C frames. Both read .eh_frame, which every module has
//   (CPython, OpenBLAS, libc included), so frame pointers are not needed: the build keeps -O2's
//   -fomit-frame-pointer.
// - libunwind is loaded with dlopen(RTLD_LOCAL), never linked: libunwind.so.8 also defines
//   _Unwind_RaiseException & co. and `backtrace`, and linked it could take C++ exceptions over
//   from libgcc_s, depending on load order. Without it every capture takes the exact path.
// - Python frames: one Py_INCREF of the code object and the instruction offset per frame; names
//   and lines come when drawn. With the GIL held (forward ops, hooks) nothing more; without it
//   (the backward engine runs with the GIL released) the provider takes it for the references.
// - Names, files and lines: only when symbolize() is called, cached per address (Symbols.cpp).

namespace opscope::profiler {
namespace {

// Deeper stacks keep their innermost kMaxFrames C++ frames (Python frames further out are
// placed at the outer end).
constexpr int kMaxFrames = 1024;

std::atomic<const PythonFramesProvider*> g_provider{nullptr};

#define OPSCOPE_STRINGIFY_(x) #x
#define OPSCOPE_STRINGIFY(x) OPSCOPE_STRINGIFY_(x)

// libunwind's unw_backtrace, or nullptr when libunwind.so.8 is not there.
using BacktraceFn = int (*)(void**, int);
BacktraceFn fast_backtrace_fn() {
  static const BacktraceFn fn = []() -> BacktraceFn {
    void* lib = ::dlopen("libunwind.so.8", RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) return nullptr;
    // The per-thread cache is what makes it fast (the global one takes a lock per frame).
    using PolicyFn = int (*)(unw_addr_space_t, unw_caching_policy_t);
    auto policy =
        reinterpret_cast<PolicyFn>(::dlsym(lib, OPSCOPE_STRINGIFY(unw_set_caching_policy)));
    auto* space =
        static_cast<unw_addr_space_t*>(::dlsym(lib, OPSCOPE_STRINGIFY(unw_local_addr_space)));
    if (policy != nullptr && space != nullptr) policy(*space, UNW_CACHE_PER_THREAD);
    return reinterpret_cast<BacktraceFn>(::dlsym(lib, "unw_backtrace"));
  }();
  return fn;
}

// Both unwinders below report their caller as frame 0; the barrier after the call keeps the call
// from becoming a tail jump (which would drop that frame). So frame 0 is the unwinder function,
// frame 1 capture_stack, frame 2 capture_stack's caller.
constexpr int kOwnFrames = 2;

[[gnu::noinline]] int unwind_fast(BacktraceFn fn, uintptr_t* pcs) {
  int n = fn(reinterpret_cast<void**>(pcs), kMaxFrames);
  asm volatile("" ::: "memory");
  return n;
}

struct ExactUnwind {
  uintptr_t* pcs;
  uintptr_t* sps;  // each frame's stack pointer: the bottom of its span (see the Note)
  int n = 0;
};

_Unwind_Reason_Code on_exact_frame(_Unwind_Context* context, void* arg) {
  auto* u = static_cast<ExactUnwind*>(arg);
  uintptr_t pc = _Unwind_GetIP(context);
  if (pc == 0) return _URC_END_OF_STACK;
  u->pcs[u->n] = pc;
  // libgcc's "CFA" of the context being reported is the one of the frame it came from, its
  // callee: that is this frame's stack pointer.
  u->sps[u->n] = _Unwind_GetCFA(context);
  return ++u->n == kMaxFrames ? _URC_END_OF_STACK : _URC_NO_REASON;
}

[[gnu::noinline]] int unwind_exact(uintptr_t* pcs, uintptr_t* sps) {
  ExactUnwind u{pcs, sps};
  _Unwind_Backtrace(&on_exact_frame, &u);
  asm volatile("" ::: "memory");
  return u.n;
}

// Return addresses found to hold an interpreter activation outside the eval loop's range (see
// Note [Where the Python frames go]). Insert-only, lock-free lookups: read on every capture.
class LearnedActivations {
 public:
  bool contains(uintptr_t pc) const {
    if (count_.load(std::memory_order_relaxed) == 0) return false;
    for (size_t i = hash(pc), probes = 0; probes < kSlots; i = (i + 1) % kSlots, ++probes) {
      uintptr_t v = slots_[i].load(std::memory_order_acquire);
      if (v == pc) return true;
      if (v == 0) return false;
    }
    return false;
  }
  void insert(uintptr_t pc) {
    if (count_.load(std::memory_order_relaxed) >= kSlots / 2) return;  // full enough: stay slow
    for (size_t i = hash(pc), probes = 0; probes < kSlots; i = (i + 1) % kSlots, ++probes) {
      uintptr_t expected = 0;
      if (slots_[i].compare_exchange_strong(expected, pc, std::memory_order_acq_rel)) {
        count_.fetch_add(1, std::memory_order_relaxed);
        return;
      }
      if (expected == pc) return;
    }
  }

 private:
  static constexpr size_t kSlots = 512;
  static size_t hash(uintptr_t pc) { return (pc * 0x9E3779B97F4A7C15ull >> 32) % kSlots; }
  std::array<std::atomic<uintptr_t>, kSlots> slots_{};
  std::atomic<size_t> count_{0};
};
LearnedActivations g_learned;

std::atomic<uint64_t> g_fast_captures{0};
std::atomic<uint64_t> g_exact_captures{0};

bool runs_activation(const PythonFramesProvider& p, uintptr_t pc) {
  return (pc - 1 >= p.eval_begin && pc - 1 < p.eval_end) || g_learned.contains(pc);
}

// Fast placement: the k-th eval-loop frame runs the k-th activation. False when the counts
// disagree (then the exact path decides), unless the stack was cut at kMaxFrames: then the
// activations beyond the cut go to the outer end.
bool place_by_eval_frames(const PythonFramesProvider& p, const uintptr_t* pcs, int n,
                          const std::vector<uintptr_t>& activations,
                          std::vector<PythonFrameRef>& frames) {
  size_t a = 0, f = 0;
  for (int i = 0; i < n; ++i) {
    if (!runs_activation(p, pcs[i])) continue;
    if (a == activations.size()) return false;  // an eval frame without an activation
    for (; f < frames.size() && frames[f].anchor == activations[a]; ++f)
      frames[f].position = static_cast<uint32_t>(i);
    ++a;
  }
  if (a < activations.size() && n < kMaxFrames) return false;
  for (; f < frames.size(); ++f) frames[f].position = static_cast<uint32_t>(n);
  return true;
}

// Exact placement: the frame whose span [sps[i], sps[i+1]) holds the anchor.
void place_by_anchors(const uintptr_t* pcs, const uintptr_t* sps, int n,
                      const std::vector<uintptr_t>& activations,
                      std::vector<PythonFrameRef>& frames) {
  auto frame_of = [&](uintptr_t anchor) {
    const uintptr_t* it = std::upper_bound(sps, sps + n, anchor);
    if (it == sps + n && n == kMaxFrames) return n;  // beyond the cut: the outer end
    return it == sps ? 0 : static_cast<int>(it - sps) - 1;
  };
  for (PythonFrameRef& f : frames) f.position = static_cast<uint32_t>(frame_of(f.anchor));
  for (uintptr_t anchor : activations) {
    int i = frame_of(anchor);
    if (i + 1 < n) g_learned.insert(pcs[i]);  // the last frame's span has no upper bound
  }
}

}  // namespace

// --- RawStack ------------------------------------------------------------------------------------

RawStack::RawStack(RawStack&& other) noexcept
    : pcs(std::move(other.pcs)),
      python(std::move(other.python)),
      exact_pcs(other.exact_pcs),
      provider_(other.provider_) {
  other.python.clear();
}

RawStack& RawStack::operator=(RawStack&& other) noexcept {
  if (this != &other) {
    release_python();
    pcs = std::move(other.pcs);
    python = std::move(other.python);
    exact_pcs = other.exact_pcs;
    provider_ = other.provider_;
    other.python.clear();
  }
  return *this;
}

RawStack::~RawStack() {
  release_python();
}

void RawStack::release_python() {
  if (!python.empty() && provider_ != nullptr) provider_->release(python.data(), python.size());
  python.clear();
}

void RawStack::drop_through_python_frame(size_t n) {
  if (n == 0 || python.empty()) return;
  n = std::min(n, python.size());
  uint32_t cut = std::min<uint32_t>(python[n - 1].position, static_cast<uint32_t>(pcs.size()));
  if (provider_ != nullptr) provider_->release(python.data(), n);
  python.erase(python.begin(), python.begin() + static_cast<std::ptrdiff_t>(n));
  pcs.erase(pcs.begin(), pcs.begin() + cut);
  exact_pcs = cut >= exact_pcs ? 0 : exact_pcs - cut;
  for (PythonFrameRef& f : python) f.position -= std::min(f.position, cut);
}

CaptureStats capture_stats() {
  return {g_fast_captures.load(std::memory_order_relaxed),
          g_exact_captures.load(std::memory_order_relaxed)};
}

// --- capture -------------------------------------------------------------------------------------

void set_python_frames_provider(const PythonFramesProvider* provider) {
  g_provider.store(provider, std::memory_order_release);
}

[[gnu::noinline]] RawStack capture_stack(int skip, const void* callee) {
  // Scratch space, per thread: 16 KiB is more than a capture should take from a worker's stack.
  thread_local std::array<uintptr_t, kMaxFrames> pcs_buffer, sps_buffer;
  uintptr_t* pcs = pcs_buffer.data();
  uintptr_t* sps = sps_buffer.data();
  RawStack out;
  const PythonFramesProvider* provider = g_provider.load(std::memory_order_acquire);
  std::vector<uintptr_t> activations;
  if (provider != nullptr) {
    provider->capture(out.python, activations);
    out.provider_ = provider;
  }

  // OPSCOPE_STACKS_EXACT=1 takes the exact path always (to check one path against the other).
  static const bool exact_only = std::getenv("OPSCOPE_STACKS_EXACT") != nullptr;
  BacktraceFn fast = exact_only ? nullptr : fast_backtrace_fn();
  int n = fast != nullptr ? unwind_fast(fast, pcs) : -1;
  bool placed = n >= 0 && (out.python.empty() ||
                           place_by_eval_frames(*provider, pcs, n, activations, out.python));
  if (!placed) {
    n = unwind_exact(pcs, sps);
    if (!out.python.empty()) place_by_anchors(pcs, sps, n, activations, out.python);
  }
  (placed ? g_fast_captures : g_exact_captures).fetch_add(1, std::memory_order_relaxed);

  int first = std::min(n, kOwnFrames + std::max(skip, 0));
  uint32_t shift = callee != nullptr ? 1 : 0;
  out.pcs.reserve(static_cast<size_t>(n - first) + shift);
  if (callee != nullptr) out.pcs.push_back(reinterpret_cast<uintptr_t>(callee));
  out.pcs.insert(out.pcs.end(), pcs + first, pcs + n);
  out.exact_pcs = shift;
  for (PythonFrameRef& f : out.python)
    f.position =
        static_cast<uint32_t>(std::max<int>(static_cast<int>(f.position) - first, 0)) + shift;
  return out;
}

}  // namespace opscope::profiler
