// CPU kernels of norm and linalg_vector_norm (declared in core/ops/reduce.cpp).
//
// The p-norm of the reduced elements: p = 2 sqrt(sum x^2), 1 sum |x|, inf max |x|, -inf min |x|,
// 0 the number of nonzeros, otherwise (sum |x|^p)^(1/p) (Note [The p-norm without overflow]). Floating dtypes only; float16 /
// bfloat16 accumulate in float. `dtype=` converts the input first. Over no elements norm gives
// 0 (inf too, as torch 1.13), linalg_vector_norm refuses inf and negative orders.
// Float compares may be if-converted into vector selects (we never read FP exception flags).
#pragma GCC optimize("no-trapping-math")
// vreduce takes and returns 32-byte vectors; it is always inlined, so no call ABI is involved.
#pragma GCC diagnostic ignored "-Wpsabi"

#include <cmath>
#include <limits>

#include "core/ops/copy.h"
#include "core/dispatch/Library.h"
#include "core/ops/cpu/reduce_loops.h"
#include "core/runtime/ScalarConvert.h"

namespace opscope::cpu {

namespace {

enum class NormKind { Zero, One, Two, Inf, NegInf };

template <typename T, NormKind K>
struct NormOp {
  using in_t = T;
  using acc_t = acc_type_t<T>;
  using out_t = T;
  static constexpr int kLanes = sizeof(acc_t) == 8 ? 16 : 32;
  acc_t identity() const {
    if constexpr (K == NormKind::NegInf) return std::numeric_limits<acc_t>::infinity();
    return acc_t(0);
  }
  acc_t reduce(acc_t a, in_t xin) const {
    acc_t x = static_cast<acc_t>(xin);
    if constexpr (K == NormKind::Zero) {
      return a + (x != acc_t(0) ? acc_t(1) : acc_t(0));
    } else if constexpr (K == NormKind::One) {
      return a + std::abs(x);
    } else if constexpr (K == NormKind::Two) {
      return a + x * x;
    } else if constexpr (K == NormKind::Inf) {
      acc_t m = std::abs(x);
      return (m > a || m != m) ? m : a;
    } else {
      static_assert(K == NormKind::NegInf);
      acc_t m = std::abs(x);
      return (m < a || m != m) ? m : a;
    }
  }
  acc_t combine(acc_t a, acc_t b) const {
    if constexpr (K == NormKind::Inf) {
      return (b > a || b != b) ? b : a;
    } else if constexpr (K == NormKind::NegInf) {
      return (b < a || b != b) ? b : a;
    } else {
      return a + b;
    }
  }
  // The 2-norm's step on GCC vector types (see reduce_row_vec); other p use the lane loop.
  template <typename V>
  requires(K == NormKind::Two) [[gnu::always_inline]] V vreduce(V a, V x) const {
    return a + x * x;
  }
  out_t project(acc_t a) const {
    if constexpr (K == NormKind::Two) return static_cast<out_t>(std::sqrt(a));
    return static_cast<out_t>(a);
  }
};

// Note [The p-norm without overflow]
// ‖x‖_p = m · (Σ |x / m|^p)^(1/p) with m = max |x| for p > 0, min |x| for p < 0: every term is at
// most 1 and the sum lies between 1 and n, so neither |x|^p nor the sum overflows or underflows
// (x.norm(1e308) is max |x|, x.norm(-5e-324) is 0, x.norm(-10) with a 1e-300 in x is about
// 1e-300), and p and 1/p stay in double (in float32, p = 1e308 is inf and 1/p = -5e-324 is 0).
// Two passes over each reduction; the usual p (0, 1, 2, ±inf) take the one-pass folds above.
// C: the type |x / m|^p is computed in — float for float32 and narrower when p and 1/p are
// ordinary float numbers (as torch computes), double otherwise (p = 1e308 is inf in float).
template <typename T, typename C>
struct ScaledPowSumOp {  // Σ |x / m|^p, then m · sum^(1/p)
  using in_t = T;
  using acc_t = C;
  using out_t = T;
  static constexpr int kLanes = 16;
  C m, p, inv_p;
  C identity() const { return C(0); }
  C reduce(C a, in_t x) const {
    return a + std::pow(std::abs(static_cast<C>(static_cast<acc_type_t<T>>(x))) / m, p);
  }
  C combine(C a, C b) const { return a + b; }
  out_t project(C a) const { return static_cast<out_t>(m * std::pow(a, inv_p)); }
};

// All zeros (p > 0), a zero (p < 0), an inf (p > 0), all infs (p < 0) or a NaN: the norm is m.
bool norm_is_the_scale(double m) {
  return m == 0 || std::isinf(m) || std::isnan(m);
}

template <typename T>
void general_norm(ReducePlan& plan, double p) {
  T* out = plan.output<T>(0);
  if (plan.num_outputs() == 1 && !plan.empty_reduction()) {
    // One long reduction: both passes as parallel folds, m through the output.
    if (p > 0)
      reduce_values(plan, NormOp<T, NormKind::Inf>{});
    else
      reduce_values(plan, NormOp<T, NormKind::NegInf>{});
    double m = static_cast<double>(static_cast<acc_type_t<T>>(out[0]));
    if (norm_is_the_scale(m)) return;
    using A = acc_type_t<T>;
    if (std::is_same_v<A, float> && std::abs(p) >= 1e-30 && std::abs(p) <= 1e30)
      reduce_values(plan, ScaledPowSumOp<T, A>{A(m), A(p), A(1.0 / p)});
    else
      reduce_values(plan, ScaledPowSumOp<T, double>{m, p, 1.0 / p});
    return;
  }
  for_each_reduction<T>(plan, [&](int64_t t, const T* x, int64_t n, int64_t stride) {
    auto magnitude = [&](int64_t r) {
      return std::abs(static_cast<double>(static_cast<acc_type_t<T>>(x[r * stride])));
    };
    double m = p > 0 ? 0.0 : std::numeric_limits<double>::infinity();
    for (int64_t r = 0; r < n && !std::isnan(m); ++r)
      m = std::isnan(magnitude(r)) ? magnitude(r) : p > 0 ? std::max(m, magnitude(r))
                                                           : std::min(m, magnitude(r));
    if (norm_is_the_scale(m)) {
      out[t] = static_cast<T>(m);
      return;
    }
    ScaledPowSumOp<T, double> op{m, p, 1.0 / p};
    double sum = 0;
    for (int64_t r = 0; r < n; ++r) sum = op.reduce(sum, x[r * stride]);
    out[t] = op.project(sum);
  });
}

// name: "norm" or "linalg.vector_norm", for messages.
Tensor norm_impl(const Tensor& self, double p, OptDims dim, bool keepdim, ScalarType t,
                 bool vector_norm) {
  if (vector_norm) {
    OPSCOPE_CHECK(is_floating(self.dtype()),
                  "linalg.vector_norm: Expected a floating point or complex tensor as input. Got ",
                  cpp_name(self.dtype()));
    if (self.numel() == 0) {
      OPSCOPE_CHECK(p >= 0 && !std::isinf(p), "linalg.vector_norm cannot compute the ",
                    std::isinf(p) ? (p > 0 ? "inf" : "-inf") : detail::str(p),
                    " norm on an empty tensor because the operation does not have an identity");
    }
  } else {
    OPSCOPE_CHECK(is_floating(self.dtype()),
                  "norm(): input dtype should be either floating point or complex. Got ",
                  cpp_name(self.dtype()), " instead.");
  }
  OPSCOPE_CHECK(is_floating(t), vector_norm ? "linalg.vector_norm" : "norm",
                ": dtype should be floating point or complex, but got ", cpp_name(t));
  Tensor in = cast_if_needed(self, t);
  ReducePlan plan(in, reduce_dim_mask(dim, self.dim()), keepdim, {t});
  dispatch_dtype(t, "norm_cpu", [&]<typename T>() {
    if constexpr (!std::is_integral_v<T>) {
      if (p == 0) {
        reduce_values(plan, NormOp<T, NormKind::Zero>{});
      } else if (p == 1) {
        reduce_values(plan, NormOp<T, NormKind::One>{});
      } else if (p == 2) {
        reduce_values(plan, NormOp<T, NormKind::Two>{});
      } else if (std::isinf(p) && p > 0) {
        reduce_values(plan, NormOp<T, NormKind::Inf>{});
      } else if (std::isinf(p)) {
        reduce_values(plan, NormOp<T, NormKind::NegInf>{});
      } else {
        general_norm<T>(plan, p);
      }
    }
  });
  Tensor r = plan.finish();
  // torch 1.13's norm gives 0, not inf, for the -inf norm over nothing.
  if (!vector_norm && plan.empty_reduction() && std::isinf(p) && p < 0 && r.numel() > 0)
    ops::fill_(r, 0);
  return r;
}

double p_value(const std::optional<Scalar>& p) {
  return p ? p->to_double() : 2.0;
}

}  // namespace

Tensor norm_dim(const Tensor& self, const std::optional<Scalar>& p, IntArrayRef dim, bool keepdim) {
  return norm_impl(self, p_value(p), dim, keepdim, self.dtype(), false);
}

Tensor norm_dim_dtype(const Tensor& self, const std::optional<Scalar>& p, IntArrayRef dim,
                      bool keepdim, ScalarType dtype) {
  return norm_impl(self, p_value(p), dim, keepdim, dtype, false);
}

Tensor norm_out(const Tensor& self, const std::optional<Scalar>& p, IntArrayRef dim, bool keepdim,
                const Tensor& out) {
  return write_out(out, norm_impl(self, p_value(p), dim, keepdim, self.dtype(), false));
}

Tensor norm_dtype_out(const Tensor& self, const std::optional<Scalar>& p, IntArrayRef dim,
                      bool keepdim, ScalarType dtype, const Tensor& out) {
  return write_out(out, norm_impl(self, p_value(p), dim, keepdim, dtype, false));
}

Tensor linalg_vector_norm(const Tensor& self, const Scalar& ord, OptDims dim, bool keepdim,
                          OptDtype dtype) {
  return norm_impl(self, ord.to_double(), dim, keepdim, dtype.value_or(self.dtype()), true);
}

Tensor linalg_vector_norm_out(const Tensor& self, const Scalar& ord, OptDims dim, bool keepdim,
                              OptDtype dtype, const Tensor& out) {
  return write_out(out, linalg_vector_norm(self, ord, dim, keepdim, dtype));
}

static Library cpu_reduce_norm(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("norm.ScalarOpt_dim", fn<&norm_dim>);
  m.impl("norm.ScalarOpt_dim_dtype", fn<&norm_dim_dtype>);
  m.impl("norm.out", fn<&norm_out>);
  m.impl("norm.dtype_out", fn<&norm_dtype_out>);
  m.impl("linalg_vector_norm", fn<&linalg_vector_norm>);
  m.impl("linalg_vector_norm.out", fn<&linalg_vector_norm_out>);
});

}  // namespace opscope::cpu
