// The elementwise family's declarations and C++ entry points: arithmetic (add, sub, rsub, mul,
// div, neg, pow). Comparisons and bitwise ops are in elementwise_compare.cpp. See
// core/ops/elementwise.h; kernels in core/ops/cpu/elementwise.cpp and
// core/ops/composite/elementwise.cpp.
#include "core/dispatch/Library.h"
#include "core/ops/elementwise_kernels.h"

namespace opscope {

static Library elementwise_ops(Library::FRAGMENT, "aten", [](Library& m) {
  m.def("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  m.impl("add.Tensor", DispatchKey::CPU, fn<&cpu::add>);
  m.def("add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)");
  m.impl("add_.Tensor", DispatchKey::CPU, fn<&cpu::add_>);
  m.def("add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("add.out", DispatchKey::CPU, fn<&cpu::add_out>);
  m.def("add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor");
  m.impl("add.Scalar", DispatchKey::CompositeExplicitAutograd, fn<&composite::add_scalar>);
  m.def("add_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)");
  m.impl("add_.Scalar", DispatchKey::CompositeExplicitAutograd, fn<&composite::add_scalar_>);
  m.def("sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  m.impl("sub.Tensor", DispatchKey::CPU, fn<&cpu::sub>);
  m.def("sub_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)");
  m.impl("sub_.Tensor", DispatchKey::CPU, fn<&cpu::sub_>);
  m.def("sub.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("sub.out", DispatchKey::CPU, fn<&cpu::sub_out>);
  m.def("sub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor");
  m.impl("sub.Scalar", DispatchKey::CompositeExplicitAutograd, fn<&composite::sub_scalar>);
  m.def("sub_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)");
  m.impl("sub_.Scalar", DispatchKey::CompositeExplicitAutograd, fn<&composite::sub_scalar_>);
  m.def("rsub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", Variants::Function);
  m.impl("rsub.Tensor", DispatchKey::CPU, fn<&cpu::rsub>);
  m.def("rsub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", Variants::Function);
  m.impl("rsub.Scalar", DispatchKey::CompositeExplicitAutograd, fn<&composite::rsub_scalar>);
  m.def("mul.Tensor(Tensor self, Tensor other) -> Tensor");
  m.impl("mul.Tensor", DispatchKey::CPU, fn<&cpu::mul>);
  m.def("mul_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)");
  m.impl("mul_.Tensor", DispatchKey::CPU, fn<&cpu::mul_>);
  m.def("mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("mul.out", DispatchKey::CPU, fn<&cpu::mul_out>);
  m.def("mul.Scalar(Tensor self, Scalar other) -> Tensor");
  m.impl("mul.Scalar", DispatchKey::CompositeExplicitAutograd, fn<&composite::mul_scalar>);
  m.def("mul_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)");
  m.impl("mul_.Scalar", DispatchKey::CompositeExplicitAutograd, fn<&composite::mul_scalar_>);
  m.def("div.Tensor(Tensor self, Tensor other) -> Tensor");
  m.impl("div.Tensor", DispatchKey::CPU, fn<&cpu::div>);
  m.def("div_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)");
  m.impl("div_.Tensor", DispatchKey::CPU, fn<&cpu::div_>);
  m.def("div.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("div.out", DispatchKey::CPU, fn<&cpu::div_out>);
  m.def("div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor");
  m.impl("div.Tensor_mode", DispatchKey::CPU, fn<&cpu::div_mode>);
  m.def("div_.Tensor_mode(Tensor(a!) self, Tensor other, *, str? rounding_mode) -> Tensor(a!)");
  m.impl("div_.Tensor_mode", DispatchKey::CPU, fn<&cpu::div_mode_>);
  m.def(
      "div.out_mode(Tensor self, Tensor other, *, str? rounding_mode, Tensor(a!) out) -> "
      "Tensor(a!)",
      Variants::Function);
  m.impl("div.out_mode", DispatchKey::CPU, fn<&cpu::div_out_mode>);
  m.def("div.Scalar(Tensor self, Scalar other) -> Tensor");
  m.impl("div.Scalar", DispatchKey::CompositeExplicitAutograd, fn<&composite::div_scalar>);
  m.def("div_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)");
  m.impl("div_.Scalar", DispatchKey::CompositeExplicitAutograd, fn<&composite::div_scalar_>);
  m.def("div.Scalar_mode(Tensor self, Scalar other, *, str? rounding_mode) -> Tensor");
  m.impl("div.Scalar_mode", DispatchKey::CompositeExplicitAutograd,
         fn<&composite::div_scalar_mode>);
  m.def("div_.Scalar_mode(Tensor(a!) self, Scalar other, *, str? rounding_mode) -> Tensor(a!)");
  m.impl("div_.Scalar_mode", DispatchKey::CompositeExplicitAutograd,
         fn<&composite::div_scalar_mode_>);
  m.def("neg(Tensor self) -> Tensor");
  m.impl("neg", DispatchKey::CPU, fn<&cpu::neg>);
  m.def("neg_(Tensor(a!) self) -> Tensor(a!)");
  m.impl("neg_", DispatchKey::CPU, fn<&cpu::neg_>);
  m.def("neg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.impl("neg.out", DispatchKey::CPU, fn<&cpu::neg_out>);
  m.def("pow.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor");
  m.impl("pow.Tensor_Tensor", DispatchKey::CPU, fn<&cpu::pow_tensor_tensor>);
  m.def("pow.Tensor_Scalar(Tensor self, Scalar exponent) -> Tensor");
  m.impl("pow.Tensor_Scalar", DispatchKey::CPU, fn<&cpu::pow_tensor_scalar>);
  m.def("pow.Scalar(Scalar self, Tensor exponent) -> Tensor");
  m.impl("pow.Scalar", DispatchKey::CPU, fn<&cpu::pow_scalar>);
  m.def("pow_.Scalar(Tensor(a!) self, Scalar exponent) -> Tensor(a!)");
  m.impl("pow_.Scalar", DispatchKey::CPU, fn<&cpu::pow_scalar_>);
  m.def("pow_.Tensor(Tensor(a!) self, Tensor exponent) -> Tensor(a!)");
  m.impl("pow_.Tensor", DispatchKey::CPU, fn<&cpu::pow_tensor_>);
  m.def("pow.Tensor_Tensor_out(Tensor self, Tensor exponent, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("pow.Tensor_Tensor_out", DispatchKey::CPU, fn<&cpu::pow_tensor_tensor_out>);
  m.def("pow.Tensor_Scalar_out(Tensor self, Scalar exponent, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("pow.Tensor_Scalar_out", DispatchKey::CPU, fn<&cpu::pow_tensor_scalar_out>);
  m.def("pow.Scalar_out(Scalar self, Tensor exponent, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.impl("pow.Scalar_out", DispatchKey::CPU, fn<&cpu::pow_scalar_out>);
});

}  // namespace opscope
