// DispatchKey and DispatchKeySet: which "level" of the runtime handles an op call.
//
// Semantically, a dispatch key identifies a possible level in the dispatcher: a backend (CPU,
// CUDA, Meta), a piece of functionality layered on top (autograd, view/version bookkeeping,
// Python's __torch_dispatch__, backend selection for factories), or an *alias* that stands for
// several runtime keys at once when registering kernels (Autograd, CompositeImplicitAutograd,
// CompositeExplicitAutograd). Every tensor carries a set of keys; the dispatcher unions the keys
// of an op's tensor arguments with the thread-local include set, removes the thread-local exclude
// set, and runs the kernel of the highest-priority key that remains. A kernel that has done its
// part "redispatches" to the next key below it.
//
// In implementation terms, runtime keys are bits of a 64-bit mask, numbered in priority order
// (a higher bit wins), so the chosen key is 63 - countl_zero(mask). Names and relative priority
// are PyTorch's (c10/core/DispatchKey.h); PyTorch's per-backend key grid is flattened here into
// one bit per key, which is all opscope's four backends need.
//
// Priority, lowest to highest:
//   CPU < CUDA < Meta < PrivateUse1            backends
//   < BackendSelect < Python < ADInplaceOrView  functionality below autograd
//   < AutogradOther < AutogradCPU < AutogradCUDA < AutogradMeta < AutogradPrivateUse1
//   < PythonTLSSnapshot                         above autograd
#pragma once

#include <bit>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

namespace opscope {

enum class DispatchKey : uint8_t {
  Undefined = 0,
  // Backends.
  CPU,
  CUDA,
  Meta,
  PrivateUse1,
  // Functionality, lowest priority first.
  BackendSelect,
  Python,
  ADInplaceOrView,
  AutogradOther,
  AutogradCPU,
  AutogradCUDA,
  AutogradMeta,
  AutogradPrivateUse1,
  PythonTLSSnapshot,
  EndOfRuntimeKeys,
  // Alias keys: accepted when registering a kernel, never in a key set.
  Autograd = EndOfRuntimeKeys,
  CompositeImplicitAutograd,
  CompositeExplicitAutograd,
  EndOfAliasKeys,
};
constexpr int kNumRuntimeKeys = static_cast<int>(DispatchKey::EndOfRuntimeKeys);
constexpr int kNumDispatchKeys = static_cast<int>(DispatchKey::EndOfAliasKeys);
static_assert(kNumRuntimeKeys <= 64, "runtime keys must fit the 64-bit DispatchKeySet");

std::string_view to_string(DispatchKey k);
// Parses a key name ("CPU", "AutogradCPU", "CompositeImplicitAutograd"); throws on unknown names.
DispatchKey parse_dispatch_key(std::string_view name);
constexpr bool is_alias_key(DispatchKey k) {
  return k >= DispatchKey::EndOfRuntimeKeys && k < DispatchKey::EndOfAliasKeys;
}

// An immutable set of runtime keys. Every operation returns a new set.
class DispatchKeySet {
 public:
  enum Full { FULL };
  enum FullAfter { FULL_AFTER };

  constexpr DispatchKeySet() = default;
  constexpr explicit DispatchKeySet(DispatchKey k)
      : repr_(k == DispatchKey::Undefined || is_alias_key(k) ? 0 : bit(k)) {}
  constexpr DispatchKeySet(std::initializer_list<DispatchKey> ks) {
    for (auto k : ks) repr_ |= DispatchKeySet(k).repr_;
  }
  // Every runtime key.
  constexpr explicit DispatchKeySet(Full) : repr_(bit_range(DispatchKey::EndOfRuntimeKeys)) {}
  // Every runtime key of lower priority than k (what a kernel for k may redispatch to).
  constexpr DispatchKeySet(FullAfter, DispatchKey k)
      : repr_(bit_range(k) & ~bit(DispatchKey::Undefined)) {}
  static constexpr DispatchKeySet from_raw(uint64_t raw) {
    DispatchKeySet s;
    s.repr_ = raw;
    return s;
  }

  [[nodiscard]] constexpr bool has(DispatchKey k) const {
    return (repr_ & DispatchKeySet(k).repr_) != 0;
  }
  [[nodiscard]] constexpr bool has_any(DispatchKeySet o) const { return (repr_ & o.repr_) != 0; }
  [[nodiscard]] constexpr bool empty() const { return repr_ == 0; }
  [[nodiscard]] constexpr uint64_t raw() const { return repr_; }
  [[nodiscard]] constexpr DispatchKeySet add(DispatchKey k) const {
    return *this | DispatchKeySet(k);
  }
  [[nodiscard]] constexpr DispatchKeySet remove(DispatchKey k) const {
    return *this - DispatchKeySet(k);
  }
  [[nodiscard]] constexpr DispatchKeySet operator|(DispatchKeySet o) const {
    return from_raw(repr_ | o.repr_);
  }
  [[nodiscard]] constexpr DispatchKeySet operator&(DispatchKeySet o) const {
    return from_raw(repr_ & o.repr_);
  }
  [[nodiscard]] constexpr DispatchKeySet operator-(DispatchKeySet o) const {
    return from_raw(repr_ & ~o.repr_);
  }
  constexpr bool operator==(const DispatchKeySet&) const = default;

  // The key that wins: the highest-priority key in the set (Undefined for the empty set).
  [[nodiscard]] constexpr DispatchKey highest_priority_key() const {
    return repr_ == 0 ? DispatchKey::Undefined
                      : static_cast<DispatchKey>(63 - std::countl_zero(repr_));
  }

  // Iterates keys from highest to lowest priority.
  template <typename F>
  void for_each_descending(F&& f) const {
    for (uint64_t r = repr_; r != 0;) {
      int i = 63 - std::countl_zero(r);
      f(static_cast<DispatchKey>(i));
      r &= ~(uint64_t(1) << i);
    }
  }
  // "DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU)", lowest priority first, as PyTorch prints.
  std::string str() const;

 private:
  static constexpr uint64_t bit(DispatchKey k) { return uint64_t(1) << static_cast<int>(k); }
  static constexpr uint64_t bit_range(DispatchKey end) { return bit(end) - 1; }
  uint64_t repr_ = 0;
};

// Key-set algebra shared by the dispatcher, TensorImpl and autograd.
constexpr DispatchKeySet kBackendKeys{DispatchKey::CPU, DispatchKey::CUDA, DispatchKey::Meta,
                                      DispatchKey::PrivateUse1};
constexpr DispatchKeySet kAutogradKeys{DispatchKey::AutogradOther, DispatchKey::AutogradCPU,
                                       DispatchKey::AutogradCUDA, DispatchKey::AutogradMeta,
                                       DispatchKey::AutogradPrivateUse1};
// What a kernel on an Autograd key may redispatch to (PyTorch's after_autograd_keyset).
constexpr DispatchKeySet kAfterAutograd(DispatchKeySet::FULL_AFTER, DispatchKey::AutogradOther);
// What a kernel on ADInplaceOrView may redispatch to.
constexpr DispatchKeySet kAfterADInplaceOrView(DispatchKeySet::FULL_AFTER,
                                               DispatchKey::ADInplaceOrView);
// The thread-local include set every thread starts with (PyTorch's default_included_set).
constexpr DispatchKeySet kDefaultIncluded{DispatchKey::BackendSelect, DispatchKey::ADInplaceOrView};

// The runtime keys an alias key stands for (CompositeImplicitAutograd: every backend and
// autograd key; CompositeExplicitAutograd: every backend key; Autograd: the autograd keys).
DispatchKeySet runtime_keys_of_alias(DispatchKey alias);
// AutogradCPU for CPU, AutogradCUDA for CUDA, ...; AutogradOther when there is none.
DispatchKey autograd_key_for_backend(DispatchKey backend);
// The backend a tensor of this device type dispatches to.
DispatchKey backend_key_for(int /*DeviceType*/ device_type);

}  // namespace opscope
