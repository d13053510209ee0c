// The reduction family's kernels, as core/ops/reduce.cpp registers them. Each follows its schema
// argument for argument (see core/ops/README.md); out= kernels take `out` last and return it.
// CPU kernels: core/ops/cpu/reduce_sum.cpp (sum, mean, prod), reduce_logical.cpp (all, any,
// count_nonzero), reduce_norm.cpp (norm, linalg_vector_norm), reduce_minmax.cpp (max, min,
// amax, amin, argmax, argmin), reduce_stats.cpp (var, std, var_mean, std_mean, logsumexp),
// scan.cpp (cumsum, cumprod), softmax.cpp (_softmax, _log_softmax). Composite kernels:
// core/ops/composite/reduce.cpp.
#pragma once

#include <optional>
#include <string_view>
#include <tuple>

#include "core/runtime/Scalar.h"
#include "core/tensor/Tensor.h"

namespace opscope {

using OptDims = std::optional<IntArrayRef>;
using OptDtype = std::optional<ScalarType>;

namespace cpu {
Tensor sum_dim(const Tensor& self, OptDims dim, bool keepdim, OptDtype dtype);
Tensor sum_out(const Tensor& self, OptDims dim, bool keepdim, OptDtype dtype, const Tensor& out);
Tensor mean_dim(const Tensor& self, OptDims dim, bool keepdim, OptDtype dtype);
Tensor mean_out(const Tensor& self, OptDims dim, bool keepdim, OptDtype dtype, const Tensor& out);
Tensor prod(const Tensor& self, OptDtype dtype);
Tensor prod_dim(const Tensor& self, int64_t dim, bool keepdim, OptDtype dtype);
Tensor prod_out(const Tensor& self, int64_t dim, bool keepdim, OptDtype dtype, const Tensor& out);

Tensor all(const Tensor& self);
Tensor all_dim(const Tensor& self, int64_t dim, bool keepdim);
Tensor all_out(const Tensor& self, int64_t dim, bool keepdim, const Tensor& out);
Tensor all_all_out(const Tensor& self, const Tensor& out);
Tensor any(const Tensor& self);
Tensor any_dim(const Tensor& self, int64_t dim, bool keepdim);
Tensor any_out(const Tensor& self, int64_t dim, bool keepdim, const Tensor& out);
Tensor any_all_out(const Tensor& self, const Tensor& out);
Tensor count_nonzero_dims(const Tensor& self, IntArrayRef dim);

Tensor norm_dim(const Tensor& self, const std::optional<Scalar>& p, IntArrayRef dim, bool keepdim);
Tensor norm_dim_dtype(const Tensor& self, const std::optional<Scalar>& p, IntArrayRef dim,
                      bool keepdim, ScalarType dtype);
Tensor norm_out(const Tensor& self, const std::optional<Scalar>& p, IntArrayRef dim, bool keepdim,
                const Tensor& out);
Tensor norm_dtype_out(const Tensor& self, const std::optional<Scalar>& p, IntArrayRef dim,
                      bool keepdim, ScalarType dtype, const Tensor& out);
Tensor linalg_vector_norm(const Tensor& self, const Scalar& ord, OptDims dim, bool keepdim,
                          OptDtype dtype);
Tensor linalg_vector_norm_out(const Tensor& self, const Scalar& ord, OptDims dim, bool keepdim,
                              OptDtype dtype, const Tensor& out);

Tensor max(const Tensor& self);
Tensor min(const Tensor& self);
std::tuple<Tensor, Tensor> max_dim(const Tensor& self, int64_t dim, bool keepdim);
std::tuple<Tensor, Tensor> min_dim(const Tensor& self, int64_t dim, bool keepdim);
std::tuple<Tensor, Tensor> max_dim_out(const Tensor& self, int64_t dim, bool keepdim,
                                       const Tensor& max, const Tensor& max_values);
std::tuple<Tensor, Tensor> min_dim_out(const Tensor& self, int64_t dim, bool keepdim,
                                       const Tensor& min, const Tensor& min_indices);
Tensor amax(const Tensor& self, IntArrayRef dim, bool keepdim);
Tensor amax_out(const Tensor& self, IntArrayRef dim, bool keepdim, const Tensor& out);
Tensor amin(const Tensor& self, IntArrayRef dim, bool keepdim);
Tensor amin_out(const Tensor& self, IntArrayRef dim, bool keepdim, const Tensor& out);
Tensor argmax(const Tensor& self, std::optional<int64_t> dim, bool keepdim);
Tensor argmax_out(const Tensor& self, std::optional<int64_t> dim, bool keepdim, const Tensor& out);
Tensor argmin(const Tensor& self, std::optional<int64_t> dim, bool keepdim);
Tensor argmin_out(const Tensor& self, std::optional<int64_t> dim, bool keepdim, const Tensor& out);

Tensor var_correction(const Tensor& self, OptDims dim, std::optional<int64_t> correction,
                      bool keepdim);
Tensor var_correction_out(const Tensor& self, OptDims dim, std::optional<int64_t> correction,
                          bool keepdim, const Tensor& out);
Tensor std_correction(const Tensor& self, OptDims dim, std::optional<int64_t> correction,
                      bool keepdim);
Tensor std_correction_out(const Tensor& self, OptDims dim, std::optional<int64_t> correction,
                          bool keepdim, const Tensor& out);
std::tuple<Tensor, Tensor> var_mean_correction(const Tensor& self, OptDims dim,
                                               std::optional<int64_t> correction, bool keepdim);
std::tuple<Tensor, Tensor> std_mean_correction(const Tensor& self, OptDims dim,
                                               std::optional<int64_t> correction, bool keepdim);

Tensor cumsum(const Tensor& self, int64_t dim, OptDtype dtype);
Tensor cumsum_out(const Tensor& self, int64_t dim, OptDtype dtype, const Tensor& out);
Tensor cumprod(const Tensor& self, int64_t dim, OptDtype dtype);
Tensor cumprod_out(const Tensor& self, int64_t dim, OptDtype dtype, const Tensor& out);

Tensor _softmax(const Tensor& self, int64_t dim, bool half_to_float);
Tensor _softmax_out(const Tensor& self, int64_t dim, bool half_to_float, const Tensor& out);
Tensor _log_softmax(const Tensor& self, int64_t dim, bool half_to_float);
Tensor _log_softmax_out(const Tensor& self, int64_t dim, bool half_to_float, const Tensor& out);
Tensor logsumexp(const Tensor& self, IntArrayRef dim, bool keepdim);
Tensor logsumexp_out(const Tensor& self, IntArrayRef dim, bool keepdim, const Tensor& out);
}  // namespace cpu

namespace composite {
Tensor logsumexp(const Tensor& self, IntArrayRef dim, bool keepdim);
Tensor logsumexp_out(const Tensor& self, IntArrayRef dim, bool keepdim, const Tensor& out);
Tensor sum(const Tensor& self, OptDtype dtype);
Tensor sum_all_out(const Tensor& self, OptDtype dtype, const Tensor& out);
Tensor mean(const Tensor& self, OptDtype dtype);
Tensor prod_all_out(const Tensor& self, OptDtype dtype, const Tensor& out);
Tensor norm(const Tensor& self, const Scalar& p);
Tensor norm_scalar_out(const Tensor& self, const Scalar& p, const Tensor& out);
Tensor norm_dtype(const Tensor& self, const std::optional<Scalar>& p, ScalarType dtype);
Tensor norm_dtype_all_out(const Tensor& self, const std::optional<Scalar>& p, ScalarType dtype,
                          const Tensor& out);
Tensor max_other(const Tensor& self, const Tensor& other);
Tensor max_other_out(const Tensor& self, const Tensor& other, const Tensor& out);
Tensor min_other(const Tensor& self, const Tensor& other);
Tensor min_other_out(const Tensor& self, const Tensor& other, const Tensor& out);
Tensor frobenius_norm(const Tensor& self);
Tensor frobenius_norm_dim(const Tensor& self, IntArrayRef dim, bool keepdim);
Tensor frobenius_norm_out(const Tensor& self, IntArrayRef dim, bool keepdim, const Tensor& out);
Tensor count_nonzero(const Tensor& self, std::optional<int64_t> dim);
Tensor count_nonzero_out(const Tensor& self, std::optional<int64_t> dim, const Tensor& out);
Tensor count_nonzero_dims_out(const Tensor& self, IntArrayRef dim, const Tensor& out);
std::tuple<Tensor, Tensor> var_mean_correction_out(const Tensor& self, OptDims dim,
                                                   std::optional<int64_t> correction, bool keepdim,
                                                   const Tensor& out0, const Tensor& out1);
std::tuple<Tensor, Tensor> std_mean_correction_out(const Tensor& self, OptDims dim,
                                                   std::optional<int64_t> correction, bool keepdim,
                                                   const Tensor& out0, const Tensor& out1);
Tensor var(const Tensor& self, bool unbiased);
Tensor var_dim(const Tensor& self, OptDims dim, bool unbiased, bool keepdim);
Tensor var_out(const Tensor& self, OptDims dim, bool unbiased, bool keepdim, const Tensor& out);
Tensor std(const Tensor& self, bool unbiased);
Tensor std_dim(const Tensor& self, OptDims dim, bool unbiased, bool keepdim);
Tensor std_out(const Tensor& self, OptDims dim, bool unbiased, bool keepdim, const Tensor& out);
std::tuple<Tensor, Tensor> var_mean(const Tensor& self, bool unbiased);
std::tuple<Tensor, Tensor> var_mean_dim(const Tensor& self, OptDims dim, bool unbiased,
                                        bool keepdim);
std::tuple<Tensor, Tensor> std_mean(const Tensor& self, bool unbiased);
std::tuple<Tensor, Tensor> std_mean_dim(const Tensor& self, OptDims dim, bool unbiased,
                                        bool keepdim);
Tensor softmax(const Tensor& self, int64_t dim, OptDtype dtype);
Tensor softmax_out(const Tensor& self, int64_t dim, OptDtype dtype, const Tensor& out);
Tensor log_softmax(const Tensor& self, int64_t dim, OptDtype dtype);
Tensor log_softmax_out(const Tensor& self, int64_t dim, OptDtype dtype, const Tensor& out);
}  // namespace composite

}  // namespace opscope
