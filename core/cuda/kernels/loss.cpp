// smooth_l1_loss and huber_loss on CUDA, forward and backward, and mse_loss_backward (schemas in
// core/ops/nn.cpp; the CPU kernels in core/ops/cpu/loss.cpp), from elementwise ops and reductions
// that have CUDA kernels — several launches where torch's CUDA kernels are one each; the
// formulas, dtypes and messages are the CPU kernels'.
#include <string_view>

#include "core/cuda/kernels/KernelUtil.h"
#include "core/dispatch/Library.h"
#include "core/ops/binary.h"
#include "core/ops/compare.h"
#include "core/ops/copy.h"
#include "core/ops/nn.h"
#include "core/ops/reduce.h"
#include "core/ops/unary.h"

namespace opscope::cuda {

namespace {

// self - target over the broadcast shape, refused (as the CPU kernels refuse them) for integer
// and bool dtypes.
Tensor difference(std::string_view what, const Tensor& self, const Tensor& target) {
  Tensor d = ops::sub(self, target);
  OPSCOPE_CHECK(is_floating(d.dtype()), "\"", what, "\" not implemented for '",
                cpp_name(d.dtype()), "'");
  return d;
}

Tensor reduced(const Tensor& loss, int64_t reduction) {
  if (reduction == ops::kReductionMean) return ops::mean(loss);
  if (reduction == ops::kReductionSum) return ops::sum(loss);
  return loss;
}

// grad_output * dloss * norm (norm = 1 / numel for the mean), over self's shape.
Tensor scaled(const Tensor& dloss, const Tensor& grad_output, const Tensor& self,
              int64_t reduction) {
  Tensor g = ops::mul(dloss, grad_output);
  if (reduction == ops::kReductionMean && self.numel() > 0)
    g = ops::div(g, Scalar(static_cast<double>(self.numel())));
  return g;
}

// self, target (broadcast) -> z = |self - target|: 0.5 z^2 / beta where z < beta, z - 0.5 beta
// elsewhere (beta 0: z); reduced. With m = min(z, beta): m^2 / (2 beta) + (z - m).
Tensor smooth_l1_loss(const Tensor& self, const Tensor& target, int64_t reduction, double beta) {
  OPSCOPE_CHECK(beta >= 0, "smooth_l1_loss does not support negative values for beta.");
  CUDAGuard guard(self.device());
  Tensor z = ops::abs(difference("smooth_l1_cuda", self, target));
  if (beta == 0) return reduced(z, reduction);
  Tensor m = ops::clamp(z, std::nullopt, Scalar(beta));
  return reduced(ops::add(ops::mul(ops::mul(m, m), Scalar(0.5 / beta)), ops::sub(z, m)),
                 reduction);
}

// self, target (broadcast) -> z = |self - target|: 0.5 z^2 where z < delta, delta (z - 0.5
// delta) elsewhere; reduced. With m = min(z, delta): m (z - 0.5 m).
Tensor huber_loss(const Tensor& self, const Tensor& target, int64_t reduction, double delta) {
  OPSCOPE_CHECK(delta > 0, "huber_loss does not support non-positive values for delta.");
  CUDAGuard guard(self.device());
  Tensor z = ops::abs(difference("huber_cuda", self, target));
  Tensor m = ops::clamp(z, std::nullopt, Scalar(delta));
  return reduced(ops::mul(m, ops::sub(z, ops::mul(m, Scalar(0.5)))), reduction);
}

// grad_output ((): reduced), self, target -> grad_output clamp((self - target) / beta, -1, 1)
// (beta 0: sign, -1 at 0 as torch's)
Tensor smooth_l1_loss_backward(const Tensor& grad_output, const Tensor& self,
                               const Tensor& target, int64_t reduction, double beta) {
  CUDAGuard guard(self.device());
  Tensor d = difference("smooth_l1_backward_cuda", self, target);
  Tensor dloss = beta == 0 ? ops::where(ops::le(d, Scalar(0.0)), Scalar(-1.0), Scalar(1.0))
                           : ops::clamp(ops::div(d, Scalar(beta)), Scalar(-1.0), Scalar(1.0));
  return scaled(ops::to(dloss, d.dtype()), grad_output, self, reduction);
}

// grad_output ((): reduced), self, target -> grad_output clamp(self - target, -delta, delta)
Tensor huber_loss_backward(const Tensor& grad_output, const Tensor& self, const Tensor& target,
                           int64_t reduction, double delta) {
  CUDAGuard guard(self.device());
  Tensor d = difference("huber_backward_cuda", self, target);
  return scaled(ops::clamp(d, Scalar(-delta), Scalar(delta)), grad_output, self, reduction);
}

// grad_output ((): reduced), self, target -> grad_output 2 (self - target)
Tensor mse_loss_backward(const Tensor& grad_output, const Tensor& self, const Tensor& target,
                         int64_t reduction) {
  CUDAGuard guard(self.device());
  Tensor d = difference("mse_backward_cuda", self, target);
  return scaled(ops::mul(d, Scalar(2.0)), grad_output, self, reduction);
}

}  // namespace

static Library cuda_loss(Library::IMPL, "aten", DispatchKey::CUDA, [](Library& m) {
  m.impl("smooth_l1_loss", fn<&smooth_l1_loss>);
  m.impl("huber_loss", fn<&huber_loss>);
  m.impl("smooth_l1_loss_backward", fn<&smooth_l1_loss_backward>);
  m.impl("huber_loss_backward", fn<&huber_loss_backward>);
  m.impl("mse_loss_backward", fn<&mse_loss_backward>);
});

}  // namespace opscope::cuda
