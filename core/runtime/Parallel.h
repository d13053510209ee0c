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
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <exception>

namespace opscope {

// opscope's thread count (torch.get_num_threads / set_num_threads): OpenMP's, starting from
// OMP_NUM_THREADS. set_num_threads sets the OpenBLAS products' count too (core/runtime/Blas.cpp,
// Note [One thread pool]).
inline int get_num_threads() {
  return omp_get_max_threads();
}
void set_num_threads(int n);

// PyTorch's at::internal::GRAIN_SIZE: below this many elements an op runs on one thread.
constexpr int64_t kGrainSize = 32768;

template <typename F>
void parallel_for(int64_t begin, int64_t end, int64_t grain, const F& f) {
  int64_t n = end - begin;
  if (n <= 0) return;
  int max_threads = omp_in_parallel() ? 1 : omp_get_max_threads();
  int64_t chunks = std::min<int64_t>(max_threads, (n + grain - 1) / std::max<int64_t>(grain, 1));
  if (chunks <= 1) {
    f(begin, end);
    return;
  }
  std::exception_ptr error;
#pragma omp parallel num_threads(static_cast <int>(chunks))
  {
    int64_t t = omp_get_thread_num(), nt = omp_get_num_threads();
    int64_t step = (n + nt - 1) / nt;
    int64_t b = begin + t * step, e = std::min(end, b + step);
    try {
      if (b < e) f(b, e);
    } catch (...) {
#pragma omp critical(opscope_parallel_for_error)
      if (!error) error = std::current_exception();
    }
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace opscope
