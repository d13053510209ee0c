// CPU kernels of bincount and histc (declared in core/ops/reduce.cpp): counts of values.
//
// bincount(self, weights, minlength): self 1-D non-negative integers; out[v] counts the v's
// (sums their weights), max(self) + 1 bins or minlength if more. The result is int64 without
// weights, float32 with float32 weights, float64 with any others (torch 1.13's rule).
// histc(self, bins, min, max): `bins` equal-width bins over [min, max] (min = max = 0: the data's
// own range, widened by 1 each way when it is one point); values outside are left out, max falls
// in the last bin; the result has self's (floating) dtype.
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/dispatch/Library.h"
#include "core/ops/TensorIterator.h"
#include "core/ops/copy.h"
#include "core/ops/cpu/Loops.h"
#include "core/ops/cpu/reduce_plan.h"

namespace opscope::cpu {

// --- bincount ------------------------------------------------------------------------------------

Tensor bincount(const Tensor& self, const Tensor& weights, int64_t minlength) {
  OPSCOPE_CHECK(minlength >= 0, "minlength should be >= 0");
  OPSCOPE_CHECK(is_integral(self.dtype(), false),
                "\"bincount_cpu\" not implemented for '", cpp_name(self.dtype()), "'");
  const bool weighted = weights.defined();
  OPSCOPE_CHECK(self.dim() == 1, "bincount only supports 1-d non-negative integral inputs.");
  OPSCOPE_CHECK(!weighted || (weights.dim() == 1 && weights.size(0) == self.size(0)),
                "weights should be 1-d and have the same length as input");
  const ScalarType result_dtype = !weighted                                ? ScalarType::Int64
                                  : weights.dtype() == ScalarType::Float32 ? ScalarType::Float32
                                                                           : ScalarType::Float64;
  Tensor values = contiguous_if_needed(cast_if_needed(self, ScalarType::Int64));
  const int64_t n = values.numel();
  const int64_t* v = values.data_ptr<const int64_t>();
  int64_t largest = -1;
  for (int64_t i = 0; i < n; ++i) {
    OPSCOPE_CHECK(v[i] >= 0, "bincount only supports 1-d non-negative integral inputs.");
    largest = std::max(largest, v[i]);
  }
  const int64_t bins = std::max(largest + 1, minlength);
  Tensor result = make_empty({bins}, result_dtype, self.device());
  dispatch_dtype(result_dtype, "bincount_cpu", [&]<typename R>() {
    if constexpr (std::is_same_v<R, int64_t> || std::is_same_v<R, float> ||
                  std::is_same_v<R, double>) {
      R* out = result.data_ptr<R>();
      std::fill(out, out + bins, R(0));
      if (!weighted) {
        for (int64_t i = 0; i < n; ++i) out[v[i]] += R(1);
        return;
      }
      Tensor w = contiguous_if_needed(cast_if_needed(weights, result_dtype));
      const R* wd = w.data_ptr<const R>();
      for (int64_t i = 0; i < n; ++i) out[v[i]] += wd[i];
    }
  });
  return result;
}
Tensor bincount_out(const Tensor& self, const Tensor& weights, int64_t minlength,
                    const Tensor& out) {
  return write_out(out, bincount(self, weights, minlength));
}

// --- histc ---------------------------------------------------------------------------------------

Tensor histc_out(const Tensor& self, int64_t bins, const Scalar& min, const Scalar& max,
                 const Tensor& out) {
  OPSCOPE_CHECK(is_floating(self.dtype()) && self.dtype() != ScalarType::Float16,
                "\"histogram_cpu\" not implemented for '", cpp_name(self.dtype()), "'");
  OPSCOPE_CHECK(bins > 0, "torch.histogram(): bins must be > 0, but got ", bins,
                " for dimension 0");
  Tensor x = contiguous_if_needed(self);
  Tensor result = out.defined() ? out : make_empty({bins}, self.dtype(), self.device());
  OPSCOPE_CHECK(result.dtype() == self.dtype(), "torch.histogram: input tensor and hist tensor "
                "should have the same dtype, but got input ", cpp_name(self.dtype()),
                " and hist ", cpp_name(result.dtype()));
  resize_output(result, {bins});
  dispatch_dtype(self.dtype(), "histogram_cpu", [&]<typename T>() {
    if constexpr (!std::is_integral_v<T>) {
      using A = acc_type_t<T>;
      const T* d = x.data_ptr<const T>();
      const int64_t n = x.numel();
      A lo = static_cast<A>(min.to_double()), hi = static_cast<A>(max.to_double());
      if (lo == hi && n > 0) {  // the data's own range (torch's aminmax)
        lo = hi = static_cast<A>(d[0]);
        for (int64_t i = 0; i < n; ++i) {
          const A a = static_cast<A>(d[i]);
          if (a != a) {
            lo = hi = a;
            break;
          }
          lo = std::min(lo, a);
          hi = std::max(hi, a);
        }
      }
      if (lo == hi) {
        lo -= 1;
        hi += 1;
      }
      OPSCOPE_CHECK(!(lo > hi), "torch.histc: max must be larger than min");
      OPSCOPE_CHECK(std::isfinite(lo) && std::isfinite(hi), "torch.histc: range of [",
                    static_cast<double>(lo), ", ", static_cast<double>(hi), "] is not finite");
      // Each value's bin from its position in [lo, hi], then moved to agree with the edges a
      // linspace gives (where rounding put the value on the other side of one).
      std::vector<A> edges(static_cast<size_t>(bins + 1));
      for (int64_t k = 0; k <= bins; ++k)
        edges[static_cast<size_t>(k)] =
            k == bins ? hi : static_cast<A>(lo + (hi - lo) * static_cast<A>(k) / static_cast<A>(bins));
      std::vector<double> counts(static_cast<size_t>(bins), 0.0);
      for (int64_t i = 0; i < n; ++i) {
        const A a = static_cast<A>(d[i]);
        if (!(a >= lo && a <= hi)) continue;  // outside, or NaN
        int64_t b = static_cast<int64_t>((a - lo) * static_cast<A>(bins) / (hi - lo));
        b = std::clamp<int64_t>(b, 0, bins - 1);
        while (b > 0 && a < edges[static_cast<size_t>(b)]) --b;
        while (b < bins - 1 && a >= edges[static_cast<size_t>(b + 1)]) ++b;
        counts[static_cast<size_t>(b)] += 1.0;
      }
      T* o = result.data_ptr<T>();
      const int64_t step = result.stride(0);
      for (int64_t k = 0; k < bins; ++k) o[k * step] = static_cast<T>(counts[static_cast<size_t>(k)]);
    }
  });
  return result;
}
Tensor histc(const Tensor& self, int64_t bins, const Scalar& min, const Scalar& max) {
  return histc_out(self, bins, min, max, Tensor());
}

static Library cpu_histogram(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("bincount", fn<&bincount>);
  m.impl("bincount.out", fn<&bincount_out>);
  m.impl("histc", fn<&histc>);
  m.impl("histc.out", fn<&histc_out>);
});

}  // namespace opscope::cpu
