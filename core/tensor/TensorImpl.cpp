#include "core/tensor/TensorImpl.h"

#include "core/dispatch/LocalDispatchState.h"

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

TensorImpl::~TensorImpl() = default;

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
  sizes_ = DimVector(sizes);
  strides_ = DimVector(strides);
  storage_offset_ = storage_offset;
  refresh_numel_and_contiguity();
}

void TensorImpl::refresh_numel_and_contiguity() {
  numel_ = 1;
  for (int64_t s : sizes_) numel_ *= s;
  // Contiguous: strides equal contiguous_strides(sizes), ignoring dims of size 1 (any stride is
  // fine there) — PyTorch's definition. Empty tensors are contiguous.
  is_contiguous_ = true;
  if (numel_ == 0) return;
  int64_t expected = 1;
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
  DimVector strides(sizes.size());
  int64_t s = 1;
  for (size_t d = sizes.size(); d-- > 0;) {
    strides[d] = s;
    s *= std::max<int64_t>(sizes[d], 1);
  }
  return strides;
}

int64_t compute_numel(IntArrayRef sizes) {
  int64_t n = 1;
  bool overflow = false;
  for (int64_t s : sizes) {
    OPSCOPE_CHECK(s >= 0, "Trying to create tensor with negative dimension ", s, ": ",
                  shape_str(sizes));
    overflow |= __builtin_mul_overflow(n, s, &n);
  }
  // A zero anywhere makes the product 0 whatever overflowed before it.
  for (int64_t s : sizes)
    if (s == 0) return 0;
  OPSCOPE_CHECK(!overflow, "numel: integer multiplication overflow for sizes ", shape_str(sizes));
  return n;
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
