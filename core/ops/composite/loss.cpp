// The composite kernels of the margin, embedding and likelihood losses (declared in
// core/ops/nn.cpp, see core/ops/nn.h; registered at the end of this file). Each calls its
// children through ops:: in torch 1.13's order (Loss.cpp, LossMultiLabelMargin.cpp), so a
// dispatch trace lists the ops torch runs:
//
//   margin_ranking_loss    sub, neg, mul, add.Scalar, clamp_min_, reduce
//   hinge_embedding_loss   zeros_like, margin - self (empty_like, fill_, sub_), clamp_min_,
//                          ne + where (twice), add, reduce
//   cosine_embedding_loss  mul + sum (three times, the squares + 1e-12), mul, sqrt_, div,
//                          zeros_like, 1 - cos, sub.Scalar + clamp_min_, eq + where (twice),
//                          add, reduce
//   triplet_margin_loss    pairwise_distance (twice, swap: three times and min.other),
//                          add.Scalar, sub, clamp_min, reduce
//   poisson_nll_loss       exp(x) - t x, or x - t log(x + eps); full: + Stirling's term
//                          masked_fill'ed to 0 where t <= 1; reduce
//   multilabel_margin_loss multilabel_margin_loss_forward's output (CPU kernel)
// where reduce is torch's apply_loss_reduction: mean() / sum() / nothing.
//
// soft_margin_loss and its backward are CompositeExplicitAutograd, as in torch: they write into
// one buffer with in-place ops (neg.out, mul_, exp_, add_, log_), under the node
// SoftMarginLossBackward0 rather than the nodes of those ops.
#include <cmath>
#include <numbers>
#include <optional>

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

namespace opscope::composite {

namespace {

// Handles of other families' overloads that only these kernels call.
// neg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
constexpr Op<Tensor(Out, const Tensor&)> neg_out{"aten::neg.out"};
// min.other(Tensor self, Tensor other) -> Tensor          torch.min(a, b): minimum
constexpr Op<Tensor(const Tensor&, const Tensor&)> min_other{"aten::min.other"};
// resize_(Tensor(a!) self, SymInt[] size, *, MemoryFormat? memory_format=None) -> Tensor(a!)
constexpr Op<Tensor(const Tensor&, IntArrayRef, Default<std::optional<int64_t>>)> resize_{
    "aten::resize_"};

// torch's apply_loss_reduction: mean() / sum() of the per-element losses, or them.
Tensor apply_loss_reduction(const Tensor& unreduced, int64_t reduction) {
  if (reduction == ops::kReductionMean) return ops::mean(unreduced);
  if (reduction == ops::kReductionSum) return ops::sum(unreduced);
  return unreduced;
}

// A Scalar minus a tensor as ATen's operator-(Scalar, Tensor) computes it: a tensor like `t`
// filled with `s`, then sub_(t).
Tensor scalar_minus(double s, const Tensor& t) {
  return ops::sub_(ops::fill_(ops::empty_like(t), s), t);
}

}  // namespace

// input1, input2, target (broadcast) -> max(0, -target (input1 - input2) + margin), reduced
Tensor margin_ranking_loss(const Tensor& input1, const Tensor& input2, const Tensor& target,
                           double margin, int64_t reduction) {
  const Tensor difference = ops::sub(input1, input2);
  const Tensor unclamped = ops::add(ops::mul(ops::neg(target), difference), Scalar(margin));
  return apply_loss_reduction(ops::clamp_min_(unclamped, Scalar(0)), reduction);
}

// self, target (broadcast) -> self where target != -1, plus max(0, margin - self) where
// target != 1 (targets are 1 or -1, each picking one term), reduced
Tensor hinge_embedding_loss(const Tensor& self, const Tensor& target, double margin,
                            int64_t reduction) {
  const Tensor zeros = ops::zeros_like(self);
  const Tensor margin_clamp = ops::clamp_min_(scalar_minus(margin, self), Scalar(0));
  const Tensor output_margin = ops::where(ops::ne(target, Scalar(1)), margin_clamp, zeros);
  const Tensor output_self = ops::where(ops::ne(target, Scalar(-1)), self, zeros);
  return apply_loss_reduction(ops::add(output_margin, output_self), reduction);
}

// input1, input2 (N, D) with target (N), or (D) with target () -> 1 - cos where target is 1,
// max(0, cos - margin) where it is -1, 0 elsewhere; reduced. cos = <x1, x2> /
// sqrt((|x1|^2 + 1e-12) (|x2|^2 + 1e-12)) along D.
Tensor cosine_embedding_loss(const Tensor& input1, const Tensor& input2, const Tensor& target,
                             double margin, int64_t reduction) {
  const int64_t target_dim = target.dim();
  OPSCOPE_CHECK(target_dim == 1 || target_dim == 0,
                "0D or 1D target tensor expected, multi-target not supported");
  if (target_dim == 1) {
    OPSCOPE_CHECK(input1.dim() == 2 && input2.dim() == 2,
                  "1D target tensor expects 2D input tensors, but found inputs with sizes ",
                  shape_str(input1.sizes()), " and ", shape_str(input2.sizes()), ".");
  } else {
    OPSCOPE_CHECK(input1.dim() == 1 && input2.dim() == 1,
                  "0D target tensor expects 1D input tensors, but found inputs with sizes ",
                  shape_str(input1.sizes()), " and ", shape_str(input2.sizes()), ".");
  }
  constexpr double kEpsilon = 1e-12;
  const int64_t dims[1] = {target_dim};  // the feature dim: 1 for a batch, 0 for one pair
  const Tensor prod_sum = ops::sum(ops::mul(input1, input2), IntArrayRef(dims, 1));
  const Tensor mag_square1 =
      ops::add(ops::sum(ops::mul(input1, input1), IntArrayRef(dims, 1)), Scalar(kEpsilon));
  const Tensor mag_square2 =
      ops::add(ops::sum(ops::mul(input2, input2), IntArrayRef(dims, 1)), Scalar(kEpsilon));
  const Tensor denom = ops::sqrt_(ops::mul(mag_square1, mag_square2));
  const Tensor cos = ops::div(prod_sum, denom);

  const Tensor zeros = ops::zeros_like(cos);
  const Tensor pos = scalar_minus(1.0, cos);
  const Tensor neg = ops::clamp_min_(ops::sub(cos, Scalar(margin)), Scalar(0));
  const Tensor output_pos = ops::where(ops::eq(target, Scalar(1)), pos, zeros);
  const Tensor output_neg = ops::where(ops::eq(target, Scalar(-1)), neg, zeros);
  return apply_loss_reduction(ops::add(output_pos, output_neg), reduction);
}

// anchor, positive, negative (N, D) or (D) -> max(0, margin + d(a, p) - d(a, n)), reduced; d
// the pairwise distance (p-norm of the difference + eps along the last dim); swap: d(a, n)
// becomes min(d(a, n), d(p, n))
Tensor triplet_margin_loss(const Tensor& anchor, const Tensor& positive, const Tensor& negative,
                           double margin, double p, double eps, bool swap, int64_t reduction) {
  const int64_t a_dim = anchor.dim(), p_dim = positive.dim(), n_dim = negative.dim();
  OPSCOPE_CHECK(a_dim == p_dim && p_dim == n_dim, "All inputs should have same dimension but got ",
                a_dim, "D, ", p_dim, "D and ", n_dim, "D inputs.");
  const Tensor dist_pos = ops::pairwise_distance(anchor, positive, p, eps);
  Tensor dist_neg = ops::pairwise_distance(anchor, negative, p, eps);
  if (swap) {
    const Tensor dist_swap = ops::pairwise_distance(positive, negative, p, eps);
    dist_neg = min_other(dist_neg, dist_swap);
  }
  const Tensor output =
      ops::clamp_min(ops::sub(ops::add(dist_pos, Scalar(margin)), dist_neg), Scalar(0));
  return apply_loss_reduction(output, reduction);
}

// input, target (broadcast) -> exp(input) - target input (log_input), else input -
// target log(input + eps); full: + target log(target) - target + log(2 pi target) / 2 where
// target > 1; reduced
Tensor poisson_nll_loss(const Tensor& input, const Tensor& target, bool log_input, bool full,
                        double eps, int64_t reduction) {
  Tensor loss;
  if (log_input) {
    const Tensor target_input = ops::mul(target, input);
    loss = ops::sub(ops::exp(input), target_input);
  } else {
    loss = ops::sub(input, ops::mul(target, ops::log(ops::add(input, Scalar(eps)))));
  }
  if (full) {
    // torch's order: the log(2 pi t) / 2 term first, then t log(t) - t
    const Tensor half_log_2pi_t =
        ops::mul(ops::log(ops::mul(target, Scalar(2 * std::numbers::pi))), Scalar(0.5));
    const Tensor t_log_t_minus_t = ops::sub(ops::mul(target, ops::log(target)), target);
    const Tensor stirling_term = ops::add(t_log_t_minus_t, half_log_2pi_t);
    ops::add_(loss, ops::masked_fill(stirling_term, ops::le(target, Scalar(1)), Scalar(0)));
  }
  return apply_loss_reduction(loss, reduction);
}

// multilabel_margin_loss = multilabel_margin_loss_forward's output (its is_target is for the
// backward)
Tensor multilabel_margin_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  return std::get<0>(ops::multilabel_margin_loss_forward(self, target, reduction));
}

Tensor multilabel_margin_loss_out(const Tensor& self, const Tensor& target, int64_t reduction,
                                  const Tensor& output) {
  const Tensor is_target = ops::empty({0}, self.dtype(), std::nullopt, self.device());
  return std::get<0>(
      ops::multilabel_margin_loss_forward_out(output, is_target, self, target, reduction));
}

// --- soft_margin_loss (CompositeExplicitAutograd) --------------------------------------------

// output = log(1 + exp(-self target)) computed in output (resized to self's shape; target
// broadcasts into it), then reduced into a 0-d output
Tensor soft_margin_loss_out(const Tensor& self, const Tensor& target, int64_t reduction,
                            const Tensor& output) {
  ops::log_(ops::add_(ops::exp_(ops::mul_(neg_out(output, self), target)), Scalar(1.0)));
  if (reduction != ops::kReductionNone) {
    const Tensor reduced = apply_loss_reduction(output, reduction);
    resize_(output, IntArrayRef{});
    ops::copy_(output, reduced);
  }
  return output;
}

Tensor soft_margin_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  const Tensor output = ops::empty({0}, self.dtype(), std::nullopt, self.device());
  return soft_margin_loss_out(self, target, reduction, output);
}

// grad_input = -norm target z / (1 + z) grad_output with z = exp(-target self), norm 1 / numel
// for the mean (1 otherwise)
Tensor soft_margin_loss_backward_out(const Tensor& grad_output, const Tensor& self,
                                     const Tensor& target, int64_t reduction,
                                     const Tensor& grad_input) {
  const double norm =
      reduction == ops::kReductionMean ? 1.0 / static_cast<double>(self.numel()) : 1.0;
  const Tensor z = ops::exp(ops::mul(ops::neg(target), self));
  ops::mul_(ops::mul_out(grad_input, target, z), Scalar(-norm));
  ops::add_(z, Scalar(1));
  return ops::mul_(ops::div_(grad_input, z), grad_output);
}

Tensor soft_margin_loss_backward(const Tensor& grad_output, const Tensor& self,
                                 const Tensor& target, int64_t reduction) {
  const Tensor grad_input = ops::empty({0}, self.dtype(), std::nullopt, self.device());
  return soft_margin_loss_backward_out(grad_output, self, target, reduction, grad_input);
}

static Library composite_implicit_loss(
    Library::IMPL, "aten", DispatchKey::CompositeImplicitAutograd, [](Library& m) {
      m.impl("margin_ranking_loss", fn<&margin_ranking_loss>);
      m.impl("hinge_embedding_loss", fn<&hinge_embedding_loss>);
      m.impl("cosine_embedding_loss", fn<&cosine_embedding_loss>);
      m.impl("triplet_margin_loss", fn<&triplet_margin_loss>);
      m.impl("poisson_nll_loss", fn<&poisson_nll_loss>);
      m.impl("multilabel_margin_loss", fn<&multilabel_margin_loss>);
      m.impl("multilabel_margin_loss.out", fn<&multilabel_margin_loss_out>);
    });

static Library composite_explicit_loss(
    Library::IMPL, "aten", DispatchKey::CompositeExplicitAutograd, [](Library& m) {
      m.impl("soft_margin_loss", fn<&soft_margin_loss>);
      m.impl("soft_margin_loss.out", fn<&soft_margin_loss_out>);
      m.impl("soft_margin_loss_backward", fn<&soft_margin_loss_backward>);
      m.impl("soft_margin_loss_backward.grad_input", fn<&soft_margin_loss_backward_out>);
    });

}  // namespace opscope::composite
