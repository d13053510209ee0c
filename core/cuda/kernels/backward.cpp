// CUDA kernels of the gradient ops a training step's backward calls, host side (device code in
// backward.cu): threshold_backward (relu), _softmax_backward_data / _log_softmax_backward_data
// and nll_loss_backward. Checks and messages follow the CPU kernels (core/ops/cpu/activation.cpp,
// softmax.cpp, loss.cpp).
#include <algorithm>

#include "core/cuda/kernels/KernelUtil.h"
#include "core/cuda/kernels/LaunchBackward.h"
#include "core/dispatch/Library.h"
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

static Library cuda_backward(Library::IMPL, "aten", DispatchKey::CUDA, [](Library& m) {
  m.impl("threshold_backward", fn<&threshold_backward>);
  m.impl("_softmax_backward_data", fn<&_softmax_backward_data>);
  m.impl("_log_softmax_backward_data", fn<&_log_softmax_backward_data>);
  m.impl("nll_loss_backward", fn<&nll_loss_backward>);
});

}  // namespace opscope::cuda
