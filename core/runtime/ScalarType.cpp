#include "core/runtime/ScalarType.h"

#include <atomic>
#include <string>

namespace opscope {

std::string_view dtype_name(ScalarType t) {
  switch (t) {
    case ScalarType::Bool:
      return "bool";
    case ScalarType::UInt8:
      return "uint8";
    case ScalarType::Int8:
      return "int8";
    case ScalarType::Int16:
      return "int16";
    case ScalarType::Int32:
      return "int32";
    case ScalarType::Int64:
      return "int64";
    case ScalarType::Float16:
      return "float16";
    case ScalarType::BFloat16:
      return "bfloat16";
    case ScalarType::Float32:
      return "float32";
    case ScalarType::Float64:
      return "float64";
    default:
      return "undefined";
  }
}

std::string_view cpp_name(ScalarType t) {
  switch (t) {
    case ScalarType::Bool:
      return "Bool";
    case ScalarType::UInt8:
      return "Byte";
    case ScalarType::Int8:
      return "Char";
    case ScalarType::Int16:
      return "Short";
    case ScalarType::Int32:
      return "Int";
    case ScalarType::Int64:
      return "Long";
    case ScalarType::Float16:
      return "Half";
    case ScalarType::BFloat16:
      return "BFloat16";
    case ScalarType::Float32:
      return "Float";
    case ScalarType::Float64:
      return "Double";
    default:
      return "Undefined";
  }
}

ScalarType parse_dtype(std::string_view name) {
  if (name.starts_with("torch.")) name.remove_prefix(6);
  if (name.starts_with("opscope.")) name.remove_prefix(8);
  struct Alias {
    std::string_view name;
    ScalarType type;
  };
  static constexpr Alias aliases[] = {
      {"bool", ScalarType::Bool},       {"uint8", ScalarType::UInt8},
      {"int8", ScalarType::Int8},       {"int16", ScalarType::Int16},
      {"short", ScalarType::Int16},     {"int32", ScalarType::Int32},
      {"int", ScalarType::Int32},       {"int64", ScalarType::Int64},
      {"long", ScalarType::Int64},      {"float16", ScalarType::Float16},
      {"half", ScalarType::Float16},    {"bfloat16", ScalarType::BFloat16},
      {"float32", ScalarType::Float32}, {"float", ScalarType::Float32},
      {"float64", ScalarType::Float64}, {"double", ScalarType::Float64},
  };
  for (const auto& a : aliases)
    if (a.name == name) return a.type;
  throw TypeError(detail::str("unknown dtype '", name, "'"));
}

static std::atomic<ScalarType> g_default_dtype{ScalarType::Float32};
ScalarType default_dtype() {
  return g_default_dtype.load(std::memory_order_relaxed);
}
void set_default_dtype(ScalarType t) {
  OPSCOPE_CHECK_TYPE(t == ScalarType::Float32 || t == ScalarType::Float64,
                     "only floating-point types are supported as the default type");
  g_default_dtype.store(t);
}

ScalarType promote_types(ScalarType a, ScalarType b) {
  using S = ScalarType;
  if (a == b) return a;
  if (a == S::Undefined) return b;
  if (b == S::Undefined) return a;
  if (a == S::Bool) return b;
  if (b == S::Bool) return a;
  bool fa = is_floating(a), fb = is_floating(b);
  if (fa && fb) {
    // float16 and bfloat16 have no common 16-bit type.
    if ((a == S::Float16 && b == S::BFloat16) || (a == S::BFloat16 && b == S::Float16))
      return S::Float32;
    return element_size(a) >= element_size(b) ? a : b;
  }
  if (fa) return a;
  if (fb) return b;
  // Both integral. uint8 with a signed type needs the next wider signed type.
  if (a == S::UInt8 || b == S::UInt8) {
    S other = a == S::UInt8 ? b : a;
    return other == S::Int8 ? S::Int16 : other;
  }
  return element_size(a) >= element_size(b) ? a : b;
}

namespace {
enum class Category { None, Bool, Integral, Floating };
Category category(ScalarType t) {
  if (t == ScalarType::Undefined) return Category::None;
  if (t == ScalarType::Bool) return Category::Bool;
  return is_floating(t) ? Category::Floating : Category::Integral;
}
// Combines a higher-ranked result with a lower-ranked one: the lower one only counts when its
// category is higher. See Note [Type promotion].
ScalarType combine(ScalarType higher, ScalarType lower) {
  if (higher == ScalarType::Undefined) return lower;
  if (category(lower) > category(higher)) return promote_types(higher, lower);
  return higher;
}
}  // namespace

void ResultTypeState::add_tensor(ScalarType t, int64_t dim, bool is_wrapped_number) {
  if (is_wrapped_number) {
    add_scalar(t);
  } else if (dim == 0) {
    zero_dim_ = promote_types(zero_dim_, t);
  } else {
    dim_ = promote_types(dim_, t);
  }
}

void ResultTypeState::add_scalar(ScalarType t) {
  // A Python float means "the default float dtype", not float64.
  if (is_floating(t)) t = default_dtype();
  wrapped_ = promote_types(wrapped_, t);
}

ScalarType ResultTypeState::result() const {
  return combine(dim_, combine(zero_dim_, wrapped_));
}

bool can_cast(ScalarType from, ScalarType to) {
  if (is_floating(from) && is_integral(to, /*include_bool=*/true)) return false;
  if (from != ScalarType::Bool && to == ScalarType::Bool) return false;
  return true;
}

}  // namespace opscope
