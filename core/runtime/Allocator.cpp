#include "core/runtime/Allocator.h"

#include <cstdlib>
#include <cstring>

#include "core/runtime/Exception.h"

namespace opscope {

static std::atomic<AllocObserver> g_alloc_observer{nullptr};
void set_alloc_observer(AllocObserver observer) { g_alloc_observer.store(observer); }

void* Allocator::allocate(size_t nbytes) {
  if (nbytes == 0) return nullptr;
  void* p = raw_allocate(nbytes);
  int64_t now = current_.fetch_add(static_cast<int64_t>(nbytes), std::memory_order_relaxed) +
                static_cast<int64_t>(nbytes);
  int64_t peak = peak_.load(std::memory_order_relaxed);
  while (now > peak && !peak_.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
  allocs_.fetch_add(1, std::memory_order_relaxed);
  if (auto obs = g_alloc_observer.load(std::memory_order_relaxed); __builtin_expect(!!obs, 0))
    obs(p, nbytes, device(), true, stats());
  return p;
}

void Allocator::deallocate(void* ptr, size_t nbytes) {
  if (!ptr) return;
  current_.fetch_sub(static_cast<int64_t>(nbytes), std::memory_order_relaxed);
  frees_.fetch_add(1, std::memory_order_relaxed);
  if (auto obs = g_alloc_observer.load(std::memory_order_relaxed); __builtin_expect(!!obs, 0))
    obs(ptr, nbytes, device(), false, stats());
  raw_deallocate(ptr, nbytes);
}

AllocatorStats Allocator::stats() const {
  return {current_.load(std::memory_order_relaxed), peak_.load(std::memory_order_relaxed),
          allocs_.load(std::memory_order_relaxed), frees_.load(std::memory_order_relaxed)};
}

void Allocator::reset_peak() { peak_.store(current_.load()); }

namespace {
class CpuAllocator final : public Allocator {
 public:
  Device device() const override { return Device(DeviceType::CPU); }

 protected:
  void* raw_allocate(size_t nbytes) override {
    size_t rounded = (nbytes + kCpuAlignment - 1) / kCpuAlignment * kCpuAlignment;
    void* p = std::aligned_alloc(kCpuAlignment, rounded);
    OPSCOPE_CHECK(p != nullptr, "CPU out of memory: tried to allocate ", nbytes, " bytes");
    return p;
  }
  void raw_deallocate(void* ptr, size_t) override { std::free(ptr); }
};

Allocator* g_allocators[kNumDeviceTypes] = {};
}  // namespace

Allocator* cpu_allocator() {
  static CpuAllocator instance;
  return &instance;
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
