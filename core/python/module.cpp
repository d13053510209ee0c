// opscope._C: the extension module. See python_common.h for how the pieces fit.
#include <omp.h>
#include <pybind11/stl.h>

#include "core/python/python_common.h"
#include "core/runtime/Blas.h"
#include "core/runtime/Parallel.h"

namespace py = pybind11;

namespace opscope::python {

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
  } catch (const std::bad_alloc&) {
    PyErr_NoMemory();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  } catch (...) {
    PyErr_SetString(PyExc_RuntimeError, "an unknown C++ exception reached Python");
  }
}

namespace {

void init_runtime_functions(py::module_& m) {
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
  init_runtime_functions(m);
  init_autograd(m);
  init_nodes(m);
  init_profiler(m);
  init_stacks(m);
}
