// STREAM-style kernels: the memory-bandwidth ceilings that the benchmarks hold opscope's
// elementwise ops (add: two inputs, scale: one input) and reductions (sum) against.
//
// tests/bench/benchlib.py compiles this file at benchmark time with
//   gcc -O3 -march=native -fopenmp -shared -fPIC stream.c -o libstream.so
// and times its kernels through ctypes (about a microsecond of call overhead on a call of several
// milliseconds) on arrays from stream_alloc, already touched, so the timed loop does no page
// faults. Bandwidth is counted the STREAM way: 3 x sizeof(float) bytes per element (read a,
// read b, write c; the write-allocate read of c is not counted).
//
// The arrays come in two kinds, because the page size moves this machine's ceiling by up to half:
// huge = 1 asks for transparent huge pages (madvise, as NumPy does for arrays of 4 MB and more),
// huge = 0 forbids them (4 KiB pages, what a plain malloc gets when THP is in "madvise" mode).

#include <omp.h>
#include <stdlib.h>
#include <sys/mman.h>

enum { kHugePage = 2 << 20 };

// -> n floats, 2 MiB aligned, a[i] = i, touched by the threads that stream_add will use.
float* stream_alloc(long n, int huge) {
  size_t bytes = ((size_t)n * sizeof(float) + kHugePage - 1) / kHugePage * kHugePage;
  void* p = NULL;
  if (posix_memalign(&p, kHugePage, bytes) != 0) return NULL;
  madvise(p, bytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
  float* a = p;
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) a[i] = (float)i;
  return a;
}

void stream_free(float* a) { free(a); }

// a (n,), b (n,) -> c (n,):  c[i] = a[i] + b[i]
void stream_add(const float* restrict a, const float* restrict b, float* restrict c, long n) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) c[i] = a[i] + b[i];
}

// a (n,) -> c (n,):  c[i] = 2 a[i]  (8 bytes per element: read a, write c)
void stream_scale(const float* restrict a, float* restrict c, long n) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) c[i] = 2.0f * a[i];
}

// a (n,) -> sum of a  (4 bytes per element; the compiler vectorizes the reduction)
float stream_sum(const float* restrict a, long n) {
  float total = 0.0f;
#pragma omp parallel for simd schedule(static) reduction(+ : total)
  for (long i = 0; i < n; ++i) total += a[i];
  return total;
}

// Sets the OpenMP thread count for the next parallel regions of this process. libgomp is shared
// with opscope (and PyTorch), so this sets theirs too: the benchmark sets all three together.
void stream_set_num_threads(int n) { omp_set_num_threads(n); }
