#include "core/ops/fallbacks.h"

#include "core/dispatch/Library.h"

namespace opscope {

void backend_select(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  const FunctionSchema& schema = op.schema();
  size_t base = stack->size() - schema.arguments.size();
  Device device(DeviceType::CPU);
  if (auto i = schema.argument_index("device")) {
    const IValue& d = (*stack)[base + *i];
    if (!d.is_none()) device = d.to_device();
  }
  DispatchKeySet below(DispatchKeySet::FULL_AFTER, DispatchKey::BackendSelect);
  op.redispatch_boxed((ks & below).add(backend_key_for(static_cast<int>(device.type))), stack);
}

KernelFunction backend_select_kernel() {
  return KernelFunction::boxed(&backend_select, "opscope::backend_select");
}

static Library fallbacks(Library::IMPL, "_", [](Library& m) {
  m.fallback(DispatchKey::BackendSelect, KernelFunction::fallthrough());
  m.fallback(DispatchKey::ADInplaceOrView, KernelFunction::fallthrough());
  m.fallback(DispatchKey::PythonTLSSnapshot, KernelFunction::fallthrough());
  for (DispatchKey k :
       {DispatchKey::AutogradOther, DispatchKey::AutogradCPU, DispatchKey::AutogradCUDA,
        DispatchKey::AutogradMeta, DispatchKey::AutogradPrivateUse1})
    m.fallback(k, KernelFunction::fallthrough());
});

}  // namespace opscope
