// CPU kernels of grid_sampler_2d and grid_sampler_2d_backward (declared in core/ops/nn.cpp,
// registered at the end of this file): what F.grid_sample runs for a 4-D input, through the
// CompositeImplicitAutograd grid_sampler (core/ops/composite/grid_sampler.cpp).
//
//   input (N, C, H, W), grid (N, Ho, Wo, 2) -> out (N, C, Ho, Wo)
//   out[n, c, h, w] = input[n, c] read at (x, y) = grid[n, h, w] (x along W, y along H)
//
// A grid value goes to a pixel coordinate by core/ops/cpu/grid_sampler_coords.h (unnormalize,
// then the padding mode's clip or reflection); the interpolation mode says which pixels are read:
//   bilinear  the four around (x, y), weights from the fractions: out = ((nw v_nw + ne v_ne) +
//             sw v_sw) + se v_se, with nw = (1 - fy)(1 - fx), ne = (1 - fy) fx, sw = fy (1 - fx),
//             se = fy fx
//   nearest   the one at (nearbyint(x), nearbyint(y)) (halves to even)
//   bicubic   the 4 x 4 around floor(x, y), cubic-convolution weights (A = -0.75) along x per
//             row, then along y; each tap padded on its own
// A tap outside the input reads 0 (zeros padding; the others keep taps inside). The backward adds
// grad_output times each tap's weight into grad_input (when output_mask[0]) and computes the
// grid's gradient from the differences of the taps (always, as torch: output_mask[1] is not
// read); nearest's grid gradient is 0, bicubic's ignores the padding's derivative (torch's).
//
// As torch 1.13's vectorized CPU kernel (GridSamplerKernel.cpp): float32 and float64 only, the
// same arithmetic step for step, so values agree to rounding (its vector lanes and ours may
// contract differently); the loops run points in chunks whose index math is done once for all
// channels. See Note [NaN in grid_sampler's grid] for NaN and huge coordinates.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/dispatch/Library.h"
#include "core/ops/cpu/Loops.h"
#include "core/ops/cpu/grid_sampler_coords.h"
#include "core/runtime/Parallel.h"

namespace opscope::cpu {

namespace {

using grid_sampler::Axis;
using grid_sampler::check_common;
using grid_sampler::cubic_coefficients;
using grid_sampler::cubic_coefficients_grad;
using grid_sampler::Interpolation;
using grid_sampler::modes;
using grid_sampler::Padding;
using grid_sampler::to_index;

// float32 and float64 only (torch's grid_sampler_2d_cpu refuses the rest by name)
template <typename F>
void dispatch_float_double(ScalarType t, const char* what, F&& fn) {
  if (t == ScalarType::Float32) return fn.template operator()<float>();
  if (t == ScalarType::Float64) return fn.template operator()<double>();
  throw Error(detail::str(what, " not implemented for ", cpp_name(t)));
}

// Sizes and element strides of one call. Strides: input (sN, sC, sH, sW), grid (gN, gH, gW, gXY),
// grad_output (oN, oC, oH, oW); out, grad_input and grad_grid are made contiguous.
struct Geometry {
  int64_t N, C, H, W, Ho, Wo;
  int64_t sN, sC, sH, sW;
  int64_t gN, gH, gW, gXY;
  int64_t oN = 0, oC = 0, oH = 0, oW = 0;
};

Geometry geometry(const Tensor& input, const Tensor& grid) {
  return {input.size(0),  input.size(1),   input.size(2),   input.size(3),   grid.size(1),
          grid.size(2),   input.stride(0), input.stride(1), input.stride(2), input.stride(3),
          grid.stride(0), grid.stride(1),  grid.stride(2),  grid.stride(3)};
}

// Points are taken kChunk at a time, in (h, w) order; a chunk's taps are computed once and then
// read by every channel.
constexpr int64_t kChunk = 128;

// The grid values of a chunk of points of batch n starting at point p (p = h Wo + w).
template <typename T>
int64_t load_grid(const Geometry& g, const T* grid_n, int64_t p, T* gx, T* gy) {
  const int64_t len = std::min(kChunk, g.Ho * g.Wo - p);
  int64_t h = p / g.Wo, w = p % g.Wo;
  for (int64_t k = 0; k < len; ++k) {
    const T* at = grid_n + h * g.gH + w * g.gW;
    gx[k] = at[0];
    gy[k] = at[g.gXY];
    if (++w == g.Wo) {
      w = 0;
      ++h;
    }
  }
  return len;
}

// A bilinear chunk: per point, the four taps nw, ne, sw, se (their input offsets, their offsets in
// a contiguous (H, W) plane, whether they are inside) and the fractions.
template <typename T>
struct BilinearTaps {
  int64_t off[4][kChunk];
  int64_t plane_off[4][kChunk];
  bool inside[4][kChunk];
  T fx[kChunk], fy[kChunk];  // x - floor(x) (torch's w), y - floor(y) (torch's n)
  T weight[4][kChunk];       // nw, ne, sw, se

  void compute(const Geometry& g, const Axis<T>& ax, const Axis<T>& ay, const T* x, const T* y,
               int64_t len) {
    for (int64_t k = 0; k < len; ++k) {
      const T xw = std::floor(x[k]), yn = std::floor(y[k]);
      const T w = x[k] - xw, e = T(1) - w, n = y[k] - yn, s = T(1) - n;
      fx[k] = w;
      fy[k] = n;
      weight[0][k] = s * e;
      weight[1][k] = s * w;
      weight[2][k] = n * e;
      weight[3][k] = n * w;
      const int64_t ix = to_index(xw, g.W), iy = to_index(yn, g.H);
      const int64_t cols[2] = {ix, ix + 1}, rows[2] = {iy, iy + 1};
      for (int t = 0; t < 4; ++t) {
        const int64_t r = rows[t / 2], c = cols[t % 2];
        const bool in = r >= 0 && r < g.H && c >= 0 && c < g.W;
        inside[t][k] = in;
        off[t][k] = in ? r * g.sH + c * g.sW : 0;
        plane_off[t][k] = in ? r * g.W + c : 0;
      }
    }
  }
};

// The value of tap t of point k in channel plane src: 0 outside (read at offset 0, then dropped).
template <typename T>
inline T tap(const T* src, const BilinearTaps<T>& b, int t, int64_t k) {
  const T v = src[b.off[t][k]];
  return b.inside[t][k] ? v : T(0);
}

// One chunk of nearest taps: the pixel at the rounded coordinates, if inside.
template <typename T>
struct NearestTaps {
  int64_t off[kChunk];
  int64_t plane_off[kChunk];
  bool inside[kChunk];

  void compute(const Geometry& g, const T* x, const T* y, int64_t len) {
    for (int64_t k = 0; k < len; ++k) {
      const int64_t ix = to_index(std::nearbyint(x[k]), g.W);
      const int64_t iy = to_index(std::nearbyint(y[k]), g.H);
      const bool in = iy >= 0 && iy < g.H && ix >= 0 && ix < g.W;
      inside[k] = in;
      off[k] = in ? iy * g.sH + ix * g.sW : 0;
      plane_off[k] = in ? iy * g.W + ix : 0;
    }
  }
};

// Bicubic tap (x, y) (pixel coordinates, integral-valued before padding): its offset in a plane
// of strides (sH, sW), or -1 outside.
template <typename T>
inline int64_t cubic_tap(const Axis<T>& ax, const Axis<T>& ay, T x, T y, int64_t sH, int64_t sW) {
  const int64_t ix = to_index(ax.pad(x), ax.size), iy = to_index(ay.pad(y), ay.size);
  if (ix < 0 || ix >= ax.size || iy < 0 || iy >= ay.size) return -1;
  return iy * sH + ix * sW;
}

// --- forward -----------------------------------------------------------------------------------

// input (N, C, H, W), grid (N, Ho, Wo, 2) -> out (N, C, Ho, Wo), contiguous
template <typename T>
OPSCOPE_VECTOR_CLONES void sample_batch(const Geometry& g, Interpolation mode, const Axis<T>& ax,
                                        const Axis<T>& ay, const T* in_n, const T* grid_n,
                                        T* out_n) {
  const int64_t plane = g.Ho * g.Wo;
  T x[kChunk], y[kChunk];
  for (int64_t p = 0; p < plane; p += kChunk) {
    const int64_t len = load_grid(g, grid_n, p, x, y);
    if (mode == Interpolation::Bicubic) {
      for (int64_t k = 0; k < len; ++k) {
        // taps at floor(x) - 1 .. floor(x) + 2 of the unpadded coordinates
        const T ux = ax.unnormalize(x[k]), uy = ay.unnormalize(y[k]);
        const T ix = std::floor(ux), iy = std::floor(uy);
        T cx[4], cy[4];
        cubic_coefficients(cx, ux - ix);
        cubic_coefficients(cy, uy - iy);
        int64_t offs[4][4];
        for (int j = 0; j < 4; ++j)
          for (int i = 0; i < 4; ++i)
            offs[j][i] = cubic_tap(ax, ay, ix + T(i - 1), iy + T(j - 1), g.sH, g.sW);
        for (int64_t c = 0; c < g.C; ++c) {
          const T* src = in_n + c * g.sC;
          T rows[4];
          for (int j = 0; j < 4; ++j) {
            T v[4];
            for (int i = 0; i < 4; ++i) v[i] = offs[j][i] >= 0 ? src[offs[j][i]] : T(0);
            rows[j] = cx[0] * v[0] + cx[1] * v[1] + cx[2] * v[2] + cx[3] * v[3];
          }
          out_n[c * plane + p + k] =
              cy[0] * rows[0] + cy[1] * rows[1] + cy[2] * rows[2] + cy[3] * rows[3];
        }
      }
      continue;
    }
    for (int64_t k = 0; k < len; ++k) {
      x[k] = ax.source(x[k]);
      y[k] = ay.source(y[k]);
    }
    if (mode == Interpolation::Nearest) {
      NearestTaps<T> t;
      t.compute(g, x, y, len);
      for (int64_t c = 0; c < g.C; ++c) {
        const T* src = in_n + c * g.sC;
        T* dst = out_n + c * plane + p;
        for (int64_t k = 0; k < len; ++k) {
          const T v = src[t.off[k]];
          dst[k] = t.inside[k] ? v : T(0);
        }
      }
      continue;
    }
    BilinearTaps<T> b;
    b.compute(g, ax, ay, x, y, len);
    for (int64_t c = 0; c < g.C; ++c) {
      const T* src = in_n + c * g.sC;
      T* dst = out_n + c * plane + p;
      for (int64_t k = 0; k < len; ++k) {
        dst[k] = tap(src, b, 0, k) * b.weight[0][k] + tap(src, b, 1, k) * b.weight[1][k] +
                 tap(src, b, 2, k) * b.weight[2][k] + tap(src, b, 3, k) * b.weight[3][k];
      }
    }
  }
}

Tensor grid_sampler_2d(const Tensor& input, const Tensor& grid, int64_t interpolation_mode,
                       int64_t padding_mode, bool align_corners) {
  check_common(input, grid);
  grid_sampler::check_2d(input, grid);
  const auto [mode, padding] = modes(interpolation_mode, padding_mode);
  const Geometry g = geometry(input, grid);
  Tensor out = make_empty({g.N, g.C, g.Ho, g.Wo}, input.dtype(), input.device());
  dispatch_float_double(input.dtype(), "grid_sampler_2d_cpu", [&]<typename T>() {
    check_read_as(input.dtype(), grid.dtype());
    if (out.numel() == 0) return;
    const Axis<T> ax(g.W, align_corners, padding), ay(g.H, align_corners, padding);
    const T* in = input.data_ptr<T>();
    const T* gr = grid.data_ptr<T>();
    T* dst = out.data_ptr<T>();
    parallel_for(0, g.N, 1, [&](int64_t begin, int64_t end) {
      for (int64_t n = begin; n < end; ++n)
        sample_batch<T>(g, mode, ax, ay, in + n * g.sN, gr + n * g.gN, dst + n * g.C * g.Ho * g.Wo);
    });
  });
  return out;
}

// --- backward ----------------------------------------------------------------------------------

// grad_output (N, C, Ho, Wo) -> grad_input (N, C, H, W) (when gi_n is set; accumulated into
// zeros) and grad_grid (N, Ho, Wo, 2), both contiguous, for batch n
template <typename T>
OPSCOPE_VECTOR_CLONES void sample_batch_backward(const Geometry& g, Interpolation mode,
                                                 const Axis<T>& ax, const Axis<T>& ay,
                                                 const T* go_n, const T* in_n, const T* grid_n,
                                                 T* gi_n, T* gg_n) {
  const int64_t plane = g.Ho * g.Wo, in_plane = g.H * g.W;
  T x[kChunk], y[kChunk], gx[kChunk], gy[kChunk], mx[kChunk], my[kChunk];
  int64_t go_off[kChunk];
  for (int64_t p = 0; p < plane; p += kChunk) {
    const int64_t len = load_grid(g, grid_n, p, x, y);
    for (int64_t k = 0, h = p / g.Wo, w = p % g.Wo; k < len; ++k) {
      go_off[k] = h * g.oH + w * g.oW;
      if (++w == g.Wo) {
        w = 0;
        ++h;
      }
      gx[k] = T(0);
      gy[k] = T(0);
    }
    if (mode == Interpolation::Nearest) {
      if (gi_n != nullptr) {
        for (int64_t k = 0; k < len; ++k) {
          x[k] = ax.source(x[k]);
          y[k] = ay.source(y[k]);
        }
        NearestTaps<T> t;
        t.compute(g, x, y, len);
        for (int64_t c = 0; c < g.C; ++c) {
          const T* go = go_n + c * g.oC;
          T* gi = gi_n + c * in_plane;
          for (int64_t k = 0; k < len; ++k)
            if (t.inside[k]) gi[t.plane_off[k]] += go[go_off[k]];
        }
      }
      std::memset(gg_n + 2 * p, 0, sizeof(T) * 2 * len);  // the grid's gradient is 0
      continue;
    }
    if (mode == Interpolation::Bicubic) {
      for (int64_t k = 0; k < len; ++k) {
        const T ux = ax.unnormalize(x[k]), uy = ay.unnormalize(y[k]);
        const T ix = std::floor(ux), iy = std::floor(uy);
        T cx[4], cy[4], dcx[4], dcy[4];
        cubic_coefficients(cx, ux - ix);
        cubic_coefficients(cy, uy - iy);
        cubic_coefficients_grad(dcx, ux - ix);
        cubic_coefficients_grad(dcy, uy - iy);
        int64_t offs[4][4], plane_offs[4][4];  // [i along x][j along y]
        for (int i = 0; i < 4; ++i)
          for (int j = 0; j < 4; ++j) {
            offs[i][j] = cubic_tap(ax, ay, ix + T(i - 1), iy + T(j - 1), g.sH, g.sW);
            plane_offs[i][j] = cubic_tap(ax, ay, ix + T(i - 1), iy + T(j - 1), g.W, int64_t(1));
          }
        T sx = T(0), sy = T(0);
        for (int64_t c = 0; c < g.C; ++c) {
          const T* src = in_n + c * g.sC;
          const T go = go_n[c * g.oC + go_off[k]];
          for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j) {
              if (gi_n != nullptr && plane_offs[i][j] >= 0)
                gi_n[c * in_plane + plane_offs[i][j]] += go * cx[i] * cy[j];
              const T v = offs[i][j] >= 0 ? src[offs[i][j]] : T(0);
              sx = sx - v * go * dcx[i] * cy[j];
              sy = sy - v * go * dcy[j] * cx[i];
            }
        }
        gg_n[2 * (p + k)] = sx * ax.scale;
        gg_n[2 * (p + k) + 1] = sy * ay.scale;
      }
      continue;
    }
    for (int64_t k = 0; k < len; ++k) {
      x[k] = ax.source_with_grad(x[k], &mx[k]);
      y[k] = ay.source_with_grad(y[k], &my[k]);
    }
    BilinearTaps<T> b;
    b.compute(g, ax, ay, x, y, len);
    for (int64_t c = 0; c < g.C; ++c) {
      const T* src = in_n + c * g.sC;
      const T* go = go_n + c * g.oC;
      if (gi_n != nullptr) {
        T* gi = gi_n + c * in_plane;
        for (int64_t k = 0; k < len; ++k) {
          const T o = go[go_off[k]];
          for (int t = 0; t < 4; ++t)
            if (b.inside[t][k]) gi[b.plane_off[t][k]] += o * b.weight[t][k];
        }
      }
      for (int64_t k = 0; k < len; ++k) {
        const T o = go[go_off[k]];
        const T nw = tap(src, b, 0, k), ne = tap(src, b, 1, k);
        const T sw = tap(src, b, 2, k), se = tap(src, b, 3, k);
        const T w = b.fx[k], n = b.fy[k];
        gx[k] = gx[k] + ((ne - nw) * (T(1) - n) + (se - sw) * n) * o;
        gy[k] = gy[k] + ((sw - nw) * (T(1) - w) + (se - ne) * w) * o;
      }
    }
    for (int64_t k = 0; k < len; ++k) {
      gg_n[2 * (p + k)] = gx[k] * mx[k];
      gg_n[2 * (p + k) + 1] = gy[k] * my[k];
    }
  }
}

std::tuple<Tensor, Tensor> grid_sampler_2d_backward(const Tensor& grad_output, const Tensor& input,
                                                    const Tensor& grid, int64_t interpolation_mode,
                                                    int64_t padding_mode, bool align_corners,
                                                    IntArrayRef output_mask) {
  check_common(input, grid);
  grid_sampler::check_2d(input, grid);
  const auto [mode, padding] = modes(interpolation_mode, padding_mode);
  Geometry g = geometry(input, grid);
  // torch reads grad_output at the output's sizes without a check (and past its end when it is
  // smaller); opscope checks.
  OPSCOPE_CHECK(grad_output.dim() == 4 && grad_output.size(0) == g.N &&
                    grad_output.size(1) == g.C && grad_output.size(2) == g.Ho &&
                    grad_output.size(3) == g.Wo,
                "grid_sampler_2d_backward(): expected grad_output with sizes ",
                shape_str({g.N, g.C, g.Ho, g.Wo}), ", but got grad_output with sizes ",
                shape_str(grad_output.sizes()));
  g.oN = grad_output.stride(0);
  g.oC = grad_output.stride(1);
  g.oH = grad_output.stride(2);
  g.oW = grad_output.stride(3);
  const bool input_requires_grad = output_mask[0] != 0;
  Tensor grad_input;
  Tensor grad_grid = make_empty(grid.sizes(), grid.dtype(), grid.device());
  dispatch_float_double(input.dtype(), "grid_sampler_2d_backward_cpu", [&]<typename T>() {
    check_read_as(input.dtype(), grid.dtype());
    check_read_as(input.dtype(), grad_output.dtype());
    if (input_requires_grad) {
      grad_input = make_empty(input.sizes(), input.dtype(), input.device());
      std::fill_n(grad_input.data_ptr<T>(), grad_input.numel(), T(0));
    }
    if (grid.numel() == 0) return;
    const Axis<T> ax(g.W, align_corners, padding), ay(g.H, align_corners, padding);
    const T* go = grad_output.data_ptr<T>();
    const T* in = input.data_ptr<T>();
    const T* gr = grid.data_ptr<T>();
    T* gi = input_requires_grad ? grad_input.data_ptr<T>() : nullptr;
    T* gg = grad_grid.data_ptr<T>();
    parallel_for(0, g.N, 1, [&](int64_t begin, int64_t end) {
      for (int64_t n = begin; n < end; ++n)
        sample_batch_backward<T>(g, mode, ax, ay, go + n * g.oN, in + n * g.sN, gr + n * g.gN,
                                 gi == nullptr ? nullptr : gi + n * g.C * g.H * g.W,
                                 gg + n * g.Ho * g.Wo * 2);
    });
  });
  return {grad_input, grad_grid};
}

}  // namespace

static Library cpu_grid_sampler(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("grid_sampler_2d", fn<&grid_sampler_2d>);
  m.impl("grid_sampler_2d_backward", fn<&grid_sampler_2d_backward>);
});

}  // namespace opscope::cpu
