// CompositeImplicitAutograd kernels of group_norm, instance_norm and batch_norm (declared in
// core/ops/nn.cpp, registered at the end of this file). group_norm: torch 1.13's checks, then
// native_group_norm on the contiguous input. instance_norm: batch_norm of the input seen as one
// sample of N C channels. batch_norm: torch 1.13's checks of the per-channel operands, then
// native_batch_norm, so autograd records NativeBatchNormBackward0 as torch does. (torch goes
// through _batch_norm_impl_index, whose (Tensor, Tensor, Tensor, Tensor, int) return our kernels
// cannot give; the trace shows batch_norm -> native_batch_norm.)
#include "core/dispatch/Library.h"
#include "core/ops/arg_checks.h"
#include "core/ops/copy.h"
#include "core/ops/nn.h"
#include "core/ops/reduce.h"
#include "core/ops/shape.h"
#include "core/ops/views.h"

namespace opscope::composite {

// input (N, C, *), weight / bias (C) -> (N, C, *)
Tensor group_norm(const Tensor& input, int64_t num_groups, const Tensor& weight, const Tensor& bias,
                  double eps, bool /*cudnn_enabled*/) {
  const int64_t N = input.size(0), C = input.size(1);
  checks::group_norm_inputs(input, weight, bias, C, num_groups);
  int64_t HxW = 1;
  for (int64_t d = 2; d < input.dim(); ++d) HxW *= input.size(d);
  const auto contiguous = [](const Tensor& t) {  // Tensor::contiguous(): itself when it is
    return !t.defined() || t.is_contiguous() ? t : ops::contiguous(t);
  };
  return std::get<0>(ops::native_group_norm(contiguous(input), contiguous(weight),
                                            contiguous(bias), N, C, HxW, num_groups, eps));
}

// input (N, C, *), weight / bias / running_mean / running_var (C) -> (N, C, *): torch 1.13's
// instance_norm, batch_norm of (1, N C, *) with the per-channel tensors repeated N times; the
// running statistics take the mean over the samples of the repeated ones batch_norm moved.
Tensor instance_norm(const Tensor& input, const Tensor& weight, const Tensor& bias,
                     const Tensor& running_mean, const Tensor& running_var, bool use_input_stats,
                     double momentum, double eps, bool cudnn_enabled) {
  OPSCOPE_CHECK(use_input_stats || (running_mean.defined() && running_var.defined()),
                "Expected running_mean and running_var to be defined when use_input_stats is "
                "false");
  const int64_t b = input.size(0), c = input.size(1);
  DimVector shape(input.sizes().begin(), input.sizes().end());
  shape[1] = b * c;
  shape[0] = 1;
  const auto repeated = [b](const Tensor& t) {
    return t.defined() ? ops::repeat(t, {b}) : t;
  };
  const Tensor weight_ = repeated(weight), bias_ = repeated(bias);
  const Tensor running_mean_ = repeated(running_mean), running_var_ = repeated(running_var);
  const Tensor x = input.is_contiguous() ? input : ops::contiguous(input);
  const Tensor out = ops::batch_norm(ops::view(x, shape), weight_, bias_, running_mean_,
                                     running_var_, use_input_stats, momentum, eps, cudnn_enabled);
  if (running_mean.defined())
    ops::copy_(ops::alias(running_mean), ops::mean(ops::view(running_mean_, {b, c}),
                                                  IntArrayRef({0}), false, std::nullopt));
  if (running_var.defined())
    ops::copy_(ops::alias(running_var), ops::mean(ops::view(running_var_, {b, c}),
                                                 IntArrayRef({0}), false, std::nullopt));
  return ops::view(out, input.sizes());
}

// input (N, C, *), weight / bias / running_mean / running_var (C) -> (N, C, *)
Tensor batch_norm(const Tensor& input, const Tensor& weight, const Tensor& bias,
                  const Tensor& running_mean, const Tensor& running_var, bool training,
                  double momentum, double eps, bool /*cudnn_enabled*/) {
  const int64_t features = input.size(1);
  const std::pair<const Tensor*, const char*> operands[] = {{&running_mean, "running_mean"},
                                                             {&running_var, "running_var"},
                                                             {&weight, "weight"},
                                                             {&bias, "bias"}};
  for (const auto& [t, name] : operands) {
    if (t->defined()) {
      OPSCOPE_CHECK(t->numel() == features, name, " should contain ", features,
                    " elements not ", t->numel());
    }
  }
  return std::get<0>(ops::native_batch_norm(input, weight, bias, running_mean, running_var,
                                            training, momentum, eps));
}

static Library composite_normalization(Library::IMPL, "aten",
                                       DispatchKey::CompositeImplicitAutograd, [](Library& m) {
                                         m.impl("group_norm", fn<&group_norm>);
                                         m.impl("instance_norm", fn<&instance_norm>);
                                         m.impl("batch_norm", fn<&batch_norm>);
                                       });

}  // namespace opscope::composite
