#include "core/tensor/TensorImpl.h"

#include <limits>

#include "core/runtime/LocalDispatchState.h"
#include "core/runtime/CheckedMath.h"

namespace opscope {

static DispatchKeySet key_set_for(Device device) {
  DispatchKey backend = backend_key_for(static_cast<int>(device.type));
  // Every tensor is seen by autograd and by ADInplaceOrView, as in PyTorch: the Autograd kernel
  // decides per call whether to record anything.
  return DispatchKeySet{backend, autograd_key_for_backend(backend), DispatchKey::ADInplaceOrView};
}

TensorImpl::TensorImpl(Storage storage, ScalarType dtype, IntArrayRef sizes, IntArrayRef strides,
                       int64_t storage_offset)
    : storage_(std::move(storage)),
      sizes_(sizes),
      strides_(strides),
      storage_offset_(storage_offset),
      version_(make_intrusive<VersionCounter>()),
      key_set_(key_set_for(storage_->device())),
      dtype_(dtype) {
  if (local_dispatch_key_set().inference_mode) {
    is_inference_ = true;
    key_set_ = key_set_ - kAutogradKeys - DispatchKeySet(DispatchKey::ADInplaceOrView);
  }
  refresh_numel_and_contiguity();
}

TensorImpl::TensorImpl(const TensorImpl& base, IntArrayRef sizes, IntArrayRef strides,
                       int64_t storage_offset, bool is_view)
    : storage_(base.storage_),
      sizes_(sizes),
      strides_(strides),
      storage_offset_(storage_offset),
      version_(base.version_),
      key_set_(base.key_set_),
      dtype_(base.dtype_),
      is_inference_(base.is_inference_) {
  if (is_view) {
    view_base_ = base.view_base_ ? base.view_base_ : intrusive_ptr(const_cast<TensorImpl*>(&base));
    view_attr_version_ = base.version();
  }
  refresh_numel_and_contiguity();
}

// See Note [A Python tensor outlives its Python object] (core/python/python_dispatch.cpp): when
// set, the binding has made this TensorImpl the owner of its Python object, which dies with it.
void (*g_release_owned_pyobj)(TensorImpl*) = nullptr;

// Set by the Python binding (core/python/tensor_type.cpp, Note [Python object preservation]):
// releases the Python object this TensorImpl kept alive after Python let go of it. Core stays
// Python-free: a TensorImpl only knows that it may own an opaque object, and whom to tell.
void (*g_release_preserved_pyobj)(TensorImpl*) = nullptr;

TensorImpl::~TensorImpl() {
  // While Python holds the object, the object holds this TensorImpl: a TensorImpl that dies still
  // pointing at its object owns it (one of the two preservation schemes below).
  if (pyobj_ && g_release_owned_pyobj) g_release_owned_pyobj(this);
  if (pyobj_ && g_release_preserved_pyobj) g_release_preserved_pyobj(this);
}

void TensorImpl::shallow_copy_from(const TensorImpl& other) {
  storage_ = other.storage_;
  sizes_ = other.sizes_;
  strides_ = other.strides_;
  storage_offset_ = other.storage_offset_;
  dtype_ = other.dtype_;
  key_set_ = other.key_set_;
  is_inference_ = other.is_inference_;
  refresh_numel_and_contiguity();
}

void TensorImpl::set_geometry(IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset) {
  check_numel(sizes);  // before any change: a failed resize leaves the tensor as it was
  sizes_ = DimVector(sizes);
  strides_ = DimVector(strides);
  storage_offset_ = storage_offset;
  refresh_numel_and_contiguity();
}

void TensorImpl::refresh_numel_and_contiguity() {
  numel_ = check_numel(sizes_);
  // Contiguous: strides equal contiguous_strides(sizes), ignoring dims of size 1 (any stride is
  // fine there) — PyTorch's definition. Empty tensors are contiguous.
  is_contiguous_ = true;
  if (numel_ == 0) return;
  int64_t expected = 1;  // a product of sizes, at most numel_
  for (size_t d = sizes_.size(); d-- > 0;) {
    if (sizes_[d] == 1) continue;
    if (strides_[d] != expected) {
      is_contiguous_ = false;
      return;
    }
    expected *= sizes_[d];
  }
}

DimVector contiguous_strides(IntArrayRef sizes) {
  // Only an empty tensor's strides can overflow ([0, 2**62, 2**62]), and any stride is right
  // for it: they stop at INT64_MAX (torch's wrap, and may come out negative). See
  // Note [Size arithmetic is checked].
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  DimVector strides(sizes.size());
  int64_t s = 1;
  for (size_t d = sizes.size(); d-- > 0;) {
    strides[d] = s;
    s = mul_or(s, std::max<int64_t>(sizes[d], 1), kMax);
  }
  return strides;
}

void check_size_nonnegative(IntArrayRef sizes) {
  for (int64_t s : sizes)
    OPSCOPE_CHECK(s >= 0, "Trying to create tensor with negative dimension ", s, ": ",
                  shape_str(sizes));
}

int64_t compute_numel(IntArrayRef sizes) {
  check_size_nonnegative(sizes);
  return check_numel(sizes);
}

int64_t check_numel(IntArrayRef sizes) {
  int64_t n;
  OPSCOPE_CHECK(!numel_overflows(sizes, &n), "numel: integer multiplication overflow");
  return n;
}

int64_t storage_nbytes_contiguous(IntArrayRef sizes, size_t itemsize) {
  int64_t numel, nbytes;
  bool overflowed = numel_overflows(sizes, &numel);
  overflowed |= mul_overflows(numel, static_cast<int64_t>(itemsize), &nbytes);
  OPSCOPE_CHECK(!overflowed, "Storage size calculation overflowed with sizes=", shape_str(sizes));
  return nbytes;
}

int64_t storage_nbytes(IntArrayRef sizes, IntArrayRef strides, size_t itemsize,
                       int64_t storage_offset) {
  // In uint64, like torch's computeStorageNbytes: a negative size or stride wraps to a huge
  // number and is reported as an overflow, as torch reports it.
  uint64_t extent = static_cast<uint64_t>(storage_offset) + 1;
  bool overflowed = false;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] == 0) return 0;
    uint64_t reach = 0;
    overflowed |= __builtin_mul_overflow(static_cast<uint64_t>(strides[d]),
                                         static_cast<uint64_t>(sizes[d] - 1), &reach);
    overflowed |= __builtin_add_overflow(extent, reach, &extent);
  }
  overflowed |= __builtin_mul_overflow(extent, static_cast<uint64_t>(itemsize), &extent);
  overflowed |= extent > static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  OPSCOPE_CHECK(!overflowed, "Storage size calculation overflowed with sizes=", shape_str(sizes),
                " and strides=", shape_str(strides));
  return static_cast<int64_t>(extent);
}

std::string shape_str(IntArrayRef sizes) {
  std::string s = "[";
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(sizes[i]);
  }
  return s + "]";
}

}  // namespace opscope
