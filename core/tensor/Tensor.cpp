#include "core/tensor/Tensor.h"
#include "core/runtime/LocalDispatchState.h"

namespace opscope {

int64_t wrap_dim(int64_t d, int64_t ndim, bool wrap_scalar) {
  if (ndim <= 0) {
    OPSCOPE_CHECK_INDEX(wrap_scalar, "Dimension specified as ", d, " but tensor has no dimensions");
    ndim = 1;
  }
  int64_t lo = -ndim, hi = ndim - 1;
  OPSCOPE_CHECK_INDEX(d >= lo && d <= hi, "Dimension out of range (expected to be in range of [",
                      lo, ", ", hi, "], but got ", d, ")");
  return d < 0 ? d + ndim : d;
}

int64_t Tensor::size(int64_t d) const {
  return impl_->size(wrap_dim(d, dim(), false));
}
int64_t Tensor::stride(int64_t d) const {
  return impl_->stride(wrap_dim(d, dim(), false));
}

std::string_view short_dtype(ScalarType t) {
  switch (t) {
    case ScalarType::Bool:
      return "b8";
    case ScalarType::UInt8:
      return "u8";
    case ScalarType::Int8:
      return "i8";
    case ScalarType::Int16:
      return "i16";
    case ScalarType::Int32:
      return "i32";
    case ScalarType::Int64:
      return "i64";
    case ScalarType::Float16:
      return "f16";
    case ScalarType::BFloat16:
      return "bf16";
    case ScalarType::Float32:
      return "f32";
    case ScalarType::Float64:
      return "f64";
    default:
      return "?";
  }
}

std::string Tensor::short_str() const {
  if (!defined()) return "None";
  return std::string(short_dtype(dtype())) + shape_str(sizes());
}

// torch's empty_generic / empty_strided_cpu: sizes checked, then the storage size, each with
// torch's message (see Note [Size arithmetic is checked]).
Tensor make_empty(IntArrayRef sizes, ScalarType dtype, Device device) {
  check_size_nonnegative(sizes);
  int64_t nbytes = storage_nbytes_contiguous(sizes, element_size(dtype));
  auto storage =
      make_intrusive<StorageImpl>(static_cast<size_t>(nbytes), get_allocator(device.type));
  return Tensor(
      make_intrusive<TensorImpl>(std::move(storage), dtype, sizes, contiguous_strides(sizes), 0));
}

Tensor make_empty_strided(IntArrayRef sizes, IntArrayRef strides, ScalarType dtype, Device device) {
  OPSCOPE_CHECK(sizes.size() == strides.size(), "mismatch in length of strides and shape");
  check_size_nonnegative(sizes);
  // One past the furthest element reachable through the strides, in bytes.
  int64_t nbytes = storage_nbytes(sizes, strides, element_size(dtype));
  auto storage =
      make_intrusive<StorageImpl>(static_cast<size_t>(nbytes), get_allocator(device.type));
  return Tensor(make_intrusive<TensorImpl>(std::move(storage), dtype, sizes, strides, 0));
}

Tensor make_view(const Tensor& base, IntArrayRef sizes, IntArrayRef strides,
                 int64_t storage_offset) {
  return Tensor(make_intrusive<TensorImpl>(*base.impl(), sizes, strides, storage_offset));
}

// Set by the Python binding: a detach that a __torch_dispatch__ subclass or mode sees, for a tensor
// with the Python key or while a dispatch mode is active (torch's shallow_copy_and_detach does the
// same); returns an undefined tensor when Python has nothing to say about t.
Tensor (*g_python_detach)(const Tensor&) = nullptr;

Tensor make_alias_not_view(const Tensor& t) {
  if (g_python_detach) {
    const LocalDispatchKeySet& local = local_dispatch_key_set();
    if ((t.key_set().has(DispatchKey::Python) || local.included.has(DispatchKey::Python)) &&
        !local.excluded.has(DispatchKey::Python))
      if (Tensor r = g_python_detach(t); r.defined()) return r;
  }
  return Tensor(make_intrusive<TensorImpl>(*t.impl(), t.sizes(), t.strides(), t->storage_offset(),
                                           /*is_view=*/false));
}

}  // namespace opscope
