// Linear algebra products: dot, vdot, mv, mm, bmm, their scaled-and-added forms addmv, addmm,
// baddbmm; outer / ger; linear; and matmul, which picks one of the products.
//
// Semantically each op contracts the last dim of its first operand with the first matrix dim of
// its second: dot (K)·(K) -> (), mv (M,K)·(K) -> (M), mm (M,K)·(K,N) -> (M,N), bmm the same per
// batch entry. Both operands must have the same dtype (no promotion, as in torch); a contraction
// over K = 0 gives zeros. matmul is numpy's matmul: it looks at the operands' dims and
// decomposes into the others, broadcasting batch dims — see Note [How matmul decomposes].
//
// In implementation terms, float32 / float64 run on OpenBLAS (cblas gemm / gemv / dot, through
// core/runtime/Blas.h, which picks the kernels for this CPU), reading
// transposed or row-strided operands in place through BLAS's trans / lda arguments and copying
// (clone) only operands BLAS cannot describe; the other dtypes run on opscope's own loops
// (accumulating float16 / bfloat16 in float, integers with wrap-around like torch).
//
//   Tensor a = ops::rand({2, 3}), b = ops::rand({3, 4});
//   Tensor c = ops::mm(a, b);                          // f32[2, 4]
//   Tensor d = ops::matmul(ops::rand({5, 2, 3}), b);   // f32[5, 2, 4]: one mm over 10 rows
//
// Note [How matmul decomposes]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Exactly as PyTorch 1.13's at::native::matmul, so that traces match torch's:
//   1-D · 1-D           dot
//   2-D · 1-D           mv
//   1-D · 2-D           unsqueeze(0), mm, squeeze(0)
//   2-D · 2-D           mm
//   N-D · 1-D or 2-D    (N >= 3) fold: reshape to (prod(batch) * n, k), mm / mv, _unsafe_view
//   1-D or 2-D · N-D    fold the transposed problem: transpose(-2, -1) (and t() for 2-D), reshape,
//                       mm / mv, _unsafe_view, then for a matrix transpose + contiguous
//   otherwise           broadcast the batch dims: expand, reshape to (B, n, m) each, bmm,
//                       _unsafe_view
// except that a 3-D · 2-D product whose operand is a batch of transposed matrices (strides
// (n*m, 1, n) with last stride != 1) is not folded, since folding would copy: it takes bmm.
//
// Note [How linear decomposes]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// As PyTorch 1.13's at::native::linear, so that traces match torch's:
//   2-D input with bias              t(weight), addmm(bias, input, weight^T)
//   contiguous 3-D input with bias   t(weight), view(input, (B*M, K)), addmm, view back
//   otherwise                        t(weight), matmul(input, weight^T), then add_(bias)
// linear.out: addmm.out for a 2-D input with bias; otherwise matmul, copy into out, add_(bias)
// (torch calls matmul.out there, which opscope does not have).
#pragma once

#include "core/dispatch/Op.h"
#include "core/runtime/Scalar.h"
#include "core/tensor/Tensor.h"

namespace opscope::ops {

// dot(Tensor self, Tensor tensor) -> Tensor
// self (K), tensor (K) -> ()
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> dot{"aten::dot"};
// dot.out(Tensor self, Tensor tensor, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&)> dot_out{"aten::dot.out"};

// vdot(Tensor self, Tensor other) -> Tensor
// self (K), other (K) -> (): conj(self) · other, which is dot for the real dtypes opscope has.
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> vdot{"aten::vdot"};

// mv(Tensor self, Tensor vec) -> Tensor
// self (M,K), vec (K) -> (M)
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> mv{"aten::mv"};
// mv.out(Tensor self, Tensor vec, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&)> mv_out{"aten::mv.out"};

// mm(Tensor self, Tensor mat2) -> Tensor
// self (M,K), mat2 (K,N) -> (M,N)
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> mm{"aten::mm"};
// mm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&)> mm_out{"aten::mm.out"};

// bmm(Tensor self, Tensor mat2) -> Tensor
// self (B,M,K), mat2 (B,K,N) -> (B,M,N), in mat2's dtype
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> bmm{"aten::bmm"};
// bmm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&)> bmm_out{"aten::bmm.out"};

// addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor
// self broadcastable to (M,N), mat1 (M,K), mat2 (K,N) -> beta * self + alpha * mat1 · mat2 (M,N).
// beta = 0 ignores self (NaN there does not propagate); K = 0 gives beta * self.
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&, Default<const Scalar&>,
                           Default<const Scalar&>)>
    addmm{"aten::addmm"};
// addmm.out(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1,
//           Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&, const Scalar&,
                           const Scalar&, const Tensor&)>
    addmm_out{"aten::addmm.out"};

// outer(Tensor self, Tensor vec2) -> Tensor
// self (M), vec2 (N) -> (M,N) = self.reshape(M, 1) * vec2, with mul's type promotion.
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> outer{"aten::outer"};
// outer.out(Tensor self, Tensor vec2, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&)> outer_out{
    "aten::outer.out"};

// matmul(Tensor self, Tensor other) -> Tensor
// (*b1, n, k) · (*b2, k, m) -> (broadcast(b1, b2), n, m); a 1-D operand loses its dim after.
// See Note [How matmul decomposes].
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> matmul{"aten::matmul"};

// einsum(str equation, Tensor[] tensors, *, int[]? path=None) -> Tensor
inline constexpr Op<Tensor(std::string_view, TensorList, Default<std::optional<IntArrayRef>>)>
    einsum{"aten::einsum"};

// tensordot(Tensor self, Tensor other, int[] dims_self, int[] dims_other) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&, IntArrayRef, IntArrayRef)> tensordot{
    "aten::tensordot"};
// tensordot.out(Tensor self, Tensor other, int[] dims_self, int[] dims_other, *,
//               Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&, const Tensor&, IntArrayRef, IntArrayRef)>
    tensordot_out{"aten::tensordot.out"};
// inner(Tensor self, Tensor other) -> Tensor
// (*A, k), (*B, k) -> (*A, *B): the sum over k of self's and other's last dims' products; a 0-d
// operand multiplies the other.
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> inner{"aten::inner"};

}  // namespace opscope::ops

namespace opscope::composite {
// (left * right).sum(sum_dims, keepdim=True) as one bmm (permute, reshape, bmm, view, permute):
// left and right of one rank, dims of size 1 broadcasting. torch 1.13's sumproduct_pair, which
// einsum (core/ops/composite/linear.cpp) and _trilinear (core/ops/composite/bilinear.cpp) call.
Tensor sumproduct_pair(const Tensor& left, const Tensor& right, IntArrayRef sum_dims);
}  // namespace opscope::composite
