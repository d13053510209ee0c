// Launchers of the gradient kernels a training step's backward calls (backward.cu; host side in
// backward.cpp): relu's threshold_backward, softmax's and log_softmax's backward from their
// result, nll_loss_backward, the gelu / silu / softplus gradients and native_layer_norm_backward. Plain arguments only, as Launch.h's (whose DT and ElementwiseArgs
// they use), so nvcc never parses an opscope header.
#pragma once

#include "core/cuda/kernels/Launch.h"

namespace opscope::cuda {

// out = in1 <= threshold ? 0 : in0 over a built TensorIterator (out, grad_output, self; one dtype,
// every dtype but bool).
void launch_threshold_backward(const ElementwiseArgs& args, double threshold, void* stream);

// grad_input of contiguous [rows, cols] blocks (the softmax dim last), from grad_output and the
// forward's output, one block per row: out * (g - sum(g * out)) or, log, g - exp(out) * sum(g).
void launch_softmax_backward_rows(bool log, DT dt, const void* grad_output, const void* output,
                                  void* grad_input, int64_t rows, int64_t cols, void* stream);

// grad_input [n, c] (contiguous, zeroed by the caller): -weight[t] * g at [i, t = target[i]] for
// targets other than ignore_index; g = grad_output[i] when per_row, else grad_output[0], divided
// by total_weight[0] when mean. A target outside [0, c) sets *bad = target + 1.
void launch_nll_loss_backward(DT dt, const void* grad_output, const int64_t* target,
                              const void* weight, const void* total_weight, void* grad_input,
                              int64_t n, int64_t c, bool per_row, bool mean, int64_t ignore_index,
                              int64_t* bad, void* stream);

// The activations' gradients: out = in0 * f'(in1) over a built TensorIterator (out, grad_output,
// self; one floating dtype), f named by `op`: gelu ("none", "tanh"), silu, softplus (p0 = beta,
// p1 = threshold); for sigmoid and tanh in1 is the forward's result: in0 (1 - in1) in1 and
// in0 (1 - in1^2).
// leaky_relu: p0 = slope; hardtanh: p0, p1 = the bounds; elu: p0 = alpha scale, p1 = scale,
// p2 = input_scale, p3 != 0 when in1 is the result.
enum class ActivationGrad : int {
  GeluErf, GeluTanh, Silu, Softplus, SigmoidOut, TanhOut, LeakyRelu, Hardtanh, Elu, Hardsigmoid,
  Hardswish, Mish, LogSigmoid
};
void launch_activation_backward(ActivationGrad op, const ElementwiseArgs& args, double p0,
                                double p1, void* stream, double p2 = 0, double p3 = 0);

// native_layer_norm_backward over contiguous [M, N] rows: dx (when not null) per row from dy, x,
// the row's mean and rstd (acc_t: float for half / bfloat16) and gamma (null: none); dgamma /
// dbeta (when not null) summed over the rows through `partial`, a device buffer of
// 2 * layer_norm_partial_rows(M) * N accumulators.
int64_t layer_norm_partial_rows(int64_t M);
void launch_layer_norm_backward(DT dt, const void* dy, const void* x, const void* mean,
                                const void* rstd, const void* gamma, void* dx, void* dgamma,
                                void* dbeta, void* partial, int64_t M, int64_t N, void* stream);

}  // namespace opscope::cuda
