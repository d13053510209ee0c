// CUDA kernels of 2-D convolution, host side: _slow_conv2d_forward and slow_conv_dilated2d (what
// the composite convolution calls for a non-transposed 2-D or 1-D convolution, one call per
// group) and convolution_backward (non-transposed). Float32 / float64, with the CPU kernels'
// checks and messages (the ones both make are in core/ops/arg_checks.h: conv_args,
// conv2d_kernel_size, conv_dtypes). Transposed convolutions have no CUDA kernel:
// slow_conv_transpose2d raises the dispatcher's NotImplementedError, convolution_backward a
// NotImplementedError of its own.
//
// In implementation terms, im2col (conv.cu) lays each image's windows out as the columns of a
// (C kh kw, OH OW) matrix, and the products go through the matmul op, that is cuBLAS (so a trace
// shows matmul -> bmm under the convolution, as torch's slow CUDA path shows addmm):
//   forward       out[n] = W (O, C kh kw) @ col[n] + bias
//   grad_input    col2im(W^T @ grad_out[n])
//   grad_weight   sum over n of grad_out[n] @ col[n]^T
//   grad_bias     sum of grad_out over (n, h, w)
// Memory: the column matrix of the whole batch, C kh kw OH OW N elements.
#include <vector>

#include "core/cuda/kernels/KernelUtil.h"
#include "core/cuda/kernels/LaunchTraining.h"
#include "core/dispatch/Library.h"
#include "core/ops/arg_checks.h"
#include "core/ops/binary.h"
#include "core/ops/copy.h"
#include "core/ops/factories.h"
#include "core/ops/linear.h"
#include "core/ops/nn.h"
#include "core/ops/reduce.h"
#include "core/ops/shape.h"
#include "core/ops/views.h"

namespace opscope::cuda {

namespace {

Tensor contiguous_or_self(const Tensor& t) {
  return !t.defined() || t.is_contiguous() ? t : ops::contiguous(t);
}

void check_float(const Tensor& t, const char* what) {
  OPSCOPE_CHECK(t.dtype() == ScalarType::Float32 || t.dtype() == ScalarType::Float64, "\"", what,
                "\" not implemented for '", cpp_name(t.dtype()), "'");
}

int64_t second(IntArrayRef v) { return v.size() > 1 ? v[1] : v[0]; }  // [k] is [k, k]

// The geometry of input (N, C, H, W) under weight (O, C, kh, kw) and the window's parameters.
ConvGeom conv_geom(const Tensor& input, const Tensor& weight, IntArrayRef stride,
                   IntArrayRef padding, IntArrayRef dilation) {
  ConvGeom g{};
  g.N = input.size(0);
  g.C = input.size(1);
  g.H = input.size(2);
  g.W = input.size(3);
  g.kh = weight.size(2);
  g.kw = weight.size(3);
  g.sh = stride[0];
  g.sw = second(stride);
  g.ph = padding[0];
  g.pw = second(padding);
  g.dh = dilation[0];
  g.dw = second(dilation);
  g.OH = (g.H + 2 * g.ph - g.dh * (g.kh - 1) - 1) / g.sh + 1;
  g.OW = (g.W + 2 * g.pw - g.dw * (g.kw - 1) - 1) / g.sw + 1;
  OPSCOPE_CHECK(g.OH > 0 && g.OW > 0, "Given input size per channel: (", g.H, " x ", g.W,
                "). Calculated output size per channel: (", g.OH, " x ", g.OW,
                "). Output size is too small");
  return g;
}

// col (N, C kh kw, OH OW) of a contiguous input.
Tensor im2col(const Tensor& x, const ConvGeom& g) {
  Tensor col = make_empty({g.N, g.C * g.kh * g.kw, g.OH * g.OW}, x.dtype(), x.device());
  launch_im2col(dt_of(x.dtype()), x.data(), col.data(), g, current_stream_ptr());
  return col;
}

Tensor conv2d_forward(const Tensor& self, const Tensor& weight, const Tensor& bias,
                      IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                      const char* name) {
  check_float(self, name);
  checks::conv_dtypes(self, weight, bias);
  check_same_device(self, weight, name);
  if (bias.defined()) check_same_device(self, bias, name);
  CUDAGuard guard(self.device());
  const Tensor x = contiguous_or_self(self);
  const ConvGeom g = conv_geom(x, weight, stride, padding, dilation);
  const int64_t O = weight.size(0), K = g.C * g.kh * g.kw;
  if (g.N == 0 || O == 0) return make_empty({g.N, O, g.OH, g.OW}, self.dtype(), self.device());
  const Tensor col = im2col(x, g);
  // (O, K) @ (N, K, L) -> (N, O, L)
  Tensor out = ops::matmul(ops::reshape(weight, std::array<int64_t, 2>{O, K}), col);
  if (bias.defined())
    out = ops::add(out, ops::reshape(bias, std::array<int64_t, 3>{1, O, 1}));
  return ops::reshape(out, std::array<int64_t, 4>{g.N, O, g.OH, g.OW});
}

// self (N, C, H, W), weight (O, C, kh, kw), bias (O) -> (N, O, OH, OW)
Tensor _slow_conv2d_forward(const Tensor& self, const Tensor& weight, IntArrayRef kernel_size,
                            const Tensor& bias, IntArrayRef stride, IntArrayRef padding) {
  checks::conv2d_kernel_size(kernel_size, weight);
  checks::conv_args(self, weight, 2, stride, padding, {1}, {}, 1, false);
  return conv2d_forward(self, weight, bias, stride, padding, {1}, "slow_conv2d_cuda");
}

// As _slow_conv2d_forward, the window's taps `dilation` apart.
Tensor slow_conv_dilated2d(const Tensor& self, const Tensor& weight, IntArrayRef kernel_size,
                           const Tensor& bias, IntArrayRef stride, IntArrayRef padding,
                           IntArrayRef dilation) {
  checks::conv2d_kernel_size(kernel_size, weight);
  checks::conv_args(self, weight, 2, stride, padding, dilation, {}, 1, false);
  return conv2d_forward(self, weight, bias, stride, padding, dilation, "slow_conv_dilated2d_cuda");
}

// One group's gradients: grad_output (N, O, OH, OW), input (N, C, H, W), weight (O, C, kh, kw),
// all contiguous.
std::tuple<Tensor, Tensor, Tensor> conv2d_backward_group(const Tensor& gy, const Tensor& x,
                                                         const Tensor& w, const ConvGeom& g,
                                                         const std::vector<int64_t>& mask) {
  const int64_t O = w.size(0), K = g.C * g.kh * g.kw, L = g.OH * g.OW;
  const Tensor gy3 = ops::reshape(gy, std::array<int64_t, 3>{g.N, O, L});
  Tensor gi, gw, gb;
  if (mask[0] != 0) {
    gi = make_empty({g.N, g.C, g.H, g.W}, x.dtype(), x.device());
    if (gi.numel() > 0) {
      if (g.N == 0 || O == 0 || K == 0) {
        ops::zero_(gi);
      } else {
        // (K, O) @ (N, O, L) -> (N, K, L), then each input element sums the entries reading it
        const Tensor wt = ops::transpose(ops::reshape(w, std::array<int64_t, 2>{O, K}), 0, 1);
        const Tensor cols = contiguous_or_self(ops::matmul(wt, gy3));
        launch_col2im(dt_of(x.dtype()), cols.data(), gi.data(), g, current_stream_ptr());
      }
    }
  }
  if (mask[1] != 0) {
    if (g.N == 0 || L == 0) {
      gw = ops::zeros_like(w);
    } else {
      // sum over n of (O, L) @ (L, K) -> (O, K)
      const Tensor col = im2col(x, g);
      gw = ops::sum(ops::matmul(gy3, ops::transpose(col, 1, 2)), IntArrayRef{0});
      gw = ops::reshape(gw, w.sizes());
    }
  }
  if (mask[2] != 0) gb = ops::sum(gy3, IntArrayRef{0, 2});
  return {gi, gw, gb};
}

// grad_output (N, O, o...) -> grads of input (N, C, d...), weight and bias (bias_sizes), for a
// non-transposed 1-D or 2-D convolution; groups one after the other, their gradients concatenated.
std::tuple<Tensor, Tensor, Tensor> convolution_backward(
    const Tensor& grad_output, const Tensor& input, const Tensor& weight,
    std::optional<IntArrayRef> bias_sizes, IntArrayRef stride, IntArrayRef padding,
    IntArrayRef dilation, bool transposed, IntArrayRef output_padding, int64_t groups,
    IntArrayRef output_mask) {
  checks::conv_backward_args(grad_output, input, weight, stride, padding, dilation, transposed,
                             output_padding, groups, output_mask);
  const int64_t dim = input.dim();
  OPSCOPE_CHECK_AS(NotImplementedError, !transposed,
                   "convolution_backward: transposed convolutions have no CUDA kernel in opscope");
  check_float(input, "slow_conv2d_cuda_grad_input");
  checks::conv_dtypes(input, weight, Tensor());
  check_same_device(input, weight, "convolution_backward");
  check_same_device(input, grad_output, "convolution_backward");
  std::vector<int64_t> mask(output_mask.begin(), output_mask.end());
  mask[2] = mask[2] != 0 && bias_sizes.has_value();
  if (dim == 3) {  // 1-D: the 2-D backward of height 1
    auto [gi, gw, gb] = convolution_backward(
        ops::unsqueeze(grad_output, 2), ops::unsqueeze(input, 2), ops::unsqueeze(weight, 2),
        bias_sizes, std::array<int64_t, 2>{1, stride[0]}, std::array<int64_t, 2>{0, padding[0]},
        std::array<int64_t, 2>{1, dilation[0]}, transposed, std::array<int64_t, 2>{0, 0}, groups,
        mask);
    return {gi.defined() ? ops::squeeze(gi, 2) : gi, gw.defined() ? ops::squeeze(gw, 2) : gw, gb};
  }
  CUDAGuard guard(input.device());
  const int64_t Cg = input.size(1) / groups, Og = weight.size(0) / groups;
  std::vector<Tensor> gis, gws, gbs;
  for (int64_t k = 0; k < groups; ++k) {
    const Tensor x = contiguous_or_self(groups == 1 ? input : ops::narrow(input, 1, k * Cg, Cg));
    const Tensor w =
        contiguous_or_self(groups == 1 ? weight : ops::narrow(weight, 0, k * Og, Og));
    const Tensor gy = contiguous_or_self(
        groups == 1 ? grad_output : ops::narrow(grad_output, 1, k * Og, Og));
    const ConvGeom g = conv_geom(x, w, stride, padding, dilation);
    OPSCOPE_CHECK(gy.size(0) == g.N && gy.size(1) == Og && gy.size(2) == g.OH &&
                      gy.size(3) == g.OW,
                  "convolution_backward: grad_output of size ", shape_str(grad_output.sizes()),
                  " does not match the convolution's output (", g.N, ", ", Og * groups, ", ",
                  g.OH, ", ", g.OW, ")");
    auto [gi, gw, gb] = conv2d_backward_group(gy, x, w, g, mask);
    gis.push_back(gi);
    gws.push_back(gw);
    gbs.push_back(gb);
  }
  if (groups == 1) return {gis[0], gws[0], gbs[0]};
  return {mask[0] ? ops::cat(gis, 1) : Tensor(), mask[1] ? ops::cat(gws, 0) : Tensor(),
          mask[2] ? ops::cat(gbs, 0) : Tensor()};
}

}  // namespace

static Library cuda_conv(Library::IMPL, "aten", DispatchKey::CUDA, [](Library& m) {
  m.impl("_slow_conv2d_forward", fn<&_slow_conv2d_forward>);
  m.impl("slow_conv_dilated2d", fn<&slow_conv_dilated2d>);
  m.impl("convolution_backward", fn<&convolution_backward>);
});

}  // namespace opscope::cuda
