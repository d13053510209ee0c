// Shared pieces of the opscope._C binding: the Tensor Python type, error translation, and the
// Python objects for dtype / device / Size / Generator.
//
// Semantically, opscope.Tensor is a Python object holding one Tensor handle. Each TensorImpl
// remembers its Python object (TensorImpl::pyobj), so the same tensor always comes back as the
// same Python object while that object lives (`t.add_(1) is t`, attributes set on a tensor stay).
//
// In implementation terms the Tensor type is a heap type made with the CPython API (for a fast
// number protocol: `a + b` goes from the nb_add slot straight to the dispatcher); everything
// else — dtype, device, module functions — uses pybind11.
#pragma once

#include <Python.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <type_traits>

#include "core/dispatch/IValue.h"
#include "core/runtime/Interrupt.h"

// Runtime objects shared with Python (Generator) are held by their intrusive_ptr.
PYBIND11_DECLARE_HOLDER_TYPE(T, opscope::intrusive_ptr<T>, true)

namespace opscope {
struct DispatchTableEntry;
}

namespace opscope::profiler {
class RawStack;
}

namespace opscope::autograd {
class Node;
}

namespace opscope::python {

namespace py = pybind11;

struct PyTensor {
  PyObject_HEAD Tensor value;
  PyObject* dict;
  PyObject* weakrefs;
};

extern PyTypeObject* g_tensor_type;  // opscope.Tensor (subclassable)

inline bool is_tensor(PyObject* o) {
  return PyObject_TypeCheck(o, g_tensor_type);
}
inline const Tensor& unwrap(PyObject* o) {
  return reinterpret_cast<PyTensor*>(o)->value;
}
// A new reference to the Python object for t (the existing one when there is one).
// An undefined tensor becomes None.
PyObject* wrap(Tensor t);
py::object wrap_obj(Tensor t);

// Python number -> 0-d tensor marked as a wrapped number (promotes like a Python scalar).
Tensor wrapped_number(const Scalar& s);
// Python bool / int / float / numpy scalar / 1-element tensor -> Scalar; false when not a number.
bool to_scalar(PyObject* o, Scalar* out, bool allow_tensor = true);
// A Python int (or an __index__ result) as int64 — torch's RuntimeError "Overflow when unpacking
// long" when out of range — and a Python number as a double (OverflowError for 2**1024). Never
// leave a Python error pending behind a returned value (a SystemError later).
int64_t unpack_long(PyObject* integer);
double unpack_double(PyObject* number);
// A Python str as UTF-8: one that cannot be encoded (a lone surrogate, '\ud800') raises its
// UnicodeEncodeError instead of handing C++ a NULL.
std::string unpack_utf8(PyObject* str);
// Element-wise access for item() / tolist() (elements are read by read_element, in
// core/ops/TensorIterator.h).
PyObject* scalar_to_py(const Scalar& s);

// dtype, device and Size objects.
PyObject* dtype_object(ScalarType t);  // borrowed: opscope.float32, ...
bool is_dtype_object(PyObject* o);
ScalarType dtype_of_object(PyObject* o);
PyObject* device_object(Device d);         // new reference
bool to_device(PyObject* o, Device* out);  // device object, str, or int (cuda index)
// Before an op runs on a CUDA device: torch's lazy initialisation, opscope.cuda._lazy_init(), a
// call from C++ into Python. Without the CUDA backend it raises torch's AssertionError ("Torch not
// compiled with CUDA enabled"), which reaches the caller as that Python exception.
void initialize_device(Device d);
PyObject* size_object(IntArrayRef sizes);  // new reference to an opscope.Size
bool is_generator_object(PyObject* o);
Generator generator_of_object(PyObject* o);

// Note [Every entry from Python is guarded]
// Python enters opscope's C++ through three doors: pybind11 functions, the raw-CPython slots of
// our types (nb_add, mp_subscript, tp_new, getters, ...) and their PyMethodDef tables. A C++
// exception that leaves a slot or a method unwinds through CPython's C frames and ends the
// process (std::terminate): a REPL or a kernel loses its session. So:
//   - pybind11 functions: pybind11 catches, and module.cpp's translator calls set_python_error();
//   - every slot, getter, setter and PyMethodDef entry is bound through guard<f> (below), never
//     as a bare function: `{Py_nb_add, slot<nb_add>()}`, `{"size", method<m_size>(), ...}`,
//     `{"shape", guard<get_shape>, ...}`. tests/python/test_guarded.py checks the tables.
// Inside a slot, guarded(lambda) still gives a finer-grained scope where one is useful.

// The C++ exception being handled (call inside a catch block) as the Python exception PyTorch
// raises: opscope's IndexError / TypeError / ValueError / NotImplementedError as theirs,
// bad_alloc as MemoryError, a pending Python error as itself, anything else as RuntimeError.
void set_python_error() noexcept;

// An entry from Python that finds a SIGINT flag up settles it before running anything: on the
// main thread it clears the flag and runs Python's pending signal handlers, which raise the
// KeyboardInterrupt now when Python has not yet seen the signal. False with that exception set.
// See Note [Interrupting long ops] (core/runtime/Interrupt.cpp): the stale flag.
bool settle_interrupt() noexcept;
inline bool enter_from_python() noexcept {
  return !interrupt_requested() || settle_interrupt();
}

// Runs f; C++ exceptions become the Python exceptions PyTorch raises. Returns a value-initialized
// result (nullptr for PyObject*) on error.
template <typename F>
auto guarded(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (...) {
    set_python_error();
  }
  return decltype(f())();
}

// What a CPython slot returns to say "an exception is set": NULL, or -1 for int / Py_ssize_t.
template <typename R>
R error_result() {
  if constexpr (std::is_pointer_v<R>)
    return nullptr;
  else if constexpr (!std::is_void_v<R>)
    return static_cast<R>(-1);
}

// Guard<f>::call has f's signature and runs f with every C++ exception turned into the Python
// one. See Note [Every entry from Python is guarded].
template <auto F>
struct Guard;
template <typename R, typename... A, R (*F)(A...)>
struct Guard<F> {
  static R call(A... args) noexcept {
    // Entries that return an object (calls, slots, getters) settle a SIGINT first; the ones that
    // return int include tp_traverse / tp_clear, where running Python's handlers has no place.
    if constexpr (std::is_pointer_v<R>)
      if (!enter_from_python()) return error_result<R>();
    try {
      return F(args...);
    } catch (...) {
      set_python_error();
    }
    return error_result<R>();
  }
};
// The guarded function with f's own type (getters, setters, vectorcall).
template <auto F>
constexpr auto guard = &Guard<F>::call;
// For PyType_Slot tables.
template <auto F>
void* slot() {
  return reinterpret_cast<void*>(&Guard<F>::call);
}
// For PyMethodDef tables (METH_NOARGS, METH_O, METH_VARARGS | METH_KEYWORDS alike).
template <auto F>
PyCFunction method() {
  return reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&Guard<F>::call));
}

// Module set-up, one per binding file.
void init_tensor_type(py::module_& m);
void init_objects(py::module_& m);  // dtype, device, Size, Generator
void init_ops(py::module_& m);      // schema-derived functions and methods, ops.aten
void init_indexing();               // Tensor.__getitem__ / __setitem__
void init_interop(py::module_& m);  // numpy, DLPack, tensor()
void init_dispatch_tools(py::module_& m);
void init_python_dispatch(py::module_& m);  // the Python key, opscope.library
void init_autograd(py::module_& m);  // backward / grad, grad mode, hooks
void init_nodes(py::module_& m);     // grad_fn objects, custom Functions
void init_profiler(py::module_& m);  // the trace recorder
void init_stacks(py::module_& m);    // Python frames for profiler stacks, _capture_stack

// An argument or result as Python sees it: tensors as opscope tensors (lists of them as lists),
// numbers, bools, tuples of ints, None; anything else as its text (core/python/profiler.cpp).
py::object ivalue_to_py(const IValue& v);

// A captured stack as Python's opscope._C._RawStack (core/python/stacks.cpp).
py::object wrap_raw_stack(profiler::RawStack&& raw);

// Whether the interpreter is gone or shutting down. A C++ destructor that would take the GIL to
// release Python objects leaves them instead: during finalization a thread other than the main
// one that asks for the GIL is ended on the spot — inside the destructor (a crash at exit).
inline bool python_is_going() {
  return !Py_IsInitialized() || _Py_IsFinalizing();
}

// A Python callable held from C++ (a hook inside the graph): it may be dropped on a thread that
// does not hold the GIL, so dropping takes it (unless the interpreter is already gone) — never
// drop one under a lock a GIL holder can wait for: see Note [No Python object dies under a lock]
// in core/dispatch/Observer.cpp.
struct PyCallable {
  py::object fn;
  explicit PyCallable(py::object f) : fn(std::move(f)) {}
  ~PyCallable() {
    if (python_is_going()) {
      fn.release();
      return;
    }
    py::gil_scoped_acquire gil;
    fn = py::object();
  }
};

// The Python object of an autograd node (its class named like the node: MulBackward0), or None.
PyObject* node_object(const std::shared_ptr<autograd::Node>& node);

}  // namespace opscope::python
