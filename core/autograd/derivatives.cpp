// The derivative table (see core/autograd/Derivatives.h): for each differentiable op, the node
// PyTorch names and the formula of its backward, next to the forward it undoes. Gradients are
// written with ops, so they are differentiable themselves (create_graph). The engine sums a
// gradient down to a broadcast input's shape and converts its dtype, so formulas do neither.
#include <algorithm>
#include <cmath>

#include "core/autograd/Derivatives.h"
#include "core/ops/copy.h"
#include "core/ops/elementwise.h"
#include "core/ops/linear.h"
#include "core/ops/pointwise.h"
#include "core/ops/reduce.h"
#include "core/ops/views.h"

namespace opscope::autograd {

namespace {

using C = const BackwardContext&;
using G = const variable_list&;

// g * s, skipping the multiplication by 1 (alpha, beta).
Tensor times(const Tensor& g, const Scalar& s) {
  return s.to_double() == 1.0 ? g : ops::mul(g, s);
}

// The reduced dims of a reduction over `dim` (none given: all), ascending and wrapped.
std::vector<int64_t> reduced_dims(const IValue& dim, size_t ndim) {
  std::vector<int64_t> dims;
  if (dim.is_none() || dim.to_int_list().empty()) {
    for (size_t d = 0; d < ndim; ++d) dims.push_back(static_cast<int64_t>(d));
  } else {
    for (int64_t d : dim.to_int_list()) dims.push_back(wrap_dim(d, static_cast<int64_t>(ndim)));
  }
  std::ranges::sort(dims);
  return dims;
}

// The gradient of a reduction over `dims` of an input of `sizes`: g with the reduced dims put back
// (unless keepdim kept them), expanded to the input.
Tensor unreduce(Tensor g, IntArrayRef sizes, const std::vector<int64_t>& dims, bool keepdim) {
  if (!keepdim)
    for (int64_t d : dims) g = ops::unsqueeze(g, d);
  return ops::expand(g, sizes);
}

int64_t count(IntArrayRef sizes, const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= sizes[static_cast<size_t>(d)];
  return n;
}

std::vector<Derivative> make_table() {
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
       {"aten::mul_.Tensor"}},
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
       {"aten::div_.Tensor"}},
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
       }},
      // addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor:
      //   beta * self + alpha * mat1 (M,K) · mat2 (K,N)
      {"aten::addmm", "AddmmBackward0", {0, 1, 2}, {1, 2}, false,
       [](C c, G g) -> variable_list {
         Scalar beta = c.value(3).to_scalar(), alpha = c.value(4).to_scalar();
         return {c.needs(0) ? times(g[0], beta) : Tensor(),
                 c.needs(1) ? times(ops::mm(g[0], ops::t(c.arg(2))), alpha) : Tensor(),
                 c.needs(2) ? times(ops::mm(ops::t(c.arg(1)), g[0]), alpha) : Tensor()};
       }},
      // bmm(Tensor self, Tensor mat2) -> Tensor: self (B,M,K), mat2 (B,K,N) -> (B,M,N)
      {"aten::bmm", "BmmBackward0", {0, 1}, {0, 1}, false,
       [](C c, G g) -> variable_list {
         return {c.needs(0) ? ops::bmm(g[0], ops::transpose(c.arg(1), 1, 2)) : Tensor(),
                 c.needs(1) ? ops::bmm(ops::transpose(c.arg(0), 1, 2), g[0]) : Tensor()};
       }},
      // dot(Tensor self, Tensor tensor) -> Tensor: (K) · (K) -> ()
      {"aten::dot", "DotBackward0", {0, 1}, {0, 1}, false,
       [](C c, G g) -> variable_list {
         return {c.needs(0) ? ops::mul(g[0], c.arg(1)) : Tensor(),
                 c.needs(1) ? ops::mul(g[0], c.arg(0)) : Tensor()};
       }},
      // mv(Tensor self, Tensor vec) -> Tensor: self (M,K) · vec (K) -> (M)
      {"aten::mv", "MvBackward0", {0, 1}, {0, 1}, false,
       [](C c, G g) -> variable_list {
         return {c.needs(0) ? ops::outer(g[0], c.arg(1)) : Tensor(),
                 c.needs(1) ? ops::mv(ops::t(c.arg(0)), g[0]) : Tensor()};
       }},

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
       [](C c, G g) -> variable_list { return {ops::reshape(g[0], c.sizes(0))}; }},
      // _reshape_alias(Tensor(a) self, SymInt[] size, SymInt[] stride) -> Tensor(a)
      {"aten::_reshape_alias", "ReshapeAliasBackward0", {0}, {}, false,
       [](C c, G g) -> variable_list { return {ops::reshape(g[0], c.sizes(0))}; }},
      // _unsafe_view(Tensor self, SymInt[] size) -> Tensor
      {"aten::_unsafe_view", "UnsafeViewBackward0", {0}, {}, false,
       [](C c, G g) -> variable_list { return {ops::reshape(g[0], c.sizes(0))}; }},
      // unsqueeze(Tensor(a) self, int dim) -> Tensor(a)
      {"aten::unsqueeze", "UnsqueezeBackward0", {0}, {}, false,
       [](C c, G g) -> variable_list { return {ops::reshape(g[0], c.sizes(0))}; }},
      // squeeze(Tensor(a) self) -> Tensor(a)
      {"aten::squeeze", "SqueezeBackward0", {0}, {}, false,
       [](C c, G g) -> variable_list { return {ops::reshape(g[0], c.sizes(0))}; }},
      // squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)
      {"aten::squeeze.dim", "SqueezeBackward1", {0}, {}, false,
       [](C c, G g) -> variable_list { return {ops::reshape(g[0], c.sizes(0))}; }},
      // expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a): the engine
      // sums g over the expanded dims (as for any broadcast input)
      {"aten::expand", "ExpandBackward0", {0}, {}, false,
       [](C, G g) -> variable_list { return {g[0]}; }},
      // clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor
      {"aten::clone", "CloneBackward0", {0}, {}, false,
       [](C, G g) -> variable_list { return {g[0]}; }},
      // _to_copy(Tensor self, *, ScalarType? dtype=None, ...) -> Tensor: the engine converts
      // g back to self's dtype
      {"aten::_to_copy", "ToCopyBackward0", {0}, {}, false,
       [](C, G g) -> variable_list { return {g[0]}; }},

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
  };
}

}  // namespace

const std::vector<Derivative>& derivatives() {
  static const std::vector<Derivative> table = make_table();
  return table;
}

}  // namespace opscope::autograd
