// The CUDA caching allocator's bookkeeping (core/cuda/host/CachingAllocator.h) against a fake
// device — no GPU, no CUDA headers: size rounding, the two pools and their segment sizes, best
// fit, splitting and coalescing, per-stream reuse, record_stream's events, out of memory (retry
// after emptying the cache, then torch's message), statistics. And the kernels' geometry
// (core/cuda/host/Geometry.h): coalescing of dims and offsets.
#include <doctest/doctest.h>

#include <cstdlib>
#include <map>
#include <set>
#include <string>

#include "core/cuda/host/CachingAllocator.h"
#include "core/cuda/host/Geometry.h"

using namespace opscope::cuda;

namespace {

// Device memory from a fixed budget, with addresses that never overlap, and events that
// complete when the test says so.
class FakeMemory final : public DeviceMemory {
 public:
  explicit FakeMemory(size_t capacity) : capacity_(capacity) {}
  void* malloc(size_t size) override {
    ++mallocs;
    if (used + size > capacity_) return nullptr;
    used += size;
    void* p = reinterpret_cast<void*>(next_);
    next_ += size + 4096;  // a gap: neighbouring segments never look adjacent
    segments[p] = size;
    return p;
  }
  void free(void* ptr) override {
    auto it = segments.find(ptr);
    REQUIRE(it != segments.end());  // only whole segments go back
    used -= it->second;
    segments.erase(it);
    ++frees;
  }
  void* record_event(StreamId stream) override {
    auto* e = new int(next_event_++);
    pending.insert(e);
    event_streams[e] = stream;
    return e;
  }
  bool event_done(void* event) override { return !pending.count(static_cast<int*>(event)); }
  void synchronize_event(void* event) override { pending.erase(static_cast<int*>(event)); }
  void destroy_event(void* event) override {
    event_streams.erase(static_cast<int*>(event));
    delete static_cast<int*>(event);
    ++destroyed_events;
  }
  std::pair<size_t, size_t> mem_info() override { return {capacity_ - used, capacity_}; }

  void complete_all_events() { pending.clear(); }

  size_t used = 0;
  int mallocs = 0, frees = 0, destroyed_events = 0;
  std::map<void*, size_t> segments;
  std::set<int*> pending;
  std::map<int*, StreamId> event_streams;

 private:
  size_t capacity_;
  uintptr_t next_ = 0x10000000;
  int next_event_ = 0;
};

constexpr size_t MiB = size_t(1) << 20;
char* at(void* p) {
  return static_cast<char*>(p);
}

}  // namespace

TEST_CASE("sizes round to 512 bytes; small requests take 2 MiB segments, large ones 20 MiB or "
          "their size rounded to 2 MiB") {
  CHECK(DeviceCachingAllocator::round_size(1) == 512);
  CHECK(DeviceCachingAllocator::round_size(512) == 512);
  CHECK(DeviceCachingAllocator::round_size(513) == 1024);
  CHECK(DeviceCachingAllocator::allocation_size(512) == 2 * MiB);
  CHECK(DeviceCachingAllocator::allocation_size(MiB) == 2 * MiB);
  CHECK(DeviceCachingAllocator::allocation_size(MiB + 512) == 20 * MiB);
  CHECK(DeviceCachingAllocator::allocation_size(10 * MiB) == 10 * MiB);
  CHECK(DeviceCachingAllocator::allocation_size(11 * MiB + 1) == 12 * MiB);

  FakeMemory mem(1 << 30);
  DeviceCachingAllocator a(0, &mem);
  CHECK(a.allocate(0, 0) == nullptr);
  void* p = a.allocate(100, 0);
  CHECK(a.block_size(p) == 512);
  CHECK(mem.segments.at(p) == 2 * MiB);
  void* q = a.allocate(3 * MiB, 0);
  CHECK(mem.segments.at(q) == 20 * MiB);
  DeviceStats s = a.stats();
  CHECK(s.allocated_bytes[kAggregate].current == 512 + 3 * MiB);
  CHECK(s.requested_bytes[kAggregate].current == 100 + 3 * MiB);
  CHECK(s.reserved_bytes[kAggregate].current == 22 * MiB);
  CHECK(s.reserved_bytes[kSmallPool].current == 2 * MiB);
  CHECK(s.reserved_bytes[kLargePool].current == 20 * MiB);
  CHECK(s.segment[kAggregate].current == 2);
  a.free(p);
  a.free(q);
}

TEST_CASE("a freed block is reused without asking the driver; pieces of a segment are split off "
          "and merge back") {
  FakeMemory mem(1 << 30);
  DeviceCachingAllocator a(0, &mem);
  void* p1 = a.allocate(1000, 0);  // 1024 of a 2 MiB segment
  void* p2 = a.allocate(1000, 0);  // the next 1024 of the same segment
  CHECK(mem.mallocs == 1);
  CHECK(at(p2) == at(p1) + 1024);
  CHECK(a.stats().inactive_split[kAggregate].current == 1);  // the segment's free tail
  a.free(p1);
  CHECK(a.stats().inactive_split[kAggregate].current == 2);  // the hole and the tail
  void* p3 = a.allocate(512, 0);  // best fit: the 1024 hole (smaller than the tail), split
  CHECK(p3 == p1);
  CHECK(mem.mallocs == 1);
  a.free(p3);
  a.free(p2);
  // All three pieces merged back: one free block the size of the segment.
  DeviceStats s = a.stats();
  CHECK(s.inactive_split[kAggregate].current == 0);
  CHECK(s.active[kAggregate].current == 0);
  CHECK(s.allocated_bytes[kAggregate].current == 0);
  CHECK(s.reserved_bytes[kAggregate].current == 2 * MiB);
  auto snap = a.snapshot();
  REQUIRE(snap.size() == 1);
  REQUIRE(snap[0].blocks.size() == 1);
  CHECK(snap[0].blocks[0].size == 2 * MiB);
  a.empty_cache();
  CHECK(mem.frees == 1);
  CHECK(mem.used == 0);
  CHECK(a.stats().reserved_bytes[kAggregate].current == 0);
}

TEST_CASE("large pool: a remainder of 1 MiB or less is not split off") {
  FakeMemory mem(1 << 30);
  DeviceCachingAllocator a(0, &mem);
  void* big = a.allocate(19 * MiB + 512, 0);  // 20 MiB segment, 511.5 KiB left: kept whole
  CHECK(a.block_size(big) == 20 * MiB);
  a.free(big);
  void* p = a.allocate(4 * MiB, 0);  // from the cached 20 MiB: 16 MiB left, split off
  CHECK(p == big);
  CHECK(a.block_size(p) == 4 * MiB);
  CHECK(mem.mallocs == 1);
  void* q = a.allocate(16 * MiB, 0);  // exactly the rest
  CHECK(at(q) == at(p) + 4 * MiB);
  CHECK(mem.mallocs == 1);
  a.free(p);
  a.free(q);
}

TEST_CASE("blocks are reused only on their own stream") {
  FakeMemory mem(1 << 30);
  DeviceCachingAllocator a(0, &mem);
  void* p = a.allocate(4096, /*stream=*/7);
  a.free(p);
  void* q = a.allocate(4096, /*stream=*/9);  // stream 9 may not take stream 7's block
  CHECK(q != p);
  CHECK(mem.mallocs == 2);
  void* r = a.allocate(4096, 7);
  CHECK(r == p);
  a.free(q);
  a.free(r);
}

TEST_CASE("record_stream: a freed block waits for an event on each other stream that used it") {
  FakeMemory mem(1 << 30);
  DeviceCachingAllocator a(0, &mem);
  void* p = a.allocate(4096, 1);
  a.record_stream(p, 1);  // its own stream: nothing to wait for
  a.record_stream(p, 2);
  a.record_stream(p, 3);
  a.free(p);
  CHECK(mem.pending.size() == 2);
  CHECK(a.stats().active[kAggregate].current == 1);  // not reusable yet
  void* q = a.allocate(4096, 1);
  CHECK(q != p);  // p's events are still pending
  mem.complete_all_events();
  void* r = a.allocate(4096, 1);  // processing the events returned p to the pool first
  CHECK(r == p);
  CHECK(mem.destroyed_events == 2);
  a.free(q);
  a.free(r);
  CHECK(a.stats().active[kAggregate].current == 0);

  // empty_cache waits for pending events, then releases.
  void* s = a.allocate(4096, 1);
  a.record_stream(s, 5);
  a.free(s);
  a.empty_cache();
  CHECK(mem.used == 0);
  CHECK(a.stats().segment[kAggregate].current == 0);
}

TEST_CASE("out of memory: the cache is emptied and the request retried, then torch's error") {
  FakeMemory mem(40 * MiB);
  DeviceCachingAllocator a(3, &mem);
  void* p = a.allocate(30 * MiB, 0);
  a.free(p);  // 30 MiB cached
  void* q = a.allocate(36 * MiB, 0);  // does not fit beside the cache: released, then fits
  CHECK(q != nullptr);
  CHECK(a.stats().num_alloc_retries == 1);
  CHECK(a.stats().reserved_bytes[kAggregate].current == 36 * MiB);
  std::string message;
  try {
    a.allocate(8 * MiB, 0);
  } catch (const OutOfMemoryError& e) {
    message = e.what();
  }
  CHECK(message ==
        "CUDA out of memory. Tried to allocate 20.00 MiB (GPU 3; 40.00 MiB total capacity; "
        "36.00 MiB already allocated; 4.00 MiB free; 36.00 MiB reserved in total by PyTorch) If "
        "reserved memory is >> allocated memory try setting max_split_size_mb to avoid "
        "fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF");
  CHECK(a.stats().num_ooms == 1);
  CHECK_THROWS_AS(a.allocate(8 * MiB, 0), opscope::Error);  // a RuntimeError in Python
  a.free(q);
}

TEST_CASE("fragmentation: a split segment is not released by empty_cache until it is whole") {
  FakeMemory mem(1 << 30);
  DeviceCachingAllocator a(0, &mem);
  void* x = a.allocate(2 * MiB, 0);  // 20 MiB segment, split
  void* y = a.allocate(2 * MiB, 0);
  a.free(x);
  a.empty_cache();
  CHECK(mem.frees == 0);  // y still holds part of the segment
  a.free(y);
  a.empty_cache();
  CHECK(mem.frees == 1);
}

TEST_CASE("statistics: peaks, totals, reset") {
  FakeMemory mem(1 << 30);
  DeviceCachingAllocator a(0, &mem);
  void* p = a.allocate(1 << 20, 0);
  void* q = a.allocate(1 << 20, 0);
  a.free(p);
  DeviceStats s = a.stats();
  CHECK(s.allocated_bytes[kAggregate].peak == 2 << 20);
  CHECK(s.allocated_bytes[kAggregate].current == 1 << 20);
  CHECK(s.allocated_bytes[kAggregate].allocated == 2 << 20);
  CHECK(s.allocated_bytes[kAggregate].freed == 1 << 20);
  CHECK(s.allocation[kSmallPool].allocated == 2);
  a.reset_peak_stats();
  CHECK(a.stats().allocated_bytes[kAggregate].peak == 1 << 20);
  a.reset_accumulated_stats();
  CHECK(a.stats().allocated_bytes[kAggregate].allocated == 0);
  CHECK_THROWS_AS(a.free(reinterpret_cast<void*>(0x42)), opscope::Error);
  a.free(q);
}

TEST_CASE("format_size writes sizes as torch's messages do") {
  CHECK(format_size(512) == "512 bytes");
  CHECK(format_size(1024) == "1024 bytes");
  CHECK(format_size(1536) == "1.50 KiB");
  CHECK(format_size(3 * MiB) == "3.00 MiB");
  CHECK(format_size(size_t(5) << 30) == "5.00 GiB");
}

TEST_CASE("kernel geometry: dims coalesce when every operand allows it; offsets follow strides") {
  // Two contiguous (2, 3, 4) operands: one dim of 24.
  int64_t sizes[] = {2, 3, 4};
  int64_t contiguous[] = {12, 4, 1};
  const int64_t* st2[] = {contiguous, contiguous};
  auto g = Geometry<2>::make(sizes, st2, 3);
  CHECK(g.ndim == 1);
  CHECK(g.sizes[0] == 24);
  // dst contiguous, src the transpose of a (4, 3, 2)-ish layout: nothing merges.
  int64_t transposed[] = {1, 2, 6};
  const int64_t* st3[] = {contiguous, transposed};
  auto t = Geometry<2>::make(sizes, st3, 3);
  CHECK(t.ndim == 3);
  int64_t off[2];
  t.offsets(5, off);  // index (0, 1, 1)
  CHECK(off[0] == 5);
  CHECK(off[1] == 2 + 6);
  // Size-1 dims drop out; a broadcast (stride 0) dim stays.
  int64_t sizes1[] = {3, 1, 4};
  int64_t bcast[] = {0, 7, 1};
  int64_t dense[] = {4, 4, 1};
  const int64_t* st4[] = {dense, bcast};
  auto b = Geometry<2>::make(sizes1, st4, 3);
  CHECK(b.ndim == 2);
  b.offsets(6, off);  // index (1, 0, 2)
  CHECK(off[0] == 6);
  CHECK(off[1] == 2);
}
