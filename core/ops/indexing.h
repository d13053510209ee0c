// Indexing ops: advanced indexing (index, index_put_), the per-dim gathers and scatters
// (index_select, gather, scatter, scatter_add, index_add_, index_fill_), the mask ops
// (masked_fill_, masked_select, masked_scatter_, nonzero, argwhere) and the flat ones (take, put_).
//
// Semantically every op here reads or writes elements of `self` at positions named by *index
// tensors* rather than by a view's strides, so the result is a copy (reads) or the write goes to
// self's memory element by element (writes). Three ways of naming positions:
//   - one index per element along one dim:   index_select / index_add_ / index_fill_ (1-D index),
//                                            gather / scatter (index shaped like the result);
//   - numpy advanced indexing:                index(self, [i0, None, i2]) == self[i0, :, i2],
//                                            see Note [Advanced indexing];
//   - a bool mask shaped like (a prefix of) self: masked_*, nonzero, and masks inside `index`.
// Index tensors are int64 (index_select and index_add_ also take int32; `index` takes int64,
// bool and uint8, as torch 1.13). An index outside [-size, size) is an IndexError for `index`,
// index_select and take, a RuntimeError for gather / scatter — the same types as torch.
//
// Note [Advanced indexing]
// ~~~~~~~~~~~~~~~~~~~~~~~~
// index(self, indices) takes one optional index tensor per leading dim of self (None = the whole
// dim, like `:`). A bool or uint8 mask stands for as many dims as it has, and is replaced by its
// nonzero() columns first. The defined index tensors broadcast together to a shape B; the
// result is self with the indexed dims replaced by B:
//   - where the indexed dims are adjacent, B takes their place:
//       self (5, 6, 7, 8), indices [None, (2,3), (3,), None]  -> (5, 2, 3, 8)
//   - where a None separates them, B moves to the front:
//       self (5, 6, 7, 8), indices [(4,), None, (4,)]         -> (4, 6, 8)
// index_put_(self, indices, values) writes values (broadcast to that result shape) to those
// positions; with accumulate=True repeated positions add up.
//
// In implementation terms (core/ops/cpu/indexing.cpp) each defined index becomes an element
// offset into self (index * stride of its dim, summed over the indexed dims) for every position
// of B; the non-indexed dims form a block that is copied (or added) per offset — one element
// for a mask over all of self's dims, a memcpy when the block is contiguous.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "core/dispatch/KernelFunction.h"
#include "core/tensor/Tensor.h"

namespace opscope::ops {

// index.Tensor(Tensor self, Tensor?[] indices) -> Tensor
// self (*s), indices: see Note [Advanced indexing]
Tensor index(const Tensor& self, TensorList indices);
// index.Tensor_out(Tensor self, Tensor?[] indices, *, Tensor(a!) out) -> Tensor(a!)
Tensor index_out(const Tensor& self, TensorList indices, const Tensor& out);

// index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False) ->
// Tensor(a!) self[indices] = values (values broadcast to the shape index(self, indices) would have)
Tensor index_put_(const Tensor& self, TensorList indices, const Tensor& values,
                  bool accumulate = false);
// index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor
Tensor index_put(const Tensor& self, TensorList indices, const Tensor& values,
                 bool accumulate = false);
// _index_put_impl_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False,
//                  bool unsafe=False) -> Tensor(a!)
Tensor _index_put_impl_(const Tensor& self, TensorList indices, const Tensor& values,
                        bool accumulate = false, bool unsafe = false);

// index_select(Tensor self, int dim, Tensor index) -> Tensor
// self (.., n, ..), index (k) int64/int32 -> (.., k, ..)
Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index);
// index_select.out(Tensor self, int dim, Tensor index, *, Tensor(a!) out) -> Tensor(a!)
Tensor index_select_out(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& out);

// gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor
// self (*s), index (*i) int64, same ndim, i[d] <= s[d] for d != dim -> (*i):
//   out[i0..][j][..] = self[i0..][index[i0..][j][..]][..]
Tensor gather(const Tensor& self, int64_t dim, const Tensor& index, bool sparse_grad = false);
// gather.out(Tensor self, int dim, Tensor index, *, bool sparse_grad=False, Tensor(a!) out) ->
// Tensor(a!)
Tensor gather_out(const Tensor& self, int64_t dim, const Tensor& index, bool sparse_grad,
                  const Tensor& out);

// scatter_.src(Tensor(a!) self, int dim, Tensor index, Tensor src) -> Tensor(a!)
// self (*s), index (*i) int64, src (*r) with i[d] <= r[d]:
//   self[..][index[..][j][..]][..] = src[..][j][..]   for every position of index
Tensor scatter_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
// scatter_.value(Tensor(a!) self, int dim, Tensor index, Scalar value) -> Tensor(a!)
Tensor scatter_(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value);
// scatter.src(Tensor self, int dim, Tensor index, Tensor src) -> Tensor
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
// scatter.value(Tensor self, int dim, Tensor index, Scalar value) -> Tensor
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value);
// scatter.reduce(Tensor self, int dim, Tensor index, Tensor src, *, str reduce) -> Tensor
// reduce: "add" or "multiply" — combine with the element already there
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
               std::string_view reduce);
// scatter_add_(Tensor(a!) self, int dim, Tensor index, Tensor src) -> Tensor(a!)
Tensor scatter_add_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
// scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor
Tensor scatter_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);

// index_add_(Tensor(a!) self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) ->
// Tensor(a!) self (.., n, ..), index (k), source (.., k, ..): self[.., index[j], ..] += alpha *
// source[.., j, ..]
Tensor index_add_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                  const Scalar& alpha = 1);
// index_add(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor
Tensor index_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                 const Scalar& alpha = 1);
// index_fill.int_Scalar(Tensor self, int dim, Tensor index, Scalar value) -> Tensor
Tensor index_fill(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value);
// index_fill_.int_Scalar(Tensor(a!) self, int dim, Tensor index, Scalar value) -> Tensor(a!)
// self (.., n, ..), index (k): self[.., index[j], ..] = value
Tensor index_fill_(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value);

// masked_fill_.Scalar(Tensor(a!) self, Tensor mask, Scalar value) -> Tensor(a!)
// self (*s), mask broadcastable to (*s), bool (or deprecated uint8): self[mask] = value
Tensor masked_fill_(const Tensor& self, const Tensor& mask, const Scalar& value);
// masked_fill_.Tensor(Tensor(a!) self, Tensor mask, Tensor value) -> Tensor(a!)   (value 0-d)
Tensor masked_fill_(const Tensor& self, const Tensor& mask, const Tensor& value);
// masked_fill.Scalar(Tensor self, Tensor mask, Scalar value) -> Tensor
Tensor masked_fill(const Tensor& self, const Tensor& mask, const Scalar& value);
// masked_fill.Tensor(Tensor self, Tensor mask, Tensor value) -> Tensor
Tensor masked_fill(const Tensor& self, const Tensor& mask, const Tensor& value);
// masked_select(Tensor self, Tensor mask) -> Tensor
// self, mask broadcast together to (*b) -> (count of true in the broadcast mask)
Tensor masked_select(const Tensor& self, const Tensor& mask);
// masked_scatter_(Tensor(a!) self, Tensor mask, Tensor source) -> Tensor(a!)
// self (*s), mask broadcastable to (*s), source with >= count(mask) elements: the true positions
// of self, in row-major order, take source's first elements
Tensor masked_scatter_(const Tensor& self, const Tensor& mask, const Tensor& source);
// masked_scatter(Tensor self, Tensor mask, Tensor source) -> Tensor
Tensor masked_scatter(const Tensor& self, const Tensor& mask, const Tensor& source);

// nonzero(Tensor self) -> Tensor
// self (*s) -> int64 (n, len(s)): the coordinates of the n nonzero elements, row-major order
Tensor nonzero(const Tensor& self);
// nonzero.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
Tensor nonzero_out(const Tensor& self, const Tensor& out);
// nonzero_numpy(Tensor self) -> Tensor[]
// self (*s) -> len(s) tensors int64 (n): nonzero's columns (torch.nonzero(as_tuple=True))
std::vector<Tensor> nonzero_numpy(const Tensor& self);
// argwhere(Tensor self) -> Tensor    (nonzero)
Tensor argwhere(const Tensor& self);

// take(Tensor self, Tensor index) -> Tensor
// self (*s) read as flat (numel), index (*i) int64 -> (*i)
Tensor take(const Tensor& self, const Tensor& index);
// put_(Tensor(a!) self, Tensor index, Tensor source, bool accumulate=False) -> Tensor(a!)
// self read as flat, index (*i), source with numel(i) elements: self.flat[index] = source
Tensor put_(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate = false);
// put(Tensor self, Tensor index, Tensor source, bool accumulate=False) -> Tensor
Tensor put(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate = false);

}  // namespace opscope::ops
