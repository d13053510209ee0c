// CPU kernels of _softmax and _log_softmax and their gradients _softmax_backward_data and
// _log_softmax_backward_data (declared in core/ops/reduce.cpp; softmax.int and
// log_softmax.int are CompositeImplicitAutograd over these, as in torch 1.13).
//
// softmax(x)_k = exp(x_k - m) / sum_j exp(x_j - m) and log_softmax(x)_k = x_k - m -
// log(sum_j exp(x_j - m)), m the max along `dim`, so nothing overflows; a row of -inf gives NaN
// as in torch. float32 / float64 / bfloat16 (bfloat16 computes in float); float16 and integers
// raise torch's "softmax_lastdim_kernel_impl" not implemented errors.
//
// In implementation terms the input is read as [outer][dim][inner], contiguous. Along the last
// dim (inner == 1) each row is three vector passes: max, exp and sum, scale. Otherwise whole rows
// are combined element by element. float32 uses exp_f32 (core/ops/cpu/vec_math.h), a polynomial
// that GCC vectorizes (AVX2 and baseline clones). Float compares may be if-converted into vector
// selects (we never read FP exception flags).
#pragma GCC optimize("no-trapping-math", "fp-contract=fast")

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <vector>

#include "core/ops/copy.h"
#include "core/dispatch/Library.h"
#include "core/ops/cpu/reduce_loops.h"
#include "core/ops/cpu/vec_math.h"
#include "core/ops/TensorIterator.h"

namespace opscope::cpu {

namespace {

// One contiguous row of n elements.
template <typename T, bool IsLog>
OPSCOPE_FMA_CLONES void softmax_row(const T* x, T* y, int64_t n) {
  T m = -std::numeric_limits<T>::infinity();
#pragma omp simd reduction(max : m)
  for (int64_t i = 0; i < n; ++i) m = x[i] > m ? x[i] : m;
  T s = 0;
  if constexpr (IsLog) {
#pragma omp simd reduction(+ : s)
    for (int64_t i = 0; i < n; ++i) s += exp_of<T>(x[i] - m);
    T shift = m + std::log(s);
#pragma omp simd
    for (int64_t i = 0; i < n; ++i) y[i] = x[i] - shift;
  } else {
#pragma omp simd reduction(+ : s)
    for (int64_t i = 0; i < n; ++i) {
      T e = exp_of<T>(x[i] - m);
      y[i] = e;
      s += e;
    }
    T inv = T(1) / s;
#pragma omp simd
    for (int64_t i = 0; i < n; ++i) y[i] *= inv;
  }
}

// R rows of w elements, row r at x + r * I, reduced onto each other.
template <typename T, bool IsLog>
OPSCOPE_FMA_CLONES void softmax_columns(const T* x, T* y, int64_t R, int64_t I, int64_t w, T* m,
                                        T* s) {
  for (int64_t j = 0; j < w; ++j) m[j] = -std::numeric_limits<T>::infinity(), s[j] = 0;
  for (int64_t r = 0; r < R; ++r) {
    const T* xr = x + r * I;
#pragma omp simd
    for (int64_t j = 0; j < w; ++j) m[j] = xr[j] > m[j] ? xr[j] : m[j];
  }
  for (int64_t r = 0; r < R; ++r) {
    const T* xr = x + r * I;
    T* yr = y + r * I;
    if constexpr (IsLog) {
#pragma omp simd
      for (int64_t j = 0; j < w; ++j) s[j] += exp_of<T>(xr[j] - m[j]);
    } else {
#pragma omp simd
      for (int64_t j = 0; j < w; ++j) {
        T e = exp_of<T>(xr[j] - m[j]);
        yr[j] = e;
        s[j] += e;
      }
    }
  }
  if constexpr (IsLog) {
    for (int64_t j = 0; j < w; ++j) m[j] += std::log(s[j]);
  } else {
    for (int64_t j = 0; j < w; ++j) s[j] = T(1) / s[j];
  }
  for (int64_t r = 0; r < R; ++r) {
    const T* xr = x + r * I;
    T* yr = y + r * I;
#pragma omp simd
    for (int64_t j = 0; j < w; ++j) {
      if constexpr (IsLog) {
        yr[j] = xr[j] - m[j];
      } else {
        yr[j] *= s[j];
      }
    }
  }
}

// Note [Rows shorter than a vector]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Along a last dim of a few elements (the 10 classes of an MNIST classifier), a row's vector
// passes never fill a vector: every exp runs scalar and each row pays a log and the set-up of
// three loops — 256 x 10 took 16 us, 6 ns an element (torch 1.13: 15 us). So rows of up to
// kShortRow elements go kBlockRows at a time through a small buffer, transposed, where the
// columns kernel below runs one row per vector lane; the backward kernels do the same.
constexpr int64_t kShortRow = 16, kBlockRows = 16;

// Rows o0 .. o0 + rows - 1 of R elements each (row o at x + o * R) into buf, column-major:
// element r of row j at buf[r * kBlockRows + j].
template <typename T>
void gather_short_rows(const T* x, int64_t R, int64_t rows, T* buf) {
  for (int64_t j = 0; j < rows; ++j)
    for (int64_t r = 0; r < R; ++r) buf[r * kBlockRows + j] = x[j * R + r];
}
template <typename T>
void scatter_short_rows(const T* buf, int64_t R, int64_t rows, T* y) {
  for (int64_t j = 0; j < rows; ++j)
    for (int64_t r = 0; r < R; ++r) y[j * R + r] = buf[r * kBlockRows + j];
}

// Calls body(o0, rows) for blocks of kBlockRows of the O rows, in parallel.
template <typename Body>
void for_short_row_blocks(int64_t O, int64_t R, const Body& body) {
  const int64_t blocks = (O + kBlockRows - 1) / kBlockRows;
  parallel_for(0, blocks, std::max<int64_t>(1, kGrainSize / (R * kBlockRows)),
               [&](int64_t b, int64_t e) {
                 for (int64_t k = b; k < e; ++k) {
                   const int64_t o0 = k * kBlockRows;
                   body(o0, std::min(kBlockRows, O - o0));
                 }
               });
}

template <typename T, bool IsLog>
void softmax_kernel(const T* x, T* y, int64_t O, int64_t R, int64_t I) {
  if (I == 1 && R <= kShortRow) {  // Note [Rows shorter than a vector]
    for_short_row_blocks(O, R, [&](int64_t o0, int64_t rows) {
      T in[kShortRow * kBlockRows], out[kShortRow * kBlockRows], m[kBlockRows], s[kBlockRows];
      gather_short_rows(x + o0 * R, R, rows, in);
      softmax_columns<T, IsLog>(in, out, R, kBlockRows, rows, m, s);
      scatter_short_rows(out, R, rows, y + o0 * R);
    });
    return;
  }
  if (I == 1) {
    parallel_for(0, O, std::max<int64_t>(1, kGrainSize / R), [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) softmax_row<T, IsLog>(x + o * R, y + o * R, R);
    });
    return;
  }
  // Columns per task: the tile's R rows (~1 MiB) stay in L2 across the three passes.
  const int64_t kTile = std::clamp<int64_t>((262144 / R) / 16 * 16, 16, 256);
  const int64_t tiles = (I + kTile - 1) / kTile;
  parallel_for(0, O * tiles, std::max<int64_t>(1, kGrainSize / (R * std::min(I, kTile))),
               [&](int64_t b, int64_t e) {
                 std::vector<T> m(kTile), s(kTile);
                 for (int64_t t = b; t < e; ++t) {
                   int64_t o = t / tiles, i0 = (t % tiles) * kTile;
                   int64_t off = o * R * I + i0;
                   softmax_columns<T, IsLog>(x + off, y + off, R, I, std::min(kTile, I - i0),
                                             m.data(), s.data());
                 }
               });
}

template <bool IsLog>
Tensor softmax_impl(const Tensor& self, int64_t dim, bool half_to_float) {
  int64_t d = wrap_dim(dim, self.dim());
  OPSCOPE_CHECK(!half_to_float, "softmax with half to float conversion is not supported on CPU");
  ScalarType t = self.dtype();
  if (self.numel() == 0) return make_empty(self.sizes(), t);  // before the dtype check, as torch
  bool last = self.dim() == 0 || d == self.dim() - 1;
  OPSCOPE_CHECK(t == ScalarType::Float32 || t == ScalarType::Float64 || t == ScalarType::BFloat16,
                "\"", IsLog && last ? "log_" : "", "softmax_", last ? "lastdim_" : "",
                "kernel_impl\" not implemented for '", cpp_name(t), "'");
  if (t == ScalarType::BFloat16)
    return ops::to(softmax_impl<IsLog>(ops::to(self, ScalarType::Float32), dim, false), t);
  Tensor in = contiguous_if_needed(self);
  Tensor out = make_empty(self.sizes(), t);
  if (self.numel() == 0) return out;
  int64_t O = 1, R = 1, I = 1;
  for (int64_t k = 0; k < self.dim(); ++k) (k < d ? O : k == d ? R : I) *= self.size(k);
  if (t == ScalarType::Float32) {
    softmax_kernel<float, IsLog>(in.data_ptr<float>(), out.data_ptr<float>(), O, R, I);
  } else {
    softmax_kernel<double, IsLog>(in.data_ptr<double>(), out.data_ptr<double>(), O, R, I);
  }
  return out;
}

// The input gradient of one contiguous row from its output y and gradient g: y (g - sum(g y))
// for softmax, g - exp(y) sum(g) for log_softmax. Two vector passes.
template <typename T, bool IsLog>
OPSCOPE_FMA_CLONES void softmax_backward_row(const T* g, const T* y, T* gi, int64_t n) {
  T s = 0;
  if constexpr (IsLog) {
#pragma omp simd reduction(+ : s)
    for (int64_t i = 0; i < n; ++i) s += g[i];
#pragma omp simd
    for (int64_t i = 0; i < n; ++i) gi[i] = g[i] - exp_of<T>(y[i]) * s;
  } else {
#pragma omp simd reduction(+ : s)
    for (int64_t i = 0; i < n; ++i) s += g[i] * y[i];
#pragma omp simd
    for (int64_t i = 0; i < n; ++i) gi[i] = y[i] * (g[i] - s);
  }
}

// R rows of w elements, row r at offset r * I: the same, the sums taken element by element.
template <typename T, bool IsLog>
OPSCOPE_FMA_CLONES void softmax_backward_columns(const T* g, const T* y, T* gi, int64_t R,
                                                 int64_t I, int64_t w, T* s) {
  for (int64_t j = 0; j < w; ++j) s[j] = 0;
  for (int64_t r = 0; r < R; ++r) {
    const T *gr = g + r * I, *yr = y + r * I;
#pragma omp simd
    for (int64_t j = 0; j < w; ++j) s[j] += IsLog ? gr[j] : gr[j] * yr[j];
  }
  for (int64_t r = 0; r < R; ++r) {
    const T *gr = g + r * I, *yr = y + r * I;
    T* out = gi + r * I;
#pragma omp simd
    for (int64_t j = 0; j < w; ++j) {
      if constexpr (IsLog) {
        out[j] = gr[j] - exp_of<T>(yr[j]) * s[j];
      } else {
        out[j] = yr[j] * (gr[j] - s[j]);
      }
    }
  }
}

template <typename T, bool IsLog>
void softmax_backward_kernel(const T* g, const T* y, T* gi, int64_t O, int64_t R, int64_t I) {
  if (I == 1 && R <= kShortRow) {  // Note [Rows shorter than a vector]
    for_short_row_blocks(O, R, [&](int64_t o0, int64_t rows) {
      T gb[kShortRow * kBlockRows], yb[kShortRow * kBlockRows], out[kShortRow * kBlockRows],
          s[kBlockRows];
      gather_short_rows(g + o0 * R, R, rows, gb);
      gather_short_rows(y + o0 * R, R, rows, yb);
      softmax_backward_columns<T, IsLog>(gb, yb, out, R, kBlockRows, rows, s);
      scatter_short_rows(out, R, rows, gi + o0 * R);
    });
    return;
  }
  if (I == 1) {
    parallel_for(0, O, std::max<int64_t>(1, kGrainSize / R), [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o)
        softmax_backward_row<T, IsLog>(g + o * R, y + o * R, gi + o * R, R);
    });
    return;
  }
  const int64_t kTile = 256, tiles = (I + kTile - 1) / kTile;
  parallel_for(0, O * tiles, std::max<int64_t>(1, kGrainSize / (R * std::min(I, kTile))),
               [&](int64_t b, int64_t e) {
                 std::vector<T> s(kTile);
                 for (int64_t t = b; t < e; ++t) {
                   int64_t o = t / tiles, i0 = (t % tiles) * kTile;
                   int64_t off = o * R * I + i0;
                   softmax_backward_columns<T, IsLog>(g + off, y + off, gi + off, R, I,
                                                      std::min(kTile, I - i0), s.data());
                 }
               });
}

// grad_output, output [*s] (output read as grad_output's dtype) -> the input's gradient [*s]
template <bool IsLog>
Tensor softmax_backward_impl(const Tensor& grad_output, const Tensor& output, int64_t dim,
                             ScalarType input_dtype) {
  ScalarType t = grad_output.dtype();
  OPSCOPE_CHECK(t == input_dtype, "expected scalar type ", cpp_name(t), " but found ",
                cpp_name(input_dtype));
  IntArrayRef gs = grad_output.sizes(), ys = output.sizes();
  OPSCOPE_CHECK(std::equal(gs.begin(), gs.end(), ys.begin(), ys.end()), "grad_output and output must have the "
                "same shape, got ", shape_str(grad_output.sizes()), " and ",
                shape_str(output.sizes()));
  int64_t d = wrap_dim(dim, grad_output.dim());
  if (grad_output.numel() == 0) return make_empty(grad_output.sizes(), t);
  bool last = grad_output.dim() == 0 || d == grad_output.dim() - 1;
  OPSCOPE_CHECK(t == ScalarType::Float32 || t == ScalarType::Float64 || t == ScalarType::BFloat16,
                "\"", IsLog ? "log_" : "", "softmax_backward_", last ? "lastdim_" : "",
                "kernel_impl\" not implemented for '", cpp_name(t), "'");
  if (t == ScalarType::BFloat16) {
    Tensor f = softmax_backward_impl<IsLog>(ops::to(grad_output, ScalarType::Float32),
                                            ops::to(output, ScalarType::Float32), dim,
                                            ScalarType::Float32);
    return ops::to(f, t);
  }
  Tensor g = contiguous_if_needed(grad_output);
  Tensor y = contiguous_if_needed(output.dtype() == t ? output : ops::to(output, t));
  Tensor gi = make_empty(grad_output.sizes(), t);
  int64_t O = 1, R = 1, I = 1;
  for (int64_t k = 0; k < g.dim(); ++k) (k < d ? O : k == d ? R : I) *= g.size(k);
  if (t == ScalarType::Float32) {
    softmax_backward_kernel<float, IsLog>(g.data_ptr<float>(), y.data_ptr<float>(),
                                          gi.data_ptr<float>(), O, R, I);
  } else {
    softmax_backward_kernel<double, IsLog>(g.data_ptr<double>(), y.data_ptr<double>(),
                                           gi.data_ptr<double>(), O, R, I);
  }
  return gi;
}

}  // namespace

Tensor _softmax_backward_data(const Tensor& grad_output, const Tensor& output, int64_t dim,
                              ScalarType input_dtype) {
  return softmax_backward_impl<false>(grad_output, output, dim, input_dtype);
}
Tensor _log_softmax_backward_data(const Tensor& grad_output, const Tensor& output, int64_t dim,
                                  ScalarType input_dtype) {
  return softmax_backward_impl<true>(grad_output, output, dim, input_dtype);
}

Tensor _softmax(const Tensor& self, int64_t dim, bool half_to_float) {
  return softmax_impl<false>(self, dim, half_to_float);
}
Tensor _softmax_out(const Tensor& self, int64_t dim, bool half_to_float, const Tensor& out) {
  return write_out(out, softmax_impl<false>(self, dim, half_to_float));
}
Tensor _log_softmax(const Tensor& self, int64_t dim, bool half_to_float) {
  return softmax_impl<true>(self, dim, half_to_float);
}
Tensor _log_softmax_out(const Tensor& self, int64_t dim, bool half_to_float, const Tensor& out) {
  return write_out(out, softmax_impl<true>(self, dim, half_to_float));
}

static Library cpu_softmax(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("_softmax", fn<&_softmax>);
  m.impl("_softmax.out", fn<&_softmax_out>);
  m.impl("_log_softmax", fn<&_log_softmax>);
  m.impl("_log_softmax.out", fn<&_log_softmax_out>);
  m.impl("_softmax_backward_data", fn<&_softmax_backward_data>);
  m.impl("_log_softmax_backward_data", fn<&_log_softmax_backward_data>);
});

}  // namespace opscope::cpu
