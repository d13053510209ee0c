// Kernels of the view / shape family (schemas in core/ops/views.cpp, registered at the end of this
// file).
//
// Each CompositeExplicitAutograd kernel here computes a geometry — sizes, strides, storage
// offset — and hands it to as_strided, or (view, _reshape_alias, _unsafe_view, alias) makes the
// view itself. The CompositeImplicitAutograd kernels are written in terms of other ops, so the
// trace shows the ops they decompose into. Both follow PyTorch 1.13's TensorShape.cpp: the same
// checks in the same order, with the same messages. See Note [Views share storage].
#include <algorithm>
#include <limits>
#include <numeric>

#include "core/dispatch/Library.h"
#include "core/ops/binary.h"
#include "core/ops/copy.h"
#include "core/ops/factories.h"
#include "core/ops/views.h"
#include "core/runtime/CheckedMath.h"

namespace opscope {

// --- shape arithmetic ----------------------------------------------------------------------

namespace {

// The infer_size failures torch throws as std::runtime_error (not c10::Error): unflatten
// catches exactly these to reword them.
class InferSizeError : public Error {
  using Error::Error;
};

bool same_ints(IntArrayRef a, IntArrayRef b) {
  return std::ranges::equal(a, b);
}

// The text torch shows for a tensor's type in messages: the legacy names for the dtypes that
// have one ("torch.FloatTensor", "torch.cuda.LongTensor"), else "CPUBoolType", "MetaFloatType".
std::string type_str(const Tensor& t) {
  ScalarType d = t.dtype();
  DeviceType dev = t.device().type;
  bool legacy = d != ScalarType::Bool && d != ScalarType::BFloat16;
  if (legacy && dev == DeviceType::CPU) return detail::str("torch.", cpp_name(d), "Tensor");
  if (legacy && dev == DeviceType::CUDA) return detail::str("torch.cuda.", cpp_name(d), "Tensor");
  return detail::str(to_string(backend_key_for(static_cast<int>(dev))), cpp_name(d), "Type");
}

// The decimal digits of a number that may not fit an int64 (a required storage size).
std::string int128_str(__int128 v) {
  if (v < 0) return "-" + int128_str(-v);
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  } while (v != 0);
  return digits;
}

// An unchecked view of self with its storage offset (torch's alias_with_sizes_and_strides).
Tensor alias_with_sizes_and_strides(const Tensor& self, IntArrayRef sizes, IntArrayRef strides) {
  return make_view(self, sizes, strides, self->storage_offset());
}

}  // namespace

DimVector infer_size(IntArrayRef shape, int64_t numel) {
  DimVector res(shape);
  // The product wraps as torch's does (in uint64, defined): an overflowing shape is then refused
  // here or by view's numel check, with torch's message either way.
  int64_t newsize = 1;
  std::optional<size_t> infer_dim;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == -1) {
      if (infer_dim) throw InferSizeError("only one dimension can be inferred");
      infer_dim = d;
    } else {
      OPSCOPE_CHECK(shape[d] >= 0, "invalid shape dimension ", shape[d]);
      newsize = wrapping_mul(newsize, shape[d]);
    }
  }
  if (numel == newsize || (infer_dim && newsize > 0 && numel % newsize == 0)) {
    if (infer_dim) {
      // With a 0 among the given sizes, any value fits the -1: refuse, as NumPy does.
      OPSCOPE_CHECK(newsize != 0, "cannot reshape tensor of ", numel, " elements into shape ",
                    shape_str(shape),
                    " because the unspecified dimension size -1 can be any value and is ambiguous");
      res[*infer_dim] = numel / newsize;
    }
    return res;
  }
  throw InferSizeError(
      detail::str("shape '", shape_str(shape), "' is invalid for input of size ", numel));
}

// See Note [Which views are possible].
std::optional<DimVector> compute_stride(IntArrayRef oldshape, IntArrayRef oldstride,
                                        IntArrayRef newshape) {
  if (oldshape.empty()) return DimVector(newshape.size(), 1);
  // An empty tensor has no elements to keep in place: any strides work. Keep the old ones when
  // the shape does not change, else take contiguous ones (NumPy does the same).
  if (check_numel(oldshape) == 0) {
    if (same_ints(oldshape, newshape)) return DimVector(oldstride);
    return contiguous_strides(newshape);
  }

  // Walk the old dims from the innermost out, one chunk at a time; give the new dims that cover
  // the same number of elements strides that step through the chunk.
  DimVector newstride(newshape.size());
  int64_t view_d = static_cast<int64_t>(newshape.size()) - 1;
  int64_t chunk_base_stride = oldstride.back();  // the chunk's innermost stride
  int64_t tensor_numel = 1;                      // elements of the chunk so far
  int64_t view_numel = 1;                        // elements of the new dims given to it
  for (int64_t tensor_d = static_cast<int64_t>(oldshape.size()) - 1; tensor_d >= 0; --tensor_d) {
    tensor_numel *= oldshape[tensor_d];
    bool chunk_ends =
        tensor_d == 0 || (oldshape[tensor_d - 1] != 1 &&
                          oldstride[tensor_d - 1] != tensor_numel * chunk_base_stride);
    if (!chunk_ends) continue;
    while (view_d >= 0 && (view_numel < tensor_numel || newshape[view_d] == 1)) {
      newstride[view_d] = view_numel * chunk_base_stride;
      view_numel *= newshape[view_d];
      --view_d;
    }
    if (view_numel != tensor_numel) return std::nullopt;  // a new dim spans two chunks
    if (tensor_d > 0) {
      chunk_base_stride = oldstride[tensor_d - 1];
      tensor_numel = 1;
      view_numel = 1;
    }
  }
  if (view_d != -1) return std::nullopt;
  return newstride;
}

namespace composite {

static void check_inside_storage(const Tensor& self, IntArrayRef size, IntArrayRef stride,
                                 int64_t offset);

// --- views that build their result directly -------------------------------------------------

// self (N elements) -> size (N elements)
Tensor view(const Tensor& self, IntArrayRef size) {
  DimVector inferred = infer_size(size, self.numel());
  check_numel(inferred);  // a product that wrapped onto numel; compute_stride needs it exact
  std::optional<DimVector> stride = compute_stride(self.sizes(), self.strides(), inferred);
  OPSCOPE_CHECK(stride.has_value(),
                "view size is not compatible with input tensor's size and stride (at least one "
                "dimension spans across two contiguous subspaces). Use .reshape(...) instead.");
  return alias_with_sizes_and_strides(self, inferred, *stride);
}

// A view of self's memory read as `dtype` (geometry in its elements): a view made as usual (same
// storage, version counter and base), which then takes the dtype and geometry of a tensor over
// the same storage.
static Tensor make_dtype_view(const Tensor& self, ScalarType dtype, IntArrayRef sizes,
                              IntArrayRef strides, int64_t offset) {
  Tensor v = make_view(self, sizes, strides, offset);
  v->shallow_copy_from(TensorImpl(self->storage(), dtype, sizes, strides, offset));
  v->add_keys(self.key_set());  // keys beyond backend and autograd (Python) stay
  return v;
}

// torch's checks and messages (aten/src/ATen/native/TensorConversions.cpp, view_dtype).
static Tensor view_dtype(const Tensor& self, ScalarType dtype) {
  const int64_t from = static_cast<int64_t>(self->itemsize());
  const int64_t to = static_cast<int64_t>(element_size(dtype));
  if (from == to)
    return make_dtype_view(self, dtype, self.sizes(), self.strides(), self->storage_offset());
  const auto what = [&] {
    return detail::str("to view ", cpp_name(self.dtype()), " as ", cpp_name(dtype),
                       " (different element sizes)");
  };
  OPSCOPE_CHECK(self.dim() != 0, "self.dim() cannot be 0 ", what());
  const int64_t last = self.dim() - 1;
  OPSCOPE_CHECK(self.stride(last) == 1, "self.stride(-1) must be 1 ", what(), ", but got ",
                self.stride(last));
  DimVector sizes(self.sizes()), strides(self.strides());
  int64_t offset = self->storage_offset();
  if (from > to) {  // smaller elements: more of them
    const int64_t ratio = from / to;
    for (int64_t d = 0; d < last; ++d) strides[d] *= ratio;
    sizes[last] *= ratio;
    offset *= ratio;
  } else {
    const int64_t ratio = to / from;
    OPSCOPE_CHECK(sizes[last] % ratio == 0, "self.size(-1) must be divisible by ", ratio, " ",
                  what(), ", but got ", sizes[last]);
    OPSCOPE_CHECK(offset % ratio == 0, "self.storage_offset() must be divisible by ", ratio, " ",
                  what(), ", but got ", offset);
    for (int64_t d = 0; d < last; ++d) {
      OPSCOPE_CHECK(strides[d] % ratio == 0, "self.stride(", d, ") must be divisible by ", ratio,
                    " ", what(), ", but got ", strides[d]);
      strides[d] /= ratio;
    }
    sizes[last] /= ratio;
    offset /= ratio;
  }
  return make_dtype_view(self, dtype, sizes, strides, offset);
}

Tensor _reshape_alias(const Tensor& self, IntArrayRef size, IntArrayRef stride) {
  // reshape calls this with strides compute_stride found; a user calling
  // opscope.ops.aten._reshape_alias may pass any, so they are checked like as_strided's.
  check_inside_storage(self, size, stride, self->storage_offset());
  return alias_with_sizes_and_strides(self, size, stride);
}

// Unsafe: autograd does not treat the result as a view of self (an in-place write to it does not
// rewrite self's history), as in torch, where matmul and reshape use it on fresh copies.
Tensor _unsafe_view(const Tensor& self, IntArrayRef size) {
  return make_alias_not_view(view(self, size));
}

Tensor detach(const Tensor& self) {
  return make_alias_not_view(self);
}
Tensor alias(const Tensor& self) {
  return alias_with_sizes_and_strides(self, self.sizes(), self.strides());
}

// Refuses a geometry that reaches outside self's storage (as_strided's checks, torch's texts).
static void check_inside_storage(const Tensor& self, IntArrayRef size, IntArrayRef stride,
                          int64_t offset) {
  OPSCOPE_CHECK(size.size() == stride.size(), "mismatch in length of strides and shape");
  for (int64_t s : stride)
    OPSCOPE_CHECK(s >= 0,
                  "as_strided: Negative strides are not supported at the moment, got strides: ",
                  shape_str(stride));
  // An empty geometry reaches no byte, so it fits any storage, whatever its offset.
  size_t itemsize = self->itemsize();
  int64_t nbytes = storage_nbytes(size, stride, itemsize);
  if (nbytes != 0) {
    // In 128 bits: a user's offset of 2**63 - 1 bytes past the end must fail this check, not
    // wrap around it (torch 1.13 wraps and reads outside the storage).
    __int128 required = nbytes + static_cast<__int128>(offset) * static_cast<__int128>(itemsize);
    int64_t available = static_cast<int64_t>(self->storage()->nbytes());
    OPSCOPE_CHECK(required <= available, "setStorage: sizes ", shape_str(size), ", strides ",
                  shape_str(stride), ", storage offset ", offset, ", and itemsize ", itemsize,
                  " requiring a storage size of ", int128_str(required),
                  " are out of bounds for storage of size ", available);
  }
  OPSCOPE_CHECK(offset >= 0, "Tensor: invalid storage offset ", offset);
  check_numel(size);
}

// Any geometry that stays inside self's storage.
Tensor as_strided(const Tensor& self, IntArrayRef size, IntArrayRef stride,
                  std::optional<int64_t> storage_offset) {
  int64_t offset = storage_offset.value_or(self->storage_offset());
  check_inside_storage(self, size, stride, offset);
  return make_view(self, size, stride, offset);
}

// --- views through as_strided --------------------------------------------------------------

// (.., a, .., b, ..) -> (.., b, .., a, ..)
Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1) {
  dim0 = wrap_dim(dim0, self.dim());
  dim1 = wrap_dim(dim1, self.dim());
  if (dim0 == dim1) return ops::alias(self);
  DimVector sizes(self.sizes()), strides(self.strides());
  std::swap(sizes[dim0], sizes[dim1]);
  std::swap(strides[dim0], strides[dim1]);
  return ops::as_strided(self, sizes, strides);
}

// (M, N) -> (N, M); (N) and () unchanged
Tensor t(const Tensor& self) {
  OPSCOPE_CHECK(self.dim() <= 2, "t() expects a tensor with <= 2 dimensions, but self is ",
                self.dim(), "D");
  return ops::transpose(self, 0, self.dim() < 2 ? 0 : 1);
}

// out.size(i) = self.size(dims[i])
Tensor permute(const Tensor& self, IntArrayRef dims) {
  int64_t ndim = self.dim();
  OPSCOPE_CHECK(ndim == static_cast<int64_t>(dims.size()),
                "permute(sparse_coo): number of dimensions in the tensor input does not match "
                "the length of the desired ordering of dimensions i.e. input.dim() = ",
                ndim, " is not equal to len(dims) = ", dims.size());
  DimVector sizes(dims.size()), strides(dims.size());
  std::vector<bool> seen(static_cast<size_t>(ndim));
  for (size_t i = 0; i < dims.size(); ++i) {
    int64_t d = wrap_dim(dims[i], ndim);
    OPSCOPE_CHECK(!seen[d], "permute(): duplicate dims are not allowed.");
    seen[d] = true;
    sizes[i] = self.sizes()[d];
    strides[i] = self.strides()[d];
  }
  return ops::as_strided(self, sizes, strides);
}

// (1, 3, 1) -> (3)
Tensor squeeze(const Tensor& self) {
  DimVector sizes, strides;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (self.sizes()[d] == 1) continue;
    sizes.push_back(self.sizes()[d]);
    strides.push_back(self.strides()[d]);
  }
  return ops::as_strided(self, sizes, strides);
}

// (1, 3).squeeze(0) -> (3); a dim whose size is not 1 stays
Tensor squeeze_dim(const Tensor& self, int64_t dim) {
  dim = wrap_dim(dim, self.dim());
  if (self.dim() == 0 || self.sizes()[dim] != 1)
    return ops::as_strided(self, self.sizes(), self.strides());
  DimVector sizes(self.sizes()), strides(self.strides());
  sizes.erase(sizes.begin() + dim);
  strides.erase(strides.begin() + dim);
  return ops::as_strided(self, sizes, strides);
}

// (2, 3).unsqueeze(1) -> (2, 1, 3): the new dim's stride is what the next dim's outer
// neighbour would have (size * stride), 1 at the end.
Tensor unsqueeze(const Tensor& self, int64_t dim) {
  dim = wrap_dim(dim, self.dim() + 1);
  DimVector sizes(self.sizes()), strides(self.strides());
  // Any stride fits a dim of size 1: torch's, or 1 where it overflows (an empty tensor's).
  int64_t stride = dim >= self.dim() ? 1 : mul_or(sizes[dim], strides[dim], 1);
  sizes.insert(sizes.begin() + dim, 1);
  strides.insert(strides.begin() + dim, stride);
  return ops::as_strided(self, sizes, strides);
}

// (3) -> (2, 3): sizes are matched from the right; a size-1 or new leading dim gets stride 0.
Tensor expand(const Tensor& self, IntArrayRef size, bool /*implicit*/) {
  int64_t ndim = static_cast<int64_t>(size.size());
  int64_t tensor_dim = self.dim();
  OPSCOPE_CHECK(ndim >= tensor_dim, "expand(", type_str(self), "{", shape_str(self.sizes()),
                "}, size=", shape_str(size), "): the number of sizes provided (", ndim,
                ") must be greater or equal to the number of dimensions in the tensor (",
                tensor_dim, ")");
  if (tensor_dim == 0) return ops::as_strided(self, size, DimVector(size.size(), 0));

  DimVector sizes(size.size()), strides(size.size());
  for (int64_t i = ndim - 1; i >= 0; --i) {
    int64_t dim = tensor_dim - 1 - (ndim - 1 - i);  // the matching dim of self, < 0 when new
    int64_t cur_size = dim >= 0 ? self.sizes()[dim] : 1;
    int64_t cur_stride =  // a new dim of size 1 takes any stride: as unsqueeze's
        dim >= 0 ? self.strides()[dim] : mul_or(sizes[i + 1], strides[i + 1], 1);
    int64_t target = size[i];
    if (target == -1) {
      OPSCOPE_CHECK(dim >= 0, "The expanded size of the tensor (", target,
                    ") isn't allowed in a leading, non-existing dimension ", i);
      target = cur_size;
    }
    if (cur_size != target) {
      OPSCOPE_CHECK(cur_size == 1, "The expanded size of the tensor (", target,
                    ") must match the existing size (", cur_size, ") at non-singleton dimension ",
                    i, ".  Target sizes: ", shape_str(size),
                    ".  Tensor sizes: ", shape_str(self.sizes()));
      cur_size = target;
      cur_stride = 0;
    }
    sizes[i] = cur_size;
    strides[i] = cur_stride;
  }
  return ops::as_strided(self, sizes, strides);
}

// (.., n, ..) -> (.., ..), offset += index * stride
Tensor select(const Tensor& self, int64_t dim, int64_t index) {
  OPSCOPE_CHECK_INDEX(self.dim() != 0, "select() cannot be applied to a 0-dim tensor.");
  dim = wrap_dim(dim, self.dim());
  int64_t size = self.sizes()[dim];
  OPSCOPE_CHECK_INDEX(index >= -size && index < size, "select(): index ", index,
                      " out of range for tensor of size ", shape_str(self.sizes()),
                      " at dimension ", dim);
  if (index < 0) index += size;
  int64_t offset = self->storage_offset() + index * self.strides()[dim];
  DimVector sizes(self.sizes()), strides(self.strides());
  sizes.erase(sizes.begin() + dim);
  strides.erase(strides.begin() + dim);
  return ops::as_strided(self, sizes, strides, offset);
}

// (.., n, ..) -> (.., ceil((end - start) / step), ..), start and end clamped into [0, n]
Tensor slice(const Tensor& self, int64_t dim, std::optional<int64_t> start,
             std::optional<int64_t> end, int64_t step) {
  OPSCOPE_CHECK_INDEX(self.dim() != 0, "slice() cannot be applied to a 0-dim tensor.");
  dim = wrap_dim(dim, self.dim());
  DimVector sizes(self.sizes()), strides(self.strides());
  int64_t lo = start.value_or(0);
  int64_t hi = end.value_or(std::numeric_limits<int64_t>::max());
  OPSCOPE_CHECK(step > 0, "slice step must be positive");
  // Like a Python slice: negative bounds count from the end, then both are clamped.
  int64_t n = sizes[dim];
  if (lo == std::numeric_limits<int64_t>::max()) lo = 0;
  if (lo < 0) lo += n;
  if (hi < 0) hi += n;
  lo = std::clamp<int64_t>(lo, 0, n);
  hi = std::clamp<int64_t>(hi, lo, n);
  // ceil((hi - lo) / step), written so that a step near 2**63 cannot overflow.
  sizes[dim] = hi == lo ? 0 : (hi - lo - 1) / step + 1;
  // offset + lo * stride stays inside the storage unless the tensor is empty, whose offset
  // does not matter: keep self's when it overflows.
  int64_t offset = self->storage_offset(), skip;
  if (!mul_overflows(lo, strides[dim], &skip) && !add_overflows(offset, skip, &skip)) offset = skip;
  // stride * step can overflow only where the dim reaches at most one element or the tensor is
  // empty (elsewhere (size - 1) * stride * step is bounded by the storage): no nonzero index
  // multiplies the stride there, and it stays as it was (torch's wraps: x[::2**62] fails with
  // "Negative strides"). See Note [Size arithmetic is checked].
  strides[dim] = mul_or(strides[dim], step, strides[dim]);
  return ops::as_strided(self, sizes, strides, offset);
}

// (.., n, .., m, ..) -> (.., .., k): dims dim1 and dim2 go, their diagonal is appended, with
// stride st[dim1] + st[dim2]. offset > 0 takes a diagonal above the main one (along dim2).
Tensor diagonal(const Tensor& self, int64_t offset, int64_t dim1_, int64_t dim2_) {
  int64_t dim1 = wrap_dim(dim1_, self.dim());
  int64_t dim2 = wrap_dim(dim2_, self.dim());
  OPSCOPE_CHECK(dim1 != dim2, "diagonal dimensions cannot be identical ", dim1_, ", ", dim2_);
  int64_t n1 = self.sizes()[dim1], n2 = self.sizes()[dim2];
  int64_t st1 = self.strides()[dim1], st2 = self.strides()[dim2];
  int64_t diag_size = offset >= 0 ? std::max<int64_t>(std::min(n1, n2 - offset), 0)
                                  : std::max<int64_t>(std::min(n1 + offset, n2), 0);
  // An offset past the end gives an empty diagonal; leave the storage offset alone then.
  int64_t storage_offset = self->storage_offset();
  if (diag_size != 0) storage_offset += offset >= 0 ? offset * st2 : -offset * st1;
  DimVector sizes(self.sizes()), strides(self.strides());
  for (int64_t d : {std::max(dim1, dim2), std::min(dim1, dim2)}) {
    sizes.erase(sizes.begin() + d);
    strides.erase(strides.begin() + d);
  }
  sizes.push_back(diag_size);
  // st1 + st2 overflows only for an empty tensor's strides, where any stride will do.
  int64_t diag_stride;
  strides.push_back(add_overflows(st1, st2, &diag_stride) ? 1 : diag_stride);
  return ops::as_strided(self, sizes, strides, storage_offset);
}

// (.., n, ..) -> (.., (n - size) / step + 1, .., size): windows of `size` every `step`
Tensor unfold(const Tensor& self, int64_t dimension, int64_t size, int64_t step) {
  int64_t ndim = self.dim();
  dimension = wrap_dim(dimension, ndim);  // a 0-d tensor unfolds along its one "dim" 0
  int64_t max_size = ndim == 0 ? 1 : self.sizes()[dimension];
  OPSCOPE_CHECK(size <= max_size, "maximum size for tensor at dimension ", dimension, " is ",
                max_size, " but size is ", size);
  OPSCOPE_CHECK(step > 0, "step is ", step, " but must be > 0");
  DimVector sizes(self.sizes()), strides(self.strides());
  if (ndim > 0) {
    // A negative size makes as_strided fail (torch 1.13's message); one so negative that
    // n - size overflows gets torch 2's "size is .. but must be >= 0".
    int64_t span;
    OPSCOPE_CHECK(!sub_overflows(self.sizes()[dimension], size, &span), "size is ", size,
                  " but must be >= 0");
    sizes[dimension] = span / step + 1;
    int64_t st = self.strides()[dimension];
    strides[dimension] = mul_or(st, step, st);  // as in slice
  }
  sizes.push_back(size);
  strides.push_back(ndim == 0 ? 1 : self.strides()[dimension]);
  return ops::as_strided(self, sizes, strides);
}

// (.., n, ..) -> n x (.., ..)
std::vector<Tensor> unbind(const Tensor& self, int64_t dim) {
  dim = wrap_dim(dim, self.dim());
  int64_t n = self.size(dim);
  std::vector<Tensor> out;
  out.reserve(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) out.push_back(ops::select(self, dim, i));
  return out;
}

// --- CompositeImplicitAutograd: defined by other ops ---------------------------------------

// A view when strides can express the new shape (_reshape_alias), else a contiguous copy
// (clone + _unsafe_view). See Note [Which views are possible].
Tensor reshape(const Tensor& self, IntArrayRef proposed_shape) {
  DimVector shape = infer_size(proposed_shape, self.numel());
  check_numel(shape);  // as in view
  if (std::optional<DimVector> stride = compute_stride(self.sizes(), self.strides(), shape)) {
    // A __torch_dispatch__ subclass sees `view`, as in torch (isTensorSubclassLike).
    if (self.key_set().has(DispatchKey::Python)) return ops::view(self, shape);
    return ops::_reshape_alias(self, shape, *stride);
  }
  return ops::_unsafe_view(ops::clone(self, ops::kContiguousFormat), shape);
}

Tensor view_as(const Tensor& self, const Tensor& other) {
  return ops::view(self, other.sizes());
}

Tensor expand_as(const Tensor& self, const Tensor& other) {
  return ops::expand(self, other.sizes());
}

// slice(self, dim, start, start + length); a negative start counts from the end.
Tensor narrow(const Tensor& self, int64_t dim, int64_t start, int64_t length) {
  OPSCOPE_CHECK(self.dim() > 0, "narrow() cannot be applied to a 0-dim tensor.");
  int64_t cur_size = self.size(dim);
  // start == size is a valid (empty) start, though not a valid index for wrap_dim.
  if (start != cur_size) start = wrap_dim(start, cur_size);
  OPSCOPE_CHECK(length >= 0 && start <= cur_size - length, "start (", start, ") + length (", length,
                ") exceeds dimension size (", cur_size, ").");
  return ops::slice(self, dim, start, start + length, 1);
}

// (a, b, c, d).flatten(1, 2) -> (a, b*c, d)
Tensor flatten(const Tensor& self, int64_t start_dim, int64_t end_dim) {
  start_dim = wrap_dim(start_dim, self.dim());
  end_dim = wrap_dim(end_dim, self.dim());
  OPSCOPE_CHECK(start_dim <= end_dim,
                "flatten() has invalid args: start_dim cannot come after end_dim");
  if (self.dim() == 0) return ops::reshape(self, {1});
  if (start_dim == end_dim) return self;
  // Multiply the flattened sizes rather than pass -1: with a 0 elsewhere (shape [0, 1, 3, 0],
  // dims 1..2) a -1 could be anything.
  IntArrayRef s = self.sizes();
  DimVector shape(s.begin(), s.begin() + start_dim);
  int64_t flat = 1;  // checked: [0, 2**62, 4] has 0 elements, but no size 2**64 for dims 1..2
  for (int64_t d = start_dim; d <= end_dim; ++d) flat = checked_mul(flat, s[d], "numel");
  shape.push_back(flat);
  for (int64_t d = end_dim + 1; d < self.dim(); ++d) shape.push_back(s[d]);
  // torch calls native::reshape here, not the op: the trace shows flatten -> _reshape_alias.
  return reshape(self, shape);
}

// (a, b*c, d).unflatten(1, {b, c}) -> (a, b, c, d)
Tensor unflatten(const Tensor& self, int64_t dim, IntArrayRef sizes) {
  dim = wrap_dim(dim, self.dim());
  OPSCOPE_CHECK(!sizes.empty(), "unflatten: sizes must be non-empty");
  DimVector inferred;
  try {
    inferred = infer_size(sizes, self.size(dim));
  } catch (const InferSizeError& e) {
    OPSCOPE_CHECK(
        std::string_view(e.what()).find("is invalid for input of size") != std::string_view::npos,
        "unflatten got an unexpected error:\n", e.what());
    OPSCOPE_CHECK(false, "unflatten: Provided sizes ", shape_str(sizes),
                  " don't multiply up to the size of dim ", dim, " (", self.size(dim),
                  ") in the input tensor");
  }
  DimVector shape(self.sizes());
  shape.erase(shape.begin() + dim);
  for (size_t i = 0; i < inferred.size(); ++i)
    shape.insert(shape.begin() + dim + static_cast<int64_t>(i), inferred[i]);
  return ops::view(self, shape);
}

// Moves dims source[i] to destination[i]; the other dims keep their relative order.
Tensor movedim(const Tensor& self, IntArrayRef src, IntArrayRef dst) {
  OPSCOPE_CHECK(src.size() == dst.size(), "movedim: Invalid source or destination dims: source (",
                shape_str(src), " dims) should contain the same number of dims as destination (",
                shape_str(dst), " dims)");
  int64_t ndim = self.dim();
  auto wrap_all = [&](IntArrayRef dims) {
    DimVector out(dims.size());
    for (size_t i = 0; i < dims.size(); ++i) out[i] = wrap_dim(dims[i], ndim);
    return out;
  };
  auto all_unique = [](DimVector dims) {
    std::sort(dims.begin(), dims.end());
    return std::adjacent_find(dims.begin(), dims.end()) == dims.end();
  };
  DimVector nsrc = wrap_all(src), ndst = wrap_all(dst);
  OPSCOPE_CHECK(all_unique(nsrc), "movedim: repeated dim in `source` (", shape_str(src), ")");
  OPSCOPE_CHECK(all_unique(ndst), "movedim: repeated dim in `destination` (", shape_str(dst), ")");
  if (ndim == 0) return ops::alias(self);

  // order[new position] = old dim. Place the moved dims, then fill the free positions with the
  // remaining dims in their original order.
  constexpr int64_t kFree = -1;
  DimVector order(static_cast<size_t>(ndim), kFree);
  std::vector<bool> moved(static_cast<size_t>(ndim));
  for (size_t i = 0; i < nsrc.size(); ++i) {
    order[ndst[i]] = nsrc[i];
    moved[nsrc[i]] = true;
  }
  int64_t next_src = 0;
  for (int64_t& o : order) {
    if (o != kFree) continue;
    while (moved[next_src]) ++next_src;
    o = next_src++;
  }
  return ops::permute(self, order);
}

Tensor movedim_int(const Tensor& self, int64_t src, int64_t dst) {
  // torch calls the intlist kernel directly: the trace shows movedim -> permute.
  return movedim(self, IntArrayRef(&src, 1), IntArrayRef(&dst, 1));
}

Tensor moveaxis(const Tensor& self, IntArrayRef src, IntArrayRef dst) {
  return ops::movedim(self, src, dst);
}

Tensor moveaxis_int(const Tensor& self, int64_t src, int64_t dst) {
  return ops::movedim(self, src, dst);
}

Tensor swapaxes(const Tensor& self, int64_t axis0, int64_t axis1) {
  return ops::transpose(self, axis0, axis1);
}

Tensor swapdims(const Tensor& self, int64_t dim0, int64_t dim1) {
  return ops::transpose(self, dim0, dim1);
}

// --- backward of views ---------------------------------------------------------------------
// Each is the adjoint of a view: zeros of the view's input shape, grad_output written (or added,
// where unfold's windows overlap) where the view read its elements. See core/ops/views.h.

namespace {
Tensor zeros_for(const Tensor& grad, IntArrayRef sizes) {
  return ops::zeros(sizes, grad.dtype(), std::nullopt, grad.device());
}
}  // namespace

Tensor select_backward(const Tensor& grad, IntArrayRef input_sizes, int64_t dim, int64_t index) {
  Tensor z = zeros_for(grad, input_sizes);
  ops::copy_(ops::select(z, dim, index), grad);
  return z;
}

Tensor slice_backward(const Tensor& grad, IntArrayRef input_sizes, int64_t dim, int64_t start,
                      int64_t end, int64_t step) {
  Tensor z = zeros_for(grad, input_sizes);
  ops::copy_(ops::slice(z, dim, start, end, step), grad);
  return z;
}

Tensor diagonal_backward(const Tensor& grad, IntArrayRef input_sizes, int64_t offset, int64_t dim1,
                         int64_t dim2) {
  Tensor z = zeros_for(grad, input_sizes);
  ops::copy_(ops::diagonal(z, offset, dim1, dim2), grad);
  return z;
}

// grad_in (.., windows, .., size): window w of dim covers [w * step, w * step + size) of input.
Tensor unfold_backward(const Tensor& grad_in, IntArrayRef input_sizes, int64_t dim, int64_t size,
                       int64_t step) {
  Tensor z = zeros_for(grad_in, input_sizes);
  const int64_t ndim = static_cast<int64_t>(input_sizes.size());
  const int64_t d = ndim == 0 ? 0 : wrap_dim(dim, ndim);
  if (ndim == 0) return ops::add_(z, ops::reshape(grad_in, IntArrayRef()));
  for (int64_t w = 0; w < grad_in.size(d); ++w) {
    Tensor window = ops::movedim(ops::select(grad_in, d, w), -1, d);  // (.., size, ..)
    Tensor part = ops::narrow(z, d, w * step, size);
    ops::add_(part, window);
  }
  return z;
}

static Library composite_explicit_views(
    Library::IMPL, "aten", DispatchKey::CompositeExplicitAutograd, [](Library& m) {
      m.impl("view", fn<&view>);
      m.impl("view.dtype", fn<&view_dtype>);
      m.impl("_reshape_alias", fn<&_reshape_alias>);
      m.impl("_unsafe_view", fn<&_unsafe_view>);
      m.impl("alias", fn<&alias>);
      m.impl("detach", fn<&detach>);
      m.impl("as_strided", fn<&as_strided>);
      m.impl("transpose.int", fn<&transpose>);
      m.impl("t", fn<&t>);
      m.impl("permute", fn<&permute>);
      m.impl("squeeze", fn<&squeeze>);
      m.impl("squeeze.dim", fn<&squeeze_dim>);
      m.impl("unsqueeze", fn<&unsqueeze>);
      m.impl("expand", fn<&expand>);
      m.impl("select.int", fn<&select>);
      m.impl("slice.Tensor", fn<&slice>);
      m.impl("diagonal", fn<&diagonal>);
      m.impl("unfold", fn<&unfold>);
      m.impl("unbind.int", fn<&unbind>);
      m.impl("select_backward", fn<&select_backward>);
      m.impl("slice_backward", fn<&slice_backward>);
      m.impl("diagonal_backward", fn<&diagonal_backward>);
      m.impl("unfold_backward", fn<&unfold_backward>);
    });

static Library composite_implicit_views(
    Library::IMPL, "aten", DispatchKey::CompositeImplicitAutograd, [](Library& m) {
      m.impl("reshape", fn<&reshape>);
      m.impl("view_as", fn<&view_as>);
      m.impl("expand_as", fn<&expand_as>);
      m.impl("narrow", fn<&narrow>);
      m.impl("flatten.using_ints", fn<&flatten>);
      m.impl("unflatten.int", fn<&unflatten>);
      m.impl("movedim.intlist", fn<&movedim>);
      m.impl("movedim.int", fn<&movedim_int>);
      m.impl("moveaxis.intlist", fn<&moveaxis>);
      m.impl("moveaxis.int", fn<&moveaxis_int>);
      m.impl("swapaxes", fn<&swapaxes>);
      m.impl("swapdims", fn<&swapdims>);
    });

}  // namespace composite
}  // namespace opscope
