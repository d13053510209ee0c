// Futures shared by C++ and Python, and C++ awaiting the coroutines of async hooks. See futures.h.
#include "core/python/futures.h"

#include <atomic>
#include <chrono>
#include <cmath>

namespace opscope::python {

Future::~Future() {
  // The last reference may go on a thread without the GIL (a C++ awaiter, a worker).
  if (python_is_going()) {
    value_.release();
    error_.release();
    for (py::object& cb : callbacks_) cb.release();
    return;
  }
  py::gil_scoped_acquire gil;
  value_ = py::object();
  error_ = py::object();
  callbacks_.clear();
}

bool Future::done() const {
  std::lock_guard<std::mutex> lock(mu_);
  return done_;
}

void Future::set_result(py::object value) {
  complete(std::move(value), py::object());
}

void Future::set_error(py::object exception) {
  complete(py::object(), std::move(exception));
}

void Future::complete(py::object value, py::object error) {
  std::vector<py::object> callbacks;
  {
    std::lock_guard<std::mutex> lock(mu_);
    OPSCOPE_CHECK(!done_,
                  "Attempting to mark a completed Future as complete again. Note that a Future "
                  "can only be marked completed once.");
    value_ = std::move(value);
    error_ = std::move(error);
    done_ = true;
    callbacks.swap(callbacks_);
  }
  cv_.notify_all();
  if (callbacks.empty()) return;
  py::object self = py::cast(shared_from_this());  // the Python object when it has one
  for (py::object& cb : callbacks) {
    try {
      cb(self);
    } catch (py::error_already_set& e) {
      e.discard_as_unraisable(cb);
    }
  }
}

bool Future::wait_for(double seconds) {
  if (done()) return true;
  using Clock = std::chrono::steady_clock;
  const bool forever = seconds < 0 || !std::isfinite(seconds);
  const auto deadline =
      forever ? Clock::time_point::max()
              : Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                   std::chrono::duration<double>(seconds));
  // The main thread wakes every 50 ms to let Python see a Ctrl-C (its handler only trips a flag;
  // the KeyboardInterrupt is raised here, by PyErr_CheckSignals, with the GIL).
  const bool main_thread = _PyOS_IsMainThread();
  const auto slice = std::chrono::milliseconds(50);
  while (true) {
    bool finished;
    {
      py::gil_scoped_release no_gil;
      std::unique_lock<std::mutex> lock(mu_);
      auto until = main_thread ? std::min(deadline, Clock::now() + slice) : deadline;
      finished = cv_.wait_until(lock, until, [&] { return done_; });
    }
    if (finished) return true;
    if (!forever && Clock::now() >= deadline) return false;
    if (main_thread && PyErr_CheckSignals() != 0) throw py::error_already_set();
  }
}

py::object Future::value() const {
  std::lock_guard<std::mutex> lock(mu_);
  // torch 1.13 answers value() on a pending future with this internal assert's text.
  OPSCOPE_CHECK(done_,
                "completed() INTERNAL ASSERT FAILED: value() of a Future that is not completed "
                "yet (wait() for it, or read it in a callback)");
  if (error_) {
    PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(error_.ptr())), error_.ptr());
    throw py::error_already_set();
  }
  return value_;
}

py::object Future::error() const {
  std::lock_guard<std::mutex> lock(mu_);
  return error_ ? error_ : py::none();
}

void Future::add_callback(py::object callback) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!done_) {
      callbacks_.push_back(std::move(callback));
      return;
    }
  }
  try {
    callback(py::cast(shared_from_this()));
  } catch (py::error_already_set& e) {
    e.discard_as_unraisable(callback);
  }
}

// Note [Async hooks]
// A hook written as `async def` (a tensor hook, a saved-tensor pack / unpack pair, a profiler op
// hook) returns a coroutine when C++ calls it. C++ awaits it the way seed 001 describes:
//   1. the coroutine goes to opscope's asyncio loop, which runs forever on a thread of its own
//      (opscope._async, started on first use), by loop.call_soon_threadsafe;
//   2. when its task ends, a callback on the loop thread completes a C++ Future (set_result or
//      set_error: the seed's "cpp_callback");
//   3. the hook's thread waits on that Future, the GIL released, up to the timeout
//      (opscope.futures.set_async_hook_timeout, 5 s unless set) — the seed's timer.
// The hook's thread is the one that ran the op or backward: it blocks meanwhile, so a hook still
// sees and changes what a plain hook would (a tensor hook's result replaces the gradient). A
// coroutine that raises, is cancelled or times out (it is cancelled then) does not kill the op:
// a RuntimeWarning names the hook and the exception, and the op goes on as without the hook (the
// gradient passes through unchanged; a pack hook keeps the tensor itself). Plain functions are
// called as before: only a coroutine result takes this path.
//
// No deadlock: the waiting thread holds no GIL and no lock the loop thread needs. A hook called
// on the loop thread itself (a coroutine there running backward) cannot wait for that loop: it is
// reported like a failure.

namespace {

std::atomic<double> g_async_hook_timeout{5.0};

}  // namespace

std::optional<py::object> await_hook_coroutine(py::object coroutine, const py::handle& hook,
                                               const char* what, const char* fallback) {
  py::module_ async_mod = py::module_::import("opscope._async");
  auto fut = std::make_shared<Future>();
  py::object handle;
  try {
    handle = async_mod.attr("_start")(coroutine, py::cast(fut));
  } catch (py::error_already_set& e) {
    async_mod.attr("_report")(what, hook, e.value(), false, fallback);
    return std::nullopt;
  }
  double timeout = g_async_hook_timeout.load();
  if (!fut->wait_for(timeout)) {
    async_mod.attr("_cancel")(handle);
    async_mod.attr("_report")(what, hook, py::none(), timeout, fallback);
    return std::nullopt;
  }
  py::object err = fut->error();
  if (!err.is_none()) {
    async_mod.attr("_report")(what, hook, err, false, fallback);
    return std::nullopt;
  }
  return fut->value();
}

py::object awaited_hook_result(py::object result, const py::handle& hook, const char* what,
                               const char* fallback) {
  if (!is_coroutine(result)) return result;
  std::optional<py::object> r = await_hook_coroutine(std::move(result), hook, what, fallback);
  return r ? std::move(*r) : py::none();
}

void init_futures(py::module_& m) {
  py::class_<Future, std::shared_ptr<Future>>(
      m, "_Future", py::dynamic_attr(),
      "The C++ future behind opscope.futures.Future: a value or an exception set once.")
      .def(py::init<>())
      .def("done", &Future::done, "Whether a value or an exception is set.")
      .def(
          "wait",
          [](Future& f) {
            f.wait_for(-1);
            return f.value();
          },
          "Blocks (without the GIL) until done; the value, or raises the exception.")
      .def("value", &Future::value, "The value of a done future, or raises its exception.")
      .def("set_result", &Future::set_result, py::arg("result"))
      .def("_set_error", &Future::set_error, py::arg("exception"),
           "Completes with an exception (any BaseException; set_exception checks for Exception).")
      .def("_exception", &Future::error, "The exception set, or None.")
      .def("_wait_for", &Future::wait_for, py::arg("seconds"),
           "Blocks up to `seconds` (without the GIL); whether the future is done.")
      .def("add_done_callback", &Future::add_callback, py::arg("callback"),
           "callback(future) once done (now, when it already is).");
  m.def(
      "_set_async_hook_timeout",
      [](double seconds) {
        if (!(seconds > 0)) throw ValueError("async hook timeout must be positive, got " +
                                             std::to_string(seconds));
        g_async_hook_timeout.store(seconds);
      },
      "How long a hook's coroutine may run before it is cancelled (seconds).");
  m.def("_get_async_hook_timeout", [] { return g_async_hook_timeout.load(); });
  m.def(
      "_await_hook_coroutine",
      [](py::object coroutine, py::object hook, const char* what, const char* fallback) {
        std::optional<py::object> r = await_hook_coroutine(std::move(coroutine), hook, what,
                                                           fallback);
        return py::make_tuple(r.has_value(), r ? *r : py::none());
      },
      "(ok, result) of awaiting a hook's coroutine from C++ (what the hook call sites do).");
}

}  // namespace opscope::python
