// item: the value of a one-element tensor as a Scalar (equal, isclose and allclose are in
// core/ops/compare.h).
//
// Semantically item() reads the one element and returns it as a Scalar of the dtype's kind;
// it is an op (aten::item, CompositeImplicitAutograd over _local_scalar_dense, the CPU kernel).
//
//   double v = ops::item(ops::ones({1})).to_double();     // 1.0
#pragma once

#include "core/dispatch/Op.h"
#include "core/runtime/Scalar.h"
#include "core/tensor/Tensor.h"

namespace opscope::ops {

// item(Tensor self) -> Scalar
// The value of a one-element tensor: Int for integer dtypes, Bool for bool, Double otherwise.
Scalar item(const Tensor& self);
// _local_scalar_dense(Tensor self) -> Scalar          (the CPU kernel under item)
Scalar _local_scalar_dense(const Tensor& self);

}  // namespace opscope::ops
