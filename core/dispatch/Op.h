// Op: an op called from C++ by its name — the entry points `ops::mm(a, b)`, `ops::sum(x)`.
//
// Semantically `ops::add(a, b)` is exactly `torch.add(a, b)`: the op aten::add.Tensor called
// through the dispatcher, so autograd records it and a trace shows it. A family header declares
// one handle per op name, each overload with the C++ form of its schema (see core/ops/README.md):
//
//   // mm(Tensor self, Tensor mat2) -> Tensor
//   inline constexpr Op<Tensor(const Tensor&, const Tensor&)> mm{"aten::mm"};
//
//   // add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
//   // add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor
//   // add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
//   inline constexpr Overloads add{
//       Op<Tensor(const Tensor&, const Tensor&, Default<const Scalar&>)>{"aten::add.Tensor"},
//       Op<Tensor(const Tensor&, const Scalar&, Default<const Scalar&>)>{"aten::add.Scalar"}};
//   inline constexpr Op<Tensor(Out, const Tensor&, const Tensor&, Default<const Scalar&>)>
//       add_out{"aten::add.out"};
//
// Two markers say what a C++ caller writes differently from the schema:
//   - `Default<T>`: a trailing argument the caller may leave out (`ops::add(a, b)`). Its value is
//     the schema's default, read once, so the default is written in one place: the schema.
//   - `Out`: an out= tensor, written first by C++ callers as in ATen (`ops::add_out(out, a, b)`)
//     and last in the schema (and in the kernel's signature).
//
// In implementation terms an Op is a name and a cache: on the first call it finds the op, checks
// the kernels' C++ signature against its own (the schema order of its parameters, markers
// removed) and converts the defaults; every later call is one load and a branch before
// Dispatcher::call — what the hand-written `static const auto op = typed_op<...>(...)` bodies
// cost. Handles are constant-initialized, so they can be called from any static initializer.
#pragma once

#include <atomic>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "core/dispatch/Dispatcher.h"

namespace opscope {

// Marks a trailing parameter whose value, when the caller leaves it out, is the schema's default.
template <typename T>
struct Default {};
// Marks an out= tensor: written first by C++ callers, last in the schema.
struct Out {};

namespace detail {

template <typename P>
struct OpParam {
  using type = P;
  static constexpr bool is_default = false, is_out = false;
};
template <typename T>
struct OpParam<Default<T>> {
  using type = T;
  static constexpr bool is_default = true, is_out = false;
};
template <>
struct OpParam<Out> {
  using type = const Tensor&;
  static constexpr bool is_default = false, is_out = true;
};

// One operator() taking the first sizeof...(I) parameters; Self::invoke fills in the rest.
template <typename Self, typename R, typename Params, typename Seq>
struct OpArity;
template <typename Self, typename R, typename... P, size_t... I>
struct OpArity<Self, R, std::tuple<P...>, std::index_sequence<I...>> {
  R operator()(typename OpParam<std::tuple_element_t<I, std::tuple<P...>>>::type... args) const {
    return static_cast<const Self&>(*this).template invoke<sizeof...(I)>(
        std::forward<decltype(args)>(args)...);
  }
};

// operator() for every arity from the required parameters to all of them.
template <typename Self, typename R, typename Params, typename Arities>
struct OpArities;
template <typename Self, typename R, typename Params, size_t... K>
struct OpArities<Self, R, Params, std::index_sequence<K...>>
    : OpArity<Self, R, Params, std::make_index_sequence<K>>... {
  using OpArity<Self, R, Params, std::make_index_sequence<K>>::operator()...;
};

template <size_t Offset, size_t... I>
std::index_sequence<Offset + I...> offset_by(std::index_sequence<I...>);

[[noreturn]] void op_missing_default(const OperatorHandle& op, size_t schema_index);

}  // namespace detail

template <typename Sig>
class Op;

template <typename R, typename... P>
class Op<R(P...)>
    : public detail::OpArities<
          Op<R(P...)>, R, std::tuple<P...>,
          decltype(detail::offset_by<(!detail::OpParam<P>::is_default + ... + 0)>(
              std::make_index_sequence<(detail::OpParam<P>::is_default + ... + 0) + 1>()))> {
  static constexpr size_t kParams = sizeof...(P);
  static constexpr size_t kOuts = (detail::OpParam<P>::is_out + ... + 0);
  static constexpr size_t kRequired = kParams - (detail::OpParam<P>::is_default + ... + 0);
  static_assert(
      [] {
        constexpr bool out[] = {detail::OpParam<P>::is_out..., false};
        constexpr bool dflt[] = {detail::OpParam<P>::is_default..., false};
        for (size_t i = 0; i < kParams; ++i)
          if ((out[i] && i >= kOuts) || (dflt[i] ? i < kRequired : i >= kRequired)) return false;
        return true;
      }(),
      "Op: Out parameters come first, Default parameters last");

  // C++ parameter i is schema argument schema_index(i): the outs go after everything else.
  static constexpr size_t schema_index(size_t i) {
    return i < kOuts ? kParams - kOuts + i : i - kOuts;
  }
  template <size_t J>
  static constexpr size_t cpp_index() {
    return J < kParams - kOuts ? J + kOuts : J - (kParams - kOuts);
  }
  using Params = std::tuple<typename detail::OpParam<P>::type...>;
  template <size_t J>
  using SchemaParam = std::tuple_element_t<cpp_index<J>(), Params>;
  template <size_t... J>
  static auto kernel_signature(std::index_sequence<J...>) -> R (*)(SchemaParam<J>...);
  using KernelSig =
      std::remove_pointer_t<decltype(kernel_signature(std::make_index_sequence<kParams>()))>;

  // What the first call finds: the typed handle and the defaults, converted.
  struct Resolved {
    TypedOperatorHandle<KernelSig> op;
    std::vector<IValue> default_ivalues;  // owns what IntArrayRef / string_view defaults view
    std::tuple<std::optional<std::decay_t<typename detail::OpParam<P>::type>>...> defaults;
  };

 public:
  constexpr explicit Op(const char* full_name) : name_(full_name) {}
  constexpr Op(const Op& other) : name_(other.name_) {}
  Op& operator=(const Op&) = delete;

  const char* name() const { return name_; }
  const TypedOperatorHandle<KernelSig>& handle() const { return resolved().op; }

  // Called by the operator() of arity N with the first N parameters.
  template <size_t N, typename... A>
  R invoke(A&&... given) const {
    const Resolved& r = resolved();
    auto args = std::forward_as_tuple(std::forward<A>(given)...);
    auto arg = [&]<size_t I>() -> decltype(auto) {
      if constexpr (I < N)
        return std::get<I>(args);
      else
        return static_cast<const std::decay_t<std::tuple_element_t<I, Params>>&>(
            *std::get<I>(r.defaults));
    };
    return [&]<size_t... J>(std::index_sequence<J...>)->R {
      return r.op.call(arg.template operator()<cpp_index<J>()>()...);
    }
    (std::make_index_sequence<kParams>());
  }

 private:
  const Resolved& resolved() const {
    const Resolved* r = resolved_.load(std::memory_order_acquire);
    return r ? *r : resolve();
  }

  const Resolved& resolve() const {
    OperatorHandle h = Dispatcher::singleton().find_by_full_name(name_);
    auto* r = new Resolved{h.typed<KernelSig>(), {}, {}};
    const std::vector<Argument>& schema_args = h.schema().arguments;
    r->default_ivalues.reserve(kParams);
    [&]<size_t... I>(std::index_sequence<I...>) {
      (
          [&] {
            if constexpr (I >= kRequired) {
              const size_t s = schema_index(I);
              if (s >= schema_args.size() || !schema_args[s].default_value)
                detail::op_missing_default(h, s);
              const IValue& v = r->default_ivalues.emplace_back(*schema_args[s].default_value);
              std::get<I>(r->defaults)
                  .emplace(IValueConv<std::tuple_element_t<I, Params>>::from(v));
            }
          }(),
          ...);
    }
    (std::make_index_sequence<kParams>());
    const Resolved* expected = nullptr;
    if (!resolved_.compare_exchange_strong(expected, r, std::memory_order_acq_rel)) {
      delete r;
      return *expected;
    }
    return *r;  // kept for the life of the process, as a static local would be
  }

  const char* name_;
  mutable std::atomic<const Resolved*> resolved_{nullptr};
};

// The overloads of one op name, resolved like C++ function overloads:
// `ops::add(a, b)` -> add.Tensor, `ops::add(a, 2)` -> add.Scalar.
template <typename... Ops>
struct Overloads : Ops... {
  constexpr explicit Overloads(const Ops&... ops) : Ops(ops)... {}
  using Ops::operator()...;
};

}  // namespace opscope
