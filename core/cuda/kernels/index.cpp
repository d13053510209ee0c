// CUDA kernels of the indexing family, host side: index_select, index_add, gather, scatter /
// scatter_add, advanced indexing (index.Tensor, _index_put_impl_), nonzero, masked_select,
// masked_fill_, cat (whose inputs are copied into their slices of the result) and tril / triu.
// Checks and messages follow the CPU kernels (core/ops/cpu/indexing.cpp, scatter_gather.cpp,
// masked.cpp, shape.cpp). A bad index is found by the kernel (a device flag, read back after the
// launch) and reported with torch's message by looking the indices over on the host — only on
// that error path.
#include <algorithm>
#include <string>

#include "core/cuda/kernels/KernelUtil.h"
#include "core/dispatch/Library.h"
#include "core/ops/arg_checks.h"
#include "core/runtime/ScalarConvert.h"
#include "core/ops/KernelForms.h"
#include "core/ops/binary.h"
#include "core/ops/copy.h"
#include "core/ops/indexing.h"
#include "core/ops/nn.h"
#include "core/ops/views.h"

namespace opscope::cuda {

namespace {

void check_index_dtype(const Tensor& index, const char* name, bool allow_int32) {
  const bool ok = index.dtype() == ScalarType::Int64 ||
                  (allow_int32 && index.dtype() == ScalarType::Int32);
  OPSCOPE_CHECK(ok, name, "(): Expected dtype ", allow_int32 ? "int32/int64" : "int64",
                " for index");
}

// t as `dtype` on `device` (t itself when it is already): torch's t.to(device, dtype), to.device.
Tensor to_on(const Tensor& t, Device device, ScalarType dtype) {
  return ops::to(t, device, dtype);
}

Tensor cpu_copy(const Tensor& t) { return to_on(t, Device(DeviceType::CPU), t.dtype()); }

// The first index in `index` (any shape, int32 / int64) outside [-size, size), from a host copy.
int64_t first_bad(const Tensor& index, int64_t size, bool negative_ok) {
  Tensor h = ops::to(cpu_copy(index), ScalarType::Int64);
  h = ops::contiguous(h);
  const int64_t* p = h.data_ptr<int64_t>();
  for (int64_t i = 0; i < h.numel(); ++i) {
    const int64_t lo = negative_ok ? -size : 0;
    if (p[i] < lo || p[i] >= size) return p[i];
  }
  return 0;
}

Tensor destination(const Tensor& out, const Tensor& self) {
  if (!out.defined()) return ops::clone(self);
  if (out.is_same(self)) return self;
  resize_output(out, self.sizes());
  return ops::copy_(out, self);
}

}  // namespace

// --- index_select / index_add -------------------------------------------------------------

static Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index) {
  dim = wrap_dim(dim, self.dim());
  OPSCOPE_CHECK_INDEX(index.dim() <= 1, "index_select(): Index is supposed to be a vector");
  check_index_dtype(index, "index_select", true);
  check_same_device(self, index, "index_select");
  CUDAGuard guard(self.device());
  DimVector sizes(self.sizes().begin(), self.sizes().end());
  if (self.dim() > 0) sizes[static_cast<size_t>(dim)] = index.numel();
  Tensor out = make_empty(sizes, self.dtype(), self.device());
  if (out.numel() == 0) return out;
  Tensor idx = index.is_contiguous() ? index : ops::contiguous(index);
  Tensor src = self.dim() == 0 ? ops::view(self, {1}) : self;
  Tensor o = self.dim() == 0 ? ops::view(out, {1}) : out;
  DeviceFlag bad(self.device());
  launch_index_select(dt_of(self.dtype()), make_tensor_arg(src), make_tensor_arg(o),
                      static_cast<int>(self.dim() == 0 ? 0 : dim), idx.data(),
                      idx.dtype() == ScalarType::Int32, bad.ptr(), current_stream_ptr());
  if (bad.read() != 0) throw IndexError("index out of range in self");
  return out;
}
static Tensor index_select_out(const Tensor& self, int64_t dim, const Tensor& index,
                               const Tensor& out) {
  Tensor r = index_select(self, dim, index);
  OPSCOPE_CHECK(out.dtype() == self.dtype(), "index_select(): self and result must have the same "
                "scalar type");
  resize_output(out, r.sizes());
  return ops::copy_(out, r);
}

static Tensor index_add_impl(const Tensor& out, const Tensor& input, int64_t dim,
                             const Tensor& index, const Tensor& source, const Scalar& alpha) {
  dim = wrap_dim(dim, input.dim());
  check_index_dtype(index, "index_add_", true);
  OPSCOPE_CHECK_INDEX(index.dim() <= 1, "index_add_(): Index is supposed to be a vector");
  OPSCOPE_CHECK(input.dtype() == source.dtype(), "index_add_(): self (", cpp_name(input.dtype()),
                ") and source (", cpp_name(source.dtype()), ") must have the same scalar type");
  const int64_t n = source.dim() == 0 ? 1 : source.size(dim);
  OPSCOPE_CHECK_INDEX(index.numel() == n,
                      "index_add_(): Number of indices (", index.numel(),
                      ") should be equal to source.size(dim) (", n, ")");
  check_same_device(input, index, "index_add_");
  check_same_device(input, source, "index_add_");
  CUDAGuard guard(input.device());
  Tensor self = destination(out, input);
  if (source.numel() == 0) return self;
  Tensor idx = index.is_contiguous() ? index : ops::contiguous(index);
  Tensor s = self.dim() == 0 ? ops::view(self, {1}) : self;
  Tensor src = source.dim() == 0 ? ops::view(source, {1}) : source;
  DeviceFlag bad(self.device());
  launch_index_add(dt_of(self.dtype()), make_tensor_arg(s), make_tensor_arg(src),
                   static_cast<int>(self.dim() == 0 ? 0 : dim), idx.data(),
                   idx.dtype() == ScalarType::Int32, alpha.to_double(), bad.ptr(),
                   current_stream_ptr());
  if (bad.read() != 0) throw IndexError("index out of range in self");
  return self;
}
static Tensor index_add_(const Tensor& self, int64_t dim, const Tensor& index,
                         const Tensor& source, const Scalar& alpha) {
  return index_add_impl(self, self, dim, index, source, alpha);
}
static Tensor index_add(const Tensor& self, int64_t dim, const Tensor& index,
                        const Tensor& source, const Scalar& alpha) {
  return index_add_impl(Tensor(), self, dim, index, source, alpha);
}
static Tensor index_add_out(const Tensor& self, int64_t dim, const Tensor& index,
                            const Tensor& source, const Scalar& alpha, const Tensor& out) {
  return index_add_impl(out, self, dim, index, source, alpha);
}

// --- gather / scatter -----------------------------------------------------------------------

namespace {

Tensor as_1d(const Tensor& t) { return t.dim() == 0 ? ops::view(t, {1}) : t; }

}  // namespace

static Tensor gather_out(const Tensor& self, int64_t dim, const Tensor& index,
                         bool /*sparse_grad*/, const Tensor& out) {
  dim = wrap_dim(dim, self.dim());
  checks::gather_shapes(self, dim, index);
  check_same_device(self, index, "gather");
  CUDAGuard guard(self.device());
  OPSCOPE_CHECK(out.dtype() == self.dtype(), "gather(): Expected self.dtype to be equal to "
                "src.dtype");
  resize_output(out, index.sizes());
  if (index.numel() == 0) return out;
  DeviceFlag bad(self.device());
  launch_gather(dt_of(self.dtype()), make_tensor_arg(as_1d(self)), make_tensor_arg(as_1d(index)),
                make_tensor_arg(as_1d(out)), static_cast<int>(dim), bad.ptr(),
                current_stream_ptr());
  if (bad.read() != 0) {
    int64_t v = first_bad(index, self.dim() == 0 ? 1 : self.size(dim), false);
    throw Error(detail::str("index ", v, " is out of bounds for dimension ", dim, " with size ",
                            self.dim() == 0 ? 1 : self.size(dim)));
  }
  return out;
}
static Tensor gather(const Tensor& self, int64_t dim, const Tensor& index, bool sparse_grad) {
  Tensor out = make_empty(index.sizes(), self.dtype(), self.device());
  return gather_out(self, dim, index, sparse_grad, out);
}

static Tensor scatter_impl(const Tensor& self, int64_t dim, const Tensor& index,
                           const Tensor& src, const Scalar* value, int reduce,
                           const char* name) {
  dim = wrap_dim(dim, self.dim());
  checks::scatter_shapes(self, dim, index, value ? Tensor() : src);
  check_same_device(self, index, name);
  if (!value) check_same_device(self, src, name);
  CUDAGuard guard(self.device());
  if (index.numel() == 0) return self;
  double v = 0;
  int64_t iv = 0;
  if (value) {
    v = value->to_double();
    iv = value->is_floating_point() ? static_cast<int64_t>(v) : value->to_long();
  }
  DeviceFlag bad(self.device());
  launch_scatter(dt_of(self.dtype()), make_tensor_arg(as_1d(self)),
                 make_tensor_arg(as_1d(index)), value ? TensorArg{} : make_tensor_arg(as_1d(src)),
                 value != nullptr, v, iv, static_cast<int>(dim), reduce, bad.ptr(),
                 current_stream_ptr());
  if (bad.read() != 0) {
    int64_t n = self.dim() == 0 ? 1 : self.size(dim);
    int64_t b = first_bad(index, n, false);
    throw Error(detail::str("index ", b, " is out of bounds for dimension ", dim, " with size ",
                            n));
  }
  return self;
}
static Tensor scatter_src_impl(const Tensor& out, const Tensor& self, int64_t dim,
                               const Tensor& index, const Tensor& src) {
  return scatter_impl(destination(out, self), dim, index, src, nullptr, 0, "scatter");
}
static Tensor scatter_value_impl(const Tensor& out, const Tensor& self, int64_t dim,
                                 const Tensor& index, const Scalar& value) {
  return scatter_impl(destination(out, self), dim, index, Tensor(), &value, 0, "scatter");
}
static Tensor scatter_add_impl(const Tensor& out, const Tensor& self, int64_t dim,
                               const Tensor& index, const Tensor& src) {
  return scatter_impl(destination(out, self), dim, index, src, nullptr, 1, "scatter_add");
}

// --- advanced indexing ----------------------------------------------------------------------

namespace {

// Note [Advanced indexing on CUDA]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// As on the CPU (core/ops/cpu/indexing.cpp): masks become the long indices of their nonzero
// positions (found on the host: torch synchronizes here too), the indices broadcast to one
// shape B, and the result is B in place of the indexed dims when they are adjacent, B first
// otherwise. The kernel walks the result in "B first, then self's other dims" order through a
// permuted view of it, so one kernel serves both layouts.
struct Plan {
  std::vector<Tensor> per_dim;  // one long index (or undefined) per dim of self
  DimVector index_shape;        // B
  bool adjacent = true;
  int64_t first = -1;
  DimVector result_shape;
  DimVector iter_perm;          // result dim order of the iteration: B dims, then the rest
};

Plan make_plan(const Tensor& self, TensorList indices) {
  OPSCOPE_CHECK_INDEX(static_cast<int64_t>(indices.size()) <= self.dim(),
                      "too many indices for tensor of dimension ", self.dim(), " (got ",
                      indices.size(), ")");
  Plan p;
  for (const Tensor& t : indices) {
    if (!t.defined()) {
      p.per_dim.emplace_back();
      continue;
    }
    if (t.dtype() == ScalarType::Bool || t.dtype() == ScalarType::UInt8) {
      OPSCOPE_CHECK(t.device() == self.device() || t.device().is_cpu(),
                    "indices should be either on cpu or on the same device as the indexed tensor (",
                    self.device().str(), ")");
      const int64_t at = static_cast<int64_t>(p.per_dim.size());
      for (int64_t j = 0; j < t.dim(); ++j) {
        OPSCOPE_CHECK_INDEX(at + j < self.dim() && t.size(j) == self.size(at + j),
                            "The shape of the mask ", shape_str(t.sizes()), " at index ", j,
                            " does not match the shape of the indexed tensor ",
                            shape_str(self.sizes()), " at index ", at + j);
      }
      Tensor nz = ops::nonzero(cpu_copy(t));  // (n, t.dim()) on the host
      Tensor nzd = to_on(nz, self.device(), ScalarType::Int64);
      for (int64_t j = 0; j < t.dim(); ++j) p.per_dim.push_back(ops::select(nzd, 1, j));
      continue;
    }
    OPSCOPE_CHECK_INDEX(t.dtype() == ScalarType::Int64 || t.dtype() == ScalarType::Int32,
                        "tensors used as indices must be long, int, byte or bool tensors");
    // As torch: indices on the CPU may index a GPU tensor (they are copied over).
    if (t.device() != self.device()) {
      OPSCOPE_CHECK(t.device().is_cpu(), "indices should be either on cpu or on the same device "
                    "as the indexed tensor (", self.device().str(), ")");
      p.per_dim.push_back(to_on(t, self.device(), ScalarType::Int64));
      continue;
    }
    p.per_dim.push_back(t.dtype() == ScalarType::Int64 ? t : ops::to(t, ScalarType::Int64));
  }
  while (static_cast<int64_t>(p.per_dim.size()) < self.dim()) p.per_dim.emplace_back();
  int64_t last = -1;
  bool any = false;
  for (size_t d = 0; d < p.per_dim.size(); ++d) {
    const Tensor& t = p.per_dim[d];
    if (!t.defined()) continue;
    if (!any) {
      p.index_shape.assign(t.sizes().begin(), t.sizes().end());
      p.first = static_cast<int64_t>(d);
    } else {
      if (static_cast<int64_t>(d) != last + 1) p.adjacent = false;
      p.index_shape = broadcast_shapes(p.index_shape, t.sizes());
    }
    any = true;
    last = static_cast<int64_t>(d);
  }
  const int64_t nd = self.dim(), nb = static_cast<int64_t>(p.index_shape.size());
  const int64_t index_pos = p.adjacent ? p.first : 0;
  int64_t pos = 0;
  DimVector rest_pos;
  for (int64_t d = 0; d < nd; ++d) {
    if (pos == index_pos) {
      for (int64_t s : p.index_shape) p.result_shape.push_back(s);
      pos += nb;
    }
    if (p.per_dim[static_cast<size_t>(d)].defined()) continue;
    rest_pos.push_back(pos);
    p.result_shape.push_back(self.size(d));
    ++pos;
  }
  if (pos == index_pos)
    for (int64_t s : p.index_shape) p.result_shape.push_back(s);
  for (int64_t j = 0; j < nb; ++j) p.iter_perm.push_back(index_pos + j);
  for (int64_t r : rest_pos) p.iter_perm.push_back(r);
  return p;
}

// The kernel's arguments: `target` is the result (index) or the values broadcast to the result
// shape (put), walked in iter_perm order.
IndexArgs make_index_args(const Tensor& self, const Plan& p, const Tensor& target) {
  IndexArgs a;
  DimVector rest_sizes, rest_strides;
  for (int64_t d = 0; d < self.dim(); ++d) {
    const Tensor& t = p.per_dim[static_cast<size_t>(d)];
    if (t.defined()) {
      OPSCOPE_CHECK(a.nidx < kMaxDims, "CUDA indexing takes at most ", kMaxDims, " indices");
      Tensor e = ops::expand(t, p.index_shape);
      a.idx[a.nidx] = make_tensor_arg(e);
      a.idx_size[a.nidx] = self.size(d);
      a.idx_stride[a.nidx] = self.stride(d);
      ++a.nidx;
    } else {
      rest_sizes.push_back(self.size(d));
      rest_strides.push_back(self.stride(d));
    }
  }
  a.self.data = static_cast<char*>(self.data());
  a.self.ndim = static_cast<int>(rest_sizes.size());
  for (size_t j = 0; j < rest_sizes.size(); ++j) {
    a.self.sizes[j] = rest_sizes[j];
    a.self.strides[j] = rest_strides[j];
  }
  Tensor it = ops::permute(target, p.iter_perm);
  a.iter = make_tensor_arg(it);
  return a;
}

void raise_bad_index(const Tensor& self, const Plan& p) {
  int64_t k = 0;
  for (int64_t d = 0; d < self.dim(); ++d) {
    const Tensor& t = p.per_dim[static_cast<size_t>(d)];
    if (!t.defined()) continue;
    const int64_t size = self.size(d);
    Tensor h = ops::contiguous(cpu_copy(t));
    const int64_t* v = h.data_ptr<int64_t>();
    for (int64_t i = 0; i < h.numel(); ++i)
      if (v[i] < -size || v[i] >= size)
        throw IndexError(detail::str("index ", v[i], " is out of bounds for dimension ", k,
                                     " with size ", size));
    ++k;
  }
  throw IndexError("index out of bounds");
}

}  // namespace

static Tensor index(const Tensor& self, TensorList indices) {
  CUDAGuard guard(self.device());
  Plan p = make_plan(self, indices);
  Tensor out = make_empty(p.result_shape, self.dtype(), self.device());
  if (p.first < 0) return ops::copy_(out, self);  // no index at all: a copy
  if (out.numel() == 0) return out;
  DeviceFlag bad(self.device());
  launch_index(dt_of(self.dtype()), make_index_args(self, p, out), bad.ptr(),
               current_stream_ptr());
  if (bad.read() != 0) raise_bad_index(self, p);
  return out;
}
static Tensor index_out(const Tensor& self, TensorList indices, const Tensor& out) {
  Tensor r = index(self, indices);
  OPSCOPE_CHECK(out.dtype() == r.dtype(), "index_out: expected out to have dtype ",
                cpp_name(r.dtype()), " but got ", cpp_name(out.dtype()));
  resize_output(out, r.sizes());
  return ops::copy_(out, r);
}

static Tensor _index_put_impl_(const Tensor& self, TensorList indices, const Tensor& values,
                               bool accumulate, bool /*unsafe*/) {
  CUDAGuard guard(self.device());
  Plan p = make_plan(self, indices);
  OPSCOPE_CHECK(values.dtype() == self.dtype(), "Index put requires the source and destination "
                "dtypes match, got ", cpp_name(self.dtype()), " for the destination and ",
                cpp_name(values.dtype()), " for the source.");
  Tensor v = values.device() == self.device() ? values
                                               : to_on(values, self.device(), values.dtype());
  if (p.first < 0) {
    if (accumulate) return ops::add_(self, v);
    return ops::copy_(self, v);
  }
  Tensor target = ops::expand(v, p.result_shape);
  if (target.numel() == 0) return self;
  if (accumulate)
    OPSCOPE_CHECK(is_floating(self.dtype()) || self.dtype() == ScalarType::Int32 ||
                      self.dtype() == ScalarType::Int64,
                  "\"index_put_with_sort_kernel\" not implemented for '", cpp_name(self.dtype()),
                  "'");
  DeviceFlag bad(self.device());
  launch_index_put(dt_of(self.dtype()), make_index_args(self, p, target), accumulate, bad.ptr(),
                   current_stream_ptr());
  if (bad.read() != 0) raise_bad_index(self, p);
  return self;
}

// --- nonzero, masked_select --------------------------------------------------------------------

// The positions of the nonzero elements (n, ndim) int64. Its size depends on the values, so the
// host needs them anyway (torch synchronizes here too): found on a CPU copy, sent back.
static Tensor nonzero(const Tensor& self) {
  CUDAGuard guard(self.device());
  return to_on(ops::nonzero(cpu_copy(self)), self.device(), ScalarType::Int64);
}
static Tensor nonzero_out(const Tensor& self, const Tensor& out) {
  OPSCOPE_CHECK(out.dtype() == ScalarType::Int64,
                "nonzero: Expected out tensor to have scalar type Long but got scalar type",
                cpp_name(out.dtype()));
  Tensor r = nonzero(self);
  resize_output(out, r.sizes());
  return ops::copy_(out, r);
}

// self and mask broadcast together; the elements where mask is true, in row-major order: the
// advanced-indexing kernel with the mask as the index.
static Tensor masked_select(const Tensor& self, const Tensor& mask) {
  OPSCOPE_CHECK(mask.dtype() == ScalarType::Bool || mask.dtype() == ScalarType::UInt8,
                "masked_select: expected BoolTensor or ByteTensor for mask");
  check_same_device(self, mask, "masked_select");
  DimVector shape = broadcast_shapes(self.sizes(), mask.sizes());
  Tensor s = ops::expand(self, shape), m = ops::expand(mask, shape);
  const Tensor idx[1] = {m};
  return index(s, TensorList(idx, 1));
}
static Tensor masked_select_out(const Tensor& self, const Tensor& mask, const Tensor& out) {
  Tensor r = masked_select(self, mask);
  OPSCOPE_CHECK(out.dtype() == self.dtype(), "masked_select(): self and result must have the "
                "same scalar type");
  resize_output(out, r.sizes());
  return ops::copy_(out, r);
}

// --- masked_fill_ ---------------------------------------------------------------------------

// self = where(mask, value, self), in place (the mask broadcasts to self, not the other way).
static Tensor masked_fill_(const Tensor& self, const Tensor& mask_in, const Scalar& value) {
  OPSCOPE_CHECK(mask_in.dtype() != ScalarType::Float32 && mask_in.dtype() != ScalarType::Float64 &&
                    mask_in.dtype() != ScalarType::Float16 &&
                    mask_in.dtype() != ScalarType::BFloat16,
                "masked_fill_ only supports boolean masks, but got mask with dtype ",
                cpp_name(mask_in.dtype()));
  check_same_device(self, mask_in, "masked_fill_");
  CUDAGuard guard(self.device());
  Tensor mask =
      mask_in.dtype() == ScalarType::Bool ? mask_in : ops::to(mask_in, ScalarType::Bool);
  Tensor v = scalar_to_tensor(value, self.dtype());  // a CPU scalar, passed by value
  TensorIterator iter = TensorIteratorConfig()
                            .add_output(self)
                            .add_input(mask)
                            .add_input(v)
                            .add_input(self)
                            .check_all_same_dtype(false)
                            .resize_outputs(false)
                            .check_mem_overlap(false)
                            .build();
  launch_where(make_args(iter), current_stream_ptr());
  return self;
}
static Tensor masked_fill_tensor_(const Tensor& self, const Tensor& mask, const Tensor& value) {
  OPSCOPE_CHECK(value.dim() == 0,
                "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with ",
                value.dim(), " dimension(s).");
  return masked_fill_(self, mask, item(value));
}

// --- cat ------------------------------------------------------------------------------------

static Tensor cat_into(TensorList tensors, int64_t dim, const Tensor* out_arg) {
  OPSCOPE_CHECK(!tensors.empty(), "torch.cat(): expected a non-empty list of Tensors");
  for (size_t i = 0; i < tensors.size(); ++i)
    OPSCOPE_CHECK(tensors[i].dim() > 0, "zero-dimensional tensor (at position ", i,
                  ") cannot be concatenated");
  ScalarType t = tensors[0].dtype();
  for (const Tensor& x : tensors) t = promote_types(t, x.dtype());
  auto skip = [](const Tensor& x) { return x.dim() == 1 && x.size(0) == 0; };
  const Tensor* ref = nullptr;
  for (const Tensor& x : tensors)
    if (!skip(x)) {
      ref = &x;
      break;
    }
  CUDAGuard guard(tensors[0].device());
  if (!ref) {
    Tensor out = out_arg ? *out_arg : make_empty({0}, t, tensors[0].device());
    if (out_arg) resize_output(out, std::array<int64_t, 1>{0});
    return out;
  }
  const int64_t d = wrap_dim(dim, ref->dim());
  int64_t total = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& x = tensors[i];
    OPSCOPE_CHECK(x.device() == ref->device(),
                  "Expected all tensors to be on the same device, but found at least two "
                  "devices, ",
                  ref->device().str(), " and ", x.device().str(), "!");
    if (skip(x)) continue;
    OPSCOPE_CHECK(x.dim() == ref->dim(), "Tensors must have same number of dimensions: got ",
                  ref->dim(), " and ", x.dim());
    for (int64_t k = 0; k < x.dim(); ++k)
      OPSCOPE_CHECK(k == d || x.size(k) == ref->size(k),
                    "Sizes of tensors must match except in dimension ", d, ". Expected size ",
                    ref->size(k), " but got size ", x.size(k), " for tensor number ", i,
                    " in the list.");
    total += x.size(d);
  }
  DimVector sizes(ref->sizes().begin(), ref->sizes().end());
  sizes[static_cast<size_t>(d)] = total;
  Tensor out;
  if (out_arg) {
    out = *out_arg;
    OPSCOPE_CHECK(can_cast(t, out.dtype()),
                  "torch.cat(): input types can't be cast to the desired output type ",
                  cpp_name(out.dtype()));
    resize_output(out, sizes);
  } else {
    out = make_empty(sizes, t, ref->device());
  }
  int64_t offset = 0;
  for (const Tensor& x : tensors) {
    if (skip(x)) continue;
    const int64_t n = x.size(d);
    if (n > 0 && x.numel() > 0) {
      // The slice of out this input fills: out's view with size n along d, shifted by offset.
      DimVector vs(out.sizes().begin(), out.sizes().end());
      vs[static_cast<size_t>(d)] = n;
      Tensor slice =
          make_view(out, vs, out.strides(), out->storage_offset() + offset * out.stride(d));
      if (x.dtype() == out.dtype()) {
        launch_strided_copy(dt_of(out.dtype()), make_tensor_arg(slice), make_tensor_arg(x),
                            current_stream_ptr());
      } else {
        ops::copy_(slice, x);
      }
    }
    offset += n;
  }
  return out;
}
static Tensor cat(TensorList tensors, int64_t dim) { return cat_into(tensors, dim, nullptr); }
static Tensor cat_out(TensorList tensors, int64_t dim, const Tensor& out) {
  return cat_into(tensors, dim, &out);
}

// --- tril / triu ---------------------------------------------------------------------------

static Tensor triangle_out(const Tensor& self, int64_t k, const Tensor& out, bool upper) {
  wrap_dim(-2, self.dim(), false);  // torch's check: at least 2 dims
  OPSCOPE_CHECK(out.dtype() == self.dtype(), "Expected out tensor to have dtype ",
                typemeta_name(self.dtype()), ", but got ", typemeta_name(out.dtype()), " instead");
  CUDAGuard guard(self.device());
  if (!out.is_same(self)) {
    resize_output(out, self.sizes());
    ops::copy_(out, self);
  }
  launch_zero_triangle(dt_of(out.dtype()), make_tensor_arg(out), k, upper, current_stream_ptr());
  return out;
}
static Tensor tril(const Tensor& self, int64_t diagonal) {
  wrap_dim(-2, self.dim(), false);
  return triangle_out(self, diagonal, make_empty(self.sizes(), self.dtype(), self.device()), false);
}
static Tensor tril_(const Tensor& self, int64_t diagonal) {
  return triangle_out(self, diagonal, self, false);
}
static Tensor tril_out(const Tensor& self, int64_t diagonal, const Tensor& out) {
  return triangle_out(self, diagonal, out, false);
}
static Tensor triu(const Tensor& self, int64_t diagonal) {
  wrap_dim(-2, self.dim(), false);
  return triangle_out(self, diagonal, make_empty(self.sizes(), self.dtype(), self.device()), true);
}
static Tensor triu_(const Tensor& self, int64_t diagonal) {
  return triangle_out(self, diagonal, self, true);
}
static Tensor triu_out(const Tensor& self, int64_t diagonal, const Tensor& out) {
  return triangle_out(self, diagonal, out, true);
}

// grad_output (*, D), indices (*) -> (num_weights, D): zeros + index_add_ on the GPU (the body
// is shared with the CPU kernel: core/ops/composite/nn.cpp)
static Tensor embedding_dense_backward(const Tensor& grad_output, const Tensor& indices,
                                       int64_t num_weights, int64_t padding_idx,
                                       bool scale_grad_by_freq) {
  CUDAGuard guard(grad_output.device());
  return composite::embedding_dense_backward_from_ops(grad_output, indices, num_weights,
                                                      padding_idx, scale_grad_by_freq);
}

static Library cuda_index(Library::IMPL, "aten", DispatchKey::CUDA, [](Library& m) {
  m.impl("index_select", fn<&index_select>);
  m.impl("index_select.out", fn<&index_select_out>);
  m.impl("embedding_dense_backward", fn<&embedding_dense_backward>);
  m.impl("index_add_", fn<&index_add_>);
  m.impl("index_add", fn<&index_add>);
  m.impl("index_add.out", fn<&index_add_out>);
  m.impl("gather", fn<&gather>);
  m.impl("gather.out", fn<&gather_out>);
  m.impl("scatter.src", functional<&scatter_src_impl>());
  m.impl("scatter_.src", inplace<&scatter_src_impl>());
  m.impl("scatter.src_out", out<&scatter_src_impl>());
  m.impl("scatter.value", functional<&scatter_value_impl>());
  m.impl("scatter_.value", inplace<&scatter_value_impl>());
  m.impl("scatter.value_out", out<&scatter_value_impl>());
  m.impl("scatter_add", functional<&scatter_add_impl>());
  m.impl("scatter_add_", inplace<&scatter_add_impl>());
  m.impl("scatter_add.out", out<&scatter_add_impl>());
  m.impl("index.Tensor", fn<&index>);
  m.impl("index.Tensor_out", fn<&index_out>);
  m.impl("_index_put_impl_", fn<&_index_put_impl_>);
  m.impl("nonzero", fn<&nonzero>);
  m.impl("nonzero.out", fn<&nonzero_out>);
  m.impl("masked_select", fn<&masked_select>);
  m.impl("masked_select.out", fn<&masked_select_out>);
  m.impl("masked_fill_.Scalar", fn<&masked_fill_>);
  m.impl("masked_fill_.Tensor", fn<&masked_fill_tensor_>);
  m.impl("cat", fn<&cat>);
  m.impl("cat.out", fn<&cat_out>);
  m.impl("tril", fn<&tril>);
  m.impl("tril_", fn<&tril_>);
  m.impl("tril.out", fn<&tril_out>);
  m.impl("triu", fn<&triu>);
  m.impl("triu_", fn<&triu_>);
  m.impl("triu.out", fn<&triu_out>);
});

}  // namespace opscope::cuda
