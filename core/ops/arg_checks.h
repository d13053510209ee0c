// Argument checks that a family's CPU kernels and its CUDA kernels (core/cuda/kernels/) both make,
// in one place: torch checks these in its device-independent meta functions (ADDMM_META,
// scatter_gather_dtype_check, _check_layer_norm_inputs ...), so the words and their order are the
// same on every device. Each throws opscope's error with torch 1.13's message; kernels call them
// first, before anything device-specific (dtype support, devices, allocation).
#pragma once

#include <cstdint>
#include <tuple>
#include <utility>

#include "core/tensor/Tensor.h"

namespace opscope::checks {

// --- products (core/ops/linear.h) -----------------------------------------------------------
// mm: self (M, K), mat2 (K, N).
void mm_args(const Tensor& self, const Tensor& mat2);
// bmm / baddbmm: batch1 (B, M, K), batch2 (B, K, N).
void bmm_args(const Tensor& batch1, const Tensor& batch2);
// addmm (structured ADDMM_META, before self is expanded): dtypes, then ranks, then shapes.
void addmm_args(const Tensor& self, const Tensor& mat1, const Tensor& mat2);
// mv: self (M, K), vec (K); its messages are addmv's with a fresh (M) self.
void mv_args(const Tensor& self, const Tensor& vec);
// addmv: self a vector of M or 1 elements (or 0-d), mat (M, K), vec (K).
void addmv_args(const Tensor& self, const Tensor& mat, const Tensor& vec);
// dot / vdot: two 1-D tensors of one dtype and one length.
void dot_args(const Tensor& self, const Tensor& other);
// A structured in-place op: self is the output, so it has the result's shape and dtype already.
void inplace_result(const Tensor& self, IntArrayRef sizes, ScalarType dtype);
// A structured out= kernel: out has the result's dtype.
void out_dtype(const Tensor& out, ScalarType expected);

// --- gather / scatter (core/ops/indexing.h) -------------------------------------------------
// dim already wrapped; 0-d tensors count as 1-D of size 1.
void gather_shapes(const Tensor& self, int64_t dim, const Tensor& index);
// src undefined for the value forms.
void scatter_shapes(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);

// --- layer norm (core/ops/nn.h) -------------------------------------------------------------
// torch's _check_layer_norm_inputs -> (M, N): the rows before the normalized dims and the
// elements in each.
std::pair<int64_t, int64_t> layer_norm_inputs(const Tensor& input, IntArrayRef normalized_shape,
                                              const Tensor& weight, const Tensor& bias);
// native_layer_norm_backward: layer_norm_inputs' checks, then grad_out of input's shape, mean and
// rstd with one value per row, a 3-entry output_mask -> (M, N).
std::pair<int64_t, int64_t> layer_norm_backward_args(const Tensor& grad_out, const Tensor& input,
                                                     IntArrayRef normalized_shape,
                                                     const Tensor& mean, const Tensor& rstd,
                                                     const Tensor& weight, const Tensor& bias,
                                                     IntArrayRef output_mask);

// --- group norm (core/ops/nn.h) -------------------------------------------------------------
// torch's check_group_norm_inputs: groups > 0 dividing C, weight and bias vectors of C.
void group_norm_inputs(const Tensor& input, const Tensor& weight, const Tensor& bias, int64_t C,
                       int64_t num_groups);

// --- nll_loss (core/ops/nn.h) ---------------------------------------------------------------
// torch's nll_loss_forward meta: self (C) or (N, C), target () or (N), and a weight for all
// classes or none.
void nll_loss_args(const Tensor& self, const Tensor& target, const Tensor& weight);
// nll_loss_backward: self and target as the forward's, a one-element total_weight, and a weight
// for all classes or none (the backward's shorter message).
void nll_loss_backward_args(const Tensor& self, const Tensor& target, const Tensor& weight,
                            const Tensor& total_weight);

// --- batch norm (core/ops/nn.h) -------------------------------------------------------------
// native_batch_norm's forward: running statistics in eval mode, a float input, and each defined
// (C) operand of the input's dtype with one element per channel.
void batch_norm_args(const Tensor& input, const Tensor& weight, const Tensor& bias,
                     const Tensor& running_mean, const Tensor& running_var, bool training);

// native_batch_norm_backward: a 3-entry output_mask, a float input (`kernel` names the device's
// kernel in the message), and the statistics the mode reads defined -> (N, C, S), S the
// elements of a channel in one sample.
std::tuple<int64_t, int64_t, int64_t> batch_norm_backward_args(
    const Tensor& input, const Tensor& running_mean, const Tensor& running_var,
    const Tensor& save_mean, const Tensor& save_invstd, bool train, IntArrayRef output_mask,
    const char* kernel);

// --- convolution (core/ops/nn.h) ------------------------------------------------------------
// weight and a defined bias have the input's dtype.
void conv_dtypes(const Tensor& input, const Tensor& weight, const Tensor& bias);
// A 2-D kernel's kernel_size: the weight's last two sizes.
void conv2d_kernel_size(IntArrayRef kernel_size, const Tensor& weight);
// What every convolution kernel indexes without looking: a `spatial`-D window's lists of 1 or
// `spatial` entries (output_padding may be empty), their ranges, groups, and the operands' ranks
// and channels, so a bad call from torch.ops raises instead of reading past a list or a tensor.
void conv_args(const Tensor& input, const Tensor& weight, int64_t spatial, IntArrayRef stride,
               IntArrayRef padding, IntArrayRef dilation, IntArrayRef output_padding,
               int64_t groups, bool transposed);

// convolution_backward: a 3-entry output_mask, a 1-D or 2-D convolution (conv_args), and a
// grad_output of the input's rank.
void conv_backward_args(const Tensor& grad_output, const Tensor& input, const Tensor& weight,
                        IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                        bool transposed, IntArrayRef output_padding, int64_t groups,
                        IntArrayRef output_mask);

// --- 2-D pooling (core/ops/nn.h) ------------------------------------------------------------
// A max / avg pool2d call's window and the planes it walks: input (N, C, H, W) or (C, H, W) is
// `planes` planes of H x W, each pooled to OH x OW.
struct Pool2dGeometry {
  int64_t kH, kW, sH, sW, pH, pW, dH = 1, dW = 1;
  int64_t planes, H, W, OH, OW;
  bool batched;
  int64_t channels;
  // (N, C, OH, OW), or (C, OH, OW) unbatched.
  DimVector out_sizes() const;
};
// torch's pool2d_shape_check after the output size: the argument lists' lengths (an empty
// stride is kernel_size), ranks, ranges and the output size; `op` names the op in the messages.
Pool2dGeometry pool2d_geometry(const Tensor& input, IntArrayRef kernel_size, IntArrayRef stride,
                               IntArrayRef padding, IntArrayRef dilation, bool ceil_mode,
                               const char* op);
// A pooling backward's grad_output has the forward's output size.
void pool2d_grad_output(const Tensor& grad_output, const Pool2dGeometry& p, const char* op);

// --- written-to operands --------------------------------------------------------------------
// Two tensors written by one call (sort's values and indices out=) that share memory raise
// torch's "unsupported operation".
void no_overlap(const Tensor& a, const Tensor& b);

}  // namespace opscope::checks
