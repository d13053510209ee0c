// Dispatcher: finds the kernel for an op call and runs it.
//
// Semantically, calling an op means: collect the dispatch keys of its tensor arguments, add the
// thread's include set, remove its exclude set and the keys this op falls through, take the
// highest-priority key left, and run the kernel the op's table holds for that key. A kernel that
// handled one layer (autograd, backend selection) *redispatches* with the keys below its own. See
// Note [Dispatch table precedence] for how the table is filled.
//
//   static auto op = Dispatcher::singleton().find_or_throw("aten::mm", "")
//                        .typed<Tensor(const Tensor&, const Tensor&)>();
//   Tensor c = op.call(a, b);
//
// In implementation terms: operators live in a name-keyed map of stable OperatorEntry objects;
// an OperatorHandle is a pointer to one. The unboxed call path is a template so that the hot
// path (no observer) is: one TLS read, a few mask operations, an array load and an indirect call.
#pragma once

#include <memory>
#include <mutex>
#include <source_location>
#include <unordered_map>

#include "core/runtime/LocalDispatchState.h"
#include "core/dispatch/Observer.h"
#include "core/dispatch/OperatorEntry.h"

namespace opscope {

template <typename Sig>
class TypedOperatorHandle;

class OperatorHandle {
 public:
  OperatorHandle() = default;
  explicit OperatorHandle(OperatorEntry* e) : entry_(e) {}
  OperatorEntry& entry() const { return *entry_; }
  const FunctionSchema& schema() const { return entry_->schema(); }
  std::string full_name() const { return entry_->full_name(); }
  bool operator==(const OperatorHandle& o) const { return entry_ == o.entry_; }
  bool valid() const { return entry_ != nullptr; }

  template <typename Sig>
  TypedOperatorHandle<Sig> typed() const;

  void call_boxed(Stack* stack) const;
  void redispatch_boxed(DispatchKeySet ks, Stack* stack) const;

 protected:
  OperatorEntry* entry_ = nullptr;
};

// Undoes a registration when dropped (see STYLE: registration returns an RAII handle).
class RegistrationHandle {
 public:
  RegistrationHandle() = default;
  explicit RegistrationHandle(std::function<void()> undo) : undo_(std::move(undo)) {}
  RegistrationHandle(RegistrationHandle&& o) noexcept : undo_(std::exchange(o.undo_, nullptr)) {}
  RegistrationHandle& operator=(RegistrationHandle&& o) noexcept {
    if (this != &o) {
      reset();
      undo_ = std::exchange(o.undo_, nullptr);
    }
    return *this;
  }
  ~RegistrationHandle() { reset(); }
  void reset() {
    if (undo_) std::exchange(undo_, nullptr)();
  }

 private:
  std::function<void()> undo_;
};

class Dispatcher {
 public:
  static Dispatcher& singleton();

  // Lookup by "aten::add" + "Tensor" (overload "" for the default one).
  std::optional<OperatorHandle> find(std::string_view name, std::string_view overload) const;
  OperatorHandle find_or_throw(std::string_view name, std::string_view overload) const;
  // "aten::add.Tensor" or "aten::mm"; the name alone finds the overload "".
  OperatorHandle find_by_full_name(std::string_view full_name) const;
  // Every operator that has a schema, sorted by full name.
  std::vector<OperatorHandle> all_ops() const;
  // Every operator with a schema or a kernel, sorted by full name (a kernel registered for a
  // name nobody defined shows up here without a schema).
  std::vector<OperatorHandle> all_entries() const;
  // Every overload of a name ("aten::add" -> add.Tensor, add.Scalar, add.out).
  std::vector<OperatorHandle> overloads(std::string_view name) const;

  [[nodiscard]] RegistrationHandle register_schema(FunctionSchema schema, std::string site,
                                                   Variants variants);
  [[nodiscard]] RegistrationHandle register_schema(std::string_view schema, std::string site,
                                                   Variants variants, std::string_view ns);
  [[nodiscard]] RegistrationHandle register_impl(std::string_view full_name, DispatchKey key,
                                                 KernelFunction kernel, std::string site);
  [[nodiscard]] RegistrationHandle register_fallback(DispatchKey key, KernelFunction kernel,
                                                     std::string site);
  // Calls `listener` for every op that has a schema: at once for those defined already, then
  // for each op as it is defined. The handles it returns for an op (kernels it registered for
  // it) are dropped with the op's schema or with the listener. See Note [Kernels that follow a
  // def].
  using DefListener = std::function<std::vector<RegistrationHandle>(const OperatorHandle&)>;
  [[nodiscard]] RegistrationHandle on_def(DefListener listener);
  // A fallback registered for the key, for dumps.
  const std::optional<KernelRegistration>& fallback(DispatchKey key) const {
    return fallbacks_[static_cast<size_t>(key)];
  }

  // --- calls ---------------------------------------------------------------------------------
  template <typename R, typename... Args>
  R call(const OperatorHandle& op, Args... args) const;
  template <typename R, typename... Args>
  R redispatch(const OperatorHandle& op, DispatchKeySet ks, Args... args) const;
  void call_boxed(const OperatorHandle& op, Stack* stack) const;
  void redispatch_boxed(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) const;

  // Which kernel entry a call with these keys would run (for the tests and the Python dump).
  const DispatchTableEntry& lookup(const OperatorHandle& op, DispatchKeySet ks,
                                   DispatchKey* chosen) const;

 private:
  Dispatcher() = default;
  OperatorEntry& find_or_create(std::string_view name, std::string_view overload);
  void recompute_all_tables();

  template <typename R, typename... Args>
  R dispatch(const OperatorHandle& op, DispatchCallKind kind, DispatchKeySet ks,
             Args... args) const;
  template <typename R, typename... Args>
  R dispatch_observed(const OperatorHandle& op, DispatchCallKind kind, DispatchKeySet ks,
                      DispatchKey chosen, const DispatchTableEntry& e, Args... args) const;
  void dispatch_boxed(const OperatorHandle& op, DispatchCallKind kind, DispatchKeySet ks,
                      Stack* stack) const;
  template <typename R, typename... Args>
  R below_autograd(const OperatorHandle& op, DispatchKeySet ks, Args... args) const;
  [[noreturn]] void report_missing(const OperatorHandle& op, DispatchKey k) const;

  void drop_followers(std::function<bool(uint64_t listener, const OperatorEntry*)> which);

  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::unique_ptr<OperatorEntry>> ops_;  // by full name
  struct DefListenerEntry {
    uint64_t id;
    DefListener listener;
  };
  std::vector<DefListenerEntry> def_listeners_;
  // What each listener registered for each op.
  struct Follower {
    uint64_t listener;
    const OperatorEntry* op;
    std::vector<RegistrationHandle> handles;
  };
  std::vector<Follower> followers_;
  uint64_t next_listener_id_ = 1;
  std::array<std::optional<KernelRegistration>, kNumRuntimeKeys> fallbacks_;
  uint64_t next_fallback_id_ = 1;
};

// --- key extraction -------------------------------------------------------------------------
namespace detail {
inline DispatchKeySet keys_of(const Tensor& t) {
  return t.defined() ? t.key_set() : DispatchKeySet();
}
inline DispatchKeySet keys_of(const std::optional<Tensor>& t) {
  return t ? keys_of(*t) : DispatchKeySet();
}
inline DispatchKeySet keys_of(TensorList ts) {
  DispatchKeySet ks;
  for (const auto& t : ts) ks = ks | keys_of(t);
  return ks;
}
inline DispatchKeySet keys_of(const IValue& v) {
  if (v.is_tensor()) return keys_of(v.to_tensor());
  if (v.is_tensor_list()) return keys_of(TensorList(v.to_tensor_list()));
  return {};
}
template <typename T>
DispatchKeySet keys_of(const T&) {
  return {};
}

// Whether an argument is a tensor that requires grad (see Note [The Autograd kernel's no-grad
// path]).
inline bool requires_grad(const Tensor& t) {
  return t.defined() && t->requires_grad();
}
inline bool requires_grad(const std::optional<Tensor>& t) {
  return t && requires_grad(*t);
}
inline bool requires_grad(TensorList ts) {
  for (const auto& t : ts)
    if (requires_grad(t)) return true;
  return false;
}
template <typename T>
bool requires_grad(const T&) {
  return false;
}

// Builds the step record and notifies observers (defined in Dispatcher.cpp).
class ObservedCall {
 public:
  ObservedCall(const OperatorHandle& op, DispatchCallKind kind, DispatchKeySet ks,
               DispatchKey chosen, const DispatchTableEntry& e, Stack args);
  ~ObservedCall();  // reports a throw when finish() was not reached
  Stack& args() { return args_; }
  void finish(Stack returns);

 private:
  DispatchStep step_;
  Stack args_;
  std::shared_ptr<const ObserverList> observers_;
  bool finished_ = false;
};
}  // namespace detail

// --- the unboxed call path ------------------------------------------------------------------
template <typename R, typename... Args>
R Dispatcher::call(const OperatorHandle& op, Args... args) const {
  const LocalDispatchKeySet& local = local_dispatch_key_set();
  DispatchKeySet ks =
      ((detail::keys_of(args) | ... | DispatchKeySet()) | local.included) - local.excluded;
  return dispatch<R, Args...>(op, DispatchCallKind::Call, ks, std::forward<Args>(args)...);
}

template <typename R, typename... Args>
R Dispatcher::redispatch(const OperatorHandle& op, DispatchKeySet ks, Args... args) const {
  return dispatch<R, Args...>(op, DispatchCallKind::Redispatch, ks, std::forward<Args>(args)...);
}

template <typename R, typename... Args>
R Dispatcher::dispatch(const OperatorHandle& op, DispatchCallKind kind, DispatchKeySet ks,
                       Args... args) const {
  DispatchKey k = (ks & op.entry().non_fallthrough_keys()).highest_priority_key();
  const DispatchTableEntry& e = op.entry().lookup(k);
  if (detail::dispatch_observed())
    return dispatch_observed<R, Args...>(op, kind, ks, k, e, std::forward<Args>(args)...);
  if (__builtin_expect(!e.kernel.valid(), 0)) report_missing(op, k);
  // Note [The Autograd kernel's no-grad path]
  // ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
  // The Autograd kernel is one boxed kernel (core/autograd/VariableKernel.cpp): called from C++
  // it would box every argument, only to find, for most calls, that nothing requires grad and
  // redispatch below autograd. That decision needs no boxing, so it is taken here: with grad mode
  // off or no tensor argument requiring grad, the call goes straight below autograd, under the
  // guard the kernel would set. Observed calls (traces) always run the kernel itself.
  if (__builtin_expect(e.kernel.is_autograd(), 0) &&
      !(local_dispatch_key_set().grad_mode && (detail::requires_grad(args) || ...)))
    return below_autograd<R, Args...>(op, ks, std::forward<Args>(args)...);
  return e.kernel.template call<R, Args...>(op, ks, std::forward<Args>(args)...);
}

template <typename R, typename... Args>
R Dispatcher::below_autograd(const OperatorHandle& op, DispatchKeySet ks, Args... args) const {
  if (op.entry().writes_or_views()) {
    AutoDispatchBelowAutograd guard;  // ADInplaceOrView still runs: it bumps versions
    return dispatch<R, Args...>(op, DispatchCallKind::Redispatch, ks & kAfterAutograd,
                                std::forward<Args>(args)...);
  }
  AutoDispatchBelowADInplaceOrView guard;
  return dispatch<R, Args...>(op, DispatchCallKind::Redispatch, ks & kAfterAutograd,
                              std::forward<Args>(args)...);
}

template <typename R, typename... Args>
R Dispatcher::dispatch_observed(const OperatorHandle& op, DispatchCallKind kind, DispatchKeySet ks,
                                DispatchKey chosen, const DispatchTableEntry& e,
                                Args... args) const {
  Stack boxed;
  boxed.reserve(sizeof...(Args));
  (boxed.emplace_back(args), ...);
  detail::ObservedCall observed(op, kind, ks, chosen, e, std::move(boxed));
  if (!e.kernel.valid()) report_missing(op, chosen);
  if constexpr (std::is_void_v<R>) {
    e.kernel.template call<R, Args...>(op, ks, std::forward<Args>(args)...);
    observed.finish({});
  } else {
    R result = e.kernel.template call<R, Args...>(op, ks, std::forward<Args>(args)...);
    Stack returns;
    push_returns(returns, result);
    observed.finish(std::move(returns));
    return result;
  }
}

template <typename Sig>
class TypedOperatorHandle;
template <typename R, typename... Args>
class TypedOperatorHandle<R(Args...)> : public OperatorHandle {
 public:
  explicit TypedOperatorHandle(OperatorHandle h) : OperatorHandle(h) {}
  R call(Args... args) const {
    return Dispatcher::singleton().call<R, Args...>(*this, std::forward<Args>(args)...);
  }
  R redispatch(DispatchKeySet ks, Args... args) const {
    return Dispatcher::singleton().redispatch<R, Args...>(*this, ks, std::forward<Args>(args)...);
  }
};

void check_cpp_signature(const OperatorEntry& op, std::type_index sig, const char* sig_name);

template <typename Sig>
TypedOperatorHandle<Sig> OperatorHandle::typed() const {
  check_cpp_signature(*entry_, typeid(Sig), typeid(Sig).name());
  return TypedOperatorHandle<Sig>(*this);
}

// The typed handle of an op, looked up once: `static const auto op = typed_op<Sig>("aten::mm");`
template <typename Sig>
TypedOperatorHandle<Sig> typed_op(std::string_view full_name) {
  return Dispatcher::singleton().find_by_full_name(full_name).typed<Sig>();
}

}  // namespace opscope
