// The caching allocator's bookkeeping. See Note [Caching allocator rules] in CachingAllocator.h.
#include "core/cuda/host/CachingAllocator.h"

#include <algorithm>
#include <cstdio>

namespace opscope::cuda {

void Stat::add(int64_t n) {
  current += n;
  peak = std::max(peak, current);
  if (n > 0) {
    allocated += n;
  } else {
    freed -= n;
  }
}

static void add_stat(StatArray& stat, StatType pool, int64_t n) {
  stat[kAggregate].add(n);
  stat[pool].add(n);
}

bool BlockComparator::operator()(const Block* a, const Block* b) const {
  if (a->stream != b->stream) return a->stream < b->stream;
  if (a->size != b->size) return a->size < b->size;
  return a->ptr < b->ptr;
}

std::string format_size(uint64_t bytes) {
  char buf[64];
  if (bytes <= 1024) {
    std::snprintf(buf, sizeof buf, "%llu bytes", static_cast<unsigned long long>(bytes));
  } else if (bytes <= 1048576) {
    std::snprintf(buf, sizeof buf, "%.2f KiB", static_cast<double>(bytes) / 1024.0);
  } else if (bytes <= 1073741824) {
    std::snprintf(buf, sizeof buf, "%.2f MiB", static_cast<double>(bytes) / 1048576.0);
  } else {
    std::snprintf(buf, sizeof buf, "%.2f GiB", static_cast<double>(bytes) / 1073741824.0);
  }
  return buf;
}

size_t DeviceCachingAllocator::round_size(size_t size) {
  if (size < kMinBlockSize) return kMinBlockSize;
  return (size + kMinBlockSize - 1) / kMinBlockSize * kMinBlockSize;
}

size_t DeviceCachingAllocator::allocation_size(size_t size) {
  if (size <= kSmallSize) return kSmallBuffer;
  if (size < kMinLargeAlloc) return kLargeBuffer;
  return (size + kRoundLarge - 1) / kRoundLarge * kRoundLarge;
}

DeviceCachingAllocator::~DeviceCachingAllocator() {
  // Process exit: the driver takes everything back; free only the bookkeeping.
  for (BlockPool* pool : {&small_, &large_})
    for (Block* b : pool->blocks) delete b;
  for (auto& [ptr, b] : active_) delete b;
}

Block* DeviceCachingAllocator::find_free(BlockPool& pool, StreamId stream, size_t size) {
  Block key;
  key.stream = stream;
  key.size = size;
  auto it = pool.blocks.lower_bound(&key);
  if (it == pool.blocks.end() || (*it)->stream != stream) return nullptr;
  Block* b = *it;
  pool.blocks.erase(it);
  return b;
}

Block* DeviceCachingAllocator::new_segment(BlockPool& pool, StreamId stream, size_t size) {
  size_t segment = allocation_size(size);
  void* p = memory_->malloc(segment);
  if (!p) return nullptr;
  auto* b = new Block;
  b->stream = stream;
  b->size = segment;
  b->pool = &pool;
  b->ptr = static_cast<char*>(p);
  add_stat(stats_.segment, pool_stat(pool), 1);
  add_stat(stats_.reserved_bytes, pool_stat(pool), static_cast<int64_t>(segment));
  return b;
}

bool DeviceCachingAllocator::should_split(const Block* block, size_t size) const {
  size_t remaining = block->size - size;
  return block->pool->is_small ? remaining >= kMinBlockSize : remaining > kSmallSize;
}

void* DeviceCachingAllocator::allocate(size_t requested, StreamId stream) {
  if (requested == 0) return nullptr;
  std::lock_guard lock(mutex_);
  process_events();
  size_t size = round_size(requested);
  BlockPool& pool = pool_for(size);
  StatType ps = pool_stat(pool);
  Block* block = find_free(pool, stream, size);
  if (block) {
    if (block->is_split()) {  // it stops being an inactive piece of a split segment
      add_stat(stats_.inactive_split, ps, -1);
      add_stat(stats_.inactive_split_bytes, ps, -static_cast<int64_t>(block->size));
    }
  } else {
    block = new_segment(pool, stream, size);
    if (!block) {  // the driver is out of memory: give the cache back, ask once more
      stats_.num_alloc_retries += 1;
      release_cached_segments();
      block = new_segment(pool, stream, size);
    }
    if (!block) throw_oom(allocation_size(size));  // torch names the segment it asked for
  }
  if (should_split(block, size)) {
    auto* rest = new Block;
    rest->stream = stream;
    rest->pool = &pool;
    rest->ptr = block->ptr + size;
    rest->size = block->size - size;
    rest->prev = block;
    rest->next = block->next;
    if (rest->next) rest->next->prev = rest;
    block->next = rest;
    block->size = size;
    pool.blocks.insert(rest);
    add_stat(stats_.inactive_split, ps, 1);
    add_stat(stats_.inactive_split_bytes, ps, static_cast<int64_t>(rest->size));
  }
  block->allocated = true;
  block->requested = requested;
  active_.emplace(block->ptr, block);
  add_stat(stats_.allocation, ps, 1);
  add_stat(stats_.allocated_bytes, ps, static_cast<int64_t>(block->size));
  add_stat(stats_.active, ps, 1);
  add_stat(stats_.active_bytes, ps, static_cast<int64_t>(block->size));
  add_stat(stats_.requested_bytes, ps, static_cast<int64_t>(requested));
  return block->ptr;
}

void DeviceCachingAllocator::free(void* ptr) {
  if (!ptr) return;
  std::lock_guard lock(mutex_);
  auto it = active_.find(ptr);
  OPSCOPE_CHECK(it != active_.end(), "CUDA caching allocator: invalid device pointer: ", ptr);
  Block* block = it->second;
  active_.erase(it);
  StatType ps = pool_stat(*block->pool);
  block->allocated = false;
  add_stat(stats_.allocation, ps, -1);
  add_stat(stats_.allocated_bytes, ps, -static_cast<int64_t>(block->size));
  add_stat(stats_.requested_bytes, ps, -static_cast<int64_t>(block->requested));
  block->requested = 0;
  if (!block->stream_uses.empty()) {
    insert_events(block);  // stays active until its streams are past it
  } else {
    free_block(block);
  }
}

void DeviceCachingAllocator::record_stream(void* ptr, StreamId stream) {
  std::lock_guard lock(mutex_);
  auto it = active_.find(ptr);
  OPSCOPE_CHECK(it != active_.end(), "CUDA caching allocator: record_stream of a pointer it did "
                                     "not allocate: ", ptr);
  // Its own stream needs no event: work there is ordered already.
  if (stream != it->second->stream) it->second->stream_uses.insert(stream);
}

size_t DeviceCachingAllocator::try_merge(Block* dst, Block* src) {
  if (!src || src->allocated || src->event_count > 0 || !src->stream_uses.empty()) return 0;
  if (dst->prev == src) {  // [src][dst] -> [dst]
    dst->ptr = src->ptr;
    dst->prev = src->prev;
    if (dst->prev) dst->prev->next = dst;
  } else {  // [dst][src] -> [dst]
    dst->next = src->next;
    if (dst->next) dst->next->prev = dst;
  }
  size_t merged = src->size;
  dst->size += merged;
  dst->pool->blocks.erase(src);
  delete src;
  return merged;
}

void DeviceCachingAllocator::free_block(Block* block) {
  BlockPool& pool = *block->pool;
  StatType ps = pool_stat(pool);
  int64_t size_before = static_cast<int64_t>(block->size);
  // Each free neighbour absorbed was an inactive split piece; the merged block is one if it is
  // still split.
  for (Block* neighbour : {block->prev, block->next}) {
    size_t merged = try_merge(block, neighbour);
    if (merged > 0) {
      add_stat(stats_.inactive_split, ps, -1);
      add_stat(stats_.inactive_split_bytes, ps, -static_cast<int64_t>(merged));
    }
  }
  add_stat(stats_.active, ps, -1);
  add_stat(stats_.active_bytes, ps, -size_before);
  if (block->is_split()) {
    add_stat(stats_.inactive_split, ps, 1);
    add_stat(stats_.inactive_split_bytes, ps, static_cast<int64_t>(block->size));
  }
  block->stream_uses.clear();
  pool.blocks.insert(block);
}

void DeviceCachingAllocator::insert_events(Block* block) {
  std::set<StreamId> streams;
  streams.swap(block->stream_uses);
  for (StreamId s : streams) {
    events_.emplace_back(memory_->record_event(s), block);
    block->event_count += 1;
  }
}

void DeviceCachingAllocator::process_events() {
  // Events complete in order per stream, not across streams; like torch, stop at the first one
  // not done (a later one is looked at on a later call).
  while (!events_.empty()) {
    auto [event, block] = events_.front();
    if (!memory_->event_done(event)) break;
    memory_->destroy_event(event);
    events_.pop_front();
    if (--block->event_count == 0) free_block(block);
  }
}

void DeviceCachingAllocator::synchronize_and_free_events() {
  for (auto& [event, block] : events_) {
    memory_->synchronize_event(event);
    memory_->destroy_event(event);
    if (--block->event_count == 0) free_block(block);
  }
  events_.clear();
}

void DeviceCachingAllocator::release_segment(Block* block) {
  BlockPool& pool = *block->pool;
  StatType ps = pool_stat(pool);
  memory_->free(block->ptr);
  add_stat(stats_.segment, ps, -1);
  add_stat(stats_.reserved_bytes, ps, -static_cast<int64_t>(block->size));
  pool.blocks.erase(block);
  delete block;
}

bool DeviceCachingAllocator::release_cached_segments() {
  synchronize_and_free_events();
  bool released = false;
  for (BlockPool* pool : {&large_, &small_}) {
    std::vector<Block*> whole;
    for (Block* b : pool->blocks)
      if (!b->is_split()) whole.push_back(b);  // a free block that is its whole segment
    for (Block* b : whole) release_segment(b);
    released |= !whole.empty();
  }
  return released;
}

void DeviceCachingAllocator::empty_cache() {
  std::lock_guard lock(mutex_);
  release_cached_segments();
}

void DeviceCachingAllocator::throw_oom(size_t size) {
  stats_.num_ooms += 1;
  auto [free_bytes, total] = memory_->mem_info();
  // torch 1.13's message, word for word (CUDACachingAllocator.cpp).
  throw OutOfMemoryError(detail::str(
      "CUDA out of memory. Tried to allocate ", format_size(size), " (GPU ", device_, "; ",
      format_size(total), " total capacity; ",
      format_size(static_cast<uint64_t>(stats_.allocated_bytes[kAggregate].current)),
      " already allocated; ", format_size(free_bytes), " free; ",
      format_size(static_cast<uint64_t>(stats_.reserved_bytes[kAggregate].current)),
      " reserved in total by PyTorch) If reserved memory is >> allocated memory try setting "
      "max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and "
      "PYTORCH_CUDA_ALLOC_CONF"));
}

DeviceStats DeviceCachingAllocator::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

void DeviceCachingAllocator::reset_peak_stats() {
  std::lock_guard lock(mutex_);
  for (StatArray* s : {&stats_.allocation, &stats_.segment, &stats_.active, &stats_.inactive_split,
                       &stats_.allocated_bytes, &stats_.reserved_bytes, &stats_.active_bytes,
                       &stats_.inactive_split_bytes, &stats_.requested_bytes})
    for (Stat& stat : *s) stat.reset_peak();
}

void DeviceCachingAllocator::reset_accumulated_stats() {
  std::lock_guard lock(mutex_);
  for (StatArray* s : {&stats_.allocation, &stats_.segment, &stats_.active, &stats_.inactive_split,
                       &stats_.allocated_bytes, &stats_.reserved_bytes, &stats_.active_bytes,
                       &stats_.inactive_split_bytes, &stats_.requested_bytes})
    for (Stat& stat : *s) stat.allocated = stat.freed = 0;
  stats_.num_alloc_retries = stats_.num_ooms = 0;
}

size_t DeviceCachingAllocator::block_size(void* ptr) const {
  std::lock_guard lock(mutex_);
  auto it = active_.find(ptr);
  return it == active_.end() ? 0 : it->second->size;
}

std::vector<SegmentInfo> DeviceCachingAllocator::snapshot() const {
  std::lock_guard lock(mutex_);
  // Every block belongs to a segment whose first block has no prev: find the heads.
  std::vector<const Block*> heads;
  auto consider = [&](const Block* b) {
    if (!b->prev) heads.push_back(b);
  };
  for (const BlockPool* pool : {&small_, &large_})
    for (const Block* b : pool->blocks) consider(b);
  for (const auto& [ptr, b] : active_) consider(b);
  for (const auto& [event, b] : events_) consider(b);
  std::sort(heads.begin(), heads.end(), [](const Block* a, const Block* b) { return a->ptr < b->ptr; });
  heads.erase(std::unique(heads.begin(), heads.end()), heads.end());
  std::vector<SegmentInfo> out;
  for (const Block* head : heads) {
    SegmentInfo seg;
    seg.address = reinterpret_cast<uintptr_t>(head->ptr);
    seg.stream = head->stream;
    seg.is_large = !head->pool->is_small;
    for (const Block* b = head; b; b = b->next) {
      seg.total_size += b->size;
      seg.blocks.push_back({b->size, b->requested, b->allocated || b->event_count > 0});
    }
    out.push_back(std::move(seg));
  }
  return out;
}

}  // namespace opscope::cuda
