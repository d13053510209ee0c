// Library: how ops and kernels are declared — PyTorch's TORCH_LIBRARY / TORCH_LIBRARY_IMPL API.
//
// Semantically a Library is a set of registrations in one namespace that live exactly as long as
// the Library object: `def` declares an op from its schema, `impl` gives it a kernel for a key,
// `fallback` gives every op a kernel for a key. Dropping the Library undoes them all, which is
// how a notebook cell can register a kernel and take it back.
//
//   // core/ops/linear.cpp
//   static Library aten_linear(Library::FRAGMENT, "aten", [](Library& m) {
//     m.def("dot(Tensor self, Tensor tensor) -> Tensor");
//     m.impl("dot", DispatchKey::CPU, fn<&cpu::dot>);
//   });
//
// In implementation terms each call forwards to the Dispatcher and keeps the returned
// RegistrationHandle; the registration site comes from std::source_location.
#pragma once

#include <functional>
#include <source_location>
#include <vector>

#include "core/dispatch/Dispatcher.h"

namespace opscope {

class Library {
 public:
  enum Kind { DEF, IMPL, FRAGMENT };

  Library(Kind kind, std::string ns, std::optional<DispatchKey> key = std::nullopt);
  // Builds the library by running `init` (the form used for built-in ops at load time).
  Library(Kind kind, std::string ns, const std::function<void(Library&)>& init);
  // A block of kernels for one key, written beside them (core/ops/cpu/linear.cpp):
  //   static Library cpu_linear(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  //     m.impl("dot", fn<&dot>);
  //   });
  Library(Kind kind, std::string ns, DispatchKey key, const std::function<void(Library&)>& init);
  Library(Library&&) = default;
  Library& operator=(Library&&) = default;
  ~Library() = default;  // handles_ undo everything registered here

  Library& def(std::string_view schema, Variants variants = Variants::Auto,
               std::source_location loc = std::source_location::current());
  // Declares the op and registers `kernel` for CompositeImplicitAutograd (torch's m.def(schema,
  // fn)).
  Library& def(std::string_view schema, KernelFunction kernel, Variants variants = Variants::Auto,
               std::source_location loc = std::source_location::current());
  // `name` is "dot" or "add.Tensor" (namespace implied) or fully qualified "aten::dot".
  Library& impl(std::string_view name, DispatchKey key, KernelFunction kernel,
                std::source_location loc = std::source_location::current());
  // For an IMPL library created with a key.
  Library& impl(std::string_view name, KernelFunction kernel,
                std::source_location loc = std::source_location::current());
  Library& fallback(DispatchKey key, KernelFunction kernel,
                    std::source_location loc = std::source_location::current());

  const std::string& ns() const { return ns_; }
  size_t num_registrations() const { return handles_.size(); }

 private:
  std::string qualify(std::string_view name) const;
  Kind kind_;
  std::string ns_;
  std::optional<DispatchKey> key_;
  std::vector<RegistrationHandle> handles_;
};

// "core/ops/linear.cpp:42"
std::string site_of(const std::source_location& loc);

}  // namespace opscope
