// KernelFunction: one kernel as the dispatcher stores it — callable boxed and, when it was
// written as a C++ function, unboxed.
//
// Semantically a kernel is the code that runs for one (op, dispatch key) pair. Generic code (the
// Python binding, the Autograd kernel, Python-defined kernels) calls it *boxed*: arguments as a
// Stack of IValues. Typed C++ callers (ops::mm) call it *unboxed*: straight through a function
// pointer, no IValues. A kernel written unboxed gets a boxed wrapper generated from its C++
// signature; a kernel written boxed is called unboxed by boxing the arguments. A *fallthrough*
// kernel means "this key has nothing to do for this op": the dispatcher skips the key.
//
// In implementation terms: a boxed std::function, an optional raw unboxed function pointer
// (its signature recorded as a typeid so mismatches fail at registration), and the kernel's name
// for the trace. Unboxed kernels are registered as `fn<&cpu::mm>`; the template argument gives
// both the pointer and, via __PRETTY_FUNCTION__, the name "opscope::cpu::mm".
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <typeindex>
#include <vector>

#include "core/runtime/DispatchKey.h"
#include "core/dispatch/IValue.h"

// The name of an unboxed function, from the compiler: "opscope::cpu::mm". Defined outside
// namespace opscope because GCC prints names relative to the enclosing namespace.
template <auto F>
constexpr std::string_view opscope_pretty_function_name() {
  std::string_view p = __PRETTY_FUNCTION__;  // "... [with auto F = opscope::cpu::mm; ...]"
  auto start = p.find("F = ") + 4;
  auto end = p.find_first_of(";]", start);
  std::string_view n = p.substr(start, end - start);
  if (!n.empty() && n[0] == '&') n.remove_prefix(1);
  return n;
}

namespace opscope {

template <auto F>
constexpr std::string_view function_name() {
  return opscope_pretty_function_name<F>();
}

class OperatorHandle;

// Argument and return types a kernel's C++ signature may use, and their boxed forms.
using TensorList = std::span<const Tensor>;

template <typename T>
struct IValueConv;  // T <-> IValue, per argument type

template <>
struct IValueConv<const Tensor&> {
  static const Tensor& from(const IValue& v) {
    static const Tensor undefined;
    return v.is_none() ? undefined : v.to_tensor();
  }
};
template <>
struct IValueConv<Tensor> {
  static Tensor from(const IValue& v) { return v.is_none() ? Tensor() : v.to_tensor(); }
};
template <>
struct IValueConv<Tensor&> {  // out= and in-place `self`
  static Tensor& from(IValue& v) { return v.to_tensor(); }
};
template <>
struct IValueConv<const Scalar&> {
  static Scalar from(const IValue& v) { return v.to_scalar(); }
};
template <>
struct IValueConv<const std::optional<Scalar>&> {
  static std::optional<Scalar> from(const IValue& v) {
    return v.is_none() ? std::nullopt : std::optional<Scalar>(v.to_scalar());
  }
};
template <>
struct IValueConv<double> {
  static double from(const IValue& v) { return v.to_double(); }
};
template <>
struct IValueConv<int64_t> {
  static int64_t from(const IValue& v) { return v.to_int(); }
};
template <>
struct IValueConv<bool> {
  static bool from(const IValue& v) { return v.to_bool(); }
};
template <>
struct IValueConv<IntArrayRef> {
  static IntArrayRef from(const IValue& v) { return v.to_int_list(); }
};
template <>
struct IValueConv<std::optional<IntArrayRef>> {
  static std::optional<IntArrayRef> from(const IValue& v) {
    return v.is_none() ? std::nullopt : std::optional<IntArrayRef>(v.to_int_list());
  }
};
template <>
struct IValueConv<std::optional<DoubleArrayRef>> {
  static std::optional<DoubleArrayRef> from(const IValue& v) {
    return v.is_none() ? std::nullopt : std::optional<DoubleArrayRef>(v.to_double_list());
  }
};
template <>
struct IValueConv<TensorList> {
  static TensorList from(const IValue& v) { return v.to_tensor_list(); }
};
template <>
struct IValueConv<std::string_view> {
  static std::string_view from(const IValue& v) { return v.to_string(); }
};
template <>
struct IValueConv<std::optional<std::string_view>> {
  static std::optional<std::string_view> from(const IValue& v) {
    return v.is_none() ? std::nullopt : std::optional<std::string_view>(v.to_string());
  }
};
template <>
struct IValueConv<std::optional<int64_t>> {
  static std::optional<int64_t> from(const IValue& v) {
    return v.is_none() ? std::nullopt : std::optional<int64_t>(v.to_int());
  }
};
template <>
struct IValueConv<std::optional<double>> {
  static std::optional<double> from(const IValue& v) {
    return v.is_none() ? std::nullopt : std::optional<double>(v.to_double());
  }
};
template <>
struct IValueConv<std::optional<bool>> {
  static std::optional<bool> from(const IValue& v) {
    return v.is_none() ? std::nullopt : std::optional<bool>(v.to_bool());
  }
};
template <>
struct IValueConv<std::optional<ScalarType>> {
  static std::optional<ScalarType> from(const IValue& v) {
    return v.is_none() ? std::nullopt : std::optional<ScalarType>(v.to_scalar_type());
  }
};
template <>
struct IValueConv<ScalarType> {
  static ScalarType from(const IValue& v) { return v.to_scalar_type(); }
};
template <>
struct IValueConv<std::optional<Generator>> {
  static std::optional<Generator> from(const IValue& v) {
    return v.is_none() ? std::nullopt : std::optional<Generator>(v.to_generator());
  }
};
template <>
struct IValueConv<std::optional<Device>> {
  static std::optional<Device> from(const IValue& v) {
    return v.is_none() ? std::nullopt : std::optional<Device>(v.to_device());
  }
};

// Returns -> IValues pushed on the stack.
template <typename R>
void push_returns(Stack& stack, R&& r) {
  using D = std::decay_t<R>;
  if constexpr (std::is_same_v<D, std::tuple<Tensor, Tensor>> ||
                std::is_same_v<D, std::tuple<Tensor, Tensor, Tensor>> ||
                std::is_same_v<D, std::tuple<Tensor, Tensor, Tensor, Tensor>>) {
    std::apply([&](auto&... ts) { (stack.emplace_back(ts), ...); }, r);
  } else {
    stack.emplace_back(std::forward<R>(r));
  }
}
// IValues popped from the stack -> return value.
template <typename R>
R pop_returns(Stack& stack) {
  using D = std::decay_t<R>;
  if constexpr (std::is_void_v<R>) {
    return;
  } else if constexpr (std::is_same_v<D, std::tuple<Tensor, Tensor>>) {
    return {stack[stack.size() - 2].to_tensor(), stack.back().to_tensor()};
  } else if constexpr (std::is_same_v<D, std::tuple<Tensor, Tensor, Tensor>>) {
    size_t n = stack.size();
    return {stack[n - 3].to_tensor(), stack[n - 2].to_tensor(), stack[n - 1].to_tensor()};
  } else if constexpr (std::is_same_v<D, std::tuple<Tensor, Tensor, Tensor, Tensor>>) {
    size_t n = stack.size();  // _linalg_slogdet, _linalg_solve_ex
    return {stack[n - 4].to_tensor(), stack[n - 3].to_tensor(), stack[n - 2].to_tensor(),
            stack[n - 1].to_tensor()};
  } else if constexpr (std::is_same_v<D, Tensor>) {
    return stack.back().to_tensor();
  } else if constexpr (std::is_same_v<D, std::vector<Tensor>>) {
    return stack.back().to_tensor_list();
  } else if constexpr (std::is_same_v<D, double>) {
    return stack.back().to_double();
  } else if constexpr (std::is_same_v<D, int64_t>) {
    return stack.back().to_int();
  } else if constexpr (std::is_same_v<D, bool>) {
    return stack.back().to_bool();
  } else {
    static_assert(sizeof(R) == 0, "unsupported kernel return type");
  }
}

using BoxedKernel = std::function<void(const OperatorHandle&, DispatchKeySet, Stack*)>;

template <auto F>
constexpr std::string_view function_name();
// A tag naming an unboxed kernel: m.impl("dot", DispatchKey::CPU, fn<&cpu::dot>).
template <auto F>
struct KernelFn {};
template <auto F>
inline constexpr KernelFn<F> fn{};

class KernelFunction {
 public:
  KernelFunction() = default;

  template <auto F>
  KernelFunction(KernelFn<F>)  // NOLINT: registration reads better without a make_ call
      : boxed_(make_boxed_wrapper<F>(F)),
        unboxed_(reinterpret_cast<void*>(F)),
        signature_(typeid(std::remove_pointer_t<decltype(F)>)),
        name_(function_name<F>()),
        source_(reinterpret_cast<const void*>(F)) {}

  // A boxed kernel (the Autograd kernel, BackendSelect, Python-defined kernels, fallbacks).
  static KernelFunction boxed(BoxedKernel k, std::string name) {
    KernelFunction f;
    f.boxed_ = std::move(k);
    f.name_ = std::move(name);
    return f;
  }
  // The generic Autograd kernel: a boxed kernel the dispatcher may skip when no argument
  // requires grad (Note [The Autograd kernel's no-grad path] in Dispatcher.h).
  static KernelFunction autograd(BoxedKernel k, std::string name) {
    KernelFunction f = boxed(std::move(k), std::move(name));
    f.autograd_ = true;
    return f;
  }
  // A kernel written in Python (opscope.library): boxed, and shown in traces with provenance
  // "python kernel" (trace_provenance in OperatorEntry.h).
  static KernelFunction python(BoxedKernel k, std::string name) {
    KernelFunction f = boxed(std::move(k), std::move(name));
    f.python_ = true;
    return f;
  }
  static KernelFunction fallthrough() {
    KernelFunction f;
    f.fallthrough_ = true;
    f.name_ = "fallthrough";
    return f;
  }

  // The same kernel under another name (core/ops/KernelForms.h names its forms like the op),
  // and the function whose source defines it (the form's implementation, not the adapter).
  KernelFunction renamed(std::string name, const void* source) && {
    name_ = std::move(name);
    source_ = source;
    return std::move(*this);
  }

  bool valid() const { return fallthrough_ || static_cast<bool>(boxed_); }
  bool is_fallthrough() const { return fallthrough_; }
  bool is_autograd() const { return autograd_; }
  bool is_python() const { return python_; }
  bool has_unboxed() const { return unboxed_ != nullptr; }
  const std::string& name() const { return name_; }
  // typeid of the C++ signature, e.g. Tensor(const Tensor&, const Tensor&); void when boxed-only.
  std::type_index signature() const { return signature_; }
  // The C++ function that defines the kernel (its source file is where its registration row
  // belongs); null for boxed kernels.
  const void* source() const { return source_; }

  void call_boxed(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) const {
    boxed_(op, ks, stack);
  }

  // Calls with C++ arguments: through the raw pointer when the kernel is unboxed, else boxes.
  // Signature agreement was checked at registration (OperatorEntry::register_kernel).
  template <typename R, typename... Args>
  R call(const OperatorHandle& op, DispatchKeySet ks, Args... args) const {
    if (unboxed_) return reinterpret_cast<R (*)(Args...)>(unboxed_)(std::forward<Args>(args)...);
    Stack stack;
    stack.reserve(sizeof...(Args));
    (stack.emplace_back(args), ...);
    boxed_(op, ks, &stack);
    return pop_returns<R>(stack);
  }

 private:
  template <auto F, typename R, typename... Args>
  static BoxedKernel make_boxed_wrapper(R (*)(Args...)) {
    return [](const OperatorHandle&, DispatchKeySet, Stack* stack) {
      constexpr size_t n = sizeof...(Args);
      size_t base = stack->size() - n;
      auto invoke = [&]<size_t... I>(std::index_sequence<I...>)->decltype(auto) {
        return F(IValueConv<Args>::from((*stack)[base + I])...);
      };
      if constexpr (std::is_void_v<R>) {
        invoke(std::index_sequence_for<Args...>{});
        stack->resize(base);
      } else {
        // Keep the result before dropping the arguments: a Tensor& return refers to one of them.
        std::decay_t<R> result = invoke(std::index_sequence_for<Args...>{});
        stack->resize(base);
        push_returns(*stack, std::move(result));
      }
    };
  }

  BoxedKernel boxed_;
  void* unboxed_ = nullptr;
  std::type_index signature_ = typeid(void);
  std::string name_;
  const void* source_ = nullptr;
  bool fallthrough_ = false;
  bool autograd_ = false;
  bool python_ = false;
};

}  // namespace opscope
