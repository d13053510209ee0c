// The dispatcher, seen from Python: dumps of an op's registrations and table, key sets, the
// thread-local include/exclude sets and the OPSCOPE_LOG printers' switches. Python-defined kernels
// (_C._Library) and the Python key live in core/python/python_dispatch.cpp; dispatch steps are
// recorded by the trace recorder (core/python/profiler.cpp: opscope._C._TraceRecorder).
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include "core/dispatch/Library.h"
#include "core/python/arg_parser.h"
#include "core/runtime/Log.h"
#include "profiler/Recorder.h"

namespace opscope::python {

void init_dispatch_tools(py::module_& m) {
  py::class_<DispatchKeySet>(m, "DispatchKeySet")
      .def(py::init([](const std::vector<std::string>& keys) {
             DispatchKeySet ks;
             for (const auto& k : keys) ks = ks.add(parse_dispatch_key(k));
             return ks;
           }),
           py::arg("keys") = std::vector<std::string>{})
      .def("has",
           [](DispatchKeySet ks, const std::string& k) { return ks.has(parse_dispatch_key(k)); })
      .def("highest_priority_type_id",
           [](DispatchKeySet ks) { return std::string(to_string(ks.highest_priority_key())); })
      .def("__or__", [](DispatchKeySet a, DispatchKeySet b) { return a | b; })
      .def("__and__", [](DispatchKeySet a, DispatchKeySet b) { return a & b; })
      .def("__sub__", [](DispatchKeySet a, DispatchKeySet b) { return a - b; })
      .def("__eq__", [](DispatchKeySet a, DispatchKeySet b) { return a == b; })
      .def("__iter__",
           [](DispatchKeySet ks) {
             std::vector<std::string> names;
             for (int i = 1; i < kNumRuntimeKeys; ++i)
               if (ks.has(static_cast<DispatchKey>(i)))
                 names.push_back(std::string(to_string(static_cast<DispatchKey>(i))));
             return py::iter(py::cast(names));
           })
      .def("__repr__", &DispatchKeySet::str)
      .def("__str__", &DispatchKeySet::str);

  m.def(
      "_dispatch_keys",
      [](py::handle t) {
        OPSCOPE_CHECK_TYPE(is_tensor(t.ptr()), "_dispatch_keys expects a Tensor");
        return unwrap(t.ptr()).key_set();
      },
      "The dispatch key set a tensor carries.");
  m.def("_dispatch_tls_local_include_set", [] { return local_dispatch_key_set().included; });
  m.def("_dispatch_tls_local_exclude_set", [] { return local_dispatch_key_set().excluded; });
  m.def(
      "_dispatch_dump",
      [](const std::string& name) {
        return Dispatcher::singleton().find_by_full_name(name).entry().dump_state();
      },
      "Registrations of an op, as torch._C._dispatch_dump prints them.");
  m.def(
      "_dispatch_dump_table",
      [](const std::string& name) {
        return Dispatcher::singleton().find_by_full_name(name).entry().dump_table();
      },
      "The computed dispatch table of an op, as torch._C._dispatch_dump_table prints it.");
  m.def(
      "_set_alloc_log", [](bool on, int fd) { set_alloc_log(on, fd); }, py::arg("on"),
      py::arg("fd") = 2, "Turns the OPSCOPE_LOG=alloc printer on or off (printing to fd).");
  m.def(
      "_set_dispatch_log", [](bool on, int fd) { profiler::set_dispatch_log(on, fd); },
      py::arg("on"), py::arg("fd") = 2,
      "Turns the OPSCOPE_LOG=dispatch trace on or off (printing to fd): a trace recorder that "
      "prints each step as it records it.");
}

}  // namespace opscope::python
