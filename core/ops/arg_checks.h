// Argument checks that a family's CPU kernels and its CUDA kernels (core/cuda/kernels/) both make,
// in one place: torch checks these in its device-independent meta functions (ADDMM_META,
// scatter_gather_dtype_check, _check_layer_norm_inputs ...), so the words and their order are the
// same on every device. Each throws opscope's error with torch 1.13's message; kernels call them
// first, before anything device-specific (dtype support, devices, allocation).
#pragma once

#include <cstdint>
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

}  // namespace opscope::checks
