// CPU kernels of 2-D pooling (declared in core/ops/nn.cpp, registered at the end of this file):
// max_pool2d_with_indices, avg_pool2d, _adaptive_avg_pool2d, adaptive_max_pool2d and their
// backward ops. 1-D pooling reaches them as 2-D pooling of height 1 (core/ops/composite/pool.cpp).
//
// Semantically each output cell (oh, ow) of each plane (n, c) reduces a window of the input plane:
//   max / avg pooling   rows oh*sH - pH + i*dH for i < kH (avg: dH = 1), the same for columns;
//                       positions in the padding are skipped by max and count as zeros for avg
//   adaptive pooling    rows [floor(oh H / OH), ceil((oh + 1) H / OH)), the same for columns
// Max pooling also returns, per cell, the flat index h * W + w of its maximum in the plane (NaN
// wins, as in torch), which its backward scatters the gradient to.
//
// In implementation terms: planes are independent, so every kernel splits the N*C planes over
// threads and walks each plane's windows directly (no im2col: a window is read once).
#include <cmath>
#include <limits>

#include "core/dispatch/Library.h"
#include "core/ops/arg_checks.h"
#include "core/ops/copy.h"
#include "core/ops/cpu/Loops.h"
#include "core/ops/nn.h"
#include "core/runtime/Parallel.h"

namespace opscope::cpu {

namespace {

Tensor contiguous(const Tensor& t) {
  return t.is_contiguous() ? t : ops::contiguous(t);
}

// A call's window and planes: checks::pool2d_geometry, shared with the CUDA kernels.
using Pool2d = checks::Pool2dGeometry;

template <typename T>
constexpr bool is_float_v = std::is_same_v<T, float> || std::is_same_v<T, double>;

[[noreturn]] void not_implemented(const char* name, ScalarType t) {
  throw Error(detail::str("\"", name, "\" not implemented for '", cpp_name(t), "'"));
}

int64_t plane_grain(int64_t plane_work) {
  return std::max<int64_t>(1, kGrainSize / std::max<int64_t>(plane_work, 1));
}

// Runs body<T>() for float and double self; other dtypes raise torch's "not implemented" error.
template <typename Body>
void dispatch_float(ScalarType dtype, const char* name, Body&& body) {
  dispatch_dtype(dtype, name, [&]<typename T>() {
    if constexpr (is_float_v<T>) {
      body.template operator()<T>();
    } else {
      not_implemented(name, dtype);
    }
  });
}

// Runs f(plane) for each plane < planes, on all threads, chunks of plane_grain(plane_work).
template <typename F>
void for_each_plane(int64_t planes, int64_t plane_work, F&& f) {
  parallel_for(0, planes, plane_grain(plane_work), [&](int64_t b, int64_t e) {
    for (int64_t plane = b; plane < e; ++plane) f(plane);
  });
}

// Adaptive windows: [floor(i in / out), ceil((i + 1) in / out)).
int64_t start_index(int64_t i, int64_t out, int64_t in) { return (i * in) / out; }
int64_t end_index(int64_t i, int64_t out, int64_t in) { return ((i + 1) * in + out - 1) / out; }

// The maximum of plane (rows W long) over rows h0, h0 + dh, ... < h1 and columns w0, w0 + dw, ...
// < w1, and where it is (h * W + w; the window's first cell when it is empty).
template <typename T>
std::pair<T, int64_t> window_max(const T* plane, int64_t W, int64_t h0, int64_t h1, int64_t dh,
                                 int64_t w0, int64_t w1, int64_t dw) {
  T best = -std::numeric_limits<T>::infinity();
  int64_t best_at = h0 * W + w0;
  for (int64_t h = h0; h < h1; h += dh) {
    for (int64_t w = w0; w < w1; w += dw) {
      const T v = plane[h * W + w];
      if (v > best || std::isnan(v)) {  // as torch: the last NaN wins
        best = v;
        best_at = h * W + w;
      }
    }
  }
  return {best, best_at};
}

// An adaptive pool's window: rows [h0, h1), columns [w0, w1) of the input plane.
struct Window {
  int64_t h0, h1, w0, w1;
  int64_t area() const { return (h1 - h0) * (w1 - w0); }
};

// Calls f(oh, ow, window) for each cell of the OH x OW output over an H x W input plane.
template <typename F>
void for_each_adaptive_window(int64_t H, int64_t W, int64_t OH, int64_t OW, F&& f) {
  for (int64_t oh = 0; oh < OH; ++oh) {
    const int64_t h0 = start_index(oh, OH, H), h1 = end_index(oh, OH, H);
    for (int64_t ow = 0; ow < OW; ++ow)
      f(oh, ow, Window{h0, h1, start_index(ow, OW, W), end_index(ow, OW, W)});
  }
}

// self's last two sizes (H, W) and how many H x W planes it holds.
struct PlaneShape {
  int64_t H, W, planes;
};
PlaneShape plane_shape(const Tensor& self) {
  const int64_t ndim = self.dim(), H = self.size(ndim - 2), W = self.size(ndim - 1);
  return {H, W, self.numel() / std::max<int64_t>(H * W, 1)};
}

// The adaptive pools take (C, H, W) or (N, C, H, W); op names the op as torch's message does.
void check_3d_or_4d(const Tensor& t, const char* op) {
  OPSCOPE_CHECK(t.dim() == 3 || t.dim() == 4, op, "(): Expected 3D or 4D tensor, but got ",
                shape_str(t.sizes()));
}

// As above, for the adaptive backwards, which first check self's dims.
PlaneShape plane_shape(const Tensor& self, const char* name) {
  check_3d_or_4d(self, name);
  return plane_shape(self);
}

// self's sizes with the last two replaced by (OH, OW).
DimVector pooled_sizes(const Tensor& self, int64_t OH, int64_t OW) {
  DimVector sizes(self.sizes().begin(), self.sizes().end() - 2);
  sizes.push_back(OH);
  sizes.push_back(OW);
  return sizes;
}

std::pair<int64_t, int64_t> adaptive_output(IntArrayRef output_size, const Tensor& input,
                                            const char* op) {
  OPSCOPE_CHECK(output_size.size() == 2, op, ": output_size must be 2");
  check_3d_or_4d(input, op);
  const int64_t ndim = input.dim();
  for (int64_t i = ndim - 2; i < ndim; ++i)
    OPSCOPE_CHECK(input.size(i) > 0, op,
                  "(): Expected input to have non-zero size for non-batch dimensions, but input "
                  "has sizes ",
                  shape_str(input.sizes()), " with dimension ", i, " being empty");
  return {output_size[0], output_size[1]};
}

// One output row of a max pool whose windows lie inside the plane: for each window tap, all the
// row's windows at once (NaN wins, and among NaNs the last, as in the general loop).
template <typename T>
OPSCOPE_VECTOR_CLONES void max_pool_row_inside(const T* ip, T* __restrict out,
                                               int64_t* __restrict at, const Pool2d& p,
                                               int64_t oh) {
  const int64_t OW = p.OW, sW = p.sW;
  for (int64_t ow = 0; ow < OW; ++ow) {
    out[ow] = -std::numeric_limits<T>::infinity();
    at[ow] = oh * p.sH * p.W + ow * sW;
  }
  for (int64_t i = 0; i < p.kH; ++i) {
    const int64_t h = oh * p.sH + i * p.dH;
    for (int64_t j = 0; j < p.kW; ++j) {
      const int64_t first = h * p.W + j * p.dW;
      const T* src = ip + first;
#pragma omp simd
      for (int64_t ow = 0; ow < OW; ++ow) {
        const T v = src[ow * sW];
        const bool better = v > out[ow] || v != v;
        out[ow] = better ? v : out[ow];
        at[ow] = better ? first + ow * sW : at[ow];
      }
    }
  }
}

}  // namespace

// self (N, C, H, W) or (C, H, W) -> (out (N, C, OH, OW), indices int64 (N, C, OH, OW))
std::tuple<Tensor, Tensor> max_pool2d_with_indices(const Tensor& self, IntArrayRef kernel_size,
                                                   IntArrayRef stride, IntArrayRef padding,
                                                   IntArrayRef dilation, bool ceil_mode) {
  const Pool2d p = checks::pool2d_geometry(self, kernel_size, stride, padding, dilation, ceil_mode,
                                           "max_pool2d");
  const Tensor x = contiguous(self);
  Tensor out = make_empty(p.out_sizes(), self.dtype());
  Tensor indices = make_empty(p.out_sizes(), ScalarType::Int64);
  dispatch_float(self.dtype(), "max_pool2d", [&]<typename T>() {
    const T* in = x.data_ptr<T>();
    T* o = out.data_ptr<T>();
    int64_t* idx = indices.data_ptr<int64_t>();
    // No padding and every window inside: one vectorizable pass per window tap.
    const bool inside = p.pH == 0 && p.pW == 0 && (p.OH - 1) * p.sH + (p.kH - 1) * p.dH < p.H &&
                        (p.OW - 1) * p.sW + (p.kW - 1) * p.dW < p.W;
    for_each_plane(p.planes, p.OH * p.OW * p.kH * p.kW, [&](int64_t plane) {
      const T* ip = in + plane * p.H * p.W;
      T* op = o + plane * p.OH * p.OW;
      int64_t* xp = idx + plane * p.OH * p.OW;
      if (inside) {
        for (int64_t oh = 0; oh < p.OH; ++oh)
          max_pool_row_inside(ip, op + oh * p.OW, xp + oh * p.OW, p, oh);
        return;  // this plane is done
      }
      for (int64_t oh = 0; oh < p.OH; ++oh) {
        int64_t h0 = oh * p.sH - p.pH;
        const int64_t h1 = std::min(h0 + (p.kH - 1) * p.dH + 1, p.H);
        while (h0 < 0) h0 += p.dH;
        for (int64_t ow = 0; ow < p.OW; ++ow) {
          int64_t w0 = ow * p.sW - p.pW;
          const int64_t w1 = std::min(w0 + (p.kW - 1) * p.dW + 1, p.W);
          while (w0 < 0) w0 += p.dW;
          const auto [best, best_at] = window_max(ip, p.W, h0, h1, p.dH, w0, w1, p.dW);
          op[oh * p.OW + ow] = best;
          xp[oh * p.OW + ow] = best_at;
        }
      }
    });
  });
  return {out, indices};
}

// grad_output (N, C, OH, OW), indices -> grad_input of self's shape: each gradient added at its
// window's maximum.
Tensor max_pool2d_with_indices_backward(const Tensor& grad_output, const Tensor& self,
                                        IntArrayRef kernel_size, IntArrayRef stride,
                                        IntArrayRef padding, IntArrayRef dilation, bool ceil_mode,
                                        const Tensor& indices) {
  const Pool2d p = checks::pool2d_geometry(self, kernel_size, stride, padding, dilation, ceil_mode,
                                           "max_pool2d_with_indices_backward");
  const Tensor gy = contiguous(grad_output), idx_t = contiguous(indices);
  checks::pool2d_grad_output(gy, p, "max_pool2d_with_indices_backward");
  Tensor grad_input = make_empty(self.sizes(), self.dtype());
  dispatch_float(self.dtype(), "max_pool2d_with_indices_backward", [&]<typename T>() {
    const T* g = gy.data_ptr<T>();
    const int64_t* idx = idx_t.data_ptr<int64_t>();
    T* gi = grad_input.data_ptr<T>();
    for_each_plane(p.planes, p.H * p.W, [&](int64_t plane) {
      T* dst = gi + plane * p.H * p.W;
      std::fill(dst, dst + p.H * p.W, T(0));
      const T* src = g + plane * p.OH * p.OW;
      const int64_t* at = idx + plane * p.OH * p.OW;
      for (int64_t i = 0; i < p.OH * p.OW; ++i)
        if (at[i] >= 0) dst[at[i]] += src[i];
    });
  });
  return grad_input;
}

namespace {

// One avg_pool2d window: its clipped bounds and divisor (0: an empty window, output 0).
struct AvgWindow {
  int64_t h0, h1, w0, w1, divisor;
};

AvgWindow avg_window(const Pool2d& p, int64_t oh, int64_t ow, bool count_include_pad,
                     std::optional<int64_t> divisor_override) {
  int64_t h0 = oh * p.sH - p.pH, w0 = ow * p.sW - p.pW;
  int64_t h1 = std::min(h0 + p.kH, p.H + p.pH), w1 = std::min(w0 + p.kW, p.W + p.pW);
  const int64_t pool_size = (h1 - h0) * (w1 - w0);
  h0 = std::max<int64_t>(h0, 0);
  w0 = std::max<int64_t>(w0, 0);
  h1 = std::min(h1, p.H);
  w1 = std::min(w1, p.W);
  if (h0 >= h1 || w0 >= w1) return {h0, h1, w0, w1, 0};
  const int64_t divisor = divisor_override ? *divisor_override
                          : count_include_pad ? pool_size
                                              : (h1 - h0) * (w1 - w0);
  return {h0, h1, w0, w1, divisor};
}

}  // namespace

// self (N, C, H, W) or (C, H, W) -> (N, C, OH, OW): each window's sum / its divisor
Tensor avg_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                  IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                  std::optional<int64_t> divisor_override) {
  OPSCOPE_CHECK(!divisor_override || *divisor_override != 0, "divisor must be not zero");
  const Pool2d p =
      checks::pool2d_geometry(self, kernel_size, stride, padding, {1}, ceil_mode, "avg_pool2d");
  const Tensor x = contiguous(self);
  Tensor out = make_empty(p.out_sizes(), self.dtype());
  dispatch_float(self.dtype(), "avg_pool2d", [&]<typename T>() {
    const T* in = x.data_ptr<T>();
    T* o = out.data_ptr<T>();
    for_each_plane(p.planes, p.OH * p.OW * p.kH * p.kW, [&](int64_t plane) {
      const T* ip = in + plane * p.H * p.W;
      T* op = o + plane * p.OH * p.OW;
      for (int64_t oh = 0; oh < p.OH; ++oh) {
        for (int64_t ow = 0; ow < p.OW; ++ow) {
          const AvgWindow win = avg_window(p, oh, ow, count_include_pad, divisor_override);
          if (win.divisor == 0) {
            op[oh * p.OW + ow] = T(0);
            continue;
          }
          T sum = 0;
          for (int64_t h = win.h0; h < win.h1; ++h)
            for (int64_t w = win.w0; w < win.w1; ++w) sum += ip[h * p.W + w];
          op[oh * p.OW + ow] = sum / T(win.divisor);
        }
      }
    });
  });
  return out;
}

// grad_output (N, C, OH, OW) -> grad_input of self's shape: each gradient / divisor spread over
// its window.
Tensor avg_pool2d_backward(const Tensor& grad_output, const Tensor& self, IntArrayRef kernel_size,
                           IntArrayRef stride, IntArrayRef padding, bool ceil_mode,
                           bool count_include_pad, std::optional<int64_t> divisor_override) {
  OPSCOPE_CHECK(!divisor_override || *divisor_override != 0, "divisor must be not zero");
  const Pool2d p = checks::pool2d_geometry(self, kernel_size, stride, padding, {1}, ceil_mode,
                                           "avg_pool2d_backward");
  const Tensor gy = contiguous(grad_output);
  checks::pool2d_grad_output(gy, p, "avg_pool2d_backward");
  Tensor grad_input = make_empty(self.sizes(), self.dtype());
  dispatch_float(self.dtype(), "avg_pool2d_backward", [&]<typename T>() {
    const T* g = gy.data_ptr<T>();
    T* gi = grad_input.data_ptr<T>();
    for_each_plane(p.planes, p.OH * p.OW * p.kH * p.kW, [&](int64_t plane) {
      T* dst = gi + plane * p.H * p.W;
      std::fill(dst, dst + p.H * p.W, T(0));
      const T* src = g + plane * p.OH * p.OW;
      for (int64_t oh = 0; oh < p.OH; ++oh) {
        for (int64_t ow = 0; ow < p.OW; ++ow) {
          const AvgWindow win = avg_window(p, oh, ow, count_include_pad, divisor_override);
          if (win.divisor == 0) continue;
          const T share = src[oh * p.OW + ow] / T(win.divisor);
          for (int64_t h = win.h0; h < win.h1; ++h)
            for (int64_t w = win.w0; w < win.w1; ++w) dst[h * p.W + w] += share;
        }
      }
    });
  });
  return grad_input;
}

// self (N, C, H, W) or (C, H, W) -> (N, C, OH, OW): the mean of each adaptive window
Tensor _adaptive_avg_pool2d(const Tensor& self, IntArrayRef output_size) {
  const auto [OH, OW] = adaptive_output(output_size, self, "adaptive_avg_pool2d");
  const auto [H, W, planes] = plane_shape(self);
  const DimVector sizes = pooled_sizes(self, OH, OW);
  const Tensor x = contiguous(self);
  Tensor out = make_empty(sizes, self.dtype());
  dispatch_float(self.dtype(), "adaptive_avg_pool2d", [&]<typename T>() {
    const T* in = x.data_ptr<T>();
    T* o = out.data_ptr<T>();
    for_each_plane(planes, H * W, [&](int64_t plane) {
      const T* ip = in + plane * H * W;
      T* op = o + plane * OH * OW;
      for_each_adaptive_window(H, W, OH, OW, [&](int64_t oh, int64_t ow, const Window& win) {
        T sum = 0;
        for (int64_t h = win.h0; h < win.h1; ++h)
          for (int64_t w = win.w0; w < win.w1; ++w) sum += ip[h * W + w];
        op[oh * OW + ow] = sum / T(win.area());
      });
    });
  });
  return out;
}

// grad_output (N, C, OH, OW) -> grad_input of self's shape
Tensor _adaptive_avg_pool2d_backward(const Tensor& grad_output, const Tensor& self) {
  const auto [H, W, planes] = plane_shape(self, "adaptive_avg_pool2d_backward");
  const int64_t OH = grad_output.size(-2), OW = grad_output.size(-1);
  const Tensor gy = contiguous(grad_output);
  Tensor grad_input = make_empty(self.sizes(), self.dtype());
  dispatch_float(self.dtype(), "adaptive_avg_pool2d_backward_cpu", [&]<typename T>() {
    const T* g = gy.data_ptr<T>();
    T* gi = grad_input.data_ptr<T>();
    for_each_plane(planes, H * W, [&](int64_t plane) {
      T* dst = gi + plane * H * W;
      std::fill(dst, dst + H * W, T(0));
      const T* src = g + plane * OH * OW;
      for_each_adaptive_window(H, W, OH, OW, [&](int64_t oh, int64_t ow, const Window& win) {
        const T share = src[oh * OW + ow] / T(win.area());
        for (int64_t h = win.h0; h < win.h1; ++h)
          for (int64_t w = win.w0; w < win.w1; ++w) dst[h * W + w] += share;
      });
    });
  });
  return grad_input;
}

// self (N, C, H, W) or (C, H, W) -> (out, indices int64): the maximum of each adaptive window
std::tuple<Tensor, Tensor> adaptive_max_pool2d(const Tensor& self, IntArrayRef output_size) {
  const auto [OH, OW] = adaptive_output(output_size, self, "adaptive_max_pool2d");
  const auto [H, W, planes] = plane_shape(self);
  const DimVector sizes = pooled_sizes(self, OH, OW);
  const Tensor x = contiguous(self);
  Tensor out = make_empty(sizes, self.dtype());
  Tensor indices = make_empty(sizes, ScalarType::Int64);
  dispatch_float(self.dtype(), "adaptive_max_pool2d", [&]<typename T>() {
    const T* in = x.data_ptr<T>();
    T* o = out.data_ptr<T>();
    int64_t* idx = indices.data_ptr<int64_t>();
    for_each_plane(planes, H * W, [&](int64_t plane) {
      const T* ip = in + plane * H * W;
      for_each_adaptive_window(H, W, OH, OW, [&](int64_t oh, int64_t ow, const Window& win) {
        const auto [best, best_at] = window_max(ip, W, win.h0, win.h1, 1, win.w0, win.w1, 1);
        o[plane * OH * OW + oh * OW + ow] = best;
        idx[plane * OH * OW + oh * OW + ow] = best_at;
      });
    });
  });
  return {out, indices};
}

// grad_output (N, C, OH, OW), indices -> grad_input of self's shape
Tensor adaptive_max_pool2d_backward(const Tensor& grad_output, const Tensor& self,
                                    const Tensor& indices) {
  const auto [H, W, planes] = plane_shape(self, "adaptive_max_pool2d_backward");
  const int64_t cells = grad_output.size(-2) * grad_output.size(-1);
  const Tensor gy = contiguous(grad_output), idx_t = contiguous(indices);
  Tensor grad_input = make_empty(self.sizes(), self.dtype());
  dispatch_float(self.dtype(), "adaptive_max_pool2d_backward", [&]<typename T>() {
    const T* g = gy.data_ptr<T>();
    const int64_t* idx = idx_t.data_ptr<int64_t>();
    T* gi = grad_input.data_ptr<T>();
    for_each_plane(planes, H * W, [&](int64_t plane) {
      T* dst = gi + plane * H * W;
      std::fill(dst, dst + H * W, T(0));
      for (int64_t i = 0; i < cells; ++i) dst[idx[plane * cells + i]] += g[plane * cells + i];
    });
  });
  return grad_input;
}

static Library cpu_pool(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("max_pool2d_with_indices", fn<&max_pool2d_with_indices>);
  m.impl("max_pool2d_with_indices_backward", fn<&max_pool2d_with_indices_backward>);
  m.impl("avg_pool2d", fn<&avg_pool2d>);
  m.impl("avg_pool2d_backward", fn<&avg_pool2d_backward>);
  m.impl("_adaptive_avg_pool2d", fn<&_adaptive_avg_pool2d>);
  m.impl("_adaptive_avg_pool2d_backward", fn<&_adaptive_avg_pool2d_backward>);
  m.impl("adaptive_max_pool2d", fn<&adaptive_max_pool2d>);
  m.impl("adaptive_max_pool2d_backward", fn<&adaptive_max_pool2d_backward>);
});

}  // namespace opscope::cpu
