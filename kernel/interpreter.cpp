// The xopscope interpreter. See interpreter.h.
#include "kernel/interpreter.h"

#include <pthread.h>
#include <signal.h>

#include <ctime>

#include "kernel/capture.h"
#include "pybind11/embed.h"
#include "pybind11_json/pybind11_json.hpp"

using namespace pybind11::literals;

namespace xopscope {

// Note [SIGINT in a kernel]
// ~~~~~~~~~~~~~~~~~~~~~~~~~
// Jupyter interrupts a kernel by sending it SIGINT (kernel.json's interrupt_mode "signal"; xeus
// 2.4 ignores interrupt_request messages). What users expect: the running cell stops with
// KeyboardInterrupt, and an idle kernel shrugs. On xeus that needs care (pitfall 4): left to
// Python's handler, a SIGINT landing on the main thread while it waits in zmq's poll makes the
// poll fail with EINTR and xeus aborts; xpython's own handler exits the kernel. So:
//   - main() blocks SIGINT before any thread exists, so every thread — xeus's control,
//     heartbeat and publisher threads, IPython's history thread — inherits the block, and a
//     SIGINT sent to an idle kernel stays pending;
//   - execute_request_impl drops the pending ones, unblocks SIGINT on the main thread for the
//     length of the cell, and blocks it again after: during the cell the signal reaches opscope's
//     handler (installed by opscope.interactive before each cell, chaining to Python's; Note
//     [Interrupting long ops] in core/runtime/Interrupt.cpp), which stops a long C++ loop and
//     lets Python raise KeyboardInterrupt where the cell is;
//   - threads created during a cell (OpenMP's pool, a user's threading.Thread) inherit the
//     unblocked mask, so a later idle SIGINT may be delivered to one of them: Python's C handler
//     then only trips Python's flag (its handlers run on the main thread), which the next cell
//     would see as a KeyboardInterrupt out of nowhere. So before and after each cell the main
//     thread, holding the GIL, runs the pending Python handlers and discards what they raise.
//     opscope's own flag needs nothing: every entry from Python settles a stale flag (Note
//     [Interrupting long ops], "the stale flag").
namespace {

sigset_t sigint_set() {
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, SIGINT);
  return s;
}

// With the GIL. See Note [SIGINT in a kernel]: forgets the SIGINTs that came while no cell ran.
void forget_idle_interrupts() {
  sigset_t s = sigint_set();
  timespec zero{0, 0};
  while (sigtimedwait(&s, nullptr, &zero) == SIGINT) {
  }
  if (PyErr_CheckSignals() != 0) PyErr_Clear();
}

// SIGINT unblocked on this thread for a scope.
class sigint_unblocked {
 public:
  sigint_unblocked() {
    sigset_t s = sigint_set();
    pthread_sigmask(SIG_UNBLOCK, &s, nullptr);
  }
  ~sigint_unblocked() {
    sigset_t s = sigint_set();
    pthread_sigmask(SIG_BLOCK, &s, nullptr);
  }
  sigint_unblocked(const sigint_unblocked&) = delete;
  sigint_unblocked& operator=(const sigint_unblocked&) = delete;
};

// Calls the Python half's function `name`; an exception is reported on the kernel's stderr (an
// "unraisable" message) rather than failing the request.
void call_half(const py::object& half, const char* name) {
  try {
    half.attr(name)();
  } catch (py::error_already_set& e) {
    e.discard_as_unraisable((std::string("xopscope_shell.") + name).c_str());
  }
}

// Note [Output from other threads]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// xeus publishes on a zmq socket that belongs to the main thread and takes no lock, so a print
// from a background thread (a progress thread, a hook that the backward engine calls on its
// worker) corrupted messages and crashed the kernel (pitfall 5). The Python half queues what
// other threads write or display (and, the same way, what the cell writes to fds 1 and 2:
// capture.h), and the main thread sends it: at once when the main thread is
// running Python (a pending call, Py_AddPendingCall, which CPython runs on the main thread at its
// next bytecode), and otherwise at the start and the end of the next request. The callable that
// drains the queue is kept here, never destroyed (exit() may run without the GIL).
py::object* g_drain = nullptr;

int run_drain(void*) {
  if (g_drain != nullptr) {
    try {
      (*g_drain)();
    } catch (py::error_already_set& e) {
      e.discard_as_unraisable("xopscope_shell: output from another thread");
    }
  }
  return 0;
}

}  // namespace

void request_drain() noexcept {
  Py_AddPendingCall(&run_drain, nullptr);
}

PYBIND11_EMBEDDED_MODULE(xopscope_native, m) {
  m.doc() = "What the Python half of the xopscope kernel needs from C++.";
  m.def("set_drain", [](py::object drain) {
    if (g_drain == nullptr) g_drain = new py::object();
    *g_drain = std::move(drain);
  });
  m.def(
      "schedule_drain", [] { return Py_AddPendingCall(&run_drain, nullptr) == 0; },
      "Asks the main thread to run the drain at its next bytecode (any thread may call it).");
  m.def(
      "take_captured",
      [] {
        py::list out;
        for (auto& [fd, text] : capture::take()) out.append(py::make_tuple(fd, py::bytes(text)));
        return out;
      },
      "What the cell wrote to fds 1 and 2 since the last call: [(fd, bytes)] (capture.h).");
  m.def(
      "sync_captured", [] { capture::sync(); },
      "Flushes C stdio and reads the pipes, so that take_captured() has all written so far.");
}

interpreter::interpreter(options opts) : xpyt::interpreter(true, true), m_options(opts) {}

void interpreter::configure_impl() {
  xpyt::interpreter::configure_impl();  // the shell, its display hooks; releases the GIL
  py::gil_scoped_acquire acquire;
  m_half = py::module_::import("xopscope_shell");
  nl::json patch = m_half.attr("setup")(m_ipython_shell, "views"_a = m_options.views);
  // Pitfall 8: xeus-python reports the Python it was built with and leaves out what nbconvert
  // and the editors read. The Python half says what runs.
  m_kernel_info = xpyt::interpreter::kernel_info_request_impl();
  m_kernel_info.merge_patch(patch);
}

nl::json interpreter::execute_request_impl(int execution_counter, const std::string& code,
                                           bool silent, bool store_history,
                                           nl::json user_expressions, bool allow_stdin) {
  {
    py::gil_scoped_acquire acquire;
    forget_idle_interrupts();  // Note [SIGINT in a kernel]
    try {
      m_half.attr("before_cell")(execution_counter, store_history && !silent);
    } catch (py::error_already_set& e) {
      e.discard_as_unraisable("xopscope_shell.before_cell");
    }
  }
  nl::json reply;
  capture::begin();  // fds 1 and 2 to the cell (capture.h)
  {
    sigint_unblocked interruptible;
    try {
      reply = xpyt::interpreter::execute_request_impl(execution_counter, code, silent,
                                                      store_history, user_expressions, allow_stdin);
    } catch (py::error_already_set& e) {
      // A KeyboardInterrupt that came after run_cell returned, while xeus-python read the
      // payload: the cell is over, so it is reported as the cell's error.
      py::gil_scoped_acquire acquire;
      std::string ename = py::str(e.type().attr("__name__"));
      reply = {{"status", "error"},
               {"ename", ename},
               {"evalue", py::str(e.value()).cast<std::string>()},
               {"traceback", nl::json::array()}};
      if (!silent) publish_execution_error(ename, reply["evalue"], {});
    }
  }
  capture::end();
  py::gil_scoped_acquire acquire;
  forget_idle_interrupts();
  // The view of the cell's ops comes after the cell's own outputs, its error included (which
  // xeus-python publishes after run_cell): see Note [The view comes last] in xopscope_shell.py.
  call_half(m_half, "after_cell");
  return reply;
}

nl::json interpreter::kernel_info_request_impl() {
  return m_kernel_info;
}

void interpreter::shutdown_request_impl() {
  // Pitfall 11: xeus ends the process with std::exit, so Python's atexit handlers would never run.
  py::gil_scoped_acquire acquire;
  call_half(m_half, "shutdown");
}

}  // namespace xopscope
