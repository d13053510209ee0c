// The compare family's schemas (see core/ops/compare.h for what each op does): one def row per
// overload, as native_functions.yaml. The kernels register themselves at the end of the files
// that define them: core/ops/cpu/compare.cpp (comparisons, clamp, where), core/ops/cpu/unary.cpp
// (isnan / isposinf / isneginf, beside the other classifications), core/ops/cpu/utility.cpp
// (equal) and core/ops/composite/compare.cpp.
#include "core/dispatch/Library.h"

namespace opscope {

static Library compare_ops(Library::FRAGMENT, "aten", [](Library& m) {
  m.def("clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor");
  m.def("clamp_(Tensor(a!) self, Scalar? min=None, Scalar? max=None) -> Tensor(a!)",
        Variants::FunctionAndMethod);
  m.def(
      "clamp.out(Tensor self, Scalar? min=None, Scalar? max=None, *, Tensor(a!) out) -> Tensor(a!)",
      Variants::Function);
  m.def("clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor");
  m.def("clamp_.Tensor(Tensor(a!) self, Tensor? min=None, Tensor? max=None) -> Tensor(a!)",
        Variants::FunctionAndMethod);
  m.def(
      "clamp.Tensor_out(Tensor self, Tensor? min=None, Tensor? max=None, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      Variants::Function);
  m.def("clip(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor");
  m.def("clip_(Tensor(a!) self, Scalar? min=None, Scalar? max=None) -> Tensor(a!)",
        Variants::FunctionAndMethod);
  m.def(
      "clip.out(Tensor self, Scalar? min=None, Scalar? max=None, *, Tensor(a!) out) -> Tensor(a!)",
      Variants::Function);
  m.def("clip.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor");
  m.def("clip_.Tensor(Tensor(a!) self, Tensor? min=None, Tensor? max=None) -> Tensor(a!)",
        Variants::FunctionAndMethod);
  m.def(
      "clip.Tensor_out(Tensor self, Tensor? min=None, Tensor? max=None, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      Variants::Function);
  m.def("clamp_min(Tensor self, Scalar min) -> Tensor");
  m.def("clamp_min_(Tensor(a!) self, Scalar min) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("clamp_min.out(Tensor self, Scalar min, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("clamp_min.Tensor(Tensor self, Tensor min) -> Tensor");
  m.def("clamp_min_.Tensor(Tensor(a!) self, Tensor min) -> Tensor(a!)",
        Variants::FunctionAndMethod);
  m.def("clamp_min.Tensor_out(Tensor self, Tensor min, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("clamp_max(Tensor self, Scalar max) -> Tensor");
  m.def("clamp_max_(Tensor(a!) self, Scalar max) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("clamp_max.out(Tensor self, Scalar max, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("clamp_max.Tensor(Tensor self, Tensor max) -> Tensor");
  m.def("clamp_max_.Tensor(Tensor(a!) self, Tensor max) -> Tensor(a!)",
        Variants::FunctionAndMethod);
  m.def("clamp_max.Tensor_out(Tensor self, Tensor max, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("where.self(Tensor condition, Tensor self, Tensor other) -> Tensor", Variants::Function);
  m.def(
      "where.self_out(Tensor condition, Tensor self, Tensor other, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      Variants::Function);
  m.def("where.ScalarSelf(Tensor condition, Scalar self, Tensor other) -> Tensor",
        Variants::Function);
  m.def("where.ScalarOther(Tensor condition, Tensor self, Scalar other) -> Tensor",
        Variants::Function);
  m.def("where.Scalar(Tensor condition, Scalar self, Scalar other) -> Tensor", Variants::Function);
  m.def("where(Tensor condition) -> Tensor[]", Variants::Function);
  m.def("isnan(Tensor self) -> Tensor");
  m.def("isnan.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("isinf(Tensor self) -> Tensor");
  m.def("isinf.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("isfinite(Tensor self) -> Tensor");
  // self [*s] -> True [*s]: no element of a real tensor has an imaginary part
  m.def("isreal(Tensor self) -> Tensor");
  m.def("isposinf(Tensor self) -> Tensor");
  m.def("isposinf.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("isneginf(Tensor self) -> Tensor");
  m.def("isneginf.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("eq.Scalar(Tensor self, Scalar other) -> Tensor");
  m.def("eq.Tensor(Tensor self, Tensor other) -> Tensor");
  m.def("eq_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)");
  m.def("eq_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)");
  m.def("eq.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("eq.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("ne.Scalar(Tensor self, Scalar other) -> Tensor");
  m.def("ne.Tensor(Tensor self, Tensor other) -> Tensor");
  m.def("ne_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)");
  m.def("ne_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)");
  m.def("ne.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("ne.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("lt.Scalar(Tensor self, Scalar other) -> Tensor");
  m.def("lt.Tensor(Tensor self, Tensor other) -> Tensor");
  m.def("lt_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)");
  m.def("lt_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)");
  m.def("lt.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("lt.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("le.Scalar(Tensor self, Scalar other) -> Tensor");
  m.def("le.Tensor(Tensor self, Tensor other) -> Tensor");
  m.def("le_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)");
  m.def("le_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)");
  m.def("le.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("le.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("gt.Scalar(Tensor self, Scalar other) -> Tensor");
  m.def("gt.Tensor(Tensor self, Tensor other) -> Tensor");
  m.def("gt_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)");
  m.def("gt_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)");
  m.def("gt.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("gt.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("ge.Scalar(Tensor self, Scalar other) -> Tensor");
  m.def("ge.Tensor(Tensor self, Tensor other) -> Tensor");
  m.def("ge_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)");
  m.def("ge_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)");
  m.def("ge.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("ge.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("equal(Tensor self, Tensor other) -> bool");
  m.def("is_same_size(Tensor self, Tensor other) -> bool");  // self.sizes() == other.sizes()
  m.def("is_nonzero(Tensor self) -> bool");  // bool(self) of a one-element tensor
  m.def(
      "isclose(Tensor self, Tensor other, float rtol=1e-05, float atol=1e-08, "
      "bool equal_nan=False) -> Tensor");
  m.def(
      "allclose(Tensor self, Tensor other, float rtol=1e-05, float atol=1e-08, "
      "bool equal_nan=False) -> bool");

  // Aliases (kernels in core/ops/composite/aliases.cpp): greater = gt, greater_equal = ge,
  // less = lt, less_equal = le, not_equal = ne.
  m.def("greater.Tensor(Tensor self, Tensor other) -> Tensor");
  m.def("greater.Scalar(Tensor self, Scalar other) -> Tensor");
  m.def(
      "greater.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
      Variants::Function);
  m.def(
      "greater.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
      Variants::Function);
  m.def("greater_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", Variants::Method);
  m.def("greater_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", Variants::Method);
  m.def("greater_equal.Tensor(Tensor self, Tensor other) -> Tensor");
  m.def("greater_equal.Scalar(Tensor self, Scalar other) -> Tensor");
  m.def(
      "greater_equal.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
      Variants::Function);
  m.def(
      "greater_equal.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
      Variants::Function);
  m.def("greater_equal_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", Variants::Method);
  m.def("greater_equal_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", Variants::Method);
  m.def("less.Tensor(Tensor self, Tensor other) -> Tensor");
  m.def("less.Scalar(Tensor self, Scalar other) -> Tensor");
  m.def(
      "less.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
      Variants::Function);
  m.def(
      "less.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
      Variants::Function);
  m.def("less_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", Variants::Method);
  m.def("less_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", Variants::Method);
  m.def("less_equal.Tensor(Tensor self, Tensor other) -> Tensor");
  m.def("less_equal.Scalar(Tensor self, Scalar other) -> Tensor");
  m.def(
      "less_equal.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
      Variants::Function);
  m.def(
      "less_equal.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
      Variants::Function);
  m.def("less_equal_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", Variants::Method);
  m.def("less_equal_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", Variants::Method);
  m.def("not_equal.Tensor(Tensor self, Tensor other) -> Tensor");
  m.def("not_equal.Scalar(Tensor self, Scalar other) -> Tensor");
  m.def(
      "not_equal.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)",
      Variants::Function);
  m.def(
      "not_equal.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)",
      Variants::Function);
  m.def("not_equal_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", Variants::Method);
  m.def("not_equal_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", Variants::Method);
});

}  // namespace opscope
