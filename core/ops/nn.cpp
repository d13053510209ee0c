// The nn family's schemas (see core/ops/nn.h for what each op does): one def row per overload.
// The kernels register themselves at the end of the files that define them:
// core/ops/cpu/activation.cpp (relu, gelu, silu, softplus), core/ops/cpu/loss.cpp,
// core/ops/cpu/loss_margin.cpp, core/ops/cpu/glu.cpp, core/ops/cpu/pixel_shuffle.cpp,
// core/ops/cpu/normalization.cpp, core/ops/cpu/nn.cpp, core/ops/composite/nn.cpp,
// core/ops/composite/loss.cpp, core/ops/composite/pixel_shuffle.cpp, core/ops/cpu/im2col.cpp,
// core/ops/cpu/unpool.cpp, core/ops/cpu/channel_shuffle.cpp, core/ops/composite/bilinear.cpp,
// core/ops/cpu/grid_sampler.cpp and core/ops/composite/grid_sampler.cpp.
//
// Keys are torch 1.13's (torch._C._dispatch_dump). Ops torch keeps in torch._C._nn (the losses,
// one_hot, pad) are declared Variants::None: Python reaches them as opscope.ops.aten.<op> from
// opscope.nn.functional, as torch reaches them from torch.nn.functional.
#include "core/dispatch/Library.h"

namespace opscope {

static Library nn_ops(Library::FRAGMENT, "aten", [](Library& m) {
  constexpr Variants kFunction = Variants::Function;
  constexpr Variants kNone = Variants::None;  // torch._C._nn ops and internal kernels

  // --- activations ---
  m.def("relu(Tensor self) -> Tensor");
  m.def("relu_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("relu.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  // grad_output, self (broadcast) -> grad_output where self > threshold, else 0
  m.def("threshold_backward(Tensor grad_output, Tensor self, Scalar threshold) -> Tensor", kNone);
  m.def("gelu(Tensor self, *, str approximate=\"none\") -> Tensor", Variants::None);
  m.def("gelu_(Tensor(a!) self, *, str approximate=\"none\") -> Tensor(a!)", Variants::None);
  m.def("gelu.out(Tensor self, *, str approximate=\"none\", Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("silu(Tensor self) -> Tensor", Variants::None);
  m.def("silu_(Tensor(a!) self) -> Tensor(a!)", Variants::None);
  m.def("silu.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("softplus(Tensor self, Scalar beta=1, Scalar threshold=20) -> Tensor", Variants::None);
  m.def(
      "softplus.out(Tensor self, Scalar beta=1, Scalar threshold=20, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      Variants::Function);
  // leaky_relu: self where self > 0, negative_slope self elsewhere; hardtanh: clamp(self,
  // min_val, max_val); elu: scale self where self > 0, scale alpha (exp(input_scale self) - 1)
  // elsewhere; relu6 = hardtanh(0, 6) and selu = elu with the self-normalizing alpha and scale
  // (CompositeImplicitAutograd, as torch's)
  m.def("leaky_relu(Tensor self, Scalar negative_slope=0.01) -> Tensor", kNone);
  m.def("leaky_relu_(Tensor(a!) self, Scalar negative_slope=0.01) -> Tensor(a!)", kNone);
  m.def(
      "leaky_relu.out(Tensor self, Scalar negative_slope=0.01, *, Tensor(a!) out) -> Tensor(a!)",
      kNone);
  m.def("hardtanh(Tensor self, Scalar min_val=-1, Scalar max_val=1) -> Tensor", kNone);
  m.def("hardtanh_(Tensor(a!) self, Scalar min_val=-1, Scalar max_val=1) -> Tensor(a!)", kNone);
  m.def(
      "hardtanh.out(Tensor self, Scalar min_val=-1, Scalar max_val=1, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      kNone);
  m.def("relu6(Tensor self) -> Tensor", kNone);
  m.def("relu6_(Tensor(a!) self) -> Tensor(a!)", kNone);
  m.def("elu(Tensor self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1) -> Tensor", kNone);
  m.def(
      "elu_(Tensor(a!) self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1) -> "
      "Tensor(a!)",
      kNone);
  m.def(
      "elu.out(Tensor self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1, *, "
      "Tensor(a!) out) -> Tensor(a!)",
      kNone);
  m.def("selu(Tensor self) -> Tensor", kFunction);
  m.def("selu_(Tensor(a!) self) -> Tensor(a!)", kFunction);
  // celu = elu(self, alpha, 1, 1 / alpha) (CompositeExplicitAutograd, CeluBackward0 / 1)
  m.def("celu(Tensor self, Scalar alpha=1.0) -> Tensor", kFunction);
  m.def("celu_(Tensor(a!) self, Scalar alpha=1.0) -> Tensor(a!)", kFunction);
  // rrelu: in training, self <= 0 times a draw from U(lower, upper), else leaky_relu with slope
  // (lower + upper) / 2; rrelu / rrelu_ (CompositeImplicitAutograd) call rrelu_with_noise with a
  // fresh noise tensor, which the training kernel fills with the factors (1 where self > 0)
  m.def(
      "rrelu(Tensor self, Scalar lower=0.125, Scalar upper=0.3333333333333333, "
      "bool training=False, Generator? generator=None) -> Tensor",
      kFunction);
  m.def(
      "rrelu_(Tensor(a!) self, Scalar lower=0.125, Scalar upper=0.3333333333333333, "
      "bool training=False, Generator? generator=None) -> Tensor(a!)",
      kFunction);
  m.def(
      "rrelu_with_noise(Tensor self, Tensor noise, Scalar lower=0.125, "
      "Scalar upper=0.3333333333333333, bool training=False, Generator? generator=None) -> Tensor",
      kNone);
  m.def(
      "rrelu_with_noise_(Tensor(a!) self, Tensor noise, Scalar lower=0.125, "
      "Scalar upper=0.3333333333333333, bool training=False, Generator? generator=None) -> "
      "Tensor(a!)",
      kNone);
  m.def(
      "rrelu_with_noise.out(Tensor self, Tensor noise, Scalar lower=0.125, "
      "Scalar upper=0.3333333333333333, bool training=False, Generator? generator=None, *, "
      "Tensor(a!) out) -> Tensor(a!)",
      kNone);
  m.def(
      "rrelu_with_noise_backward(Tensor grad_output, Tensor self, Tensor noise, Scalar lower, "
      "Scalar upper, bool training, bool self_is_result) -> Tensor",
      kNone);
  // hardshrink: 0 inside [-lambd, lambd], self elsewhere; softshrink: self -+ lambd outside it,
  // 0 inside; their gradients pass grad_output outside [-lambd, lambd]
  m.def("hardshrink(Tensor self, Scalar lambd=0.5) -> Tensor", Variants::FunctionAndMethod);
  m.def("hardshrink.out(Tensor self, Scalar lambd=0.5, *, Tensor(a!) out) -> Tensor(a!)",
        kFunction);
  m.def("hardshrink_backward(Tensor grad_out, Tensor self, Scalar lambd) -> Tensor", kNone);
  m.def("softshrink(Tensor self, Scalar lambd=0.5) -> Tensor", kNone);
  m.def("softshrink.out(Tensor self, Scalar lambd=0.5, *, Tensor(a!) out) -> Tensor(a!)", kNone);
  m.def("softshrink_backward(Tensor grad_output, Tensor self, Scalar lambd) -> Tensor", kNone);
  // prelu: self where self > 0, weight[c] self elsewhere (c along dim 1; a one-element weight
  // everywhere); prelu_backward -> (grad_input, grad_weight), as PreluBackward0 calls it
  m.def("prelu(Tensor self, Tensor weight) -> Tensor", Variants::FunctionAndMethod);
  m.def("prelu_backward(Tensor grad_output, Tensor self, Tensor weight) -> (Tensor, Tensor)",
        Variants::FunctionAndMethod);
  // threshold: value where self <= threshold, self elsewhere (NaN stays)
  m.def("threshold(Tensor self, Scalar threshold, Scalar value) -> Tensor", kFunction);
  m.def("threshold_(Tensor(a!) self, Scalar threshold, Scalar value) -> Tensor(a!)", kFunction);
  m.def(
      "threshold.out(Tensor self, Scalar threshold, Scalar value, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);
  // hardsigmoid: clamp(self + 3, 0, 6) / 6; hardswish: self hardsigmoid(self); mish: self
  // tanh(softplus(self))
  m.def("hardsigmoid(Tensor self) -> Tensor", kNone);
  m.def("hardsigmoid_(Tensor(a!) self) -> Tensor(a!)", kNone);
  m.def("hardsigmoid.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", kNone);
  m.def("hardsigmoid_backward(Tensor grad_output, Tensor self) -> Tensor", kNone);
  m.def("hardswish(Tensor self) -> Tensor", kNone);
  m.def("hardswish_(Tensor(a!) self) -> Tensor(a!)", kNone);
  m.def("hardswish.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", kNone);
  m.def("hardswish_backward(Tensor grad_output, Tensor self) -> Tensor", kNone);
  m.def("mish(Tensor self) -> Tensor", kNone);
  m.def("mish_(Tensor(a!) self) -> Tensor(a!)", kNone);
  m.def("mish.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", kNone);
  m.def("mish_backward(Tensor grad_output, Tensor self) -> Tensor", kNone);
  // log_sigmoid = log_sigmoid_forward's output: min(self, 0) - log1p(exp(-|self|)); the buffer
  // is empty (the backward recomputes exp(-|self|); torch's CPU kernel fills it)
  m.def("log_sigmoid(Tensor self) -> Tensor", kNone);
  m.def("log_sigmoid_forward(Tensor self) -> (Tensor output, Tensor buffer)", kNone);
  m.def("log_sigmoid_backward(Tensor grad_output, Tensor self, Tensor buffer) -> Tensor", kNone);
  // their gradients, as LeakyReluBackward0 / HardtanhBackward0 / EluBackward0 call them
  m.def(
      "leaky_relu_backward(Tensor grad_output, Tensor self, Scalar negative_slope, "
      "bool self_is_result) -> Tensor",
      kNone);
  m.def(
      "hardtanh_backward(Tensor grad_output, Tensor self, Scalar min_val, Scalar max_val) -> "
      "Tensor",
      kNone);
  m.def(
      "elu_backward(Tensor grad_output, Scalar alpha, Scalar scale, Scalar input_scale, "
      "bool is_result, Tensor self_or_result) -> Tensor",
      kNone);
  // The activations' gradients, as torch's GeluBackward0 / SiluBackward0 / SoftplusBackward0 call
  // them: grad_output, self (broadcast) -> grad_output * f'(self)
  m.def("gelu_backward(Tensor grad_output, Tensor self, *, str approximate=\"none\") -> Tensor",
        kNone);
  m.def(
      "gelu_backward.grad_input(Tensor grad_output, Tensor self, *, str approximate=\"none\", "
      "Tensor(a!) grad_input) -> Tensor(a!)",
      kNone);
  m.def("silu_backward(Tensor grad_output, Tensor self) -> Tensor", kNone);
  m.def(
      "silu_backward.grad_input(Tensor grad_output, Tensor self, *, Tensor(a!) grad_input) -> "
      "Tensor(a!)",
      kNone);
  m.def(
      "softplus_backward(Tensor grad_output, Tensor self, Scalar beta, Scalar threshold) -> "
      "Tensor",
      kNone);
  m.def(
      "softplus_backward.grad_input(Tensor grad_output, Tensor self, Scalar beta, "
      "Scalar threshold, *, Tensor(a!) grad_input) -> Tensor(a!)",
      kNone);

  // --- nll_loss ---
  m.def(
      "nll_loss_forward(Tensor self, Tensor target, Tensor? weight, int reduction, "
      "int ignore_index) -> (Tensor output, Tensor total_weight)",
      kNone);
  m.def(
      "nll_loss_forward.output(Tensor self, Tensor target, Tensor? weight, int reduction, "
      "int ignore_index, *, Tensor(a!) output, Tensor(b!) total_weight) -> "
      "(Tensor(a!), Tensor(b!))",
      kNone);
  // grad_output ((N) for none on a batch, else ()), self (N,C) or (C), target -> self's shape
  m.def(
      "nll_loss_backward(Tensor grad_output, Tensor self, Tensor target, Tensor? weight, "
      "int reduction, int ignore_index, Tensor total_weight) -> Tensor",
      kNone);
  m.def(
      "nll_loss2d_forward(Tensor self, Tensor target, Tensor? weight, int reduction, "
      "int ignore_index) -> (Tensor output, Tensor total_weight)",
      kNone);
  m.def(
      "nll_loss2d_forward.output(Tensor self, Tensor target, Tensor? weight, int reduction, "
      "int ignore_index, *, Tensor(a!) output, Tensor(b!) total_weight) -> "
      "(Tensor(a!), Tensor(b!))",
      kNone);
  m.def(
      "nll_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, "
      "int ignore_index=-100) -> Tensor",
      kNone);
  m.def(
      "nll_loss2d(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, "
      "int ignore_index=-100) -> Tensor",
      kNone);
  m.def(
      "nll_loss.out(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, "
      "int ignore_index=-100, *, Tensor(a!) out) -> Tensor(a!)",
      kNone);
  m.def(
      "nll_loss2d.out(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, "
      "int ignore_index=-100, *, Tensor(a!) out) -> Tensor(a!)",
      kNone);
  m.def(
      "nll_loss_nd(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, "
      "int ignore_index=-100) -> Tensor",
      kNone);

  m.def(
      "cross_entropy_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, "
      "int ignore_index=-100, float label_smoothing=0.0) -> Tensor",
      kNone);

  // --- regression and binary losses ---
  m.def("mse_loss(Tensor self, Tensor target, int reduction=1) -> Tensor", kNone);
  m.def(
      "mse_loss.out(Tensor self, Tensor target, int reduction=1, *, Tensor(a!) out) "
      "-> Tensor(a!)",
      kNone);
  m.def("l1_loss(Tensor self, Tensor target, int reduction=1) -> Tensor", kNone);
  // self, target (same shape) -> 0.5 d^2 / beta where |d| < beta, |d| - 0.5 beta elsewhere
  m.def("smooth_l1_loss(Tensor self, Tensor target, int reduction=1, float beta=1.0) -> Tensor",
        kNone);
  // self, target (same shape) -> 0.5 d^2 where |d| < delta, delta (|d| - 0.5 delta) elsewhere
  m.def("huber_loss(Tensor self, Tensor target, int reduction=1, float delta=1.0) -> Tensor",
        kNone);
  // grad_output (broadcast: () when reduced), self, target -> d loss / d self, self's shape
  m.def(
      "smooth_l1_loss_backward(Tensor grad_output, Tensor self, Tensor target, int reduction, "
      "float beta) -> Tensor",
      kNone);
  m.def(
      "huber_loss_backward(Tensor grad_output, Tensor self, Tensor target, int reduction, "
      "float delta) -> Tensor",
      kNone);
  m.def(
      "mse_loss_backward(Tensor grad_output, Tensor self, Tensor target, int reduction) -> "
      "Tensor",
      kNone);
  // grad_output (broadcast), self in [0, 1], target, weight -> d loss / d self, self's shape
  m.def(
      "binary_cross_entropy_backward(Tensor grad_output, Tensor self, Tensor target, "
      "Tensor? weight=None, int reduction=1) -> Tensor",
      kNone);
  m.def(
      "binary_cross_entropy(Tensor self, Tensor target, Tensor? weight=None, int reduction=1) "
      "-> Tensor",
      kNone);
  m.def(
      "binary_cross_entropy.out(Tensor self, Tensor target, Tensor? weight=None, "
      "int reduction=1, *, Tensor(a!) out) -> Tensor(a!)",
      kNone);
  m.def(
      "binary_cross_entropy_with_logits(Tensor self, Tensor target, Tensor? weight=None, "
      "Tensor? pos_weight=None, int reduction=1) -> Tensor",
      kFunction);

  // --- margin, embedding and likelihood losses (kernels: core/ops/composite/loss.cpp,
  // core/ops/cpu/loss_margin.cpp) ---
  // input1, input2, target (broadcast) -> max(0, -target (input1 - input2) + margin), reduced
  m.def(
      "margin_ranking_loss(Tensor input1, Tensor input2, Tensor target, float margin=0.0, "
      "int reduction=1) -> Tensor",
      kFunction);
  // self, target in {1, -1} (broadcast) -> self where target is 1, max(0, margin - self) where
  // it is -1, both where it is neither; reduced
  m.def(
      "hinge_embedding_loss(Tensor self, Tensor target, float margin=1.0, int reduction=1) -> "
      "Tensor",
      kFunction);
  // input1, input2 (N, D) with target (N), or (D) with target () -> 1 - cos where target is 1,
  // max(0, cos - margin) where it is -1 (cos along D); reduced
  m.def(
      "cosine_embedding_loss(Tensor input1, Tensor input2, Tensor target, float margin=0.0, "
      "int reduction=1) -> Tensor",
      kFunction);
  // anchor, positive, negative (N, D) or (D) -> max(0, margin + d(a, p) - d(a, n)), d the
  // pairwise p-norm distance (swap: d(a, n) becomes min(d(a, n), d(p, n))); reduced
  m.def(
      "triplet_margin_loss(Tensor anchor, Tensor positive, Tensor negative, float margin=1.0, "
      "float p=2, float eps=1e-06, bool swap=False, int reduction=1) -> Tensor",
      kFunction);
  // input, target (broadcast) -> exp(input) - target input (log_input), or input -
  // target log(input + eps); full adds Stirling's t log t - t + log(2 pi t) / 2 where t > 1
  m.def(
      "poisson_nll_loss(Tensor input, Tensor target, bool log_input, bool full, float eps, "
      "int reduction) -> Tensor",
      kFunction);
  // self, target (broadcast) -> log(1 + exp(-target self)), reduced
  m.def("soft_margin_loss(Tensor self, Tensor target, int reduction=1) -> Tensor", kNone);
  m.def(
      "soft_margin_loss.out(Tensor self, Tensor target, int reduction=1, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      kNone);
  // grad_output ((): reduced), self, target -> -grad_output target / (1 + exp(target self)),
  // divided by numel for the mean
  m.def(
      "soft_margin_loss_backward(Tensor grad_output, Tensor self, Tensor target, int reduction) "
      "-> Tensor",
      kNone);
  m.def(
      "soft_margin_loss_backward.grad_input(Tensor grad_output, Tensor self, Tensor target, "
      "int reduction, *, Tensor(a!) grad_input) -> Tensor(a!)",
      kNone);
  // self (N, C) or (C) or (), target (N) or () int64 class indices, weight (C) -> per sample
  // sum over classes i != y of weight[y] max(0, margin - self[y] + self[i])^p / C; reduced
  m.def(
      "multi_margin_loss(Tensor self, Tensor target, Scalar p=1, Scalar margin=1, "
      "Tensor? weight=None, int reduction=1) -> Tensor",
      kNone);
  m.def(
      "multi_margin_loss.out(Tensor self, Tensor target, Scalar p=1, Scalar margin=1, "
      "Tensor? weight=None, int reduction=1, *, Tensor(a!) out) -> Tensor(a!)",
      kNone);
  // grad_output ((N) for reduction none on a batch, else ()), self, target, weight -> self's shape
  m.def(
      "multi_margin_loss_backward(Tensor grad_output, Tensor self, Tensor target, Scalar p, "
      "Scalar margin, Tensor? weight=None, int reduction=1) -> Tensor",
      kNone);
  m.def(
      "multi_margin_loss_backward.grad_input(Tensor grad_output, Tensor self, Tensor target, "
      "Scalar p, Scalar margin, Tensor? weight=None, int reduction=1, *, "
      "Tensor(a!) grad_input) -> Tensor(a!)",
      kNone);
  // self (N, C) or (C) or (), target of self's shape int64: each row's class indices, ended by
  // the first -1 -> per sample sum over its targets j and non-targets i of
  // max(0, 1 - (self[j] - self[i])) / C, reduced; is_target (self's dtype, target's shape) marks
  // each row's target classes with 1
  m.def("multilabel_margin_loss(Tensor self, Tensor target, int reduction=1) -> Tensor", kNone);
  m.def(
      "multilabel_margin_loss.out(Tensor self, Tensor target, int reduction=1, *, "
      "Tensor(a!) out) -> Tensor(a!)",
      kNone);
  m.def(
      "multilabel_margin_loss_forward(Tensor self, Tensor target, int reduction) -> "
      "(Tensor output, Tensor is_target)",
      kNone);
  m.def(
      "multilabel_margin_loss_forward.output(Tensor self, Tensor target, int reduction, *, "
      "Tensor(a!) output, Tensor(b!) is_target) -> (Tensor(a!), Tensor(b!))",
      kNone);
  m.def(
      "multilabel_margin_loss_backward(Tensor grad_output, Tensor self, Tensor target, "
      "int reduction, Tensor is_target) -> Tensor",
      kNone);
  m.def(
      "multilabel_margin_loss_backward.grad_input(Tensor grad_output, Tensor self, "
      "Tensor target, int reduction, Tensor is_target, *, Tensor(a!) grad_input) -> Tensor(a!)",
      kNone);

  // --- glu, pixel shuffle (kernels: core/ops/cpu/glu.cpp, core/ops/cpu/pixel_shuffle.cpp,
  // core/ops/composite/pixel_shuffle.cpp) ---
  // self (..., 2 n, ...) -> (..., n, ...): a * sigmoid(b), a and b self's halves along dim
  m.def("glu(Tensor self, int dim=-1) -> Tensor", kNone);
  m.def("glu.out(Tensor self, int dim=-1, *, Tensor(a!) out) -> Tensor(a!)", kNone);
  // grad_output (..., n, ...) (broadcast), self (..., 2 n, ...) -> (grad_output sigmoid(b),
  // grad_output a sigmoid(b) (1 - sigmoid(b))) joined along dim
  m.def("glu_backward(Tensor grad_output, Tensor self, int dim) -> Tensor", kNone);
  m.def(
      "glu_backward.grad_input(Tensor grad_output, Tensor self, int dim, *, "
      "Tensor(a!) grad_input) -> Tensor(a!)",
      kNone);
  // self (*, C r^2, H, W) -> (*, C, H r, W r): out[c, h r + i, w r + j] = self[c r^2 + i r + j,
  // h, w]; pixel_unshuffle is its inverse
  m.def("pixel_shuffle(Tensor self, int upscale_factor) -> Tensor", kFunction);
  m.def("pixel_unshuffle(Tensor self, int downscale_factor) -> Tensor", kFunction);

  // --- spatial transformers (kernels: core/ops/cpu/grid_sampler.cpp,
  // core/ops/composite/grid_sampler.cpp) ---
  // input (N, C, H, W), grid (N, Ho, Wo, 2) -> (N, C, Ho, Wo): input read at each grid point,
  // (x, y) in [-1, 1]; interpolation_mode 0 bilinear / 1 nearest / 2 bicubic, padding_mode 0
  // zeros / 1 border / 2 reflection. 5-D: input (N, C, D, H, W), grid (N, Do, Ho, Wo, 3).
  m.def(
      "grid_sampler(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, "
      "bool align_corners) -> Tensor",
      kFunction);
  m.def(
      "grid_sampler_2d(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, "
      "bool align_corners) -> Tensor",
      kFunction);
  m.def(
      "grid_sampler_2d.out(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, "
      "bool align_corners, *, Tensor(a!) out) -> Tensor(a!)",
      kNone);
  // -> (grad_input (N, C, H, W) or None when output_mask[0] is 0, grad_grid (N, Ho, Wo, 2));
  // output_mask: torch's bool[2] as 0/1 ints (Note [Boolean masks as ints], cpu/conv.cpp)
  m.def(
      "grid_sampler_2d_backward(Tensor grad_output, Tensor input, Tensor grid, "
      "int interpolation_mode, int padding_mode, bool align_corners, int[2] output_mask) -> "
      "(Tensor, Tensor)",
      kNone);
  m.def(
      "grid_sampler_2d_backward.out(Tensor grad_output, Tensor input, Tensor grid, "
      "int interpolation_mode, int padding_mode, bool align_corners, int[2] output_mask, *, "
      "Tensor(a!) out0, Tensor(b!) out1) -> (Tensor(a!), Tensor(b!))",
      kNone);
  m.def(
      "grid_sampler_3d(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, "
      "bool align_corners) -> Tensor",
      kFunction);
  m.def(
      "grid_sampler_3d.out(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, "
      "bool align_corners, *, Tensor(a!) out) -> Tensor(a!)",
      kNone);
  m.def(
      "grid_sampler_3d_backward(Tensor grad_output, Tensor input, Tensor grid, "
      "int interpolation_mode, int padding_mode, bool align_corners, int[2] output_mask) -> "
      "(Tensor, Tensor)",
      kNone);
  m.def(
      "grid_sampler_3d_backward.out(Tensor grad_output, Tensor input, Tensor grid, "
      "int interpolation_mode, int padding_mode, bool align_corners, int[2] output_mask, *, "
      "Tensor(a!) out0, Tensor(b!) out1) -> (Tensor(a!), Tensor(b!))",
      kNone);
  // theta (N, 2, 3), size (N, C, H, W) -> (N, H, W, 2): theta applied to the normalized
  // coordinates (x, y, 1) of every output pixel; (N, 3, 4), (N, C, D, H, W) -> (N, D, H, W, 3)
  m.def("affine_grid_generator(Tensor theta, int[] size, bool align_corners) -> Tensor",
        kFunction);
  m.def(
      "affine_grid_generator.out(Tensor theta, int[] size, bool align_corners, *, "
      "Tensor(a!) out) -> Tensor(a!)",
      kNone);
  // grad (N, H, W, 2) -> grad_theta (N, 2, 3) (or the 3-D sizes)
  m.def("affine_grid_generator_backward(Tensor grad, int[] size, bool align_corners) -> Tensor",
        kNone);

  // --- sliding blocks, unpooling, channel shuffle, bilinear (kernels: core/ops/cpu/im2col.cpp,
  // core/ops/cpu/unpool.cpp, core/ops/cpu/channel_shuffle.cpp, core/ops/composite/bilinear.cpp)
  // self (N, C, H, W) or (C, H, W) -> (N, C kh kw, L) or (C kh kw, L): column l holds the block
  // under the window at the l-th of the L = OH OW positions (zero outside the padded image)
  m.def(
      "im2col(Tensor self, int[2] kernel_size, int[2] dilation, int[2] padding, "
      "int[2] stride) -> Tensor",
      kNone);
  m.def(
      "im2col.out(Tensor self, int[2] kernel_size, int[2] dilation, int[2] padding, "
      "int[2] stride, *, Tensor(a!) out) -> Tensor(a!)",
      kNone);
  // self (N, C kh kw, L) or (C kh kw, L) -> (N, C, H, W) or (C, H, W), H W = output_size: each
  // column's block added back where im2col read it (im2col's adjoint)
  m.def(
      "col2im(Tensor self, SymInt[2] output_size, int[2] kernel_size, int[2] dilation, "
      "int[2] padding, int[2] stride) -> Tensor",
      kNone);
  m.def(
      "col2im.out(Tensor self, SymInt[2] output_size, int[2] kernel_size, int[2] dilation, "
      "int[2] padding, int[2] stride, *, Tensor(a!) out) -> Tensor(a!)",
      kNone);
  // self, indices int64 (N, C, H, W) or (C, H, W) -> (N, C, OH, OW): zeros, and each value of
  // plane (n, c) written at its flat index h OW + w of the output plane; max_unpool3d the same
  // with (T, H, W) planes (stride and padding only checked)
  m.def("max_unpool2d(Tensor self, Tensor indices, int[2] output_size) -> Tensor", kNone);
  m.def(
      "max_unpool2d.out(Tensor self, Tensor indices, int[2] output_size, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      kNone);
  m.def(
      "max_unpool3d(Tensor self, Tensor indices, int[3] output_size, int[3] stride, "
      "int[3] padding) -> Tensor",
      kNone);
  m.def(
      "max_unpool3d.out(Tensor self, Tensor indices, int[3] output_size, int[3] stride, "
      "int[3] padding, *, Tensor(a!) out) -> Tensor(a!)",
      kNone);
  // self (N, C, *) with C = g k -> the channels read as (g, k) and written as (k, g):
  // out[:, i g + j] = self[:, j k + i]; channel_shuffle checks, then calls native_channel_shuffle
  m.def("channel_shuffle(Tensor self, int groups) -> Tensor", kFunction);
  m.def("native_channel_shuffle(Tensor self, int groups) -> Tensor", kFunction);
  // input1 (*, I1), input2 (*, I2), weight (O, I1, I2), bias (O) -> (*, O):
  // out[..., o] = input1 weight[o] input2^T + bias[o], through _trilinear
  m.def(
      "bilinear(Tensor input1, Tensor input2, Tensor weight, Tensor? bias=None) -> Tensor",
      kFunction);
  // i1, i2, i3 unsqueezed at expand1/2/3 to a common rank, multiplied (broadcast) and summed
  // over sumdim, those dims dropped; the product is built one index of unroll_dim at a time
  m.def(
      "_trilinear(Tensor i1, Tensor i2, Tensor i3, int[] expand1, int[] expand2, "
      "int[] expand3, int[] sumdim, int unroll_dim=1) -> Tensor",
      kFunction);
  m.def(
      "_trilinear.out(Tensor i1, Tensor i2, Tensor i3, int[] expand1, int[] expand2, "
      "int[] expand3, int[] sumdim, int unroll_dim=1, *, Tensor(a!) out) -> Tensor(a!)",
      kFunction);

  // --- normalization, dropout ---
  m.def(
      "native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight, "
      "Tensor? bias, float eps) -> (Tensor, Tensor, Tensor)",
      kFunction);
  m.def(
      "layer_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, Tensor? bias=None, "
      "float eps=1e-05, bool cudnn_enable=True) -> Tensor",
      kFunction);
  // grad_out and input (*, N1..Nk), mean / rstd as native_layer_norm returned them, weight /
  // bias (N1..Nk) -> (grad_input, grad_weight, grad_bias), those output_mask asks for (torch's
  // bool[3] as 0/1 ints, Note [Boolean masks as ints], core/ops/cpu/conv.cpp)
  m.def(
      "native_layer_norm_backward(Tensor grad_out, Tensor input, SymInt[] normalized_shape, "
      "Tensor mean, Tensor rstd, Tensor? weight, Tensor? bias, int[3] output_mask) -> "
      "(Tensor, Tensor, Tensor)",
      kNone);
  // input (N, C, *), weight / bias / running_mean / running_var (C) -> (N, C, *): each (sample,
  // channel) normalized over * (batch_norm of the input seen as (1, N C, *)); use_input_stats:
  // by its own statistics (the running ones move by their mean over the samples), else by the
  // running ones
  m.def(
      "instance_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, "
      "Tensor? running_var, bool use_input_stats, float momentum, float eps, bool cudnn_enabled) "
      "-> Tensor",
      kFunction);
  // input (N, C, *), weight / bias (C) -> (N, C, *): normalized per sample over each of `group`
  // blocks of C / group channels (and all of *)
  m.def(
      "group_norm(Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None, "
      "float eps=1e-05, bool cudnn_enabled=True) -> Tensor",
      kFunction);
  // input (N, C, HxW...) contiguous, weight / bias (C) -> (out, mean (N, group), rstd (N, group))
  m.def(
      "native_group_norm(Tensor input, Tensor? weight, Tensor? bias, SymInt N, SymInt C, "
      "SymInt HxW, int group, float eps) -> (Tensor, Tensor, Tensor)",
      kFunction);
  // grad_out and input as the forward's, mean / rstd (N, group), weight (C) -> (grad_input,
  // grad_weight (C), grad_bias (C)) as output_mask asks (Note [Boolean masks as ints])
  m.def(
      "native_group_norm_backward(Tensor grad_out, Tensor input, Tensor mean, Tensor rstd, "
      "Tensor? weight, SymInt N, SymInt C, SymInt HxW, int group, int[3] output_mask) -> "
      "(Tensor, Tensor, Tensor)",
      kNone);
  // input (N, C, *), weight / bias / running_mean / running_var (C) -> (out (N, C, *),
  // save_mean (C), save_invstd (C)); in eval mode save_mean and save_invstd are (0). The running
  // statistics are updated in place in training mode (unannotated, as in torch 1.13's schema).
  m.def(
      "native_batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, "
      "Tensor? running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)",
      kFunction);
  // grad_out, input (N, C, *), the per-channel rest (C) -> (grad_input (N, C, *), grad_weight (C),
  // grad_bias (C)); output_mask: torch's bool[3] as 0/1 ints (Note [Boolean masks as ints],
  // core/ops/cpu/conv.cpp)
  m.def(
      "native_batch_norm_backward(Tensor grad_out, Tensor input, Tensor? weight, "
      "Tensor? running_mean, Tensor? running_var, Tensor? save_mean, Tensor? save_invstd, "
      "bool train, float eps, int[3] output_mask) -> (Tensor, Tensor, Tensor)",
      kFunction);
  m.def(
      "batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, "
      "Tensor? running_var, bool training, float momentum, float eps, bool cudnn_enabled) "
      "-> Tensor",
      kFunction);
  m.def("native_dropout(Tensor input, float p, bool? train) -> (Tensor, Tensor)", kFunction);
  m.def("dropout(Tensor input, float p, bool train) -> Tensor", kFunction);
  m.def("dropout_(Tensor(a!) self, float p, bool train) -> Tensor(a!)", kFunction);

  // x1, x2 (broadcast, floating) -> <x1, x2> / (max(|x1|, eps) max(|x2|, eps)) along dim
  m.def("cosine_similarity(Tensor x1, Tensor x2, int dim=1, float eps=1e-08) -> Tensor",
        kFunction);
  // x1, x2 (broadcast) -> ||x1 - x2 + eps||_p along their last dim
  m.def(
      "pairwise_distance(Tensor x1, Tensor x2, float p=2, float eps=1e-06, bool keepdim=False) "
      "-> Tensor",
      kFunction);

  // --- embedding, one_hot ---
  m.def(
      "embedding(Tensor weight, Tensor indices, int padding_idx=-1, "
      "bool scale_grad_by_freq=False, bool sparse=False) -> Tensor",
      kFunction);
  // grad (*, D), indices (*) -> (num_weights, D): EmbeddingBackward0's gradient of the weight
  // (embedding_backward: the dense one, sparse refused; embedding_dense_backward: the rows of
  // grad added at their indices, none at padding_idx, each divided by its index's count when
  // scale_grad_by_freq)
  m.def(
      "embedding_backward(Tensor grad, Tensor indices, SymInt num_weights, int padding_idx, "
      "bool scale_grad_by_freq, bool sparse) -> Tensor",
      kNone);
  m.def(
      "embedding_dense_backward(Tensor grad_output, Tensor indices, SymInt num_weights, "
      "int padding_idx, bool scale_grad_by_freq) -> Tensor",
      kNone);
  m.def(
      "embedding_renorm_(Tensor(a!) self, Tensor indices, float max_norm, float norm_type) "
      "-> Tensor(a!)",
      kFunction);
  m.def("one_hot(Tensor self, int num_classes=-1) -> Tensor", kNone);

  // --- padding ---
  m.def("constant_pad_nd(Tensor self, SymInt[] pad, Scalar value=0) -> Tensor", kFunction);
  m.def("pad(Tensor self, SymInt[] pad, str mode=\"constant\", float? value=None) -> Tensor",
        kNone);
  // (N, C, W) / (C, W) with padding (left, right), (N, C, H, W) / (C, H, W) with (left, right,
  // top, bottom): each new cell copies the cell mirrored at the edge (reflection, the edge cell
  // itself not repeated) or the edge cell (replication); negative padding crops
  m.def("reflection_pad1d(Tensor self, SymInt[2] padding) -> Tensor", kNone);
  m.def("reflection_pad1d_backward(Tensor grad_output, Tensor self, SymInt[2] padding) -> Tensor",
        kNone);
  m.def("reflection_pad2d(Tensor self, SymInt[4] padding) -> Tensor", kNone);
  m.def("reflection_pad2d_backward(Tensor grad_output, Tensor self, SymInt[4] padding) -> Tensor",
        kNone);
  m.def("replication_pad1d(Tensor self, SymInt[2] padding) -> Tensor", kNone);
  m.def("replication_pad1d_backward(Tensor grad_output, Tensor self, SymInt[2] padding) -> Tensor",
        kNone);
  m.def("replication_pad2d(Tensor self, SymInt[4] padding) -> Tensor", kNone);
  m.def("replication_pad2d_backward(Tensor grad_output, Tensor self, SymInt[4] padding) -> Tensor",
        kNone);

  // --- upsampling (kernels: core/ops/cpu/upsample.cpp) ---
  // input (N, C, W) / (N, C, H, W) -> (N, C, OW) / (N, C, OH, OW): output_size given, or each
  // input size times its scale factor (one of the two). The backward ops take the gradient of
  // that output and the input's full size. What F.interpolate calls, torch 1.13's .vec overloads.
  m.def(
      "upsample_nearest1d.vec(Tensor input, SymInt[]? output_size, "
      "float[]? scale_factors) -> Tensor",
      kNone);
  m.def(
      "upsample_nearest1d_backward.vec(Tensor grad_output, SymInt[]? output_size, "
      "SymInt[] input_size, float[]? scale_factors) -> Tensor",
      kNone);
  m.def(
      "upsample_nearest2d.vec(Tensor input, SymInt[]? output_size, "
      "float[]? scale_factors) -> Tensor",
      kNone);
  m.def(
      "upsample_nearest2d_backward.vec(Tensor grad_output, SymInt[]? output_size, "
      "SymInt[] input_size, float[]? scale_factors) -> Tensor",
      kNone);
  m.def(
      "_upsample_nearest_exact1d.vec(Tensor input, SymInt[]? output_size, "
      "float[]? scale_factors) -> Tensor",
      kNone);
  m.def(
      "_upsample_nearest_exact1d_backward.vec(Tensor grad_output, SymInt[]? output_size, "
      "SymInt[] input_size, float[]? scale_factors) -> Tensor",
      kNone);
  m.def(
      "_upsample_nearest_exact2d.vec(Tensor input, SymInt[]? output_size, "
      "float[]? scale_factors) -> Tensor",
      kNone);
  m.def(
      "_upsample_nearest_exact2d_backward.vec(Tensor grad_output, SymInt[]? output_size, "
      "SymInt[] input_size, float[]? scale_factors) -> Tensor",
      kNone);
  m.def(
      "upsample_linear1d.vec(Tensor input, SymInt[]? output_size, bool align_corners, "
      "float[]? scale_factors) -> Tensor",
      kNone);
  m.def(
      "upsample_linear1d_backward.vec(Tensor grad_output, SymInt[]? output_size, "
      "SymInt[] input_size, bool align_corners, float[]? scale_factors) -> Tensor",
      kNone);
  m.def(
      "upsample_bilinear2d.vec(Tensor input, SymInt[]? output_size, bool align_corners, "
      "float[]? scale_factors) -> Tensor",
      kNone);
  m.def(
      "upsample_bilinear2d_backward.vec(Tensor grad_output, SymInt[]? output_size, "
      "SymInt[] input_size, bool align_corners, float[]? scale_factors) -> Tensor",
      kNone);

  // --- recurrent layers and attention (kernels: core/ops/composite/rnn.cpp, attention.cpp) ---
  // input (T, B, I) or (B, T, I) with batch_first; hx (L*D, B, H) each; params per layer and
  // direction: w_ih, w_hh[, b_ih, b_hh][, w_hr] -> (output (T, B, D*H), h_n[, c_n])
  m.def(
      "lstm.input(Tensor input, Tensor[] hx, Tensor[] params, bool has_biases, int num_layers, "
      "float dropout, bool train, bool bidirectional, bool batch_first) -> (Tensor, Tensor, Tensor)",
      kFunction);
  m.def(
      "gru.input(Tensor input, Tensor hx, Tensor[] params, bool has_biases, int num_layers, "
      "float dropout, bool train, bool bidirectional, bool batch_first) -> (Tensor, Tensor)",
      kFunction);
  m.def(
      "rnn_tanh.input(Tensor input, Tensor hx, Tensor[] params, bool has_biases, int num_layers, "
      "float dropout, bool train, bool bidirectional, bool batch_first) -> (Tensor, Tensor)",
      kFunction);
  m.def(
      "rnn_relu.input(Tensor input, Tensor hx, Tensor[] params, bool has_biases, int num_layers, "
      "float dropout, bool train, bool bidirectional, bool batch_first) -> (Tensor, Tensor)",
      kFunction);
  // Packed sequences: data (N, I), batch_sizes (T) int64 -> (data (N, D*H'), h_n[, c_n])
  m.def(
      "lstm.data(Tensor data, Tensor batch_sizes, Tensor[] hx, Tensor[] params, bool has_biases, "
      "int num_layers, float dropout, bool train, bool bidirectional) -> (Tensor, Tensor, Tensor)",
      kFunction);
  m.def(
      "gru.data(Tensor data, Tensor batch_sizes, Tensor hx, Tensor[] params, bool has_biases, "
      "int num_layers, float dropout, bool train, bool bidirectional) -> (Tensor, Tensor)",
      kFunction);
  m.def(
      "rnn_tanh.data(Tensor data, Tensor batch_sizes, Tensor hx, Tensor[] params, "
      "bool has_biases, int num_layers, float dropout, bool train, bool bidirectional) -> "
      "(Tensor, Tensor)",
      kFunction);
  m.def(
      "rnn_relu.data(Tensor data, Tensor batch_sizes, Tensor hx, Tensor[] params, "
      "bool has_biases, int num_layers, float dropout, bool train, bool bidirectional) -> "
      "(Tensor, Tensor)",
      kFunction);
  // input (B, I), hx (B, H) -> (B, H): one step
  m.def(
      "lstm_cell(Tensor input, Tensor[] hx, Tensor w_ih, Tensor w_hh, Tensor? b_ih=None, "
      "Tensor? b_hh=None) -> (Tensor, Tensor)",
      kFunction);
  m.def(
      "gru_cell(Tensor input, Tensor hx, Tensor w_ih, Tensor w_hh, Tensor? b_ih=None, "
      "Tensor? b_hh=None) -> Tensor",
      kFunction);
  m.def(
      "rnn_tanh_cell(Tensor input, Tensor hx, Tensor w_ih, Tensor w_hh, Tensor? b_ih=None, "
      "Tensor? b_hh=None) -> Tensor",
      kFunction);
  m.def(
      "rnn_relu_cell(Tensor input, Tensor hx, Tensor w_ih, Tensor w_hh, Tensor? b_ih=None, "
      "Tensor? b_hh=None) -> Tensor",
      kFunction);
  // sequences (L_i, *) -> (max L_i, B, *), or (B, max L_i, *) with batch_first
  m.def(
      "pad_sequence(Tensor[] sequences, bool batch_first=False, float padding_value=0.0) -> Tensor",
      kNone);
  // input (T, B, *), lengths (B) -> (data (sum lengths, *), batch_sizes (T)) and back
  m.def(
      "_pack_padded_sequence(Tensor input, Tensor lengths, bool batch_first) -> (Tensor, Tensor)",
      kFunction);
  m.def(
      "_pad_packed_sequence(Tensor data, Tensor batch_sizes, bool batch_first, "
      "Scalar padding_value, int total_length) -> (Tensor, Tensor)",
      kFunction);
  // The cells' gate split: split / chunk whose pieces autograd does not treat as views of self,
  // so the cells may update them in place (shape family by the rule; declared here with their
  // only callers).
  m.def("unsafe_split.Tensor(Tensor self, SymInt split_size, int dim=0) -> Tensor[]",
        Variants::FunctionAndMethod);
  m.def("unsafe_chunk(Tensor self, int chunks, int dim=0) -> Tensor[]",
        Variants::FunctionAndMethod);
  // query (*, L, E), key (*, S, E), value (*, S, Ev), attn_mask broadcastable to (*, L, S)
  // -> (*, L, Ev) (torch 2.x's op)
  m.def(
      "scaled_dot_product_attention(Tensor query, Tensor key, Tensor value, "
      "Tensor? attn_mask=None, float dropout_p=0.0, bool is_causal=False, *, "
      "float? scale=None) -> Tensor",
      kNone);

  // --- convolution and pooling (kernels: core/ops/cpu/conv.cpp, core/ops/cpu/pool.cpp,
  // core/ops/composite/conv.cpp, core/ops/composite/pool.cpp) ---
  // input (N,C_in,L) or (C_in,L), weight (C_out,C_in/groups,K) -> (N,C_out,L_out)
  m.def(
      "conv1d(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=[1], "
      "int[1] padding=[0], int[1] dilation=[1], int groups=1) -> Tensor",
      kFunction);
  m.def(
      "conv1d.padding(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=[1], "
      "str padding=\"valid\", int[1] dilation=[1], int groups=1) -> Tensor",
      kFunction);
  // input (N,C_in,H,W) or (C_in,H,W), weight (C_out,C_in/groups,kH,kW) -> (N,C_out,H_out,W_out)
  m.def(
      "conv2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, int[2] padding=0, "
      "int[2] dilation=1, int groups=1) -> Tensor",
      kFunction);
  m.def(
      "conv2d.padding(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, "
      "str padding=\"valid\", int[2] dilation=1, int groups=1) -> Tensor",
      kFunction);
  // input (N,C_in,L), weight (C_in,C_out/groups,K) -> (N,C_out,L_out)
  m.def(
      "conv_transpose1d(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=[1], "
      "int[1] padding=[0], int[1] output_padding=[0], int groups=1, int[1] dilation=[1]) -> Tensor",
      kFunction);
  // input (N,C_in,H,W), weight (C_in,C_out/groups,kH,kW) -> (N,C_out,H_out,W_out)
  m.def(
      "conv_transpose2d.input(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, "
      "int[2] padding=0, int[2] output_padding=0, int groups=1, int[2] dilation=1) -> Tensor",
      kFunction);
  m.def(
      "convolution(Tensor input, Tensor weight, Tensor? bias, int[] stride, int[] padding, "
      "int[] dilation, bool transposed, int[] output_padding, int groups) -> Tensor",
      kFunction);
  m.def(
      "_convolution(Tensor input, Tensor weight, Tensor? bias, int[] stride, int[] padding, "
      "int[] dilation, bool transposed, int[] output_padding, int groups, bool benchmark, "
      "bool deterministic, bool cudnn_enabled, bool allow_tf32) -> Tensor",
      kFunction);
  m.def(
      "_convolution_mode(Tensor input, Tensor weight, Tensor? bias, int[] stride, str padding, "
      "int[] dilation, int groups) -> Tensor",
      kFunction);
  // output_mask: torch's bool[3]; 0/1 ints here, see Note [Boolean masks as ints] in
  // core/ops/cpu/conv.cpp.
  m.def(
      "convolution_backward(Tensor grad_output, Tensor input, Tensor weight, SymInt[]? bias_sizes, "
      "int[] stride, int[] padding, int[] dilation, bool transposed, int[] output_padding, "
      "int groups, int[3] output_mask) -> (Tensor, Tensor, Tensor)",
      kNone);
  m.def(
      "thnn_conv2d(Tensor self, Tensor weight, int[2] kernel_size, Tensor? bias=None, "
      "int[2] stride=1, int[2] padding=0) -> Tensor",
      kNone);
  m.def(
      "_slow_conv2d_forward(Tensor self, Tensor weight, int[2] kernel_size, Tensor? bias, "
      "int[2] stride, int[2] padding) -> Tensor",
      kNone);
  m.def(
      "_slow_conv2d_backward.output_mask(Tensor grad_output, Tensor self, Tensor weight, "
      "int[2] kernel_size, int[2] stride, int[2] padding, int[3] output_mask) -> "
      "(Tensor grad_input, Tensor grad_weight, Tensor grad_bias)",
      kNone);
  m.def(
      "slow_conv_dilated2d(Tensor self, Tensor weight, int[2] kernel_size, Tensor? bias=None, "
      "int[2] stride=1, int[2] padding=0, int[2] dilation=1) -> Tensor",
      kNone);
  m.def(
      "slow_conv_transpose2d(Tensor self, Tensor weight, int[2] kernel_size, Tensor? bias=None, "
      "int[2] stride=1, int[2] padding=0, int[2] output_padding=0, int[2] dilation=1) -> Tensor",
      kNone);
  // self (N,C,H,W) or (C,H,W) -> (out, indices int64: the flat h * W + w of each maximum)
  m.def(
      "max_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=[0], "
      "int[1] dilation=[1], bool ceil_mode=False) -> Tensor",
      kFunction);
  m.def(
      "max_pool1d_with_indices(Tensor self, int[1] kernel_size, int[1] stride=[], "
      "int[1] padding=[0], int[1] dilation=[1], bool ceil_mode=False) -> (Tensor, Tensor)",
      kFunction);
  m.def(
      "max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, "
      "int[2] dilation=1, bool ceil_mode=False) -> Tensor",
      kFunction);
  m.def(
      "max_pool2d_with_indices(Tensor self, int[2] kernel_size, int[2] stride=[], "
      "int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)",
      kNone);
  m.def(
      "max_pool2d_with_indices_backward(Tensor grad_output, Tensor self, int[2] kernel_size, "
      "int[2] stride, int[2] padding, int[2] dilation, bool ceil_mode, Tensor indices) -> Tensor",
      kNone);
  m.def(
      "avg_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=[0], "
      "bool ceil_mode=False, bool count_include_pad=True) -> Tensor",
      kFunction);
  m.def(
      "avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, "
      "bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor",
      kNone);
  m.def(
      "avg_pool2d_backward(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] stride, "
      "int[2] padding, bool ceil_mode, bool count_include_pad, int? divisor_override) -> Tensor",
      kNone);
  // self (N, C, T, H, W) or (C, T, H, W) -> (N, C, OT, OH, OW) (core/ops/cpu/avg_pool3d.cpp)
  m.def(
      "avg_pool3d(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, "
      "bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor",
      kNone);
  m.def(
      "avg_pool3d_backward(Tensor grad_output, Tensor self, int[3] kernel_size, int[3] stride, "
      "int[3] padding, bool ceil_mode, bool count_include_pad, int? divisor_override) -> Tensor",
      kNone);
  m.def("adaptive_avg_pool1d(Tensor self, int[1] output_size) -> Tensor", kFunction);
  m.def("adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor", kNone);
  m.def("_adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor", kFunction);
  m.def("_adaptive_avg_pool2d_backward(Tensor grad_output, Tensor self) -> Tensor", kNone);
  m.def("adaptive_max_pool1d(Tensor self, int[1] output_size) -> (Tensor, Tensor)", kFunction);
  m.def("adaptive_max_pool2d(Tensor self, int[2] output_size) -> (Tensor, Tensor)", kNone);
  m.def(
      "adaptive_max_pool2d_backward(Tensor grad_output, Tensor self, Tensor indices) -> Tensor",
      kNone);
});

}  // namespace opscope
