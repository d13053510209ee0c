// What grid_sampler's CPU kernels (core/ops/cpu/grid_sampler.cpp, grid_sampler_3d.cpp) share:
// torch's argument checks, and where a 2-D kernel reads: one spatial axis of the input, taking a
// grid coordinate in [-1, 1] to a pixel coordinate, with torch 1.13's arithmetic (its vectorized
// GridSamplerKernel.cpp, which its 2-D CPU kernels run for float32 and float64; the 3-D kernels
// keep torch's scalar arithmetic, in grid_sampler_3d.cpp).
//
// Semantically a grid value g names a point of the input along one axis of `size` pixels:
//   align_corners  -1 and +1 are the centres of the corner pixels:  x = (g + 1) (size - 1) / 2
//   otherwise      -1 and +1 are the outer edges of the corners:    x = (g + 1) size / 2 - 0.5
// and the padding mode says what a point outside the pixels reads:
//   zeros       nothing (the kernels mask those taps: they read 0)
//   border      the nearest border pixel: x clipped to [0, size - 1]
//   reflection  the image mirrored at its borders (at the corner centres with align_corners, at
//               the outer edges otherwise), then clipped
//
// Note [NaN in grid_sampler's grid]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// torch's vector clip is clamp_max(max, clamp_min(0, x)), whose max instruction answers 0 for
// NaN: the forward's border and reflection padding read a NaN coordinate as pixel 0. Its
// reflection and the clip of the backward (maximum / minimum) propagate NaN, so there a NaN stays
// NaN, every tap is out of bounds and the weights are NaN. A NaN or huge pixel coordinate
// converts to an index out of bounds (torch's int conversion gives INT_MIN there): to_index.
#pragma once

#include <cmath>
#include <cstdint>
#include <utility>

#include "core/tensor/Tensor.h"

namespace opscope::cpu::grid_sampler {

// grid_sampler's interpolation_mode and padding_mode arguments (torch's GridSamplerInterpolation
// and GridSamplerPadding; F.grid_sample maps its strings onto them).
enum class Interpolation : int64_t { Bilinear = 0, Nearest = 1, Bicubic = 2 };
enum class Padding : int64_t { Zeros = 0, Border = 1, Reflection = 2 };

// --- torch's checks (GridSamplerUtils.h) --------------------------------------------------------

inline void check_common(const Tensor& input, const Tensor& grid) {
  OPSCOPE_CHECK(input.defined(), "grid_sampler(): expected input to not be undefined");
  OPSCOPE_CHECK(grid.defined(), "grid_sampler(): expected grid to not be undefined");
  OPSCOPE_CHECK(input.device() == grid.device(),
                "grid_sampler(): expected input and grid to be on same device, but input is on ",
                input.device().str(), " and grid is on ", grid.device().str());
  OPSCOPE_CHECK(input.dim() > 0 && grid.dim() > 0 && input.size(0) == grid.size(0),
                "grid_sampler(): expected grid and input to have same batch size, but got input "
                "with sizes ",
                shape_str(input.sizes()), " and grid with sizes ", shape_str(grid.sizes()));
  OPSCOPE_CHECK(grid.size(-1) == input.dim() - 2, "grid_sampler(): expected grid to have size ",
                input.dim() - 2, " in last dimension, but got grid with sizes ",
                shape_str(grid.sizes()));
  for (int64_t i = 2; i < input.dim(); ++i)
    OPSCOPE_CHECK(input.size(i) > 0,
                  "grid_sampler(): expected input to have non-empty spatial dimensions, but "
                  "input has sizes ",
                  shape_str(input.sizes()), " with dimension ", i, " being empty");
}

inline void check_2d(const Tensor& input, const Tensor& grid) {
  OPSCOPE_CHECK(input.dim() == 4 && input.dim() == grid.dim(),
                "grid_sampler(): expected 4D input and grid with same number of dimensions, but "
                "got input with sizes ",
                shape_str(input.sizes()), " and grid with sizes ", shape_str(grid.sizes()));
}

// torch's CPU kernel switches over the enums without a default (an unknown mode leaves the
// output uninitialized); opscope refuses it instead.
inline std::pair<Interpolation, Padding> modes(int64_t interpolation_mode, int64_t padding_mode) {
  OPSCOPE_CHECK(interpolation_mode >= 0 && interpolation_mode <= 2,
                "grid_sampler(): expected interpolation_mode to be 0 (bilinear), 1 (nearest) or "
                "2 (bicubic), but got ",
                interpolation_mode);
  OPSCOPE_CHECK(padding_mode >= 0 && padding_mode <= 2,
                "grid_sampler(): expected padding_mode to be 0 (zeros), 1 (border) or 2 "
                "(reflection), but got ",
                padding_mode);
  return {static_cast<Interpolation>(interpolation_mode), static_cast<Padding>(padding_mode)};
}

// An integral-valued pixel coordinate (floored, rounded or clipped) as an index; NaN and values
// far outside [0, size) become -2, out of bounds as torch's conversion makes them, and so is -2 + 1
// (a bilinear tap's neighbour).
template <typename T>
inline int64_t to_index(T v, int64_t size) {
  return v >= T(-2) && v <= static_cast<T>(size + 1) ? static_cast<int64_t>(v) : -2;
}

template <typename T>
struct Axis {
  int64_t size;
  bool align_corners;
  Padding padding;
  T scale;       // d x / d g: (size - 1) / 2 with align_corners, size / 2 otherwise
  T max_val;     // size - 1, the last pixel
  T low;         // reflection's lower mirror: 0 with align_corners, -0.5 otherwise
  T twice_span;  // twice the mirrors' distance: 2 (size - 1), or 2 size

  Axis(int64_t n, bool align, Padding p)
      : size(n),
        align_corners(align),
        padding(p),
        scale(align ? static_cast<T>(n - 1) / 2 : static_cast<T>(n) / 2),
        max_val(static_cast<T>(n - 1)),
        low(align ? T(0) : T(-0.5)),
        twice_span(align ? static_cast<T>(n - 1) * 2 : static_cast<T>(n) * 2) {}

  T unnormalize(T g) const {
    return align_corners ? (g + T(1)) * scale : (g + T(1)) * scale - T(0.5);
  }

  // x clipped to [0, size - 1]; NaN -> 0 (see Note [NaN in grid_sampler's grid])
  T clip(T x) const {
    const T lo = x > T(0) ? x : T(0);
    return lo < max_val ? lo : max_val;
  }

  // x mirrored into [low, low + twice_span / 2]: |x - low| folded by the period twice_span
  T reflect(T x) const {
    if (twice_span == T(0)) return T(0);
    const T a = std::fabs(x - low);
    const T extra = a - std::trunc(a / twice_span) * twice_span;
    const T mirrored = twice_span - extra;
    return (extra < mirrored ? extra : mirrored) + low;
  }

  // The padding mode applied to a pixel coordinate (torch's compute_coordinates).
  T pad(T x) const {
    if (padding == Padding::Border) return clip(x);
    if (padding == Padding::Reflection) return clip(reflect(x));
    return x;
  }

  // grid value -> pixel coordinate
  T source(T g) const { return pad(unnormalize(g)); }

  // grid value -> pixel coordinate, and d coordinate / d g in *mult: scale, times the reflection's
  // sign, times 0 where the clip holds the coordinate at a border (or beyond it).
  T source_with_grad(T g, T* mult) const {
    T x = unnormalize(g);
    T d = scale;
    if (padding == Padding::Reflection) {
      if (twice_span == T(0)) {
        x = T(0);
        d = T(0);
      } else {
        const T in = x - low;
        const T a = std::fabs(in);
        const T extra = a - std::trunc(a / twice_span) * twice_span;
        const T mirrored = twice_span - extra;
        const bool flip = extra > mirrored;
        x = (flip ? mirrored : extra) + low;
        d = (flip ? T(-1) : T(1)) * (in < T(0) ? T(-1) : T(1)) * scale;
      }
    }
    if (padding != Padding::Zeros) {
      // ATen's maximum / minimum keep NaN; the borders themselves count as outside
      const T lo = (x > T(0) || x != x) ? x : T(0);
      const T res = (lo < max_val || lo != lo) ? lo : max_val;
      if (!(lo != T(0) && res != max_val)) d = T(0);
      x = res;
    }
    *mult = d;
    return x;
  }
};

// Bicubic convolution weights (A = -0.75, torch's UpSample.h) of the four taps floor(x) - 1 ..
// floor(x) + 2 at t = x - floor(x), and their derivatives in t.
template <typename T>
inline void cubic_coefficients(T c[4], T t) {
  const T A = T(-0.75);
  T x = t + T(1);
  c[0] = ((A * x - T(5) * A) * x + T(8) * A) * x - T(4) * A;
  x = t;
  c[1] = ((A + T(2)) * x - (A + T(3))) * x * x + T(1);
  x = T(1) - t;
  c[2] = ((A + T(2)) * x - (A + T(3))) * x * x + T(1);
  x = T(2) - t;
  c[3] = ((A * x - T(5) * A) * x + T(8) * A) * x - T(4) * A;
}

template <typename T>
inline void cubic_coefficients_grad(T c[4], T t) {
  const T A = T(-0.75);
  T x = T(-1) - t;
  c[0] = (T(-3) * A * x - T(10) * A) * x - T(8) * A;
  x = T(0) - t;
  c[1] = (T(-3) * (A + T(2)) * x - T(2) * (A + T(3))) * x;
  x = T(1) - t;
  c[2] = (T(3) * (A + T(2)) * x - T(2) * (A + T(3))) * x;
  x = T(2) - t;
  c[3] = (T(3) * A * x - T(10) * A) * x + T(8) * A;
}

}  // namespace opscope::cpu::grid_sampler
