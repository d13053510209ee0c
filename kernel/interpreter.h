// The xopscope interpreter: xeus-python's IPython interpreter, with opscope's views after each
// cell and the kernel behaviour Jupyter users rely on.
//
// Semantically a cell runs as in any IPython kernel (xeus-python gives completion, inspection,
// magics, rich display, comms, top-level await, the debugger), and after a cell that ran opscope
// ops one display_data shows what they did (opscope.interactive's default view, drawn as HTML);
// Ctrl-C / the interrupt button stops the running cell — even inside a long C++ op — and does
// nothing to an idle kernel; output from other threads arrives in the notebook instead of
// crashing the kernel; error replies name the exception's class; `exit` works; kernel_info tells
// the Python that really runs.
//
// In implementation terms only the *_impl methods are overridden, each opening with
// py::gil_scoped_acquire (xeus-python releases the GIL between requests); the Python half, in
// kernel/python/xopscope_shell.py, patches the IPython shell (see its docstring). The fixes each
// answer an item of ../shared/kernel-pitfalls.md, cited by number where they are made.
#pragma once

#include <string>

#include "xeus-python/xinterpreter.hpp"

namespace xopscope {

struct options {
  bool views = true;  // the per-cell view (XOPSCOPE_VIEWS=off or --no-views turn it off)
};

// Asks the main thread to send what other threads and file descriptors 1 and 2 wrote (Note
// [Output from other threads] in interpreter.cpp). Any thread, no GIL needed.
void request_drain() noexcept;

class interpreter final : public xpyt::interpreter {
 public:
  explicit interpreter(options opts);

 private:
  void configure_impl() override;
  nl::json execute_request_impl(int execution_counter, const std::string& code, bool silent,
                                bool store_history, nl::json user_expressions,
                                bool allow_stdin) override;
  nl::json kernel_info_request_impl() override;
  void shutdown_request_impl() override;

  options m_options;
  py::object m_half;       // the xopscope_shell module (the Python half)
  nl::json m_kernel_info;  // computed once: kernel_info may come on the control thread
};

}  // namespace xopscope
