// The device-agnostic composite kernels that stand beside a CPU kernel of the same op: the CPU
// never runs them (its own kernel wins), other backends and the Undefined key (a call with no
// tensor) do. Each is checked here against the CPU kernel, since no other backend is built yet.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "core/ops/copy.h"
#include "core/ops/factories.h"
#include "core/ops/reduce.h"
#include "core/ops/shape.h"
#include "core/ops/views.h"

using namespace opscope;

namespace opscope::composite {
Tensor cat(TensorList tensors, int64_t dim);  // core/ops/composite/shape.cpp
Tensor logsumexp(const Tensor& self, IntArrayRef dim, bool keepdim);  // composite/reduce.cpp
}

namespace {

double max_difference(const Tensor& a, const Tensor& b) {
  REQUIRE(std::vector<int64_t>(a.sizes().begin(), a.sizes().end()) ==
          std::vector<int64_t>(b.sizes().begin(), b.sizes().end()));
  Tensor x = ops::contiguous(ops::to(a, ScalarType::Float64));
  Tensor y = ops::contiguous(ops::to(b, ScalarType::Float64));
  const double* p = static_cast<const double*>(x.data());
  const double* q = static_cast<const double*>(y.data());
  double worst = 0;
  for (int64_t i = 0; i < x.numel(); ++i) {
    if (std::isnan(p[i]) != std::isnan(q[i]) || (std::isinf(p[i]) && p[i] != q[i])) return INFINITY;
    if (std::isfinite(p[i])) worst = std::max(worst, std::abs(p[i] - q[i]));
  }
  return worst;
}

}  // namespace

TEST_CASE("logsumexp's decomposition (other backends) agrees with the CPU's fused kernel") {
  Tensor x = ops::randn({4, 5, 6});
  float* v = static_cast<float*>(x.data());
  v[3] = -std::numeric_limits<float>::infinity();  // one -inf among finite values
  for (int i = 30; i < 36; ++i) v[i] = -std::numeric_limits<float>::infinity();  // a -inf row
  v[40] = std::numeric_limits<float>::infinity();
  for (std::vector<int64_t> dims : {std::vector<int64_t>{2}, {0}, {1, 2}, {0, 2}}) {
    for (bool keepdim : {false, true}) {
      Tensor fused = ops::logsumexp(x, dims, keepdim);
      Tensor decomposed = composite::logsumexp(x, dims, keepdim);
      double d = max_difference(fused, decomposed);
      MESSAGE("logsumexp dims ", dims.size(), " keepdim ", keepdim, ": max difference ", d);
      CHECK(d < 1e-5);
    }
  }
  Tensor ints = ops::arange(Scalar(12), ScalarType::Int64);
  CHECK(composite::logsumexp(ints, std::vector<int64_t>{0}, false).dtype() == ScalarType::Float32);
  CHECK(max_difference(composite::logsumexp(ops::empty({0, 3}), std::vector<int64_t>{0}, false),
                       ops::logsumexp(ops::empty({0, 3}), std::vector<int64_t>{0}, false)) == 0);
}

TEST_CASE("cat's composite (empty + cat.out) agrees with the CPU kernel and refuses no tensors") {
  Tensor a = ops::randn({2, 3}), b = ops::arange(Scalar(6), ScalarType::Int64);
  std::vector<Tensor> parts{a, ops::view(b, {2, 3})};
  for (int64_t dim : {0, 1, -1}) {
    Tensor want = ops::cat(parts, dim), got = composite::cat(parts, dim);
    CHECK(got.dtype() == want.dtype());
    CHECK(max_difference(got, want) == 0);
  }
  CHECK_THROWS_WITH(composite::cat(std::vector<Tensor>{}, 0),
                    doctest::Contains("torch.cat(): expected a non-empty list of Tensors"));
}
