// CPU kernels of the distances (declared in core/ops/linalg.cpp): _cdist_forward / _cdist_backward
// (torch.cdist's direct path) and _pdist_forward / _pdist_backward (torch.pdist).
//
// Semantically the distance of rows u, v (m values each) is ||u - v||_p: for p = 0 the count of
// differing coordinates, p = inf the largest |difference|, otherwise (sum |d_k|^p)^(1/p). Its
// derivative with respect to u_k, given the distance D, is (torch 1.13's per-p formulas):
//   p = 0: 0;  p = 1: sign(d);  p = inf: sign(d) where |d| = D;
//   0 < p < 2: sign(d) |d|^(p-1) / D^(p-1), 0 where D = 0 or (d = 0 and p < 1);
//   p = 2: d / D;  p > 2: d |d|^(p-2) / D^(p-1); 0 where D = 0.
// cdist's batch dims broadcast; the kernels expand both operands to (B, r, m), contiguous, and
// give the gradient for the expanded x1 (autograd sums it back over broadcast dims, as torch's).
#include <cmath>
#include <limits>

#include "core/dispatch/Library.h"
#include "core/ops/TensorIterator.h"
#include "core/ops/copy.h"
#include "core/ops/linalg.h"
#include "core/ops/views.h"
#include "core/runtime/Parallel.h"

namespace opscope::cpu {

namespace {

enum class Norm { Zero, One, LessThanTwo, Two, Inf, General };

Norm norm_of(double p) {
  if (p == 0) return Norm::Zero;
  if (p == 1) return Norm::One;
  if (p == 2) return Norm::Two;
  if (std::isinf(p)) return Norm::Inf;
  return p < 2 ? Norm::LessThanTwo : Norm::General;
}

template <typename T>
T sign(T d) {
  return static_cast<T>((T(0) < d) - (d < T(0)));
}

// ||u - v||_p over m coordinates. The sums run in vector lanes (reassociated, as torch's
// vectorized kernels); the largest difference in order, so that a NaN is passed over as there.
template <Norm N, typename T>
T distance(const T* __restrict u, const T* __restrict v, int64_t m, T p) {
  T acc = 0;
  if constexpr (N == Norm::Inf) {
    for (int64_t k = 0; k < m; ++k) acc = std::max(acc, std::abs(u[k] - v[k]));
    return acc;
  } else if constexpr (N == Norm::Zero) {
#pragma omp simd reduction(+ : acc)
    for (int64_t k = 0; k < m; ++k) acc += u[k] != v[k] ? T(1) : T(0);
    return acc;
  } else if constexpr (N == Norm::One) {
#pragma omp simd reduction(+ : acc)
    for (int64_t k = 0; k < m; ++k) acc += std::abs(u[k] - v[k]);
    return acc;
  } else if constexpr (N == Norm::Two) {
#pragma omp simd reduction(+ : acc)
    for (int64_t k = 0; k < m; ++k) acc += (u[k] - v[k]) * (u[k] - v[k]);
    return std::sqrt(acc);
  } else {
    for (int64_t k = 0; k < m; ++k) acc += std::pow(std::abs(u[k] - v[k]), p);
    return std::pow(acc, T(1) / p);
  }
}

// d(distance)/du_k for a coordinate difference d = u_k - v_k and the distance D.
template <Norm N, typename T>
T slope(T d, T D, T p) {
  if constexpr (N == Norm::Zero) {
    return T(0);
  } else if constexpr (N == Norm::One) {
    return sign(d);
  } else if constexpr (N == Norm::Inf) {
    return sign(d) * static_cast<T>(std::abs(d) == D);
  } else if constexpr (N == Norm::LessThanTwo) {
    if (D == T(0) || (d == T(0) && p < T(1))) return T(0);
    return sign(d) * std::pow(std::abs(d), p - 1) / std::pow(D, p - 1);
  } else if constexpr (N == Norm::Two) {
    return D == T(0) ? T(0) : d / D;
  } else {
    return D == T(0) ? T(0) : d * std::pow(std::abs(d), p - 2) / std::pow(D, p - 1);
  }
}

// Calls fn.template operator()<N>() with N the norm of p.
template <typename F>
void dispatch_norm(double p, F&& fn) {
  switch (norm_of(p)) {
    case Norm::Zero: return fn.template operator()<Norm::Zero>();
    case Norm::One: return fn.template operator()<Norm::One>();
    case Norm::LessThanTwo: return fn.template operator()<Norm::LessThanTwo>();
    case Norm::Two: return fn.template operator()<Norm::Two>();
    case Norm::Inf: return fn.template operator()<Norm::Inf>();
    case Norm::General: return fn.template operator()<Norm::General>();
  }
}

// float32 / float64, under torch's name for the refusal ("cdist" not implemented for 'Half').
template <typename F>
void dispatch_distance_dtype(ScalarType t, const char* name, F&& fn) {
  if (t == ScalarType::Float32) return fn.template operator()<float>();
  if (t == ScalarType::Float64) return fn.template operator()<double>();
  throw Error(detail::str("\"", name, "\" not implemented for '", cpp_name(t), "'"));
}

void check_same_dtype(const Tensor& expected, const Tensor& found) {
  OPSCOPE_CHECK(expected.dtype() == found.dtype(), "expected scalar type ",
                cpp_name(expected.dtype()), " but found ", cpp_name(found.dtype()));
}

// x (*,r,m) expanded to batch + (r,m) and made contiguous: its (B, r, m) data.
Tensor expand_rows(const Tensor& x, IntArrayRef batch) {
  DimVector sizes(batch.begin(), batch.end());
  sizes.push_back(x.size(-2));
  sizes.push_back(x.size(-1));
  return ops::contiguous(ops::expand(x, sizes, false));
}

// The broadcast batch dims of x1 (*a,r1,m) and x2 (*b,r2,m).
DimVector batch_of(const Tensor& x1, const Tensor& x2) {
  DimVector a(x1.sizes().begin(), x1.sizes().end() - 2);
  DimVector b(x2.sizes().begin(), x2.sizes().end() - 2);
  return broadcast_shapes(a, b);
}

int64_t product(IntArrayRef dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

}  // namespace

// x1 (*a,r1,m), x2 (*b,r2,m), p >= 0 -> distances (broadcast(a, b),r1,r2)
Tensor _cdist_forward(const Tensor& x1, const Tensor& x2, double p,
                      std::optional<int64_t> compute_mode) {
  OPSCOPE_CHECK(x1.dim() >= 2, "cdist only supports at least 2D tensors, X1 got: ", x1.dim(),
                "D");
  OPSCOPE_CHECK(x2.dim() >= 2, "cdist only supports at least 2D tensors, X2 got: ", x2.dim(),
                "D");
  OPSCOPE_CHECK(x1.size(-1) == x2.size(-1),
                "X1 and X2 must have the same number of columns. X1: ", x1.size(-1),
                " X2: ", x2.size(-1));
  OPSCOPE_CHECK(is_floating(x1.dtype()), "cdist only supports floating-point dtypes, X1 got: ",
                cpp_name(x1.dtype()));
  OPSCOPE_CHECK(is_floating(x2.dtype()), "cdist only supports floating-point dtypes, X2 got: ",
                cpp_name(x2.dtype()));
  OPSCOPE_CHECK(p >= 0, "cdist only supports non-negative p values");
  OPSCOPE_CHECK(!compute_mode || (*compute_mode >= 0 && *compute_mode <= 2),
                "possible modes: 0, 1, 2, but was: ", compute_mode.value_or(0));
  DimVector batch = batch_of(x1, x2);
  const int64_t r1 = x1.size(-2), r2 = x2.size(-2), m = x1.size(-1);
  DimVector out_sizes = batch;
  out_sizes.push_back(r1);
  out_sizes.push_back(r2);
  Tensor out = make_empty(out_sizes, x1.dtype());
  if (out.numel() == 0) return out;
  if (m == 0) return ops::zero_(out);
  Tensor a = expand_rows(x1, batch), b = expand_rows(x2, batch);
  const int64_t rows = product(batch) * r1;
  dispatch_distance_dtype(x1.dtype(), "cdist", [&]<typename T>() {
    check_same_dtype(x1, x2);
    const T* pa = a.data_ptr<const T>();
    const T* pb = b.data_ptr<const T>();
    T* po = out.data_ptr<T>();
    dispatch_norm(p, [&]<Norm N>() {
      parallel_for(0, rows, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(1, r2 * m)),
                   [&](int64_t begin, int64_t end) {
                     for (int64_t row = begin; row < end; ++row) {
                       const T* u = pa + row * m;
                       const T* v0 = pb + (row / r1) * r2 * m;
                       T* o = po + row * r2;
                       for (int64_t j = 0; j < r2; ++j) o[j] = distance<N>(u, v0 + j * m, m, T(p));
                     }
                   });
    });
  });
  return out;
}

// grad (*,r1,r2), x1 (*a,r1,m), x2 (*b,r2,m), cdist (*,r1,r2) -> the gradient for x1 expanded to
// the batch (*,r1,m): sum over j of grad[i,j] * slope(x1[i] - x2[j], cdist[i,j])
Tensor _cdist_backward(const Tensor& grad, const Tensor& x1, const Tensor& x2, double p,
                       const Tensor& cdist) {
  DimVector batch = batch_of(x1, x2);
  const int64_t r1 = x1.size(-2), r2 = x2.size(-2), m = x1.size(-1);
  DimVector sizes = batch;
  sizes.push_back(r1);
  sizes.push_back(m);
  Tensor out = make_empty(sizes, x1.dtype());
  if (out.numel() == 0) return out;
  if (r2 == 0 || norm_of(p) == Norm::Zero) return ops::zero_(out);
  Tensor a = expand_rows(x1, batch), b = expand_rows(x2, batch);
  DimVector dist_sizes = batch;
  dist_sizes.push_back(r1);
  dist_sizes.push_back(r2);
  Tensor g = ops::contiguous(ops::expand(grad, dist_sizes, false));
  Tensor D = ops::contiguous(ops::expand(cdist, dist_sizes, false));
  const int64_t rows = product(batch) * r1;
  dispatch_distance_dtype(x1.dtype(), "cdist_backward", [&]<typename T>() {
    check_same_dtype(x1, x2);
    check_same_dtype(x1, grad);
    check_same_dtype(x1, cdist);
    const T* pa = a.data_ptr<const T>();
    const T* pb = b.data_ptr<const T>();
    const T* pg = g.data_ptr<const T>();
    const T* pd = D.data_ptr<const T>();
    T* po = out.data_ptr<T>();
    dispatch_norm(p, [&]<Norm N>() {
      parallel_for(0, rows, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(1, r2 * m)),
                   [&](int64_t begin, int64_t end) {
                     for (int64_t row = begin; row < end; ++row) {
                       const T* u = pa + row * m;
                       const T* v0 = pb + (row / r1) * r2 * m;
                       T* o = po + row * m;
                       for (int64_t k = 0; k < m; ++k) o[k] = T(0);
                       for (int64_t j = 0; j < r2; ++j) {
                         const T gj = pg[row * r2 + j], Dj = pd[row * r2 + j];
                         const T* v = v0 + j * m;
#pragma omp simd
                         for (int64_t k = 0; k < m; ++k)
                           o[k] += gj * slope<N>(u[k] - v[k], Dj, T(p));
                       }
                     }
                   });
    });
  });
  return out;
}

// self (n,m) contiguous, p >= 0 -> distances of the pairs i < j, row-major (n(n-1)/2)
Tensor _pdist_forward(const Tensor& self, double p) {
  OPSCOPE_CHECK(self.is_contiguous(), "_pdist_forward requires contiguous input");
  OPSCOPE_CHECK(self.dim() == 2, "pdist only supports 2D tensors, got: ", self.dim(), "D");
  OPSCOPE_CHECK(p >= 0, "pdist only supports non-negative p values");
  const int64_t n = self.size(0), m = self.size(1);
  const int64_t pairs = n > 1 ? n * (n - 1) / 2 : 0;
  Tensor out = make_empty({pairs}, self.dtype());
  dispatch_distance_dtype(self.dtype(), "pdist", [&]<typename T>() {
    if (pairs == 0) return;
    if (m == 0) {
      ops::zero_(out);
      return;
    }
    const T* x = self.data_ptr<const T>();
    T* o = out.data_ptr<T>();
    dispatch_norm(p, [&]<Norm N>() {
      parallel_for(0, n, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(1, n * m / 2)),
                   [&](int64_t begin, int64_t end) {
                     for (int64_t i = begin; i < end; ++i) {
                       // pairs (i, j > i) start after the i rows above: i n - i (i + 1) / 2
                       T* oi = o + i * n - i * (i + 1) / 2 - i - 1;
                       for (int64_t j = i + 1; j < n; ++j)
                         oi[j] = distance<N>(x + i * m, x + j * m, m, T(p));
                     }
                   });
    });
  });
  return out;
}

// grad (n(n-1)/2), self (n,m), pdist (n(n-1)/2) -> the gradient for self (n,m): each pair's
// slope with + for row i, - for row j
Tensor _pdist_backward(const Tensor& grad, const Tensor& self, double p, const Tensor& pdist) {
  OPSCOPE_CHECK(self.is_contiguous(), "_pdist_backward requires self to be contiguous");
  OPSCOPE_CHECK(pdist.is_contiguous(), "_pdist_backward requires pdist to be contiguous");
  const int64_t n = self.size(0), m = self.size(1);
  Tensor out = ops::zero_(make_empty(self.sizes(), self.dtype()));
  if (n <= 1 || m == 0 || norm_of(p) == Norm::Zero) return out;
  Tensor g = ops::contiguous(grad);
  dispatch_distance_dtype(self.dtype(), "pdist_backward", [&]<typename T>() {
    check_same_dtype(self, grad);
    check_same_dtype(self, pdist);
    const T* x = self.data_ptr<const T>();
    const T* pg = g.data_ptr<const T>();
    const T* pd = pdist.data_ptr<const T>();
    T* o = out.data_ptr<T>();
    // One row's gradient at a time, each from every pair it belongs to (no two threads write a
    // row): row r is i in the pairs (r, j > r) and j in the pairs (i < r, r).
    dispatch_norm(p, [&]<Norm N>() {
      auto pair = [n](int64_t i, int64_t j) { return i * n - i * (i + 1) / 2 + (j - i - 1); };
      parallel_for(0, n, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(1, n * m)),
                   [&](int64_t begin, int64_t end) {
                     for (int64_t r = begin; r < end; ++r) {
                       T* orow = o + r * m;
                       const T* u = x + r * m;
                       for (int64_t q = 0; q < n; ++q) {
                         if (q == r) continue;
                         const int64_t k = r < q ? pair(r, q) : pair(q, r);
                         const T* v = x + q * m;
                         const T gk = pg[k], Dk = pd[k];
#pragma omp simd
                         for (int64_t c = 0; c < m; ++c)
                           orow[c] += gk * slope<N>(u[c] - v[c], Dk, T(p));
                       }
                     }
                   });
    });
  });
  return out;
}

static Library cpu_distance(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("_cdist_forward", fn<&_cdist_forward>);
  m.impl("_cdist_backward", fn<&_cdist_backward>);
  m.impl("_pdist_forward", fn<&_pdist_forward>);
  m.impl("_pdist_backward", fn<&_pdist_backward>);
});

}  // namespace opscope::cpu
