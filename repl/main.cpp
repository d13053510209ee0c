// opscope — the terminal REPL: IPython's terminal shell with opscope loaded, so that after every
// line you see what its ops did inside (see README.md, "The REPL").
//
// Semantically this executable is `ipython` with `import opscope as torch` done and the session
// layer (opscope.interactive) loaded, running in a process whose dispatcher, trace buffers and
// stack capture are this build's libopscope_core / libopscope_profiler — the same two shared
// libraries opscope._C links, loaded once (DESIGN.md: one dispatcher in the process).
//
// In implementation terms it is a thin launcher around Debian's CPython 3.11, embedded through
// libpython3.11 the way a C++ program calls into Python (PyConfig, the GIL, errors as Python
// tracebacks):
//   1. configure the interpreter as if /usr/bin/python3 were running
//      (Note [Embedding as /usr/bin/python3] in embed/Embed.h);
//   2. put this build's opscope first on sys.path (Note [Which opscope the REPL imports],
//      embed/Embed.h);
//   3. enable faulthandler, then install opscope's fatal-signal report (profiler/FatalSignal.h);
//   4. call opscope.interactive._terminal.main(sys.argv), the Python half, which parses the
//      command line, builds the IPython shell and runs it;
//   5. turn what it returned or raised into the exit status the way python does.
// Everything else — options, the banner, scripts, colour — is in
// core/python/opscope/interactive/_terminal.py, where it can be read and tested from Python.
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "embed/Embed.h"
#include "profiler/FatalSignal.h"

// The GIL: Py_InitializeFromConfig leaves it held by this thread, which keeps it until
// Py_FinalizeEx (that needs it too). Nothing here runs long outside Python, so it is never
// released here; the interpreter releases it itself around blocking calls (waiting for a key at
// the prompt, sleeping), so threads that the session starts (OpenMP workers that call back into
// Python, the backward engine) run meanwhile.

namespace {

// A status the way python turns SystemExit(code) into one: None is 0, an int is itself, anything
// else is printed to stderr and is 1. Steals `code`.
int status_of_exit_code(PyObject* code) {
  int status = 0;
  if (code == nullptr || code == Py_None) {
    status = 0;
  } else if (PyLong_Check(code)) {
    status = static_cast<int>(PyLong_AsLong(code));
    if (status == -1 && PyErr_Occurred()) {
      PyErr_Clear();
      status = 1;
    }
  } else {
    PyObject* err = PySys_GetObject("stderr");  // borrowed
    if (err == nullptr || err == Py_None || PyFile_WriteObject(code, err, Py_PRINT_RAW) != 0 ||
        PyFile_WriteString("\n", err) != 0)
      PyErr_Clear();
    status = 1;
  }
  Py_XDECREF(code);
  return status;
}

// The exit status for the exception being raised, which it clears: SystemExit as above; any
// other exception is printed as a Python traceback and gives 1. `interrupted` tells that it was
// a KeyboardInterrupt (then, like python, the process ends by SIGINT after finalizing).
int status_of_exception(bool* interrupted) {
  if (PyErr_ExceptionMatches(PyExc_SystemExit)) {
    PyObject *type, *value, *traceback;
    PyErr_Fetch(&type, &value, &traceback);
    PyErr_NormalizeException(&type, &value, &traceback);
    PyObject* code = value != nullptr ? PyObject_GetAttrString(value, "code") : nullptr;
    if (code == nullptr) PyErr_Clear();
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(traceback);
    return status_of_exit_code(code);
  }
  *interrupted = PyErr_ExceptionMatches(PyExc_KeyboardInterrupt);
  PyErr_Print();
  return 1;
}

// Runs the Python half: opscope.interactive._terminal.main(sys.argv).
int run_terminal(bool* interrupted) {
  PyObject* module = PyImport_ImportModule("opscope.interactive._terminal");
  if (module == nullptr) return status_of_exception(interrupted);
  PyObject* main = PyObject_GetAttrString(module, "main");
  Py_DECREF(module);
  if (main == nullptr) return status_of_exception(interrupted);
  PyObject* argv = PySys_GetObject("argv");  // borrowed
  PyObject* argv_copy = argv != nullptr ? PySequence_List(argv) : PyList_New(0);
  PyObject* result = argv_copy != nullptr ? PyObject_CallOneArg(main, argv_copy) : nullptr;
  Py_XDECREF(argv_copy);
  Py_DECREF(main);
  if (result == nullptr) return status_of_exception(interrupted);
  return status_of_exit_code(result);  // steals result
}

}  // namespace

int main(int argc, char** argv) {
  PyStatus status = opscope::embed::start_python(argc, argv);
  if (PyStatus_Exception(status)) {
    if (PyStatus_IsExit(status)) return status.exitcode;
    Py_ExitStatusException(status);  // prints the error, exits 1
  }

  bool interrupted = false;
  int code = 0;
  if (!opscope::embed::prepend_to_sys_path(opscope::embed::opscope_paths())) {
    code = status_of_exception(&interrupted);
  } else {
    opscope::embed::enable_faulthandler(STDERR_FILENO);
    opscope::profiler::install_fatal_signal_handler(STDERR_FILENO);
    code = run_terminal(&interrupted);
  }

  if (Py_FinalizeEx() < 0) code = 120;  // as python: flushing stdout / stderr failed
  if (interrupted) {
    // As python does for an unhandled KeyboardInterrupt: die of SIGINT, so that the shell that
    // started us (a loop in a script) sees that the user interrupted it.
    ::signal(SIGINT, SIG_DFL);
    ::kill(::getpid(), SIGINT);
  }
  return code;
}
