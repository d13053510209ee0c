// CompositeImplicitAutograd kernels of group_norm and batch_norm (declared in core/ops/nn.cpp,
// registered at the end of this file). group_norm: torch 1.13's checks, then native_group_norm on
// the contiguous input. batch_norm: torch 1.13's checks of the per-channel operands, then
// native_batch_norm, so
// autograd records NativeBatchNormBackward0 as torch does. (torch goes through
// _batch_norm_impl_index, whose (Tensor, Tensor, Tensor, Tensor, int) return our kernels cannot
// give; the trace shows batch_norm -> native_batch_norm.)
#include "core/dispatch/Library.h"
#include "core/ops/arg_checks.h"
#include "core/ops/copy.h"
#include "core/ops/nn.h"

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
                                         m.impl("batch_norm", fn<&batch_norm>);
                                       });

}  // namespace opscope::composite
