// The reduction family's schemas, one def row per overload. See core/ops/reduce.h. Kernels, each
// registered at the end of its file: core/ops/cpu/reduce_sum.cpp (sum, mean, prod),
// reduce_logical.cpp (all, any, count_nonzero), reduce_norm.cpp (norm, linalg_vector_norm),
// reduce_minmax.cpp (max, min, amax, amin, argmax, argmin), reduce_stats.cpp (var, std, var_mean,
// std_mean, logsumexp), scan.cpp (cumsum, cumprod), softmax.cpp (_softmax, _log_softmax),
// statistics.cpp (mode, aminmax); and core/ops/composite/reduce.cpp, composite/statistics.cpp
// (cov, corrcoef, quantile, nanquantile).
//
// Keys as torch 1.13 registers them (torch._C._dispatch_dump): CPU for the kernels,
// CompositeExplicitAutograd for sum / sum.out / mean / prod.out / norm.Scalar / norm.*dtype /
// count_nonzero / logsumexp / softmax.int_out, CompositeImplicitAutograd for the var / std
// `unbiased` overloads, var_mean / std_mean without correction, softmax.int and log_softmax.int.
#include "core/ops/reduce.h"

#include "core/dispatch/Library.h"

namespace opscope {

static Library reduce_ops(Library::FRAGMENT, "aten", [](Library& m) {
  constexpr Variants kFunction = Variants::Function;  // out= forms and torch.* only ops

  m.def("sum(Tensor self, *, ScalarType? dtype=None) -> Tensor");
  m.def(
      "sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) "
      "-> Tensor");
  m.def(
      "sum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, "
      "Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.def("sum.out(Tensor self, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)", kFunction);
  // self (*s) -> size (sum over the dims size broadcasts), the inverse of expand
  m.def("sum_to_size(Tensor self, int[] size) -> Tensor", Variants::Method);
  // self (n, m) -> () the sum of the diagonal; integers as int64 (cpu/reduce_trace.cpp)
  m.def("trace(Tensor self) -> Tensor");

  // nansum: sum with NaNs counted as 0 (a CPU kernel); nanmean: CompositeImplicitAutograd, the
  // nansum divided by the count of numbers
  m.def(
      "nansum(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> "
      "Tensor");
  m.def(
      "nansum.out(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None, "
      "Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.def(
      "nanmean(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> "
      "Tensor");
  m.def(
      "nanmean.out(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None, "
      "Tensor(a!) out) -> Tensor(a!)",
      kFunction);

  m.def("mean(Tensor self, *, ScalarType? dtype=None) -> Tensor");
  m.def(
      "mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> "
      "Tensor");
  m.def(
      "mean.out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, "
      "Tensor(a!) out) -> Tensor(a!)",
      kFunction);

  m.def("prod(Tensor self, *, ScalarType? dtype=None) -> Tensor");
  m.def(
      "prod.dim_int(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None) -> "
      "Tensor");
  m.def(
      "prod.int_out(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None, "
      "Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.def("prod.out(Tensor self, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)",
        kFunction);

  m.def("max(Tensor self) -> Tensor");
  m.def("max.other(Tensor self, Tensor other) -> Tensor");  // torch.max(a, b): maximum
  m.def("max.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.def("max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)");
  m.def(
      "max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, Tensor(b!) "
      "max_values) -> (Tensor(a!) values, Tensor(b!) indices)",
      kFunction);
  m.def("min(Tensor self) -> Tensor");
  m.def("min.other(Tensor self, Tensor other) -> Tensor");  // torch.min(a, b): minimum
  m.def("min.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.def("min.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)");
  m.def(
      "min.dim_min(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) min, Tensor(b!) "
      "min_indices) -> (Tensor(a!) values, Tensor(b!) indices)",
      kFunction);
  m.def("amax(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor");
  m.def(
      "amax.out(Tensor self, int[1] dim=[], bool keepdim=False, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);
  m.def("amin(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor");
  m.def(
      "amin.out(Tensor self, int[1] dim=[], bool keepdim=False, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);
  m.def("argmax(Tensor self, int? dim=None, bool keepdim=False) -> Tensor");
  m.def(
      "argmax.out(Tensor self, int? dim=None, bool keepdim=False, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);
  m.def("argmin(Tensor self, int? dim=None, bool keepdim=False) -> Tensor");
  m.def(
      "argmin.out(Tensor self, int? dim=None, bool keepdim=False, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);

  m.def("var(Tensor self, bool unbiased=True) -> Tensor");
  m.def("var.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> Tensor");
  m.def(
      "var.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) -> "
      "Tensor");
  m.def(
      "var.out(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False, *, "
      "Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.def(
      "var.correction_out(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False, "
      "Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.def("std(Tensor self, bool unbiased=True) -> Tensor");
  m.def("std.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> Tensor");
  m.def(
      "std.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) -> "
      "Tensor");
  m.def(
      "std.out(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False, *, "
      "Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.def(
      "std.correction_out(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False, "
      "Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.def("var_mean(Tensor self, bool unbiased=True) -> (Tensor, Tensor)", kFunction);
  m.def(
      "var_mean.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> "
      "(Tensor, Tensor)",
      kFunction);
  m.def(
      "var_mean.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) "
      "-> (Tensor, Tensor)",
      kFunction);
  m.def(
      "var_mean.correction_out(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False, "
      "Tensor(a!) out0, Tensor(b!) out1) -> (Tensor(a!), Tensor(b!))",
      kFunction);
  m.def("std_mean(Tensor self, bool unbiased=True) -> (Tensor, Tensor)", kFunction);
  m.def(
      "std_mean.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> "
      "(Tensor, Tensor)",
      kFunction);
  m.def(
      "std_mean.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) "
      "-> (Tensor, Tensor)",
      kFunction);
  m.def(
      "std_mean.correction_out(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False, "
      "Tensor(a!) out0, Tensor(b!) out1) -> (Tensor(a!), Tensor(b!))",
      kFunction);

  m.def("norm.Scalar(Tensor self, Scalar p=2) -> Tensor");
  m.def("norm.ScalarOpt_dim(Tensor self, Scalar? p, int[1] dim, bool keepdim=False) -> Tensor");
  m.def(
      "norm.ScalarOpt_dim_dtype(Tensor self, Scalar? p, int[1] dim, bool keepdim, *, "
      "ScalarType dtype) -> Tensor");
  m.def("norm.ScalarOpt_dtype(Tensor self, Scalar? p, *, ScalarType dtype) -> Tensor");
  m.def(
      "norm.out(Tensor self, Scalar? p, int[1] dim, bool keepdim=False, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);
  m.def(
      "norm.dtype_out(Tensor self, Scalar? p, int[1] dim, bool keepdim, *, ScalarType dtype, "
      "Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.def("norm.Scalar_out(Tensor self, Scalar p=2, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.def(
      "norm.ScalarOpt_dtype_out(Tensor self, Scalar? p, *, ScalarType dtype, Tensor(a!) out) "
      "-> Tensor(a!)",
      kFunction);
  m.def("frobenius_norm(Tensor self) -> Tensor", kFunction);
  m.def("frobenius_norm.dim(Tensor self, int[1] dim, bool keepdim=False) -> Tensor", kFunction);
  m.def(
      "frobenius_norm.out(Tensor self, int[1] dim, bool keepdim=False, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);
  m.def(
      "linalg_vector_norm(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *, "
      "ScalarType? dtype=None) -> Tensor",
      kFunction);
  m.def(
      "linalg_vector_norm.out(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, "
      "*, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)",
      kFunction);

  m.def("all(Tensor self) -> Tensor");
  m.def("all.dim(Tensor self, int dim, bool keepdim=False) -> Tensor");
  m.def("all.out(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)",
        kFunction);
  m.def("all.all_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.def("any(Tensor self) -> Tensor");
  m.def("any.dim(Tensor self, int dim, bool keepdim=False) -> Tensor");
  m.def("any.out(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)",
        kFunction);
  m.def("any.all_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.def("count_nonzero.dim_IntList(Tensor self, int[] dim) -> Tensor");
  m.def("count_nonzero.dim_IntList_out(Tensor self, int[] dim, *, Tensor(a!) out) -> Tensor(a!)",
        kFunction);
  m.def("count_nonzero(Tensor self, int? dim=None) -> Tensor");
  m.def("count_nonzero.out(Tensor self, int? dim=None, *, Tensor(a!) out) -> Tensor(a!)",
        kFunction);
  m.def("logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor");
  m.def(
      "logsumexp.out(Tensor self, int[1] dim, bool keepdim=False, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);

  // (.., n, ..) along dim -> (.., n - order, ..): x[i + 1] - x[i], `n` times (logical_xor for
  // bool), after prepend / append are joined on that dim
  m.def(
      "diff(Tensor self, int n=1, int dim=-1, Tensor? prepend=None, Tensor? append=None) "
      "-> Tensor");
  m.def("cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor");
  m.def("cumsum_(Tensor(a!) self, int dim, *, ScalarType? dtype=None) -> Tensor(a!)",
        Variants::Method);
  m.def(
      "cumsum.out(Tensor self, int dim, *, ScalarType? dtype=None, Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);
  // bincount / histc (core/ops/cpu/histogram.cpp): counts of values, in bins
  m.def("bincount(Tensor self, Tensor? weights=None, int minlength=0) -> Tensor");
  m.def(
      "bincount.out(Tensor self, Tensor? weights=None, int minlength=0, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);
  m.def("histc(Tensor self, int bins=100, Scalar min=0, Scalar max=0) -> Tensor");
  m.def(
      "histc.out(Tensor self, int bins=100, Scalar min=0, Scalar max=0, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);
  // cummax / cummin: the running extreme and where it was (ties: the later index; NaN sticks),
  // CompositeExplicitAutograd over the CPU kernels _cummax_helper / _cummin_helper, as torch
  m.def("cummax(Tensor self, int dim) -> (Tensor values, Tensor indices)");
  m.def(
      "cummax.out(Tensor self, int dim, *, Tensor(a!) values, Tensor(b!) indices) -> "
      "(Tensor(a!) values, Tensor(b!) indices)",
      kFunction);
  m.def("cummin(Tensor self, int dim) -> (Tensor values, Tensor indices)");
  m.def(
      "cummin.out(Tensor self, int dim, *, Tensor(a!) values, Tensor(b!) indices) -> "
      "(Tensor(a!) values, Tensor(b!) indices)",
      kFunction);
  m.def("_cummax_helper(Tensor self, Tensor(a!) values, Tensor(b!) indices, int dim) -> ()",
        kFunction);
  m.def("_cummin_helper(Tensor self, Tensor(a!) values, Tensor(b!) indices, int dim) -> ()",
        kFunction);
  // their gradient: grad scatter-added to the indices (CompositeImplicitAutograd)
  m.def("cummaxmin_backward(Tensor grad, Tensor input, Tensor indices, int dim) -> Tensor",
        kFunction);
  // logcumsumexp: log(cumsum(exp(self))) without overflow; CompositeExplicitAutograd over the
  // CPU kernel _logcumsumexp
  m.def("logcumsumexp(Tensor self, int dim) -> Tensor");
  m.def("logcumsumexp.out(Tensor self, int dim, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.def("_logcumsumexp(Tensor self, int dim) -> Tensor", kFunction);
  m.def("_logcumsumexp.out(Tensor self, int dim, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.def("cumprod(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor");
  m.def("cumprod_(Tensor(a!) self, int dim, *, ScalarType? dtype=None) -> Tensor(a!)",
        Variants::Method);
  m.def(
      "cumprod.out(Tensor self, int dim, *, ScalarType? dtype=None, Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);

  m.def("softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor");
  m.def(
      "softmax.int_out(Tensor self, int dim, ScalarType? dtype=None, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);
  m.def("_softmax(Tensor self, int dim, bool half_to_float) -> Tensor", kFunction);
  m.def(
      "_softmax.out(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);
  m.def("log_softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor");
  m.def(
      "log_softmax.int_out(Tensor self, int dim, ScalarType? dtype=None, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);
  m.def("_log_softmax(Tensor self, int dim, bool half_to_float) -> Tensor", kFunction);
  m.def(
      "_log_softmax.out(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);
  // grad_output, output (the forward's result) [*s] -> the input's gradient [*s]
  m.def(
      "_softmax_backward_data(Tensor grad_output, Tensor output, int dim, "
      "ScalarType input_dtype) -> Tensor",
      kFunction);
  m.def(
      "_log_softmax_backward_data(Tensor grad_output, Tensor output, int dim, "
      "ScalarType input_dtype) -> Tensor",
      kFunction);

  // Aliases (kernels in core/ops/composite/aliases.cpp): torch.special's logsumexp, softmax and
  // log_softmax.
  m.def(
      "special_logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor",
      Variants::Function);
  m.def(
      "special_logsumexp.out(Tensor self, int[1] dim, bool keepdim=False, *, Tensor(a!) out)"
      " -> Tensor(a!)",
      Variants::Function);
  m.def(
      "special_softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor",
      Variants::Function);
  m.def(
      "special_log_softmax(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor",
      Variants::Function);

  // Statistics (core/ops/composite/statistics.cpp, core/ops/cpu/statistics.cpp).
  // self (vars, obs) or (obs) -> (vars, vars) or () : the covariance of the rows, fweights (obs)
  // integral counts, aweights (obs) floating weights; corrcoef its normalized form. Both
  // CompositeImplicitAutograd, as torch 1.13.
  m.def(
      "cov(Tensor self, *, int correction=1, Tensor? fweights=None, Tensor? aweights=None) -> "
      "Tensor");
  m.def("corrcoef(Tensor self) -> Tensor");
  // self [*s], q () or (k) in [0, 1] -> [k, *s without dim] (all of self without dim): sort, then
  // gather and lerp between neighbours (CompositeImplicitAutograd; nanquantile leaves NaNs out)
  for (const char* name : {"quantile", "nanquantile"}) {
    const std::string op(name);
    const std::string args =
        " int? dim=None, bool keepdim=False, *, str interpolation='linear'";
    m.def(op + "(Tensor self, Tensor q," + args + ") -> Tensor");
    m.def(op + ".out(Tensor self, Tensor q," + args + ", Tensor(a!) out) -> Tensor(a!)",
          kFunction);
    m.def(op + ".scalar(Tensor self, float q," + args + ") -> Tensor");
    m.def(op + ".scalar_out(Tensor self, float q," + args + ", Tensor(a!) out) -> Tensor(a!)",
          kFunction);
  }
  // self [*s] -> (values, indices) [*s without dim]: the most frequent value along dim (its
  // smallest on ties) and an index holding it (a CPU kernel; mode.values
  // CompositeExplicitAutograd, as torch 1.13)
  m.def("mode(Tensor self, int dim=-1, bool keepdim=False) -> (Tensor values, Tensor indices)");
  m.def(
      "mode.values(Tensor self, int dim=-1, bool keepdim=False, *, Tensor(a!) values, "
      "Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)",
      kFunction);
  // self [*s] -> (min, max): amin and amax in one pass, over dim or every element (CPU kernels)
  m.def("aminmax(Tensor self, *, int? dim=None, bool keepdim=False) -> (Tensor min, Tensor max)");
  m.def(
      "aminmax.out(Tensor self, *, int? dim=None, bool keepdim=False, Tensor(a!) min, "
      "Tensor(b!) max) -> (Tensor(a!) min, Tensor(b!) max)",
      kFunction);
});

}  // namespace opscope
