// The GIL around kernels called from Python. See gil.h.
#include "core/python/gil.h"

#include <pybind11/stl.h>

#include <atomic>

#include "core/python/python_common.h"

namespace opscope::python {

// Note [Releasing the GIL around kernels]
// An op called from Python (opscope.mm(a, b), t.sum(), ...) runs its kernel with the GIL released
// when the work is big enough, so that two Python threads running big matmuls or reductions use
// two cores, as PyTorch's bindings do (they release it around every op).
//
// When: giving the GIL away and taking it back costs ~0.1 us alone, and our whole call from
// Python on a 1-element tensor is ~0.3 us, so small ops keep it (the per-call overhead rows of
// tests/bench/bench_foundation.py do not move). With another thread running Python, taking it
// back may also wait for that thread's switch interval (5 ms): one more reason to keep it for
// small ops. An op releases it when its tensor arguments have kReleaseGilElements elements or
// more in all (for a factory, zeros(n) and the like with no tensor argument: its int[] size), and
// it is not a view op (a view only does metadata work, whatever the size). At 16384 float32
// elements an add takes ~2 us, and releasing and retaking the GIL is lost in its noise
// (tests/bench/bench_threads.py, row 2, measures both).
//
// Why it is safe: everything below call_boxed that calls Python takes the GIL itself — Python
// kernels (dispatch_tools.cpp), op hooks and observers (profiler.cpp), tensor and saved-tensor
// hooks (autograd.cpp), custom Functions (nodes.cpp), stack capture (stacks.cpp) — because the
// same code already runs without it in backward (the engine runs with the GIL released, see
// core/autograd/Engine.h) and on OpenMP threads. What lives on the stack meanwhile is C++ only
// (tensors, scalars, lists); the Python objects of the arguments are kept alive by the caller.
// A SIGINT during the kernel still raises KeyboardInterrupt: the kernel throws Interrupted (Note
// [Interrupting long ops] in core/runtime/Interrupt.cpp), the GIL is retaken as the exception
// leaves the scope, and the guard turns it into the Python exception.

namespace {

// kReleaseGilElements, or what _set_gil_release_elements set (-1: never release, nor look).
std::atomic<int64_t> g_release_elements{kReleaseGilElements};

int64_t product(const std::vector<int64_t>& sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) {
    if (s <= 0) return 0;
    if (__builtin_mul_overflow(n, s, &n)) return INT64_MAX;  // big enough
  }
  return n;
}

// PyEval_SaveThread / PyEval_RestoreThread as a scope (Py_BEGIN_ALLOW_THREADS as RAII).
class ReleasedGil {
 public:
  ReleasedGil() : state_(PyEval_SaveThread()) {}
  ~ReleasedGil() { PyEval_RestoreThread(state_); }
  ReleasedGil(const ReleasedGil&) = delete;
  ReleasedGil& operator=(const ReleasedGil&) = delete;

 private:
  PyThreadState* state_;
};

}  // namespace

bool worth_releasing_gil(const OperatorHandle& op, const Stack& stack) {
  const int64_t threshold = g_release_elements.load(std::memory_order_relaxed);
  if (threshold < 0) return false;
  int64_t elements = 0;
  bool any_tensor = false;
  const IValue* size = nullptr;  // the first int[]: a factory's size when no tensor is given
  for (const IValue& v : stack) {
    switch (v.tag()) {
      case IValue::Tag::Tensor:
        if (const Tensor& t = v.to_tensor(); t.defined()) elements += t->numel();
        any_tensor = true;
        break;
      case IValue::Tag::TensorList:
        for (const Tensor& t : v.to_tensor_list())
          if (t.defined()) elements += t->numel();
        any_tensor = true;
        break;
      case IValue::Tag::IntList:
        if (!size) size = &v;
        break;
      default:
        break;
    }
  }
  if (!any_tensor && size) elements = product(size->to_int_list());
  return elements >= threshold && !op.schema().is_view();
}

int64_t gil_release_elements() {
  return g_release_elements.load(std::memory_order_relaxed);
}

void init_gil(py::module_& m) {
  m.def(
      "_gil_release_probe",
      [](const std::string& op_name, py::args args) {
        Stack stack;
        for (py::handle a : args) {
          if (is_tensor(a.ptr())) {
            stack.emplace_back(unwrap(a.ptr()));
          } else if (py::isinstance<py::list>(a) && py::len(a) && is_tensor(a[py::int_(0)].ptr())) {
            std::vector<Tensor> list;
            for (py::handle t : a) list.push_back(unwrap(t.ptr()));
            stack.emplace_back(std::move(list));
          } else if (py::isinstance<py::list>(a)) {
            stack.emplace_back(a.cast<std::vector<int64_t>>());
          } else {
            stack.emplace_back(a.cast<int64_t>());
          }
        }
        return worth_releasing_gil(Dispatcher::singleton().find_by_full_name(op_name), stack);
      },
      "Whether a call of op_name with these arguments (tensors, lists of tensors or ints, ints) "
      "would run with the GIL released (tests).");
  m.def(
      "_set_gil_release_elements",
      [](int64_t n) { return g_release_elements.exchange(n < 0 ? -1 : n); },
      "Sets how many tensor elements make an op called from Python release the GIL (-1: never, "
      "without even looking: the behaviour before the GIL was released); returns the old value. "
      "For benchmarks and experiments.");
}

void call_op_from_python(const OperatorHandle& op, Stack* stack) {
  if (!worth_releasing_gil(op, *stack)) {
    op.call_boxed(stack);
    return;
  }
  ReleasedGil no_gil;
  op.call_boxed(stack);
}

}  // namespace opscope::python
