// __torch_function__: how an opscope function hands a call to a Python override.
//
// Semantically this is PyTorch 1.13's protocol. Every public function (opscope.relu), Tensor
// method (Tensor.add), operator (`t + 1` is Tensor.add), indexing and property getter looks at its
// arguments — and the elements of list / tuple arguments — for objects whose type defines
// `__torch_function__`: Tensor subclasses (whose inherited Tensor.__torch_function__ keeps results
// in the subclass) and plain classes such as an FX Proxy. When it finds any, or a
// TorchFunctionMode is active, it does not run the op; it calls
// `type(arg).__torch_function__(func, types, args, kwargs)` for each such argument — subclasses
// before their parents, otherwise left to right — until one returns something other than
// NotImplemented, and raises torch's TypeError when all decline. `func` is the public object the
// user called (opscope.relu, Tensor.add, Tensor.shape.__get__), so `func is opscope.relu` holds.
// An active mode is asked first, with itself unset while it runs (opscope/overrides.py holds the
// mode stack logic, as torch/overrides.py does).
//
// In implementation terms the check costs nothing for exact opscope.Tensor, Python numbers, None
// and strings: see Note [The torch function fast path].
#pragma once

#include <vector>

#include "core/python/python_common.h"

namespace opscope::python {

// Note [The torch function fast path]
// Each call from Python asks `torch_function_possible(args)`: one global read (is any mode set?)
// and, per argument, a comparison of its type with the exact Tensor, int, float, bool, str and
// None types. Only an argument of another type (a subclass, a Proxy, a dtype, a list) makes the
// call look further: lists and tuples are scanned one level deep, and other objects' types are
// looked up for `__torch_function__` through CPython's method cache. A type whose attribute is
// `_disabled_torch_function_impl` (nn.Parameter) has none: its calls run the op directly.

// How many threads have a torch function mode set (usually 0): the one global the fast path reads.
extern int g_torch_function_modes;

// Whether `o` is of a type that could carry an override (not an exact Tensor, number, str, None).
inline bool maybe_overloaded(PyObject* o) {
  PyTypeObject* t = Py_TYPE(o);
  return t != g_tensor_type && t != &PyLong_Type && t != &PyFloat_Type && t != &PyBool_Type &&
         o != Py_None && t != &PyUnicode_Type;
}

bool any_maybe_overloaded_slow(PyObject* const* args, size_t n);

// Whether a call with these arguments may have to go to __torch_function__ (a cheap superset of
// the real answer; see Note [The torch function fast path]).
inline bool torch_function_possible(PyObject* const* args, size_t n) {
  if (g_torch_function_modes) return true;
  for (size_t i = 0; i < n; ++i)
    if (maybe_overloaded(args[i])) return any_maybe_overloaded_slow(args + i, n - i);
  return false;
}

// Whether `o` has an override that a call must honour: torch function is enabled and o's type
// defines __torch_function__ other than _disabled_torch_function_impl (an exact Tensor has none).
bool has_torch_function(PyObject* o);

// The arguments whose overrides a call with args (nargs positional, then the values of kwnames)
// must call, in calling order: one per type, subclasses before parents, else left to right.
// `tensors`: exact Tensors take part too (see takes_part in torch_function.cpp).
std::vector<PyObject*> overloaded_args(PyObject* const* args, size_t nargs, PyObject* kwnames,
                                       bool tensors = false);

// Calls the mode and the overrides for a call of `func` (namespace `api` for the error message:
// "torch", "torch.Tensor"); returns the new result, or nullptr with a Python error set.
// `kwargs` may be nullptr (passed on as None, as torch does for calls without keywords).
PyObject* dispatch_torch_function(PyObject* func, const std::vector<PyObject*>& overloaded,
                                  PyObject* args, PyObject* kwargs, const char* api);

// Whether this thread has a mode set (calls go to it even without overloaded arguments).
bool torch_function_mode_set();

// The vectorcall form of dispatch_torch_function: the call's arguments as vectorcall gave them.
PyObject* call_torch_function(PyObject* func, const std::vector<PyObject*>& overloaded,
                              PyObject* const* args, size_t nargs, PyObject* kwnames,
                              const char* api);

// For a Tensor attribute (getter `Tensor.shape.__get__`, setter `Tensor.grad.__set__`), method
// or operator written in C++: whether self (or another operand) may need the protocol, and the
// handlers, which return true with the result set when the protocol took the call.
inline bool torch_function_needed(PyObject* self) {
  return g_torch_function_modes || (Py_TYPE(self) != g_tensor_type && has_torch_function(self));
}
inline bool torch_function_needed(PyObject* a, PyObject* b) {
  return g_torch_function_modes || maybe_overloaded(a) || (b && maybe_overloaded(b));
}
bool handle_torch_function_getter(PyObject* self, const char* name, PyObject** result);
bool handle_torch_function_setter(PyObject* self, const char* name, PyObject* value, int* result);
// `Tensor.<name>(self, *args, **kwargs)`; args and kwargs as the method received them.
bool handle_torch_function_method(const char* name, PyObject* self, PyObject* args,
                                  PyObject* kwargs, PyObject** result);
// An operator as torch routes it: `Tensor.<name>(self, *operands)` where operands are the
// non-null ones of a and b. `not_implemented`: a TypeError becomes NotImplemented, as torch's
// binary operators do, so that Python tries the other operand.
bool handle_torch_function_operator(const char* name, PyObject* self, PyObject* a, PyObject* b,
                                    bool not_implemented, PyObject** result);

// The Tensor attributes an operator reaches an override as (what torch 1.13 passes as func).
namespace tf_name {
inline constexpr char add[] = "add", sub[] = "sub", rsub[] = "__rsub__", mul[] = "mul",
                      div[] = "div", rdiv[] = "__rtruediv__", matmul[] = "matmul",
                      rmatmul[] = "__rmatmul__", pow[] = "pow", rpow[] = "__rpow__",
                      floordiv[] = "__floordiv__", rfloordiv[] = "__rfloordiv__",
                      remainder[] = "remainder", rmod[] = "__rmod__", lshift[] = "__lshift__",
                      rlshift[] = "__rlshift__", rshift[] = "__rshift__",
                      rrshift[] = "__rrshift__", and_[] = "__and__", rand_[] = "bitwise_and",
                      or_[] = "__or__", ror_[] = "bitwise_or", xor_[] = "__xor__",
                      rxor_[] = "bitwise_xor", abs[] = "abs", neg[] = "neg", pos[] = "positive",
                      invert[] = "__invert__", iadd[] = "add_", isub[] = "sub_", imul[] = "mul_",
                      idiv[] = "div_", ipow[] = "pow_", ifloordiv[] = "floor_divide_",
                      imod[] = "remainder_", iand[] = "__iand__", ior[] = "__ior__",
                      ixor[] = "__ixor__", ilshift[] = "__ilshift__", irshift[] = "__irshift__",
                      bool_[] = "__bool__", float_[] = "__float__", int_[] = "__int__",
                      index[] = "__index__", getitem[] = "__getitem__",
                      setitem[] = "__setitem__", len[] = "__len__";
}  // namespace tf_name

// Wrappers that put the protocol in front of a C++ getter, setter, method or slot of Tensor
// (the getset closure is the attribute's name). Used in tensor_type.cpp's tables.
template <PyObject* (*F)(PyObject*, void*)>
PyObject* tf_getter(PyObject* self, void* name) {
  PyObject* r;
  if (torch_function_needed(self) &&
      handle_torch_function_getter(self, static_cast<const char*>(name), &r))
    return r;
  return F(self, nullptr);
}
template <int (*F)(PyObject*, PyObject*, void*)>
int tf_setter(PyObject* self, PyObject* value, void* name) {
  int r;
  if (torch_function_needed(self, value) &&
      handle_torch_function_setter(self, static_cast<const char*>(name), value, &r))
    return r;
  return F(self, value, nullptr);
}
template <PyObject* (*F)(PyObject*, PyObject*), const char* Name>
PyObject* tf_noargs(PyObject* self, PyObject* unused) {
  PyObject* r;
  if (torch_function_needed(self) &&
      handle_torch_function_method(Name, self, nullptr, nullptr, &r))
    return r;
  return F(self, unused);
}
template <PyObject* (*F)(PyObject*, PyObject*, PyObject*), const char* Name>
PyObject* tf_varargs(PyObject* self, PyObject* args, PyObject* kwargs) {
  PyObject* r;
  if ((g_torch_function_modes || maybe_overloaded(self) || PyTuple_GET_SIZE(args) || kwargs) &&
      handle_torch_function_method(Name, self, args, kwargs, &r))
    return r;
  return F(self, args, kwargs);
}
template <PyObject* (*F)(PyObject*), const char* Name>
PyObject* tf_unary(PyObject* self) {
  PyObject* r;
  if (torch_function_needed(self) &&
      handle_torch_function_operator(Name, self, nullptr, nullptr, false, &r))
    return r;
  return F(self);
}
template <int (*F)(PyObject*), const char* Name>
int tf_predicate(PyObject* self) {
  PyObject* r;
  if (torch_function_needed(self) &&
      handle_torch_function_operator(Name, self, nullptr, nullptr, false, &r)) {
    if (!r) return -1;
    int v = PyObject_IsTrue(r);
    Py_DECREF(r);
    return v;
  }
  return F(self);
}
// `a op b` and, with a not a Tensor, the reflected `b rop a`.
template <PyObject* (*F)(PyObject*, PyObject*), const char* Name, const char* Reflected>
PyObject* tf_binary(PyObject* a, PyObject* b) {
  PyObject* r;
  if (torch_function_needed(a, b)) {
    bool forward = PyObject_TypeCheck(a, g_tensor_type);
    if (handle_torch_function_operator(forward ? Name : Reflected, forward ? a : b,
                                       forward ? b : a, nullptr, true, &r))
      return r;
  }
  return F(a, b);
}
template <PyObject* (*F)(PyObject*, PyObject*, PyObject*), const char* Name,
          const char* Reflected>
PyObject* tf_ternary(PyObject* a, PyObject* b, PyObject* mod) {
  PyObject* r;
  if (mod == Py_None && torch_function_needed(a, b)) {
    bool forward = PyObject_TypeCheck(a, g_tensor_type);
    if (handle_torch_function_operator(forward ? Name : Reflected, forward ? a : b,
                                       forward ? b : a, nullptr, true, &r))
      return r;
  }
  return F(a, b, mod);
}
template <PyObject* (*F)(PyObject*, PyObject*), const char* Name>
PyObject* tf_getitem(PyObject* self, PyObject* index) {
  PyObject* r;
  if (torch_function_needed(self, index) &&
      handle_torch_function_operator(Name, self, index, nullptr, false, &r))
    return r;
  return F(self, index);
}
template <int (*F)(PyObject*, PyObject*, PyObject*), const char* Name>
int tf_setitem(PyObject* self, PyObject* index, PyObject* value) {
  PyObject* r;
  if (value && (torch_function_needed(self, index) || maybe_overloaded(value)) &&
      handle_torch_function_operator(Name, self, index, value, false, &r)) {
    if (!r) return -1;
    Py_DECREF(r);
    return 0;
  }
  return F(self, index, value);
}
// `a < b` ...: Tensor.lt ... (Python reflects `1 < t` into `t > 1` itself).
template <PyObject* (*F)(PyObject*, PyObject*, int)>
PyObject* tf_richcompare(PyObject* a, PyObject* b, int cmp) {
  static const char* names[] = {"lt", "le", "eq", "ne", "gt", "ge"};
  PyObject* r;
  if (torch_function_needed(a, b) && PyObject_TypeCheck(a, g_tensor_type) &&
      handle_torch_function_operator(names[cmp], a, b, nullptr, true, &r))
    return r;
  return F(a, b, cmp);
}

void init_torch_function(py::module_& m);

}  // namespace opscope::python
