// The elementwise family's declarations and C++ entry points, part two: comparisons (eq, ne, lt,
// le, gt, ge) and bitwise ops. See core/ops/elementwise.h; kernels in
// core/ops/cpu/elementwise_compare.cpp and core/ops/composite/elementwise.cpp.
#include "core/dispatch/Library.h"
#include "core/ops/elementwise_kernels.h"

namespace opscope {

static Library elementwise_compare_ops(Library::FRAGMENT, "aten", [](Library& m) {
  m.def("eq.Scalar(Tensor self, Scalar other) -> Tensor");
  m.impl("eq.Scalar", DispatchKey::CPU, fn<&cpu::eq_scalar>);
  m.def("eq.Tensor(Tensor self, Tensor other) -> Tensor");
  m.impl("eq.Tensor", DispatchKey::CPU, fn<&cpu::eq_tensor>);
  m.def("eq_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)");
  m.impl("eq_.Scalar", DispatchKey::CPU, fn<&cpu::eq_scalar_>);
  m.def("eq_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)");
  m.impl("eq_.Tensor", DispatchKey::CPU, fn<&cpu::eq_tensor_>);
  m.def("eq.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("eq.Scalar_out", DispatchKey::CPU, fn<&cpu::eq_scalar_out>);
  m.def("eq.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("eq.Tensor_out", DispatchKey::CPU, fn<&cpu::eq_tensor_out>);
  m.def("ne.Scalar(Tensor self, Scalar other) -> Tensor");
  m.impl("ne.Scalar", DispatchKey::CPU, fn<&cpu::ne_scalar>);
  m.def("ne.Tensor(Tensor self, Tensor other) -> Tensor");
  m.impl("ne.Tensor", DispatchKey::CPU, fn<&cpu::ne_tensor>);
  m.def("ne_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)");
  m.impl("ne_.Scalar", DispatchKey::CPU, fn<&cpu::ne_scalar_>);
  m.def("ne_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)");
  m.impl("ne_.Tensor", DispatchKey::CPU, fn<&cpu::ne_tensor_>);
  m.def("ne.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("ne.Scalar_out", DispatchKey::CPU, fn<&cpu::ne_scalar_out>);
  m.def("ne.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("ne.Tensor_out", DispatchKey::CPU, fn<&cpu::ne_tensor_out>);
  m.def("lt.Scalar(Tensor self, Scalar other) -> Tensor");
  m.impl("lt.Scalar", DispatchKey::CPU, fn<&cpu::lt_scalar>);
  m.def("lt.Tensor(Tensor self, Tensor other) -> Tensor");
  m.impl("lt.Tensor", DispatchKey::CPU, fn<&cpu::lt_tensor>);
  m.def("lt_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)");
  m.impl("lt_.Scalar", DispatchKey::CPU, fn<&cpu::lt_scalar_>);
  m.def("lt_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)");
  m.impl("lt_.Tensor", DispatchKey::CPU, fn<&cpu::lt_tensor_>);
  m.def("lt.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("lt.Scalar_out", DispatchKey::CPU, fn<&cpu::lt_scalar_out>);
  m.def("lt.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("lt.Tensor_out", DispatchKey::CPU, fn<&cpu::lt_tensor_out>);
  m.def("le.Scalar(Tensor self, Scalar other) -> Tensor");
  m.impl("le.Scalar", DispatchKey::CPU, fn<&cpu::le_scalar>);
  m.def("le.Tensor(Tensor self, Tensor other) -> Tensor");
  m.impl("le.Tensor", DispatchKey::CPU, fn<&cpu::le_tensor>);
  m.def("le_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)");
  m.impl("le_.Scalar", DispatchKey::CPU, fn<&cpu::le_scalar_>);
  m.def("le_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)");
  m.impl("le_.Tensor", DispatchKey::CPU, fn<&cpu::le_tensor_>);
  m.def("le.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("le.Scalar_out", DispatchKey::CPU, fn<&cpu::le_scalar_out>);
  m.def("le.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("le.Tensor_out", DispatchKey::CPU, fn<&cpu::le_tensor_out>);
  m.def("gt.Scalar(Tensor self, Scalar other) -> Tensor");
  m.impl("gt.Scalar", DispatchKey::CPU, fn<&cpu::gt_scalar>);
  m.def("gt.Tensor(Tensor self, Tensor other) -> Tensor");
  m.impl("gt.Tensor", DispatchKey::CPU, fn<&cpu::gt_tensor>);
  m.def("gt_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)");
  m.impl("gt_.Scalar", DispatchKey::CPU, fn<&cpu::gt_scalar_>);
  m.def("gt_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)");
  m.impl("gt_.Tensor", DispatchKey::CPU, fn<&cpu::gt_tensor_>);
  m.def("gt.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("gt.Scalar_out", DispatchKey::CPU, fn<&cpu::gt_scalar_out>);
  m.def("gt.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("gt.Tensor_out", DispatchKey::CPU, fn<&cpu::gt_tensor_out>);
  m.def("ge.Scalar(Tensor self, Scalar other) -> Tensor");
  m.impl("ge.Scalar", DispatchKey::CPU, fn<&cpu::ge_scalar>);
  m.def("ge.Tensor(Tensor self, Tensor other) -> Tensor");
  m.impl("ge.Tensor", DispatchKey::CPU, fn<&cpu::ge_tensor>);
  m.def("ge_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)");
  m.impl("ge_.Scalar", DispatchKey::CPU, fn<&cpu::ge_scalar_>);
  m.def("ge_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)");
  m.impl("ge_.Tensor", DispatchKey::CPU, fn<&cpu::ge_tensor_>);
  m.def("ge.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("ge.Scalar_out", DispatchKey::CPU, fn<&cpu::ge_scalar_out>);
  m.def("ge.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("ge.Tensor_out", DispatchKey::CPU, fn<&cpu::ge_tensor_out>);
  m.def("bitwise_and.Tensor(Tensor self, Tensor other) -> Tensor");
  m.impl("bitwise_and.Tensor", DispatchKey::CPU, fn<&cpu::bitwise_and>);
  m.def("bitwise_and.Scalar(Tensor self, Scalar other) -> Tensor");
  m.impl("bitwise_and.Scalar", DispatchKey::CompositeExplicitAutograd,
         fn<&composite::bitwise_and_scalar>);
  m.def("bitwise_and.Scalar_Tensor(Scalar self, Tensor other) -> Tensor");
  m.impl("bitwise_and.Scalar_Tensor", DispatchKey::CompositeExplicitAutograd,
         fn<&composite::bitwise_and_scalar_tensor>);
  m.def("bitwise_and_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)");
  m.impl("bitwise_and_.Tensor", DispatchKey::CPU, fn<&cpu::bitwise_and_>);
  m.def("bitwise_and_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)");
  m.impl("bitwise_and_.Scalar", DispatchKey::CompositeImplicitAutograd,
         fn<&composite::bitwise_and_scalar_>);
  m.def("bitwise_and.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("bitwise_and.Tensor_out", DispatchKey::CPU, fn<&cpu::bitwise_and_out>);
  m.def("bitwise_and.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("bitwise_and.Scalar_out", DispatchKey::CompositeExplicitAutograd,
         fn<&composite::bitwise_and_scalar_out>);
  m.def("bitwise_or.Tensor(Tensor self, Tensor other) -> Tensor");
  m.impl("bitwise_or.Tensor", DispatchKey::CPU, fn<&cpu::bitwise_or>);
  m.def("bitwise_or.Scalar(Tensor self, Scalar other) -> Tensor");
  m.impl("bitwise_or.Scalar", DispatchKey::CompositeExplicitAutograd,
         fn<&composite::bitwise_or_scalar>);
  m.def("bitwise_or.Scalar_Tensor(Scalar self, Tensor other) -> Tensor");
  m.impl("bitwise_or.Scalar_Tensor", DispatchKey::CompositeExplicitAutograd,
         fn<&composite::bitwise_or_scalar_tensor>);
  m.def("bitwise_or_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)");
  m.impl("bitwise_or_.Tensor", DispatchKey::CPU, fn<&cpu::bitwise_or_>);
  m.def("bitwise_or_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)");
  m.impl("bitwise_or_.Scalar", DispatchKey::CompositeImplicitAutograd,
         fn<&composite::bitwise_or_scalar_>);
  m.def("bitwise_or.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("bitwise_or.Tensor_out", DispatchKey::CPU, fn<&cpu::bitwise_or_out>);
  m.def("bitwise_or.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("bitwise_or.Scalar_out", DispatchKey::CompositeExplicitAutograd,
         fn<&composite::bitwise_or_scalar_out>);
  m.def("bitwise_xor.Tensor(Tensor self, Tensor other) -> Tensor");
  m.impl("bitwise_xor.Tensor", DispatchKey::CPU, fn<&cpu::bitwise_xor>);
  m.def("bitwise_xor.Scalar(Tensor self, Scalar other) -> Tensor");
  m.impl("bitwise_xor.Scalar", DispatchKey::CompositeExplicitAutograd,
         fn<&composite::bitwise_xor_scalar>);
  m.def("bitwise_xor.Scalar_Tensor(Scalar self, Tensor other) -> Tensor");
  m.impl("bitwise_xor.Scalar_Tensor", DispatchKey::CompositeExplicitAutograd,
         fn<&composite::bitwise_xor_scalar_tensor>);
  m.def("bitwise_xor_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)");
  m.impl("bitwise_xor_.Tensor", DispatchKey::CPU, fn<&cpu::bitwise_xor_>);
  m.def("bitwise_xor_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)");
  m.impl("bitwise_xor_.Scalar", DispatchKey::CompositeImplicitAutograd,
         fn<&composite::bitwise_xor_scalar_>);
  m.def("bitwise_xor.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("bitwise_xor.Tensor_out", DispatchKey::CPU, fn<&cpu::bitwise_xor_out>);
  m.def("bitwise_xor.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("bitwise_xor.Scalar_out", DispatchKey::CompositeExplicitAutograd,
         fn<&composite::bitwise_xor_scalar_out>);
  m.def("bitwise_not(Tensor self) -> Tensor");
  m.impl("bitwise_not", DispatchKey::CPU, fn<&cpu::bitwise_not>);
  m.def("bitwise_not_(Tensor(a!) self) -> Tensor(a!)");
  m.impl("bitwise_not_", DispatchKey::CPU, fn<&cpu::bitwise_not_>);
  m.def("bitwise_not.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("bitwise_not.out", DispatchKey::CPU, fn<&cpu::bitwise_not_out>);
});

}  // namespace opscope
