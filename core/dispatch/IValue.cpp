#include "core/dispatch/IValue.h"

namespace opscope {

std::string_view IValue::tag_name() const {
  static constexpr std::string_view names[] = {"None",     "Tensor",     "float",  "int",
                                               "bool",     "str",        "int[]",  "float[]",
                                               "Tensor[]", "ScalarType", "Device", "Generator"};
  return names[v_.index()];
}

void IValue::throw_wrong_type(const char* expected) const {
  throw TypeError(detail::str("expected a value of type ", expected, " but got ", tag_name()));
}

double IValue::to_double() const {
  switch (tag()) {
    case Tag::Double:
      return std::get<double>(v_);
    case Tag::Int:
      return static_cast<double>(std::get<int64_t>(v_));
    case Tag::Bool:
      return std::get<bool>(v_) ? 1.0 : 0.0;
    default:
      throw_wrong_type("float");
  }
}

int64_t IValue::to_int() const {
  switch (tag()) {
    case Tag::Int:
      return std::get<int64_t>(v_);
    case Tag::Bool:
      return std::get<bool>(v_) ? 1 : 0;
    default:
      throw_wrong_type("int");
  }
}

Scalar IValue::to_scalar() const {
  switch (tag()) {
    case Tag::Double:
      return Scalar(std::get<double>(v_));
    case Tag::Int:
      return Scalar(std::get<int64_t>(v_));
    case Tag::Bool:
      return Scalar(std::get<bool>(v_));
    default:
      throw_wrong_type("Scalar");
  }
}

std::string IValue::str() const {
  auto join = [](const auto& list, auto&& one) {
    std::string s = "[";
    for (size_t i = 0; i < list.size(); ++i) s += (i ? ", " : "") + one(list[i]);
    return s + "]";
  };
  switch (tag()) {
    case Tag::None:
      return "None";
    case Tag::Tensor:
      return std::get<Tensor>(v_).short_str();
    case Tag::Double:
      return Scalar(std::get<double>(v_)).str();
    case Tag::Int:
      return std::to_string(std::get<int64_t>(v_));
    case Tag::Bool:
      return std::get<bool>(v_) ? "True" : "False";
    case Tag::String:
      return "'" + std::get<std::string>(v_) + "'";
    case Tag::IntList:
      return join(std::get<std::vector<int64_t>>(v_), [](int64_t i) { return std::to_string(i); });
    case Tag::DoubleList:
      return join(std::get<std::vector<double>>(v_), [](double d) { return Scalar(d).str(); });
    case Tag::TensorList:
      // f32[4,5] as the views print a tensor argument (the list is one argument of a signature,
      // einsum('ij,jk', [f32[4,5], f32[5,3]]))
      return join(std::get<std::vector<Tensor>>(v_), [](const Tensor& t) {
        if (!t.defined()) return std::string("None");
        std::string shape = t.short_str();
        std::erase(shape, ' ');
        return shape;
      });
    case Tag::ScalarType:
      return "torch." + std::string(dtype_name(std::get<ScalarType>(v_)));
    case Tag::Device:
      return std::get<Device>(v_).str();
    case Tag::Generator:
      return "<Generator>";
  }
  return "?";
}

}  // namespace opscope
