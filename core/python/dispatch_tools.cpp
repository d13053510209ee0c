// The dispatcher, seen from Python: dumps of an op's registrations and table, key sets, the
// thread-local include/exclude sets, the OPSCOPE_LOG printers' switches, and Python-defined
// kernels registered through a Library whose lifetime undoes them. Dispatch steps are recorded by
// the trace recorder (core/python/profiler.cpp: opscope._C._TraceRecorder).
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include "core/dispatch/Library.h"
#include "core/python/arg_parser.h"
#include "core/runtime/Log.h"
#include "profiler/Recorder.h"

namespace opscope::python {

namespace {

// A Python callable as a boxed kernel: arguments converted like op returns, results back.
KernelFunction python_kernel(py::function f, std::string name) {
  // A PyCallable: a table entry holding the last reference may be dropped on any thread.
  auto shared = std::make_shared<PyCallable>(std::move(f));
  return KernelFunction::boxed(
      [shared](const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
        py::gil_scoped_acquire gil;
        const FunctionSchema& schema = op.schema();
        size_t n = schema.arguments.size();
        size_t base = stack->size() - n;
        py::tuple args(n);
        for (size_t i = 0; i < n; ++i) {
          Stack one{(*stack)[base + i]};
          args[i] = py::reinterpret_steal<py::object>(returns_to_py(schema, one, 0));
        }
        py::object r = shared->fn(*args);
        stack->resize(base);
        // The results must be what the schema returns, in number and kind: callers read the
        // stack by the schema (a 2-return op's result is built as a 2-field tuple).
        const std::vector<Argument>& returns = schema.returns;
        auto push = [&](py::handle h, const Argument& ret) {
          const SchemaType& type = ret.type;
          auto refuse = [&] {
            throw TypeError(detail::str("a Python kernel for ", op.full_name(), " returned ",
                                        Py_TYPE(h.ptr())->tp_name, " where its schema has ",
                                        type.str()));
          };
          if (h.is_none() && (type.optional || returns.empty())) {
            stack->emplace_back();
          } else if (type.kind == TypeKind::Tensor && type.is_list) {
            if (!py::isinstance<py::sequence>(h) || py::isinstance<py::str>(h)) refuse();
            std::vector<Tensor> list;
            for (py::handle e : h) {
              if (!is_tensor(e.ptr())) refuse();
              list.push_back(unwrap(e.ptr()));
            }
            stack->emplace_back(std::move(list));
          } else if (type.kind == TypeKind::Tensor) {
            if (!is_tensor(h.ptr())) refuse();
            stack->emplace_back(unwrap(h.ptr()));
          } else {
            Scalar value;
            if (type.is_list || !to_scalar(h.ptr(), &value, false)) refuse();
            stack->emplace_back(value);
          }
        };
        if (returns.size() > 1) {
          OPSCOPE_CHECK_TYPE(PyTuple_Check(r.ptr()) || PyList_Check(r.ptr()), "a Python kernel for ",
                             op.full_name(), " must return a tuple of ", returns.size(),
                             " values, not ", Py_TYPE(r.ptr())->tp_name);
          py::sequence values = r;
          OPSCOPE_CHECK(values.size() == returns.size(), "a Python kernel for ", op.full_name(),
                        " returned ", values.size(), " values, its schema has ", returns.size());
          for (size_t i = 0; i < returns.size(); ++i) push(values[i], returns[i]);
        } else if (returns.size() == 1) {
          push(r, returns[0]);
        }
      },
      name);
}

std::string site_of_python_caller() {
  py::object frame =
      py::module_::import("sys").attr("_getframe")(0);  // the caller: pybind adds no frame
  return py::str(frame.attr("f_code").attr("co_filename")).cast<std::string>() + ":" +
         std::to_string(frame.attr("f_lineno").cast<int>());
}

}  // namespace

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

  py::class_<Library>(m, "_Library")
      .def(py::init([](const std::string& kind, const std::string& ns) {
             Library::Kind k = kind == "DEF"    ? Library::DEF
                               : kind == "IMPL" ? Library::IMPL
                                                : Library::FRAGMENT;
             return std::make_unique<Library>(k, ns);
           }),
           py::arg("kind"), py::arg("ns"))
      .def("define",
           [](Library& lib, const std::string& schema) {
             auto h = Dispatcher::singleton().register_schema(schema, site_of_python_caller(),
                                                              Variants::None, lib.ns());
             // Kept in a side table owned by the library object: see `_handles` below.
             return py::cast(new RegistrationHandle(std::move(h)),
                             py::return_value_policy::take_ownership);
           })
      .def("impl", [](Library& lib, const std::string& name, const std::string& key,
                      py::function f) {
        std::string full = name.find("::") == std::string::npos ? lib.ns() + "::" + name : name;
        std::string kname = py::str(f.attr("__qualname__")).cast<std::string>();
        auto h = Dispatcher::singleton().register_impl(
            full, parse_dispatch_key(key), python_kernel(f, kname), site_of_python_caller());
        return py::cast(new RegistrationHandle(std::move(h)),
                        py::return_value_policy::take_ownership);
      });
  py::class_<RegistrationHandle>(m, "_RegistrationHandle")
      .def("remove", &RegistrationHandle::reset);
}

}  // namespace opscope::python
