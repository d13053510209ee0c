// What the CPU factory kernels share (core/ops/cpu/factories.cpp and random.cpp): reading the
// tensor options, converting a Scalar to an element type the way torch checks it, the names
// torch's messages use for element types, and walking a strided tensor.
#pragma once

#include "core/runtime/Parallel.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string_view>

#include "core/runtime/Scalar.h"
#include "core/tensor/Tensor.h"

namespace opscope::cpu::factory_util {

// Applies the `layout=` / `pin_memory=` checks every CPU factory makes and returns the dtype to
// use (`fallback` when dtype is None). Only torch.strided (0) is a layout opscope has.
inline ScalarType resolve_options(std::optional<ScalarType> dtype, std::optional<int64_t> layout,
                                  std::optional<bool> pin_memory, ScalarType fallback) {
  OPSCOPE_CHECK_AS(NotImplementedError, !layout || *layout == 0,
                   "opscope supports only the strided layout (torch.strided), got layout ",
                   *layout);
  OPSCOPE_CHECK(!pin_memory || !*pin_memory, "Pinned memory requires CUDA.");
  return dtype.value_or(fallback);
}

// The names c10::Scalar::to<T>() puts in "value cannot be converted to type T without overflow".
template <typename T>
constexpr std::string_view scalar_accessor_name() {
  if constexpr (std::is_same_v<T, bool>)
    return "bool";
  else if constexpr (std::is_same_v<T, uint8_t>)
    return "uint8_t";
  else if constexpr (std::is_same_v<T, int8_t>)
    return "int8_t";
  else if constexpr (std::is_same_v<T, int16_t>)
    return "int16_t";
  else if constexpr (std::is_same_v<T, int32_t>)
    return "int";
  else if constexpr (std::is_same_v<T, int64_t>)
    return "int64_t";
  else if constexpr (std::is_same_v<T, Half>)
    return "at::Half";
  else if constexpr (std::is_same_v<T, BFloat16>)
    return "at::BFloat16";
  else if constexpr (std::is_same_v<T, float>)
    return "float";
  else
    return "double";
}

// The names caffe2::TypeMeta prints, as in "to is out of bounds for float".
inline std::string_view typemeta_name(ScalarType t) {
  switch (t) {
    case ScalarType::Bool:
      return "bool";
    case ScalarType::UInt8:
      return "unsigned char";
    case ScalarType::Int8:
      return "signed char";
    case ScalarType::Int16:
      return "short int";
    case ScalarType::Int32:
      return "int";
    case ScalarType::Int64:
      return "long int";
    case ScalarType::Float16:
      return "c10::Half";
    case ScalarType::BFloat16:
      return "c10::BFloat16";
    case ScalarType::Float32:
      return "float";
    case ScalarType::Float64:
      return "double";
    default:
      return "undefined";
  }
}

// Largest finite value and lowest value of an element type, as doubles (Half and BFloat16 too).
template <typename T>
constexpr double max_of() {
  if constexpr (std::is_same_v<T, Half>)
    return 65504.0;
  else if constexpr (std::is_same_v<T, BFloat16>)
    return 3.3895313892515355e+38;
  else
    return static_cast<double>(std::numeric_limits<T>::max());
}
template <typename T>
constexpr double lowest_of() {
  if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>)
    return -max_of<T>();
  else
    return static_cast<double>(std::numeric_limits<T>::lowest());
}

// Scalar -> T as c10::Scalar::to<T>() does it, with its overflow check (c10::checked_convert):
// a float value must fit T's range (inf and nan are fine for float types, never for integers);
// an int value must fit, except that unsigned types also take -max..-1 (two's complement wrap,
// so full(3, -1, dtype=uint8) is 255); bool values and bool targets are never checked.
template <typename T>
T checked_to(const Scalar& s) {
  if constexpr (std::is_same_v<T, bool>) {
    return s.to_bool();
  } else {
    bool overflow = false;
    if (s.is_floating_point()) {
      double f = s.to_double();
      if constexpr (std::is_integral_v<T>) {
        // 2^63 rounds to int64 max + 1 as a double: treat it as outside, not as UB.
        overflow = std::isnan(f) || f < lowest_of<T>() ||
                   (std::is_same_v<T, int64_t> ? f >= 9223372036854775808.0 : f > max_of<T>());
      } else {
        overflow = !std::isinf(f) && !std::isnan(f) && (f < lowest_of<T>() || f > max_of<T>());
      }
    } else if (s.is_integral()) {
      int64_t i = s.to_long();
      if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T>) {
        overflow = i > static_cast<int64_t>(std::numeric_limits<T>::max()) ||
                   (i < 0 && -static_cast<uint64_t>(i) > std::numeric_limits<T>::max());
      } else if constexpr (std::is_integral_v<T>) {
        overflow = i < static_cast<int64_t>(std::numeric_limits<T>::lowest()) ||
                   i > static_cast<int64_t>(std::numeric_limits<T>::max());
      } else {
        overflow = static_cast<double>(i) < lowest_of<T>() || static_cast<double>(i) > max_of<T>();
      }
    }
    OPSCOPE_CHECK(!overflow, "value cannot be converted to type ", scalar_accessor_name<T>(),
                  " without overflow");
    if (s.is_floating_point()) {
      if constexpr (std::is_integral_v<T>)
        return static_cast<T>(s.to_double());
      else
        return static_cast<T>(static_cast<acc_type_t<T>>(s.to_double()));
    }
    if constexpr (std::is_integral_v<T>)
      return static_cast<T>(s.to_long());
    else
      return static_cast<T>(static_cast<acc_type_t<T>>(s.to_long()));
  }
}

// Calls f(i, offset) for every element of a tensor with these sizes and strides, in row-major
// order: i counts elements 0..numel-1, offset is the element's position from the data pointer
// (offset = sum_d index[d] * strides[d]).
template <typename F>
void for_each_offset(IntArrayRef sizes, IntArrayRef strides, F&& f) {
  int64_t n = compute_numel(sizes);
  if (n == 0) return;
  size_t nd = sizes.size();
  DimVector index(nd, 0);
  int64_t offset = 0;
  for (int64_t i = 0; i < n; ++i) {
    f(i, offset);
    for (size_t d = nd; d-- > 0;) {  // odometer increment, innermost dim first
      if (++index[d] < sizes[d]) {
        offset += strides[d];
        break;
      }
      offset -= (sizes[d] - 1) * strides[d];
      index[d] = 0;
    }
  }
}

using opscope::kGrainSize;

}  // namespace opscope::cpu::factory_util
