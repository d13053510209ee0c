// IValue: one boxed value of any type an op schema can mention.
//
// Semantically, the boxed calling convention passes an op's arguments as a stack of IValues in
// schema order (and pops its returns the same way); that is what generic code — the Python
// binding, the Autograd kernel, the Python fallback, the trace — uses to handle every op alike.
// A Scalar is stored as Int, Double or Bool, as in PyTorch.
//
// In implementation terms it is a std::variant; lists own their elements.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/runtime/Device.h"
#include "core/runtime/Generator.h"
#include "core/runtime/Scalar.h"
#include "core/runtime/SmallVector.h"
#include "core/tensor/Tensor.h"

namespace opscope {

// A float[] argument, as a kernel takes it (the schema's float[], e.g. scale_factors): a view
// of the caller's doubles, like IntArrayRef.
using DoubleArrayRef = std::span<const double>;

class IValue {
 public:
  using Repr =
      std::variant<std::monostate, Tensor, double, int64_t, bool, std::string, std::vector<int64_t>,
                   std::vector<double>, std::vector<Tensor>, ScalarType, Device, Generator>;
  enum class Tag {
    None,
    Tensor,
    Double,
    Int,
    Bool,
    String,
    IntList,
    DoubleList,
    TensorList,
    ScalarType,
    Device,
    Generator
  };

  IValue() = default;
  IValue(Tensor t) : v_(std::move(t)) {}                                              // NOLINT
  IValue(double d) : v_(d) {}                                                         // NOLINT
  IValue(int64_t i) : v_(i) {}                                                        // NOLINT
  IValue(int i) : v_(int64_t(i)) {}                                                   // NOLINT
  IValue(bool b) : v_(b) {}                                                           // NOLINT
  IValue(std::string s) : v_(std::move(s)) {}                                         // NOLINT
  IValue(const char* s) : v_(std::string(s)) {}                                       // NOLINT
  IValue(std::vector<int64_t> l) : v_(std::move(l)) {}                                // NOLINT
  IValue(IntArrayRef l) : v_(std::vector<int64_t>(l.begin(), l.end())) {}             // NOLINT
  IValue(std::vector<double> l) : v_(std::move(l)) {}                                 // NOLINT
  IValue(DoubleArrayRef l) : v_(std::vector<double>(l.begin(), l.end())) {}           // NOLINT
  IValue(std::vector<Tensor> l) : v_(std::move(l)) {}                                 // NOLINT
  IValue(std::span<const Tensor> l) : v_(std::vector<Tensor>(l.begin(), l.end())) {}  // NOLINT
  IValue(std::string_view s) : v_(std::string(s)) {}                                  // NOLINT
  IValue(ScalarType t) : v_(t) {}                                                     // NOLINT
  IValue(Device d) : v_(d) {}                                                         // NOLINT
  IValue(Generator g) : v_(std::move(g)) {}                                           // NOLINT
  IValue(const Scalar& s) {                                                           // NOLINT
    switch (s.kind()) {
      case Scalar::Kind::Bool:
        v_ = s.to_bool();
        break;
      case Scalar::Kind::Int:
        v_ = s.to_long();
        break;
      case Scalar::Kind::Double:
        v_ = s.to_double();
        break;
    }
  }
  template <typename T>
  IValue(const std::optional<T>& o) {  // NOLINT
    if (o) *this = IValue(*o);
  }

  Tag tag() const { return static_cast<Tag>(v_.index()); }
  bool is_none() const { return tag() == Tag::None; }
  bool is_tensor() const { return tag() == Tag::Tensor; }
  bool is_tensor_list() const { return tag() == Tag::TensorList; }
  bool is_scalar() const { return tag() == Tag::Double || tag() == Tag::Int || tag() == Tag::Bool; }

  const Tensor& to_tensor() const { return get<Tensor>("Tensor"); }
  Tensor& to_tensor() { return std::get<Tensor>(v_); }
  double to_double() const;  // accepts Int and Bool too
  int64_t to_int() const;    // accepts Bool too
  bool to_bool() const { return get<bool>("bool"); }
  Scalar to_scalar() const;
  const std::string& to_string() const { return get<std::string>("str"); }
  const std::vector<int64_t>& to_int_list() const { return get<std::vector<int64_t>>("int[]"); }
  const std::vector<double>& to_double_list() const { return get<std::vector<double>>("float[]"); }
  const std::vector<Tensor>& to_tensor_list() const { return get<std::vector<Tensor>>("Tensor[]"); }
  ScalarType to_scalar_type() const { return get<ScalarType>("ScalarType"); }
  Device to_device() const { return get<Device>("Device"); }
  const Generator& to_generator() const { return get<Generator>("Generator"); }

  // Python-like text, used in traces and error messages: "None", "2", "2.5", "[1, 2]", "f32[2, 3]".
  std::string str() const;
  std::string_view tag_name() const;
  const Repr& repr() const { return v_; }

 private:
  template <typename T>
  const T& get(const char* what) const {
    if (auto* p = std::get_if<T>(&v_)) return *p;
    throw_wrong_type(what);
  }
  [[noreturn]] void throw_wrong_type(const char* expected) const;
  Repr v_;
};

// The boxed calling convention's stack: arguments in, returns out.
using Stack = std::vector<IValue>;

}  // namespace opscope
