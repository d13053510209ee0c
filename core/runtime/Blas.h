// The BLAS opscope's float32 / float64 products run on, and which kernels it runs.
//
// Semantically, opscope::blas is the C interface of BLAS (cblas_sgemm, cblas_dgemv, cblas_sdot,
// ...) with the same arguments, plus two questions a view can ask: which library and which kernel
// family ("core": Haswell, SkylakeX, Zen, Prescott...) ran a product, and why that one.
//
// In implementation terms it is OpenBLAS, loaded with dlopen the first time a product needs it,
// never linked: a DYNAMIC_ARCH OpenBLAS picks its kernels once, in its load-time constructor, from
// the environment variable OPENBLAS_CORETYPE or else from its own table of CPU models — which in
// Debian's 0.3.21 does not know recent CPUs and falls back to SSE3 "Prescott" kernels, 5-6x
// slower. So opscope decides from the CPU's features, sets OPENBLAS_CORETYPE for the load and
// restores it after. See Note [Choosing OpenBLAS's kernels] in Blas.cpp.
//
//   blas::sgemm(blas::RowMajor, blas::NoTrans, blas::NoTrans, M, N, K, 1.0f, A, K, B, N,
//               0.0f, C, N);                       // C (M,N) = A (M,K) · B (K,N)
//   blas::info().corename                          // "SkylakeX"
//
// Threads: opscope::set_num_threads (core/runtime/Parallel.h) governs OpenMP and OpenBLAS both;
// see Note [One thread pool].
#pragma once

#include <cstddef>
#include <string>

namespace opscope::blas {

// cblas's enum values (CBLAS_ORDER, CBLAS_TRANSPOSE): passed through as C ints.
enum Order : int { RowMajor = 101, ColMajor = 102 };
enum Transpose : int { NoTrans = 111, Trans = 112 };

// cblas_?gemm: C (M,N) = alpha * op(A) · op(B) + beta * C; beta = 0 never reads C.
void sgemm(Order order, Transpose ta, Transpose tb, int M, int N, int K, float alpha,
           const float* A, int lda, const float* B, int ldb, float beta, float* C, int ldc);
void dgemm(Order order, Transpose ta, Transpose tb, int M, int N, int K, double alpha,
           const double* A, int lda, const double* B, int ldb, double beta, double* C, int ldc);
// cblas_?gemv: y (M or N) = alpha * op(A) · x + beta * y, A (M,N) in the given order.
void sgemv(Order order, Transpose ta, int M, int N, float alpha, const float* A, int lda,
           const float* x, int incx, float beta, float* y, int incy);
void dgemv(Order order, Transpose ta, int M, int N, double alpha, const double* A, int lda,
           const double* x, int incx, double beta, double* y, int incy);
// cblas_?dot: sum x[i*incx] * y[i*incy] over i < n.
float sdot(int n, const float* x, int incx, const float* y, int incy);
double ddot(int n, const double* x, int incx, const double* y, int incy);

// What was loaded and why; loads the library if nothing has yet.
struct Info {
  std::string library;      // the file dlopen'ed, e.g.
                            // /usr/lib/x86_64-linux-gnu/openblas-openmp/libopenblas.so.0
  std::string library_why;  // "OPSCOPE_BLAS_LIBRARY", "OpenMP build preferred", ...
  std::string corename;     // openblas_get_corename() after the load: the kernel family that runs
  std::string config;       // openblas_get_config()
  std::string requested;    // the OPENBLAS_CORETYPE in force at the load ("" = OpenBLAS's own pick)
  std::string reason;       // why: "user OPENBLAS_CORETYPE", "cpu has avx512f,...", ...
  std::string cpu_features;  // "avx2 fma avx512f ..." as detected
  std::string threading;     // "openmp", "pthreads" or "sequential" (openblas_get_parallel())
  int num_threads = 1;       // openblas_get_num_threads()
  bool shared = false;       // the file was already mapped by another library (NumPy, torch)
  std::string note;          // a warning worth showing, or ""
};
Info info();

// The Info as the text of opscope.__config__.show() / the OPSCOPE_LOG=blas line.
std::string info_text();

// Tells a loaded OpenBLAS to use n threads (no-op before the load: it syncs when it loads).
void set_num_threads(int n);

// Called on the calling thread right before each BLAS routine runs, with the routine's name
// ("cblas_sgemm") and its entry address in the loaded library: where the profiler captures the
// stack of a product, as a debugger breakpoint on the routine would show it (profiler/Stack.h,
// capture_stack's `callee`). A few hooks may be set at once (a trace recording stacks, a stack
// probe), called in the order added. Unset, a BLAS call pays one relaxed atomic load.
using CallHook = void (*)(const char* routine, const void* entry);
void add_call_hook(CallHook hook);
void remove_call_hook(CallHook hook);

// For the LAPACK routines the same library exports (core/runtime/Lapack.cpp): the dlopen handle
// of the loaded OpenBLAS (loading it if nothing has yet; RTLD_DEFAULT when opscope uses a copy
// already in the global scope), and the call hooks in force, copied into out[0..capacity), so a
// wrapper can call them from its own frame as the cblas wrappers do. Returns how many.
void* library_handle();
size_t call_hooks(CallHook* out, size_t capacity);

}  // namespace opscope::blas
