#include "core/dispatch/Dispatcher.h"
#include "core/dispatch/Op.h"

#include <algorithm>
#include <atomic>
#include <iterator>

namespace opscope {

Dispatcher& Dispatcher::singleton() {
  // Never destroyed: static Library objects in other translation units unregister at exit.
  static Dispatcher* instance = new Dispatcher();
  return *instance;
}

namespace {
std::pair<std::string_view, std::string_view> split_overload(std::string_view full) {
  // "aten::add.Tensor" -> ("aten::add", "Tensor"). The namespace separator "::" has no dot.
  auto ns_end = full.find("::");
  auto dot = full.find('.', ns_end == std::string_view::npos ? 0 : ns_end + 2);
  if (dot == std::string_view::npos) return {full, {}};
  return {full.substr(0, dot), full.substr(dot + 1)};
}
std::string join_name(std::string_view name, std::string_view overload) {
  std::string s(name);
  if (!overload.empty()) (s += ".") += overload;
  return s;
}
}  // namespace

std::optional<OperatorHandle> Dispatcher::find(std::string_view name,
                                               std::string_view overload) const {
  std::lock_guard lock(mutex_);
  auto it = ops_.find(join_name(name, overload));
  if (it == ops_.end() || !it->second->has_schema()) return std::nullopt;
  return OperatorHandle(it->second.get());
}

OperatorHandle Dispatcher::find_or_throw(std::string_view name, std::string_view overload) const {
  auto h = find(name, overload);
  OPSCOPE_CHECK(h.has_value(), "Could not find schema for ", join_name(name, overload));
  return *h;
}

OperatorHandle Dispatcher::find_by_full_name(std::string_view full_name) const {
  auto [name, overload] = split_overload(full_name);
  return find_or_throw(name, overload);
}

std::vector<OperatorHandle> Dispatcher::all_ops() const {
  std::lock_guard lock(mutex_);
  std::vector<OperatorHandle> out;
  for (auto& [_, e] : ops_)
    if (e->has_schema()) out.emplace_back(e.get());
  std::sort(out.begin(), out.end(), [](const OperatorHandle& a, const OperatorHandle& b) {
    return a.full_name() < b.full_name();
  });
  return out;
}

std::vector<OperatorHandle> Dispatcher::all_entries() const {
  std::lock_guard lock(mutex_);
  std::vector<OperatorHandle> out;
  for (auto& [_, e] : ops_) out.emplace_back(e.get());
  std::sort(out.begin(), out.end(), [](const OperatorHandle& a, const OperatorHandle& b) {
    return a.full_name() < b.full_name();
  });
  return out;
}

std::vector<OperatorHandle> Dispatcher::overloads(std::string_view name) const {
  std::vector<OperatorHandle> out;
  for (const auto& h : all_ops())
    if (h.entry().qualified_name() == name) out.push_back(h);
  return out;
}

OperatorEntry& Dispatcher::find_or_create(std::string_view name, std::string_view overload) {
  auto& slot = ops_[join_name(name, overload)];
  if (!slot) {
    slot = std::make_unique<OperatorEntry>(std::string(name), std::string(overload));
    slot->recompute_table(fallbacks_);
  }
  return *slot;
}

RegistrationHandle Dispatcher::register_schema(std::string_view schema_text, std::string site,
                                               Variants variants, std::string_view ns) {
  return register_schema(parse_schema(schema_text, ns), std::move(site), variants);
}

RegistrationHandle Dispatcher::register_schema(FunctionSchema schema, std::string site,
                                               Variants variants) {
  std::unique_lock lock(mutex_);
  OperatorEntry& e = find_or_create(schema.qualified_name(), schema.overload);
  OPSCOPE_CHECK(!e.has_schema(), "Tried to register an operator (", schema.str(),
                ") with the same "
                "name and overload name multiple times. Each overload's schema should only be "
                "registered with a single call to def(). Duplicate registration: ",
                site, ". Original registration: ", e.schema_site());
  e.set_schema(std::move(schema), std::move(site), variants);
  // Note [Kernels that follow a def]
  // ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
  // Some kernels exist because of what a schema says, not because a family registered them:
  // an op that writes an argument gets an ADInplaceOrView kernel (it bumps the version) and,
  // without a derivative, a checking Autograd kernel (core/autograd/InplaceOrView.cpp). The
  // layer that owns such kernels registers them itself, through on_def, so the dispatcher
  // depends on no layer above it and each kernel's registration site is the file defining it.
  // Listeners run outside the lock (they register kernels); their kernels go with the schema.
  auto listeners = def_listeners_;
  lock.unlock();
  for (const auto& [id, listener] : listeners) {
    std::vector<RegistrationHandle> handles = listener(OperatorHandle(&e));
    std::lock_guard relock(mutex_);
    followers_.push_back({id, &e, std::move(handles)});
  }
  return RegistrationHandle([this, &e] {
    drop_followers([&e](uint64_t, const OperatorEntry* op) { return op == &e; });
    std::lock_guard lock(mutex_);
    e.clear_schema();
  });
}

void Dispatcher::drop_followers(std::function<bool(uint64_t, const OperatorEntry*)> which) {
  std::vector<Follower> dropped;
  {
    std::lock_guard lock(mutex_);
    auto keep = std::stable_partition(followers_.begin(), followers_.end(),
                                      [&](const Follower& f) { return !which(f.listener, f.op); });
    std::move(keep, followers_.end(), std::back_inserter(dropped));
    followers_.erase(keep, followers_.end());
  }
  // `dropped` goes here, outside the lock: each handle's undo takes it.
}

RegistrationHandle Dispatcher::on_def(DefListener listener) {
  uint64_t id;
  {
    std::lock_guard lock(mutex_);
    id = next_listener_id_++;
    def_listeners_.push_back({id, listener});
  }
  for (const OperatorHandle& op : all_ops()) {
    std::vector<RegistrationHandle> handles = listener(op);
    std::lock_guard lock(mutex_);
    followers_.push_back({id, &op.entry(), std::move(handles)});
  }
  return RegistrationHandle([this, id] {
    {
      std::lock_guard lock(mutex_);
      std::erase_if(def_listeners_, [id](const DefListenerEntry& l) { return l.id == id; });
    }
    drop_followers([id](uint64_t listener, const OperatorEntry*) { return listener == id; });
  });
}

RegistrationHandle Dispatcher::register_impl(std::string_view full_name, DispatchKey key,
                                             KernelFunction kernel, std::string site) {
  OPSCOPE_CHECK(key != DispatchKey::Undefined && key != DispatchKey::EndOfAliasKeys,
                "cannot register a kernel for key ", to_string(key));
  auto [name, overload] = split_overload(full_name);
  std::lock_guard lock(mutex_);
  OperatorEntry& e = find_or_create(name, overload);
  uint64_t id = e.add_kernel(key, std::move(kernel), std::move(site));
  e.recompute_table(fallbacks_);
  return RegistrationHandle([this, &e, key, id] {
    std::lock_guard lock(mutex_);
    e.remove_kernel(key, id);
    e.recompute_table(fallbacks_);
  });
}

RegistrationHandle Dispatcher::register_fallback(DispatchKey key, KernelFunction kernel,
                                                 std::string site) {
  OPSCOPE_CHECK(!is_alias_key(key) && key != DispatchKey::Undefined,
                "a backend fallback needs a runtime key, got ", to_string(key));
  std::lock_guard lock(mutex_);
  auto& slot = fallbacks_[static_cast<size_t>(key)];
  OPSCOPE_CHECK(!slot.has_value(),
                "Tried to register multiple backend fallbacks for the same "
                "dispatch key ",
                to_string(key), "; previous registration ", slot->site, ", new registration ",
                site);
  uint64_t id = next_fallback_id_++;
  slot = KernelRegistration{std::move(kernel), std::move(site), id};
  recompute_all_tables();
  return RegistrationHandle([this, key, id] {
    std::lock_guard lock(mutex_);
    auto& s = fallbacks_[static_cast<size_t>(key)];
    if (s && s->id == id) s.reset();
    recompute_all_tables();
  });
}

void Dispatcher::recompute_all_tables() {
  for (auto& [_, e] : ops_) e->recompute_table(fallbacks_);
}

const DispatchTableEntry& Dispatcher::lookup(const OperatorHandle& op, DispatchKeySet ks,
                                             DispatchKey* chosen) const {
  DispatchKey k = (ks & op.entry().non_fallthrough_keys()).highest_priority_key();
  if (chosen) *chosen = k;
  return op.entry().lookup(k);
}

void Dispatcher::report_missing(const OperatorHandle& op, DispatchKey k) const {
  throw NotImplementedError(detail::str(
      "Could not run '", op.full_name(), "' with arguments from the '", to_string(k),
      "' backend. This could be because the operator doesn't exist for this backend, or was "
      "omitted during the selective/custom build process (if using custom build). '",
      op.full_name(), "' is only available for these backends: ", op.entry().available_keys_str(),
      "."));
}

// --- boxed calls ----------------------------------------------------------------------------
void Dispatcher::call_boxed(const OperatorHandle& op, Stack* stack) const {
  const LocalDispatchKeySet& local = local_dispatch_key_set();
  DispatchKeySet ks;
  for (const IValue& v : *stack) ks = ks | detail::keys_of(v);
  ks = (ks | local.included) - local.excluded;
  dispatch_boxed(op, DispatchCallKind::CallBoxed, ks, stack);
}

void Dispatcher::redispatch_boxed(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) const {
  dispatch_boxed(op, DispatchCallKind::RedispatchBoxed, ks, stack);
}

namespace {
// Grad mode is on and a tensor (or a tensor in a list) among the boxed arguments requires grad.
bool needs_grad(const Stack& stack) {
  if (!local_dispatch_key_set().grad_mode) return false;
  for (const IValue& v : stack) {
    if (v.is_tensor() && detail::requires_grad(v.to_tensor())) return true;
    if (v.is_tensor_list() && detail::requires_grad(TensorList(v.to_tensor_list()))) return true;
  }
  return false;
}
}  // namespace

void Dispatcher::dispatch_boxed(const OperatorHandle& op, DispatchCallKind kind, DispatchKeySet ks,
                                Stack* stack) const {
  DispatchKey k = (ks & op.entry().non_fallthrough_keys()).highest_priority_key();
  const DispatchTableEntry& e = op.entry().lookup(k);
  if (!detail::dispatch_observed()) {
    if (__builtin_expect(!e.kernel.valid(), 0)) report_missing(op, k);
    if (__builtin_expect(e.kernel.is_autograd(), 0) && !needs_grad(*stack)) {
      // See Note [The Autograd kernel's no-grad path] in Dispatcher.h.
      if (op.entry().writes_or_views()) {
        AutoDispatchBelowAutograd guard;
        dispatch_boxed(op, DispatchCallKind::Redispatch, ks & kAfterAutograd, stack);
      } else {
        AutoDispatchBelowADInplaceOrView guard;
        dispatch_boxed(op, DispatchCallKind::Redispatch, ks & kAfterAutograd, stack);
      }
      return;
    }
    e.kernel.call_boxed(op, ks, stack);
    return;
  }
  size_t nargs = op.entry().has_schema() ? op.schema().arguments.size() : stack->size();
  size_t base = stack->size() >= nargs ? stack->size() - nargs : 0;
  detail::ObservedCall observed(op, kind, ks, k, e, Stack(stack->begin() + base, stack->end()));
  if (!e.kernel.valid()) report_missing(op, k);
  e.kernel.call_boxed(op, ks, stack);
  observed.finish(Stack(stack->begin() + base, stack->end()));
}

void OperatorHandle::call_boxed(Stack* stack) const {
  Dispatcher::singleton().call_boxed(*this, stack);
}
void OperatorHandle::redispatch_boxed(DispatchKeySet ks, Stack* stack) const {
  Dispatcher::singleton().redispatch_boxed(*this, ks, stack);
}

namespace detail {
void op_missing_default(const OperatorHandle& op, size_t schema_index) {
  const auto& args = op.schema().arguments;
  throw Error(detail::str("ops handle of ", op.full_name(), ": argument ",
                          schema_index < args.size() ? args[schema_index].name : std::string("?"),
                          " is marked Default<> but its schema gives it no default"));
}
}  // namespace detail

void check_cpp_signature(const OperatorEntry& op, std::type_index sig, const char* sig_name) {
  OPSCOPE_CHECK(!op.cpp_signature_ || *op.cpp_signature_ == sig, "Tried to access operator ",
                op.full_name(), " with a wrong C++ signature (", sig_name,
                ") that does not match its kernels' signature");
}

}  // namespace opscope
