// The memory of the recorder's chunks (Chunked.h): a pool of chunks already mapped and touched,
// refilled ahead of need by a thread of its own.
#include "profiler/Chunked.h"

#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <new>
#include <unordered_map>

namespace opscope::profiler::chunk_memory {

// Note [Recordings reuse their memory]
// A chunk of 1024 events is ~150 KB, which glibc gives back to the system when it is freed and
// maps afresh for the next recording: every new trace then paid for fresh pages again (~10 us a
// page the first time on this project's VMs; ~15% of a traced 1-element op's time in `perf`,
// exc_page_fault and friends). Freed chunks are kept instead, up to 32 MB, by size, and the next
// recording takes them back: its memory is pages the process has already touched.
//
// Note [Pages touched ahead of the recorder]
// Reuse does nothing for one long recording: a traced op writes ~1.3 KB of events and argument
// records, a fresh page every three ops. On the lent H200's VM that came to +2.6 to +3.6 us of
// host time per traced 1-element CUDA add (bench_cuda's "recording cost", against a target of
// +1 us), most of it the first touch of each page — the recorder's own work is ~0.3-1 us. So the
// pool keeps a reserve of each chunk size a recording uses (named when a recorder starts:
// get_ready), and a thread of its own maps and touches the chunks of that reserve (mmap with
// MAP_POPULATE: the pages come zeroed and in place in one call) whenever a taken chunk leaves it
// short: 2 MB of each size (2 to 16 chunks). The recorder's thread maps a chunk itself only
// when the reserve ran dry. (A reserve that doubled each time it ran dry measured worse on this
// project's 2-core machine: the refiller mapped 4x the memory used, competing for the cores.)
// A forked child gets a new pool (the parent's refiller thread does not exist there, and may
// have held the mutex).
// Measured: on this project's 2-core machine the first trace's cost per traced 1-element add
// went from ~+1.1 us (fresh chunks from operator new) to ~+0.6 us, the recording thread's page
// faults from 0.34 to ~0.01 per op. On the lent H200's VM (2026-11-27) the recording thread no
// longer faulted either (0.007 per op), yet the first trace still cost +3.5 us per CUDA add
// against +0.1 us in a second trace on reused pages: there the first touch of fresh memory
// stalls the process whichever thread makes it (~10 us a page), so only reuse helps.

namespace {
constexpr size_t kMaxBytes = size_t(32) << 20;  // freed and reserve chunks together
constexpr size_t kReserveBytes = size_t(2) << 20;

struct SizeClass {
  std::vector<void*> free;  // freed chunks and the reserve
  size_t reserve = 0;       // how many chunks the refiller keeps ready
};

struct ChunkPool {
  std::mutex mutex;
  std::condition_variable short_of_chunks;  // the refiller waits on it
  std::unordered_map<size_t, SizeClass> sizes;  // by chunk size in bytes
  size_t bytes = 0;
  bool refiller_started = false;
};

ChunkPool* g_pool = nullptr;

void map_pool_afresh() { g_pool = new ChunkPool(); }  // a fork's: the parent's stays, unused

ChunkPool& chunk_pool() {
  // Never destroyed: recordings may outlive static teardown.
  static const bool made = [] {
    map_pool_afresh();
    pthread_atfork(nullptr, nullptr, &map_pool_afresh);
    return true;
  }();
  (void)made;
  return *g_pool;
}

void* map_populated(size_t bytes) {
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
  return p == MAP_FAILED ? nullptr : p;
}

// The size whose reserve is short (0: none), with the pool's mutex held.
size_t short_size(const ChunkPool& pool) {
  for (const auto& [bytes, size] : pool.sizes)
    if (size.free.size() < size.reserve && pool.bytes + bytes <= kMaxBytes) return bytes;
  return 0;
}

// A size class, with its reserve (2 MB of chunks, 2 to 16 of them), with the mutex held. Its
// list has room for the whole reserve from the start: the refiller never allocates (see
// start_refiller).
SizeClass& size_class(ChunkPool& pool, size_t bytes) {
  SizeClass& size = pool.sizes[bytes];
  if (size.reserve == 0) {
    size.reserve = std::clamp<size_t>(kReserveBytes / bytes, 2, 16);
    size.free.reserve(2 * size.reserve);
  }
  return size;
}

void start_refiller(ChunkPool& pool);

void* refill_forever(void* arg) {
  ChunkPool* pool = static_cast<ChunkPool*>(arg);
  pthread_setname_np(pthread_self(), "opscope-chunks");
  std::unique_lock lock(pool->mutex);
  for (;;) {
    const size_t bytes = short_size(*pool);
    if (bytes == 0) {
      pool->short_of_chunks.wait(lock);
      continue;
    }
    lock.unlock();
    void* chunk = map_populated(bytes);
    lock.lock();
    if (chunk == nullptr) {  // out of memory: the recorder's own mmap will say so
      pool->short_of_chunks.wait(lock);
      continue;
    }
    pool->sizes.find(bytes)->second.free.push_back(chunk);  // within its reserved room
    pool->bytes += bytes;
  }
  return nullptr;
}

// The refiller is a small thread: a 128 KB stack, and no malloc of its own — a thread's first
// malloc makes glibc reserve it an arena of 64 MB of address space, which a process under an
// address-space limit (the fuzz workers', RLIMIT_AS) would feel: the thread with std::thread's
// 8 MB stack and an arena took 76 MB of address space for a 2 MB reserve.
void start_refiller(ChunkPool& pool) {  // with the mutex held
  if (pool.refiller_started) return;
  pool.refiller_started = true;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, size_t(128) << 10);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_t thread;
  // No thread to be had (EAGAIN): the recorder maps every chunk itself, as without one.
  pthread_create(&thread, &attr, &refill_forever, &pool);
  pthread_attr_destroy(&attr);
}
}  // namespace

void get_ready(size_t bytes) {
  ChunkPool& pool = chunk_pool();
  {
    std::lock_guard lock(pool.mutex);
    size_class(pool, bytes);
    start_refiller(pool);
  }
  pool.short_of_chunks.notify_one();
}

void* take_chunk(size_t bytes) {
  ChunkPool& pool = chunk_pool();
  void* chunk = nullptr;
  {
    std::lock_guard lock(pool.mutex);
    SizeClass& size = size_class(pool, bytes);
    if (!size.free.empty()) {
      chunk = size.free.back();
      size.free.pop_back();
      pool.bytes -= bytes;
    }
    start_refiller(pool);
  }
  pool.short_of_chunks.notify_one();
  if (chunk == nullptr && (chunk = map_populated(bytes)) == nullptr) throw std::bad_alloc();
  return chunk;
}

void give_chunk(void* chunk, size_t bytes) {
  ChunkPool& pool = chunk_pool();
  {
    std::lock_guard lock(pool.mutex);
    if (pool.bytes + bytes <= kMaxBytes) {
      pool.sizes[bytes].free.push_back(chunk);
      pool.bytes += bytes;
      return;
    }
  }
  ::munmap(chunk, bytes);
}

}  // namespace opscope::profiler::chunk_memory
