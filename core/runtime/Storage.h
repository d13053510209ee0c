// Storage: the memory block behind one or more tensors.
//
// Note [Views share storage]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
// A view (t.view, t.transpose, t[1:], t.expand, ...) is a new TensorImpl with its own sizes,
// strides and storage offset over the *same* StorageImpl. Writes through one are seen through all;
// the block is freed when the last tensor that refers to it goes. Element i of a tensor lives at
//   data + (storage_offset + sum_d index[d] * stride[d]) * element_size
// Memory that opscope did not allocate (a NumPy array, a DLPack capsule) is wrapped with a
// deleter that releases the owner instead of the allocator.
#pragma once

#include <functional>

#include "core/runtime/Allocator.h"
#include "core/runtime/intrusive_ptr.h"

namespace opscope {

class StorageImpl final : public intrusive_target {
 public:
  // Allocates nbytes from the device's allocator.
  StorageImpl(size_t nbytes, Allocator* allocator);
  // Wraps memory owned elsewhere; `release` is called once, when the last view goes.
  StorageImpl(void* data, size_t nbytes, Device device, std::function<void()> release);
  ~StorageImpl() override;
  StorageImpl(const StorageImpl&) = delete;
  StorageImpl& operator=(const StorageImpl&) = delete;

  void* data() const { return data_; }
  size_t nbytes() const { return nbytes_; }
  Device device() const { return device_; }
  bool is_external() const { return allocator_ == nullptr; }

 private:
  void* data_;
  size_t nbytes_;
  Device device_;
  Allocator* allocator_;           // null for external memory
  std::function<void()> release_;  // set for external memory
};

using Storage = intrusive_ptr<StorageImpl>;

}  // namespace opscope
