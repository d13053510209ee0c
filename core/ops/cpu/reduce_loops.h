// The loops every CPU reduction kernel shares: write the reduction as a small Op, get the whole
// (vectorized, threaded) reduction over a ReducePlan.
//
// Semantically reduce_values(plan, op) computes out[o][i] = project(fold(reduce, identity,
// x[o][0..R)[i])) for the [outer][reduced][inner] view of Note [Reduction layout]. An Op is
//
//   struct SumFloat {
//     using in_t = float; using acc_t = float; using out_t = float;
//     static constexpr int kLanes = 32;              // independent accumulators per row
//     acc_t identity() const { return 0; }
//     acc_t reduce(acc_t a, in_t x) const { return a + x; }    // one more element
//     acc_t combine(acc_t a, acc_t b) const { return a + b; }  // two partial results
//     out_t project(acc_t a) const { return a; }
//   };
//
// In implementation terms a contiguous row (inner == 1) is read by kLanes accumulators side by
// side, which GCC turns into vector operations (`#pragma omp simd`; AVX2 and baseline clones);
// ops on float / double that also define `template <typename V> V vreduce(V, V)` (sum, norm)
// get four explicit 32-byte vector accumulators instead (reduce_row_vec), kept in registers;
// an op may also bring its whole row loop as `acc_t row(const in_t*, int64_t) const` (max / min:
// see reduce_minmax.cpp), inlined into reduce_row's clones;
// partial results are folded in three levels (64 lane steps, 64 such blocks, the rest) — a
// blocked version of PyTorch's cascade sum, so float sums of 10^7 elements keep about float
// precision. Rows reduced onto each other (inner > 1) accumulate a tile of up to kTile columns
// at a time, again in blocks of 64 rows. Work is split over threads by rows, by tiles, or — one
// long row — by chunks of the row whose partial results are combined in order.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

#include "core/ops/cpu/Loops.h"
#include "core/ops/cpu/reduce_plan.h"
#include "core/runtime/Parallel.h"

namespace opscope::cpu {

namespace reduce_detail {

inline constexpr int64_t kBlockSteps = 64;  // lane steps (or rows) per partial result
inline constexpr int64_t kTile = 4096;  // most columns per task when rows reduce onto each other

// Note [No throw from a vector clone]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// GCC calls a target_clones function (OPSCOPE_VECTOR_CLONES) through an ifunc it takes for
// nothrow: an exception leaving a clone finds no handler in its caller and ends the process
// (std::terminate). So the row and column loops below look for a Ctrl-C (Note [Interrupting long
// ops], core/runtime/Interrupt.cpp) and, when one came, return early with a partial result; their
// caller, an ordinary function, calls check_interrupt() right after and throws.

// Ops whose element and accumulator types agree and that define `vreduce` (the same step on
// GCC vector types) take reduce_row_vec: four explicit 32-byte accumulators, which GCC keeps in
// registers (the lane arrays of reduce_row go through memory).
template <typename Op>
concept VectorReducible = std::is_same_v<typename Op::in_t, typename Op::acc_t> &&
    (std::is_same_v<typename Op::acc_t, float> ||
     std::is_same_v<typename Op::acc_t, double>)&&requires(const Op& op, typename Op::acc_t a) {
  op.template vreduce<typename Op::acc_t>(a, a);
};

template <typename Op>
OPSCOPE_VECTOR_CLONES typename Op::acc_t reduce_row_vec(const typename Op::acc_t* x, int64_t n,
                                                        const Op& op) {
  using T = typename Op::acc_t;
  using V [[gnu::vector_size(32)]] = T;
  constexpr int W = 32 / sizeof(T);
  T total = op.identity();
  int64_t i = 0;
  while (n - i >= 4 * W) {
    // Once per kBlockSteps^2 * 4 * W elements; the caller throws: Note [No throw from a vector clone].
    if (interrupt_pending()) return total;
    T mid = op.identity();
    for (int blk = 0; blk < kBlockSteps && n - i >= 4 * W; ++blk) {
      V a0, a1, a2, a3;
      for (int j = 0; j < W; ++j) a0[j] = op.identity();
      a1 = a0, a2 = a0, a3 = a0;
      int64_t steps = std::min<int64_t>(kBlockSteps, (n - i) / (4 * W));
      for (int64_t s = 0; s < steps; ++s, i += 4 * W) {
        V v0, v1, v2, v3;
        __builtin_memcpy(&v0, x + i, sizeof(V));
        __builtin_memcpy(&v1, x + i + W, sizeof(V));
        __builtin_memcpy(&v2, x + i + 2 * W, sizeof(V));
        __builtin_memcpy(&v3, x + i + 3 * W, sizeof(V));
        a0 = op.template vreduce<V>(a0, v0);
        a1 = op.template vreduce<V>(a1, v1);
        a2 = op.template vreduce<V>(a2, v2);
        a3 = op.template vreduce<V>(a3, v3);
      }
      // Partial results combine with combine(), not with the step (x * x for the 2-norm); in
      // vector registers when the op says the step is its combine too (`kStepCombines`).
      T blk_total = op.identity();
      if constexpr (requires { requires Op::kStepCombines; }) {
        a0 = op.template vreduce<V>(op.template vreduce<V>(a0, a1), op.template vreduce<V>(a2, a3));
        for (int j = 0; j < W; ++j) blk_total = op.combine(blk_total, a0[j]);
      } else {
        for (int j = 0; j < W; ++j) {
          T lanes = op.combine(op.combine(a0[j], a1[j]), op.combine(a2[j], a3[j]));
          blk_total = op.combine(blk_total, lanes);
        }
      }
      mid = op.combine(mid, blk_total);
    }
    total = op.combine(total, mid);
  }
  for (; i < n; ++i) total = op.reduce(total, x[i]);
  return total;
}

template <typename Op>
OPSCOPE_VECTOR_CLONES typename Op::acc_t reduce_row(const typename Op::in_t* x, int64_t n,
                                                    const Op& op) {
  if constexpr (requires { op.row(x, n); }) {  // the op's own contiguous-row loop (max / min)
    return op.row(x, n);
  } else if constexpr (VectorReducible<Op>) {
    return reduce_row_vec(x, n, op);
  }
  using acc_t = typename Op::acc_t;
  constexpr int L = Op::kLanes;
  acc_t total = op.identity();
  int64_t i = 0;
  while (n - i >= L) {
    if (interrupt_pending()) return total;  // once per kBlockSteps^2 * L elements
    acc_t mid = op.identity();
    for (int blk = 0; blk < kBlockSteps && n - i >= L; ++blk) {
      acc_t lane[L];
      for (int j = 0; j < L; ++j) lane[j] = op.identity();
      int64_t steps = std::min<int64_t>(kBlockSteps, (n - i) / L);
      for (int64_t s = 0; s < steps; ++s, i += L) {
#pragma omp simd
        for (int j = 0; j < L; ++j) lane[j] = op.reduce(lane[j], x[i + j]);
      }
      for (int w = L / 2; w > 0; w /= 2)
        for (int j = 0; j < w; ++j) lane[j] = op.combine(lane[j], lane[j + w]);
      mid = op.combine(mid, lane[0]);
    }
    total = op.combine(total, mid);
  }
  for (; i < n; ++i) total = op.reduce(total, x[i]);
  return total;
}

// buf[0, w) = reduce over r in [0, R) of x[r * I + j].
template <typename Op>
OPSCOPE_VECTOR_CLONES void reduce_columns(const typename Op::in_t* x, int64_t R, int64_t I,
                                          int64_t w, typename Op::acc_t* buf,
                                          typename Op::acc_t* part, const Op& op) {
  for (int64_t j = 0; j < w; ++j) buf[j] = op.identity();
  for (int64_t r0 = 0; r0 < R; r0 += kBlockSteps) {
    if (r0 % (kBlockSteps * kBlockSteps) == 0 && interrupt_pending()) return;
    for (int64_t j = 0; j < w; ++j) part[j] = op.identity();
    int64_t r1 = std::min(R, r0 + kBlockSteps);
    int64_t r = r0;
    for (; r + 4 <= r1; r += 4) {  // four rows per pass over part[]: a quarter of its traffic
      const typename Op::in_t* row = x + r * I;
#pragma omp simd
      for (int64_t j = 0; j < w; ++j) {
        part[j] =
            op.reduce(op.reduce(op.reduce(op.reduce(part[j], row[j]), row[I + j]), row[2 * I + j]),
                      row[3 * I + j]);
      }
    }
    for (; r < r1; ++r) {
      const typename Op::in_t* row = x + r * I;
#pragma omp simd
      for (int64_t j = 0; j < w; ++j) part[j] = op.reduce(part[j], row[j]);
    }
#pragma omp simd
    for (int64_t j = 0; j < w; ++j) buf[j] = op.combine(buf[j], part[j]);
  }
}

inline int max_threads() {
  return omp_in_parallel() ? 1 : omp_get_max_threads();
}

}  // namespace reduce_detail

// out[o][i] = op.project(reduction of x[o][:][i]); see the header comment. Writes result k.
template <typename Op>
void reduce_values(const ReducePlan& plan, const Op& op, int k = 0) {
  using namespace reduce_detail;
  using in_t = typename Op::in_t;
  using acc_t = typename Op::acc_t;
  using out_t = typename Op::out_t;
  if (plan.empty_output()) return;
  const int64_t O = plan.outer(), R = plan.reduced(), I = plan.inner();
  out_t* out = plan.output<out_t>(k);
  if (R == 0) {
    out_t v = op.project(op.identity());
    std::fill(out, out + O * I, v);
    return;
  }
  const in_t* x = plan.input<in_t>();
  if (I == 1) {
    int nt = max_threads();
    if (O < nt && O * R >= 2 * kGrainSize) {
      // A few long rows: each row in chunks, one per thread, combined in order.
      int64_t chunks = std::min<int64_t>(nt, R / kGrainSize);
      std::unique_ptr<acc_t[]> part(new acc_t[chunks]);  // not vector<bool>: threads write it
      for (int64_t o = 0; o < O; ++o) {
        const in_t* row = x + o * R;
        parallel_for(0, chunks, 1, [&](int64_t b, int64_t e) {
          for (int64_t c = b; c < e; ++c) {
            int64_t lo = R * c / chunks, hi = R * (c + 1) / chunks;
            part[c] = reduce_row(row + lo, hi - lo, op);
            check_interrupt();
          }
        });
        acc_t acc = part[0];
        for (int64_t c = 1; c < chunks; ++c) acc = op.combine(acc, part[c]);
        out[o] = op.project(acc);
      }
      return;
    }
    parallel_for(0, O, std::max<int64_t>(1, kGrainSize / R), [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) {
        out[o] = op.project(reduce_row(x + o * R, R, op));
        check_interrupt();
      }
    });
    return;
  }
  // Tiles as wide as kTile allows (each row's slice of a tile is one sequential read), and with
  // a single outer block as many as make whole rounds for the threads.
  int64_t tiles = (I + kTile - 1) / kTile;
  if (const int64_t nt = max_threads(); O == 1 && R * I >= 2 * kGrainSize)
    tiles = (std::max(tiles, nt) + nt - 1) / nt * nt;
  const int64_t tile = std::min(I, ((I + tiles - 1) / tiles + 15) / 16 * 16);
  tiles = (I + tile - 1) / tile;
  parallel_for(0, O * tiles, std::max<int64_t>(1, kGrainSize / (R * tile)),
               [&](int64_t b, int64_t e) {
                 std::unique_ptr<acc_t[]> buf(new acc_t[tile]), part(new acc_t[tile]);
                 for (int64_t t = b; t < e; ++t) {
                   int64_t o = t / tiles, i0 = (t % tiles) * tile;
                   int64_t w = std::min(tile, I - i0);
                   reduce_columns(x + o * R * I + i0, R, I, w, buf.get(), part.get(), op);
                   check_interrupt();
                   for (int64_t j = 0; j < w; ++j) out[o * I + i0 + j] = op.project(buf[j]);
                 }
               });
}

// Calls f(o, i, x, n, stride) for each output position (o, i): x points at x[o][0][i], the n = R
// elements of its reduction are x[r * stride]. For kernels that are not a fold (arg-reductions,
// second passes), threaded over the outputs.
template <typename T, typename F>
void for_each_reduction(const ReducePlan& plan, F&& f) {
  if (plan.empty_output()) return;
  const int64_t O = plan.outer(), R = plan.reduced(), I = plan.inner();
  const T* x = plan.input<T>();
  parallel_for(0, O * I, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(R, 1)),
               [&](int64_t b, int64_t e) {
                 for (int64_t t = b; t < e; ++t) {
                   int64_t o = t / I, i = t % I;
                   f(t, x + o * R * I + i, R, I);
                 }
               });
}

}  // namespace opscope::cpu
