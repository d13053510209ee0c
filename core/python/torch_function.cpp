// __torch_function__: the search for overrides, the call into them, the switches Python sees
// (opscope._C.DisableTorchFunction, the mode stack) and the wrapper that gives the protocol to
// functions written in Python. See torch_function.h for the protocol itself.
#include "core/python/torch_function.h"

#include <algorithm>
#include <string>

#include <structmember.h>  // after Python.h

namespace opscope::python {

int g_torch_function_modes = 0;

namespace {

PyObject* g_name = nullptr;           // interned "__torch_function__"
PyObject* g_disabled_impl = nullptr;  // opscope._C._disabled_torch_function_impl

// Per thread, as torch keeps them: whether overrides are honoured (DisableTorchFunction turns
// this off), the mode the calls go to first (opscope/overrides.py sets _TorchFunctionStackMode
// while its stack is not empty) and that stack.
thread_local bool t_enabled = true;
thread_local PyObject* t_mode = nullptr;  // strong reference, or nullptr
thread_local std::vector<PyObject*> t_stack;

// Replaces this thread's mode (stealing `mode`, which may be nullptr), keeping the global count
// of threads with a mode that the fast path reads.
void set_mode(PyObject* mode) {
  PyObject* old = t_mode;
  t_mode = mode;
  g_torch_function_modes += (mode != nullptr) - (old != nullptr);
  Py_XDECREF(old);
}

bool is_sequence_arg(PyObject* o) {
  return PyList_CheckExact(o) || PyTuple_CheckExact(o);
}

// Adds `o` to the calling order unless an argument of its type is there: before the first
// argument of a parent type (subclasses first), else at the end (left to right).
void append_overloaded(std::vector<PyObject*>& out, PyObject* o) {
  PyTypeObject* t = Py_TYPE(o);
  auto pos = out.end();
  for (auto it = out.begin(); it != out.end(); ++it) {
    if (Py_TYPE(*it) == t) return;
    if (pos == out.end() && PyType_IsSubtype(t, Py_TYPE(*it))) pos = it;
  }
  out.insert(pos, o);
}

// Whether o takes part: it has an override, or — `tensors`, for the functions written in Python,
// whose torch counterparts collect with torch.overrides — it is an exact Tensor (whose
// Tensor.__torch_function__ is then among the ones tried, and Tensor among the types).
bool takes_part(PyObject* o, bool tensors) {
  if (tensors && Py_TYPE(o) == g_tensor_type) return t_enabled;
  return maybe_overloaded(o) && has_torch_function(o);
}

void collect(std::vector<PyObject*>& out, PyObject* o, bool tensors = false) {
  if (is_sequence_arg(o)) {
    PyObject** items = PySequence_Fast_ITEMS(o);
    for (Py_ssize_t i = 0, n = PySequence_Fast_GET_SIZE(o); i < n; ++i)
      if (takes_part(items[i], tensors)) append_overloaded(out, items[i]);
    return;
  }
  if (takes_part(o, tensors)) append_overloaded(out, o);
}

py::object types_of(const std::vector<PyObject*>& overloaded) {
  py::tuple types(overloaded.size());
  for (size_t i = 0; i < overloaded.size(); ++i)
    types[i] = py::handle(reinterpret_cast<PyObject*>(Py_TYPE(overloaded[i])));
  return std::move(types);
}

// The name torch's message gives a function: "torch.relu", "torch.Tensor.add".
std::string qualified_name(PyObject* func, const char* api) {
  PyObject* name = PyObject_GetAttrString(func, "__name__");
  std::string n = name && PyUnicode_Check(name) ? unpack_utf8(name) : "<unknown>";
  if (!name) PyErr_Clear();
  Py_XDECREF(name);
  return std::string(api) + "." + n;
}

// The calling thread's mode, unset while it runs (so that the ops it calls reach the next mode or
// the kernels), and set back afterwards whatever the call did to it.
PyObject* call_mode(PyObject* func, PyObject* types, PyObject* args, PyObject* kwargs) {
  PyObject* mode = t_mode;
  Py_INCREF(mode);
  set_mode(nullptr);
  PyObject* r = PyObject_CallMethodObjArgs(mode, g_name, func, types, args,
                                           kwargs ? kwargs : Py_None, nullptr);
  set_mode(mode);
  return r;
}

}  // namespace

bool has_torch_function(PyObject* o) {
  if (!t_enabled || Py_TYPE(o) == g_tensor_type) return false;
  PyObject* f = _PyType_Lookup(Py_TYPE(o), g_name);
  return f && f != g_disabled_impl;
}

bool any_maybe_overloaded_slow(PyObject* const* args, size_t n) {
  std::vector<PyObject*> found;
  for (size_t i = 0; i < n && found.empty(); ++i) collect(found, args[i]);
  return !found.empty();
}

std::vector<PyObject*> overloaded_args(PyObject* const* args, size_t nargs, PyObject* kwnames,
                                       bool tensors) {
  std::vector<PyObject*> out;
  size_t n = nargs + (kwnames ? static_cast<size_t>(PyTuple_GET_SIZE(kwnames)) : 0);
  for (size_t i = 0; i < n; ++i) collect(out, args[i], tensors);
  return out;
}

PyObject* dispatch_torch_function(PyObject* func, const std::vector<PyObject*>& overloaded,
                                  PyObject* args, PyObject* kwargs, const char* api) {
  py::object types = types_of(overloaded);
  if (t_mode) {
    PyObject* r = call_mode(func, types.ptr(), args, kwargs);
    if (r != Py_NotImplemented) return r;
    Py_DECREF(r);
  }
  for (PyObject* arg : overloaded) {
    PyObject* r = PyObject_CallMethodObjArgs(arg, g_name, func, types.ptr(), args,
                                             kwargs ? kwargs : Py_None, nullptr);
    if (r != Py_NotImplemented) return r;
    Py_DECREF(r);
  }
  py::list type_list;
  for (PyObject* arg : overloaded) type_list.append(py::handle(reinterpret_cast<PyObject*>(Py_TYPE(arg))));
  std::string msg = "no implementation found for '" + qualified_name(func, api) +
                    "' on types that implement __torch_function__: " +
                    py::repr(type_list).cast<std::string>();
  PyErr_SetString(PyExc_TypeError, msg.c_str());
  return nullptr;
}

bool torch_function_mode_set() {
  return t_mode != nullptr;
}

PyObject* call_torch_function(PyObject* func, const std::vector<PyObject*>& overloaded,
                              PyObject* const* args, size_t nargs, PyObject* kwnames,
                              const char* api) {
  py::tuple py_args(nargs);
  for (size_t i = 0; i < nargs; ++i) py_args[i] = py::handle(args[i]);
  py::object kwargs;
  if (kwnames && PyTuple_GET_SIZE(kwnames)) {
    py::dict d;
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(kwnames); ++k)
      d[py::handle(PyTuple_GET_ITEM(kwnames, k))] = py::handle(args[nargs + static_cast<size_t>(k)]);
    kwargs = std::move(d);
  }
  return dispatch_torch_function(func, overloaded, py_args.ptr(), kwargs.ptr(), api);
}

namespace {

// Tensor.<name> as torch passes it: the method itself, or a property's bound __get__/__set__.
py::object tensor_attribute(const char* name) {
  PyObject* attr = PyDict_GetItemString(g_tensor_type->tp_dict, name);
  if (!attr) throw TypeError(std::string("Tensor has no attribute ") + name);
  return py::reinterpret_borrow<py::object>(attr);
}

}  // namespace

// A property passes self to the overrides whatever its type (an exact Tensor's Tensor among the
// types a mode sees), as torch's handle_torch_function_getter / _setter do.
bool handle_torch_function_getter(PyObject* self, const char* name, PyObject** result) {
  std::vector<PyObject*> overloaded;
  collect(overloaded, self);
  if (overloaded.empty() && !t_mode) return false;
  overloaded.assign(1, self);
  *result = guarded([&]() -> PyObject* {
    py::object func = tensor_attribute(name).attr("__get__");
    py::tuple args = py::make_tuple(py::handle(self));
    std::string api = std::string("torch.Tensor.") + name;
    return dispatch_torch_function(func.ptr(), overloaded, args.ptr(), nullptr, api.c_str());
  });
  return true;
}

bool handle_torch_function_setter(PyObject* self, const char* name, PyObject* value,
                                  int* result) {
  std::vector<PyObject*> overloaded;
  collect(overloaded, self);
  if (value) collect(overloaded, value);
  if (overloaded.empty() && !t_mode) return false;
  overloaded.clear();
  collect(overloaded, self, true);
  if (value) collect(overloaded, value);
  PyObject* r = guarded([&]() -> PyObject* {
    py::object func = tensor_attribute(name).attr(value ? "__set__" : "__delete__");
    py::tuple args = value ? py::tuple(py::make_tuple(py::handle(self), py::handle(value)))
                           : py::tuple(py::make_tuple(py::handle(self)));
    std::string api = std::string("torch.Tensor.") + name;
    return dispatch_torch_function(func.ptr(), overloaded, args.ptr(), nullptr, api.c_str());
  });
  *result = r ? 0 : -1;
  Py_XDECREF(r);
  return true;
}

bool handle_torch_function_method(const char* name, PyObject* self, PyObject* args,
                                  PyObject* kwargs, PyObject** result) {
  std::vector<PyObject*> overloaded;
  collect(overloaded, self);
  Py_ssize_t n = args ? PyTuple_GET_SIZE(args) : 0;
  for (Py_ssize_t i = 0; i < n; ++i) collect(overloaded, PyTuple_GET_ITEM(args, i));
  if (kwargs) {
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(kwargs, &pos, &key, &value)) collect(overloaded, value);
  }
  if (overloaded.empty() && !t_mode) return false;
  *result = guarded([&]() -> PyObject* {
    py::object func = tensor_attribute(name);
    py::tuple all(n + 1);
    all[0] = py::handle(self);
    for (Py_ssize_t i = 0; i < n; ++i) all[i + 1] = py::handle(PyTuple_GET_ITEM(args, i));
    PyObject* kw = kwargs && PyDict_GET_SIZE(kwargs) ? kwargs : nullptr;
    return dispatch_torch_function(func.ptr(), overloaded, all.ptr(), kw, "torch.Tensor");
  });
  return true;
}

bool handle_torch_function_operator(const char* name, PyObject* self, PyObject* a, PyObject* b,
                                    bool not_implemented, PyObject** result) {
  std::vector<PyObject*> overloaded;
  collect(overloaded, self);
  if (a) collect(overloaded, a);
  if (b) collect(overloaded, b);
  if (overloaded.empty() && !t_mode) return false;
  *result = guarded([&]() -> PyObject* {
    py::object func = tensor_attribute(name);
    // (py::tuple around each: pybind11 3's make_tuple gives tuples typed by their length)
    py::tuple args = b   ? py::tuple(py::make_tuple(py::handle(self), py::handle(a), py::handle(b)))
                     : a ? py::tuple(py::make_tuple(py::handle(self), py::handle(a)))
                         : py::tuple(py::make_tuple(py::handle(self)));
    return dispatch_torch_function(func.ptr(), overloaded, args.ptr(), nullptr, "torch.Tensor");
  });
  if (!*result && not_implemented && PyErr_ExceptionMatches(PyExc_TypeError)) {
    PyErr_Clear();
    Py_INCREF(Py_NotImplemented);
    *result = Py_NotImplemented;
  }
  return true;
}

namespace {

// --- opscope._C functions ------------------------------------------------------------------

bool any_has_torch_function(PyObject* const* items, Py_ssize_t n) {
  if (t_mode) return true;
  for (Py_ssize_t i = 0; i < n; ++i)
    if (maybe_overloaded(items[i]) && has_torch_function(items[i])) return true;
  return false;
}

PyObject* has_torch_function_py(PyObject*, PyObject* arg) {
  if (t_mode) Py_RETURN_TRUE;
  PyObject* seq = PySequence_Fast(arg, "expected a sequence");
  if (!seq) return nullptr;
  bool r = any_has_torch_function(PySequence_Fast_ITEMS(seq), PySequence_Fast_GET_SIZE(seq));
  Py_DECREF(seq);
  return PyBool_FromLong(r);
}
PyObject* has_torch_function_unary_py(PyObject*, PyObject* arg) {
  return PyBool_FromLong(any_has_torch_function(&arg, 1));
}
PyObject* has_torch_function_variadic_py(PyObject*, PyObject* const* args, Py_ssize_t n) {
  return PyBool_FromLong(any_has_torch_function(args, n));
}
// Whether a call of a Python-defined public function must go to __torch_function__: any
// positional or keyword argument (or an element of a list / tuple one) has an override, or a
// mode is set. (args, kwargs) as the function received them.
PyObject* has_torch_function_args_py(PyObject*, PyObject* const* args, Py_ssize_t n) {
  if (t_mode) Py_RETURN_TRUE;
  std::vector<PyObject*> found;
  if (n >= 1 && PyTuple_Check(args[0]))
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(args[0]) && found.empty(); ++i)
      collect(found, PyTuple_GET_ITEM(args[0], i));
  if (n >= 2 && PyDict_Check(args[1])) {
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (found.empty() && PyDict_Next(args[1], &pos, &key, &value)) collect(found, value);
  }
  return PyBool_FromLong(!found.empty());
}

PyObject* is_torch_function_enabled_py(PyObject*, PyObject*) {
  return PyBool_FromLong(t_enabled);
}
PyObject* is_torch_function_mode_enabled_py(PyObject*, PyObject*) {
  return PyBool_FromLong(t_mode != nullptr);
}
// A mode without __torch_function__ would make every later call fail (torch 1.13 takes it and
// breaks the session so): refused here with a TypeError instead.
bool refuse_non_mode(PyObject* mode) {
  if (PyObject_HasAttrString(mode, "__torch_function__")) return false;
  PyErr_Format(PyExc_TypeError,
               "a torch function mode must have a __torch_function__ method, got '%s'",
               Py_TYPE(mode)->tp_name);
  return true;
}

PyObject* set_torch_function_mode_py(PyObject*, PyObject* mode) {
  if (mode != Py_None && refuse_non_mode(mode)) return nullptr;
  if (mode == Py_None) {
    set_mode(nullptr);
  } else {
    Py_INCREF(mode);
    set_mode(mode);
  }
  Py_RETURN_NONE;
}
PyObject* push_on_torch_function_stack_py(PyObject*, PyObject* mode) {
  if (refuse_non_mode(mode)) return nullptr;
  Py_INCREF(mode);
  t_stack.push_back(mode);
  Py_RETURN_NONE;
}
PyObject* pop_torch_function_stack_py(PyObject*, PyObject*) {
  if (t_stack.empty()) {
    PyErr_SetString(PyExc_RuntimeError, "trying to pop from empty mode stack");
    return nullptr;
  }
  PyObject* mode = t_stack.back();
  t_stack.pop_back();
  return mode;
}
PyObject* len_torch_function_stack_py(PyObject*, PyObject*) {
  return PyLong_FromSize_t(t_stack.size());
}
PyObject* get_function_stack_at_py(PyObject*, PyObject* index) {
  Py_ssize_t i = PyLong_AsSsize_t(index);
  if (i == -1 && PyErr_Occurred()) return nullptr;
  if (i < 0 || static_cast<size_t>(i) >= t_stack.size()) {
    PyErr_SetString(PyExc_IndexError, "mode stack index out of range");
    return nullptr;
  }
  Py_INCREF(t_stack[static_cast<size_t>(i)]);
  return t_stack[static_cast<size_t>(i)];
}

PyObject* set_python_function_handler_py(PyObject*, PyObject* handler);

// _disabled_torch_function_impl(func, types, args, kwargs): runs func with overrides off and
// returns its result as is (nn.Parameter's __torch_function__: results are plain tensors).
PyObject* disabled_impl_py(PyObject*, PyObject* const* argv, Py_ssize_t n) {
  if (n < 3 || n > 4) {
    PyErr_SetString(PyExc_TypeError,
                    "_disabled_torch_function_impl(func, types, args, kwargs) takes 4 arguments");
    return nullptr;
  }
  bool saved = t_enabled;
  t_enabled = false;
  PyObject* kwargs = n == 4 && argv[3] != Py_None ? argv[3] : nullptr;
  PyObject* r = PyObject_Call(argv[0], argv[2], kwargs);
  t_enabled = saved;
  return r;
}

PyMethodDef functions[] = {
    {"_has_torch_function", method<has_torch_function_py>(), METH_O,
     "Whether any element of the sequence has a __torch_function__ override, or a mode is set."},
    {"_has_torch_function_unary", method<has_torch_function_unary_py>(), METH_O,
     "has_torch_function((obj,)) without building the tuple."},
    {"_has_torch_function_variadic", method<has_torch_function_variadic_py>(), METH_FASTCALL,
     "has_torch_function(args) for the arguments given."},
    {"_has_torch_function_args", method<has_torch_function_args_py>(), METH_FASTCALL,
     "_has_torch_function_args(args, kwargs): overrides among a call's arguments (lists and "
     "tuples one level deep), or a mode set."},
    {"_is_torch_function_enabled", method<is_torch_function_enabled_py>(), METH_NOARGS,
     "False inside DisableTorchFunction."},
    {"_is_torch_function_mode_enabled", method<is_torch_function_mode_enabled_py>(), METH_NOARGS,
     nullptr},
    {"_set_torch_function_mode", method<set_torch_function_mode_py>(), METH_O, nullptr},
    {"_push_on_torch_function_stack", method<push_on_torch_function_stack_py>(), METH_O, nullptr},
    {"_pop_torch_function_stack", method<pop_torch_function_stack_py>(), METH_NOARGS, nullptr},
    {"_len_torch_function_stack", method<len_torch_function_stack_py>(), METH_NOARGS, nullptr},
    {"_get_function_stack_at", method<get_function_stack_at_py>(), METH_O, nullptr},
    {"_set_python_function_handler", method<set_python_function_handler_py>(), METH_O,
     "handler(wrapper, fn, args, kwargs): how a _torch_function_wrapper call reaches the "
     "overrides (opscope.overrides sets it)."},
    {"_disabled_torch_function_impl", method<disabled_impl_py>(), METH_FASTCALL,
     "A __torch_function__ that runs func with overrides off: results are not converted."},
    {nullptr, nullptr, 0, nullptr}};

// --- DisableTorchFunction ------------------------------------------------------------------

struct PyDisable {
  PyObject_HEAD bool saved;
};

PyObject* disable_enter(PyObject* self, PyObject*) {
  reinterpret_cast<PyDisable*>(self)->saved = t_enabled;
  t_enabled = false;
  Py_RETURN_NONE;
}
PyObject* disable_exit(PyObject* self, PyObject*) {
  t_enabled = reinterpret_cast<PyDisable*>(self)->saved;
  Py_RETURN_FALSE;
}

PyMethodDef disable_methods[] = {
    {"__enter__", method<disable_enter>(), METH_NOARGS, nullptr},
    {"__exit__", method<disable_exit>(), METH_VARARGS, nullptr},
    {nullptr, nullptr, 0, nullptr}};

// --- The wrapper of Python-defined public functions ------------------------------------------
//
// _C._torch_function_wrapper(fn) is a callable that checks its arguments as the C++ ops do
// (torch_function_possible, then the overrides) and otherwise calls fn with the same vectorcall
// arguments. It is the public object (opscope.nn.functional.relu), so the func an override
// receives is what the user called; it binds like a function (Tensor.norm) and passes every
// other attribute (__code__, __defaults__, ...) through to fn. Cost: one vectorcall (~30 ns).
// A call that must go to the overrides goes to opscope.overrides' handler (set with
// _C._set_python_function_handler), which passes the arguments on as torch's Python functions
// do: required parameters positionally, the others by keyword.

PyObject* g_python_function_handler = nullptr;

struct PyWrapper {
  PyObject_HEAD vectorcallfunc vectorcall;
  PyObject* fn;
  PyObject* dict;
  PyObject* weakrefs;
};

PyObject* set_python_function_handler_py(PyObject*, PyObject* handler) {
  Py_INCREF(handler);
  Py_XSETREF(g_python_function_handler, handler);
  Py_RETURN_NONE;
}

PyObject* wrapper_vectorcall(PyObject* self, PyObject* const* args, size_t nargsf,
                             PyObject* kwnames) {
  auto* w = reinterpret_cast<PyWrapper*>(self);
  size_t nargs = PyVectorcall_NARGS(nargsf);
  size_t n = nargs + (kwnames ? static_cast<size_t>(PyTuple_GET_SIZE(kwnames)) : 0);
  if (torch_function_possible(args, n) && g_python_function_handler &&
      (t_mode || !overloaded_args(args, nargs, kwnames).empty())) {
    py::tuple py_args(nargs);
    for (size_t i = 0; i < nargs; ++i) py_args[i] = py::handle(args[i]);
    py::dict kwargs;
    for (Py_ssize_t k = 0; kwnames && k < PyTuple_GET_SIZE(kwnames); ++k)
      kwargs[py::handle(PyTuple_GET_ITEM(kwnames, k))] = py::handle(args[nargs + static_cast<size_t>(k)]);
    return PyObject_CallFunctionObjArgs(g_python_function_handler, self, w->fn, py_args.ptr(),
                                        kwargs.ptr(), nullptr);
  }
  return PyObject_Vectorcall(w->fn, args, nargsf, kwnames);
}

PyObject* wrapper_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  static const char* names[] = {"fn", nullptr};
  PyObject* fn;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O:_torch_function_wrapper",
                                   const_cast<char**>(names), &fn))
    return nullptr;
  if (!PyCallable_Check(fn)) {
    PyErr_SetString(PyExc_TypeError, "_torch_function_wrapper: fn must be callable");
    return nullptr;
  }
  auto* w = reinterpret_cast<PyWrapper*>(type->tp_alloc(type, 0));
  if (!w) return nullptr;
  w->vectorcall = guard<wrapper_vectorcall>;
  Py_INCREF(fn);
  w->fn = fn;
  // What functools.wraps copies: the wrapper reads as fn (name, module, doc, signature).
  w->dict = PyDict_New();
  if (!w->dict) {
    Py_DECREF(w);
    return nullptr;
  }
  for (const char* attr : {"__module__", "__name__", "__qualname__", "__doc__"}) {
    PyObject* v = PyObject_GetAttrString(fn, attr);
    if (!v) {
      PyErr_Clear();
      continue;
    }
    PyDict_SetItemString(w->dict, attr, v);
    Py_DECREF(v);
  }
  PyDict_SetItemString(w->dict, "__wrapped__", fn);
  return reinterpret_cast<PyObject*>(w);
}

int wrapper_traverse(PyObject* self, visitproc visit, void* arg) {
  auto* w = reinterpret_cast<PyWrapper*>(self);
  Py_VISIT(w->fn);
  Py_VISIT(w->dict);
  Py_VISIT(Py_TYPE(self));
  return 0;
}
int wrapper_clear(PyObject* self) {
  auto* w = reinterpret_cast<PyWrapper*>(self);
  Py_CLEAR(w->fn);
  Py_CLEAR(w->dict);
  return 0;
}
void wrapper_dealloc(PyObject* self) {
  auto* w = reinterpret_cast<PyWrapper*>(self);
  PyTypeObject* type = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  if (w->weakrefs) PyObject_ClearWeakRefs(self);
  Py_CLEAR(w->fn);
  Py_CLEAR(w->dict);
  type->tp_free(self);
  Py_DECREF(type);
}

PyObject* wrapper_descr_get(PyObject* self, PyObject* obj, PyObject*) {
  if (!obj || obj == Py_None) {
    Py_INCREF(self);
    return self;
  }
  return PyMethod_New(self, obj);
}

// Attributes of the wrapper (its __dict__) first, then fn's: __code__, __defaults__, ...
PyObject* wrapper_getattro(PyObject* self, PyObject* name) {
  PyObject* r = PyObject_GenericGetAttr(self, name);
  if (r || !PyErr_ExceptionMatches(PyExc_AttributeError)) return r;
  PyErr_Clear();
  return PyObject_GetAttr(reinterpret_cast<PyWrapper*>(self)->fn, name);
}

PyObject* wrapper_repr(PyObject* self) {
  return PyObject_Repr(reinterpret_cast<PyWrapper*>(self)->fn);
}

// Pickled by reference, as a function is: its module attribute of the same qualified name.
PyObject* wrapper_reduce(PyObject* self, PyObject*) {
  return PyObject_GetAttrString(self, "__qualname__");
}

PyMethodDef wrapper_methods[] = {
    {"__reduce__", method<wrapper_reduce>(), METH_NOARGS, nullptr},
    {nullptr, nullptr, 0, nullptr}};

PyTypeObject* make_wrapper_type() {
  static PyMemberDef members[] = {
      {"__vectorcalloffset__", T_PYSSIZET, offsetof(PyWrapper, vectorcall), READONLY, nullptr},
      {"__dictoffset__", T_PYSSIZET, offsetof(PyWrapper, dict), READONLY, nullptr},
      {"__weaklistoffset__", T_PYSSIZET, offsetof(PyWrapper, weakrefs), READONLY, nullptr},
      {nullptr, 0, 0, 0, nullptr}};
  PyType_Slot slots[] = {{Py_tp_new, slot<wrapper_new>()},
                         {Py_tp_call, reinterpret_cast<void*>(PyVectorcall_Call)},
                         {Py_tp_descr_get, slot<wrapper_descr_get>()},
                         {Py_tp_getattro, slot<wrapper_getattro>()},
                         {Py_tp_repr, slot<wrapper_repr>()},
                         {Py_tp_traverse, slot<wrapper_traverse>()},
                         {Py_tp_clear, slot<wrapper_clear>()},
                         {Py_tp_dealloc, slot<wrapper_dealloc>()},
                         {Py_tp_methods, wrapper_methods},
                         {Py_tp_members, members},
                         {Py_tp_doc, const_cast<char*>(
                                         "A Python-defined public function that honours "
                                         "__torch_function__ (see opscope.overrides).")},
                         {0, nullptr}};
  PyType_Spec spec = {"opscope._C._torch_function_wrapper", sizeof(PyWrapper), 0,
                      Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL |
                          Py_TPFLAGS_METHOD_DESCRIPTOR,
                      slots};
  auto* t = reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&spec));
  if (!t) throw py::error_already_set();
  return t;
}

PyTypeObject* make_disable_type() {
  PyType_Slot slots[] = {
      {Py_tp_methods, disable_methods},
      {Py_tp_doc, const_cast<char*>("Context manager: inside it, __torch_function__ overrides "
                                    "are not called (modes still are, as in torch 1.13).")},
      {0, nullptr}};
  PyType_Spec spec = {"opscope._C.DisableTorchFunction", sizeof(PyDisable), 0, Py_TPFLAGS_DEFAULT,
                      slots};
  auto* t = reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&spec));
  if (!t) throw py::error_already_set();
  return t;
}

}  // namespace

void init_torch_function(py::module_& m) {
  g_name = PyUnicode_InternFromString("__torch_function__");
  if (PyModule_AddFunctions(m.ptr(), functions) < 0) throw py::error_already_set();
  g_disabled_impl = m.attr("_disabled_torch_function_impl").ptr();
  Py_INCREF(g_disabled_impl);
  m.add_object("DisableTorchFunction", reinterpret_cast<PyObject*>(make_disable_type()));
  m.add_object("_torch_function_wrapper", reinterpret_cast<PyObject*>(make_wrapper_type()));
}

}  // namespace opscope::python
