// The caching allocator's bookkeeping: how device memory is cut into blocks, cached and reused.
//
// Semantically this is PyTorch's CUDACachingAllocator, one per device: `cudaMalloc` and
// `cudaFree` synchronize the device and cost tens of microseconds, so memory freed by a tensor is
// kept and handed to the next request of a fitting size, on the same stream, without asking the
// driver. What a user sees (`opscope.cuda.memory_allocated()` counts what tensors hold,
// `memory_reserved()` what the cache holds from the driver; `empty_cache()` gives the unused
// part back) follows from the rules below.
//
// Note [Caching allocator rules]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//   - sizes round up to a multiple of 512 bytes (kMinBlockSize);
//   - requests of up to 1 MiB come from the small pool, whose segments (one driver allocation
//     each) are 2 MiB; larger requests from the large pool, whose segments are 20 MiB for requests
//     under 10 MiB and the request rounded up to 2 MiB otherwise;
//   - a free block is looked for in the request's pool on the request's stream: the smallest
//     one that fits (best fit, then lowest address). A block larger than needed is split when
//     the rest is worth keeping (>= 512 B in the small pool, > 1 MiB in the large one);
//   - a freed block merges with its free neighbours of the same segment (coalescing), so a
//     segment whose blocks are all free is one block again, which empty_cache() can release;
//   - a block is only reused on the stream it was allocated on (per-stream pools): work queued
//     on that stream runs in order, so a later kernel cannot touch the memory before an earlier
//     one is done with it. A tensor used on another stream must say so (record_stream): its
//     block then waits, when freed, for an event recorded on each such stream;
//   - when the driver says out of memory, the cache gives back every unused segment and asks
//     once more; failing that, OutOfMemoryError with torch's message.
//
// In implementation terms: blocks form a doubly linked list per segment (prev/next by address),
// each pool is a std::set ordered by (stream, size, address) so lower_bound is the best fit, and
// driver memory and events come from a DeviceMemory interface — cudaMalloc / cudaEvent in
// core/cuda/CUDACachingAllocator.cpp, a fake in tests/cpp/test_cuda_allocator.cpp. This file
// needs no CUDA headers and is compiled in every build.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/runtime/Exception.h"

namespace opscope::cuda {

constexpr size_t kMinBlockSize = 512;             // every size is a multiple of this
constexpr size_t kSmallSize = size_t(1) << 20;    // largest request of the small pool (1 MiB)
constexpr size_t kSmallBuffer = size_t(2) << 20;  // small pool segment (2 MiB)
constexpr size_t kLargeBuffer = size_t(20) << 20; // large pool segment for requests < 10 MiB
constexpr size_t kMinLargeAlloc = size_t(10) << 20;
constexpr size_t kRoundLarge = size_t(2) << 20;   // larger segments round up to 2 MiB

// Out of device memory even after the cache was emptied: opscope.cuda.OutOfMemoryError in Python
// (a RuntimeError), with torch's message.
class OutOfMemoryError : public Error {
  using Error::Error;
};

// A stream, as the bookkeeping sees it: cudaStream_t's value (0 is the default stream).
using StreamId = uintptr_t;

// Where segments and events come from (one device's).
class DeviceMemory {
 public:
  virtual ~DeviceMemory() = default;
  // A segment of `size` bytes, or nullptr when the device is out of memory.
  virtual void* malloc(size_t size) = 0;
  virtual void free(void* ptr) = 0;
  // An event recorded now on `stream`; done() is true once the work queued before it finished.
  virtual void* record_event(StreamId stream) = 0;
  virtual bool event_done(void* event) = 0;
  virtual void synchronize_event(void* event) = 0;
  virtual void destroy_event(void* event) = 0;
  // (free, total) bytes of the device, for the out-of-memory message.
  virtual std::pair<size_t, size_t> mem_info() = 0;
};

// One counter of torch's memory_stats(): current value, high-water mark, and the running totals
// of what was added and taken away.
struct Stat {
  int64_t current = 0, peak = 0, allocated = 0, freed = 0;
  void add(int64_t n);
  void reset_peak() { peak = current; }
};
enum StatType { kAggregate = 0, kSmallPool = 1, kLargePool = 2, kNumStatTypes = 3 };
using StatArray = Stat[kNumStatTypes];  // "all", "small_pool", "large_pool"

struct DeviceStats {
  StatArray allocation;            // blocks handed out
  StatArray segment;               // driver allocations held
  StatArray active;                // blocks in use or waiting for their streams
  StatArray inactive_split;        // free pieces of split segments
  StatArray allocated_bytes;       // bytes handed out (rounded sizes)
  StatArray reserved_bytes;        // bytes held from the driver
  StatArray active_bytes;
  StatArray inactive_split_bytes;
  StatArray requested_bytes;       // bytes asked for (before rounding)
  int64_t num_alloc_retries = 0;   // driver out of memory, cache emptied, asked again
  int64_t num_ooms = 0;            // OutOfMemoryError raised
};

struct BlockPool;
struct Block {
  StreamId stream = 0;
  size_t size = 0;       // rounded size of this piece
  size_t requested = 0;  // what the caller asked for (0 while free)
  BlockPool* pool = nullptr;
  char* ptr = nullptr;
  bool allocated = false;
  Block* prev = nullptr;  // neighbours in the same segment, by address
  Block* next = nullptr;
  std::set<StreamId> stream_uses;  // other streams that used it (record_stream)
  int event_count = 0;             // events still to complete before it can be reused
  bool is_split() const { return prev != nullptr || next != nullptr; }
};

// Blocks ordered by (stream, size, address): lower_bound({stream, size}) is the best fit.
struct BlockComparator {
  bool operator()(const Block* a, const Block* b) const;
};
struct BlockPool {
  std::set<Block*, BlockComparator> blocks;
  bool is_small;
};

// One segment as memory_snapshot() reports it: its blocks in address order.
struct SegmentInfo {
  uintptr_t address = 0;
  size_t total_size = 0;
  StreamId stream = 0;
  bool is_large = false;
  struct BlockInfo {
    size_t size = 0, requested = 0;
    bool allocated = false;
  };
  std::vector<BlockInfo> blocks;
};

// The caching allocator of one device. Thread-safe (one mutex).
class DeviceCachingAllocator {
 public:
  DeviceCachingAllocator(int device, DeviceMemory* memory) : device_(device), memory_(memory) {}
  ~DeviceCachingAllocator();
  DeviceCachingAllocator(const DeviceCachingAllocator&) = delete;
  DeviceCachingAllocator& operator=(const DeviceCachingAllocator&) = delete;

  // A block of at least `size` bytes usable on `stream` (nullptr for size 0). Throws
  // OutOfMemoryError (Note [Caching allocator rules]).
  void* allocate(size_t size, StreamId stream);
  // Returns the block at ptr to the cache (after the events of record_stream's streams).
  void free(void* ptr);
  // ptr's block is also used on `stream`: its reuse waits for the work queued there so far.
  void record_stream(void* ptr, StreamId stream);
  // Gives every unused segment back to the driver (waiting for pending events first).
  void empty_cache();

  DeviceStats stats() const;
  void reset_peak_stats();
  void reset_accumulated_stats();
  std::vector<SegmentInfo> snapshot() const;
  size_t block_size(void* ptr) const;  // rounded size of the allocated block at ptr (0: none)
  int device() const { return device_; }

  static size_t round_size(size_t size);       // to a multiple of kMinBlockSize
  static size_t allocation_size(size_t size);  // the segment a rounded size asks the driver for

 private:
  BlockPool& pool_for(size_t size) { return size <= kSmallSize ? small_ : large_; }
  static StatType pool_stat(const BlockPool& pool) {
    return pool.is_small ? kSmallPool : kLargePool;
  }
  Block* find_free(BlockPool& pool, StreamId stream, size_t size);
  Block* new_segment(BlockPool& pool, StreamId stream, size_t size);
  bool release_cached_segments();  // true when something was released
  void release_segment(Block* block);
  bool should_split(const Block* block, size_t size) const;
  void free_block(Block* block);  // into its pool, merged with free neighbours
  size_t try_merge(Block* dst, Block* src);
  void insert_events(Block* block);
  void process_events();
  void synchronize_and_free_events();
  [[noreturn]] void throw_oom(size_t size);

  int device_;
  DeviceMemory* memory_;
  mutable std::recursive_mutex mutex_;
  BlockPool small_{{}, true};
  BlockPool large_{{}, false};
  std::unordered_map<void*, Block*> active_;  // allocated blocks by address
  std::deque<std::pair<void*, Block*>> events_;  // (event, block) of record_stream, in order
  DeviceStats stats_;
};

// "2.00 GiB", "512 bytes": sizes as torch's messages and memory_summary() write them.
std::string format_size(uint64_t bytes);

}  // namespace opscope::cuda
