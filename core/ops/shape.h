// Joining, splitting and rearranging ops: cat / stack (and hstack, vstack, dstack, atleast_*),
// split / chunk / tensor_split, flip, roll, repeat / tile / repeat_interleave, tril / triu,
// diag / diag_embed; and (core/ops/composite/shape_more.cpp) rot90, kron, block_diag, diagflat,
// column_stack / row_stack, hsplit / vsplit / dsplit, vander, combinations.
//
// Semantically every op here moves elements without computing new values (cat promotes its
// inputs to one dtype, torch's result_type, and tril / triu write zeros). The *splitting* ops
// (split, split_with_sizes, chunk, tensor_split) return views of self, like narrow; everything
// else returns new memory. See Note [Views share storage] in core/runtime/Storage.h.
//
// In implementation terms, as in PyTorch 1.13 (TensorShape.cpp, TensorTransformations.cpp,
// TriangularOps.cpp, Repeat.cpp): cat, flip, roll, tril / triu, diag.out and
// repeat_interleave.Tensor are CPU kernels (core/ops/cpu/shape.cpp); the others are
// decompositions (core/ops/composite/shape.cpp) into the ops torch calls, so traces match:
//   stack(ts, d)   d < dim: cat(ts, d) + view        d == dim: unsqueeze each + cat
//   hstack         atleast_1d + cat(dim 0 for 1-D inputs, else 1)
//   vstack         atleast_2d + cat(0)                dstack: atleast_3d + cat(2)
//   split          narrow per piece                   split_with_sizes: as_strided per piece
//   chunk          split (split_with_sizes for an empty dim)
//   tensor_split   slice per piece
//   repeat         expand, empty, alias, unfold per dim, expand_as, copy_;   tile: repeat
//   repeat_interleave(self, r, dim)   flatten when dim is None, index_select of
//                                     repeat_interleave(r) (the .Tensor overload)
//   roll(self, s, d)   several dims: one roll per dim; no dims: view(-1), roll, view
//   diag           empty + diag.out;                   diag_embed: zeros, diagonal, copy_
// Copies of contiguous runs (cat of contiguous inputs, repeat's inner rows) are memcpy's,
// split between threads with parallel_for when large.
//
//   Tensor a = ops::ones({2, 3}), b = ops::zeros({2, 3});
//   Tensor c = ops::cat(std::vector{a, b}, 1);        // f32[2, 6]
//   Tensor s = ops::stack(std::vector{a, b});         // f32[2, 2, 3]
//   auto parts = ops::split(c, 4, 1);                 // views f32[2, 4], f32[2, 2]
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "core/dispatch/KernelFunction.h"
#include "core/dispatch/Op.h"
#include "core/tensor/Tensor.h"

namespace opscope::ops {

// --- joining -------------------------------------------------------------------------------

// cat(Tensor[] tensors, int dim=0) -> Tensor
// n tensors (.., k_i, ..) -> (.., sum k_i, ..), dtype result_type(tensors). 1-D tensors of
// size 0 are skipped (legacy behaviour); 0-d tensors are an error. The result is row-major,
// or channels_last when every input is laid out as channels_last (as torch).
inline constexpr Op<Tensor(TensorList, Default<int64_t>)> cat{"aten::cat"};
// cat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(TensorList, int64_t, const Tensor&)> cat_out{"aten::cat.out"};

// stack(Tensor[] tensors, int dim=0) -> Tensor
// n tensors (s) of one shape -> (.., n, ..) with n at dim, dim in [-(len(s)+1), len(s)].
inline constexpr Op<Tensor(TensorList, Default<int64_t>)> stack{"aten::stack"};

// hstack(Tensor[] tensors) -> Tensor       cat along dim 1 (dim 0 for 1-D inputs)
inline constexpr Op<Tensor(TensorList)> hstack{"aten::hstack"};
// hstack.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, TensorList)> hstack_out{"aten::hstack.out"};
// vstack(Tensor[] tensors) -> Tensor       atleast_2d each, cat along dim 0
inline constexpr Op<Tensor(TensorList)> vstack{"aten::vstack"};
// vstack.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, TensorList)> vstack_out{"aten::vstack.out"};

// block_diag(Tensor[] tensors) -> Tensor
// [(m_i, n_i)] (a 0-d input is (1, 1), a 1-D (n) is (1, n)) -> (sum m_i, sum n_i), zeros off the
// diagonal blocks, dtype result_type(tensors); no tensors -> (1, 0).
inline constexpr Op<Tensor(TensorList)> block_diag{"aten::block_diag"};

// meshgrid(Tensor[] tensors) -> Tensor[]
// meshgrid.indexing(Tensor[] tensors, *, str indexing) -> Tensor[]
// [(n0), (n1), ...] -> each (n0, n1, ...) ("ij") or (n1, n0, ...) ("xy"): a view + expand.
inline constexpr Overloads meshgrid{
    Op<std::vector<Tensor>(TensorList)>{"aten::meshgrid"},
    Op<std::vector<Tensor>(TensorList, std::string_view)>{"aten::meshgrid.indexing"}};

// atleast_1d(Tensor self) -> Tensor       () -> (1); others unchanged
// atleast_1d.Sequence(Tensor[] tensors) -> Tensor[]   (and _2d, _3d)
inline constexpr Overloads atleast_1d{
    Op<Tensor(const Tensor&)>{"aten::atleast_1d"},
    Op<std::vector<Tensor>(TensorList)>{"aten::atleast_1d.Sequence"}};
// atleast_2d(Tensor self) -> Tensor       () -> (1, 1); (n) -> (1, n)
inline constexpr Overloads atleast_2d{
    Op<Tensor(const Tensor&)>{"aten::atleast_2d"},
    Op<std::vector<Tensor>(TensorList)>{"aten::atleast_2d.Sequence"}};
// atleast_3d(Tensor self) -> Tensor       () -> (1,1,1); (n) -> (1,n,1); (m,n) -> (m,n,1)
inline constexpr Overloads atleast_3d{
    Op<Tensor(const Tensor&)>{"aten::atleast_3d"},
    Op<std::vector<Tensor>(TensorList)>{"aten::atleast_3d.Sequence"}};

// --- splitting (views) ---------------------------------------------------------------------

// split.Tensor(Tensor(a -> *) self, int split_size, int dim=0) -> Tensor(a)[]
// (.., n, ..) -> ceil(n / split_size) views, the last one shorter when it does not divide.
// split.sizes(Tensor(a -> *) self, int[] split_size, int dim=0) -> Tensor(a)[]
inline constexpr Overloads split{
    Op<std::vector<Tensor>(const Tensor&, int64_t, Default<int64_t>)>{"aten::split.Tensor"},
    Op<std::vector<Tensor>(const Tensor&, IntArrayRef, Default<int64_t>)>{"aten::split.sizes"}};
// split_with_sizes(Tensor(a -> *) self, int[] split_sizes, int dim=0) -> Tensor(a)[]
// (.., n, ..) -> views (.., k_i, ..); the k_i must sum to n.
inline constexpr Op<std::vector<Tensor>(const Tensor&, IntArrayRef, Default<int64_t>)>
    split_with_sizes{"aten::split_with_sizes"};
// chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]
// split(self, ceil(n / chunks), dim): at most `chunks` views.
inline constexpr Op<std::vector<Tensor>(const Tensor&, int64_t, Default<int64_t>)> chunk{
    "aten::chunk"};
// tensor_split.sections(Tensor(a -> *) self, int sections, int dim=0) -> Tensor(a)[]
// exactly `sections` views; the first n % sections are one longer.
// tensor_split.indices(Tensor(a -> *) self, int[] indices, int dim=0) -> Tensor(a)[]
// views [0, i0), [i0, i1), ..., [i_last, n), clamped like Python slices.
// tensor_split.tensor_indices_or_sections(Tensor(a -> *) self, Tensor tensor_indices_or_sections,
//                                         int dim=0) -> Tensor(a)[]
// an int64 0-d tensor: sections; 1-D: indices.
inline constexpr Overloads tensor_split{
    Op<std::vector<Tensor>(const Tensor&, int64_t, Default<int64_t>)>{
        "aten::tensor_split.sections"},
    Op<std::vector<Tensor>(const Tensor&, IntArrayRef, Default<int64_t>)>{
        "aten::tensor_split.indices"},
    Op<std::vector<Tensor>(const Tensor&, const Tensor&, Default<int64_t>)>{
        "aten::tensor_split.tensor_indices_or_sections"}};

// --- rearranging ---------------------------------------------------------------------------

// flip(Tensor self, int[] dims) -> Tensor          element i of each listed dim <- n-1-i
inline constexpr Op<Tensor(const Tensor&, IntArrayRef)> flip{"aten::flip"};

// roll(Tensor self, int[1] shifts, int[1] dims=[]) -> Tensor
// element i of dim d moves to (i + shift) mod n; no dims: roll the flattened tensor.
inline constexpr Op<Tensor(const Tensor&, IntArrayRef, Default<IntArrayRef>)> roll{"aten::roll"};

// rot90(Tensor self, int k=1, int[] dims=[0,1]) -> Tensor
// k quarter turns of the plane (dims[0], dims[1]), from dims[0] towards dims[1]: k = 1 maps
// (.., n0, .., n1, ..) to (.., n1, .., n0, ..). New memory (a clone for k % 4 == 0).
inline constexpr Op<Tensor(const Tensor&, Default<int64_t>, Default<IntArrayRef>)> rot90{
    "aten::rot90"};

// kron(Tensor self, Tensor other) -> Tensor
// self (a_0, .., a_k), other (b_0, .., b_k) (the shorter padded with leading 1s)
// -> (a_0 * b_0, .., a_k * b_k); block (i_0, .., i_k) is self[i_0, .., i_k] * other.
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> kron{"aten::kron"};

// repeat(Tensor self, SymInt[] repeats) -> Tensor
// (s) -> (r_0 * s'_0, ...), s' = s padded with leading 1s to len(repeats) >= self.dim().
inline constexpr Op<Tensor(const Tensor&, IntArrayRef)> repeat{"aten::repeat"};

// repeat_interleave.Tensor(Tensor repeats, *, int? output_size=None) -> Tensor
// repeats (n) of ints >= 0 -> (sum repeats): i repeated repeats[i] times.
// repeat_interleave.self_Tensor(Tensor self, Tensor repeats, int? dim=None, *,
//                               int? output_size=None) -> Tensor
// along dim (of the flattened self when None), entry i repeated repeats[i] times.
// repeat_interleave.self_int(Tensor self, int repeats, int? dim=None, *,
//                            int? output_size=None) -> Tensor
inline constexpr Overloads repeat_interleave{
    Op<Tensor(const Tensor&, Default<std::optional<int64_t>>)>{"aten::repeat_interleave.Tensor"},
    Op<Tensor(const Tensor&, const Tensor&, Default<std::optional<int64_t>>,
              Default<std::optional<int64_t>>)>{"aten::repeat_interleave.self_Tensor"},
    Op<Tensor(const Tensor&, int64_t, Default<std::optional<int64_t>>,
              Default<std::optional<int64_t>>)>{"aten::repeat_interleave.self_int"}};

// --- triangles and diagonals ---------------------------------------------------------------

// tril(Tensor self, int diagonal=0) -> Tensor
// (*, M, N): keeps (i, j) with j - i <= diagonal, zeros elsewhere.
inline constexpr Op<Tensor(const Tensor&, Default<int64_t>)> tril{"aten::tril"};
// triu(Tensor self, int diagonal=0) -> Tensor
// (*, M, N): keeps (i, j) with j - i >= diagonal, zeros elsewhere.
inline constexpr Op<Tensor(const Tensor&, Default<int64_t>)> triu{"aten::triu"};

// diag(Tensor self, int diagonal=0) -> Tensor
// (n) -> (n + |d|, n + |d|) with self on diagonal d; (M, N) -> (its diagonal d)
inline constexpr Op<Tensor(const Tensor&, Default<int64_t>)> diag{"aten::diag"};

// diag.out(Tensor self, int diagonal=0, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&, int64_t, const Tensor&)> diag_out{"aten::diag.out"};

}  // namespace opscope::ops
