// Embedding CPython the way opscope's executables do: the REPL (repl/main.cpp) and the Jupyter
// kernel (kernel/main.cpp) both start Debian's python3 inside themselves, import this build's
// opscope, and want crashes to say where.
//
//   PyStatus status = opscope::embed::start_python(argc, argv);  // as /usr/bin/python3
//   opscope::embed::prepend_to_sys_path(opscope::embed::opscope_paths());
//   opscope::embed::enable_faulthandler(STDERR_FILENO);
//
// Note [Embedding as /usr/bin/python3]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// An embedded interpreter computes sys.executable, sys.prefix and hence sys.path from its
// program name. Left at its default (the executable, <build>/bin/opscope), Python would look for
// its standard library under <build>/lib and miss Debian's dist-packages (IPython, NumPy), and
// sys.executable would name the REPL — so multiprocessing or `subprocess.run([sys.executable,
// ...])` would start another REPL instead of Python. (xeus-python's own helper,
// xpyt::set_pythonhome(), derives PYTHONHOME from the executable's folder and breaks start-up on
// Debian: kernel-pitfalls 3.) With program_name = /usr/bin/python3 the interpreter lays itself
// out exactly as /usr/bin/python3 does (prefix /usr, Debian's site.py and its dist-packages, the
// user's site-packages), and the rest of the configuration is PyConfig_InitPythonConfig's:
// environment variables (PYTHONPATH, PYTHONFAULTHANDLER, ...) honoured, locale and signal
// handlers set up like python's. parse_argv is off: python's own options (-c, -i, -m) are not
// ours to take; sys.argv is what the caller passes.
//
// The GIL: Py_InitializeFromConfig leaves it held by the calling thread.
//
// Note [Which opscope the REPL imports]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The executables have this build's libopscope_core.so and libopscope_profiler.so loaded (RPATH
// $ORIGIN/../python/opscope). `import opscope` must then load this build's _C.so, from the same
// folder: a _C from another build folder (one a PYTHONPATH points to, say build-sanitize/) would
// be built against another core. So sys.path starts with this tree's core/python (the Python
// sources) and <build>/python (the compiled part; see Note [Each build folder holds its own
// compiled part] in CMakeLists.txt) — no PYTHONPATH needed — and opscope/__init__.py's rule
// "the first build folder on sys.path wins" picks ours.
#pragma once

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <string>
#include <vector>

namespace opscope::embed {

// Starts the interpreter as /usr/bin/python3 (Note [Embedding as /usr/bin/python3]) with
// sys.argv = argv[0:argc]; the caller checks the status (PyStatus_Exception).
PyStatus start_python(int argc, char** argv);

// This tree's folder `relative` ("core/python", "kernel/python").
std::string source_path(const char* relative);

// core/python and <build>/python, in that order (Note [Which opscope the REPL imports]).
std::vector<std::string> opscope_paths();

// Puts the folders at the front of sys.path, the first one first; false with a Python error set.
bool prepend_to_sys_path(const std::vector<std::string>& dirs);

// faulthandler.enable(fd, all_threads=True): the Python frames of a crash, on `fd`, after
// opscope's C++ report (profiler/FatalSignal.h). Best effort: a failure is cleared.
void enable_faulthandler(int fd);

}  // namespace opscope::embed
