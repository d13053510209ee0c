// The derivative table's compare family (see core/autograd/Derivatives.h; core/ops/compare.h):
// the ops that select by a comparison (where, clamp, ...): the gradient goes to what was
// selected.
#include "core/autograd/derivatives/common.h"
#include "core/ops/binary.h"
#include "core/ops/compare.h"
#include "core/ops/factories.h"
#include "core/ops/unary.h"

namespace opscope::autograd {

// clang-format off
std::vector<Derivative> compare_derivatives() {
  using namespace formulas;
  return {
      // where.self(Tensor condition, Tensor self, Tensor other) -> Tensor: self where condition,
      // other elsewhere; the condition is not differentiable
      {.op = "where.self", .node = "WhereBackward0", .inputs = {"self", "other"},
       .save = {"condition"},
       .formula = [](C c, G g) -> variable_list {
         Tensor cond = c.arg("condition");
         return {c.needs("self") ? ops::where(cond, g[0], Scalar(0.0)) : Tensor(),
                 c.needs("other") ? ops::where(cond, Scalar(0.0), g[0]) : Tensor()};
       }},
      // clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor: 1 inside [min, max]
      {.op = "clamp", .node = "ClampBackward1", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("self"), keep = ops::ones_like(x, ScalarType::Bool);
         if (!c.value("min").is_none())
           keep = ops::logical_and(keep, ops::ge(x, c.value("min").to_scalar()));
         if (!c.value("max").is_none())
           keep = ops::logical_and(keep, ops::le(x, c.value("max").to_scalar()));
         return {ops::mul(g[0], keep)};
       },
       .inplace = {"clamp_"}},
      // clamp_min(Tensor self, Scalar min) -> Tensor
      {.op = "clamp_min", .node = "ClampMinBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::mul(g[0], ops::ge(c.arg("self"), c.value("min").to_scalar()))};
       },
       .inplace = {"clamp_min_"}},
      // clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor:
      //   min(max(self, min), max): the gradient goes to whichever of the three is the result
      {.op = "clamp.Tensor", .node = "ClampBackward0", .inputs = {"self", "min", "max"},
       .save = {"self", "min", "max"},
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("self"), lo = c.arg("min"), hi = c.arg("max"), from_lo, from_hi;
         if (hi.defined())
           from_hi = lo.defined() ? ops::logical_or(ops::gt(x, hi), ops::gt(lo, hi)) : ops::gt(x, hi);
         if (lo.defined())
           from_lo = hi.defined() ? ops::logical_and(ops::lt(x, lo), ops::logical_not(from_hi))
                                  : ops::lt(x, lo);
         Tensor from_bound = !lo.defined() ? from_hi
                             : !hi.defined() ? from_lo : ops::logical_or(from_lo, from_hi);
         auto where = [&](const Tensor& m) { return ops::where(m, g[0], Scalar(0.0)); };
         return {c.needs("self") ? ops::where(from_bound, Scalar(0.0), g[0]) : Tensor(),
                 c.needs("min") ? where(from_lo) : Tensor(), c.needs("max") ? where(from_hi) : Tensor()};
       },
       .inplace = {"clamp_.Tensor"}},
      // clamp_max(Tensor self, Scalar max) -> Tensor: 1 where self <= max
      {.op = "clamp_max", .node = "ClampMaxBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::mul(g[0], ops::le(c.arg("self"), c.value("max").to_scalar()))};
       },
       .inplace = {"clamp_max_"}},
      // clamp_max.Tensor(Tensor self, Tensor max) -> Tensor
      {.op = "clamp_max.Tensor", .node = "ClampMaxBackward1", .inputs = {"self", "max"},
       .save = {"self", "max"},
       .formula = [](C c, G g) -> variable_list {
         Tensor keep = ops::le(c.arg("self"), c.arg("max"));
         return {c.needs("self") ? ops::where(keep, g[0], Scalar(0.0)) : Tensor(),
                 c.needs("max") ? ops::where(keep, Scalar(0.0), g[0]) : Tensor()};
       },
       .inplace = {"clamp_max_.Tensor"}},
      // clamp_min.Tensor(Tensor self, Tensor min) -> Tensor
      {.op = "clamp_min.Tensor", .node = "ClampMinBackward1", .inputs = {"self", "min"},
       .save = {"self", "min"},
       .formula = [](C c, G g) -> variable_list {
         Tensor keep = ops::ge(c.arg("self"), c.arg("min"));
         return {c.needs("self") ? ops::where(keep, g[0], Scalar(0.0)) : Tensor(),
                 c.needs("min") ? ops::where(keep, Scalar(0.0), g[0]) : Tensor()};
       },
       .inplace = {"clamp_min_.Tensor"}},
  };
}
// clang-format on

}  // namespace opscope::autograd
