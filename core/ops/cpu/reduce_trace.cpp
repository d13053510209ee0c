// The CPU kernel of trace (declared in core/ops/reduce.cpp): the sum of a matrix's diagonal.
//
// dtypes as torch 1.13's trace_cpu: integers sum as int64 (the result is int64), float and double
// accumulate in double and round once; bool, float16 and bfloat16 have no kernel ("trace" not
// implemented for 'Half'). The derivative (TraceBackward0) is in
// core/autograd/derivatives/reduce.cpp.
#include <algorithm>
#include <type_traits>

#include "core/dispatch/Library.h"
#include "core/ops/cpu/Loops.h"

namespace opscope::cpu {

// self (n, m) -> () = sum_i self[i, i], i < min(n, m)
Tensor trace(const Tensor& self) {
  OPSCOPE_CHECK(self.dim() == 2, "trace: expected a matrix, but got tensor with dim ", self.dim());
  const ScalarType in = self.dtype();
  const ScalarType out = is_integral(in, /*include_bool=*/true) ? ScalarType::Int64 : in;
  Tensor result = make_empty({}, out, self.device());
  constexpr auto kAllowed = []<typename T>() {
    return std::bool_constant<!std::is_same_v<T, bool> && !std::is_same_v<T, Half> &&
                              !std::is_same_v<T, BFloat16>>{};
  };
  dispatch_dtype_if(in, "trace", kAllowed, [&]<typename T>() {
    using A = std::conditional_t<std::is_integral_v<T>, int64_t, double>;
    using R = std::conditional_t<std::is_integral_v<T>, int64_t, T>;
    const T* data = self.data_ptr<T>();
    const int64_t step = self.stride(0) + self.stride(1);  // from [i, i] to [i + 1, i + 1]
    const int64_t n = std::min(self.size(0), self.size(1));
    A sum = 0;
    for (int64_t i = 0; i < n; ++i) sum += static_cast<A>(data[i * step]);
    *result.data_ptr<R>() = static_cast<R>(sum);
  });
  return result;
}

static Library cpu_reduce_trace(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("trace", fn<&trace>);
});

}  // namespace opscope::cpu
