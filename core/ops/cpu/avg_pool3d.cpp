// CPU kernels of avg_pool3d and avg_pool3d_backward (declared in core/ops/nn.cpp, see
// core/ops/nn.h; registered at the end of this file): torch 1.13's avg_pool3d_out_frame /
// avg_pool3d_backward_out_frame (AveragePool3d.cpp) with its checks and messages. What
// F.local_response_norm pools the squares of a 4-D or wider input with.
//
// Semantically, for each plane (n, c) of an input (N, C, T, H, W) or (C, T, H, W) and each output
// position (ot, oh, ow), the window [ot dT - pT, + kT) x [oh dH - pH, + kH) x [ow dW - pW, + kW),
// cut to the padded input and then to the input:
//
//   out = sum of the input in the window / divisor
//   divisor = divisor_override, else the padded window's size (count_include_pad), else the
//             input elements in it
//
// and the backward spreads each gradient / divisor over its window. float32, float64 and int64
// (integer division, as torch's), as torch's AT_DISPATCH_FLOATING_TYPES_AND(Long).
#include <algorithm>
#include <functional>
#include <optional>

#include "core/dispatch/Library.h"
#include "core/ops/copy.h"
#include "core/ops/cpu/Loops.h"
#include "core/ops/nn.h"
#include "core/runtime/CheckedMath.h"
#include "core/runtime/Parallel.h"

namespace opscope::cpu {

namespace {

// A 3-D pooling window over a plane (time, height, width) and its grid of positions.
struct Pool3d {
  int64_t batch, planes;  // planes = batch * channels
  int64_t T, H, W, kT, kH, kW, dT, dH, dW, pT, pH, pW, OT, OH, OW;
  bool batched;

  DimVector out_sizes(int64_t channels) const {
    DimVector s;
    if (batched) s.push_back(batch);
    for (int64_t v : {channels, OT, OH, OW}) s.push_back(v);
    return s;
  }
};

// torch's pooling_output_shape (dilation 1)
int64_t pooled_size(int64_t in, int64_t k, int64_t pad, int64_t stride, bool ceil_mode) {
  OPSCOPE_CHECK(stride != 0, "stride should not be zero");
  OPSCOPE_CHECK(pad >= 0, "pad must be non-negative, but got pad: ", pad);
  OPSCOPE_CHECK(pad <= k / 2, "pad should be at most half of kernel size, but got pad=", pad,
                " and kernel_size=", k);
  // (pad <= k / 2, so the sums below stay in int64 once in + 2 pad and in + stride do; a negative
  // stride gives some size here and is refused by the checks after)
  int64_t num = checked_add(in, 2 * pad, "avg_pool3d") - (k - 1) - 1;
  if (ceil_mode) num = checked_add(num, checked_add(stride, -1, "avg_pool3d"), "avg_pool3d");
  int64_t out = num / stride;
  if (num % stride != 0 && ((num < 0) != (stride < 0))) --out;  // floor
  ++out;
  if (ceil_mode && stride > 0 && (out - 1) * stride >= in + pad) --out;
  return out;
}

// torch's avg_pool3d argument checks and pool3d_shape_check, in their order.
Pool3d pool3d_geometry(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                       IntArrayRef padding, bool ceil_mode, std::optional<int64_t> divisor_override,
                       const char* fn_name) {
  OPSCOPE_CHECK(kernel_size.size() == 1 || kernel_size.size() == 3,
                "avg_pool3d: kernel_size must be a single int, or a tuple of three ints");
  OPSCOPE_CHECK(stride.empty() || stride.size() == 1 || stride.size() == 3,
                "avg_pool3d: stride must be omitted, a single int, or a tuple of three ints");
  OPSCOPE_CHECK(padding.size() == 1 || padding.size() == 3,
                "avg_pool3d: padding must be a single int, or a tuple of three ints");
  OPSCOPE_CHECK(self.dim() == 4 || self.dim() == 5,
                "non-empty 4D or 5D (batch mode) tensor expected for input");
  OPSCOPE_CHECK(!divisor_override || *divisor_override != 0, "divisor must be not zero");
  const auto pick = [](IntArrayRef list, size_t i) { return list.size() == 1 ? list[0] : list[i]; };
  Pool3d p{};
  p.kT = pick(kernel_size, 0), p.kH = pick(kernel_size, 1), p.kW = pick(kernel_size, 2);
  p.dT = stride.empty() ? p.kT : pick(stride, 0);
  p.dH = stride.empty() ? p.kH : pick(stride, 1);
  p.dW = stride.empty() ? p.kW : pick(stride, 2);
  p.pT = pick(padding, 0), p.pH = pick(padding, 1), p.pW = pick(padding, 2);
  p.batched = self.dim() == 5;
  p.batch = p.batched ? self.size(0) : 1;
  const int64_t channels = self.size(-4);
  p.planes = p.batch * channels;
  p.T = self.size(-3), p.H = self.size(-2), p.W = self.size(-1);
  p.OT = pooled_size(p.T, p.kT, p.pT, p.dT, ceil_mode);
  p.OH = pooled_size(p.H, p.kH, p.pH, p.dH, ceil_mode);
  p.OW = pooled_size(p.W, p.kW, p.pW, p.dW, ceil_mode);
  OPSCOPE_CHECK(p.kT > 0 && p.kW > 0 && p.kH > 0,
                "kernel size should be greater than zero, but got kT: ", p.kT, " kH: ", p.kH,
                " kW: ", p.kW);
  OPSCOPE_CHECK(p.dT > 0 && p.dW > 0 && p.dH > 0,
                "stride should be greater than zero, but got dT: ", p.dT, " dH: ", p.dH,
                " dW: ", p.dW);
  const int64_t first = p.batched ? 1 : 0;  // the non-batch dims, counted from 0
  for (int64_t d = first; d < self.dim(); ++d)
    OPSCOPE_CHECK(self.size(d) > 0, fn_name,
                  ": Expected input's non-batch dimensions to have positive length, but input has "
                  "a shape of ",
                  shape_str(self.sizes()), " and non-batch dimension ", d - first,
                  " has length zero!");
  OPSCOPE_CHECK(p.T >= p.kT && p.H >= p.kH && p.W >= p.kW, "input image (T: ", p.T, " H: ", p.H,
                " W: ", p.W, ") smaller than kernel size (kT: ", p.kT, " kH: ", p.kH, " kW: ", p.kW,
                ")");
  OPSCOPE_CHECK(p.OT >= 1 && p.OW >= 1 && p.OH >= 1, "Given input size: (", channels, "x", p.T, "x",
                p.H, "x", p.W, "). Calculated output size: (", channels, "x", p.OT, "x", p.OH, "x",
                p.OW, "). Output size is too small");
  return p;
}

// One window: its bounds cut to the input, and its divisor (0: no input element in it).
struct Window3d {
  int64_t t0, t1, h0, h1, w0, w1, divisor;
};

Window3d window(const Pool3d& p, int64_t ot, int64_t oh, int64_t ow, bool count_include_pad,
                std::optional<int64_t> divisor_override) {
  int64_t t0 = ot * p.dT - p.pT, h0 = oh * p.dH - p.pH, w0 = ow * p.dW - p.pW;
  int64_t t1 = std::min(t0 + p.kT, p.T + p.pT), h1 = std::min(h0 + p.kH, p.H + p.pH),
          w1 = std::min(w0 + p.kW, p.W + p.pW);
  const int64_t pool_size = (t1 - t0) * (h1 - h0) * (w1 - w0);
  t0 = std::max<int64_t>(t0, 0), h0 = std::max<int64_t>(h0, 0), w0 = std::max<int64_t>(w0, 0);
  t1 = std::min(t1, p.T), h1 = std::min(h1, p.H), w1 = std::min(w1, p.W);
  if (t0 >= t1 || h0 >= h1 || w0 >= w1) return {t0, t1, h0, h1, w0, w1, 0};
  const int64_t divisor = divisor_override    ? *divisor_override
                          : count_include_pad ? pool_size
                                              : (t1 - t0) * (h1 - h0) * (w1 - w0);
  return {t0, t1, h0, h1, w0, w1, divisor};
}

// sum / divisor, 0 for an empty window; integers divide as C++'s (truncated), and a divisor of
// -1 negates with wrap-around (INT64_MIN / -1 would trap)
template <typename T>
T mean(T sum, int64_t divisor) {
  if (divisor == 0) return T(0);
  if constexpr (std::is_integral_v<T>) {
    if (divisor == -1) return static_cast<T>(0 - static_cast<uint64_t>(sum));
  }
  return sum / T(divisor);
}

template <typename F>
void dispatch_pool3d(ScalarType dtype, const char* name, F&& body) {
  dispatch_dtype_if(
      dtype, name,
      []<typename T>() {
        return std::bool_constant < std::is_same_v<T, float> || std::is_same_v<T, double> ||
                   std::is_same_v < T,
               int64_t >> {};
      },
      body);
}

void for_each_plane(const Pool3d& p, const std::function<void(int64_t)>& f) {
  const int64_t work = std::max<int64_t>(1, p.OT * p.OH * p.OW * p.kT * p.kH * p.kW);
  parallel_for(0, p.planes, std::max<int64_t>(1, kGrainSize / work), [&](int64_t b, int64_t e) {
    for (int64_t plane = b; plane < e; ++plane) f(plane);
  });
}

}  // namespace

// self (N, C, T, H, W) or (C, T, H, W) -> (N, C, OT, OH, OW): each window's sum / its divisor
Tensor avg_pool3d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                  IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                  std::optional<int64_t> divisor_override) {
  const Pool3d p = pool3d_geometry(self, kernel_size, stride, padding, ceil_mode, divisor_override,
                                   "avg_pool3d()");
  Tensor out = make_empty(p.out_sizes(self.size(-4)), self.dtype(), self.device());
  if (out.numel() == 0) return out;
  const Tensor x = self.is_contiguous() ? self : ops::contiguous(self);
  dispatch_pool3d(self.dtype(), "avg_pool3d_out_frame", [&]<typename T>() {
    const T* in = static_cast<const T*>(x.data());
    T* o = static_cast<T*>(out.data());
    for_each_plane(p, [&](int64_t plane) {
      const T* ip = in + plane * p.T * p.H * p.W;
      T* op = o + plane * p.OT * p.OH * p.OW;
      for (int64_t ot = 0; ot < p.OT; ++ot)
        for (int64_t oh = 0; oh < p.OH; ++oh)
          for (int64_t ow = 0; ow < p.OW; ++ow) {
            const Window3d win = window(p, ot, oh, ow, count_include_pad, divisor_override);
            T sum = 0;
            for (int64_t t = win.t0; t < win.t1; ++t)
              for (int64_t h = win.h0; h < win.h1; ++h)
                for (int64_t w = win.w0; w < win.w1; ++w) sum += ip[(t * p.H + h) * p.W + w];
            op[(ot * p.OH + oh) * p.OW + ow] = mean(sum, win.divisor);
          }
    });
  });
  return out;
}

// grad_output (N, C, OT, OH, OW) -> self's shape: each gradient / divisor spread over its window
Tensor avg_pool3d_backward(const Tensor& grad_output, const Tensor& self, IntArrayRef kernel_size,
                           IntArrayRef stride, IntArrayRef padding, bool ceil_mode,
                           bool count_include_pad, std::optional<int64_t> divisor_override) {
  const Pool3d p = pool3d_geometry(self, kernel_size, stride, padding, ceil_mode, divisor_override,
                                   "avg_pool3d_backward()");
  const DimVector want = p.out_sizes(self.size(-4));
  const IntArrayRef got = grad_output.sizes();
  OPSCOPE_CHECK(std::equal(got.begin(), got.end(), want.begin(), want.end()),
                "avg_pool3d_backward(): expected grad_output of shape ", shape_str(want),
                ", but got ", shape_str(got));
  Tensor grad_input = make_empty(self.sizes(), self.dtype(), self.device());
  if (grad_input.numel() == 0) return grad_input;
  const Tensor gy = grad_output.is_contiguous() ? grad_output : ops::contiguous(grad_output);
  check_read_as(self.dtype(), gy.dtype());
  dispatch_pool3d(self.dtype(), "avg_pool3d_backward_out_frame", [&]<typename T>() {
    const T* g = static_cast<const T*>(gy.data());
    T* gi = static_cast<T*>(grad_input.data());
    for_each_plane(p, [&](int64_t plane) {
      T* dst = gi + plane * p.T * p.H * p.W;
      std::fill(dst, dst + p.T * p.H * p.W, T(0));
      const T* src = g + plane * p.OT * p.OH * p.OW;
      for (int64_t ot = 0; ot < p.OT; ++ot)
        for (int64_t oh = 0; oh < p.OH; ++oh)
          for (int64_t ow = 0; ow < p.OW; ++ow) {
            const Window3d win = window(p, ot, oh, ow, count_include_pad, divisor_override);
            if (win.divisor == 0) continue;
            const T share = mean(src[(ot * p.OH + oh) * p.OW + ow], win.divisor);
            for (int64_t t = win.t0; t < win.t1; ++t)
              for (int64_t h = win.h0; h < win.h1; ++h)
                for (int64_t w = win.w0; w < win.w1; ++w) dst[(t * p.H + h) * p.W + w] += share;
          }
    });
  });
  return grad_input;
}

static Library cpu_avg_pool3d(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("avg_pool3d", fn<&avg_pool3d>);
  m.impl("avg_pool3d_backward", fn<&avg_pool3d_backward>);
});

}  // namespace opscope::cpu
