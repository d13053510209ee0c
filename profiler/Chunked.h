// Chunked<T>: an append-only sequence that never moves what it holds — the recorder's storage.
//
// Semantically a vector you can only append to, whose elements stay where they are (references
// and indices stay valid as it grows). It grows in chunks of 1024 elements, so recording a
// step allocates about once per thousand events (std::deque's 512-byte blocks would mean a
// malloc every four events) and never copies what it recorded.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace opscope::profiler {

template <typename T, size_t ChunkSize = 1024>
class Chunked {
 public:
  Chunked() = default;
  Chunked(Chunked&& other) noexcept
      : chunks_(std::move(other.chunks_)), size_(std::exchange(other.size_, 0)) {}
  Chunked& operator=(Chunked&& other) noexcept {
    if (this != &other) {
      clear();
      chunks_ = std::move(other.chunks_);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  Chunked(const Chunked&) = delete;
  Chunked& operator=(const Chunked&) = delete;
  ~Chunked() { clear(); }

  template <typename... Args>
  T& emplace_back(Args&&... args) {
    if (size_ == chunks_.size() * ChunkSize)
      chunks_.emplace_back(static_cast<T*>(::operator new(sizeof(T) * ChunkSize)));
    T* slot = chunks_[size_ / ChunkSize].get() + size_ % ChunkSize;
    new (slot) T(std::forward<Args>(args)...);
    ++size_;
    return *slot;
  }

  template <typename It>
  void append(It begin, It end) {
    for (; begin != end; ++begin) emplace_back(*begin);
  }

  T& operator[](size_t i) { return chunks_[i / ChunkSize].get()[i % ChunkSize]; }
  const T& operator[](size_t i) const { return chunks_[i / ChunkSize].get()[i % ChunkSize]; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  void clear() {
    truncate();
    chunks_.clear();
  }
  // Destroys the elements but keeps the chunks, to be filled again without allocating.
  void truncate() {
    for (size_t i = 0; i < size_; ++i) (*this)[i].~T();
    size_ = 0;
  }

 private:
  struct Free {
    void operator()(T* p) const { ::operator delete(p); }
  };
  std::vector<std::unique_ptr<T, Free>> chunks_;
  size_t size_ = 0;
};

}  // namespace opscope::profiler
