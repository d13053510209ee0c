// STREAM-style "add" kernel: the memory-bandwidth ceiling that bench_foundation.py holds
// opscope's elementwise add against.
//
// bench_foundation.py compiles this file at benchmark time with
//   gcc -O3 -march=native -fopenmp -shared -fPIC stream.c -o libstream.so
// and calls it through ctypes on arrays that NumPy has already allocated and touched, so the
// timed loop does no page faults. Bandwidth is counted the STREAM way: 3 x sizeof(float) bytes
// per element (read a, read b, write c; the write-allocate read of c is not counted).

#include <omp.h>

// a (n,), b (n,) -> c (n,):  c[i] = a[i] + b[i]
static void stream_add(const float* restrict a, const float* restrict b, float* restrict c,
                       long n) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) c[i] = a[i] + b[i];
}

// Sets the OpenMP thread count for the next parallel regions of this process. libgomp is shared
// with opscope (and PyTorch), so the caller sets its own thread count again before timing them.
void stream_set_num_threads(int n) { omp_set_num_threads(n); }

int stream_get_max_threads(void) { return omp_get_max_threads(); }

// Runs the kernel `reps` times after one untimed warm-up call; returns the best time of one
// call in seconds.
double stream_add_best(const float* a, const float* b, float* c, long n, int reps) {
  stream_add(a, b, c, n);
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    double t0 = omp_get_wtime();
    stream_add(a, b, c, n);
    double dt = omp_get_wtime() - t0;
    if (dt < best) best = dt;
  }
  return best;
}
