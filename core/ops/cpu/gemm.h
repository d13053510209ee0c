// The matrix-product engines of the linear family's CPU kernels (core/ops/cpu/linear.cpp).
//
// Semantically both compute C (M,N) = alpha * A (M,K) · B (K,N) + beta * C on strided operands,
// beta = 0 never reading C:
//   gemm_loop  any dtype but bool, batched, opscope's own loop (accumulating half / bfloat16 in
//              float, integers in wrapping unsigned arithmetic)
//   gemm_blas  float32 / float64 on OpenBLAS (core/runtime/Blas.h), one batch entry
//
// In implementation terms gemm_loop runs i-k-j with a vectorized row update (axpy_row), rows split
// between threads; gemm_blas hands BLAS each operand in place when BLAS can describe its strides
// (row- or column-major with a leading dimension, see blas_layout) and a contiguous copy when not.
#pragma once

#include <algorithm>
#include <climits>
#include <optional>
#include <vector>

#include "core/ops/copy.h"
#include "core/ops/cpu/Loops.h"
#include "core/ops/cpu/factory_util.h"
#include "core/runtime/Blas.h"
#include "core/runtime/Parallel.h"

namespace opscope::cpu::gemm {

// --- the loop kernel -----------------------------------------------------------------------------

// Accumulator of gemm_loop: float for half / bfloat16; for integers an unsigned type at least
// as wide as T (wrap-around arithmetic mod 2^bits truncates to T exactly as torch's wrapping int
// arithmetic: int8 100*100*3 is 48). Unsigned, so no signed overflow; 16-bit types accumulate
// in uint32, since uint16 * uint16 promotes to int and could overflow it (uint8 * uint8 cannot);
// T otherwise.
template <typename T, bool Integral = std::is_integral_v<T> && !std::is_same_v<T, bool>>
struct LoopAcc {
  using type = T;
};
template <typename T>
struct LoopAcc<T, true> {
  using type = std::conditional_t<(sizeof(T) > 4), uint64_t,
                                  std::conditional_t<sizeof(T) == 1, uint8_t, uint32_t>>;
};
template <>
struct LoopAcc<Half, false> {
  using type = float;
};
template <>
struct LoopAcc<BFloat16, false> {
  using type = float;
};
template <typename T>
using loop_acc_t = typename LoopAcc<T>::type;

// out[j] += a * row[j * step] for j < n: gemm_loop's inner loop, compiled for AVX2 and for the
// baseline (the CPU picks at load time), vectorized by `omp simd`.
template <typename T, typename Acc>
OPSCOPE_VECTOR_CLONES void axpy_row(int64_t n, Acc a, const T* __restrict row, int64_t step,
                                    Acc* __restrict out) {
  if (step == 1) {
#pragma omp simd
    for (int64_t j = 0; j < n; ++j) out[j] += a * static_cast<Acc>(row[j]);
  } else {
    for (int64_t j = 0; j < n; ++j) out[j] += a * static_cast<Acc>(row[j * step]);
  }
}

// out[j] += a[0] * r0[j] + a[1] * r1[j] + a[2] * r2[j] + a[3] * r3[j]: four rows of B per pass
// over the accumulators, so the row of C is loaded and stored a quarter as often.
template <typename T, typename Acc>
OPSCOPE_VECTOR_CLONES void axpy_row4(int64_t n, const Acc* a, const T* __restrict r0,
                                     const T* __restrict r1, const T* __restrict r2,
                                     const T* __restrict r3, Acc* __restrict out) {
  const Acc a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
#pragma omp simd
  for (int64_t j = 0; j < n; ++j)
    out[j] += a0 * static_cast<Acc>(r0[j]) + a1 * static_cast<Acc>(r1[j]) +
              a2 * static_cast<Acc>(r2[j]) + a3 * static_cast<Acc>(r3[j]);
}

// A matrix operand as strided memory: element (b, r, c) at data[b*sb + r*s0 + c*s1].
template <typename T>
struct Strided {
  T* data;
  int64_t sb, s0, s1;
  T& at(int64_t b, int64_t r, int64_t c) const { return data[b * sb + r * s0 + c * s1]; }
};

// A Scalar alpha / beta as gemm_loop's accumulator: torch converts it to the op's type first
// (alpha=1.5 on int32 is 1), then integers wrap.
template <typename T>
loop_acc_t<T> to_acc(const Scalar& s) {
  if constexpr (std::is_integral_v<T>)
    return static_cast<loop_acc_t<T>>(s.to<T>());
  else
    return static_cast<loop_acc_t<T>>(s.to_double());
}

// C[b] (M,N) = alpha * A[b] (M,K) · B[b] (K,N) + beta * C[b] for b < batch; beta = 0 never reads
// C (NaN there does not propagate, as in BLAS). i-k-j order: each row of C is built in a row of
// accumulators while the rows of B stream past. Rows are split between threads.
template <typename T>
void gemm_loop(int64_t batch, int64_t M, int64_t N, int64_t K, Strided<const T> A,
               Strided<const T> B, Strided<T> C, loop_acc_t<T> alpha = 1, loop_acc_t<T> beta = 0) {
  using Acc = loop_acc_t<T>;
  int64_t rows = batch * M;
  // Threads only above ~1M multiply-adds: a grain of that many rows' worth of work.
  int64_t grain = std::max<int64_t>(1, (int64_t(1) << 20) / std::max<int64_t>(N * K, 1));
  parallel_for(0, rows, grain, [&](int64_t first, int64_t last) {
    std::vector<Acc> acc(static_cast<size_t>(N));
    for (int64_t row = first; row < last; ++row) {
      int64_t b = row / M, i = row % M;
      std::fill(acc.begin(), acc.end(), Acc(0));
      int64_t k = 0;
      if (B.s1 == 1) {
        for (; k + 4 <= K; k += 4) {
          const Acc a[4] = {static_cast<Acc>(A.at(b, i, k)), static_cast<Acc>(A.at(b, i, k + 1)),
                            static_cast<Acc>(A.at(b, i, k + 2)),
                            static_cast<Acc>(A.at(b, i, k + 3))};
          axpy_row4<T, Acc>(N, a, &B.at(b, k, 0), &B.at(b, k + 1, 0), &B.at(b, k + 2, 0),
                            &B.at(b, k + 3, 0), acc.data());
        }
      }
      for (; k < K; ++k)
        axpy_row<T, Acc>(N, static_cast<Acc>(A.at(b, i, k)), &B.at(b, k, 0), B.s1, acc.data());
      if (beta == Acc(0)) {
        for (int64_t j = 0; j < N; ++j) C.at(b, i, j) = static_cast<T>(alpha * acc[j]);
      } else {
        for (int64_t j = 0; j < N; ++j)
          C.at(b, i, j) = static_cast<T>(beta * static_cast<Acc>(C.at(b, i, j)) + alpha * acc[j]);
      }
    }
  });
}

template <typename T>
Strided<const T> strided3(const Tensor& t) {  // (B, R, C)
  return {t.data_ptr<const T>(), t.stride(0), t.stride(1), t.stride(2)};
}
template <typename T>
Strided<const T> strided2(const Tensor& t) {  // (R, C) as one batch entry
  return {t.data_ptr<const T>(), 0, t.stride(0), t.stride(1)};
}

// --- BLAS ---------------------------------------------------------------------------------------

inline bool fits_blas(int64_t v) {
  return v >= 0 && v <= INT_MAX;
}

// How BLAS can read a (rows, cols) operand with strides (s0, s1) in place, if it can:
//   row-major:    element (r, c) at r*ld + c  -> NoTrans, ld = s0   (needs s1 == 1, ld >= cols)
//   column-major: element (r, c) at r + c*ld  -> Trans,   ld = s1   (needs s0 == 1, ld >= rows)
// A dim of size 1 never moves, so its stride is free. Anything else (expanded, sliced with a
// step) is cloned to row-major first.
struct BlasLayout {
  blas::Transpose trans;
  int64_t ld;
};
inline std::optional<BlasLayout> blas_layout(int64_t rows, int64_t cols, int64_t s0, int64_t s1) {
  std::optional<BlasLayout> r;
  if ((cols == 1 || s1 == 1) && (rows == 1 || s0 >= std::max<int64_t>(1, cols)))
    r = BlasLayout{blas::NoTrans, rows == 1 ? std::max<int64_t>(1, cols) : s0};
  else if ((rows == 1 || s0 == 1) && (cols == 1 || s1 >= std::max<int64_t>(1, rows)))
    r = BlasLayout{blas::Trans, cols == 1 ? std::max<int64_t>(1, rows) : s1};
  if (r && !fits_blas(r->ld)) r.reset();
  return r;
}
inline blas::Transpose flip(blas::Transpose t) {
  return t == blas::NoTrans ? blas::Trans : blas::NoTrans;
}

template <typename T>
void cblas_gemm(blas::Transpose ta, blas::Transpose tb, int64_t M, int64_t N, int64_t K, T alpha,
                const T* A, int64_t lda, const T* B, int64_t ldb, T beta, T* C, int64_t ldc) {
  auto i = [](int64_t v) { return static_cast<int>(v); };
  if constexpr (std::is_same_v<T, float>)
    blas::sgemm(blas::RowMajor, ta, tb, i(M), i(N), i(K), alpha, A, i(lda), B, i(ldb), beta, C,
                i(ldc));
  else
    blas::dgemm(blas::RowMajor, ta, tb, i(M), i(N), i(K), alpha, A, i(lda), B, i(ldb), beta, C,
                i(ldc));
}

// Note [Splitting small products]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// OpenBLAS shares a product among its threads with a wake-up and barriers that a small product
// feels: a 256^3 float32 mm (~0.2 ms) ran at 69% of the CPU's peak on 2 threads, 85% on one. Below
// kSplitFlops, when OpenBLAS runs on OpenMP's threads (libopenblas0-openmp: it goes single-
// threaded inside a parallel region), opscope splits C's rows among its own OpenMP threads, which
// are already awake, and each calls BLAS on its block of rows. Above it, OpenBLAS's own split
// (which also divides N and packs B once) is the better one.
//
// Like every parallel loop, the split has a grain (Note [A grain for every parallel loop],
// core/runtime/Parallel.h): a thread gets at least kGemmGrain multiply-adds (and 16 rows), or the
// product runs on the calling thread alone. A tiny addmm (32x4 · 4x16, 2048 multiply-adds, ~4 us
// on one thread) split over two threads waited for a second thread that a busy machine had not
// scheduled: 6-17 ms per call (issue 22, item 9).
inline constexpr double kSplitFlops = 1 << 28;
inline constexpr double kGemmGrain = 1 << 20;  // multiply-adds per thread, at least

// Note [Interruptible products]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A BLAS call cannot be interrupted, and a 5000^3 float32 product is one call of ~1.3 s on a
// 2-core VM. So a product of at least 2 * kPanelFlops runs as BLAS calls on blocks of it, with a
// look for Ctrl-C between them (Note [Interrupting long ops], core/runtime/Interrupt.cpp):
//   along K first: C = alpha * A[:, k0:k1] · B[k0:k1, :] + beta * C for the first block, + 1 * C
//     for the next ones, blocks of a multiple of kPanelAlign (256) as near kPanelFlops as that
//     allows. OpenBLAS itself walks K in blocks of a few hundred (GEMM_Q) and updates C once per
//     block, and packs each block of A and B once per call whichever way K is cut — so cutting K
//     moves no more memory than one call does, and adds a call's start-up (tens of microseconds
//     against tens of milliseconds). The sum over K is still taken block after block in
//     increasing k, as one call takes it.
//   then, only where a K block is still above 2 * kPanelFlops (M * N above ~34 million), the
//     longer of M and N in blocks of a multiple of 1024: each such block packs the other
//     operand's K block again: at most one load per 1024 multiply-adds.
// So one BLAS call is at most ~2 * kPanelFlops (17 GFLOP: under 0.1 s on two cores at their
// usual 200 GFLOP/s), usually about kPanelFlops. Below 2 * kPanelFlops nothing is cut. Each call
// more costs OpenBLAS's threads a start and a barrier: microseconds on an idle machine, but on a
// busy one a thread may wait milliseconds for a core, so the blocks are not made any smaller
// than the 0.2 s of Ctrl-C's target needs.
inline constexpr double kPanelFlops = 8.0 * (1 << 30);
inline constexpr int64_t kPanelAlign = 256;

// C (M,N) = alpha * op(A) · op(B) + beta * C as BLAS calls on blocks; see Note [Interruptible
// products].
template <typename T>
void cblas_gemm_panels(blas::Transpose ta, blas::Transpose tb, int64_t M, int64_t N, int64_t K,
                       T alpha, const T* A, int64_t lda, const T* B, int64_t ldb, T beta, T* C,
                       int64_t ldc) {
  auto flops = [](int64_t m, int64_t n, int64_t k) {
    return 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
  };
  // len cut so that a block does about `target` flops when a whole one does `whole`: a multiple
  // of align, at least align, at most len.
  auto block = [](int64_t len, double whole, double target, int64_t align) {
    auto b = static_cast<int64_t>(static_cast<double>(len) * target / whole);
    return std::min(len, std::max(align, (b + align - 1) / align * align));
  };
  const int64_t kb = K >= 2 * kPanelAlign ? block(K, flops(M, N, K), kPanelFlops, kPanelAlign) : K;
  int64_t mb = M, nb = N;
  if (flops(M, N, kb) > 2 * kPanelFlops) {
    if (M >= N)
      mb = block(M, flops(M, N, kb), kPanelFlops, 4 * kPanelAlign);
    else
      nb = block(N, flops(M, N, kb), kPanelFlops, 4 * kPanelAlign);
  }
  // Element (r, c) of op(X) with leading dimension ld sits at r * ld + c (NoTrans) or c * ld + r.
  auto at = [](const T* X, blas::Transpose t, int64_t ld, int64_t r, int64_t c) {
    return t == blas::NoTrans ? X + r * ld + c : X + c * ld + r;
  };
  bool first = true;
  for (int64_t i0 = 0; i0 < M; i0 += mb) {
    for (int64_t j0 = 0; j0 < N; j0 += nb) {
      for (int64_t k0 = 0; k0 < K; k0 += kb) {
        if (!first) check_interrupt();
        first = false;
        const int64_t m = std::min(mb, M - i0), n = std::min(nb, N - j0), k = std::min(kb, K - k0);
        cblas_gemm<T>(ta, tb, m, n, k, alpha, at(A, ta, lda, i0, k0), lda, at(B, tb, ldb, k0, j0),
                      ldb, k0 == 0 ? beta : T(1), C + i0 * ldc + j0, ldc);
      }
    }
  }
}

// C (M,N) = alpha * op(A) · op(B) + beta * C, C row-major (ldc), A as blas_layout describes it.
template <typename T>
void cblas_gemm_rows(blas::Transpose ta, blas::Transpose tb, int64_t M, int64_t N, int64_t K,
                     T alpha, const T* A, int64_t lda, const T* B, int64_t ldb, T beta, T* C,
                     int64_t ldc) {
  static const bool blas_on_openmp = blas::info().threading == "openmp";
  const double macs = static_cast<double>(M) * static_cast<double>(N) * static_cast<double>(K);
  if (2 * macs >= 2 * kPanelFlops) {  // flops: see Note [Interruptible products]
    cblas_gemm_panels<T>(ta, tb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  const int64_t nt = omp_in_parallel() ? 1 : get_num_threads();
  const int64_t chunks =
      std::min({nt, M / 16, static_cast<int64_t>(std::min(macs / kGemmGrain, 1e9))});
  if (chunks < 2 || !blas_on_openmp || 2 * macs >= kSplitFlops) {
    cblas_gemm<T>(ta, tb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  parallel_for(0, chunks, 1, [&](int64_t first, int64_t last) {
    for (int64_t t = first; t < last; ++t) {
      int64_t r0 = M * t / chunks, r1 = M * (t + 1) / chunks;  // this chunk's rows of C (op(A))
      const T* a = A + (ta == blas::NoTrans ? r0 * lda : r0);
      cblas_gemm<T>(ta, tb, r1 - r0, N, K, alpha, a, lda, B, ldb, beta, C + r0 * ldc, ldc);
    }
  });
}

// result (M,N) = alpha * a (M,K) · b (K,N) + beta * result on BLAS, a and b 2-D views of one
// batch entry.
template <typename T>
void gemm_blas(const Tensor& result, const Tensor& a, const Tensor& b, T alpha = 1, T beta = 0) {
  int64_t M = a.size(0), K = a.size(1), N = b.size(1);
  OPSCOPE_CHECK(fits_blas(M) && fits_blas(N) && fits_blas(K), "gemm: sizes ", M, "x", K, " and ", K,
                "x", N, " are too large for BLAS");
  Tensor A = a, B = b;
  auto la = blas_layout(M, K, A.stride(0), A.stride(1));
  if (!la) {
    A = ops::clone(a, ops::kContiguousFormat);
    la = blas_layout(M, K, A.stride(0), A.stride(1));
  }
  auto lb = blas_layout(K, N, B.stride(0), B.stride(1));
  if (!lb) {
    B = ops::clone(b, ops::kContiguousFormat);
    lb = blas_layout(K, N, B.stride(0), B.stride(1));
  }
  auto lc = blas_layout(M, N, result.stride(0), result.stride(1));
  if (lc && lc->trans == blas::NoTrans) {
    cblas_gemm_rows<T>(la->trans, lb->trans, M, N, K, alpha, A.data_ptr<T>(), la->ld,
                       B.data_ptr<T>(), lb->ld, beta, result.data_ptr<T>(), lc->ld);
  } else if (lc) {
    // A column-major result: compute its transpose, C^T (N,M) = B^T · A^T, row-major.
    cblas_gemm_rows<T>(flip(lb->trans), flip(la->trans), N, M, K, alpha, B.data_ptr<T>(), lb->ld,
                       A.data_ptr<T>(), la->ld, beta, result.data_ptr<T>(), lc->ld);
  } else {
    Tensor tmp = beta == T(0)
                     ? make_empty(std::array<int64_t, 2>{M, N}, result.dtype(), result.device())
                     : ops::clone(result, ops::kContiguousFormat);
    cblas_gemm_rows<T>(la->trans, lb->trans, M, N, K, alpha, A.data_ptr<T>(), la->ld,
                       B.data_ptr<T>(), lb->ld, beta, tmp.data_ptr<T>(), std::max<int64_t>(N, 1));
    ops::copy_(result, tmp);
  }
}

}  // namespace opscope::cpu::gemm
