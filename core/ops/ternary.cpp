// The ternary family's schemas (see core/ops/ternary.h for what each op does): one def row per
// overload, as native_functions.yaml. The CPU kernels register themselves at the end of
// core/ops/cpu/ternary.cpp.
#include "core/dispatch/Library.h"

namespace opscope {

static Library ternary_ops(Library::FRAGMENT, "aten", [](Library& m) {
  // self, tensor1, tensor2 broadcast to [*s] -> self + value * tensor1 * tensor2 [*s]
  m.def("addcmul(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor");
  m.def("addcmul_(Tensor(a!) self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) "
        "-> Tensor(a!)",
        Variants::Method);
  m.def("addcmul.out(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1, "
        "Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  // self, tensor1, tensor2 broadcast to [*s] -> self + value * tensor1 / tensor2 [*s]
  m.def("addcdiv(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor");
  m.def("addcdiv_(Tensor(a!) self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) "
        "-> Tensor(a!)",
        Variants::Method);
  m.def("addcdiv.out(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1, "
        "Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
});

}  // namespace opscope
