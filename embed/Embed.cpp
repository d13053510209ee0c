#include "embed/Embed.h"

#include <unistd.h>

#include <climits>
#include <filesystem>

namespace opscope::embed {

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

}  // namespace

PyStatus start_python(int argc, char** argv) {
  PyConfig config;
  PyConfig_InitPythonConfig(&config);
  config.parse_argv = 0;
  PyStatus status =
      PyConfig_SetBytesString(&config, &config.program_name, OPSCOPE_PYTHON_EXECUTABLE);
  if (!PyStatus_Exception(status)) status = PyConfig_SetBytesArgv(&config, argc, argv);
  if (!PyStatus_Exception(status)) status = Py_InitializeFromConfig(&config);
  PyConfig_Clear(&config);
  return status;
}

std::string source_path(const char* relative) {
  return std::string(OPSCOPE_SOURCE_DIR "/") + relative;
}

std::vector<std::string> opscope_paths() {
  // The executables are in <build>/bin; the compiled part in <build>/python/opscope.
  std::string build =
      std::filesystem::path(executable_dir() + "/../python").lexically_normal().string();
  return {source_path("core/python"), build};
}

bool prepend_to_sys_path(const std::vector<std::string>& dirs) {
  PyObject* path = PySys_GetObject("path");  // borrowed
  if (path == nullptr || !PyList_Check(path)) {
    PyErr_SetString(PyExc_RuntimeError, "sys.path is not a list");
    return false;
  }
  Py_ssize_t at = 0;
  for (const std::string& dir : dirs) {
    PyObject* entry = PyUnicode_DecodeFSDefault(dir.c_str());
    if (entry == nullptr) return false;
    int rc = PyList_Insert(path, at++, entry);
    Py_DECREF(entry);
    if (rc != 0) return false;
  }
  return true;
}

void enable_faulthandler(int fd) {
  PyObject* module = PyImport_ImportModule("faulthandler");
  PyObject* enable = module != nullptr ? PyObject_GetAttrString(module, "enable") : nullptr;
  PyObject* args = Py_BuildValue("(i)", fd);
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

}  // namespace opscope::embed
