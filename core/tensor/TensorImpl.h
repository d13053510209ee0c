// TensorImpl: what a tensor is — a strided view of typed elements in a storage.
//
// Semantically a tensor is an n-dimensional array of `numel` elements of one dtype on one device.
// It also carries what the runtime needs to route and track it: its dispatch key set (which
// backend and which layers — autograd, ADInplaceOrView — see it), a version counter bumped by
// every in-place write (shared with its views, so autograd can tell a saved tensor was modified),
// and a slot for autograd metadata (requires_grad, grad, grad_fn), filled only when needed.
//
// In implementation terms, sizes and strides are counted in elements, not bytes:
//   element [i0, i1, ..., in-1] lives at storage element
//       storage_offset + i0*strides[0] + i1*strides[1] + ... + in-1*strides[n-1]
// and a contiguous (row-major) tensor has
//   strides[n-1] = 1,  strides[d] = strides[d+1] * sizes[d+1]
// A stride of 0 repeats an element (expand). See Note [Views share storage] in Storage.h.
#pragma once

#include <memory>

#include "core/runtime/DispatchKey.h"
#include "core/runtime/Device.h"
#include "core/runtime/ScalarType.h"
#include "core/runtime/SmallVector.h"
#include "core/runtime/Storage.h"

struct _object;  // PyObject, without including Python.h

namespace opscope {

// Counts in-place writes. Shared by a tensor and all its views.
struct VersionCounter final : intrusive_target {
  std::atomic<uint32_t> version{0};
};

// The slot autograd fills (core/autograd defines the concrete type).
struct AutogradMetaInterface {
  virtual ~AutogradMetaInterface() = default;
  virtual bool requires_grad() const = 0;
};

class TensorImpl final : public intrusive_target {
 public:
  // A new tensor over `storage` with the given geometry.
  TensorImpl(Storage storage, ScalarType dtype, IntArrayRef sizes, IntArrayRef strides,
             int64_t storage_offset);
  // A view: shares storage and version counter with `base`, and remembers base's root (see
  // view_base()) unless `is_view` is false (detach, a saved tensor's alias: same memory, but not
  // a view for autograd).
  TensorImpl(const TensorImpl& base, IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset,
             bool is_view = true);
  ~TensorImpl() override;

  IntArrayRef sizes() const { return sizes_; }
  IntArrayRef strides() const { return strides_; }
  int64_t size(int64_t d) const { return sizes_[static_cast<size_t>(d)]; }
  int64_t stride(int64_t d) const { return strides_[static_cast<size_t>(d)]; }
  int64_t dim() const { return static_cast<int64_t>(sizes_.size()); }
  int64_t numel() const { return numel_; }
  int64_t storage_offset() const { return storage_offset_; }
  ScalarType dtype() const { return dtype_; }
  size_t itemsize() const { return element_size(dtype_); }
  Device device() const { return storage_->device(); }
  DispatchKeySet key_set() const { return key_set_; }
  const Storage& storage() const { return storage_; }
  bool is_contiguous() const { return is_contiguous_; }
  // Pointer to the first element (storage data + offset * itemsize). In uintptr_t: an empty
  // tensor may carry any offset (x.as_strided((0,), (1,), 2**63 - 1), as torch allows), and its
  // pointer is never read. See Note [Size arithmetic is checked].
  void* data() const {
    return reinterpret_cast<void*>(reinterpret_cast<uintptr_t>(storage_->data()) +
                                   static_cast<uintptr_t>(storage_offset_) * itemsize());
  }

  // Changes the geometry in place (as_strided_, squeeze_, resize of an out= tensor).
  void set_geometry(IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset);
  void set_storage(Storage storage) { storage_ = std::move(storage); }

  // See Note [Views share storage]. The version counter is shared between views.
  uint32_t version() const { return version_->version.load(std::memory_order_relaxed); }
  void bump_version() { version_->version.fetch_add(1, std::memory_order_relaxed); }
  const intrusive_ptr<VersionCounter>& version_counter() const { return version_; }
  // A counter of its own (Tensor.data: writes through it are invisible to autograd, as in torch).
  void reset_version_counter() { version_ = make_intrusive<VersionCounter>(); }
  // `x.data = y`: takes y's storage, geometry, dtype and device; keeps its own version counter and
  // autograd state.
  void shallow_copy_from(const TensorImpl& other);

  // Made in inference mode (see core/autograd/GradMode.h): no autograd or ADInplaceOrView keys.
  bool is_inference() const { return is_inference_; }

  // A Python number turned into a 0-d tensor for an op (`t + 2`): it promotes like a Python
  // number, not like a tensor. See Note [Type promotion].
  bool is_wrapped_number() const { return is_wrapped_number_; }
  void set_wrapped_number(bool v) { is_wrapped_number_ = v; }

  AutogradMetaInterface* autograd_meta() const { return autograd_meta_.get(); }
  void set_autograd_meta(std::unique_ptr<AutogradMetaInterface> m) {
    autograd_meta_ = std::move(m);
  }
  // A tensor requires grad when it is a leaf marked so or has a grad_fn — or when it is a view
  // whose base requires grad and was written in place since the view's grad_fn was set (its
  // grad_fn is then regenerated from the base's history: see Note [In-place on a view]).
  bool requires_grad() const {
    return (autograd_meta_ && autograd_meta_->requires_grad()) ||
           (view_base_ && view_attr_version_ != version() && view_base_->requires_grad());
  }

  // The tensor this one is a view of (the root: a view of a view has its base's base), or null.
  // Python's `t._base`.
  TensorImpl* view_base() const { return view_base_.get(); }
  // For a view: the version at which its grad_fn was last set (or it was made).
  uint32_t view_attr_version() const { return view_attr_version_; }
  void set_view_attr_version(uint32_t v) { view_attr_version_ = v; }

  // Extra keys beyond backend + autograd (e.g. Python for __torch_dispatch__ subclasses).
  void add_keys(DispatchKeySet ks) { key_set_ = key_set_ | ks; }
  void remove_keys(DispatchKeySet ks) { key_set_ = key_set_ - ks; }

  // The Python object wrapping this tensor, if any (owned by Python; cleared when it dies).
  _object* pyobj() const { return pyobj_; }
  void set_pyobj(_object* o) { pyobj_ = o; }

 private:
  void refresh_numel_and_contiguity();

  Storage storage_;
  DimVector sizes_;
  DimVector strides_;
  int64_t storage_offset_ = 0;
  int64_t numel_ = 1;
  intrusive_ptr<VersionCounter> version_;
  intrusive_ptr<TensorImpl> view_base_;
  std::unique_ptr<AutogradMetaInterface> autograd_meta_;
  _object* pyobj_ = nullptr;
  DispatchKeySet key_set_;
  ScalarType dtype_;
  uint32_t view_attr_version_ = 0;
  bool is_contiguous_ = true;
  bool is_wrapped_number_ = false;
  bool is_inference_ = false;
};

// Row-major strides for sizes: strides[n-1] = 1, strides[d] = strides[d+1] * max(sizes[d+1], 1)
// (at most INT64_MAX: only an empty tensor's can overflow).
DimVector contiguous_strides(IntArrayRef sizes);

// Sizes and storage sizes, checked as torch 1.13 checks them, with its messages. See
// Note [Size arithmetic is checked] (core/runtime/CheckedMath.h).
//   check_size_nonnegative     "Trying to create tensor with negative dimension -1: [-1]"
//   check_numel                the product of sizes, or "numel: integer multiplication
//                              overflow" (a partial product that overflows counts)
//   compute_numel              both of the above (a factory's sizes)
//   storage_nbytes_contiguous  numel * itemsize, or "Storage size calculation overflowed with
//                              sizes=[..]" (torch's computeStorageNbytesContiguous)
//   storage_nbytes             bytes from storage element 0 to one past the furthest element,
//                              (offset + 1 + sum (size-1)*stride) * itemsize, 0 when empty, or
//                              "... with sizes=[..] and strides=[..]" (computeStorageNbytes)
void check_size_nonnegative(IntArrayRef sizes);
int64_t check_numel(IntArrayRef sizes);
int64_t compute_numel(IntArrayRef sizes);
int64_t storage_nbytes_contiguous(IntArrayRef sizes, size_t itemsize);
int64_t storage_nbytes(IntArrayRef sizes, IntArrayRef strides, size_t itemsize,
                       int64_t storage_offset = 0);
// "[2, 3]" as PyTorch prints shapes in messages.
std::string shape_str(IntArrayRef sizes);

}  // namespace opscope
