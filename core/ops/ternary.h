// Ternary ops: three tensor operands combined elementwise by arithmetic, with a Scalar weight —
// addcmul and addcdiv, the optimizers' "add a scaled product / quotient" (ATen's PointwiseOps).
//
// Semantically
//   addcmul(self, tensor1, tensor2, value) = self + value * tensor1 * tensor2
//   addcdiv(self, tensor1, tensor2, value) = self + value * tensor1 / tensor2
// over the broadcast shape of the three operands, in their common dtype (Note [Type promotion] in
// core/runtime/ScalarType.h); value is converted to that dtype (0.5 becomes 0 for integers, as
// in torch). addcdiv refuses integer (or bool) tensor1 and tensor2 together: torch removed its
// integer division and has not given it true division yet, so it raises rather than guess. Each
// op has torch's three forms: functional, in place (`addcmul_`: the result must have self's shape
// and fit its dtype) and out= (resized to the broadcast shape).
//
// In implementation terms, as in PyTorch 1.13: one CPU kernel per op over a TensorIterator
// (core/ops/cpu/ternary.cpp) and one CUDA kernel (core/cuda/kernels/ternary.{cpp,cu}); the
// derivative is core/autograd/derivatives/ternary.cpp.
//
//   Tensor v = ops::zeros({3});
//   Tensor g = ops::arange(3.0);                          // f64[3]
//   ops::addcmul_(v, g, g, 0.1);                          // v += 0.1 * g * g (Adam's exp_avg_sq)
//   Tensor p = ops::addcdiv(v, g, ops::add(v, 1e-8), -1e-3);
#pragma once

#include "core/dispatch/Op.h"
#include "core/runtime/Scalar.h"
#include "core/tensor/Tensor.h"

namespace opscope::ops {

// addcmul(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&, Default<const Scalar&>)>
    addcmul{"aten::addcmul"};
// addcmul_(Tensor(a!) self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&, Default<const Scalar&>)>
    addcmul_{"aten::addcmul_"};
// addcmul.out(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1, Tensor(a!) out)
//   -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&, const Tensor&, const Tensor&,
                           Default<const Scalar&>)>
    addcmul_out{"aten::addcmul.out"};

// addcdiv(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&, Default<const Scalar&>)>
    addcdiv{"aten::addcdiv"};
// addcdiv_(Tensor(a!) self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&, Default<const Scalar&>)>
    addcdiv_{"aten::addcdiv_"};
// addcdiv.out(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1, Tensor(a!) out)
//   -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&, const Tensor&, const Tensor&,
                           Default<const Scalar&>)>
    addcdiv_out{"aten::addcdiv.out"};

}  // namespace opscope::ops
