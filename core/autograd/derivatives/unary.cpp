// The derivative table's math family (see core/autograd/Derivatives.h): more unary and binary
// pointwise math, the ops whose gradient is zero (sign, floor, round, ...: torch still records
// their node), clamp with tensor bounds, products, cumulative products, statistics and norms.
#include <cmath>
#include <limits>

#include "core/autograd/derivatives/common.h"
#include "core/ops/linear.h"
#include "core/ops/nn.h"
#include "core/ops/unary.h"
#include "core/ops/shape.h"
#include "core/ops/binary.h"
#include "core/ops/compare.h"

namespace opscope::autograd {

namespace {

using namespace formulas;

// Ops that are piecewise constant: torch records the node, with a zero gradient.
variable_list zero_gradient(C c, G) {
  return {zeros_like_arg(c, 0)};
}

// The product of every element of x along dim but the one in place: the exclusive cumulative
// products from the left and from the right, multiplied (no division, so zeros are fine).
Tensor product_of_others(const Tensor& x, int64_t dim) {
  const int64_t nd = x.dim(), n = x.size(dim);
  std::vector<int64_t> pad(static_cast<size_t>(2 * (nd - dim)), 0);
  pad[static_cast<size_t>(2 * (nd - 1 - dim))] = 1;  // one 1 before the first element of dim
  auto exclusive = [&](const Tensor& t) {
    return ops::cumprod(ops::narrow(ops::constant_pad_nd(t, pad, 1), dim, 0, n), dim);
  };
  int64_t d[1] = {dim};
  return ops::mul(exclusive(x),
                  ops::flip(exclusive(ops::flip(x, IntArrayRef(d, 1))), IntArrayRef(d, 1)));
}

// The gradient of the p-norm of self over `dims` (linalg_vector_norm, norm):
//   p = 0: none; p = 1: sign(x); p = +-inf: sign(x), shared among the extremes;
//   otherwise x |x|^(p-2) / norm^(p-1), 0 where the norm is 0.
Tensor norm_backward(C c, const Tensor& g, double p, const std::vector<int64_t>& dims, bool keep) {
  Tensor x = c.arg(0), gfull = unreduce(g, c.sizes(0), dims, keep);
  if (p == 0.0) return zeros_like_arg(c, 0);
  if (p == 1.0) return ops::mul(gfull, ops::sign(x));
  Tensor norm = unreduce(c.result(), c.sizes(0), dims, keep);
  if (std::isinf(p))
    return ops::mul(ops::mul(gfull, ops::sign(x)), even_share(ops::abs(x), norm, dims));
  Tensor d = p == 2.0 ? ops::div(x, norm)
                      : ops::div(ops::mul(x, ops::pow(ops::abs(x), Scalar(p - 2))),
                                 ops::pow(norm, Scalar(p - 1)));
  return ops::mul(gfull, ops::where(ops::eq(norm, Scalar(0)), Scalar(0.0), d));
}

// var / std's shared part: 2 (x - mean) / (N - correction), times the gradient of the variance.
Tensor variance_backward(C c, const Tensor& gvar, const std::vector<int64_t>& dims, bool keep) {
  double corr = c.value(2).is_none() ? 1.0 : static_cast<double>(c.value(2).to_int());
  Tensor x = c.arg(0);
  Tensor centered = ops::sub(x, ops::mean(x, IntArrayRef(dims), true, std::nullopt));
  double n = static_cast<double>(count(c.sizes(0), dims));
  return ops::mul(ops::mul(unreduce(gvar, c.sizes(0), dims, keep), centered), 2.0 / (n - corr));
}

// mean's gradient over `dims`.
Tensor mean_backward(C c, const Tensor& g, const std::vector<int64_t>& dims, bool keep) {
  return ops::div(unreduce(g, c.sizes(0), dims, keep), Scalar(count(c.sizes(0), dims)));
}

}  // namespace

// clang-format off
std::vector<Derivative> math_table() {
  return {
      // --- trigonometric, hyperbolic, exponential ----------------------------------------------
      // acos(Tensor self) -> Tensor: -1 / sqrt(1 - self^2)
      {"aten::acos", "AcosBackward0", {0}, {0}, false,
       [](C c, G g) -> variable_list {
         Tensor x = c.arg(0);
         return {ops::neg(ops::div(g[0], ops::sqrt(ops::rsub(ops::mul(x, x), Scalar(1)))))};
       },
       {"aten::acos_"}},
      // asin(Tensor self) -> Tensor: 1 / sqrt(1 - self^2)
      {"aten::asin", "AsinBackward0", {0}, {0}, false,
       [](C c, G g) -> variable_list {
         Tensor x = c.arg(0);
         return {ops::div(g[0], ops::sqrt(ops::rsub(ops::mul(x, x), Scalar(1))))};
       },
       {"aten::asin_"}},
      // atan(Tensor self) -> Tensor: 1 / (1 + self^2)
      {"aten::atan", "AtanBackward0", {0}, {0}, false,
       [](C c, G g) -> variable_list {
         Tensor x = c.arg(0);
         return {ops::div(g[0], ops::add(ops::mul(x, x), Scalar(1)))};
       },
       {"aten::atan_"}},
      // atan2(Tensor self, Tensor other) -> Tensor: atan(self / other) in the right quadrant;
      //   d/dself = other / (self^2 + other^2), d/dother = -self / (self^2 + other^2)
      {"aten::atan2", "Atan2Backward0", {0, 1}, {0, 1}, false,
       [](C c, G g) -> variable_list {
         Tensor y = c.arg(0), x = c.arg(1);
         Tensor scale = ops::div(g[0], ops::add(ops::mul(y, y), ops::mul(x, x)));
         return {c.needs(0) ? ops::mul(scale, x) : Tensor(),
                 c.needs(1) ? ops::neg(ops::mul(scale, y)) : Tensor()};
       },
       {"aten::atan2_"}},
      // cosh(Tensor self) -> Tensor: sinh(self)
      {"aten::cosh", "CoshBackward0", {0}, {0}, false,
       [](C c, G g) -> variable_list { return {ops::mul(g[0], ops::sinh(c.arg(0)))}; },
       {"aten::cosh_"}},
      // sinh(Tensor self) -> Tensor: cosh(self)
      {"aten::sinh", "SinhBackward0", {0}, {0}, false,
       [](C c, G g) -> variable_list { return {ops::mul(g[0], ops::cosh(c.arg(0)))}; },
       {"aten::sinh_"}},
      // tan(Tensor self) -> Tensor: 1 + result^2
      {"aten::tan", "TanBackward0", {0}, {}, true,
       [](C c, G g) -> variable_list {
         Tensor r = c.result();
         return {ops::mul(g[0], ops::add(ops::mul(r, r), Scalar(1)))};
       },
       {"aten::tan_"}},
      // rsqrt(Tensor self) -> Tensor: self^(-1/2); -result^3 / 2
      {"aten::rsqrt", "RsqrtBackward0", {0}, {}, true,
       [](C c, G g) -> variable_list {
         Tensor r = c.result();
         return {ops::mul(ops::mul(g[0], ops::mul(ops::mul(r, r), r)), -0.5)};
       },
       {"aten::rsqrt_"}},
      // exp2(Tensor self) -> Tensor: result * ln 2
      {"aten::exp2", "Exp2Backward0", {0}, {}, true,
       [](C c, G g) -> variable_list {
         return {ops::mul(ops::mul(g[0], c.result()), 0.6931471805599453)};
       },
       {"aten::exp2_"}},
      // log2(Tensor self) -> Tensor: 1 / (self ln 2)
      {"aten::log2", "Log2Backward0", {0}, {0}, false,
       [](C c, G g) -> variable_list {
         return {ops::div(g[0], ops::mul(c.arg(0), 0.6931471805599453))};
       },
       {"aten::log2_"}},
      // log10(Tensor self) -> Tensor: 1 / (self ln 10)
      {"aten::log10", "Log10Backward0", {0}, {0}, false,
       [](C c, G g) -> variable_list {
         return {ops::div(g[0], ops::mul(c.arg(0), 2.302585092994046))};
       },
       {"aten::log10_"}},

      // --- piecewise constant: zero gradient ---------------------------------------------------
      // sign(Tensor self) -> Tensor
      {"aten::sign", "SignBackward0", {0}, {}, false, zero_gradient, {"aten::sign_"}},
      // floor(Tensor self) -> Tensor
      {"aten::floor", "FloorBackward0", {0}, {}, false, zero_gradient, {"aten::floor_"}},
      // ceil(Tensor self) -> Tensor
      {"aten::ceil", "CeilBackward0", {0}, {}, false, zero_gradient, {"aten::ceil_"}},
      // round(Tensor self) -> Tensor
      {"aten::round", "RoundBackward0", {0}, {}, false, zero_gradient, {"aten::round_"}},
      // round.decimals(Tensor self, *, int decimals) -> Tensor
      {"aten::round.decimals", "RoundBackward1", {0}, {}, false, zero_gradient,
       {"aten::round_.decimals"}},
      // trunc(Tensor self) -> Tensor
      {"aten::trunc", "TruncBackward0", {0}, {}, false, zero_gradient, {"aten::trunc_"}},

      // --- rounding divisions and remainders ---------------------------------------------------
      // div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor: div's
      //   gradient without a rounding mode, zero with one (the result is piecewise constant)
      {"aten::div.Tensor_mode", "DivBackward2", {0, 1}, {0, 1}, false,
       [](C c, G g) -> variable_list {
         if (!c.value(2).is_none()) return {zeros_like_arg(c, 0), zeros_like_arg(c, 1)};
         Tensor other = c.arg(1);
         return {c.needs(0) ? ops::div(g[0], other) : Tensor(),
                 c.needs(1) ? ops::neg(ops::div(ops::mul(g[0], c.arg(0)), ops::mul(other, other)))
                            : Tensor()};
       },
       {"aten::div_.Tensor_mode"}},
      // div.Scalar_mode(Tensor self, Scalar other, *, str? rounding_mode) -> Tensor
      {"aten::div.Scalar_mode", "DivBackward3", {0}, {}, false,
       [](C c, G g) -> variable_list {
         if (!c.value(2).is_none()) return {zeros_like_arg(c, 0)};
         return {ops::div(g[0], c.value(1).to_scalar())};
       },
       {"aten::div_.Scalar_mode"}},
      // fmod.Scalar(Tensor self, Scalar other) -> Tensor: self - other * trunc(self / other)
      {"aten::fmod.Scalar", "FmodBackward0", {0}, {}, false, unchanged, {"aten::fmod_.Scalar"}},
      // fmod.Tensor(Tensor self, Tensor other) -> Tensor: d/dother = -trunc(self / other)
      {"aten::fmod.Tensor", "FmodBackward1", {0, 1}, {0, 1}, false,
       [](C c, G g) -> variable_list {
         return {g[0], c.needs(1) ? ops::neg(ops::mul(g[0], ops::trunc(ops::div(c.arg(0), c.arg(1)))))
                                  : Tensor()};
       },
       {"aten::fmod_.Tensor"}},
      // remainder.Scalar(Tensor self, Scalar other) -> Tensor: self - other * floor(self / other)
      {"aten::remainder.Scalar", "RemainderBackward0", {0}, {}, false, unchanged,
       {"aten::remainder_.Scalar"}},
      // remainder.Tensor(Tensor self, Tensor other) -> Tensor: d/dother = -floor(self / other)
      {"aten::remainder.Tensor", "RemainderBackward1", {0, 1}, {0, 1}, false,
       [](C c, G g) -> variable_list {
         return {g[0], c.needs(1) ? ops::neg(ops::mul(g[0], ops::floor(ops::div(c.arg(0), c.arg(1)))))
                                  : Tensor()};
       },
       {"aten::remainder_.Tensor"}},
      // lerp.Scalar(Tensor self, Tensor end, Scalar weight) -> Tensor: self + w (end - self)
      {"aten::lerp.Scalar", "LerpBackward0", {0, 1}, {}, false,
       [](C c, G g) -> variable_list {
         double w = c.value(2).to_double();
         return {ops::mul(g[0], 1.0 - w), ops::mul(g[0], w)};
       },
       {"aten::lerp_.Scalar"}},
      // lerp.Tensor(Tensor self, Tensor end, Tensor weight) -> Tensor
      {"aten::lerp.Tensor", "LerpBackward1", {0, 1, 2}, {0, 1, 2}, false,
       [](C c, G g) -> variable_list {
         Tensor w = c.arg(2);
         return {c.needs(0) ? ops::mul(g[0], ops::rsub(w, Scalar(1))) : Tensor(),
                 c.needs(1) ? ops::mul(g[0], w) : Tensor(),
                 c.needs(2) ? ops::mul(g[0], ops::sub(c.arg(1), c.arg(0))) : Tensor()};
       },
       {"aten::lerp_.Tensor"}},
      // nan_to_num(Tensor self, float? nan=None, float? posinf=None, float? neginf=None) -> Tensor:
      //   1 where self is finite, 0 where it was replaced
      {"aten::nan_to_num", "NanToNumBackward0", {0}, {0}, false,
       [](C c, G g) -> variable_list { return {ops::mul(g[0], ops::isfinite(c.arg(0)))}; },
       {"aten::nan_to_num_"}},

      // --- clamp with tensor bounds ------------------------------------------------------------
      // clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor:
      //   min(max(self, min), max): the gradient goes to whichever of the three is the result
      {"aten::clamp.Tensor", "ClampBackward0", {0, 1, 2}, {0, 1, 2}, false,
       [](C c, G g) -> variable_list {
         Tensor x = c.arg(0), lo = c.arg(1), hi = c.arg(2), from_lo, from_hi;
         if (hi.defined())
           from_hi = lo.defined() ? ops::logical_or(ops::gt(x, hi), ops::gt(lo, hi)) : ops::gt(x, hi);
         if (lo.defined())
           from_lo = hi.defined() ? ops::logical_and(ops::lt(x, lo), ops::logical_not(from_hi))
                                  : ops::lt(x, lo);
         Tensor from_bound = !lo.defined() ? from_hi
                             : !hi.defined() ? from_lo : ops::logical_or(from_lo, from_hi);
         auto where = [&](const Tensor& m) { return ops::where(m, g[0], Scalar(0.0)); };
         return {c.needs(0) ? ops::where(from_bound, Scalar(0.0), g[0]) : Tensor(),
                 c.needs(1) ? where(from_lo) : Tensor(), c.needs(2) ? where(from_hi) : Tensor()};
       },
       {"aten::clamp_.Tensor"}},
      // clamp_max(Tensor self, Scalar max) -> Tensor: 1 where self <= max
      {"aten::clamp_max", "ClampMaxBackward0", {0}, {0}, false,
       [](C c, G g) -> variable_list {
         return {ops::mul(g[0], ops::le(c.arg(0), c.value(1).to_scalar()))};
       },
       {"aten::clamp_max_"}},
      // clamp_max.Tensor(Tensor self, Tensor max) -> Tensor
      {"aten::clamp_max.Tensor", "ClampMaxBackward1", {0, 1}, {0, 1}, false,
       [](C c, G g) -> variable_list {
         Tensor keep = ops::le(c.arg(0), c.arg(1));
         return {c.needs(0) ? ops::where(keep, g[0], Scalar(0.0)) : Tensor(),
                 c.needs(1) ? ops::where(keep, Scalar(0.0), g[0]) : Tensor()};
       },
       {"aten::clamp_max_.Tensor"}},
      // clamp_min.Tensor(Tensor self, Tensor min) -> Tensor
      {"aten::clamp_min.Tensor", "ClampMinBackward1", {0, 1}, {0, 1}, false,
       [](C c, G g) -> variable_list {
         Tensor keep = ops::ge(c.arg(0), c.arg(1));
         return {c.needs(0) ? ops::where(keep, g[0], Scalar(0.0)) : Tensor(),
                 c.needs(1) ? ops::where(keep, Scalar(0.0), g[0]) : Tensor()};
       },
       {"aten::clamp_min_.Tensor"}},

      // --- products ----------------------------------------------------------------------------
      // addmv(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) -> Tensor:
      //   beta * self + alpha * mat (M,K) · vec (K) -> (M)
      {"aten::addmv", "AddmvBackward0", {0, 1, 2}, {1, 2}, false,
       [](C c, G g) -> variable_list {
         Scalar beta = c.value(3).to_scalar(), alpha = c.value(4).to_scalar();
         return {c.needs(0) ? times(g[0], beta) : Tensor(),
                 c.needs(1) ? times(ops::outer(g[0], c.arg(2)), alpha) : Tensor(),    // (M)(K)
                 c.needs(2) ? times(ops::mv(ops::t(c.arg(1)), g[0]), alpha) : Tensor()};  // (K,M)(M)
       },
       {"aten::addmv_"}},
      // baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1):
      //   beta * self + alpha * batch1 (B,M,K) · batch2 (B,K,N) -> (B,M,N)
      {"aten::baddbmm", "BaddbmmBackward0", {0, 1, 2}, {1, 2}, false,
       [](C c, G g) -> variable_list {
         Scalar beta = c.value(3).to_scalar(), alpha = c.value(4).to_scalar();
         return {c.needs(0) ? times(g[0], beta) : Tensor(),
                 c.needs(1) ? times(ops::bmm(g[0], ops::transpose(c.arg(2), 1, 2)), alpha) : Tensor(),
                 c.needs(2) ? times(ops::bmm(ops::transpose(c.arg(1), 1, 2), g[0]), alpha) : Tensor()};
       },
       {"aten::baddbmm_"}},
      // vdot(Tensor self, Tensor other) -> Tensor: (K) · (K) -> () (real: dot)
      {"aten::vdot", "VdotBackward0", {0, 1}, {0, 1}, false,
       [](C c, G g) -> variable_list {
         return {c.needs(0) ? ops::mul(g[0], c.arg(1)) : Tensor(),
                 c.needs(1) ? ops::mul(g[0], c.arg(0)) : Tensor()};
       }},
      // prod(Tensor self, *, ScalarType? dtype=None) -> Tensor: the product of the others
      {"aten::prod", "ProdBackward0", {0}, {0}, false,
       [](C c, G g) -> variable_list {
         Tensor flat = ops::reshape(c.arg(0), {-1});
         return {ops::mul(g[0], ops::reshape(product_of_others(flat, 0), c.sizes(0)))};
       }},
      // prod.dim_int(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None)
      {"aten::prod.dim_int", "ProdBackward1", {0}, {0}, false,
       [](C c, G g) -> variable_list {
         Tensor x = c.arg(0);
         if (x.dim() == 0) return {g[0]};
         int64_t d = wrap_dim(c.value(1).to_int(), x.dim());
         Tensor gfull = unreduce(g[0], c.sizes(0), {d}, c.value(2).to_bool());
         return {ops::mul(gfull, product_of_others(x, d))};
       }},
      // cumprod(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor:
      //   the reversed cumsum of g * result, divided by self (inputs without zeros)
      {"aten::cumprod", "CumprodBackward0", {0}, {0}, true,
       [](C c, G g) -> variable_list {
         int64_t d[1] = {c.value(1).to_int()};
         IntArrayRef dim(d, 1);
         Tensor s = ops::flip(ops::cumsum(ops::flip(ops::mul(g[0], c.result()), dim), d[0]), dim);
         return {ops::div(s, c.arg(0))};
       }},

      // --- statistics and norms ----------------------------------------------------------------
      // var_mean.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False)
      //   -> (Tensor, Tensor)
      {"aten::var_mean.correction", "VarMeanBackward0", {0}, {0}, false,
       [](C c, G g) -> variable_list {
         auto dims = reduced_dims(c.value(1), c.sizes(0).size());
         bool keep = c.value(3).to_bool();
         return {ops::add(variance_backward(c, g[0], dims, keep), mean_backward(c, g[1], dims, keep))};
       }},
      // std_mean.correction(...) -> (Tensor, Tensor): std's part is var's times 1 / (2 std)
      {"aten::std_mean.correction", "StdMeanBackward0", {0}, {0}, true,
       [](C c, G g) -> variable_list {
         auto dims = reduced_dims(c.value(1), c.sizes(0).size());
         bool keep = c.value(3).to_bool();
         Tensor gvar = ops::div(g[0], ops::mul(c.result(0), 2.0));
         return {ops::add(variance_backward(c, gvar, dims, keep), mean_backward(c, g[1], dims, keep))};
       }},
      // linalg_vector_norm(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *,
      //                    ScalarType? dtype=None) -> Tensor
      {"aten::linalg_vector_norm", "LinalgVectorNormBackward0", {0}, {0}, true,
       [](C c, G g) -> variable_list {
         auto dims = reduced_dims(c.value(2), c.sizes(0).size());
         return {norm_backward(c, g[0], c.value(1).to_double(), dims, c.value(3).to_bool())};
       }},
      // norm.Scalar(Tensor self, Scalar p=2) -> Tensor
      {"aten::norm.Scalar", "NormBackward0", {0}, {0}, true,
       [](C c, G g) -> variable_list {
         auto dims = reduced_dims(IValue(), c.sizes(0).size());
         return {norm_backward(c, g[0], c.value(1).to_double(), dims, false)};
       }},
      // norm.ScalarOpt_dim(Tensor self, Scalar? p, int[1] dim, bool keepdim=False) -> Tensor
      {"aten::norm.ScalarOpt_dim", "NormBackward1", {0}, {0}, true,
       [](C c, G g) -> variable_list {
         auto dims = reduced_dims(c.value(2), c.sizes(0).size());
         double p = c.value(1).is_none() ? 2.0 : c.value(1).to_double();
         return {norm_backward(c, g[0], p, dims, c.value(3).to_bool())};
       }},

      // --- losses ------------------------------------------------------------------------------
      // binary_cross_entropy_with_logits(Tensor self, Tensor target, Tensor? weight=None,
      //                                  Tensor? pos_weight=None, int reduction=1) -> Tensor:
      //   l = (1 - t) x + (1 + (pw - 1) t) softplus(-x);
      //   dl/dx = (1 - t) - (1 + (pw - 1) t) (1 - sigmoid(x)) (sigmoid(x) - t without pw),
      //   dl/dt = -x + (pw - 1) softplus(-x)
      {"aten::binary_cross_entropy_with_logits", "BinaryCrossEntropyWithLogitsBackward0",
       {0, 1}, {0, 1, 2, 3}, false,
       [](C c, G g) -> variable_list {
         Tensor x = c.arg(0), t = c.arg(1), w = c.arg(2), pw = c.arg(3), dx, dt;
         if (pw.defined()) {
           Tensor coef = ops::add(ops::mul(ops::sub(pw, Scalar(1)), t), Scalar(1));
           dx = ops::sub(ops::rsub(t, Scalar(1)), ops::mul(coef, ops::rsub(ops::sigmoid(x), Scalar(1))));
           dt = ops::sub(ops::mul(ops::sub(pw, Scalar(1)), ops::softplus(ops::neg(x))), x);
         } else {
           dx = ops::sub(ops::sigmoid(x), t);
           dt = ops::neg(x);
         }
         Tensor scale = w.defined() ? ops::mul(g[0], w) : g[0];
         if (c.value(4).to_int() == 1) scale = ops::div(scale, Scalar(count(c.sizes(0),
             reduced_dims(IValue(), c.sizes(0).size()))));
         return {c.needs(0) ? ops::mul(dx, scale) : Tensor(), c.needs(1) ? ops::mul(dt, scale) : Tensor()};
       }},
  };
}
// clang-format on

}  // namespace opscope::autograd
