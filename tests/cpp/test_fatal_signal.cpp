// The fatal-signal report (profiler/FatalSignal.h) without Python, as a front end installs it: a
// child process installs it, writing to a pipe, and then faults; the parent reads the report and
// checks the child still died of its signal. (tests/repl/test_fatal_signal.py checks it in the
// REPL, with faulthandler's Python frames after it.)
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "profiler/FatalSignal.h"

namespace {

volatile uintptr_t g_address_zero = 0;  // read at run time: the compiler cannot see a null store

[[gnu::noinline]] void store_through_null() {
  *reinterpret_cast<volatile int*>(g_address_zero) = 42;
  asm volatile("" ::: "memory");
}

[[gnu::noinline]] void abort_here() {
  std::abort();
}

struct Died {
  std::string report;
  int status = 0;
};

// Runs `crash` in a child with the handler installed on a pipe; returns what it wrote and how it
// ended.
Died run_child(void (*crash)()) {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::close(fds[0]);
    rlimit no_core{0, 0};
    ::setrlimit(RLIMIT_CORE, &no_core);
    // doctest's own crash handlers (inherited) would run after ours and report a crashed test
    // from the child: the handler ours passes the signal to is the default action here.
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) ::signal(sig, SIG_DFL);
    opscope::profiler::install_fatal_signal_handler(fds[1]);
    crash();
    ::_exit(0);
  }
  ::close(fds[1]);
  Died d;
  char buf[4096];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof(buf))) > 0;) d.report.append(buf, n);
  ::close(fds[0]);
  ::waitpid(pid, &d.status, 0);
  return d;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("a segfault prints the signal, the address and the faulting function, then kills") {
  Died d = run_child(&store_through_null);
  INFO(d.report);
  CHECK(has(d.report, "opscope: fatal signal SIGSEGV (segmentation fault: address not mapped "
                      "to object) at address 0x0 on thread "));
  CHECK(has(d.report, "C++ stack, innermost first"));
  // Frame #0 is the faulting instruction itself, named with its file.
  size_t first = d.report.find("  #0  ");
  REQUIRE(first != std::string::npos);
  std::string frame0 = d.report.substr(first, d.report.find('\n', first) - first);
  CHECK(has(frame0, "store_through_null"));
  CHECK(has(frame0, "tests/cpp/test_fatal_signal.cpp"));
  CHECK(has(d.report, "run_child"));
#if !defined(__SANITIZE_ADDRESS__)  // ASan's own handler, called after ours, exits with 1
  CHECK(WIFSIGNALED(d.status));
  CHECK(WTERMSIG(d.status) == SIGSEGV);
#endif
}

TEST_CASE("abort() is reported as SIGABRT with the caller of abort") {
  Died d = run_child(&abort_here);
  INFO(d.report);
  CHECK(has(d.report, "opscope: fatal signal SIGABRT (aborted)"));
  CHECK(has(d.report, "abort_here"));
  CHECK(WIFSIGNALED(d.status));
  CHECK(WTERMSIG(d.status) == SIGABRT);
}
