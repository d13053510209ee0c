// CPU kernels of max, min (all elements, or along a dim with indices), amax, amin, argmax and
// argmin (declared in core/ops/reduce.cpp).
//
// NaN wins as in torch: max / amax of anything containing NaN is NaN, and the index max(dim) /
// argmax report is that of the first NaN; otherwise ties report the first occurrence. Every
// dtype works (argmax / argmin: all but bool). These reductions have no identity, so reducing
// zero elements is an error worded as torch's (see check_nonempty_reduction).
// Float compares may be if-converted into vector selects (we never read FP exception flags).
#pragma GCC optimize("no-trapping-math")
// vreduce takes and returns 32-byte vectors; it is always inlined, so no call ABI is involved.
#pragma GCC diagnostic ignored "-Wpsabi"

#include <limits>

#include "core/ops/copy.h"
#include "core/dispatch/Library.h"
#include "core/ops/cpu/reduce_loops.h"
#include "core/ops/views.h"
#include "core/runtime/ScalarConvert.h"

namespace opscope::cpu {

namespace {

template <typename T, bool IsMax>
struct MinMaxOp {
  using in_t = T;
  using acc_t = acc_type_t<T>;
  using out_t = T;
  static constexpr int kLanes = sizeof(acc_t) == 8 ? 16 : (sizeof(acc_t) == 4 ? 32 : 64);
  acc_t identity() const {
    if constexpr (std::is_same_v<acc_t, bool>) {
      return !IsMax;
    } else if constexpr (std::numeric_limits<acc_t>::has_infinity) {
      return IsMax ? -std::numeric_limits<acc_t>::infinity()
                   : std::numeric_limits<acc_t>::infinity();
    } else {
      return IsMax ? std::numeric_limits<acc_t>::lowest() : std::numeric_limits<acc_t>::max();
    }
  }
  acc_t reduce(acc_t a, in_t xin) const { return combine(a, static_cast<acc_t>(xin)); }
  acc_t combine(acc_t a, acc_t x) const {
    if constexpr (std::is_floating_point_v<acc_t>) {
      return ((IsMax ? x > a : x < a) || x != x) ? x : a;
    } else {
      return (IsMax ? x > a : x < a) ? x : a;
    }
  }
  // The NaN-propagating step on GCC vector types (see reduce_row_vec).
  static constexpr bool kStepCombines = true;  // vreduce(a, b) also combines partials
  template <typename V>
  [[gnu::always_inline]] V vreduce(V a, V x) const {
    if constexpr (std::is_floating_point_v<V>) {
      return combine(a, x);
    } else {
      return ((IsMax ? x > a : x < a) | (x != x)) ? x : a;
    }
  }
  out_t project(acc_t a) const { return static_cast<out_t>(a); }

  // A contiguous float / double row: four vector accumulators stepped by `a > x ? a : x` alone
  // (one vmaxps: the NaN test of combine() would lengthen every step's dependency chain to
  // compare + or + blend), while NaNs are only noted, in flags of their own, and decide at the end.
  [[gnu::always_inline]] acc_t row(const in_t* x, int64_t n) const
      requires(std::is_same_v<in_t, float> || std::is_same_v<in_t, double>) {
    using V [[gnu::vector_size(32)]] = T;
    using M = decltype(V{} != V{});  // lanes of all-ones / zeros
    constexpr int W = 32 / sizeof(T);
    auto step = [](V a, V v) { return IsMax ? (a > v ? a : v) : (a < v ? a : v); };
    V a0, a1, a2, a3, v0, v1, v2, v3;
    for (int j = 0; j < W; ++j) a0[j] = identity();
    a1 = a0, a2 = a0, a3 = a0;
    M nan0 = {}, nan1 = {};
    int64_t i = 0;
    for (; i + 4 * W <= n; i += 4 * W) {
      __builtin_memcpy(&v0, x + i, sizeof(V));
      __builtin_memcpy(&v1, x + i + W, sizeof(V));
      __builtin_memcpy(&v2, x + i + 2 * W, sizeof(V));
      __builtin_memcpy(&v3, x + i + 3 * W, sizeof(V));
      a0 = step(a0, v0), a1 = step(a1, v1), a2 = step(a2, v2), a3 = step(a3, v3);
      nan0 |= (v0 != v0) | (v1 != v1);
      nan1 |= (v2 != v2) | (v3 != v3);
    }
    nan0 |= nan1;
    acc_t r = identity();
    for (int j = 0; j < W; ++j) {
      if (nan0[j]) return std::numeric_limits<acc_t>::quiet_NaN();
      r = combine(combine(r, combine(a0[j], a1[j])), combine(a2[j], a3[j]));
    }
    for (; i < n; ++i) r = reduce(r, x[i]);
    return r;
  }
};

template <bool IsMax>
Tensor minmax_values(const Tensor& self, IntArrayRef dim, bool keepdim) {
  ReducePlan plan(self, reduce_dim_mask(dim, self.dim()), keepdim, {self.dtype()});
  dispatch_dtype(self.dtype(), IsMax ? "max_all" : "min_all",
                 [&]<typename T>() { reduce_values(plan, MinMaxOp<T, IsMax>{}); });
  return plan.finish();
}

// values (may be null) and indices of the first max / min (or first NaN) of each reduction.
template <typename T, bool IsMax>
void arg_reduce(const ReducePlan& plan, T* values, int64_t* indices) {
  using acc_t = acc_type_t<T>;
  for_each_reduction<T>(plan, [&](int64_t t, const T* x, int64_t n, int64_t stride) {
    acc_t best = static_cast<acc_t>(x[0]);
    int64_t at = 0;
    if (best == best) {
      for (int64_t r = 1; r < n; ++r) {
        acc_t v = static_cast<acc_t>(x[r * stride]);
        if (v != v) {  // NaN: the answer, whatever follows
          best = v;
          at = r;
          break;
        }
        if (IsMax ? v > best : v < best) {
          best = v;
          at = r;
        }
      }
    }
    if (values) values[t] = static_cast<T>(best);
    indices[t] = at;
  });
}

template <bool IsMax>
std::tuple<Tensor, Tensor> minmax_dim(const Tensor& self, int64_t dim, bool keepdim) {
  const char* name = IsMax ? "max" : "min";
  uint64_t mask = reduce_dim_mask(dim, self.dim());
  check_nonempty_reduction(self, mask, true, name);
  ReducePlan plan(self, mask, keepdim, {self.dtype(), ScalarType::Int64});
  dispatch_dtype(self.dtype(), IsMax ? "max_cpu" : "min_cpu", [&]<typename T>() {
    arg_reduce<T, IsMax>(plan, plan.output<T>(0), plan.output<int64_t>(1));
  });
  Tensor values = plan.finish(0);
  return {values, plan.finish(1)};
}

template <bool IsMax>
std::tuple<Tensor, Tensor> minmax_dim_out(const Tensor& self, int64_t dim, bool keepdim,
                                          const Tensor& values, const Tensor& indices) {
  OPSCOPE_CHECK(values.dtype() == self.dtype(), "Expected out tensor to have dtype ",
                typemeta_name(self.dtype()), ", but got ", typemeta_name(values.dtype()),
                " instead");
  OPSCOPE_CHECK(indices.dtype() == ScalarType::Int64,
                "Expected out tensor to have dtype long int, but got ",
                typemeta_name(indices.dtype()), " instead");
  auto [v, i] = minmax_dim<IsMax>(self, dim, keepdim);
  write_out(values, v);
  write_out(indices, i);
  return {values, indices};
}

template <bool IsMax>
Tensor arg_impl(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  const char* name = IsMax ? "argmax" : "argmin";
  Tensor in = self;
  uint64_t mask;
  if (dim) {
    mask = reduce_dim_mask(*dim, self.dim());
    check_nonempty_reduction(self, mask, true, name);
  } else {
    check_nonempty_reduction(self, 0, false, name, /*index_error_without_dim=*/true);
    in = ops::reshape(self, {-1});
    mask = 1;
  }
  // torch never reaches the kernel (and its dtype check) when there is nothing to compare.
  bool trivial = dim && (self.numel() == 0 || self.dim() == 0 || self.size(*dim) == 1);
  OPSCOPE_CHECK(trivial || self.dtype() != ScalarType::Bool, "\"", name,
                "_cpu\" not implemented for 'Bool'");
  ReducePlan plan(in, mask, dim ? keepdim : false, {ScalarType::Int64});
  dispatch_dtype(self.dtype(), name, [&]<typename T>() {
    arg_reduce<T, IsMax>(plan, nullptr, plan.output<int64_t>(0));
  });
  Tensor r = plan.finish();
  if (!dim && keepdim) r = ops::reshape(r, DimVector(static_cast<size_t>(self.dim()), 1));
  return r;
}

void check_same_dtype_out(const Tensor& self, const Tensor& out) {
  OPSCOPE_CHECK(self.dtype() == out.dtype(),
                "Expected the dtype for input and out to match, but got ", cpp_name(self.dtype()),
                " for input's dtype and ", cpp_name(out.dtype()), " for out's dtype.");
}

template <bool IsMax>
Tensor amax_impl(const Tensor& self, IntArrayRef dim, bool keepdim) {
  uint64_t mask = reduce_dim_mask(dim, self.dim());
  const char* name = IsMax ? "amax" : "amin";
  if (self.numel() != 0 || dim.empty()) {
    check_nonempty_reduction(self, mask, !dim.empty(), name);
  } else {
    for (int64_t d : dim)  // amax names the dim as given: "dim -2"
      OPSCOPE_CHECK_INDEX(self.dim() == 0 || self.size(wrap_dim(d, self.dim())) != 0, name,
                          "(): Expected reduction dim ", d, " to have non-zero size.");
  }
  return minmax_values<IsMax>(self, dim, keepdim);
}

}  // namespace

Tensor max(const Tensor& self) {
  check_nonempty_reduction(self, 0, false, "max");
  return minmax_values<true>(self, {}, false);
}
Tensor min(const Tensor& self) {
  check_nonempty_reduction(self, 0, false, "min");
  return minmax_values<false>(self, {}, false);
}
std::tuple<Tensor, Tensor> max_dim(const Tensor& self, int64_t dim, bool keepdim) {
  return minmax_dim<true>(self, dim, keepdim);
}
std::tuple<Tensor, Tensor> min_dim(const Tensor& self, int64_t dim, bool keepdim) {
  return minmax_dim<false>(self, dim, keepdim);
}
std::tuple<Tensor, Tensor> max_dim_out(const Tensor& self, int64_t dim, bool keepdim,
                                       const Tensor& max, const Tensor& max_values) {
  return minmax_dim_out<true>(self, dim, keepdim, max, max_values);
}
std::tuple<Tensor, Tensor> min_dim_out(const Tensor& self, int64_t dim, bool keepdim,
                                       const Tensor& min, const Tensor& min_indices) {
  return minmax_dim_out<false>(self, dim, keepdim, min, min_indices);
}

Tensor amax(const Tensor& self, IntArrayRef dim, bool keepdim) {
  return amax_impl<true>(self, dim, keepdim);
}
Tensor amax_out(const Tensor& self, IntArrayRef dim, bool keepdim, const Tensor& out) {
  check_same_dtype_out(self, out);
  return write_out(out, amax_impl<true>(self, dim, keepdim));
}
Tensor amin(const Tensor& self, IntArrayRef dim, bool keepdim) {
  return amax_impl<false>(self, dim, keepdim);
}
Tensor amin_out(const Tensor& self, IntArrayRef dim, bool keepdim, const Tensor& out) {
  check_same_dtype_out(self, out);
  return write_out(out, amax_impl<false>(self, dim, keepdim));
}

Tensor argmax(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return arg_impl<true>(self, dim, keepdim);
}
Tensor argmax_out(const Tensor& self, std::optional<int64_t> dim, bool keepdim, const Tensor& out) {
  return write_out(out, arg_impl<true>(self, dim, keepdim));
}
Tensor argmin(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return arg_impl<false>(self, dim, keepdim);
}
Tensor argmin_out(const Tensor& self, std::optional<int64_t> dim, bool keepdim, const Tensor& out) {
  return write_out(out, arg_impl<false>(self, dim, keepdim));
}

static Library cpu_reduce_minmax(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("max", fn<&max>);
  m.impl("max.dim", fn<&max_dim>);
  m.impl("max.dim_max", fn<&max_dim_out>);
  m.impl("min", fn<&min>);
  m.impl("min.dim", fn<&min_dim>);
  m.impl("min.dim_min", fn<&min_dim_out>);
  m.impl("amax", fn<&amax>);
  m.impl("amax.out", fn<&amax_out>);
  m.impl("amin", fn<&amin>);
  m.impl("amin.out", fn<&amin_out>);
  m.impl("argmax", fn<&argmax>);
  m.impl("argmax.out", fn<&argmax_out>);
  m.impl("argmin", fn<&argmin>);
  m.impl("argmin.out", fn<&argmin_out>);
});

}  // namespace opscope::cpu
