// When an op called from Python lets other Python threads run: the GIL is released around an op's
// kernel when its tensors are big enough for the kernel to take longer than giving the GIL away and
// taking it back. See Note [Releasing the GIL around kernels] in gil.cpp.
#pragma once

#include <pybind11/pybind11.h>

#include <initializer_list>

#include "core/dispatch/Dispatcher.h"

namespace opscope::python {

// Tensors (inputs, or the size of a factory's output) with at least this many elements in all
// make an op run with the GIL released (opscope._C._set_gil_release_elements changes it).
inline constexpr int64_t kReleaseGilElements = 16384;

// Whether the op about to run on `stack` is worth releasing the GIL for.
bool worth_releasing_gil(const OperatorHandle& op, const Stack& stack);

// op.call_boxed(stack), with the GIL released when worth_releasing_gil says so. Called with the
// GIL held; returns (or throws) with it held again.
void call_op_from_python(const OperatorHandle& op, Stack* stack);

// The threshold in force (kReleaseGilElements unless changed; -1: never release).
int64_t gil_release_elements();

// For callers of typed ops (the number-protocol slots: a @ b, a + b): `ReleaseGilFor
// no_gil({&a, &b});` releases the GIL until the end of its scope when the tensor operands have
// gil_release_elements() elements or more in all. The operands are not views' metadata ops: the
// caller knows its op does real work.
class ReleaseGilFor {
 public:
  explicit ReleaseGilFor(std::initializer_list<const Tensor*> operands) {
    int64_t threshold = gil_release_elements(), elements = 0;
    for (const Tensor* t : operands)
      if (t && t->defined()) elements += (*t)->numel();
    if (threshold >= 0 && elements >= threshold) state_ = PyEval_SaveThread();
  }
  ~ReleaseGilFor() {
    if (state_) PyEval_RestoreThread(state_);
  }
  ReleaseGilFor(const ReleaseGilFor&) = delete;
  ReleaseGilFor& operator=(const ReleaseGilFor&) = delete;

 private:
  PyThreadState* state_ = nullptr;
};


// opscope._C._gil_release_probe (tests).
void init_gil(pybind11::module_& m);

}  // namespace opscope::python
