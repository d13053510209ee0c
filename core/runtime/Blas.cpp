// OpenBLAS, loaded on first use with the kernels this CPU should run. See core/runtime/Blas.h.
//
// Note [Choosing OpenBLAS's kernels]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A DYNAMIC_ARCH OpenBLAS (Debian's) holds kernels for every x86 family and picks one in its
// load-time constructor: OPENBLAS_CORETYPE when set, else a lookup of the CPU's vendor / family /
// model. 0.3.21 does not know newer models and falls back to SSE3 "Prescott" kernels (~20
// GFLOP/s per core where SkylakeX kernels give ~110). So opscope decides from the CPU's features:
//
//   OPENBLAS_CORETYPE set by the user   kept as it is: the user decides
//   avx512f + avx512bw + avx512vl + dq  SkylakeX (AVX-512 gemm: 64 float32 flop / cycle / core)
//   avx2 + fma, AMD                     Zen      (OpenBLAS's own pick for every Zen it knows)
//   avx2 + fma, other vendors           Haswell  (AVX2 + FMA gemm: 32 flop / cycle / core)
//   otherwise                           nothing set: OpenBLAS's own pick
//
// and sets OPENBLAS_CORETYPE only for the dlopen, restoring the environment after (so processes
// opscope starts, and libraries loaded later, see the user's environment).
//
// The choice can only reach a constructor that has not run: when the file opscope would load is
// already mapped (NumPy and torch link Debian's libopenblas.so.0, which `update-alternatives`
// points at the pthread build), dlopen returns that copy, with the kernels it chose. Hence the
// preference for a file others do not load — see Note [One thread pool]. When every OpenBLAS
// file is taken and the copy in the process runs other kernels than ours, opscope loads a
// private copy of the file (an in-memory memfd: another inode, so a fresh load and constructor),
// at the price of a second OpenBLAS thread pool.
//
// Note [One thread pool]
// ~~~~~~~~~~~~~~~~~~~~~~
// opscope's own kernels run on OpenMP (core/runtime/Parallel.h). The pthread build of OpenBLAS
// keeps a second pool of threads that spin for a while after each call, as libgomp's do after
// each region: with an elementwise op after a matmul both pools want every core at once. The
// OpenMP build (libopenblas0-openmp) runs its threads from libgomp's pool, so the two cannot
// oversubscribe, and it reads omp_get_max_threads() on each call, so opscope.set_num_threads
// (omp_set_num_threads) governs both. opscope therefore prefers the OpenMP build; its file is not
// the one NumPy and torch load, so opscope gets its own copy and its own kernel choice. With the
// pthread build opscope still sets OpenBLAS's thread count with every set_num_threads.
//
// Measured (2-core AVX2 VM, 2 threads, a 384^3 sgemm then a 4M-element add, repeated): with the
// pthread build each pair costs 3.5-4.3 ms more CPU time than its two parts run apart (the spinning
// BLAS workers compete with the add); with the OpenMP build, none. The same holds between
// libraries: right after a product in NumPy's or torch's (pthread) OpenBLAS, a 2-thread opscope
// product ran 3-10x slower until their workers slept (~0.1 s) — OpenMP's barriers wait for the
// thread that lost its core. On an idle machine both builds run gemm at the same speed (same
// kernels); OMP_WAIT_POLICY=PASSIVE makes the OpenMP side yield instead of spin.
//
// Note [OpenBLAS binds to itself]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// OpenBLAS calls its own kernels through exported globals (gotoblas, the kernel table its
// constructor fills) and exported functions, and an ELF library's references to its own exported
// symbols are looked up like anyone's: the global scope first (the executable, its libraries,
// LD_PRELOAD, libraries opened RTLD_GLOBAL), then the library's own dlopen group. If another
// OpenBLAS sits in the global scope, our copy would read *its* kernel table: the kernels it chose,
// not ours (the private copy of Note [Choosing OpenBLAS's kernels] would be pointless). So opscope
// loads with RTLD_DEEPBIND: the library's own group comes first, and it binds to itself.
//
// AddressSanitizer refuses RTLD_DEEPBIND (a deep-bound library would call libc's malloc and
// memcpy, not ASan's interceptors, and ASan would see frees of memory it never allocated), and
// aborts at the dlopen. The sanitizer build (OPSCOPE_SANITIZE, `make test-sanitize`; ASan is
// detected at compile time, kAddressSanitizer below) therefore loads without it and keeps the
// binding right another way: it looks for an OpenBLAS in the global scope first
// (dlsym(RTLD_DEFAULT, "openblas_get_config")). With none there — the usual case: Python, NumPy
// and torch open their libraries RTLD_LOCAL — the lookup order above finds our copy's own
// symbols before any other copy's, as DEEPBIND would. With one there, opscope uses that copy
// instead of loading its own: it binds to itself, being first in the global scope, at the price
// of its kernel choice (Info::library_why says so).

#include "core/runtime/Blas.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <omp.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <climits>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <vector>

#include "core/runtime/Exception.h"
#include "core/runtime/HookSlots.h"
#include "core/runtime/Log.h"
#include "core/runtime/Parallel.h"

// The OpenBLAS files CMake found, best first, ':'-separated (cmake/OpscopeBlas.cmake).
#ifndef OPSCOPE_BLAS_CANDIDATES
#define OPSCOPE_BLAS_CANDIDATES "libopenblas.so.0"
#endif

namespace opscope::blas {

namespace {

// See Note [OpenBLAS binds to itself]. GCC defines __SANITIZE_ADDRESS__; Clang says so through
// __has_feature.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

// --- the CPU -----------------------------------------------------------------------------------

struct CpuFeatures {
  bool avx2 = false, fma = false;
  bool avx512f = false, avx512bw = false, avx512vl = false, avx512dq = false;
  bool amd = false;
  std::string str() const {
    std::string s;
    auto add = [&](bool on, const char* name) {
      if (!on) return;
      if (!s.empty()) s += ' ';
      s += name;
    };
    add(avx2, "avx2");
    add(fma, "fma");
    add(avx512f, "avx512f");
    add(avx512bw, "avx512bw");
    add(avx512vl, "avx512vl");
    add(avx512dq, "avx512dq");
    return s.empty() ? "(no avx2 / avx512)" : s;
  }
};

// The CPU's features; OPSCOPE_BLAS_CPU_FEATURES="avx2 fma avx512f ... [amd]" replaces them (a
// test hook: the choice for another CPU, without running a product on this one).
CpuFeatures detect_cpu() {
  CpuFeatures f;
  if (const char* fake = std::getenv("OPSCOPE_BLAS_CPU_FEATURES"); fake && *fake) {
    std::set<std::string> names;
    std::stringstream list(fake);
    for (std::string name; list >> name;) names.insert(name);
    f.avx2 = names.count("avx2");
    f.fma = names.count("fma");
    f.avx512f = names.count("avx512f");
    f.avx512bw = names.count("avx512bw");
    f.avx512vl = names.count("avx512vl");
    f.avx512dq = names.count("avx512dq");
    f.amd = names.count("amd");
    return f;
  }
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  f.avx2 = __builtin_cpu_supports("avx2");
  f.fma = __builtin_cpu_supports("fma");
  f.avx512f = __builtin_cpu_supports("avx512f");
  f.avx512bw = __builtin_cpu_supports("avx512bw");
  f.avx512vl = __builtin_cpu_supports("avx512vl");
  f.avx512dq = __builtin_cpu_supports("avx512dq");
  f.amd = __builtin_cpu_is("amd");
#endif
  return f;
}

// The OPENBLAS_CORETYPE for this CPU and why; "" leaves OpenBLAS's own pick.
// See Note [Choosing OpenBLAS's kernels].
std::pair<std::string, std::string> choose_coretype(const CpuFeatures& f) {
  if (const char* user = std::getenv("OPENBLAS_CORETYPE"); user && *user)
    return {user, "set by the user"};
  if (f.avx512f && f.avx512bw && f.avx512vl && f.avx512dq)
    return {"SkylakeX", "the CPU has avx512f, avx512bw, avx512vl and avx512dq"};
  if (f.avx2 && f.fma)
    return {f.amd ? "Zen" : "Haswell",
            std::string("the CPU has avx2 and fma (no AVX-512)") + (f.amd ? ", vendor AMD" : "")};
  return {"", "no AVX2 + FMA: OpenBLAS's own choice"};
}

// --- the library -------------------------------------------------------------------------------

// The files mapped into this process (their real paths), from /proc/self/maps.
std::set<std::string> mapped_files() {
  std::set<std::string> files;
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    size_t slash = line.find('/');
    if (slash != std::string::npos) files.insert(line.substr(slash));
  }
  return files;
}

std::string real_path(const std::string& path) {
  char buf[PATH_MAX];
  return ::realpath(path.c_str(), buf) ? std::string(buf) : std::string();
}

struct Table {
  void (*sgemm)(int, int, int, int, int, int, float, const float*, int, const float*, int, float,
                float*, int) = nullptr;
  void (*dgemm)(int, int, int, int, int, int, double, const double*, int, const double*, int,
                double, double*, int) = nullptr;
  void (*sgemv)(int, int, int, int, float, const float*, int, const float*, int, float, float*,
                int) = nullptr;
  void (*dgemv)(int, int, int, int, double, const double*, int, const double*, int, double, double*,
                int) = nullptr;
  float (*sdot)(int, const float*, int, const float*, int) = nullptr;
  double (*ddot)(int, const double*, int, const double*, int) = nullptr;
  char* (*get_corename)() = nullptr;
  char* (*get_config)() = nullptr;
  int (*get_parallel)() = nullptr;
  int (*get_num_threads)() = nullptr;
  void (*set_num_threads)(int) = nullptr;
  void* handle = nullptr;  // the library's dlopen handle (RTLD_DEFAULT: the global copy)
  Info info;
};

template <typename F>
void resolve(void* handle, const char* name, F& fn, const std::string& library) {
  fn = reinterpret_cast<F>(::dlsym(handle, name));
  OPSCOPE_CHECK(fn != nullptr, "opscope: ", library, " has no ", name,
                " (is it OpenBLAS? set OPSCOPE_BLAS_LIBRARY to an OpenBLAS libopenblas.so)");
}

// Which file to load: OPSCOPE_BLAS_LIBRARY, else the first CMake candidate that nobody has
// loaded yet (so its constructor sees our OPENBLAS_CORETYPE), else the first that exists (shared
// with whoever loaded it), else the dynamic linker's libopenblas.so.0.
std::pair<std::string, std::string> choose_library(const std::set<std::string>& mapped) {
  if (const char* user = std::getenv("OPSCOPE_BLAS_LIBRARY"); user && *user)
    return {user, "OPSCOPE_BLAS_LIBRARY set by the user"};
  std::vector<std::string> existing;
  std::stringstream list(OPSCOPE_BLAS_CANDIDATES);
  for (std::string c; std::getline(list, c, ':');)
    if (!c.empty() && !real_path(c).empty()) existing.push_back(c);
  for (const std::string& c : existing) {
    if (mapped.count(real_path(c))) continue;
    bool openmp = c.find("openmp") != std::string::npos;
    return {c, openmp ? "OpenMP build preferred: it shares opscope's OpenMP threads"
                      : "the first OpenBLAS found that no other library had loaded"};
  }
  if (!existing.empty()) return {existing.front(), "every OpenBLAS found was already loaded"};
  return {"libopenblas.so.0", "the dynamic linker's libopenblas.so.0"};
}

// dlopen with OPENBLAS_CORETYPE = coretype ("" leaves the environment as it is) for the load
// only. RTLD_DEEPBIND (not under ASan): OpenBLAS's references to its own exported globals bind to
// this copy even when another copy of OpenBLAS is in the global scope. See
// Note [OpenBLAS binds to itself].
void* open_with_coretype(const std::string& path, const std::string& coretype) {
  const char* previous = std::getenv("OPENBLAS_CORETYPE");
  std::string saved = previous ? previous : "";
  if (!coretype.empty()) ::setenv("OPENBLAS_CORETYPE", coretype.c_str(), 1);
  constexpr int kBind = kAddressSanitizer ? 0 : RTLD_DEEPBIND;
  void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | kBind);
  if (previous)
    ::setenv("OPENBLAS_CORETYPE", saved.c_str(), 1);
  else
    ::unsetenv("OPENBLAS_CORETYPE");
  return handle;
}

// A private copy of the library file in an anonymous in-memory file: another inode, so dlopen
// maps it anew and its constructor runs with our OPENBLAS_CORETYPE. The fd stays open (the
// mapping needs the name /proc/self/fd/N only while dlopen runs, but closing is not worth it).
void* open_private_copy(const std::string& path, const std::string& coretype) {
  int in = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) return nullptr;
  struct stat st {};
  int out = ::fstat(in, &st) == 0 ? ::memfd_create("opscope-openblas", MFD_CLOEXEC) : -1;
  off_t offset = 0;
  while (out >= 0 && offset < st.st_size)
    if (::sendfile(out, in, &offset, static_cast<size_t>(st.st_size - offset)) <= 0) break;
  ::close(in);
  if (out < 0 || offset != st.st_size) {
    if (out >= 0) ::close(out);
    return nullptr;
  }
  return open_with_coretype("/proc/self/fd/" + std::to_string(out), coretype);
}

void resolve_all(void* handle, Table& t, const std::string& library) {
  resolve(handle, "cblas_sgemm", t.sgemm, library);
  resolve(handle, "cblas_dgemm", t.dgemm, library);
  resolve(handle, "cblas_sgemv", t.sgemv, library);
  resolve(handle, "cblas_dgemv", t.dgemv, library);
  resolve(handle, "cblas_sdot", t.sdot, library);
  resolve(handle, "cblas_ddot", t.ddot, library);
  resolve(handle, "openblas_get_corename", t.get_corename, library);
  resolve(handle, "openblas_get_config", t.get_config, library);
  resolve(handle, "openblas_get_parallel", t.get_parallel, library);
  resolve(handle, "openblas_get_num_threads", t.get_num_threads, library);
  resolve(handle, "openblas_set_num_threads", t.set_num_threads, library);
}

// Under ASan only: when an OpenBLAS is in the global scope, fills t from it and says so in
// t.info, and returns true — a copy loaded without RTLD_DEEPBIND would bind to it anyway. See
// Note [OpenBLAS binds to itself].
bool use_global_copy(Table& t) {
  if (!kAddressSanitizer) return false;
  Dl_info where{};
  void* global = ::dlsym(RTLD_DEFAULT, "openblas_get_config");
  if (!global || !::dladdr(global, &where) || !where.dli_fname) return false;
  std::string file = real_path(where.dli_fname);
  if (file.empty()) file = where.dli_fname;
  resolve_all(RTLD_DEFAULT, t, file);
  t.handle = RTLD_DEFAULT;
  t.info.library = file;
  t.info.library_why =
      "AddressSanitizer build (no RTLD_DEEPBIND): the OpenBLAS already in the "
      "global scope, since a copy of ours would bind to it";
  t.info.shared = true;
  t.info.requested.clear();
  t.info.reason = "chosen when that copy loaded";
  return true;
}

bool same_core(std::string a, std::string b) {
  auto lower = [](std::string& s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  };
  lower(a);
  lower(b);
  return a == b;
}

Table load() {
  Table t;
  Info& info = t.info;
  CpuFeatures cpu = detect_cpu();
  info.cpu_features = cpu.str();
  std::set<std::string> mapped = mapped_files();
  auto [library, why] = choose_library(mapped);
  info.library_why = why;
  std::string real = real_path(library);
  info.library = real.empty() ? library : real;
  info.shared = !real.empty() && mapped.count(real) > 0;
  auto [coretype, reason] = choose_coretype(cpu);
  info.requested = coretype;
  info.reason = reason;

  if (!use_global_copy(t)) {
    void* handle = open_with_coretype(library, coretype);
    if (!handle) {
      const char* err = ::dlerror();
      OPSCOPE_CHECK(false, "opscope: cannot load OpenBLAS (", err ? err : library,
                    "). On Debian / Ubuntu: apt-get install libopenblas0-openmp, or point "
                    "OPSCOPE_BLAS_LIBRARY at a libopenblas.so");
    }
    resolve_all(handle, t, library);
    t.handle = handle;
    if (info.shared && !coretype.empty() && !same_core(t.get_corename(), coretype)) {
      // Someone loaded this file first, and it chose other kernels: load a copy of our own.
      std::string shared_core = t.get_corename();
      if (void* own = open_private_copy(info.library, coretype)) {
        resolve_all(own, t, library);
        t.handle = own;
        ::dlclose(handle);  // only drops our reference: the other library keeps its copy
        info.shared = false;
        info.library_why += "; loaded as a private copy, since the copy already loaded runs " +
                            shared_core + " kernels";
      }
    }
  } else {
    coretype.clear();  // that copy's kernels were chosen when it loaded
  }

  info.corename = t.get_corename();
  info.config = t.get_config();
  int parallel = t.get_parallel();
  info.threading = parallel == 2 ? "openmp" : parallel == 1 ? "pthreads" : "sequential";
  // Start in step with opscope's thread count (set_num_threads may have run before the load).
  t.set_num_threads(omp_get_max_threads());
  info.num_threads = t.get_num_threads();

  if (!coretype.empty() && !same_core(info.corename, coretype))
    info.note = "asked for " + coretype + " kernels but OpenBLAS runs " + info.corename;
  else if (info.shared)
    info.note = "shares the OpenBLAS another library loaded; its kernels were chosen then";
  if (parallel == 1)
    info.note += std::string(info.note.empty() ? "" : "; ") +
                 "pthread OpenBLAS: a second thread pool beside OpenMP "
                 "(install libopenblas0-openmp for one shared pool)";
  return t;
}

std::string info_text_of(const Info& i) {
  std::ostringstream os;
  os << "OpenBLAS: " << i.config << "\n"
     << "  library:  " << i.library << " (" << i.library_why << ")\n"
     << "  kernels:  " << i.corename << " ("
     << (i.requested.empty() ? "OpenBLAS's own choice" : "OPENBLAS_CORETYPE=" + i.requested) << ": "
     << i.reason << ")\n"
     << "  cpu:      " << i.cpu_features << "\n"
     << "  threads:  " << i.num_threads << " (" << i.threading << ")\n";
  if (!i.note.empty()) os << "  note:     " << i.note << "\n";
  return os.str();
}

std::atomic<const Table*> g_loaded{nullptr};

const Table& table() {
  static const Table t = [] {
    Table loaded = load();
    if (log_requested("blas")) log_write(2, "[blas] " + info_text_of(loaded.info));
    return loaded;
  }();
  g_loaded.store(&t, std::memory_order_release);
  return t;
}

constexpr size_t kMaxCallHooks = 4;
HookSlots<CallHook, kMaxCallHooks> g_call_hooks;

// The routine `fn`, after telling the hook (if any) that it is about to run.
template <typename F>
F announce(F fn, const char* routine) {
  // The hooks are called from this frame, not from HookSlots::call: a stack a hook captures
  // then shows the BLAS wrapper (Blas.cpp) right below the routine, as a breakpoint would.
  if (__builtin_expect(!g_call_hooks.empty(), 0)) {
    CallHook hooks[kMaxCallHooks];
    size_t n = g_call_hooks.load(hooks);
    for (size_t i = 0; i < n; ++i) hooks[i](routine, reinterpret_cast<const void*>(fn));
  }
  return fn;
}

}  // namespace

void add_call_hook(CallHook hook) {
  g_call_hooks.add(hook);
}
void remove_call_hook(CallHook hook) {
  g_call_hooks.remove(hook);
}

void* library_handle() {
  return table().handle;
}

size_t call_hooks(CallHook* out, size_t capacity) {
  if (__builtin_expect(g_call_hooks.empty(), 1)) return 0;
  CallHook hooks[kMaxCallHooks];
  size_t n = std::min(g_call_hooks.load(hooks), capacity);
  for (size_t i = 0; i < n; ++i) out[i] = hooks[i];
  return n;
}

// --- cblas -------------------------------------------------------------------------------------

void sgemm(Order order, Transpose ta, Transpose tb, int M, int N, int K, float alpha,
           const float* A, int lda, const float* B, int ldb, float beta, float* C, int ldc) {
  announce(table().sgemm, "cblas_sgemm")(order, ta, tb, M, N, K, alpha, A, lda, B, ldb, beta, C,
                                         ldc);
}
void dgemm(Order order, Transpose ta, Transpose tb, int M, int N, int K, double alpha,
           const double* A, int lda, const double* B, int ldb, double beta, double* C, int ldc) {
  announce(table().dgemm, "cblas_dgemm")(order, ta, tb, M, N, K, alpha, A, lda, B, ldb, beta, C,
                                         ldc);
}
void sgemv(Order order, Transpose ta, int M, int N, float alpha, const float* A, int lda,
           const float* x, int incx, float beta, float* y, int incy) {
  announce(table().sgemv, "cblas_sgemv")(order, ta, M, N, alpha, A, lda, x, incx, beta, y, incy);
}
void dgemv(Order order, Transpose ta, int M, int N, double alpha, const double* A, int lda,
           const double* x, int incx, double beta, double* y, int incy) {
  announce(table().dgemv, "cblas_dgemv")(order, ta, M, N, alpha, A, lda, x, incx, beta, y, incy);
}
float sdot(int n, const float* x, int incx, const float* y, int incy) {
  return announce(table().sdot, "cblas_sdot")(n, x, incx, y, incy);
}
double ddot(int n, const double* x, int incx, const double* y, int incy) {
  return announce(table().ddot, "cblas_ddot")(n, x, incx, y, incy);
}

// --- what ran ----------------------------------------------------------------------------------

Info info() {
  const Table& t = table();
  Info current = t.info;
  current.num_threads = t.get_num_threads();
  return current;
}

std::string info_text() {
  return info_text_of(info());
}

void set_num_threads(int n) {
  if (const Table* t = g_loaded.load(std::memory_order_acquire)) t->set_num_threads(n);
}

}  // namespace opscope::blas

namespace opscope {

// More threads than this and the next parallel region would stall a session creating them (or
// libgomp would abort when the system refuses one); torch 1.13 takes any positive int.
constexpr int kMaxThreads = 1024;

// Note [OpenBLAS under an address-space limit]
// OpenBLAS gives each of its threads a work buffer (Debian's 0.3.21 mallocs 128 MiB) when the
// count grows, and when malloc refuses one — an address-space limit, `ulimit -v` — its allocator
// tries again forever: the session hangs at the next product. So under such a limit, a count is
// refused unless the address space for its buffers (kBufferMiB a thread) can be mapped.
constexpr size_t kBufferMiB = 136;
static bool address_space_for(int threads) {
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return true;
  const size_t bytes = static_cast<size_t>(threads) * (kBufferMiB << 20);
  void* probe = ::mmap(nullptr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (probe == MAP_FAILED) return false;
  ::munmap(probe, bytes);
  return true;
}

void set_num_threads(int n) {
  OPSCOPE_CHECK(n > 0, "set_num_threads expects a positive integer");
  OPSCOPE_CHECK(n <= kMaxThreads, "set_num_threads: ", n, " threads requested, opscope starts at most ",
                kMaxThreads, " (this machine has ", omp_get_num_procs(), " processors)");
  OPSCOPE_CHECK(address_space_for(n), "set_num_threads: ", n,
                " threads need about ", n * kBufferMiB, " MiB of address space for OpenBLAS's buffers, "
                "more than this process's limit (ulimit -v) leaves");
  omp_set_num_threads(n);
  blas::set_num_threads(n);
}

}  // namespace opscope
