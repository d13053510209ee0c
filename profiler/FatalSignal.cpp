// The fatal-signal report: see FatalSignal.h for what it prints and when.
#include "profiler/FatalSignal.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
#include <unwind.h>
#define UNW_LOCAL_ONLY
#include <libunwind.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "profiler/Stack.h"

// Note [What a signal handler may do]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The handler runs on the thread that faulted, at the instruction that faulted: that thread may
// hold malloc's lock, the GIL, the symbol table's mutex or a half-written data structure. So in
// the handler itself only async-signal-safe work happens: write(2) of a fixed buffer, the
// unwinder walking the stack into a static array, _Fork, waitpid, nanosleep, sigaction, raise.
// - The unwinder is libunwind's local unwinder, loaded at install time (dlopen is not allowed in a
//   handler) and started from the signal's own context with UNW_INIT_SIGNAL_FRAME: the first
//   frame is the faulting instruction itself (exact, not a return address), and neither the
//   handler nor the kernel's signal trampoline appear. libunwind documents its local unwinding as
//   signal-safe (no malloc; its per-thread cache, which Stack.cpp selects, takes no lock). When
//   libunwind.so.8 is missing, libgcc's _Unwind_Backtrace is used instead and the frames before
//   the faulting pc are dropped.
// - Names cannot be looked up there (libdw allocates and locks): see Note [Naming frames in a
//   dying process].
// - Python frames are not read: the thread may be in the middle of changing them. Python's
//   faulthandler, which knows how to read them safely, runs after this report (we call the
//   handler that was installed before ours).

// Note [Naming frames in a dying process]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The addresses are named by symbolize() (Symbols.cpp: libdwfl, the demangler), which allocates
// and takes a mutex — either may be held by the very thread that crashed. So the handler forks
// (_Fork: the async-signal-safe fork, glibc 2.34, which runs no atfork handlers) and the child,
// a copy of the process with only this thread, does the naming and writes the frames; the
// parent waits for it at most kSymbolizeSeconds. If a lock the child needs was held at the
// fork, the child blocks: the parent kills it and prints the bare addresses instead (module
// offsets can still be named afterwards with eu-addr2line). The child inherits the symbol
// table's cache, so addresses a view already named cost nothing. It resets the fatal signals to
// their default action first, so that a crash while naming ends the child only.

namespace opscope::profiler {
namespace {

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
constexpr int kMaxPcs = 256;               // captured; deeper stacks keep their innermost frames
constexpr int kMaxPrinted = 160;           // named frames printed (inlined calls count)
constexpr size_t kFunctionWidth = 160;     // a longer demangled name is cut there
constexpr int kSymbolizeSeconds = 15;      // the child's time to name the frames
constexpr size_t kAltStackSize = 1 << 20;  // see install_fatal_signal_handler

std::atomic<bool> g_installed{false};
std::atomic<int> g_fd{2};
struct sigaction g_previous[std::size(kSignals)];

// The report's scratch space: static, since the handler may run on a small alternate stack.
uintptr_t g_pcs[kMaxPcs];
std::atomic<long> g_reporting_thread{0};  // the thread reporting now (0: none)

// --- the unwinder, loaded at install time (Note [What a signal handler may do]) --------------

#define OPSCOPE_STRINGIFY_(x) #x
#define OPSCOPE_STRINGIFY(x) OPSCOPE_STRINGIFY_(x)

struct LibUnwind {
  int (*init_local2)(unw_cursor_t*, unw_context_t*, int) = nullptr;
  int (*step)(unw_cursor_t*) = nullptr;
  int (*get_reg)(unw_cursor_t*, unw_regnum_t, unw_word_t*) = nullptr;
  bool usable() const { return init_local2 != nullptr && step != nullptr && get_reg != nullptr; }
};
LibUnwind g_unwind;

void load_unwinder() {
  void* lib = ::dlopen("libunwind.so.8", RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) return;
  g_unwind.init_local2 = reinterpret_cast<decltype(g_unwind.init_local2)>(
      ::dlsym(lib, OPSCOPE_STRINGIFY(unw_init_local2)));
  g_unwind.step =
      reinterpret_cast<decltype(g_unwind.step)>(::dlsym(lib, OPSCOPE_STRINGIFY(unw_step)));
  g_unwind.get_reg =
      reinterpret_cast<decltype(g_unwind.get_reg)>(::dlsym(lib, OPSCOPE_STRINGIFY(unw_get_reg)));
}

// The faulting thread's frames from the signal's context, innermost first; frame 0 is exact.
int unwind_with_libunwind(void* ucontext) {
  unw_cursor_t cursor;
  if (g_unwind.init_local2(&cursor, static_cast<unw_context_t*>(ucontext),
                           UNW_INIT_SIGNAL_FRAME) < 0)
    return 0;
  int n = 0;
  do {
    unw_word_t ip = 0;
    if (g_unwind.get_reg(&cursor, UNW_REG_IP, &ip) < 0 || ip == 0) break;
    g_pcs[n++] = static_cast<uintptr_t>(ip);
  } while (n < kMaxPcs && g_unwind.step(&cursor) > 0);
  return n;
}

// Without libunwind: libgcc's unwinder from the handler, dropping the frames until the faulting
// pc (the handler's own and the trampoline's).
struct GccUnwind {
  uintptr_t fault_pc;
  int n = 0;
  bool found = false;
};

_Unwind_Reason_Code on_gcc_frame(_Unwind_Context* context, void* arg) {
  auto* u = static_cast<GccUnwind*>(arg);
  int before = 0;
  uintptr_t pc = _Unwind_GetIPInfo(context, &before);
  if (pc == 0) return _URC_END_OF_STACK;
  if (!u->found) {
    if (pc != u->fault_pc) return _URC_NO_REASON;
    u->found = true;
  }
  g_pcs[u->n++] = pc;
  return u->n == kMaxPcs ? _URC_END_OF_STACK : _URC_NO_REASON;
}

int unwind_with_libgcc(void* ucontext) {
  uintptr_t fault_pc = 0;
#if defined(__x86_64__)
  fault_pc = static_cast<uintptr_t>(static_cast<ucontext_t*>(ucontext)->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
  fault_pc = static_cast<uintptr_t>(static_cast<ucontext_t*>(ucontext)->uc_mcontext.pc);
#endif
  GccUnwind u{fault_pc};
  _Unwind_Backtrace(&on_gcc_frame, &u);
  return u.n;
}

// --- writing without allocating ---------------------------------------------------------------

class Out {
 public:
  explicit Out(int fd) : fd_(fd) {}
  ~Out() { flush(); }
  Out& str(const char* s) {
    while (*s != '\0') put(*s++);
    return *this;
  }
  Out& dec(long v) {
    char digits[24];
    int n = 0;
    unsigned long u = v < 0 ? 0ul - static_cast<unsigned long>(v) : static_cast<unsigned long>(v);
    do digits[n++] = static_cast<char>('0' + u % 10); while ((u /= 10) != 0);
    if (v < 0) put('-');
    while (n > 0) put(digits[--n]);
    return *this;
  }
  Out& hex(uintptr_t v) {
    str("0x");
    int shift = 60;
    while (shift > 0 && ((v >> shift) & 0xf) == 0) shift -= 4;
    for (; shift >= 0; shift -= 4) put("0123456789abcdef"[(v >> shift) & 0xf]);
    return *this;
  }
  void flush() {
    for (size_t done = 0; done < n_;) {
      ssize_t w = ::write(fd_, buf_ + done, n_ - done);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) break;
      done += static_cast<size_t>(w);
    }
    n_ = 0;
  }

 private:
  void put(char c) {
    if (n_ == sizeof(buf_)) flush();
    buf_[n_++] = c;
  }
  int fd_;
  char buf_[512];
  size_t n_ = 0;
};

const char* signal_name(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGABRT: return "SIGABRT";
  }
  return "signal";
}

// What happened, in the words of sigaction(2)'s si_code table.
const char* signal_reason(int sig, int code) {
  if (code <= 0) return sig == SIGABRT ? "aborted" : "sent by kill() or raise()";
  switch (sig) {
    case SIGSEGV:
      if (code == SEGV_MAPERR) return "segmentation fault: address not mapped to object";
      if (code == SEGV_ACCERR) return "segmentation fault: invalid permissions for mapped object";
      return "segmentation fault";
    case SIGBUS:
      if (code == BUS_ADRALN) return "bus error: invalid address alignment";
      if (code == BUS_ADRERR) return "bus error: nonexistent physical address";
      if (code == BUS_OBJERR) return "bus error: object-specific hardware error";
      return "bus error";
    case SIGFPE:
      if (code == FPE_INTDIV) return "arithmetic error: integer divide by zero";
      if (code == FPE_INTOVF) return "arithmetic error: integer overflow";
      if (code == FPE_FLTDIV) return "arithmetic error: floating-point divide by zero";
      return "arithmetic error";
    case SIGILL:
      if (code == ILL_ILLOPC) return "illegal instruction: illegal opcode";
      if (code == ILL_PRVOPC) return "illegal instruction: privileged opcode";
      return "illegal instruction";
    case SIGABRT:
      return "aborted";
  }
  return "fatal signal";
}

bool has_fault_address(int sig, int code) {
  return code > 0 && (sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL);
}

// --- naming, in the child (Note [Naming frames in a dying process]) --------------------------

std::string layer_and_module(const Frame& f) {
  std::string s = "[";
  s += to_string(f.layer);
  s += "]";
  if (!f.module.empty()) s += "  " + f.module;
  return s;
}

[[noreturn]] void name_frames_and_exit(int fd, int n) {
  for (int sig : kSignals) ::signal(sig, SIG_DFL);
  RawStack raw;
  raw.pcs.assign(g_pcs, g_pcs + n);
  raw.exact_pcs = 1;  // frame 0 is the faulting instruction
  std::vector<Frame> frames = symbolize(raw);
  std::string text;
  int printed = 0;
  for (const Frame& f : frames) {
    if (printed == kMaxPrinted) {
      text += "  ... " + std::to_string(frames.size() - printed) + " more frames\n";
      break;
    }
    std::string function = f.function.empty() ? "??" : f.function;
    if (function.size() > kFunctionWidth) function = function.substr(0, kFunctionWidth - 3) + "...";
    text += "  #" + std::to_string(printed++) + "  " + function;
    if (f.inlined) text += " (inlined)";
    if (!f.file.empty()) text += "  " + f.file + (f.line > 0 ? ":" + std::to_string(f.line) : "");
    if (f.function.empty() && f.module.empty()) {
      char pc[32];
      std::snprintf(pc, sizeof(pc), "  %#lx", static_cast<unsigned long>(f.pc));
      text += pc;
    }
    text += "  " + layer_and_module(f) + "\n";
  }
  for (size_t done = 0; done < text.size();) {
    ssize_t w = ::write(fd, text.data() + done, text.size() - done);
    if (w <= 0) break;
    done += static_cast<size_t>(w);
  }
  ::_exit(0);
}

// Names the frames in a child; false when it failed or took too long (then nothing or part of the
// list was written).
bool name_frames(int fd, int n) {
  pid_t child = ::_Fork();
  if (child < 0) return false;
  if (child == 0) name_frames_and_exit(fd, n);
  timespec start{};
  ::clock_gettime(CLOCK_MONOTONIC, &start);
  for (;;) {
    int status = 0;
    pid_t r = ::waitpid(child, &status, WNOHANG);
    if (r == child) return WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (r < 0 && errno != EINTR) return false;
    timespec now{};
    ::clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec - start.tv_sec >= kSymbolizeSeconds) {
      ::kill(child, SIGKILL);
      ::waitpid(child, &status, 0);
      return false;
    }
    timespec pause{0, 10 * 1000 * 1000};
    ::nanosleep(&pause, nullptr);
  }
}

// The lines of /proc/self/maps that map code ("r-xp"): what turns a bare address into a module
// and an offset once the process is gone. open / read / write only.
void copy_executable_mappings(int fd) {
  int maps = ::open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (maps < 0) return;
  char line[512];
  size_t used = 0;
  bool overlong = false;
  char chunk[1024];
  for (ssize_t got; (got = ::read(maps, chunk, sizeof(chunk))) != 0;) {
    if (got < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (ssize_t i = 0; i < got; ++i) {
      char c = chunk[i];
      if (c != '\n') {
        if (used < sizeof(line) - 1) line[used++] = c; else overlong = true;
        continue;
      }
      line[used] = '\0';
      if (!overlong && std::strstr(line, " r-xp ") != nullptr) Out(fd).str("  ").str(line).str("\n");
      used = 0;
      overlong = false;
    }
  }
  ::close(maps);
}

// --- the handler --------------------------------------------------------------------------------

int slot_of(int sig) {
  for (size_t i = 0; i < std::size(kSignals); ++i)
    if (kSignals[i] == sig) return static_cast<int>(i);
  return -1;
}

// Gives the signal to the handler that was there before ours (faulthandler, say), or to the
// default action; it is delivered when this handler returns (the signal is blocked until then),
// or at once by the faulting instruction running again.
void pass_on(int sig) {
  int slot = slot_of(sig);
  struct sigaction next {};
  if (slot >= 0) next = g_previous[slot];
  bool has_function = (next.sa_flags & SA_SIGINFO) != 0
                          ? next.sa_sigaction != nullptr
                          : (next.sa_handler != SIG_DFL && next.sa_handler != SIG_IGN);
  if (!has_function) {
    next = {};
    next.sa_handler = SIG_DFL;
    sigemptyset(&next.sa_mask);
  }
  ::sigaction(sig, &next, nullptr);
  ::raise(sig);
}

void on_fatal_signal(int sig, siginfo_t* info, void* ucontext) {
  int saved_errno = errno;
  long self = ::syscall(SYS_gettid);
  long expected = 0;
  if (!g_reporting_thread.compare_exchange_strong(expected, self)) {
    if (expected != self) {
      // Another thread is reporting and will end the process; wait for it (bounded).
      for (int i = 0; i < 100 * (kSymbolizeSeconds + 5); ++i) {
        timespec pause{0, 10 * 1000 * 1000};
        ::nanosleep(&pause, nullptr);
      }
    }
    pass_on(sig);  // a crash inside the report itself: no second report
    errno = saved_errno;
    return;
  }
  int fd = g_fd.load(std::memory_order_relaxed);
  {
    Out out(fd);
    out.str("\nopscope: fatal signal ").str(signal_name(sig)).str(" (");
    out.str(signal_reason(sig, info != nullptr ? info->si_code : 0)).str(")");
    if (info != nullptr && has_fault_address(sig, info->si_code))
      out.str(" at address ").hex(reinterpret_cast<uintptr_t>(info->si_addr));
    if (info != nullptr && info->si_code <= 0 && info->si_pid != ::getpid())
      out.str(" from process ").dec(info->si_pid);
    out.str(" on thread ").dec(self).str("\n");
    out.str("C++ stack, innermost first (");
    out.str("then the Python frames, from faulthandler, when Python runs):\n");
  }
  int n = g_unwind.usable() ? unwind_with_libunwind(ucontext) : unwind_with_libgcc(ucontext);
  if (n == 0) {
    Out(fd).str("  (the stack could not be unwound)\n");
  } else if (!name_frames(fd, n)) {
    Out out(fd);
    out.str("  (naming the frames failed; their addresses, innermost first, and the executable\n"
            "   mappings, for eu-addr2line:)\n");
    for (int i = 0; i < n; ++i) out.str("  #").dec(i).str("  ").hex(g_pcs[i]).str("\n");
    out.flush();
    copy_executable_mappings(fd);
  }
  pass_on(sig);
  errno = saved_errno;
}

// An alternate stack for the installing thread, so that a stack overflow (which leaves no room
// to run a handler on the thread's own stack) is reported too; the child of
// Note [Naming frames in a dying process] names the frames on it, so it is roomy. mmap'ed pages
// cost nothing until touched.
void ensure_alternate_stack() {
  stack_t current{};
  if (::sigaltstack(nullptr, &current) == 0 && (current.ss_flags & SS_DISABLE) == 0 &&
      current.ss_size >= kAltStackSize)
    return;
  void* mem = ::mmap(nullptr, kAltStackSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                     -1, 0);
  if (mem == MAP_FAILED) return;
  stack_t ours{};
  ours.ss_sp = mem;
  ours.ss_size = kAltStackSize;
  if (::sigaltstack(&ours, nullptr) != 0) ::munmap(mem, kAltStackSize);
  // The stack it replaces (faulthandler's, say) stays allocated: its owner frees it.
}

}  // namespace

void install_fatal_signal_handler(int fd) {
  g_fd.store(fd, std::memory_order_relaxed);
  if (g_installed.exchange(true)) return;
  load_unwinder();
  ensure_alternate_stack();
  for (size_t i = 0; i < std::size(kSignals); ++i) {
    struct sigaction action {};
    action.sa_sigaction = &on_fatal_signal;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    ::sigaction(kSignals[i], &action, &g_previous[i]);
  }
}

bool fatal_signal_handler_installed() {
  return g_installed.load();
}

}  // namespace opscope::profiler
