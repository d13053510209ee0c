// CPU kernels of all, any and count_nonzero (declared in core/ops/reduce.cpp).
//
// An element counts as true when it is nonzero (NaN is nonzero). all / any return bool, except
// for a uint8 input, which gives uint8 as in torch 1.13; their out= tensor must be bool or uint8
// ("all only supports bool tensor for result, got: Float"). count_nonzero returns int64.
#include "core/ops/copy.h"
#include "core/dispatch/Library.h"
#include "core/ops/cpu/reduce_loops.h"

namespace opscope::cpu {

namespace {

template <typename T>
inline bool nonzero(T x) {
  if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
    return static_cast<float>(x) != 0.0f;
  } else {
    return x != T(0);
  }
}

template <typename T, typename Out, bool IsAll>
struct LogicalOp {
  using in_t = T;
  using acc_t = Out;
  using out_t = Out;
  static constexpr int kLanes = 32;
  acc_t identity() const { return acc_t(IsAll); }
  acc_t reduce(acc_t a, in_t x) const {
    if constexpr (IsAll) {
      return acc_t(a & acc_t(nonzero(x)));
    } else {
      return acc_t(a | acc_t(nonzero(x)));
    }
  }
  acc_t combine(acc_t a, acc_t b) const { return IsAll ? acc_t(a & b) : acc_t(a | b); }
  out_t project(acc_t a) const { return a; }
};

template <typename T>
struct CountNonzeroOp {
  using in_t = T;
  using acc_t = int64_t;
  using out_t = int64_t;
  static constexpr int kLanes = 16;
  acc_t identity() const { return 0; }
  acc_t reduce(acc_t a, in_t x) const { return a + (nonzero(x) ? 1 : 0); }
  acc_t combine(acc_t a, acc_t b) const { return a + b; }
  out_t project(acc_t a) const { return a; }
};

template <bool IsAll>
Tensor logical_impl(const Tensor& self, OptDims dim, bool keepdim) {
  ScalarType out_t = self.dtype() == ScalarType::UInt8 ? ScalarType::UInt8 : ScalarType::Bool;
  ReducePlan plan(self, reduce_dim_mask(dim, self.dim()), keepdim, {out_t});
  dispatch_dtype(self.dtype(), IsAll ? "all_cpu" : "any_cpu", [&]<typename T>() {
    if (out_t == ScalarType::UInt8) {
      if constexpr (std::is_same_v<T, uint8_t>) reduce_values(plan, LogicalOp<T, uint8_t, IsAll>{});
    } else {
      reduce_values(plan, LogicalOp<T, bool, IsAll>{});
    }
  });
  return plan.finish();
}

template <bool IsAll>
Tensor logical_out(const Tensor& self, OptDims dim, bool keepdim, const Tensor& out) {
  OPSCOPE_CHECK(out.dtype() == ScalarType::Bool || out.dtype() == ScalarType::UInt8,
                IsAll ? "all" : "any",
                " only supports bool tensor for result, got: ", cpp_name(out.dtype()));
  return write_out(out, logical_impl<IsAll>(self, dim, keepdim));
}

IntArrayRef one_dim(const int64_t& d) {
  return IntArrayRef(&d, 1);
}

}  // namespace

Tensor all(const Tensor& self) {
  return logical_impl<true>(self, std::nullopt, false);
}
Tensor all_dim(const Tensor& self, int64_t dim, bool keepdim) {
  return logical_impl<true>(self, one_dim(dim), keepdim);
}
Tensor all_out(const Tensor& self, int64_t dim, bool keepdim, const Tensor& out) {
  return logical_out<true>(self, one_dim(dim), keepdim, out);
}
Tensor all_all_out(const Tensor& self, const Tensor& out) {
  return logical_out<true>(self, std::nullopt, false, out);
}
Tensor any(const Tensor& self) {
  return logical_impl<false>(self, std::nullopt, false);
}
Tensor any_dim(const Tensor& self, int64_t dim, bool keepdim) {
  return logical_impl<false>(self, one_dim(dim), keepdim);
}
Tensor any_out(const Tensor& self, int64_t dim, bool keepdim, const Tensor& out) {
  return logical_out<false>(self, one_dim(dim), keepdim, out);
}
Tensor any_all_out(const Tensor& self, const Tensor& out) {
  return logical_out<false>(self, std::nullopt, false, out);
}

Tensor count_nonzero_dims(const Tensor& self, IntArrayRef dim) {
  ReducePlan plan(self, reduce_dim_mask(dim, self.dim()), false, {ScalarType::Int64});
  dispatch_dtype(self.dtype(), "count_nonzero_cpu",
                 [&]<typename T>() { reduce_values(plan, CountNonzeroOp<T>{}); });
  return plan.finish();
}

static Library cpu_reduce_logical(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("all", fn<&all>);
  m.impl("all.dim", fn<&all_dim>);
  m.impl("all.out", fn<&all_out>);
  m.impl("all.all_out", fn<&all_all_out>);
  m.impl("any", fn<&any>);
  m.impl("any.dim", fn<&any_dim>);
  m.impl("any.out", fn<&any_out>);
  m.impl("any.all_out", fn<&any_all_out>);
  m.impl("count_nonzero.dim_IntList", fn<&count_nonzero_dims>);
});

}  // namespace opscope::cpu
