// Tensor utilities that answer questions about tensors: equal, isclose, allclose, item.
//
// Semantically equal(a, b) is true when a and b have the same shape and every element compares
// equal (nan never does); isclose(a, b) is elementwise |a - b| <= atol + rtol * |b| (plus
// equality, and nan == nan when equal_nan), over the broadcast shape, for operands of one dtype;
// allclose is isclose(...).all() as a bool.
//
// In implementation terms, as torch 1.13: equal is a CPU kernel over a TensorIterator that stops
// at the first difference; isclose is CompositeImplicitAutograd (eq, sub, abs, mul, add, le,
// isfinite, bitwise ops), allclose CompositeExplicitAutograd over isclose + all.
//
//   ops::equal(ops::ones({2}), ops::ones({2}))           // true
//   ops::isclose(a, b, /*rtol=*/1e-5, /*atol=*/1e-8)     // b8[broadcast]
#pragma once

#include "core/dispatch/Op.h"
#include "core/runtime/Scalar.h"
#include "core/tensor/Tensor.h"

namespace opscope::ops {

// equal(Tensor self, Tensor other) -> bool
inline constexpr Op<bool(const Tensor&, const Tensor&)> equal{"aten::equal"};
// isclose(Tensor self, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False)
//     -> Tensor                                                   b8[broadcast(self, other)]
inline constexpr Op<Tensor(const Tensor&, const Tensor&, Default<double>, Default<double>,
                           Default<bool>)>
    isclose{"aten::isclose"};
// allclose(Tensor self, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False)
//     -> bool
inline constexpr Op<bool(const Tensor&, const Tensor&, Default<double>, Default<double>,
                         Default<bool>)>
    allclose{"aten::allclose"};

// item(Tensor self) -> Scalar
// The value of a one-element tensor: Int for integer dtypes, Bool for bool, Double otherwise.
Scalar item(const Tensor& self);
// _local_scalar_dense(Tensor self) -> Scalar          (the CPU kernel under item)
Scalar _local_scalar_dense(const Tensor& self);

}  // namespace opscope::ops
