// Joining, splitting and rearranging ops: cat / stack (and hstack, vstack, dstack, atleast_*),
// split / chunk / tensor_split, flip, roll, repeat / tile / repeat_interleave, tril / triu,
// diag / diag_embed.
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
#include <vector>

#include "core/dispatch/KernelFunction.h"
#include "core/tensor/Tensor.h"

namespace opscope::ops {

// --- joining -------------------------------------------------------------------------------

// cat(Tensor[] tensors, int dim=0) -> Tensor
// n tensors (.., k_i, ..) -> (.., sum k_i, ..), dtype result_type(tensors). 1-D tensors of
// size 0 are skipped (legacy behaviour); 0-d tensors are an error. The result is row-major,
// or channels_last when every input is laid out as channels_last (as torch).
Tensor cat(TensorList tensors, int64_t dim = 0);
// cat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)
Tensor cat_out(TensorList tensors, int64_t dim, const Tensor& out);
// concat(Tensor[] tensors, int dim=0) -> Tensor                            (alias of cat)
Tensor concat(TensorList tensors, int64_t dim = 0);
// concat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)
Tensor concat_out(TensorList tensors, int64_t dim, const Tensor& out);

// stack(Tensor[] tensors, int dim=0) -> Tensor
// n tensors (s) of one shape -> (.., n, ..) with n at dim, dim in [-(len(s)+1), len(s)].
Tensor stack(TensorList tensors, int64_t dim = 0);
// stack.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)
Tensor stack_out(TensorList tensors, int64_t dim, const Tensor& out);

// hstack(Tensor[] tensors) -> Tensor      cat along dim 1 (dim 0 when the inputs are 1-D)
Tensor hstack(TensorList tensors);
// hstack.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)
Tensor hstack_out(TensorList tensors, const Tensor& out);
// vstack(Tensor[] tensors) -> Tensor      atleast_2d, cat along dim 0
Tensor vstack(TensorList tensors);
// vstack.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)
Tensor vstack_out(TensorList tensors, const Tensor& out);
// dstack(Tensor[] tensors) -> Tensor      atleast_3d, cat along dim 2
Tensor dstack(TensorList tensors);
// dstack.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)
Tensor dstack_out(TensorList tensors, const Tensor& out);

// atleast_1d(Tensor self) -> Tensor       () -> (1); others unchanged
Tensor atleast_1d(const Tensor& self);
// atleast_2d(Tensor self) -> Tensor       () -> (1, 1); (n) -> (1, n)
Tensor atleast_2d(const Tensor& self);
// atleast_3d(Tensor self) -> Tensor       () -> (1,1,1); (n) -> (1,n,1); (m,n) -> (m,n,1)
Tensor atleast_3d(const Tensor& self);
// atleast_1d.Sequence(Tensor[] tensors) -> Tensor[]   (and _2d, _3d)
std::vector<Tensor> atleast_1d(TensorList tensors);
std::vector<Tensor> atleast_2d(TensorList tensors);
std::vector<Tensor> atleast_3d(TensorList tensors);

// --- splitting (views) ---------------------------------------------------------------------

// split.Tensor(Tensor(a -> *) self, int split_size, int dim=0) -> Tensor(a)[]
// (.., n, ..) -> ceil(n / split_size) views, the last one shorter when it does not divide.
std::vector<Tensor> split(const Tensor& self, int64_t split_size, int64_t dim = 0);
// split.sizes(Tensor(a -> *) self, int[] split_size, int dim=0) -> Tensor(a)[]
std::vector<Tensor> split(const Tensor& self, IntArrayRef split_size, int64_t dim = 0);
// split_with_sizes(Tensor(a -> *) self, int[] split_sizes, int dim=0) -> Tensor(a)[]
// (.., n, ..) -> views (.., k_i, ..); the k_i must sum to n.
std::vector<Tensor> split_with_sizes(const Tensor& self, IntArrayRef split_sizes, int64_t dim = 0);
// chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]
// split(self, ceil(n / chunks), dim): at most `chunks` views.
std::vector<Tensor> chunk(const Tensor& self, int64_t chunks, int64_t dim = 0);
// tensor_split.sections(Tensor(a -> *) self, int sections, int dim=0) -> Tensor(a)[]
// exactly `sections` views; the first n % sections are one longer.
std::vector<Tensor> tensor_split(const Tensor& self, int64_t sections, int64_t dim = 0);
// tensor_split.indices(Tensor(a -> *) self, int[] indices, int dim=0) -> Tensor(a)[]
// views [0, i0), [i0, i1), ..., [i_last, n), clamped like Python slices.
std::vector<Tensor> tensor_split(const Tensor& self, IntArrayRef indices, int64_t dim = 0);
// tensor_split.tensor_indices_or_sections(Tensor(a -> *) self, Tensor tensor_indices_or_sections,
//                                         int dim=0) -> Tensor(a)[]
// an int64 0-d tensor: sections; 1-D: indices.
std::vector<Tensor> tensor_split(const Tensor& self, const Tensor& tensor_indices_or_sections,
                                 int64_t dim = 0);

// --- rearranging ---------------------------------------------------------------------------

// flip(Tensor self, int[] dims) -> Tensor          element i of each listed dim <- n-1-i
Tensor flip(const Tensor& self, IntArrayRef dims);
// flip.out(Tensor self, int[] dims, *, Tensor(a!) out) -> Tensor(a!)
Tensor flip_out(const Tensor& self, IntArrayRef dims, const Tensor& out);
// fliplr(Tensor self) -> Tensor                    flip(self, {1}); needs >= 2 dims
Tensor fliplr(const Tensor& self);
// flipud(Tensor self) -> Tensor                    flip(self, {0}); needs >= 1 dim
Tensor flipud(const Tensor& self);

// roll(Tensor self, int[1] shifts, int[1] dims=[]) -> Tensor
// element i of dim d moves to (i + shift) mod n; no dims: roll the flattened tensor.
Tensor roll(const Tensor& self, IntArrayRef shifts, IntArrayRef dims = {});
// roll.out(Tensor self, int[1] shifts, int[1] dims=[], *, Tensor(a!) out) -> Tensor(a!)
Tensor roll_out(const Tensor& self, IntArrayRef shifts, IntArrayRef dims, const Tensor& out);

// repeat(Tensor self, SymInt[] repeats) -> Tensor
// (s) -> (r_0 * s'_0, ...), s' = s padded with leading 1s to len(repeats) >= self.dim().
Tensor repeat(const Tensor& self, IntArrayRef repeats);
// repeat.out(Tensor self, SymInt[] repeats, *, Tensor(a!) out) -> Tensor(a!)
Tensor repeat_out(const Tensor& self, IntArrayRef repeats, const Tensor& out);
// tile(Tensor self, int[] dims) -> Tensor          repeat, dims padded with leading 1s
Tensor tile(const Tensor& self, IntArrayRef dims);

// repeat_interleave.Tensor(Tensor repeats, *, int? output_size=None) -> Tensor
// repeats (n) of ints >= 0 -> (sum repeats): i repeated repeats[i] times.
Tensor repeat_interleave(const Tensor& repeats, std::optional<int64_t> output_size = {});
// repeat_interleave.self_Tensor(Tensor self, Tensor repeats, int? dim=None, *,
//                               int? output_size=None) -> Tensor
// along dim (of the flattened self when None), entry i repeated repeats[i] times.
Tensor repeat_interleave(const Tensor& self, const Tensor& repeats, std::optional<int64_t> dim = {},
                         std::optional<int64_t> output_size = {});
// repeat_interleave.self_int(Tensor self, int repeats, int? dim=None, *,
//                            int? output_size=None) -> Tensor
Tensor repeat_interleave(const Tensor& self, int64_t repeats, std::optional<int64_t> dim = {},
                         std::optional<int64_t> output_size = {});

// --- triangles and diagonals ---------------------------------------------------------------

// tril(Tensor self, int diagonal=0) -> Tensor
// (*, M, N): keeps (i, j) with j - i <= diagonal, zeros elsewhere.
Tensor tril(const Tensor& self, int64_t diagonal = 0);
// tril_(Tensor(a!) self, int diagonal=0) -> Tensor(a!)
Tensor tril_(const Tensor& self, int64_t diagonal = 0);
// tril.out(Tensor self, int diagonal=0, *, Tensor(a!) out) -> Tensor(a!)
Tensor tril_out(const Tensor& self, int64_t diagonal, const Tensor& out);
// triu(Tensor self, int diagonal=0) -> Tensor
// (*, M, N): keeps (i, j) with j - i >= diagonal, zeros elsewhere.
Tensor triu(const Tensor& self, int64_t diagonal = 0);
// triu_(Tensor(a!) self, int diagonal=0) -> Tensor(a!)
Tensor triu_(const Tensor& self, int64_t diagonal = 0);
// triu.out(Tensor self, int diagonal=0, *, Tensor(a!) out) -> Tensor(a!)
Tensor triu_out(const Tensor& self, int64_t diagonal, const Tensor& out);

// diag(Tensor self, int diagonal=0) -> Tensor
// (n) -> (n + |d|, n + |d|) with self on diagonal d;  (M, N) -> (its diagonal d).
Tensor diag(const Tensor& self, int64_t diagonal = 0);
// diag.out(Tensor self, int diagonal=0, *, Tensor(a!) out) -> Tensor(a!)
Tensor diag_out(const Tensor& self, int64_t diagonal, const Tensor& out);
// diag_embed(Tensor self, int offset=0, int dim1=-2, int dim2=-1) -> Tensor
// (*, n) -> (*, n + |o|, n + |o|) (the two new dims at dim1, dim2), self on their diagonal.
Tensor diag_embed(const Tensor& self, int64_t offset = 0, int64_t dim1 = -2, int64_t dim2 = -1);

}  // namespace opscope::ops
