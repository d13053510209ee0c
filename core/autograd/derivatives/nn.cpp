// The derivative table's nn family (see core/autograd/Derivatives.h; core/ops/nn.h): activations,
// losses, layer and group norm, dropout, embedding, padding, pooling and upsampling.
#include "core/autograd/GradMode.h"
#include "core/autograd/derivatives/common.h"
#include "core/ops/binary.h"
#include "core/ops/compare.h"
#include "core/ops/copy.h"
#include "core/ops/factories.h"
#include "core/ops/indexing.h"
#include "core/ops/nn.h"
#include "core/ops/reduce.h"
#include "core/ops/shape.h"
#include "core/ops/unary.h"
#include "core/ops/views.h"

namespace opscope::autograd {

namespace {

// The gradients of a loss of self and target that is f(self - target) elementwise, given
// d = f'(self - target) * grad: d / numel for the mean, d for self, -d for target.
variable_list pointwise_loss_grads(formulas::C c, Tensor d) {
  if (c.value("reduction").to_int() == ops::kReductionMean) {
    int64_t n = 1;
    for (int64_t s : c.sizes("self")) n *= s;
    d = ops::div(d, Scalar(n));
  }
  return {c.needs("self") ? d : Tensor(), c.needs("target") ? ops::neg(d) : Tensor()};
}

// nll_loss's gradient from differentiable ops (create_graph), classes last: -weight[t] * g at
// each target's class (divided by the total weight for the mean), 0 for ignored targets.
Tensor nll_grad_composite(formulas::C c, const Tensor& g, int64_t classes) {
  Tensor target = c.arg("target"), weight = c.arg("weight");
  int64_t reduction = c.value("reduction").to_int(), ignore = c.value("ignore_index").to_int();
  Tensor valid = ops::ne(target, Scalar(ignore));
  Tensor safe = ops::where(valid, target, Scalar(int64_t{0}));
  Tensor coef = ops::to(valid, c.dtype("self"));
  if (weight.defined())
    coef = ops::mul(coef, ops::view(ops::index_select(weight, 0, ops::reshape(safe, {-1})),
                                    safe.sizes()));
  if (reduction == 1) coef = ops::div(coef, ops::sum(coef, ops::OptScalarType{}));
  coef = ops::mul(coef, g);
  return ops::neg(ops::mul(ops::one_hot(safe, classes), ops::unsqueeze(coef, -1)));
}

// The gradient of elu_ / celu_ from their result y: g scale where y > 0, g input_scale (y +
// alpha scale) elsewhere (elu_backward with is_result, whose negative alpha is refused;
// create_graph: the same from differentiable ops).
Tensor elu_from_result(formulas::C c, const Tensor& g, const Scalar& alpha, const Scalar& scale,
                       const Scalar& input_scale) {
  Tensor y = c.result();
  if (!grad_mode_enabled()) return ops::elu_backward(g, alpha, scale, input_scale, true, y);
  const double a = alpha.to_double(), s = scale.to_double(), is = input_scale.to_double();
  Tensor negative = ops::mul(ops::add(y, a * s), is);
  return ops::mul(g, ops::where(ops::gt(y, Scalar(0)), ops::full_like(y, s), negative));
}

// An upsampling op's optional output_size / scale_factors, as its kernels take them.
std::optional<IntArrayRef> optional_ints(const IValue& v) {
  return v.is_none() ? std::nullopt : std::optional<IntArrayRef>(v.to_int_list());
}

// grid_sampler_2d's and grid_sampler_3d's formula: one backward call for the gradients needed,
// output_mask saying whether input's is (torch's grad_input_mask; the grid's is always computed)
template <typename Backward>
variable_list grid_sampler_gradients(const Backward& backward, const BackwardContext& c,
                                     const variable_list& g) {
  if (!g[0].defined()) return {Tensor(), Tensor()};
  const int64_t mask[2] = {c.needs("input") ? 1 : 0, c.needs("grid") ? 1 : 0};
  auto [grad_input, grad_grid] =
      backward(g[0], c.arg("input"), c.arg("grid"), c.value("interpolation_mode").to_int(),
               c.value("padding_mode").to_int(), c.value("align_corners").to_bool(),
               IntArrayRef(mask, 2));
  return {grad_input, c.needs("grid") ? grad_grid : Tensor()};
}

std::optional<DoubleArrayRef> optional_doubles(const IValue& v) {
  return v.is_none() ? std::nullopt : std::optional<DoubleArrayRef>(v.to_double_list());
}

// binary_cross_entropy_with_logits' gradient for its input before weight and reduction, in torch
// 1.13's steps: sigmoid(x).sub_(t).mul_(g), or with pos_weight (pt = pw t) pt.add(1).sub_(t)
// .mul_(sigmoid(x)).sub_(pt).mul_(g); out of place when the result must stay differentiable.
Tensor bce_with_logits_input_grad(const Tensor& x, const Tensor& t, const Tensor& pw,
                                  const Tensor& g, bool in_place) {
  Tensor r;
  if (pw.defined()) {
    Tensor pt = ops::mul(pw, t);
    r = ops::add(pt, Scalar(1));
    r = in_place ? ops::sub_(r, t) : ops::sub(r, t);
    Tensor s = ops::sigmoid(x);
    r = in_place ? ops::mul_(r, s) : ops::mul(r, s);
    r = in_place ? ops::sub_(r, pt) : ops::sub(r, pt);
  } else {
    r = ops::sigmoid(x);
    r = in_place ? ops::sub_(r, t) : ops::sub(r, t);
  }
  return in_place ? ops::mul_(r, g) : ops::mul(r, g);
}

// The shrinks' gradient from differentiable ops: g where x is outside [-l, l] (NaN too), else 0
Tensor shrink_gradient(const Tensor& g, const Tensor& x, const Scalar& l) {
  const double v = l.to_double();
  Tensor inside = ops::logical_and(ops::ge(x, Scalar(-v)), ops::le(x, Scalar(v)));
  return ops::where(inside, ops::zeros_like(g), g);
}

// rrelu_with_noise's gradient from x (its input, or its in-place form's result): the op itself,
// or under create_graph the same from differentiable ops (noise g in training, else g where
// x > 0 and slope g elsewhere).
Tensor rrelu_gradient(formulas::C c, const Tensor& g, const Tensor& x, bool x_is_result) {
  const Scalar lower = c.value("lower").to_scalar(), upper = c.value("upper").to_scalar();
  const bool training = c.value("training").to_bool();
  Tensor noise = c.arg("noise");
  if (!grad_mode_enabled())
    return ops::rrelu_with_noise_backward(g, x, noise, lower, upper, training, x_is_result);
  if (training && upper.to_double() - lower.to_double() > 1e-6) return ops::mul(g, noise);
  const double slope = (lower.to_double() + upper.to_double()) / 2;
  return ops::where(ops::gt(x, Scalar(0)), g, ops::mul(g, slope));
}

// A [C] weight's shape against a [N, C, *] input: [1, C, 1, ..., 1]
std::vector<int64_t> prelu_channel_shape(int64_t dim, int64_t channels) {
  std::vector<int64_t> shape(static_cast<size_t>(dim), 1);
  shape[1] = channels;
  return shape;
}

// torch's max_pool_double_backward: grad (*, Q) read at indices (*, P), the last `dim` dims of
// each flattened into one plane: grad.contiguous().view(*, -1).gather(-1, indices.view(*, -1))
// at indices' shape. MaxUnpool2DBackward0 / MaxUnpool3DBackward0's formula.
Tensor max_pool_double_backward(const Tensor& grad, const Tensor& indices, int64_t dim) {
  DimVector planes(indices.sizes().begin(), indices.sizes().end() - dim);
  planes.push_back(-1);
  const Tensor gathered =
      ops::gather(ops::view(ops::contiguous(grad), planes), -1, ops::view(indices, planes));
  return ops::view(gathered, indices.sizes());
}

}  // namespace

// convolution's and _convolution's formula: convolution_backward for the inputs that need one
// (see Note [Boolean masks as ints] in core/ops/cpu/conv.cpp).
variable_list convolution_formula(const BackwardContext& c, const variable_list& g) {
  const bool input = c.needs("input"), weight = c.needs("weight"), bias = c.needs("bias");
  if (!g[0].defined()) return {Tensor(), Tensor(), Tensor()};
  std::optional<IntArrayRef> bias_sizes;
  if (bias) bias_sizes = c.sizes("bias");
  auto [gi, gw, gb] = ops::convolution_backward(
      g[0], c.arg("input"), c.arg("weight"), bias_sizes, c.value("stride").to_int_list(),
      c.value("padding").to_int_list(), c.value("dilation").to_int_list(),
      c.value("transposed").to_bool(), c.value("output_padding").to_int_list(),
      c.value("groups").to_int(),
      std::vector<int64_t>{int64_t(input), int64_t(weight), int64_t(bias)});
  return {gi, gw, gb};
}

// clang-format off
std::vector<Derivative> nn_derivatives() {
  using namespace formulas;
  return {
      // relu(Tensor self) -> Tensor: g where result > 0, as torch's threshold_backward(grad,
      //   result, 0)
      {.op = "relu", .node = "ReluBackward0", .inputs = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         return {ops::threshold_backward(g[0], c.result(), Scalar(0))};
       },
       .inplace = {"relu_"}},
      // threshold_backward(Tensor grad_output, Tensor self, Scalar threshold) -> Tensor:
      //   linear in grad_output (the same mask); piecewise constant in self
      {.op = "threshold_backward", .node = "ThresholdBackwardBackward0",
       .inputs = {"grad_output", "self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {c.needs("grad_output")
                     ? ops::threshold_backward(g[0], c.arg("self"), c.value("threshold").to_scalar())
                     : Tensor(),
                 c.needs("self") ? ops::zeros_like(g[0]) : Tensor()};
       }},
      // leaky_relu(Tensor self, Scalar negative_slope=0.01) -> Tensor: 1 where self > 0, else the
      //   slope (torch's leaky_relu_backward; create_graph: a where)
      {.op = "leaky_relu", .node = "LeakyReluBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         const Scalar slope = c.value("negative_slope").to_scalar();
         if (!grad_mode_enabled())
           return {ops::leaky_relu_backward(g[0], c.arg("self"), slope, false)};
         return {ops::where(ops::gt(c.arg("self"), Scalar(0)), g[0], ops::mul(g[0], slope))};
       }},
      // leaky_relu_: the same read off the result (torch's LeakyReluBackward1; a negative slope
      //   is refused at backward, as torch's)
      {.op = "leaky_relu_", .node = "LeakyReluBackward1", .inputs = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         const Scalar slope = c.value("negative_slope").to_scalar();
         if (!grad_mode_enabled()) return {ops::leaky_relu_backward(g[0], c.result(), slope, true)};
         return {ops::where(ops::gt(c.result(), Scalar(0)), g[0], ops::mul(g[0], slope))};
       }},
      // hardshrink / softshrink(Tensor self, Scalar lambd=0.5) -> Tensor: g outside [-lambd,
      //   lambd] (hardshrink_backward / softshrink_backward; create_graph: a where)
      {.op = "hardshrink", .node = "HardshrinkBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         const Scalar l = c.value("lambd").to_scalar();
         if (!grad_mode_enabled()) return {ops::hardshrink_backward(g[0], c.arg("self"), l)};
         return {shrink_gradient(g[0], c.arg("self"), l)};
       }},
      {.op = "softshrink", .node = "SoftshrinkBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         const Scalar l = c.value("lambd").to_scalar();
         if (!grad_mode_enabled()) return {ops::softshrink_backward(g[0], c.arg("self"), l)};
         return {shrink_gradient(g[0], c.arg("self"), l)};
       }},
      // rrelu_with_noise(Tensor self, Tensor noise, Scalar lower, Scalar upper, bool training,
      //   Generator? generator) -> Tensor: noise g in training, else leaky_relu's with slope
      //   (lower + upper) / 2 (rrelu_with_noise_ from the result: RreluWithNoiseBackward1)
      {.op = "rrelu_with_noise", .node = "RreluWithNoiseBackward0", .inputs = {"self"},
       .save = {"self", "noise"},
       .formula = [](C c, G g) -> variable_list {
         return {rrelu_gradient(c, g[0], c.arg("self"), false)};
       }},
      {.op = "rrelu_with_noise_", .node = "RreluWithNoiseBackward1", .inputs = {"self"},
       .save = {"noise"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         return {rrelu_gradient(c, g[0], c.result(), true)};
       }},
      // prelu(Tensor self, Tensor weight) -> Tensor: prelu_backward's two gradients (create_graph:
      //   the same from differentiable ops)
      {.op = "prelu", .node = "PreluBackward0", .inputs = {"self", "weight"},
       .save = {"self", "weight"},
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("self"), w = c.arg("weight");
         if (!grad_mode_enabled()) {
           auto [gi, gw] = ops::prelu_backward(g[0], x, w);
           return {gi, gw};
         }
         Tensor positive = ops::gt(x, Scalar(0));
         Tensor wb = w.numel() == 1 || x.dim() < 2
                         ? w
                         : ops::reshape(w, prelu_channel_shape(x.dim(), w.numel()));
         Tensor gi = ops::where(positive, g[0], ops::mul(g[0], wb));
         Tensor terms = ops::where(positive, ops::zeros_like(x), ops::mul(x, g[0]));
         if (w.numel() == 1) return {gi, ops::reshape(ops::sum(terms), w.sizes())};
         std::vector<int64_t> dims{0};
         for (int64_t d = 2; d < x.dim(); ++d) dims.push_back(d);
         return {gi, ops::sum(terms, dims)};
       }},
      // threshold(Tensor self, Scalar threshold, Scalar value) -> Tensor: g where self >
      //   threshold (threshold_ saves the original self too: ThresholdBackward1)
      {.op = "threshold", .node = "ThresholdBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::threshold_backward(g[0], c.arg("self"), c.value("threshold").to_scalar())};
       }},
      {.op = "threshold_", .node = "ThresholdBackward1", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::threshold_backward(g[0], c.arg("self"), c.value("threshold").to_scalar())};
       }},
      // hardtanh(Tensor self, Scalar min_val=-1, Scalar max_val=1) -> Tensor: 1 strictly between
      //   the bounds, 0 at and beyond them
      {.op = "hardtanh", .node = "HardtanhBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("self");
         const Scalar lo = c.value("min_val").to_scalar(), hi = c.value("max_val").to_scalar();
         if (!grad_mode_enabled()) return {ops::hardtanh_backward(g[0], x, lo, hi)};
         Tensor inside = ops::logical_and(ops::gt(x, lo), ops::lt(x, hi));
         return {ops::where(inside, g[0], ops::zeros_like(g[0]))};
       },
       .inplace = {"hardtanh_"}},
      // elu(Tensor self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1) -> Tensor:
      //   scale where self > 0, else input_scale alpha scale exp(input_scale self)
      {.op = "elu", .node = "EluBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("self");
         const Scalar alpha = c.value("alpha").to_scalar(), scale = c.value("scale").to_scalar(),
                      input_scale = c.value("input_scale").to_scalar();
         if (!grad_mode_enabled())
           return {ops::elu_backward(g[0], alpha, scale, input_scale, false, x)};
         const double neg = alpha.to_double() * scale.to_double() * input_scale.to_double();
         Tensor negative = ops::mul(ops::exp(ops::mul(x, input_scale)), neg);
         return {ops::mul(g[0], ops::where(ops::gt(x, Scalar(0)), ops::full_like(x, scale),
                                           negative))};
       }},
      // elu_ (selu_ too): the same read off the result y, input_scale (y + alpha scale) where
      //   y <= 0 (torch's EluBackward1)
      {.op = "elu_", .node = "EluBackward1", .inputs = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         return {elu_from_result(c, g[0], c.value("alpha").to_scalar(),
                                 c.value("scale").to_scalar(), c.value("input_scale").to_scalar())};
       }},
      // celu(Tensor self, Scalar alpha=1.0) -> Tensor: elu's with scale 1 and input_scale
      //   1 / alpha (CeluBackward0; celu_ from the result: CeluBackward1)
      {.op = "celu", .node = "CeluBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("self");
         const Scalar alpha = c.value("alpha").to_scalar();
         const double inv = 1.0 / alpha.to_double();
         if (!grad_mode_enabled()) return {ops::elu_backward(g[0], alpha, 1.0, inv, false, x)};
         return {ops::mul(g[0], ops::where(ops::gt(x, Scalar(0)), ops::ones_like(x),
                                           ops::exp(ops::mul(x, inv))))};
       }},
      {.op = "celu_", .node = "CeluBackward1", .inputs = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         const Scalar alpha = c.value("alpha").to_scalar();
         return {elu_from_result(c, g[0], alpha, 1.0, 1.0 / alpha.to_double())};
       }},
      // log_sigmoid_forward(Tensor self) -> (Tensor output, Tensor buffer): 1 - sigmoid(self)
      {.op = "log_sigmoid_forward", .node = "LogSigmoidBackward0", .inputs = {"self"},
       .save = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("self");
         if (!grad_mode_enabled()) return {ops::log_sigmoid_backward(g[0], x, c.result(1))};
         return {ops::mul(g[0], ops::sigmoid(ops::neg(x)))};
       },
       .outputs = 1},
      // hardsigmoid / hardswish / mish(Tensor self) -> Tensor: torch's *_backward; under
      //   create_graph the same derivatives from differentiable ops
      {.op = "hardsigmoid", .node = "HardsigmoidBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("self");
         if (!grad_mode_enabled()) return {ops::hardsigmoid_backward(g[0], x)};
         Tensor inside = ops::logical_and(ops::gt(x, Scalar(-3)), ops::lt(x, Scalar(3)));
         return {ops::where(inside, ops::div(g[0], Scalar(6)), ops::zeros_like(g[0]))};
       },
       .inplace = {"hardsigmoid_"}},
      {.op = "hardswish", .node = "HardswishBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("self");
         if (!grad_mode_enabled()) return {ops::hardswish_backward(g[0], x)};
         Tensor middle = ops::mul(g[0], ops::add(ops::div(x, Scalar(3)), Scalar(0.5)));
         Tensor d = ops::where(ops::le(x, Scalar(3)), middle, g[0]);
         return {ops::where(ops::lt(x, Scalar(-3)), ops::zeros_like(g[0]), d)};
       },
       .inplace = {"hardswish_"}},
      {.op = "mish", .node = "MishBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("self");
         if (!grad_mode_enabled()) return {ops::mish_backward(g[0], x)};
         Tensor t = ops::tanh(ops::softplus(x));
         Tensor d = ops::add(t, ops::mul(ops::mul(x, ops::sigmoid(x)),
                                         ops::rsub(ops::mul(t, t), Scalar(1))));
         return {ops::mul(g[0], d)};
       },
       .inplace = {"mish_"}},
      // gelu(Tensor self, *, str approximate="none") -> Tensor
      //   none: Phi(x) + x phi(x); tanh: d/dx 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
      {.op = "gelu", .node = "GeluBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("self");
         if (!grad_mode_enabled())  // torch's gelu_backward (create_graph: the ops below)
           return {ops::gelu_backward(g[0], x, c.value("approximate").to_string())};
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
         if (!grad_mode_enabled()) return {ops::silu_backward(g[0], c.arg("self"))};
         Tensor x = c.arg("self"), sg = ops::sigmoid(x);
         Tensor d = ops::mul(sg, ops::add(ops::mul(x, ops::rsub(sg, Scalar(1))), Scalar(1)));
         return {ops::mul(g[0], d)};
       },
       .inplace = {"silu_"}},
      // softplus(Tensor self, Scalar beta=1, Scalar threshold=20) -> Tensor:
      //   sigmoid(beta x), 1 where beta x > threshold (there the result is x itself)
      {.op = "softplus", .node = "SoftplusBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         if (!grad_mode_enabled())
           return {ops::softplus_backward(g[0], c.arg("self"), c.value("beta").to_scalar(),
                                          c.value("threshold").to_scalar())};
         Tensor bx = ops::mul(c.arg("self"), c.value("beta").to_scalar());
         Tensor d = ops::where(ops::gt(bx, c.value("threshold").to_scalar()), Scalar(1.0), ops::sigmoid(bx));
         return {ops::mul(g[0], d)};
       }},
      // nll_loss_forward(Tensor self, Tensor target, Tensor? weight, int reduction,
      //                  int ignore_index) -> (Tensor output, Tensor total_weight)
      //   self (N,C) or (C), target (N) or (); d/dself[n, target[n]] = -weight[target[n]] * g
      //   (divided by the total weight for the mean), 0 for ignored targets
      //   nll_loss_backward as torch's; under create_graph the same from differentiable ops
      {.op = "nll_loss_forward", .node = "NllLossBackward0", .inputs = {"self"},
       .save = {"self", "target", "weight"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         Tensor target = c.arg("target"), weight = c.arg("weight");
         int64_t reduction = c.value("reduction").to_int(), ignore = c.value("ignore_index").to_int();
         if (!grad_mode_enabled())
           return {ops::nll_loss_backward(g[0], c.arg("self"), target, weight, reduction, ignore,
                                          c.result(1))};
         return {nll_grad_composite(c, g[0], c.sizes("self").back())};
       },
       .outputs = 1},
      // nll_loss2d_forward(Tensor self, Tensor target, Tensor? weight, int reduction,
      //                    int ignore_index) -> (Tensor output, Tensor total_weight)
      //   self (N,C,H,W), target (N,H,W): nll_loss_forward's gradient with every pixel a row
      //   (nll_loss_backward over (N*H*W, C), classes moved back to dim 1)
      {.op = "nll_loss2d_forward", .node = "NllLoss2DBackward0", .inputs = {"self"},
       .save = {"self", "target", "weight"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         auto s = c.sizes("self");
         const int64_t n = s[0], classes = s[1], h = s[2], w = s[3];
         Tensor target = c.arg("target"), weight = c.arg("weight");
         int64_t reduction = c.value("reduction").to_int(), ignore = c.value("ignore_index").to_int();
         Tensor rows;  // (N, H, W, C)
         if (!grad_mode_enabled()) {
           Tensor go = reduction == ops::kReductionNone ? ops::reshape(g[0], {-1}) : g[0];
           Tensor shape_of = ops::empty({n * h * w, classes}, c.dtype("self"), std::nullopt,
                                        c.arg("self").device());
           rows = ops::view(ops::nll_loss_backward(go, shape_of, ops::reshape(target, {-1}),
                                                   weight, reduction, ignore, c.result(1)),
                            {n, h, w, classes});
         } else {
           rows = nll_grad_composite(c, g[0], classes);
         }
         return {ops::permute(rows, {0, 3, 1, 2})};
       },
       .outputs = 1},
      // mse_loss(Tensor self, Tensor target, int reduction=1) -> Tensor: 2 (self - target)
      {.op = "mse_loss", .node = "MseLossBackward0", .inputs = {"self", "target"},
       .save = {"self", "target"},
       .formula = [](C c, G g) -> variable_list {
         if (!grad_mode_enabled()) {  // torch's mse_loss_backward, target's with the two swapped
           const int64_t reduction = c.value("reduction").to_int();
           return {c.needs("self") ? ops::mse_loss_backward(g[0], c.arg("self"), c.arg("target"),
                                                            reduction)
                                   : Tensor(),
                   c.needs("target") ? ops::mse_loss_backward(g[0], c.arg("target"),
                                                              c.arg("self"), reduction)
                                     : Tensor()};
         }
         Tensor d = ops::mul(ops::mul(ops::sub(c.arg("self"), c.arg("target")), g[0]), 2.0);
         if (c.value("reduction").to_int() == 1) {
           int64_t n = 1;
           for (int64_t s : c.sizes("self")) n *= s;
           d = ops::div(d, Scalar(n));
         }
         return {c.needs("self") ? d : Tensor(), c.needs("target") ? ops::neg(d) : Tensor()};
       }},
      // smooth_l1_loss(Tensor self, Tensor target, int reduction=1, float beta=1.0) -> Tensor:
      //   clamp((self - target) / beta, -1, 1), for target the same with the operands swapped
      //   (torch's smooth_l1_loss_backward calls); under create_graph the same from
      //   differentiable ops
      {.op = "smooth_l1_loss", .node = "SmoothL1LossBackward0", .inputs = {"self", "target"},
       .save = {"self", "target"},
       .formula = [](C c, G g) -> variable_list {
         const double beta = c.value("beta").to_double();
         const int64_t reduction = c.value("reduction").to_int();
         Tensor x = c.arg("self"), t = c.arg("target");
         if (!grad_mode_enabled()) {
           return {c.needs("self") ? ops::smooth_l1_loss_backward(g[0], x, t, reduction, beta) : Tensor(),
                   c.needs("target") ? ops::smooth_l1_loss_backward(g[0], t, x, reduction, beta) : Tensor()};
         }
         Tensor diff = ops::sub(x, t);
         Tensor d = beta == 0 ? ops::sign(diff)
                              : ops::clamp(ops::div(diff, Scalar(beta)), Scalar(-1.0), Scalar(1.0));
         return pointwise_loss_grads(c, ops::mul(d, g[0]));
       }},
      // huber_loss(Tensor self, Tensor target, int reduction=1, float delta=1.0) -> Tensor:
      //   clamp(self - target, -delta, delta), as smooth_l1_loss's
      {.op = "huber_loss", .node = "HuberLossBackward0", .inputs = {"self", "target"},
       .save = {"self", "target"},
       .formula = [](C c, G g) -> variable_list {
         const double delta = c.value("delta").to_double();
         const int64_t reduction = c.value("reduction").to_int();
         Tensor x = c.arg("self"), t = c.arg("target");
         if (!grad_mode_enabled()) {
           return {c.needs("self") ? ops::huber_loss_backward(g[0], x, t, reduction, delta) : Tensor(),
                   c.needs("target") ? ops::huber_loss_backward(g[0], t, x, reduction, delta) : Tensor()};
         }
         Tensor d = ops::clamp(ops::sub(x, t), Scalar(-delta), Scalar(delta));
         return pointwise_loss_grads(c, ops::mul(d, g[0]));
       }},
      // binary_cross_entropy(Tensor self, Tensor target, Tensor? weight=None, int reduction=1):
      //   (self - target) / (self (1 - self)), the denominator at least 1e-12
      {.op = "binary_cross_entropy", .node = "BinaryCrossEntropyBackward0", .inputs = {"self"},
       .save = {"self", "target", "weight"},
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("self"), y = c.arg("target"), w = c.arg("weight");
         if (!grad_mode_enabled() && x.device().is_cpu())  // torch's fused kernel (CPU only here)
           return {ops::binary_cross_entropy_backward(g[0], x, y, w, c.value("reduction").to_int())};
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
       .inputs = {"input", "weight", "bias"}, .save = {"input", "weight", "bias"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("input"), w = c.arg("weight"), mean = c.result(1), rstd = c.result(2);
         size_t k = c.value("normalized_shape").to_int_list().size(), nd = c.sizes("input").size();
         std::vector<int64_t> dims;
         for (size_t d = nd - k; d < nd; ++d) dims.push_back(static_cast<int64_t>(d));
         if (!grad_mode_enabled()) {  // torch's native_layer_norm_backward
           const int64_t mask[3] = {c.needs("input"), c.needs("weight"), c.needs("bias")};
           auto [dx, dw, db] = ops::native_layer_norm_backward(
               g[0], x, c.value("normalized_shape").to_int_list(), mean, rstd, w, c.arg("bias"),
               IntArrayRef(mask, 3));
           return {dx, dw, db};
         }
         {  // create_graph: mean and rstd as functions of x
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
      // native_group_norm(Tensor input, Tensor? weight, Tensor? bias, SymInt N, SymInt C,
      //                   SymInt HxW, int group, float eps) -> (Tensor, Tensor, Tensor)
      //   per sample and group (the input viewed as (N, group, M)): layer norm's gradient,
      //   xhat = (x - mean) rstd, dxhat = g weight[c]; dx = rstd (dxhat - mean(dxhat) -
      //   xhat mean(dxhat xhat)); dweight = sum of g xhat, dbias = sum of g over N and *
      {.op = "native_group_norm", .node = "NativeGroupNormBackward0",
       .inputs = {"input", "weight", "bias"}, .save = {"input", "weight"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("input"), w = c.arg("weight");
         const int64_t n = c.value("N").to_int(), channels = c.value("C").to_int();
         const int64_t hxw = c.value("HxW").to_int(), group = c.value("group").to_int();
         if (!grad_mode_enabled()) {  // torch's native_group_norm_backward, on contiguous tensors
           const auto contiguous = [](const Tensor& t) {
             return t.is_contiguous() ? t : ops::contiguous(t);
           };
           const int64_t mask[3] = {c.needs("input"), c.needs("weight"), c.needs("bias")};
           auto [dx, dw, db] = ops::native_group_norm_backward(
               contiguous(g[0]), contiguous(x), c.result(1), c.result(2), w, n, channels, hxw,
               group, IntArrayRef(mask, 3));
           return {dx, dw, db};
         }
         // create_graph: the same formula in ops, mean and rstd as functions of x
         const std::vector<int64_t> grouped{n, group, -1}, last{2};
         std::vector<int64_t> channel_shape(c.sizes("input").size(), 1), reduce_dims{0};
         channel_shape[1] = channels;  // (C) -> (1, C, 1, ...): broadcasts against the input
         for (size_t d = 2; d < channel_shape.size(); ++d) reduce_dims.push_back(static_cast<int64_t>(d));
         Tensor xg = ops::reshape(x, grouped);
         Tensor mean = ops::mean(xg, IntArrayRef(last), true, std::nullopt);
         Tensor var = ops::var(xg, IntArrayRef(last), int64_t{0}, true);
         Tensor rstd = ops::reciprocal(ops::sqrt(ops::add(var, Scalar(c.value("eps").to_double()))));
         Tensor xhat = ops::mul(ops::sub(xg, mean), rstd);
         Tensor dxhat = w.defined() ? ops::mul(g[0], ops::reshape(w, channel_shape)) : g[0];
         Tensor dx;
         if (c.needs("input")) {
           Tensor dxhat_g = ops::reshape(dxhat, grouped);
           Tensor m1 = ops::mean(dxhat_g, IntArrayRef(last), true, std::nullopt);
           Tensor m2 = ops::mean(ops::mul(dxhat_g, xhat), IntArrayRef(last), true, std::nullopt);
           dx = ops::reshape(ops::mul(rstd, ops::sub(ops::sub(dxhat_g, m1), ops::mul(xhat, m2))),
                             c.sizes("input"));
         }
         Tensor dw = c.needs("weight")
                         ? ops::sum(ops::mul(g[0], ops::reshape(xhat, c.sizes("input"))),
                                    IntArrayRef(reduce_dims), false, std::nullopt)
                         : Tensor();
         Tensor db = c.needs("bias") ? ops::sum(g[0], IntArrayRef(reduce_dims), false, std::nullopt)
                                     : Tensor();
         return {dx, dw, db};
       },
       .outputs = 1},
      // native_batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean,
      //                   Tensor? running_var, bool training, float momentum, float eps)
      //     -> (Tensor out, Tensor save_mean, Tensor save_invstd)
      //   per channel, over the dims R = all but 1: xhat = (x - mean) invstd;
      //   training: dx = weight invstd (g - mean_R(g) - xhat mean_R(g xhat)) (mean and invstd
      //   are the batch's); eval: dx = g weight invstd (the running ones, constants);
      //   dweight = sum_R(g xhat), dbias = sum_R(g)
      {.op = "native_batch_norm", .node = "NativeBatchNormBackward0",
       .inputs = {"input", "weight", "bias"},
       .save = {"input", "weight", "running_mean", "running_var"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("input"), w = c.arg("weight");
         const auto nd = static_cast<int64_t>(c.sizes("input").size());
         std::vector<int64_t> dims{0}, channel_shape(static_cast<size_t>(nd), 1);
         for (int64_t d = 2; d < nd; ++d) dims.push_back(d);
         channel_shape[1] = -1;  // (C) -> (1, C, 1, ...): broadcasts against the input
         const bool training = c.value("training").to_bool();
         const double eps = c.value("eps").to_double();
         if (!grad_mode_enabled()) {  // torch's fused kernel (create_graph: the ops below)
           const int64_t mask[3] = {c.needs("input"), c.needs("weight"), c.needs("bias")};
           auto [dx, dw, db] = ops::native_batch_norm_backward(
               g[0], x, w, c.arg("running_mean"), c.arg("running_var"), c.result(1), c.result(2),
               training, eps, IntArrayRef(mask, 3));
           return {dx, dw, db};
         }
         Tensor mean, invstd;
         if (!training) {
           mean = ops::reshape(c.arg("running_mean"), channel_shape);
           invstd = ops::reshape(ops::reciprocal(ops::sqrt(ops::add(c.arg("running_var"), Scalar(eps)))),
                                 channel_shape);
         } else {  // create_graph: mean and invstd as functions of x
           mean = ops::mean(x, IntArrayRef(dims), true, std::nullopt);
           Tensor var = ops::var(x, IntArrayRef(dims), int64_t{0}, true);
           invstd = ops::reciprocal(ops::sqrt(ops::add(var, Scalar(eps))));
         }
         Tensor xhat = ops::mul(ops::sub(x, mean), invstd);
         Tensor scale = w.defined() ? ops::mul(invstd, ops::reshape(w, channel_shape)) : invstd;
         Tensor dx;
         if (c.needs("input")) {
           if (training) {
             Tensor m1 = ops::mean(g[0], IntArrayRef(dims), true, std::nullopt);
             Tensor m2 = ops::mean(ops::mul(g[0], xhat), IntArrayRef(dims), true, std::nullopt);
             dx = ops::mul(scale, ops::sub(ops::sub(g[0], m1), ops::mul(xhat, m2)));
           } else {
             dx = ops::mul(g[0], scale);
           }
         }
         Tensor dw = c.needs("weight")
                         ? ops::sum(ops::mul(g[0], xhat), IntArrayRef(dims), false, std::nullopt)
                         : Tensor();
         Tensor db = c.needs("bias") ? ops::sum(g[0], IntArrayRef(dims), false, std::nullopt) : Tensor();
         return {dx, dw, db};
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
      //   each row of g summed into the row of weight it came from (divided by its index's count
      //   with scale_grad_by_freq); padding_idx gets none. torch's embedding_backward; under
      //   create_graph the same ops called here, so the gradient is differentiable in g
      {.op = "embedding", .node = "EmbeddingBackward0", .inputs = {"weight"}, .save = {"indices"},
       .formula = [](C c, G g) -> variable_list {
         if (grad_mode_enabled())
           return {composite::embedding_dense_backward_from_ops(
               g[0], c.arg("indices"), c.sizes("weight")[0], c.value("padding_idx").to_int(),
               c.value("scale_grad_by_freq").to_bool())};
         return {ops::embedding_backward(g[0], c.arg("indices"), c.sizes("weight")[0],
                                         c.value("padding_idx").to_int(),
                                         c.value("scale_grad_by_freq").to_bool(),
                                         c.value("sparse").to_bool())};
       }},
      // binary_cross_entropy_with_logits(Tensor self, Tensor target, Tensor? weight=None,
      //                                  Tensor? pos_weight=None, int reduction=1) -> Tensor:
      //   l = (1 - t) x + (1 + (pw - 1) t) softplus(-x);
      //   dl/dx = (pw t + 1 - t) sigmoid(x) - pw t (sigmoid(x) - t without pw), in torch 1.13's
      //   steps (binary_cross_entropy_with_logits_backward: in place unless grad mode is on);
      //   dl/dt = -x + (pw - 1) softplus(-x)
      {.op = "binary_cross_entropy_with_logits", .node = "BinaryCrossEntropyWithLogitsBackward0",
       .inputs = {"self", "target"}, .save = {"self", "target", "weight", "pos_weight"},
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("self"), t = c.arg("target"), w = c.arg("weight"),
                pw = c.arg("pos_weight");
         const bool mean = c.value("reduction").to_int() == 1;
         const int64_t n = count(c.sizes("self"), reduced_dims(IValue(), c.sizes("self").size()));
         Tensor dx;
         if (c.needs("self")) {
           const bool in_place = !grad_mode_enabled();
           dx = bce_with_logits_input_grad(x, t, pw, g[0], in_place);
           if (w.defined()) dx = in_place ? ops::mul_(dx, w) : ops::mul(dx, w);
           if (mean) dx = in_place ? ops::div_(dx, Scalar(n)) : ops::div(dx, Scalar(n));
         }
         Tensor dt;
         if (c.needs("target")) {
           dt = pw.defined() ? ops::sub(ops::mul(ops::sub(pw, Scalar(1)), ops::softplus(ops::neg(x))), x)
                             : ops::neg(x);
           Tensor scale = w.defined() ? ops::mul(g[0], w) : g[0];
           if (mean) scale = ops::div(scale, Scalar(n));
           dt = ops::mul(dt, scale);
         }
         return {dx, dt};
       }},
      // constant_pad_nd(Tensor self, SymInt[] pad, Scalar value=0) -> Tensor: the padding cut off
      // again (a negative pad, which cropped, pads the gradient with zeros)
      {.op = "constant_pad_nd", .node = "ConstantPadNdBackward0", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         std::vector<int64_t> back;
         for (int64_t p : c.value("pad").to_int_list()) back.push_back(-p);
         return {ops::constant_pad_nd(g[0], back, 0)};
       }},
      // unsafe_split.Tensor(Tensor self, SymInt split_size, int dim=0) -> Tensor[]: the pieces'
      // gradients joined again, as split's (the RNN cells' gate split)
      {.op = "unsafe_split.Tensor", .node = "UnsafeSplitBackward0", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::cat(g, c.value("dim").to_int())};
       }},
      // --- convolution and pooling -------------------------------------------------------
      // convolution(Tensor input, Tensor weight, Tensor? bias, int[] stride, int[] padding,
      //             int[] dilation, bool transposed, int[] output_padding, int groups) -> Tensor
      //   all three gradients from convolution_backward (core/ops/cpu/conv.cpp)
      {.op = "convolution", .node = "ConvolutionBackward0", .inputs = {"input", "weight", "bias"},
       .save = {"input", "weight"}, .formula = convolution_formula},
      // _convolution(..., int groups, bool benchmark, bool deterministic, bool cudnn_enabled,
      //              bool allow_tf32) -> Tensor: the same, called directly
      {.op = "_convolution", .node = "ConvolutionBackward1", .inputs = {"input", "weight", "bias"},
       .save = {"input", "weight"}, .formula = convolution_formula},
      // max_pool2d_with_indices(Tensor self, int[2] kernel_size, int[2] stride, int[2] padding,
      //                         int[2] dilation, bool ceil_mode) -> (Tensor, Tensor indices):
      //   each gradient to its window's maximum
      {.op = "max_pool2d_with_indices", .node = "MaxPool2DWithIndicesBackward0", .inputs = {"self"},
       .save = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         return {ops::max_pool2d_with_indices_backward(
             g[0], c.arg("self"), c.value("kernel_size").to_int_list(),
             c.value("stride").to_int_list(), c.value("padding").to_int_list(),
             c.value("dilation").to_int_list(), c.value("ceil_mode").to_bool(), c.result(1))};
       },
       .outputs = 1},
      // avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride, int[2] padding, bool ceil_mode,
      //            bool count_include_pad, int? divisor_override) -> Tensor
      {.op = "avg_pool2d", .node = "AvgPool2DBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         const IValue& divisor = c.value("divisor_override");
         return {ops::avg_pool2d_backward(
             g[0], c.arg("self"), c.value("kernel_size").to_int_list(),
             c.value("stride").to_int_list(), c.value("padding").to_int_list(),
             c.value("ceil_mode").to_bool(), c.value("count_include_pad").to_bool(),
             divisor.is_none() ? std::nullopt : std::optional<int64_t>(divisor.to_int()))};
       }},
      // avg_pool2d_backward(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] stride,
      //     int[2] padding, bool ceil_mode, bool count_include_pad, int? divisor_override):
      //   grad_output: avg_pool2d(grad, kernel_size, stride, padding, ceil_mode,
      //   count_include_pad, divisor_override) (the backward is linear in grad_output);
      //   self: zeros_like(self) (self only gives the shape; none here, the same sum)
      {.op = "avg_pool2d_backward", .node = "AvgPool2DBackwardBackward0",
       .inputs = {"grad_output", "self"},
       .formula = [](C c, G g) -> variable_list {
         if (!c.needs("grad_output")) return {Tensor(), Tensor()};
         const IValue& divisor = c.value("divisor_override");
         return {ops::avg_pool2d(
                     g[0], c.value("kernel_size").to_int_list(), c.value("stride").to_int_list(),
                     c.value("padding").to_int_list(), c.value("ceil_mode").to_bool(),
                     c.value("count_include_pad").to_bool(),
                     divisor.is_none() ? std::nullopt : std::optional<int64_t>(divisor.to_int())),
                 Tensor()};
       }},
      // avg_pool3d(Tensor self, int[3] kernel_size, int[3] stride, int[3] padding,
      //            bool ceil_mode, bool count_include_pad, int? divisor_override):
      //   self: avg_pool3d_backward(grad, self, kernel_size, stride, padding, ceil_mode,
      //   count_include_pad, divisor_override)
      {.op = "avg_pool3d", .node = "AvgPool3DBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         const IValue& divisor = c.value("divisor_override");
         return {ops::avg_pool3d_backward(
             g[0], c.arg("self"), c.value("kernel_size").to_int_list(),
             c.value("stride").to_int_list(), c.value("padding").to_int_list(),
             c.value("ceil_mode").to_bool(), c.value("count_include_pad").to_bool(),
             divisor.is_none() ? std::nullopt : std::optional<int64_t>(divisor.to_int()))};
       }},
      // avg_pool3d_backward(...): grad_output: avg_pool3d(grad, ...) (linear in grad_output);
      //   self: zeros_like(self) (none here)
      {.op = "avg_pool3d_backward", .node = "AvgPool3DBackwardBackward0",
       .inputs = {"grad_output", "self"},
       .formula = [](C c, G g) -> variable_list {
         if (!c.needs("grad_output")) return {Tensor(), Tensor()};
         const IValue& divisor = c.value("divisor_override");
         return {ops::avg_pool3d(
                     g[0], c.value("kernel_size").to_int_list(), c.value("stride").to_int_list(),
                     c.value("padding").to_int_list(), c.value("ceil_mode").to_bool(),
                     c.value("count_include_pad").to_bool(),
                     divisor.is_none() ? std::nullopt : std::optional<int64_t>(divisor.to_int())),
                 Tensor()};
       }},
      // reflection / replication padding: the gradient sums each output cell's gradient into the
      // cell it copied (the backward op); the backward op is linear in grad_output (its gradient:
      // the padding of it) and self only gives its shape
      //   reflection_pad2d(Tensor self, SymInt[4] padding) -> Tensor
      //   reflection_pad2d_backward(Tensor grad_output, Tensor self, SymInt[4] padding) -> Tensor
      {.op = "reflection_pad1d", .node = "ReflectionPad1DBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::reflection_pad1d_backward(g[0], c.arg("self"), c.value("padding").to_int_list())};
       }},
      {.op = "reflection_pad1d_backward", .node = "ReflectionPad1DBackwardBackward0", .inputs = {"grad_output", "self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::reflection_pad1d(g[0], c.value("padding").to_int_list()),
                 c.needs("self") ? zeros_like_arg(c, "self") : Tensor()};
       }},
      {.op = "reflection_pad2d", .node = "ReflectionPad2DBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::reflection_pad2d_backward(g[0], c.arg("self"), c.value("padding").to_int_list())};
       }},
      {.op = "reflection_pad2d_backward", .node = "ReflectionPad2DBackwardBackward0", .inputs = {"grad_output", "self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::reflection_pad2d(g[0], c.value("padding").to_int_list()),
                 c.needs("self") ? zeros_like_arg(c, "self") : Tensor()};
       }},
      {.op = "replication_pad1d", .node = "ReplicationPad1DBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::replication_pad1d_backward(g[0], c.arg("self"), c.value("padding").to_int_list())};
       }},
      {.op = "replication_pad1d_backward", .node = "ReplicationPad1DBackwardBackward0", .inputs = {"grad_output", "self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::replication_pad1d(g[0], c.value("padding").to_int_list()),
                 c.needs("self") ? zeros_like_arg(c, "self") : Tensor()};
       }},
      {.op = "replication_pad2d", .node = "ReplicationPad2DBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::replication_pad2d_backward(g[0], c.arg("self"), c.value("padding").to_int_list())};
       }},
      {.op = "replication_pad2d_backward", .node = "ReplicationPad2DBackwardBackward0", .inputs = {"grad_output", "self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::replication_pad2d(g[0], c.value("padding").to_int_list()),
                 c.needs("self") ? zeros_like_arg(c, "self") : Tensor()};
       }},
      // Upsampling (the .vec overloads F.interpolate calls): each op's gradient is its backward op
      // on the same geometry; the backward op is linear in grad_output, its gradient the op.
      //   upsample_nearest2d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors)
      //   upsample_bilinear2d.vec(Tensor input, SymInt[]? output_size, bool align_corners,
      //                           float[]? scale_factors)
      //   *_backward.vec(Tensor grad_output, SymInt[]? output_size, SymInt[] input_size, ...)
      {.op = "upsample_nearest1d.vec", .node = "UpsampleNearest1DBackward1", .inputs = {"input"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::upsample_nearest1d_backward(g[0], optional_ints(c.value("output_size")), c.sizes("input"),
                                    optional_doubles(c.value("scale_factors")))};
       }},
      {.op = "upsample_nearest1d_backward.vec", .node = "UpsampleNearest1DBackwardBackward1", .inputs = {"grad_output"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::upsample_nearest1d(g[0], optional_ints(c.value("output_size")),
                           optional_doubles(c.value("scale_factors")))};
       }},
      {.op = "upsample_nearest2d.vec", .node = "UpsampleNearest2DBackward1", .inputs = {"input"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::upsample_nearest2d_backward(g[0], optional_ints(c.value("output_size")), c.sizes("input"),
                                    optional_doubles(c.value("scale_factors")))};
       }},
      {.op = "upsample_nearest2d_backward.vec", .node = "UpsampleNearest2DBackwardBackward1", .inputs = {"grad_output"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::upsample_nearest2d(g[0], optional_ints(c.value("output_size")),
                           optional_doubles(c.value("scale_factors")))};
       }},
      {.op = "_upsample_nearest_exact1d.vec", .node = "UpsampleNearestExact1DBackward1", .inputs = {"input"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::_upsample_nearest_exact1d_backward(g[0], optional_ints(c.value("output_size")), c.sizes("input"),
                                    optional_doubles(c.value("scale_factors")))};
       }},
      {.op = "_upsample_nearest_exact1d_backward.vec", .node = "UpsampleNearestExact1DBackwardBackward1", .inputs = {"grad_output"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::_upsample_nearest_exact1d(g[0], optional_ints(c.value("output_size")),
                           optional_doubles(c.value("scale_factors")))};
       }},
      {.op = "_upsample_nearest_exact2d.vec", .node = "UpsampleNearestExact2DBackward1", .inputs = {"input"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::_upsample_nearest_exact2d_backward(g[0], optional_ints(c.value("output_size")), c.sizes("input"),
                                    optional_doubles(c.value("scale_factors")))};
       }},
      {.op = "_upsample_nearest_exact2d_backward.vec", .node = "UpsampleNearestExact2DBackwardBackward1", .inputs = {"grad_output"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::_upsample_nearest_exact2d(g[0], optional_ints(c.value("output_size")),
                           optional_doubles(c.value("scale_factors")))};
       }},
      {.op = "upsample_linear1d.vec", .node = "UpsampleLinear1DBackward1", .inputs = {"input"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::upsample_linear1d_backward(g[0], optional_ints(c.value("output_size")), c.sizes("input"), c.value("align_corners").to_bool(),
                                    optional_doubles(c.value("scale_factors")))};
       }},
      {.op = "upsample_linear1d_backward.vec", .node = "UpsampleLinear1DBackwardBackward1", .inputs = {"grad_output"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::upsample_linear1d(g[0], optional_ints(c.value("output_size")), c.value("align_corners").to_bool(),
                           optional_doubles(c.value("scale_factors")))};
       }},
      {.op = "upsample_bilinear2d.vec", .node = "UpsampleBilinear2DBackward1", .inputs = {"input"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::upsample_bilinear2d_backward(g[0], optional_ints(c.value("output_size")), c.sizes("input"), c.value("align_corners").to_bool(),
                                    optional_doubles(c.value("scale_factors")))};
       }},
      {.op = "upsample_bilinear2d_backward.vec", .node = "UpsampleBilinear2DBackwardBackward1", .inputs = {"grad_output"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::upsample_bilinear2d(g[0], optional_ints(c.value("output_size")), c.value("align_corners").to_bool(),
                           optional_doubles(c.value("scale_factors")))};
       }},
      // _adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor
      {.op = "_adaptive_avg_pool2d", .node = "AdaptiveAvgPool2DBackward0", .inputs = {"self"},
       .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::_adaptive_avg_pool2d_backward(g[0], c.arg("self"))};
       }},
      // adaptive_max_pool2d(Tensor self, int[2] output_size) -> (Tensor, Tensor indices)
      {.op = "adaptive_max_pool2d", .node = "AdaptiveMaxPool2DBackward0", .inputs = {"self"},
       .save = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         return {ops::adaptive_max_pool2d_backward(g[0], c.arg("self"), c.result(1))};
       },
       .outputs = 1},

      // --- margin losses, glu, pixel shuffle -----------------------------------------------------
      // soft_margin_loss(Tensor self, Tensor target, int reduction=1) -> Tensor:
      //   self: soft_margin_loss_backward(grad, self, target, reduction) (target: none, as torch's)
      {.op = "soft_margin_loss", .node = "SoftMarginLossBackward0", .inputs = {"self"},
       .save = {"self", "target"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::soft_margin_loss_backward(g[0], c.arg("self"), c.arg("target"),
                                                c.value("reduction").to_int())};
       }},
      // soft_margin_loss_backward(Tensor grad_output, Tensor self, Tensor target, int reduction):
      //   the forward's gradient is grad_output f(self) norm with f = -t s, s = sigmoid(-t x), so
      //   grad_output: sum of grad f norm (over grad_output's broadcast); self: grad grad_output
      //   t^2 s (1 - s) norm
      {.op = "soft_margin_loss_backward", .node = "SoftMarginLossBackwardBackward0",
       .inputs = {"grad_output", "self"}, .save = {"grad_output", "self", "target"},
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("self"), t = c.arg("target");
         double norm = 1.0;
         if (c.value("reduction").to_int() == ops::kReductionMean) {
           int64_t n = 1;
           for (int64_t s : c.sizes("self")) n *= s;
           norm = 1.0 / static_cast<double>(n);
         }
         Tensor s = ops::sigmoid(ops::neg(ops::mul(t, x)));
         Tensor grad_grad_output, grad_self;
         if (c.needs("grad_output"))
           grad_grad_output = ops::mul(ops::mul(ops::neg(ops::mul(t, s)), g[0]), Scalar(norm));
         if (c.needs("self")) {
           Tensor curvature = ops::mul(ops::mul(ops::mul(t, t), s), ops::rsub(s, Scalar(1)));
           grad_self = ops::mul(ops::mul(ops::mul(curvature, g[0]), c.arg("grad_output")),
                                Scalar(norm));
         }
         return {grad_grad_output, grad_self};
       }},
      // multi_margin_loss(Tensor self, Tensor target, Scalar p=1, Scalar margin=1,
      //                   Tensor? weight=None, int reduction=1) -> Tensor:
      //   self: multi_margin_loss_backward(grad, self, target, p, margin, weight, reduction)
      //   (weight: none; the backward op has no derivative, as in torch)
      {.op = "multi_margin_loss", .node = "MultiMarginLossBackward0", .inputs = {"self"},
       .save = {"self", "target", "weight"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::multi_margin_loss_backward(
             g[0], c.arg("self"), c.arg("target"), c.value("p").to_scalar(),
             c.value("margin").to_scalar(), c.arg("weight"), c.value("reduction").to_int())};
       }},
      // multi_margin_loss_backward(...) and multilabel_margin_loss_backward(...): no derivative
      //   in torch 1.13 (no double backward of these losses), whose node is named NotImplemented
      //   and fails when backward reaches it
      {.op = "multi_margin_loss_backward", .node = "NotImplemented",
       .inputs = {"grad_output", "self"},
       .formula = [](C, G) -> variable_list {
         throw Error("derivative for aten::multi_margin_loss_backward is not implemented");
       }},
      {.op = "multilabel_margin_loss_backward", .node = "NotImplemented",
       .inputs = {"grad_output", "self"},
       .formula = [](C, G) -> variable_list {
         throw Error("derivative for aten::multilabel_margin_loss_backward is not implemented");
       }},
      // multilabel_margin_loss_forward(Tensor self, Tensor target, int reduction)
      //     -> (Tensor output, Tensor is_target):
      //   self: multilabel_margin_loss_backward(grad, self, target, reduction, is_target)
      {.op = "multilabel_margin_loss_forward", .node = "MultilabelMarginLossBackward0",
       .inputs = {"self"}, .save = {"self", "target"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         return {ops::multilabel_margin_loss_backward(g[0], c.arg("self"), c.arg("target"),
                                                      c.value("reduction").to_int(),
                                                      c.result(1))};
       },
       .outputs = 1},
      // glu(Tensor self, int dim=-1) -> Tensor: self: glu_backward(grad, self, dim)
      {.op = "glu", .node = "GluBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::glu_backward(g[0], c.arg("self"), c.value("dim").to_int())};
       }},
      // glu_backward(Tensor grad_output, Tensor self, int dim) -> Tensor: with a, b the halves
      //   of self, s = sigmoid(b), s' = s (1 - s) and the incoming gradient's halves ga, gb:
      //   grad_output: ga s + gb a s'; self: (gb grad_output s', grad_output (ga s' + gb a s'
      //   (1 - 2 s))) joined along dim
      {.op = "glu_backward", .node = "GluBackwardBackward0", .inputs = {"grad_output", "self"},
       .save = {"grad_output", "self"},
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("self"), go = c.arg("grad_output");
         const int64_t dim = wrap_dim(c.value("dim").to_int(), x.dim());
         const int64_t half = x.size(dim) / 2;
         Tensor a = ops::narrow(x, dim, 0, half), b = ops::narrow(x, dim, half, half);
         Tensor ga = ops::narrow(g[0], dim, 0, half), gb = ops::narrow(g[0], dim, half, half);
         Tensor s = ops::sigmoid(b);
         Tensor ds = ops::mul(s, ops::rsub(s, Scalar(1)));
         Tensor gb_a_ds = ops::mul(ops::mul(gb, a), ds);
         Tensor grad_grad_output, grad_self;
         if (c.needs("grad_output")) grad_grad_output = ops::add(ops::mul(ga, s), gb_a_ds);
         if (c.needs("self")) {
           Tensor d2s = ops::mul(ds, ops::rsub(ops::mul(s, Scalar(2)), Scalar(1)));
           Tensor grad_a = ops::mul(ops::mul(gb, go), ds);
           Tensor grad_b = ops::mul(
               go, ops::add(ops::mul(ga, ds), ops::mul(ops::mul(gb, a), d2s)));
           grad_self = ops::cat(std::vector<Tensor>{grad_a, grad_b}, dim);
         }
         return {grad_grad_output, grad_self};
       }},
      // pixel_shuffle(Tensor self, int upscale_factor) -> Tensor:
      //   self: pixel_unshuffle(grad, upscale_factor)
      {.op = "pixel_shuffle", .node = "PixelShuffleBackward0", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::pixel_unshuffle(g[0], c.value("upscale_factor").to_int())};
       }},
      // pixel_unshuffle(Tensor self, int downscale_factor) -> Tensor:
      //   self: pixel_shuffle(grad, downscale_factor)
      {.op = "pixel_unshuffle", .node = "PixelUnshuffleBackward0", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::pixel_shuffle(g[0], c.value("downscale_factor").to_int())};
       }},

      // --- spatial transformers ------------------------------------------------------------------
      // grid_sampler_2d(Tensor input, Tensor grid, int interpolation_mode, int padding_mode,
      //                 bool align_corners) -> Tensor:
      //   input, grid: grid_sampler_2d_backward(grad, input, grid, interpolation_mode,
      //                padding_mode, align_corners, grad_input_mask)
      {.op = "grid_sampler_2d", .node = "GridSampler2DBackward0", .inputs = {"input", "grid"},
       .save = {"input", "grid"},
       .formula = [](C c, G g) -> variable_list {
         return grid_sampler_gradients(ops::grid_sampler_2d_backward, c, g);
       }},
      // grid_sampler_3d(...) -> Tensor: the same through grid_sampler_3d_backward
      {.op = "grid_sampler_3d", .node = "GridSampler3DBackward0", .inputs = {"input", "grid"},
       .save = {"input", "grid"},
       .formula = [](C c, G g) -> variable_list {
         return grid_sampler_gradients(ops::grid_sampler_3d_backward, c, g);
       }},
      // grid_sampler_2d_backward / grid_sampler_3d_backward: no derivative in torch 1.13 (no
      //   double backward of grid_sample); the node is named NotImplemented and fails when
      //   backward reaches it
      {.op = "grid_sampler_2d_backward", .node = "NotImplemented",
       .inputs = {"grad_output", "input", "grid"},
       .formula = [](C, G) -> variable_list {
         throw Error("derivative for aten::grid_sampler_2d_backward is not implemented");
       }},
      {.op = "grid_sampler_3d_backward", .node = "NotImplemented",
       .inputs = {"grad_output", "input", "grid"},
       .formula = [](C, G) -> variable_list {
         throw Error("derivative for aten::grid_sampler_3d_backward is not implemented");
       }},
      // affine_grid_generator(Tensor theta, int[] size, bool align_corners) -> Tensor:
      //   theta: affine_grid_generator_backward(grad, size, align_corners)
      {.op = "affine_grid_generator", .node = "AffineGridGeneratorBackward0", .inputs = {"theta"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::affine_grid_generator_backward(g[0], c.value("size").to_int_list(),
                                                     c.value("align_corners").to_bool())};
       }},

      // --- sliding blocks, unpooling, channel shuffle, _trilinear --------------------------------
      // im2col(Tensor self, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] stride):
      //   self: col2im(grad, {self.size(-2), self.size(-1)}, kernel_size, dilation, padding, stride)
      {.op = "im2col", .node = "Im2ColBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         const IntArrayRef sizes = c.sizes("self");
         const int64_t image[] = {sizes[sizes.size() - 2], sizes[sizes.size() - 1]};
         return {ops::col2im(g[0], image, c.value("kernel_size").to_int_list(),
                             c.value("dilation").to_int_list(), c.value("padding").to_int_list(),
                             c.value("stride").to_int_list())};
       }},
      // col2im(Tensor self, SymInt[2] output_size, int[2] kernel_size, int[2] dilation,
      //        int[2] padding, int[2] stride):
      //   self: im2col(grad, kernel_size, dilation, padding, stride)
      {.op = "col2im", .node = "Col2ImBackward0", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::im2col(g[0], c.value("kernel_size").to_int_list(),
                             c.value("dilation").to_int_list(), c.value("padding").to_int_list(),
                             c.value("stride").to_int_list())};
       }},
      // max_unpool2d(Tensor self, Tensor indices, int[2] output_size):
      //   self: max_pool_double_backward(grad, indices, 2): each output plane of grad read at
      //   the indices (gather), indices: non_differentiable
      {.op = "max_unpool2d", .node = "MaxUnpool2DBackward0", .inputs = {"self"},
       .save = {"indices"},
       .formula = [](C c, G g) -> variable_list {
         return {max_pool_double_backward(g[0], c.arg("indices"), 2)};
       }},
      // max_unpool3d(Tensor self, Tensor indices, int[3] output_size, int[3] stride,
      //              int[3] padding):
      //   self: max_pool_double_backward(grad, indices, 3)
      {.op = "max_unpool3d", .node = "MaxUnpool3DBackward0", .inputs = {"self"},
       .save = {"indices"},
       .formula = [](C c, G g) -> variable_list {
         return {max_pool_double_backward(g[0], c.arg("indices"), 3)};
       }},
      // channel_shuffle(Tensor self, int groups), native_channel_shuffle(Tensor self,
      //   int groups): no derivative in torch 1.13 (derivatives.yaml's not_implemented for the
      //   first, none for the second), whose node is named NotImplemented and fails when backward
      //   reaches it
      {.op = "channel_shuffle", .node = "NotImplemented", .inputs = {"self"},
       .formula = [](C, G) -> variable_list {
         throw Error("derivative for channel_shuffle is not implemented");
       }},
      {.op = "native_channel_shuffle", .node = "NotImplemented", .inputs = {"self"},
       .formula = [](C, G) -> variable_list {
         throw Error("derivative for aten::native_channel_shuffle is not implemented");
       }},
      // _trilinear(Tensor i1, Tensor i2, Tensor i3, int[] expand1, int[] expand2, int[] expand3,
      //            int[] sumdim, int unroll_dim=1):
      //   i1, i2, i3: _trilinear_backward(grad, i1, i2, i3, expand1, expand2, expand3, sumdim,
      //   grad_input_mask): _trilinear with grad in the input's place, its expand list and
      //   sumdim swapped (grad lacks the summed dims, the input its expanded ones)
      {.op = "_trilinear", .node = "TrilinearBackward0", .inputs = {"i1", "i2", "i3"},
       .save = {"i1", "i2", "i3"},
       .formula = [](C c, G g) -> variable_list {
         const auto& e1 = c.value("expand1").to_int_list();
         const auto& e2 = c.value("expand2").to_int_list();
         const auto& e3 = c.value("expand3").to_int_list();
         const auto& sum = c.value("sumdim").to_int_list();
         Tensor grad_i1, grad_i2, grad_i3;
         const Tensor i1 = c.arg("i1"), i2 = c.arg("i2"), i3 = c.arg("i3");
         if (c.needs("i1")) grad_i1 = ops::_trilinear(g[0], i2, i3, sum, e2, e3, e1);
         if (c.needs("i2")) grad_i2 = ops::_trilinear(i1, g[0], i3, e1, sum, e3, e2);
         if (c.needs("i3")) grad_i3 = ops::_trilinear(i1, i2, g[0], e1, e2, sum, e3);
         return {grad_i1, grad_i2, grad_i3};
       }},
  };
}
// clang-format on

}  // namespace opscope::autograd
