// CUDA kernels of batch norm and 2-D pooling, host side: native_batch_norm (training and eval,
// running statistics), native_batch_norm_backward, max_pool2d_with_indices (+ backward),
// avg_pool2d (+ backward). Checks, messages and dtypes (float32 / float64) follow the CPU
// kernels (core/ops/cpu/normalization.cpp, pool.cpp); the checks both make are in
// core/ops/arg_checks.h (batch_norm_args, pool2d_geometry). Device code in norm_pool.cu.
#include <algorithm>
#include <cmath>

#include "core/cuda/kernels/KernelUtil.h"
#include "core/cuda/kernels/LaunchTraining.h"
#include "core/dispatch/Library.h"
#include "core/ops/arg_checks.h"
#include "core/ops/copy.h"
#include "core/ops/nn.h"

namespace opscope::cuda {

namespace {

Tensor contiguous_or_self(const Tensor& t) {
  return !t.defined() || t.is_contiguous() ? t : ops::contiguous(t);
}

void check_read_as(ScalarType expected, ScalarType found) {
  OPSCOPE_CHECK(expected == found, "expected scalar type ", cpp_name(expected), " but found ",
                cpp_name(found));
}

const void* data_or_null(const Tensor& t) { return t.defined() ? t.data() : nullptr; }
void* mutable_data_or_null(const Tensor& t) { return t.defined() ? t.data() : nullptr; }

// A (C) operand written in place, through a contiguous copy written back by finish().
struct ChannelVector {
  Tensor given, work;
  explicit ChannelVector(const Tensor& t) : given(t), work(contiguous_or_self(t)) {}
  bool defined() const { return given.defined(); }
  void finish() const {
    if (given.defined() && !work.is_same(given)) ops::copy_(given, work);
  }
};

// --- batch norm ------------------------------------------------------------------------------

// input (N, C, *), weight / bias / running_mean / running_var (C) ->
//   (out (N, C, *), save_mean (C), save_invstd (C)), both (0) in eval mode
std::tuple<Tensor, Tensor, Tensor> native_batch_norm(const Tensor& input, const Tensor& weight,
                                                     const Tensor& bias,
                                                     const Tensor& running_mean,
                                                     const Tensor& running_var, bool training,
                                                     double momentum, double eps) {
  checks::batch_norm_args(input, weight, bias, running_mean, running_var, training);
  for (const Tensor* t : {&weight, &bias, &running_mean, &running_var})
    if (t->defined()) check_same_device(input, *t, "native_batch_norm");
  const int64_t N = input.size(0), C = input.size(1);
  const int64_t S = C > 0 && N > 0 ? input.numel() / (N * C) : 0;
  const ScalarType dtype = input.dtype();
  CUDAGuard guard(input.device());
  const Device dev = input.device();
  const Tensor X = contiguous_or_self(input);
  Tensor Y = make_empty(input.sizes(), dtype, dev);
  Tensor save_mean = make_empty({training ? C : 0}, dtype, dev);
  Tensor save_invstd = make_empty({training ? C : 0}, dtype, dev);
  const Tensor gamma = contiguous_or_self(weight), beta = contiguous_or_self(bias);
  ChannelVector rmean(running_mean), rvar(running_var);
  const bool update = training && rmean.defined() && rvar.defined();
  // Per-channel mean and invstd in double: [mean (C), invstd (C)].
  Tensor stats = make_empty({2 * C}, ScalarType::Float64, dev);
  double* mean = stats.data_ptr<double>();
  double* invstd = mean + C;
  void* stream = current_stream_ptr();
  if (training) {
    launch_batch_norm_train_stats(dt_of(dtype), X.data(), N, C, S, eps, momentum, mean, invstd,
                                  save_mean.data(), save_invstd.data(),
                                  update ? rmean.work.data() : nullptr,
                                  update ? rvar.work.data() : nullptr, stream);
  } else {
    launch_batch_norm_given_stats(dt_of(dtype), rmean.work.data(), rvar.work.data(),
                                  /*v_is_invstd=*/false, eps, C, mean, invstd, stream);
  }
  launch_batch_norm_apply(dt_of(dtype), X.data(), Y.data(), mean, invstd, data_or_null(gamma),
                          data_or_null(beta), N, C, S, stream);
  if (update) {
    rmean.finish();
    rvar.finish();
  }
  return {Y, save_mean, save_invstd};
}

// grad_out, input (N, C, *), weight / running / saved statistics (C) ->
//   (grad_input (N, C, *), grad_weight (C), grad_bias (C)), each only when output_mask asks
std::tuple<Tensor, Tensor, Tensor> native_batch_norm_backward(
    const Tensor& grad_out, const Tensor& input, const Tensor& weight, const Tensor& running_mean,
    const Tensor& running_var, const Tensor& save_mean, const Tensor& save_invstd, bool train,
    double eps, IntArrayRef output_mask) {
  const auto [N, C, S] =
      checks::batch_norm_backward_args(input, running_mean, running_var, save_mean, save_invstd,
                                       train, output_mask, "batch_norm_backward_cuda");
  const ScalarType dtype = input.dtype();
  const Tensor& stat_mean = train ? save_mean : running_mean;
  const Tensor& stat_var = train ? save_invstd : running_var;
  OPSCOPE_CHECK(std::ranges::equal(grad_out.sizes(), input.sizes()), "native_batch_norm_backward: grad_out of size ",
                shape_str(grad_out.sizes()), " does not match the input's ",
                shape_str(input.sizes()));
  for (const Tensor* t : {&weight, &stat_mean, &stat_var}) {
    if (!t->defined()) continue;
    OPSCOPE_CHECK(t->numel() == C, "expected a tensor of ", C, " elements (one per channel), got ",
                  shape_str(t->sizes()));
    check_same_device(input, *t, "native_batch_norm_backward");
  }
  check_same_device(input, grad_out, "native_batch_norm_backward");
  if (weight.defined()) check_read_as(dtype, weight.dtype());
  CUDAGuard guard(input.device());
  const Device dev = input.device();
  const Tensor X = contiguous_or_self(input);
  const Tensor DY = contiguous_or_self(ops::to(grad_out, dtype));
  const Tensor gamma = contiguous_or_self(weight);
  const Tensor m = contiguous_or_self(ops::to(stat_mean, dtype));
  const Tensor v = contiguous_or_self(ops::to(stat_var, dtype));
  Tensor grad_input = output_mask[0] != 0 ? make_empty(input.sizes(), dtype, dev) : Tensor();
  Tensor grad_weight = output_mask[1] != 0 ? make_empty({C}, dtype, dev) : Tensor();
  Tensor grad_bias = output_mask[2] != 0 ? make_empty({C}, dtype, dev) : Tensor();
  // [mean, invstd, sum_dy, sum_dy_xmu], C each, in double.
  Tensor work = make_empty({4 * C}, ScalarType::Float64, dev);
  double* mean = work.data_ptr<double>();
  double* invstd = mean + C;
  double* sum_dy = mean + 2 * C;
  double* sum_dy_xmu = mean + 3 * C;
  void* stream = current_stream_ptr();
  launch_batch_norm_given_stats(dt_of(dtype), m.data(), v.data(), /*v_is_invstd=*/train, eps, C,
                                mean, invstd, stream);
  launch_batch_norm_backward_reduce(dt_of(dtype), DY.data(), X.data(), mean, sum_dy, sum_dy_xmu,
                                    N, C, S, stream);
  if (grad_input.defined())
    launch_batch_norm_backward_input(dt_of(dtype), DY.data(), X.data(), grad_input.data(), mean,
                                     invstd, sum_dy, sum_dy_xmu, data_or_null(gamma), train, N, C,
                                     S, stream);
  launch_batch_norm_backward_params(dt_of(dtype), invstd, sum_dy, sum_dy_xmu,
                                    mutable_data_or_null(grad_weight),
                                    mutable_data_or_null(grad_bias), C, stream);
  return {grad_input, grad_weight, grad_bias};
}

// --- pooling geometry ------------------------------------------------------------------------

// A call's window and planes (checks::pool2d_geometry, the CPU kernels' checks and messages) and
// the kernels' view of them.
struct Pool2d {
  checks::Pool2dGeometry s;
  PoolGeom g;
  DimVector out_sizes() const { return s.out_sizes(); }
};

Pool2d pool_geometry(const Tensor& input, IntArrayRef kernel_size, IntArrayRef stride,
                     IntArrayRef padding, IntArrayRef dilation, bool ceil_mode, const char* op) {
  const checks::Pool2dGeometry s =
      checks::pool2d_geometry(input, kernel_size, stride, padding, dilation, ceil_mode, op);
  return {s,
          PoolGeom{s.planes, s.H, s.W, s.OH, s.OW, s.kH, s.kW, s.sH, s.sW, s.pH, s.pW, s.dH, s.dW}};
}

void check_pool_dtype(ScalarType t, const char* name) {
  OPSCOPE_CHECK(t == ScalarType::Float32 || t == ScalarType::Float64, "\"", name,
                "\" not implemented for '", cpp_name(t), "'");
}

// --- pooling ---------------------------------------------------------------------------------

// self (N, C, H, W) or (C, H, W) -> (out (N, C, OH, OW), indices int64 (N, C, OH, OW))
std::tuple<Tensor, Tensor> max_pool2d_with_indices(const Tensor& self, IntArrayRef kernel_size,
                                                   IntArrayRef stride, IntArrayRef padding,
                                                   IntArrayRef dilation, bool ceil_mode) {
  const Pool2d p = pool_geometry(self, kernel_size, stride, padding, dilation, ceil_mode,
                                 "max_pool2d");
  check_pool_dtype(self.dtype(), "max_pool2d");
  CUDAGuard guard(self.device());
  const Tensor x = contiguous_or_self(self);
  Tensor out = make_empty(p.out_sizes(), self.dtype(), self.device());
  Tensor indices = make_empty(p.out_sizes(), ScalarType::Int64, self.device());
  launch_max_pool2d(dt_of(self.dtype()), x.data(), out.data(), indices.data_ptr<int64_t>(), p.g,
                    current_stream_ptr());
  return {out, indices};
}

// grad_output (N, C, OH, OW), indices -> grad_input of self's shape: each gradient added at its
// window's maximum.
Tensor max_pool2d_with_indices_backward(const Tensor& grad_output, const Tensor& self,
                                        IntArrayRef kernel_size, IntArrayRef stride,
                                        IntArrayRef padding, IntArrayRef dilation, bool ceil_mode,
                                        const Tensor& indices) {
  const Pool2d p = pool_geometry(self, kernel_size, stride, padding, dilation, ceil_mode,
                                 "max_pool2d_with_indices_backward");
  checks::pool2d_grad_output(grad_output, p.s, "max_pool2d_with_indices_backward");
  OPSCOPE_CHECK(std::ranges::equal(indices.sizes(), IntArrayRef(p.out_sizes())),
                "max_pool2d_with_indices_backward: indices of size ", shape_str(indices.sizes()),
                " does not match the output size ", shape_str(p.out_sizes()));
  OPSCOPE_CHECK(indices.dtype() == ScalarType::Int64, "expected scalar type Long but found ",
                cpp_name(indices.dtype()));
  check_pool_dtype(self.dtype(), "max_pool2d_with_indices_backward");
  check_same_device(self, grad_output, "max_pool2d_with_indices_backward");
  check_same_device(self, indices, "max_pool2d_with_indices_backward");
  CUDAGuard guard(self.device());
  const Tensor gy = contiguous_or_self(ops::to(grad_output, self.dtype()));
  const Tensor idx = contiguous_or_self(indices);
  Tensor grad_input = make_empty(self.sizes(), self.dtype(), self.device());
  launch_max_pool2d_backward(dt_of(self.dtype()), gy.data(), idx.data_ptr<int64_t>(),
                             grad_input.data(), p.g, current_stream_ptr());
  return grad_input;
}

// self (N, C, H, W) or (C, H, W) -> (N, C, OH, OW): each window's sum / its divisor
Tensor avg_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                  IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                  std::optional<int64_t> divisor_override) {
  OPSCOPE_CHECK(!divisor_override || *divisor_override != 0, "divisor must be not zero");
  const Pool2d p = pool_geometry(self, kernel_size, stride, padding, {1}, ceil_mode, "avg_pool2d");
  check_pool_dtype(self.dtype(), "avg_pool2d");
  CUDAGuard guard(self.device());
  const Tensor x = contiguous_or_self(self);
  Tensor out = make_empty(p.out_sizes(), self.dtype(), self.device());
  launch_avg_pool2d(dt_of(self.dtype()), x.data(), out.data(), p.g, count_include_pad,
                    divisor_override.value_or(0), current_stream_ptr());
  return out;
}

// grad_output (N, C, OH, OW) -> grad_input of self's shape: each gradient / divisor spread over
// its window.
Tensor avg_pool2d_backward(const Tensor& grad_output, const Tensor& self, IntArrayRef kernel_size,
                           IntArrayRef stride, IntArrayRef padding, bool ceil_mode,
                           bool count_include_pad, std::optional<int64_t> divisor_override) {
  OPSCOPE_CHECK(!divisor_override || *divisor_override != 0, "divisor must be not zero");
  const Pool2d p = pool_geometry(self, kernel_size, stride, padding, {1}, ceil_mode,
                                 "avg_pool2d_backward");
  checks::pool2d_grad_output(grad_output, p.s, "avg_pool2d_backward");
  check_pool_dtype(self.dtype(), "avg_pool2d_backward");
  check_same_device(self, grad_output, "avg_pool2d_backward");
  CUDAGuard guard(self.device());
  const Tensor gy = contiguous_or_self(ops::to(grad_output, self.dtype()));
  Tensor grad_input = make_empty(self.sizes(), self.dtype(), self.device());
  launch_avg_pool2d_backward(dt_of(self.dtype()), gy.data(), grad_input.data(), p.g,
                             count_include_pad, divisor_override.value_or(0),
                             current_stream_ptr());
  return grad_input;
}

}  // namespace

static Library cuda_norm_pool(Library::IMPL, "aten", DispatchKey::CUDA, [](Library& m) {
  m.impl("native_batch_norm", fn<&native_batch_norm>);
  m.impl("native_batch_norm_backward", fn<&native_batch_norm_backward>);
  m.impl("max_pool2d_with_indices", fn<&max_pool2d_with_indices>);
  m.impl("max_pool2d_with_indices_backward", fn<&max_pool2d_with_indices_backward>);
  m.impl("avg_pool2d", fn<&avg_pool2d>);
  m.impl("avg_pool2d_backward", fn<&avg_pool2d_backward>);
});

}  // namespace opscope::cuda
