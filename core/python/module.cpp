// opscope._C: the extension module. See python_common.h for how the pieces fit.
#include <omp.h>
#include <pybind11/stl.h>

#include <string_view>
#include <unordered_set>

#include "core/cuda/host/CachingAllocator.h"  // cuda::OutOfMemoryError (every build)
#include "core/ops/linalg.h"                   // LinAlgError
#include "core/python/futures.h"
#include "core/python/gil.h"
#include "core/python/python_common.h"
#include "core/runtime/Blas.h"
#include "core/runtime/Interrupt.h"
#include "core/runtime/Parallel.h"

namespace py = pybind11;

namespace opscope::python {

// opscope._C._LinAlgError, which opscope.linalg.LinAlgError names (torch._C._LinAlgError and
// torch.linalg.LinAlgError): a RuntimeError. Made when the module is.
PyObject* g_linalg_error = nullptr;

// See Note [Every entry from Python is guarded] (python_common.h).
void set_python_error() noexcept {
  try {
    throw;
  } catch (py::error_already_set& e) {
    e.restore();
  } catch (const py::builtin_exception& e) {
    e.set_error();
  } catch (const IndexError& e) {
    PyErr_SetString(PyExc_IndexError, e.what());
  } catch (const TypeError& e) {
    PyErr_SetString(PyExc_TypeError, e.what());
  } catch (const ValueError& e) {
    PyErr_SetString(PyExc_ValueError, e.what());
  } catch (const NotImplementedError& e) {
    PyErr_SetString(PyExc_NotImplementedError, e.what());
  } catch (const LinAlgError& e) {
    PyErr_SetString(g_linalg_error ? g_linalg_error : PyExc_RuntimeError, e.what());
  } catch (const cuda::OutOfMemoryError& e) {
    // The CUDA caching allocator's error: opscope.cuda.OutOfMemoryError (a RuntimeError), as
    // torch.cuda.OutOfMemoryError. The class is only looked up when one is raised.
    PyObject* module = PyImport_ImportModule("opscope.cuda");
    PyObject* cls = module ? PyObject_GetAttrString(module, "OutOfMemoryError") : nullptr;
    Py_XDECREF(module);
    PyErr_Clear();
    PyErr_SetString(cls ? cls : PyExc_RuntimeError, e.what());
    Py_XDECREF(cls);
  } catch (const Interrupted&) {
    // A loop stopped for a SIGINT: Python's handler says what to raise (KeyboardInterrupt, or a
    // user's signal.signal handler's exception). See Note [Interrupting long ops].
    clear_interrupt();
    if (PyErr_CheckSignals() == 0) PyErr_SetNone(PyExc_KeyboardInterrupt);
  } catch (const std::bad_alloc&) {
    PyErr_NoMemory();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  } catch (...) {
    PyErr_SetString(PyExc_RuntimeError, "an unknown C++ exception reached Python");
  }
}

bool settle_interrupt() noexcept {
  // Other threads leave the flag to the main thread, the only one an op stops on.
  if (!interrupt_watched()) return true;
  clear_interrupt();
  return PyErr_CheckSignals() == 0;
}

// Note [pybind11's calls with unencodable keyword names]
// When no overload of a pybind11 function accepts a call, pybind11 (2.10) builds its
// "incompatible function arguments" message by converting each keyword name to a std::string — a
// conversion that throws for a name it cannot encode (`torch.manual_seed(**{'\ud800': 1})`), in
// C++ code under a C frame: std::terminate, and the REPL's session is gone. So once the module is
// built, every pybind11 function in it is pointed at checked_pybind11_call, which refuses such a
// name first (UnicodeEncodeError, as CPython's own functions do) and then runs pybind11's own
// dispatcher. See Note [Every entry from Python is guarded] (python_common.h).
namespace {

// pybind11's dispatcher, and its calling convention: (self, args, kwargs) up to pybind11 2.x,
// (self, args, nargs, kwnames) — METH_FASTCALL — from pybind11 3.
PyCFunction g_pybind11_dispatcher = nullptr;
int g_pybind11_flags = 0;

PyObject* checked_pybind11_call(PyObject* self, PyObject* args, PyObject* kwargs) {
  if (!enter_from_python()) return nullptr;
  if (kwargs) {
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(kwargs, &pos, &key, &value))
      if (PyUnicode_Check(key) && !PyUnicode_AsUTF8(key)) return nullptr;
  }
  return reinterpret_cast<PyCFunctionWithKeywords>(
      reinterpret_cast<void (*)()>(g_pybind11_dispatcher))(self, args, kwargs);
}

PyObject* checked_pybind11_fastcall(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                                    PyObject* kwnames) {
  if (!enter_from_python()) return nullptr;
  for (Py_ssize_t k = 0; kwnames && k < PyTuple_GET_SIZE(kwnames); ++k) {
    PyObject* key = PyTuple_GET_ITEM(kwnames, k);
    if (PyUnicode_Check(key) && !PyUnicode_AsUTF8(key)) return nullptr;
  }
  using Fast = PyObject* (*)(PyObject*, PyObject* const*, Py_ssize_t, PyObject*);
  return reinterpret_cast<Fast>(reinterpret_cast<void (*)()>(g_pybind11_dispatcher))(
      self, args, nargs, kwnames);
}

void check_calls_of(PyObject* fn) {
  if (!fn || !PyCFunction_Check(fn)) return;
  PyMethodDef* def = reinterpret_cast<PyCFunctionObject*>(fn)->m_ml;
  if (def->ml_meth != g_pybind11_dispatcher || def->ml_flags != g_pybind11_flags) return;
  if (def->ml_flags & METH_FASTCALL)
    def->ml_meth = reinterpret_cast<PyCFunction>(
        reinterpret_cast<void (*)()>(&checked_pybind11_fastcall));
  else
    def->ml_meth = reinterpret_cast<PyCFunction>(
        reinterpret_cast<void (*)()>(&checked_pybind11_call));
}

// Whether a type or module belongs to opscope._C (types and modules from elsewhere are left alone).
bool defined_here(PyObject* o) {
  PyObject* name = PyObject_GetAttrString(o, PyModule_Check(o) ? "__name__" : "__module__");
  if (!name) {
    PyErr_Clear();
    return false;
  }
  const char* text = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : nullptr;
  bool here = text && std::string_view(text).starts_with("opscope");
  if (!text) PyErr_Clear();
  Py_DECREF(name);
  return here;
}

// Points every pybind11 function reachable from `o` (a module's or a type's attributes, method
// wrappers, properties, static methods) at checked_pybind11_call.
void check_calls_under(PyObject* o, std::unordered_set<PyObject*>& seen) {
  if (!seen.insert(o).second) return;
  if (PyCFunction_Check(o)) return check_calls_of(o);
  if (PyInstanceMethod_Check(o)) return check_calls_of(PyInstanceMethod_GET_FUNCTION(o));
  if (PyModule_Check(o) || PyType_Check(o)) {
    PyObject* dict =
        PyModule_Check(o) ? PyModule_GetDict(o) : reinterpret_cast<PyTypeObject*>(o)->tp_dict;
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (dict && PyDict_Next(dict, &pos, &key, &value))
      if (!(PyType_Check(value) || PyModule_Check(value)) || defined_here(value))
        check_calls_under(value, seen);
    return;
  }
  if (!PyObject_TypeCheck(o, &PyProperty_Type) && !PyObject_TypeCheck(o, &PyStaticMethod_Type))
    return;
  for (const char* attr : {"fget", "fset", "fdel", "__func__"}) {
    if (PyObject* part = PyObject_GetAttrString(o, attr)) {
      check_calls_under(part, seen);  // the property / staticmethod keeps it alive
      Py_DECREF(part);
    } else {
      PyErr_Clear();
    }
  }
}

// See Note [pybind11's calls with unencodable keyword names].
void check_pybind11_calls(py::module_& m) {
  py::cpp_function probe([] {});
  const PyMethodDef* def = reinterpret_cast<PyCFunctionObject*>(probe.ptr())->m_ml;
  g_pybind11_dispatcher = def->ml_meth;
  g_pybind11_flags = def->ml_flags;
  // Only the two conventions above are known: for another, leave pybind11's functions as they are.
  if (g_pybind11_flags != (METH_VARARGS | METH_KEYWORDS) &&
      g_pybind11_flags != (METH_FASTCALL | METH_KEYWORDS))
    return;
  std::unordered_set<PyObject*> seen;
  check_calls_under(m.ptr(), seen);
}


void init_runtime_functions(py::module_& m) {
  m.def(
      "_install_interrupt_handler",
      [] { return _PyOS_IsMainThread() && install_interrupt_handler(); },
      "(Re)installs opscope's SIGINT handler, chaining to the one in place, so that Ctrl-C stops "
      "a long op (Note [Interrupting long ops], core/runtime/Interrupt.cpp). Main thread only "
      "(False elsewhere, and where SIGINT is ignored or default); idempotent and cheap: front "
      "ends call it before each line, after signal.signal or prompt_toolkit replaced it.");
  // torch.promote_types / can_cast / result_type over Note [Type promotion]
  // (core/runtime/ScalarType.h), with torch's argument errors.
  const auto dtype_arg = [](py::handle o, const char* fn, const char* name, int position) {
    OPSCOPE_CHECK_TYPE(is_dtype_object(o.ptr()), fn, "(): argument '", name, "' (position ",
                       position, ") must be torch.dtype, not ", Py_TYPE(o.ptr())->tp_name);
    return dtype_of_object(o.ptr());
  };
  m.def("promote_types", [dtype_arg](py::handle type1, py::handle type2) {
    const ScalarType a = dtype_arg(type1, "promote_types", "type1", 1);
    const ScalarType b = dtype_arg(type2, "promote_types", "type2", 2);
    return py::reinterpret_borrow<py::object>(dtype_object(promote_types(a, b)));
  });
  m.def("can_cast", [dtype_arg](py::handle from, py::handle to) {
    return can_cast(dtype_arg(from, "can_cast", "from", 1), dtype_arg(to, "can_cast", "to", 2));
  });
  m.def("result_type", [](py::handle tensor, py::handle other) {
    ResultTypeState state;
    std::string got;
    bool ok = true;
    for (py::handle o : {tensor, other}) {
      PyObject* p = o.ptr();
      if (!got.empty()) got += ", ";
      if (is_tensor(p)) {
        const Tensor& t = unwrap(p);
        state.add_tensor(t.dtype(), t.dim(), false);
        got += "Tensor";
      } else if (PyBool_Check(p)) {
        state.add_scalar(ScalarType::Bool);
        got += "bool";
      } else if (PyLong_Check(p)) {
        state.add_scalar(ScalarType::Int64);
        got += "int";
      } else if (PyFloat_Check(p)) {
        state.add_scalar(ScalarType::Float64);
        got += "float";
      } else {
        ok = false;
        got += Py_TYPE(p)->tp_name;
      }
    }
    OPSCOPE_CHECK_TYPE(ok, "result_type() received an invalid combination of arguments - got (",
                       got, "), but expected one of:\n * (Tensor tensor, Tensor other)\n"
                       " * (Tensor tensor, Number other)\n * (Number scalar, Tensor tensor)\n"
                       " * (Number scalar1, Number scalar2)");
    return py::reinterpret_borrow<py::object>(dtype_object(state.result()));
  });
  m.def("get_default_dtype",
        [] { return py::reinterpret_borrow<py::object>(dtype_object(default_dtype())); });
  m.def("set_default_dtype", [](py::handle d) {
    OPSCOPE_CHECK_TYPE(is_dtype_object(d.ptr()), "set_default_dtype expects a dtype");
    set_default_dtype(dtype_of_object(d.ptr()));
  });
  m.def(
      "manual_seed",
      [](py::int_ seed) {
        default_generator()->set_seed(
            static_cast<uint64_t>(PyLong_AsUnsignedLongLongMask(seed.ptr())));
        return default_generator();
      },
      py::arg("seed"), "Seeds the default CPU generator; returns it.");
  m.def("seed", [] { return default_generator()->seed_randomly(); });
  m.def("initial_seed", [] { return default_generator()->seed(); });
  m.def("get_num_threads", [] { return opscope::get_num_threads(); });
  m.def(
      "set_num_threads", [](int n) { opscope::set_num_threads(n); },
      "Sets the threads of opscope's OpenMP loops and of its OpenBLAS products.");
  m.def(
      "_blas_info",
      [] {
        blas::Info i = blas::info();
        py::dict d;
        d["library"] = i.library;
        d["library_why"] = i.library_why;
        d["corename"] = i.corename;
        d["config"] = i.config;
        d["requested_coretype"] = i.requested;
        d["reason"] = i.reason;
        d["cpu_features"] = i.cpu_features;
        d["threading"] = i.threading;
        d["num_threads"] = i.num_threads;
        d["shared"] = i.shared;
        d["note"] = i.note;
        d["text"] = blas::info_text();
        return d;
      },
      "Which OpenBLAS opscope loaded (loading it now if needed), its kernel family and why.");
  m.def(
      "_allocator_stats",
      [](const std::string& device) {
        AllocatorStats s = get_allocator(Device::parse(device).type)->stats();
        py::dict d;
        d["current_bytes"] = s.current_bytes;
        d["peak_bytes"] = s.peak_bytes;
        d["num_allocs"] = s.num_allocs;
        d["num_frees"] = s.num_frees;
        return d;
      },
      py::arg("device") = "cpu", "Allocation statistics of a device's allocator.");
  m.def("_cpu_empty_cache", &cpu_empty_cache,
        "Returns the CPU allocator's cached large blocks to the system.");
  m.def("_cpu_cached_bytes", &cpu_cached_bytes);
  m.def(
      "_reset_peak_memory_stats",
      [](const std::string& device) { get_allocator(Device::parse(device).type)->reset_peak(); },
      py::arg("device") = "cpu");
}

}  // namespace
}  // namespace opscope::python

PYBIND11_MODULE(_C, m) {
  using namespace opscope::python;
  m.doc() = "opscope's C++ core: tensors, the dispatcher, ops.";
  g_linalg_error = PyErr_NewExceptionWithDoc(
      "opscope._C._LinAlgError",
      "Error raised by opscope.linalg when a matrix is singular, not positive-definite, or "
      "an algorithm did not converge (torch.linalg.LinAlgError).",
      PyExc_RuntimeError, nullptr);
  if (!g_linalg_error) throw py::error_already_set();
  m.add_object("_LinAlgError", py::reinterpret_borrow<py::object>(g_linalg_error));
  // Functions bound with pybind11 raise the same Python exceptions as the raw-CPython ones.
  py::register_exception_translator([](std::exception_ptr p) {
    if (!p) return;
    try {
      std::rethrow_exception(p);
    } catch (...) {
      set_python_error();
    }
  });
  init_objects(m);
  init_tensor_type(m);
  init_ops(m);
  init_interop(m);
  init_dispatch_tools(m);
  init_python_dispatch(m);
  init_runtime_functions(m);
  init_autograd(m);
  init_nodes(m);
  init_profiler(m);
  init_stacks(m);
  init_futures(m);  // futures.h
  init_gil(m);      // gil.h
  check_pybind11_calls(m);
}
