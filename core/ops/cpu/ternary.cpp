// CPU kernels of the ternary family (see core/ops/ternary.h): addcmul and addcdiv, each one
// `*_impl(out, ...)` over a TensorIterator (out undefined: allocated; out == self: in place;
// else out=), then their rows.
#include <type_traits>

#include "core/dispatch/Library.h"
#include "core/ops/KernelForms.h"
#include "core/ops/TensorIterator.h"
#include "core/ops/cpu/Loops.h"
#include "core/ops/ternary.h"
#include "core/runtime/ScalarConvert.h"

namespace opscope::cpu {

namespace {

// The dtypes torch 1.13's CPU kernels take: every integer and floating dtype but Half (and no
// Bool): "\"addcmul_cpu_out\" not implemented for 'Half'".
constexpr auto kAddcDtypes = []<typename T>() {
  return std::bool_constant<!std::is_same_v<T, bool> && !std::is_same_v<T, Half>>{};
};

// The type an element is computed in: T itself (float stays float, so the loop vectorizes and
// rounds as torch's does), float for BFloat16, whose arithmetic goes through float anyway.
template <typename T>
using compute_t = std::conditional_t<std::is_same_v<T, BFloat16>, float, T>;

enum class Addc { Mul, Div };

// self, tensor1, tensor2 broadcast to [*s] -> self + value * tensor1 (* or /) tensor2 [*s], in
// the operands' common dtype; value converted to it with torch's overflow check.
template <Addc K>
Tensor addc(const Tensor& out, const Tensor& self, const Tensor& tensor1, const Tensor& tensor2,
            const Scalar& value) {
  if constexpr (K == Addc::Div) {
    // Checked before broadcasting, as torch's meta function does (bool counts as integral).
    OPSCOPE_CHECK(
        !(is_integral(tensor1.dtype(), /*include_bool=*/true) &&
          is_integral(tensor2.dtype(), /*include_bool=*/true)),
        "Integer division with addcdiv is no longer supported, and in a future  release addcdiv "
        "will perform a true division of tensor1 and tensor2. The historic addcdiv behavior can "
        "be implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for "
        "integer inputs and as (input + value * tensor1 / tensor2) for float inputs. The future "
        "addcdiv behavior is just the latter implementation: (input + value * tensor1 / "
        "tensor2), for all dtypes.");
  }
  TensorIterator iter = TensorIteratorConfig()
                            .add_output(out)
                            .add_input(self)
                            .add_input(tensor1)
                            .add_input(tensor2)
                            .promote_inputs_to_common_dtype(true)
                            .cast_common_dtype_to_outputs(true)
                            .enforce_safe_casting_to_output(true)
                            .build();
  const char* name = K == Addc::Mul ? "addcmul_cpu_out" : "addcdiv_cpu_out";
  dispatch_dtype_if(iter.common_dtype(), name, kAddcDtypes, [&]<typename T>() {
    using A = compute_t<T>;
    const A v = static_cast<A>(checked_convert<T>(value));
    if constexpr (K == Addc::Mul) {
      cpu_kernel(iter, [v](T s, T a, T b) -> T { return static_cast<T>(A(s) + v * A(a) * A(b)); });
    } else {
      // (value * tensor1) / tensor2, torch's order: the rounding matches, and an integer
      // tensor1 over a float tensor2 is never truncated.
      cpu_kernel(iter, [v](T s, T a, T b) -> T { return static_cast<T>(A(s) + v * A(a) / A(b)); });
    }
  });
  return iter.output();
}

}  // namespace

Tensor addcmul_impl(const Tensor& out, const Tensor& self, const Tensor& tensor1,
                    const Tensor& tensor2, const Scalar& value) {
  return addc<Addc::Mul>(out, self, tensor1, tensor2, value);
}

Tensor addcdiv_impl(const Tensor& out, const Tensor& self, const Tensor& tensor1,
                    const Tensor& tensor2, const Scalar& value) {
  return addc<Addc::Div>(out, self, tensor1, tensor2, value);
}

static Library cpu_ternary(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("addcmul", functional<&addcmul_impl>());
  m.impl("addcmul_", inplace<&addcmul_impl>());
  m.impl("addcmul.out", out<&addcmul_impl>());
  m.impl("addcdiv", functional<&addcdiv_impl>());
  m.impl("addcdiv_", inplace<&addcdiv_impl>());
  m.impl("addcdiv.out", out<&addcdiv_impl>());
});

}  // namespace opscope::cpu
