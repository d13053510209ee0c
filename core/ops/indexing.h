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
#include "core/dispatch/Op.h"
#include "core/tensor/Tensor.h"

namespace opscope::ops {

// index.Tensor(Tensor self, Tensor?[] indices) -> Tensor
// self (*s), indices: see Note [Advanced indexing]
inline constexpr Op<Tensor(const Tensor&, TensorList)> index{"aten::index.Tensor"};

// index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False) ->
// Tensor(a!) self[indices] = values (values broadcast to the shape index(self, indices) would have)
inline constexpr Op<Tensor(const Tensor&, TensorList, const Tensor&, Default<bool>)> index_put_{
    "aten::index_put_"};
// index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor
inline constexpr Op<Tensor(const Tensor&, TensorList, const Tensor&, Default<bool>)> index_put{
    "aten::index_put"};
// _index_put_impl_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False,
//                  bool unsafe=False) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&, TensorList, const Tensor&, Default<bool>, Default<bool>)>
    _index_put_impl_{"aten::_index_put_impl_"};

// index_select(Tensor self, int dim, Tensor index) -> Tensor
// self (.., n, ..), index (k) int64/int32 -> (.., k, ..)
inline constexpr Op<Tensor(const Tensor&, int64_t, const Tensor&)> index_select{
    "aten::index_select"};

// gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor
// self (*s), index (*i) int64, same ndim, i[d] <= s[d] for d != dim -> (*i):
//   out[i0..][j][..] = self[i0..][index[i0..][j][..]][..]
inline constexpr Op<Tensor(const Tensor&, int64_t, const Tensor&, Default<bool>)> gather{
    "aten::gather"};

// scatter_.src(Tensor(a!) self, int dim, Tensor index, Tensor src) -> Tensor(a!)
// self (*s), index (*i) int64, src (*r) with i[d] <= r[d]:
//   self[..][index[..][j][..]][..] = src[..][j][..]   for every position of index
// scatter_.value(Tensor(a!) self, int dim, Tensor index, Scalar value) -> Tensor(a!)
inline constexpr Overloads scatter_{
    Op<Tensor(const Tensor&, int64_t, const Tensor&, const Tensor&)>{"aten::scatter_.src"},
    Op<Tensor(const Tensor&, int64_t, const Tensor&, const Scalar&)>{"aten::scatter_.value"}};
// scatter.src(Tensor self, int dim, Tensor index, Tensor src) -> Tensor
// scatter.value(Tensor self, int dim, Tensor index, Scalar value) -> Tensor
// scatter.reduce(Tensor self, int dim, Tensor index, Tensor src, *, str reduce) -> Tensor
// reduce: "add" or "multiply" — combine with the element already there
inline constexpr Overloads scatter{
    Op<Tensor(const Tensor&, int64_t, const Tensor&, const Tensor&)>{"aten::scatter.src"},
    Op<Tensor(const Tensor&, int64_t, const Tensor&, const Scalar&)>{"aten::scatter.value"},
    Op<Tensor(const Tensor&, int64_t, const Tensor&, const Tensor&, std::string_view)>{
        "aten::scatter.reduce"}};
// scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor
inline constexpr Op<Tensor(const Tensor&, int64_t, const Tensor&, const Tensor&)> scatter_add{
    "aten::scatter_add"};
// scatter_add_(Tensor(a!) self, int dim, Tensor index, Tensor src) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&, int64_t, const Tensor&, const Tensor&)> scatter_add_{
    "aten::scatter_add_"};

// index_add(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor
inline constexpr Op<Tensor(const Tensor&, int64_t, const Tensor&, const Tensor&,
                           Default<const Scalar&>)>
    index_add{"aten::index_add"};
// index_add_(Tensor(a!) self, int dim, Tensor index, Tensor source, *, Scalar alpha=1)
//     -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&, int64_t, const Tensor&, const Tensor&,
                           Default<const Scalar&>)>
    index_add_{"aten::index_add_"};
// index_fill.int_Scalar(Tensor self, int dim, Tensor index, Scalar value) -> Tensor
inline constexpr Op<Tensor(const Tensor&, int64_t, const Tensor&, const Scalar&)> index_fill{
    "aten::index_fill.int_Scalar"};
// index_fill_.int_Scalar(Tensor(a!) self, int dim, Tensor index, Scalar value) -> Tensor(a!)
// self (.., n, ..), index (k): self[.., index[j], ..] = value
inline constexpr Op<Tensor(const Tensor&, int64_t, const Tensor&, const Scalar&)> index_fill_{
    "aten::index_fill_.int_Scalar"};

// masked_fill_.Scalar(Tensor(a!) self, Tensor mask, Scalar value) -> Tensor(a!)
// self (*s), mask broadcastable to (*s), bool (or deprecated uint8): self[mask] = value
// masked_fill_.Tensor(Tensor(a!) self, Tensor mask, Tensor value) -> Tensor(a!)   (value 0-d)
inline constexpr Overloads masked_fill_{
    Op<Tensor(const Tensor&, const Tensor&, const Scalar&)>{"aten::masked_fill_.Scalar"},
    Op<Tensor(const Tensor&, const Tensor&, const Tensor&)>{"aten::masked_fill_.Tensor"}};
// masked_fill.Scalar(Tensor self, Tensor mask, Scalar value) -> Tensor
// masked_fill.Tensor(Tensor self, Tensor mask, Tensor value) -> Tensor
inline constexpr Overloads masked_fill{
    Op<Tensor(const Tensor&, const Tensor&, const Scalar&)>{"aten::masked_fill.Scalar"},
    Op<Tensor(const Tensor&, const Tensor&, const Tensor&)>{"aten::masked_fill.Tensor"}};
// masked_select(Tensor self, Tensor mask) -> Tensor
// self, mask broadcast together to (*b) -> (count of true in the broadcast mask)
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> masked_select{"aten::masked_select"};
// masked_scatter_(Tensor(a!) self, Tensor mask, Tensor source) -> Tensor(a!)
// self (*s), mask broadcastable to (*s), source with >= count(mask) elements: the true positions
// of self, in row-major order, take source's first elements
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&)> masked_scatter_{
    "aten::masked_scatter_"};
// masked_scatter(Tensor self, Tensor mask, Tensor source) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&)> masked_scatter{
    "aten::masked_scatter"};

// nonzero(Tensor self) -> Tensor
// self (*s) -> int64 (n, len(s)): the coordinates of the n nonzero elements, row-major order
inline constexpr Op<Tensor(const Tensor&)> nonzero{"aten::nonzero"};
// nonzero_numpy(Tensor self) -> Tensor[]
// self (*s) -> len(s) tensors int64 (n): nonzero's columns (torch.nonzero(as_tuple=True))
inline constexpr Op<std::vector<Tensor>(const Tensor&)> nonzero_numpy{"aten::nonzero_numpy"};

// take(Tensor self, Tensor index) -> Tensor
// self (*s) read as flat (numel), index (*i) int64 -> (*i)
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> take{"aten::take"};
// put_(Tensor(a!) self, Tensor index, Tensor source, bool accumulate=False) -> Tensor(a!)
// self read as flat, index (*i), source with numel(i) elements: self.flat[index] = source
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&, Default<bool>)> put_{
    "aten::put_"};
// put(Tensor self, Tensor index, Tensor source, bool accumulate=False) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&, Default<bool>)> put{
    "aten::put"};

}  // namespace opscope::ops
