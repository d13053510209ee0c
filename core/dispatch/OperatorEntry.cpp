#include "core/dispatch/OperatorEntry.h"

#include <sstream>

namespace opscope {

std::string_view to_string(Provenance p) {
  switch (p) {
    case Provenance::Kernel:
      return "kernel";
    case Provenance::DefaultBackend:
      return "default backend kernel";
    case Provenance::Math:
      return "math kernel";
    case Provenance::AutogradAlias:
      return "autograd kernel";
    case Provenance::BackendFallback:
      return "backend fallback";
    case Provenance::Missing:
      return "missing";
  }
  return "?";
}

std::string_view trace_provenance(const DispatchTableEntry& e) {
  return e.kernel.is_python() ? "python kernel" : to_string(e.provenance);
}

OperatorEntry::OperatorEntry(std::string qualified_name, std::string overload)
    : name_(std::move(qualified_name)), overload_(std::move(overload)) {}

std::string OperatorEntry::full_name() const {
  return overload_.empty() ? name_ : name_ + "." + overload_;
}

const FunctionSchema& OperatorEntry::schema() const {
  OPSCOPE_CHECK(schema_.has_value(), "operator ", full_name(),
                " has kernels but no schema: it was never def()'d");
  return *schema_;
}

void OperatorEntry::set_schema(FunctionSchema schema, std::string site, Variants variants) {
  const auto& args = schema.arguments;
  const auto& rets = schema.returns;
  writes_or_views_ = (!args.empty() && args[0].alias && args[0].alias->is_write) ||
                     (!rets.empty() && rets[0].alias);
  schema_ = std::move(schema);
  schema_site_ = std::move(site);
  variants_ = variants;
}

void OperatorEntry::clear_schema() {
  schema_.reset();
  schema_site_.clear();
}

const KernelRegistration* OperatorEntry::active(DispatchKey k) const {
  const auto& list = kernels_[static_cast<size_t>(k)];
  return list.empty() ? nullptr : &list.front();
}

uint64_t OperatorEntry::add_kernel(DispatchKey key, KernelFunction k, std::string site) {
  if (k.has_unboxed()) {
    if (!cpp_signature_) {
      cpp_signature_ = k.signature();
    } else {
      OPSCOPE_CHECK(*cpp_signature_ == k.signature(), "kernel ", k.name(), " registered for ",
                    full_name(), " at ", site,
                    " has a different C++ signature than the op's other kernels");
    }
  }
  uint64_t id = next_id_++;
  kernels_[static_cast<size_t>(key)].push_front({std::move(k), std::move(site), id});
  return id;
}

void OperatorEntry::remove_kernel(DispatchKey key, uint64_t id) {
  kernels_[static_cast<size_t>(key)].remove_if(
      [&](const KernelRegistration& r) { return r.id == id; });
}

// See Note [Dispatch table precedence].
DispatchTableEntry OperatorEntry::compute_entry(
    DispatchKey k, const std::optional<KernelRegistration>& fallback) const {
  auto from = [&](const KernelRegistration* r, Provenance p, DispatchKey registered) {
    return DispatchTableEntry{r->kernel, p, registered, r->site};
  };
  // 1. direct registration
  if (auto* r = active(k)) return from(r, Provenance::Kernel, k);
  bool is_backend = kBackendKeys.has(k) || k == DispatchKey::Undefined;
  bool is_autograd = kAutogradKeys.has(k);
  // 2. CompositeExplicitAutograd for backend keys
  if (is_backend)
    if (auto* r = active(DispatchKey::CompositeExplicitAutograd))
      return from(r, Provenance::DefaultBackend, DispatchKey::CompositeExplicitAutograd);
  // 3. CompositeImplicitAutograd for backend and autograd keys
  if (auto* r = active(DispatchKey::CompositeImplicitAutograd); r && (is_backend || is_autograd)) {
    bool backend_has_own_kernel = false;
    if (is_autograd) {
      // The backend this autograd key sits over (AutogradOther: any backend not listed).
      for (DispatchKey b :
           {DispatchKey::CPU, DispatchKey::CUDA, DispatchKey::Meta, DispatchKey::PrivateUse1})
        if (autograd_key_for_backend(b) == k && active(b)) backend_has_own_kernel = true;
      if (active(DispatchKey::CompositeExplicitAutograd)) backend_has_own_kernel = true;
    }
    if (!backend_has_own_kernel)
      return from(r, Provenance::Math, DispatchKey::CompositeImplicitAutograd);
  }
  // 4. Autograd alias
  if (is_autograd)
    if (auto* r = active(DispatchKey::Autograd))
      return from(r, Provenance::AutogradAlias, DispatchKey::Autograd);
  // 5. backend fallback
  if (fallback)
    return DispatchTableEntry{fallback->kernel, Provenance::BackendFallback, k, fallback->site};
  // 6. missing
  return DispatchTableEntry{};
}

void OperatorEntry::recompute_table(
    const std::array<std::optional<KernelRegistration>, kNumRuntimeKeys>& fallbacks) {
  non_fallthrough_ = DispatchKeySet();
  for (int i = 0; i < kNumRuntimeKeys; ++i) {
    auto k = static_cast<DispatchKey>(i);
    table_[static_cast<size_t>(i)] = compute_entry(k, fallbacks[static_cast<size_t>(i)]);
    if (i > 0 && !table_[static_cast<size_t>(i)].kernel.is_fallthrough())
      non_fallthrough_ = non_fallthrough_.add(k);
  }
}

std::string OperatorEntry::dump_table() const {
  std::ostringstream os;
  for (int i = 0; i < kNumRuntimeKeys; ++i) {
    const auto& e = table_[static_cast<size_t>(i)];
    if (e.provenance == Provenance::Missing) continue;
    os << to_string(static_cast<DispatchKey>(i)) << ": "
       << (e.kernel.is_fallthrough() ? "fallthrough " : "") << "registered at " << e.site << " ["
       << to_string(e.provenance) << "]\n";
  }
  return os.str();
}

std::string OperatorEntry::dump_state() const {
  std::ostringstream os;
  os << "name: " << name_ << "\n";
  os << "schema: " << (schema_ ? schema_->str() : "(none)") << "\n";
  os << "debug: registered at " << (schema_ ? schema_site_ : "(none)") << "\n";
  os << "alias analysis kind: FROM_SCHEMA\n";
  std::string sig = schema_ ? schema_->cpp_style_signature() : "(none)";
  for (int i = 0; i < kNumDispatchKeys; ++i) {
    auto k = static_cast<DispatchKey>(i);
    const auto* r = active(k);
    if (!r) continue;
    os << to_string(k) << (is_alias_key(k) ? "[alias]" : "") << ": registered at " << r->site
       << " :: " << (r->kernel.is_fallthrough() ? "(none)" : sig) << " [ "
       << (r->kernel.is_fallthrough() ? "fallthrough " : "") << "boxed"
       << (r->kernel.has_unboxed() ? " unboxed" : "") << " ]";
    if (!r->kernel.is_fallthrough()) os << " " << r->kernel.name();
    os << "\n";
  }
  return os.str();
}

std::string OperatorEntry::available_keys_str() const {
  std::string s = "[";
  bool first = true;
  for (int i = 1; i < kNumRuntimeKeys; ++i) {
    const auto& e = table_[static_cast<size_t>(i)];
    if (e.provenance == Provenance::Missing) continue;
    s += (first ? "" : ", ") + std::string(to_string(static_cast<DispatchKey>(i)));
    first = false;
  }
  return s + "]";
}

std::vector<std::pair<DispatchKey, const KernelRegistration*>> OperatorEntry::registrations()
    const {
  std::vector<std::pair<DispatchKey, const KernelRegistration*>> out;
  for (size_t k = 0; k < kNumDispatchKeys; ++k)
    if (!kernels_[k].empty()) out.emplace_back(static_cast<DispatchKey>(k), &kernels_[k].front());
  return out;
}

}  // namespace opscope
