// One kernel, three forms: the functional, in-place and out= kernels of an op from one function
// that writes its result into `out` (PyTorch's structured kernels do the same with a class).
//
// Semantically `exp(self)`, `exp_(self)` and `exp.out(self, *, out)` differ only in where the
// result goes: a new tensor, self, or out. A kernel family writes that once,
//
//   // self [*s] -> exp(self) [*s]; out undefined: a new tensor
//   Tensor exp_impl(const Tensor& out, const Tensor& self);
//
// and registers the three forms beside it:
//
//   m.impl("exp", functional<&exp_impl>());   // exp_impl(Tensor(), self)
//   m.impl("exp_", inplace<&exp_impl>());     // exp_impl(self, self)
//   m.impl("exp.out", out<&exp_impl>());      // exp_impl(out, self), out last as in the schema
//
// In implementation terms each form is an unboxed kernel (a static function of a class template
// instantiated for the implementation), named in traces like a hand-written one:
// "opscope::cpu::exp", "opscope::cpu::exp_", "opscope::cpu::exp_out" for `exp_impl`.
#pragma once

#include <string>

#include "core/dispatch/KernelFunction.h"

namespace opscope {

namespace detail {

template <auto Impl>
struct KernelForms;
template <typename R, typename... A, R (*Impl)(const Tensor&, A...)>
struct KernelForms<Impl> {
  static R functional(A... args) { return Impl(Tensor(), args...); }
  static R out(A... args, const Tensor& out) { return Impl(out, args...); }
  static R self_inplace(A... args) { return Impl(first(args...), args...); }

  static const void* source() { return reinterpret_cast<const void*>(Impl); }

  // "opscope::cpu::exp_impl" -> "opscope::cpu::exp"
  static std::string base_name() {
    std::string name(function_name<Impl>());
    if (name.ends_with("_impl")) name.resize(name.size() - 5);
    return name;
  }

 private:
  template <typename F, typename... Rest>
  static const Tensor& first(const F& f, const Rest&...) {
    return f;
  }
};

}  // namespace detail

// The functional form: a new tensor.
template <auto Impl>
KernelFunction functional() {
  using Forms = detail::KernelForms<Impl>;
  return KernelFunction(fn<&Forms::functional>).renamed(Forms::base_name(), Forms::source());
}
// The in-place form: written into the first argument, self.
template <auto Impl>
KernelFunction inplace() {
  using Forms = detail::KernelForms<Impl>;
  return KernelFunction(fn<&Forms::self_inplace>).renamed(Forms::base_name() + "_", Forms::source());
}
// The out= form: written into out, the last argument.
template <auto Impl>
KernelFunction out() {
  using Forms = detail::KernelForms<Impl>;
  return KernelFunction(fn<&Forms::out>).renamed(Forms::base_name() + "_out", Forms::source());
}

}  // namespace opscope
