// Reductions: sum, mean, prod, max / min, amax / amin, argmax / argmin, var / std (and
// var_mean / std_mean), norm and linalg_vector_norm, all / any, count_nonzero, logsumexp; the
// scans cumsum / cumprod; softmax / log_softmax.
//
// Semantically a reduction folds the elements along some dims into one value per position of
// the others: sum(x, dim=1) of an [a, b, c] tensor is [a, c] (keepdim=True: [a, 1, c]). `dim`
// is an int, a list of ints (negative counts from the end), or omitted / empty for every dim.
// dtypes follow torch 1.13: sum / prod / cumsum / cumprod of bool and integers give int64;
// `dtype=` converts the input first; mean, var, std, norm, softmax want floating inputs;
// all / any give bool (uint8 for uint8); argmax / max(dim) indices are int64. float16 and
// bfloat16 accumulate in float. NaN propagates through max / min (the index of the first NaN
// is reported). Reductions without an identity (max, amax, argmax) refuse zero elements.
//
// In implementation terms, as in torch 1.13: sum.dim_IntList, mean.dim, prod, max, amax, argmax,
// var.correction, norm.ScalarOpt_dim, all, any, cumsum, _softmax, ... are CPU kernels over a
// ReducePlan (core/ops/cpu/reduce_plan.h, Note [Reduction layout]); sum(), mean(), norm.Scalar,
// count_nonzero, logsumexp are CompositeExplicitAutograd, and var / std with `unbiased`,
// softmax.int, log_softmax.int are CompositeImplicitAutograd over the overloads above, so a
// trace reads `softmax.int -> _softmax`. Entry points for out= variants take `out` first.
//
//   Tensor x = ops::randn({4, 5});
//   Tensor s = ops::sum(x, IntArrayRef{1});               // f32[4]
//   auto [values, indices] = ops::max(x, 0);              // f32[5], i64[5]
//   Tensor p = ops::softmax(x, -1);                       // rows sum to 1
#pragma once

#include <optional>
#include <tuple>

#include "core/runtime/Scalar.h"
#include "core/tensor/Tensor.h"

namespace opscope::ops {

using OptDims = std::optional<IntArrayRef>;
using OptScalarType = std::optional<ScalarType>;

// --- sum, mean, prod --------------------------------------------------------------------------
// sum(Tensor self, *, ScalarType? dtype=None) -> Tensor                       [*] -> []
Tensor sum(const Tensor& self, OptScalarType dtype = {});
// sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None)
Tensor sum(const Tensor& self, OptDims dim, bool keepdim = false, OptScalarType dtype = {});
// sum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None,
//                 Tensor(a!) out) -> Tensor(a!)
Tensor sum_out(const Tensor& out, const Tensor& self, OptDims dim, bool keepdim = false,
               OptScalarType dtype = {});
// mean(Tensor self, *, ScalarType? dtype=None) -> Tensor
Tensor mean(const Tensor& self, OptScalarType dtype = {});
// mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
Tensor mean(const Tensor& self, OptDims dim, bool keepdim = false, OptScalarType dtype = {});
// mean.out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None,
//          Tensor(a!) out) -> Tensor(a!)
Tensor mean_out(const Tensor& out, const Tensor& self, OptDims dim, bool keepdim = false,
                OptScalarType dtype = {});
// prod(Tensor self, *, ScalarType? dtype=None) -> Tensor
Tensor prod(const Tensor& self, OptScalarType dtype = {});
// prod.dim_int(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
Tensor prod(const Tensor& self, int64_t dim, bool keepdim = false, OptScalarType dtype = {});

// --- max, min, amax, amin, argmax, argmin -----------------------------------------------------
// max(Tensor self) -> Tensor                                                  [*] -> []
Tensor max(const Tensor& self);
// max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
std::tuple<Tensor, Tensor> max(const Tensor& self, int64_t dim, bool keepdim = false);
// min(Tensor self) -> Tensor
Tensor min(const Tensor& self);
// min.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
std::tuple<Tensor, Tensor> min(const Tensor& self, int64_t dim, bool keepdim = false);
// amax(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor
Tensor amax(const Tensor& self, IntArrayRef dim = {}, bool keepdim = false);
// amin(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor
Tensor amin(const Tensor& self, IntArrayRef dim = {}, bool keepdim = false);
// argmax(Tensor self, int? dim=None, bool keepdim=False) -> Tensor            -> int64
Tensor argmax(const Tensor& self, std::optional<int64_t> dim = {}, bool keepdim = false);
// argmin(Tensor self, int? dim=None, bool keepdim=False) -> Tensor
Tensor argmin(const Tensor& self, std::optional<int64_t> dim = {}, bool keepdim = false);

// --- var, std, var_mean, std_mean -------------------------------------------------------------
// var.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) -> Tensor
Tensor var(const Tensor& self, OptDims dim, std::optional<int64_t> correction,
           bool keepdim = false);
// var.correction_out(..., Tensor(a!) out) -> Tensor(a!)
Tensor var_out(const Tensor& out, const Tensor& self, OptDims dim,
               std::optional<int64_t> correction, bool keepdim = false);
// std.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) -> Tensor
Tensor std(const Tensor& self, OptDims dim, std::optional<int64_t> correction,
           bool keepdim = false);
// std.correction_out(..., Tensor(a!) out) -> Tensor(a!)
Tensor std_out(const Tensor& out, const Tensor& self, OptDims dim,
               std::optional<int64_t> correction, bool keepdim = false);
// var_mean.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False)
//     -> (Tensor, Tensor)
std::tuple<Tensor, Tensor> var_mean(const Tensor& self, OptDims dim,
                                    std::optional<int64_t> correction, bool keepdim = false);
// std_mean.correction(...) -> (Tensor, Tensor)
std::tuple<Tensor, Tensor> std_mean(const Tensor& self, OptDims dim,
                                    std::optional<int64_t> correction, bool keepdim = false);

// --- norm, all, any, count_nonzero, logsumexp ---------------------------------------------------
// norm.ScalarOpt_dim(Tensor self, Scalar? p, int[1] dim, bool keepdim=False) -> Tensor
Tensor norm(const Tensor& self, const std::optional<Scalar>& p, IntArrayRef dim,
            bool keepdim = false);
// norm.ScalarOpt_dim_dtype(Tensor self, Scalar? p, int[1] dim, bool keepdim, *,
//                          ScalarType dtype) -> Tensor
Tensor norm(const Tensor& self, const std::optional<Scalar>& p, IntArrayRef dim, bool keepdim,
            ScalarType dtype);
// norm.out(Tensor self, Scalar? p, int[1] dim, bool keepdim=False, *, Tensor(a!) out)
Tensor norm_out(const Tensor& out, const Tensor& self, const std::optional<Scalar>& p,
                IntArrayRef dim, bool keepdim = false);
// linalg_vector_norm(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *,
//                    ScalarType? dtype=None) -> Tensor
Tensor linalg_vector_norm(const Tensor& self, const Scalar& ord = 2, OptDims dim = {},
                          bool keepdim = false, OptScalarType dtype = {});
// all(Tensor self) -> Tensor                                                   -> bool
Tensor all(const Tensor& self);
// all.dim(Tensor self, int dim, bool keepdim=False) -> Tensor
Tensor all(const Tensor& self, int64_t dim, bool keepdim = false);
// any(Tensor self) -> Tensor
Tensor any(const Tensor& self);
// any.dim(Tensor self, int dim, bool keepdim=False) -> Tensor
Tensor any(const Tensor& self, int64_t dim, bool keepdim = false);
// count_nonzero.dim_IntList(Tensor self, int[] dim) -> Tensor                  -> int64
Tensor count_nonzero(const Tensor& self, IntArrayRef dim);
// logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor
Tensor logsumexp(const Tensor& self, IntArrayRef dim, bool keepdim = false);

// --- scans, softmax ---------------------------------------------------------------------------
// cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor            [*s] -> [*s]
Tensor cumsum(const Tensor& self, int64_t dim, OptScalarType dtype = {});
// cumprod(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor
Tensor cumprod(const Tensor& self, int64_t dim, OptScalarType dtype = {});
// softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor          [*s] -> [*s]
Tensor softmax(const Tensor& self, int64_t dim, OptScalarType dtype = {});
// log_softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor
Tensor log_softmax(const Tensor& self, int64_t dim, OptScalarType dtype = {});
// _softmax(Tensor self, int dim, bool half_to_float) -> Tensor
Tensor _softmax(const Tensor& self, int64_t dim, bool half_to_float);
// _softmax.out(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out) -> Tensor(a!)
Tensor _softmax_out(const Tensor& out, const Tensor& self, int64_t dim, bool half_to_float);
// _log_softmax(Tensor self, int dim, bool half_to_float) -> Tensor
Tensor _log_softmax(const Tensor& self, int64_t dim, bool half_to_float);
// _log_softmax.out(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out) -> Tensor(a!)
Tensor _log_softmax_out(const Tensor& out, const Tensor& self, int64_t dim, bool half_to_float);

}  // namespace opscope::ops
