// xopscope — the Jupyter kernel: IPython (through xeus-python) with opscope loaded, so that after
// each cell the notebook shows what its ops did inside (README.md, "The Jupyter kernel").
//
// Semantically this executable is what Jupyter starts for the "xopscope" kernelspec:
// `xopscope -f <connection file>` serves the Jupyter protocol on the connection file's ports until
// a shutdown request or until its parent dies. Options: --no-views (as XOPSCOPE_VIEWS=off: no
// per-cell view; the magics still draw theirs), --version.
//
// In implementation terms it is a thin launcher, as the REPL's repl/main.cpp:
//   1. block SIGINT before any thread starts (Note [SIGINT in a kernel], interpreter.cpp);
//   2. start Debian's CPython 3.11 as if /usr/bin/python3 ran (Note [Starting Python as
//      /usr/bin/python3]), with this tree's opscope and the kernel's Python half on sys.path;
//   3. the capture of cells' fds 1 and 2 (capture.h), then faulthandler and opscope's
//      fatal-signal report (profiler/FatalSignal.h), both on the terminal's stderr;
//   4. a thread that ends the kernel when its parent dies (Note [No orphan kernels]);
//   5. an xeus kernel with xopscope's interpreter (interpreter.h), IPython's history
//      (history.h) and xeus-python's debugger, serving until shutdown (it exits the process).
// The process links this build's libopscope_core / libopscope_profiler, the libraries opscope._C
// links (RPATH $ORIGIN/../python/opscope): one dispatcher, one recorder.
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "embed/Embed.h"
#include "kernel/capture.h"
#include "kernel/history.h"
#include "kernel/interpreter.h"
#include "profiler/FatalSignal.h"
#include "xeus-python/xdebugger.hpp"
#include "xeus/xkernel.hpp"
#include "xeus/xkernel_configuration.hpp"
#include "xeus/xserver_shell_main.hpp"
#include "zmq.hpp"

// Note [Starting Python as /usr/bin/python3]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// As the REPL does (Note [Embedding as /usr/bin/python3] in embed/Embed.h), not through
// xeus-python's path helpers: sys.executable is /usr/bin/python3 — which debugpy, multiprocessing
// and `!python` rely on. sys.argv is the program alone: IPython's application would parse the
// kernel's options. sys.path then gets this build's opscope (Note [Which opscope the REPL
// imports]) and kernel/python (the kernel's Python half). PYDEVD_DISABLE_FILE_VALIDATION quiets
// debugpy's warning about frozen modules (pitfall 13).

// Note [No orphan kernels]
// ~~~~~~~~~~~~~~~~~~~~~~~~
// xeus does not watch its parent (pitfall 12): a kernel whose notebook server or test runner was
// killed would serve its ports forever. ipykernel polls for its parent; so does this: a thread
// compares getppid() with the parent it started with, every half second, and ends the process
// (status 1) when the parent changed — reparented to init or to a subreaper. PR_SET_PDEATHSIG is
// not used: it fires when the *thread* that forked us exits, which in jupyter_client's threaded
// launchers is not the parent's death.

namespace {

void watch_parent() {
  pid_t parent = ::getppid();
  std::thread([parent] {
    while (true) {
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
      if (::getppid() != parent) {
        std::fprintf(stderr,
                     "xopscope: the process that started the kernel (pid %d) is gone; "
                     "exiting\n",
                     static_cast<int>(parent));
        std::_Exit(1);
      }
    }
  }).detach();
}

bool has_flag(int argc, char** argv, const char* flag) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], flag) == 0) return true;
  }
  return false;
}

std::string option_value(int argc, char** argv, const char* name) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], name) == 0) return argv[i + 1];
  }
  return {};
}

void usage() {
  std::printf(
      "usage: xopscope -f CONNECTION_FILE [--no-views]\n"
      "The opscope Jupyter kernel; Jupyter starts it from its kernelspec (xopscope).\n"
      "  --no-views   no view of the ops after each cell (also XOPSCOPE_VIEWS=off)\n"
      "  --version    print the versions and exit\n");
}

}  // namespace

int main(int argc, char** argv) {
  // 1. Note [SIGINT in a kernel] (interpreter.cpp): every thread started from here inherits it.
  sigset_t sigint;
  sigemptyset(&sigint);
  sigaddset(&sigint, SIGINT);
  pthread_sigmask(SIG_BLOCK, &sigint, nullptr);

  if (has_flag(argc, argv, "--version")) {
    std::printf("xopscope %s (xeus-python, Python %s)\n", OPSCOPE_VERSION, PY_VERSION);
    return 0;
  }
  std::string connection_file = option_value(argc, argv, "-f");
  if (has_flag(argc, argv, "-h") || has_flag(argc, argv, "--help")) {
    usage();
    return 0;
  }
  if (connection_file.empty()) {
    usage();
    return 2;
  }
  xopscope::options options;
  const char* views = std::getenv("XOPSCOPE_VIEWS");
  options.views =
      !(has_flag(argc, argv, "--no-views") || (views != nullptr && std::strcmp(views, "off") == 0));

  // 2. Note [Starting Python as /usr/bin/python3].
  ::setenv("PYDEVD_DISABLE_FILE_VALIDATION", "1", 0);
  PyStatus status = opscope::embed::start_python(1, argv);
  if (PyStatus_Exception(status)) Py_ExitStatusException(status);  // prints, exits
  std::vector<std::string> paths = opscope::embed::opscope_paths();
  paths.push_back(opscope::embed::source_path("kernel/python"));
  if (!opscope::embed::prepend_to_sys_path(paths)) {
    PyErr_Print();
    return 1;
  }
  // 3. Cells' fds 1 and 2 go to the notebook (capture.h); crashes say where, on the terminal
  // (a report into a pipe whose reader dies with the process would be lost).
  int terminal = xopscope::capture::start(&xopscope::request_drain);
  opscope::embed::enable_faulthandler(terminal);
  opscope::profiler::install_fatal_signal_handler(terminal);
  // 4. Note [No orphan kernels].
  watch_parent();

  // 5. The kernel. xpyt::interpreter::configure_impl releases the GIL this thread holds since
  // Py_InitializeFromConfig; the interpreter takes it back for each request.
  xeus::xconfiguration config = xeus::load_configuration(connection_file);
  auto context = xeus::make_context<zmq::context_t>();
  auto interpreter = std::make_unique<xopscope::interpreter>(options);
  nl::json debugger_config{{"python", OPSCOPE_PYTHON_EXECUTABLE}};
  xeus::xkernel kernel(config, xeus::get_user_name(), std::move(context), std::move(interpreter),
                       xeus::make_xserver_shell_main, xopscope::make_ipython_history_manager(),
                       nullptr, xpyt::make_python_debugger, debugger_config);
  kernel.start();  // serves until shutdown_request, then ends the process (std::exit)
  return 0;
}
