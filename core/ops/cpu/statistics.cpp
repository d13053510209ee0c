// CPU kernels of mode and aminmax (schemas in core/ops/reduce.cpp), and mode.values, which torch
// 1.13 registers as CompositeExplicitAutograd over the same CPU routine (its kernel calls the
// backend's stub directly, so a trace shows no children), registered at the end of this file.
//
// mode: the most frequent value of each slice along dim and an index holding it. Ties between
// values go to the smallest; the index is the one torch reports — see Note [mode's index is
// std::sort's]. aminmax: (amin, amax) over dim or over every element in one pass; NaN wins both.
// Both walk their input through a ReducePlan (core/ops/cpu/reduce_plan.h, Note [Reduction
// layout]): out[o][i] from x[o][0..R)[i].
#pragma GCC optimize("no-trapping-math")  // compares may become vector selects
#pragma GCC diagnostic ignored "-Wpsabi"  // 32-byte vector values in always-inlined helpers

#include <algorithm>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include "core/dispatch/Library.h"
#include "core/ops/TensorIterator.h"
#include "core/ops/copy.h"
#include "core/ops/cpu/reduce_loops.h"
#include "core/ops/views.h"

namespace opscope::cpu {

// --- mode ----------------------------------------------------------------------------------------
//
// Note [mode's index is std::sort's]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// torch 1.13's CPU kernel pairs each element with its index, sorts the pairs by value with
// std::sort (not stable) and walks the runs of equal values: the first run longer than every
// earlier one wins (so the smallest of the most frequent values), and the index reported is that
// of the run's last pair after the sort. For slices under 17 elements std::sort is an insertion
// sort, so that is the value's last occurrence; for longer ones it is wherever introsort left the
// pairs. opscope sorts the same pairs with the same comparison and libstdc++'s same std::sort,
// so it reports the same index; NaNs, which compare false both ways, end runs of their own and
// land where the sort puts them, as in torch.

namespace {

template <typename T>
using mode_key_t = std::conditional_t<std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>, float,
                                      T>;  // compares as torch's Half / BFloat16 do

template <typename T>
void mode_slices(const ReducePlan& plan, T* values, int64_t* indices) {
  using K = mode_key_t<T>;
  for_each_reduction<T>(plan, [&](int64_t t, const T* x, int64_t n, int64_t stride) {
    thread_local std::vector<std::pair<K, int64_t>> pairs;
    pairs.resize(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i)
      pairs[static_cast<size_t>(i)] = {static_cast<K>(x[i * stride]), i};
    std::sort(pairs.begin(), pairs.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    K best = 0;
    int64_t best_index = 0, best_count = 0, count = 0;
    for (int64_t i = 0; i < n; ++i) {
      const auto& p = pairs[static_cast<size_t>(i)];
      ++count;
      if (i == n - 1 || p.first != pairs[static_cast<size_t>(i + 1)].first) {  // a run ends
        if (count > best_count) {
          best = p.first;
          best_index = p.second;
          best_count = count;
        }
        count = 0;
      }
    }
    values[t] = static_cast<T>(best);
    indices[t] = best_index;
  });
}

// self [*s] -> (values, indices) [*s without dim] (size 1 there when keepdim); a 0-d self is
// its own mode, at index 0.
std::tuple<Tensor, Tensor> mode_impl(const Tensor& self, int64_t dim, bool keepdim) {
  const int64_t d = wrap_dim(dim, self.dim());
  if (self.dim() == 0) {
    Tensor values = make_empty({}, self.dtype(), self.device()),
           indices = make_empty({}, ScalarType::Int64, self.device());
    ops::copy_(values, self);
    indices.data_ptr<int64_t>()[0] = 0;
    return {values, indices};
  }
  OPSCOPE_CHECK_INDEX(self.size(d) != 0, "mode(): Expected reduction dim ", d,
                      " to have non-zero size.");
  ReducePlan plan(self, reduce_dim_mask(d, self.dim()), keepdim, {self.dtype(), ScalarType::Int64});
  dispatch_dtype(self.dtype(), "mode_cpu", [&]<typename T>() {
    mode_slices<T>(plan, plan.output<T>(0), plan.output<int64_t>(1));
  });
  Tensor values = plan.finish(0);
  return {values, plan.finish(1)};
}

}  // namespace

std::tuple<Tensor, Tensor> mode(const Tensor& self, int64_t dim, bool keepdim) {
  return mode_impl(self, dim, keepdim);
}

// mode.values: CompositeExplicitAutograd in torch 1.13, over this file's routine (see the top)
std::tuple<Tensor, Tensor> mode_values(const Tensor& self, int64_t dim, bool keepdim,
                                       const Tensor& values, const Tensor& indices) {
  OPSCOPE_CHECK(values.dtype() == self.dtype(), "expected scalar type '", cpp_name(self.dtype()),
                "' but got '", cpp_name(values.dtype()), "' for values output");
  OPSCOPE_CHECK(indices.dtype() == ScalarType::Int64, "expected scalar type 'Long' but got '",
                cpp_name(indices.dtype()), "' for indices output");
  auto [v, i] = mode_impl(self, dim, keepdim);
  write_out(values, v);
  write_out(indices, i);
  return {values, indices};
}

// --- aminmax -------------------------------------------------------------------------------------

namespace {

// NaN-propagating min / max steps: a NaN x replaces the running value, which then stays NaN.
template <typename A>
inline A min_step(A a, A x) {
  return (x < a || x != x) ? x : a;
}
template <typename A>
inline A max_step(A a, A x) {
  return (x > a || x != x) ? x : a;
}

template <typename A>
struct Extremes {
  A lo, hi;
};

template <typename A>
constexpr Extremes<A> no_extremes() {
  if constexpr (std::is_same_v<A, bool>) {
    return {true, false};
  } else if constexpr (std::numeric_limits<A>::has_infinity) {
    return {std::numeric_limits<A>::infinity(), -std::numeric_limits<A>::infinity()};
  } else {
    return {std::numeric_limits<A>::max(), std::numeric_limits<A>::lowest()};
  }
}

template <typename A>
inline Extremes<A> combine(Extremes<A> a, Extremes<A> b) {
  return {min_step(a.lo, b.lo), max_step(a.hi, b.hi)};
}

// The extremes of a contiguous row. float / double: four vector accumulators of each, stepped by
// the bare vminps / vmaxps (`a < x ? a : x`), NaNs only noted in flags of their own and deciding
// at the end (as MinMaxOp::row in reduce_minmax.cpp); other types: a scalar loop GCC vectorizes.
template <typename T>
OPSCOPE_VECTOR_CLONES Extremes<acc_type_t<T>> row_extremes(const T* x, int64_t n) {
  using A = acc_type_t<T>;
  Extremes<A> r = no_extremes<A>();
  int64_t i = 0;
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    using V [[gnu::vector_size(32)]] = T;
    using M = decltype(V{} != V{});
    constexpr int W = 32 / sizeof(T);
    V lo0, hi0, v0, v1, v2, v3;
    for (int j = 0; j < W; ++j) lo0[j] = r.lo, hi0[j] = r.hi;
    V lo1 = lo0, lo2 = lo0, lo3 = lo0, hi1 = hi0, hi2 = hi0, hi3 = hi0;
    M nan = {};
    for (; i + 4 * W <= n; i += 4 * W) {
      __builtin_memcpy(&v0, x + i, sizeof(V));
      __builtin_memcpy(&v1, x + i + W, sizeof(V));
      __builtin_memcpy(&v2, x + i + 2 * W, sizeof(V));
      __builtin_memcpy(&v3, x + i + 3 * W, sizeof(V));
      lo0 = lo0 < v0 ? lo0 : v0, lo1 = lo1 < v1 ? lo1 : v1;
      lo2 = lo2 < v2 ? lo2 : v2, lo3 = lo3 < v3 ? lo3 : v3;
      hi0 = hi0 > v0 ? hi0 : v0, hi1 = hi1 > v1 ? hi1 : v1;
      hi2 = hi2 > v2 ? hi2 : v2, hi3 = hi3 > v3 ? hi3 : v3;
      nan |= (v0 != v0) | (v1 != v1) | (v2 != v2) | (v3 != v3);
    }
    for (int j = 0; j < W; ++j) {
      if (nan[j]) return {std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::quiet_NaN()};
      r.lo = min_step(min_step(r.lo, min_step(lo0[j], lo1[j])), min_step(lo2[j], lo3[j]));
      r.hi = max_step(max_step(r.hi, max_step(hi0[j], hi1[j])), max_step(hi2[j], hi3[j]));
    }
  }
  for (; i < n; ++i) {
    const A v = static_cast<A>(x[i]);
    r.lo = min_step(r.lo, v);
    r.hi = max_step(r.hi, v);
  }
  return r;
}

// lo[0, w) / hi[0, w) = the extremes over r in [0, R) of x[r * I + j]: rows reduced onto each
// other, each row's slice read in order.
template <typename T>
OPSCOPE_VECTOR_CLONES void column_extremes(const T* x, int64_t R, int64_t I, int64_t w,
                                           acc_type_t<T>* lo, acc_type_t<T>* hi) {
  using A = acc_type_t<T>;
  const Extremes<A> none = no_extremes<A>();
  for (int64_t j = 0; j < w; ++j) lo[j] = none.lo, hi[j] = none.hi;
  for (int64_t r = 0; r < R; ++r) {
    const T* row = x + r * I;
#pragma omp simd
    for (int64_t j = 0; j < w; ++j) {
      const A v = static_cast<A>(row[j]);
      lo[j] = min_step(lo[j], v);
      hi[j] = max_step(hi[j], v);
    }
  }
}

template <typename T>
void aminmax_kernel(const ReducePlan& plan, T* lo_out, T* hi_out) {
  using A = acc_type_t<T>;
  if (plan.empty_output()) return;
  const int64_t O = plan.outer(), R = plan.reduced(), I = plan.inner();
  const T* x = plan.input<T>();
  if (I == 1) {
    const int nt = reduce_detail::max_threads();
    if (O < nt && O * R >= 2 * kGrainSize) {  // a few long rows: chunks of each, in order
      const int64_t chunks = std::min<int64_t>(nt, R / kGrainSize);
      std::unique_ptr<Extremes<A>[]> part(new Extremes<A>[chunks]);
      for (int64_t o = 0; o < O; ++o) {
        const T* row = x + o * R;
        parallel_for(0, chunks, 1, [&](int64_t b, int64_t e) {
          for (int64_t c = b; c < e; ++c) {
            const int64_t lo = R * c / chunks, hi = R * (c + 1) / chunks;
            part[c] = row_extremes(row + lo, hi - lo);
          }
        });
        Extremes<A> r = part[0];
        for (int64_t c = 1; c < chunks; ++c) r = combine(r, part[c]);
        lo_out[o] = static_cast<T>(r.lo), hi_out[o] = static_cast<T>(r.hi);
      }
      return;
    }
    parallel_for(0, O, std::max<int64_t>(1, kGrainSize / R), [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) {
        const Extremes<A> r = row_extremes(x + o * R, R);
        lo_out[o] = static_cast<T>(r.lo), hi_out[o] = static_cast<T>(r.hi);
      }
      check_interrupt();
    });
    return;
  }
  constexpr int64_t kTile = 1024;
  const int64_t tiles = (I + kTile - 1) / kTile;
  parallel_for(0, O * tiles, std::max<int64_t>(1, kGrainSize / (R * std::min(I, kTile))),
               [&](int64_t b, int64_t e) {
                 std::unique_ptr<A[]> lo(new A[kTile]), hi(new A[kTile]);
                 for (int64_t t = b; t < e; ++t) {
                   const int64_t o = t / tiles, i0 = (t % tiles) * kTile;
                   const int64_t w = std::min(kTile, I - i0);
                   column_extremes(x + o * R * I + i0, R, I, w, lo.get(), hi.get());
                   for (int64_t j = 0; j < w; ++j) {
                     lo_out[o * I + i0 + j] = static_cast<T>(lo[j]);
                     hi_out[o * I + i0 + j] = static_cast<T>(hi[j]);
                   }
                 }
                 check_interrupt();
               });
}

// torch 1.13's dtypes: along a dim every type but float16 / bfloat16; over every element
// bfloat16 too.
template <bool AllElements>
constexpr auto kAminmaxTypes = []<typename T>() {
  return std::bool_constant < !std::is_same_v<T, Half> &&
         (AllElements || !std::is_same_v<T, BFloat16>) > {};
};

// self [*s] -> (min, max) [*s without dim] (size 1 there when keepdim); without dim, over every
// element: 0-d (size-1 dims when keepdim).
std::tuple<Tensor, Tensor> aminmax_impl(const Tensor& self, std::optional<int64_t> dim,
                                        bool keepdim) {
  uint64_t mask;
  if (dim) {
    const int64_t d = wrap_dim(*dim, self.dim());
    OPSCOPE_CHECK_INDEX(self.dim() == 0 || self.size(d) != 0, "aminmax: Expected reduction dim ", d,
                        " to have non-zero size.");
    mask = reduce_dim_mask(d, self.dim());
  } else {
    OPSCOPE_CHECK(self.numel() > 0,
                  "aminmax(): cannot compute aminmax over an empty dimension as the operation "
                  "has no identity.");
    mask = reduce_dim_mask(std::nullopt, self.dim());
  }
  ReducePlan plan(self, mask, keepdim, {self.dtype(), self.dtype()});
  auto run = [&]<typename T>() { aminmax_kernel<T>(plan, plan.output<T>(0), plan.output<T>(1)); };
  if (dim)
    dispatch_dtype_if(self.dtype(), "aminmax_cpu", kAminmaxTypes<false>, run);
  else
    dispatch_dtype_if(self.dtype(), "aminmax_cpu", kAminmaxTypes<true>, run);
  Tensor lo = plan.finish(0), hi = plan.finish(1);
  if (dim && keepdim && self.dim() == 0) {  // torch's reduction shape of a 0-d tensor: [1]
    lo = ops::reshape(lo, {1});
    hi = ops::reshape(hi, {1});
  }
  return {lo, hi};
}

}  // namespace

std::tuple<Tensor, Tensor> aminmax(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return aminmax_impl(self, dim, keepdim);
}

std::tuple<Tensor, Tensor> aminmax_out(const Tensor& self, std::optional<int64_t> dim, bool keepdim,
                                       const Tensor& min, const Tensor& max) {
  for (const Tensor* out : {&min, &max})
    OPSCOPE_CHECK(out->dtype() == self.dtype(), "Expected out tensor to have dtype ",
                  typemeta_name(self.dtype()), ", but got ", typemeta_name(out->dtype()),
                  " instead");
  auto [lo, hi] = aminmax_impl(self, dim, keepdim);
  write_out(min, lo);
  write_out(max, hi);
  return {min, max};
}

static Library cpu_statistics(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("mode", fn<&mode>);
  m.impl("aminmax", fn<&aminmax>);
  m.impl("aminmax.out", fn<&aminmax_out>);
});

static Library composite_explicit_statistics(Library::IMPL, "aten",
                                             DispatchKey::CompositeExplicitAutograd,
                                             [](Library& m) {
                                               m.impl("mode.values", fn<&mode_values>);
                                             });

}  // namespace opscope::cpu
