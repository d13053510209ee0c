// Scalar -> element type conversions with PyTorch's overflow checks, and the C++ type names its
// messages use.
//
// Semantically checked_convert<T>(s) is c10's Scalar::to<T>() with c10::checked_convert: fill
// values, alpha, exponents and factory values that T cannot hold are an error naming T, as in
// torch ("value cannot be converted to type uint8_t without overflow").
#pragma once

#include <cmath>
#include <limits>
#include <string_view>

#include "core/runtime/Scalar.h"

namespace opscope {

// The C++ type name PyTorch's messages use for T, as in "value cannot be converted to type
// uint8_t without overflow": "uint8_t", "int", "at::Half", "float", ...
template <typename T>
constexpr std::string_view scalar_cpp_type_name() {
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
T checked_convert(const Scalar& s) {
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
    OPSCOPE_CHECK(!overflow, "value cannot be converted to type ", scalar_cpp_type_name<T>(),
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

}  // namespace opscope
