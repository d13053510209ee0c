// CPU kernels of sum, nansum, mean and prod (declared in core/ops/reduce.cpp).
//
// dtypes as torch 1.13: bool and integer inputs sum / multiply as int64 (the input is converted
// first); `dtype=` converts the input before reducing; float16 / bfloat16 accumulate in float
// and round once at the end; prod has no float16 / bfloat16 kernel ("prod_cpu" not implemented
// for 'Half'); mean only takes floating dtypes. Float sums are blocked (see
// core/ops/cpu/reduce_loops.h), so 10^7 float32 values sum to float precision.
// Float compares may be if-converted into vector selects (we never read FP exception flags).
#pragma GCC optimize("no-trapping-math")
// vreduce takes and returns 32-byte vectors; it is always inlined, so no call ABI is involved.
#pragma GCC diagnostic ignored "-Wpsabi"

#include "core/ops/copy.h"
#include "core/dispatch/Library.h"
#include "core/ops/cpu/reduce_loops.h"
#include "core/runtime/ScalarConvert.h"

namespace opscope::cpu {

namespace {

template <typename T>
constexpr int lanes_for() {
  return sizeof(acc_type_t<T>) == 8 ? 16 : 32;
}

template <typename T>
struct SumOp {
  using in_t = T;
  using acc_t = acc_type_t<T>;
  using out_t = T;
  static constexpr int kLanes = lanes_for<T>();
  acc_t identity() const { return acc_t(0); }
  acc_t reduce(acc_t a, in_t x) const { return a + static_cast<acc_t>(x); }
  acc_t combine(acc_t a, acc_t b) const { return a + b; }
  static constexpr bool kStepCombines = true;  // vreduce(a, b) also combines partials
  template <typename V>
  [[gnu::always_inline]] V vreduce(V a, V x) const {
    return a + x;
  }
  out_t project(acc_t a) const { return static_cast<out_t>(a); }
};

// sum with the NaNs left out (counted as 0); its step is no longer its combine.
template <typename T>
struct NanSumOp : SumOp<T> {
  using typename SumOp<T>::acc_t;
  using typename SumOp<T>::in_t;
  static constexpr bool kStepCombines = false;
  acc_t reduce(acc_t a, in_t x) const {
    const acc_t v = static_cast<acc_t>(x);
    return v != v ? a : a + v;
  }
  template <typename V>
  [[gnu::always_inline]] V vreduce(V a, V x) const {
    return a + (x == x ? x : V{});
  }
};

template <typename T>
struct MeanOp : SumOp<T> {
  using acc_t = typename SumOp<T>::acc_t;
  acc_t count;
  T project(acc_t a) const { return static_cast<T>(a / count); }
};

template <typename T>
struct ProdOp {
  using in_t = T;
  using acc_t = T;
  using out_t = T;
  static constexpr int kLanes = lanes_for<T>();
  acc_t identity() const { return acc_t(1); }
  acc_t reduce(acc_t a, in_t x) const { return a * x; }
  acc_t combine(acc_t a, acc_t b) const { return a * b; }
  out_t project(acc_t a) const { return a; }
};

// The dtype sum / prod compute in: `dtype=`, else int64 for bool and integers, else self's.
ScalarType sum_result_dtype(const Tensor& self, OptDtype dtype) {
  if (dtype) return *dtype;
  return is_integral(self.dtype(), /*include_bool=*/true) ? ScalarType::Int64 : self.dtype();
}

void check_out_dtype(const Tensor& out, ScalarType expected) {
  OPSCOPE_CHECK(out.dtype() == expected, "Expected out tensor to have dtype ",
                typemeta_name(expected), ", but got ", typemeta_name(out.dtype()), " instead");
}

Tensor sum_impl(const Tensor& self, OptDims dim, bool keepdim, ScalarType dtype) {
  switch (dtype) {
    case ScalarType::Bool: {
      // sum(dtype=torch.bool): the elements as bools first (0.5 is true), then any one set — a
      // count of the true ones, which cannot wrap around to 0 as a sum of the values can.
      return ops::to(sum_impl(cast_if_needed(self, ScalarType::Bool), dim, keepdim,
                              ScalarType::Int64),
                     ScalarType::Bool);
    }
    case ScalarType::UInt8:
    case ScalarType::Int8:
    case ScalarType::Int16:
    case ScalarType::Int32: {
      // Sum as int64 and wrap around as torch does.
      Tensor r = sum_impl(self, dim, keepdim, ScalarType::Int64);
      return ops::to(r, dtype);
    }
    default:
      break;
  }
  Tensor in = cast_if_needed(self, dtype);
  ReducePlan plan(in, reduce_dim_mask(dim, self.dim()), keepdim, {dtype});
  dispatch_dtype(dtype, "sum_cpu", [&]<typename T>() {
    if constexpr (std::is_same_v<T, int64_t> || !std::is_integral_v<T>) {
      reduce_values(plan, SumOp<T>{});
    }
  });
  return plan.finish();
}

// sum_impl with the NaNs left out: integers and bool have none (their sum); float16 / bfloat16
// accumulate in float, as sum's.
Tensor nansum_impl(const Tensor& self, OptDims dim, bool keepdim, ScalarType dtype) {
  if (!is_floating(dtype)) return sum_impl(self, dim, keepdim, dtype);
  Tensor in = cast_if_needed(self, dtype);
  ReducePlan plan(in, reduce_dim_mask(dim, self.dim()), keepdim, {dtype});
  dispatch_dtype(dtype, "nansum_cpu", [&]<typename T>() {
    if constexpr (!std::is_integral_v<T>) reduce_values(plan, NanSumOp<T>{});
  });
  return plan.finish();
}

Tensor mean_impl(const Tensor& self, OptDims dim, bool keepdim, OptDtype dtype) {
  if (dtype) {
    OPSCOPE_CHECK(is_floating(*dtype),
                  "mean(): could not infer output dtype. Optional dtype must be either a "
                  "floating point or complex dtype. Got: ",
                  cpp_name(*dtype));
  } else {
    OPSCOPE_CHECK(is_floating(self.dtype()),
                  "mean(): could not infer output dtype. Input dtype must be either a floating "
                  "point or complex dtype. Got: ",
                  cpp_name(self.dtype()));
  }
  ScalarType t = dtype.value_or(self.dtype());
  Tensor in = cast_if_needed(self, t);
  ReducePlan plan(in, reduce_dim_mask(dim, self.dim()), keepdim, {t});
  dispatch_dtype(t, "mean_cpu", [&]<typename T>() {
    if constexpr (!std::is_integral_v<T>) {
      MeanOp<T> op;
      op.count = static_cast<acc_type_t<T>>(plan.reduced());
      reduce_values(plan, op);
    }
  });
  return plan.finish();
}

Tensor prod_impl(const Tensor& self, OptDims dim, bool keepdim, OptDtype dtype) {
  ScalarType t = sum_result_dtype(self, dtype);
  if (t == ScalarType::Bool) {
    // prod(dtype=torch.bool): the elements as bools first (0.5 is true), then all of them set.
    return ops::to(prod_impl(cast_if_needed(self, t), dim, keepdim, ScalarType::Int64), t);
  }
  if (is_integral(t, false) && t != ScalarType::Int64) {
    return ops::to(prod_impl(self, dim, keepdim, ScalarType::Int64), t);
  }
  if ((t == ScalarType::Float16 || t == ScalarType::BFloat16) && self.numel() == 0) {
    // Nothing to multiply: torch returns ones (or nothing) before looking at the dtype.
    return ops::to(prod_impl(cast_if_needed(self, ScalarType::Float32), dim, keepdim, std::nullopt),
                   t);
  }
  OPSCOPE_CHECK(t != ScalarType::Float16 && t != ScalarType::BFloat16,
                "\"prod_cpu\" not implemented for '", cpp_name(t), "'");
  Tensor in = cast_if_needed(self, t);
  ReducePlan plan(in, reduce_dim_mask(dim, self.dim()), keepdim, {t});
  dispatch_dtype(t, "prod_cpu", [&]<typename T>() {
    if constexpr (std::is_same_v<T, int64_t> || std::is_same_v<T, float> ||
                  std::is_same_v<T, double>) {
      reduce_values(plan, ProdOp<T>{});
    }
  });
  return plan.finish();
}

}  // namespace

Tensor sum_dim(const Tensor& self, OptDims dim, bool keepdim, OptDtype dtype) {
  return sum_impl(self, dim, keepdim, sum_result_dtype(self, dtype));
}

Tensor sum_out(const Tensor& self, OptDims dim, bool keepdim, OptDtype dtype, const Tensor& out) {
  // out= decides the dtype unless dtype= is given, which must then agree.
  if (dtype) check_out_dtype(out, *dtype);
  return write_out(out, sum_impl(self, dim, keepdim, dtype.value_or(out.dtype())));
}

Tensor nansum(const Tensor& self, OptDims dim, bool keepdim, OptDtype dtype) {
  return nansum_impl(self, dim, keepdim, sum_result_dtype(self, dtype));
}

Tensor nansum_out(const Tensor& self, OptDims dim, bool keepdim, OptDtype dtype,
                  const Tensor& out) {
  if (dtype) check_out_dtype(out, *dtype);
  return write_out(out, nansum_impl(self, dim, keepdim, dtype.value_or(out.dtype())));
}

Tensor mean_dim(const Tensor& self, OptDims dim, bool keepdim, OptDtype dtype) {
  return mean_impl(self, dim, keepdim, dtype);
}

Tensor mean_out(const Tensor& self, OptDims dim, bool keepdim, OptDtype dtype, const Tensor& out) {
  if (dtype) check_out_dtype(out, *dtype);
  return write_out(out, mean_impl(self, dim, keepdim, dtype.value_or(out.dtype())));
}

Tensor prod(const Tensor& self, OptDtype dtype) {
  return prod_impl(self, std::nullopt, false, dtype);
}

Tensor prod_dim(const Tensor& self, int64_t dim, bool keepdim, OptDtype dtype) {
  int64_t d[1] = {dim};
  return prod_impl(self, IntArrayRef(d, 1), keepdim, dtype);
}

Tensor prod_out(const Tensor& self, int64_t dim, bool keepdim, OptDtype dtype, const Tensor& out) {
  if (dtype) check_out_dtype(out, *dtype);
  int64_t d[1] = {dim};
  return write_out(out, prod_impl(self, IntArrayRef(d, 1), keepdim, dtype.value_or(out.dtype())));
}

static Library cpu_reduce_sum(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("sum.dim_IntList", fn<&sum_dim>);
  m.impl("sum.IntList_out", fn<&sum_out>);
  m.impl("nansum", fn<&nansum>);
  m.impl("nansum.out", fn<&nansum_out>);
  m.impl("mean.dim", fn<&mean_dim>);
  m.impl("mean.out", fn<&mean_out>);
  m.impl("prod", fn<&prod>);
  m.impl("prod.dim_int", fn<&prod_dim>);
  m.impl("prod.int_out", fn<&prod_out>);
});

}  // namespace opscope::cpu
