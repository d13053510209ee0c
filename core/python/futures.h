// Futures shared by C++ and Python, and C++ awaiting Python coroutines.
//
// Semantically a Future is torch.futures.Future's: a value — or an exception — that one thread sets
// once and that any thread may wait for; callbacks added to it run when it is set (at once when it
// already is). opscope.futures.Future (core/python/opscope/futures.py) is the Python class, a
// subclass of opscope._C._Future, which is this class.
//
// In implementation terms it is a mutex and a condition variable around the value, the error and
// the callbacks, all Python objects. Everything but waiting runs with the GIL; wait_for() lets the
// GIL go while it blocks, so the thread that will set the value can run.
//
// C++ awaiting a coroutine (Note [Async hooks] in futures.cpp): a hook written as `async def`
// returns a coroutine; await_hook_coroutine() runs it on opscope's asyncio loop thread
// (opscope._async), which sets a Future when it ends, and waits for that Future with a timeout —
// the design of seed 001 with a Future in place of its timer.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "core/python/python_common.h"

namespace opscope::python {

class Future : public std::enable_shared_from_this<Future> {
 public:
  Future() = default;
  ~Future();
  Future(const Future&) = delete;
  Future& operator=(const Future&) = delete;

  bool done() const;
  // Completes the future with a value or an exception object (any BaseException); runs the
  // callbacks on this thread. A second completion raises torch's RuntimeError. GIL held.
  void set_result(py::object value);
  void set_error(py::object exception);
  // Blocks until the future is done or `seconds` have passed (negative: no limit); true when
  // done. Called with the GIL, which is released while blocking; on the main thread a Ctrl-C
  // raises KeyboardInterrupt (py::error_already_set) out of the wait.
  bool wait_for(double seconds);
  // The value, or the exception raised (the very object set); RuntimeError when not done.
  py::object value() const;
  // The exception set, or None (also when not done).
  py::object error() const;
  // callback(future) when the future is done: now, on this thread, if it already is. An exception
  // from a callback is reported as unraisable (printed) and the other callbacks still run.
  void add_callback(py::object callback);

 private:
  void complete(py::object value, py::object error);

  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  py::object value_, error_;  // GIL to touch; fixed once done_
  std::vector<py::object> callbacks_;
};

// Whether a hook's result is a coroutine (it was an `async def`).
inline bool is_coroutine(const py::handle& r) {
  return PyCoro_CheckExact(r.ptr());
}

// Runs `coroutine` — what the hook `hook` returned — on the async-hook loop thread and waits for
// it, the GIL released, up to the timeout (opscope.futures.set_async_hook_timeout). Returns its
// result; or, when it raised, was cancelled or timed out (it is cancelled then), issues a
// RuntimeWarning naming `what` and saying `fallback` (what the calling op does instead), and
// returns nullopt. Called with the GIL. See Note [Async hooks] in futures.cpp.
std::optional<py::object> await_hook_coroutine(py::object coroutine, const py::handle& hook,
                                               const char* what, const char* fallback);

// A hook's result as the call site uses it: a coroutine is awaited (await_hook_coroutine), None
// when that fails; anything else is returned as it is.
py::object awaited_hook_result(py::object result, const py::handle& hook, const char* what,
                               const char* fallback);

// opscope._C._Future, _set_async_hook_timeout, ... (futures.cpp).
void init_futures(py::module_& m);

}  // namespace opscope::python
