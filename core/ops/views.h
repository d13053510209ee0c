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

#include <initializer_list>
#include <optional>
#include <vector>

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
// Each schema is PyTorch 1.13's. The initializer_list overloads let C++ callers write
// ops::view(t, {2, 3}); they forward to the IntArrayRef ones.
namespace ops {

// view(Tensor(a) self, SymInt[] size) -> Tensor(a)
// self (numel N) -> size (N elements, one -1 inferred); fails when not expressible by strides.
Tensor view(const Tensor& self, IntArrayRef size);

// reshape(Tensor(a) self, SymInt[] shape) -> Tensor(a)
// Like view when compute_stride succeeds (via _reshape_alias); else clone + _unsafe_view.
Tensor reshape(const Tensor& self, IntArrayRef shape);

// _reshape_alias(Tensor(a) self, SymInt[] size, SymInt[] stride) -> Tensor(a)
// The view reshape takes, with the strides it already computed; no checks.
Tensor _reshape_alias(const Tensor& self, IntArrayRef size, IntArrayRef stride);

// _unsafe_view(Tensor self, SymInt[] size) -> Tensor
// view's geometry, but the result is not recorded as a view (reshape's fresh copy).
Tensor _unsafe_view(const Tensor& self, IntArrayRef size);

// as_strided(Tensor(a) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None)
//   -> Tensor(a)
// Any geometry inside self's storage; offset None keeps self's. Strides must be >= 0.
Tensor as_strided(const Tensor& self, IntArrayRef size, IntArrayRef stride,
                  std::optional<int64_t> storage_offset = std::nullopt);

// alias(Tensor(a) self) -> Tensor(a)
// A new tensor with self's geometry over self's storage.
Tensor alias(const Tensor& self);

// transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)
// (.., a, .., b, ..) -> (.., b, .., a, ..); alias when dim0 == dim1.
Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1);

// t(Tensor(a) self) -> Tensor(a)
// (M, N) -> (N, M); 0-d and 1-d unchanged.
Tensor t(const Tensor& self);

// permute(Tensor(a) self, int[] dims) -> Tensor(a)
// out.size(i) = self.size(dims[i]).
Tensor permute(const Tensor& self, IntArrayRef dims);

// squeeze(Tensor(a) self) -> Tensor(a)
// drops every dim of size 1: (1, 3, 1) -> (3).
Tensor squeeze(const Tensor& self);

// squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)
// drops dim if its size is 1: (1, 3).squeeze(0) -> (3); (1, 3).squeeze(1) -> (1, 3).
Tensor squeeze(const Tensor& self, int64_t dim);

// unsqueeze(Tensor(a) self, int dim) -> Tensor(a)
// (2, 3).unsqueeze(1) -> (2, 1, 3); dim in [-dim()-1, dim()].
Tensor unsqueeze(const Tensor& self, int64_t dim);

// expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a)
// (3) -> (2, 3): size-1 and new leading dims get stride 0; -1 keeps a size.
Tensor expand(const Tensor& self, IntArrayRef size, bool implicit = false);

// expand_as(Tensor(a) self, Tensor other) -> Tensor(a)
// expand(self, other.sizes()).
Tensor expand_as(const Tensor& self, const Tensor& other);

// view_as(Tensor(a) self, Tensor other) -> Tensor(a)
// view(self, other.sizes()).
Tensor view_as(const Tensor& self, const Tensor& other);

// narrow(Tensor(a) self, int dim, int start, int length) -> Tensor(a)
// slice(self, dim, start, start + length); start may be negative.
Tensor narrow(const Tensor& self, int64_t dim, int64_t start, int64_t length);

// select.int(Tensor(a) self, int dim, int index) -> Tensor(a)
// (.., n, ..) -> (.., ..): the index-th entry along dim; index in [-n, n).
Tensor select(const Tensor& self, int64_t dim, int64_t index);

// slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1)
//   -> Tensor(a)
// self[..., start:end:step, ...] along dim, start/end clamped like Python's; step > 0.
Tensor slice(const Tensor& self, int64_t dim = 0, std::optional<int64_t> start = std::nullopt,
             std::optional<int64_t> end = std::nullopt, int64_t step = 1);

// flatten.using_ints(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a)
// (a, b, c, d).flatten(1, 2) -> (a, b*c, d); 0-d -> (1).
Tensor flatten(const Tensor& self, int64_t start_dim = 0, int64_t end_dim = -1);

// unflatten.int(Tensor(a) self, int dim, int[] sizes) -> Tensor(a)
// (a, b*c, d).unflatten(1, {b, c}) -> (a, b, c, d); one size may be -1.
Tensor unflatten(const Tensor& self, int64_t dim, IntArrayRef sizes);

// diagonal(Tensor(a) self, int offset=0, int dim1=0, int dim2=1) -> Tensor(a)
// (.., n, .., m, ..) -> (.., .., k): drops dim1 and dim2, appends their diagonal.
Tensor diagonal(const Tensor& self, int64_t offset = 0, int64_t dim1 = 0, int64_t dim2 = 1);

// unfold(Tensor(a) self, int dimension, int size, int step) -> Tensor(a)
// along `dimension` of length n: (.., n, ..) -> (.., (n - size) / step + 1, .., size).
Tensor unfold(const Tensor& self, int64_t dimension, int64_t size, int64_t step);

// unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]
// (.., n, ..) -> n tensors (.., ..), each select(self, dim, i).
std::vector<Tensor> unbind(const Tensor& self, int64_t dim = 0);

// movedim.intlist(Tensor(a) self, int[] source, int[] destination) -> Tensor(a)
// dims source[i] move to destination[i], the others keep their order: a permute.
Tensor movedim(const Tensor& self, IntArrayRef source, IntArrayRef destination);
// movedim.int(Tensor(a) self, int source, int destination) -> Tensor(a)
Tensor movedim(const Tensor& self, int64_t source, int64_t destination);
// moveaxis.intlist(Tensor(a) self, int[] source, int[] destination) -> Tensor(a)
Tensor moveaxis(const Tensor& self, IntArrayRef source, IntArrayRef destination);
// moveaxis.int(Tensor(a) self, int source, int destination) -> Tensor(a)
Tensor moveaxis(const Tensor& self, int64_t source, int64_t destination);

// swapaxes(Tensor(a) self, int axis0, int axis1) -> Tensor(a)
Tensor swapaxes(const Tensor& self, int64_t axis0, int64_t axis1);
// swapdims(Tensor(a) self, int dim0, int dim1) -> Tensor(a)
Tensor swapdims(const Tensor& self, int64_t dim0, int64_t dim1);

// Braced-list forms for C++ callers: ops::view(t, {2, -1}). (std::span has no
// initializer_list constructor before C++26.)
namespace views_detail {
inline IntArrayRef ref(std::initializer_list<int64_t> l) {
  return IntArrayRef(l.begin(), l.size());
}
}  // namespace views_detail
inline Tensor view(const Tensor& self, std::initializer_list<int64_t> size) {
  return view(self, views_detail::ref(size));
}
inline Tensor reshape(const Tensor& self, std::initializer_list<int64_t> shape) {
  return reshape(self, views_detail::ref(shape));
}
inline Tensor _reshape_alias(const Tensor& self, std::initializer_list<int64_t> size,
                             std::initializer_list<int64_t> stride) {
  return _reshape_alias(self, views_detail::ref(size), views_detail::ref(stride));
}
inline Tensor _unsafe_view(const Tensor& self, std::initializer_list<int64_t> size) {
  return _unsafe_view(self, views_detail::ref(size));
}
inline Tensor as_strided(const Tensor& self, std::initializer_list<int64_t> size,
                         std::initializer_list<int64_t> stride,
                         std::optional<int64_t> storage_offset = std::nullopt) {
  return as_strided(self, views_detail::ref(size), views_detail::ref(stride), storage_offset);
}
inline Tensor permute(const Tensor& self, std::initializer_list<int64_t> dims) {
  return permute(self, views_detail::ref(dims));
}
inline Tensor expand(const Tensor& self, std::initializer_list<int64_t> size,
                     bool implicit = false) {
  return expand(self, views_detail::ref(size), implicit);
}
inline Tensor unflatten(const Tensor& self, int64_t dim, std::initializer_list<int64_t> sizes) {
  return unflatten(self, dim, views_detail::ref(sizes));
}
inline Tensor movedim(const Tensor& self, std::initializer_list<int64_t> source,
                      std::initializer_list<int64_t> destination) {
  return movedim(self, views_detail::ref(source), views_detail::ref(destination));
}

}  // namespace ops
}  // namespace opscope
