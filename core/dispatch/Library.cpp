#include "core/dispatch/Library.h"

#include "core/autograd/Derivatives.h"
#include "core/autograd/InplaceOrView.h"

namespace opscope {

std::string site_of(const std::source_location& loc) {
  return std::string(loc.file_name()) + ":" + std::to_string(loc.line());
}

Library::Library(Kind kind, std::string ns, std::optional<DispatchKey> key)
    : kind_(kind), ns_(std::move(ns)), key_(key) {}

Library::Library(Kind kind, std::string ns, const std::function<void(Library&)>& init)
    : Library(kind, std::move(ns)) {
  init(*this);
}

std::string Library::qualify(std::string_view name) const {
  if (name.find("::") != std::string_view::npos) return std::string(name);
  return ns_ + "::" + std::string(name);
}

Library& Library::def(std::string_view schema, Variants variants, std::source_location loc) {
  OPSCOPE_CHECK(kind_ != IMPL, "Library(IMPL, \"", ns_, "\") cannot def an op: ", schema);
  FunctionSchema parsed = parse_schema(schema, ns_);
  // Ops that write into an argument bump its version counter on ADInplaceOrView (PyTorch
  // generates this kernel per op; see core/autograd/InplaceOrView.h).
  bool writes = false;
  for (const Argument& a : parsed.arguments) writes |= a.alias.has_value() && a.alias->is_write;
  std::string full_name = parsed.full_name();
  handles_.push_back(
      Dispatcher::singleton().register_schema(std::move(parsed), site_of(loc), variants));
  if (writes)
    handles_.push_back(
        Dispatcher::singleton().register_impl(full_name, DispatchKey::ADInplaceOrView,
                                              autograd::ad_inplace_or_view_kernel(), site_of(loc)));
  // See Note [out= overloads and autograd] and Note [In-place ops without a derivative] in
  // core/autograd/Derivatives.h.
  const FunctionSchema& registered = Dispatcher::singleton().find_by_full_name(full_name).schema();
  for (auto k : {autograd::out_variant_autograd_kernel(registered),
                 autograd::inplace_autograd_kernel(registered)})
    if (k)
      handles_.push_back(Dispatcher::singleton().register_impl(full_name, DispatchKey::Autograd,
                                                               std::move(*k), site_of(loc)));
  return *this;
}

Library& Library::def(std::string_view schema, KernelFunction kernel, Variants variants,
                      std::source_location loc) {
  def(schema, variants, loc);
  FunctionSchema parsed = parse_schema(schema, ns_);
  handles_.push_back(Dispatcher::singleton().register_impl(
      parsed.full_name(), DispatchKey::CompositeImplicitAutograd, std::move(kernel), site_of(loc)));
  return *this;
}

Library& Library::impl(std::string_view name, DispatchKey key, KernelFunction kernel,
                       std::source_location loc) {
  handles_.push_back(
      Dispatcher::singleton().register_impl(qualify(name), key, std::move(kernel), site_of(loc)));
  return *this;
}

Library& Library::impl(std::string_view name, KernelFunction kernel, std::source_location loc) {
  OPSCOPE_CHECK(key_.has_value(),
                "Library::impl without a dispatch key needs Library(IMPL, ns, key)");
  return impl(name, *key_, std::move(kernel), loc);
}

Library& Library::fallback(DispatchKey key, KernelFunction kernel, std::source_location loc) {
  handles_.push_back(
      Dispatcher::singleton().register_fallback(key, std::move(kernel), site_of(loc)));
  return *this;
}

}  // namespace opscope
