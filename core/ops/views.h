// View and shape ops: view, reshape, as_strided, transpose, permute, expand, select, slice, ...
//
// Semantically every op here returns a tensor that reads the *same elements* as `self`, arranged
// differently: a view is a new (sizes, strides, storage_offset) over self's storage, so writing
// through the view writes self, and self's memory lives as long as any view of it. See Note
// [Views share storage] in core/runtime/Storage.h. Only `reshape` and `flatten` (which calls it)
// may copy, and only when no strides can express the new shape over the old elements;
// `_unsafe_view` aliases a tensor without marking it a view (reshape uses it on its fresh copy).
//
// In implementation terms, as in PyTorch 1.13: `view`, `_reshape_alias`, `_unsafe_view` and
// `alias` build their result directly (make_view); every other view kernel computes the new
// geometry and calls `as_strided`, which checks it against the storage — so the trace shows
// `transpose -> as_strided`, exactly as torch's profiler does. Ops defined by other ops (reshape,
// flatten, narrow, movedim, view_as, ...) are CompositeImplicitAutograd; the rest are
// CompositeExplicitAutograd, one kernel for every backend.
//
// Strides of the common views, for a tensor with sizes s and strides st (element counts):
//   transpose(d0, d1):  swap s[d0]/s[d1] and st[d0]/st[d1]
//   select(d, i):       drop dim d, offset += i * st[d]
//   slice(d, a, b, k):  s[d] = ceil((b - a) / k), st[d] *= k, offset += a * st[d]
//   expand:             a dim of size 1 (or a new leading dim) gets stride 0
//   unsqueeze(d):       new size 1 with stride s[d] * st[d] (1 at the end)
//   diagonal(o, d1, d2): drop d1, d2; append size n with stride st[d1] + st[d2]
//
// Worked example (run by tests/cpp/test_views.cpp):
//   Tensor a = ops::zeros({2, 3});        // f32[2, 3], strides [3, 1]   (core/ops/factories.h)
//   Tensor t = ops::transpose(a, 0, 1);   // f32[3, 2], strides [1, 3], same storage
//   Tensor r = ops::reshape(t, {6});      // not viewable: a contiguous copy (clone + _unsafe_view)
//   Tensor v = ops::view(a, {3, -1});     // f32[3, 2], strides [2, 1], same storage
#pragma once

#include <optional>
#include <vector>

#include "core/dispatch/Op.h"
#include "core/tensor/Tensor.h"

namespace opscope {

// --- shape arithmetic shared with other families -------------------------------------------

// `shape` with its one -1 replaced so that it holds `numel` elements (torch's infer_size).
// Errors: "only one dimension can be inferred", "invalid shape dimension -2",
// "shape '[4, 5]' is invalid for input of size 6", and for -1 next to a 0 in an empty tensor
// "cannot reshape tensor of 0 elements into shape [-1, 0] because ...".
DimVector infer_size(IntArrayRef shape, int64_t numel);

// Strides that let a tensor of (oldshape, oldstride) be read as newshape without moving an
// element, or nullopt when none exist (torch's computeStride). newshape must hold as many
// elements as oldshape.
//
// Note [Which views are possible]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Split the old dims into *chunks*: maximal runs of dims that are contiguous with each other
// (st[d] == s[d+1] * st[d+1], size-1 dims joining any chunk). Within one chunk the elements are
// evenly spaced, so it may be re-split into any dims whose sizes multiply to the chunk's numel,
// each stride a multiple of the chunk's innermost one. A new dim that would need elements from
// two chunks ("spans across two contiguous subspaces") has no stride: view fails, reshape copies.
std::optional<DimVector> compute_stride(IntArrayRef oldshape, IntArrayRef oldstride,
                                        IntArrayRef newshape);

// --- ops ----------------------------------------------------------------------------------
// Each schema is PyTorch 1.13's; C++ callers write sizes as braced lists: ops::view(t, {2, 3}).
namespace ops {

// view(Tensor(a) self, SymInt[] size) -> Tensor(a)
// self (numel N) -> size (N elements, one -1 inferred); fails when not expressible by strides.
inline constexpr Op<Tensor(const Tensor&, IntArrayRef)> view{"aten::view"};

// reshape(Tensor(a) self, SymInt[] shape) -> Tensor(a)
// Like view when compute_stride succeeds (via _reshape_alias); else clone + _unsafe_view.
inline constexpr Op<Tensor(const Tensor&, IntArrayRef)> reshape{"aten::reshape"};

// _reshape_alias(Tensor(a) self, SymInt[] size, SymInt[] stride) -> Tensor(a)
// The view reshape takes, with the strides it already computed; no checks.
inline constexpr Op<Tensor(const Tensor&, IntArrayRef, IntArrayRef)> _reshape_alias{
    "aten::_reshape_alias"};

// _unsafe_view(Tensor self, SymInt[] size) -> Tensor
// view's geometry, but the result is not recorded as a view (reshape's fresh copy).
inline constexpr Op<Tensor(const Tensor&, IntArrayRef)> _unsafe_view{"aten::_unsafe_view"};

// as_strided(Tensor(a) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None)
//   -> Tensor(a)
// Any geometry inside self's storage; offset None keeps self's. Strides must be >= 0.
inline constexpr Op<Tensor(const Tensor&, IntArrayRef, IntArrayRef,
                           Default<std::optional<int64_t>>)>
    as_strided{"aten::as_strided"};

// alias(Tensor(a) self) -> Tensor(a)
// A new tensor with self's geometry over self's storage.
inline constexpr Op<Tensor(const Tensor&)> alias{"aten::alias"};

// transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)
// (.., a, .., b, ..) -> (.., b, .., a, ..); alias when dim0 == dim1.
inline constexpr Op<Tensor(const Tensor&, int64_t, int64_t)> transpose{"aten::transpose.int"};

// t(Tensor(a) self) -> Tensor(a)
// (M, N) -> (N, M); 0-d and 1-d unchanged.
inline constexpr Op<Tensor(const Tensor&)> t{"aten::t"};
// mT(Tensor(a) self) -> Tensor(a): the last two dims swapped (Tensor.mT)
inline constexpr Op<Tensor(const Tensor&)> mT{"aten::mT"};

// permute(Tensor(a) self, int[] dims) -> Tensor(a)
// out.size(i) = self.size(dims[i]).
inline constexpr Op<Tensor(const Tensor&, IntArrayRef)> permute{"aten::permute"};

// squeeze(Tensor(a) self) -> Tensor(a)
// drops every dim of size 1: (1, 3, 1) -> (3).
// squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)
// drops dim if its size is 1: (1, 3).squeeze(0) -> (3); (1, 3).squeeze(1) -> (1, 3).
inline constexpr Overloads squeeze{Op<Tensor(const Tensor&)>{"aten::squeeze"},
                                   Op<Tensor(const Tensor&, int64_t)>{"aten::squeeze.dim"}};

// unsqueeze(Tensor(a) self, int dim) -> Tensor(a)
// (2, 3).unsqueeze(1) -> (2, 1, 3); dim in [-dim()-1, dim()].
inline constexpr Op<Tensor(const Tensor&, int64_t)> unsqueeze{"aten::unsqueeze"};
// unsqueeze_ / squeeze_.dim(Tensor(a!) self, int dim), transpose_(Tensor(a!) self, int dim0,
// int dim1) -> Tensor(a!): the same, on self's own geometry
inline constexpr Op<Tensor(const Tensor&, int64_t)> unsqueeze_{"aten::unsqueeze_"};
inline constexpr Op<Tensor(const Tensor&, int64_t)> squeeze_{"aten::squeeze_.dim"};
inline constexpr Op<Tensor(const Tensor&, int64_t, int64_t)> transpose_{"aten::transpose_"};
// broadcast_tensors(Tensor[] tensors) -> Tensor[]: each expanded to their common shape
inline constexpr Op<std::vector<Tensor>(TensorList)> broadcast_tensors{"aten::broadcast_tensors"};

// expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a)
// (3) -> (2, 3): size-1 and new leading dims get stride 0; -1 keeps a size.
inline constexpr Op<Tensor(const Tensor&, IntArrayRef, Default<bool>)> expand{"aten::expand"};

// broadcast_to(Tensor(a) self, int[] size) -> Tensor(a): expand to size.
inline constexpr Op<Tensor(const Tensor&, IntArrayRef)> broadcast_to{"aten::broadcast_to"};
// expand_as(Tensor(a) self, Tensor other) -> Tensor(a)
// expand(self, other.sizes()).
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> expand_as{"aten::expand_as"};

// view_as(Tensor(a) self, Tensor other) -> Tensor(a)
// view(self, other.sizes()).
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> view_as{"aten::view_as"};

// narrow(Tensor(a) self, int dim, int start, int length) -> Tensor(a)
// slice(self, dim, start, start + length); start may be negative.
inline constexpr Op<Tensor(const Tensor&, int64_t, int64_t, int64_t)> narrow{"aten::narrow"};

// select.int(Tensor(a) self, int dim, int index) -> Tensor(a)
// (.., n, ..) -> (.., ..): the index-th entry along dim; index in [-n, n).
inline constexpr Op<Tensor(const Tensor&, int64_t, int64_t)> select{"aten::select.int"};

// slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1)
//   -> Tensor(a)
// self[..., start:end:step, ...] along dim, start/end clamped like Python's; step > 0.
inline constexpr Op<Tensor(const Tensor&, Default<int64_t>, Default<std::optional<int64_t>>,
                           Default<std::optional<int64_t>>, Default<int64_t>)>
    slice{"aten::slice.Tensor"};

// flatten.using_ints(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a)
// (a, b, c, d).flatten(1, 2) -> (a, b*c, d); 0-d -> (1).
inline constexpr Op<Tensor(const Tensor&, Default<int64_t>, Default<int64_t>)> flatten{
    "aten::flatten.using_ints"};

// unflatten.int(Tensor(a) self, int dim, int[] sizes) -> Tensor(a)
// (a, b*c, d).unflatten(1, {b, c}) -> (a, b, c, d); one size may be -1.
inline constexpr Op<Tensor(const Tensor&, int64_t, IntArrayRef)> unflatten{"aten::unflatten.int"};

// diagonal(Tensor(a) self, int offset=0, int dim1=0, int dim2=1) -> Tensor(a)
// (.., n, .., m, ..) -> (.., .., k): drops dim1 and dim2, appends their diagonal.
inline constexpr Op<Tensor(const Tensor&, Default<int64_t>, Default<int64_t>, Default<int64_t>)>
    diagonal{"aten::diagonal"};

// unfold(Tensor(a) self, int dimension, int size, int step) -> Tensor(a)
// along `dimension` of length n: (.., n, ..) -> (.., (n - size) / step + 1, .., size).
inline constexpr Op<Tensor(const Tensor&, int64_t, int64_t, int64_t)> unfold{"aten::unfold"};

// unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]
// (.., n, ..) -> n tensors (.., ..), each select(self, dim, i).
inline constexpr Op<std::vector<Tensor>(const Tensor&, Default<int64_t>)> unbind{
    "aten::unbind.int"};

// movedim.intlist(Tensor(a) self, int[] source, int[] destination) -> Tensor(a)
// dims source[i] move to destination[i], the others keep their order: a permute.
// movedim.int(Tensor(a) self, int source, int destination) -> Tensor(a)
inline constexpr Overloads movedim{
    Op<Tensor(const Tensor&, IntArrayRef, IntArrayRef)>{"aten::movedim.intlist"},
    Op<Tensor(const Tensor&, int64_t, int64_t)>{"aten::movedim.int"}};
// moveaxis.intlist(Tensor(a) self, int[] source, int[] destination) -> Tensor(a)
// moveaxis.int(Tensor(a) self, int source, int destination) -> Tensor(a)
inline constexpr Overloads moveaxis{
    Op<Tensor(const Tensor&, IntArrayRef, IntArrayRef)>{"aten::moveaxis.intlist"},
    Op<Tensor(const Tensor&, int64_t, int64_t)>{"aten::moveaxis.int"}};

// swapaxes(Tensor(a) self, int axis0, int axis1) -> Tensor(a)
inline constexpr Op<Tensor(const Tensor&, int64_t, int64_t)> swapaxes{"aten::swapaxes"};
// swapdims(Tensor(a) self, int dim0, int dim1) -> Tensor(a)
inline constexpr Op<Tensor(const Tensor&, int64_t, int64_t)> swapdims{"aten::swapdims"};

// --- backward of views ------------------------------------------------------------------------
// The gradients of views, as ops of their own (torch 1.13's select_backward,
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

}  // namespace ops
}  // namespace opscope
