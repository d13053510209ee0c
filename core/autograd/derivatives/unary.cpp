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
  return {zeros_like_arg(c, "self")};
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
  Tensor x = c.arg("self"), gfull = unreduce(g, c.sizes("self"), dims, keep);
  if (p == 0.0) return zeros_like_arg(c, "self");
  if (p == 1.0) return ops::mul(gfull, ops::sign(x));
  Tensor norm = unreduce(c.result(), c.sizes("self"), dims, keep);
  if (std::isinf(p))
    return ops::mul(ops::mul(gfull, ops::sign(x)), even_share(ops::abs(x), norm, dims));
  Tensor d = p == 2.0 ? ops::div(x, norm)
                      : ops::div(ops::mul(x, ops::pow(ops::abs(x), Scalar(p - 2))),
                                 ops::pow(norm, Scalar(p - 1)));
  return ops::mul(gfull, ops::where(ops::eq(norm, Scalar(0)), Scalar(0.0), d));
}

// var / std's shared part: 2 (x - mean) / (N - correction), times the gradient of the variance.
Tensor variance_backward(C c, const Tensor& gvar, const std::vector<int64_t>& dims, bool keep) {
  double corr = c.value("correction").is_none() ? 1.0 : static_cast<double>(c.value("correction").to_int());
  Tensor x = c.arg("self");
  Tensor centered = ops::sub(x, ops::mean(x, IntArrayRef(dims), true, std::nullopt));
  double n = static_cast<double>(count(c.sizes("self"), dims));
  return ops::mul(ops::mul(unreduce(gvar, c.sizes("self"), dims, keep), centered), 2.0 / (n - corr));
}

// mean's gradient over `dims`.
Tensor mean_backward(C c, const Tensor& g, const std::vector<int64_t>& dims, bool keep) {
  return ops::div(unreduce(g, c.sizes("self"), dims, keep), Scalar(count(c.sizes("self"), dims)));
}

}  // namespace

// clang-format off
std::vector<Derivative> math_table() {
  return {
      // --- trigonometric, hyperbolic, exponential ----------------------------------------------
      // acos(Tensor self) -> Tensor: -1 / sqrt(1 - self^2)
      {.op = "acos", .node = "AcosBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("self");
         return {ops::neg(ops::div(g[0], ops::sqrt(ops::rsub(ops::mul(x, x), Scalar(1)))))};
       },
       .inplace = {"acos_"}},
      // asin(Tensor self) -> Tensor: 1 / sqrt(1 - self^2)
      {.op = "asin", .node = "AsinBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("self");
         return {ops::div(g[0], ops::sqrt(ops::rsub(ops::mul(x, x), Scalar(1))))};
       },
       .inplace = {"asin_"}},
      // atan(Tensor self) -> Tensor: 1 / (1 + self^2)
      {.op = "atan", .node = "AtanBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("self");
         return {ops::div(g[0], ops::add(ops::mul(x, x), Scalar(1)))};
       },
       .inplace = {"atan_"}},
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
      // cosh(Tensor self) -> Tensor: sinh(self)
      {.op = "cosh", .node = "CoshBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::mul(g[0], ops::sinh(c.arg("self")))};
       },
       .inplace = {"cosh_"}},
      // sinh(Tensor self) -> Tensor: cosh(self)
      {.op = "sinh", .node = "SinhBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::mul(g[0], ops::cosh(c.arg("self")))};
       },
       .inplace = {"sinh_"}},
      // tan(Tensor self) -> Tensor: 1 + result^2
      {.op = "tan", .node = "TanBackward0", .inputs = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         Tensor r = c.result();
         return {ops::mul(g[0], ops::add(ops::mul(r, r), Scalar(1)))};
       },
       .inplace = {"tan_"}},
      // rsqrt(Tensor self) -> Tensor: self^(-1/2); -result^3 / 2
      {.op = "rsqrt", .node = "RsqrtBackward0", .inputs = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         Tensor r = c.result();
         return {ops::mul(ops::mul(g[0], ops::mul(ops::mul(r, r), r)), -0.5)};
       },
       .inplace = {"rsqrt_"}},
      // exp2(Tensor self) -> Tensor: result * ln 2
      {.op = "exp2", .node = "Exp2Backward0", .inputs = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         return {ops::mul(ops::mul(g[0], c.result()), 0.6931471805599453)};
       },
       .inplace = {"exp2_"}},
      // log2(Tensor self) -> Tensor: 1 / (self ln 2)
      {.op = "log2", .node = "Log2Backward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::div(g[0], ops::mul(c.arg("self"), 0.6931471805599453))};
       },
       .inplace = {"log2_"}},
      // log10(Tensor self) -> Tensor: 1 / (self ln 10)
      {.op = "log10", .node = "Log10Backward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::div(g[0], ops::mul(c.arg("self"), 2.302585092994046))};
       },
       .inplace = {"log10_"}},

      // --- piecewise constant: zero gradient ---------------------------------------------------
      // sign(Tensor self) -> Tensor
      {.op = "sign", .node = "SignBackward0", .inputs = {"self"},
       .formula = zero_gradient, .inplace = {"sign_"}},
      // floor(Tensor self) -> Tensor
      {.op = "floor", .node = "FloorBackward0", .inputs = {"self"},
       .formula = zero_gradient, .inplace = {"floor_"}},
      // ceil(Tensor self) -> Tensor
      {.op = "ceil", .node = "CeilBackward0", .inputs = {"self"},
       .formula = zero_gradient, .inplace = {"ceil_"}},
      // round(Tensor self) -> Tensor
      {.op = "round", .node = "RoundBackward0", .inputs = {"self"},
       .formula = zero_gradient, .inplace = {"round_"}},
      // round.decimals(Tensor self, *, int decimals) -> Tensor
      {.op = "round.decimals", .node = "RoundBackward1", .inputs = {"self"},
       .formula = zero_gradient, .inplace = {"round_.decimals"}},
      // trunc(Tensor self) -> Tensor
      {.op = "trunc", .node = "TruncBackward0", .inputs = {"self"},
       .formula = zero_gradient, .inplace = {"trunc_"}},

      // --- rounding divisions and remainders ---------------------------------------------------
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
      // nan_to_num(Tensor self, float? nan=None, float? posinf=None, float? neginf=None) -> Tensor:
      //   1 where self is finite, 0 where it was replaced
      {.op = "nan_to_num", .node = "NanToNumBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::mul(g[0], ops::isfinite(c.arg("self")))};
       },
       .inplace = {"nan_to_num_"}},

      // --- clamp with tensor bounds ------------------------------------------------------------
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

      // --- products ----------------------------------------------------------------------------
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
      // prod(Tensor self, *, ScalarType? dtype=None) -> Tensor: the product of the others
      {.op = "prod", .node = "ProdBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         Tensor flat = ops::reshape(c.arg("self"), {-1});
         return {ops::mul(g[0], ops::reshape(product_of_others(flat, 0), c.sizes("self")))};
       }},
      // prod.dim_int(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None)
      {.op = "prod.dim_int", .node = "ProdBackward1", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("self");
         if (x.dim() == 0) return {g[0]};
         int64_t d = wrap_dim(c.value("dim").to_int(), x.dim());
         Tensor gfull = unreduce(g[0], c.sizes("self"), {d}, c.value("keepdim").to_bool());
         return {ops::mul(gfull, product_of_others(x, d))};
       }},
      // cumprod(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor:
      //   the reversed cumsum of g * result, divided by self (inputs without zeros)
      {.op = "cumprod", .node = "CumprodBackward0", .inputs = {"self"}, .save = {"self"},
       .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         int64_t d[1] = {c.value("dim").to_int()};
         IntArrayRef dim(d, 1);
         Tensor s = ops::flip(ops::cumsum(ops::flip(ops::mul(g[0], c.result()), dim), d[0]), dim);
         return {ops::div(s, c.arg("self"))};
       }},

      // --- statistics and norms ----------------------------------------------------------------
      // var_mean.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False)
      //   -> (Tensor, Tensor)
      {.op = "var_mean.correction", .node = "VarMeanBackward0", .inputs = {"self"},
       .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         auto dims = reduced_dims(c.value("dim"), c.sizes("self").size());
         bool keep = c.value("keepdim").to_bool();
         return {ops::add(variance_backward(c, g[0], dims, keep), mean_backward(c, g[1], dims, keep))};
       }},
      // std_mean.correction(...) -> (Tensor, Tensor): std's part is var's times 1 / (2 std)
      {.op = "std_mean.correction", .node = "StdMeanBackward0", .inputs = {"self"},
       .save = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         auto dims = reduced_dims(c.value("dim"), c.sizes("self").size());
         bool keep = c.value("keepdim").to_bool();
         Tensor gvar = ops::div(g[0], ops::mul(c.result(0), 2.0));
         return {ops::add(variance_backward(c, gvar, dims, keep), mean_backward(c, g[1], dims, keep))};
       }},
      // linalg_vector_norm(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *,
      //                    ScalarType? dtype=None) -> Tensor
      {.op = "linalg_vector_norm", .node = "LinalgVectorNormBackward0", .inputs = {"self"},
       .save = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         auto dims = reduced_dims(c.value("dim"), c.sizes("self").size());
         return {norm_backward(c, g[0], c.value("ord").to_double(), dims, c.value("keepdim").to_bool())};
       }},
      // norm.Scalar(Tensor self, Scalar p=2) -> Tensor
      {.op = "norm.Scalar", .node = "NormBackward0", .inputs = {"self"}, .save = {"self"},
       .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         auto dims = reduced_dims(IValue(), c.sizes("self").size());
         return {norm_backward(c, g[0], c.value("p").to_double(), dims, false)};
       }},
      // norm.ScalarOpt_dim(Tensor self, Scalar? p, int[1] dim, bool keepdim=False) -> Tensor
      {.op = "norm.ScalarOpt_dim", .node = "NormBackward1", .inputs = {"self"}, .save = {"self"},
       .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         auto dims = reduced_dims(c.value("dim"), c.sizes("self").size());
         double p = c.value("p").is_none() ? 2.0 : c.value("p").to_double();
         return {norm_backward(c, g[0], p, dims, c.value("keepdim").to_bool())};
       }},

      // --- losses ------------------------------------------------------------------------------
      // binary_cross_entropy_with_logits(Tensor self, Tensor target, Tensor? weight=None,
      //                                  Tensor? pos_weight=None, int reduction=1) -> Tensor:
      //   l = (1 - t) x + (1 + (pw - 1) t) softplus(-x);
      //   dl/dx = (1 - t) - (1 + (pw - 1) t) (1 - sigmoid(x)) (sigmoid(x) - t without pw),
      //   dl/dt = -x + (pw - 1) softplus(-x)
      {.op = "binary_cross_entropy_with_logits", .node = "BinaryCrossEntropyWithLogitsBackward0",
       .inputs = {"self", "target"}, .save = {"self", "target", "weight", "pos_weight"},
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("self"), t = c.arg("target"), w = c.arg("weight"), pw = c.arg("pos_weight"), dx, dt;
         if (pw.defined()) {
           Tensor coef = ops::add(ops::mul(ops::sub(pw, Scalar(1)), t), Scalar(1));
           dx = ops::sub(ops::rsub(t, Scalar(1)), ops::mul(coef, ops::rsub(ops::sigmoid(x), Scalar(1))));
           dt = ops::sub(ops::mul(ops::sub(pw, Scalar(1)), ops::softplus(ops::neg(x))), x);
         } else {
           dx = ops::sub(ops::sigmoid(x), t);
           dt = ops::neg(x);
         }
         Tensor scale = w.defined() ? ops::mul(g[0], w) : g[0];
         if (c.value("reduction").to_int() == 1) scale = ops::div(scale, Scalar(count(c.sizes("self"),
             reduced_dims(IValue(), c.sizes("self").size()))));
         return {c.needs("self") ? ops::mul(dx, scale) : Tensor(), c.needs("target") ? ops::mul(dt, scale) : Tensor()};
       }},
  };
}
// clang-format on

}  // namespace opscope::autograd
