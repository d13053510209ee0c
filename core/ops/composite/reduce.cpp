// Composite kernels of the reduction family (declared in core/ops/reduce.cpp): the overloads torch
// 1.13 defines by another overload, so a trace reads `sum -> sum.dim_IntList`,
// `var.dim -> var.correction`, `softmax.int -> _softmax`.
#include <algorithm>
#include <vector>

#include "core/ops/reduce.h"
#include "core/ops/TensorIterator.h"
#include "core/ops/arg_checks.h"
#include "core/runtime/ScalarConvert.h"
#include "core/ops/indexing.h"
#include "core/dispatch/Library.h"
#include "core/ops/copy.h"
#include "core/ops/cpu/reduce_plan.h"
#include "core/ops/binary.h"
#include "core/ops/unary.h"
#include "core/ops/views.h"
#include "core/ops/compare.h"
#include "core/ops/nn.h"
#include "core/ops/factories.h"
#include "core/ops/shape.h"

namespace opscope::composite {

using OptDims = std::optional<IntArrayRef>;
using OptDtype = std::optional<ScalarType>;

namespace {
std::optional<int64_t> correction_of(bool unbiased) {
  return unbiased ? 1 : 0;
}
}  // namespace

Tensor sum(const Tensor& self, OptDtype dtype) {
  return ops::sum(self, std::nullopt, false, dtype);
}
Tensor sum_all_out(const Tensor& self, OptDtype dtype, const Tensor& out) {
  return ops::sum_out(out, self, std::nullopt, false, dtype);
}
Tensor mean(const Tensor& self, OptDtype dtype) {
  return ops::mean(self, std::nullopt, false, dtype);
}
Tensor prod_all_out(const Tensor& self, OptDtype dtype, const Tensor& out) {
  return cpu::write_out(out, ops::prod(self, dtype ? dtype : OptDtype(out.dtype())));
}

// nanmean: nansum / the count of numbers, as torch 1.13's CompositeImplicitAutograd kernel (the
// count through self != self, logical_not_ and sum)
namespace {
Tensor count_of_numbers(const Tensor& self, OptDims dim, bool keepdim) {
  OPSCOPE_CHECK(is_floating(self.dtype()),
                "nanmean(): expected input to have floating point dtype but got ",
                cpp_name(self.dtype()));
  return ops::sum(ops::logical_not_(ops::ne(self, self)), dim, keepdim, std::nullopt);
}
}  // namespace

Tensor nanmean(const Tensor& self, OptDims dim, bool keepdim, OptDtype dtype) {
  Tensor count = count_of_numbers(self, dim, keepdim);
  return ops::div(ops::nansum(self, dim, keepdim, dtype), count);
}
Tensor nanmean_out(const Tensor& self, OptDims dim, bool keepdim, OptDtype dtype,
                   const Tensor& out) {
  Tensor count = count_of_numbers(self, dim, keepdim);
  return ops::div_(ops::nansum_out(out, self, dim, keepdim, dtype), count);
}

// cummax / cummin: empty results, then the out= form, which sizes them and calls the helper
// (a 0-d self: itself, at index 0), as torch 1.13's CompositeExplicitAutograd kernels.
template <bool Max>
std::tuple<Tensor, Tensor> cumulative_extreme_out(const Tensor& self, int64_t dim, const Tensor& values,
                                       const Tensor& indices) {
  checks::out_dtype(values, self.dtype());
  checks::out_dtype(indices, ScalarType::Int64);
  const int64_t d = wrap_dim(dim, self.dim());
  resize_output(values, self.sizes());
  resize_output(indices, self.sizes());
  if (self.dim() == 0) {
    ops::fill_(values, self);
    ops::fill_(indices, Scalar(0));
  } else if (self.numel() != 0) {
    if constexpr (Max)
      ops::_cummax_helper(self, values, indices, d);
    else
      ops::_cummin_helper(self, values, indices, d);
  }
  return {values, indices};
}
template <bool Max>
std::tuple<Tensor, Tensor> cumulative_extreme(const Tensor& self, int64_t dim) {
  Tensor values = ops::empty(self.sizes(), self.dtype(), {}, self.device());
  Tensor indices = ops::empty(self.sizes(), ScalarType::Int64, {}, self.device());
  if constexpr (Max)
    return ops::cummax_out(self, dim, values, indices);
  else
    return ops::cummin_out(self, dim, values, indices);
}

// grad (self's shape) scatter-added into zeros at indices along dim: each running extreme's
// gradient goes to the element it came from
Tensor cummaxmin_backward(const Tensor& grad, const Tensor& input, const Tensor& indices,
                          int64_t dim) {
  if (input.numel() == 0) return input;
  Tensor zeros = ops::zeros(input.sizes(), input.dtype(), std::nullopt, input.device());
  return ops::scatter_add_(zeros, dim, indices, grad);
}

// logcumsumexp -> _logcumsumexp (a 0-d self: itself, as torch's kernel gives)
Tensor logcumsumexp(const Tensor& self, int64_t dim) {
  return ops::_logcumsumexp(self, dim);
}
Tensor logcumsumexp_out(const Tensor& self, int64_t dim, const Tensor& out) {
  OPSCOPE_CHECK(out.dtype() == self.dtype(), "Expected out tensor to have dtype ",
                typemeta_name(self.dtype()), ", but got ", typemeta_name(out.dtype()), " instead");
  return ops::_logcumsumexp_out(out, self, dim);
}

Tensor norm(const Tensor& self, const Scalar& p) {
  return ops::norm(self, p, {}, false);
}
Tensor norm_scalar_out(const Tensor& self, const Scalar& p, const Tensor& out) {
  return ops::norm_out(out, self, p, {}, false);
}
Tensor norm_dtype(const Tensor& self, const std::optional<Scalar>& p, ScalarType dtype) {
  return ops::norm(self, p, {}, false, dtype);
}
Tensor norm_dtype_all_out(const Tensor& self, const std::optional<Scalar>& p, ScalarType dtype,
                          const Tensor& out) {
  return cpu::write_out(out, ops::norm(self, p, {}, false, dtype));
}

// logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor
// log(sum(exp(self - m), dim)) + m, m the max over dim (0 where it is infinite), as torch 1.13's
// CompositeExplicitAutograd kernel computes it — for backends without a kernel of their own (the
// CPU has a fused one).
Tensor logsumexp(const Tensor& self, IntArrayRef dim, bool keepdim) {
  Tensor x = is_integral(self.dtype(), true) ? ops::to(self, default_dtype()) : self;
  if (x.numel() == 0) return ops::log(ops::sum(ops::exp(x), dim, keepdim, std::nullopt));
  Tensor m = ops::amax(x, dim, /*keepdim=*/true);
  m = ops::where(ops::isinf(m), Scalar(0.0), m);
  Tensor r = ops::add(ops::log(ops::sum(ops::exp(ops::sub(x, m)), dim, true, std::nullopt)), m);
  if (keepdim) return r;
  uint64_t mask = cpu::reduce_dim_mask(dim, x.dim());
  for (int64_t d = x.dim() - 1; d >= 0; --d)
    if (mask >> d & 1) r = ops::squeeze(r, d);
  return r;
}
Tensor logsumexp_out(const Tensor& self, IntArrayRef dim, bool keepdim, const Tensor& out) {
  return cpu::write_out(out, logsumexp(self, dim, keepdim));
}

// max.other(Tensor self, Tensor other) -> Tensor: the elementwise maximum, as torch.max(a, b).
Tensor max_other(const Tensor& self, const Tensor& other) {
  return ops::maximum(self, other);
}
Tensor max_other_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return ops::maximum_out(out, self, other);
}
Tensor min_other(const Tensor& self, const Tensor& other) {
  return ops::minimum(self, other);
}
Tensor min_other_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return ops::minimum_out(out, self, other);
}

// frobenius_norm.dim(Tensor self, int[1] dim, bool keepdim=False) -> Tensor
// sqrt(sum(self * self)) over at most two dims: the 2-norm for one dim (or all, when dim is
// empty), sqrt(sum(self * self, dim)) for two, as torch 1.13 decomposes it.
Tensor frobenius_norm_dim(const Tensor& self, IntArrayRef dim, bool keepdim) {
  OPSCOPE_CHECK(dim.size() <= 2, "Expected at most 2 dimensions, but got ", dim.size(),
                " dimensions instead.");
  if (dim.size() <= 1) return ops::norm(self, Scalar(2), dim, keepdim);
  int64_t d0 = wrap_dim(dim[0], self.dim()), d1 = wrap_dim(dim[1], self.dim());
  OPSCOPE_CHECK(d0 != d1, "Expected dims to be different, got (", dim[0], ", ", dim[1],
                ") instead");
  int64_t dims[2] = {d0, d1};
  return ops::sqrt(ops::sum(ops::mul(self, self), IntArrayRef(dims, 2), keepdim, std::nullopt));
}
Tensor frobenius_norm(const Tensor& self) {
  return ops::norm(self, Scalar(2), {}, false);
}
Tensor frobenius_norm_out(const Tensor& self, IntArrayRef dim, bool keepdim, const Tensor& out) {
  return cpu::write_out(out, frobenius_norm_dim(self, dim, keepdim));
}

Tensor count_nonzero(const Tensor& self, std::optional<int64_t> dim) {
  if (dim) {
    int64_t d[1] = {*dim};
    return ops::count_nonzero(self, IntArrayRef(d, 1));
  }
  return ops::count_nonzero(self, IntArrayRef{});
}

// The out= wrappers torch 1.13 generates (CompositeExplicitAutogradNonFunctional there).
Tensor count_nonzero_out(const Tensor& self, std::optional<int64_t> dim, const Tensor& out) {
  return cpu::write_out(out, count_nonzero(self, dim));
}
Tensor count_nonzero_dims_out(const Tensor& self, IntArrayRef dim, const Tensor& out) {
  return cpu::write_out(out, ops::count_nonzero(self, dim));
}
std::tuple<Tensor, Tensor> var_mean_correction_out(const Tensor& self, OptDims dim,
                                                   std::optional<int64_t> correction, bool keepdim,
                                                   const Tensor& out0, const Tensor& out1) {
  auto [v, m] = ops::var_mean(self, dim, correction, keepdim);
  cpu::write_out(out0, v);
  cpu::write_out(out1, m);
  return {out0, out1};
}
std::tuple<Tensor, Tensor> std_mean_correction_out(const Tensor& self, OptDims dim,
                                                   std::optional<int64_t> correction, bool keepdim,
                                                   const Tensor& out0, const Tensor& out1) {
  auto [s, m] = ops::std_mean(self, dim, correction, keepdim);
  cpu::write_out(out0, s);
  cpu::write_out(out1, m);
  return {out0, out1};
}

Tensor var(const Tensor& self, bool unbiased) {
  return ops::var(self, std::nullopt, correction_of(unbiased), false);
}
Tensor var_dim(const Tensor& self, OptDims dim, bool unbiased, bool keepdim) {
  return ops::var(self, dim, correction_of(unbiased), keepdim);
}
Tensor var_out(const Tensor& self, OptDims dim, bool unbiased, bool keepdim, const Tensor& out) {
  return ops::var_out(out, self, dim, correction_of(unbiased), keepdim);
}
Tensor std(const Tensor& self, bool unbiased) {
  return ops::std(self, std::nullopt, correction_of(unbiased), false);
}
Tensor std_dim(const Tensor& self, OptDims dim, bool unbiased, bool keepdim) {
  return ops::std(self, dim, correction_of(unbiased), keepdim);
}
Tensor std_out(const Tensor& self, OptDims dim, bool unbiased, bool keepdim, const Tensor& out) {
  return ops::std_out(out, self, dim, correction_of(unbiased), keepdim);
}
std::tuple<Tensor, Tensor> var_mean(const Tensor& self, bool unbiased) {
  return ops::var_mean(self, std::nullopt, correction_of(unbiased), false);
}
std::tuple<Tensor, Tensor> var_mean_dim(const Tensor& self, OptDims dim, bool unbiased,
                                        bool keepdim) {
  return ops::var_mean(self, dim, correction_of(unbiased), keepdim);
}
std::tuple<Tensor, Tensor> std_mean(const Tensor& self, bool unbiased) {
  return ops::std_mean(self, std::nullopt, correction_of(unbiased), false);
}
std::tuple<Tensor, Tensor> std_mean_dim(const Tensor& self, OptDims dim, bool unbiased,
                                        bool keepdim) {
  return ops::std_mean(self, dim, correction_of(unbiased), keepdim);
}

// softmax.int: `dtype=` converts the input first; the kernel is _softmax.
Tensor softmax(const Tensor& self, int64_t dim, OptDtype dtype) {
  Tensor in = dtype ? ops::to(self, *dtype) : self;
  return ops::_softmax(in, dim, false);
}
Tensor softmax_out(const Tensor& self, int64_t dim, OptDtype dtype, const Tensor& out) {
  Tensor in = dtype ? ops::to(self, *dtype) : self;
  return ops::_softmax_out(out, in, dim, false);
}
Tensor log_softmax(const Tensor& self, int64_t dim, OptDtype dtype) {
  Tensor in = dtype ? ops::to(self, *dtype) : self;
  return ops::_log_softmax(in, dim, false);
}
Tensor log_softmax_out(const Tensor& self, int64_t dim, OptDtype dtype, const Tensor& out) {
  Tensor in = dtype ? ops::to(self, *dtype) : self;
  return ops::_log_softmax_out(out, in, dim, false);
}

// self (*s) -> size: sums over the leading dims size lacks and, keeping them, over the dims where
// size has 1 and self does not — the gradient of expand(size) -> s, as torch's sum_to. Returns
// self itself when nothing is summed.
Tensor sum_to_size(const Tensor& self, IntArrayRef size) {
  IntArrayRef sizes = self.sizes();
  bool expandable = size.size() <= sizes.size();
  const size_t leading = expandable ? sizes.size() - size.size() : 0;
  for (size_t i = 0; expandable && i < size.size(); ++i)
    expandable = size[i] == 1 || size[i] == sizes[leading + i];
  OPSCOPE_CHECK(expandable, "size {", shape_str(size), "} is not expandable to size {",
                shape_str(sizes), "}.");
  DimVector dims;
  for (size_t i = 0; i < sizes.size(); ++i)
    if (i < leading || (size[i - leading] == 1 && sizes[i] != 1))
      dims.push_back(static_cast<int64_t>(i));
  Tensor result = dims.empty() ? self : ops::sum(self, IntArrayRef(dims), /*keepdim=*/true);
  return leading > 0 ? ops::view(result, size) : result;
}

// --- diff ----------------------------------------------------------------------------------------

// torch 1.13's diff: n rounds of narrow(1, len) - narrow(0, len) along dim (logical_xor for
// bool; the second narrow first, as torch's operands evaluate), after cat(prepend, self,
// append) when either is given; n = 0 gives a copy, n < 0 self.
Tensor diff(const Tensor& self, int64_t n, int64_t dim, const Tensor& prepend,
            const Tensor& append) {
  OPSCOPE_CHECK(self.dim() >= 1, "diff expects input to be at least one-dimensional");
  // torch 1.13 takes a negative n as no difference at all: self itself comes back
  const int64_t d = wrap_dim(dim, self.dim(), false);
  for (const Tensor* other : {&prepend, &append}) {
    if (!other->defined()) continue;
    OPSCOPE_CHECK(self.dim() == other->dim(),
                  "diff expects prepend or append to be the same dimension as input");
    for (int64_t i = 0; i < other->dim(); ++i)
      OPSCOPE_CHECK(other->size(i) == self.size(i) || i == d,
                    "diff expects the shape of tensor to prepend or append to match that of "
                    "input except along the differencing dimension; input.size(",
                    i, ") = ", self.size(i), ", but got tensor.size(", i, ") = ", other->size(i));
  }
  Tensor result = self;
  if (n != 0 && (prepend.defined() || append.defined())) {
    std::vector<Tensor> parts;
    for (const Tensor* t : {&prepend, &self, &append})
      if (t->defined()) parts.push_back(*t);
    result = ops::cat(parts, d);
  }
  if (n == 0) {
    Tensor copy = ops::zeros_like(self);
    return ops::copy_(copy, self);
  }
  int64_t len = result.size(d) - 1;
  n = std::min(n, result.size(d));
  const bool is_bool = self.dtype() == ScalarType::Bool;
  for (int64_t i = 0; i < n; ++i, --len) {
    const Tensor before = ops::narrow(result, d, 0, len);
    const Tensor after = ops::narrow(result, d, 1, len);
    result = is_bool ? ops::logical_xor(after, before) : ops::sub(after, before);
  }
  return result;
}

static Library composite_explicit_reduce(
    Library::IMPL, "aten", DispatchKey::CompositeExplicitAutograd, [](Library& m) {
      m.impl("sum", fn<&sum>);
      m.impl("cummax", fn<&cumulative_extreme<true>>);
      m.impl("cummin", fn<&cumulative_extreme<false>>);
      m.impl("cummax.out", fn<&cumulative_extreme_out<true>>);
      m.impl("cummin.out", fn<&cumulative_extreme_out<false>>);
      m.impl("logcumsumexp", fn<&logcumsumexp>);
      m.impl("logcumsumexp.out", fn<&logcumsumexp_out>);
      m.impl("sum.out", fn<&sum_all_out>);
      m.impl("mean", fn<&mean>);
      m.impl("prod.out", fn<&prod_all_out>);
      m.impl("var_mean.correction_out", fn<&var_mean_correction_out>);
      m.impl("std_mean.correction_out", fn<&std_mean_correction_out>);
      m.impl("norm.Scalar", fn<&norm>);
      m.impl("norm.ScalarOpt_dtype", fn<&norm_dtype>);
      m.impl("norm.Scalar_out", fn<&norm_scalar_out>);
      m.impl("norm.ScalarOpt_dtype_out", fn<&norm_dtype_all_out>);
      m.impl("count_nonzero.dim_IntList_out", fn<&count_nonzero_dims_out>);
      m.impl("count_nonzero", fn<&count_nonzero>);
      m.impl("count_nonzero.out", fn<&count_nonzero_out>);
      m.impl("logsumexp", fn<&logsumexp>);  // other backends: torch's decomposition
      m.impl("logsumexp.out", fn<&logsumexp_out>);
      m.impl("softmax.int_out", fn<&softmax_out>);
      m.impl("log_softmax.int_out", fn<&log_softmax_out>);
    });

static Library composite_implicit_reduce(
    Library::IMPL, "aten", DispatchKey::CompositeImplicitAutograd, [](Library& m) {
      m.impl("diff", fn<&diff>);
      m.impl("cummaxmin_backward", fn<&cummaxmin_backward>);
      m.impl("nanmean", fn<&nanmean>);
      m.impl("nanmean.out", fn<&nanmean_out>);
      m.impl("max.other", fn<&max_other>);
      m.impl("max.out", fn<&max_other_out>);
      m.impl("min.other", fn<&min_other>);
      m.impl("min.out", fn<&min_other_out>);
      m.impl("var", fn<&var>);
      m.impl("var.dim", fn<&var_dim>);
      m.impl("var.out", fn<&var_out>);
      m.impl("std", fn<&std>);
      m.impl("std.dim", fn<&std_dim>);
      m.impl("std.out", fn<&std_out>);
      m.impl("var_mean", fn<&var_mean>);
      m.impl("var_mean.dim", fn<&var_mean_dim>);
      m.impl("std_mean", fn<&std_mean>);
      m.impl("std_mean.dim", fn<&std_mean_dim>);
      m.impl("frobenius_norm", fn<&frobenius_norm>);
      m.impl("frobenius_norm.dim", fn<&frobenius_norm_dim>);
      m.impl("frobenius_norm.out", fn<&frobenius_norm_out>);
      m.impl("softmax.int", fn<&softmax>);
      m.impl("log_softmax.int", fn<&log_softmax>);
      m.impl("sum_to_size", fn<&sum_to_size>);
    });

}  // namespace opscope::composite
