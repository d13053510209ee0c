// opscope._C's part of opscope.profiler: the trace recorder (profiler/Recorder.h), its events as
// Python dicts for opscope/profiler/_trace.py to build the tree of ops from; user scopes
// (record_function); and Python hooks on every op call (add_hook).
#include <pybind11/stl.h>

#include "core/python/futures.h"
#include "core/python/crossing.h"
#include "core/python/python_common.h"
#include "profiler/Hooks.h"
#include "profiler/Recorder.h"
#include "profiler/Stack.h"

namespace opscope::python {

py::object ivalue_to_py(const IValue& v) {
  switch (v.tag()) {
    case IValue::Tag::Tensor:
      return wrap_obj(v.to_tensor());
    case IValue::Tag::TensorList: {
      py::list l;
      for (const Tensor& t : v.to_tensor_list()) l.append(wrap_obj(t));
      return l;
    }
    case IValue::Tag::None:
      return py::none();
    case IValue::Tag::Double:
      return py::float_(v.to_double());
    case IValue::Tag::Int:
      return py::int_(v.to_int());
    case IValue::Tag::Bool:
      return py::bool_(v.to_bool());
    case IValue::Tag::IntList:
      return py::tuple(py::cast(v.to_int_list()));
    default:
      return py::str(v.str());
  }
}

namespace {

using profiler::Event;
using profiler::EventKind;
using profiler::ValueRecord;

// Note [Converting a recording]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A trace's events become Python dicts when it is read: six for a 1-element `a + b` (two dispatch
// steps in and out, an allocation, a free), so a 10,000-op loop makes 60,000 dicts. Most of what
// they hold repeats: the same key sets, op names, kernels and devices, event after event. One
// EventConverter per conversion makes each distinct value once and hands out the same Python
// object after that (DispatchKeySet and str are immutable), and the cyclic garbage collector is
// paused while the dicts are built — they hold no cycles, and with it running every few hundred
// new containers it walked the growing list again and again. Measured on `a + b` (10,000 ops,
// the events() call alone, this 2-core VM under load): 17.6-18.1 us an event before (12.9 with
// the collector off by hand), 8.9-12 after. Much of what is left is the VM's price for touching
// fresh pages (~10 us a page the first time in a process), which a conversion of 60,000 dicts
// does a few thousand times.
class EventConverter {
 public:
  explicit EventConverter(profiler::Recording& r) : r_(r) {}

  py::dict event(const Event& e, bool stacks);

 private:
  profiler::Recording& r_;
  std::unordered_map<uint64_t, py::object> key_sets_;
  std::unordered_map<const void*, py::object> names_;     // an op's full name, by its entry
  std::unordered_map<const void*, py::dict> table_rows_;  // a dispatch table entry's fields
  std::unordered_map<std::string, py::object> strings_;   // devices, dtypes, call kinds, ...

  py::object key_set(DispatchKeySet ks) {
    auto [it, fresh] = key_sets_.try_emplace(ks.raw());
    if (fresh) it->second = py::cast(ks);
    return it->second;
  }
  py::object str(std::string_view s) {
    auto [it, fresh] = strings_.try_emplace(std::string(s));
    if (fresh) it->second = py::str(it->first);
    return it->second;
  }
  // A dispatch table entry's fields into a step's dict: "kernel", "provenance",
  // "registered_key", "site".
  void put_table_entry(py::dict& d, const DispatchTableEntry& e) {
    auto [it, fresh] = table_rows_.try_emplace(&e);
    if (fresh) {
      py::dict row;
      row["kernel"] = e.kernel.name();
      row["provenance"] = str(trace_provenance(e));
      row["registered_key"] = str(to_string(e.registered_key));
      row["site"] = e.site;
      it->second = std::move(row);
    }
    for (auto item : it->second) d[item.first] = item.second;
  }
  py::tuple dims(uint32_t begin, uint32_t n) {
    py::tuple t(n);
    for (uint32_t i = 0; i < n; ++i) t[i] = py::int_(r_.dims[begin + i]);
    return t;
  }
  py::object value(const ValueRecord& v) {
    py::dict d;
    if (!v.is_tensor) {
      d["value"] = v.str();
      return d;
    }
    if (!v.defined) return py::none();
    d["shape"] = dims(v.dims_begin, v.ndim);
    d["strides"] = dims(v.dims_begin + v.ndim, v.ndim);
    d["dtype"] = str(short_dtype(v.dtype));
    d["device"] = str(v.device.str());
    d["requires_grad"] = v.requires_grad;
    d["keys"] = key_set(v.keys);
    return d;
  }
  py::list values(uint32_t begin, uint32_t count) {
    py::list l(count);
    for (uint32_t i = 0; i < count; ++i) l[i] = value(r_.values[begin + i]);
    return l;
  }
};

// Pauses Python's cyclic garbage collector for a scope (see Note [Converting a recording]).
class NoCyclicGc {
 public:
  NoCyclicGc() : was_enabled_(PyGC_Disable() == 1) {}
  ~NoCyclicGc() {
    if (was_enabled_) PyGC_Enable();
  }
  NoCyclicGc(const NoCyclicGc&) = delete;
  NoCyclicGc& operator=(const NoCyclicGc&) = delete;

 private:
  bool was_enabled_;
};

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
    case EventKind::Alloc:
      return "alloc";
    case EventKind::Free:
      return "free";
    case EventKind::ScopeBegin:
      return "scope_begin";
    case EventKind::ScopeEnd:
      return "scope_end";
    case EventKind::BlasCall:
      return "blas_call";
  }
  return "?";
}

// `stacks`: whether stacks go with the events — taken out of the recording, so once only; a
// view that needs no stack leaves them there for a later full conversion (None in their place).
py::dict EventConverter::event(const Event& e, bool stacks) {
  profiler::EventDetail* detail = e.detail == Event::kNoDetail ? nullptr : &r_.details[e.detail];
  py::dict d;
  d["kind"] = str(kind_name(e.kind));
  d["t_ns"] = e.t_ns;
  d["thread"] = e.thread;
  switch (e.kind) {
    case EventKind::Enter: {
      d["step"] = e.step_id;
      auto [name, fresh] = names_.try_emplace(&e.op.entry());
      if (fresh) name->second = py::str(e.op.full_name());
      d["op"] = name->second;
      d["call"] = str(to_string(e.call));
      d["key"] = str(to_string(e.chosen));
      d["key_set"] = key_set(e.key_set);
      d["fallthrough"] = key_set(e.fallthrough);
      d["tls_included"] = key_set(e.tls_included);
      d["tls_excluded"] = key_set(e.tls_excluded);
      put_table_entry(d, *e.entry);
      py::list names;
      if (e.op.entry().has_schema())
        for (const auto& a : e.op.schema().arguments) names.append(str(a.name));
      d["arg_names"] = names;
      if (e.values_count == 0 && e.keys_count != 0) {  // a redispatch: keys only
        py::list keys(e.keys_count);
        for (uint32_t i = 0; i < e.keys_count; ++i) keys[i] = key_set(r_.keys[e.keys_begin + i]);
        d["arg_keys"] = keys;
        d["args"] = py::list();
      } else {
        d["args"] = values(e.values_begin, e.values_count);
      }
      if (detail && detail->stack)
        d["stack"] = stacks ? wrap_raw_stack(std::move(*detail->stack)) : py::none();
      if (e.device_ns != 0) {  // Note [Device time of an op]
        d["device_ns"] = e.device_ns;
        d["stream"] = e.device_stream;
        d["device_index"] = static_cast<int>(e.device.index);
      }
      break;
    }
    case EventKind::BlasCall:
      d["routine"] = detail->routine;
      d["stack"] = stacks ? wrap_raw_stack(std::move(*detail->stack)) : py::none();
      break;
    case EventKind::Alloc:
    case EventKind::Free:
      d["ptr"] = e.ptr;
      d["bytes"] = e.bytes;
      d["total_bytes"] = e.total_bytes;
      d["device"] = str(e.device.str());
      break;
    case EventKind::ScopeBegin:
    case EventKind::ScopeEnd:
      d["name"] = detail->name;
      d["scope"] = detail->id;
      break;
    case EventKind::Exit:
      d["step"] = e.step_id;
      d["threw"] = e.threw;
      d["outputs"] = values(e.values_begin, e.values_count);
      if (e.device_ns != 0) d["device_ns"] = e.device_ns;
      break;
    default:
      d["node"] = detail->name;
      d["sequence_nr"] = detail->sequence_nr;
      d["node_id"] = detail->id;
      if (e.kind == EventKind::NodeCreated) d["next"] = detail->next;
      break;
  }
  return d;
}

// Events [begin, end) of a recording as a list of dicts (Note [Converting a recording]).
py::list events_to_py(profiler::Recording& r, size_t begin, size_t end, bool stacks) {
  NoCyclicGc no_gc;
  EventConverter convert(r);
  py::list l(end - begin);
  for (size_t i = begin; i < end; ++i) l[i - begin] = convert.event(r.events[i], stacks);
  return l;
}

// A recording taken from a recorder, kept in C++ until Python asks for its events (all, or the
// range of one top-level item: opscope.interactive renders a loop from its groups' first items).
struct PyRecording {
  profiler::Recording rec;
  uint64_t dropped_items = 0, dropped_ns = 0;
};

py::tuple span_to_py(const profiler::ItemSpan& s) {
  return py::make_tuple(s.begin, s.end, s.thread, s.start_ns, s.duration_ns, s.group);
}

// What a Python op hook receives (opscope.profiler.add_hook): one call of an op. The values are
// kept as IValues and become Python objects when read.
struct PyOpCall {
  OperatorHandle op;  // by value: the call's handle may be a temporary
  DispatchKey key;
  const DispatchTableEntry* entry;
  uint64_t step;
  Stack inputs;
  Stack outputs;
  bool exited = false;
  bool threw = false;
};

py::list values_of(const Stack& s) {
  py::list l;
  for (const IValue& v : s) l.append(ivalue_to_py(v));
  return l;
}

// A Python callable as an op hook: called with the GIL, its exceptions reported as unraisable
// (printed, as Python does for exceptions in __del__) so that a failing hook never breaks the op.
profiler::OpHook python_op_hook(py::object fn, bool on_exit) {
  if (fn.is_none()) return {};
  auto holder = std::make_shared<PyCallable>(std::move(fn));
  return [holder, on_exit](const profiler::OpCall& c) {
    CallIntoPython gil(on_exit ? "profiler on_exit hook" : "profiler on_enter hook",
                       holder->fn);  // takes the GIL (crossing.h)
    auto call = std::make_shared<PyOpCall>(
        PyOpCall{*c.op, c.step->chosen, c.step->entry, c.step->id, *c.inputs, {}, on_exit, c.threw});
    if (c.outputs) call->outputs = *c.outputs;
    try {
      py::object r = holder->fn(py::cast(call));
      if (is_coroutine(r))  // an async def hook: Note [Async hooks] in futures.cpp
        await_hook_coroutine(std::move(r), holder->fn, "profiler op hook", "the op goes on");
    } catch (py::error_already_set& e) {
      e.discard_as_unraisable(holder->fn);
    }
  };
}

}  // namespace

void init_profiler(py::module_& m) {
  using profiler::TraceRecorder;
  py::class_<TraceRecorder, std::shared_ptr<TraceRecorder>>(
      m, "_TraceRecorder", "Records dispatch steps and autograd events between start and stop.")
      .def(py::init([](bool stacks, bool memory, size_t max_events, size_t max_stacks,
                       bool device_time) {
             profiler::RecorderOptions o{stacks, memory, max_events, max_stacks};
             o.device_time = device_time;
             return std::make_shared<TraceRecorder>(std::move(o));
           }),
           py::arg("stacks") = false, py::arg("memory") = true, py::arg("max_events") = 0,
           py::arg("max_stacks") = 0, py::arg("device_time") = false)
      // Taken by reference (or checked): pybind lets an unbound call's None through as a null
      // shared_ptr or pointer (_TraceRecorder.start(None)).
      .def("start",
           [](std::shared_ptr<TraceRecorder> r) {
             OPSCOPE_CHECK_TYPE(r != nullptr, "start expects a _TraceRecorder");
             r->start(r);
           })
      .def("stop", [](TraceRecorder& r) { r.stop(); })
      .def(
          "events",
          [](TraceRecorder& r) {
            profiler::Recording rec = r.take();
            return events_to_py(rec, 0, rec.events.size(), /*stacks=*/true);
          },
          "The events recorded so far, as dicts (and forgets them).")
      .def(
          "take",
          [](TraceRecorder& r) {
            auto out = std::make_shared<PyRecording>();
            out->rec = r.take();
            out->dropped_items = r.dropped_items();
            out->dropped_ns = r.dropped_ns();
            return out;
          },
          "The recording so far, kept in C++ (and forgets it): a _Recording.");
  py::class_<PyRecording, std::shared_ptr<PyRecording>>(
      m, "_Recording", "A trace recorder's events, kept in C++ until asked for.")
      .def("__len__", [](const PyRecording& r) { return r.rec.events.size(); })
      .def_readonly("dropped_items", &PyRecording::dropped_items,
                    "Top-level items left out past the recorder's max_events.")
      .def_readonly("dropped_ns", &PyRecording::dropped_ns, "Their time, in ns.")
      .def(
          "events",
          [](PyRecording& r, size_t begin, std::optional<size_t> end, bool stacks) {
            size_t n = r.rec.events.size();
            size_t stop = std::min(end.value_or(n), n);
            return events_to_py(r.rec, std::min(begin, stop), stop, stacks);
          },
          py::arg("begin") = 0, py::arg("end") = py::none(), py::arg("stacks") = true,
          "Events [begin, end) as dicts. With stacks=True their stacks are handed over (once); "
          "with stacks=False they stay, and the dicts say None.")
      .def(
          "group_items",
          [](const PyRecording& r, size_t keep_items) {
            profiler::ItemGroups g = profiler::group_items(r.rec, keep_items);
            py::list groups, items;
            for (const profiler::ItemGroup& x : g.groups)
              groups.append(py::make_tuple(span_to_py(x.first), x.count, x.total_ns, x.values_vary));
            for (const profiler::ItemSpan& s : g.items) items.append(span_to_py(s));
            return py::make_tuple(groups, items, g.item_count);
          },
          py::arg("keep_items"),
          "The top-level items grouped by how they ran (Note [Folding a loop]): (groups, items, "
          "count) — groups as (first item, count, total_ns, values_vary) in order of first "
          "appearance, the first keep_items items, and how many there were; an item is (begin, "
          "end, thread, start_ns, duration_ns, group), its first and last event's indices.");
  m.def("_now_ns", &profiler::now_ns, "CLOCK_MONOTONIC in ns, the clock of trace timestamps.");

  m.def(
      "_record_function_enter", [](const std::string& name) { return record_scope_begin(name); },
      py::arg("name"),
      "Begins a user scope (observers see it); returns its id for _record_function_exit.");
  m.def(
      "_record_function_exit",
      [](uint64_t id, const std::string& name) { record_scope_end(id, name); }, py::arg("id"),
      py::arg("name"), "Ends the user scope `id` that _record_function_enter(name) began.");

  py::class_<PyOpCall, std::shared_ptr<PyOpCall>>(
      m, "_OpCall", "One call of an op, as an op hook sees it (opscope.profiler.add_hook).")
      .def_property_readonly("name", [](const PyOpCall& c) { return c.op.full_name(); })
      .def_property_readonly("key", [](const PyOpCall& c) { return std::string(to_string(c.key)); })
      .def_property_readonly("kernel", [](const PyOpCall& c) { return c.entry->kernel.name(); })
      .def_property_readonly(
          "provenance",
          [](const PyOpCall& c) { return std::string(trace_provenance(*c.entry)); })
      .def_readonly("step", &PyOpCall::step)
      .def_property_readonly("inputs", [](const PyOpCall& c) { return values_of(c.inputs); })
      .def_property_readonly("outputs",
                             [](const PyOpCall& c) -> py::object {
                               if (!c.exited || c.threw) return py::none();
                               return values_of(c.outputs);
                             })
      .def_readonly("threw", &PyOpCall::threw)
      .def("__repr__", [](const PyOpCall& c) {
        return "<OpCall " + c.op.full_name() + "[" + std::string(to_string(c.key)) + "]" +
               (c.exited ? (c.threw ? " threw>" : " returned>") : ">");
      });
  py::class_<profiler::OpHookHandle>(m, "_OpHookHandle")
      .def("remove", &profiler::OpHookHandle::remove, "Removes the hooks.");
  m.def(
      "_add_op_hook",
      [](py::object on_enter, py::object on_exit) {
        return profiler::add_op_hook(python_op_hook(std::move(on_enter), false),
                                     python_op_hook(std::move(on_exit), true));
      },
      py::arg("on_enter"), py::arg("on_exit"),
      "Calls on_enter(call) before and on_exit(call) after every op call (any thread) until "
      "the returned handle's remove().");
}

}  // namespace opscope::python
