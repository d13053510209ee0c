// The SIGINT flag and its handler. See Interrupt.h.
#include "core/runtime/Interrupt.h"

#include <cerrno>
#include <csignal>

namespace opscope {

// Note [Interrupting long ops]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// CPython answers SIGINT in two steps: its C handler only trips a flag, and the main thread runs
// the Python-level handler (default_int_handler, which raises KeyboardInterrupt) at its next
// bytecode. A C++ op that runs for a minute holds the main thread for that minute, so the
// KeyboardInterrupt of a Ctrl-C waits for the op to return. PyTorch leaves it at that (at::
// parallel_for and its kernels never look at signals; a 30-second matmul cannot be stopped, and
// a notebook's only way out is restarting the kernel). opscope is driven from a REPL and a
// notebook, where a user who typed one zero too many should get the prompt back at once, so its
// long loops stop:
//
//   who sets the flag   our C-level SIGINT handler, which then calls the handler it replaced
//                       (normally Python's C handler, so Python's flag is tripped as before). It
//                       is installed at `import opscope` and again by the front ends before each
//                       line, because signal.signal() (and prompt_toolkit while it reads a line)
//                       put Python's C handler back over ours; installing again never chains to
//                       ourselves, and SIG_IGN / SIG_DFL are left alone.
//   who looks at it     the loops that can run long, between pieces of work of a fraction of a
//                       millisecond or more: parallel_for's pieces on every thread, reductions'
//                       long rows, the panels of a large BLAS product, sort's runs and merges,
//                       scans' rows. One relaxed load per piece; the thread-local "watched" mark
//                       is read only once the flag is up, so ops on other Python threads (never
//                       watched) run to the end, as Python interrupts only its main thread.
//   who answers it      the Python binding, on the main thread with the GIL: for Interrupted it
//                       clears the flag and calls PyErr_CheckSignals(), which runs Python's
//                       handler — KeyboardInterrupt, or whatever a user's signal.signal handler
//                       raises; if the handler raises nothing, the op has no result to return,
//                       so the binding raises KeyboardInterrupt itself.
//   the stale flag      a SIGINT that comes while no op runs (Python code, time.sleep) sets our
//                       flag too, and Python raises its KeyboardInterrupt without us. That flag
//                       must not stop the next op, possibly much later. So every entry from
//                       Python (Note [Every entry from Python is guarded] in
//                       core/python/python_common.h) that finds the flag up on the main thread
//                       settles it before running anything: it clears the flag and calls
//                       PyErr_CheckSignals(). If Python has not yet handled the signal (it came
//                       a moment before the call), that raises now, before the op starts; if
//                       Python already did, nothing is raised and the op runs. Clearing the flag
//                       blindly at the start of each op would lose the first case (the op would
//                       run to its end); never clearing it would stop the next op for a Ctrl-C
//                       already answered.
//
// What this costs: nothing measurable — a piece is at least 16 grains (about half a millisecond
// of elementwise work), and a product is cut into panels only above several GFLOP, along K in
// multiples of 512, where OpenBLAS itself updates C once per block of K anyway (Note
// [Interruptible products] in core/ops/cpu/gemm.h). What it does not cover: a single BLAS call
// below that size (at most tens of milliseconds), and loops nobody has taught to look.

namespace detail {
std::atomic<bool> g_interrupt_requested{false};
}

namespace {

thread_local bool t_watched = false;

// The handler ours replaced, called after setting the flag. Written only while ours is not the
// installed handler (install_interrupt_handler returns early when it is).
struct sigaction g_previous {};
// Set while a handler runs chaining: if something we chained to ever chained back to us, the
// second entry only sets the flag.
std::atomic<bool> g_chaining{false};

void on_sigint(int sig, siginfo_t* info, void* context) {
  int saved_errno = errno;
  detail::g_interrupt_requested.store(true, std::memory_order_relaxed);
  if (!g_chaining.exchange(true, std::memory_order_acquire)) {
    if (g_previous.sa_flags & SA_SIGINFO) {
      if (g_previous.sa_sigaction) g_previous.sa_sigaction(sig, info, context);
    } else if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN &&
               g_previous.sa_handler != nullptr) {
      g_previous.sa_handler(sig);
    }
    g_chaining.store(false, std::memory_order_release);
  }
  errno = saved_errno;
}

bool is_ours(const struct sigaction& a) {
  return (a.sa_flags & SA_SIGINFO) && a.sa_sigaction == &on_sigint;
}

}  // namespace

bool interrupt_watched() noexcept {
  return t_watched;
}

bool set_interrupt_watched(bool watched) noexcept {
  bool previous = t_watched;
  t_watched = watched;
  return previous;
}

void throw_interrupted() {
  throw Interrupted();
}

void clear_interrupt() noexcept {
  detail::g_interrupt_requested.store(false, std::memory_order_relaxed);
}

void request_interrupt() noexcept {
  detail::g_interrupt_requested.store(true, std::memory_order_relaxed);
}

bool install_interrupt_handler() noexcept {
  struct sigaction current {};
  if (sigaction(SIGINT, nullptr, &current) != 0) return false;
  t_watched = true;
  if (is_ours(current)) return true;
  if (!(current.sa_flags & SA_SIGINFO) &&
      (current.sa_handler == SIG_DFL || current.sa_handler == SIG_IGN))
    return false;
  g_previous = current;
  struct sigaction ours {};
  ours.sa_sigaction = &on_sigint;
  ours.sa_mask = current.sa_mask;
  // SA_ONSTACK as CPython's own handler; no SA_RESTART, as CPython (a read() in progress returns
  // EINTR and Python looks at its signals).
  ours.sa_flags = SA_SIGINFO | (current.sa_flags & SA_ONSTACK);
  return sigaction(SIGINT, &ours, nullptr) == 0;
}

}  // namespace opscope
