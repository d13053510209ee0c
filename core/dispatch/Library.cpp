#include "core/dispatch/Library.h"


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

Library::Library(Kind kind, std::string ns, DispatchKey key,
                 const std::function<void(Library&)>& init)
    : Library(kind, std::move(ns), key) {
  init(*this);
}

std::string Library::qualify(std::string_view name) const {
  if (name.find("::") != std::string_view::npos) return std::string(name);
  return ns_ + "::" + std::string(name);
}

Library& Library::def(std::string_view schema, Variants variants, std::source_location loc) {
  OPSCOPE_CHECK(kind_ != IMPL, "Library(IMPL, \"", ns_, "\") cannot def an op: ", schema);
  // The kernels an op gets because of what its schema says (ADInplaceOrView for ops that write)
  // are registered by their own layer: see Note [Kernels that follow a def] in Dispatcher.cpp.
  handles_.push_back(Dispatcher::singleton().register_schema(parse_schema(schema, ns_),
                                                             site_of(loc), variants));
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
