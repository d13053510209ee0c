// opscope._C's part of opscope.profiler: the trace recorder (profiler/Recorder.h), its events as
// Python dicts for opscope/profiler/_trace.py to build the tree of ops from.
#include <pybind11/stl.h>

#include "core/python/python_common.h"
#include "profiler/Recorder.h"

namespace opscope::python {

namespace {

using profiler::Event;
using profiler::EventKind;
using profiler::ValueRecord;

py::object value_to_py(const ValueRecord& v) {
  py::dict d;
  if (!v.is_tensor) {
    d["value"] = v.value.str();
    return d;
  }
  if (!v.defined) return py::none();
  d["shape"] = py::tuple(py::cast(std::vector<int64_t>(v.sizes.begin(), v.sizes.end())));
  d["strides"] = py::tuple(py::cast(std::vector<int64_t>(v.strides.begin(), v.strides.end())));
  d["dtype"] = std::string(short_dtype(v.dtype));
  d["device"] = v.device.str();
  d["requires_grad"] = v.requires_grad;
  d["keys"] = v.keys;
  return d;
}

py::list values_to_py(const std::vector<ValueRecord>& vs) {
  py::list l;
  for (const ValueRecord& v : vs) l.append(value_to_py(v));
  return l;
}

std::string_view kind_name(EventKind k) {
  switch (k) {
    case EventKind::Enter:
      return "enter";
    case EventKind::Exit:
      return "exit";
    case EventKind::NodeCreated:
      return "node_created";
    case EventKind::NodeBegin:
      return "node_begin";
    case EventKind::NodeEnd:
      return "node_end";
  }
  return "?";
}

py::dict event_to_py(const Event& e) {
  py::dict d;
  d["kind"] = std::string(kind_name(e.kind));
  d["t_ns"] = e.t_ns;
  d["thread"] = e.thread;
  switch (e.kind) {
    case EventKind::Enter: {
      d["step"] = e.step_id;
      d["op"] = e.op->full_name();
      d["call"] = std::string(to_string(e.call));
      d["key"] = std::string(to_string(e.chosen));
      d["key_set"] = e.key_set;
      d["fallthrough"] = e.fallthrough;
      d["tls_included"] = e.tls_included;
      d["tls_excluded"] = e.tls_excluded;
      d["kernel"] = e.entry->kernel.name();
      d["provenance"] = std::string(to_string(e.entry->provenance));
      d["registered_key"] = std::string(to_string(e.entry->registered_key));
      d["site"] = e.entry->site;
      py::list names;
      if (e.op->entry().has_schema())
        for (const auto& a : e.op->schema().arguments) names.append(a.name);
      d["arg_names"] = names;
      if (e.values.empty() && !e.arg_keys.empty()) {  // a redispatch: keys only
        py::list keys;
        for (DispatchKeySet ks : e.arg_keys) keys.append(ks);
        d["arg_keys"] = keys;
        d["args"] = py::list();
      } else {
        d["args"] = values_to_py(e.values);
      }
      break;
    }
    case EventKind::Exit:
      d["step"] = e.step_id;
      d["threw"] = e.threw;
      d["outputs"] = values_to_py(e.values);
      break;
    default:
      d["node"] = e.node;
      d["sequence_nr"] = e.sequence_nr;
      d["node_id"] = e.node_id;
      if (e.kind == EventKind::NodeCreated) d["next"] = e.next;
      break;
  }
  return d;
}

}  // namespace

void init_profiler(py::module_& m) {
  using profiler::TraceRecorder;
  py::class_<TraceRecorder, std::shared_ptr<TraceRecorder>>(
      m, "_TraceRecorder", "Records dispatch steps and autograd events between start and stop.")
      .def(py::init<>())
      .def("start", [](std::shared_ptr<TraceRecorder> r) { r->start(r); })
      .def("stop", &TraceRecorder::stop)
      .def(
          "events",
          [](TraceRecorder& r) {
            std::vector<Event> events = r.take();
            py::list l;
            for (const Event& e : events) l.append(event_to_py(e));
            return l;
          },
          "The events recorded so far, as dicts (and forgets them).");
  m.def("_now_ns", &profiler::now_ns, "CLOCK_MONOTONIC in ns, the clock of trace timestamps.");
}

}  // namespace opscope::python
