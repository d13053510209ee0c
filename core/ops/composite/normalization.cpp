// CompositeImplicitAutograd kernel of batch_norm (declared in core/ops/nn.cpp, registered at the
// end of this file): torch 1.13's checks of the per-channel operands, then native_batch_norm, so
// autograd records NativeBatchNormBackward0 as torch does. (torch goes through
// _batch_norm_impl_index, whose (Tensor, Tensor, Tensor, Tensor, int) return our kernels cannot
// give; the trace shows batch_norm -> native_batch_norm.)
#include "core/dispatch/Library.h"
#include "core/ops/nn.h"

namespace opscope::composite {

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
                                         m.impl("batch_norm", fn<&batch_norm>);
                                       });

}  // namespace opscope::composite
