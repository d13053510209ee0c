// CPU kernels of grid_sampler_3d and grid_sampler_3d_backward (declared in core/ops/nn.cpp,
// registered at the end of this file): F.grid_sample of a 5-D input, bilinear (trilinear) or
// nearest; bicubic is 4-D only (torch's check).
//
//   input (N, C, D, H, W), grid (N, Do, Ho, Wo, 3) -> out (N, C, Do, Ho, Wo)
//   out[n, c, d, h, w] = input[n, c] read at (x, y, z) = grid[n, d, h, w] (x along W, y along H,
//   z along D): the eight pixels around it weighted by the opposite sub-box's volume, or the
//   nearest pixel (std::round, halves away from zero: torch 1.13's 3-D kernel, where the 2-D one
//   rounds halves to even)
//
// As torch 1.13, whose 3-D CPU kernel is its scalar one (GridSampler.cpp with GridSampler.h): the
// same arithmetic as that, which differs from the 2-D vector kernel's (core/ops/cpu/
// grid_sampler_coords.h) in rounding and in NaN: unnormalize is ((g + 1) / 2) (size - 1) or
// ((g + 1) size - 1) / 2, reflection folds with fmod, and the clip std::min(max, std::max(x, 0))
// sends NaN to the last pixel (size - 1). Taps outside the input are skipped (not multiplied by
// 0), so a NaN weight there adds nothing. The backward adds each tap's share of grad_output into
// grad_input (when output_mask[0]) and differentiates the weights for the grid (nearest: 0).
#include <algorithm>
#include <cmath>

#include "core/dispatch/Library.h"
#include "core/ops/cpu/Loops.h"
#include "core/ops/cpu/grid_sampler_coords.h"
#include "core/runtime/Parallel.h"

namespace opscope::cpu {

namespace {

using grid_sampler::check_common;
using grid_sampler::Interpolation;
using grid_sampler::modes;
using grid_sampler::Padding;

void check_3d(const Tensor& input, const Tensor& grid, int64_t interpolation_mode) {
  OPSCOPE_CHECK(input.dim() == 5 && input.dim() == grid.dim(),
                "grid_sampler(): expected 5D input and grid with same number of dimensions, but "
                "got input with sizes ",
                shape_str(input.sizes()), " and grid with sizes ", shape_str(grid.sizes()));
  OPSCOPE_CHECK(interpolation_mode != static_cast<int64_t>(Interpolation::Bicubic),
                "grid_sampler(): bicubic interpolation only supports 4D input");
}

inline constexpr auto kFloatDouble = []<typename T>() {
  return std::bool_constant<(std::is_same_v<T, float> || std::is_same_v<T, double>)>{};
};

// --- torch's scalar coordinate arithmetic (GridSampler.h) ---------------------------------------

template <typename T>
T unnormalize(T g, int64_t size, bool align_corners) {
  return align_corners ? ((g + 1) / 2) * static_cast<T>(size - 1)
                       : ((g + 1) * static_cast<T>(size) - 1) / 2;
}

// std::min(size - 1, std::max(x, 0)): NaN -> size - 1
template <typename T>
T clip(T x, int64_t size) {
  return std::min(static_cast<T>(size - 1), std::max(x, T(0)));
}

// x mirrored between twice_low / 2 and twice_high / 2 (NaN stays NaN)
template <typename T>
T reflect(T x, int64_t twice_low, int64_t twice_high) {
  if (twice_low == twice_high) return T(0);
  const T low = static_cast<T>(twice_low) / 2;
  const T span = static_cast<T>(twice_high - twice_low) / 2;
  x = std::fabs(x - low);
  const T extra = std::fmod(x, span);
  const int flips = static_cast<int>(std::floor(x / span));
  return flips % 2 == 0 ? extra + low : span - extra + low;
}

template <typename T>
T source_index(T g, int64_t size, Padding padding, bool align_corners) {
  T x = unnormalize(g, size, align_corners);
  if (padding == Padding::Border) {
    x = clip(x, size);
  } else if (padding == Padding::Reflection) {
    x = align_corners ? reflect(x, 0, 2 * (size - 1)) : reflect(x, -1, 2 * size - 1);
    x = clip(x, size);
  }
  return x;
}

// source_index, and d x / d g in *mult (the clip's borders count as outside; NaN passes)
template <typename T>
T source_index_with_grad(T g, int64_t size, Padding padding, bool align_corners, T* mult) {
  T x = unnormalize(g, size, align_corners);
  T d = align_corners ? static_cast<T>(size - 1) / 2 : static_cast<T>(size) / 2;
  if (padding == Padding::Reflection) {
    const int64_t twice_low = align_corners ? 0 : -1;
    const int64_t twice_high = align_corners ? 2 * (size - 1) : 2 * size - 1;
    if (twice_low == twice_high) {
      x = T(0);
      d = T(0);
    } else {
      const T low = static_cast<T>(twice_low) / 2;
      const T span = static_cast<T>(twice_high - twice_low) / 2;
      T in = x - low;
      T sign = T(1);
      if (in < T(0)) {
        sign = T(-1);
        in = -in;
      }
      const T extra = std::fmod(in, span);
      const int flips = static_cast<int>(std::floor(in / span));
      x = flips % 2 == 0 ? extra + low : span - extra + low;
      d = d * (flips % 2 == 0 ? sign : -sign);
    }
  }
  if (padding != Padding::Zeros) {
    const T max = static_cast<T>(size - 1);
    if (x <= T(0)) {
      x = T(0);
      d = T(0);
    } else if (x >= max) {
      x = max;
      d = T(0);
    }
  }
  *mult = d;
  return x;
}

// floor / round of a pixel coordinate as an index; NaN and huge values out of bounds (-2),
// where torch's conversion is undefined (INT64_MIN on x86)
template <typename T>
int64_t index_of(T v, int64_t size) {
  return v >= T(-2) && v <= static_cast<T>(size + 1) ? static_cast<int64_t>(v) : -2;
}

struct Geometry3d {
  int64_t N, C, D, H, W, Do, Ho, Wo;
  int64_t sN, sC, sD, sH, sW;
  int64_t gN, gD, gH, gW, gXYZ;
};

Geometry3d geometry(const Tensor& input, const Tensor& grid) {
  return {input.size(0),   input.size(1),   input.size(2),   input.size(3),   input.size(4),
          grid.size(1),    grid.size(2),    grid.size(3),    input.stride(0), input.stride(1),
          input.stride(2), input.stride(3), input.stride(4), grid.stride(0),  grid.stride(1),
          grid.stride(2),  grid.stride(3),  grid.stride(4)};
}

// The eight corners of a trilinear point: corner k = (z bit 2, y bit 1, x bit 0) from (x0, y0, z0),
// t/b = top/bottom (z), n/s = north/south (y), w/e = west/east (x); torch's tnw, tne, tsw, tse,
// bnw, bne, bsw, bse in that order.
template <typename T>
struct Corners {
  int64_t x0, y0, z0;
  T x, y, z;
  // the sides of the sub-box opposite corner k, along x, y, z
  void sides(int k, T* wx, T* wy, T* wz) const {
    *wx = (k & 1) ? x - T(x0) : T(x0 + 1) - x;
    *wy = (k & 2) ? y - T(y0) : T(y0 + 1) - y;
    *wz = (k & 4) ? z - T(z0) : T(z0 + 1) - z;
  }
  // the weight of corner k: that sub-box's volume
  T weight(int k) const {
    T wx, wy, wz;
    sides(k, &wx, &wy, &wz);
    return wx * wy * wz;
  }
};

template <typename T>
Corners<T> corners(const Geometry3d& g, T x, T y, T z) {
  return {index_of(std::floor(x), g.W),
          index_of(std::floor(y), g.H),
          index_of(std::floor(z), g.D),
          x,
          y,
          z};
}

// --- forward -----------------------------------------------------------------------------------

template <typename T>
void sample_batch(const Geometry3d& g, Interpolation mode, Padding padding, bool align_corners,
                  const T* in_n, const T* grid_n, T* out_n) {
  const int64_t plane = g.Do * g.Ho * g.Wo;
  int64_t p = 0;
  for (int64_t d = 0; d < g.Do; ++d)
    for (int64_t h = 0; h < g.Ho; ++h)
      for (int64_t w = 0; w < g.Wo; ++w, ++p) {
        const T* at = grid_n + d * g.gD + h * g.gH + w * g.gW;
        const T x = source_index(at[0], g.W, padding, align_corners);
        const T y = source_index(at[g.gXYZ], g.H, padding, align_corners);
        const T z = source_index(at[2 * g.gXYZ], g.D, padding, align_corners);
        if (mode == Interpolation::Nearest) {
          const int64_t ix = index_of(std::round(x), g.W);
          const int64_t iy = index_of(std::round(y), g.H);
          const int64_t iz = index_of(std::round(z), g.D);
          const bool in = ix >= 0 && ix < g.W && iy >= 0 && iy < g.H && iz >= 0 && iz < g.D;
          const int64_t off = iz * g.sD + iy * g.sH + ix * g.sW;
          for (int64_t c = 0; c < g.C; ++c) out_n[c * plane + p] = in ? in_n[c * g.sC + off] : T(0);
          continue;
        }
        const Corners<T> k = corners(g, x, y, z);
        T weight[8];
        int64_t off[8];
        bool inside[8];
        for (int t = 0; t < 8; ++t) {
          const int64_t cx = k.x0 + (t & 1), cy = k.y0 + ((t >> 1) & 1), cz = k.z0 + (t >> 2);
          weight[t] = k.weight(t);
          inside[t] = cx >= 0 && cx < g.W && cy >= 0 && cy < g.H && cz >= 0 && cz < g.D;
          off[t] = cz * g.sD + cy * g.sH + cx * g.sW;
        }
        for (int64_t c = 0; c < g.C; ++c) {
          const T* src = in_n + c * g.sC;
          T sum = T(0);
          for (int t = 0; t < 8; ++t)
            if (inside[t]) sum += src[off[t]] * weight[t];
          out_n[c * plane + p] = sum;
        }
      }
}

// input (N, C, D, H, W), grid (N, Do, Ho, Wo, 3) -> (N, C, Do, Ho, Wo), contiguous
Tensor grid_sampler_3d(const Tensor& input, const Tensor& grid, int64_t interpolation_mode,
                       int64_t padding_mode, bool align_corners) {
  check_common(input, grid);
  check_3d(input, grid, interpolation_mode);
  const auto [mode, padding] = modes(interpolation_mode, padding_mode);
  const Geometry3d g = geometry(input, grid);
  Tensor out = make_empty({g.N, g.C, g.Do, g.Ho, g.Wo}, input.dtype(), input.device());
  dispatch_dtype_if(input.dtype(), "grid_sampler3d_cpu", kFloatDouble, [&]<typename T>() {
    check_read_as(input.dtype(), grid.dtype());
    if (out.numel() == 0) return;
    const T* in = input.data_ptr<T>();
    const T* gr = grid.data_ptr<T>();
    T* dst = out.data_ptr<T>();
    parallel_for(0, g.N, 1, [&](int64_t begin, int64_t end) {
      for (int64_t n = begin; n < end; ++n)
        sample_batch<T>(g, mode, padding, align_corners, in + n * g.sN, gr + n * g.gN,
                        dst + n * g.C * g.Do * g.Ho * g.Wo);
    });
  });
  return out;
}

// --- backward ----------------------------------------------------------------------------------

template <typename T>
void sample_batch_backward(const Geometry3d& g, Interpolation mode, Padding padding,
                           bool align_corners, const int64_t* o_strides, const T* go_n,
                           const T* in_n, const T* grid_n, T* gi_n, T* gg_n) {
  const int64_t in_plane = g.D * g.H * g.W;
  const int64_t oC = o_strides[1], oD = o_strides[2], oH = o_strides[3], oW = o_strides[4];
  int64_t p = 0;
  for (int64_t d = 0; d < g.Do; ++d)
    for (int64_t h = 0; h < g.Ho; ++h)
      for (int64_t w = 0; w < g.Wo; ++w, ++p) {
        const T* at = grid_n + d * g.gD + h * g.gH + w * g.gW;
        const T* go = go_n + d * oD + h * oH + w * oW;
        T mx, my, mz;
        const T x = source_index_with_grad(at[0], g.W, padding, align_corners, &mx);
        const T y = source_index_with_grad(at[g.gXYZ], g.H, padding, align_corners, &my);
        const T z = source_index_with_grad(at[2 * g.gXYZ], g.D, padding, align_corners, &mz);
        T* gg = gg_n + 3 * p;
        if (mode == Interpolation::Nearest) {
          const int64_t ix = index_of(std::round(x), g.W);
          const int64_t iy = index_of(std::round(y), g.H);
          const int64_t iz = index_of(std::round(z), g.D);
          if (gi_n != nullptr && ix >= 0 && ix < g.W && iy >= 0 && iy < g.H && iz >= 0 && iz < g.D)
            for (int64_t c = 0; c < g.C; ++c)
              gi_n[c * in_plane + (iz * g.H + iy) * g.W + ix] += go[c * oC];
          gg[0] = gg[1] = gg[2] = T(0);
          continue;
        }
        const Corners<T> k = corners(g, x, y, z);
        // the corners inside, once for all channels: offsets in input and grad_input, sides
        int inside[8], n_inside = 0;
        int64_t off[8], plane_off[8];
        T wx[8], wy[8], wz[8];
        for (int t = 0; t < 8; ++t) {
          const int64_t cx = k.x0 + (t & 1), cy = k.y0 + ((t >> 1) & 1), cz = k.z0 + (t >> 2);
          if (!(cx >= 0 && cx < g.W && cy >= 0 && cy < g.H && cz >= 0 && cz < g.D)) continue;
          const int i = n_inside++;
          inside[i] = t;
          off[i] = cz * g.sD + cy * g.sH + cx * g.sW;
          plane_off[i] = (cz * g.H + cy) * g.W + cx;
          k.sides(t, &wx[i], &wy[i], &wz[i]);
        }
        T gx = T(0), gy = T(0), gz = T(0);
        for (int64_t c = 0; c < g.C; ++c) {
          const T o = go[c * oC];
          const T* src = in_n + c * g.sC;
          if (gi_n != nullptr) {
            T* gi = gi_n + c * in_plane;
            for (int i = 0; i < n_inside; ++i) gi[plane_off[i]] += wx[i] * wy[i] * wz[i] * o;
          }
          for (int i = 0; i < n_inside; ++i) {
            const int t = inside[i];
            const T v = src[off[i]];
            // d weight / d x is the product of the two other sides, signed by the corner's side
            // (torch's gix -= / += val * side * side * gOut, in that order)
            const T dx = v * wy[i] * wz[i] * o, dy = v * wx[i] * wz[i] * o;
            const T dz = v * wx[i] * wy[i] * o;
            gx = (t & 1) ? gx + dx : gx - dx;
            gy = (t & 2) ? gy + dy : gy - dy;
            gz = (t & 4) ? gz + dz : gz - dz;
          }
        }
        gg[0] = mx * gx;
        gg[1] = my * gy;
        gg[2] = mz * gz;
      }
}

std::tuple<Tensor, Tensor> grid_sampler_3d_backward(const Tensor& grad_output, const Tensor& input,
                                                    const Tensor& grid, int64_t interpolation_mode,
                                                    int64_t padding_mode, bool align_corners,
                                                    IntArrayRef output_mask) {
  check_common(input, grid);
  check_3d(input, grid, interpolation_mode);
  const auto [mode, padding] = modes(interpolation_mode, padding_mode);
  const Geometry3d g = geometry(input, grid);
  // torch reads grad_output at the output's sizes without a check; opscope checks.
  const DimVector expected{g.N, g.C, g.Do, g.Ho, g.Wo};
  OPSCOPE_CHECK(DimVector(grad_output.sizes().begin(), grad_output.sizes().end()) == expected,
                "grid_sampler_3d_backward(): expected grad_output with sizes ", shape_str(expected),
                ", but got grad_output with sizes ", shape_str(grad_output.sizes()));
  const bool input_requires_grad = output_mask[0] != 0;
  Tensor grad_input;
  Tensor grad_grid = make_empty(grid.sizes(), grid.dtype(), grid.device());
  dispatch_dtype_if(input.dtype(), "grid_sampler_3d_backward_cpu", kFloatDouble, [&]<typename T>() {
    check_read_as(input.dtype(), grid.dtype());
    check_read_as(input.dtype(), grad_output.dtype());
    if (input_requires_grad) {
      grad_input = make_empty(input.sizes(), input.dtype(), input.device());
      std::fill_n(grad_input.data_ptr<T>(), grad_input.numel(), T(0));
    }
    if (grid.numel() == 0) return;
    const int64_t o_strides[5] = {grad_output.stride(0), grad_output.stride(1),
                                  grad_output.stride(2), grad_output.stride(3),
                                  grad_output.stride(4)};
    const T* go = grad_output.data_ptr<T>();
    const T* in = input.data_ptr<T>();
    const T* gr = grid.data_ptr<T>();
    T* gi = input_requires_grad ? grad_input.data_ptr<T>() : nullptr;
    T* gg = grad_grid.data_ptr<T>();
    parallel_for(0, g.N, 1, [&](int64_t begin, int64_t end) {
      for (int64_t n = begin; n < end; ++n)
        sample_batch_backward<T>(g, mode, padding, align_corners, o_strides, go + n * o_strides[0],
                                 in + n * g.sN, gr + n * g.gN,
                                 gi == nullptr ? nullptr : gi + n * g.C * g.D * g.H * g.W,
                                 gg + n * g.Do * g.Ho * g.Wo * 3);
    });
  });
  return {grad_input, grad_grid};
}

}  // namespace

static Library cpu_grid_sampler_3d(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("grid_sampler_3d", fn<&grid_sampler_3d>);
  m.impl("grid_sampler_3d_backward", fn<&grid_sampler_3d_backward>);
});

}  // namespace opscope::cpu
