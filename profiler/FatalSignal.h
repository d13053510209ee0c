// What a process running opscope says when it dies of a fatal signal.
//
// Semantically: opscope must never crash, but if a SIGSEGV, SIGBUS, SIGFPE, SIGILL or SIGABRT
// ever arrives, the user should see where — the C++ stack of the thread that received it, each
// frame named and sorted into opscope's layers (the same capture and symbolization as the views'
// stacks, Stack.h) — instead of a bare "Segmentation fault". The front ends (the `opscope` REPL,
// the Jupyter kernel) install it once in main():
//
//   opscope::profiler::install_fatal_signal_handler();   // after Python's faulthandler, if any
//
// A crash then prints, on stderr:
//
//   opscope: fatal signal SIGSEGV (segmentation fault: address not mapped to object) at address
//   0x0 on thread 4711
//   C++ stack, innermost first:
//     #0  __memmove_avx_unaligned_erms  [libc]  libc.so.6
//     #1  ...
//     #9  opscope::Dispatcher::call(...)  core/dispatch/Dispatcher.cpp:210  [dispatcher]
//
// and the process ends with the same signal (exit status, core dump) as it would have without the
// handler. In implementation terms the handler captures raw return addresses with libunwind from
// the signal's own context (no allocation, no lock), names them in a forked child that may block
// or die without harm (Note [Naming frames in a dying process]), then hands the signal to the
// handler that was there before — Python's faulthandler, which prints the Python frames — or to
// the default action.
#pragma once

namespace opscope::profiler {

// Installs the handler for SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT, writing its report to
// file descriptor `fd`. The handlers already installed are kept and called after the report
// (install this one after Python's faulthandler so that the C++ stack comes first and the Python
// frames after it). Gives the calling thread an alternate signal stack of 1 MiB when it has a
// smaller one, so that a stack overflow is reported too. Loads the unwinder now, since the
// handler may not. Calling it again changes only the fd.
void install_fatal_signal_handler(int fd = 2);

// Whether install_fatal_signal_handler() ran in this process.
bool fatal_signal_handler_installed();

}  // namespace opscope::profiler
