// OperatorEntry: everything the dispatcher knows about one operator overload.
//
// Semantically an operator is a name and a schema ("aten::mm(Tensor self, Tensor mat2) ->
// Tensor") plus, for each runtime dispatch key, the kernel that runs there. Kernels are
// *registered* per key — a runtime key (CPU) or an alias key (CompositeImplicitAutograd, which
// stands for every backend and autograd key) — and the *dispatch table* is computed from the
// registrations with PyTorch's precedence:
//
// Note [Dispatch table precedence]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// For runtime key K, the first of these that exists wins:
//   1. a kernel registered directly for K                                   [kernel]
//   2. CompositeExplicitAutograd, if K is a backend key                     [default backend
//   kernel]
//   3. CompositeImplicitAutograd, if K is a backend or autograd key — for an
//      autograd key only when the op has no direct kernel for K's backend
//      and no CompositeExplicitAutograd kernel                              [math kernel]
//   4. the Autograd alias kernel, if K is an autograd key                   [autograd kernel]
//   5. the backend fallback registered for K (any op)                       [backend fallback]
//   6. nothing: calling the op with K fails, listing where it is available  [missing]
// Undefined, the key of a call with no tensor to dispatch on (`cat([])`), counts as a backend key
// for 2 and 3, as in c10, so a composite kernel can give such a call its error message.
// The latest registration for a key shadows earlier ones; dropping it (its RAII handle) brings
// the earlier one back. Each table entry keeps where it came from, which dump_table prints and
// the trace shows.
//
// In implementation terms: per key, a list of registrations (front = active), and a flat array
// of resolved entries recomputed on every registration change.
#pragma once

#include <array>
#include <list>
#include <mutex>
#include <optional>
#include <string>

#include "core/dispatch/FunctionSchema.h"
#include "core/dispatch/KernelFunction.h"

namespace opscope {

enum class Provenance : uint8_t {
  Kernel,           // registered for this key
  DefaultBackend,   // CompositeExplicitAutograd
  Math,             // CompositeImplicitAutograd
  AutogradAlias,    // Autograd alias kernel
  BackendFallback,  // Dispatcher-wide fallback for this key
  Missing,
};
// PyTorch's spelling in _dispatch_dump_table: "kernel", "default backend kernel", "math kernel",
// "autograd kernel", "backend fallback", "missing".
std::string_view to_string(Provenance p);

// How a trace names where a step's kernel came from: the provenance, except that a kernel
// written in Python (opscope.library) is a "python kernel" whatever key it was registered for.
// Dumps keep torch's words (a Python kernel is "[kernel]" in _dispatch_dump_table, as in torch).
struct DispatchTableEntry;
std::string_view trace_provenance(const DispatchTableEntry& e);

struct KernelRegistration {
  KernelFunction kernel;
  std::string site;  // "core/ops/linear.cpp:42"
  uint64_t id;       // for removal by its handle
};

// One resolved slot of the dispatch table.
struct DispatchTableEntry {
  KernelFunction kernel;
  Provenance provenance = Provenance::Missing;
  DispatchKey registered_key =
      DispatchKey::Undefined;  // the key (maybe alias) it was registered for
  std::string site;
};

// Which Python names an op gets (PyTorch's `variants:` in native_functions.yaml).
enum class Variants : uint8_t {
  Auto,  // method if the first argument is `Tensor self`; function unless it ends in '_'
  Function,
  Method,
  FunctionAndMethod,
  None,  // reachable only as opscope.ops.<ns>.<name>
};

class OperatorEntry {
 public:
  OperatorEntry(std::string qualified_name, std::string overload);

  const std::string& qualified_name() const { return name_; }  // "aten::add"
  const std::string& overload() const { return overload_; }    // "Tensor"
  std::string full_name() const;                               // "aten::add.Tensor"
  bool has_schema() const { return schema_.has_value(); }
  const FunctionSchema& schema() const;  // throws if not def'd yet
  const std::string& schema_site() const { return schema_site_; }
  Variants variants() const { return variants_; }
  // Whether the op writes into an argument or returns a view of one (its schema has an alias
  // annotation on self or on a return): such ops pass ADInplaceOrView below autograd.
  bool writes_or_views() const { return writes_or_views_; }

  // The resolved kernel for a runtime key (see Note [Dispatch table precedence]).
  const DispatchTableEntry& lookup(DispatchKey k) const { return table_[static_cast<size_t>(k)]; }
  // The active registration of every key that has one (alias keys included), for checks.
  std::vector<std::pair<DispatchKey, const KernelRegistration*>> registrations() const;
  // Keys whose entry is not a fallthrough; the dispatcher masks calls with it.
  DispatchKeySet non_fallthrough_keys() const { return non_fallthrough_; }

  // "CPU: registered at core/ops/linear.cpp:42 [kernel]" per runtime key with an entry.
  std::string dump_table() const;
  // name, schema, registration site, then each registration (alias keys marked "[alias]").
  std::string dump_state() const;
  // Backends where the op can run, for error messages: "[CPU, Meta, BackendSelect, ...]".
  std::string available_keys_str() const;

 private:
  friend class Dispatcher;
  friend void check_cpp_signature(const OperatorEntry&, std::type_index, const char*);
  void set_schema(FunctionSchema schema, std::string site, Variants variants);
  void clear_schema();
  uint64_t add_kernel(DispatchKey key, KernelFunction k, std::string site);
  void remove_kernel(DispatchKey key, uint64_t id);
  void recompute_table(
      const std::array<std::optional<KernelRegistration>, kNumRuntimeKeys>& fallbacks);
  DispatchTableEntry compute_entry(DispatchKey k,
                                   const std::optional<KernelRegistration>& fallback) const;
  const KernelRegistration* active(DispatchKey k) const;

  std::string name_;
  std::string overload_;
  std::optional<FunctionSchema> schema_;
  std::string schema_site_;
  Variants variants_ = Variants::Auto;
  bool writes_or_views_ = false;
  std::optional<std::type_index> cpp_signature_;  // of the first unboxed kernel
  std::array<std::list<KernelRegistration>, kNumDispatchKeys> kernels_;
  std::array<DispatchTableEntry, kNumRuntimeKeys> table_;
  DispatchKeySet non_fallthrough_;
  uint64_t next_id_ = 1;
};

}  // namespace opscope
