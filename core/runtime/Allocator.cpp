#include "core/runtime/Allocator.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "core/runtime/Exception.h"
#include "core/runtime/HookSlots.h"

namespace opscope {

static HookSlots<AllocObserver> g_alloc_observers;
void add_alloc_observer(AllocObserver observer) {
  g_alloc_observers.add(observer);
}
void remove_alloc_observer(AllocObserver observer) {
  g_alloc_observers.remove(observer);
}

void* Allocator::allocate(size_t nbytes) {
  if (nbytes == 0) return nullptr;
  void* p = raw_allocate(nbytes);
  int64_t now = current_.fetch_add(static_cast<int64_t>(nbytes), std::memory_order_relaxed) +
                static_cast<int64_t>(nbytes);
  int64_t peak = peak_.load(std::memory_order_relaxed);
  while (now > peak && !peak_.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
  allocs_.fetch_add(1, std::memory_order_relaxed);
  if (!g_alloc_observers.empty()) g_alloc_observers.call(p, nbytes, device(), true, stats());
  return p;
}

void Allocator::deallocate(void* ptr, size_t nbytes) {
  if (!ptr) return;
  current_.fetch_sub(static_cast<int64_t>(nbytes), std::memory_order_relaxed);
  frees_.fetch_add(1, std::memory_order_relaxed);
  if (!g_alloc_observers.empty()) g_alloc_observers.call(ptr, nbytes, device(), false, stats());
  raw_deallocate(ptr, nbytes);
}

AllocatorStats Allocator::stats() const {
  return {current_.load(std::memory_order_relaxed), peak_.load(std::memory_order_relaxed),
          allocs_.load(std::memory_order_relaxed), frees_.load(std::memory_order_relaxed)};
}

void Allocator::reset_peak() {
  peak_.store(current_.load());
}

namespace {
constexpr size_t kSmallBlock = 1024;  // Note [CPU small-block cache]
constexpr int kSmallPerClass = 16;
// Note [CPU large-block cache]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A fresh 40 MB block from malloc is a fresh mmap: the first write to each 4 KiB page faults and
// the kernel zeroes it, which makes `c = a + b` on 10^7 floats run at a seventh of memory
// bandwidth (PyTorch 1.13 on CPU pays the same). So blocks of 1 MiB and more are
//   - 2 MiB aligned and advised as transparent huge pages (512x fewer faults and TLB misses), and
//   - kept when freed, up to kCpuCacheLimit bytes, for the next request of the same rounded size
//     (the memory a loop frees is what its next iteration asks for).
// Blocks of 64 KiB up to 1 MiB are kept the same way (rounded to whole pages, no huge-page
// advice): left to glibc, whether such a block comes back on fresh pages depends on its heap
// heuristics (the dynamic mmap threshold, trimming the heap's top), which other allocations move —
// a trace being recorded beside a training step made every step re-fault its activations (~280
// page faults a step at batch 256, none without the trace), and the profile charged those faults
// to the ops (mm at 3x its time). Smaller blocks go straight to aligned_alloc. Cached bytes are
// not "current": stats count what tensors hold. opscope._C._cpu_empty_cache() returns the cache
// to the system.
//
// Note [CPU small-block cache]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Tensors of a few elements (scalars, the per-op overhead a REPL user feels) spent a fifth of
// their op's time in aligned_alloc and free: glibc splits a 64-byte aligned chunk out of a larger
// one and consolidates the pieces again later. So blocks of up to kSmallBlock bytes are kept when
// freed, per thread, in size classes of 64 bytes, up to kSmallPerClass blocks a class (at most
// 136 KiB a thread). A block freed on another thread joins that thread's cache, which is fine:
// all of them come from the same aligned_alloc. A thread's blocks go back to the system when it
// exits; empty_cache() returns the calling thread's.
struct SmallBlockCache {
  static constexpr size_t kClasses = kSmallBlock / kCpuAlignment;
  void* blocks[kClasses][kSmallPerClass];
  int count[kClasses] = {};

  static size_t class_of(size_t rounded) { return rounded / kCpuAlignment - 1; }
  void release() {
    for (size_t c = 0; c < kClasses; ++c)
      for (int i = 0; i < count[c]; ++i) std::free(blocks[c][i]);
    std::fill(std::begin(count), std::end(count), 0);
  }
  ~SmallBlockCache();
};
// Trivially destructible, so it can still be read while the thread's cache is being destroyed or
// after (a tensor freed by a later thread_local or static destructor).
thread_local bool t_small_cache_gone = false;
thread_local SmallBlockCache t_small_cache;
SmallBlockCache::~SmallBlockCache() {
  t_small_cache_gone = true;
  release();
}

class CpuAllocator final : public Allocator {
 public:
  static constexpr size_t kMidBlock = size_t(64) << 10;  // Note [CPU large-block cache]
  static constexpr size_t kPage = 4096;
  static constexpr size_t kLargeBlock = size_t(1) << 20;
  static constexpr size_t kHugePage = size_t(2) << 20;
  static constexpr size_t kCpuCacheLimit = size_t(512) << 20;

  Device device() const override { return Device(DeviceType::CPU); }

  void empty_cache() {
    if (!t_small_cache_gone) t_small_cache.release();
    std::lock_guard lock(mutex_);
    for (auto& [size, blocks] : cache_)
      for (void* p : blocks) std::free(p);
    cache_.clear();
    cached_bytes_ = 0;
  }
  size_t cached_bytes() {
    std::lock_guard lock(mutex_);
    return cached_bytes_;
  }

 protected:
  void* raw_allocate(size_t nbytes) override {
    if (nbytes < kLargeBlock) {
      size_t rounded = round_small(nbytes);
      if (rounded > 0 && rounded <= kSmallBlock &&
          !t_small_cache_gone) {  // Note [CPU small-block cache]
        SmallBlockCache& c = t_small_cache;
        size_t k = SmallBlockCache::class_of(rounded);
        if (c.count[k] > 0) return c.blocks[k][--c.count[k]];
      }
      if (nbytes < kMidBlock) {
        void* p = std::aligned_alloc(kCpuAlignment, rounded);
        OPSCOPE_CHECK(p != nullptr, "CPU out of memory: tried to allocate ", nbytes, " bytes");
        return p;
      }
    }
    const bool large = nbytes >= kLargeBlock;
    size_t rounded = large ? round_large(nbytes) : round_mid(nbytes);
    if (void* p = take_cached(rounded)) return p;
    const size_t alignment = large ? kHugePage : kPage;
    void* p = std::aligned_alloc(alignment, rounded);
    if (!p) {  // give the cache back and try once more
      empty_cache();
      p = std::aligned_alloc(alignment, rounded);
    }
    OPSCOPE_CHECK(p != nullptr, "CPU out of memory: tried to allocate ", nbytes, " bytes");
    if (large) ::madvise(p, rounded, MADV_HUGEPAGE);  // advice only: fine if THP is off
    return p;
  }
  void raw_deallocate(void* ptr, size_t nbytes) override {
    if (size_t rounded = round_small(nbytes);
        rounded > 0 && rounded <= kSmallBlock && !t_small_cache_gone) {
      SmallBlockCache& c = t_small_cache;
      size_t k = SmallBlockCache::class_of(rounded);
      if (c.count[k] < kSmallPerClass) {
        c.blocks[k][c.count[k]++] = ptr;
        return;
      }
    }
    if (nbytes >= kMidBlock) {
      size_t rounded = nbytes >= kLargeBlock ? round_large(nbytes) : round_mid(nbytes);
      std::lock_guard lock(mutex_);
      if (cached_bytes_ + rounded <= kCpuCacheLimit) {
        cache_[rounded].push_back(ptr);
        cached_bytes_ += rounded;
        return;
      }
    }
    std::free(ptr);
  }

 private:
  static size_t round_small(size_t n) {
    return (n + kCpuAlignment - 1) / kCpuAlignment * kCpuAlignment;
  }
  static size_t round_large(size_t n) { return (n + kHugePage - 1) / kHugePage * kHugePage; }
  static size_t round_mid(size_t n) { return (n + kPage - 1) / kPage * kPage; }
  void* take_cached(size_t rounded) {
    std::lock_guard lock(mutex_);
    auto it = cache_.find(rounded);
    if (it == cache_.end() || it->second.empty()) return nullptr;
    void* p = it->second.back();
    it->second.pop_back();
    cached_bytes_ -= rounded;
    return p;
  }
  std::mutex mutex_;
  std::unordered_map<size_t, std::vector<void*>> cache_;
  size_t cached_bytes_ = 0;
};

Allocator* g_allocators[kNumDeviceTypes] = {};
}  // namespace

static CpuAllocator& cpu_allocator_instance() {
  static CpuAllocator* instance = new CpuAllocator();  // outlives every static tensor
  return *instance;
}
Allocator* cpu_allocator() {
  return &cpu_allocator_instance();
}
void cpu_empty_cache() {
  cpu_allocator_instance().empty_cache();
}
size_t cpu_cached_bytes() {
  return cpu_allocator_instance().cached_bytes();
}

Allocator* get_allocator(DeviceType type) {
  if (type == DeviceType::CPU) return cpu_allocator();
  Allocator* a = g_allocators[static_cast<int>(type)];
  OPSCOPE_CHECK(a != nullptr, "no allocator for device type '", device_type_name(type),
                "': this build of opscope has no ", device_type_name(type), " backend");
  return a;
}

void set_allocator(DeviceType type, Allocator* allocator) {
  g_allocators[static_cast<int>(type)] = allocator;
}

}  // namespace opscope
