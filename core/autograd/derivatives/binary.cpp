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
  auto dims = reduced_dims(c.value(1), c.sizes(0).size());
  bool keep = c.value(2).to_bool();
  Tensor r = unreduce(c.result(), c.sizes(0), dims, keep);
  return {ops::mul(unreduce(g[0], c.sizes(0), dims, keep), even_share(c.arg(0), r, dims))};
}
// max() / min() of every element.
variable_list extreme_backward(C c, G g) {
  auto dims = reduced_dims(IValue(), c.sizes(0).size());
  return {ops::mul(ops::expand(g[0], c.sizes(0)),
                   even_share(c.arg(0), ops::expand(c.result(), c.sizes(0)), dims))};
}
// max.dim / min.dim (self, dim, keepdim) -> (values, indices): g back at the indices.
variable_list extreme_dim_backward(C c, G g) {
  return {
      indexed_reduction_backward(c, g[0], c.result(1), c.value(1).to_int(), c.value(2).to_bool())};
}

}  // namespace

// clang-format off
std::vector<Derivative> core_table() {
  using namespace formulas;
  return {
      // --- arithmetic ------------------------------------------------------------------------
      // add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor: self + alpha * other
      {"aten::add.Tensor", "AddBackward0", {0, 1}, {}, false,
       [](C c, G g) -> variable_list { return {g[0], times(g[0], c.value(2).to_scalar())}; },
       {"aten::add_.Tensor"}},
      // add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor
      {"aten::add.Scalar", "AddBackward1", {0}, {}, false,
       [](C, G g) -> variable_list { return {g[0]}; }, {"aten::add_.Scalar"}},
      // sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor: self - alpha * other
      {"aten::sub.Tensor", "SubBackward0", {0, 1}, {}, false,
       [](C c, G g) -> variable_list {
         return {g[0], c.needs(1) ? ops::neg(times(g[0], c.value(2).to_scalar())) : Tensor()};
       },
       {"aten::sub_.Tensor"}},
      // sub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor
      {"aten::sub.Scalar", "SubBackward1", {0}, {}, false,
       [](C, G g) -> variable_list { return {g[0]}; }, {"aten::sub_.Scalar"}},
      // rsub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor: other - alpha * self
      {"aten::rsub.Tensor", "RsubBackward0", {0, 1}, {}, false,
       [](C c, G g) -> variable_list {
         return {c.needs(0) ? ops::neg(times(g[0], c.value(2).to_scalar())) : Tensor(), g[0]};
       }},
      // rsub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor: other - alpha * self
      {"aten::rsub.Scalar", "RsubBackward1", {0}, {}, false,
       [](C c, G g) -> variable_list { return {ops::neg(times(g[0], c.value(2).to_scalar()))}; }},
      // mul.Tensor(Tensor self, Tensor other) -> Tensor: self * other
      {"aten::mul.Tensor", "MulBackward0", {0, 1}, {0, 1}, false,
       [](C c, G g) -> variable_list {
         return {c.needs(0) ? ops::mul(g[0], c.arg(1)) : Tensor(),
                 c.needs(1) ? ops::mul(g[0], c.arg(0)) : Tensor()};
       },
       {"aten::mul_.Tensor"}, -1, {{0, 1}, {1, 0}}},
      // mul.Scalar(Tensor self, Scalar other) -> Tensor
      {"aten::mul.Scalar", "MulBackward1", {0}, {}, false,
       [](C c, G g) -> variable_list { return {ops::mul(g[0], c.value(1).to_scalar())}; },
       {"aten::mul_.Scalar"}},
      // div.Tensor(Tensor self, Tensor other) -> Tensor: self / other
      {"aten::div.Tensor", "DivBackward0", {0, 1}, {0, 1}, false,
       [](C c, G g) -> variable_list {
         Tensor other = c.arg(1);
         return {c.needs(0) ? ops::div(g[0], other) : Tensor(),
                 c.needs(1) ? ops::neg(ops::div(ops::mul(g[0], c.arg(0)), ops::mul(other, other)))
                            : Tensor()};
       },
       {"aten::div_.Tensor"}, -1, {{0, 1}}},
      // div.Scalar(Tensor self, Scalar other) -> Tensor
      {"aten::div.Scalar", "DivBackward1", {0}, {}, false,
       [](C c, G g) -> variable_list { return {ops::div(g[0], c.value(1).to_scalar())}; },
       {"aten::div_.Scalar"}},
      // neg(Tensor self) -> Tensor
      {"aten::neg", "NegBackward0", {0}, {}, false,
       [](C, G g) -> variable_list { return {ops::neg(g[0])}; }, {"aten::neg_"}},
      // pow.Tensor_Scalar(Tensor self, Scalar exponent) -> Tensor: self ** e; e * self ** (e - 1)
      {"aten::pow.Tensor_Scalar", "PowBackward0", {0}, {0}, false,
       [](C c, G g) -> variable_list {
         double e = c.value(1).to_double();
         if (e == 0.0) return {ops::mul(g[0], 0.0)};
         return {ops::mul(ops::mul(g[0], e), ops::pow(c.arg(0), Scalar(e - 1.0)))};
       },
       {"aten::pow_.Scalar"}},
      // pow.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor: self ** exponent
      //   d/dself = exponent * self ** (exponent - 1); d/dexponent = result * log(self), 0 where
      //   self == 0 and exponent >= 0 (torch's convention)
      {"aten::pow.Tensor_Tensor", "PowBackward1", {0, 1}, {0, 1}, true,
       [](C c, G g) -> variable_list {
         Tensor self = c.arg(0), e = c.arg(1);
         Tensor gs, ge;
         if (c.needs(0)) gs = ops::mul(ops::mul(g[0], e), ops::pow(self, ops::sub(e, Scalar(1))));
         if (c.needs(1)) {
           Tensor t = ops::mul(ops::mul(g[0], c.result()), ops::log(self));
           ge = ops::where(ops::logical_and(ops::eq(self, Scalar(0)), ops::ge(e, Scalar(0))),
                           Scalar(0.0), t);
         }
         return {gs, ge};
       }},
      // pow.Scalar(Scalar self, Tensor exponent) -> Tensor: self ** exponent; result * log(self)
      {"aten::pow.Scalar", "PowBackward2", {1}, {}, true,
       [](C c, G g) -> variable_list {
         return {ops::mul(ops::mul(g[0], c.result()), std::log(c.value(0).to_double()))};
       }},

      // where.self(Tensor condition, Tensor self, Tensor other) -> Tensor: self where condition,
      // other elsewhere; the condition is not differentiable
      {"aten::where.self", "WhereBackward0", {1, 2}, {0}, false,
       [](C c, G g) -> variable_list {
         Tensor cond = c.arg(0);
         return {c.needs(1) ? ops::where(cond, g[0], Scalar(0.0)) : Tensor(),
                 c.needs(2) ? ops::where(cond, Scalar(0.0), g[0]) : Tensor()};
       }},

      // --- unary math --------------------------------------------------------------------------
      // exp(Tensor self) -> Tensor: d/dself = result
      {"aten::exp", "ExpBackward0", {0}, {}, true,
       [](C c, G g) -> variable_list { return {ops::mul(g[0], c.result())}; }, {"aten::exp_"}},
      // log(Tensor self) -> Tensor: 1 / self
      {"aten::log", "LogBackward0", {0}, {0}, false,
       [](C c, G g) -> variable_list { return {ops::div(g[0], c.arg(0))}; }, {"aten::log_"}},
      // sqrt(Tensor self) -> Tensor: 1 / (2 * result)
      {"aten::sqrt", "SqrtBackward0", {0}, {}, true,
       [](C c, G g) -> variable_list { return {ops::div(g[0], ops::mul(c.result(), 2.0))}; },
       {"aten::sqrt_"}},
      // tanh(Tensor self) -> Tensor: 1 - result^2
      {"aten::tanh", "TanhBackward0", {0}, {}, true,
       [](C c, G g) -> variable_list {
         Tensor r = c.result();
         return {ops::mul(g[0], ops::rsub(ops::mul(r, r), Scalar(1)))};
       },
       {"aten::tanh_"}},
      // sigmoid(Tensor self) -> Tensor: result * (1 - result)
      {"aten::sigmoid", "SigmoidBackward0", {0}, {}, true,
       [](C c, G g) -> variable_list {
         Tensor r = c.result();
         return {ops::mul(g[0], ops::mul(r, ops::rsub(r, Scalar(1))))};
       },
       {"aten::sigmoid_"}},
      // relu(Tensor self) -> Tensor: 1 where result > 0
      {"aten::relu", "ReluBackward0", {0}, {}, true,
       [](C c, G g) -> variable_list { return {ops::mul(g[0], ops::gt(c.result(), Scalar(0)))}; },
       {"aten::relu_"}},
      // abs(Tensor self) -> Tensor: sign(self)
      {"aten::abs", "AbsBackward0", {0}, {0}, false,
       [](C c, G g) -> variable_list { return {ops::mul(g[0], ops::sign(c.arg(0)))}; },
       {"aten::abs_"}},
      // sin(Tensor self) -> Tensor: cos(self)
      {"aten::sin", "SinBackward0", {0}, {0}, false,
       [](C c, G g) -> variable_list { return {ops::mul(g[0], ops::cos(c.arg(0)))}; },
       {"aten::sin_"}},
      // cos(Tensor self) -> Tensor: -sin(self)
      {"aten::cos", "CosBackward0", {0}, {0}, false,
       [](C c, G g) -> variable_list { return {ops::neg(ops::mul(g[0], ops::sin(c.arg(0))))}; },
       {"aten::cos_"}},
      // reciprocal(Tensor self) -> Tensor: -result^2
      {"aten::reciprocal", "ReciprocalBackward0", {0}, {}, true,
       [](C c, G g) -> variable_list {
         Tensor r = c.result();
         return {ops::neg(ops::mul(g[0], ops::mul(r, r)))};
       },
       {"aten::reciprocal_"}},

      // --- reductions --------------------------------------------------------------------------
      // sum(Tensor self, *, ScalarType? dtype=None) -> Tensor: g everywhere
      {"aten::sum", "SumBackward0", {0}, {}, false,
       [](C c, G g) -> variable_list { return {ops::expand(g[0], c.sizes(0))}; }},
      // sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None)
      {"aten::sum.dim_IntList", "SumBackward1", {0}, {}, false,
       [](C c, G g) -> variable_list {
         auto dims = reduced_dims(c.value(1), c.sizes(0).size());
         return {unreduce(g[0], c.sizes(0), dims, c.value(2).to_bool())};
       }},
      // mean(Tensor self, *, ScalarType? dtype=None) -> Tensor: g / numel everywhere
      {"aten::mean", "MeanBackward0", {0}, {}, false,
       [](C c, G g) -> variable_list {
         auto dims = reduced_dims(IValue(), c.sizes(0).size());
         return {ops::div(ops::expand(g[0], c.sizes(0)), Scalar(count(c.sizes(0), dims)))};
       }},
      // mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None)
      {"aten::mean.dim", "MeanBackward1", {0}, {}, false,
       [](C c, G g) -> variable_list {
         auto dims = reduced_dims(c.value(1), c.sizes(0).size());
         Tensor full = unreduce(g[0], c.sizes(0), dims, c.value(2).to_bool());
         return {ops::div(full, Scalar(count(c.sizes(0), dims)))};
       }},

      // --- products ----------------------------------------------------------------------------
      // mm(Tensor self, Tensor mat2) -> Tensor: self (M,K), mat2 (K,N) -> (M,N)
      {"aten::mm", "MmBackward0", {0, 1}, {0, 1}, false,
       [](C c, G g) -> variable_list {
         return {c.needs(0) ? ops::mm(g[0], ops::t(c.arg(1))) : Tensor(),   // (M,N)(N,K)
                 c.needs(1) ? ops::mm(ops::t(c.arg(0)), g[0]) : Tensor()};  // (K,M)(M,N)
       }, {}, -1, {{0, 1}, {1, 0}}},
      // addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor:
      //   beta * self + alpha * mat1 (M,K) · mat2 (K,N)
      {"aten::addmm", "AddmmBackward0", {0, 1, 2}, {1, 2}, false,
       [](C c, G g) -> variable_list {
         Scalar beta = c.value(3).to_scalar(), alpha = c.value(4).to_scalar();
         return {c.needs(0) ? times(g[0], beta) : Tensor(),
                 c.needs(1) ? times(ops::mm(g[0], ops::t(c.arg(2))), alpha) : Tensor(),
                 c.needs(2) ? times(ops::mm(ops::t(c.arg(1)), g[0]), alpha) : Tensor()};
       },
       {"aten::addmm_"}, -1, {{1, 2}, {2, 1}}},
      // bmm(Tensor self, Tensor mat2) -> Tensor: self (B,M,K), mat2 (B,K,N) -> (B,M,N)
      {"aten::bmm", "BmmBackward0", {0, 1}, {0, 1}, false,
       [](C c, G g) -> variable_list {
         return {c.needs(0) ? ops::bmm(g[0], ops::transpose(c.arg(1), 1, 2)) : Tensor(),
                 c.needs(1) ? ops::bmm(ops::transpose(c.arg(0), 1, 2), g[0]) : Tensor()};
       }, {}, -1, {{0, 1}, {1, 0}}},
      // dot(Tensor self, Tensor tensor) -> Tensor: (K) · (K) -> ()
      {"aten::dot", "DotBackward0", {0, 1}, {0, 1}, false,
       [](C c, G g) -> variable_list {
         return {c.needs(0) ? ops::mul(g[0], c.arg(1)) : Tensor(),
                 c.needs(1) ? ops::mul(g[0], c.arg(0)) : Tensor()};
       }, {}, -1, {{0, 1}, {1, 0}}},
      // mv(Tensor self, Tensor vec) -> Tensor: self (M,K) · vec (K) -> (M)
      {"aten::mv", "MvBackward0", {0, 1}, {0, 1}, false,
       [](C c, G g) -> variable_list {
         return {c.needs(0) ? ops::outer(g[0], c.arg(1)) : Tensor(),
                 c.needs(1) ? ops::mv(ops::t(c.arg(0)), g[0]) : Tensor()};
       }, {}, -1, {{0, 1}, {1, 0}}},

      // --- views and copies: the gradient takes the inverse path ---------------------------------
      // t(Tensor(a) self) -> Tensor(a)
      {"aten::t", "TBackward0", {0}, {}, false,
       [](C, G g) -> variable_list { return {ops::t(g[0])}; }},
      // transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)
      {"aten::transpose.int", "TransposeBackward0", {0}, {}, false,
       [](C c, G g) -> variable_list {
         return {ops::transpose(g[0], c.value(1).to_int(), c.value(2).to_int())};
       }},
      // permute(Tensor(a) self, int[] dims) -> Tensor(a): the inverse permutation
      {"aten::permute", "PermuteBackward0", {0}, {}, false,
       [](C c, G g) -> variable_list {
         const auto& dims = c.value(1).to_int_list();
         std::vector<int64_t> inverse(dims.size());
         for (size_t i = 0; i < dims.size(); ++i)
           inverse[static_cast<size_t>(wrap_dim(dims[i], static_cast<int64_t>(dims.size())))] =
               static_cast<int64_t>(i);
         return {ops::permute(g[0], inverse)};
       }},
      // view(Tensor(a) self, SymInt[] size) -> Tensor(a)
      {"aten::view", "ViewBackward0", {0}, {}, false,
       to_input_shape},
      // _reshape_alias(Tensor(a) self, SymInt[] size, SymInt[] stride) -> Tensor(a)
      {"aten::_reshape_alias", "ReshapeAliasBackward0", {0}, {}, false,
       to_input_shape},
      // _unsafe_view(Tensor self, SymInt[] size) -> Tensor
      {"aten::_unsafe_view", "UnsafeViewBackward0", {0}, {}, false,
       to_input_shape},
      // unsqueeze(Tensor(a) self, int dim) -> Tensor(a)
      {"aten::unsqueeze", "UnsqueezeBackward0", {0}, {}, false,
       to_input_shape},
      // squeeze(Tensor(a) self) -> Tensor(a)
      {"aten::squeeze", "SqueezeBackward0", {0}, {}, false,
       to_input_shape},
      // squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)
      {"aten::squeeze.dim", "SqueezeBackward1", {0}, {}, false,
       to_input_shape},
      // expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a): the engine
      // sums g over the expanded dims (as for any broadcast input)
      {"aten::expand", "ExpandBackward0", {0}, {}, false,
       unchanged},
      // clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor
      {"aten::clone", "CloneBackward0", {0}, {}, false,
       unchanged},
      // _to_copy(Tensor self, *, ScalarType? dtype=None, ...) -> Tensor: the engine converts
      // g back to self's dtype
      {"aten::_to_copy", "ToCopyBackward0", {0}, {}, false,
       unchanged},

      // --- softmax -----------------------------------------------------------------------------
      // _softmax(Tensor self, int dim, bool half_to_float) -> Tensor:
      //   result * (g - sum(g * result, dim))
      {"aten::_softmax", "SoftmaxBackward0", {0}, {}, true,
       [](C c, G g) -> variable_list {
         Tensor y = c.result();
         int64_t dims[1] = {c.value(1).to_int()};
         Tensor s = ops::sum(ops::mul(g[0], y), IntArrayRef(dims, 1), true, std::nullopt);
         return {ops::mul(y, ops::sub(g[0], s))};
       }},
      // _log_softmax(Tensor self, int dim, bool half_to_float) -> Tensor:
      //   g - exp(result) * sum(g, dim)
      {"aten::_log_softmax", "LogSoftmaxBackward0", {0}, {}, true,
       [](C c, G g) -> variable_list {
         int64_t dims[1] = {c.value(1).to_int()};
         Tensor s = ops::sum(g[0], IntArrayRef(dims, 1), true, std::nullopt);
         return {ops::sub(g[0], ops::mul(ops::exp(c.result()), s))};
       }},

      // --- more unary math ---------------------------------------------------------------------
      // erf(Tensor self) -> Tensor: 2 / sqrt(pi) * exp(-self^2)
      {"aten::erf", "ErfBackward0", {0}, {0}, false,
       [](C c, G g) -> variable_list {
         Tensor x = c.arg(0);
         return {ops::mul(g[0], ops::mul(ops::exp(ops::neg(ops::mul(x, x))), 1.1283791670955126))};
       },
       {"aten::erf_"}},
      // log1p(Tensor self) -> Tensor: 1 / (1 + self)
      {"aten::log1p", "Log1PBackward0", {0}, {0}, false,
       [](C c, G g) -> variable_list { return {ops::div(g[0], ops::add(c.arg(0), Scalar(1)))}; },
       {"aten::log1p_"}},
      // expm1(Tensor self) -> Tensor: result + 1
      {"aten::expm1", "Expm1Backward0", {0}, {}, true,
       [](C c, G g) -> variable_list { return {ops::mul(g[0], ops::add(c.result(), Scalar(1)))}; },
       {"aten::expm1_"}},
      // gelu(Tensor self, *, str approximate="none") -> Tensor
      //   none: Phi(x) + x phi(x); tanh: d/dx 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
      {"aten::gelu", "GeluBackward0", {0}, {0}, false,
       [](C c, G g) -> variable_list {
         Tensor x = c.arg(0);
         if (c.value(1).to_string() == "tanh") {
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
       {"aten::gelu_"}},
      // silu(Tensor self) -> Tensor: s (1 + x (1 - s)), s = sigmoid(x)
      {"aten::silu", "SiluBackward0", {0}, {0}, false,
       [](C c, G g) -> variable_list {
         Tensor x = c.arg(0), sg = ops::sigmoid(x);
         Tensor d = ops::mul(sg, ops::add(ops::mul(x, ops::rsub(sg, Scalar(1))), Scalar(1)));
         return {ops::mul(g[0], d)};
       },
       {"aten::silu_"}},
      // softplus(Tensor self, Scalar beta=1, Scalar threshold=20) -> Tensor:
      //   sigmoid(beta x), 1 where beta x > threshold (there the result is x itself)
      {"aten::softplus", "SoftplusBackward0", {0}, {0}, false,
       [](C c, G g) -> variable_list {
         Tensor bx = ops::mul(c.arg(0), c.value(1).to_scalar());
         Tensor d = ops::where(ops::gt(bx, c.value(2).to_scalar()), Scalar(1.0), ops::sigmoid(bx));
         return {ops::mul(g[0], d)};
       }},
      // clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor: 1 inside [min, max]
      {"aten::clamp", "ClampBackward1", {0}, {0}, false,
       [](C c, G g) -> variable_list {
         Tensor x = c.arg(0), keep = ops::ones_like(x, ScalarType::Bool);
         if (!c.value(1).is_none())
           keep = ops::logical_and(keep, ops::ge(x, c.value(1).to_scalar()));
         if (!c.value(2).is_none())
           keep = ops::logical_and(keep, ops::le(x, c.value(2).to_scalar()));
         return {ops::mul(g[0], keep)};
       },
       {"aten::clamp_"}},
      // clamp_min(Tensor self, Scalar min) -> Tensor
      {"aten::clamp_min", "ClampMinBackward0", {0}, {0}, false,
       [](C c, G g) -> variable_list {
         return {ops::mul(g[0], ops::ge(c.arg(0), c.value(1).to_scalar()))};
       },
       {"aten::clamp_min_"}},
      // maximum(Tensor self, Tensor other) -> Tensor: to the larger; ties share it
      {"aten::maximum", "MaximumBackward0", {0, 1}, {0, 1}, false,
       [](C c, G g) -> variable_list {
         Tensor a = c.arg(0), b = c.arg(1), tie = ops::mul(ops::eq(a, b), 0.5);
         return {c.needs(0) ? ops::mul(g[0], ops::add(ops::gt(a, b), tie)) : Tensor(),
                 c.needs(1) ? ops::mul(g[0], ops::add(ops::lt(a, b), tie)) : Tensor()};
       }},
      // minimum(Tensor self, Tensor other) -> Tensor
      {"aten::minimum", "MinimumBackward0", {0, 1}, {0, 1}, false,
       [](C c, G g) -> variable_list {
         Tensor a = c.arg(0), b = c.arg(1), tie = ops::mul(ops::eq(a, b), 0.5);
         return {c.needs(0) ? ops::mul(g[0], ops::add(ops::lt(a, b), tie)) : Tensor(),
                 c.needs(1) ? ops::mul(g[0], ops::add(ops::gt(a, b), tie)) : Tensor()};
       }},
      // masked_fill.Scalar(Tensor self, Tensor mask, Scalar value) -> Tensor: 0 where filled
      {"aten::masked_fill.Scalar", "MaskedFillBackward0", {0}, {1}, false,
       [](C c, G g) -> variable_list { return {ops::masked_fill(g[0], c.arg(1), Scalar(0))}; },
       {"aten::masked_fill_.Scalar"}},

      // --- more reductions ---------------------------------------------------------------------
      // amax(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor: shared among the maxima
      {"aten::amax", "AmaxBackward0", {0}, {0}, true,
       extreme_over_dims_backward},
      // amin(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor
      {"aten::amin", "AminBackward0", {0}, {0}, true,
       extreme_over_dims_backward},
      // max(Tensor self) -> Tensor / min(Tensor self) -> Tensor: shared among the extremes
      {"aten::max", "MaxBackward1", {0}, {0}, true,
       extreme_backward},
      {"aten::min", "MinBackward1", {0}, {0}, true,
       extreme_backward},
      // max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
      {"aten::max.dim", "MaxBackward0", {0}, {}, true,
       extreme_dim_backward,
       {}, 1},
      // min.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
      {"aten::min.dim", "MinBackward0", {0}, {}, true,
       extreme_dim_backward,
       {}, 1},
      // var.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) -> Tensor:
      //   2 (x - mean) / (N - correction)
      {"aten::var.correction", "VarBackward0", {0}, {0}, false,
       [](C c, G g) -> variable_list {
         auto dims = reduced_dims(c.value(1), c.sizes(0).size());
         double corr = c.value(2).is_none() ? 1.0 : static_cast<double>(c.value(2).to_int());
         Tensor x = c.arg(0);
         Tensor centered = ops::sub(x, ops::mean(x, IntArrayRef(dims), true, std::nullopt));
         Tensor gfull = unreduce(g[0], c.sizes(0), dims, c.value(3).to_bool());
         double n = static_cast<double>(count(c.sizes(0), dims));
         return {ops::mul(ops::mul(gfull, centered), 2.0 / (n - corr))};
       }},
      // std.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) -> Tensor:
      //   var's gradient times 1 / (2 result)
      {"aten::std.correction", "StdBackward0", {0}, {0}, true,
       [](C c, G g) -> variable_list {
         auto dims = reduced_dims(c.value(1), c.sizes(0).size());
         double corr = c.value(2).is_none() ? 1.0 : static_cast<double>(c.value(2).to_int());
         bool keep = c.value(3).to_bool();
         Tensor x = c.arg(0);
         Tensor centered = ops::sub(x, ops::mean(x, IntArrayRef(dims), true, std::nullopt));
         Tensor gstd = unreduce(ops::div(g[0], ops::mul(c.result(), 2.0)), c.sizes(0), dims, keep);
         double n = static_cast<double>(count(c.sizes(0), dims));
         return {ops::mul(ops::mul(gstd, centered), 2.0 / (n - corr))};
       }},
      // logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor: exp(self - result)
      {"aten::logsumexp", "LogsumexpBackward0", {0}, {0}, true,
       [](C c, G g) -> variable_list {
         auto dims = reduced_dims(c.value(1), c.sizes(0).size());
         bool keep = c.value(2).to_bool();
         Tensor r = unreduce(c.result(), c.sizes(0), dims, keep);
         return {ops::mul(unreduce(g[0], c.sizes(0), dims, keep), ops::exp(ops::sub(c.arg(0), r)))};
       }},
      // cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor: the reversed cumsum
      {"aten::cumsum", "CumsumBackward0", {0}, {}, false,
       [](C c, G g) -> variable_list {
         int64_t d[1] = {c.value(1).to_int()};
         IntArrayRef dim(d, 1);
         return {ops::flip(ops::cumsum(ops::flip(g[0], dim), d[0]), dim)};
       }},
      // flip(Tensor self, int[] dims) -> Tensor
      {"aten::flip", "FlipBackward0", {0}, {}, false,
       [](C c, G g) -> variable_list { return {ops::flip(g[0], c.value(1).to_int_list())}; }},

      // --- nn ------------------------------------------------------------------------------------
      // nll_loss_forward(Tensor self, Tensor target, Tensor? weight, int reduction,
      //                  int ignore_index) -> (Tensor output, Tensor total_weight)
      //   self (N,C) or (C), target (N) or (); d/dself[n, target[n]] = -weight[target[n]] * g
      //   (divided by the total weight for the mean), 0 for ignored targets
      {"aten::nll_loss_forward", "NllLossBackward0", {0}, {1, 2}, false,
       [](C c, G g) -> variable_list {
         Tensor target = c.arg(1), weight = c.arg(2);
         int64_t reduction = c.value(3).to_int(), ignore = c.value(4).to_int();
         int64_t classes = c.sizes(0).back();
         Tensor valid = ops::ne(target, Scalar(ignore));
         Tensor safe = ops::where(valid, target, Scalar(int64_t{0}));
         Tensor coef = ops::to(valid, c.dtype(0));
         if (weight.defined())
           coef = ops::mul(coef, ops::view(ops::index_select(weight, 0, ops::reshape(safe, {-1})),
                                           safe.sizes()));
         if (reduction == 1) coef = ops::div(coef, ops::sum(coef, ops::OptScalarType{}));
         coef = ops::mul(coef, g[0]);
         return {ops::neg(ops::mul(ops::one_hot(safe, classes), ops::unsqueeze(coef, -1)))};
       },
       {}, 1},
      // mse_loss(Tensor self, Tensor target, int reduction=1) -> Tensor: 2 (self - target)
      {"aten::mse_loss", "MseLossBackward0", {0, 1}, {0, 1}, false,
       [](C c, G g) -> variable_list {
         Tensor d = ops::mul(ops::mul(ops::sub(c.arg(0), c.arg(1)), g[0]), 2.0);
         if (c.value(2).to_int() == 1) {
           int64_t n = 1;
           for (int64_t s : c.sizes(0)) n *= s;
           d = ops::div(d, Scalar(n));
         }
         return {c.needs(0) ? d : Tensor(), c.needs(1) ? ops::neg(d) : Tensor()};
       }},
      // binary_cross_entropy(Tensor self, Tensor target, Tensor? weight=None, int reduction=1):
      //   (self - target) / (self (1 - self)), the denominator at least 1e-12
      {"aten::binary_cross_entropy", "BinaryCrossEntropyBackward0", {0}, {0, 1, 2}, false,
       [](C c, G g) -> variable_list {
         Tensor x = c.arg(0), y = c.arg(1), w = c.arg(2);
         Tensor den = ops::clamp_min(ops::mul(x, ops::rsub(x, Scalar(1))), Scalar(1e-12));
         Tensor d = ops::mul(ops::div(ops::sub(x, y), den), g[0]);
         if (w.defined()) d = ops::mul(d, w);
         if (c.value(3).to_int() == 1) {
           int64_t n = 1;
           for (int64_t s : c.sizes(0)) n *= s;
           d = ops::div(d, Scalar(n));
         }
         return {d};
       }},
      // native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias,
      //                   float eps) -> (Tensor out, Tensor mean, Tensor rstd)
      //   xhat = (x - mean) rstd; dx = rstd (dxhat - mean(dxhat) - xhat mean(dxhat xhat)) over the
      //   normalized dims, dxhat = g weight; dweight = g xhat, dbias = g (the engine sums them
      //   down to weight's and bias's shape)
      {"aten::native_layer_norm", "NativeLayerNormBackward0", {0, 2, 3}, {0, 2}, true,
       [](C c, G g) -> variable_list {
         Tensor x = c.arg(0), w = c.arg(2), mean = c.result(1), rstd = c.result(2);
         size_t k = c.value(1).to_int_list().size(), nd = c.sizes(0).size();
         std::vector<int64_t> dims;
         for (size_t d = nd - k; d < nd; ++d) dims.push_back(static_cast<int64_t>(d));
         if (grad_mode_enabled()) {  // create_graph: mean and rstd as functions of x
           mean = ops::mean(x, IntArrayRef(dims), true, std::nullopt);
           Tensor var = ops::var(x, IntArrayRef(dims), int64_t{0}, true);
           rstd = ops::reciprocal(ops::sqrt(ops::add(var, Scalar(c.value(4).to_double()))));
         }
         Tensor xhat = ops::mul(ops::sub(x, mean), rstd);
         Tensor dxhat = w.defined() ? ops::mul(g[0], w) : g[0];
         Tensor dx;
         if (c.needs(0)) {
           Tensor m1 = ops::mean(dxhat, IntArrayRef(dims), true, std::nullopt);
           Tensor m2 = ops::mean(ops::mul(dxhat, xhat), IntArrayRef(dims), true, std::nullopt);
           dx = ops::mul(rstd, ops::sub(ops::sub(dxhat, m1), ops::mul(xhat, m2)));
         }
         return {dx, c.needs(2) ? ops::mul(g[0], xhat) : Tensor(), c.needs(3) ? g[0] : Tensor()};
       },
       {}, 1},
      // native_dropout(Tensor input, float p, bool? train) -> (Tensor, Tensor mask):
      //   mask / (1 - p) in training, 1 otherwise
      {"aten::native_dropout", "NativeDropoutBackward0", {0}, {}, true,
       [](C c, G g) -> variable_list {
         bool train = c.value(2).is_none() || c.value(2).to_bool();
         if (!train) return {g[0]};
         double p = c.value(1).to_double();
         return {ops::mul(ops::mul(g[0], c.result(1)), p == 1.0 ? 0.0 : 1.0 / (1.0 - p))};
       },
       {}, 1},
      // embedding(Tensor weight, Tensor indices, int padding_idx=-1, ...) -> Tensor:
      //   each row of g summed into the row of weight it came from; padding_idx gets none
      {"aten::embedding", "EmbeddingBackward0", {0}, {1}, false,
       [](C c, G g) -> variable_list {
         Tensor idx = ops::reshape(c.arg(1), {-1});
         int64_t dim = c.sizes(0).back(), pad = c.value(2).to_int();
         Tensor rows = ops::reshape(g[0], {-1, dim});
         if (pad >= 0) rows = ops::mul(rows, ops::unsqueeze(ops::ne(idx, Scalar(pad)), 1));
         return {ops::index_add(zeros_like_arg(c, 0), 0, idx, rows)};  // IndexAddBackward0 again
       }},
  };
}
// clang-format on

const std::vector<Derivative>& derivatives() {
  static const std::vector<Derivative> table = [] {
    std::vector<Derivative> all;
    for (auto family : {core_table, math_table, shape_table, indexing_table})
      for (Derivative& d : family()) all.push_back(std::move(d));
    return all;
  }();
  return table;
}

}  // namespace opscope::autograd
