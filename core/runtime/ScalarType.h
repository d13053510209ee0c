// ScalarType: the element type of a tensor (its dtype), and PyTorch's type-promotion rules.
//
// Semantically, a dtype says how to read the bytes of a tensor's elements and which category
// (bool < integral < floating) the values belong to; promotion picks the dtype of an op's result
// from its operands' dtypes *and* from what kind of operand each is: a tensor with dims, a 0-d
// tensor, or a Python number ("wrapped number"). See Note [Type promotion].
//
// In implementation terms ScalarType is a small enum; per-dtype code is written once as a
// templated lambda and instantiated for each C++ element type by dispatch_dtype().
//
//   dispatch_dtype(t.dtype(), "add", [&]<typename T>() { loop<T>(...); });
#pragma once

#include <cstdint>
#include <string_view>

#include "core/runtime/Exception.h"
#include "core/runtime/Half.h"

namespace opscope {

// The order is opscope's own; names and item sizes are PyTorch's.
enum class ScalarType : int8_t {
  Bool,
  UInt8,
  Int8,
  Int16,
  Int32,
  Int64,
  Float16,
  BFloat16,
  Float32,
  Float64,
  Undefined,
};
constexpr int kNumScalarTypes = static_cast<int>(ScalarType::Undefined);

constexpr size_t element_size(ScalarType t) {
  switch (t) {
    case ScalarType::Bool:
    case ScalarType::UInt8:
    case ScalarType::Int8:
      return 1;
    case ScalarType::Int16:
    case ScalarType::Float16:
    case ScalarType::BFloat16:
      return 2;
    case ScalarType::Int32:
    case ScalarType::Float32:
      return 4;
    case ScalarType::Int64:
    case ScalarType::Float64:
      return 8;
    default:
      return 0;
  }
}

constexpr bool is_floating(ScalarType t) {
  return t == ScalarType::Float16 || t == ScalarType::BFloat16 || t == ScalarType::Float32 ||
         t == ScalarType::Float64;
}
// Integral types; bool counts only when include_bool.
constexpr bool is_integral(ScalarType t, bool include_bool) {
  return (t >= ScalarType::UInt8 && t <= ScalarType::Int64) ||
         (include_bool && t == ScalarType::Bool);
}
constexpr bool is_signed(ScalarType t) {
  return t != ScalarType::Bool && t != ScalarType::UInt8;
}

// The Python name: "float32", "int64", "bool" (torch.float32 prints as torch.float32).
std::string_view dtype_name(ScalarType t);
// PyTorch's C++ name, as in error messages: "Float", "Long", "Bool", "Half", "BFloat16".
std::string_view cpp_name(ScalarType t);
// Parses "float32", "float", "torch.float32", "int64", "long", "half", "bool", ...
ScalarType parse_dtype(std::string_view name);

// The process-wide default float dtype (torch.get_default_dtype()), float32 unless changed.
ScalarType default_dtype();
void set_default_dtype(ScalarType t);

// Note [Type promotion]
// ~~~~~~~~~~~~~~~~~~~~~
// promote_types(a, b) is torch.promote_types: the smallest dtype that holds both (uint8 with int8
// gives int16; any integer with a float gives that float; float16 with bfloat16 gives float32).
// An op's result type (torch.result_type) also looks at what kind each operand is: operands are
// sorted into three ranks — tensors with dims, 0-d tensors, wrapped numbers (Python scalars) — and
// a lower rank only changes the result when its *category* (bool < integral < floating) is
// higher than everything above it. So int32 tensor + 2.5 -> float32 (the default dtype), but
// float16 tensor + float64 0-d tensor -> float16, and int32 tensor + int64 0-d tensor -> int32.
ScalarType promote_types(ScalarType a, ScalarType b);

// Accumulates operands one at a time, then gives the result type. See Note [Type promotion].
class ResultTypeState {
 public:
  void add_tensor(ScalarType t, int64_t dim, bool is_wrapped_number);
  void add_scalar(ScalarType t);  // a Python number: Bool, Int64 or Float64
  ScalarType result() const;

 private:
  ScalarType dim_ = ScalarType::Undefined;
  ScalarType zero_dim_ = ScalarType::Undefined;
  ScalarType wrapped_ = ScalarType::Undefined;
};

// Whether a value of dtype `from` may be written into a tensor of dtype `to` by an in-place op
// (torch.can_cast): no float into an integer tensor, nothing non-bool into a bool tensor.
bool can_cast(ScalarType from, ScalarType to);

template <typename T>
struct CppTypeToScalarType;
#define OPSCOPE_SCALAR_TYPE_OF(cpp, st)                 \
  template <>                                           \
  struct CppTypeToScalarType<cpp> {                     \
    static constexpr ScalarType value = ScalarType::st; \
  };
OPSCOPE_SCALAR_TYPE_OF(bool, Bool)
OPSCOPE_SCALAR_TYPE_OF(uint8_t, UInt8)
OPSCOPE_SCALAR_TYPE_OF(int8_t, Int8)
OPSCOPE_SCALAR_TYPE_OF(int16_t, Int16)
OPSCOPE_SCALAR_TYPE_OF(int32_t, Int32)
OPSCOPE_SCALAR_TYPE_OF(int64_t, Int64)
OPSCOPE_SCALAR_TYPE_OF(Half, Float16)
OPSCOPE_SCALAR_TYPE_OF(BFloat16, BFloat16)
OPSCOPE_SCALAR_TYPE_OF(float, Float32)
OPSCOPE_SCALAR_TYPE_OF(double, Float64)
#undef OPSCOPE_SCALAR_TYPE_OF

// Calls fn.template operator()<T>() with T the C++ element type of `t`.
// `what` names the op for the error when the dtype is not supported.
template <typename F>
decltype(auto) dispatch_dtype(ScalarType t, std::string_view what, F&& fn) {
  switch (t) {
    case ScalarType::Bool:
      return fn.template operator()<bool>();
    case ScalarType::UInt8:
      return fn.template operator()<uint8_t>();
    case ScalarType::Int8:
      return fn.template operator()<int8_t>();
    case ScalarType::Int16:
      return fn.template operator()<int16_t>();
    case ScalarType::Int32:
      return fn.template operator()<int32_t>();
    case ScalarType::Int64:
      return fn.template operator()<int64_t>();
    case ScalarType::Float16:
      return fn.template operator()<Half>();
    case ScalarType::BFloat16:
      return fn.template operator()<BFloat16>();
    case ScalarType::Float32:
      return fn.template operator()<float>();
    case ScalarType::Float64:
      return fn.template operator()<double>();
    default:
      break;
  }
  throw Error(detail::str("\"", what, "\" not implemented for '", cpp_name(t), "'"));
}

// The type arithmetic on T is carried out in: float for Half/BFloat16, T otherwise.
template <typename T>
using acc_type_t =
    std::conditional_t<std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>, float, T>;

}  // namespace opscope
