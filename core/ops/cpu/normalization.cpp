// CPU kernels of native_layer_norm, native_layer_norm_backward, native_group_norm,
// native_group_norm_backward and native_batch_norm (declared in core/ops/nn.cpp, registered at
// the end of this file).
//
// native_group_norm: see Note [Group norm as a layer norm per group] below.
//
// native_batch_norm: see Note [Batch norm, one pass per channel] below.
//
// Semantically, for each of the M rows of N = prod(normalized_shape) trailing elements:
//   mean = sum(x) / N,  rstd = 1 / sqrt(sum((x - mean)^2) / N + eps),
//   y = (x - mean) * rstd * weight + bias.
// As torch 1.13 (layer_norm.cpp, cpu/layer_norm_kernel.cpp): float32 and bfloat16 accumulate in
// float, float64 in double; mean and rstd come back in the input's dtype with shape
// (*batch, 1, ..., 1). Rows are split over threads; the statistics take two passes over the row
// (it is in cache), which is as exact as torch's Welford and vectorizes.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/dispatch/Library.h"
#include "core/ops/arg_checks.h"
#include "core/ops/copy.h"
#include "core/ops/cpu/Loops.h"
#include "core/ops/nn.h"
#include "core/ops/views.h"

namespace opscope::cpu {

namespace {

// One row: x (N) -> y (N), its mean and rstd. gamma / beta may be null.
template <typename T, typename A>
OPSCOPE_VECTOR_CLONES void layer_norm_row(const T* x, T* y, int64_t N, const T* gamma,
                                          const T* beta, A eps, A* mean_out, A* rstd_out) {
  A sum = 0;
#pragma omp simd reduction(+ : sum)
  for (int64_t j = 0; j < N; ++j) sum += A(x[j]);
  const A mean = sum / A(N);
  A sq = 0;
#pragma omp simd reduction(+ : sq)
  for (int64_t j = 0; j < N; ++j) {
    const A d = A(x[j]) - mean;
    sq += d * d;
  }
  const A var = std::max(sq / A(N), A(0));
  const A rstd = A(1) / std::sqrt(var + eps);
  // (x - mean) * rstd rather than torch's x * rstd - mean * rstd: no cancellation when the
  // variance is tiny against the mean.
  if (gamma != nullptr && beta != nullptr) {
#pragma omp simd
    for (int64_t j = 0; j < N; ++j)
      y[j] = static_cast<T>((A(x[j]) - mean) * rstd * A(gamma[j]) + A(beta[j]));
  } else if (gamma != nullptr) {
#pragma omp simd
    for (int64_t j = 0; j < N; ++j) y[j] = static_cast<T>((A(x[j]) - mean) * rstd * A(gamma[j]));
  } else if (beta != nullptr) {
#pragma omp simd
    for (int64_t j = 0; j < N; ++j) y[j] = static_cast<T>((A(x[j]) - mean) * rstd + A(beta[j]));
  } else {
#pragma omp simd
    for (int64_t j = 0; j < N; ++j) y[j] = static_cast<T>((A(x[j]) - mean) * rstd);
  }
  *mean_out = mean;
  *rstd_out = rstd;
}

Tensor contiguous_or_self(const Tensor& t) {
  return !t.defined() || t.is_contiguous() ? t : ops::contiguous(t);
}

}  // namespace

// input (*, N1..Nk) -> (out (*, N1..Nk), mean (*, 1..1), rstd (*, 1..1))
std::tuple<Tensor, Tensor, Tensor> native_layer_norm(const Tensor& input,
                                                     IntArrayRef normalized_shape,
                                                     const Tensor& weight, const Tensor& bias,
                                                     double eps) {
  const auto [M, N] = checks::layer_norm_inputs(input, normalized_shape, weight, bias);
  const Tensor X = contiguous_or_self(input);
  const Tensor gamma = contiguous_or_self(weight);
  const Tensor beta = contiguous_or_self(bias);
  Tensor Y = make_empty(input.sizes(), input.dtype());
  Tensor mean = make_empty({M}, input.dtype());
  Tensor rstd = make_empty({M}, input.dtype());
  if (M > 0) {
    dispatch_dtype(input.dtype(), "LayerNormKernelImpl", [&]<typename T>() {
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> ||
                    std::is_same_v<T, BFloat16>) {
        using A = acc_type_t<T>;
        if (gamma.defined()) check_read_as(input.dtype(), gamma.dtype());
        if (beta.defined()) check_read_as(input.dtype(), beta.dtype());
        const T* x = X.data_ptr<T>();
        T* y = Y.data_ptr<T>();
        const T* g = gamma.defined() ? gamma.data_ptr<T>() : nullptr;
        const T* b = beta.defined() ? beta.data_ptr<T>() : nullptr;
        T* mean_data = mean.data_ptr<T>();
        T* rstd_data = rstd.data_ptr<T>();
        const A eps_a = static_cast<A>(eps);
        parallel_for(0, M, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(N, 1)),
                     [&](int64_t begin, int64_t end) {
                       for (int64_t i = begin; i < end; ++i) {
                         A m, r;
                         layer_norm_row<T, A>(x + i * N, y + i * N, N, g, b, eps_a, &m, &r);
                         mean_data[i] = static_cast<T>(m);
                         rstd_data[i] = static_cast<T>(r);
                       }
                     });
      } else {
        throw Error(detail::str("\"LayerNormKernelImpl\" not implemented for '",
                                cpp_name(input.dtype()), "'"));
      }
    });
  }
  const auto axis = static_cast<size_t>(input.dim()) - normalized_shape.size();
  DimVector stat_shape(input.sizes().begin(), input.sizes().begin() + axis);
  for (size_t i = axis; i < static_cast<size_t>(input.dim()); ++i) stat_shape.push_back(1);
  return {Y, ops::view(mean, stat_shape), ops::view(rstd, stat_shape)};
}

// Note [Layer norm's gradient in one pass per row]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// For a row x (N) with its saved mean and rstd, xhat = (x - mean) rstd and dxhat = dy gamma:
//   dx = rstd (dxhat - sum(dxhat) / N - xhat sum(dxhat xhat) / N),
//   dgamma += dy xhat, dbeta += dy (summed over the rows).
// (torch 1.13's LayerNormBackwardKernelImpl computes the same dx as a dy gamma + b x + c.) Each
// row is read twice (the two sums, then dx with the column sums), in cache. The column sums are
// split over at most kLayerNormChunks blocks of rows (of at least kGrainSize elements each),
// each summing into its own slice of a buffer, then added in block order: the same bits at any
// thread count.
constexpr int64_t kLayerNormChunks = 64;

// dxhat_j = dy_j gamma_j, or dy_j without a weight (a template argument: a null gamma read under
// a run-time test would keep the loops from vectorizing).
template <bool Affine, typename T, typename A>
inline A dxhat_at(const T* dy, const T* gamma, int64_t j) {
  if constexpr (Affine) return A(dy[j]) * A(gamma[j]);
  return A(dy[j]);
}

// One row: the two sums, then dx and the row's share of the column sums in one pass. Which of
// them are wanted is a template argument too (a store under a run-time test would not vectorize).
template <bool Affine, bool Dx, bool Columns, typename T, typename A>
OPSCOPE_VECTOR_CLONES void layer_norm_backward_row(const T* dy, const T* x, const T* gamma,
                                                   A mean, A rstd, int64_t N, T* dx, A* dgamma,
                                                   A* dbeta) {
  A s1 = 0, s2 = 0;
#pragma omp simd reduction(+ : s1, s2)
  for (int64_t j = 0; j < N; ++j) {
    const A dxhat = dxhat_at<Affine, T, A>(dy, gamma, j);
    s1 += dxhat;
    s2 += dxhat * (A(x[j]) - mean) * rstd;
  }
  const A m1 = s1 / A(N), m2 = s2 / A(N);
#pragma omp simd
  for (int64_t j = 0; j < N; ++j) {
    const A g = A(dy[j]), xhat = (A(x[j]) - mean) * rstd;
    if constexpr (Dx) {
      const A d = rstd * (dxhat_at<Affine, T, A>(dy, gamma, j) - m1 - xhat * m2);
      dx[j] = static_cast<T>(d);
    }
    if constexpr (Columns) {
      dgamma[j] += g * xhat;
      dbeta[j] += g;
    }
  }
}

template <bool Affine, typename T, typename A>
void layer_norm_backward_rows(const T* dy, const T* x, const T* gamma, const T* mu, const T* rs,
                              int64_t begin, int64_t end, int64_t N, T* dx, A* dgamma, A* dbeta) {
  for (int64_t i = begin; i < end; ++i) {
    const T* dyr = dy + i * N;
    const T* xr = x + i * N;
    if (dx != nullptr && dgamma != nullptr)
      layer_norm_backward_row<Affine, true, true>(dyr, xr, gamma, A(mu[i]), A(rs[i]), N,
                                                  dx + i * N, dgamma, dbeta);
    else if (dx != nullptr)
      layer_norm_backward_row<Affine, true, false>(dyr, xr, gamma, A(mu[i]), A(rs[i]), N,
                                                   dx + i * N, dgamma, dbeta);
    else
      layer_norm_backward_row<Affine, false, true>(dyr, xr, gamma, A(mu[i]), A(rs[i]), N, dx,
                                                   dgamma, dbeta);
  }
}

// grad_out, input (*, N1..Nk), mean / rstd (one per row) -> (grad_input (*, N1..Nk),
// grad_weight (N1..Nk), grad_bias (N1..Nk)) as output_mask asks; see the Note above.
std::tuple<Tensor, Tensor, Tensor> native_layer_norm_backward(
    const Tensor& grad_out, const Tensor& input, IntArrayRef normalized_shape, const Tensor& mean,
    const Tensor& rstd, const Tensor& weight, const Tensor& bias, IntArrayRef output_mask) {
  const auto [M, N] = checks::layer_norm_backward_args(grad_out, input, normalized_shape, mean,
                                                       rstd, weight, bias, output_mask);
  const ScalarType dtype = input.dtype();
  Tensor dX = output_mask[0] != 0 ? make_empty(input.sizes(), dtype) : Tensor();
  Tensor dgamma = output_mask[1] != 0 && weight.defined() ? make_empty(weight.sizes(), dtype)
                                                          : Tensor();
  Tensor dbeta = output_mask[2] != 0 && bias.defined() ? make_empty(bias.sizes(), dtype)
                                                       : Tensor();
  dispatch_dtype(dtype, "LayerNormBackwardKernelImpl", [&]<typename T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> ||
                  std::is_same_v<T, BFloat16>) {
      using A = acc_type_t<T>;
      if (weight.defined()) check_read_as(dtype, weight.dtype());
      check_read_as(dtype, grad_out.dtype());
      check_read_as(dtype, mean.dtype());
      check_read_as(dtype, rstd.dtype());
      const Tensor DY = contiguous_or_self(grad_out), X = contiguous_or_self(input);
      const Tensor gamma = contiguous_or_self(weight);
      const Tensor means = contiguous_or_self(mean), rstds = contiguous_or_self(rstd);
      const T* dy = DY.data_ptr<T>();
      const T* x = X.data_ptr<T>();
      const T* g = gamma.defined() ? gamma.data_ptr<T>() : nullptr;
      const T* mu = means.data_ptr<T>();
      const T* rs = rstds.data_ptr<T>();
      T* dx = dX.defined() ? dX.data_ptr<T>() : nullptr;
      // Blocks of at least kGrainSize elements (a small input is one block, on this thread); the
      // count depends on the shape alone, so the column sums' bits do too.
      const int64_t chunks =
          std::clamp<int64_t>(M * N / kGrainSize, 1, std::min(M, kLayerNormChunks));
      const bool columns = dgamma.defined() || dbeta.defined();
      if (dx == nullptr && !columns) return;  // nothing asked for
      std::vector<A> partial(columns ? static_cast<size_t>(chunks * 2 * N) : 0, A(0));
      parallel_for(0, chunks, 1, [&](int64_t begin, int64_t end) {
        for (int64_t c = begin; c < end; ++c) {
          // Both column sums into this block's slice whenever either is wanted.
          A* pg = columns ? partial.data() + c * 2 * N : nullptr;
          A* pb = columns ? partial.data() + c * 2 * N + N : nullptr;
          const int64_t first = c * M / chunks, last = (c + 1) * M / chunks;
          if (g != nullptr)
            layer_norm_backward_rows<true, T, A>(dy, x, g, mu, rs, first, last, N, dx, pg, pb);
          else
            layer_norm_backward_rows<false, T, A>(dy, x, g, mu, rs, first, last, N, dx, pg, pb);
        }
      });
      for (int64_t half = 0; half < 2; ++half) {
        const Tensor& out = half == 0 ? dgamma : dbeta;
        if (!out.defined()) continue;
        T* o = out.data_ptr<T>();
        for (int64_t j = 0; j < N; ++j) {
          A sum = 0;
          for (int64_t c = 0; c < chunks; ++c) sum += partial[c * 2 * N + half * N + j];
          o[j] = static_cast<T>(sum);
        }
      }
    } else {
      throw Error(detail::str("\"LayerNormBackwardKernelImpl\" not implemented for '",
                              cpp_name(dtype), "'"));
    }
  });
  return {dX, dgamma, dbeta};
}

// Note [Batch norm, one pass per channel]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Semantically, for each channel c of input (N, C, *) with its n = N * prod(*) values:
//   training: mean = sum(x) / n, var = sum((x - mean)^2) / n (biased), invstd = 1/sqrt(var + eps);
//             running_mean = (1 - momentum) running_mean + momentum mean,
//             running_var  = (1 - momentum) running_var  + momentum var * n / (n - 1);
//   eval:     mean = running_mean, invstd = 1 / sqrt(running_var + eps);
//   y = (x - mean) invstd weight + bias.
// In implementation terms the input is read as (N, C, S) contiguous; channels are split over
// threads. Each channel's statistics take one pass that sums x - K and (x - K)^2 in double, K
// the channel's first value (the shift keeps E[(x-K)^2] - E[x-K]^2 free of the cancellation that
// E[x^2] - E[x]^2 has when |mean| >> std); the output is a second pass,
// y = (x - mean) scale + bias, scale = invstd weight. (torch writes x scale + (bias - mean scale),
// which loses the low bits of y in float32 when |mean| >> std.)
namespace {

struct ChannelStats {
  double mean, var;  // var biased
};

template <typename T>
ChannelStats channel_stats(const T* x, int64_t N, int64_t C, int64_t S) {
  const double shift = double(x[0]);
  double sum = 0, sq = 0;
  for (int64_t b = 0; b < N; ++b) {
    const T* row = x + b * C * S;
#pragma omp simd reduction(+ : sum, sq)
    for (int64_t j = 0; j < S; ++j) {
      const double d = double(row[j]) - shift;
      sum += d;
      sq += d * d;
    }
  }
  const double n = double(N * S), m = sum / n;
  return {shift + m, std::max(sq / n - m * m, 0.0)};
}

// y = (x - mean) scale + bias over one channel's N runs of S values. The mean is split into
// hi + lo in the accumulation type: x - hi is exact for x near the mean, so a float32 mean's
// rounding does not reach y.
template <typename T>
void channel_affine(const T* x, T* y, int64_t N, int64_t C, int64_t S, double mean, double scale,
                    double bias) {
  using A = acc_type_t<T>;
  const A hi = A(mean), lo = A(mean - double(hi)), a = A(scale), b = A(bias);
  for (int64_t n = 0; n < N; ++n) {
    const T* xr = x + n * C * S;
    T* yr = y + n * C * S;
#pragma omp simd
    for (int64_t j = 0; j < S; ++j) yr[j] = static_cast<T>(((A(xr[j]) - hi) - lo) * a + b);
  }
}

// Inputs whose channel runs are short (S < kShortRun: (N, C) and (N, C, small L)) would give the
// per-channel loops a few elements each; they are read row by row instead: the statistics
// accumulate per column of the W = C * S contiguous columns (vectorized, columns split over
// threads), then fold S columns into each channel; the output is written row by row with
// per-column coefficients.
constexpr int64_t kShortRun = 16;

template <typename T>
void batch_norm_short_runs(const T* x, T* y, int64_t N, int64_t C, int64_t S, const T* g,
                           const T* b, T* rm, T* rv, T* sm, T* si, bool training, bool update,
                           double momentum, double eps) {
  const int64_t W = C * S;
  std::vector<double> mean(static_cast<size_t>(C)), invstd(static_cast<size_t>(C));
  if (training) {
    std::vector<double> sum(static_cast<size_t>(W), 0.0), sq(static_cast<size_t>(W), 0.0);
    std::vector<double> shift(static_cast<size_t>(W), 0.0);  // the channel's first value
    if (N > 0)
      for (int64_t j = 0; j < W; ++j) shift[j] = double(x[(j / S) * S]);
    parallel_for(0, W, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(N, 1)),
                 [&](int64_t begin, int64_t end) {
                   double* s1 = sum.data();
                   double* s2 = sq.data();
                   const double* k = shift.data();
                   for (int64_t n = 0; n < N; ++n) {
                     const T* row = x + n * W;
#pragma omp simd
                     for (int64_t j = begin; j < end; ++j) {
                       const double d = double(row[j]) - k[j];
                       s1[j] += d;
                       s2[j] += d * d;
                     }
                   }
                 });
    const int64_t n = N * S;
    for (int64_t c = 0; c < C; ++c) {
      if (n == 0) {  // nothing to learn from: nan statistics, running ones kept
        sm[c] = si[c] = std::numeric_limits<T>::quiet_NaN();
        mean[c] = invstd[c] = std::numeric_limits<double>::quiet_NaN();
        continue;
      }
      double s1 = 0, s2 = 0;
      for (int64_t j = c * S; j < (c + 1) * S; ++j) {
        s1 += sum[j];
        s2 += sq[j];
      }
      const double m = s1 / double(n), var = std::max(s2 / double(n) - m * m, 0.0);
      mean[c] = shift[c * S] + m;
      invstd[c] = 1.0 / std::sqrt(var + eps);
      sm[c] = static_cast<T>(mean[c]);
      si[c] = static_cast<T>(invstd[c]);
      if (update) {
        const double unbiased = n > 1 ? var * double(n) / double(n - 1)
                                      : std::numeric_limits<double>::infinity();
        rm[c] = static_cast<T>((1 - momentum) * double(rm[c]) + momentum * mean[c]);
        rv[c] = static_cast<T>((1 - momentum) * double(rv[c]) + momentum * unbiased);
      }
    }
  } else {
    for (int64_t c = 0; c < C; ++c) {
      mean[c] = double(rm[c]);
      invstd[c] = 1.0 / std::sqrt(double(rv[c]) + eps);
    }
  }
  using A = acc_type_t<T>;
  std::vector<A> hi(static_cast<size_t>(W)), lo(static_cast<size_t>(W)), scale(static_cast<size_t>(W)),
      bias(static_cast<size_t>(W));
  for (int64_t j = 0; j < W; ++j) {
    const int64_t c = j / S;
    hi[j] = A(mean[c]);
    lo[j] = A(mean[c] - double(hi[j]));
    scale[j] = A(invstd[c] * (g != nullptr ? double(g[c]) : 1.0));
    bias[j] = A(b != nullptr ? double(b[c]) : 0.0);
  }
  parallel_for(0, N, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(W, 1)),
               [&](int64_t begin, int64_t end) {
                 const A* h = hi.data();
                 const A* l = lo.data();
                 const A* a = scale.data();
                 const A* bb = bias.data();
                 for (int64_t n = begin; n < end; ++n) {
                   const T* xr = x + n * W;
                   T* yr = y + n * W;
#pragma omp simd
                   for (int64_t j = 0; j < W; ++j)
                     yr[j] = static_cast<T>(((A(xr[j]) - h[j]) - l[j]) * a[j] + bb[j]);
                 }
               });
}

// A (C) operand read and written as contiguous T: itself, or a contiguous copy written back by
// finish().
struct ChannelVector {
  Tensor given, work;
  explicit ChannelVector(const Tensor& t) : given(t), work(contiguous_or_self(t)) {}
  bool defined() const { return given.defined(); }
  void finish() const {
    if (given.defined() && !work.is_same(given)) ops::copy_(given, work);
  }
};

}  // namespace

// input (N, C, *), weight / bias / running_mean / running_var (C) ->
//   (out (N, C, *), save_mean (C), save_invstd (C)), both (0) in eval mode
std::tuple<Tensor, Tensor, Tensor> native_batch_norm(const Tensor& input, const Tensor& weight,
                                                     const Tensor& bias,
                                                     const Tensor& running_mean,
                                                     const Tensor& running_var, bool training,
                                                     double momentum, double eps) {
  checks::batch_norm_args(input, weight, bias, running_mean, running_var, training);
  const int64_t N = input.size(0), C = input.size(1);
  const int64_t S = C > 0 && N > 0 ? input.numel() / (N * C) : 0;
  const ScalarType dtype = input.dtype();
  const Tensor X = contiguous_or_self(input);
  Tensor Y = make_empty(input.sizes(), dtype);
  Tensor save_mean = make_empty({training ? C : 0}, dtype);
  Tensor save_invstd = make_empty({training ? C : 0}, dtype);
  const Tensor gamma = contiguous_or_self(weight), beta = contiguous_or_self(bias);
  ChannelVector rmean(running_mean), rvar(running_var);
  const bool update = training && rmean.defined() && rvar.defined();
  dispatch_dtype_if(dtype, "batch_norm", kFloatingOnly, [&]<typename T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      const T* x = X.data_ptr<T>();
      T* y = Y.data_ptr<T>();
      const T* g = gamma.defined() ? gamma.data_ptr<T>() : nullptr;
      const T* b = beta.defined() ? beta.data_ptr<T>() : nullptr;
      T* rm = rmean.defined() ? rmean.work.data_ptr<T>() : nullptr;
      T* rv = rvar.defined() ? rvar.work.data_ptr<T>() : nullptr;
      T* sm = training ? save_mean.data_ptr<T>() : nullptr;
      T* si = training ? save_invstd.data_ptr<T>() : nullptr;
      if (S < kShortRun) {
        batch_norm_short_runs(x, y, N, C, S, g, b, rm, rv, sm, si, training, update, momentum, eps);
        return;
      }
      const int64_t n = N * S;
      parallel_for(0, C, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(n, 1)),
                   [&](int64_t begin, int64_t end) {
                     for (int64_t c = begin; c < end; ++c) {
                       double mean, invstd;
                       if (training) {
                         if (n == 0) {  // nothing to learn from: nan statistics, running ones kept
                           sm[c] = si[c] = std::numeric_limits<T>::quiet_NaN();
                           continue;
                         }
                         const ChannelStats st = channel_stats(x + c * S, N, C, S);
                         mean = st.mean;
                         invstd = 1.0 / std::sqrt(st.var + eps);
                         sm[c] = static_cast<T>(mean);
                         si[c] = static_cast<T>(invstd);
                         if (update) {
                           const double unbiased = n > 1 ? st.var * double(n) / double(n - 1)
                                                         : std::numeric_limits<double>::infinity();
                           rm[c] = static_cast<T>((1 - momentum) * double(rm[c]) + momentum * mean);
                           rv[c] = static_cast<T>((1 - momentum) * double(rv[c]) +
                                                  momentum * unbiased);
                         }
                       } else {
                         mean = double(rm[c]);
                         invstd = 1.0 / std::sqrt(double(rv[c]) + eps);
                       }
                       const double scale = invstd * (g != nullptr ? double(g[c]) : 1.0);
                       channel_affine(x + c * S, y + c * S, N, C, S, mean, scale,
                                      b != nullptr ? double(b[c]) : 0.0);
                     }
                   });
    }
  });
  if (update) {
    rmean.finish();
    rvar.finish();
  }
  return {Y, save_mean, save_invstd};
}

// Note [Batch norm backward, two passes]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Per channel, with xmu = x - mean and n = N * prod(*):
//   grad_bias = sum(dy), grad_weight = sum(dy xmu) invstd,
//   training: grad_input = (dy - sum(dy) / n - xmu invstd^2 sum(dy xmu) / n) invstd weight
//   eval:     grad_input = dy invstd weight (mean and invstd from the running statistics).
// The first pass sums (in double), the second writes grad_input; channels split over threads,
// or, for short channel runs, columns of the rows as in the forward.
namespace {

template <typename T>
void batch_norm_backward_kernel(const T* dy, const T* x, T* dx, int64_t N, int64_t C, int64_t S,
                                const std::vector<double>& mean, const std::vector<double>& invstd,
                                const T* w, bool train, double* sum_dy, double* sum_dy_xmu) {
  const int64_t W = C * S;
  const bool short_runs = S < kShortRun;
  // Pass 1: the sums.
  if (short_runs) {
    std::vector<double> s1(static_cast<size_t>(W), 0.0), s2(static_cast<size_t>(W), 0.0);
    std::vector<double> column_mean(static_cast<size_t>(W));
    for (int64_t j = 0; j < W; ++j) column_mean[j] = mean[j / S];
    parallel_for(0, W, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(N, 1)),
                 [&](int64_t begin, int64_t end) {
                   double* a = s1.data();
                   double* b = s2.data();
                   const double* cm = column_mean.data();
                   for (int64_t n = 0; n < N; ++n) {
                     const T* dr = dy + n * W;
                     const T* xr = x + n * W;
#pragma omp simd
                     for (int64_t j = begin; j < end; ++j) {
                       const double g = double(dr[j]);
                       a[j] += g;
                       b[j] += g * (double(xr[j]) - cm[j]);
                     }
                   }
                 });
    for (int64_t c = 0; c < C; ++c) {
      double a = 0, b = 0;
      for (int64_t j = c * S; j < (c + 1) * S; ++j) {
        a += s1[j];
        b += s2[j];
      }
      sum_dy[c] = a;
      sum_dy_xmu[c] = b;
    }
  } else {
    parallel_for(0, C, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(N * S, 1)),
                 [&](int64_t begin, int64_t end) {
                   for (int64_t c = begin; c < end; ++c) {
                     double a = 0, b = 0;
                     const double m = mean[c];
                     for (int64_t n = 0; n < N; ++n) {
                       const T* dr = dy + n * W + c * S;
                       const T* xr = x + n * W + c * S;
#pragma omp simd reduction(+ : a, b)
                       for (int64_t j = 0; j < S; ++j) {
                         const double g = double(dr[j]);
                         a += g;
                         b += g * (double(xr[j]) - m);
                       }
                     }
                     sum_dy[c] = a;
                     sum_dy_xmu[c] = b;
                   }
                 });
  }
  if (dx == nullptr) return;
  // Pass 2: dx = dy k + x p + q per channel (training: k = invstd w, p = -invstd^3 w
  // sum(dy xmu) / n, q = -k sum(dy) / n - mean p; eval: k = invstd w, p = q = 0).
  using A = acc_type_t<T>;
  const double count = double(N * S);
  std::vector<A> kc(static_cast<size_t>(C)), pc(static_cast<size_t>(C)), qc(static_cast<size_t>(C));
  for (int64_t c = 0; c < C; ++c) {
    const double k = invstd[c] * (w != nullptr ? double(w[c]) : 1.0);
    double p = 0, q = 0;
    if (train && count > 0) {
      p = -k * invstd[c] * invstd[c] * sum_dy_xmu[c] / count;
      q = -k * sum_dy[c] / count - mean[c] * p;
    }
    kc[c] = A(k);
    pc[c] = A(p);
    qc[c] = A(q);
  }
  if (short_runs) {  // per-column coefficients, rows
    std::vector<A> kw(static_cast<size_t>(W)), pw(static_cast<size_t>(W)), qw(static_cast<size_t>(W));
    for (int64_t j = 0; j < W; ++j) {
      kw[j] = kc[j / S];
      pw[j] = pc[j / S];
      qw[j] = qc[j / S];
    }
    parallel_for(0, N, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(W, 1)),
                 [&](int64_t begin, int64_t end) {
                   const A* k = kw.data();
                   const A* p = pw.data();
                   const A* q = qw.data();
                   for (int64_t n = begin; n < end; ++n) {
                     const T* dr = dy + n * W;
                     const T* xr = x + n * W;
                     T* out = dx + n * W;
#pragma omp simd
                     for (int64_t j = 0; j < W; ++j)
                       out[j] = static_cast<T>(A(dr[j]) * k[j] + A(xr[j]) * p[j] + q[j]);
                   }
                 });
    return;
  }
  parallel_for(0, N * C, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(S, 1)),
               [&](int64_t begin, int64_t end) {
                 for (int64_t r = begin; r < end; ++r) {  // run r: sample r / C, channel r % C
                   const int64_t c = r % C;
                   const A k = kc[c], p = pc[c], q = qc[c];
                   const T* dr = dy + r * S;
                   const T* xr = x + r * S;
                   T* out = dx + r * S;
#pragma omp simd
                   for (int64_t j = 0; j < S; ++j)
                     out[j] = static_cast<T>(A(dr[j]) * k + A(xr[j]) * p + q);
                 }
               });
}

}  // namespace

// grad_out, input (N, C, *), weight / running / saved statistics (C) ->
//   (grad_input (N, C, *), grad_weight (C), grad_bias (C)), each only when output_mask asks
std::tuple<Tensor, Tensor, Tensor> native_batch_norm_backward(
    const Tensor& grad_out, const Tensor& input, const Tensor& weight, const Tensor& running_mean,
    const Tensor& running_var, const Tensor& save_mean, const Tensor& save_invstd, bool train,
    double eps, IntArrayRef output_mask) {
  const auto [N, C, S] =
      checks::batch_norm_backward_args(input, running_mean, running_var, save_mean, save_invstd,
                                       train, output_mask, "batch_norm_backward_cpu");
  const ScalarType dtype = input.dtype();
  const Tensor& stat_mean = train ? save_mean : running_mean;
  const Tensor& stat_var = train ? save_invstd : running_var;
  const Tensor X = contiguous_or_self(input);
  const Tensor DY = contiguous_or_self(ops::to(grad_out, dtype));
  const Tensor gamma = contiguous_or_self(weight);
  Tensor grad_input = output_mask[0] != 0 ? make_empty(input.sizes(), dtype) : Tensor();
  Tensor grad_weight = output_mask[1] != 0 ? make_empty({C}, dtype) : Tensor();
  Tensor grad_bias = output_mask[2] != 0 ? make_empty({C}, dtype) : Tensor();
  std::vector<double> mean(static_cast<size_t>(C)), invstd(static_cast<size_t>(C));
  std::vector<double> sum_dy(static_cast<size_t>(C), 0.0), sum_dy_xmu(static_cast<size_t>(C), 0.0);
  dispatch_dtype_if(dtype, "batch_norm_backward_cpu", kFloatingOnly, [&]<typename T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      const Tensor m = contiguous_or_self(ops::to(stat_mean, dtype));
      const Tensor v = contiguous_or_self(ops::to(stat_var, dtype));
      for (int64_t c = 0; c < C; ++c) {
        mean[c] = double(m.data_ptr<T>()[c]);
        invstd[c] = train ? double(v.data_ptr<T>()[c]) : 1.0 / std::sqrt(double(v.data_ptr<T>()[c]) + eps);
      }
      if (gamma.defined()) {
        check_read_as(dtype, gamma.dtype());
        OPSCOPE_CHECK(gamma.numel() == C, "weight should contain ", C, " elements not ",
                      gamma.numel());
      }
      batch_norm_backward_kernel<T>(DY.data_ptr<T>(), X.data_ptr<T>(),
                                    grad_input.defined() ? grad_input.data_ptr<T>() : nullptr, N, C, S,
                                    mean, invstd, gamma.defined() ? gamma.data_ptr<T>() : nullptr, train,
                                    sum_dy.data(), sum_dy_xmu.data());
      for (int64_t c = 0; c < C; ++c) {
        if (grad_weight.defined()) grad_weight.data_ptr<T>()[c] = static_cast<T>(sum_dy_xmu[c] * invstd[c]);
        if (grad_bias.defined()) grad_bias.data_ptr<T>()[c] = static_cast<T>(sum_dy[c]);
      }
    }
  });
  return {grad_input, grad_weight, grad_bias};
}

// --- group norm ------------------------------------------------------------------------------

// Note [Group norm as a layer norm per group]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A contiguous input (N, C, HxW) holds each sample's group g (channels g D .. g D + D - 1,
// D = C / group) as one run of M = D HxW elements: its statistics are a layer norm row's (the
// same two passes), and the affine part takes weight[c] / bias[c] per run of HxW. The backward,
// with xhat = (x - mean) rstd and dxhat = dy gamma[c], is layer norm's
//   dx = rstd (dxhat - sum(dxhat) / M - xhat sum(dxhat xhat) / M)
// from two sums per channel, ds_c = sum(dy x) and db_c = sum(dy) over its HxW:
//   sum(dxhat) = sum_c gamma_c db_c,  sum(dxhat xhat) = rstd sum_c gamma_c (ds_c - mean db_c),
// and dgamma_c = sum_n rstd (ds_c - mean db_c), dbeta_c = sum_n db_c. Each (sample, group) is
// one task; ds / db are kept per (sample, channel) and summed over samples in order, so the bits
// do not depend on the thread count. As torch 1.13: float32 and bfloat16 accumulate in float,
// float64 in double; Half and integers are refused ("GroupNormKernelImpl").

namespace {

// One sample's group: M = D HxW elements from x -> y, D channels of HxW with weight gamma[d] /
// bias beta[d] (gamma and beta point at the group's first channel; either may be null).
template <typename T, typename A>
OPSCOPE_VECTOR_CLONES void group_norm_group(const T* x, T* y, int64_t D, int64_t HxW,
                                            const T* gamma, const T* beta, A eps, A* mean_out,
                                            A* rstd_out) {
  const int64_t M = D * HxW;
  A sum = 0;
#pragma omp simd reduction(+ : sum)
  for (int64_t j = 0; j < M; ++j) sum += A(x[j]);
  const A mean = M > 0 ? sum / A(M) : A(0);
  A sq = 0;
#pragma omp simd reduction(+ : sq)
  for (int64_t j = 0; j < M; ++j) {
    const A d = A(x[j]) - mean;
    sq += d * d;
  }
  // no elements: mean 0, variance 0 / 0 (NaN), as torch's moments give
  const A var = M > 0 ? std::max(sq / A(M), A(0)) : std::numeric_limits<A>::quiet_NaN();
  const A rstd = A(1) / std::sqrt(var + eps);
  for (int64_t d = 0; d < D; ++d) {
    const A scale = rstd * (gamma != nullptr ? A(gamma[d]) : A(1));
    const A shift = beta != nullptr ? A(beta[d]) : A(0);
    const T* xc = x + d * HxW;
    T* yc = y + d * HxW;
#pragma omp simd
    for (int64_t j = 0; j < HxW; ++j) yc[j] = static_cast<T>((A(xc[j]) - mean) * scale + shift);
  }
  *mean_out = mean;
  *rstd_out = rstd;
}

template <typename T, typename A>
void group_norm_kernel(const T* x, const T* gamma, const T* beta, int64_t N, int64_t C,
                       int64_t HxW, int64_t group, A eps, T* y, T* mean_out, T* rstd_out) {
  const int64_t D = C / group, M = D * HxW;
  parallel_for(0, N * group, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(M, 1)),
               [&](int64_t begin, int64_t end) {
                 for (int64_t i = begin; i < end; ++i) {
                   const int64_t c0 = (i % group) * D;
                   A mean, rstd;
                   group_norm_group<T, A>(x + i * M, y + i * M, D, HxW,
                                          gamma != nullptr ? gamma + c0 : nullptr,
                                          beta != nullptr ? beta + c0 : nullptr, eps, &mean, &rstd);
                   mean_out[i] = static_cast<T>(mean);
                   rstd_out[i] = static_cast<T>(rstd);
                 }
               });
}

// One sample's group of the backward: the per-channel sums ds / db (D of them), then dx when
// dx is not null. gamma points at the group's first channel (null: 1).
template <typename T, typename A>
OPSCOPE_VECTOR_CLONES void group_norm_backward_group(const T* dy, const T* x, A mean, A rstd,
                                                     const T* gamma, int64_t D, int64_t HxW,
                                                     T* dx, A* ds, A* db) {
  const int64_t M = D * HxW;
  A sum_dxhat = 0, sum_dxhat_xmu = 0;
  for (int64_t d = 0; d < D; ++d) {
    const T* dyc = dy + d * HxW;
    const T* xc = x + d * HxW;
    A s_dyx = 0, s_dy = 0;
#pragma omp simd reduction(+ : s_dyx, s_dy)
    for (int64_t j = 0; j < HxW; ++j) {
      s_dyx += A(dyc[j]) * A(xc[j]);
      s_dy += A(dyc[j]);
    }
    ds[d] = s_dyx;
    db[d] = s_dy;
    const A g = gamma != nullptr ? A(gamma[d]) : A(1);
    sum_dxhat += g * s_dy;
    sum_dxhat_xmu += g * (s_dyx - mean * s_dy);
  }
  if (dx == nullptr || M == 0) return;
  const A m1 = sum_dxhat / A(M), m2 = sum_dxhat_xmu * rstd / A(M);
  for (int64_t d = 0; d < D; ++d) {
    const T* dyc = dy + d * HxW;
    const T* xc = x + d * HxW;
    T* dxc = dx + d * HxW;
    const A g = gamma != nullptr ? A(gamma[d]) : A(1);
#pragma omp simd
    for (int64_t j = 0; j < HxW; ++j) {
      const A xhat = (A(xc[j]) - mean) * rstd;
      dxc[j] = static_cast<T>(rstd * (A(dyc[j]) * g - m1 - xhat * m2));
    }
  }
}

template <typename T, typename A>
void group_norm_backward_kernel(const T* dy, const T* x, const T* mean, const T* rstd,
                                const T* gamma, int64_t N, int64_t C, int64_t HxW, int64_t group,
                                T* dx, A* ds, A* db) {
  const int64_t D = C / group, M = D * HxW;
  parallel_for(0, N * group, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(M, 1)),
               [&](int64_t begin, int64_t end) {
                 for (int64_t i = begin; i < end; ++i) {
                   const int64_t n = i / group, c0 = (i % group) * D;
                   group_norm_backward_group<T, A>(
                       dy + i * M, x + i * M, A(mean[i]), A(rstd[i]),
                       gamma != nullptr ? gamma + c0 : nullptr, D, HxW,
                       dx != nullptr ? dx + i * M : nullptr, ds + n * C + c0, db + n * C + c0);
                 }
               });
}

// The dtypes torch 1.13's GroupNormKernelImpl takes.
inline constexpr auto kGroupNormTypes = []<typename T>() {
  return std::bool_constant<std::is_same_v<T, float> || std::is_same_v<T, double> ||
                            std::is_same_v<T, BFloat16>>{};
};

}  // namespace

// input (N, C, *) with HxW = prod(*) -> (out (N, C, *), mean (N, group), rstd (N, group)); see
// Note [Group norm as a layer norm per group].
std::tuple<Tensor, Tensor, Tensor> native_group_norm(const Tensor& input, const Tensor& weight,
                                                     const Tensor& bias, int64_t N, int64_t C,
                                                     int64_t HxW, int64_t group, double eps) {
  checks::group_norm_inputs(input, weight, bias, C, group);
  OPSCOPE_CHECK(input.numel() == N * C * HxW, "native_group_norm: expected an input of N * C * ",
                "HxW = ", N * C * HxW, " elements, but got input of shape ",
                shape_str(input.sizes()));
  const Tensor X = contiguous_or_self(input);
  const Tensor gamma = contiguous_or_self(weight);
  const Tensor beta = contiguous_or_self(bias);
  Tensor Y = make_empty(input.sizes(), input.dtype());
  Tensor mean = make_empty({N, group}, input.dtype());
  Tensor rstd = make_empty({N, group}, input.dtype());
  dispatch_dtype_if(input.dtype(), "GroupNormKernelImpl", kGroupNormTypes, [&]<typename T>() {
    if (gamma.defined()) check_read_as(input.dtype(), gamma.dtype());
    if (beta.defined()) check_read_as(input.dtype(), beta.dtype());
    group_norm_kernel<T, acc_type_t<T>>(
        X.data_ptr<T>(), gamma.defined() ? gamma.data_ptr<T>() : nullptr,
        beta.defined() ? beta.data_ptr<T>() : nullptr, N, C, HxW, group,
        static_cast<acc_type_t<T>>(eps), Y.data_ptr<T>(), mean.data_ptr<T>(), rstd.data_ptr<T>());
  });
  return {Y, mean, rstd};
}

// grad_out, input (N, C, *), mean / rstd (N, group), weight (C) -> (grad_input (N, C, *),
// grad_weight (C), grad_bias (C)) as output_mask asks; see Note [Group norm as a layer norm per
// group].
std::tuple<Tensor, Tensor, Tensor> native_group_norm_backward(
    const Tensor& grad_out, const Tensor& input, const Tensor& mean, const Tensor& rstd,
    const Tensor& weight, int64_t N, int64_t C, int64_t HxW, int64_t group,
    IntArrayRef output_mask) {
  OPSCOPE_CHECK(output_mask.size() == 3, "native_group_norm_backward: output_mask must have 3 "
                "entries, got ", output_mask.size());
  OPSCOPE_CHECK(group > 0 && C % group == 0, "Expected number of channels in input to be "
                "divisible by num_groups, but got input of shape ", shape_str(input.sizes()),
                " and num_groups=", group);
  OPSCOPE_CHECK(input.numel() == N * C * HxW && grad_out.numel() == input.numel(),
                "native_group_norm_backward: expected grad_out and input of N * C * HxW = ",
                N * C * HxW, " elements, but got grad_out of shape ", shape_str(grad_out.sizes()),
                " and input of shape ", shape_str(input.sizes()));
  OPSCOPE_CHECK(mean.numel() == N * group && rstd.numel() == N * group,
                "native_group_norm_backward: expected mean and rstd of N * group = ", N * group,
                " elements, but got ", mean.numel(), " and ", rstd.numel());
  OPSCOPE_CHECK(!weight.defined() || weight.numel() == C,
                "Expected weight to be a vector of size equal to the number of channels in "
                "input, but got weight of shape ",
                weight.defined() ? shape_str(weight.sizes()) : std::string("[0]"),
                " and input of shape ", shape_str(input.sizes()));
  const ScalarType dtype = input.dtype();
  for (const Tensor* t : {&grad_out, &mean, &rstd}) check_read_as(dtype, t->dtype());
  const Tensor DY = contiguous_or_self(grad_out);
  const Tensor X = contiguous_or_self(input);
  const Tensor mu = contiguous_or_self(mean);
  const Tensor rs = contiguous_or_self(rstd);
  const Tensor gamma = contiguous_or_self(weight);
  Tensor dX = output_mask[0] != 0 ? make_empty(input.sizes(), dtype) : Tensor();
  Tensor dgamma = output_mask[1] != 0 ? make_empty({C}, dtype) : Tensor();
  Tensor dbeta = output_mask[2] != 0 ? make_empty({C}, dtype) : Tensor();
  dispatch_dtype_if(dtype, "GroupNormBackwardKernelImpl", kGroupNormTypes, [&]<typename T>() {
    using A = acc_type_t<T>;
    if (gamma.defined()) check_read_as(dtype, gamma.dtype());
    std::vector<A> ds(static_cast<size_t>(N * C)), db(static_cast<size_t>(N * C));
    group_norm_backward_kernel<T, A>(
        DY.data_ptr<T>(), X.data_ptr<T>(), mu.data_ptr<T>(), rs.data_ptr<T>(),
        gamma.defined() ? gamma.data_ptr<T>() : nullptr, N, C, HxW, group,
        dX.defined() ? dX.data_ptr<T>() : nullptr, ds.data(), db.data());
    const int64_t D = C / group;
    for (int64_t c = 0; c < C; ++c) {
      A sum_w = 0, sum_b = 0;
      for (int64_t n = 0; n < N; ++n) {  // in sample order: the same bits at any thread count
        const size_t k = static_cast<size_t>(n * C + c);
        const A mu_ng = A(mu.data_ptr<T>()[n * group + c / D]);
        sum_w += (ds[k] - mu_ng * db[k]) * A(rs.data_ptr<T>()[n * group + c / D]);
        sum_b += db[k];
      }
      if (dgamma.defined()) dgamma.data_ptr<T>()[c] = static_cast<T>(sum_w);
      if (dbeta.defined()) dbeta.data_ptr<T>()[c] = static_cast<T>(sum_b);
    }
  });
  return {dX, dgamma, dbeta};
}

static Library cpu_normalization(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("native_layer_norm", fn<&native_layer_norm>);
  m.impl("native_batch_norm", fn<&native_batch_norm>);
  m.impl("native_batch_norm_backward", fn<&native_batch_norm_backward>);
  m.impl("native_layer_norm_backward", fn<&native_layer_norm_backward>);
  m.impl("native_group_norm", fn<&native_group_norm>);
  m.impl("native_group_norm_backward", fn<&native_group_norm_backward>);
});

}  // namespace opscope::cpu
