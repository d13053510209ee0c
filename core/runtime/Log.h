// OPSCOPE_LOG: the one debug switch, with channels (comma-separated; "all" names every one).
//
//   OPSCOPE_LOG=dispatch        every dispatch step and autograd node, indented, to stderr: a
//                               trace recorder printing each step as it records it
//                               (profiler/Recorder.h: StepLog, set_dispatch_log)
//   OPSCOPE_LOG=alloc           every allocation and free with the allocator's totals (below)
//   OPSCOPE_LOG=dispatch,alloc  both, interleaved in program order
//   OPSCOPE_LOG=blas            which OpenBLAS loaded and why (core/runtime/Blas.h)
// The variable is read once: when the library with the channel's printer loads (alloc:
// libopscope_core; dispatch: libopscope_profiler, which opscope._C loads), or when OpenBLAS does.
// From Python the same printers are switched with opscope._C._set_dispatch_log / _set_alloc_log.
#pragma once

#include <string_view>

namespace opscope {

// Whether OPSCOPE_LOG names `channel` (comma-separated list; "all" names every channel).
bool log_requested(std::string_view channel);
// Writes to a file descriptor without buffering (so lines interleave with Python's output).
void log_write(int fd, std::string_view text);

// Turns the OPSCOPE_LOG=alloc printer on or off.
void set_alloc_log(bool on, int fd = 2);

}  // namespace opscope
