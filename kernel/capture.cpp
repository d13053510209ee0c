// File descriptors 1 and 2 during cells. See capture.h.
#include "kernel/capture.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <thread>

namespace xopscope::capture {

// Note [Output written below Python]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The pipes' reader never takes the GIL: a cell's C++ code may write megabytes to fd 1 while
// holding the GIL (the dispatch log of a loop), and a reader that needed the GIL to hand the
// text over would let the pipe fill and the writer block on it forever. So the reader only moves
// bytes into buffers under a mutex and, once per batch, asks the main thread for a drain with
// Py_AddPendingCall (which needs no GIL). The main thread reads the pipes itself too, under the
// same mutex (sync), after flushing C's and C++'s stdio buffers: at the end of a cell and before
// its error is published, so that nothing the cell wrote is left behind in a pipe or a buffer
// and the output comes before the error and the view. The read ends are non-blocking, so
// whichever thread reads second finds nothing and moves on.
namespace {

std::mutex g_mutex;
int g_read[3] = {-1, -1, -1};      // pipes' read ends, by fd (1, 2)
int g_write[3] = {-1, -1, -1};     // their write ends
int g_terminal[3] = {-1, -1, -1};  // what fds 1 and 2 were at start
std::string g_pending[3];          // bytes read, not yet taken
std::atomic<bool> g_wake_asked{false};
void (*g_wake)() = nullptr;
bool g_started = false;  // pipes made: begin / end do something

// Under g_mutex: reads what the pipes hold; whether anything came.
bool read_available() {
  bool got = false;
  char buf[65536];
  for (int fd : {1, 2}) {
    while (true) {
      ssize_t n = ::read(g_read[fd], buf, sizeof(buf));
      if (n > 0) {
        g_pending[fd].append(buf, static_cast<size_t>(n));
        got = true;
      } else if (n < 0 && errno == EINTR) {
        continue;
      } else {
        break;  // EAGAIN: empty for now
      }
    }
  }
  return got;
}

void reader() {
  pollfd fds[2] = {{g_read[1], POLLIN, 0}, {g_read[2], POLLIN, 0}};
  while (true) {
    if (::poll(fds, 2, -1) < 0) continue;  // EINTR
    bool got;
    {
      std::lock_guard<std::mutex> lock(g_mutex);
      got = read_available();
    }
    if (got && g_wake != nullptr && !g_wake_asked.exchange(true)) g_wake();
  }
}

// The length of the longest prefix of `s` that ends on a whole UTF-8 character.
size_t whole_characters(const std::string& s) {
  size_t n = s.size();
  for (size_t back = 1; back <= 3 && back <= n; ++back) {
    unsigned char c = static_cast<unsigned char>(s[n - back]);
    if ((c & 0xC0) == 0x80) continue;  // a continuation byte: look further back
    size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    return need > back ? n - back : n;
  }
  return n;  // plain ASCII, or bytes that are no UTF-8 (sent as they are, replaced later)
}

void point(int fd, int to) {
  while (::dup2(to, fd) < 0 && errno == EINTR) {
  }
}

}  // namespace

int start(void (*wake)()) {
  g_wake = wake;
  for (int fd : {1, 2}) {
    int p[2];
    if (::pipe2(p, O_CLOEXEC) != 0) return STDERR_FILENO;  // no capture: the terminal keeps it
    ::fcntl(p[0], F_SETFL, ::fcntl(p[0], F_GETFL) | O_NONBLOCK);
    g_read[fd] = p[0];
    g_write[fd] = p[1];
    g_terminal[fd] = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
    if (g_terminal[fd] < 0) return STDERR_FILENO;
  }
  g_started = true;
  std::thread(reader).detach();
  return g_terminal[2];
}

void begin() {
  if (!g_started) return;
  std::fflush(nullptr);
  for (int fd : {1, 2}) point(fd, g_write[fd]);
}

void sync() {
  if (!g_started) return;
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  std::lock_guard<std::mutex> lock(g_mutex);
  read_available();
}

void end() {
  if (!g_started) return;
  sync();
  for (int fd : {1, 2}) point(fd, g_terminal[fd]);
}

std::vector<std::pair<int, std::string>> take() {
  std::vector<std::pair<int, std::string>> out;
  std::lock_guard<std::mutex> lock(g_mutex);
  g_wake_asked.store(false);
  for (int fd : {1, 2}) {
    size_t n = whole_characters(g_pending[fd]);
    if (n == 0) continue;
    out.emplace_back(fd, g_pending[fd].substr(0, n));
    g_pending[fd].erase(0, n);
  }
  return out;
}

}  // namespace xopscope::capture
