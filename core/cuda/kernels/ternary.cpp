// CUDA kernels of the ternary family (core/ops/ternary.h), host side: addcmul and addcdiv in
// their three forms (functional, in place, out=) over a TensorIterator, as the CPU kernels
// (core/ops/cpu/ternary.cpp), with torch 1.13's CUDA dtypes — float16 and bfloat16 too (the CPU
// kernel refuses float16), never bool — and its CUDA arithmetic order (ternary.cu).
#include <string_view>

#include "core/cuda/kernels/KernelUtil.h"
#include "core/cuda/kernels/LaunchTernary.h"
#include "core/dispatch/Library.h"
#include "core/ops/KernelForms.h"
#include "core/ops/TensorIterator.h"
#include "core/ops/ternary.h"
#include "core/runtime/ScalarConvert.h"

namespace opscope::cuda {

namespace {

// self, tensor1, tensor2 broadcast to [*s] -> self + value * (tensor1 (* or /) tensor2) [*s] in
// their common dtype; out undefined: allocated, out == self: in place, else out=.
template <bool Div>
Tensor addc(const Tensor& out, const Tensor& self, const Tensor& tensor1, const Tensor& tensor2,
            const Scalar& value) {
  if constexpr (Div) {
    // The CPU kernel's check and message (core/ops/cpu/ternary.cpp), before broadcasting.
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
  CUDAGuard guard(self.device());
  TensorIterator iter = TensorIteratorConfig()
                            .add_output(out)
                            .add_input(self)
                            .add_input(tensor1)
                            .add_input(tensor2)
                            .promote_inputs_to_common_dtype(true)
                            .cast_common_dtype_to_outputs(true)
                            .enforce_safe_casting_to_output(true)
                            .build();
  const ScalarType t = iter.common_dtype();
  const std::string_view name = Div ? "addcdiv_cuda" : "addcmul_cuda";
  OPSCOPE_CHECK(t != ScalarType::Bool, "\"", name, "\" not implemented for '", cpp_name(t), "'");
  // value in the type torch's CUDA kernel computes in (acc_type<T, true>: int64 for every
  // integer, float for the 16-bit floats), with its overflow check there: 1000 is a valid value
  // for int8 tensors on CUDA, not on the CPU. Integer results are the same either way (two's
  // complement arithmetic truncates alike).
  double v = 0;
  int64_t iv = 0;
  dispatch_dtype(t, "addc", [&]<typename T>() {
    if constexpr (std::is_integral_v<T>) {
      iv = checked_convert<int64_t>(value);
    } else {
      v = static_cast<double>(checked_convert<acc_type_t<T>>(value));
    }
  });
  launch_addc(Div, make_args(iter), v, iv, current_stream_ptr());
  iter.cast_outputs();
  return iter.output();
}

Tensor addcmul_impl(const Tensor& out, const Tensor& self, const Tensor& tensor1,
                    const Tensor& tensor2, const Scalar& value) {
  return addc<false>(out, self, tensor1, tensor2, value);
}
Tensor addcdiv_impl(const Tensor& out, const Tensor& self, const Tensor& tensor1,
                    const Tensor& tensor2, const Scalar& value) {
  return addc<true>(out, self, tensor1, tensor2, value);
}

}  // namespace

static Library cuda_ternary(Library::IMPL, "aten", DispatchKey::CUDA, [](Library& m) {
  m.impl("addcmul", functional<&addcmul_impl>());
  m.impl("addcmul_", inplace<&addcmul_impl>());
  m.impl("addcmul.out", out<&addcmul_impl>());
  m.impl("addcdiv", functional<&addcdiv_impl>());
  m.impl("addcdiv_", inplace<&addcdiv_impl>());
  m.impl("addcdiv.out", out<&addcdiv_impl>());
});

}  // namespace opscope::cuda
