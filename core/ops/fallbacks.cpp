#include "core/ops/fallbacks.h"

#include <string>

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

// The pure factories (no tensor argument to dispatch on; schemas in core/ops/factories.cpp): each
// reads its device= here, then its backend's kernel runs — zeros[BackendSelect] -> zeros[CPU].
static Library backend_select_factories(
    Library::IMPL, "aten", DispatchKey::BackendSelect, [](Library& m) {
      m.impl("empty.memory_format", backend_select_kernel());
      m.impl("empty_strided", backend_select_kernel());
      m.impl("zeros", backend_select_kernel());
      m.impl("ones", backend_select_kernel());
      m.impl("full", backend_select_kernel());
      m.impl("scalar_tensor", backend_select_kernel());
      m.impl("arange", backend_select_kernel());
      m.impl("arange.start", backend_select_kernel());
      m.impl("arange.start_step", backend_select_kernel());
      m.impl("linspace", backend_select_kernel());
      m.impl("eye", backend_select_kernel());
      m.impl("eye.m", backend_select_kernel());
      m.impl("triu_indices", backend_select_kernel());
      m.impl("tril_indices", backend_select_kernel());
      m.impl("rand", backend_select_kernel());
      m.impl("rand.generator", backend_select_kernel());
      m.impl("randn", backend_select_kernel());
      m.impl("randn.generator", backend_select_kernel());
      m.impl("randint", backend_select_kernel());
      m.impl("randint.generator", backend_select_kernel());
      m.impl("randint.low", backend_select_kernel());
      m.impl("randint.low_generator", backend_select_kernel());
      m.impl("randperm", backend_select_kernel());
      m.impl("randperm.generator", backend_select_kernel());
      m.impl("logspace", backend_select_kernel());
      for (const char* name : {"hann_window", "hamming_window", "bartlett_window",
                               "blackman_window", "kaiser_window"}) {
        m.impl(name, backend_select_kernel());
        m.impl(std::string(name) + ".periodic", backend_select_kernel());
      }
      m.impl("hamming_window.periodic_alpha", backend_select_kernel());
      m.impl("hamming_window.periodic_alpha_beta", backend_select_kernel());
      m.impl("kaiser_window.beta", backend_select_kernel());
    });

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
