// C++ → Python crossings, made visible: every place where C++ calls Python (a tensor or grad_fn
// hook, a custom Function's backward, a saved-tensor hook, a profiler callback, the Python key's
// __torch_dispatch__ and opscope.library's Python kernels in python_dispatch.cpp) takes the GIL
// through CallIntoPython, which notes the crossing for the trace and the stack views.
//
// Semantically, the lecture's stack marks Python → C++ where a Python call enters the binding;
// this is the other direction. A trace shows each crossing as a scope under the op or backward
// node that made it, named
//
//   C++ → Python: tensor hook double_it · GIL acquired, was released
//
// ("GIL held" when the calling thread already held it; "· thread <name>" off the main thread),
// with the ops the Python code ran inside it. opscope.profiler.stack() taken inside the Python
// code labels the C++ → Python boundary of its merged stack with the same words.
//
// In implementation terms: an RAII object that replaces `py::gil_scoped_acquire gil;` at a call
// site. It checks whether the thread holds the GIL before taking it, pushes itself on a
// thread-local list (innermost last) that _C._python_crossings() reads, and, only while an
// observer is installed, opens a user scope (record_scope_begin) named as above. Nothing is built
// when nobody looks: the cost is PyGILState_Check and two pointer writes.
#pragma once

#include <string>
#include <vector>

#include "core/dispatch/Observer.h"
#include "core/python/python_common.h"

namespace opscope::python {

class CallIntoPython {
 public:
  // `what`: a static description ("tensor hook"); `fn`: the Python callable about to run (its
  // __qualname__ names the crossing; borrowed, must outlive this object).
  // `name` instead of fn's qualname: CallIntoPython("custom Function", "MyFnBackward").
  CallIntoPython(const char* what, py::handle fn, std::string name = {})
      : had_gil_(PyGILState_Check() != 0),
        gil_(),
        what_(what),
        fn_(fn),
        name_(std::move(name)),
        outer_(current()) {
    current() = this;
    if (detail::dispatch_observed()) {
      label_ = label();
      scope_id_ = record_scope_begin(label_);
    }
  }
  ~CallIntoPython() {
    if (scope_id_) record_scope_end(scope_id_, label_);
    current() = outer_;
  }
  CallIntoPython(const CallIntoPython&) = delete;
  CallIntoPython& operator=(const CallIntoPython&) = delete;

  // "C++ → Python: tensor hook double_it · GIL acquired, was released" (call with the GIL).
  std::string label() const {
    std::string text = std::string("C++ → Python: ") + what_;
    if (!name_.empty()) {
      text += " " + name_;
    } else if (fn_) {
      PyObject* name = PyObject_GetAttrString(fn_.ptr(), "__qualname__");
      if (!name) {
        PyErr_Clear();
        name = PyObject_Repr(fn_.ptr());
      }
      if (name && PyUnicode_Check(name)) text += std::string(" ") + PyUnicode_AsUTF8(name);
      Py_XDECREF(name);
      if (PyErr_Occurred()) PyErr_Clear();
    }
    text += had_gil_ ? " · GIL held" : " · GIL acquired, was released";
    PyObject* threading = PyImport_ImportModule("threading");
    if (threading) {
      PyObject* cur = PyObject_CallMethod(threading, "current_thread", nullptr);
      PyObject* main = PyObject_CallMethod(threading, "main_thread", nullptr);
      if (cur && main && cur != main) {
        PyObject* tname = PyObject_GetAttrString(cur, "name");
        if (tname && PyUnicode_Check(tname))
          text += std::string(" · thread ") + PyUnicode_AsUTF8(tname);
        Py_XDECREF(tname);
      }
      Py_XDECREF(cur);
      Py_XDECREF(main);
      Py_DECREF(threading);
    }
    if (PyErr_Occurred()) PyErr_Clear();
    return text;
  }

  // This thread's crossings, outermost first (for _C._python_crossings; call with the GIL).
  static std::vector<std::string> active() {
    std::vector<std::string> out;
    for (const CallIntoPython* c = current(); c; c = c->outer_) out.push_back(c->label());
    return {out.rbegin(), out.rend()};
  }

 private:
  static const CallIntoPython*& current() {
    static thread_local const CallIntoPython* innermost = nullptr;
    return innermost;
  }

  bool had_gil_;
  py::gil_scoped_acquire gil_;
  const char* what_;
  py::handle fn_;
  std::string name_;
  const CallIntoPython* outer_;
  std::string label_;
  uint64_t scope_id_ = 0;
};

}  // namespace opscope::python
