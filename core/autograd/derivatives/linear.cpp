// The derivative table's linear family (see core/autograd/Derivatives.h; core/ops/linear.h):
// products, each gradient the product of g with the other operand, shapes as in the forward.
#include "core/autograd/derivatives/common.h"
#include "core/ops/binary.h"
#include "core/ops/linear.h"
#include "core/ops/views.h"

namespace opscope::autograd {

namespace {
// torch's mm_mat1_backward / mm_mat2_backward: an operand stored column-major (a transposed
// weight, as linear passes it to addmm) gets its gradient column-major too, so a leaf's .grad
// obeys Note [Gradient layout contract] (core/autograd/Node.cpp) with no copy.
bool column_major(const Tensor& m) {
  return m.stride(0) == 1 && m.stride(1) == m.size(0);
}
// g (M,N), mat1 (M,K), mat2 (K,N) -> mat1's gradient (M,K)
Tensor mm_mat1_backward(const Tensor& g, const Tensor& mat1, const Tensor& mat2) {
  return column_major(mat1) ? ops::t(ops::mm(mat2, ops::t(g))) : ops::mm(g, ops::t(mat2));
}
// g (M,N), mat1 (M,K), mat2 (K,N) -> mat2's gradient (K,N)
Tensor mm_mat2_backward(const Tensor& g, const Tensor& mat1, const Tensor& mat2) {
  return column_major(mat2) ? ops::t(ops::mm(ops::t(g), mat1)) : ops::mm(ops::t(mat1), g);
}
}  // namespace

// clang-format off
std::vector<Derivative> linear_derivatives() {
  using namespace formulas;
  return {
      // mm(Tensor self, Tensor mat2) -> Tensor: self (M,K), mat2 (K,N) -> (M,N)
      {.op = "mm", .node = "MmBackward0", .inputs = {"self", "mat2"}, .save = {"self", "mat2"},
       .save_for = {{"self", "mat2"}, {"self", "self"}, {"mat2", "self"}, {"mat2", "mat2"}},
       .formula = [](C c, G g) -> variable_list {
         Tensor self = c.arg("self"), mat2 = c.arg("mat2");
         return {c.needs("self") ? mm_mat1_backward(g[0], self, mat2) : Tensor(),   // (M,N)(N,K)
                 c.needs("mat2") ? mm_mat2_backward(g[0], self, mat2) : Tensor()};  // (K,M)(M,N)
       }},
      // addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor:
      //   beta * self + alpha * mat1 (M,K) · mat2 (K,N)
      {.op = "addmm", .node = "AddmmBackward0", .inputs = {"self", "mat1", "mat2"},
       .save = {"mat1", "mat2"},
       .save_for = {{"mat1", "mat2"}, {"mat1", "mat1"}, {"mat2", "mat1"}, {"mat2", "mat2"}},
       .formula = [](C c, G g) -> variable_list {
         Scalar beta = c.value("beta").to_scalar(), alpha = c.value("alpha").to_scalar();
         Tensor m1 = c.needs("mat1") || c.needs("mat2") ? c.arg("mat1") : Tensor();
         Tensor m2 = m1.defined() ? c.arg("mat2") : Tensor();
         return {c.needs("self") ? times(g[0], beta) : Tensor(),
                 c.needs("mat1") ? times(mm_mat1_backward(g[0], m1, m2), alpha) : Tensor(),
                 c.needs("mat2") ? times(mm_mat2_backward(g[0], m1, m2), alpha) : Tensor()};
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
