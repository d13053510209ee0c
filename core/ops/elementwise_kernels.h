// The elementwise family's kernels, for its Library blocks (core/ops/elementwise.cpp,
// elementwise_compare.cpp). Private to core/ops: callers use the ops:: entry points of
// core/ops/elementwise.h. Each kernel's C++ signature follows its schema (out= last).
#pragma once

#include "core/ops/binary.h"

namespace opscope {

namespace cpu {
// core/ops/cpu/elementwise.cpp
Tensor add(const Tensor& self, const Tensor& other, const Scalar& alpha);
Tensor add_(const Tensor& self, const Tensor& other, const Scalar& alpha);
Tensor add_out(const Tensor& self, const Tensor& other, const Scalar& alpha, const Tensor& out);
Tensor sub(const Tensor& self, const Tensor& other, const Scalar& alpha);
Tensor sub_(const Tensor& self, const Tensor& other, const Scalar& alpha);
Tensor sub_out(const Tensor& self, const Tensor& other, const Scalar& alpha, const Tensor& out);
Tensor rsub(const Tensor& self, const Tensor& other, const Scalar& alpha);
Tensor mul(const Tensor& self, const Tensor& other);
Tensor mul_(const Tensor& self, const Tensor& other);
Tensor mul_out(const Tensor& self, const Tensor& other, const Tensor& out);
Tensor div(const Tensor& self, const Tensor& other);
Tensor div_(const Tensor& self, const Tensor& other);
Tensor div_out(const Tensor& self, const Tensor& other, const Tensor& out);
Tensor div_mode(const Tensor& self, const Tensor& other, ops::RoundingMode rounding_mode);
Tensor div_mode_(const Tensor& self, const Tensor& other, ops::RoundingMode rounding_mode);
Tensor div_out_mode(const Tensor& self, const Tensor& other, ops::RoundingMode rounding_mode,
                    const Tensor& out);
Tensor neg(const Tensor& self);
Tensor neg_(const Tensor& self);
Tensor neg_out(const Tensor& self, const Tensor& out);
Tensor pow_tensor_tensor(const Tensor& self, const Tensor& exponent);
Tensor pow_tensor_scalar(const Tensor& self, const Scalar& exponent);
Tensor pow_scalar(const Scalar& self, const Tensor& exponent);
Tensor pow_scalar_(const Tensor& self, const Scalar& exponent);
Tensor pow_tensor_(const Tensor& self, const Tensor& exponent);
Tensor pow_tensor_tensor_out(const Tensor& self, const Tensor& exponent, const Tensor& out);
Tensor pow_tensor_scalar_out(const Tensor& self, const Scalar& exponent, const Tensor& out);
Tensor pow_scalar_out(const Scalar& self, const Tensor& exponent, const Tensor& out);

// core/ops/cpu/elementwise_compare.cpp
Tensor eq_tensor(const Tensor& self, const Tensor& other);
Tensor eq_scalar(const Tensor& self, const Scalar& other);
Tensor eq_tensor_(const Tensor& self, const Tensor& other);
Tensor eq_scalar_(const Tensor& self, const Scalar& other);
Tensor eq_tensor_out(const Tensor& self, const Tensor& other, const Tensor& out);
Tensor eq_scalar_out(const Tensor& self, const Scalar& other, const Tensor& out);
Tensor ne_tensor(const Tensor& self, const Tensor& other);
Tensor ne_scalar(const Tensor& self, const Scalar& other);
Tensor ne_tensor_(const Tensor& self, const Tensor& other);
Tensor ne_scalar_(const Tensor& self, const Scalar& other);
Tensor ne_tensor_out(const Tensor& self, const Tensor& other, const Tensor& out);
Tensor ne_scalar_out(const Tensor& self, const Scalar& other, const Tensor& out);
Tensor lt_tensor(const Tensor& self, const Tensor& other);
Tensor lt_scalar(const Tensor& self, const Scalar& other);
Tensor lt_tensor_(const Tensor& self, const Tensor& other);
Tensor lt_scalar_(const Tensor& self, const Scalar& other);
Tensor lt_tensor_out(const Tensor& self, const Tensor& other, const Tensor& out);
Tensor lt_scalar_out(const Tensor& self, const Scalar& other, const Tensor& out);
Tensor le_tensor(const Tensor& self, const Tensor& other);
Tensor le_scalar(const Tensor& self, const Scalar& other);
Tensor le_tensor_(const Tensor& self, const Tensor& other);
Tensor le_scalar_(const Tensor& self, const Scalar& other);
Tensor le_tensor_out(const Tensor& self, const Tensor& other, const Tensor& out);
Tensor le_scalar_out(const Tensor& self, const Scalar& other, const Tensor& out);
Tensor gt_tensor(const Tensor& self, const Tensor& other);
Tensor gt_scalar(const Tensor& self, const Scalar& other);
Tensor gt_tensor_(const Tensor& self, const Tensor& other);
Tensor gt_scalar_(const Tensor& self, const Scalar& other);
Tensor gt_tensor_out(const Tensor& self, const Tensor& other, const Tensor& out);
Tensor gt_scalar_out(const Tensor& self, const Scalar& other, const Tensor& out);
Tensor ge_tensor(const Tensor& self, const Tensor& other);
Tensor ge_scalar(const Tensor& self, const Scalar& other);
Tensor ge_tensor_(const Tensor& self, const Tensor& other);
Tensor ge_scalar_(const Tensor& self, const Scalar& other);
Tensor ge_tensor_out(const Tensor& self, const Tensor& other, const Tensor& out);
Tensor ge_scalar_out(const Tensor& self, const Scalar& other, const Tensor& out);
Tensor bitwise_and(const Tensor& self, const Tensor& other);
Tensor bitwise_and_(const Tensor& self, const Tensor& other);
Tensor bitwise_and_out(const Tensor& self, const Tensor& other, const Tensor& out);
Tensor bitwise_or(const Tensor& self, const Tensor& other);
Tensor bitwise_or_(const Tensor& self, const Tensor& other);
Tensor bitwise_or_out(const Tensor& self, const Tensor& other, const Tensor& out);
Tensor bitwise_xor(const Tensor& self, const Tensor& other);
Tensor bitwise_xor_(const Tensor& self, const Tensor& other);
Tensor bitwise_xor_out(const Tensor& self, const Tensor& other, const Tensor& out);
Tensor bitwise_not(const Tensor& self);
Tensor bitwise_not_(const Tensor& self);
Tensor bitwise_not_out(const Tensor& self, const Tensor& out);
}  // namespace cpu

namespace composite {
// core/ops/composite/elementwise.cpp: wrap the number, call the Tensor overload.
Tensor add_scalar(const Tensor& self, const Scalar& other, const Scalar& alpha);
Tensor add_scalar_(const Tensor& self, const Scalar& other, const Scalar& alpha);
Tensor sub_scalar(const Tensor& self, const Scalar& other, const Scalar& alpha);
Tensor sub_scalar_(const Tensor& self, const Scalar& other, const Scalar& alpha);
Tensor rsub_scalar(const Tensor& self, const Scalar& other, const Scalar& alpha);
Tensor mul_scalar(const Tensor& self, const Scalar& other);
Tensor mul_scalar_(const Tensor& self, const Scalar& other);
Tensor div_scalar(const Tensor& self, const Scalar& other);
Tensor div_scalar_(const Tensor& self, const Scalar& other);
Tensor div_scalar_mode(const Tensor& self, const Scalar& other, ops::RoundingMode rounding_mode);
Tensor div_scalar_mode_(const Tensor& self, const Scalar& other, ops::RoundingMode rounding_mode);
Tensor bitwise_and_scalar(const Tensor& self, const Scalar& other);
Tensor bitwise_and_scalar_tensor(const Scalar& self, const Tensor& other);
Tensor bitwise_and_scalar_(const Tensor& self, const Scalar& other);
Tensor bitwise_and_scalar_out(const Tensor& self, const Scalar& other, const Tensor& out);
Tensor bitwise_or_scalar(const Tensor& self, const Scalar& other);
Tensor bitwise_or_scalar_tensor(const Scalar& self, const Tensor& other);
Tensor bitwise_or_scalar_(const Tensor& self, const Scalar& other);
Tensor bitwise_or_scalar_out(const Tensor& self, const Scalar& other, const Tensor& out);
Tensor bitwise_xor_scalar(const Tensor& self, const Scalar& other);
Tensor bitwise_xor_scalar_tensor(const Scalar& self, const Tensor& other);
Tensor bitwise_xor_scalar_(const Tensor& self, const Scalar& other);
Tensor bitwise_xor_scalar_out(const Tensor& self, const Scalar& other, const Tensor& out);
}  // namespace composite

}  // namespace opscope
