// A vector of trivially copyable values that lives inline up to N elements.
//
// Semantically it is std::vector<T>; it exists because every tensor carries two of them (sizes
// and strides) and most tensors have at most 5 dims: keeping those inline saves two heap
// allocations per tensor, which is most of what a small op costs.
//
// In implementation terms: data_ points at inline_ until the size exceeds N, then at a heap block.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <new>
#include <span>
#include <type_traits>

namespace opscope {

template <typename T, size_t N>
class SmallVector {
  static_assert(std::is_trivially_copyable_v<T>, "SmallVector holds plain values only");

 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;

  SmallVector() = default;
  explicit SmallVector(size_t n, T value = T()) { assign(n, value); }
  SmallVector(std::initializer_list<T> il) { assign(il.begin(), il.end()); }
  SmallVector(std::span<const T> s) { assign(s.begin(), s.end()); }
  template <typename It>
  SmallVector(It first, It last) {
    assign(first, last);
  }
  SmallVector(const SmallVector& o) { assign(o.begin(), o.end()); }
  SmallVector(SmallVector&& o) noexcept { steal(o); }
  SmallVector& operator=(const SmallVector& o) {
    if (this != &o) assign(o.begin(), o.end());
    return *this;
  }
  SmallVector& operator=(SmallVector&& o) noexcept {
    if (this != &o) {
      free_heap();
      steal(o);
    }
    return *this;
  }
  ~SmallVector() { free_heap(); }

  template <typename It>
  void assign(It first, It last) {
    size_t n = static_cast<size_t>(std::distance(first, last));
    reserve(n);
    std::copy(first, last, data_);
    size_ = n;
  }
  void assign(size_t n, T value) {
    reserve(n);
    std::fill(data_, data_ + n, value);
    size_ = n;
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T& back() { return data_[size_ - 1]; }
  const T& back() const { return data_[size_ - 1]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  operator std::span<const T>() const { return {data_, size_}; }

  void reserve(size_t n) {
    if (n <= capacity_) return;
    size_t cap = std::max(n, capacity_ * 2);
    T* p = static_cast<T*>(std::malloc(cap * sizeof(T)));
    if (!p) throw std::bad_alloc();
    std::memcpy(p, data_, size_ * sizeof(T));
    free_heap();
    data_ = p;
    capacity_ = cap;
  }
  void resize(size_t n, T value = T()) {
    reserve(n);
    if (n > size_) std::fill(data_ + size_, data_ + n, value);
    size_ = n;
  }
  void push_back(T v) {
    if (size_ == capacity_) reserve(size_ + 1);
    data_[size_++] = v;
  }
  void pop_back() { --size_; }
  void insert(const T* pos, T v) {
    size_t i = static_cast<size_t>(pos - data_);
    push_back(v);
    std::rotate(data_ + i, data_ + size_ - 1, data_ + size_);
  }
  void erase(const T* pos) {
    size_t i = static_cast<size_t>(pos - data_);
    std::copy(data_ + i + 1, data_ + size_, data_ + i);
    --size_;
  }
  void clear() { size_ = 0; }

  friend bool operator==(const SmallVector& a, const SmallVector& b) {
    return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
  }

 private:
  bool on_heap() const { return data_ != inline_; }
  void free_heap() {
    if (on_heap()) std::free(data_);
    data_ = inline_;
    capacity_ = N;
  }
  void steal(SmallVector& o) {
    if (o.on_heap()) {
      data_ = o.data_;
      capacity_ = o.capacity_;
    } else {
      data_ = inline_;
      capacity_ = N;
      std::memcpy(inline_, o.inline_, o.size_ * sizeof(T));
    }
    size_ = o.size_;
    o.data_ = o.inline_;
    o.capacity_ = N;
    o.size_ = 0;
  }

  T inline_[N];
  T* data_ = inline_;
  size_t size_ = 0;
  size_t capacity_ = N;
};

// Sizes and strides as arguments: a non-owning view (std::span) that also takes a braced list,
// so `make_empty({2, 3}, ...)` reads like PyTorch's at::empty({2, 3}). Like c10::IntArrayRef,
// it must not outlive what it views: pass it down, never store it.
class IntArrayRef : public std::span<const int64_t> {
 public:
  using std::span<const int64_t>::span;
  IntArrayRef(std::span<const int64_t> s) : std::span<const int64_t>(s) {}  // NOLINT
  IntArrayRef(std::initializer_list<int64_t> il)                            // NOLINT
      : std::span<const int64_t>(il.begin(), il.size()) {}
};
using DimVector = SmallVector<int64_t, 6>;

}  // namespace opscope
