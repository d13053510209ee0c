#include "core/runtime/Storage.h"

namespace opscope {

StorageImpl::StorageImpl(size_t nbytes, Allocator* allocator)
    : data_(allocator->allocate(nbytes)),
      nbytes_(nbytes),
      device_(allocator->device()),
      allocator_(allocator) {}

StorageImpl::StorageImpl(void* data, size_t nbytes, Device device, std::function<void()> release)
    : data_(data),
      nbytes_(nbytes),
      device_(device),
      allocator_(nullptr),
      release_(std::move(release)) {}

StorageImpl::~StorageImpl() {
  if (allocator_) {
    allocator_->deallocate(data_, nbytes_);
  } else if (release_) {
    release_();
  }
}

}  // namespace opscope
