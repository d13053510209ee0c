// The reduction family's declarations and C++ entry points. See core/ops/reduce.h; kernels are
// listed in core/ops/reduce_kernels.h.
//
// Keys as torch 1.13 registers them (torch._C._dispatch_dump): CPU for the kernels,
// CompositeExplicitAutograd for sum / sum.out / mean / prod.out / norm.Scalar / norm.*dtype /
// count_nonzero / logsumexp / softmax.int_out, CompositeImplicitAutograd for the var / std
// `unbiased` overloads, var_mean / std_mean without correction, softmax.int and log_softmax.int.
#include "core/ops/reduce.h"

#include "core/dispatch/Library.h"
#include "core/ops/reduce_kernels.h"

namespace opscope {

static Library reduce_ops(Library::FRAGMENT, "aten", [](Library& m) {
  constexpr DispatchKey kCPU = DispatchKey::CPU;
  constexpr DispatchKey kCEA = DispatchKey::CompositeExplicitAutograd;
  constexpr DispatchKey kCIA = DispatchKey::CompositeImplicitAutograd;
  constexpr Variants kFunction = Variants::Function;  // out= forms and torch.* only ops

  m.def("sum(Tensor self, *, ScalarType? dtype=None) -> Tensor");
  m.impl("sum", kCEA, fn<&composite::sum>);
  m.def(
      "sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) "
      "-> Tensor");
  m.impl("sum.dim_IntList", kCPU, fn<&cpu::sum_dim>);
  m.def(
      "sum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, "
      "Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.impl("sum.IntList_out", kCPU, fn<&cpu::sum_out>);
  m.def("sum.out(Tensor self, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.impl("sum.out", kCEA, fn<&composite::sum_all_out>);

  m.def("mean(Tensor self, *, ScalarType? dtype=None) -> Tensor");
  m.impl("mean", kCEA, fn<&composite::mean>);
  m.def(
      "mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> "
      "Tensor");
  m.impl("mean.dim", kCPU, fn<&cpu::mean_dim>);
  m.def(
      "mean.out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, "
      "Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.impl("mean.out", kCPU, fn<&cpu::mean_out>);

  m.def("prod(Tensor self, *, ScalarType? dtype=None) -> Tensor");
  m.impl("prod", kCPU, fn<&cpu::prod>);
  m.def(
      "prod.dim_int(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None) -> "
      "Tensor");
  m.impl("prod.dim_int", kCPU, fn<&cpu::prod_dim>);
  m.def(
      "prod.int_out(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None, "
      "Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.impl("prod.int_out", kCPU, fn<&cpu::prod_out>);
  m.def("prod.out(Tensor self, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)",
        kFunction);
  m.impl("prod.out", kCEA, fn<&composite::prod_all_out>);

  m.def("max(Tensor self) -> Tensor");
  m.impl("max", kCPU, fn<&cpu::max>);
  m.def("max.other(Tensor self, Tensor other) -> Tensor");  // torch.max(a, b): maximum
  m.impl("max.other", kCIA, fn<&composite::max_other>);
  m.def("max.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.impl("max.out", kCIA, fn<&composite::max_other_out>);
  m.def("max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)");
  m.impl("max.dim", kCPU, fn<&cpu::max_dim>);
  m.def(
      "max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, Tensor(b!) "
      "max_values) -> (Tensor(a!) values, Tensor(b!) indices)",
      kFunction);
  m.impl("max.dim_max", kCPU, fn<&cpu::max_dim_out>);
  m.def("min(Tensor self) -> Tensor");
  m.impl("min", kCPU, fn<&cpu::min>);
  m.def("min.other(Tensor self, Tensor other) -> Tensor");  // torch.min(a, b): minimum
  m.impl("min.other", kCIA, fn<&composite::min_other>);
  m.def("min.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.impl("min.out", kCIA, fn<&composite::min_other_out>);
  m.def("min.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)");
  m.impl("min.dim", kCPU, fn<&cpu::min_dim>);
  m.def(
      "min.dim_min(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) min, Tensor(b!) "
      "min_indices) -> (Tensor(a!) values, Tensor(b!) indices)",
      kFunction);
  m.impl("min.dim_min", kCPU, fn<&cpu::min_dim_out>);
  m.def("amax(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor");
  m.impl("amax", kCPU, fn<&cpu::amax>);
  m.def(
      "amax.out(Tensor self, int[1] dim=[], bool keepdim=False, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);
  m.impl("amax.out", kCPU, fn<&cpu::amax_out>);
  m.def("amin(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor");
  m.impl("amin", kCPU, fn<&cpu::amin>);
  m.def(
      "amin.out(Tensor self, int[1] dim=[], bool keepdim=False, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);
  m.impl("amin.out", kCPU, fn<&cpu::amin_out>);
  m.def("argmax(Tensor self, int? dim=None, bool keepdim=False) -> Tensor");
  m.impl("argmax", kCPU, fn<&cpu::argmax>);
  m.def(
      "argmax.out(Tensor self, int? dim=None, bool keepdim=False, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);
  m.impl("argmax.out", kCPU, fn<&cpu::argmax_out>);
  m.def("argmin(Tensor self, int? dim=None, bool keepdim=False) -> Tensor");
  m.impl("argmin", kCPU, fn<&cpu::argmin>);
  m.def(
      "argmin.out(Tensor self, int? dim=None, bool keepdim=False, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);
  m.impl("argmin.out", kCPU, fn<&cpu::argmin_out>);

  m.def("var(Tensor self, bool unbiased=True) -> Tensor");
  m.impl("var", kCIA, fn<&composite::var>);
  m.def("var.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> Tensor");
  m.impl("var.dim", kCIA, fn<&composite::var_dim>);
  m.def(
      "var.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) -> "
      "Tensor");
  m.impl("var.correction", kCPU, fn<&cpu::var_correction>);
  m.def(
      "var.out(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False, *, "
      "Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.impl("var.out", kCIA, fn<&composite::var_out>);
  m.def(
      "var.correction_out(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False, "
      "Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.impl("var.correction_out", kCPU, fn<&cpu::var_correction_out>);
  m.def("std(Tensor self, bool unbiased=True) -> Tensor");
  m.impl("std", kCIA, fn<&composite::std>);
  m.def("std.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> Tensor");
  m.impl("std.dim", kCIA, fn<&composite::std_dim>);
  m.def(
      "std.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) -> "
      "Tensor");
  m.impl("std.correction", kCPU, fn<&cpu::std_correction>);
  m.def(
      "std.out(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False, *, "
      "Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.impl("std.out", kCIA, fn<&composite::std_out>);
  m.def(
      "std.correction_out(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False, "
      "Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.impl("std.correction_out", kCPU, fn<&cpu::std_correction_out>);
  m.def("var_mean(Tensor self, bool unbiased=True) -> (Tensor, Tensor)", kFunction);
  m.impl("var_mean", kCIA, fn<&composite::var_mean>);
  m.def(
      "var_mean.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> "
      "(Tensor, Tensor)",
      kFunction);
  m.impl("var_mean.dim", kCIA, fn<&composite::var_mean_dim>);
  m.def(
      "var_mean.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) "
      "-> (Tensor, Tensor)",
      kFunction);
  m.impl("var_mean.correction", kCPU, fn<&cpu::var_mean_correction>);
  m.def(
      "var_mean.correction_out(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False, "
      "Tensor(a!) out0, Tensor(b!) out1) -> (Tensor(a!), Tensor(b!))",
      kFunction);
  m.impl("var_mean.correction_out", kCEA, fn<&composite::var_mean_correction_out>);
  m.def("std_mean(Tensor self, bool unbiased=True) -> (Tensor, Tensor)", kFunction);
  m.impl("std_mean", kCIA, fn<&composite::std_mean>);
  m.def(
      "std_mean.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> "
      "(Tensor, Tensor)",
      kFunction);
  m.impl("std_mean.dim", kCIA, fn<&composite::std_mean_dim>);
  m.def(
      "std_mean.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) "
      "-> (Tensor, Tensor)",
      kFunction);
  m.impl("std_mean.correction", kCPU, fn<&cpu::std_mean_correction>);
  m.def(
      "std_mean.correction_out(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False, "
      "Tensor(a!) out0, Tensor(b!) out1) -> (Tensor(a!), Tensor(b!))",
      kFunction);
  m.impl("std_mean.correction_out", kCEA, fn<&composite::std_mean_correction_out>);

  m.def("norm.Scalar(Tensor self, Scalar p=2) -> Tensor");
  m.impl("norm.Scalar", kCEA, fn<&composite::norm>);
  m.def("norm.ScalarOpt_dim(Tensor self, Scalar? p, int[1] dim, bool keepdim=False) -> Tensor");
  m.impl("norm.ScalarOpt_dim", kCPU, fn<&cpu::norm_dim>);
  m.def(
      "norm.ScalarOpt_dim_dtype(Tensor self, Scalar? p, int[1] dim, bool keepdim, *, "
      "ScalarType dtype) -> Tensor");
  m.impl("norm.ScalarOpt_dim_dtype", kCPU, fn<&cpu::norm_dim_dtype>);
  m.def("norm.ScalarOpt_dtype(Tensor self, Scalar? p, *, ScalarType dtype) -> Tensor");
  m.impl("norm.ScalarOpt_dtype", kCEA, fn<&composite::norm_dtype>);
  m.def(
      "norm.out(Tensor self, Scalar? p, int[1] dim, bool keepdim=False, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);
  m.impl("norm.out", kCPU, fn<&cpu::norm_out>);
  m.def(
      "norm.dtype_out(Tensor self, Scalar? p, int[1] dim, bool keepdim, *, ScalarType dtype, "
      "Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.impl("norm.dtype_out", kCPU, fn<&cpu::norm_dtype_out>);
  m.def("norm.Scalar_out(Tensor self, Scalar p=2, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.impl("norm.Scalar_out", kCEA, fn<&composite::norm_scalar_out>);
  m.def(
      "norm.ScalarOpt_dtype_out(Tensor self, Scalar? p, *, ScalarType dtype, Tensor(a!) out) "
      "-> Tensor(a!)",
      kFunction);
  m.impl("norm.ScalarOpt_dtype_out", kCEA, fn<&composite::norm_dtype_all_out>);
  m.def("frobenius_norm(Tensor self) -> Tensor", kFunction);
  m.impl("frobenius_norm", kCIA, fn<&composite::frobenius_norm>);
  m.def("frobenius_norm.dim(Tensor self, int[1] dim, bool keepdim=False) -> Tensor", kFunction);
  m.impl("frobenius_norm.dim", kCIA, fn<&composite::frobenius_norm_dim>);
  m.def(
      "frobenius_norm.out(Tensor self, int[1] dim, bool keepdim=False, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);
  m.impl("frobenius_norm.out", kCIA, fn<&composite::frobenius_norm_out>);
  m.def(
      "linalg_vector_norm(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *, "
      "ScalarType? dtype=None) -> Tensor",
      kFunction);
  m.impl("linalg_vector_norm", kCPU, fn<&cpu::linalg_vector_norm>);
  m.def(
      "linalg_vector_norm.out(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, "
      "*, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.impl("linalg_vector_norm.out", kCPU, fn<&cpu::linalg_vector_norm_out>);

  m.def("all(Tensor self) -> Tensor");
  m.impl("all", kCPU, fn<&cpu::all>);
  m.def("all.dim(Tensor self, int dim, bool keepdim=False) -> Tensor");
  m.impl("all.dim", kCPU, fn<&cpu::all_dim>);
  m.def("all.out(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)",
        kFunction);
  m.impl("all.out", kCPU, fn<&cpu::all_out>);
  m.def("all.all_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.impl("all.all_out", kCPU, fn<&cpu::all_all_out>);
  m.def("any(Tensor self) -> Tensor");
  m.impl("any", kCPU, fn<&cpu::any>);
  m.def("any.dim(Tensor self, int dim, bool keepdim=False) -> Tensor");
  m.impl("any.dim", kCPU, fn<&cpu::any_dim>);
  m.def("any.out(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)",
        kFunction);
  m.impl("any.out", kCPU, fn<&cpu::any_out>);
  m.def("any.all_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.impl("any.all_out", kCPU, fn<&cpu::any_all_out>);
  m.def("count_nonzero.dim_IntList(Tensor self, int[] dim) -> Tensor");
  m.impl("count_nonzero.dim_IntList", kCPU, fn<&cpu::count_nonzero_dims>);
  m.def("count_nonzero.dim_IntList_out(Tensor self, int[] dim, *, Tensor(a!) out) -> Tensor(a!)",
        kFunction);
  m.impl("count_nonzero.dim_IntList_out", kCEA, fn<&composite::count_nonzero_dims_out>);
  m.def("count_nonzero(Tensor self, int? dim=None) -> Tensor");
  m.impl("count_nonzero", kCEA, fn<&composite::count_nonzero>);
  m.def("count_nonzero.out(Tensor self, int? dim=None, *, Tensor(a!) out) -> Tensor(a!)",
        kFunction);
  m.impl("count_nonzero.out", kCEA, fn<&composite::count_nonzero_out>);
  m.def("logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor");
  m.impl("logsumexp", kCPU, fn<&cpu::logsumexp>);        // one fused kernel
  m.impl("logsumexp", kCEA, fn<&composite::logsumexp>);  // other backends: torch's decomposition
  m.def(
      "logsumexp.out(Tensor self, int[1] dim, bool keepdim=False, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);
  m.impl("logsumexp.out", kCPU, fn<&cpu::logsumexp_out>);
  m.impl("logsumexp.out", kCEA, fn<&composite::logsumexp_out>);

  m.def("cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor");
  m.impl("cumsum", kCPU, fn<&cpu::cumsum>);
  m.def(
      "cumsum.out(Tensor self, int dim, *, ScalarType? dtype=None, Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);
  m.impl("cumsum.out", kCPU, fn<&cpu::cumsum_out>);
  m.def("cumprod(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor");
  m.impl("cumprod", kCPU, fn<&cpu::cumprod>);
  m.def(
      "cumprod.out(Tensor self, int dim, *, ScalarType? dtype=None, Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);
  m.impl("cumprod.out", kCPU, fn<&cpu::cumprod_out>);

  m.def("softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor");
  m.impl("softmax.int", kCIA, fn<&composite::softmax>);
  m.def(
      "softmax.int_out(Tensor self, int dim, ScalarType? dtype=None, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);
  m.impl("softmax.int_out", kCEA, fn<&composite::softmax_out>);
  m.def("_softmax(Tensor self, int dim, bool half_to_float) -> Tensor", kFunction);
  m.impl("_softmax", kCPU, fn<&cpu::_softmax>);
  m.def(
      "_softmax.out(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);
  m.impl("_softmax.out", kCPU, fn<&cpu::_softmax_out>);
  m.def("log_softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor");
  m.impl("log_softmax.int", kCIA, fn<&composite::log_softmax>);
  m.def(
      "log_softmax.int_out(Tensor self, int dim, ScalarType? dtype=None, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);
  m.impl("log_softmax.int_out", kCEA, fn<&composite::log_softmax_out>);
  m.def("_log_softmax(Tensor self, int dim, bool half_to_float) -> Tensor", kFunction);
  m.impl("_log_softmax", kCPU, fn<&cpu::_log_softmax>);
  m.def(
      "_log_softmax.out(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);
  m.impl("_log_softmax.out", kCPU, fn<&cpu::_log_softmax_out>);
});

}  // namespace opscope
