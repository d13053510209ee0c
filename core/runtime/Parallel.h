// parallel_for: split a range of work over the OpenMP threads, only when it pays.
//
// Semantically, parallel_for(begin, end, grain, f) calls f(chunk_begin, chunk_end) on disjoint
// chunks covering [begin, end), each at least `grain` long (except the last), possibly on several
// threads at once — PyTorch's at::parallel_for. Work smaller than one grain runs inline on the
// calling thread.
//
// In implementation terms: small ranges never touch OpenMP. (`#pragma omp parallel if(false)` still
// enters libgomp and costs most of a microsecond — as much as a whole small op.) Inside a parallel
// region, nested calls run inline. An exception thrown by f on any thread (a kernel's
// ZeroDivisionError) cannot leave an OpenMP region: the first one is kept and rethrown here.
// Each thread runs its range in pieces of kInterruptGrains grains and looks for a Ctrl-C between
// them (Note [Interrupting long ops], core/runtime/Interrupt.cpp): once one came, every thread
// stops at its next piece and the calling thread throws Interrupted.
#pragma once

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>

#include "core/runtime/Interrupt.h"

namespace opscope {

// opscope's thread count (torch.get_num_threads / set_num_threads): OpenMP's, starting from
// OMP_NUM_THREADS. set_num_threads sets the OpenBLAS products' count too (core/runtime/Blas.cpp,
// Note [One thread pool]).
inline int get_num_threads() {
  return omp_get_max_threads();
}
void set_num_threads(int n);

// Note [A grain for every parallel loop]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Waking a second thread costs microseconds on an idle machine and milliseconds on a busy one
// (the thread waits for a core), so no loop may hand a thread less than about a grain of work:
// kGrainSize elements of an elementwise op (PyTorch's at::internal::GRAIN_SIZE, ~10 us), or
// the same time of heavier work — callers pass kGrainSize / (work per index) — and, for
// products, kGemmGrain multiply-adds (core/ops/cpu/gemm.h). A caller that splits into its own
// chunks (grain 1 over chunk indices) makes each chunk at least that much work.
constexpr int64_t kGrainSize = 32768;

// The most work f does between two looks for a Ctrl-C, in grains: a piece of elementwise work is
// then half a million elements (a fraction of a millisecond), so calling f once more per piece
// costs nothing measurable.
constexpr int64_t kInterruptGrains = 16;

template <typename F>
void parallel_for(int64_t begin, int64_t end, int64_t grain, const F& f) {
  int64_t n = end - begin;
  if (n <= 0) return;
  grain = std::max<int64_t>(grain, 1);
  int max_threads = omp_in_parallel() ? 1 : omp_get_max_threads();
  int64_t chunks = std::min<int64_t>(max_threads, (n + grain - 1) / grain);
  const int64_t piece = grain > n / kInterruptGrains ? n : grain * kInterruptGrains;
  if (chunks <= 1) {
    for (int64_t b = begin; b < end; b += std::min(piece, end - b)) {
      if (b != begin) check_interrupt();
      f(b, b + std::min(piece, end - b));
    }
    return;
  }
  std::exception_ptr error;
  std::atomic<bool> interrupted{false};
  const bool watched = interrupt_watched();  // the caller's mark, for every thread of the region
#pragma omp parallel num_threads(static_cast <int>(chunks))
  {
    InterruptWatchScope watch(watched);
    int64_t t = omp_get_thread_num(), nt = omp_get_num_threads();
    int64_t step = (n + nt - 1) / nt;
    int64_t b = begin + t * step, e = std::min(end, b + step);
    try {
      for (int64_t p = b; p < e; p += std::min(piece, e - p)) {
        if (p != b && watched && interrupt_requested()) {
          interrupted.store(true, std::memory_order_relaxed);
          break;
        }
        f(p, p + std::min(piece, e - p));
      }
    } catch (...) {
#pragma omp critical(opscope_parallel_for_error)
      if (!error) error = std::current_exception();
    }
  }
  if (error) std::rethrow_exception(error);
  if (interrupted.load(std::memory_order_relaxed)) throw_interrupted();
}

}  // namespace opscope
