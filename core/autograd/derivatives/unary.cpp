// The derivative table's unary family (see core/autograd/Derivatives.h; core/ops/unary.h): one
// tensor operand, an elementwise function of it. Piecewise constant ones (sign,
// floor, round, ...) have a zero gradient, but torch still records their node.
#include <cmath>
#include <numbers>

#include "core/autograd/GradMode.h"
#include "core/autograd/derivatives/common.h"
#include "core/ops/binary.h"
#include "core/ops/compare.h"
#include "core/ops/indexing.h"
#include "core/ops/nn.h"
#include "core/ops/unary.h"

namespace opscope::autograd {

namespace {

using namespace formulas;

// Ops that are piecewise constant: torch records the node, with a zero gradient.
variable_list zero_gradient(C c, G) {
  return {zeros_like_arg(c, "self")};
}

// special_i1 / special_i1e's (torch's i1_backward / i1e_backward): with x = self moved off zero
// (|self| <= eps becomes eps, where the formula divides 0 by 0), i0(x) - result / x and
// i0e(x) - result * (sgn(x) + 1 / x); the limit 0.5 at the tiny ones.
variable_list bessel_i1_backward(C c, G g, bool scaled) {
  Tensor self = c.arg("self"), result = c.result();
  const double eps = self.dtype() == ScalarType::Float32 ? 1.1920928955078125e-07
                                                          : 2.220446049250313e-16;
  Tensor not_tiny = ops::gt(ops::abs(self), Scalar(eps));
  Tensor safe = ops::where(not_tiny, self, ops::full({}, Scalar(eps), self.dtype()));
  Tensor dx = scaled ? ops::sub(ops::special_i0e(safe),
                                ops::mul(result, ops::add(ops::sgn(safe), ops::reciprocal(safe))))
                     : ops::sub(ops::i0(safe), ops::mul(result, ops::reciprocal(safe)));
  return {ops::mul(g[0], ops::where(not_tiny, dx, ops::full({}, Scalar(0.5), self.dtype())))};
}

// polygamma(n, self)'s: polygamma(n + 1, self).
variable_list polygamma_backward(C c, G g) {
  return {ops::mul(g[0], ops::polygamma(c.value("n").to_int() + 1, c.arg("self")))};
}

}  // namespace

// clang-format off
std::vector<Derivative> unary_derivatives() {
  return {
      // neg(Tensor self) -> Tensor
      {.op = "neg", .node = "NegBackward0", .inputs = {"self"},
       .formula = [](C, G g) -> variable_list { return {ops::neg(g[0])}; }, .inplace = {"neg_"}},
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
         if (!grad_mode_enabled() && is_floating(r.dtype()))  // torch's tanh_backward
           return {ops::tanh_backward(g[0], r)};
         return {ops::mul(g[0], ops::rsub(ops::mul(r, r), Scalar(1)))};
       },
       .inplace = {"tanh_"}},
      // sigmoid(Tensor self) -> Tensor: result * (1 - result)
      {.op = "sigmoid", .node = "SigmoidBackward0", .inputs = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         Tensor r = c.result();
         if (!grad_mode_enabled() && is_floating(r.dtype()))  // torch's sigmoid_backward
           return {ops::sigmoid_backward(g[0], r)};
         return {ops::mul(g[0], ops::mul(r, ops::rsub(r, Scalar(1))))};
       },
       .inplace = {"sigmoid_"}},
      // logit(Tensor self, float? eps=None) -> Tensor: 1 / (self * (1 - self)); with eps, 0
      // where self was clamped (outside [eps, 1 - eps])
      {.op = "logit", .node = "LogitBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("self");
         Tensor grad = ops::div(g[0], ops::mul(x, ops::rsub(x, Scalar(1))));
         if (c.value("eps").is_none()) return {grad};
         double eps = c.value("eps").to_double();
         Tensor outside = ops::logical_or(ops::lt(x, Scalar(eps)), ops::gt(x, Scalar(1 - eps)));
         return {ops::masked_fill(grad, outside, Scalar(0))};
       },
       .inplace = {"logit_"}},
      // abs(Tensor self) -> Tensor: grad * self.sgn(), as torch's
      {.op = "abs", .node = "AbsBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::mul(g[0], ops::sgn(c.arg("self")))};
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
      // erf(Tensor self) -> Tensor: 2 / sqrt(pi) * exp(-self^2)
      {.op = "erf", .node = "ErfBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("self");
         return {ops::mul(g[0], ops::mul(ops::exp(ops::neg(ops::mul(x, x))), 1.1283791670955126))};
       },
       .inplace = {"erf_"}},
      // erfc(Tensor self) -> Tensor: -2 / sqrt(pi) * exp(-self^2)
      {.op = "erfc", .node = "ErfcBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("self");
         return {ops::mul(g[0], ops::mul(ops::exp(ops::neg(ops::mul(x, x))), -1.1283791670955126))};
       },
       .inplace = {"erfc_"}},
      // erfinv(Tensor self) -> Tensor: sqrt(pi) / 2 * exp(erfinv(self)^2)
      {.op = "erfinv", .node = "ErfinvBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         Tensor y = ops::erfinv(c.arg("self"));
         return {ops::mul(g[0], ops::mul(ops::exp(ops::mul(y, y)), 0.88622692545275801))};
       },
       .inplace = {"erfinv_"}},
      // i0(Tensor self) -> Tensor: special_i1(self)
      {.op = "i0", .node = "I0Backward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::mul(g[0], ops::special_i1(c.arg("self")))};
       },
       .inplace = {"i0_"}},
      // special_i0e(Tensor self) -> Tensor: special_i1e(self) - sgn(self) * result
      {.op = "special_i0e", .node = "SpecialI0EBackward0", .inputs = {"self"}, .save = {"self"},
       .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         Tensor self = c.arg("self");
         return {ops::mul(g[0], ops::sub(ops::special_i1e(self),
                                         ops::mul(ops::sgn(self), c.result())))};
       }},
      // special_i1(Tensor self) -> Tensor: i1_backward(grad, self, result)
      {.op = "special_i1", .node = "SpecialI1Backward0", .inputs = {"self"}, .save = {"self"},
       .save_result = true,
       .formula = [](C c, G g) -> variable_list { return bessel_i1_backward(c, g, false); }},
      // special_i1e(Tensor self) -> Tensor: i1e_backward(grad, self, result)
      {.op = "special_i1e", .node = "SpecialI1EBackward0", .inputs = {"self"}, .save = {"self"},
       .save_result = true,
       .formula = [](C c, G g) -> variable_list { return bessel_i1_backward(c, g, true); }},
      // lgamma(Tensor self) -> Tensor: digamma(self)
      {.op = "lgamma", .node = "LgammaBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::mul(g[0], ops::digamma(c.arg("self")))};
       },
       .inplace = {"lgamma_"}},
      // digamma(Tensor self) -> Tensor: polygamma(1, self)
      {.op = "digamma", .node = "DigammaBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::mul(g[0], ops::polygamma(1, c.arg("self")))};
       },
       .inplace = {"digamma_"}},
      // polygamma(int n, Tensor self) -> Tensor: polygamma(n + 1, self)
      {.op = "polygamma", .node = "PolygammaBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = polygamma_backward},
      // polygamma_(Tensor(a!) self, int n) -> Tensor(a!): its own entry (n and self swap places)
      {.op = "polygamma_", .node = "PolygammaBackward1", .inputs = {"self"}, .save = {"self"},
       .formula = polygamma_backward},
      // sinc(Tensor self) -> Tensor: (pi x cos(pi x) - sin(pi x)) / (pi x^2), 0 at x = 0
      {.op = "sinc", .node = "SincBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("self"), pi_x = ops::mul(x, std::numbers::pi);
         Tensor d = ops::div(ops::sub(ops::mul(pi_x, ops::cos(pi_x)), ops::sin(pi_x)),
                             ops::mul(pi_x, x));
         return {ops::mul(ops::masked_fill_(d, ops::eq(x, Scalar(0)), Scalar(0)), g[0])};
       },
       .inplace = {"sinc_"}},
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
      // acosh(Tensor self) -> Tensor: 1 / sqrt(self^2 - 1)
      {.op = "acosh", .node = "AcoshBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("self");
         return {ops::mul(g[0], ops::rsqrt(ops::sub(ops::mul(x, x), Scalar(1))))};
       },
       .inplace = {"acosh_"}},
      // asinh(Tensor self) -> Tensor: 1 / sqrt(self^2 + 1)
      {.op = "asinh", .node = "AsinhBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("self");
         return {ops::mul(g[0], ops::rsqrt(ops::add(ops::mul(x, x), Scalar(1))))};
       },
       .inplace = {"asinh_"}},
      // atanh(Tensor self) -> Tensor: 1 / (1 - self^2)
      {.op = "atanh", .node = "AtanhBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("self");
         return {ops::div(g[0], ops::rsub(ops::mul(x, x), Scalar(1)))};
       },
       .inplace = {"atanh_"}},
      // atan(Tensor self) -> Tensor: 1 / (1 + self^2)
      {.op = "atan", .node = "AtanBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("self");
         return {ops::div(g[0], ops::add(ops::mul(x, x), Scalar(1)))};
       },
       .inplace = {"atan_"}},
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
      // sign(Tensor self) -> Tensor
      {.op = "sign", .node = "SignBackward0", .inputs = {"self"},
       .formula = zero_gradient, .inplace = {"sign_"}},
      // sgn(Tensor self) -> Tensor: 0 for real dtypes (torch's sgn_backward keeps self and the
      //   result for the complex case)
      {.op = "sgn", .node = "SgnBackward0", .inputs = {"self"}, .save = {"self"},
       .save_result = true, .formula = zero_gradient, .inplace = {"sgn_"}},
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
      // frac(Tensor self) -> Tensor: self - trunc(self), slope 1
      {.op = "frac", .node = "FracBackward0", .inputs = {"self"},
       .formula = [](C, G g) -> variable_list { return {g[0]}; }, .inplace = {"frac_"}},
      // deg2rad(Tensor self) -> Tensor: pi / 180
      {.op = "deg2rad", .node = "Deg2RadBackward0", .inputs = {"self"},
       .formula = [](C, G g) -> variable_list {
         return {ops::mul(g[0], 0.017453292519943295)};
       },
       .inplace = {"deg2rad_"}},
      // rad2deg(Tensor self) -> Tensor: 180 / pi
      {.op = "rad2deg", .node = "Rad2DegBackward0", .inputs = {"self"},
       .formula = [](C, G g) -> variable_list {
         return {ops::mul(g[0], 57.295779513082323)};
       },
       .inplace = {"rad2deg_"}},
      // nan_to_num(Tensor self, float? nan=None, float? posinf=None, float? neginf=None) -> Tensor:
      //   1 where self is finite, 0 where it was replaced
      {.op = "nan_to_num", .node = "NanToNumBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::mul(g[0], ops::isfinite(c.arg("self")))};
       },
       .inplace = {"nan_to_num_"}},
  };
}
// clang-format on

}  // namespace opscope::autograd
