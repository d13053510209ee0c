// The unary family's schemas (see core/ops/unary.h for what each op does): one def row per
// overload, as native_functions.yaml. The kernels register themselves at the end of the files
// that define them: core/ops/cpu/unary.cpp and core/ops/composite/unary.cpp.
#include "core/dispatch/Library.h"

namespace opscope {

static Library unary_ops(Library::FRAGMENT, "aten", [](Library& m) {
  m.def("abs(Tensor self) -> Tensor");
  m.def("abs_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("absolute(Tensor self) -> Tensor");
  m.def("absolute_(Tensor(a!) self) -> Tensor(a!)", Variants::Method);
  m.def("absolute.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("sign(Tensor self) -> Tensor");
  m.def("sign_(Tensor(a!) self) -> Tensor(a!)", Variants::Method);
  m.def("sign.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  // sgn: x / |x| (0 at 0), sign's values for real dtypes (torch's abs gradient reads it)
  m.def("sgn(Tensor self) -> Tensor");
  m.def("sgn_(Tensor(a!) self) -> Tensor(a!)", Variants::Method);
  m.def("sgn.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("exp(Tensor self) -> Tensor");
  m.def("exp_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("exp.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("exp2(Tensor self) -> Tensor");
  m.def("exp2_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("exp2.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("expm1(Tensor self) -> Tensor");
  m.def("expm1_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("expm1.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("log(Tensor self) -> Tensor");
  m.def("log_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("log.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("log2(Tensor self) -> Tensor");
  m.def("log2_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("log2.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("log10(Tensor self) -> Tensor");
  m.def("log10_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("log10.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("log1p(Tensor self) -> Tensor");
  m.def("log1p_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("log1p.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("sqrt(Tensor self) -> Tensor");
  m.def("sqrt_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("sqrt.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("rsqrt(Tensor self) -> Tensor");
  m.def("rsqrt_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("rsqrt.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("sin(Tensor self) -> Tensor");
  m.def("sin_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("sin.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("cos(Tensor self) -> Tensor");
  m.def("cos_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("cos.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("tan(Tensor self) -> Tensor");
  m.def("tan_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("tan.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("asin(Tensor self) -> Tensor");
  m.def("asin_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("asin.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("acos(Tensor self) -> Tensor");
  m.def("acos_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("acos.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("atan(Tensor self) -> Tensor");
  m.def("atan_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("atan.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("sinh(Tensor self) -> Tensor");
  m.def("sinh_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("sinh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("cosh(Tensor self) -> Tensor");
  m.def("cosh_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("cosh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("tanh(Tensor self) -> Tensor");
  m.def("tanh_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("tanh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("sigmoid(Tensor self) -> Tensor");
  m.def("sigmoid_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("sigmoid.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  // sigmoid's and tanh's gradients from their result, as SigmoidBackward0 / TanhBackward0 call
  // them: grad_output, output (broadcast) -> grad_output (1 - output) output, grad_output
  // (1 - output^2)
  m.def("sigmoid_backward(Tensor grad_output, Tensor output) -> Tensor", Variants::None);
  m.def(
      "sigmoid_backward.grad_input(Tensor grad_output, Tensor output, *, Tensor(a!) grad_input) "
      "-> Tensor(a!)",
      Variants::None);
  m.def("tanh_backward(Tensor grad_output, Tensor output) -> Tensor", Variants::None);
  m.def(
      "tanh_backward.grad_input(Tensor grad_output, Tensor output, *, Tensor(a!) grad_input) -> "
      "Tensor(a!)",
      Variants::None);
  m.def("logit(Tensor self, float? eps=None) -> Tensor");
  m.def("logit_(Tensor(a!) self, float? eps=None) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("logit.out(Tensor self, float? eps=None, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("erf(Tensor self) -> Tensor");
  m.def("erf_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("erf.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("floor(Tensor self) -> Tensor");
  m.def("floor_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("floor.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("ceil(Tensor self) -> Tensor");
  m.def("ceil_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("ceil.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("round(Tensor self) -> Tensor");
  m.def("round_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("round.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("trunc(Tensor self) -> Tensor");
  m.def("trunc_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("trunc.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("reciprocal(Tensor self) -> Tensor");
  m.def("reciprocal_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("reciprocal.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("round.decimals(Tensor self, *, int decimals) -> Tensor");
  m.def("round_.decimals(Tensor(a!) self, *, int decimals) -> Tensor(a!)",
        Variants::FunctionAndMethod);
  m.def("round.decimals_out(Tensor self, *, int decimals, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("logical_not(Tensor self) -> Tensor");
  m.def("logical_not_(Tensor(a!) self) -> Tensor(a!)", Variants::Method);
  m.def("logical_not.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def(
      "nan_to_num(Tensor self, float? nan=None, float? posinf=None, float? neginf=None) -> Tensor");
  m.def(
      "nan_to_num_(Tensor(a!) self, float? nan=None, float? posinf=None, float? neginf=None) -> "
      "Tensor(a!)",
      Variants::FunctionAndMethod);
  m.def(
      "nan_to_num.out(Tensor self, float? nan=None, float? posinf=None, float? neginf=None, *, "
      "Tensor(a!) out) -> Tensor(a!)",
      Variants::Function);
  m.def("square(Tensor self) -> Tensor");
  m.def("square_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("square.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("positive(Tensor(a) self) -> Tensor(a)");
  m.def("neg(Tensor self) -> Tensor");
  m.def("neg_(Tensor(a!) self) -> Tensor(a!)");
  m.def("neg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("bitwise_not(Tensor self) -> Tensor");
  m.def("bitwise_not_(Tensor(a!) self) -> Tensor(a!)");
  m.def("bitwise_not.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  // core/ops/cpu/unary_math.cpp
  m.def("acosh(Tensor self) -> Tensor");
  m.def("acosh_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("acosh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("asinh(Tensor self) -> Tensor");
  m.def("asinh_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("asinh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("atanh(Tensor self) -> Tensor");
  m.def("atanh_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("atanh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("erfc(Tensor self) -> Tensor");
  m.def("erfc_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("erfc.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("erfinv(Tensor self) -> Tensor");
  m.def("erfinv_(Tensor(a!) self) -> Tensor(a!)", Variants::Method);
  m.def("erfinv.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("lgamma(Tensor self) -> Tensor");
  m.def("lgamma_(Tensor(a!) self) -> Tensor(a!)", Variants::Method);
  m.def("lgamma.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("digamma(Tensor self) -> Tensor");
  m.def("digamma_(Tensor(a!) self) -> Tensor(a!)", Variants::Method);
  m.def("digamma.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  // polygamma(int n, Tensor self): n comes first, so the binding makes it a function only;
  // Tensor.polygamma(n) is written in Python (opscope/_tensor.py) and calls it
  m.def("polygamma(int n, Tensor self) -> Tensor", Variants::Function);
  m.def("polygamma.out(int n, Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("polygamma_(Tensor(a!) self, int n) -> Tensor(a!)", Variants::Method);
  m.def("sinc(Tensor self) -> Tensor");
  m.def("sinc_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("sinc.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("frac(Tensor self) -> Tensor");
  m.def("frac_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("frac.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("signbit(Tensor self) -> Tensor");
  m.def("signbit.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  // The modified Bessel functions of the first kind (core/ops/cpu/bessel.cpp): i0 = I0;
  // special_i1 = I1; special_i0e / special_i1e = exp(-|x|) I0 / I1. torch.special.i0 is an alias.
  m.def("i0(Tensor self) -> Tensor");
  m.def("i0_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("i0.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("special_i1(Tensor self) -> Tensor", Variants::Function);
  m.def("special_i1.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("special_i0e(Tensor self) -> Tensor", Variants::Function);
  m.def("special_i0e.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("special_i1e(Tensor self) -> Tensor", Variants::Function);
  m.def("special_i1e.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  // deg2rad / rad2deg: CompositeExplicitAutograd, a mul by pi / 180 (core/ops/composite/unary.cpp)
  m.def("deg2rad(Tensor self) -> Tensor");
  m.def("deg2rad_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("deg2rad.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("rad2deg(Tensor self) -> Tensor");
  m.def("rad2deg_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("rad2deg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);

  // Aliases (kernels in core/ops/composite/aliases.cpp): negative = neg, arccos / arcsin / arctan
  // = acos / asin / atan, arccosh / arcsinh / arctanh = acosh / asinh / atanh, fix = trunc;
  // torch.special's special_expit = sigmoid, special_gammaln = lgamma, special_psi = digamma,
  // special_logit, special_erf, special_erfc, special_erfinv, special_digamma,
  // special_polygamma, special_sinc, special_exp2, special_expm1, special_log1p, special_round =
  // the op without the prefix.
  m.def("negative(Tensor self) -> Tensor");
  m.def("negative.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("negative_(Tensor(a!) self) -> Tensor(a!)", Variants::Method);
  m.def("arccos(Tensor self) -> Tensor");
  m.def("arccos.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("arccos_(Tensor(a!) self) -> Tensor(a!)", Variants::Method);
  m.def("arcsin(Tensor self) -> Tensor");
  m.def("arcsin.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("arcsin_(Tensor(a!) self) -> Tensor(a!)", Variants::Method);
  m.def("arctan(Tensor self) -> Tensor");
  m.def("arctan.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("arctan_(Tensor(a!) self) -> Tensor(a!)", Variants::Method);
  m.def("arccosh(Tensor self) -> Tensor");
  m.def("arccosh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("arccosh_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("arcsinh(Tensor self) -> Tensor");
  m.def("arcsinh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("arcsinh_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("arctanh(Tensor self) -> Tensor");
  m.def("arctanh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("arctanh_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("fix(Tensor self) -> Tensor");
  m.def("fix.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("fix_(Tensor(a!) self) -> Tensor(a!)", Variants::Method);
  m.def("special_expit(Tensor self) -> Tensor", Variants::Function);
  m.def("special_expit.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("special_logit(Tensor self, float? eps=None) -> Tensor", Variants::Function);
  m.def(
      "special_logit.out(Tensor self, float? eps=None, *, Tensor(a!) out) -> Tensor(a!)",
      Variants::Function);
  m.def("special_erf(Tensor self) -> Tensor", Variants::Function);
  m.def("special_erf.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("special_exp2(Tensor self) -> Tensor", Variants::Function);
  m.def("special_exp2.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("special_expm1(Tensor self) -> Tensor", Variants::Function);
  m.def("special_expm1.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("special_log1p(Tensor self) -> Tensor", Variants::Function);
  m.def("special_log1p.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("special_erfc(Tensor self) -> Tensor", Variants::Function);
  m.def("special_erfc.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("special_erfinv(Tensor self) -> Tensor", Variants::Function);
  m.def("special_erfinv.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("special_gammaln(Tensor self) -> Tensor", Variants::Function);
  m.def("special_gammaln.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("special_digamma(Tensor self) -> Tensor", Variants::Function);
  m.def("special_digamma.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("special_psi(Tensor self) -> Tensor", Variants::Function);
  m.def("special_psi.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("special_polygamma(int n, Tensor self) -> Tensor", Variants::Function);
  m.def("special_polygamma.out(int n, Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("special_sinc(Tensor self) -> Tensor", Variants::Function);
  m.def("special_sinc.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("special_i0(Tensor self) -> Tensor", Variants::Function);
  m.def("special_i0.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("special_round(Tensor self, *, int decimals=0) -> Tensor", Variants::Function);
  m.def(
      "special_round.out(Tensor self, *, int decimals=0, Tensor(a!) out) -> Tensor(a!)",
      Variants::Function);
});

}  // namespace opscope
