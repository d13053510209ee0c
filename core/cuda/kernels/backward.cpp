// CUDA kernels of the gradient ops a training step's backward calls, host side (device code in
// backward.cu): threshold_backward (relu), _softmax_backward_data / _log_softmax_backward_data,
// nll_loss_backward, gelu / silu / softplus / sigmoid / tanh / leaky_relu / hardtanh / elu /
// hardsigmoid / hardswish / mish_backward and native_layer_norm_backward. Checks and
// messages follow the CPU kernels (core/ops/cpu/activation.cpp, softmax.cpp, loss.cpp,
// normalization.cpp).
#include <algorithm>
#include <array>
#include <string_view>

#include "core/cuda/kernels/KernelUtil.h"
#include "core/cuda/kernels/LaunchBackward.h"
#include "core/dispatch/Library.h"
#include "core/ops/KernelForms.h"
#include "core/ops/arg_checks.h"
#include "core/ops/copy.h"
#include "core/ops/factories.h"
#include "core/ops/nn.h"
#include "core/ops/views.h"

namespace opscope::cuda {

namespace {

Tensor contiguous_or_self(const Tensor& t) {
  return !t.defined() || t.is_contiguous() ? t : ops::contiguous(t);
}

}  // namespace

// grad_output, self (broadcast) -> grad_output where self > threshold, 0 elsewhere
static Tensor threshold_backward(const Tensor& grad_output, const Tensor& self,
                                 const Scalar& threshold) {
  CUDAGuard guard(self.device());
  TensorIterator iter = TensorIterator::binary_op(Tensor(), grad_output, self);
  OPSCOPE_CHECK(iter.common_dtype() != ScalarType::Bool,
                "\"threshold_cuda\" not implemented for 'Bool'");
  launch_threshold_backward(make_args(iter), threshold.to_double(), current_stream_ptr());
  return iter.output();
}

// grad_output, output [*s] -> softmax's (log: log_softmax's) input gradient [*s]: `dim` moved
// last (a copy unless it already is), rows reduced, the result moved back.
static Tensor softmax_backward_impl(bool log, const Tensor& grad_output, const Tensor& output,
                                    int64_t dim, ScalarType input_dtype) {
  CUDAGuard guard(grad_output.device());
  check_same_device(grad_output, output, log ? "_log_softmax_backward_data"
                                             : "_softmax_backward_data");
  const ScalarType t = grad_output.dtype();
  OPSCOPE_CHECK(t == input_dtype, "expected scalar type ", cpp_name(t), " but found ",
                cpp_name(input_dtype));
  OPSCOPE_CHECK(std::ranges::equal(grad_output.sizes(), output.sizes()),
                "grad_output and output must have the same shape, got ",
                shape_str(grad_output.sizes()), " and ", shape_str(output.sizes()));
  const int64_t nd = grad_output.dim();
  const int64_t d = nd == 0 ? 0 : wrap_dim(dim, nd);
  if (!is_floating(t))
    throw Error(detail::str("\"", log ? "log_softmax" : "softmax", "_backward_cuda\" not "
                            "implemented for '", cpp_name(t), "'"));
  if (grad_output.numel() == 0) return make_empty(grad_output.sizes(), t, grad_output.device());
  const bool last = nd == 0 || d == nd - 1;
  auto rows_last = [&](const Tensor& x) {
    Tensor r = last ? x : ops::transpose(x, d, nd - 1);
    if (r.dtype() != t) r = ops::to(r, t);
    return r.is_contiguous() ? r : ops::contiguous(r);
  };
  Tensor g = rows_last(grad_output), y = rows_last(output);
  Tensor gi = make_empty(g.sizes(), t, grad_output.device());
  const int64_t cols = nd == 0 ? 1 : g.size(-1);
  launch_softmax_backward_rows(log, dt_of(t), g.data(), y.data(), gi.data(), g.numel() / cols,
                               cols, current_stream_ptr());
  if (last) return gi;
  return ops::contiguous(ops::transpose(gi, d, nd - 1));
}

static Tensor _softmax_backward_data(const Tensor& grad_output, const Tensor& output, int64_t dim,
                                     ScalarType input_dtype) {
  return softmax_backward_impl(false, grad_output, output, dim, input_dtype);
}
static Tensor _log_softmax_backward_data(const Tensor& grad_output, const Tensor& output,
                                         int64_t dim, ScalarType input_dtype) {
  return softmax_backward_impl(true, grad_output, output, dim, input_dtype);
}

// grad_output ((N) for none on a batch, else ()), self (N,C) or (C), target -> self's shape
static Tensor nll_loss_backward(const Tensor& grad_output, const Tensor& self,
                                const Tensor& target, const Tensor& weight, int64_t reduction,
                                int64_t ignore_index, const Tensor& total_weight) {
  checks::nll_loss_backward_args(self, target, weight, total_weight);
  const bool per_row = reduction == ops::kReductionNone && self.dim() == 2;
  if (per_row) {
    OPSCOPE_CHECK(grad_output.dim() == 1 && grad_output.size(0) == self.size(0),
                  "Expected a tensor of dimension 1 and tensor.size[0] == ", self.size(0),
                  " but got: dimension ", grad_output.dim(), " and tensor.size[0] = ",
                  grad_output.dim() > 0 ? grad_output.size(0) : 1);
  } else {
    OPSCOPE_CHECK(grad_output.dim() <= 1 && grad_output.numel() == 1,
                  "Expected a single element grad_output tensor, but got: ",
                  shape_str(grad_output.sizes()));
  }
  OPSCOPE_CHECK(is_floating(self.dtype()), "\"nll_loss_backward_out_cuda_kernel\" not "
                "implemented for '", cpp_name(self.dtype()), "'");
  OPSCOPE_CHECK(target.dtype() == ScalarType::Int64, "expected scalar type Long but found ",
                cpp_name(target.dtype()));
  for (const Tensor* other : {&grad_output, &total_weight, &weight}) {
    if (!other->defined()) continue;
    check_same_device(self, *other, "nll_loss_backward");
    OPSCOPE_CHECK(other->dtype() == self.dtype(), "expected scalar type ",
                  cpp_name(self.dtype()), " but found ", cpp_name(other->dtype()));
  }
  check_same_device(self, target, "nll_loss_backward");
  CUDAGuard guard(self.device());
  Tensor grad_input = ops::zeros(self.sizes(), self.dtype(), std::nullopt, self.device());
  Tensor g = contiguous_or_self(grad_output), t = contiguous_or_self(target),
         w = contiguous_or_self(weight);
  DeviceFlag bad(self.device());
  launch_nll_loss_backward(dt_of(self.dtype()), g.data(), t.data_ptr<int64_t>(),
                           w.defined() ? w.data() : nullptr, total_weight.data(),
                           grad_input.data(), self.dim() == 1 ? 1 : self.size(0), self.size(-1),
                           per_row, reduction == ops::kReductionMean, ignore_index, bad.ptr(),
                           current_stream_ptr());
  const int64_t flag = bad.read();
  if (flag != 0) throw IndexError(detail::str("Target ", flag - 1, " is out of bounds."));
  return grad_input;
}

// grad_output, self (broadcast) -> grad_output * f'(self) for gelu / silu / softplus; into
// grad_input when given (the .grad_input forms).
static Tensor activation_backward(const Tensor& grad_input, const Tensor& grad_output,
                                  const Tensor& self, ActivationGrad op, const char* name,
                                  double p0 = 0, double p1 = 0, double p2 = 0, double p3 = 0) {
  CUDAGuard guard(self.device());
  TensorIterator iter = TensorIterator::binary_op(grad_input, grad_output, self);
  OPSCOPE_CHECK(is_floating(iter.common_dtype()), "\"", name, "\" not implemented for '",
                cpp_name(iter.common_dtype()), "'");
  if (iter.numel() > 0)
    launch_activation_backward(op, make_args(iter), p0, p1, current_stream_ptr(), p2, p3);
  return iter.output();
}

static ActivationGrad gelu_grad(std::string_view approximate) {
  if (approximate == "none") return ActivationGrad::GeluErf;
  if (approximate == "tanh") return ActivationGrad::GeluTanh;
  throw Error(detail::str("approximate argument must be either none or tanh."));
}

static Tensor gelu_backward_impl(const Tensor& grad_input, const Tensor& grad_output,
                                 const Tensor& self, std::string_view approximate) {
  return activation_backward(grad_input, grad_output, self, gelu_grad(approximate),
                             "GeluBackwardCUDAKernelImpl");
}
static Tensor silu_backward_impl(const Tensor& grad_input, const Tensor& grad_output,
                                 const Tensor& self) {
  return activation_backward(grad_input, grad_output, self, ActivationGrad::Silu,
                             "silu_backward_cuda");
}
static Tensor sigmoid_backward_impl(const Tensor& grad_input, const Tensor& grad_output,
                                    const Tensor& output) {
  return activation_backward(grad_input, grad_output, output, ActivationGrad::SigmoidOut,
                             "sigmoid_backward_cuda");
}
static Tensor tanh_backward_impl(const Tensor& grad_input, const Tensor& grad_output,
                                 const Tensor& output) {
  return activation_backward(grad_input, grad_output, output, ActivationGrad::TanhOut,
                             "tanh_backward_cuda");
}
static Tensor leaky_relu_backward(const Tensor& grad_output, const Tensor& self,
                                  const Scalar& negative_slope, bool self_is_result) {
  OPSCOPE_CHECK(!self_is_result || negative_slope.to_double() >= 0.0,
                "In-place leakyReLu backward calculation is triggered with a negative slope "
                "which is not supported.");
  return activation_backward(Tensor(), grad_output, self, ActivationGrad::LeakyRelu,
                             "leaky_relu_backward_cuda", negative_slope.to_double());
}
static Tensor hardtanh_backward(const Tensor& grad_output, const Tensor& self,
                                const Scalar& min_val, const Scalar& max_val) {
  return activation_backward(Tensor(), grad_output, self, ActivationGrad::Hardtanh,
                             "hardtanh_backward_cuda", min_val.to_double(), max_val.to_double());
}
static Tensor elu_backward(const Tensor& grad_output, const Scalar& alpha, const Scalar& scale,
                           const Scalar& input_scale, bool is_result,
                           const Tensor& self_or_result) {
  return activation_backward(Tensor(), grad_output, self_or_result, ActivationGrad::Elu,
                             "elu_backward_cuda", alpha.to_double() * scale.to_double(),
                             scale.to_double(), input_scale.to_double(), is_result ? 1.0 : 0.0);
}
static Tensor hardsigmoid_backward(const Tensor& grad_output, const Tensor& self) {
  return activation_backward(Tensor(), grad_output, self, ActivationGrad::Hardsigmoid,
                             "hardsigmoid_backward_cuda");
}
static Tensor hardswish_backward(const Tensor& grad_output, const Tensor& self) {
  return activation_backward(Tensor(), grad_output, self, ActivationGrad::Hardswish,
                             "hardswish_backward_cuda");
}
static Tensor mish_backward(const Tensor& grad_output, const Tensor& self) {
  return activation_backward(Tensor(), grad_output, self, ActivationGrad::Mish,
                             "mish_backward_cuda");
}
// grad_output (1 - sigmoid(self)); the buffer is empty on CUDA (recomputed)
static Tensor log_sigmoid_backward(const Tensor& grad_output, const Tensor& self,
                                   const Tensor& /*buffer*/) {
  return activation_backward(Tensor(), grad_output, self, ActivationGrad::LogSigmoid,
                             "log_sigmoid_backward_cuda");
}
static Tensor softplus_backward_impl(const Tensor& grad_input, const Tensor& grad_output,
                                     const Tensor& self, const Scalar& beta,
                                     const Scalar& threshold) {
  return activation_backward(grad_input, grad_output, self, ActivationGrad::Softplus,
                             "softplus_backward_cuda", beta.to_double(), threshold.to_double());
}

// grad_out, input (*, N1..Nk), mean / rstd (one per row) -> (grad_input, grad_weight,
// grad_bias) as output_mask asks (Note [Layer norm's gradient on the GPU], backward.cu).
static std::tuple<Tensor, Tensor, Tensor> native_layer_norm_backward(
    const Tensor& grad_out, const Tensor& input, IntArrayRef normalized_shape, const Tensor& mean,
    const Tensor& rstd, const Tensor& weight, const Tensor& bias, IntArrayRef output_mask) {
  const auto [M, N] = checks::layer_norm_backward_args(grad_out, input, normalized_shape, mean,
                                                       rstd, weight, bias, output_mask);
  const ScalarType t = input.dtype();
  OPSCOPE_CHECK(is_floating(t), "\"LayerNormBackwardKernelImpl\" not implemented for '",
                cpp_name(t), "'");
  for (const Tensor* other : {&grad_out, &mean, &rstd, &weight, &bias}) {
    if (!other->defined()) continue;
    check_same_device(input, *other, "native_layer_norm_backward");
  }
  for (const Tensor* other : {&grad_out, &weight})
    OPSCOPE_CHECK(!other->defined() || other->dtype() == t, "expected scalar type ", cpp_name(t),
                  " but found ", cpp_name(other->dtype()));
  CUDAGuard guard(input.device());
  Tensor dX = output_mask[0] != 0 ? make_empty(input.sizes(), t, input.device()) : Tensor();
  Tensor dgamma = output_mask[1] != 0 && weight.defined()
                      ? make_empty(weight.sizes(), t, input.device())
                      : Tensor();
  Tensor dbeta = output_mask[2] != 0 && bias.defined()
                     ? make_empty(bias.sizes(), t, input.device())
                     : Tensor();
  const bool columns = dgamma.defined() || dbeta.defined();
  if (M == 0 || N == 0) {  // no rows: zero column sums; no elements: nothing to write
    if (dgamma.defined()) ops::zero_(dgamma);
    if (dbeta.defined()) ops::zero_(dbeta);
    return {dX, dgamma, dbeta};
  }
  if (!dX.defined() && !columns) return {dX, dgamma, dbeta};
  // The statistics in the accumulation type the kernels read (float for half / bfloat16).
  const ScalarType acc = t == ScalarType::Float64 ? ScalarType::Float64 : ScalarType::Float32;
  const Tensor mu = contiguous_or_self(mean.dtype() == acc ? mean : ops::to(mean, acc));
  const Tensor rs = contiguous_or_self(rstd.dtype() == acc ? rstd : ops::to(rstd, acc));
  const Tensor dy = contiguous_or_self(grad_out), x = contiguous_or_self(input);
  const Tensor gamma = contiguous_or_self(weight);
  Tensor partial = columns ? make_empty(std::array<int64_t, 1>{2 * layer_norm_partial_rows(M) * N},
                                        acc, input.device())
                           : Tensor();
  launch_layer_norm_backward(dt_of(t), dy.data(), x.data(), mu.data(), rs.data(),
                             gamma.defined() ? gamma.data() : nullptr,
                             dX.defined() ? dX.data() : nullptr,
                             dgamma.defined() ? dgamma.data() : nullptr,
                             dbeta.defined() ? dbeta.data() : nullptr,
                             partial.defined() ? partial.data() : nullptr, M, N,
                             current_stream_ptr());
  return {dX, dgamma, dbeta};
}

static Library cuda_backward(Library::IMPL, "aten", DispatchKey::CUDA, [](Library& m) {
  m.impl("threshold_backward", fn<&threshold_backward>);
  m.impl("_softmax_backward_data", fn<&_softmax_backward_data>);
  m.impl("_log_softmax_backward_data", fn<&_log_softmax_backward_data>);
  m.impl("nll_loss_backward", fn<&nll_loss_backward>);
  m.impl("leaky_relu_backward", fn<&leaky_relu_backward>);
  m.impl("hardtanh_backward", fn<&hardtanh_backward>);
  m.impl("elu_backward", fn<&elu_backward>);
  m.impl("hardsigmoid_backward", fn<&hardsigmoid_backward>);
  m.impl("hardswish_backward", fn<&hardswish_backward>);
  m.impl("mish_backward", fn<&mish_backward>);
  m.impl("log_sigmoid_backward", fn<&log_sigmoid_backward>);
  m.impl("sigmoid_backward", functional<&sigmoid_backward_impl>());
  m.impl("sigmoid_backward.grad_input", out<&sigmoid_backward_impl>());
  m.impl("tanh_backward", functional<&tanh_backward_impl>());
  m.impl("tanh_backward.grad_input", out<&tanh_backward_impl>());
  m.impl("gelu_backward", functional<&gelu_backward_impl>());
  m.impl("gelu_backward.grad_input", out<&gelu_backward_impl>());
  m.impl("silu_backward", functional<&silu_backward_impl>());
  m.impl("silu_backward.grad_input", out<&silu_backward_impl>());
  m.impl("softplus_backward", functional<&softplus_backward_impl>());
  m.impl("softplus_backward.grad_input", out<&softplus_backward_impl>());
  m.impl("native_layer_norm_backward", fn<&native_layer_norm_backward>);
});

}  // namespace opscope::cuda
