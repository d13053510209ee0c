// Neural-network ops: the losses (nll_loss, cross_entropy_loss, mse_loss, l1_loss,
// binary_cross_entropy, binary_cross_entropy_with_logits), layer_norm, embedding, dropout,
// one_hot and constant padding — what opscope.nn.functional calls.
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
// decompositions over them and over the pointwise / reduction ops (core/ops/composite/nn.cpp):
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
std::tuple<Tensor, Tensor> nll_loss_forward(const Tensor& self, const Tensor& target,
                                            const Tensor& weight, int64_t reduction,
                                            int64_t ignore_index);
// nll_loss_forward.output(..., *, Tensor(a!) output, Tensor(b!) total_weight)
//     -> (Tensor(a!), Tensor(b!))
std::tuple<Tensor, Tensor> nll_loss_forward_out(const Tensor& output, const Tensor& total_weight,
                                                const Tensor& self, const Tensor& target,
                                                const Tensor& weight, int64_t reduction,
                                                int64_t ignore_index);
// nll_loss2d_forward(Tensor self, Tensor target, Tensor? weight, int reduction, int ignore_index)
//     -> (Tensor output, Tensor total_weight)
// self (N,C,H,W), target (N,H,W) int64 -> output (N,H,W) for reduction none, () otherwise.
std::tuple<Tensor, Tensor> nll_loss2d_forward(const Tensor& self, const Tensor& target,
                                              const Tensor& weight, int64_t reduction,
                                              int64_t ignore_index);
// nll_loss2d_forward.output(..., *, Tensor(a!) output, Tensor(b!) total_weight)
//     -> (Tensor(a!), Tensor(b!))
std::tuple<Tensor, Tensor> nll_loss2d_forward_out(const Tensor& output, const Tensor& total_weight,
                                                  const Tensor& self, const Tensor& target,
                                                  const Tensor& weight, int64_t reduction,
                                                  int64_t ignore_index);
// nll_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean,
//          int ignore_index=-100) -> Tensor
Tensor nll_loss(const Tensor& self, const Tensor& target, const Tensor& weight = {},
                int64_t reduction = kReductionMean, int64_t ignore_index = -100);
// nll_loss2d(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean,
//            int ignore_index=-100) -> Tensor
Tensor nll_loss2d(const Tensor& self, const Tensor& target, const Tensor& weight = {},
                  int64_t reduction = kReductionMean, int64_t ignore_index = -100);
// nll_loss_nd(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean,
//             int ignore_index=-100) -> Tensor
// self (N,C,d1,...,dk) or (N,C) or (C), target (N,d1,...,dk) / (N) / () -> the per-sample
// losses, of target's shape, for reduction none; () otherwise.
Tensor nll_loss_nd(const Tensor& self, const Tensor& target, const Tensor& weight = {},
                   int64_t reduction = kReductionMean, int64_t ignore_index = -100);
// cross_entropy_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean,
//                    int ignore_index=-100, float label_smoothing=0.0) -> Tensor
// Class indices (target without the class dim) or class probabilities (target of self's shape).
Tensor cross_entropy_loss(const Tensor& self, const Tensor& target, const Tensor& weight = {},
                          int64_t reduction = kReductionMean, int64_t ignore_index = -100,
                          double label_smoothing = 0.0);

// --- regression and binary losses -----------------------------------------------------------

// mse_loss(Tensor self, Tensor target, int reduction=Mean) -> Tensor
// (self - target)^2, self and target broadcast.
Tensor mse_loss(const Tensor& self, const Tensor& target, int64_t reduction = kReductionMean);
// mse_loss.out(Tensor self, Tensor target, int reduction=Mean, *, Tensor(a!) out) -> Tensor(a!)
Tensor mse_loss_out(const Tensor& out, const Tensor& self, const Tensor& target,
                    int64_t reduction = kReductionMean);
// l1_loss(Tensor self, Tensor target, int reduction=Mean) -> Tensor
// |self - target|.
Tensor l1_loss(const Tensor& self, const Tensor& target, int64_t reduction = kReductionMean);
// binary_cross_entropy(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean)
// -w * (t * log(x) + (1 - t) * log(1 - x)), each log clamped at -100; x must lie in [0, 1].
Tensor binary_cross_entropy(const Tensor& self, const Tensor& target, const Tensor& weight = {},
                            int64_t reduction = kReductionMean);
// binary_cross_entropy.out(..., *, Tensor(a!) out) -> Tensor(a!)
Tensor binary_cross_entropy_out(const Tensor& out, const Tensor& self, const Tensor& target,
                                const Tensor& weight = {}, int64_t reduction = kReductionMean);
// binary_cross_entropy_with_logits(Tensor self, Tensor target, Tensor? weight=None,
//                                  Tensor? pos_weight=None, int reduction=Mean) -> Tensor
// binary_cross_entropy(sigmoid(self), target) in the overflow-free form
// (1 - t) * x + (1 + (pw - 1) * t) * (log1p(exp(-|x|)) + max(-x, 0)).
Tensor binary_cross_entropy_with_logits(const Tensor& self, const Tensor& target,
                                        const Tensor& weight = {}, const Tensor& pos_weight = {},
                                        int64_t reduction = kReductionMean);

// --- normalization --------------------------------------------------------------------------

// native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias,
//                   float eps) -> (Tensor, Tensor, Tensor)
// input (*, N1..Nk), normalized_shape (N1..Nk), weight / bias (N1..Nk) ->
//   out (*, N1..Nk), mean (*, 1..1), rstd (*, 1..1) = 1 / sqrt(biased var + eps).
std::tuple<Tensor, Tensor, Tensor> native_layer_norm(const Tensor& input,
                                                     IntArrayRef normalized_shape,
                                                     const Tensor& weight, const Tensor& bias,
                                                     double eps);
// layer_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, Tensor? bias=None,
//            float eps=1e-05, bool cudnn_enable=True) -> Tensor
Tensor layer_norm(const Tensor& input, IntArrayRef normalized_shape, const Tensor& weight = {},
                  const Tensor& bias = {}, double eps = 1e-5, bool cudnn_enable = true);

// --- embedding, dropout, one_hot, padding ---------------------------------------------------

// embedding(Tensor weight, Tensor indices, int padding_idx=-1, bool scale_grad_by_freq=False,
//           bool sparse=False) -> Tensor
// weight (V, D), indices (*) int64 / int32 -> (*, D): the rows weight[indices].
Tensor embedding(const Tensor& weight, const Tensor& indices, int64_t padding_idx = -1,
                 bool scale_grad_by_freq = false, bool sparse = false);
// embedding_renorm_(Tensor(a!) self, Tensor indices, float max_norm, float norm_type)
//     -> Tensor(a!)
// self (V, D): rows named in indices with a norm_type-norm above max_norm are rescaled to it.
Tensor embedding_renorm_(const Tensor& self, const Tensor& indices, double max_norm,
                         double norm_type);
// native_dropout(Tensor input, float p, bool? train) -> (Tensor, Tensor)
// -> (input * mask / (1 - p), mask) with mask bool, each element kept with probability 1 - p.
std::tuple<Tensor, Tensor> native_dropout(const Tensor& input, double p, std::optional<bool> train);
// dropout(Tensor input, float p, bool train) -> Tensor
Tensor dropout(const Tensor& input, double p, bool train);
// dropout_(Tensor(a!) self, float p, bool train) -> Tensor(a!)
Tensor dropout_(const Tensor& self, double p, bool train);
// one_hot(Tensor self, int num_classes=-1) -> Tensor
// self (*) int64 -> (*, num_classes) int64; num_classes -1 = self.max() + 1.
Tensor one_hot(const Tensor& self, int64_t num_classes = -1);
// constant_pad_nd(Tensor self, SymInt[] pad, Scalar value=0) -> Tensor
// pad = (left_last, right_last, left_second_last, ...): grows (or, negative, crops) the last
// len(pad) / 2 dims, filling new elements with value.
Tensor constant_pad_nd(const Tensor& self, IntArrayRef pad, const Scalar& value = 0);
// pad(Tensor self, SymInt[] pad, str mode="constant", float? value=None) -> Tensor
Tensor pad(const Tensor& self, IntArrayRef pad, std::string_view mode = "constant",
           std::optional<double> value = std::nullopt);

}  // namespace opscope::ops
