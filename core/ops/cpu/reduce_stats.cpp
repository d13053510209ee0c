// CPU kernels of var, std, var_mean, std_mean (the `.correction` overloads, which the others
// decompose into) and logsumexp (declared in core/ops/reduce.cpp).
//
// var = sum (x - mean)^2 / max(N - correction, 0), two passes accumulating in double (torch
// accumulates float variance in double too); N - correction <= 0 gives inf or NaN as torch.
// std = sqrt(var). Floating dtypes only: "std and var only support floating point and complex
// dtypes". logsumexp = m + log(sum exp(x - m)) with m the max (0 where it is infinite), so large
// inputs do not overflow; integer inputs compute in the default float dtype.
// Float compares may be if-converted into vector selects (we never read FP exception flags).
#pragma GCC optimize("no-trapping-math", "fp-contract=fast")

#include <cmath>
#include <limits>

#include "core/ops/copy.h"
#include "core/dispatch/Library.h"
#include "core/ops/cpu/reduce_loops.h"
#include "core/ops/cpu/vec_math.h"

namespace opscope::cpu {

namespace {

template <typename T>
struct MeanDoubleOp {
  using in_t = T;
  using acc_t = double;
  using out_t = double;
  static constexpr int kLanes = 16;
  double count;
  acc_t identity() const { return 0.0; }
  acc_t reduce(acc_t a, in_t x) const {
    return a + static_cast<double>(static_cast<acc_type_t<T>>(x));
  }
  acc_t combine(acc_t a, acc_t b) const { return a + b; }
  out_t project(acc_t a) const { return a / count; }
};

// sum (x - mean)^2 over everything, for a single output: a fold, so long inputs are split
// over threads by reduce_values.
template <typename T>
struct SquaredDeviationOp {
  using in_t = T;
  using acc_t = double;
  using out_t = double;
  static constexpr int kLanes = 16;
  double mean;
  acc_t identity() const { return 0.0; }
  acc_t reduce(acc_t a, in_t x) const {
    double d = static_cast<double>(static_cast<acc_type_t<T>>(x)) - mean;
    return a + d * d;
  }
  acc_t combine(acc_t a, acc_t b) const { return a + b; }
  out_t project(acc_t a) const { return a; }
};

// Fills result 0 with var (or std) and result 1 with the mean in double.
Tensor var_impl(const Tensor& self, OptDims dim, std::optional<int64_t> correction, bool keepdim,
                bool take_sqrt, Tensor* mean_out) {
  OPSCOPE_CHECK(is_floating(self.dtype()),
                mean_out ? (take_sqrt ? "std_mean" : "var_mean") : "std and var",
                " only support floating point and complex dtypes");
  ReducePlan plan(self, reduce_dim_mask(dim, self.dim()), keepdim,
                  {self.dtype(), ScalarType::Float64});
  // In double: N - correction in int64 overflows for correction = -2**63.
  const double divisor = std::max(0.0, static_cast<double>(plan.reduced()) -
                                           static_cast<double>(correction.value_or(1)));
  dispatch_dtype(self.dtype(), "std_var_cpu", [&]<typename T>() {
    if constexpr (!std::is_integral_v<T>) {
      reduce_values(plan, MeanDoubleOp<T>{static_cast<double>(plan.reduced())}, 1);
      const double* mean = plan.output<double>(1);
      T* out = plan.output<T>(0);
      if (plan.num_outputs() == 1 && plan.reduced() > 0) {
        // One long reduction: the second pass as a fold into result 1 (the mean is read first).
        double m = mean[0];
        reduce_values(plan, SquaredDeviationOp<T>{m}, 1);
        double v = plan.output<double>(1)[0] / divisor;
        plan.output<double>(1)[0] = m;
        out[0] = static_cast<T>(take_sqrt ? std::sqrt(v) : v);
        return;
      }
      for_each_reduction<T>(plan, [&](int64_t t, const T* x, int64_t n, int64_t stride) {
        double m = mean[t], s = 0.0;
        for (int64_t r = 0; r < n; ++r) {
          double d = static_cast<double>(static_cast<acc_type_t<T>>(x[r * stride])) - m;
          s += d * d;
        }
        double v = s / divisor;
        out[t] = static_cast<T>(take_sqrt ? std::sqrt(v) : v);
      });
      if (plan.empty_reduction()) {  // no elements: NaN, as 0 / 0
        std::fill(out, out + plan.num_outputs(), static_cast<T>(std::nan("")));
      }
    }
  });
  Tensor r = plan.finish(0);
  if (mean_out) *mean_out = ops::to(plan.finish(1), self.dtype());
  return r;
}

}  // namespace

Tensor var_correction(const Tensor& self, OptDims dim, std::optional<int64_t> correction,
                      bool keepdim) {
  return var_impl(self, dim, correction, keepdim, false, nullptr);
}
Tensor var_correction_out(const Tensor& self, OptDims dim, std::optional<int64_t> correction,
                          bool keepdim, const Tensor& out) {
  return write_out(out, var_impl(self, dim, correction, keepdim, false, nullptr));
}
Tensor std_correction(const Tensor& self, OptDims dim, std::optional<int64_t> correction,
                      bool keepdim) {
  return var_impl(self, dim, correction, keepdim, true, nullptr);
}
Tensor std_correction_out(const Tensor& self, OptDims dim, std::optional<int64_t> correction,
                          bool keepdim, const Tensor& out) {
  return write_out(out, var_impl(self, dim, correction, keepdim, true, nullptr));
}
std::tuple<Tensor, Tensor> var_mean_correction(const Tensor& self, OptDims dim,
                                               std::optional<int64_t> correction, bool keepdim) {
  Tensor mean;
  Tensor v = var_impl(self, dim, correction, keepdim, false, &mean);
  return {v, mean};
}
std::tuple<Tensor, Tensor> std_mean_correction(const Tensor& self, OptDims dim,
                                               std::optional<int64_t> correction, bool keepdim) {
  Tensor mean;
  Tensor s = var_impl(self, dim, correction, keepdim, true, &mean);
  return {s, mean};
}

}  // namespace opscope::cpu

namespace opscope::cpu {
namespace {

// log(sum exp(x)) of one contiguous row, shifted by its max (0 when the max is infinite). A NaN
// needs no test of its own: the max may skip it, but exp(NaN - m) makes the sum NaN.
template <typename T>
OPSCOPE_FMA_CLONES T logsumexp_row(const T* x, int64_t n) {
  T m = -std::numeric_limits<T>::infinity();
#pragma omp simd reduction(max : m)
  for (int64_t i = 0; i < n; ++i) m = x[i] > m ? x[i] : m;
  if (std::isinf(m)) m = 0;
  T s = 0;
#pragma omp simd reduction(+ : s)
  for (int64_t i = 0; i < n; ++i) s += exp_of<T>(x[i] - m);
  return std::log(s) + m;
}

// log(sum exp(x)) of w columns reduced over R rows (row r at x + r * I), into out[0, w).
template <typename T>
OPSCOPE_FMA_CLONES void logsumexp_columns(const T* x, int64_t R, int64_t I, int64_t w, T* m, T* s,
                                          T* out) {
  for (int64_t j = 0; j < w; ++j) m[j] = -std::numeric_limits<T>::infinity(), s[j] = 0;
  for (int64_t r = 0; r < R; ++r) {
    const T* xr = x + r * I;
#pragma omp simd
    for (int64_t j = 0; j < w; ++j) m[j] = (xr[j] > m[j] || xr[j] != xr[j]) ? xr[j] : m[j];
  }
  for (int64_t j = 0; j < w; ++j) m[j] = std::isinf(m[j]) ? T(0) : m[j];
  for (int64_t r = 0; r < R; ++r) {
    const T* xr = x + r * I;
#pragma omp simd
    for (int64_t j = 0; j < w; ++j) s[j] += exp_of<T>(xr[j] - m[j]);
  }
  for (int64_t j = 0; j < w; ++j) out[j] = std::log(s[j]) + m[j];
}

}  // namespace
}  // namespace opscope::cpu

namespace opscope::cpu {

// logsumexp is CompositeExplicitAutograd in torch 1.13 (amax, sub, exp, sum, log, add: the
// composite in core/ops/composite/reduce.cpp, which other backends use); on the CPU opscope runs
// it as one kernel (max, then the shifted sum of exponentials), reading each row twice, not six.
Tensor logsumexp(const Tensor& self, IntArrayRef dim, bool keepdim) {
  ScalarType t = is_integral(self.dtype(), true) ? default_dtype() : self.dtype();
  OPSCOPE_CHECK(t != ScalarType::Float16, "\"exp_vml_cpu\" not implemented for 'Half'");
  Tensor in = cpu::cast_if_needed(self, t);
  cpu::ReducePlan plan(in, cpu::reduce_dim_mask(dim, self.dim()), keepdim, {t});
  dispatch_dtype(t, "logsumexp", [&]<typename T>() {
    if constexpr (!std::is_integral_v<T>) {
      using acc_t = acc_type_t<T>;
      T* out = plan.output<T>(0);
      if (plan.empty_reduction()) {
        std::fill(out, out + plan.num_outputs(),
                  static_cast<T>(-std::numeric_limits<acc_t>::infinity()));
        return;
      }
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
        if (plan.inner() == 1) {  // contiguous rows: vectorized
          const T* x = plan.input<T>();
          const int64_t R = plan.reduced();
          parallel_for(0, plan.outer(), std::max<int64_t>(1, kGrainSize / R),
                       [&](int64_t b, int64_t e) {
                         for (int64_t o = b; o < e; ++o) out[o] = cpu::logsumexp_row(x + o * R, R);
                       });
          return;
        }
        // Rows reduced onto each other: tiles of columns whose rows stay in L2.
        const T* x = plan.input<T>();
        const int64_t R = plan.reduced(), I = plan.inner();
        const int64_t tile = std::clamp<int64_t>((262144 / R) / 16 * 16, 16, 256);
        const int64_t tiles = (I + tile - 1) / tile;
        parallel_for(0, plan.outer() * tiles,
                     std::max<int64_t>(1, kGrainSize / (R * std::min(I, tile))),
                     [&](int64_t b, int64_t e) {
                       std::unique_ptr<T[]> m(new T[tile]), s(new T[tile]);
                       for (int64_t t = b; t < e; ++t) {
                         int64_t o = t / tiles, i0 = (t % tiles) * tile;
                         cpu::logsumexp_columns(x + o * R * I + i0, R, I, std::min(tile, I - i0),
                                                m.get(), s.get(), out + o * I + i0);
                       }
                     });
        return;
      }
      cpu::for_each_reduction<T>(plan, [&](int64_t o, const T* x, int64_t n, int64_t stride) {
        acc_t m = -std::numeric_limits<acc_t>::infinity();
        for (int64_t r = 0; r < n; ++r) {
          acc_t v = static_cast<acc_t>(x[r * stride]);
          if (v > m || v != v) m = v;
        }
        if (std::isinf(m)) m = 0;
        acc_t s = 0;
        for (int64_t r = 0; r < n; ++r) s += std::exp(static_cast<acc_t>(x[r * stride]) - m);
        out[o] = static_cast<T>(std::log(s) + m);
      });
    }
  });
  return plan.finish();
}

Tensor logsumexp_out(const Tensor& self, IntArrayRef dim, bool keepdim, const Tensor& out) {
  return cpu::write_out(out, logsumexp(self, dim, keepdim));
}

static Library cpu_reduce_stats(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("var.correction", fn<&var_correction>);
  m.impl("var.correction_out", fn<&var_correction_out>);
  m.impl("std.correction", fn<&std_correction>);
  m.impl("std.correction_out", fn<&std_correction_out>);
  m.impl("var_mean.correction", fn<&var_mean_correction>);
  m.impl("std_mean.correction", fn<&std_mean_correction>);
  m.impl("logsumexp", fn<&logsumexp>);  // one fused kernel
  m.impl("logsumexp.out", fn<&logsumexp_out>);
});

}  // namespace opscope::cpu
