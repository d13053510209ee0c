// The derivative table's linear family (see core/autograd/Derivatives.h; core/ops/linear.h):
// products, each gradient the product of g with the other operand, shapes as in the forward.
#include "core/autograd/derivatives/common.h"
#include "core/ops/binary.h"
#include "core/ops/linear.h"
#include "core/ops/views.h"

namespace opscope::autograd {

// clang-format off
std::vector<Derivative> linear_derivatives() {
  using namespace formulas;
  return {
      // mm(Tensor self, Tensor mat2) -> Tensor: self (M,K), mat2 (K,N) -> (M,N)
      {.op = "mm", .node = "MmBackward0", .inputs = {"self", "mat2"}, .save = {"self", "mat2"},
       .save_for = {{"self", "mat2"}, {"mat2", "self"}},
       .formula = [](C c, G g) -> variable_list {
         return {c.needs("self") ? ops::mm(g[0], ops::t(c.arg("mat2"))) : Tensor(),   // (M,N)(N,K)
                 c.needs("mat2") ? ops::mm(ops::t(c.arg("self")), g[0]) : Tensor()};  // (K,M)(M,N)
       }},
      // addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor:
      //   beta * self + alpha * mat1 (M,K) · mat2 (K,N)
      {.op = "addmm", .node = "AddmmBackward0", .inputs = {"self", "mat1", "mat2"},
       .save = {"mat1", "mat2"}, .save_for = {{"mat1", "mat2"}, {"mat2", "mat1"}},
       .formula = [](C c, G g) -> variable_list {
         Scalar beta = c.value("beta").to_scalar(), alpha = c.value("alpha").to_scalar();
         return {c.needs("self") ? times(g[0], beta) : Tensor(),
                 c.needs("mat1") ? times(ops::mm(g[0], ops::t(c.arg("mat2"))), alpha) : Tensor(),
                 c.needs("mat2") ? times(ops::mm(ops::t(c.arg("mat1")), g[0]), alpha) : Tensor()};
       },
       .inplace = {"addmm_"}},
      // bmm(Tensor self, Tensor mat2) -> Tensor: self (B,M,K), mat2 (B,K,N) -> (B,M,N)
      {.op = "bmm", .node = "BmmBackward0", .inputs = {"self", "mat2"}, .save = {"self", "mat2"},
       .save_for = {{"self", "mat2"}, {"mat2", "self"}},
       .formula = [](C c, G g) -> variable_list {
         return {c.needs("self") ? ops::bmm(g[0], ops::transpose(c.arg("mat2"), 1, 2)) : Tensor(),
                 c.needs("mat2") ? ops::bmm(ops::transpose(c.arg("self"), 1, 2), g[0]) : Tensor()};
       }},
      // dot(Tensor self, Tensor tensor) -> Tensor: (K) · (K) -> ()
      {.op = "dot", .node = "DotBackward0", .inputs = {"self", "tensor"},
       .save = {"self", "tensor"}, .save_for = {{"self", "tensor"}, {"tensor", "self"}},
       .formula = [](C c, G g) -> variable_list {
         return {c.needs("self") ? ops::mul(g[0], c.arg("tensor")) : Tensor(),
                 c.needs("tensor") ? ops::mul(g[0], c.arg("self")) : Tensor()};
       }},
      // mv(Tensor self, Tensor vec) -> Tensor: self (M,K) · vec (K) -> (M)
      {.op = "mv", .node = "MvBackward0", .inputs = {"self", "vec"}, .save = {"self", "vec"},
       .save_for = {{"self", "vec"}, {"vec", "self"}},
       .formula = [](C c, G g) -> variable_list {
         return {c.needs("self") ? ops::outer(g[0], c.arg("vec")) : Tensor(),
                 c.needs("vec") ? ops::mv(ops::t(c.arg("self")), g[0]) : Tensor()};
       }},
      // addmv(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) -> Tensor:
      //   beta * self + alpha * mat (M,K) · vec (K) -> (M)
      {.op = "addmv", .node = "AddmvBackward0", .inputs = {"self", "mat", "vec"},
       .save = {"mat", "vec"},
       .formula = [](C c, G g) -> variable_list {
         Scalar beta = c.value("beta").to_scalar(), alpha = c.value("alpha").to_scalar();
         return {c.needs("self") ? times(g[0], beta) : Tensor(),
                 c.needs("mat") ? times(ops::outer(g[0], c.arg("vec")), alpha) : Tensor(),    // (M)(K)
                 c.needs("vec") ? times(ops::mv(ops::t(c.arg("mat")), g[0]), alpha) : Tensor()};  // (K,M)(M)
       },
       .inplace = {"addmv_"}},
      // baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1):
      //   beta * self + alpha * batch1 (B,M,K) · batch2 (B,K,N) -> (B,M,N)
      {.op = "baddbmm", .node = "BaddbmmBackward0", .inputs = {"self", "batch1", "batch2"},
       .save = {"batch1", "batch2"},
       .formula = [](C c, G g) -> variable_list {
         Scalar beta = c.value("beta").to_scalar(), alpha = c.value("alpha").to_scalar();
         return {c.needs("self") ? times(g[0], beta) : Tensor(),
                 c.needs("batch1") ? times(ops::bmm(g[0], ops::transpose(c.arg("batch2"), 1, 2)), alpha) : Tensor(),
                 c.needs("batch2") ? times(ops::bmm(ops::transpose(c.arg("batch1"), 1, 2), g[0]), alpha) : Tensor()};
       },
       .inplace = {"baddbmm_"}},
      // vdot(Tensor self, Tensor other) -> Tensor: (K) · (K) -> () (real: dot)
      {.op = "vdot", .node = "VdotBackward0", .inputs = {"self", "other"},
       .save = {"self", "other"},
       .formula = [](C c, G g) -> variable_list {
         return {c.needs("self") ? ops::mul(g[0], c.arg("other")) : Tensor(),
                 c.needs("other") ? ops::mul(g[0], c.arg("self")) : Tensor()};
       }},
  };
}
// clang-format on

}  // namespace opscope::autograd
