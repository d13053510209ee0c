#include "core/runtime/DispatchKey.h"

#include "core/runtime/Device.h"
#include "core/runtime/Exception.h"

namespace opscope {

std::string_view to_string(DispatchKey k) {
  switch (k) {
    case DispatchKey::Undefined:
      return "Undefined";
    case DispatchKey::CPU:
      return "CPU";
    case DispatchKey::CUDA:
      return "CUDA";
    case DispatchKey::Meta:
      return "Meta";
    case DispatchKey::PrivateUse1:
      return "PrivateUse1";
    case DispatchKey::BackendSelect:
      return "BackendSelect";
    case DispatchKey::Python:
      return "Python";
    case DispatchKey::ADInplaceOrView:
      return "ADInplaceOrView";
    case DispatchKey::AutogradOther:
      return "AutogradOther";
    case DispatchKey::AutogradCPU:
      return "AutogradCPU";
    case DispatchKey::AutogradCUDA:
      return "AutogradCUDA";
    case DispatchKey::AutogradMeta:
      return "AutogradMeta";
    case DispatchKey::AutogradPrivateUse1:
      return "AutogradPrivateUse1";
    case DispatchKey::PythonTLSSnapshot:
      return "PythonTLSSnapshot";
    case DispatchKey::Autograd:
      return "Autograd";
    case DispatchKey::CompositeImplicitAutograd:
      return "CompositeImplicitAutograd";
    case DispatchKey::CompositeExplicitAutograd:
      return "CompositeExplicitAutograd";
    case DispatchKey::EndOfAliasKeys:
      break;
  }
  return "?";
}

DispatchKey parse_dispatch_key(std::string_view name) {
  for (int i = 0; i < kNumDispatchKeys; ++i) {
    auto k = static_cast<DispatchKey>(i);
    if (to_string(k) == name) return k;
  }
  // PyTorch's older spellings.
  if (name == "Math") return DispatchKey::CompositeImplicitAutograd;
  if (name == "DefaultBackend") return DispatchKey::CompositeExplicitAutograd;
  throw ValueError(detail::str("unknown dispatch key '", name, "'"));
}

std::string DispatchKeySet::str() const {
  std::string s = "DispatchKeySet(";
  bool first = true;
  for (int i = 0; i < kNumRuntimeKeys; ++i) {
    auto k = static_cast<DispatchKey>(i);
    if (!has(k)) continue;
    if (!first) s += ", ";
    s += to_string(k);
    first = false;
  }
  return s + ")";
}

DispatchKeySet runtime_keys_of_alias(DispatchKey alias) {
  switch (alias) {
    case DispatchKey::Autograd:
      return kAutogradKeys;
    case DispatchKey::CompositeImplicitAutograd:
      return kBackendKeys | kAutogradKeys;
    case DispatchKey::CompositeExplicitAutograd:
      return kBackendKeys;
    default:
      return DispatchKeySet(alias);
  }
}

DispatchKey autograd_key_for_backend(DispatchKey backend) {
  switch (backend) {
    case DispatchKey::CPU:
      return DispatchKey::AutogradCPU;
    case DispatchKey::CUDA:
      return DispatchKey::AutogradCUDA;
    case DispatchKey::Meta:
      return DispatchKey::AutogradMeta;
    case DispatchKey::PrivateUse1:
      return DispatchKey::AutogradPrivateUse1;
    default:
      return DispatchKey::AutogradOther;
  }
}

DispatchKey backend_key_for(int device_type) {
  switch (static_cast<DeviceType>(device_type)) {
    case DeviceType::CPU:
      return DispatchKey::CPU;
    case DeviceType::CUDA:
      return DispatchKey::CUDA;
    case DeviceType::Meta:
      return DispatchKey::Meta;
    case DeviceType::PrivateUse1:
      return DispatchKey::PrivateUse1;
  }
  return DispatchKey::Undefined;
}

}  // namespace opscope
