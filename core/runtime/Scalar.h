// Scalar: one number that is not (yet) a tensor — the `Scalar` of PyTorch's schemas.
//
// Semantically a Scalar is a Python number: bool, int or float. Its kind matters for type
// promotion (see Note [Type promotion]): `int_tensor + 2` stays integral, `int_tensor + 2.0` does
// not. In implementation terms it is a tagged union of bool / int64 / double.
#pragma once

#include <cstdint>
#include <string>

#include "core/runtime/ScalarType.h"

namespace opscope {

class Scalar {
 public:
  enum class Kind : uint8_t { Bool, Int, Double };

  Scalar() : Scalar(int64_t(0)) {}
  Scalar(bool v) : kind_(Kind::Bool) { i_ = v; }      // NOLINT
  Scalar(int v) : kind_(Kind::Int) { i_ = v; }        // NOLINT
  Scalar(int64_t v) : kind_(Kind::Int) { i_ = v; }    // NOLINT
  Scalar(double v) : kind_(Kind::Double) { d_ = v; }  // NOLINT
  Scalar(float v) : kind_(Kind::Double) { d_ = v; }   // NOLINT

  Kind kind() const { return kind_; }
  bool is_bool() const { return kind_ == Kind::Bool; }
  bool is_integral() const { return kind_ == Kind::Int; }  // not bool, as torch
  bool is_floating_point() const { return kind_ == Kind::Double; }

  double to_double() const { return kind_ == Kind::Double ? d_ : static_cast<double>(i_); }
  int64_t to_long() const { return kind_ == Kind::Double ? static_cast<int64_t>(d_) : i_; }
  bool to_bool() const { return kind_ == Kind::Double ? d_ != 0 : i_ != 0; }
  template <typename T>
  T to() const {
    if constexpr (std::is_same_v<T, bool>)
      return to_bool();
    else if constexpr (std::is_integral_v<T>)
      return static_cast<T>(to_long());
    else
      return static_cast<T>(static_cast<acc_type_t<T>>(to_double()));
  }

  // The dtype a Python number of this kind wraps to: Bool, Int64 or Float64.
  ScalarType type() const {
    return kind_ == Kind::Bool  ? ScalarType::Bool
           : kind_ == Kind::Int ? ScalarType::Int64
                                : ScalarType::Float64;
  }
  std::string str() const;  // like Python's repr: True, 3, 2.5

  friend bool operator==(const Scalar& a, const Scalar& b) {
    return a.kind_ == b.kind_ && (a.kind_ == Kind::Double ? a.d_ == b.d_ : a.i_ == b.i_);
  }

 private:
  Kind kind_;
  union {
    int64_t i_;
    double d_;
  };
};

}  // namespace opscope
