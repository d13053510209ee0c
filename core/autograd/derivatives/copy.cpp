// The derivative table's copy family (see core/autograd/Derivatives.h; core/ops/copy.h): copies,
// conversions and the in-place writes of whole tensors. A copy's gradient is g itself (the engine
// converts its dtype back); what a write overwrote gets none.
#include "core/autograd/derivatives/common.h"
#include "core/ops/reduce.h"

namespace opscope::autograd {

// clang-format off
std::vector<Derivative> copy_derivatives() {
  using namespace formulas;
  return {
      // clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor
      {.op = "clone", .node = "CloneBackward0", .inputs = {"self"}, .formula = unchanged},
      // _to_copy(Tensor self, *, ScalarType? dtype=None, ...) -> Tensor: the engine converts
      // g back to self's dtype
      {.op = "_to_copy", .node = "ToCopyBackward0", .inputs = {"self"}, .formula = unchanged},
      // copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!): self's old
      //   values are gone; src gets g (the engine sums a broadcast src and converts its dtype)
      {.op = "copy_", .node = "CopyBackwards", .inputs = {"self", "src"},
       .formula = [](C c, G g) -> variable_list {
         return {c.needs("self") ? zeros_like_arg(c, "self") : Tensor(), g[0]};
       }},
      // fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!)
      {.op = "fill_.Scalar", .node = "FillBackward2", .inputs = {"self"},
       .formula = [](C c, G) -> variable_list { return {zeros_like_arg(c, "self")}; }},
      // fill_.Tensor(Tensor(a!) self, Tensor value) -> Tensor(a!): value (0-d) gets the sum of g
      {.op = "fill_.Tensor", .node = "FillBackward3", .inputs = {"self", "value"},
       .formula = [](C c, G g) -> variable_list {
         return {c.needs("self") ? zeros_like_arg(c, "self") : Tensor(),
                 c.needs("value") ? ops::sum(g[0], ops::OptScalarType{}) : Tensor()};
       }},
      // zero_(Tensor(a!) self) -> Tensor(a!)
      {.op = "zero_", .node = "ZeroBackward0", .inputs = {"self"},
       .formula = [](C c, G) -> variable_list { return {zeros_like_arg(c, "self")}; }},
  };
}
// clang-format on

}  // namespace opscope::autograd
