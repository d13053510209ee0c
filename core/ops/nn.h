// Neural-network ops: the activations (relu, gelu, silu, softplus, glu), the losses (nll_loss,
// cross_entropy_loss, mse_loss, l1_loss, binary_cross_entropy, binary_cross_entropy_with_logits,
// and the margin / embedding / likelihood losses: margin_ranking_loss, hinge_embedding_loss,
// cosine_embedding_loss, soft_margin_loss, multi_margin_loss, multilabel_margin_loss,
// triplet_margin_loss, poisson_nll_loss), layer_norm, group_norm, embedding, dropout, one_hot,
// constant padding, pixel_shuffle and the spatial transformer ops (grid_sampler, its 2-D / 3-D
// kernels, affine_grid_generator) — what opscope.nn.functional calls.
//
// Semantically each loss computes one value per sample and then reduces them by `reduction`:
// 0 = none (the per-sample losses), 1 = mean, 2 = sum (PyTorch's at::Reduction; the Python layer
// maps 'none' / 'mean' / 'sum' onto these). A mean over no samples is nan, as in torch. Class-
// index losses (nll_loss, cross_entropy_loss) read `target` as int64 class indices of the input's
// dim 1 (dim 0 for an unbatched 1-D input); a target equal to `ignore_index` contributes neither
// loss nor weight; `weight` (C) rescales each class, and the mean divides by the summed weight of
// the targets that were not ignored.
//
// In implementation terms, as PyTorch 1.13 so that traces match torch's: the kernels that touch
// elements are CPU kernels (nll_loss_forward, nll_loss2d_forward, mse_loss, binary_cross_entropy,
// native_layer_norm, native_group_norm, native_dropout); the user-facing ops are CompositeImplicitAutograd
// decompositions over them and over the elementwise / reduction ops (core/ops/composite/nn.cpp):
//
//   cross_entropy_loss -> log_softmax + nll_loss_nd -> nll_loss -> nll_loss_forward      (N, C)
//                                                   -> nll_loss2d -> nll_loss2d_forward  (N, C,
//                                                   d...)
//   layer_norm -> native_layer_norm            dropout -> bernoulli_ + div_ + mul (training)
//   group_norm -> native_group_norm (core/ops/composite/normalization.cpp)
//   pad -> constant_pad_nd (CompositeExplicitAutograd: empty + fill_ + narrow views + copy_)
//
//   Tensor logits = ops::randn({4, 10});
//   Tensor target = ops::randint(10, {4});
//   Tensor loss = ops::cross_entropy_loss(logits, target);           // f32[], the mean
//   Tensor y = ops::layer_norm(logits, {10});                         // f32[4, 10]
#pragma once

#include <optional>
#include <string_view>
#include <tuple>

#include "core/dispatch/Op.h"
#include "core/runtime/Generator.h"
#include "core/runtime/Scalar.h"
#include "core/tensor/Tensor.h"

namespace opscope::ops {

// PyTorch's at::Reduction::Reduction.
enum Reduction : int64_t { kReductionNone = 0, kReductionMean = 1, kReductionSum = 2 };

// --- class-index losses ---------------------------------------------------------------------

// nll_loss_forward(Tensor self, Tensor target, Tensor? weight, int reduction, int ignore_index)
//     -> (Tensor output, Tensor total_weight)
// self (N,C) or (C), target (N) or () int64 (or uint8), weight (C) -> output (N) for reduction
// none on a batch, () otherwise; total_weight () = the summed weight of the non-ignored targets.
inline constexpr Op<std::tuple<Tensor, Tensor>(const Tensor&, const Tensor&, const Tensor&, int64_t,
                                               int64_t)>
    nll_loss_forward{"aten::nll_loss_forward"};
// nll_loss_forward.output(..., *, Tensor(a!) output, Tensor(b!) total_weight)
//     -> (Tensor(a!), Tensor(b!))
inline constexpr Op<std::tuple<Tensor, Tensor>(Out, Out, const Tensor&, const Tensor&,
                                               const Tensor&, int64_t, int64_t)>
    nll_loss_forward_out{"aten::nll_loss_forward.output"};
// nll_loss_backward(Tensor grad_output, Tensor self, Tensor target, Tensor? weight,
//                   int reduction, int ignore_index, Tensor total_weight) -> Tensor
// d nll_loss / d self, self's shape: -weight[target[n]] * grad_output (grad_output[n] for
// reduction none on a batch; divided by total_weight for the mean) at [n, target[n]], 0 elsewhere
// and on ignored rows.
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&, const Tensor&, int64_t,
                           int64_t, const Tensor&)>
    nll_loss_backward{"aten::nll_loss_backward"};
// nll_loss2d_forward(Tensor self, Tensor target, Tensor? weight, int reduction, int ignore_index)
//     -> (Tensor output, Tensor total_weight)
// self (N,C,H,W), target (N,H,W) int64 -> output (N,H,W) for reduction none, () otherwise.
inline constexpr Op<std::tuple<Tensor, Tensor>(const Tensor&, const Tensor&, const Tensor&, int64_t,
                                               int64_t)>
    nll_loss2d_forward{"aten::nll_loss2d_forward"};
// nll_loss2d_forward.output(..., *, Tensor(a!) output, Tensor(b!) total_weight)
//     -> (Tensor(a!), Tensor(b!))
inline constexpr Op<std::tuple<Tensor, Tensor>(Out, Out, const Tensor&, const Tensor&,
                                               const Tensor&, int64_t, int64_t)>
    nll_loss2d_forward_out{"aten::nll_loss2d_forward.output"};
// nll_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean,
//          int ignore_index=-100) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&, Default<const Tensor&>, Default<int64_t>,
                           Default<int64_t>)>
    nll_loss{"aten::nll_loss"};
// nll_loss2d(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean,
//            int ignore_index=-100) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&, Default<const Tensor&>, Default<int64_t>,
                           Default<int64_t>)>
    nll_loss2d{"aten::nll_loss2d"};
// nll_loss_nd(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean,
//             int ignore_index=-100) -> Tensor
// self (N,C,d1,...,dk) or (N,C) or (C), target (N,d1,...,dk) / (N) / () -> the per-sample
// losses, of target's shape, for reduction none; () otherwise.
inline constexpr Op<Tensor(const Tensor&, const Tensor&, Default<const Tensor&>, Default<int64_t>,
                           Default<int64_t>)>
    nll_loss_nd{"aten::nll_loss_nd"};
// cross_entropy_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean,
//                    int ignore_index=-100, float label_smoothing=0.0) -> Tensor
// Class indices (target without the class dim) or class probabilities (target of self's shape).
inline constexpr Op<Tensor(const Tensor&, const Tensor&, Default<const Tensor&>, Default<int64_t>,
                           Default<int64_t>, Default<double>)>
    cross_entropy_loss{"aten::cross_entropy_loss"};

// --- regression and binary losses -----------------------------------------------------------

// mse_loss(Tensor self, Tensor target, int reduction=Mean) -> Tensor
// (self - target)^2, self and target broadcast.
inline constexpr Op<Tensor(const Tensor&, const Tensor&, Default<int64_t>)> mse_loss{
    "aten::mse_loss"};
// l1_loss(Tensor self, Tensor target, int reduction=Mean) -> Tensor
// |self - target|.
inline constexpr Op<Tensor(const Tensor&, const Tensor&, Default<int64_t>)> l1_loss{
    "aten::l1_loss"};
// smooth_l1_loss_backward(Tensor grad_output, Tensor self, Tensor target, int reduction,
//                         float beta) -> Tensor
// grad_output * clamp((self - target) / beta, -1, 1) (divided by numel for the mean); self's
// shape. huber_loss_backward: grad_output * clamp(self - target, -delta, delta), the same way.
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&, int64_t, double)>
    smooth_l1_loss_backward{"aten::smooth_l1_loss_backward"};
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&, int64_t, double)>
    huber_loss_backward{"aten::huber_loss_backward"};
// mse_loss_backward(Tensor grad_output, Tensor self, Tensor target, int reduction) -> Tensor
// grad_output * 2 (self - target) (divided by numel for the mean); self's shape.
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&, int64_t)>
    mse_loss_backward{"aten::mse_loss_backward"};
// binary_cross_entropy_backward(Tensor grad_output, Tensor self, Tensor target,
//                               Tensor? weight=None, int reduction=Mean) -> Tensor
// grad_output * weight * (self - target) / max((1 - self) self, 1e-12) (divided by numel for the
// mean); self's shape.
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&, Default<const Tensor&>,
                           Default<int64_t>)>
    binary_cross_entropy_backward{"aten::binary_cross_entropy_backward"};
// binary_cross_entropy(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean)
// -w * (t * log(x) + (1 - t) * log(1 - x)), each log clamped at -100; x must lie in [0, 1].
inline constexpr Op<Tensor(const Tensor&, const Tensor&, Default<const Tensor&>, Default<int64_t>)>
    binary_cross_entropy{"aten::binary_cross_entropy"};
// binary_cross_entropy_with_logits(Tensor self, Tensor target, Tensor? weight=None,
//                                  Tensor? pos_weight=None, int reduction=Mean) -> Tensor
// binary_cross_entropy(sigmoid(self), target) in the overflow-free form
// (1 - t) * x + (1 + (pw - 1) * t) * (log1p(exp(-|x|)) + max(-x, 0)).
inline constexpr Op<Tensor(const Tensor&, const Tensor&, Default<const Tensor&>,
                           Default<const Tensor&>, Default<int64_t>)>
    binary_cross_entropy_with_logits{"aten::binary_cross_entropy_with_logits"};

// --- margin, embedding and likelihood losses ------------------------------------------------
// The first five are CompositeImplicitAutograd (core/ops/composite/loss.cpp); soft_margin_loss
// is CompositeExplicitAutograd with its own backward; multi_margin_loss and
// multilabel_margin_loss_forward are CPU kernels (core/ops/cpu/loss_margin.cpp). Targets of the
// embedding losses are 1 / -1 (other values count for hinge_embedding_loss's both branches and
// for none of cosine_embedding_loss's).

// margin_ranking_loss(Tensor input1, Tensor input2, Tensor target, float margin=0.0,
//                     int reduction=Mean) -> Tensor
// max(0, -target (input1 - input2) + margin), the three broadcast.
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&, Default<double>,
                           Default<int64_t>)>
    margin_ranking_loss{"aten::margin_ranking_loss"};
// hinge_embedding_loss(Tensor self, Tensor target, float margin=1.0, int reduction=Mean)
// self where target != -1, plus max(0, margin - self) where target != 1.
inline constexpr Op<Tensor(const Tensor&, const Tensor&, Default<double>, Default<int64_t>)>
    hinge_embedding_loss{"aten::hinge_embedding_loss"};
// cosine_embedding_loss(Tensor input1, Tensor input2, Tensor target, float margin=0.0,
//                       int reduction=Mean) -> Tensor
// input1, input2 (N, D), target (N) -> (N) (or (D), () -> ()): 1 - cos where target == 1,
// max(0, cos - margin) where target == -1, 0 elsewhere; cos = <x1, x2> / sqrt((|x1|^2 + 1e-12)
// (|x2|^2 + 1e-12)) along D.
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&, Default<double>,
                           Default<int64_t>)>
    cosine_embedding_loss{"aten::cosine_embedding_loss"};
// triplet_margin_loss(Tensor anchor, Tensor positive, Tensor negative, float margin=1.0,
//                     float p=2, float eps=1e-06, bool swap=False, int reduction=Mean)
// max(0, margin + |a - p + eps|_p - |a - n + eps|_p) along the last dim (swap: the negative
// distance is the smaller of |a - n| and |p - n|).
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&, Default<double>,
                           Default<double>, Default<double>, Default<bool>, Default<int64_t>)>
    triplet_margin_loss{"aten::triplet_margin_loss"};
// poisson_nll_loss(Tensor input, Tensor target, bool log_input, bool full, float eps,
//                  int reduction) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&, bool, bool, double, int64_t)>
    poisson_nll_loss{"aten::poisson_nll_loss"};
// soft_margin_loss(Tensor self, Tensor target, int reduction=Mean) -> Tensor
// log(1 + exp(-target self)), the two broadcast.
inline constexpr Op<Tensor(const Tensor&, const Tensor&, Default<int64_t>)> soft_margin_loss{
    "aten::soft_margin_loss"};
inline constexpr Op<Tensor(Out, const Tensor&, const Tensor&, Default<int64_t>)>
    soft_margin_loss_out{"aten::soft_margin_loss.out"};
// soft_margin_loss_backward(Tensor grad_output, Tensor self, Tensor target, int reduction)
// -grad_output target exp(-target self) / (1 + exp(-target self)), divided by numel for the
// mean.
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&, int64_t)>
    soft_margin_loss_backward{"aten::soft_margin_loss_backward"};
inline constexpr Op<Tensor(Out, const Tensor&, const Tensor&, const Tensor&, int64_t)>
    soft_margin_loss_backward_out{"aten::soft_margin_loss_backward.grad_input"};
// multi_margin_loss(Tensor self, Tensor target, Scalar p=1, Scalar margin=1,
//                   Tensor? weight=None, int reduction=Mean) -> Tensor
// self (N, C) (or (C), ()), target (N) int64 in [0, C) -> (N) for reduction none (() for an
// unbatched target): sum over i != y of weight[y] max(0, margin - self[y] + self[i])^p / C.
inline constexpr Op<Tensor(const Tensor&, const Tensor&, Default<const Scalar&>,
                           Default<const Scalar&>, Default<const Tensor&>, Default<int64_t>)>
    multi_margin_loss{"aten::multi_margin_loss"};
// multi_margin_loss_backward(Tensor grad_output, Tensor self, Tensor target, Scalar p,
//     Scalar margin, Tensor? weight=None, int reduction=Mean) -> Tensor
// self's shape: for each class i != y whose margin term is positive, g weight[y] (p 2: times
// 2 (margin - self[y] + self[i])) / C at i and its negative summed at y; g = grad_output (per
// sample for reduction none), divided by N for the mean.
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&, const Scalar&,
                           const Scalar&, const Tensor&, int64_t)>
    multi_margin_loss_backward{"aten::multi_margin_loss_backward"};
// multilabel_margin_loss(Tensor self, Tensor target, int reduction=Mean) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&, Default<int64_t>)>
    multilabel_margin_loss{"aten::multilabel_margin_loss"};
// multilabel_margin_loss_forward(Tensor self, Tensor target, int reduction)
//     -> (Tensor output, Tensor is_target)
// self (N, C) (or (C), ()), target of self's shape: row n's target classes are target[n, 0..k)
// up to the first -1 -> output (N) for reduction none on a batch, () otherwise: sum over target
// classes j and the other classes i of max(0, 1 - self[j] + self[i]) / C; is_target (target's
// shape, self's dtype) 1 at each row's target classes.
inline constexpr Op<std::tuple<Tensor, Tensor>(const Tensor&, const Tensor&, int64_t)>
    multilabel_margin_loss_forward{"aten::multilabel_margin_loss_forward"};
inline constexpr Op<std::tuple<Tensor, Tensor>(Out, Out, const Tensor&, const Tensor&, int64_t)>
    multilabel_margin_loss_forward_out{"aten::multilabel_margin_loss_forward.output"};
// multilabel_margin_loss_backward(Tensor grad_output, Tensor self, Tensor target,
//                                 int reduction, Tensor is_target) -> Tensor
// self's shape: for each (target j, other i) pair with a positive term, +g / C at i and -g / C
// at j; g = grad_output (per sample for reduction none), divided by N for the mean.
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&, int64_t, const Tensor&)>
    multilabel_margin_loss_backward{"aten::multilabel_margin_loss_backward"};
// pairwise_distance(Tensor x1, Tensor x2, float p=2, float eps=1e-06, bool keepdim=False)
// ||x1 - x2 + eps||_p along the last dim of their broadcast.
inline constexpr Op<Tensor(const Tensor&, const Tensor&, Default<double>, Default<double>,
                           Default<bool>)>
    pairwise_distance{"aten::pairwise_distance"};

// --- glu, pixel shuffle ---------------------------------------------------------------------
// glu(Tensor self, int dim=-1) -> Tensor
// self (..., 2 n, ...) -> (..., n, ...): a sigmoid(b), a = self's first half along dim, b its
// second (CPU kernel, core/ops/cpu/glu.cpp).
inline constexpr Op<Tensor(const Tensor&, Default<int64_t>)> glu{"aten::glu"};
// glu_backward(Tensor grad_output, Tensor self, int dim) -> Tensor
// self's shape: g sigmoid(b) in the first half, g a sigmoid(b) (1 - sigmoid(b)) in the second.
inline constexpr Op<Tensor(const Tensor&, const Tensor&, int64_t)> glu_backward{
    "aten::glu_backward"};
// pixel_shuffle(Tensor self, int upscale_factor) -> Tensor
// (*, C r^2, H, W) -> (*, C, H r, W r): out[c, h r + i, w r + j] = self[c r^2 + i r + j, h, w].
inline constexpr Op<Tensor(const Tensor&, int64_t)> pixel_shuffle{"aten::pixel_shuffle"};
// pixel_unshuffle(Tensor self, int downscale_factor) -> Tensor
// (*, C, H r, W r) -> (*, C r^2, H, W), pixel_shuffle's inverse.
inline constexpr Op<Tensor(const Tensor&, int64_t)> pixel_unshuffle{"aten::pixel_unshuffle"};

// grid_sampler(Tensor input, Tensor grid, int interpolation_mode, int padding_mode,
//              bool align_corners) -> Tensor   (and grid_sampler_2d / grid_sampler_3d alike)
inline constexpr Op<Tensor(const Tensor&, const Tensor&, int64_t, int64_t, bool)> grid_sampler{
    "aten::grid_sampler"};
inline constexpr Op<Tensor(const Tensor&, const Tensor&, int64_t, int64_t, bool)>
    grid_sampler_2d{"aten::grid_sampler_2d"};
inline constexpr Op<Tensor(const Tensor&, const Tensor&, int64_t, int64_t, bool)>
    grid_sampler_3d{"aten::grid_sampler_3d"};
// grid_sampler_2d_backward(Tensor grad_output, Tensor input, Tensor grid, int interpolation_mode,
//     int padding_mode, bool align_corners, int[2] output_mask) -> (Tensor, Tensor)
// (and grid_sampler_3d_backward alike)
inline constexpr Op<std::tuple<Tensor, Tensor>(const Tensor&, const Tensor&, const Tensor&,
                                               int64_t, int64_t, bool, IntArrayRef)>
    grid_sampler_2d_backward{"aten::grid_sampler_2d_backward"};
inline constexpr Op<std::tuple<Tensor, Tensor>(const Tensor&, const Tensor&, const Tensor&,
                                               int64_t, int64_t, bool, IntArrayRef)>
    grid_sampler_3d_backward{"aten::grid_sampler_3d_backward"};
// affine_grid_generator(Tensor theta, int[] size, bool align_corners) -> Tensor
inline constexpr Op<Tensor(const Tensor&, IntArrayRef, bool)> affine_grid_generator{
    "aten::affine_grid_generator"};
// affine_grid_generator_backward(Tensor grad, int[] size, bool align_corners) -> Tensor
inline constexpr Op<Tensor(const Tensor&, IntArrayRef, bool)> affine_grid_generator_backward{
    "aten::affine_grid_generator_backward"};

// --- sliding blocks, unpooling, channel shuffle, bilinear -----------------------------------
// im2col(Tensor self, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] stride)
// self (N, C, H, W) or (C, H, W) -> (N, C kh kw, L) or (C kh kw, L), L = OH OW window positions:
// out[n, (c kh + i) kw + j, oh OW + ow] = self[n, c, oh sh - ph + i dh, ow sw - pw + j dw] (0
// outside the image). F.unfold (CPU kernel, core/ops/cpu/im2col.cpp).
inline constexpr Op<Tensor(const Tensor&, IntArrayRef, IntArrayRef, IntArrayRef, IntArrayRef)>
    im2col{"aten::im2col"};
// col2im(Tensor self, SymInt[2] output_size, int[2] kernel_size, int[2] dilation,
//        int[2] padding, int[2] stride)
// self (N, C kh kw, L) or (C kh kw, L) -> (N, C, H, W) or (C, H, W): im2col's adjoint, each
// column element added to the pixel im2col read it from. F.fold.
inline constexpr Op<Tensor(const Tensor&, IntArrayRef, IntArrayRef, IntArrayRef, IntArrayRef,
                           IntArrayRef)>
    col2im{"aten::col2im"};
// max_unpool2d(Tensor self, Tensor indices, int[2] output_size) -> Tensor
// self, indices int64 (N, C, H, W) or (C, H, W) -> (N, C, OH, OW) or (C, OH, OW): zeros, then
// out[n, c].flat[indices[n, c, h, w]] = self[n, c, h, w] (CPU kernel, core/ops/cpu/unpool.cpp).
inline constexpr Op<Tensor(const Tensor&, const Tensor&, IntArrayRef)> max_unpool2d{
    "aten::max_unpool2d"};
// max_unpool3d(Tensor self, Tensor indices, int[3] output_size, int[3] stride, int[3] padding)
// the same over (T, H, W) planes: (N, C, T, H, W) or (C, T, H, W) -> (N, C, OT, OH, OW).
inline constexpr Op<Tensor(const Tensor&, const Tensor&, IntArrayRef, IntArrayRef, IntArrayRef)>
    max_unpool3d{"aten::max_unpool3d"};
// channel_shuffle(Tensor self, int groups) -> Tensor
// self (N, C, *), C = g k -> self's shape: out[:, i g + j] = self[:, j k + i] (checks, then
// native_channel_shuffle; CPU kernels, core/ops/cpu/channel_shuffle.cpp).
inline constexpr Op<Tensor(const Tensor&, int64_t)> channel_shuffle{"aten::channel_shuffle"};
// native_channel_shuffle(Tensor self, int groups) -> Tensor
inline constexpr Op<Tensor(const Tensor&, int64_t)> native_channel_shuffle{
    "aten::native_channel_shuffle"};
// bilinear(Tensor input1, Tensor input2, Tensor weight, Tensor? bias=None) -> Tensor
// input1 (*, I1), input2 (*, I2), weight (O, I1, I2), bias (O) -> (*, O): x1 weight[o] x2^T + b
// (CompositeImplicitAutograd over _trilinear, core/ops/composite/bilinear.cpp).
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&, Default<const Tensor&>)>
    bilinear{"aten::bilinear"};
// _trilinear(Tensor i1, Tensor i2, Tensor i3, int[] expand1, int[] expand2, int[] expand3,
//            int[] sumdim, int unroll_dim=1) -> Tensor
// i1, i2, i3 unsqueezed at expand1 / expand2 / expand3 to one rank, multiplied (broadcast) and
// summed over sumdim, which is dropped.
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&, IntArrayRef, IntArrayRef,
                           IntArrayRef, IntArrayRef, Default<int64_t>)>
    _trilinear{"aten::_trilinear"};

// --- normalization --------------------------------------------------------------------------

// native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias,
//                   float eps) -> (Tensor, Tensor, Tensor)
// input (*, N1..Nk), normalized_shape (N1..Nk), weight / bias (N1..Nk) ->
//   out (*, N1..Nk), mean (*, 1..1), rstd (*, 1..1) = 1 / sqrt(biased var + eps).
inline constexpr Op<std::tuple<Tensor, Tensor, Tensor>(const Tensor&, IntArrayRef, const Tensor&,
                                                       const Tensor&, double)>
    native_layer_norm{"aten::native_layer_norm"};
// native_layer_norm_backward(Tensor grad_out, Tensor input, SymInt[] normalized_shape,
//     Tensor mean, Tensor rstd, Tensor? weight, Tensor? bias, int[3] output_mask)
//     -> (Tensor, Tensor, Tensor)
// Per row of N normalized elements, xhat = (x - mean) rstd and dxhat = grad_out weight:
//   grad_input = rstd (dxhat - mean(dxhat) - xhat mean(dxhat xhat)),
//   grad_weight = sum over rows of grad_out xhat, grad_bias = sum over rows of grad_out;
// those output_mask asks for, the others undefined (weight's undefined without a weight).
inline constexpr Op<std::tuple<Tensor, Tensor, Tensor>(const Tensor&, const Tensor&, IntArrayRef,
                                                       const Tensor&, const Tensor&, const Tensor&,
                                                       const Tensor&, IntArrayRef)>
    native_layer_norm_backward{"aten::native_layer_norm_backward"};
// layer_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, Tensor? bias=None,
//            float eps=1e-05, bool cudnn_enable=True) -> Tensor
inline constexpr Op<Tensor(const Tensor&, IntArrayRef, Default<const Tensor&>,
                           Default<const Tensor&>, Default<double>, Default<bool>)>
    layer_norm{"aten::layer_norm"};
// batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean,
//            Tensor? running_var, bool training, float momentum, float eps, bool cudnn_enabled)
// input (N, C, *) normalized per channel (see native_batch_norm), torch's checks first.
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&, const Tensor&,
                           const Tensor&, bool, double, double, bool)>
    batch_norm{"aten::batch_norm"};
// instance_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean,
//     Tensor? running_var, bool use_input_stats, float momentum, float eps, bool cudnn_enabled)
// input (N, C, *) -> (N, C, *), each (sample, channel) normalized over *: batch_norm of the
// input viewed as (1, N C, *) with weight, bias and running statistics repeated N times.
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&, const Tensor&,
                           const Tensor&, bool, double, double, bool)>
    instance_norm{"aten::instance_norm"};
// group_norm(Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None,
//            float eps=1e-05, bool cudnn_enabled=True) -> Tensor
// input (N, C, *) -> (N, C, *): each sample's group of C / num_groups channels normalized over
// its channels and *, then weight[c] x + bias[c].
inline constexpr Op<Tensor(const Tensor&, int64_t, Default<const Tensor&>, Default<const Tensor&>,
                           Default<double>, Default<bool>)>
    group_norm{"aten::group_norm"};
// native_group_norm(Tensor input, Tensor? weight, Tensor? bias, SymInt N, SymInt C,
//                   SymInt HxW, int group, float eps) -> (Tensor, Tensor, Tensor)
// input (N, C, *) with HxW = prod(*) -> out (N, C, *), mean (N, group), rstd (N, group).
inline constexpr Op<std::tuple<Tensor, Tensor, Tensor>(const Tensor&, const Tensor&, const Tensor&,
                                                       int64_t, int64_t, int64_t, int64_t, double)>
    native_group_norm{"aten::native_group_norm"};
// native_group_norm_backward(Tensor grad_out, Tensor input, Tensor mean, Tensor rstd,
//     Tensor? weight, SymInt N, SymInt C, SymInt HxW, int group, int[3] output_mask)
//     -> (Tensor, Tensor, Tensor)
// Per sample and group of M = C / group * HxW elements, xhat = (x - mean) rstd and
// dxhat = grad_out weight[c]: grad_input = rstd (dxhat - mean(dxhat) - xhat mean(dxhat xhat)),
// grad_weight[c] = sum of grad_out xhat, grad_bias[c] = sum of grad_out over N and *.
inline constexpr Op<std::tuple<Tensor, Tensor, Tensor>(const Tensor&, const Tensor&, const Tensor&,
                                                       const Tensor&, const Tensor&, int64_t,
                                                       int64_t, int64_t, int64_t, IntArrayRef)>
    native_group_norm_backward{"aten::native_group_norm_backward"};
// native_batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean,
//                   Tensor? running_var, bool training, float momentum, float eps)
//     -> (Tensor, Tensor, Tensor)
// input (N, C, *) normalized per channel c over N and *: training uses the batch's mean and
// biased variance (and moves running_mean / running_var, given, towards the batch's mean and
// unbiased variance by `momentum`), eval uses the running ones; -> out (N, C, *), save_mean (C),
// save_invstd (C) = 1 / sqrt(biased var + eps) in training, (0) and (0) in eval.
inline constexpr Op<std::tuple<Tensor, Tensor, Tensor>(const Tensor&, const Tensor&, const Tensor&,
                                                       const Tensor&, const Tensor&, bool, double,
                                                       double)>
    native_batch_norm{"aten::native_batch_norm"};
// native_batch_norm_backward(Tensor grad_out, Tensor input, Tensor? weight, Tensor? running_mean,
//     Tensor? running_var, Tensor? save_mean, Tensor? save_invstd, bool train, float eps,
//     int[3] output_mask) -> (Tensor, Tensor, Tensor)
// The gradients of native_batch_norm's output w.r.t. input, weight and bias (those output_mask
// asks for; the others undefined), from its saved statistics (train) or the running ones.
inline constexpr Op<std::tuple<Tensor, Tensor, Tensor>(const Tensor&, const Tensor&, const Tensor&,
                                                       const Tensor&, const Tensor&, const Tensor&,
                                                       const Tensor&, bool, double, IntArrayRef)>
    native_batch_norm_backward{"aten::native_batch_norm_backward"};

// --- embedding, dropout, one_hot, padding ---------------------------------------------------

// embedding(Tensor weight, Tensor indices, int padding_idx=-1, bool scale_grad_by_freq=False,
//           bool sparse=False) -> Tensor
// weight (V, D), indices (*) int64 / int32 -> (*, D): the rows weight[indices].
inline constexpr Op<Tensor(const Tensor&, const Tensor&, Default<int64_t>, Default<bool>,
                           Default<bool>)>
    embedding{"aten::embedding"};
// cosine_similarity(Tensor x1, Tensor x2, int dim=1, float eps=1e-08) -> Tensor
// x1, x2 broadcast to one shape and a floating dtype -> sum(x1 / |x1| * x2 / |x2|) along dim,
// each norm at least eps (torch 1.13's formula: the squared norms clamped at eps^2 under
// no_grad, then sqrt_).
inline constexpr Op<Tensor(const Tensor&, const Tensor&, Default<int64_t>, Default<double>)>
    cosine_similarity{"aten::cosine_similarity"};
// embedding_backward(Tensor grad, Tensor indices, SymInt num_weights, int padding_idx,
//                    bool scale_grad_by_freq, bool sparse) -> Tensor
// grad (*, D), indices (*) -> (num_weights, D): embedding's weight gradient (dense only).
inline constexpr Op<Tensor(const Tensor&, const Tensor&, int64_t, int64_t, bool, bool)>
    embedding_backward{"aten::embedding_backward"};
// embedding_dense_backward(Tensor grad_output, Tensor indices, SymInt num_weights,
//                          int padding_idx, bool scale_grad_by_freq) -> Tensor
// The rows of grad_output added at their indices into zeros (num_weights, D); rows whose index
// is padding_idx add nothing; with scale_grad_by_freq each row is divided by how often its
// index occurs.
inline constexpr Op<Tensor(const Tensor&, const Tensor&, int64_t, int64_t, bool)>
    embedding_dense_backward{"aten::embedding_dense_backward"};

// embedding_renorm_(Tensor(a!) self, Tensor indices, float max_norm, float norm_type)
//     -> Tensor(a!)
// self (V, D): rows named in indices with a norm_type-norm above max_norm are rescaled to it.
inline constexpr Op<Tensor(const Tensor&, const Tensor&, double, double)> embedding_renorm_{
    "aten::embedding_renorm_"};
// native_dropout(Tensor input, float p, bool? train) -> (Tensor, Tensor)
// -> (input * mask / (1 - p), mask) with mask bool, each element kept with probability 1 - p.
inline constexpr Op<std::tuple<Tensor, Tensor>(const Tensor&, double, std::optional<bool>)>
    native_dropout{"aten::native_dropout"};
// one_hot(Tensor self, int num_classes=-1) -> Tensor
// self (*) int64 -> (*, num_classes) int64; num_classes -1 = self.max() + 1.
inline constexpr Op<Tensor(const Tensor&, Default<int64_t>)> one_hot{"aten::one_hot"};
// constant_pad_nd(Tensor self, SymInt[] pad, Scalar value=0) -> Tensor
// pad = (left_last, right_last, left_second_last, ...): grows (or, negative, crops) the last
// len(pad) / 2 dims, filling new elements with value.
inline constexpr Op<Tensor(const Tensor&, IntArrayRef, Default<const Scalar&>)> constant_pad_nd{
    "aten::constant_pad_nd"};

// --- activations: elementwise functions of one tensor that nn layers apply ----------------
// --- relu ----------------------------------------------------------------------------------------
// relu(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> relu{"aten::relu"};

// threshold_backward(Tensor grad_output, Tensor self, Scalar threshold) -> Tensor
// grad_output where self > threshold, 0 elsewhere (broadcast): relu's gradient from its result.
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Scalar&)> threshold_backward{
    "aten::threshold_backward"};

// leaky_relu(Tensor self, Scalar negative_slope=0.01) -> Tensor
inline constexpr Op<Tensor(const Tensor&, Default<const Scalar&>)> leaky_relu{"aten::leaky_relu"};
// hardtanh(Tensor self, Scalar min_val=-1, Scalar max_val=1) -> Tensor: clamp(self, min, max)
inline constexpr Op<Tensor(const Tensor&, Default<const Scalar&>, Default<const Scalar&>)>
    hardtanh{"aten::hardtanh"};
inline constexpr Op<Tensor(const Tensor&, Default<const Scalar&>, Default<const Scalar&>)>
    hardtanh_{"aten::hardtanh_"};
// elu(Tensor self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1) -> Tensor
inline constexpr Op<Tensor(const Tensor&, Default<const Scalar&>, Default<const Scalar&>,
                           Default<const Scalar&>)>
    elu{"aten::elu"};
inline constexpr Op<Tensor(const Tensor&, Default<const Scalar&>, Default<const Scalar&>,
                           Default<const Scalar&>)>
    elu_{"aten::elu_"};
// celu(Tensor self, Scalar alpha=1.0) -> Tensor: elu(self, alpha, 1, 1 / alpha)
inline constexpr Op<Tensor(const Tensor&, Default<const Scalar&>)> celu{"aten::celu"};
inline constexpr Op<Tensor(const Tensor&, Default<const Scalar&>)> celu_{"aten::celu_"};
// leaky_relu.out(Tensor self, Scalar negative_slope=0.01, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&, const Scalar&)> leaky_relu_out{
    "aten::leaky_relu.out"};
// rrelu_with_noise(Tensor self, Tensor noise, Scalar lower=0.125, Scalar upper=0.333...,
//                  bool training=False, Generator? generator=None) -> Tensor
// training: x <= 0 times a draw r from U(lower, upper), which noise keeps (1 elsewhere);
// evaluation: leaky_relu with slope (lower + upper) / 2
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Scalar&, const Scalar&, bool,
                           std::optional<Generator>)>
    rrelu_with_noise{"aten::rrelu_with_noise"};
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Scalar&, const Scalar&, bool,
                           std::optional<Generator>)>
    rrelu_with_noise_{"aten::rrelu_with_noise_"};
// rrelu_with_noise_backward(Tensor grad_output, Tensor self, Tensor noise, Scalar lower,
//                           Scalar upper, bool training, bool self_is_result) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&, const Scalar&,
                           const Scalar&, bool, bool)>
    rrelu_with_noise_backward{"aten::rrelu_with_noise_backward"};
// hardshrink_backward(Tensor grad_out, Tensor self, Scalar lambd) / softshrink_backward(Tensor
// grad_output, Tensor self, Scalar lambd) -> Tensor: grad where self is outside [-lambd, lambd]
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Scalar&)> hardshrink_backward{
    "aten::hardshrink_backward"};
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Scalar&)> softshrink_backward{
    "aten::softshrink_backward"};
// prelu(Tensor self, Tensor weight) -> Tensor: self where self > 0, weight[c] self elsewhere
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> prelu{"aten::prelu"};
// prelu_backward(Tensor grad_output, Tensor self, Tensor weight) -> (Tensor, Tensor)
inline constexpr Op<std::tuple<Tensor, Tensor>(const Tensor&, const Tensor&, const Tensor&)>
    prelu_backward{"aten::prelu_backward"};
// threshold(Tensor self, Scalar threshold, Scalar value) -> Tensor: value where self <=
// threshold, self elsewhere
inline constexpr Op<Tensor(const Tensor&, const Scalar&, const Scalar&)> threshold{
    "aten::threshold"};
// log_sigmoid(Tensor self) -> Tensor: log(sigmoid(self)) without overflow
inline constexpr Op<Tensor(const Tensor&)> log_sigmoid{"aten::log_sigmoid"};
// log_sigmoid_forward(Tensor self) -> (Tensor output, Tensor buffer)
inline constexpr Op<std::tuple<Tensor, Tensor>(const Tensor&)> log_sigmoid_forward{
    "aten::log_sigmoid_forward"};
// log_sigmoid_backward(Tensor grad_output, Tensor self, Tensor buffer) -> Tensor
// grad_output (1 - sigmoid(self)) = grad_output sigmoid(-self); exp(-|self|) is recomputed (the
// forward's buffer is empty).
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&)> log_sigmoid_backward{
    "aten::log_sigmoid_backward"};
// hardsigmoid_backward / hardswish_backward / mish_backward(Tensor grad_output, Tensor self)
// -> Tensor: grad_output times the derivative of hardsigmoid (1/6 strictly inside (-3, 3), else
// 0), hardswish (0 below -3, x / 3 + 1/2 up to 3, 1 above), mish (tanh(sp) + x sigmoid(x)
// (1 - tanh(sp)^2), sp = softplus(x)).
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> hardsigmoid_backward{
    "aten::hardsigmoid_backward"};
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> hardswish_backward{
    "aten::hardswish_backward"};
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> mish_backward{"aten::mish_backward"};
// leaky_relu_backward(Tensor grad_output, Tensor self, Scalar negative_slope,
//                     bool self_is_result) -> Tensor
// grad_output where self > 0, negative_slope grad_output elsewhere.
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Scalar&, bool)>
    leaky_relu_backward{"aten::leaky_relu_backward"};
// hardtanh_backward(Tensor grad_output, Tensor self, Scalar min_val, Scalar max_val) -> Tensor
// grad_output strictly between min_val and max_val, 0 at and beyond them.
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Scalar&, const Scalar&)>
    hardtanh_backward{"aten::hardtanh_backward"};
// elu_backward(Tensor grad_output, Scalar alpha, Scalar scale, Scalar input_scale,
//              bool is_result, Tensor self_or_result) -> Tensor
// x > 0: grad_output scale; else grad_output input_scale (y + alpha scale) from the result y, or
// grad_output input_scale alpha scale exp(input_scale x) from the input x.
inline constexpr Op<Tensor(const Tensor&, const Scalar&, const Scalar&, const Scalar&, bool,
                           const Tensor&)>
    elu_backward{"aten::elu_backward"};

// gelu_backward(Tensor grad_output, Tensor self, *, str approximate="none") -> Tensor
// grad_output * gelu'(self) (broadcast): "none" Phi(x) + x phi(x); "tanh" the derivative of
// 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
inline constexpr Op<Tensor(const Tensor&, const Tensor&, Default<std::string_view>)>
    gelu_backward{"aten::gelu_backward"};
// silu_backward(Tensor grad_output, Tensor self) -> Tensor
// grad_output * s (1 + x (1 - s)), s = sigmoid(self).
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> silu_backward{"aten::silu_backward"};
// softplus_backward(Tensor grad_output, Tensor self, Scalar beta, Scalar threshold) -> Tensor
// grad_output * sigmoid(beta x), grad_output itself where beta x > threshold.
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Scalar&, const Scalar&)>
    softplus_backward{"aten::softplus_backward"};

// --- softplus ------------------------------------------------------------------------------------
// softplus(Tensor self, Scalar beta=1, Scalar threshold=20) -> Tensor
inline constexpr Op<Tensor(const Tensor&, Default<const Scalar&>, Default<const Scalar&>)> softplus{
    "aten::softplus"};

// --- convolution and pooling ------------------------------------------------------------------
// Semantically (torch's conventions): a convolution slides weight (C_out, C_in/groups, k...) over
// input (N, C_in, d...) with stride, zero padding and dilation; a transposed convolution is the
// adjoint of that map (weight (C_in, C_out/groups, k...)). Output size per spatial dim:
//   out = (in + 2 pad - dil (k - 1) - 1) / stride + 1                    (convolution, pooling)
//   out = (in - 1) stride - 2 pad + dil (k - 1) + output_padding + 1    (transposed)
// Pooling with ceil_mode rounds the division up (a window must start inside the input or its left
// padding). The CPU chain is torch 1.13's slow path (see core/ops/composite/conv.cpp):
//   conv2d -> convolution -> _convolution -> thnn_conv2d -> _slow_conv2d_forward
//                                         -> slow_conv_dilated2d / slow_conv_transpose2d
//   ConvolutionBackward0 -> convolution_backward (-> _slow_conv2d_backward)

// convolution(Tensor input, Tensor weight, Tensor? bias, int[] stride, int[] padding,
//             int[] dilation, bool transposed, int[] output_padding, int groups) -> Tensor
// input (N,C_in,d...), weight (C_out,C_in/g,k...) or transposed (C_in,C_out/g,k...) -> (N,C_out,o...)
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&, IntArrayRef, IntArrayRef,
                           IntArrayRef, bool, IntArrayRef, int64_t)>
    convolution{"aten::convolution"};
// _convolution(..., int groups, bool benchmark, bool deterministic, bool cudnn_enabled,
//              bool allow_tf32) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&, IntArrayRef, IntArrayRef,
                           IntArrayRef, bool, IntArrayRef, int64_t, bool, bool, bool, bool)>
    _convolution{"aten::_convolution"};
// _convolution_mode(Tensor input, Tensor weight, Tensor? bias, int[] stride, str padding,
//                   int[] dilation, int groups) -> Tensor        padding "same" or "valid"
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&, IntArrayRef,
                           std::string_view, IntArrayRef, int64_t)>
    _convolution_mode{"aten::_convolution_mode"};
// convolution_backward(Tensor grad_output, Tensor input, Tensor weight, SymInt[]? bias_sizes,
//     int[] stride, int[] padding, int[] dilation, bool transposed, int[] output_padding,
//     int groups, int[3] output_mask) -> (grad_input, grad_weight, grad_bias)
// grad_output (N,C_out,o...) -> grads of input, weight and bias (undefined where the mask is 0).
inline constexpr Op<std::tuple<Tensor, Tensor, Tensor>(
    const Tensor&, const Tensor&, const Tensor&, std::optional<IntArrayRef>, IntArrayRef,
    IntArrayRef, IntArrayRef, bool, IntArrayRef, int64_t, IntArrayRef)>
    convolution_backward{"aten::convolution_backward"};
// thnn_conv2d(Tensor self, Tensor weight, int[2] kernel_size, Tensor? bias=None, int[2] stride=1,
//             int[2] padding=0) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&, IntArrayRef, const Tensor&, IntArrayRef,
                           IntArrayRef)>
    thnn_conv2d{"aten::thnn_conv2d"};
// _slow_conv2d_forward(Tensor self, Tensor weight, int[2] kernel_size, Tensor? bias,
//                      int[2] stride, int[2] padding) -> Tensor         im2col + gemm
inline constexpr Op<Tensor(const Tensor&, const Tensor&, IntArrayRef, const Tensor&, IntArrayRef,
                           IntArrayRef)>
    _slow_conv2d_forward{"aten::_slow_conv2d_forward"};
// _slow_conv2d_backward.output_mask(Tensor grad_output, Tensor self, Tensor weight,
//     int[2] kernel_size, int[2] stride, int[2] padding, int[3] output_mask)
//     -> (Tensor grad_input, Tensor grad_weight, Tensor grad_bias)
inline constexpr Op<std::tuple<Tensor, Tensor, Tensor>(const Tensor&, const Tensor&, const Tensor&,
                                                       IntArrayRef, IntArrayRef, IntArrayRef,
                                                       IntArrayRef)>
    _slow_conv2d_backward{"aten::_slow_conv2d_backward.output_mask"};
// slow_conv_dilated2d(Tensor self, Tensor weight, int[2] kernel_size, Tensor? bias=None,
//                     int[2] stride=1, int[2] padding=0, int[2] dilation=1) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&, IntArrayRef, const Tensor&, IntArrayRef,
                           IntArrayRef, IntArrayRef)>
    slow_conv_dilated2d{"aten::slow_conv_dilated2d"};
// slow_conv_transpose2d(Tensor self, Tensor weight, int[2] kernel_size, Tensor? bias=None,
//     int[2] stride=1, int[2] padding=0, int[2] output_padding=0, int[2] dilation=1) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&, IntArrayRef, const Tensor&, IntArrayRef,
                           IntArrayRef, IntArrayRef, IntArrayRef)>
    slow_conv_transpose2d{"aten::slow_conv_transpose2d"};

// max_pool1d_with_indices(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=[0],
//                         int[1] dilation=[1], bool ceil_mode=False) -> (Tensor, Tensor)
inline constexpr Op<std::tuple<Tensor, Tensor>(const Tensor&, IntArrayRef, IntArrayRef,
                                               IntArrayRef, IntArrayRef, bool)>
    max_pool1d_with_indices{"aten::max_pool1d_with_indices"};
// max_pool2d_with_indices(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0,
//                         int[2] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)
// self (N,C,H,W) or (C,H,W) -> out (N,C,OH,OW), indices int64: h * W + w of each maximum.
inline constexpr Op<std::tuple<Tensor, Tensor>(const Tensor&, IntArrayRef, IntArrayRef,
                                               IntArrayRef, IntArrayRef, bool)>
    max_pool2d_with_indices{"aten::max_pool2d_with_indices"};
// max_pool2d_with_indices_backward(Tensor grad_output, Tensor self, int[2] kernel_size,
//     int[2] stride, int[2] padding, int[2] dilation, bool ceil_mode, Tensor indices) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&, IntArrayRef, IntArrayRef, IntArrayRef,
                           IntArrayRef, bool, const Tensor&)>
    max_pool2d_with_indices_backward{"aten::max_pool2d_with_indices_backward"};
// avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0,
//     bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor
inline constexpr Op<Tensor(const Tensor&, IntArrayRef, IntArrayRef, IntArrayRef, bool, bool,
                           std::optional<int64_t>)>
    avg_pool2d{"aten::avg_pool2d"};
// avg_pool2d_backward(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] stride,
//     int[2] padding, bool ceil_mode, bool count_include_pad, int? divisor_override) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&, IntArrayRef, IntArrayRef, IntArrayRef,
                           bool, bool, std::optional<int64_t>)>
    avg_pool2d_backward{"aten::avg_pool2d_backward"};
// avg_pool3d(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0,
//            bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None)
// self (N, C, T, H, W) or (C, T, H, W) -> (N, C, OT, OH, OW): each window's mean (CPU kernel,
// core/ops/cpu/avg_pool3d.cpp).
inline constexpr Op<Tensor(const Tensor&, IntArrayRef, IntArrayRef, IntArrayRef, bool, bool,
                           std::optional<int64_t>)>
    avg_pool3d{"aten::avg_pool3d"};
// avg_pool3d_backward(Tensor grad_output, Tensor self, int[3] kernel_size, int[3] stride,
//                     int[3] padding, bool ceil_mode, bool count_include_pad,
//                     int? divisor_override) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&, IntArrayRef, IntArrayRef, IntArrayRef,
                           bool, bool, std::optional<int64_t>)>
    avg_pool3d_backward{"aten::avg_pool3d_backward"};
// adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor
// _adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor
// output cell i of o covers input [floor(i in / o), ceil((i + 1) in / o)) per spatial dim.
inline constexpr Op<Tensor(const Tensor&, IntArrayRef)> adaptive_avg_pool2d{
    "aten::adaptive_avg_pool2d"};
inline constexpr Op<Tensor(const Tensor&, IntArrayRef)> _adaptive_avg_pool2d{
    "aten::_adaptive_avg_pool2d"};
// _adaptive_avg_pool2d_backward(Tensor grad_output, Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> _adaptive_avg_pool2d_backward{
    "aten::_adaptive_avg_pool2d_backward"};
// adaptive_max_pool2d(Tensor self, int[2] output_size) -> (Tensor, Tensor)
inline constexpr Op<std::tuple<Tensor, Tensor>(const Tensor&, IntArrayRef)> adaptive_max_pool2d{
    "aten::adaptive_max_pool2d"};
// adaptive_max_pool2d_backward(Tensor grad_output, Tensor self, Tensor indices) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&)>
    adaptive_max_pool2d_backward{"aten::adaptive_max_pool2d_backward"};

// --- reflection and replication padding (core/ops/cpu/padding.cpp) --------------------------
// reflection_pad2d(Tensor self, SymInt[4] padding) -> Tensor
// (N, C, H, W) or (C, H, W), padding (left, right, top, bottom) -> H + top + bottom rows,
// W + left + right columns, a new cell copying the input cell mirrored at the edge (x[-i] =
// x[i]); replication copies the edge cell; the 1d ops pad (N, C, W) / (C, W) by (left, right).
// The *_backward ops take grad_output of the padded shape and self, and sum each output cell's
// gradient into the cell it copied.
using PadOp = Op<Tensor(const Tensor&, IntArrayRef)>;
using PadBackwardOp = Op<Tensor(const Tensor&, const Tensor&, IntArrayRef)>;
inline constexpr PadOp reflection_pad1d{"aten::reflection_pad1d"};
inline constexpr PadOp reflection_pad2d{"aten::reflection_pad2d"};
inline constexpr PadOp replication_pad1d{"aten::replication_pad1d"};
inline constexpr PadOp replication_pad2d{"aten::replication_pad2d"};
inline constexpr PadBackwardOp reflection_pad1d_backward{"aten::reflection_pad1d_backward"};
inline constexpr PadBackwardOp reflection_pad2d_backward{"aten::reflection_pad2d_backward"};
inline constexpr PadBackwardOp replication_pad1d_backward{"aten::replication_pad1d_backward"};
inline constexpr PadBackwardOp replication_pad2d_backward{"aten::replication_pad2d_backward"};

// --- upsampling (core/ops/cpu/upsample.cpp) ------------------------------------------------
// upsample_nearest2d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor
// (N, C, H, W) -> (N, C, OH, OW), output_size or (H, W) times scale_factors; each output cell
// copies input cell (floor(oh H / OH), floor(ow W / OW)) (the ratios 1 / scale when given). The
// 1d ops take (N, C, W); the _exact ops round (o + 0.5) W / OW instead.
// upsample_bilinear2d.vec(Tensor input, SymInt[]? output_size, bool align_corners,
//                         float[]? scale_factors) -> Tensor
// Each output cell interpolates the 2 x 2 input cells around its source point
// (o + 0.5) ratio - 0.5 (align_corners: o (in - 1) / (out - 1)); upsample_linear1d in one dim.
// The *_backward.vec ops take grad_output of the output's shape and the input's full size, and
// sum each output cell's gradient into the input cells it read, with the same weights.
using UpsampleNearest = Op<Tensor(const Tensor&, std::optional<IntArrayRef>,
                                  std::optional<DoubleArrayRef>)>;
using UpsampleNearestBackward = Op<Tensor(const Tensor&, std::optional<IntArrayRef>, IntArrayRef,
                                          std::optional<DoubleArrayRef>)>;
using UpsampleLinear = Op<Tensor(const Tensor&, std::optional<IntArrayRef>, bool,
                                 std::optional<DoubleArrayRef>)>;
using UpsampleLinearBackward = Op<Tensor(const Tensor&, std::optional<IntArrayRef>, IntArrayRef,
                                         bool, std::optional<DoubleArrayRef>)>;
inline constexpr UpsampleNearest upsample_nearest1d{"aten::upsample_nearest1d.vec"};
inline constexpr UpsampleNearest upsample_nearest2d{"aten::upsample_nearest2d.vec"};
inline constexpr UpsampleNearest _upsample_nearest_exact1d{"aten::_upsample_nearest_exact1d.vec"};
inline constexpr UpsampleNearest _upsample_nearest_exact2d{"aten::_upsample_nearest_exact2d.vec"};
inline constexpr UpsampleLinear upsample_linear1d{"aten::upsample_linear1d.vec"};
inline constexpr UpsampleLinear upsample_bilinear2d{"aten::upsample_bilinear2d.vec"};
inline constexpr UpsampleNearestBackward upsample_nearest1d_backward{
    "aten::upsample_nearest1d_backward.vec"};
inline constexpr UpsampleNearestBackward upsample_nearest2d_backward{
    "aten::upsample_nearest2d_backward.vec"};
inline constexpr UpsampleNearestBackward _upsample_nearest_exact1d_backward{
    "aten::_upsample_nearest_exact1d_backward.vec"};
inline constexpr UpsampleNearestBackward _upsample_nearest_exact2d_backward{
    "aten::_upsample_nearest_exact2d_backward.vec"};
inline constexpr UpsampleLinearBackward upsample_linear1d_backward{
    "aten::upsample_linear1d_backward.vec"};
inline constexpr UpsampleLinearBackward upsample_bilinear2d_backward{
    "aten::upsample_bilinear2d_backward.vec"};

}  // namespace opscope::ops

namespace opscope::checks {
// torch's check_pixel_shuffle_shapes / check_pixel_unshuffle_shapes, which the CPU kernels and
// the composite ones of pixel_shuffle / pixel_unshuffle make first (defined in
// core/ops/composite/pixel_shuffle.cpp): at least 3 dims, a positive factor r, and C divisible
// by r^2 (shuffle) or H and W by r (unshuffle).
void pixel_shuffle_shapes(const Tensor& self, int64_t upscale_factor);
void pixel_unshuffle_shapes(const Tensor& self, int64_t downscale_factor);
// torch's checks of channel_shuffle's groups (defined in core/ops/cpu/channel_shuffle.cpp):
// positive, and dividing self's channels (dim 1).
void channel_shuffle_groups(const Tensor& self, int64_t groups);
}  // namespace opscope::checks

namespace opscope::composite {
// embedding_dense_backward from zeros and index_add_ (core/ops/composite/nn.cpp): the body of
// both the CPU kernel (core/ops/cpu/nn.cpp) and the CUDA one (core/cuda/kernels/index.cpp), and
// of EmbeddingBackward0's differentiable path under create_graph.
Tensor embedding_dense_backward_from_ops(const Tensor& grad_output, const Tensor& indices,
                                         int64_t num_weights, int64_t padding_idx,
                                         bool scale_grad_by_freq);
}  // namespace opscope::composite
