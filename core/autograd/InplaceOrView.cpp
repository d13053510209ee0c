#include "core/autograd/InplaceOrView.h"

#include "core/autograd/GradMode.h"
#include "core/dispatch/Dispatcher.h"

namespace opscope::autograd {

namespace {
void ad_inplace_or_view(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  const FunctionSchema& schema = op.schema();
  size_t base = stack->size() - schema.arguments.size();
  std::vector<Tensor> keep;  // the tensors this call writes into
  for (size_t i = 0; i < schema.arguments.size(); ++i) {
    const Argument& a = schema.arguments[i];
    const IValue& v = (*stack)[base + i];
    if (a.alias && a.alias->is_write && v.is_tensor() && v.to_tensor().defined())
      keep.push_back(v.to_tensor());
  }
  for (const Tensor& t : keep)
    OPSCOPE_CHECK(!t->is_inference() || inference_mode_enabled(),
                  "Inplace update to inference tensor outside InferenceMode is not allowed.You "
                  "can make a clone to get a normal tensor before doing inplace update.See "
                  "https://github.com/pytorch/rfcs/pull/17 for more details.");
  {
    AutoDispatchBelowADInplaceOrView guard;
    op.redispatch_boxed(ks & kAfterADInplaceOrView, stack);
  }
  for (const Tensor& t : keep) t->bump_version();
}
}  // namespace

KernelFunction ad_inplace_or_view_kernel() {
  return KernelFunction::boxed(&ad_inplace_or_view, "opscope::autograd::ad_inplace_or_view");
}

}  // namespace opscope::autograd
