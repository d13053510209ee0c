// Composite kernels of the distances (schemas in core/ops/linalg.cpp, CPU kernels in
// core/ops/cpu/distance.cpp), calling the ops torch 1.13's do, so a trace reads the same:
//   cdist (CompositeImplicitAutograd): p = 2 on more than 25 rows (compute_mode None / 0) or
//     always (compute_mode 1) -> the batch dims expanded and viewed as one, _euclidean_dist, a
//     view back; otherwise, and for empty operands, _cdist_forward (node CdistBackward0);
//   _euclidean_dist (CompositeExplicitAutograd, node EuclideanDistBackward0): one product of
//     [-2 x1, |x1|^2, 1] and [x2, 1, |x2|^2], clamped at 1e-30 and square-rooted;
//   pdist (CompositeImplicitAutograd): checks, then _pdist_forward of the contiguous input;
//   dist (CompositeExplicitAutograd, node DistBackward0): norm(self - other, p).
#include <cmath>

#include "core/dispatch/Library.h"
#include "core/ops/TensorIterator.h"
#include "core/ops/binary.h"
#include "core/ops/compare.h"
#include "core/ops/copy.h"
#include "core/ops/factories.h"
#include "core/ops/linalg.h"
#include "core/ops/linear.h"
#include "core/ops/reduce.h"
#include "core/ops/shape.h"
#include "core/ops/unary.h"
#include "core/ops/views.h"

namespace opscope::composite {

namespace {

// norm.Scalar(Tensor self, Scalar p=2) -> Tensor: the p-norm of every element
inline constexpr Op<Tensor(const Tensor&, const Scalar&)> norm_scalar{"aten::norm.Scalar"};

// x.contiguous() as torch's Tensor method: the op runs only when x is not contiguous.
Tensor contiguous(const Tensor& x) {
  return x.is_contiguous() ? x : ops::contiguous(x);
}

// x1 (*a,r1,m), x2 (*b,r2,m) -> ||x1_i - x2_j||_p (broadcast(a, b),r1,r2)
Tensor cdist(const Tensor& x1, const Tensor& x2, double p, std::optional<int64_t> compute_mode) {
  OPSCOPE_CHECK(x1.dim() >= 2, "cdist only supports at least 2D tensors, X1 got: ", x1.dim(),
                "D");
  OPSCOPE_CHECK(x2.dim() >= 2, "cdist only supports at least 2D tensors, X2 got: ", x2.dim(),
                "D");
  OPSCOPE_CHECK(x1.size(-1) == x2.size(-1),
                "X1 and X2 must have the same number of columns. X1: ", x1.size(-1),
                " X2: ", x2.size(-1));
  const int64_t r1 = x1.size(-2), r2 = x2.size(-2), m = x1.size(-1);
  const int64_t mode = compute_mode.value_or(0);
  if (x1.numel() == 0 || x2.numel() == 0 || p != 2 ||
      !(mode == 1 || (mode == 0 && (r1 > 25 || r2 > 25)))) {
    return ops::_cdist_forward(x1, x2, p, compute_mode);
  }
  // torch's cdist_impl, its product branch
  OPSCOPE_CHECK(is_floating(x1.dtype()), "cdist only supports floating-point dtypes, X1 got: ",
                cpp_name(x1.dtype()));
  OPSCOPE_CHECK(is_floating(x2.dtype()), "cdist only supports floating-point dtypes, X2 got: ",
                cpp_name(x2.dtype()));
  OPSCOPE_CHECK(x1.dtype() == x2.dtype(), "expected scalar type ", cpp_name(x1.dtype()),
                " but found ", cpp_name(x2.dtype()));
  OPSCOPE_CHECK(mode >= 0 && mode <= 2, "possible modes: 0, 1, 2, but was: ", mode);
  DimVector batch = broadcast_shapes(DimVector(x1.sizes().begin(), x1.sizes().end() - 2),
                                     DimVector(x2.sizes().begin(), x2.sizes().end() - 2));
  int64_t batch_product = 1;
  for (int64_t d : batch) batch_product *= d;
  auto expanded = [&](const Tensor& x, int64_t rows) {
    DimVector sizes = batch;
    sizes.push_back(rows);
    sizes.push_back(m);
    return ops::view(contiguous(ops::expand(x, sizes, false)), {batch_product, rows, m});
  };
  Tensor e1 = expanded(x1, r1), e2 = expanded(x2, r2);
  DimVector out_sizes = batch;
  out_sizes.push_back(r1);
  out_sizes.push_back(r2);
  if (m == 0) return ops::zeros(out_sizes, x1.dtype(), std::nullopt, x1.device());  // (r1, r2 > 0 here)
  Tensor dist = batch_product == 1 ? ops::_euclidean_dist(x1, x2) : ops::_euclidean_dist(e1, e2);
  return ops::view(dist, out_sizes);
}

// x1 (*,r1,m), x2 (*,r2,m) -> sqrt(max(|x1_i|^2 - 2 x1_i . x2_j + |x2_j|^2, 1e-30)) (*,r1,r2)
Tensor _euclidean_dist(const Tensor& x1, const Tensor& x2) {
  std::array<int64_t, 1> last{-1};
  Tensor x1_norm = ops::sum(ops::pow(x1, Scalar(2)), IntArrayRef(last), true, std::nullopt);
  Tensor x1_pad = ops::ones_like(x1_norm);
  Tensor x2_norm = ops::sum(ops::pow(x2, Scalar(2)), IntArrayRef(last), true, std::nullopt);
  Tensor x2_pad = ops::ones_like(x2_norm);
  std::array<Tensor, 3> a{ops::mul(x1, Scalar(-2)), x1_norm, x1_pad};
  std::array<Tensor, 3> b{x2, x2_pad, x2_norm};
  Tensor result = ops::matmul(ops::cat(a, -1), ops::mT(ops::cat(b, -1)));
  ops::clamp_min_(result, Scalar(1e-30));
  return ops::sqrt_(result);
}

// self, other broadcast -> ||self - other||_p (0-d): torch's norm of the difference
Tensor dist(const Tensor& self, const Tensor& other, const Scalar& p) {
  return norm_scalar(ops::sub(self, other), p);
}

// self (n,m), p >= 0 -> the distance of every row pair i < j (n(n-1)/2)
Tensor pdist(const Tensor& self, double p) {
  OPSCOPE_CHECK(self.dim() == 2, "pdist only supports 2D tensors, got: ", self.dim(), "D");
  OPSCOPE_CHECK(is_floating(self.dtype()), "pdist only supports floating-point dtypes");
  OPSCOPE_CHECK(p >= 0, "pdist only supports non-negative p values");
  return ops::_pdist_forward(contiguous(self), p);
}

}  // namespace

static Library composite_implicit_distance(
    Library::IMPL, "aten", DispatchKey::CompositeImplicitAutograd, [](Library& m) {
      m.impl("cdist", fn<&cdist>);
      m.impl("pdist", fn<&pdist>);
    });

static Library composite_explicit_distance(
    Library::IMPL, "aten", DispatchKey::CompositeExplicitAutograd, [](Library& m) {
      m.impl("_euclidean_dist", fn<&_euclidean_dist>);
      m.impl("dist", fn<&dist>);
    });

}  // namespace opscope::composite
