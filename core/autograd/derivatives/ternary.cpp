// The derivative table's ternary family (see core/autograd/Derivatives.h; core/ops/ternary.h):
// three operands combined elementwise, value a Scalar weight. The engine sums a broadcast
// operand's gradient down to its shape and converts its dtype, so the formulas do neither.
#include "core/autograd/derivatives/common.h"
#include "core/ops/binary.h"
#include "core/ops/ternary.h"
#include "core/ops/unary.h"

namespace opscope::autograd {

// clang-format off
std::vector<Derivative> ternary_derivatives() {
  using namespace formulas;
  return {
      // addcmul(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor:
      // self + value * tensor1 * tensor2
      {.op = "addcmul", .node = "AddcmulBackward0", .inputs = {"self", "tensor1", "tensor2"},
       .save = {"tensor1", "tensor2"}, .save_for = {{"tensor1", "tensor2"}, {"tensor2", "tensor1"}},
       .formula = [](C c, G g) -> variable_list {
         Scalar value = c.value("value").to_scalar();
         return {g[0],                                                                 // grad
                 c.needs("tensor1") ? times(ops::mul(g[0], c.arg("tensor2")), value)   // grad * tensor2 * value
                                    : Tensor(),
                 c.needs("tensor2") ? times(ops::mul(g[0], c.arg("tensor1")), value)   // grad * tensor1 * value
                                    : Tensor()};
       },
       .inplace = {"addcmul_"}},
      // addcdiv(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor:
      // self + value * tensor1 / tensor2
      {.op = "addcdiv", .node = "AddcdivBackward0", .inputs = {"self", "tensor1", "tensor2"},
       .save = {"tensor1", "tensor2"}, .save_for = {{"tensor1", "tensor2"}},
       .formula = [](C c, G g) -> variable_list {
         Scalar value = c.value("value").to_scalar();
         Tensor t2 = c.arg("tensor2");
         return {g[0],                                                                 // grad
                 c.needs("tensor1") ? times(ops::div(g[0], t2), value)                  // grad * value / tensor2
                                    : Tensor(),
                 c.needs("tensor2")                                                    // -grad * value * tensor1 / tensor2^2
                     ? ops::neg(times(ops::div(ops::mul(g[0], c.arg("tensor1")), ops::mul(t2, t2)), value))
                     : Tensor()};
       },
       .inplace = {"addcdiv_"}},
  };
}
// clang-format on

}  // namespace opscope::autograd
