// Allocator: where tensor memory comes from, per device, with statistics and an observer.
//
// Semantically an allocator hands out blocks of device memory and takes them back. Each device
// type has one registered allocator (CPU: 64-byte aligned heap blocks; CUDA: a caching allocator,
// registered by the CUDA backend). Every allocation and free can be watched: the profiler's
// memory view and OPSCOPE_LOG=alloc hang off that one hook, which costs one branch when unused.
//
// In implementation terms: Allocator is an interface, allocations are counted in atomics, and
// the observers are a few global function pointers (HookSlots) behind one relaxed load.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "core/runtime/Device.h"

namespace opscope {

struct AllocatorStats {
  int64_t current_bytes = 0;  // bytes handed out and not yet freed
  int64_t peak_bytes = 0;     // high-water mark of current_bytes since start or reset_peak()
  int64_t num_allocs = 0;     // allocations since start
  int64_t num_frees = 0;      // frees since start
};

class Allocator {
 public:
  virtual ~Allocator() = default;
  virtual Device device() const = 0;
  // Returns a block of at least nbytes (nullptr for nbytes == 0). Throws opscope::Error when out
  // of memory, naming the size.
  void* allocate(size_t nbytes);
  void deallocate(void* ptr, size_t nbytes);

  AllocatorStats stats() const;
  void reset_peak();

 protected:
  virtual void* raw_allocate(size_t nbytes) = 0;
  virtual void raw_deallocate(void* ptr, size_t nbytes) = 0;

 private:
  std::atomic<int64_t> current_{0}, peak_{0}, allocs_{0}, frees_{0};
};

// The allocator for a device type; throws when the backend is not built or not registered.
Allocator* get_allocator(DeviceType type);
void set_allocator(DeviceType type, Allocator* allocator);

// The CPU allocator: 64-byte aligned (a cache line, and AVX-512's vector width); blocks of
// 1 MiB and more are huge-page backed and cached when freed (Note [CPU large-block cache]).
Allocator* cpu_allocator();
constexpr size_t kCpuAlignment = 64;
void cpu_empty_cache();     // frees the cached large blocks and the calling thread's small ones
size_t cpu_cached_bytes();  // bytes held by that cache

// Observer hooks: called after each allocation (is_alloc = true) and before each free, in the
// order added. A few may be set at once (OPSCOPE_LOG=alloc, a trace recording memory).
using AllocObserver = void (*)(void* ptr, size_t nbytes, Device device, bool is_alloc,
                               const AllocatorStats& after);
void add_alloc_observer(AllocObserver observer);
void remove_alloc_observer(AllocObserver observer);

}  // namespace opscope
