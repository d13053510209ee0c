// The derivative table's binary family (see core/autograd/Derivatives.h; core/ops/binary.h):
// two operands combined elementwise. The engine sums a broadcast operand's gradient down to its
// shape and converts its dtype, so the formulas do neither.
#include <cmath>

#include "core/autograd/derivatives/common.h"
#include "core/ops/binary.h"
#include "core/ops/compare.h"
#include "core/ops/unary.h"

namespace opscope::autograd {

namespace {

using namespace formulas;

// copysign's gradient for self: result / self, that is ±1, and 0 where self is 0.
Tensor copysign_self_gradient(C c, const Tensor& g) {
  Tensor self = c.arg("self");
  Tensor ratio = ops::div(c.result(), self);
  ops::masked_fill_(ratio, ops::eq(self, Scalar(0)), Scalar(0));
  return ops::mul(g, ratio);
}

// fmax / fmin: the gradient goes to self where `to_self`, to other elsewhere.
variable_list fmax_fmin_split(C c, const Tensor& g, const Tensor& to_self) {
  Tensor zero = ops::zeros_like(g);
  return {c.needs("self") ? ops::where(to_self, g, zero) : Tensor(),
          c.needs("other") ? ops::where(to_self, zero, g) : Tensor()};
}

}  // namespace

// clang-format off
std::vector<Derivative> binary_derivatives() {
  using namespace formulas;
  return {
      // add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor: self + alpha * other
      {.op = "add.Tensor", .node = "AddBackward0", .inputs = {"self", "other"},
       .formula = [](C c, G g) -> variable_list {
         return {g[0], times(g[0], c.value("alpha").to_scalar())};
       },
       .inplace = {"add_.Tensor"}},
      // add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor
      {.op = "add.Scalar", .node = "AddBackward1", .inputs = {"self"},
       .formula = [](C, G g) -> variable_list { return {g[0]}; }, .inplace = {"add_.Scalar"}},
      // sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor: self - alpha * other
      {.op = "sub.Tensor", .node = "SubBackward0", .inputs = {"self", "other"},
       .formula = [](C c, G g) -> variable_list {
         return {g[0], c.needs("other") ? ops::neg(times(g[0], c.value("alpha").to_scalar())) : Tensor()};
       },
       .inplace = {"sub_.Tensor"}},
      // sub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor
      {.op = "sub.Scalar", .node = "SubBackward1", .inputs = {"self"},
       .formula = [](C, G g) -> variable_list { return {g[0]}; }, .inplace = {"sub_.Scalar"}},
      // rsub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor: other - alpha * self
      {.op = "rsub.Tensor", .node = "RsubBackward0", .inputs = {"self", "other"},
       .formula = [](C c, G g) -> variable_list {
         return {c.needs("self") ? ops::neg(times(g[0], c.value("alpha").to_scalar())) : Tensor(), g[0]};
       }},
      // rsub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor: other - alpha * self
      {.op = "rsub.Scalar", .node = "RsubBackward1", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::neg(times(g[0], c.value("alpha").to_scalar()))};
       }},
      // mul.Tensor(Tensor self, Tensor other) -> Tensor: self * other
      {.op = "mul.Tensor", .node = "MulBackward0", .inputs = {"self", "other"},
       .save = {"self", "other"}, .save_for = {{"self", "other"}, {"other", "self"}},
       .formula = [](C c, G g) -> variable_list {
         return {c.needs("self") ? ops::mul(g[0], c.arg("other")) : Tensor(),
                 c.needs("other") ? ops::mul(g[0], c.arg("self")) : Tensor()};
       },
       .inplace = {"mul_.Tensor"}},
      // mul.Scalar(Tensor self, Scalar other) -> Tensor
      {.op = "mul.Scalar", .node = "MulBackward1", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::mul(g[0], c.value("other").to_scalar())};
       },
       .inplace = {"mul_.Scalar"}},
      // div.Tensor(Tensor self, Tensor other) -> Tensor: self / other
      {.op = "div.Tensor", .node = "DivBackward0", .inputs = {"self", "other"},
       .save = {"self", "other"}, .save_for = {{"self", "other"}},
       .formula = [](C c, G g) -> variable_list {
         Tensor other = c.arg("other");
         return {c.needs("self") ? ops::div(g[0], other) : Tensor(),
                 c.needs("other") ? ops::neg(ops::div(ops::mul(g[0], c.arg("self")), ops::mul(other, other)))
                            : Tensor()};
       },
       .inplace = {"div_.Tensor"}},
      // div.Scalar(Tensor self, Scalar other) -> Tensor
      {.op = "div.Scalar", .node = "DivBackward1", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::div(g[0], c.value("other").to_scalar())};
       },
       .inplace = {"div_.Scalar"}},
      // pow.Tensor_Scalar(Tensor self, Scalar exponent) -> Tensor: self ** e; e * self ** (e - 1)
      {.op = "pow.Tensor_Scalar", .node = "PowBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         double e = c.value("exponent").to_double();
         if (e == 0.0) return {ops::mul(g[0], 0.0)};
         return {ops::mul(ops::mul(g[0], e), ops::pow(c.arg("self"), Scalar(e - 1.0)))};
       },
       .inplace = {"pow_.Scalar"}},
      // pow.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor: self ** exponent
      //   d/dself = exponent * self ** (exponent - 1); d/dexponent = result * log(self), 0 where
      //   self == 0 and exponent >= 0 (torch's convention)
      {.op = "pow.Tensor_Tensor", .node = "PowBackward1", .inputs = {"self", "exponent"},
       .save = {"self", "exponent"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         Tensor self = c.arg("self"), e = c.arg("exponent");
         Tensor gs, ge;
         if (c.needs("self")) gs = ops::mul(ops::mul(g[0], e), ops::pow(self, ops::sub(e, Scalar(1))));
         if (c.needs("exponent")) {
           Tensor t = ops::mul(ops::mul(g[0], c.result()), ops::log(self));
           ge = ops::where(ops::logical_and(ops::eq(self, Scalar(0)), ops::ge(e, Scalar(0))),
                           Scalar(0.0), t);
         }
         return {gs, ge};
       }},
      // pow.Scalar(Scalar self, Tensor exponent) -> Tensor: self ** exponent; result * log(self)
      {.op = "pow.Scalar", .node = "PowBackward2", .inputs = {"exponent"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         return {ops::mul(ops::mul(g[0], c.result()), std::log(c.value("self").to_double()))};
       }},
      // maximum(Tensor self, Tensor other) -> Tensor: to the larger; ties share it
      {.op = "maximum", .node = "MaximumBackward0", .inputs = {"self", "other"},
       .save = {"self", "other"},
       .formula = [](C c, G g) -> variable_list {
         Tensor a = c.arg("self"), b = c.arg("other"), tie = ops::mul(ops::eq(a, b), 0.5);
         return {c.needs("self") ? ops::mul(g[0], ops::add(ops::gt(a, b), tie)) : Tensor(),
                 c.needs("other") ? ops::mul(g[0], ops::add(ops::lt(a, b), tie)) : Tensor()};
       }},
      // minimum(Tensor self, Tensor other) -> Tensor
      {.op = "minimum", .node = "MinimumBackward0", .inputs = {"self", "other"},
       .save = {"self", "other"},
       .formula = [](C c, G g) -> variable_list {
         Tensor a = c.arg("self"), b = c.arg("other"), tie = ops::mul(ops::eq(a, b), 0.5);
         return {c.needs("self") ? ops::mul(g[0], ops::add(ops::lt(a, b), tie)) : Tensor(),
                 c.needs("other") ? ops::mul(g[0], ops::add(ops::gt(a, b), tie)) : Tensor()};
       }},
      // atan2(Tensor self, Tensor other) -> Tensor: atan(self / other) in the right quadrant;
      //   d/dself = other / (self^2 + other^2), d/dother = -self / (self^2 + other^2)
      {.op = "atan2", .node = "Atan2Backward0", .inputs = {"self", "other"},
       .save = {"self", "other"},
       .formula = [](C c, G g) -> variable_list {
         Tensor y = c.arg("self"), x = c.arg("other");
         Tensor scale = ops::div(g[0], ops::add(ops::mul(y, y), ops::mul(x, x)));
         return {c.needs("self") ? ops::mul(scale, x) : Tensor(),
                 c.needs("other") ? ops::neg(ops::mul(scale, y)) : Tensor()};
       },
       .inplace = {"atan2_"}},
      // logaddexp(Tensor self, Tensor other) -> Tensor: each side's share, 1 / (1 + e^(other - self))
      {.op = "logaddexp", .node = "LogaddexpBackward0", .inputs = {"self", "other"},
       .save = {"self", "other"},
       .formula = [](C c, G g) -> variable_list {
         Tensor a = c.arg("self"), b = c.arg("other");
         auto share = [&](const Tensor& x, const Tensor& y) {
           return ops::div(g[0], ops::add(ops::exp(ops::sub(y, x)), Scalar(1)));
         };
         return {c.needs("self") ? share(a, b) : Tensor(), c.needs("other") ? share(b, a) : Tensor()};
       }},
      // logaddexp2(Tensor self, Tensor other) -> Tensor: 1 / (1 + 2^(other - self))
      {.op = "logaddexp2", .node = "Logaddexp2Backward0", .inputs = {"self", "other"},
       .save = {"self", "other"},
       .formula = [](C c, G g) -> variable_list {
         Tensor a = c.arg("self"), b = c.arg("other");
         auto share = [&](const Tensor& x, const Tensor& y) {
           return ops::div(g[0], ops::add(ops::pow(Scalar(2), ops::sub(y, x)), Scalar(1)));
         };
         return {c.needs("self") ? share(a, b) : Tensor(), c.needs("other") ? share(b, a) : Tensor()};
       }},
      // hypot(Tensor self, Tensor other) -> Tensor: self / result, other / result
      {.op = "hypot", .node = "HypotBackward0", .inputs = {"self", "other"},
       .save = {"self", "other"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         Tensor scale = ops::div(g[0], c.result());
         return {c.needs("self") ? ops::mul(scale, c.arg("self")) : Tensor(),
                 c.needs("other") ? ops::mul(scale, c.arg("other")) : Tensor()};
       },
       .inplace = {"hypot_"}},
      // copysign.Tensor(Tensor self, Tensor other) -> Tensor: result / self (±1), 0 where self
      //   is 0; other: 0
      {.op = "copysign.Tensor", .node = "CopysignBackward0", .inputs = {"self", "other"},
       .save = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         return {c.needs("self") ? copysign_self_gradient(c, g[0]) : Tensor(),
                 c.needs("other") ? zeros_like_arg(c, "other") : Tensor()};
       },
       .inplace = {"copysign_.Tensor"}},
      // copysign.Scalar(Tensor self, Scalar other) -> Tensor
      {.op = "copysign.Scalar", .node = "CopysignBackward1", .inputs = {"self"},
       .save = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list { return {copysign_self_gradient(c, g[0])}; },
       .inplace = {"copysign_.Scalar"}},
      // fmax(Tensor self, Tensor other) -> Tensor: to self where self >= other or other is NaN,
      //   else to other
      {.op = "fmax", .node = "FmaxBackward0", .inputs = {"self", "other"},
       .save = {"self", "other"},
       .formula = [](C c, G g) -> variable_list {
         Tensor b = c.arg("other");
         return fmax_fmin_split(c, g[0], ops::logical_or(ops::ge(c.arg("self"), b), ops::isnan(b)));
       }},
      // fmin(Tensor self, Tensor other) -> Tensor: to self where self <= other or other is NaN
      {.op = "fmin", .node = "FminBackward0", .inputs = {"self", "other"},
       .save = {"self", "other"},
       .formula = [](C c, G g) -> variable_list {
         Tensor b = c.arg("other");
         return fmax_fmin_split(c, g[0], ops::logical_or(ops::le(c.arg("self"), b), ops::isnan(b)));
       }},
      // xlogy.Tensor(Tensor self, Tensor other) -> Tensor: xlogy(self != 0, other), self / other
      {.op = "xlogy.Tensor", .node = "XlogyBackward0", .inputs = {"self", "other"},
       .save = {"self", "other"},
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("self"), y = c.arg("other");
         return {c.needs("self") ? ops::mul(g[0], ops::xlogy(ops::ne(x, Scalar(0)), y)) : Tensor(),
                 c.needs("other") ? ops::div(ops::mul(g[0], x), y) : Tensor()};
       },
       .inplace = {"xlogy_.Tensor"}},
      // xlogy.Scalar_Self(Scalar self, Tensor other) -> Tensor: self / other
      {.op = "xlogy.Scalar_Self", .node = "XlogyBackward1", .inputs = {"other"},
       .save = {"other"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::div(ops::mul(g[0], c.value("self").to_scalar()), c.arg("other"))};
       }},
      // xlogy.Scalar_Other(Tensor self, Scalar other) -> Tensor: xlogy(self != 0, other)
      {.op = "xlogy.Scalar_Other", .node = "XlogyBackward2", .inputs = {"self"},
       .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::mul(g[0], ops::xlogy(ops::ne(c.arg("self"), Scalar(0)),
                                           c.value("other").to_scalar()))};
       },
       .inplace = {"xlogy_.Scalar_Other"}},
      // heaviside(Tensor self, Tensor values) -> Tensor: no derivative in torch 1.13, whose node
      //   is named NotImplemented and fails when backward reaches it
      {.op = "heaviside", .node = "NotImplemented", .inputs = {"self", "values"},
       .formula = [](C, G) -> variable_list {
         throw Error("derivative for aten::heaviside is not implemented");
       },
       .inplace = {"heaviside_"}},
      // nextafter(Tensor self, Tensor other) -> Tensor: not implemented in torch 1.13 either
      {.op = "nextafter", .node = "NextafterBackward0", .inputs = {"self", "other"},
       .formula = [](C, G) -> variable_list {
         throw NotImplementedError("the derivative for 'nextafter' is not implemented.");
       },
       .inplace = {"nextafter_"}},
      // div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor: div's
      //   gradient without a rounding mode, zero with one (the result is piecewise constant)
      {.op = "div.Tensor_mode", .node = "DivBackward2", .inputs = {"self", "other"},
       .save = {"self", "other"},
       .formula = [](C c, G g) -> variable_list {
         if (!c.value("rounding_mode").is_none()) return {zeros_like_arg(c, "self"), zeros_like_arg(c, "other")};
         Tensor other = c.arg("other");
         return {c.needs("self") ? ops::div(g[0], other) : Tensor(),
                 c.needs("other") ? ops::neg(ops::div(ops::mul(g[0], c.arg("self")), ops::mul(other, other)))
                            : Tensor()};
       },
       .inplace = {"div_.Tensor_mode"}},
      // div.Scalar_mode(Tensor self, Scalar other, *, str? rounding_mode) -> Tensor
      {.op = "div.Scalar_mode", .node = "DivBackward3", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         if (!c.value("rounding_mode").is_none()) return {zeros_like_arg(c, "self")};
         return {ops::div(g[0], c.value("other").to_scalar())};
       },
       .inplace = {"div_.Scalar_mode"}},
      // fmod.Scalar(Tensor self, Scalar other) -> Tensor: self - other * trunc(self / other)
      {.op = "fmod.Scalar", .node = "FmodBackward0", .inputs = {"self"},
       .formula = unchanged, .inplace = {"fmod_.Scalar"}},
      // fmod.Tensor(Tensor self, Tensor other) -> Tensor: d/dother = -trunc(self / other)
      {.op = "fmod.Tensor", .node = "FmodBackward1", .inputs = {"self", "other"},
       .save = {"self", "other"},
       .formula = [](C c, G g) -> variable_list {
         return {g[0], c.needs("other") ? ops::neg(ops::mul(g[0], ops::trunc(ops::div(c.arg("self"), c.arg("other")))))
                                  : Tensor()};
       },
       .inplace = {"fmod_.Tensor"}},
      // remainder.Scalar(Tensor self, Scalar other) -> Tensor: self - other * floor(self / other)
      {.op = "remainder.Scalar", .node = "RemainderBackward0", .inputs = {"self"},
       .formula = unchanged, .inplace = {"remainder_.Scalar"}},
      // remainder.Tensor(Tensor self, Tensor other) -> Tensor: d/dother = -floor(self / other)
      {.op = "remainder.Tensor", .node = "RemainderBackward1", .inputs = {"self", "other"},
       .save = {"self", "other"},
       .formula = [](C c, G g) -> variable_list {
         return {g[0], c.needs("other") ? ops::neg(ops::mul(g[0], ops::floor(ops::div(c.arg("self"), c.arg("other")))))
                                  : Tensor()};
       },
       .inplace = {"remainder_.Tensor"}},
      // lerp.Scalar(Tensor self, Tensor end, Scalar weight) -> Tensor: self + w (end - self)
      {.op = "lerp.Scalar", .node = "LerpBackward0", .inputs = {"self", "end"},
       .formula = [](C c, G g) -> variable_list {
         double w = c.value("weight").to_double();
         return {ops::mul(g[0], 1.0 - w), ops::mul(g[0], w)};
       },
       .inplace = {"lerp_.Scalar"}},
      // lerp.Tensor(Tensor self, Tensor end, Tensor weight) -> Tensor
      {.op = "lerp.Tensor", .node = "LerpBackward1", .inputs = {"self", "end", "weight"},
       .save = {"self", "end", "weight"},
       .formula = [](C c, G g) -> variable_list {
         Tensor w = c.arg("weight");
         return {c.needs("self") ? ops::mul(g[0], ops::rsub(w, Scalar(1))) : Tensor(),
                 c.needs("end") ? ops::mul(g[0], w) : Tensor(),
                 c.needs("weight") ? ops::mul(g[0], ops::sub(c.arg("end"), c.arg("self"))) : Tensor()};
       },
       .inplace = {"lerp_.Tensor"}},
  };
}
// clang-format on

}  // namespace opscope::autograd
