// Backward ops: the gradients of views, as ops of their own (torch 1.13's select_backward,
// slice_backward, diagonal_backward, unfold_backward).
//
// Semantically each op is the adjoint of a view: it builds a zero tensor of the view's input shape
// and puts grad_output where the view read its elements (added up where unfold's windows
// overlap). They exist as ops, not as in-place writes inside a formula, so that a formula using
// them stays differentiable: each has a derivative entry of its own (SelectBackwardBackward0:
// grad.select(dim, index), ...), which is what double backward through indexing needs.
//
// In implementation terms they are CompositeExplicitAutograd kernels (zeros, the view, copy_ /
// add_), which run below autograd.
//
//   Tensor g = ops::ones({3});
//   Tensor z = ops::select_backward(g, {2, 3}, 0, 1);   // f32[2, 3]: row 1 is g, row 0 zeros
#pragma once

#include "core/dispatch/Op.h"
#include "core/tensor/Tensor.h"

namespace opscope::ops {

// select_backward(Tensor grad_output, SymInt[] input_sizes, int dim, SymInt index) -> Tensor
// grad_output (.., ..) -> input_sizes (.., n, ..), grad_output at index along dim.
inline constexpr Op<Tensor(const Tensor&, IntArrayRef, int64_t, int64_t)> select_backward{
    "aten::select_backward"};
// slice_backward(Tensor grad_output, SymInt[] input_sizes, int dim, SymInt start, SymInt end,
//                SymInt step) -> Tensor
// grad_output (.., k, ..) -> input_sizes (.., n, ..), grad_output at start:end:step along dim.
inline constexpr Op<Tensor(const Tensor&, IntArrayRef, int64_t, int64_t, int64_t, int64_t)>
    slice_backward{"aten::slice_backward"};
// diagonal_backward(Tensor grad_output, SymInt[] input_sizes, int offset, int dim1, int dim2)
//   -> Tensor
// grad_output (.., k) -> input_sizes, grad_output on the diagonal `offset` of (dim1, dim2).
inline constexpr Op<Tensor(const Tensor&, IntArrayRef, int64_t, int64_t, int64_t)>
    diagonal_backward{"aten::diagonal_backward"};
// unfold_backward(Tensor grad_in, SymInt[] input_sizes, int dim, int size, int step) -> Tensor
// grad_in (.., windows, .., size) -> input_sizes (.., n, ..): window w added at w * step.
inline constexpr Op<Tensor(const Tensor&, IntArrayRef, int64_t, int64_t, int64_t)> unfold_backward{
    "aten::unfold_backward"};

}  // namespace opscope::ops
