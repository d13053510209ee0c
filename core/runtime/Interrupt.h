// Ctrl-C inside a long op: the loops that can run long look at a flag and stop.
//
// Semantically, a SIGINT that arrives while the main thread runs an opscope op ends that op within
// a fraction of a second with KeyboardInterrupt (raised by the Python binding, which runs
// Python's own SIGINT handler first: a handler a user installed with signal.signal runs too), and
// leaves the process as it was before the op — except that an in-place op's tensor may be partly
// written, as after any exception in the middle of a loop. Ops on other threads are never
// interrupted (Python delivers KeyboardInterrupt to the main thread only).
//
// In implementation terms there is one process-wide atomic flag, set by a C-level SIGINT handler
// that then chains to the handler it replaced (Python's, which trips Python's own flag). A loop
// asks interrupt_pending() between pieces of its work — one relaxed load while no SIGINT came —
// and check_interrupt() throws Interrupted, which the binding turns into the Python exception.
// Which thread may be interrupted is a thread-local mark, set on the main thread when the handler
// is installed and carried into OpenMP's threads for the length of a parallel_for.
//
//   for (int64_t b = 0; b < n; b += piece) {
//     check_interrupt();                        // throws Interrupted once Ctrl-C was pressed
//     run(b, std::min(n, b + piece));
//   }
//
// See Note [Interrupting long ops] in Interrupt.cpp for who sets and who clears the flag.
#pragma once

#include <atomic>
#include <exception>

namespace opscope {

// What check_interrupt() throws: not an opscope::Error (nothing catches it to add context), and
// the Python binding raises KeyboardInterrupt for it (or what Python's SIGINT handler raises).
class Interrupted : public std::exception {
 public:
  const char* what() const noexcept override { return "interrupted by SIGINT (Ctrl-C)"; }
};

namespace detail {
extern std::atomic<bool> g_interrupt_requested;
}

// Whether a SIGINT came that nobody has answered yet. One relaxed load: cheap enough for any
// loop that looks at it once per piece of work (a few hundred microseconds of it or more).
inline bool interrupt_requested() noexcept {
  return detail::g_interrupt_requested.load(std::memory_order_relaxed);
}

// Whether this thread's work may be interrupted: the main thread once the handler is installed,
// and OpenMP's threads while they run a piece of its parallel_for.
bool interrupt_watched() noexcept;
// Marks this thread (returns the previous mark); parallel_for's threads take their caller's.
bool set_interrupt_watched(bool watched) noexcept;

// Whether the work running on this thread should stop now. The thread-local mark is only read
// once a SIGINT came.
inline bool interrupt_pending() noexcept {
  return __builtin_expect(interrupt_requested(), 0) && interrupt_watched();
}

[[noreturn]] void throw_interrupted();

// Throws Interrupted when interrupt_pending().
inline void check_interrupt() {
  if (interrupt_pending()) throw_interrupted();
}

// Forgets a SIGINT: the binding calls it once Python has been told (see the Note).
void clear_interrupt() noexcept;
// Sets the flag as the SIGINT handler does (tests; a front end's own "stop" button).
void request_interrupt() noexcept;

// Installs the SIGINT handler that sets the flag, chaining to the handler in place now; marks the
// calling thread as watched. Idempotent and cheap (two sigaction calls): front ends call it again
// before each line, since Python's signal.signal() — and prompt_toolkit while it reads a line —
// put their own handler back over it. Leaves SIG_IGN and SIG_DFL alone (nothing then answers a
// SIGINT by raising, so nothing should stop an op either). Returns whether ours is in place.
bool install_interrupt_handler() noexcept;

// RAII: marks this thread watched (or not) for a scope, restoring the previous mark.
class InterruptWatchScope {
 public:
  explicit InterruptWatchScope(bool watched) : previous_(set_interrupt_watched(watched)) {}
  ~InterruptWatchScope() { set_interrupt_watched(previous_); }
  InterruptWatchScope(const InterruptWatchScope&) = delete;
  InterruptWatchScope& operator=(const InterruptWatchScope&) = delete;

 private:
  bool previous_;
};

}  // namespace opscope
