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
#include <mutex>
#include <new>
#include <unordered_map>
#include <utility>
#include <vector>

namespace opscope::profiler {

// Note [Recordings reuse their memory]
// A chunk of 1024 events is ~200 KB, which glibc gives back to the system when it is freed and
// maps afresh for the next recording: every new trace then paid for fresh pages again (~10 us a
// page the first time on this project's VMs; ~15% of a traced 1-element op's time in `perf`,
// exc_page_fault and friends). Freed chunks are kept instead, up to 32 MB, by size, and the next
// recording takes them back: its memory is pages the process has already touched.
namespace chunk_memory {
struct ChunkPool {
  std::mutex mutex;
  std::unordered_map<size_t, std::vector<void*>> free;  // by chunk size in bytes
  size_t bytes = 0;
  static constexpr size_t kMaxBytes = size_t(32) << 20;
};
inline ChunkPool& chunk_pool() {
  static auto* pool = new ChunkPool();  // never destroyed: recordings may outlive static teardown
  return *pool;
}
inline void* take_chunk(size_t bytes) {
  ChunkPool& pool = chunk_pool();
  {
    std::lock_guard lock(pool.mutex);
    auto it = pool.free.find(bytes);
    if (it != pool.free.end() && !it->second.empty()) {
      void* chunk = it->second.back();
      it->second.pop_back();
      pool.bytes -= bytes;
      return chunk;
    }
  }
  return ::operator new(bytes);
}
inline void give_chunk(void* chunk, size_t bytes) {
  ChunkPool& pool = chunk_pool();
  {
    std::lock_guard lock(pool.mutex);
    if (pool.bytes + bytes <= ChunkPool::kMaxBytes) {
      pool.free[bytes].push_back(chunk);
      pool.bytes += bytes;
      return;
    }
  }
  ::operator delete(chunk);
}
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
