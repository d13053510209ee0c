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
//      (Note [Embedding as /usr/bin/python3]);
//   2. put this build's opscope first on sys.path (Note [Which opscope the REPL imports]);
//   3. enable faulthandler, then install opscope's fatal-signal report (profiler/FatalSignal.h);
//   4. call opscope.interactive._terminal.main(sys.argv), the Python half, which parses the
//      command line, builds the IPython shell and runs it;
//   5. turn what it returned or raised into the exit status the way python does.
// Everything else — options, the banner, scripts, colour — is in
// core/python/opscope/interactive/_terminal.py, where it can be read and tested from Python.
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <signal.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <filesystem>
#include <string>

#include "profiler/FatalSignal.h"

// Note [Embedding as /usr/bin/python3]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// An embedded interpreter computes sys.executable, sys.prefix and hence sys.path from its
// program name. Left at its default (this executable, <build>/bin/opscope), Python would look
// for its standard library under <build>/lib and miss Debian's dist-packages (IPython, NumPy),
// and sys.executable would name the REPL — so multiprocessing or `subprocess.run([sys.executable,
// ...])` would start another REPL instead of Python. With program_name = /usr/bin/python3 the
// interpreter lays itself out exactly as /usr/bin/python3 does (prefix /usr, Debian's site.py
// and its dist-packages, the user's site-packages), and the rest of the configuration is
// PyConfig_InitPythonConfig's: environment variables (PYTHONPATH, PYTHONFAULTHANDLER, ...)
// honoured, locale and signal handlers set up like python's (SIGINT raises KeyboardInterrupt,
// SIGPIPE is ignored). parse_argv is off: python's own options (-c, -i, -m) are not ours to take;
// sys.argv starts as the raw command line and the Python half replaces it with what a program
// expects (`opscope script.py a b` gives the script ['script.py', 'a', 'b'], as python does).
//
// The GIL: Py_InitializeFromConfig leaves it held by this thread, which keeps it until
// Py_FinalizeEx (that needs it too). Nothing here runs long outside Python, so it is never
// released here; the interpreter releases it itself around blocking calls (waiting for a key at
// the prompt, sleeping), so threads that the session starts (OpenMP workers that call back into
// Python, the backward engine) run meanwhile.

// Note [Which opscope the REPL imports]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The executable has this build's libopscope_core.so and libopscope_profiler.so loaded (RPATH
// $ORIGIN/../python/opscope). `import opscope` must then load this build's _C.so, from the same
// folder: a _C from another build folder (one a PYTHONPATH points to, say build-sanitize/) would
// be built against another core. So sys.path starts with this tree's core/python (the Python
// sources) and <build>/python (the compiled part; see Note [Each build folder holds its own
// compiled part] in CMakeLists.txt) — no PYTHONPATH needed — and opscope/__init__.py's rule
// "the first build folder on sys.path wins" picks ours.

namespace {

// The directory this executable is in (from /proc/self/exe), "" if unknown.
std::string executable_dir() {
  char path[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", path, sizeof(path) - 1);
  if (n <= 0) return {};
  std::string p(path, static_cast<size_t>(n));
  size_t slash = p.rfind('/');
  return slash == std::string::npos ? std::string() : p.substr(0, slash);
}

// See Note [Embedding as /usr/bin/python3]. Returns false, with the status in `status`, when the
// interpreter did not start.
bool start_python(int argc, char** argv, PyStatus* status) {
  PyConfig config;
  PyConfig_InitPythonConfig(&config);
  config.parse_argv = 0;
  *status = PyConfig_SetBytesString(&config, &config.program_name, OPSCOPE_PYTHON_EXECUTABLE);
  if (!PyStatus_Exception(*status)) *status = PyConfig_SetBytesArgv(&config, argc, argv);
  if (!PyStatus_Exception(*status)) *status = Py_InitializeFromConfig(&config);
  PyConfig_Clear(&config);
  return !PyStatus_Exception(*status);
}

// Inserts `dir` at sys.path[0]. See Note [Which opscope the REPL imports].
bool prepend_to_sys_path(const std::string& dir) {
  PyObject* path = PySys_GetObject("path");  // borrowed
  if (path == nullptr || !PyList_Check(path)) {
    PyErr_SetString(PyExc_RuntimeError, "sys.path is not a list");
    return false;
  }
  PyObject* entry = PyUnicode_DecodeFSDefault(dir.c_str());
  if (entry == nullptr) return false;
  int rc = PyList_Insert(path, 0, entry);
  Py_DECREF(entry);
  return rc == 0;
}

// faulthandler.enable(all_threads=True): the Python frames of a crash, printed after the C++
// stack (see profiler/FatalSignal.h). Best effort: a failure is cleared.
void enable_faulthandler() {
  PyObject* module = PyImport_ImportModule("faulthandler");
  PyObject* enable = module != nullptr ? PyObject_GetAttrString(module, "enable") : nullptr;
  PyObject* args = PyTuple_New(0);
  PyObject* kwargs = Py_BuildValue("{s:O}", "all_threads", Py_True);
  PyObject* r = enable != nullptr && args != nullptr && kwargs != nullptr
                    ? PyObject_Call(enable, args, kwargs)
                    : nullptr;
  if (r == nullptr) PyErr_Clear();
  Py_XDECREF(r);
  Py_XDECREF(kwargs);
  Py_XDECREF(args);
  Py_XDECREF(enable);
  Py_XDECREF(module);
}

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
  PyObject* result =
      argv_copy != nullptr ? PyObject_CallOneArg(main, argv_copy) : nullptr;
  Py_XDECREF(argv_copy);
  Py_DECREF(main);
  if (result == nullptr) return status_of_exception(interrupted);
  return status_of_exit_code(result);  // steals result
}

}  // namespace

int main(int argc, char** argv) {
  PyStatus status;
  if (!start_python(argc, argv, &status)) {
    if (PyStatus_IsExit(status)) return status.exitcode;
    Py_ExitStatusException(status);  // prints the error, exits 1
  }

  bool interrupted = false;
  int code = 0;
  std::string build =
      std::filesystem::path(executable_dir() + "/../python").lexically_normal().string();
  if (!prepend_to_sys_path(build) || !prepend_to_sys_path(OPSCOPE_SOURCE_DIR "/core/python")) {
    code = status_of_exception(&interrupted);
  } else {
    enable_faulthandler();
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
