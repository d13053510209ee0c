// CUDA kernels of the reductions, host side: sum, mean, prod, max / min (whole tensor and along
// a dim, with indices), amax / amin, argmax / argmin, var / std (and their _mean forms), norm and
// linalg_vector_norm, logsumexp, and _softmax / _log_softmax. Each arranges its input as the
// rows of a contiguous [kept, reduced] block — the reduced dims permuted last, copied only when
// that is not already the memory order — and launches one row kernel of reduce.cu / nn.cu; the
// result comes out contiguous in the kept dims' order, shaped as torch's (keepdim or not).
// Dims, dtypes and errors follow the CPU kernels (core/ops/cpu/reduce_*.cpp), whose planning
// helpers (reduce_dim_mask, reduced_shape, check_nonempty_reduction) are shared.
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/cuda/kernels/KernelUtil.h"
#include "core/dispatch/Library.h"
#include "core/runtime/ScalarConvert.h"
#include "core/ops/compare.h"
#include "core/ops/copy.h"
#include "core/ops/cpu/reduce_plan.h"
#include "core/ops/reduce.h"
#include "core/ops/utility.h"
#include "core/ops/views.h"

namespace opscope::cuda {

namespace {

using cpu::OptDims;
using cpu::OptDtype;

// self as rows of a contiguous [rows, cols] block: the dims in `mask` last.
struct Rows {
  Tensor input;
  int64_t rows = 1, cols = 1;
  DimVector out_shape;
};

Rows as_rows(const Tensor& self, uint64_t mask, bool keepdim) {
  Rows r;
  DimVector perm;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (!((mask >> d) & 1)) {
      perm.push_back(d);
      r.rows *= self.size(d);
    }
  }
  for (int64_t d = 0; d < self.dim(); ++d) {
    if ((mask >> d) & 1) {
      perm.push_back(d);
      r.cols *= self.size(d);
    }
  }
  bool identity = true;
  for (size_t i = 0; i < perm.size(); ++i)
    identity = identity && perm[i] == static_cast<int64_t>(i);
  Tensor p = identity ? self : ops::permute(self, perm);
  r.input = p.is_contiguous() ? p : ops::contiguous(p);
  r.out_shape = cpu::reduced_shape(self.sizes(), mask, keepdim);
  return r;
}

Tensor new_result(const Rows& r, ScalarType t, Device device) {
  return make_empty(r.out_shape, t, device);
}

// A contiguous input whose reduced dims are one run [d0, d1) with kept dims after it, as
// [outer, reduced, inner] with inner > 1: the column kernel reads it without a copy. Few columns
// over a long reduction stay with rows (one thread per column would idle the GPU).
struct Cols {
  int64_t outer = 1, reduced = 1, inner = 1;
};
std::optional<Cols> as_cols(const Tensor& self, uint64_t mask) {
  if (!self.is_contiguous() || self.dim() == 0 || mask == 0) return std::nullopt;
  int64_t d0 = -1, d1 = -1;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if ((mask >> d) & 1) {
      if (d0 < 0) d0 = d;
      else if (d1 >= 0) return std::nullopt;  // a second run
    } else if (d0 >= 0 && d1 < 0) {
      d1 = d;
    }
  }
  if (d1 < 0) return std::nullopt;  // reduced dims last: rows
  Cols c;
  for (int64_t d = 0; d < self.dim(); ++d)
    (d < d0 ? c.outer : d < d1 ? c.reduced : c.inner) *= self.size(d);
  // Columns narrower than a warp's segment read poorly in place: those go through the rows path
  // when there are few of them and many rows.
  if (c.inner <= 1 || (c.inner < 32 && c.outer * c.inner < 2048 && c.reduced > 4096))
    return std::nullopt;
  return c;
}

// out[row] = op(row), all in dtype t (self already cast to t).
Tensor reduce_rows(ReduceOp op, const Tensor& in, uint64_t mask, bool keepdim, double p = 0) {
  CUDAGuard guard(in.device());
  std::optional<Cols> c = op == ReduceOp::LogSumExp ? std::nullopt : as_cols(in, mask);
  if (c) {
    Tensor out = make_empty(cpu::reduced_shape(in.sizes(), mask, keepdim), in.dtype(), in.device());
    // The partials of a split reduction (freed here: the stream orders its reuse after them).
    const int64_t ws = reduce_cols_workspace_bytes(c->outer, c->reduced, c->inner);
    Tensor workspace = ws > 0 ? make_empty({ws}, ScalarType::UInt8, in.device()) : Tensor();
    launch_reduce_cols(op, dt_of(in.dtype()), in.data(), out.data(), c->outer, c->reduced,
                       c->inner, p, ws > 0 ? workspace.data() : nullptr, current_stream_ptr());
    return out;
  }
  Rows r = as_rows(in, mask, keepdim);
  Tensor out = new_result(r, in.dtype(), in.device());
  if (r.rows > 0) {
    const int64_t ws = op == ReduceOp::LogSumExp ? 0 : reduce_rows_workspace_bytes(r.rows, r.cols);
    Tensor workspace = ws > 0 ? make_empty({ws}, ScalarType::UInt8, in.device()) : Tensor();
    launch_reduce_rows(op, dt_of(in.dtype()), dt_of(in.dtype()), r.input.data(), out.data(),
                       r.rows, r.cols, p, ws > 0 ? workspace.data() : nullptr,
                       current_stream_ptr());
  }
  return out;
}

ScalarType sum_result_dtype(const Tensor& self, OptDtype dtype) {
  if (dtype) return *dtype;
  return is_integral(self.dtype(), /*include_bool=*/true) ? ScalarType::Int64 : self.dtype();
}

void check_out_dtype(const Tensor& out, ScalarType expected) {
  OPSCOPE_CHECK(out.dtype() == expected, "Expected out tensor to have dtype ",
                typemeta_name(expected), ", but got ", typemeta_name(out.dtype()), " instead");
}

// sum / prod in `dtype`: the small integers and bool go through int64 (and wrap as torch's).
Tensor sum_prod(ReduceOp op, const Tensor& self, OptDims dim, bool keepdim, ScalarType dtype) {
  if (dtype == ScalarType::Bool) {
    Tensor r = sum_prod(op, cpu::cast_if_needed(self, ScalarType::Bool), dim, keepdim,
                        ScalarType::Int64);
    return ops::to(r, ScalarType::Bool);
  }
  if (is_integral(dtype, false) && dtype != ScalarType::Int64)
    return ops::to(sum_prod(op, self, dim, keepdim, ScalarType::Int64), dtype);
  return reduce_rows(op, cpu::cast_if_needed(self, dtype), cpu::reduce_dim_mask(dim, self.dim()),
                     keepdim);
}

}  // namespace

static Tensor sum_dim(const Tensor& self, OptDims dim, bool keepdim, OptDtype dtype) {
  return sum_prod(ReduceOp::Sum, self, dim, keepdim, sum_result_dtype(self, dtype));
}
static Tensor sum_out(const Tensor& self, OptDims dim, bool keepdim, OptDtype dtype,
                      const Tensor& out) {
  if (dtype) check_out_dtype(out, *dtype);
  return cpu::write_out(out, sum_prod(ReduceOp::Sum, self, dim, keepdim, out.dtype()));
}

static Tensor mean_impl(const Tensor& self, OptDims dim, bool keepdim, OptDtype dtype) {
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
  return reduce_rows(ReduceOp::Mean, cpu::cast_if_needed(self, t),
                     cpu::reduce_dim_mask(dim, self.dim()), keepdim);
}
static Tensor mean_dim(const Tensor& self, OptDims dim, bool keepdim, OptDtype dtype) {
  return mean_impl(self, dim, keepdim, dtype);
}
static Tensor mean_out(const Tensor& self, OptDims dim, bool keepdim, OptDtype dtype,
                       const Tensor& out) {
  if (dtype) check_out_dtype(out, *dtype);
  return cpu::write_out(out, mean_impl(self, dim, keepdim, dtype.value_or(out.dtype())));
}

static Tensor prod(const Tensor& self, OptDtype dtype) {
  return sum_prod(ReduceOp::Prod, self, std::nullopt, false, sum_result_dtype(self, dtype));
}
static Tensor prod_dim(const Tensor& self, int64_t dim, bool keepdim, OptDtype dtype) {
  int64_t d[1] = {dim};
  return sum_prod(ReduceOp::Prod, self, IntArrayRef(d, 1), keepdim, sum_result_dtype(self, dtype));
}
static Tensor prod_out(const Tensor& self, int64_t dim, bool keepdim, OptDtype dtype,
                       const Tensor& out) {
  if (dtype) check_out_dtype(out, *dtype);
  int64_t d[1] = {dim};
  return cpu::write_out(out,
                        sum_prod(ReduceOp::Prod, self, IntArrayRef(d, 1), keepdim, out.dtype()));
}

// --- extremes -----------------------------------------------------------------------------

namespace {

// bool compares as 0 / 1: done in uint8 and converted back.
Tensor extreme_values(bool is_max, const Tensor& self, uint64_t mask, bool keepdim) {
  if (self.dtype() == ScalarType::Bool) {
    Tensor r = extreme_values(is_max, ops::to(self, ScalarType::UInt8), mask, keepdim);
    return ops::to(r, ScalarType::Bool);
  }
  return reduce_rows(is_max ? ReduceOp::Max : ReduceOp::Min, self, mask, keepdim);
}

// values and int64 indices along one dim (indices only: values undefined).
std::tuple<Tensor, Tensor> extreme_with_indices(bool is_max, const Tensor& self, uint64_t mask,
                                                bool keepdim, bool want_values) {
  CUDAGuard guard(self.device());
  Tensor in = self.dtype() == ScalarType::Bool ? ops::to(self, ScalarType::UInt8) : self;
  Rows r = as_rows(in, mask, keepdim);
  Tensor values = want_values ? new_result(r, in.dtype(), in.device()) : Tensor();
  Tensor indices = new_result(r, ScalarType::Int64, in.device());
  if (r.rows > 0)
    launch_arg_reduce_rows(is_max, dt_of(in.dtype()), r.input.data(),
                           want_values ? values.data() : nullptr, indices.data_ptr<int64_t>(),
                           r.rows, r.cols, current_stream_ptr());
  if (want_values && self.dtype() == ScalarType::Bool) values = ops::to(values, ScalarType::Bool);
  return {values, indices};
}

}  // namespace

static Tensor max(const Tensor& self) {
  cpu::check_nonempty_reduction(self, 0, false, "max");
  return extreme_values(true, self, cpu::reduce_dim_mask(std::nullopt, self.dim()), false);
}
static Tensor min(const Tensor& self) {
  cpu::check_nonempty_reduction(self, 0, false, "min");
  return extreme_values(false, self, cpu::reduce_dim_mask(std::nullopt, self.dim()), false);
}

static std::tuple<Tensor, Tensor> minmax_dim(bool is_max, const Tensor& self, int64_t dim,
                                             bool keepdim) {
  uint64_t mask = cpu::reduce_dim_mask(dim, self.dim());
  cpu::check_nonempty_reduction(self, mask, true, is_max ? "max" : "min");
  return extreme_with_indices(is_max, self, mask, keepdim, true);
}
static std::tuple<Tensor, Tensor> max_dim(const Tensor& self, int64_t dim, bool keepdim) {
  return minmax_dim(true, self, dim, keepdim);
}
static std::tuple<Tensor, Tensor> min_dim(const Tensor& self, int64_t dim, bool keepdim) {
  return minmax_dim(false, self, dim, keepdim);
}
static std::tuple<Tensor, Tensor> minmax_dim_out(bool is_max, const Tensor& self, int64_t dim,
                                                 bool keepdim, const Tensor& values,
                                                 const Tensor& indices) {
  OPSCOPE_CHECK(values.dtype() == self.dtype(), "Expected out tensor to have dtype ",
                typemeta_name(self.dtype()), ", but got ", typemeta_name(values.dtype()),
                " instead");
  OPSCOPE_CHECK(indices.dtype() == ScalarType::Int64, "Expected out tensor to have dtype long "
                "int, but got ", typemeta_name(indices.dtype()), " instead");
  auto [v, i] = minmax_dim(is_max, self, dim, keepdim);
  cpu::write_out(values, v);
  cpu::write_out(indices, i);
  return {values, indices};
}
static std::tuple<Tensor, Tensor> max_dim_out(const Tensor& self, int64_t dim, bool keepdim,
                                              const Tensor& max, const Tensor& max_values) {
  return minmax_dim_out(true, self, dim, keepdim, max, max_values);
}
static std::tuple<Tensor, Tensor> min_dim_out(const Tensor& self, int64_t dim, bool keepdim,
                                              const Tensor& min, const Tensor& min_indices) {
  return minmax_dim_out(false, self, dim, keepdim, min, min_indices);
}

static Tensor amax_impl(bool is_max, const Tensor& self, IntArrayRef dim, bool keepdim) {
  uint64_t mask = cpu::reduce_dim_mask(dim, self.dim());
  cpu::check_nonempty_reduction(self, mask, true, is_max ? "amax" : "amin");
  return extreme_values(is_max, self, mask, keepdim);
}
static Tensor amax(const Tensor& self, IntArrayRef dim, bool keepdim) {
  return amax_impl(true, self, dim, keepdim);
}
static Tensor amin(const Tensor& self, IntArrayRef dim, bool keepdim) {
  return amax_impl(false, self, dim, keepdim);
}
static Tensor amax_out(const Tensor& self, IntArrayRef dim, bool keepdim, const Tensor& out) {
  OPSCOPE_CHECK(out.dtype() == self.dtype(), "Expected the dtype for input and out to match, but "
                "got ", cpp_name(self.dtype()), " for input's dtype and ", cpp_name(out.dtype()),
                " for out's dtype.");
  return cpu::write_out(out, amax_impl(true, self, dim, keepdim));
}
static Tensor amin_out(const Tensor& self, IntArrayRef dim, bool keepdim, const Tensor& out) {
  OPSCOPE_CHECK(out.dtype() == self.dtype(), "Expected the dtype for input and out to match, but "
                "got ", cpp_name(self.dtype()), " for input's dtype and ", cpp_name(out.dtype()),
                " for out's dtype.");
  return cpu::write_out(out, amax_impl(false, self, dim, keepdim));
}

// argmax(dim=None): over the flattened tensor (keepdim gives all-1 sizes, as torch).
static Tensor arg_impl(bool is_max, const Tensor& self, std::optional<int64_t> dim,
                       bool keepdim) {
  const char* name = is_max ? "argmax" : "argmin";
  if (!dim) {
    cpu::check_nonempty_reduction(self, 0, false, name);
    uint64_t mask = cpu::reduce_dim_mask(std::nullopt, self.dim());
    return std::get<1>(extreme_with_indices(is_max, self, mask, keepdim, false));
  }
  uint64_t mask = cpu::reduce_dim_mask(*dim, self.dim());
  cpu::check_nonempty_reduction(self, mask, true, name);
  return std::get<1>(extreme_with_indices(is_max, self, mask, keepdim, false));
}
static Tensor argmax(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return arg_impl(true, self, dim, keepdim);
}
static Tensor argmax_out(const Tensor& self, std::optional<int64_t> dim, bool keepdim,
                         const Tensor& out) {
  return cpu::write_out(out, arg_impl(true, self, dim, keepdim));
}
static Tensor argmin(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return arg_impl(false, self, dim, keepdim);
}
static Tensor argmin_out(const Tensor& self, std::optional<int64_t> dim, bool keepdim,
                         const Tensor& out) {
  return cpu::write_out(out, arg_impl(false, self, dim, keepdim));
}

// --- var / std ----------------------------------------------------------------------------

static Tensor var_impl(const Tensor& self, OptDims dim, std::optional<int64_t> correction,
                       bool keepdim, bool take_sqrt, Tensor* mean_out) {
  OPSCOPE_CHECK(is_floating(self.dtype()),
                mean_out ? (take_sqrt ? "std_mean" : "var_mean") : "std and var",
                " only support floating point and complex dtypes");
  CUDAGuard guard(self.device());
  Rows r = as_rows(self, cpu::reduce_dim_mask(dim, self.dim()), keepdim);
  Tensor var = new_result(r, self.dtype(), self.device());
  Tensor mean = mean_out ? new_result(r, self.dtype(), self.device()) : Tensor();
  if (r.rows > 0)
    launch_var_rows(dt_of(self.dtype()), r.input.data(), var.data(),
                    mean_out ? mean.data() : nullptr, r.rows, r.cols,
                    static_cast<double>(correction.value_or(1)), take_sqrt, current_stream_ptr());
  if (mean_out) *mean_out = mean;
  return var;
}
static Tensor var_correction(const Tensor& self, OptDims dim, std::optional<int64_t> correction,
                             bool keepdim) {
  return var_impl(self, dim, correction, keepdim, false, nullptr);
}
static Tensor var_correction_out(const Tensor& self, OptDims dim,
                                 std::optional<int64_t> correction, bool keepdim,
                                 const Tensor& out) {
  return cpu::write_out(out, var_impl(self, dim, correction, keepdim, false, nullptr));
}
static Tensor std_correction(const Tensor& self, OptDims dim, std::optional<int64_t> correction,
                             bool keepdim) {
  return var_impl(self, dim, correction, keepdim, true, nullptr);
}
static Tensor std_correction_out(const Tensor& self, OptDims dim,
                                 std::optional<int64_t> correction, bool keepdim,
                                 const Tensor& out) {
  return cpu::write_out(out, var_impl(self, dim, correction, keepdim, true, nullptr));
}
static std::tuple<Tensor, Tensor> var_mean_correction(const Tensor& self, OptDims dim,
                                                      std::optional<int64_t> correction,
                                                      bool keepdim) {
  Tensor mean;
  Tensor var = var_impl(self, dim, correction, keepdim, false, &mean);
  return {var, mean};
}
static std::tuple<Tensor, Tensor> std_mean_correction(const Tensor& self, OptDims dim,
                                                      std::optional<int64_t> correction,
                                                      bool keepdim) {
  Tensor mean;
  Tensor std = var_impl(self, dim, correction, keepdim, true, &mean);
  return {std, mean};
}

// --- norms, logsumexp -----------------------------------------------------------------------

static Tensor norm_impl(const Tensor& self, double p, OptDims dim, bool keepdim, ScalarType t,
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
  ReduceOp op = p == 0                    ? ReduceOp::Norm0
                : p == 1                  ? ReduceOp::Norm1
                : p == 2                  ? ReduceOp::Norm2
                : std::isinf(p) && p > 0  ? ReduceOp::NormInf
                : std::isinf(p)           ? ReduceOp::NormNegInf
                                          : ReduceOp::NormP;
  Tensor in = cpu::cast_if_needed(self, t);
  uint64_t mask = cpu::reduce_dim_mask(dim, self.dim());
  Tensor r = reduce_rows(op, in, mask, keepdim, p);
  // torch 1.13's norm gives 0, not inf, for the -inf norm over nothing.
  if (!vector_norm && op == ReduceOp::NormNegInf && r.numel() > 0 && in.numel() == 0)
    ops::fill_(r, 0);
  return r;
}

static double p_value(const std::optional<Scalar>& p) { return p ? p->to_double() : 2.0; }

static Tensor norm_dim(const Tensor& self, const std::optional<Scalar>& p, IntArrayRef dim,
                       bool keepdim) {
  return norm_impl(self, p_value(p), dim, keepdim, self.dtype(), false);
}
static Tensor norm_dim_dtype(const Tensor& self, const std::optional<Scalar>& p, IntArrayRef dim,
                             bool keepdim, ScalarType dtype) {
  return norm_impl(self, p_value(p), dim, keepdim, dtype, false);
}
static Tensor norm_out(const Tensor& self, const std::optional<Scalar>& p, IntArrayRef dim,
                       bool keepdim, const Tensor& out) {
  return cpu::write_out(out, norm_impl(self, p_value(p), dim, keepdim, self.dtype(), false));
}
static Tensor norm_dtype_out(const Tensor& self, const std::optional<Scalar>& p, IntArrayRef dim,
                             bool keepdim, ScalarType dtype, const Tensor& out) {
  return cpu::write_out(out, norm_impl(self, p_value(p), dim, keepdim, dtype, false));
}
static Tensor linalg_vector_norm(const Tensor& self, const Scalar& ord, OptDims dim, bool keepdim,
                                 OptDtype dtype) {
  return norm_impl(self, ord.to_double(), dim, keepdim, dtype.value_or(self.dtype()), true);
}
static Tensor linalg_vector_norm_out(const Tensor& self, const Scalar& ord, OptDims dim,
                                     bool keepdim, OptDtype dtype, const Tensor& out) {
  return cpu::write_out(out, linalg_vector_norm(self, ord, dim, keepdim, dtype));
}

static Tensor logsumexp(const Tensor& self, IntArrayRef dim, bool keepdim) {
  ScalarType t = is_integral(self.dtype(), true) ? default_dtype() : self.dtype();
  return reduce_rows(ReduceOp::LogSumExp, cpu::cast_if_needed(self, t),
                     cpu::reduce_dim_mask(dim, self.dim()), keepdim);
}
static Tensor logsumexp_out(const Tensor& self, IntArrayRef dim, bool keepdim,
                            const Tensor& out) {
  return cpu::write_out(out, logsumexp(self, dim, keepdim));
}

// --- softmax --------------------------------------------------------------------------------

// softmax along `dim`: that dim moved last (a copy unless it already is), rows normalized, the
// result moved back and made contiguous like self. half_to_float: float16 / bfloat16 in, float32
// out, as torch's CUDA kernel (its CPU kernel refuses it).
static Tensor softmax_impl(bool log, const Tensor& self, int64_t dim, bool half_to_float) {
  CUDAGuard guard(self.device());
  const int64_t nd = self.dim();
  const int64_t d = nd == 0 ? 0 : wrap_dim(dim, nd);
  ScalarType t = self.dtype();
  OPSCOPE_CHECK(!half_to_float || t == ScalarType::Float16 || t == ScalarType::BFloat16,
                "conversion is supported for Half type only");
  ScalarType out_t = half_to_float ? ScalarType::Float32 : t;
  if (!is_floating(t))
    throw Error(detail::str("\"", log ? "log_softmax" : "softmax", "_cuda\" not implemented for '",
                            cpp_name(t), "'"));
  if (self.numel() == 0) return make_empty(self.sizes(), out_t, self.device());
  const bool last = nd == 0 || d == nd - 1;
  Tensor in = last ? self : ops::transpose(self, d, nd - 1);
  in = in.is_contiguous() ? in : ops::contiguous(in);
  Tensor out = make_empty(in.sizes(), out_t, self.device());
  const int64_t cols = nd == 0 ? 1 : in.size(-1);
  const int64_t rows = in.numel() / cols;
  launch_softmax_rows(log, dt_of(t), dt_of(out_t), in.data(), out.data(), rows, cols,
                      current_stream_ptr());
  if (last) return out;
  return ops::contiguous(ops::transpose(out, d, nd - 1));
}
static Tensor _softmax(const Tensor& self, int64_t dim, bool half_to_float) {
  return softmax_impl(false, self, dim, half_to_float);
}
static Tensor _softmax_out(const Tensor& self, int64_t dim, bool half_to_float,
                           const Tensor& out) {
  return cpu::write_out(out, softmax_impl(false, self, dim, half_to_float));
}
static Tensor _log_softmax(const Tensor& self, int64_t dim, bool half_to_float) {
  return softmax_impl(true, self, dim, half_to_float);
}
static Tensor _log_softmax_out(const Tensor& self, int64_t dim, bool half_to_float,
                               const Tensor& out) {
  return cpu::write_out(out, softmax_impl(true, self, dim, half_to_float));
}

// --- all, any ------------------------------------------------------------------------------
// self [*s] -> bool (uint8 for a uint8 input) over dim, or every dim: whether every / any element
// is nonzero (NaN is). Counted with the kernels above — the elements that decide (zeros for all,
// nonzeros for any) summed per output element, the count compared with 0 — so three launches
// where a reduction of its own would be one; the results and messages are the CPU kernels'
// (core/ops/cpu/reduce_logical.cpp). GradScaler's inf check calls all() on every gradient.
template <bool IsAll>
static Tensor logical(const Tensor& self, OptDims dim, bool keepdim) {
  Tensor deciding = IsAll ? ops::eq(self, Scalar(int64_t(0))) : ops::ne(self, Scalar(int64_t(0)));
  Tensor count = ops::sum(deciding, dim, keepdim, ScalarType::Int64);
  Tensor r = IsAll ? ops::eq(count, Scalar(int64_t(0))) : ops::ne(count, Scalar(int64_t(0)));
  return self.dtype() == ScalarType::UInt8 ? ops::to(r, ScalarType::UInt8) : r;
}
template <bool IsAll>
static Tensor logical_out(const Tensor& self, OptDims dim, bool keepdim, const Tensor& out) {
  OPSCOPE_CHECK(out.dtype() == ScalarType::Bool || out.dtype() == ScalarType::UInt8,
                IsAll ? "all" : "any", " only supports bool tensor for result, got: ",
                cpp_name(out.dtype()));
  return cpu::write_out(out, logical<IsAll>(self, dim, keepdim));
}
static Tensor all(const Tensor& self) { return logical<true>(self, std::nullopt, false); }
static Tensor all_dim(const Tensor& self, int64_t dim, bool keepdim) {
  return logical<true>(self, IntArrayRef(&dim, 1), keepdim);
}
static Tensor all_out(const Tensor& self, int64_t dim, bool keepdim, const Tensor& out) {
  return logical_out<true>(self, IntArrayRef(&dim, 1), keepdim, out);
}
static Tensor all_all_out(const Tensor& self, const Tensor& out) {
  return logical_out<true>(self, std::nullopt, false, out);
}
static Tensor any(const Tensor& self) { return logical<false>(self, std::nullopt, false); }
static Tensor any_dim(const Tensor& self, int64_t dim, bool keepdim) {
  return logical<false>(self, IntArrayRef(&dim, 1), keepdim);
}
static Tensor any_out(const Tensor& self, int64_t dim, bool keepdim, const Tensor& out) {
  return logical_out<false>(self, IntArrayRef(&dim, 1), keepdim, out);
}
static Tensor any_all_out(const Tensor& self, const Tensor& out) {
  return logical_out<false>(self, std::nullopt, false, out);
}

// self [*s] -> int64 over dim (every dim when empty): torch 1.13's count_nonzero_cuda, the
// nonzero mask summed (NaN is nonzero).
static Tensor count_nonzero(const Tensor& self, IntArrayRef dim) {
  return ops::sum(ops::ne(self, Scalar(int64_t(0))), dim);
}

// self, other -> whether they have the same sizes and equal elements (nan != nan), compared in
// their common dtype: torch 1.13's cuda_equal, eq then all, one value read back.
static bool equal(const Tensor& self, const Tensor& other) {
  OPSCOPE_CHECK(self.device() == other.device(),
                "Cannot compare two tensors on different devices. Got: ", self.device().str(),
                " and ", other.device().str());
  if (!std::ranges::equal(self.sizes(), other.sizes())) return false;
  if (self.numel() == 0) return true;
  return ops::item(all(ops::eq(self, other))).to_bool();
}

// self (n, m) -> () = sum_i self[i, i]: the diagonal (a view) summed, as torch 1.13's trace_cuda,
// so a trace shows aten::diagonal and aten::sum under it; dtypes are sum's (integers and bool
// give int64; float16 stays float16, where the CPU kernel refuses it, as torch's does).
static Tensor trace(const Tensor& self) {
  OPSCOPE_CHECK(self.dim() == 2, "expected a matrix");
  return ops::sum(ops::diagonal(self));
}

static Library cuda_reduce(Library::IMPL, "aten", DispatchKey::CUDA, [](Library& m) {
  m.impl("trace", fn<&trace>);
  m.impl("equal", fn<&equal>);
  m.impl("count_nonzero.dim_IntList", fn<&count_nonzero>);
  m.impl("all", fn<&all>);
  m.impl("all.dim", fn<&all_dim>);
  m.impl("all.out", fn<&all_out>);
  m.impl("all.all_out", fn<&all_all_out>);
  m.impl("any", fn<&any>);
  m.impl("any.dim", fn<&any_dim>);
  m.impl("any.out", fn<&any_out>);
  m.impl("any.all_out", fn<&any_all_out>);
  m.impl("sum.dim_IntList", fn<&sum_dim>);
  m.impl("sum.IntList_out", fn<&sum_out>);
  m.impl("mean.dim", fn<&mean_dim>);
  m.impl("mean.out", fn<&mean_out>);
  m.impl("prod", fn<&prod>);
  m.impl("prod.dim_int", fn<&prod_dim>);
  m.impl("prod.int_out", fn<&prod_out>);
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
  m.impl("var.correction", fn<&var_correction>);
  m.impl("var.correction_out", fn<&var_correction_out>);
  m.impl("std.correction", fn<&std_correction>);
  m.impl("std.correction_out", fn<&std_correction_out>);
  m.impl("var_mean.correction", fn<&var_mean_correction>);
  m.impl("std_mean.correction", fn<&std_mean_correction>);
  m.impl("norm.ScalarOpt_dim", fn<&norm_dim>);
  m.impl("norm.ScalarOpt_dim_dtype", fn<&norm_dim_dtype>);
  m.impl("norm.out", fn<&norm_out>);
  m.impl("norm.dtype_out", fn<&norm_dtype_out>);
  m.impl("linalg_vector_norm", fn<&linalg_vector_norm>);
  m.impl("linalg_vector_norm.out", fn<&linalg_vector_norm_out>);
  m.impl("logsumexp", fn<&logsumexp>);
  m.impl("logsumexp.out", fn<&logsumexp_out>);
  m.impl("_softmax", fn<&_softmax>);
  m.impl("_softmax.out", fn<&_softmax_out>);
  m.impl("_log_softmax", fn<&_log_softmax>);
  m.impl("_log_softmax.out", fn<&_log_softmax_out>);
});

}  // namespace opscope::cuda
