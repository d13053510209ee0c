// The composite kernels of the nn family (declared in core/ops/nn.cpp, registered at the end of
// this file): the CompositeImplicitAutograd decompositions (nll_loss*, cross_entropy_loss, l1_loss,
// layer_norm, dropout, one_hot, pad) and the CompositeExplicitAutograd ones
// (binary_cross_entropy_with_logits, embedding, constant_pad_nd, celu). Each calls its children through
// ops:: in torch 1.13's order (LossNLL.cpp, Loss.cpp, layer_norm.cpp, Dropout.cpp, Embedding.cpp,
// PadNd.cpp), so a dispatch trace shows the ops torch runs.
#include <algorithm>
#include <limits>

#include "core/autograd/GradMode.h"
#include "core/dispatch/Library.h"
#include "core/ops/TensorIterator.h"
#include "core/ops/binary.h"
#include "core/ops/compare.h"
#include "core/ops/copy.h"
#include "core/ops/factories.h"
#include "core/ops/indexing.h"
#include "core/ops/nn.h"
#include "core/ops/reduce.h"
#include "core/ops/unary.h"
#include "core/ops/utility.h"
#include "core/ops/views.h"

namespace opscope::composite {

// --- nll_loss family -----------------------------------------------------------------------

Tensor nll_loss(const Tensor& self, const Tensor& target, const Tensor& weight, int64_t reduction,
                int64_t ignore_index) {
  return std::get<0>(ops::nll_loss_forward(self, target, weight, reduction, ignore_index));
}

Tensor nll_loss2d(const Tensor& self, const Tensor& target, const Tensor& weight, int64_t reduction,
                  int64_t ignore_index) {
  return std::get<0>(ops::nll_loss2d_forward(self, target, weight, reduction, ignore_index));
}

Tensor nll_loss_out(const Tensor& self, const Tensor& target, const Tensor& weight,
                    int64_t reduction, int64_t ignore_index, const Tensor& output) {
  const Tensor total_weight = ops::empty({0}, self.dtype(), std::nullopt, self.device());
  return std::get<0>(ops::nll_loss_forward_out(output, total_weight, self, target, weight,
                                               reduction, ignore_index));
}

Tensor nll_loss2d_out(const Tensor& self, const Tensor& target, const Tensor& weight,
                      int64_t reduction, int64_t ignore_index, const Tensor& output) {
  const Tensor total_weight = ops::empty({0}, self.dtype(), std::nullopt, self.device());
  return std::get<0>(ops::nll_loss2d_forward_out(output, total_weight, self, target, weight,
                                                 reduction, ignore_index));
}

// self (N, C, d1..dk), target (N, d1..dk): 1-D / 2-D inputs go to nll_loss, 4-D ones to
// nll_loss2d, the others are viewed as (N, C, 1, d1*..*dk) for nll_loss2d.
Tensor nll_loss_nd(const Tensor& self, const Tensor& target, const Tensor& weight,
                   int64_t reduction, int64_t ignore_index) {
  OPSCOPE_CHECK_VALUE(self.dim() >= 1, "Expected 1 or more dimensions (got ", self.dim(), ")");
  // torch reads a 0-d target's batch size as 0.
  const int64_t target_batch = target.dim() > 0 ? target.size(0) : 0;
  OPSCOPE_CHECK_VALUE(self.dim() == 1 || self.size(0) == target_batch,
                      "Expected input batch_size (", self.size(0), ") to match target batch_size (",
                      target_batch, ").");
  if (self.dim() == 1 || self.dim() == 2)
    return ops::nll_loss(self, target, weight, reduction, ignore_index);
  if (self.dim() == 4) return ops::nll_loss2d(self, target, weight, reduction, ignore_index);

  // dim 3 or > 4
  const int64_t n = self.size(0), c = self.size(1);
  DimVector out_size{n};
  for (int64_t d = 2; d < self.dim(); ++d) out_size.push_back(self.size(d));
  IntArrayRef target_rest = target.dim() > 0 ? target.sizes().subspan(1) : IntArrayRef{};
  OPSCOPE_CHECK(std::ranges::equal(target_rest, self.sizes().subspan(2)), "Expected target size ",
                shape_str(out_size), ", got ", shape_str(target.sizes()));
  Tensor input_ = ops::contiguous(self);
  Tensor target_ = ops::contiguous(target);
  // empty batches, see torch issue 15870
  input_ = input_.numel() > 0 ? ops::view(input_, {n, c, 1, -1}) : ops::view(input_, {n, c, 0, 0});
  target_ = target_.numel() > 0 ? ops::view(target_, {n, 1, -1}) : ops::view(target_, {n, 0, 0});
  Tensor out = ops::nll_loss2d(input_, target_, weight, reduction, ignore_index);
  return reduction == ops::kReductionNone ? ops::view(out, out_size) : out;
}

// --- cross_entropy_loss --------------------------------------------------------------------

namespace {

// A Python-number operand, as ATen's Tensor-Scalar operators wrap them (`1 - t` is
// wrapped(1).sub(t)).
Tensor num(const Scalar& s) {
  return wrapped_scalar_tensor(s);
}

// weight (C) viewed as (1, C, 1, ...) against an input of `dim` dims with classes at class_dim.
Tensor broadcastable_weight(const Tensor& weight, int64_t dim, int64_t class_dim) {
  DimVector shape(static_cast<size_t>(dim), 1);
  shape[static_cast<size_t>(class_dim)] = weight.size(0);
  return ops::view(weight, shape);
}

// Class probabilities: -(log_softmax(self) * target [* weight]).sum(class_dim), reduced; the
// mean divides by the number of samples (numel / C), nan when there are none.
Tensor cross_entropy_loss_prob_target(const Tensor& self, const Tensor& target_,
                                      const Tensor& weight, int64_t reduction,
                                      double label_smoothing) {
  const int64_t class_dim = self.dim() == 1 ? 0 : 1;
  const int64_t n_classes = self.size(class_dim);
  OPSCOPE_CHECK(
      !weight.defined() || (weight.dim() == 1 && weight.numel() == n_classes),
      "cross_entropy: weight tensor should be defined either for all ", n_classes,
      " classes or no classes but got weight tensor of shape: ", shape_str(weight.sizes()));
  const Tensor input = ops::log_softmax(self, class_dim, self.dtype());
  Tensor target = target_;
  if (label_smoothing > 0.0) {
    OPSCOPE_CHECK(label_smoothing <= 1.0,
                  "label_smoothing must be between 0.0 and 1.0. Got: ", label_smoothing);
    target = ops::add(ops::mul(target_, num(1 - label_smoothing)),
                      num(label_smoothing / static_cast<double>(n_classes)));
  }
  Tensor product = ops::mul(input, target);
  if (weight.defined()) {
    const Tensor weight_ =
        input.dim() > 1 ? broadcastable_weight(weight, input.dim(), class_dim) : weight;
    product = ops::mul(product, weight_);
  }
  switch (reduction) {
    case ops::kReductionMean:
      if (input.numel() == 0)
        return ops::fill_(ops::neg(ops::sum(product)), std::numeric_limits<double>::quiet_NaN());
      return ops::div(ops::neg(ops::sum(product)), num(input.numel() / n_classes));
    case ops::kReductionSum:
      return ops::neg(ops::sum(product));
    case ops::kReductionNone:
      return ops::neg(ops::sum(product, IntArrayRef{class_dim}));
    default:
      throw Error(detail::str("Invalid reduction type encountered in cross_entropy: ", reduction));
  }
}

// Class indices with label smoothing: (1 - s) * nll + s / C * (the loss against a uniform
// target), the uniform part weighted and ignoring ignore_index like the nll part.
Tensor cross_entropy_loss_label_smoothing(const Tensor& self, const Tensor& target,
                                          const Tensor& weight, int64_t reduction,
                                          int64_t ignore_index, double label_smoothing) {
  const int64_t class_dim = self.dim() == 1 ? 0 : 1;
  const Tensor input = ops::log_softmax(self, class_dim, self.dtype());
  const Tensor nllloss = ops::nll_loss_nd(input, target, weight, reduction, ignore_index);
  const Tensor ignore_mask = ops::eq(target, ignore_index);
  Tensor smooth_loss;
  if (weight.defined()) {
    const Tensor weight_ = broadcastable_weight(weight, self.dim(), class_dim);
    smooth_loss = ops::neg(ops::sum(ops::mul(input, weight_), IntArrayRef{class_dim}));
  } else {
    smooth_loss = ops::neg(ops::sum(input, IntArrayRef{class_dim}));
  }
  ops::masked_fill_(smooth_loss, ignore_mask, 0.0);
  Tensor ret;
  switch (reduction) {
    case ops::kReductionMean:
      if (weight.defined()) {
        // Normalized by the weights of the targets, as nll_loss_nd (torch issue 61309).
        const Tensor kept = ops::flatten(ops::masked_select(target, ops::bitwise_not(ignore_mask)));
        ret = ops::div(ops::sum(smooth_loss), ops::sum(ops::gather(weight, 0, kept)));
      } else {
        ret = ops::div(ops::sum(smooth_loss), ops::sum(ops::bitwise_not(ignore_mask)));
      }
      break;
    case ops::kReductionSum:
      ret = ops::sum(smooth_loss);
      break;
    case ops::kReductionNone:
      ret = smooth_loss;
      break;
    default:
      throw Error(detail::str("Invalid reduction type encountered in cross_entropy: ", reduction));
  }
  const double n_classes = static_cast<double>(self.size(class_dim));
  return ops::add(ops::mul(num(1 - label_smoothing), nllloss),
                  ops::mul(ret, num(label_smoothing / n_classes)));
}

}  // namespace

// self (N, C, d...) logits; target (N, d...) class indices or (N, C, d...) probabilities.
Tensor cross_entropy_loss(const Tensor& self, const Tensor& target, const Tensor& weight,
                          int64_t reduction, int64_t ignore_index, double label_smoothing) {
  if (std::ranges::equal(self.sizes(), target.sizes())) {
    // Same shapes: class probabilities.
    OPSCOPE_CHECK(is_floating(target.dtype()),
                  "Expected floating point type for target with class probabilities, got ",
                  cpp_name(target.dtype()));
    OPSCOPE_CHECK(ignore_index < 0, "ignore_index is not supported for floating point target");
    return cross_entropy_loss_prob_target(self, target, weight, reduction, label_smoothing);
  }
  if (label_smoothing > 0.0) {
    OPSCOPE_CHECK(label_smoothing <= 1.0,
                  "label_smoothing must be between 0.0 and 1.0. Got: ", label_smoothing);
    return cross_entropy_loss_label_smoothing(self, target, weight, reduction, ignore_index,
                                              label_smoothing);
  }
  const int64_t class_dim = self.dim() == 1 ? 0 : 1;
  return ops::nll_loss_nd(ops::log_softmax(self, class_dim, self.dtype()), target, weight,
                          reduction, ignore_index);
}

// --- l1_loss, binary_cross_entropy_with_logits ----------------------------------------------

namespace {

// torch's apply_loss_reduction.
Tensor apply_loss_reduction(const Tensor& unreduced, int64_t reduction) {
  if (reduction == ops::kReductionMean) return ops::mean(unreduced);
  if (reduction == ops::kReductionSum) return ops::sum(unreduced);
  return unreduced;
}

}  // namespace

// |self - target|, reduced.
Tensor l1_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  return apply_loss_reduction(ops::abs(ops::sub(self, target)), reduction);
}

// With m = max(-x, 0):
//   loss = (1 - t) * x + (1 + (pw - 1) * t) * (log(exp(-m) + exp(-x - m)) + m)
// which is -(pw * t * log(sigmoid(x)) + (1 - t) * log(1 - sigmoid(x))) without overflow.
Tensor binary_cross_entropy_with_logits(const Tensor& input, const Tensor& target,
                                        const Tensor& weight, const Tensor& pos_weight,
                                        int64_t reduction) {
  const Tensor max_val = ops::clamp_min_(ops::neg(input), 0);
  // log(exp(-m) + exp(-x - m))
  auto log_sum_exp = [&] {
    return ops::log_(
        ops::add_(ops::exp_(ops::neg(max_val)), ops::exp_(ops::sub(ops::neg(input), max_val))));
  };
  Tensor loss;
  if (pos_weight.defined()) {
    // pos_weight broadcasts, so mul(target) is not in place.
    const Tensor log_weight = ops::add_(ops::mul(ops::sub(pos_weight, num(1)), target), 1);
    loss = ops::add_(ops::mul_(ops::sub(num(1), target), input),
                     ops::mul_(log_weight, ops::add_(log_sum_exp(), max_val)));
  } else {
    loss = ops::add_(ops::add_(ops::mul_(ops::sub(num(1), target), input), max_val), log_sum_exp());
  }
  if (weight.defined()) ops::mul_(loss, weight);
  return apply_loss_reduction(loss, reduction);
}

// --- embedding, one_hot ---------------------------------------------------------------------

// weight (V, D), indices (*) -> (*, D)
Tensor embedding(const Tensor& weight, const Tensor& indices, int64_t /*padding_idx*/,
                 bool /*scale_grad_by_freq*/, bool /*sparse*/) {
  OPSCOPE_CHECK(weight.dim() == 2, "'weight' must be 2-D");
  OPSCOPE_CHECK(indices.dtype() == ScalarType::Int64 || indices.dtype() == ScalarType::Int32,
                "Expected tensor for argument #1 'indices' to have one of the following scalar "
                "types: Long, Int; but got torch.",
                cpp_name(indices.dtype()),
                "Tensor instead (while checking arguments for embedding)");
  if (indices.dim() == 1) return ops::index_select(weight, 0, indices);
  DimVector size(indices.sizes().begin(), indices.sizes().end());
  size.push_back(weight.size(1));
  return ops::view(ops::index_select(weight, 0, ops::reshape(indices, {-1})), size);
}

// See core/ops/nn.h: torch 1.13's steps (result_type, to, expand, pow + sum of each, the two
// clamp_min_ under no_grad, sqrt_, the divisions, the product summed along dim).
// x1, x2 -> ||x1 - x2 + eps||_p over the innermost dim of their broadcast (torch 1.13's
// pairwise_distance: sub, add, norm).
Tensor pairwise_distance(const Tensor& x1, const Tensor& x2, double p, double eps, bool keepdim) {
  const int64_t innermost = std::max(x1.dim(), x2.dim()) - 1;
  return ops::norm(ops::add(ops::sub(x1, x2), Scalar(eps)), Scalar(p), {innermost}, keepdim);
}

Tensor cosine_similarity(const Tensor& x1_in, const Tensor& x2_in, int64_t dim, double eps) {
  const ScalarType common = result_type(x1_in, x2_in);
  OPSCOPE_CHECK(is_floating(common), "expected common dtype to be floating point, yet common "
                "dtype is ", cpp_name(common));
  const DimVector size = broadcast_shapes(x1_in.sizes(), x2_in.sizes());
  const Tensor x1 = ops::expand(ops::to(x1_in, common), size);
  const Tensor x2 = ops::expand(ops::to(x2_in, common), size);
  const int64_t dims[1] = {dim};
  Tensor x1_norm = ops::sum(ops::pow(x1, Scalar(2)), IntArrayRef(dims, 1), true, std::nullopt);
  Tensor x2_norm = ops::sum(ops::pow(x2, Scalar(2)), IntArrayRef(dims, 1), true, std::nullopt);
  {
    autograd::GradModeGuard no_grad(false);
    ops::clamp_min_(x1_norm, Scalar(eps * eps));
    ops::clamp_min_(x2_norm, Scalar(eps * eps));
  }
  ops::sqrt_(x1_norm);
  ops::sqrt_(x2_norm);
  return ops::sum(ops::mul(ops::div(x1, x1_norm), ops::div(x2, x2_norm)), IntArrayRef(dims, 1),
                  false, std::nullopt);
}

// log_sigmoid = log_sigmoid_forward's output, as torch's
Tensor log_sigmoid(const Tensor& self) { return std::get<0>(ops::log_sigmoid_forward(self)); }

// relu6 = hardtanh(self, 0, 6); selu = elu with the self-normalizing alpha and scale
Tensor relu6(const Tensor& self) { return ops::hardtanh(self, Scalar(0.0), Scalar(6.0)); }
Tensor relu6_(const Tensor& self) { return ops::hardtanh_(self, Scalar(0.0), Scalar(6.0)); }
constexpr double kSeluAlpha = 1.6732632423543772848170429916717;
constexpr double kSeluScale = 1.0507009873554804934193349852946;
Tensor selu(const Tensor& self) { return ops::elu(self, kSeluAlpha, kSeluScale, 1.0); }
Tensor selu_(const Tensor& self) { return ops::elu_(self, kSeluAlpha, kSeluScale, 1.0); }

// rrelu = rrelu_with_noise with a fresh noise tensor, lower <= upper checked
static void check_rrelu_bounds(const Scalar& lower, const Scalar& upper) {
  OPSCOPE_CHECK(lower.to_double() <= upper.to_double(),
                "Lower bound should be less than or equal to the upper bound");
}
Tensor rrelu(const Tensor& self, const Scalar& lower, const Scalar& upper, bool training,
             std::optional<Generator> generator) {
  check_rrelu_bounds(lower, upper);
  return ops::rrelu_with_noise(self, ops::empty_like(self), lower, upper, training, generator);
}
Tensor rrelu_(const Tensor& self, const Scalar& lower, const Scalar& upper, bool training,
              std::optional<Generator> generator) {
  check_rrelu_bounds(lower, upper);
  return ops::rrelu_with_noise_(self, ops::empty_like(self), lower, upper, training, generator);
}

// celu = elu(self, alpha, 1, 1 / alpha), with torch's message for alpha = 0
static double celu_input_scale(const Scalar& alpha) {
  OPSCOPE_CHECK(alpha.to_double() != 0.0, "ZeroDivisionError: alpha cannot be 0 for CELU");
  return 1.0 / alpha.to_double();
}
Tensor celu(const Tensor& self, const Scalar& alpha) {
  return ops::elu(self, alpha, 1.0, celu_input_scale(alpha));
}
Tensor celu_(const Tensor& self, const Scalar& alpha) {
  return ops::elu_(self, alpha, 1.0, celu_input_scale(alpha));
}

// grad (*, D), indices (*) -> (num_weights, D), as torch's embedding_backward (sparse: refused)
Tensor embedding_backward(const Tensor& grad, const Tensor& indices, int64_t num_weights,
                          int64_t padding_idx, bool scale_grad_by_freq, bool sparse) {
  if (sparse)
    throw NotImplementedError(
        "embedding_backward: sparse gradients (nn.Embedding(sparse=True)) are not supported in "
        "opscope; use sparse=False");
  return ops::embedding_dense_backward(grad, indices, num_weights, padding_idx,
                                       scale_grad_by_freq);
}

// See core/ops/nn.h. As torch 1.13's embedding_dense_backward_cpu: zeros, then index_add_ of
// the gradient's rows; the padding rows masked out and the frequencies divided first.
Tensor embedding_dense_backward_from_ops(const Tensor& grad_output, const Tensor& indices,
                                         int64_t num_weights, int64_t padding_idx,
                                         bool scale_grad_by_freq) {
  OPSCOPE_CHECK(indices.dtype() == ScalarType::Int64 || indices.dtype() == ScalarType::Int32,
                "Expected tensor for argument #2 'indices' to have one of the following scalar "
                "types: Long, Int; but got torch.",
                cpp_name(indices.dtype()),
                "Tensor instead (while checking arguments for embedding_backward)");
  const int64_t dim = grad_output.dim() > 0 ? grad_output.size(-1) : 1;
  const Tensor idx = ops::reshape(indices, {-1});
  Tensor rows = ops::reshape(grad_output, {idx.numel(), dim});
  if (padding_idx >= 0 || scale_grad_by_freq) {
    Tensor scale = ops::to(ops::ne(idx, Scalar(padding_idx)), grad_output.dtype());
    if (scale_grad_by_freq) {
      Tensor counts = ops::index_add(
          ops::zeros({num_weights}, grad_output.dtype(), std::nullopt, grad_output.device()), 0,
          idx, ops::ones_like(scale));
      scale = ops::div(scale, ops::index_select(counts, 0, idx));
    }
    rows = ops::mul(rows, ops::unsqueeze(scale, 1));
  }
  Tensor weight_grad = ops::zeros({num_weights, dim}, grad_output.dtype(), std::nullopt,
                                  grad_output.device());
  return ops::index_add_(weight_grad, 0, idx, rows);
}

// self (*) int64 -> (*, num_classes) int64
Tensor one_hot(const Tensor& self, int64_t num_classes) {
  OPSCOPE_CHECK(self.dtype() == ScalarType::Int64, "one_hot is only applicable to index tensor.");
  DimVector shape(self.sizes().begin(), self.sizes().end());
  if (self.numel() == 0) {
    OPSCOPE_CHECK(num_classes > 0, "Can not infer total number of classes from empty tensor.");
    shape.push_back(num_classes);
    return ops::empty(shape, self.dtype(), std::nullopt, self.device());
  }
  OPSCOPE_CHECK(ops::item(ops::min(self)).to_long() >= 0, "Class values must be non-negative.");
  if (num_classes == -1) {
    num_classes = ops::item(ops::max(self)).to_long() + 1;
  } else {
    OPSCOPE_CHECK(num_classes > ops::item(ops::max(self)).to_long(),
                  "Class values must be smaller than num_classes.");
  }
  shape.push_back(num_classes);
  Tensor ret = ops::zeros(shape, self.dtype(), std::nullopt, self.device());  // on self's device
  ops::scatter_(ret, -1, ops::unsqueeze(self, -1), 1);
  return ret;
}

// --- layer_norm, dropout -------------------------------------------------------------------

Tensor layer_norm(const Tensor& input, IntArrayRef normalized_shape, const Tensor& weight,
                  const Tensor& bias, double eps, bool /*cudnn_enable*/) {
  return std::get<0>(ops::native_layer_norm(input, normalized_shape, weight, bias, eps));
}

namespace {

// torch's _dropout_impl (feature_dropout = alpha_dropout = false): noise ~ Bernoulli(1 - p)
// scaled by 1 / (1 - p), times the input.
Tensor dropout_impl(const Tensor& input, double p, bool train, bool inplace) {
  OPSCOPE_CHECK(p >= 0 && p <= 1, "dropout probability has to be between 0 and 1, but got ", p);
  if (p == 0 || !train || input.numel() == 0) return input;
  if (p == 1) {
    Tensor zero = ops::zeros({}, input.dtype());
    return inplace ? ops::mul_(input, zero) : ops::mul(input, zero);
  }
  Tensor noise = ops::empty_like(input, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                                 /*memory_format=contiguous*/ int64_t{0});
  ops::bernoulli_(noise, 1 - p);
  ops::div_(noise, 1 - p);
  return inplace ? ops::mul_(input, noise) : ops::mul(input, noise);
}

}  // namespace

Tensor dropout(const Tensor& input, double p, bool train) {
  // torch takes native_dropout only on CUDA / XPU / lazy tensors (is_fused_kernel_acceptable).
  return dropout_impl(input, p, train, /*inplace=*/false);
}

Tensor dropout_(const Tensor& self, double p, bool train) {
  return dropout_impl(self, p, train, /*inplace=*/true);
}

// --- padding --------------------------------------------------------------------------------

// pad = (before_last, after_last, before_second_last, ...): negative entries crop (narrow),
// positive ones grow the output, filled with value, around a copy of the (cropped) input.
Tensor constant_pad_nd(const Tensor& self, IntArrayRef pad, const Scalar& value) {
  OPSCOPE_CHECK(pad.size() % 2 == 0, "Length of pad must be even but instead it equals ",
                pad.size());
  IntArrayRef input_sizes = self.sizes();
  const int64_t l_inp = self.dim();
  const auto l_pad = static_cast<int64_t>(pad.size() / 2);
  const int64_t l_diff = l_inp - l_pad;
  OPSCOPE_CHECK(l_inp >= l_pad,
                "Length of pad should be no more than twice the number of dimensions of the "
                "input. Pad length is ",
                pad.size(), "while the input has ", l_inp, "dimensions.");

  bool all_pads_non_positive = true;
  Tensor c_input = self;
  for (int64_t i = l_diff; i < l_inp; ++i) {
    const auto pad_idx = static_cast<size_t>(2 * (l_inp - i - 1));
    if (pad[pad_idx] < 0) {
      c_input = ops::narrow(c_input, i, -pad[pad_idx], c_input.size(i) + pad[pad_idx]);
    } else if (pad[pad_idx] != 0) {
      all_pads_non_positive = false;
    }
    if (pad[pad_idx + 1] < 0) {
      c_input = ops::narrow(c_input, i, 0, c_input.size(i) + pad[pad_idx + 1]);
    } else if (pad[pad_idx + 1] != 0) {
      all_pads_non_positive = false;
    }
  }
  if (all_pads_non_positive) return ops::clone(c_input);

  DimVector new_shape(input_sizes.begin(), input_sizes.begin() + l_diff);
  for (int64_t i = 0; i < l_pad; ++i) {
    const auto pad_idx = pad.size() - static_cast<size_t>((i + 1) * 2);
    const int64_t new_dim = input_sizes[l_diff + i] + pad[pad_idx] + pad[pad_idx + 1];
    OPSCOPE_CHECK(new_dim > 0, "The input size ", input_sizes[l_diff + i],
                  ", plus negative padding ", pad[pad_idx], " and ", pad[pad_idx + 1],
                  " resulted in a negative output size, which is invalid. Check dimension ",
                  l_diff + i, " of your input.");
    new_shape.push_back(new_dim);
  }
  Tensor output = ops::empty(new_shape, self.dtype(), std::nullopt, self.device());
  ops::fill_(output, value);
  Tensor c_output = output;
  for (int64_t i = l_diff; i < l_inp; ++i) {
    const auto pad_idx = static_cast<size_t>(2 * (l_inp - i - 1));
    if (pad[pad_idx] > 0)
      c_output = ops::narrow(c_output, i, pad[pad_idx], c_output.size(i) - pad[pad_idx]);
    if (pad[pad_idx + 1] > 0)
      c_output = ops::narrow(c_output, i, 0, c_output.size(i) - pad[pad_idx + 1]);
  }
  ops::copy_(c_output, c_input);
  return output;
}

Tensor pad(const Tensor& self, IntArrayRef pad, std::string_view mode,
           std::optional<double> value) {
  const bool known =
      mode == "constant" || mode == "reflect" || mode == "replicate" || mode == "circular";
  OPSCOPE_CHECK_AS(NotImplementedError, known, "Unrecognised padding mode ", mode);
  OPSCOPE_CHECK(pad.size() % 2 == 0, "Padding length must be divisible by 2");
  OPSCOPE_CHECK(static_cast<int64_t>(pad.size()) <= self.dim() * 2, "Padding length too large");
  if (mode == "constant") return ops::constant_pad_nd(self, pad, value.value_or(0.0));
  OPSCOPE_CHECK(!value.has_value() || *value == 0, "Padding mode \"", mode,
                "\" doesn't take in value argument");
  const int64_t dim = self.dim();
  if (pad.size() == 2 && (dim == 2 || dim == 3)) {
    if (mode == "reflect") return ops::reflection_pad1d(self, pad);
    if (mode == "replicate") return ops::replication_pad1d(self, pad);
  } else if (pad.size() == 4 && (dim == 3 || dim == 4)) {
    if (mode == "reflect") return ops::reflection_pad2d(self, pad);
    if (mode == "replicate") return ops::replication_pad2d(self, pad);
  }
  if (mode == "circular" || (pad.size() == 6 && (dim == 4 || dim == 5)))
    throw NotImplementedError(detail::str(
        "opscope: padding mode \"", mode, "\" of ", pad.size() / 2, " dims calls aten::",
        mode == "circular" ? "_pad_circular" : (mode == "reflect" ? "reflection_pad3d" : "replication_pad3d"),
        ", which opscope does not have yet"));
  throw NotImplementedError(
      "Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now");
}

// self [*s] -> max(self, 0), copied into out
Tensor relu_out(const Tensor& self, const Tensor& out) {
  Tensor value = ops::relu(self);
  resize_output(out, value.sizes());
  return ops::copy_(out, value);
}

static Library composite_implicit_nn(Library::IMPL, "aten", DispatchKey::CompositeImplicitAutograd,
                                     [](Library& m) {
                                       m.impl("nll_loss", fn<&nll_loss>);
                                       m.impl("nll_loss2d", fn<&nll_loss2d>);
                                       m.impl("nll_loss.out", fn<&nll_loss_out>);
                                       m.impl("nll_loss2d.out", fn<&nll_loss2d_out>);
                                       m.impl("nll_loss_nd", fn<&nll_loss_nd>);
                                       m.impl("cross_entropy_loss", fn<&cross_entropy_loss>);
                                       m.impl("l1_loss", fn<&l1_loss>);
                                       m.impl("layer_norm", fn<&layer_norm>);
                                       m.impl("dropout", fn<&dropout>);
                                       m.impl("dropout_", fn<&dropout_>);
                                       m.impl("one_hot", fn<&one_hot>);
                                       m.impl("embedding_backward", fn<&embedding_backward>);
                                       m.impl("relu6", fn<&relu6>);
                                       m.impl("log_sigmoid", fn<&log_sigmoid>);
                                       m.impl("cosine_similarity", fn<&cosine_similarity>);
                                       m.impl("pairwise_distance", fn<&pairwise_distance>);
                                       m.impl("relu6_", fn<&relu6_>);
                                       m.impl("selu", fn<&selu>);
                                       m.impl("selu_", fn<&selu_>);
                                       m.impl("rrelu", fn<&rrelu>);
                                       m.impl("rrelu_", fn<&rrelu_>);
                                       m.impl("pad", fn<&pad>);
                                     });

static Library composite_explicit_nn(Library::IMPL, "aten", DispatchKey::CompositeExplicitAutograd,
                                     [](Library& m) {
                                       m.impl("relu.out", fn<&relu_out>);
                                       m.impl("binary_cross_entropy_with_logits",
                                              fn<&binary_cross_entropy_with_logits>);
                                       m.impl("embedding", fn<&embedding>);
                                       m.impl("constant_pad_nd", fn<&constant_pad_nd>);
                                       m.impl("celu", fn<&celu>);
                                       m.impl("celu_", fn<&celu_>);
                                     });

}  // namespace opscope::composite
