// Python frames for the profiler's stacks (profiler/Stack.h), and the binding behind
// opscope.profiler.stack().
//
// Semantically this file tells a capture which Python frames the calling thread stands in, and
// later what they were (function, file, line). In implementation terms it reads CPython 3.11's
// frame stack directly (3.12's too) — tstate->cframe, one _PyCFrame per activation of the eval
// loop, each with its _PyInterpreterFrame chain (Include/internal/pycore_frame.h) — keeping a reference to each
// frame's code object and its instruction offset. See Note [Where the Python frames go] in
// profiler/Stack.cpp for how the frames are placed among the C++ ones.
#include <dlfcn.h>
#include <link.h>
#include <pybind11/stl.h>

#include <chrono>

#include <mutex>

#include "core/dispatch/Dispatcher.h"
#include "core/dispatch/Observer.h"
#include "core/python/python_common.h"
#include "core/runtime/Blas.h"
#include "profiler/Stack.h"

// The interpreter's frame layout is internal to CPython: reading it needs Py_BUILD_CORE for this
// one header. It is fixed within a minor version (3.11), which is the one the extension is built
// for (DESIGN.md: Python is Debian's).
#define Py_BUILD_CORE 1
#include <internal/pycore_frame.h>
#undef Py_BUILD_CORE

static_assert(PY_MAJOR_VERSION == 3 && (PY_MINOR_VERSION == 11 || PY_MINOR_VERSION == 12),
              "stacks.cpp reads CPython 3.11's and 3.12's frames: see Note [Where the Python "
              "frames go] in profiler/Stack.cpp");

namespace opscope::python {
namespace {

using profiler::PythonFrameRef;

// Appends this thread's Python frames, innermost first. Callable with or without the GIL: the
// frames of this thread do not change while it runs C++ code, and the references are taken with
// the GIL (taken here when the thread had released it, as the backward engine does) — so never
// capture with a lock held that a GIL holder can wait for: see Note [No Python object dies under
// a lock] in core/dispatch/Observer.cpp.
void capture_frames(std::vector<PythonFrameRef>& frames, std::vector<uintptr_t>& activations) {
  PyThreadState* ts = PyGILState_GetThisThreadState();  // this thread's, GIL or not
  if (ts == nullptr || ts->cframe == nullptr || ts->cframe->current_frame == nullptr) return;
  bool held = _PyThreadState_UncheckedGet() == ts;  // the thread holding the GIL is this one
  PyGILState_STATE gil{};
  if (!held) gil = PyGILState_Ensure();
  for (_PyCFrame* cf = ts->cframe; cf != nullptr; cf = cf->previous) {
    if (cf->current_frame == nullptr) continue;  // the thread's root: no activation
    auto anchor = reinterpret_cast<uintptr_t>(cf);
    activations.push_back(anchor);
    for (_PyInterpreterFrame* f = cf->current_frame; f != nullptr; f = f->previous) {
#if PY_MINOR_VERSION >= 12
      // 3.12 links each activation's frames to the previous one's through an entry frame that
      // lives on the C stack: the end of this activation.
      if (f->owner == FRAME_OWNED_BY_CSTACK) break;
#endif
      if (!_PyFrame_IsIncomplete(f)) {
        auto offset = static_cast<int32_t>(_PyInterpreterFrame_LASTI(f) * sizeof(_Py_CODEUNIT));
        frames.push_back({Py_NewRef(reinterpret_cast<PyObject*>(f->f_code)), offset, anchor, 0});
      }
#if PY_MINOR_VERSION == 11
      if (f->is_entry) break;  // the frame this activation started with
#endif
    }
  }
  if (!held) PyGILState_Release(gil);
}

// Takes the GIL when the thread does not hold it: a RawStack holding frames is not destroyed
// under a lock (Note [No Python object dies under a lock] in core/dispatch/Observer.cpp).
void release_frames(const PythonFrameRef* frames, size_t n) {
  if (python_is_going()) return;  // leave them
  PyGILState_STATE gil = PyGILState_Ensure();
  for (size_t i = 0; i < n; ++i)
    Py_DECREF(static_cast<PyObject*>(const_cast<void*>(frames[i].code)));
  PyGILState_Release(gil);
}

std::string utf8(PyObject* s) {
  const char* p = s != nullptr ? PyUnicode_AsUTF8(s) : nullptr;
  if (p == nullptr) {
    PyErr_Clear();
    return "?";
  }
  return p;
}

void describe_frame(const PythonFrameRef& frame, std::string& function, std::string& file,
                    int& line) {
  PyGILState_STATE gil = PyGILState_Ensure();
  auto* code = static_cast<PyCodeObject*>(const_cast<void*>(frame.code));
  function = utf8(code->co_qualname);
  file = utf8(code->co_filename);
  line = PyCode_Addr2Line(code, frame.instruction);
  PyGILState_Release(gil);
}

profiler::PythonFramesProvider make_provider() {
  profiler::PythonFramesProvider p{&capture_frames, &release_frames, &describe_frame};
  // The eval loop's code range, from its ELF symbol (Debian's python3.11 exports it).
  void* eval = reinterpret_cast<void*>(&_PyEval_EvalFrameDefault);
  Dl_info info;
  void* entry = nullptr;
  if (::dladdr1(eval, &info, &entry, RTLD_DL_SYMENT) != 0 && entry != nullptr) {
    p.eval_begin = reinterpret_cast<uintptr_t>(eval);
    p.eval_end = p.eval_begin + static_cast<const ElfW(Sym)*>(entry)->st_size;
  }
  return p;
}

// A captured stack as Python holds it: symbolized once, on demand.
struct PyRawStack {
  profiler::RawStack raw;
};

py::tuple frame_tuple(const profiler::Frame& f) {
  return py::make_tuple(f.function, f.file, f.line, f.module, std::string(to_string(f.layer)),
                        f.is_python, f.inlined, f.pc);
}

// Captures the stack at chosen points, for the tests and the benchmark (the trace recorder
// captures at each op's innermost kernel the same way): at every dispatch step of `op` on `key`
// ("" for any key), or, for op "blas", right before every BLAS routine (as a breakpoint there).
// Installed while it lives or until remove(): the observer and the BLAS hook hold it weakly.
class StackProbe {
 public:
  StackProbe(std::string op, std::string key, bool keep)
      : op_(std::move(op)), key_(std::move(key)), keep_(keep) {}
  ~StackProbe() { remove(); }

  static std::shared_ptr<StackProbe> install(std::string op, std::string key, bool keep);
  void remove();

  bool wants(const DispatchStep& step) const {
    return step.op->full_name() == op_ && (key_.empty() || to_string(step.chosen) == key_);
  }
  void keep(profiler::RawStack raw) {
    std::lock_guard<std::mutex> lock(mu_);
    ++count_;
    if (keep_) stacks_.push_back(std::move(raw));
  }
  size_t count() {
    std::lock_guard<std::mutex> lock(mu_);
    return count_;
  }
  std::vector<profiler::RawStack> take() {
    std::lock_guard<std::mutex> lock(mu_);
    return std::exchange(stacks_, {});
  }

 private:
  std::string op_, key_;
  bool keep_;
  ObserverHandle handle_;
  bool blas_ = false;
  std::mutex mu_;
  size_t count_ = 0;
  std::vector<profiler::RawStack> stacks_;
};

struct ProbeObserver final : DispatchObserver {
  std::weak_ptr<StackProbe> probe;
  void on_enter(const DispatchStep& step) override {
    std::shared_ptr<StackProbe> p = probe.lock();
    if (p && p->wants(step)) p->keep(profiler::capture_stack(/*skip=*/1));  // from the dispatcher
  }
  void on_exit(const DispatchStep&, const Stack*) override {}
};

std::mutex g_blas_probe_mu;
std::weak_ptr<StackProbe> g_blas_probe;

void on_blas_call(const char* /*routine*/, const void* entry) {
  std::shared_ptr<StackProbe> p;
  {
    std::lock_guard<std::mutex> lock(g_blas_probe_mu);
    p = g_blas_probe.lock();
  }
  if (p)
    p->keep(profiler::capture_stack(/*skip=*/1, entry));  // from the BLAS wrapper, callee first
}

std::shared_ptr<StackProbe> StackProbe::install(std::string op, std::string key, bool keep) {
  auto p = std::make_shared<StackProbe>(op, std::move(key), keep);
  if (op == "blas") {
    std::lock_guard<std::mutex> lock(g_blas_probe_mu);
    OPSCOPE_CHECK(g_blas_probe.expired(), "one BLAS stack probe at a time");
    g_blas_probe = p;
    p->blas_ = true;
    blas::add_call_hook(&on_blas_call);
  } else {
    auto o = std::make_shared<ProbeObserver>();
    o->probe = p;
    p->handle_ = add_dispatch_observer(o);
  }
  return p;
}

void StackProbe::remove() {
  handle_.reset();
  if (blas_) {
    blas::remove_call_hook(&on_blas_call);
    std::lock_guard<std::mutex> lock(g_blas_probe_mu);
    g_blas_probe.reset();
    blas_ = false;
  }
}

}  // namespace

py::object wrap_raw_stack(profiler::RawStack&& raw) {
  auto s = std::make_shared<PyRawStack>();
  s->raw = std::move(raw);
  return py::cast(s);
}

void init_stacks(py::module_& m) {
  static const profiler::PythonFramesProvider provider = make_provider();
  profiler::set_python_frames_provider(&provider);

  py::class_<PyRawStack, std::shared_ptr<PyRawStack>>(
      m, "_RawStack", "A captured stack: return addresses and Python frame references.")
      .def("__len__", [](const PyRawStack& s) { return s.raw.size(); })
      .def_property_readonly("num_python", [](const PyRawStack& s) { return s.raw.python.size(); })
      .def_property_readonly("num_native", [](const PyRawStack& s) { return s.raw.pcs.size(); })
      .def(
          "symbolize",
          [](const PyRawStack& s) {
            std::vector<profiler::Frame> frames;
            {
              py::gil_scoped_release no_gil;  // the first look-up reads DWARF: let others run
              frames = profiler::symbolize(s.raw);
            }
            py::list out;
            for (const profiler::Frame& f : frames) out.append(frame_tuple(f));
            return out;
          },
          "Frames, innermost first, as (function, file, line, module, layer, is_python, inlined, "
          "pc) tuples.");
  m.def(
      "_capture_stack",
      [](size_t drop_python) {
        auto s = std::make_shared<PyRawStack>();
        s->raw = profiler::capture_stack();
        s->raw.drop_through_python_frame(drop_python);
        return s;
      },
      py::arg("drop_python") = 0,
      "The calling thread's stack now; drop_python=n leaves out the n innermost Python frames and "
      "everything inside them.");
  py::class_<StackProbe, std::shared_ptr<StackProbe>>(
      m, "_StackProbe",
      "_StackProbe(op, key='', keep=True): captures the stack at every dispatch step of op (e.g. "
      "'aten::mm') on key ('' any), or before every BLAS routine for op='blas', until removed; "
      "keep=False drops each stack at once (for timing).")
      .def(py::init(&StackProbe::install), py::arg("op"), py::arg("key") = "",
           py::arg("keep") = true)
      .def("remove", &StackProbe::remove)
      .def_property_readonly("count", &StackProbe::count, "Stacks captured so far.")
      .def(
          "stacks",
          [](StackProbe& p) {
            py::list out;
            for (profiler::RawStack& raw : p.take()) {
              auto s = std::make_shared<PyRawStack>();
              s->raw = std::move(raw);
              out.append(py::cast(s));
            }
            return out;
          },
          "The stacks captured since the last call (each a _RawStack), oldest first.");
  m.def(
      "_capture_stats",
      [] {
        profiler::CaptureStats s = profiler::capture_stats();
        return py::make_tuple(s.fast, s.exact);
      },
      "(fast, exact): how many captures placed their Python frames by the fast unwinder alone, "
      "and how many needed the exact path.");
  m.def(
      "_time_capture_stack",
      [](int iterations) {
        // Timed in C++, without the call from Python: what a recorder pays per capture.
        auto t0 = std::chrono::steady_clock::now();
        size_t frames = 0;
        for (int i = 0; i < iterations; ++i) frames += profiler::capture_stack().size();
        std::chrono::duration<double, std::micro> dt = std::chrono::steady_clock::now() - t0;
        return py::make_tuple(dt.count() / std::max(iterations, 1),
                              frames / static_cast<size_t>(std::max(iterations, 1)));
      },
      py::arg("iterations"),
      "Captures the stack `iterations` times; returns (microseconds per capture, frames).");
}

}  // namespace opscope::python
