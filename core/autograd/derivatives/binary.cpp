// The derivative table (see core/autograd/Derivatives.h): for each differentiable op, the node
// PyTorch names and the formula of its backward, next to the forward it undoes. Gradients are
// written with ops, so they are differentiable themselves (create_graph). The engine sums a
// gradient down to a broadcast input's shape and converts its dtype, so formulas do neither.
#include <algorithm>
#include <cmath>

#include "core/autograd/GradMode.h"
#include "core/autograd/derivatives/common.h"
#include "core/ops/copy.h"
#include "core/ops/binary.h"
#include "core/ops/factories.h"
#include "core/ops/indexing.h"
#include "core/ops/linear.h"
#include "core/ops/nn.h"
#include "core/ops/unary.h"
#include "core/ops/reduce.h"
#include "core/ops/shape.h"
#include "core/ops/views.h"
#include "core/ops/compare.h"

namespace opscope::autograd {

namespace {

using namespace formulas;

// amax / amin (self, dim, keepdim): g shared among the extremes of each reduction.
variable_list extreme_over_dims_backward(C c, G g) {
  auto dims = reduced_dims(c.value("dim"), c.sizes("self").size());
  bool keep = c.value("keepdim").to_bool();
  Tensor r = unreduce(c.result(), c.sizes("self"), dims, keep);
  return {ops::mul(unreduce(g[0], c.sizes("self"), dims, keep), even_share(c.arg("self"), r, dims))};
}
// max() / min() of every element.
variable_list extreme_backward(C c, G g) {
  auto dims = reduced_dims(IValue(), c.sizes("self").size());
  return {ops::mul(ops::expand(g[0], c.sizes("self")),
                   even_share(c.arg("self"), ops::expand(c.result(), c.sizes("self")), dims))};
}
// max.dim / min.dim (self, dim, keepdim) -> (values, indices): g back at the indices.
variable_list extreme_dim_backward(C c, G g) {
  return {
      indexed_reduction_backward(c, g[0], c.result(1), c.value("dim").to_int(), c.value("keepdim").to_bool())};
}

}  // namespace

// clang-format off
std::vector<Derivative> core_table() {
  using namespace formulas;
  return {
      // --- arithmetic ------------------------------------------------------------------------
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
      // neg(Tensor self) -> Tensor
      {.op = "neg", .node = "NegBackward0", .inputs = {"self"},
       .formula = [](C, G g) -> variable_list { return {ops::neg(g[0])}; }, .inplace = {"neg_"}},
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

      // where.self(Tensor condition, Tensor self, Tensor other) -> Tensor: self where condition,
      // other elsewhere; the condition is not differentiable
      {.op = "where.self", .node = "WhereBackward0", .inputs = {"self", "other"},
       .save = {"condition"},
       .formula = [](C c, G g) -> variable_list {
         Tensor cond = c.arg("condition");
         return {c.needs("self") ? ops::where(cond, g[0], Scalar(0.0)) : Tensor(),
                 c.needs("other") ? ops::where(cond, Scalar(0.0), g[0]) : Tensor()};
       }},

      // --- unary math --------------------------------------------------------------------------
      // exp(Tensor self) -> Tensor: d/dself = result
      {.op = "exp", .node = "ExpBackward0", .inputs = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list { return {ops::mul(g[0], c.result())}; },
       .inplace = {"exp_"}},
      // log(Tensor self) -> Tensor: 1 / self
      {.op = "log", .node = "LogBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list { return {ops::div(g[0], c.arg("self"))}; },
       .inplace = {"log_"}},
      // sqrt(Tensor self) -> Tensor: 1 / (2 * result)
      {.op = "sqrt", .node = "SqrtBackward0", .inputs = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         return {ops::div(g[0], ops::mul(c.result(), 2.0))};
       },
       .inplace = {"sqrt_"}},
      // tanh(Tensor self) -> Tensor: 1 - result^2
      {.op = "tanh", .node = "TanhBackward0", .inputs = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         Tensor r = c.result();
         return {ops::mul(g[0], ops::rsub(ops::mul(r, r), Scalar(1)))};
       },
       .inplace = {"tanh_"}},
      // sigmoid(Tensor self) -> Tensor: result * (1 - result)
      {.op = "sigmoid", .node = "SigmoidBackward0", .inputs = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         Tensor r = c.result();
         return {ops::mul(g[0], ops::mul(r, ops::rsub(r, Scalar(1))))};
       },
       .inplace = {"sigmoid_"}},
      // relu(Tensor self) -> Tensor: 1 where result > 0
      {.op = "relu", .node = "ReluBackward0", .inputs = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         return {ops::mul(g[0], ops::gt(c.result(), Scalar(0)))};
       },
       .inplace = {"relu_"}},
      // abs(Tensor self) -> Tensor: sign(self)
      {.op = "abs", .node = "AbsBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::mul(g[0], ops::sign(c.arg("self")))};
       },
       .inplace = {"abs_"}},
      // sin(Tensor self) -> Tensor: cos(self)
      {.op = "sin", .node = "SinBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::mul(g[0], ops::cos(c.arg("self")))};
       },
       .inplace = {"sin_"}},
      // cos(Tensor self) -> Tensor: -sin(self)
      {.op = "cos", .node = "CosBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::neg(ops::mul(g[0], ops::sin(c.arg("self"))))};
       },
       .inplace = {"cos_"}},
      // reciprocal(Tensor self) -> Tensor: -result^2
      {.op = "reciprocal", .node = "ReciprocalBackward0", .inputs = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         Tensor r = c.result();
         return {ops::neg(ops::mul(g[0], ops::mul(r, r)))};
       },
       .inplace = {"reciprocal_"}},

      // --- reductions --------------------------------------------------------------------------
      // sum(Tensor self, *, ScalarType? dtype=None) -> Tensor: g everywhere
      {.op = "sum", .node = "SumBackward0", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list { return {ops::expand(g[0], c.sizes("self"))}; }},
      // sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None)
      {.op = "sum.dim_IntList", .node = "SumBackward1", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         auto dims = reduced_dims(c.value("dim"), c.sizes("self").size());
         return {unreduce(g[0], c.sizes("self"), dims, c.value("keepdim").to_bool())};
       }},
      // mean(Tensor self, *, ScalarType? dtype=None) -> Tensor: g / numel everywhere
      {.op = "mean", .node = "MeanBackward0", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         auto dims = reduced_dims(IValue(), c.sizes("self").size());
         return {ops::div(ops::expand(g[0], c.sizes("self")), Scalar(count(c.sizes("self"), dims)))};
       }},
      // mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None)
      {.op = "mean.dim", .node = "MeanBackward1", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         auto dims = reduced_dims(c.value("dim"), c.sizes("self").size());
         Tensor full = unreduce(g[0], c.sizes("self"), dims, c.value("keepdim").to_bool());
         return {ops::div(full, Scalar(count(c.sizes("self"), dims)))};
       }},

      // --- products ----------------------------------------------------------------------------
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

      // --- views and copies: the gradient takes the inverse path ---------------------------------
      // t(Tensor(a) self) -> Tensor(a)
      {.op = "t", .node = "TBackward0", .inputs = {"self"},
       .formula = [](C, G g) -> variable_list { return {ops::t(g[0])}; }},
      // transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)
      {.op = "transpose.int", .node = "TransposeBackward0", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::transpose(g[0], c.value("dim0").to_int(), c.value("dim1").to_int())};
       }},
      // permute(Tensor(a) self, int[] dims) -> Tensor(a): the inverse permutation
      {.op = "permute", .node = "PermuteBackward0", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         const auto& dims = c.value("dims").to_int_list();
         std::vector<int64_t> inverse(dims.size());
         for (size_t i = 0; i < dims.size(); ++i)
           inverse[static_cast<size_t>(wrap_dim(dims[i], static_cast<int64_t>(dims.size())))] =
               static_cast<int64_t>(i);
         return {ops::permute(g[0], inverse)};
       }},
      // view(Tensor(a) self, SymInt[] size) -> Tensor(a)
      {.op = "view", .node = "ViewBackward0", .inputs = {"self"}, .formula = to_input_shape},
      // _reshape_alias(Tensor(a) self, SymInt[] size, SymInt[] stride) -> Tensor(a)
      {.op = "_reshape_alias", .node = "ReshapeAliasBackward0", .inputs = {"self"},
       .formula = to_input_shape},
      // _unsafe_view(Tensor self, SymInt[] size) -> Tensor
      {.op = "_unsafe_view", .node = "UnsafeViewBackward0", .inputs = {"self"},
       .formula = to_input_shape},
      // unsqueeze(Tensor(a) self, int dim) -> Tensor(a)
      {.op = "unsqueeze", .node = "UnsqueezeBackward0", .inputs = {"self"},
       .formula = to_input_shape},
      // squeeze(Tensor(a) self) -> Tensor(a)
      {.op = "squeeze", .node = "SqueezeBackward0", .inputs = {"self"}, .formula = to_input_shape},
      // squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)
      {.op = "squeeze.dim", .node = "SqueezeBackward1", .inputs = {"self"},
       .formula = to_input_shape},
      // expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a): the engine
      // sums g over the expanded dims (as for any broadcast input)
      {.op = "expand", .node = "ExpandBackward0", .inputs = {"self"}, .formula = unchanged},
      // clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor
      {.op = "clone", .node = "CloneBackward0", .inputs = {"self"}, .formula = unchanged},
      // _to_copy(Tensor self, *, ScalarType? dtype=None, ...) -> Tensor: the engine converts
      // g back to self's dtype
      {.op = "_to_copy", .node = "ToCopyBackward0", .inputs = {"self"}, .formula = unchanged},

      // --- softmax -----------------------------------------------------------------------------
      // _softmax(Tensor self, int dim, bool half_to_float) -> Tensor:
      //   result * (g - sum(g * result, dim))
      {.op = "_softmax", .node = "SoftmaxBackward0", .inputs = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         Tensor y = c.result();
         int64_t dims[1] = {c.value("dim").to_int()};
         Tensor s = ops::sum(ops::mul(g[0], y), IntArrayRef(dims, 1), true, std::nullopt);
         return {ops::mul(y, ops::sub(g[0], s))};
       }},
      // _log_softmax(Tensor self, int dim, bool half_to_float) -> Tensor:
      //   g - exp(result) * sum(g, dim)
      {.op = "_log_softmax", .node = "LogSoftmaxBackward0", .inputs = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         int64_t dims[1] = {c.value("dim").to_int()};
         Tensor s = ops::sum(g[0], IntArrayRef(dims, 1), true, std::nullopt);
         return {ops::sub(g[0], ops::mul(ops::exp(c.result()), s))};
       }},

      // --- more unary math ---------------------------------------------------------------------
      // erf(Tensor self) -> Tensor: 2 / sqrt(pi) * exp(-self^2)
      {.op = "erf", .node = "ErfBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("self");
         return {ops::mul(g[0], ops::mul(ops::exp(ops::neg(ops::mul(x, x))), 1.1283791670955126))};
       },
       .inplace = {"erf_"}},
      // log1p(Tensor self) -> Tensor: 1 / (1 + self)
      {.op = "log1p", .node = "Log1PBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::div(g[0], ops::add(c.arg("self"), Scalar(1)))};
       },
       .inplace = {"log1p_"}},
      // expm1(Tensor self) -> Tensor: result + 1
      {.op = "expm1", .node = "Expm1Backward0", .inputs = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         return {ops::mul(g[0], ops::add(c.result(), Scalar(1)))};
       },
       .inplace = {"expm1_"}},
      // gelu(Tensor self, *, str approximate="none") -> Tensor
      //   none: Phi(x) + x phi(x); tanh: d/dx 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
      {.op = "gelu", .node = "GeluBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("self");
         if (c.value("approximate").to_string() == "tanh") {
           constexpr double kBeta = 0.7978845608028654, kKappa = 0.044715;  // sqrt(2/pi)
           Tensor x2 = ops::mul(x, x);
           Tensor inner = ops::mul(ops::add(x, ops::mul(ops::mul(x2, x), kKappa)), kBeta);
           Tensor t = ops::tanh(inner);
           Tensor left = ops::mul(ops::add(t, Scalar(1)), 0.5);
           Tensor dinner = ops::mul(ops::add(ops::mul(x2, 3 * kKappa), Scalar(1)), kBeta);
           Tensor right = ops::mul(ops::mul(ops::mul(x, 0.5), ops::rsub(ops::mul(t, t), Scalar(1))),
                                   dinner);
           return {ops::mul(g[0], ops::add(left, right))};
         }
         Tensor cdf = ops::mul(ops::add(ops::erf(ops::mul(x, 0.7071067811865476)), Scalar(1)), 0.5);
         Tensor pdf = ops::mul(ops::exp(ops::mul(ops::mul(x, x), -0.5)), 0.3989422804014327);
         return {ops::mul(g[0], ops::add(cdf, ops::mul(x, pdf)))};
       },
       .inplace = {"gelu_"}},
      // silu(Tensor self) -> Tensor: s (1 + x (1 - s)), s = sigmoid(x)
      {.op = "silu", .node = "SiluBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("self"), sg = ops::sigmoid(x);
         Tensor d = ops::mul(sg, ops::add(ops::mul(x, ops::rsub(sg, Scalar(1))), Scalar(1)));
         return {ops::mul(g[0], d)};
       },
       .inplace = {"silu_"}},
      // softplus(Tensor self, Scalar beta=1, Scalar threshold=20) -> Tensor:
      //   sigmoid(beta x), 1 where beta x > threshold (there the result is x itself)
      {.op = "softplus", .node = "SoftplusBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         Tensor bx = ops::mul(c.arg("self"), c.value("beta").to_scalar());
         Tensor d = ops::where(ops::gt(bx, c.value("threshold").to_scalar()), Scalar(1.0), ops::sigmoid(bx));
         return {ops::mul(g[0], d)};
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
      // masked_fill.Scalar(Tensor self, Tensor mask, Scalar value) -> Tensor: 0 where filled
      {.op = "masked_fill.Scalar", .node = "MaskedFillBackward0", .inputs = {"self"},
       .save = {"mask"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::masked_fill(g[0], c.arg("mask"), Scalar(0))};
       },
       .inplace = {"masked_fill_.Scalar"}},

      // --- more reductions ---------------------------------------------------------------------
      // amax(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor: shared among the maxima
      {.op = "amax", .node = "AmaxBackward0", .inputs = {"self"}, .save = {"self"},
       .save_result = true, .formula = extreme_over_dims_backward},
      // amin(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor
      {.op = "amin", .node = "AminBackward0", .inputs = {"self"}, .save = {"self"},
       .save_result = true, .formula = extreme_over_dims_backward},
      // max(Tensor self) -> Tensor / min(Tensor self) -> Tensor: shared among the extremes
      {.op = "max", .node = "MaxBackward1", .inputs = {"self"}, .save = {"self"},
       .save_result = true, .formula = extreme_backward},
      {.op = "min", .node = "MinBackward1", .inputs = {"self"}, .save = {"self"},
       .save_result = true, .formula = extreme_backward},
      // max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
      {.op = "max.dim", .node = "MaxBackward0", .inputs = {"self"}, .save_result = true,
       .formula = extreme_dim_backward, .outputs = 1},
      // min.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
      {.op = "min.dim", .node = "MinBackward0", .inputs = {"self"}, .save_result = true,
       .formula = extreme_dim_backward, .outputs = 1},
      // var.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) -> Tensor:
      //   2 (x - mean) / (N - correction)
      {.op = "var.correction", .node = "VarBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         auto dims = reduced_dims(c.value("dim"), c.sizes("self").size());
         double corr = c.value("correction").is_none() ? 1.0 : static_cast<double>(c.value("correction").to_int());
         Tensor x = c.arg("self");
         Tensor centered = ops::sub(x, ops::mean(x, IntArrayRef(dims), true, std::nullopt));
         Tensor gfull = unreduce(g[0], c.sizes("self"), dims, c.value("keepdim").to_bool());
         double n = static_cast<double>(count(c.sizes("self"), dims));
         return {ops::mul(ops::mul(gfull, centered), 2.0 / (n - corr))};
       }},
      // std.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) -> Tensor:
      //   var's gradient times 1 / (2 result)
      {.op = "std.correction", .node = "StdBackward0", .inputs = {"self"}, .save = {"self"},
       .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         auto dims = reduced_dims(c.value("dim"), c.sizes("self").size());
         double corr = c.value("correction").is_none() ? 1.0 : static_cast<double>(c.value("correction").to_int());
         bool keep = c.value("keepdim").to_bool();
         Tensor x = c.arg("self");
         Tensor centered = ops::sub(x, ops::mean(x, IntArrayRef(dims), true, std::nullopt));
         Tensor gstd = unreduce(ops::div(g[0], ops::mul(c.result(), 2.0)), c.sizes("self"), dims, keep);
         double n = static_cast<double>(count(c.sizes("self"), dims));
         return {ops::mul(ops::mul(gstd, centered), 2.0 / (n - corr))};
       }},
      // logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor: exp(self - result)
      {.op = "logsumexp", .node = "LogsumexpBackward0", .inputs = {"self"}, .save = {"self"},
       .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         auto dims = reduced_dims(c.value("dim"), c.sizes("self").size());
         bool keep = c.value("keepdim").to_bool();
         Tensor r = unreduce(c.result(), c.sizes("self"), dims, keep);
         return {ops::mul(unreduce(g[0], c.sizes("self"), dims, keep), ops::exp(ops::sub(c.arg("self"), r)))};
       }},
      // cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor: the reversed cumsum
      {.op = "cumsum", .node = "CumsumBackward0", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         int64_t d[1] = {c.value("dim").to_int()};
         IntArrayRef dim(d, 1);
         return {ops::flip(ops::cumsum(ops::flip(g[0], dim), d[0]), dim)};
       }},
      // flip(Tensor self, int[] dims) -> Tensor
      {.op = "flip", .node = "FlipBackward0", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::flip(g[0], c.value("dims").to_int_list())};
       }},

      // --- nn ------------------------------------------------------------------------------------
      // nll_loss_forward(Tensor self, Tensor target, Tensor? weight, int reduction,
      //                  int ignore_index) -> (Tensor output, Tensor total_weight)
      //   self (N,C) or (C), target (N) or (); d/dself[n, target[n]] = -weight[target[n]] * g
      //   (divided by the total weight for the mean), 0 for ignored targets
      {.op = "nll_loss_forward", .node = "NllLossBackward0", .inputs = {"self"},
       .save = {"target", "weight"},
       .formula = [](C c, G g) -> variable_list {
         Tensor target = c.arg("target"), weight = c.arg("weight");
         int64_t reduction = c.value("reduction").to_int(), ignore = c.value("ignore_index").to_int();
         int64_t classes = c.sizes("self").back();
         Tensor valid = ops::ne(target, Scalar(ignore));
         Tensor safe = ops::where(valid, target, Scalar(int64_t{0}));
         Tensor coef = ops::to(valid, c.dtype("self"));
         if (weight.defined())
           coef = ops::mul(coef, ops::view(ops::index_select(weight, 0, ops::reshape(safe, {-1})),
                                           safe.sizes()));
         if (reduction == 1) coef = ops::div(coef, ops::sum(coef, ops::OptScalarType{}));
         coef = ops::mul(coef, g[0]);
         return {ops::neg(ops::mul(ops::one_hot(safe, classes), ops::unsqueeze(coef, -1)))};
       },
       .outputs = 1},
      // mse_loss(Tensor self, Tensor target, int reduction=1) -> Tensor: 2 (self - target)
      {.op = "mse_loss", .node = "MseLossBackward0", .inputs = {"self", "target"},
       .save = {"self", "target"},
       .formula = [](C c, G g) -> variable_list {
         Tensor d = ops::mul(ops::mul(ops::sub(c.arg("self"), c.arg("target")), g[0]), 2.0);
         if (c.value("reduction").to_int() == 1) {
           int64_t n = 1;
           for (int64_t s : c.sizes("self")) n *= s;
           d = ops::div(d, Scalar(n));
         }
         return {c.needs("self") ? d : Tensor(), c.needs("target") ? ops::neg(d) : Tensor()};
       }},
      // binary_cross_entropy(Tensor self, Tensor target, Tensor? weight=None, int reduction=1):
      //   (self - target) / (self (1 - self)), the denominator at least 1e-12
      {.op = "binary_cross_entropy", .node = "BinaryCrossEntropyBackward0", .inputs = {"self"},
       .save = {"self", "target", "weight"},
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("self"), y = c.arg("target"), w = c.arg("weight");
         Tensor den = ops::clamp_min(ops::mul(x, ops::rsub(x, Scalar(1))), Scalar(1e-12));
         Tensor d = ops::mul(ops::div(ops::sub(x, y), den), g[0]);
         if (w.defined()) d = ops::mul(d, w);
         if (c.value("reduction").to_int() == 1) {
           int64_t n = 1;
           for (int64_t s : c.sizes("self")) n *= s;
           d = ops::div(d, Scalar(n));
         }
         return {d};
       }},
      // native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias,
      //                   float eps) -> (Tensor out, Tensor mean, Tensor rstd)
      //   xhat = (x - mean) rstd; dx = rstd (dxhat - mean(dxhat) - xhat mean(dxhat xhat)) over the
      //   normalized dims, dxhat = g weight; dweight = g xhat, dbias = g (the engine sums them
      //   down to weight's and bias's shape)
      {.op = "native_layer_norm", .node = "NativeLayerNormBackward0",
       .inputs = {"input", "weight", "bias"}, .save = {"input", "weight"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("input"), w = c.arg("weight"), mean = c.result(1), rstd = c.result(2);
         size_t k = c.value("normalized_shape").to_int_list().size(), nd = c.sizes("input").size();
         std::vector<int64_t> dims;
         for (size_t d = nd - k; d < nd; ++d) dims.push_back(static_cast<int64_t>(d));
         if (grad_mode_enabled()) {  // create_graph: mean and rstd as functions of x
           mean = ops::mean(x, IntArrayRef(dims), true, std::nullopt);
           Tensor var = ops::var(x, IntArrayRef(dims), int64_t{0}, true);
           rstd = ops::reciprocal(ops::sqrt(ops::add(var, Scalar(c.value("eps").to_double()))));
         }
         Tensor xhat = ops::mul(ops::sub(x, mean), rstd);
         Tensor dxhat = w.defined() ? ops::mul(g[0], w) : g[0];
         Tensor dx;
         if (c.needs("input")) {
           Tensor m1 = ops::mean(dxhat, IntArrayRef(dims), true, std::nullopt);
           Tensor m2 = ops::mean(ops::mul(dxhat, xhat), IntArrayRef(dims), true, std::nullopt);
           dx = ops::mul(rstd, ops::sub(ops::sub(dxhat, m1), ops::mul(xhat, m2)));
         }
         return {dx, c.needs("weight") ? ops::mul(g[0], xhat) : Tensor(), c.needs("bias") ? g[0] : Tensor()};
       },
       .outputs = 1},
      // native_dropout(Tensor input, float p, bool? train) -> (Tensor, Tensor mask):
      //   mask / (1 - p) in training, 1 otherwise
      {.op = "native_dropout", .node = "NativeDropoutBackward0", .inputs = {"input"},
       .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         bool train = c.value("train").is_none() || c.value("train").to_bool();
         if (!train) return {g[0]};
         double p = c.value("p").to_double();
         return {ops::mul(ops::mul(g[0], c.result(1)), p == 1.0 ? 0.0 : 1.0 / (1.0 - p))};
       },
       .outputs = 1},
      // embedding(Tensor weight, Tensor indices, int padding_idx=-1, ...) -> Tensor:
      //   each row of g summed into the row of weight it came from; padding_idx gets none
      {.op = "embedding", .node = "EmbeddingBackward0", .inputs = {"weight"}, .save = {"indices"},
       .formula = [](C c, G g) -> variable_list {
         Tensor idx = ops::reshape(c.arg("indices"), {-1});
         int64_t dim = c.sizes("weight").back(), pad = c.value("padding_idx").to_int();
         Tensor rows = ops::reshape(g[0], {-1, dim});
         if (pad >= 0) rows = ops::mul(rows, ops::unsqueeze(ops::ne(idx, Scalar(pad)), 1));
         return {ops::index_add(zeros_like_arg(c, "weight"), 0, idx, rows)};  // IndexAddBackward0 again
       }},
  };
}
// clang-format on

}  // namespace opscope::autograd
