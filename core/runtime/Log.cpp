#include "core/runtime/Log.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/runtime/Allocator.h"

namespace opscope {

bool log_requested(std::string_view channel) {
  const char* v = std::getenv("OPSCOPE_LOG");
  if (!v) return false;
  std::string_view list(v);
  while (!list.empty()) {
    size_t comma = list.find(',');
    std::string_view item = list.substr(0, comma);
    if (item == channel || item == "all") return true;
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return false;
}

void log_write(int fd, std::string_view text) {
  while (!text.empty()) {
    ssize_t n = ::write(fd, text.data(), text.size());
    if (n <= 0) return;
    text.remove_prefix(static_cast<size_t>(n));
  }
}

namespace {
std::atomic<int> g_alloc_log_fd{2};

std::string pointer_str(void* p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%p", p);
  return buf;
}

// "[alloc] cpu 4096 bytes at 0x55d0c3a0 (current 8192, peak 12288, allocations 3)"
void log_allocation(void* ptr, size_t nbytes, Device device, bool is_alloc,
                    const AllocatorStats& st) {
  std::string line = std::string(is_alloc ? "[alloc] " : "[free]  ") + device.str() + " " +
                     std::to_string(nbytes) + " bytes at " + pointer_str(ptr) + " (current " +
                     std::to_string(st.current_bytes) + ", peak " + std::to_string(st.peak_bytes) +
                     ", allocations " + std::to_string(st.num_allocs) + ")\n";
  log_write(g_alloc_log_fd.load(std::memory_order_relaxed), line);
}

struct AllocLogFromEnvironment {
  AllocLogFromEnvironment() {
    if (log_requested("alloc")) set_alloc_log(true);
  }
} alloc_log_from_environment;
}  // namespace

void set_alloc_log(bool on, int fd) {
  g_alloc_log_fd.store(fd);
  remove_alloc_observer(&log_allocation);  // at most once, however often it is switched on
  if (on) add_alloc_observer(&log_allocation);
}

}  // namespace opscope
