// Typed elementwise loops for CPU kernels: write f for one element, get the whole op.
//
// Semantically cpu_kernel(iter, f) does `out = f(in0, in1, ...)` for every element of a built
// TensorIterator; the element types are read off f's parameter and return types, which must be
// the C++ types of the iterator's dtypes (checked):
//
//   dispatch_dtype(iter.common_dtype(), "add_cpu", [&]<typename T>() {
//     cpu_kernel(iter, [](T a, T b) -> T { return a + b; });
//   });
//
// In implementation terms each run of the innermost dim takes one of three loops: all operands
// contiguous (plain indexed arrays, `#pragma omp simd`, which GCC vectorizes), contiguous with
// one input broadcast (its value hoisted out of the loop: `t + 2`), or strided. Kernels must not
// throw from f (the simd loop cannot unwind): record the problem and throw after the loop.
#pragma once

#include "core/runtime/ScalarConvert.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "core/ops/TensorIterator.h"

namespace opscope {

// Parameter and return types of a lambda or function.
template <typename F>
struct function_traits : function_traits<decltype(&F::operator())> {};
template <typename C, typename R, typename... A>
struct function_traits<R (C::*)(A...) const> {
  using result_type = R;
  using args = std::tuple<A...>;
  static constexpr int arity = sizeof...(A);
};
template <typename C, typename R, typename... A>
struct function_traits<R (C::*)(A...)> : function_traits<R (C::*)(A...) const> {};
template <typename R, typename... A>
struct function_traits<R (*)(A...)> {
  using result_type = R;
  using args = std::tuple<A...>;
  static constexpr int arity = sizeof...(A);
};

// A clone must not throw: see Note [No throw from a vector clone] (core/ops/cpu/reduce_loops.h).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(OPSCOPE_NO_CLONES)
#define OPSCOPE_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define OPSCOPE_VECTOR_CLONES
#endif

namespace detail {

template <typename traits, size_t I>
using arg_t = std::decay_t<std::tuple_element_t<I, typename traits::args>>;

// Element I of the inputs at index i: the hoisted value when input I is the broadcast one.
template <int ScalarMask, size_t I, typename Ptrs, typename Vals>
inline auto load_input(const Ptrs& ptrs, const Vals& vals, int64_t i) {
  if constexpr (((ScalarMask >> I) & 1) != 0) {
    return std::get<I>(vals);
  } else {
    return std::get<I>(ptrs)[i];
  }
}

// Output and inputs contiguous, except the inputs whose bit is set in ScalarMask (stride 0).
// Compiled twice, for AVX2 and for the x86-64 baseline (SSE2), the CPU picking at load time.
template <typename traits, int ScalarMask, typename Op, size_t... I>
OPSCOPE_VECTOR_CLONES void contiguous_loop(char** data, int64_t n, Op& op,
                                           std::index_sequence<I...>) {
  using R = typename traits::result_type;
  R* out = reinterpret_cast<R*>(data[0]);
  std::tuple<const arg_t<traits, I>*...> ptrs{
      reinterpret_cast<const arg_t<traits, I>*>(data[I + 1])...};
  std::tuple<arg_t<traits, I>...> vals{std::get<I>(ptrs)[0]...};
#pragma omp simd
  for (int64_t i = 0; i < n; ++i) out[i] = op(load_input<ScalarMask, I>(ptrs, vals, i)...);
}

template <typename traits, typename Op, size_t... I>
inline void strided_loop(char** data, const int64_t* strides, int64_t n, Op& op,
                         std::index_sequence<I...>) {
  using R = typename traits::result_type;
  for (int64_t i = 0; i < n; ++i) {
    *reinterpret_cast<R*>(data[0] + i * strides[0]) =
        op(*reinterpret_cast<const arg_t<traits, I>*>(data[I + 1] + i * strides[I + 1])...);
  }
}

template <typename traits, typename Op, size_t... I>
inline void single_element(char** data, Op& op, std::index_sequence<I...>) {
  using R = typename traits::result_type;
  *reinterpret_cast<R*>(data[0]) = op(*reinterpret_cast<const arg_t<traits, I>*>(data[I + 1])...);
}

template <typename traits, size_t... I>
inline bool input_strides_are(const int64_t* strides, int mask, std::index_sequence<I...>) {
  // Input I must have stride 0 when its bit is set in mask, its element size otherwise.
  return ((strides[I + 1] ==
           (((mask >> I) & 1) ? 0 : static_cast<int64_t>(sizeof(arg_t<traits, I>)))) &&
          ...);
}

template <typename traits, typename Op>
inline void elementwise_loop(char** data, const int64_t* strides, int64_t n, Op& op) {
  using R = typename traits::result_type;
  constexpr int nin = traits::arity;
  auto seq = std::make_index_sequence<nin>{};
  if (n == 1) return single_element<traits>(data, op, seq);  // skip the vector loop's set-up
  if (strides[0] == static_cast<int64_t>(sizeof(R))) {
    if (input_strides_are<traits>(strides, 0, seq))
      return contiguous_loop<traits, 0>(data, n, op, seq);
    if constexpr (nin == 1) {
      if (input_strides_are<traits>(strides, 1, seq))
        return contiguous_loop<traits, 1>(data, n, op, seq);
    } else if constexpr (nin == 2) {
      if (input_strides_are<traits>(strides, 1, seq))
        return contiguous_loop<traits, 1>(data, n, op, seq);
      if (input_strides_are<traits>(strides, 2, seq))
        return contiguous_loop<traits, 2>(data, n, op, seq);
    }
  }
  strided_loop<traits>(data, strides, n, op, seq);
}

template <typename traits, size_t... I>
inline bool dtypes_match(const TensorIterator& iter, std::index_sequence<I...>) {
  using R = typename traits::result_type;
  return iter.dtype(0) == CppTypeToScalarType<R>::value &&
         ((iter.dtype(I + 1) == CppTypeToScalarType<arg_t<traits, I>>::value) && ...);
}

}  // namespace detail

// out = op(in...) for every element of iter. See the header comment.
template <typename Op>
void cpu_kernel(TensorIterator& iter, Op&& op, int64_t grain_size = kGrainSize) {
  using traits = function_traits<std::decay_t<Op>>;
  constexpr int nin = traits::arity;
  static_assert(nin + 1 <= kMaxOperands, "cpu_kernel: too many inputs");
  OPSCOPE_CHECK(iter.noutputs() == 1 && iter.ninputs() == nin &&
                    detail::dtypes_match<traits>(iter, std::make_index_sequence<nin>{}),
                "cpu_kernel: the kernel's element types do not match the TensorIterator's "
                "operands (internal error)");
  iter.for_each([&op](char** data, const int64_t* strides,
                      int64_t n) { detail::elementwise_loop<traits>(data, strides, n, op); },
                grain_size);
}

// Calls fn.template operator()<T>() (returning void) like dispatch_dtype, but only for the
// dtypes `allowed` accepts; others raise PyTorch's "\"bitwise_and_cpu\" not implemented for
// 'Float'".
template <typename Allowed, typename F>
void dispatch_dtype_if(ScalarType t, std::string_view what, Allowed allowed, F&& fn) {
  dispatch_dtype(t, what, [&]<typename T>() {
    if constexpr (decltype(allowed.template operator()<T>())::value) {
      fn.template operator()<T>();
    } else {
      throw Error(detail::str("\"", what, "\" not implemented for '", cpp_name(t), "'"));
    }
  });
}

// Type filters for dispatch_dtype_if.
inline constexpr auto kAllButBool = []<typename T>() {
  return std::bool_constant<!std::is_same_v<T, bool>>{};
};
inline constexpr auto kFloatingOnly = []<typename T>() {
  return std::bool_constant<!std::is_integral_v<T>>{};
};
inline constexpr auto kIntegralAndBool = []<typename T>() {
  return std::bool_constant<std::is_integral_v<T>>{};
};

// torch's AT_DISPATCH_FLOATING_TYPES_AND(BFloat16, ...): float, double, bfloat16.
template <typename F>
void dispatch_float_bf16(ScalarType t, std::string_view what, F&& fn) {
  dispatch_dtype_if(t, what, []<typename T>() {
    return std::bool_constant<!std::is_integral_v<T> && !std::is_same_v<T, Half>>{};
  }, fn);
}

// The c10 data_ptr<T>() check: an operand read as the kernel's element type.
inline void check_read_as(ScalarType expected, ScalarType found) {
  OPSCOPE_CHECK(expected == found, "expected scalar type ", cpp_name(expected), " but found ",
                cpp_name(found));
}

}  // namespace opscope

namespace opscope {}  // namespace opscope
