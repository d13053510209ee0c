// Tensor: the handle everyone passes around — one pointer to a shared TensorImpl.
//
// Semantically a Tensor is a reference: copying a Tensor copies the handle, not the data (as in
// PyTorch, `b = a` aliases). An undefined Tensor (default-constructed) is the "None" of optional
// tensor arguments.
//
// Worked example (C++; ops are declared in core/ops/*.h, see core/ops/README.md):
//
//   Tensor a = ops::ones({2, 3}, ScalarType::Float32);
//   Tensor b = ops::arange(3.0);                // f32[3]
//   Tensor c = ops::add(a, b);                  // broadcast: f32[2, 3]
//   Tensor v = ops::transpose(c, 0, 1);         // a view: shares c's storage
#pragma once

#include "core/tensor/TensorImpl.h"

namespace opscope {

class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(intrusive_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}

  bool defined() const { return static_cast<bool>(impl_); }
  TensorImpl* impl() const { return impl_.get(); }
  const intrusive_ptr<TensorImpl>& impl_ptr() const { return impl_; }
  TensorImpl* operator->() const { return impl_.get(); }
  bool is_same(const Tensor& o) const { return impl_ == o.impl_; }

  // Shortcuts used everywhere in kernels.
  IntArrayRef sizes() const { return impl_->sizes(); }
  IntArrayRef strides() const { return impl_->strides(); }
  int64_t dim() const { return impl_->dim(); }
  int64_t numel() const { return impl_->numel(); }
  ScalarType dtype() const { return impl_->dtype(); }
  Device device() const { return impl_->device(); }
  DispatchKeySet key_set() const { return impl_->key_set(); }
  bool is_contiguous() const { return impl_->is_contiguous(); }
  // Size / stride of dim d, negative d counted from the end (checked).
  int64_t size(int64_t d) const;
  int64_t stride(int64_t d) const;
  template <typename T>
  T* data_ptr() const {
    return static_cast<T*>(impl_->data());
  }
  void* data() const { return impl_->data(); }

  // "f32[2, 3]", the short form used in traces.
  std::string short_str() const;

 private:
  intrusive_ptr<TensorImpl> impl_;
};

// A new tensor with fresh storage (uninitialized), contiguous.
Tensor make_empty(IntArrayRef sizes, ScalarType dtype, Device device = Device(DeviceType::CPU));
// A new tensor with fresh storage and the given strides (as empty_strided).
Tensor make_empty_strided(IntArrayRef sizes, IntArrayRef strides, ScalarType dtype, Device device);
// A view of `base` with new geometry; shares storage and version counter.
Tensor make_view(const Tensor& base, IntArrayRef sizes, IntArrayRef strides,
                 int64_t storage_offset);
// t's memory, geometry and version counter under a new tensor that autograd does not see as a
// view (no view_base): detach(), _unsafe_view, the aliases autograd keeps of saved outputs.
Tensor make_alias_not_view(const Tensor& t);

// Wraps dim d (which may be negative) into [0, ndim); IndexError naming the range otherwise.
// PyTorch treats a 0-d tensor as having one dim for this purpose (wrap_scalar).
int64_t wrap_dim(int64_t d, int64_t ndim, bool wrap_scalar = true);

// The short dtype spelling used in traces: f32, f64, f16, bf16, i64, i32, i16, i8, u8, b8.
std::string_view short_dtype(ScalarType t);

}  // namespace opscope
