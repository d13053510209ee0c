// The binary family's schemas (see core/ops/binary.h for what each op does): one def row per
// overload, as native_functions.yaml. The kernels register themselves at the end of the files
// that define them: core/ops/cpu/binary.cpp (add, sub, mul, div, neg, pow),
// core/ops/cpu/binary_more.cpp (remainder, fmod, atan2, lerp, logical, bitwise, shifts) and
// core/ops/composite/binary.cpp (the Scalar overloads); maximum / minimum in
// core/ops/cpu/compare.cpp, beside clamp, which is built on their kernel.
#include "core/dispatch/Library.h"

namespace opscope {

static Library binary_ops(Library::FRAGMENT, "aten", [](Library& m) {
  m.def("remainder.Tensor(Tensor self, Tensor other) -> Tensor");
  m.def("remainder_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", Variants::Method);
  m.def("remainder.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("remainder.Scalar(Tensor self, Scalar other) -> Tensor");
  m.def("remainder_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", Variants::Method);
  m.def("remainder.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("remainder.Scalar_Tensor(Scalar self, Tensor other) -> Tensor");
  m.def("remainder.Scalar_Tensor_out(Scalar self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("fmod.Tensor(Tensor self, Tensor other) -> Tensor");
  m.def("fmod_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", Variants::Method);
  m.def("fmod.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("fmod.Scalar(Tensor self, Scalar other) -> Tensor");
  m.def("fmod_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", Variants::Method);
  m.def("fmod.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("floor_divide(Tensor self, Tensor other) -> Tensor");
  m.def("floor_divide_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", Variants::Method);
  m.def("floor_divide.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("floor_divide.Scalar(Tensor self, Scalar other) -> Tensor");
  m.def("floor_divide_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", Variants::Method);
  m.def("atan2(Tensor self, Tensor other) -> Tensor");
  m.def("atan2_(Tensor(a!) self, Tensor other) -> Tensor(a!)", Variants::Method);
  m.def("atan2.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("arctan2(Tensor self, Tensor other) -> Tensor");
  m.def("arctan2_(Tensor(a!) self, Tensor other) -> Tensor(a!)", Variants::Method);
  m.def("arctan2.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("maximum(Tensor self, Tensor other) -> Tensor");
  m.def("maximum.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("minimum(Tensor self, Tensor other) -> Tensor");
  m.def("minimum.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("lerp.Scalar(Tensor self, Tensor end, Scalar weight) -> Tensor");
  m.def("lerp_.Scalar(Tensor(a!) self, Tensor end, Scalar weight) -> Tensor(a!)", Variants::Method);
  m.def("lerp.Scalar_out(Tensor self, Tensor end, Scalar weight, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("lerp.Tensor(Tensor self, Tensor end, Tensor weight) -> Tensor");
  m.def("lerp_.Tensor(Tensor(a!) self, Tensor end, Tensor weight) -> Tensor(a!)", Variants::Method);
  m.def("lerp.Tensor_out(Tensor self, Tensor end, Tensor weight, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("logical_and(Tensor self, Tensor other) -> Tensor");
  m.def("logical_and_(Tensor(a!) self, Tensor other) -> Tensor(a!)", Variants::Method);
  m.def("logical_and.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("logical_or(Tensor self, Tensor other) -> Tensor");
  m.def("logical_or_(Tensor(a!) self, Tensor other) -> Tensor(a!)", Variants::Method);
  m.def("logical_or.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("logical_xor(Tensor self, Tensor other) -> Tensor");
  m.def("logical_xor_(Tensor(a!) self, Tensor other) -> Tensor(a!)", Variants::Method);
  m.def("logical_xor.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("bitwise_left_shift.Tensor(Tensor self, Tensor other) -> Tensor");
  m.def("bitwise_left_shift_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)",
        Variants::Method);
  m.def("bitwise_left_shift.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("bitwise_left_shift.Tensor_Scalar(Tensor self, Scalar other) -> Tensor");
  m.def("bitwise_left_shift_.Tensor_Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)",
        Variants::Method);
  m.def(
      "bitwise_left_shift.Tensor_Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      Variants::Function);
  m.def("bitwise_left_shift.Scalar_Tensor(Scalar self, Tensor other) -> Tensor");
  m.def(
      "bitwise_left_shift.Scalar_Tensor_out(Scalar self, Tensor other, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      Variants::Function);
  m.def("bitwise_right_shift.Tensor(Tensor self, Tensor other) -> Tensor");
  m.def("bitwise_right_shift_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)",
        Variants::Method);
  m.def(
      "bitwise_right_shift.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
      Variants::Function);
  m.def("bitwise_right_shift.Tensor_Scalar(Tensor self, Scalar other) -> Tensor");
  m.def("bitwise_right_shift_.Tensor_Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)",
        Variants::Method);
  m.def(
      "bitwise_right_shift.Tensor_Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      Variants::Function);
  m.def("bitwise_right_shift.Scalar_Tensor(Scalar self, Tensor other) -> Tensor");
  m.def(
      "bitwise_right_shift.Scalar_Tensor_out(Scalar self, Tensor other, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      Variants::Function);
  m.def("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  m.def("add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)");
  m.def("add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor");
  m.def("add_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)");
  m.def("sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  m.def("sub_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)");
  m.def("sub.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("sub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor");
  m.def("sub_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)");
  m.def("rsub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", Variants::Function);
  m.def("rsub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", Variants::Function);
  m.def("mul.Tensor(Tensor self, Tensor other) -> Tensor");
  m.def("mul_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)");
  m.def("mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("mul.Scalar(Tensor self, Scalar other) -> Tensor");
  m.def("mul_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)");
  m.def("div.Tensor(Tensor self, Tensor other) -> Tensor");
  m.def("div_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)");
  m.def("div.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor");
  m.def("div_.Tensor_mode(Tensor(a!) self, Tensor other, *, str? rounding_mode) -> Tensor(a!)");
  m.def(
      "div.out_mode(Tensor self, Tensor other, *, str? rounding_mode, Tensor(a!) out) -> "
      "Tensor(a!)",
      Variants::Function);
  m.def("div.Scalar(Tensor self, Scalar other) -> Tensor");
  m.def("div_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)");
  m.def("div.Scalar_mode(Tensor self, Scalar other, *, str? rounding_mode) -> Tensor");
  m.def("div_.Scalar_mode(Tensor(a!) self, Scalar other, *, str? rounding_mode) -> Tensor(a!)");
  m.def("pow.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor");
  m.def("pow.Tensor_Scalar(Tensor self, Scalar exponent) -> Tensor");
  m.def("pow.Scalar(Scalar self, Tensor exponent) -> Tensor");
  m.def("pow_.Scalar(Tensor(a!) self, Scalar exponent) -> Tensor(a!)");
  m.def("pow_.Tensor(Tensor(a!) self, Tensor exponent) -> Tensor(a!)");
  m.def("pow.Tensor_Tensor_out(Tensor self, Tensor exponent, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("pow.Tensor_Scalar_out(Tensor self, Scalar exponent, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("pow.Scalar_out(Scalar self, Tensor exponent, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("bitwise_and.Tensor(Tensor self, Tensor other) -> Tensor");
  m.def("bitwise_and.Scalar(Tensor self, Scalar other) -> Tensor");
  m.def("bitwise_and.Scalar_Tensor(Scalar self, Tensor other) -> Tensor");
  m.def("bitwise_and_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)");
  m.def("bitwise_and_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)");
  m.def("bitwise_and.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("bitwise_and.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("bitwise_or.Tensor(Tensor self, Tensor other) -> Tensor");
  m.def("bitwise_or.Scalar(Tensor self, Scalar other) -> Tensor");
  m.def("bitwise_or.Scalar_Tensor(Scalar self, Tensor other) -> Tensor");
  m.def("bitwise_or_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)");
  m.def("bitwise_or_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)");
  m.def("bitwise_or.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("bitwise_or.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("bitwise_xor.Tensor(Tensor self, Tensor other) -> Tensor");
  m.def("bitwise_xor.Scalar(Tensor self, Scalar other) -> Tensor");
  m.def("bitwise_xor.Scalar_Tensor(Scalar self, Tensor other) -> Tensor");
  m.def("bitwise_xor_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)");
  m.def("bitwise_xor_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)");
  m.def("bitwise_xor.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("bitwise_xor.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);

  // Aliases (torch's other spellings; kernels in core/ops/composite/aliases.cpp): multiply = mul,
  // divide = true_divide = div, subtract = sub.
  m.def("multiply.Tensor(Tensor self, Tensor other) -> Tensor");
  m.def("multiply.Scalar(Tensor self, Scalar other) -> Tensor");
  m.def(
      "multiply.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
      Variants::Function);
  m.def("multiply_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", Variants::Method);
  m.def("multiply_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", Variants::Method);
  m.def("divide.Tensor(Tensor self, Tensor other) -> Tensor");
  m.def("divide.Scalar(Tensor self, Scalar other) -> Tensor");
  m.def("divide.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor");
  m.def("divide.Scalar_mode(Tensor self, Scalar other, *, str? rounding_mode) -> Tensor");
  m.def(
      "divide.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
      Variants::Function);
  m.def(
      "divide.out_mode(Tensor self, Tensor other, *, str? rounding_mode, Tensor(a!) out)"
      " -> Tensor(a!)",
      Variants::Function);
  m.def("divide_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", Variants::Method);
  m.def(
      "divide_.Tensor_mode(Tensor(a!) self, Tensor other, *, str? rounding_mode) -> Tensor(a!)",
      Variants::Method);
  m.def(
      "divide_.Scalar_mode(Tensor(a!) self, Scalar other, *, str? rounding_mode) -> Tensor(a!)",
      Variants::Method);
  m.def("divide_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", Variants::Method);
  m.def("true_divide.Tensor(Tensor self, Tensor other) -> Tensor");
  m.def("true_divide.Scalar(Tensor self, Scalar other) -> Tensor");
  m.def(
      "true_divide.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
      Variants::Function);
  m.def("true_divide_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", Variants::Method);
  m.def("true_divide_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", Variants::Method);
  m.def("subtract.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  m.def(
      "subtract.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
      Variants::Function);
  m.def("subtract.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor");
  m.def(
      "subtract_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)",
      Variants::Method);
  m.def(
      "subtract_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)",
      Variants::Method);

  // The math ops (kernels in core/ops/cpu/binary_math.cpp; the Scalar overloads, ldexp and
  // float_power composite, core/ops/composite/binary.cpp; special_xlogy an alias)
  m.def("logaddexp(Tensor self, Tensor other) -> Tensor");
  m.def("logaddexp.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("logaddexp2(Tensor self, Tensor other) -> Tensor");
  m.def("logaddexp2.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("hypot(Tensor self, Tensor other) -> Tensor");
  m.def("hypot_(Tensor(a!) self, Tensor other) -> Tensor(a!)", Variants::Method);
  m.def("hypot.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("copysign.Tensor(Tensor self, Tensor other) -> Tensor");
  m.def("copysign_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", Variants::Method);
  m.def("copysign.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("copysign.Scalar(Tensor self, Scalar other) -> Tensor");
  m.def("copysign_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", Variants::Method);
  m.def("copysign.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("fmax(Tensor self, Tensor other) -> Tensor");
  m.def("fmax.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("fmin(Tensor self, Tensor other) -> Tensor");
  m.def("fmin.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("xlogy.Tensor(Tensor self, Tensor other) -> Tensor");
  m.def("xlogy.Scalar_Self(Scalar self, Tensor other) -> Tensor", Variants::Function);
  m.def("xlogy.Scalar_Other(Tensor self, Scalar other) -> Tensor");
  m.def("xlogy_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)",
        Variants::FunctionAndMethod);
  m.def("xlogy_.Scalar_Other(Tensor(a!) self, Scalar other) -> Tensor(a!)",
        Variants::FunctionAndMethod);
  m.def("xlogy.OutTensor(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("xlogy.OutScalar_Self(Scalar self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("xlogy.OutScalar_Other(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("special_xlogy(Tensor self, Tensor other) -> Tensor", Variants::Function);
  m.def("special_xlogy.self_scalar(Scalar self, Tensor other) -> Tensor", Variants::Function);
  m.def("special_xlogy.other_scalar(Tensor self, Scalar other) -> Tensor", Variants::Function);
  m.def("special_xlogy.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def(
      "special_xlogy.self_scalar_out(Scalar self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
      Variants::Function);
  m.def(
      "special_xlogy.other_scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
      Variants::Function);
  m.def("heaviside(Tensor self, Tensor values) -> Tensor");
  m.def("heaviside_(Tensor(a!) self, Tensor values) -> Tensor(a!)", Variants::Method);
  m.def("heaviside.out(Tensor self, Tensor values, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("gcd(Tensor self, Tensor other) -> Tensor");
  m.def("gcd_(Tensor(a!) self, Tensor other) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("gcd.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("lcm(Tensor self, Tensor other) -> Tensor");
  m.def("lcm_(Tensor(a!) self, Tensor other) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("lcm.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("nextafter(Tensor self, Tensor other) -> Tensor");
  m.def("nextafter_(Tensor(a!) self, Tensor other) -> Tensor(a!)", Variants::Method);
  m.def("nextafter.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("ldexp.Tensor(Tensor self, Tensor other) -> Tensor");
  m.def("ldexp_(Tensor(a!) self, Tensor other) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("ldexp.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("float_power.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor");
  m.def("float_power.Tensor_Scalar(Tensor self, Scalar exponent) -> Tensor");
  m.def("float_power.Scalar(Scalar self, Tensor exponent) -> Tensor", Variants::Function);
  m.def("float_power_.Tensor(Tensor(a!) self, Tensor exponent) -> Tensor(a!)", Variants::Method);
  m.def("float_power_.Scalar(Tensor(a!) self, Scalar exponent) -> Tensor(a!)", Variants::Method);
  m.def(
      "float_power.Tensor_Tensor_out(Tensor self, Tensor exponent, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      Variants::Function);
  m.def(
      "float_power.Tensor_Scalar_out(Tensor self, Scalar exponent, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      Variants::Function);
  m.def("float_power.Scalar_out(Scalar self, Tensor exponent, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
});

}  // namespace opscope
