// Shared ownership with the count inside the object.
//
// Semantically, intrusive_ptr<T> is a shared_ptr<T> for the runtime's hot objects (TensorImpl,
// StorageImpl, VersionCounter, autograd nodes): many handles, one object, destroyed when the last
// handle goes. Keeping the count in the object (one allocation, one atomic per copy, and a raw
// pointer can be turned back into an owning handle) is what makes a tensor handle one word.
//
// In implementation terms, T derives from intrusive_target, which holds an atomic count; the
// object is deleted through its virtual destructor when the count drops to zero.
#pragma once

#include <atomic>
#include <cstdint>
#include <utility>

namespace opscope {

class intrusive_target {
 public:
  intrusive_target() = default;
  intrusive_target(const intrusive_target&) : refcount_(0) {}
  intrusive_target& operator=(const intrusive_target&) { return *this; }
  virtual ~intrusive_target() = default;

  uint32_t use_count() const { return refcount_.load(std::memory_order_acquire); }

 private:
  template <typename T>
  friend class intrusive_ptr;
  void retain() const { refcount_.fetch_add(1, std::memory_order_relaxed); }
  void release() const {
    if (refcount_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }
  mutable std::atomic<uint32_t> refcount_{0};
};

template <typename T>
class intrusive_ptr {
 public:
  intrusive_ptr() noexcept = default;
  // Takes a new reference on p (p may already be owned by other handles).
  explicit intrusive_ptr(T* p) noexcept : p_(p) {
    if (p_) p_->retain();
  }
  intrusive_ptr(const intrusive_ptr& o) noexcept : p_(o.p_) {
    if (p_) p_->retain();
  }
  intrusive_ptr(intrusive_ptr&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  template <typename U>
  intrusive_ptr(intrusive_ptr<U> o) noexcept : p_(o.release_unsafe()) {}
  ~intrusive_ptr() {
    if (p_) p_->release();
  }
  intrusive_ptr& operator=(intrusive_ptr o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }

  T* get() const noexcept { return p_; }
  T* operator->() const noexcept { return p_; }
  T& operator*() const noexcept { return *p_; }
  explicit operator bool() const noexcept { return p_ != nullptr; }
  bool operator==(const intrusive_ptr& o) const noexcept { return p_ == o.p_; }
  uint32_t use_count() const noexcept { return p_ ? p_->use_count() : 0; }
  void reset() noexcept { intrusive_ptr().swap(*this); }
  void swap(intrusive_ptr& o) noexcept { std::swap(p_, o.p_); }

  // Gives up ownership without releasing (used by converting constructors).
  T* release_unsafe() noexcept { return std::exchange(p_, nullptr); }

 private:
  T* p_ = nullptr;
};

template <typename T, typename... Args>
intrusive_ptr<T> make_intrusive(Args&&... args) {
  return intrusive_ptr<T>(new T(std::forward<Args>(args)...));
}

}  // namespace opscope
