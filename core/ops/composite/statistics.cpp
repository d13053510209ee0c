// The statistics composites (schemas in core/ops/reduce.cpp, rows at the end of this file): cov,
// corrcoef, quantile and nanquantile, CompositeImplicitAutograd as in torch 1.13, each calling
// the ops torch's kernel calls in the same order, so a trace shows the same children and autograd
// differentiates those ops (there is no CovBackward or QuantileBackward node in torch either).
//
// Note [Checks on a 0-d bool tensor]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// torch 1.13 reads a computed condition (weights >= 0, q in [0, 1]) with is_scalar_tensor_true:
// equal(t, ones({}, bool)), so a trace shows the check as ops, not as a read of the data (which
// a tensor subclass could not answer). torch makes the ones with new_ones; opscope, which has no
// aten::new_ones op, with ones.
#include <string_view>
#include <vector>

#include "core/dispatch/Library.h"
#include "core/ops/TensorIterator.h"
#include "core/ops/binary.h"
#include "core/ops/compare.h"
#include "core/ops/copy.h"
#include "core/ops/factories.h"
#include "core/ops/indexing.h"
#include "core/ops/linear.h"
#include "core/ops/reduce.h"
#include "core/ops/shape.h"
#include "core/ops/sorting.h"
#include "core/ops/unary.h"
#include "core/ops/views.h"

namespace opscope::composite {

namespace {

// See Note [Checks on a 0-d bool tensor].
bool is_true(const Tensor& condition) {
  return ops::equal(condition, ops::ones({}, ScalarType::Bool, std::nullopt, condition.device()));
}

}  // namespace

// --- cov, corrcoef
// --------------------------------------------------------------------------------

// self (vars, obs) or (obs), fweights (obs) integral, aweights (obs) floating
//   -> (vars, vars), or () for one variable
// With w = fweights * aweights (either alone, or none: all ones) and avg = sum(self * w, 1) /
// sum(w): (self - avg) @ ((self - avg) * w)^T / norm, norm = sum(w) - correction, or with
// aweights sum(w) - correction * sum(w * aweights) / sum(w); a norm <= 0 becomes 0.
Tensor cov(const Tensor& self, int64_t correction, const Tensor& fweights, const Tensor& aweights) {
  OPSCOPE_CHECK(self.dim() <= 2,
                "cov(): expected input to have two or fewer dimensions but got an input with ",
                self.dim(), " dimensions");
  OPSCOPE_CHECK(self.dtype() != ScalarType::Bool, "cov(): bool dtype is not supported for input");
  Tensor in = self.dim() < 2 ? ops::view(self, {1, -1}) : self;
  const int64_t observations = in.size(1);
  Tensor w;  // fweights * aweights
  if (fweights.defined()) {
    w = fweights;
    OPSCOPE_CHECK(w.dim() <= 1,
                  "cov(): expected fweights to have one or fewer dimensions but got fweights "
                  "with ",
                  w.dim(), " dimensions");
    OPSCOPE_CHECK(is_integral(w.dtype(), false),
                  "cov(): expected fweights to have integral dtype but got fweights with ",
                  cpp_name(w.dtype()), " dtype");
    OPSCOPE_CHECK(w.numel() == observations,
                  "cov(): expected fweights to have the same numel as there are observations in "
                  "the input but got ",
                  w.numel(), " != ", observations);
    OPSCOPE_CHECK(observations == 0 || is_true(ops::ge(ops::min(w), Scalar(0))),
                  "cov(): fweights cannot be negative");
  }
  if (aweights.defined()) {
    const Tensor& aw = aweights;
    OPSCOPE_CHECK(aw.dim() <= 1,
                  "cov(): expected aweights to have one or fewer dimensions but got aweights "
                  "with ",
                  aw.dim(), " dimensions");
    OPSCOPE_CHECK(is_floating(aw.dtype()),
                  "cov(): expected aweights to have floating point dtype but got aweights with ",
                  cpp_name(aw.dtype()), " dtype");
    OPSCOPE_CHECK(aw.numel() == observations,
                  "cov(): expected aweights to have the same numel as there are observations in "
                  "the input but got ",
                  aw.numel(), " != ", observations);
    OPSCOPE_CHECK(observations == 0 || is_true(ops::ge(ops::min(aw), Scalar(0))),
                  "cov(): aweights cannot be negative");
    w = w.defined() ? ops::mul(w, aw) : aw;
  }
  const Tensor w_sum = w.defined() ? ops::sum(w)
                                   : ops::scalar_tensor(Scalar(observations), ScalarType::Int64,
                                                        std::nullopt, in.device());
  OPSCOPE_CHECK(!w.defined() || is_true(ops::ne(w_sum, Scalar(0))),
                "cov(): weights sum to zero, can't be normalized");
  const Tensor avg = ops::div(ops::sum(w.defined() ? ops::mul(in, w) : in, IntArrayRef{1}), w_sum);
  Tensor norm_factor =
      w.defined() && aweights.defined() && correction != 0
          ? ops::sub(w_sum,
                     ops::div(ops::mul(ops::sum(ops::mul(w, aweights)), Scalar(correction)), w_sum))
          : ops::sub(w_sum, Scalar(correction));
  // torch warns "cov(): degrees of freedom is <= 0" here (opscope has no C++ warnings yet)
  if (is_true(ops::le(norm_factor, Scalar(0)))) ops::zero_(norm_factor);
  in = ops::sub(in, ops::unsqueeze(avg, 1));
  const Tensor c = ops::mm(in, ops::t(w.defined() ? ops::mul(in, w) : in));
  return ops::squeeze(ops::true_divide(c, norm_factor));
}

// self (vars, obs) or (obs) -> (vars, vars) or (): cov / (stddev_i stddev_j), clipped to [-1, 1]
Tensor corrcoef(const Tensor& self) {
  OPSCOPE_CHECK(self.dim() <= 2,
                "corrcoef(): expected input to have two or fewer dimensions but got an input "
                "with ",
                self.dim(), " dimensions");
  Tensor c = ops::cov(self);
  if (c.dim() == 0) return ops::div(c, c);  // NaN for a covariance of 0, inf or NaN, else 1
  const Tensor stddev = ops::sqrt(ops::diag(c));
  c = ops::div(c, ops::view(stddev, {-1, 1}));
  c = ops::div(c, ops::view(stddev, {1, -1}));
  return ops::clip(c, Scalar(-1), Scalar(1));
}

// --- quantile, nanquantile
// --------------------------------------------------------------------------

namespace {

enum class Interpolation { Linear, Lower, Higher, Midpoint, Nearest };

Interpolation interpolation_of(std::string_view name) {
  if (name == "linear") return Interpolation::Linear;
  if (name == "lower") return Interpolation::Lower;
  if (name == "higher") return Interpolation::Higher;
  if (name == "midpoint") return Interpolation::Midpoint;
  if (name == "nearest") return Interpolation::Nearest;
  throw Error(detail::str(
      "quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, but "
      "got ",
      name));
}

void check_quantile_args(const Tensor& self, const Tensor& q) {
  OPSCOPE_CHECK(self.numel() > 0, "quantile() input tensor must be non-empty");
  OPSCOPE_CHECK(q.dim() <= 1, "quantile() q must be a scalar or 1D tensor");
  OPSCOPE_CHECK(self.dtype() == ScalarType::Float32 || self.dtype() == ScalarType::Float64,
                "quantile() input tensor must be either float or double dtype");
  OPSCOPE_CHECK(self.dtype() == q.dtype(),
                "quantile() q tensor must be same dtype as the input tensor");
  OPSCOPE_CHECK(self.device() == q.device(),
                "quantile() q tensor must be on the same device as the input tensor");
}

void check_quantile_scalar(double q) {
  OPSCOPE_CHECK(q >= 0 && q <= 1, "quantile() q must be in the range [0, 1] but got ", q);
}

// [k] (q 1-D) + self's sizes without dim (all of them when dim is None; size 1 when keepdim)
DimVector quantile_shape(const Tensor& self, const Tensor& q, std::optional<int64_t> dim,
                         bool keepdim, int64_t wrapped) {
  DimVector shape;
  if (dim && self.dim() > 0) {
    shape.assign(self.sizes().begin(), self.sizes().end());
    if (keepdim)
      shape[static_cast<size_t>(wrapped)] = 1;
    else
      shape.erase(shape.begin() + wrapped);
  } else if (keepdim) {
    shape.assign(static_cast<size_t>(self.dim()), 1);
  }
  if (q.dim() > 0) shape.insert(shape.begin(), q.numel());
  return shape;
}

// The reduced dim moved last and sorted (NaN sorts last); the rank q * (n - 1) of each q (of the
// numbers only, for nanquantile; n - 1, so NaN, where quantile meets a NaN) read with gather, the
// two neighbours lerped for linear / midpoint.
Tensor quantile_compute(const Tensor& self, const Tensor& q, std::optional<int64_t> dim,
                        Interpolation interpolation, bool ignore_nan, int64_t wrapped,
                        DimVector shape) {
  // (one op per statement where torch chains methods: C++ leaves argument order open)
  Tensor in_range = ops::ge(q, Scalar(0));
  in_range = ops::logical_and_(in_range, ops::le(q, Scalar(1)));
  OPSCOPE_CHECK(is_true(ops::all(in_range)), "quantile() q values must be in the range [0, 1]");
  Tensor sorted;
  if (!dim)
    sorted = std::get<0>(ops::sort(ops::flatten(self)));
  else if (wrapped == self.dim() - 1)
    sorted = std::get<0>(ops::sort(self));
  else
    sorted = std::get<0>(ops::sort(ops::transpose(ops::unsqueeze(self, -1), wrapped, -1)));

  // Work with q as 1-D ([k, kept sizes...]); sorted viewed as [kept sizes..., n].
  if (q.dim() == 0) shape.insert(shape.begin(), q.numel());
  DimVector in_shape(shape.begin() + 1, shape.end());
  in_shape.push_back(sorted.size(-1));
  sorted = ops::view(sorted, in_shape);
  // ranks are computed in the input's float dtype: past 2^24 float32 cannot name every rank
  OPSCOPE_CHECK(sorted.size(-1) <= (int64_t{1} << 24), "quantile() input tensor is too large");

  Tensor ranks;
  if (ignore_nan) {
    // Ranks among the numbers; a row of NaNs gets rank 0 (its quantile is NaN).
    ranks =
        ops::mul(q, ops::sub(ops::sum(ops::logical_not_(ops::isnan(sorted)), IntArrayRef{-1}, true),
                             Scalar(1)));
    ops::masked_fill_(ranks, ops::lt(ranks, Scalar(0)), Scalar(0));
  } else {
    // A row holding a NaN reads its last element, a NaN.
    const int64_t last = sorted.size(-1) - 1;
    const Tensor pair[] = {ops::mul(q, Scalar(last)), ops::any(ops::isnan(sorted), -1, true)};
    std::vector<Tensor> both = ops::broadcast_tensors(pair);
    ranks = ops::masked_fill(both[0], both[1], Scalar(last));
  }
  if (interpolation == Interpolation::Lower)
    ops::floor_(ranks);
  else if (interpolation == Interpolation::Higher)
    ops::ceil_(ranks);
  else if (interpolation == Interpolation::Nearest)
    ops::round_(ranks);

  const Tensor ranks_below = ops::to(ranks, ScalarType::Int64);
  Tensor values = ops::gather(sorted, -1, ranks_below);
  if (interpolation == Interpolation::Linear || interpolation == Interpolation::Midpoint) {
    const Tensor weights = interpolation == Interpolation::Midpoint
                               ? ops::full_like(ranks, Scalar(0.5))
                               : ops::sub(ranks, ranks_below);
    const Tensor ranks_above = ops::to(ops::ceil_(ranks), ScalarType::Int64);
    ops::lerp_(values, ops::gather(sorted, -1, ranks_above), weights);
  }
  if (q.dim() == 0) {
    ops::squeeze_(values, -1);
  } else {  // the quantiles' dim first
    ops::unsqueeze_(values, 0);
    ops::transpose_(values, 0, -1);
    ops::squeeze_(values, -1);
  }
  return values;
}

template <bool IgnoreNan>
Tensor quantile_impl(const Tensor& self, const Tensor& q, std::optional<int64_t> dim, bool keepdim,
                     std::string_view interpolation) {
  const Interpolation mode = interpolation_of(interpolation);
  check_quantile_args(self, q);
  const int64_t wrapped = wrap_dim(dim.value_or(0), self.dim());
  return quantile_compute(self, q, dim, mode, IgnoreNan, wrapped,
                          quantile_shape(self, q, dim, keepdim, wrapped));
}

template <bool IgnoreNan>
Tensor quantile_out_impl(const Tensor& self, const Tensor& q, std::optional<int64_t> dim,
                         bool keepdim, std::string_view interpolation, const Tensor& out) {
  const Interpolation mode = interpolation_of(interpolation);
  check_quantile_args(self, q);
  OPSCOPE_CHECK(self.dtype() == out.dtype(),
                "quantile() out tensor must be same dtype as the input tensor");
  OPSCOPE_CHECK(self.device() == out.device(),
                "quantile() out tensor must be on the same device as the input tensor");
  const int64_t wrapped = wrap_dim(dim.value_or(0), self.dim());
  DimVector shape = quantile_shape(self, q, dim, keepdim, wrapped);
  resize_output(out, shape);
  ops::copy_(out, quantile_compute(self, q, dim, mode, IgnoreNan, wrapped, shape));
  return out;
}

// q as a 0-d tensor of self's dtype (after torch's range check of the float)
Tensor q_tensor(const Tensor& self, double q) {
  check_quantile_scalar(q);
  return ops::scalar_tensor(Scalar(q), self.dtype(), std::nullopt, self.device());
}

}  // namespace

// self [*s], q () or (k) -> [k, *s without dim] (every dim when dim is None)
template <bool IgnoreNan>
Tensor quantile(const Tensor& self, const Tensor& q, std::optional<int64_t> dim, bool keepdim,
                std::string_view interpolation) {
  return quantile_impl<IgnoreNan>(self, q, dim, keepdim, interpolation);
}
template <bool IgnoreNan>
Tensor quantile_out(const Tensor& self, const Tensor& q, std::optional<int64_t> dim, bool keepdim,
                    std::string_view interpolation, const Tensor& out) {
  return quantile_out_impl<IgnoreNan>(self, q, dim, keepdim, interpolation, out);
}
template <bool IgnoreNan>
Tensor quantile_scalar(const Tensor& self, double q, std::optional<int64_t> dim, bool keepdim,
                       std::string_view interpolation) {
  return quantile_impl<IgnoreNan>(self, q_tensor(self, q), dim, keepdim, interpolation);
}
template <bool IgnoreNan>
Tensor quantile_scalar_out(const Tensor& self, double q, std::optional<int64_t> dim, bool keepdim,
                           std::string_view interpolation, const Tensor& out) {
  return quantile_out_impl<IgnoreNan>(self, q_tensor(self, q), dim, keepdim, interpolation, out);
}

static Library composite_implicit_statistics(
    Library::IMPL, "aten", DispatchKey::CompositeImplicitAutograd, [](Library& m) {
      m.impl("cov", fn<&cov>);
      m.impl("corrcoef", fn<&corrcoef>);
      m.impl("quantile", fn<&quantile<false>>);
      m.impl("quantile.out", fn<&quantile_out<false>>);
      m.impl("quantile.scalar", fn<&quantile_scalar<false>>);
      m.impl("quantile.scalar_out", fn<&quantile_scalar_out<false>>);
      m.impl("nanquantile", fn<&quantile<true>>);
      m.impl("nanquantile.out", fn<&quantile_out<true>>);
      m.impl("nanquantile.scalar", fn<&quantile_scalar<true>>);
      m.impl("nanquantile.scalar_out", fn<&quantile_scalar_out<true>>);
    });

}  // namespace opscope::composite
