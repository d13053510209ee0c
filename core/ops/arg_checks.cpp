// The argument checks the CPU and CUDA kernels share: see arg_checks.h.
#include "core/ops/arg_checks.h"

#include <algorithm>
#include <string>

#include "core/ops/TensorIterator.h"  // get_overlap_status
#include "core/runtime/Exception.h"
#include "core/runtime/ScalarConvert.h"  // typemeta_name

namespace opscope::checks {

// --- products ---------------------------------------------------------------------------------

void mm_args(const Tensor& self, const Tensor& mat2) {
  OPSCOPE_CHECK(self.dim() == 2, "self must be a matrix");
  OPSCOPE_CHECK(mat2.dim() == 2, "mat2 must be a matrix");
  OPSCOPE_CHECK(self.size(1) == mat2.size(0), "mat1 and mat2 shapes cannot be multiplied (",
                self.size(0), "x", self.size(1), " and ", mat2.size(0), "x", mat2.size(1), ")");
}

void bmm_args(const Tensor& batch1, const Tensor& batch2) {
  OPSCOPE_CHECK(batch1.dim() == 3, "batch1 must be a 3D tensor");
  OPSCOPE_CHECK(batch2.dim() == 3, "batch2 must be a 3D tensor");
  int64_t bs = batch1.size(0), contraction = batch1.size(2);
  OPSCOPE_CHECK(batch2.size(0) == bs && batch2.size(1) == contraction,
                "Expected size for first two dimensions of batch2 tensor to be: [", bs, ", ",
                contraction, "] but got: [", batch2.size(0), ", ", batch2.size(1), "].");
}

void addmm_args(const Tensor& self, const Tensor& mat1, const Tensor& mat2) {
  OPSCOPE_CHECK(self.dtype() == mat2.dtype(), "self and mat2 must have the same dtype");
  OPSCOPE_CHECK(mat1.dtype() == mat2.dtype(), "mat1 and mat2 must have the same dtype");
  OPSCOPE_CHECK(mat1.dim() == 2, "mat1 must be a matrix, got ", mat1.dim(), "-D tensor");
  OPSCOPE_CHECK(mat2.dim() == 2, "mat2 must be a matrix, got ", mat2.dim(), "-D tensor");
  OPSCOPE_CHECK(mat1.size(1) == mat2.size(0), "mat1 and mat2 shapes cannot be multiplied (",
                mat1.size(0), "x", mat1.size(1), " and ", mat2.size(0), "x", mat2.size(1), ")");
}

// torch's mv adds into a fresh (M) vector through addmv: the first dim its message reports is
// always 1.
void mv_args(const Tensor& self, const Tensor& vec) {
  OPSCOPE_CHECK_INDEX(self.dim() > 0, "Dimension specified as 0 but tensor has no dimensions");
  OPSCOPE_CHECK(self.dim() == 2 && vec.dim() == 1, "vector + matrix @ vector expected, got 1, ",
                self.dim(), ", ", vec.dim());
  OPSCOPE_CHECK(self.size(1) == vec.size(0), "size mismatch, got ", self.size(0), ", ",
                self.size(0), "x", self.size(1), ",", vec.size(0));
}

void addmv_args(const Tensor& self, const Tensor& mat, const Tensor& vec) {
  OPSCOPE_CHECK(mat.dim() == 2 && vec.dim() == 1 && self.dim() <= 1,
                "vector + matrix @ vector expected, got ", self.dim(), ", ", mat.dim(), ", ",
                vec.dim());
  if (mat.size(1) == vec.size(0) && (mat.size(0) == self.numel() || self.numel() == 1)) return;
  OPSCOPE_CHECK_INDEX(self.dim() > 0, "Dimension specified as 0 but tensor has no dimensions");
  OPSCOPE_CHECK(false, "size mismatch, got ", self.size(0), ", ", mat.size(0), "x", mat.size(1),
                ",", vec.size(0));
}

void dot_args(const Tensor& self, const Tensor& other) {
  OPSCOPE_CHECK(self.dim() == 1 && other.dim() == 1, "1D tensors expected, but got ", self.dim(),
                "D and ", other.dim(), "D tensors");
  OPSCOPE_CHECK(self.dtype() == other.dtype(),
                "dot : expected both vectors to have same dtype, but found ",
                cpp_name(self.dtype()), " and ", cpp_name(other.dtype()));
  OPSCOPE_CHECK(self.numel() == other.numel(), "inconsistent tensor size, expected tensor [",
                self.numel(), "] and src [", other.numel(),
                "] to have the same number of elements, but got ", self.numel(), " and ",
                other.numel(), " elements respectively");
}

void inplace_result(const Tensor& self, IntArrayRef sizes, ScalarType dtype) {
  OPSCOPE_CHECK(std::ranges::equal(self.sizes(), sizes), "Bad in-place call: input tensor size ",
                shape_str(self.sizes()), " and output tensor size ", shape_str(sizes),
                " should match");
  OPSCOPE_CHECK(self.dtype() == dtype, "Bad in-place call: input tensor dtype ",
                typemeta_name(self.dtype()), " and output tensor dtype ", typemeta_name(dtype),
                " should match");
}

void out_dtype(const Tensor& out, ScalarType expected) {
  OPSCOPE_CHECK(out.dtype() == expected, "Expected out tensor to have dtype ",
                typemeta_name(expected), ", but got ", typemeta_name(out.dtype()), " instead");
}

// --- gather / scatter -------------------------------------------------------------------------

namespace {
int64_t size_at(const Tensor& t, int64_t d) { return t.dim() == 0 ? 1 : t.size(d); }
}  // namespace

void gather_shapes(const Tensor& self, int64_t dim, const Tensor& index) {
  OPSCOPE_CHECK(index.dtype() == ScalarType::Int64, "gather(): Expected dtype int64 for index");
  OPSCOPE_CHECK(std::max<int64_t>(index.dim(), 1) == std::max<int64_t>(self.dim(), 1),
                "Index tensor must have the same number of dimensions as input tensor");
  for (int64_t d = 0; d < std::max<int64_t>(self.dim(), 1); ++d)
    OPSCOPE_CHECK(d == dim || size_at(index, d) <= size_at(self, d),
                  "Size does not match at dimension ", d, " expected index ",
                  shape_str(index.sizes()), " to be smaller than self ", shape_str(self.sizes()),
                  " apart from dimension ", dim);
}

void scatter_shapes(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  OPSCOPE_CHECK(index.dtype() == ScalarType::Int64, "scatter(): Expected dtype int64 for index");
  if (src.defined())
    OPSCOPE_CHECK(self.dtype() == src.dtype(),
                  "scatter(): Expected self.dtype to be equal to src.dtype");
  const int64_t nd = std::max<int64_t>(self.dim(), 1);
  OPSCOPE_CHECK(std::max<int64_t>(index.dim(), 1) == nd,
                "Index tensor must have the same number of dimensions as self tensor");
  if (src.defined())
    OPSCOPE_CHECK(std::max<int64_t>(src.dim(), 1) == nd,
                  "Index tensor must have the same number of dimensions as src tensor");
  if (index.numel() == 0) return;
  bool ok = true;
  for (int64_t d = 0; d < nd; ++d) {
    if (d != dim && size_at(index, d) > size_at(self, d)) ok = false;
    if (src.defined() && size_at(index, d) > size_at(src, d)) ok = false;
  }
  if (ok) return;
  if (src.defined())
    throw Error(detail::str("Expected index ", shape_str(index.sizes()),
                            " to be smaller than self ", shape_str(self.sizes()),
                            " apart from dimension ", dim, " and to be smaller size than src ",
                            shape_str(src.sizes())));
  throw Error(detail::str("Expected index ", shape_str(index.sizes()), " to be smaller than self ",
                          shape_str(self.sizes()), " apart from dimension ", dim));
}

// --- layer norm -------------------------------------------------------------------------------

void group_norm_inputs(const Tensor& input, const Tensor& weight, const Tensor& bias, int64_t C,
                       int64_t num_groups) {
  OPSCOPE_CHECK(num_groups > 0, "Expected num groups to be greater than 0, got ", num_groups);
  OPSCOPE_CHECK(C % num_groups == 0,
                "Expected number of channels in input to be divisible by num_groups, but got "
                "input of shape ",
                shape_str(input.sizes()), " and num_groups=", num_groups);
  OPSCOPE_CHECK(!weight.defined() || (weight.dim() == 1 && weight.numel() == C),
                "Expected weight to be a vector of size equal to the number of channels in "
                "input, but got weight of shape ",
                shape_str(weight.sizes()), " and input of shape ", shape_str(input.sizes()));
  // torch 1.13 names weight's shape here ([0] without a weight); the same words.
  OPSCOPE_CHECK(!bias.defined() || (bias.dim() == 1 && bias.numel() == C),
                "Expected bias to be a vector of size equal to the number of channels in input, "
                "but got bias of shape ",
                weight.defined() ? shape_str(weight.sizes()) : std::string("[0]"),
                " and input of shape ", shape_str(input.sizes()));
}

std::pair<int64_t, int64_t> layer_norm_inputs(const Tensor& input, IntArrayRef normalized_shape,
                                              const Tensor& weight, const Tensor& bias) {
  const auto normalized_ndim = static_cast<int64_t>(normalized_shape.size());
  OPSCOPE_CHECK(normalized_ndim >= 1,
                "Expected normalized_shape to be at least 1-dimensional, i.e., containing at "
                "least one element, but got normalized_shape = ",
                shape_str(normalized_shape));
  OPSCOPE_CHECK(!weight.defined() || std::ranges::equal(weight.sizes(), normalized_shape),
                "Expected weight to be of same shape as normalized_shape, but got weight of "
                "shape ",
                shape_str(weight.sizes()), " and normalized_shape = ", shape_str(normalized_shape));
  OPSCOPE_CHECK(!bias.defined() || std::ranges::equal(bias.sizes(), normalized_shape),
                "Expected bias to be of same shape as normalized_shape, but got bias of shape ",
                shape_str(bias.sizes()), " and normalized_shape = ", shape_str(normalized_shape));
  const int64_t input_ndim = input.dim();
  IntArrayRef input_shape = input.sizes();
  if (input_ndim < normalized_ndim ||
      !std::ranges::equal(input_shape.last(static_cast<size_t>(normalized_ndim)),
                          normalized_shape)) {
    std::string expected = "[*";
    for (int64_t s : normalized_shape) expected += ", " + std::to_string(s);
    throw Error(detail::str("Given normalized_shape=", shape_str(normalized_shape),
                            ", expected input with shape ", expected, "], but got input of size",
                            shape_str(input_shape)));
  }
  const int64_t axis = input_ndim - normalized_ndim;
  int64_t M = 1, N = 1;
  for (int64_t i = 0; i < input_ndim; ++i) (i < axis ? M : N) *= input_shape[i];
  return {M, N};
}

std::pair<int64_t, int64_t> layer_norm_backward_args(const Tensor& grad_out, const Tensor& input,
                                                     IntArrayRef normalized_shape,
                                                     const Tensor& mean, const Tensor& rstd,
                                                     const Tensor& weight, const Tensor& bias,
                                                     IntArrayRef output_mask) {
  const auto [M, N] = layer_norm_inputs(input, normalized_shape, weight, bias);
  OPSCOPE_CHECK(output_mask.size() == 3, "native_layer_norm_backward: output_mask needs 3 values");
  OPSCOPE_CHECK(std::ranges::equal(grad_out.sizes(), input.sizes()),
                "native_layer_norm_backward: grad_out of size ", shape_str(grad_out.sizes()),
                " does not match input of size ", shape_str(input.sizes()));
  OPSCOPE_CHECK(mean.defined() && rstd.defined() && mean.numel() == M && rstd.numel() == M,
                "native_layer_norm_backward: expected mean and rstd with ", M,
                " elements (one per row), but got ", mean.defined() ? mean.numel() : 0, " and ",
                rstd.defined() ? rstd.numel() : 0);
  return {M, N};
}

// --- nll_loss ---------------------------------------------------------------------------------

namespace {
void nll_loss_shapes(const Tensor& self, const Tensor& target) {
  OPSCOPE_CHECK(self.dim() > 0 && self.dim() <= 2, "input tensor should be 1D or 2D");
  OPSCOPE_CHECK(target.dim() <= 1, "0D or 1D target tensor expected, multi-target not supported");
  const bool no_batch_dim = self.dim() == 1 && target.dim() == 0;
  OPSCOPE_CHECK(no_batch_dim || self.size(0) == target.size(0),
                "size mismatch (got input: ", shape_str(self.sizes()),
                ", target: ", shape_str(target.sizes()), ")");
}
}  // namespace

void nll_loss_args(const Tensor& self, const Tensor& target, const Tensor& weight) {
  nll_loss_shapes(self, target);
  const int64_t n_classes = self.size(-1);
  OPSCOPE_CHECK(
      !weight.defined() || (weight.dim() == 1 && weight.numel() == n_classes),
      "weight tensor should be defined either for all ", n_classes,
      " classes or no classes but got weight tensor of shape: ", shape_str(weight.sizes()));
}

void nll_loss_backward_args(const Tensor& self, const Tensor& target, const Tensor& weight,
                            const Tensor& total_weight) {
  nll_loss_shapes(self, target);
  OPSCOPE_CHECK(total_weight.numel() == 1,
                "expected total_weight to be a single element tensor, got: ",
                shape_str(total_weight.sizes()), " (", total_weight.numel(), " elements)");
  OPSCOPE_CHECK(!weight.defined() || weight.numel() == self.size(-1),
                "weight tensor should be defined either for all or no classes");
}

// --- batch norm -------------------------------------------------------------------------------

void batch_norm_args(const Tensor& input, const Tensor& weight, const Tensor& bias,
                     const Tensor& running_mean, const Tensor& running_var, bool training) {
  const int64_t C = input.size(1);
  OPSCOPE_CHECK(training || (running_mean.defined() && running_var.defined()),
                "running_mean must be defined in evaluation mode");
  const ScalarType dtype = input.dtype();
  OPSCOPE_CHECK(dtype == ScalarType::Float32 || dtype == ScalarType::Float64,
                "\"batch_norm\" not implemented for '", cpp_name(dtype), "'");
  for (const Tensor* t : {&weight, &bias, &running_mean, &running_var}) {
    if (!t->defined()) continue;
    OPSCOPE_CHECK(t->dtype() == dtype, "expected scalar type ", cpp_name(dtype), " but found ",
                  cpp_name(t->dtype()));
    OPSCOPE_CHECK(t->numel() == C, "expected a tensor of ", C, " elements (one per channel), got ",
                  shape_str(t->sizes()));
  }
}

std::tuple<int64_t, int64_t, int64_t> batch_norm_backward_args(
    const Tensor& input, const Tensor& running_mean, const Tensor& running_var,
    const Tensor& save_mean, const Tensor& save_invstd, bool train, IntArrayRef output_mask,
    const char* kernel) {
  OPSCOPE_CHECK(output_mask.size() == 3, "native_batch_norm_backward: output_mask needs 3 values");
  const int64_t N = input.size(0), C = input.size(1);
  const int64_t S = C > 0 && N > 0 ? input.numel() / (N * C) : 0;
  const ScalarType dtype = input.dtype();
  OPSCOPE_CHECK(dtype == ScalarType::Float32 || dtype == ScalarType::Float64, "\"", kernel,
                "\" not implemented for '", cpp_name(dtype), "'");
  const Tensor& stat_mean = train ? save_mean : running_mean;
  const Tensor& stat_var = train ? save_invstd : running_var;
  OPSCOPE_CHECK(stat_mean.defined() && stat_var.defined(),
                train ? "save_mean and save_invstd must be defined in training mode"
                      : "running_mean must be defined in evaluation mode");
  // torch reads them through 1-D accessors (its words), then one value per channel: fewer would
  // be read past their end
  for (const Tensor* t : {&stat_mean, &stat_var}) {
    OPSCOPE_CHECK(t->dim() == 1, "TensorAccessor expected 1 dims but tensor has ", t->dim());
    OPSCOPE_CHECK(t->numel() == C, "native_batch_norm_backward: expected ",
                  train ? "save_mean and save_invstd" : "running_mean and running_var",
                  " of one value per channel (", C, "), but got ", stat_mean.numel(), " and ",
                  stat_var.numel());
  }
  return {N, C, S};
}

// --- convolution ------------------------------------------------------------------------------

void conv_dtypes(const Tensor& input, const Tensor& weight, const Tensor& bias) {
  OPSCOPE_CHECK(weight.dtype() == input.dtype(), "expected scalar type ", cpp_name(input.dtype()),
                " but found ", cpp_name(weight.dtype()));
  OPSCOPE_CHECK(!bias.defined() || bias.dtype() == input.dtype(), "expected scalar type ",
                cpp_name(input.dtype()), " but found ", cpp_name(bias.dtype()));
}

void conv2d_kernel_size(IntArrayRef kernel_size, const Tensor& weight) {
  OPSCOPE_CHECK(kernel_size.size() == 2 && weight.dim() == 4 &&
                    kernel_size[0] == weight.size(2) && kernel_size[1] == weight.size(3),
                "expected kernel_size of 2 values equal to the weight's last two sizes, got "
                "kernel_size=", shape_str(kernel_size), " and weight of size ",
                shape_str(weight.sizes()));
}

void conv_args(const Tensor& input, const Tensor& weight, int64_t spatial, IntArrayRef stride,
               IntArrayRef padding, IntArrayRef dilation, IntArrayRef output_padding,
               int64_t groups, bool transposed) {
  const auto list = [&](const char* what, IntArrayRef v, bool may_be_empty) {
    OPSCOPE_CHECK((may_be_empty && v.empty()) || v.size() == 1 ||
                      v.size() == static_cast<size_t>(spatial),
                  "expected ", what, " to be a single integer value or a list of ", spatial,
                  " values to match the convolution dimensions, but got ", what, "=",
                  shape_str(v));
  };
  list("stride", stride, false);
  list("padding", padding, false);
  list("dilation", dilation, false);
  list("output_padding", output_padding, true);
  for (int64_t v : stride) OPSCOPE_CHECK(v > 0, "non-positive stride is not supported");
  for (int64_t v : padding) OPSCOPE_CHECK(v >= 0, "negative padding is not supported");
  for (int64_t v : dilation) OPSCOPE_CHECK(v > 0, "dilation should be greater than zero");
  for (int64_t v : output_padding)
    OPSCOPE_CHECK(v >= 0, "negative output_padding is not supported");
  OPSCOPE_CHECK(groups > 0, "non-positive groups is not supported");
  OPSCOPE_CHECK(weight.dim() == spatial + 2 && input.dim() == spatial + 2, "Expected ",
                spatial + 2, "-dimensional input for ", spatial + 2, "-dimensional weight ",
                shape_str(weight.sizes()), ", but got ", input.dim(), "-dimensional input of size ",
                shape_str(input.sizes()), " instead");
  const int64_t in_channels = transposed ? weight.size(0) : weight.size(1) * groups;
  OPSCOPE_CHECK(input.size(1) == in_channels, "Given groups=", groups, ", weight of size ",
                shape_str(weight.sizes()), ", expected input", shape_str(input.sizes()),
                " to have ", in_channels, " channels, but got ", input.size(1),
                " channels instead");
  OPSCOPE_CHECK(weight.size(0) % groups == 0,
                "Given groups=", groups, ", expected weight to be divisible by ", groups,
                " at dimension 0, but got weight of size ", shape_str(weight.sizes()),
                " instead");
}

void conv_backward_args(const Tensor& grad_output, const Tensor& input, const Tensor& weight,
                        IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                        bool transposed, IntArrayRef output_padding, int64_t groups,
                        IntArrayRef output_mask) {
  OPSCOPE_CHECK(output_mask.size() == 3, "convolution_backward: output_mask must have 3 entries");
  const int64_t dim = input.dim();
  OPSCOPE_CHECK(dim == 3 || dim == 4, "convolution_backward: expected a 3-D or 4-D input, got ",
                dim, "-D");
  conv_args(input, weight, dim - 2, stride, padding, dilation, output_padding, groups, transposed);
  OPSCOPE_CHECK(grad_output.dim() == dim, "convolution_backward: expected grad_output of ", dim,
                " dimensions, but got ", grad_output.dim());
}

// --- 2-D pooling ------------------------------------------------------------------------------

namespace {

// A kernel_size / stride / padding / dilation argument: one int for both dims, or two.
std::pair<int64_t, int64_t> pair_arg(IntArrayRef v, const char* op, const char* what,
                                     const char* rule, int64_t if_empty = -1) {
  OPSCOPE_CHECK(v.size() == 1 || v.size() == 2 || (if_empty >= 0 && v.empty()), op, ": ", what,
                " must ", rule);
  if (v.empty()) return {if_empty, if_empty};
  return {v[0], v.size() == 2 ? v[1] : v[0]};
}

// torch's pooling_output_shape: floor or ceil division; a ceil window must start inside the
// input or its left padding.
int64_t pooling_output_size(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dilation,
                            bool ceil_mode) {
  OPSCOPE_CHECK(stride != 0, "stride should not be zero");
  OPSCOPE_CHECK(pad >= 0, "pad must be non-negative, but got pad: ", pad);
  OPSCOPE_CHECK(pad <= k / 2, "pad should be at most half of kernel size, but got pad=", pad,
                " and kernel_size=", k);
  const int64_t num = in + 2 * pad - dilation * (k - 1) - 1 + (ceil_mode ? stride - 1 : 0);
  // floor division, rounding towards -inf
  int64_t out = (num >= 0 ? num / stride : -((-num + stride - 1) / stride)) + 1;
  if (ceil_mode && (out - 1) * stride >= in + pad) --out;
  return out;
}

}  // namespace

DimVector Pool2dGeometry::out_sizes() const {
  if (batched) return {planes / channels, channels, OH, OW};
  return {planes, OH, OW};
}

Pool2dGeometry pool2d_geometry(const Tensor& input, IntArrayRef kernel_size, IntArrayRef stride,
                               IntArrayRef padding, IntArrayRef dilation, bool ceil_mode,
                               const char* op) {
  const auto [kH, kW] = pair_arg(kernel_size, op, "kernel_size",
                                 "either be a single int, or a tuple of two ints");
  auto [sH, sW] = pair_arg(stride, op, "stride",
                           "either be omitted, a single int, or a tuple of two ints", 0);
  if (stride.empty()) sH = kH, sW = kW;
  const auto [pH, pW] = pair_arg(padding, op, "padding",
                                 "either be a single int, or a tuple of two ints");
  const auto [dH, dW] = pair_arg(dilation, op, "dilation",
                                 "either be a single int, or a tuple of two ints");
  const int64_t ndim = input.dim();
  OPSCOPE_CHECK(ndim == 3 || ndim == 4,
                "non-empty 3D or 4D (batch mode) tensor expected for input");
  const int64_t C = input.size(ndim - 3), H = input.size(ndim - 2), W = input.size(ndim - 1);
  const int64_t OH = pooling_output_size(H, kH, pH, sH, dH, ceil_mode);
  const int64_t OW = pooling_output_size(W, kW, pW, sW, dW, ceil_mode);
  OPSCOPE_CHECK(kW > 0 && kH > 0, "kernel size should be greater than zero, but got kH: ", kH,
                " kW: ", kW);
  OPSCOPE_CHECK(sW > 0 && sH > 0, "stride should be greater than zero, but got dH: ", sH,
                " dW: ", sW);
  OPSCOPE_CHECK(dH > 0 && dW > 0, "dilation should be greater than zero, but got dilationH: ", dH,
                " dilationW: ", dW);
  const bool valid_dims = input.size(ndim - 3 + 1) != 0 && input.size(ndim - 3 + 2) != 0;
  OPSCOPE_CHECK((ndim == 3 && input.size(0) != 0 && valid_dims) ||
                    (ndim == 4 && valid_dims && input.size(3) != 0),
                "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, "
                "but got:",
                shape_str(input.sizes()));
  OPSCOPE_CHECK(kW / 2 >= pW && kH / 2 >= pH,
                "pad should be smaller than or equal to half of kernel size, but got padW = ", pW,
                ", padH = ", pH, ", kW = ", kW, ", kH = ", kH);
  OPSCOPE_CHECK(OW >= 1 && OH >= 1, "Given input size: (", C, "x", H, "x", W,
                "). Calculated output size: (", C, "x", OH, "x", OW,
                "). Output size is too small");
  const int64_t planes = ndim == 4 ? input.size(0) * C : C;
  return {kH, kW, sH, sW, pH, pW, dH, dW, planes, H, W, OH, OW, ndim == 4, C};
}

void pool2d_grad_output(const Tensor& grad_output, const Pool2dGeometry& p, const char* op) {
  const DimVector expected = p.out_sizes();
  OPSCOPE_CHECK(std::ranges::equal(grad_output.sizes(), IntArrayRef(expected)), op,
                ": grad_output of size ", shape_str(grad_output.sizes()),
                " does not match the output size ", shape_str(expected));
}

// --- written-to operands ----------------------------------------------------------------------

void no_overlap(const Tensor& a, const Tensor& b) {
  const MemOverlapStatus s = get_overlap_status(*a.impl(), *b.impl());
  OPSCOPE_CHECK(s != MemOverlapStatus::Partial && s != MemOverlapStatus::Full,
                "unsupported operation: some elements of the input tensor and the written-to "
                "tensor refer to a single memory location. Please clone() the tensor before "
                "performing the operation.");
}

}  // namespace opscope::checks
