// The composite kernels of the convolutions (declared in core/ops/nn.cpp, registered at the end of
// this file), calling their children through ops:: in torch 1.13's order (Convolution.cpp), so
// a trace shows the chain torch's slow CPU path runs:
//
//   conv1d / conv2d            batchify (unsqueeze(0) for an unbatched input), convolution
//   conv*d.padding             _convolution_mode: "valid" = padding 0, "same" = dil (k - 1) / 2
//                              each side (constant_pad_nd first when the halves differ)
//   conv_transpose1d / 2d      batchify, convolution(transposed=true)
//   convolution                _convolution             (CompositeExplicitAutograd: below
//                                                         ConvolutionBackward0)
//   _convolution               checks; 1-D viewed as 2-D (unsqueeze(2)); per group (narrow +
//                              contiguous, then cat): slow_conv_transpose2d if transposed,
//                              slow_conv_dilated2d if dilated, else thnn_conv2d
//   thnn_conv2d                _slow_conv2d_forward (core/ops/cpu/conv.cpp)
//
// torch 1.13 sends float32 batches to mkldnn_convolution instead (oneDNN); opscope has no oneDNN
// and runs every dtype through the slow path's ops, as torch does for float64.
#include <string>

#include "core/dispatch/Library.h"
#include "core/ops/copy.h"
#include "core/ops/nn.h"
#include "core/ops/shape.h"
#include "core/ops/views.h"

namespace opscope::composite {

namespace {

// torch's batchify: an input of num_spatial + 1 dims is one unbatched sample.
std::pair<Tensor, bool> batchify(const Tensor& input, int64_t num_spatial, const char* name) {
  const int64_t unbatched = num_spatial + 1, batched = unbatched + 1;
  const bool is_batched = input.dim() == batched;
  OPSCOPE_CHECK(input.dim() == unbatched || is_batched, "Expected ", unbatched,
                "D (unbatched) or ", batched, "D (batched) input to ", name,
                ", but got input of size: ", shape_str(input.sizes()));
  return {is_batched ? input : ops::unsqueeze(input, 0), is_batched};
}

std::string list_str(IntArrayRef v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

// A parameter given once for every spatial dim, or once per dim.
std::vector<int64_t> expand_param(IntArrayRef v, const char* name, int64_t dim) {
  if (v.size() == 1) return std::vector<int64_t>(static_cast<size_t>(dim), v[0]);
  OPSCOPE_CHECK(static_cast<int64_t>(v.size()) == dim, "expected ", name,
                " to be a single integer value or a list of ", dim,
                " values to match the convolution dimensions, but got ", name, "=", list_str(v));
  return {v.begin(), v.end()};
}

// torch's check_shape_forward.
void check_shape_forward(const Tensor& input, IntArrayRef w, const Tensor& bias,
                         const std::vector<int64_t>& padding,
                         const std::vector<int64_t>& stride,
                         const std::vector<int64_t>& dilation,
                         const std::vector<int64_t>& output_padding, bool transposed,
                         int64_t groups) {
  const int64_t k = input.dim(), weight_dim = static_cast<int64_t>(w.size());
  for (int64_t p : padding) OPSCOPE_CHECK(p >= 0, "negative padding is not supported");
  for (int64_t p : output_padding)
    OPSCOPE_CHECK(p >= 0, "negative output_padding is not supported");
  for (int64_t s : stride) OPSCOPE_CHECK(s > 0, "non-positive stride is not supported");
  for (int64_t d : dilation) OPSCOPE_CHECK(d > 0, "non-positive dilation is not supported");
  OPSCOPE_CHECK(weight_dim == k, "Expected ", weight_dim, "-dimensional input for ", weight_dim,
                "-dimensional weight ", list_str(w), ", but got ", k,
                "-dimensional input of size ", list_str(input.sizes()), " instead");
  OPSCOPE_CHECK(w[0] >= groups, "Given groups=", groups, ", expected weight to be at least ",
                groups, " at dimension 0, but got weight of size ", list_str(w), " instead");
  OPSCOPE_CHECK(w[0] % groups == 0, "Given groups=", groups,
                ", expected weight to be divisible by ", groups,
                " at dimension 0, but got weight of size [", list_str(w), "] instead");
  if (!transposed) {
    OPSCOPE_CHECK(input.size(1) == w[1] * groups, "Given groups=", groups, ", weight of size ",
                  list_str(w), ", expected input", list_str(input.sizes()), " to have ",
                  w[1] * groups, " channels, but got ", input.size(1), " channels instead");
    OPSCOPE_CHECK(!bias.defined() || (bias.dim() == 1 && bias.size(0) == w[0]),
                  "Given weight of size ", list_str(w), ", expected bias to be 1-dimensional with ",
                  w[0], " elements, but got bias of size ", list_str(bias.sizes()), " instead");
    std::string in_s, kernel_s;
    bool fits = true;
    for (int64_t i = 2; i < k; ++i) {
      const int64_t in = input.size(i) + 2 * padding[size_t(i - 2)];
      const int64_t kernel = dilation[size_t(i - 2)] * (w[size_t(i)] - 1) + 1;
      fits = fits && in >= kernel;
      in_s += (i > 2 ? " x " : "") + std::to_string(in);
      kernel_s += (i > 2 ? " x " : "") + std::to_string(kernel);
    }
    OPSCOPE_CHECK(fits, "Calculated padded input size per channel: (", in_s, "). Kernel size: (",
                  kernel_s, "). Kernel size can't be greater than actual input size");
  } else {
    OPSCOPE_CHECK(input.size(1) == w[0], "Given transposed=1, weight of size ", list_str(w),
                  ", expected input", list_str(input.sizes()), " to have ", w[0],
                  " channels, but got ", input.size(1), " channels instead");
    OPSCOPE_CHECK(!bias.defined() || (bias.dim() == 1 && bias.size(0) == w[1] * groups),
                  "Given transposed=1, weight of size ", list_str(w),
                  ", expected bias to be 1-dimensional with ", w[1] * groups,
                  " elements, but got bias of size ", list_str(bias.sizes()), " instead");
  }
}

// The C++ name torch prints for a bias's dtype: float, double, ...
std::string cpp_type_name(ScalarType t) {
  switch (t) {
    case ScalarType::Float32: return "float";
    case ScalarType::Float64: return "double";
    case ScalarType::Int64: return "long int";
    case ScalarType::Int32: return "int";
    default: return std::string(cpp_name(t));
  }
}

// torch's check_input_same_type_as_parameters.
void check_same_type(const Tensor& input, const Tensor& weight, const Tensor& bias) {
  const auto type_name = [](const Tensor& t) {
    switch (t.dtype()) {
      case ScalarType::Float32: return std::string("torch.FloatTensor");
      case ScalarType::Float64: return std::string("torch.DoubleTensor");
      case ScalarType::Float16: return std::string("torch.HalfTensor");
      case ScalarType::BFloat16: return std::string("torch.BFloat16Tensor");
      case ScalarType::Int64: return std::string("torch.LongTensor");
      case ScalarType::Int32: return std::string("torch.IntTensor");
      default: return std::string(cpp_name(t.dtype()));
    }
  };
  OPSCOPE_CHECK(input.dtype() == weight.dtype(), "Input type (", type_name(input),
                ") and weight type (", type_name(weight),
                ") should be the same or input should be a MKLDNN tensor and weight is a dense "
                "tensor");
  OPSCOPE_CHECK(!bias.defined() || input.dtype() == bias.dtype(), "Input type (",
                cpp_type_name(input.dtype()), ") and bias type (", cpp_type_name(bias.dtype()),
                ") should be the same");
}

// One group's 2-D convolution on the backend torch's select_conv_backend picks on a CPU without
// oneDNN.
Tensor convolution_nogroup(const Tensor& input, const Tensor& weight, const Tensor& bias,
                           IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                           bool transposed, IntArrayRef output_padding) {
  const std::vector<int64_t> kernel{weight.size(2), weight.size(3)};
  if (transposed)
    return ops::slow_conv_transpose2d(ops::contiguous(input), weight, kernel, bias, stride,
                                      padding, output_padding, dilation);
  if (dilation[0] != 1 || dilation[1] != 1)
    return ops::slow_conv_dilated2d(input, weight, kernel, bias, stride, padding, dilation);
  return ops::thnn_conv2d(input, weight, kernel, bias, stride, padding);
}

Tensor subtensor(const Tensor& t, int64_t dim, int64_t groups, int64_t g) {
  if (!t.defined()) return t;
  const int64_t n = t.size(dim) / groups;
  return ops::contiguous(ops::narrow(t, dim, n * g, n));
}

// Runs conv on input with a batch dimension of 1 added where it has none (spatial + 1 dims), and
// drops that dimension from the result again.
template <typename Conv>
Tensor unbatched_too(const Tensor& input, int64_t spatial, const char* name, Conv&& conv) {
  auto [batched_input, is_batched] = batchify(input, spatial, name);
  Tensor out = conv(batched_input);
  return is_batched ? out : ops::squeeze(out, 0);
}

}  // namespace

// input (N, C, L) or (C, L), weight (O, C/g, k) -> (N, O, L_out) or (O, L_out)
Tensor conv1d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
              IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  return unbatched_too(input, 1, "conv1d", [&](const Tensor& batched) {
    return ops::convolution(batched, weight, bias, stride, padding, dilation, false, {0}, groups);
  });
}

// input (N, C, H, W) or (C, H, W), weight (O, C/g, kh, kw) -> (N, O, OH, OW) or (O, OH, OW)
Tensor conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
              IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  return unbatched_too(input, 2, "conv2d", [&](const Tensor& batched) {
    return ops::convolution(batched, weight, bias, stride, padding, dilation, false, {0}, groups);
  });
}

Tensor conv1d_padding(const Tensor& input, const Tensor& weight, const Tensor& bias,
                      IntArrayRef stride, std::string_view padding, IntArrayRef dilation,
                      int64_t groups) {
  return unbatched_too(input, 1, "conv1d", [&](const Tensor& batched) {
    return ops::_convolution_mode(batched, weight, bias, stride, padding, dilation, groups);
  });
}

Tensor conv2d_padding(const Tensor& input, const Tensor& weight, const Tensor& bias,
                      IntArrayRef stride, std::string_view padding, IntArrayRef dilation,
                      int64_t groups) {
  return unbatched_too(input, 2, "conv2d", [&](const Tensor& batched) {
    return ops::_convolution_mode(batched, weight, bias, stride, padding, dilation, groups);
  });
}

// padding "valid": none; "same": the output keeps the input's size (stride 1 only).
Tensor _convolution_mode(const Tensor& input, const Tensor& weight, const Tensor& bias,
                         IntArrayRef stride, std::string_view padding, IntArrayRef dilation,
                         int64_t groups) {
  if (padding == "valid")
    return ops::convolution(input, weight, bias, stride, {0}, dilation, false, {0}, groups);
  OPSCOPE_CHECK(padding == "same", "Invalid padding string: '", padding, "'");
  const int64_t dim = weight.dim() - 2;
  for (int64_t s : stride)
    OPSCOPE_CHECK(s == 1, "padding='same' is not supported for strided convolutions");
  const std::vector<int64_t> dil = expand_param(dilation, "dilation", dim);
  std::vector<int64_t> left(static_cast<size_t>(dim)), right(static_cast<size_t>(dim));
  bool symmetric = true;
  for (int64_t i = 0; i < dim; ++i) {
    const int64_t total = dil[size_t(i)] * (weight.size(i + 2) - 1);
    left[size_t(i)] = total / 2;
    right[size_t(i)] = total - total / 2;
    symmetric = symmetric && left[size_t(i)] == right[size_t(i)];
  }
  if (symmetric)
    return ops::convolution(input, weight, bias, stride, left, dilation, false, {0}, groups);
  // The odd extra pixel goes on the right, as an explicit pad of the input.
  std::vector<int64_t> pad_nd(size_t(2 * dim), 0);
  for (int64_t i = 0; i < dim; ++i) {
    const int64_t delta = right[size_t(i)] - left[size_t(i)];
    const size_t at = size_t(2 * (dim - 1 - i));
    if (delta > 0) pad_nd[at + 1] = delta;
  }
  Tensor padded = ops::constant_pad_nd(input, pad_nd, 0);
  return ops::convolution(padded, weight, bias, stride, left, dilation, false, {0}, groups);
}

// input (N, C, L), weight (C, O/g, k) -> (N, O, L_out)
Tensor conv_transpose1d(const Tensor& input, const Tensor& weight, const Tensor& bias,
                        IntArrayRef stride, IntArrayRef padding, IntArrayRef output_padding,
                        int64_t groups, IntArrayRef dilation) {
  return unbatched_too(input, 1, "conv_transpose1d", [&](const Tensor& batched) {
    return ops::convolution(batched, weight, bias, stride, padding, dilation, true, output_padding,
                            groups);
  });
}

// input (N, C, H, W), weight (C, O/g, kh, kw) -> (N, O, OH, OW)
Tensor conv_transpose2d(const Tensor& input, const Tensor& weight, const Tensor& bias,
                        IntArrayRef stride, IntArrayRef padding, IntArrayRef output_padding,
                        int64_t groups, IntArrayRef dilation) {
  return unbatched_too(input, 2, "conv_transpose2d", [&](const Tensor& batched) {
    return ops::convolution(batched, weight, bias, stride, padding, dilation, true, output_padding,
                            groups);
  });
}

Tensor convolution(const Tensor& input, const Tensor& weight, const Tensor& bias,
                   IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, bool transposed,
                   IntArrayRef output_padding, int64_t groups) {
  return ops::_convolution(input, weight, bias, stride, padding, dilation, transposed,
                           output_padding, groups, false, false, true, true);
}

Tensor _convolution(const Tensor& input_r, const Tensor& weight_r, const Tensor& bias,
                    IntArrayRef stride_r, IntArrayRef padding_r, IntArrayRef dilation_r,
                    bool transposed, IntArrayRef output_padding_r, int64_t groups,
                    bool /*benchmark*/, bool /*deterministic*/, bool /*cudnn_enabled*/,
                    bool /*allow_tf32*/) {
  const int64_t k = weight_r.dim(), dim = k - 2;
  OPSCOPE_CHECK(dim > 0, "weight should have at least three dimensions");
  OPSCOPE_CHECK(groups > 0, "non-positive groups is not supported");
  std::vector<int64_t> stride = expand_param(stride_r, "stride", dim);
  std::vector<int64_t> padding = expand_param(padding_r, "padding", dim);
  std::vector<int64_t> dilation = expand_param(dilation_r, "dilation", dim);
  std::vector<int64_t> output_padding = expand_param(output_padding_r, "output_padding", dim);
  check_shape_forward(input_r, weight_r.sizes(), bias, padding, stride, dilation, output_padding,
                      transposed, groups);
  check_same_type(input_r, weight_r, bias);
  if (dim > 2)
    throw NotImplementedError(detail::str("opscope implements 1-d and 2-d convolutions; got a ",
                                          dim, "-d one (weight of size ",
                                          list_str(weight_r.sizes()), ")"));
  Tensor input = input_r, weight = weight_r;
  if (k == 3) {  // 1-D as 2-D of height 1
    input = ops::unsqueeze(input, 2);
    weight = ops::unsqueeze(weight, 2);
    stride.insert(stride.begin(), 1);
    padding.insert(padding.begin(), 0);
    dilation.insert(dilation.begin(), 1);
    output_padding.insert(output_padding.begin(), 0);
  }
  Tensor out;
  if (groups == 1) {
    out = convolution_nogroup(input, weight, bias, stride, padding, dilation, transposed,
                              output_padding);
  } else {
    std::vector<Tensor> outs;
    for (int64_t g = 0; g < groups; ++g)
      outs.push_back(convolution_nogroup(subtensor(input, 1, groups, g),
                                         subtensor(weight, 0, groups, g),
                                         subtensor(bias, 0, groups, g), stride, padding, dilation,
                                         transposed, output_padding));
    out = ops::cat(outs, 1);
  }
  return k == 3 ? ops::squeeze(out, 2) : out;
}

Tensor thnn_conv2d(const Tensor& self, const Tensor& weight, IntArrayRef kernel_size,
                   const Tensor& bias, IntArrayRef stride, IntArrayRef padding) {
  return ops::_slow_conv2d_forward(self, weight, kernel_size, bias, stride, padding);
}

static Library composite_implicit_conv(Library::IMPL, "aten",
                                       DispatchKey::CompositeImplicitAutograd, [](Library& m) {
                                         m.impl("conv1d", fn<&conv1d>);
                                         m.impl("conv2d", fn<&conv2d>);
                                         m.impl("conv1d.padding", fn<&conv1d_padding>);
                                         m.impl("conv2d.padding", fn<&conv2d_padding>);
                                         m.impl("_convolution_mode", fn<&_convolution_mode>);
                                         m.impl("conv_transpose1d", fn<&conv_transpose1d>);
                                         m.impl("conv_transpose2d.input", fn<&conv_transpose2d>);
                                         m.impl("thnn_conv2d", fn<&thnn_conv2d>);
                                       });

static Library composite_explicit_conv(Library::IMPL, "aten",
                                       DispatchKey::CompositeExplicitAutograd, [](Library& m) {
                                         m.impl("convolution", fn<&convolution>);
                                         m.impl("_convolution", fn<&_convolution>);
                                       });

}  // namespace opscope::composite
