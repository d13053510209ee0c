// Neural-network ops: the activations (relu, gelu, silu, softplus), the losses (nll_loss,
// cross_entropy_loss, mse_loss, l1_loss, binary_cross_entropy, binary_cross_entropy_with_logits),
// layer_norm, embedding, dropout, one_hot and constant padding — what opscope.nn.functional calls.
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
// native_layer_norm, native_dropout); the user-facing ops are CompositeImplicitAutograd
// decompositions over them and over the elementwise / reduction ops (core/ops/composite/nn.cpp):
//
//   cross_entropy_loss -> log_softmax + nll_loss_nd -> nll_loss -> nll_loss_forward      (N, C)
//                                                   -> nll_loss2d -> nll_loss2d_forward  (N, C,
//                                                   d...)
//   layer_norm -> native_layer_norm            dropout -> bernoulli_ + div_ + mul (training)
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

// --- normalization --------------------------------------------------------------------------

// native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias,
//                   float eps) -> (Tensor, Tensor, Tensor)
// input (*, N1..Nk), normalized_shape (N1..Nk), weight / bias (N1..Nk) ->
//   out (*, N1..Nk), mean (*, 1..1), rstd (*, 1..1) = 1 / sqrt(biased var + eps).
inline constexpr Op<std::tuple<Tensor, Tensor, Tensor>(const Tensor&, IntArrayRef, const Tensor&,
                                                       const Tensor&, double)>
    native_layer_norm{"aten::native_layer_norm"};
// layer_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, Tensor? bias=None,
//            float eps=1e-05, bool cudnn_enable=True) -> Tensor
inline constexpr Op<Tensor(const Tensor&, IntArrayRef, Default<const Tensor&>,
                           Default<const Tensor&>, Default<double>, Default<bool>)>
    layer_norm{"aten::layer_norm"};

// --- embedding, dropout, one_hot, padding ---------------------------------------------------

// embedding(Tensor weight, Tensor indices, int padding_idx=-1, bool scale_grad_by_freq=False,
//           bool sparse=False) -> Tensor
// weight (V, D), indices (*) int64 / int32 -> (*, D): the rows weight[indices].
inline constexpr Op<Tensor(const Tensor&, const Tensor&, Default<int64_t>, Default<bool>,
                           Default<bool>)>
    embedding{"aten::embedding"};
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

// --- softplus ------------------------------------------------------------------------------------
// softplus(Tensor self, Scalar beta=1, Scalar threshold=20) -> Tensor
inline constexpr Op<Tensor(const Tensor&, Default<const Scalar&>, Default<const Scalar&>)> softplus{
    "aten::softplus"};

}  // namespace opscope::ops
