// Output written to file descriptors 1 and 2 during a cell, sent to the notebook.
//
// Semantically: what a cell's code writes below Python — C++ messages (opscope's dispatch log,
// `_C._set_dispatch_log(True, fd=1)`), os.system's and subprocesses' output, OpenBLAS's warnings
// — appears in the cell's output as stdout / stderr streams, as in ipykernel (pitfall 10: xeus-
// python leaves it on the kernel's terminal). Outside cells the descriptors are the terminal's, so
// xeus's own messages stay there.
//
// In implementation terms two pipes are made once; before a cell fds 1 and 2 are pointed at
// their write ends (dup2) and after it back at the terminal. A reader thread (no GIL, SIGINT
// blocked) moves what arrives into buffers and asks the main thread for a drain
// (Py_AddPendingCall); the Python half's drain takes the text (take()) and writes it to the cell's
// streams. See Note [Output written below Python] in capture.cpp.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace xopscope::capture {

// Makes the pipes and starts the reader; `wake` is called (from the reader thread, without the
// GIL) when text arrived. Returns a descriptor of the terminal's stderr, for crash reports,
// which must never go into a pipe whose reader dies with the process. Call once, before any
// Python thread exists.
int start(void (*wake)());

void begin();  // main thread, before a cell: fds 1 and 2 write to the pipes
void sync();   // everything written so far is in the buffers (C stdio flushed, pipes read)
void end();    // sync(), then fds 1 and 2 are the terminal's again

// The text that arrived, by fd (1 or 2), whole UTF-8 characters only (a character cut between
// two reads waits for its end).
std::vector<std::pair<int, std::string>> take();

}  // namespace xopscope::capture
