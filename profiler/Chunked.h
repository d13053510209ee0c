// Chunked<T>: an append-only sequence that never moves what it holds — the recorder's storage.
//
// Semantically a vector you can only append to, whose elements stay where they are (references
// and indices stay valid as it grows). It grows in chunks of 1024 elements, so recording a
// step allocates about once per thousand events (std::deque's 512-byte blocks would mean a
// malloc every four events) and never copies what it recorded; chunks come from and go back to a
// pool (Note [Recordings reuse their memory]).
#pragma once

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

namespace opscope::profiler {

// Where chunks come from and go back to: a pool of memory already mapped and touched, kept filled
// ahead of the recorder by a thread of its own (Chunked.cpp: Note [Recordings reuse their
// memory], Note [Pages touched ahead of the recorder]).
namespace chunk_memory {
void get_ready(size_t bytes);  // a recording will take chunks of this size: have some ready
void* take_chunk(size_t bytes);
void give_chunk(void* chunk, size_t bytes);
}  // namespace chunk_memory

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

  // Has chunks of this sequence's size mapped and touched ahead of its first elements.
  static void get_ready() { chunk_memory::get_ready(sizeof(T) * ChunkSize); }

  template <typename... Args>
  T& emplace_back(Args&&... args) {
    if (size_ == chunks_.size() * ChunkSize)
      chunks_.emplace_back(static_cast<T*>(chunk_memory::take_chunk(sizeof(T) * ChunkSize)));
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
    void operator()(T* p) const { chunk_memory::give_chunk(p, sizeof(T) * ChunkSize); }
  };
  std::vector<std::unique_ptr<T, Free>> chunks_;
  size_t size_ = 0;
};

}  // namespace opscope::profiler
