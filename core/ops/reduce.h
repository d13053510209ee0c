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

#include "core/dispatch/Op.h"
#include "core/runtime/Scalar.h"
#include "core/tensor/Tensor.h"

namespace opscope::ops {

using OptDims = std::optional<IntArrayRef>;
using OptScalarType = std::optional<ScalarType>;

// --- sum, mean, prod --------------------------------------------------------------------------
// sum(Tensor self, *, ScalarType? dtype=None) -> Tensor                       [*] -> []
// sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None)
inline constexpr Overloads sum{
    Op<Tensor(const Tensor&, Default<OptScalarType>)>{"aten::sum"},
    Op<Tensor(const Tensor&, OptDims, Default<bool>, Default<OptScalarType>)>{
        "aten::sum.dim_IntList"}};
// sum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None,
//                 Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&, OptDims, Default<bool>, Default<OptScalarType>)>
    sum_out{"aten::sum.IntList_out"};
// mean(Tensor self, *, ScalarType? dtype=None) -> Tensor
// mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
inline constexpr Overloads mean{
    Op<Tensor(const Tensor&, Default<OptScalarType>)>{"aten::mean"},
    Op<Tensor(const Tensor&, OptDims, Default<bool>, Default<OptScalarType>)>{"aten::mean.dim"}};
// mean.out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None,
//          Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&, OptDims, Default<bool>, Default<OptScalarType>)>
    mean_out{"aten::mean.out"};
// nansum(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
inline constexpr Op<Tensor(const Tensor&, OptDims, Default<bool>, Default<OptScalarType>)> nansum{
    "aten::nansum"};
// nansum.out(..., *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&, OptDims, Default<bool>, Default<OptScalarType>)>
    nansum_out{"aten::nansum.out"};
// prod(Tensor self, *, ScalarType? dtype=None) -> Tensor
// prod.dim_int(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
inline constexpr Overloads prod{
    Op<Tensor(const Tensor&, Default<OptScalarType>)>{"aten::prod"},
    Op<Tensor(const Tensor&, int64_t, Default<bool>, Default<OptScalarType>)>{
        "aten::prod.dim_int"}};

// --- max, min, amax, amin, argmax, argmin -----------------------------------------------------
// max(Tensor self) -> Tensor                                                  [*] -> []
// max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
inline constexpr Overloads max{
    Op<Tensor(const Tensor&)>{"aten::max"},
    Op<std::tuple<Tensor, Tensor>(const Tensor&, int64_t, Default<bool>)>{"aten::max.dim"}};
// min(Tensor self) -> Tensor
// min.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
inline constexpr Overloads min{
    Op<Tensor(const Tensor&)>{"aten::min"},
    Op<std::tuple<Tensor, Tensor>(const Tensor&, int64_t, Default<bool>)>{"aten::min.dim"}};
// amax(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor
inline constexpr Op<Tensor(const Tensor&, Default<IntArrayRef>, Default<bool>)> amax{"aten::amax"};

// --- var, std, var_mean, std_mean -------------------------------------------------------------
// var.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) -> Tensor
inline constexpr Op<Tensor(const Tensor&, OptDims, std::optional<int64_t>, Default<bool>)> var{
    "aten::var.correction"};
// var.correction_out(..., Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&, OptDims, std::optional<int64_t>, Default<bool>)>
    var_out{"aten::var.correction_out"};
// std.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) -> Tensor
inline constexpr Op<Tensor(const Tensor&, OptDims, std::optional<int64_t>, Default<bool>)> std{
    "aten::std.correction"};
// std.correction_out(..., Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&, OptDims, std::optional<int64_t>, Default<bool>)>
    std_out{"aten::std.correction_out"};
// var_mean.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False)
//     -> (Tensor, Tensor)
inline constexpr Op<std::tuple<Tensor, Tensor>(const Tensor&, OptDims, std::optional<int64_t>,
                                               Default<bool>)>
    var_mean{"aten::var_mean.correction"};
// std_mean.correction(...) -> (Tensor, Tensor)
inline constexpr Op<std::tuple<Tensor, Tensor>(const Tensor&, OptDims, std::optional<int64_t>,
                                               Default<bool>)>
    std_mean{"aten::std_mean.correction"};

// --- norm, all, any, count_nonzero, logsumexp ---------------------------------------------------
// norm.ScalarOpt_dim(Tensor self, Scalar? p, int[1] dim, bool keepdim=False) -> Tensor
// norm.ScalarOpt_dim_dtype(Tensor self, Scalar? p, int[1] dim, bool keepdim, *,
//                          ScalarType dtype) -> Tensor
inline constexpr Overloads norm{
    Op<Tensor(const Tensor&, const std::optional<Scalar>&, IntArrayRef, Default<bool>)>{
        "aten::norm.ScalarOpt_dim"},
    Op<Tensor(const Tensor&, const std::optional<Scalar>&, IntArrayRef, bool, ScalarType)>{
        "aten::norm.ScalarOpt_dim_dtype"}};
// norm.out(Tensor self, Scalar? p, int[1] dim, bool keepdim=False, *, Tensor(a!) out)
inline constexpr Op<Tensor(Out, const Tensor&, const std::optional<Scalar>&, IntArrayRef,
                           Default<bool>)>
    norm_out{"aten::norm.out"};
// all(Tensor self) -> Tensor                                                   -> bool
// all.dim(Tensor self, int dim, bool keepdim=False) -> Tensor
inline constexpr Overloads all{Op<Tensor(const Tensor&)>{"aten::all"},
                               Op<Tensor(const Tensor&, int64_t, Default<bool>)>{"aten::all.dim"}};
// any(Tensor self) -> Tensor
// any.dim(Tensor self, int dim, bool keepdim=False) -> Tensor
inline constexpr Overloads any{Op<Tensor(const Tensor&)>{"aten::any"},
                               Op<Tensor(const Tensor&, int64_t, Default<bool>)>{"aten::any.dim"}};
// count_nonzero.dim_IntList(Tensor self, int[] dim) -> Tensor                  -> int64
inline constexpr Op<Tensor(const Tensor&, IntArrayRef)> count_nonzero{
    "aten::count_nonzero.dim_IntList"};
// logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor
inline constexpr Op<Tensor(const Tensor&, IntArrayRef, Default<bool>)> logsumexp{"aten::logsumexp"};

// --- scans, softmax ---------------------------------------------------------------------------
// cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor            [*s] -> [*s]
inline constexpr Op<Tensor(const Tensor&, int64_t, Default<OptScalarType>)> cumsum{"aten::cumsum"};
// cumprod(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor
inline constexpr Op<Tensor(const Tensor&, int64_t, Default<OptScalarType>)> cumprod{
    "aten::cumprod"};
// cummax.out / cummin.out(Tensor self, int dim, *, Tensor(a!) values, Tensor(b!) indices)
//   -> (Tensor(a!) values, Tensor(b!) indices)                               [*s] -> [*s], [*s]
inline constexpr Op<std::tuple<Tensor, Tensor>(const Tensor&, int64_t, const Tensor&, const Tensor&)>
    cummax_out{
    "aten::cummax.out"};
inline constexpr Op<std::tuple<Tensor, Tensor>(const Tensor&, int64_t, const Tensor&, const Tensor&)>
    cummin_out{
    "aten::cummin.out"};
// _cummax_helper / _cummin_helper(Tensor self, Tensor(a!) values, Tensor(b!) indices, int dim)
//   -> ()   values and indices already of self's shape
inline constexpr Op<void(const Tensor&, const Tensor&, const Tensor&, int64_t)> _cummax_helper{
    "aten::_cummax_helper"};
inline constexpr Op<void(const Tensor&, const Tensor&, const Tensor&, int64_t)> _cummin_helper{
    "aten::_cummin_helper"};
// cummaxmin_backward(Tensor grad, Tensor input, Tensor indices, int dim) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&, int64_t)>
    cummaxmin_backward{"aten::cummaxmin_backward"};
// logcumsumexp(Tensor self, int dim) -> Tensor                                 [*s] -> [*s]
inline constexpr Op<Tensor(const Tensor&, int64_t)> logcumsumexp{"aten::logcumsumexp"};
// _logcumsumexp(Tensor self, int dim) -> Tensor; .out
inline constexpr Op<Tensor(const Tensor&, int64_t)> _logcumsumexp{"aten::_logcumsumexp"};
inline constexpr Op<Tensor(Out, const Tensor&, int64_t)> _logcumsumexp_out{
    "aten::_logcumsumexp.out"};
// softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor          [*s] -> [*s]
inline constexpr Op<Tensor(const Tensor&, int64_t, Default<OptScalarType>)> softmax{
    "aten::softmax.int"};
// log_softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor
inline constexpr Op<Tensor(const Tensor&, int64_t, Default<OptScalarType>)> log_softmax{
    "aten::log_softmax.int"};
// _softmax(Tensor self, int dim, bool half_to_float) -> Tensor
inline constexpr Op<Tensor(const Tensor&, int64_t, bool)> _softmax{"aten::_softmax"};
// _softmax.out(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&, int64_t, bool)> _softmax_out{"aten::_softmax.out"};
// _log_softmax(Tensor self, int dim, bool half_to_float) -> Tensor
inline constexpr Op<Tensor(const Tensor&, int64_t, bool)> _log_softmax{"aten::_log_softmax"};
// _log_softmax.out(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&, int64_t, bool)> _log_softmax_out{
    "aten::_log_softmax.out"};
// _softmax_backward_data(Tensor grad_output, Tensor output, int dim, ScalarType input_dtype)
// output * (grad_output - sum(grad_output * output, dim)): softmax's input gradient from its
// result. _log_softmax_backward_data: grad_output - exp(output) * sum(grad_output, dim).
inline constexpr Op<Tensor(const Tensor&, const Tensor&, int64_t, ScalarType)>
    _softmax_backward_data{"aten::_softmax_backward_data"};
inline constexpr Op<Tensor(const Tensor&, const Tensor&, int64_t, ScalarType)>
    _log_softmax_backward_data{"aten::_log_softmax_backward_data"};

// --- statistics: cov, mode, aminmax (core/ops/composite/statistics.cpp, cpu/statistics.cpp) ---
// cov(Tensor self, *, int correction=1, Tensor? fweights=None, Tensor? aweights=None) -> Tensor
//                                                        (vars, obs) -> (vars, vars); (obs) -> ()
inline constexpr Op<Tensor(const Tensor&, Default<int64_t>, Default<const Tensor&>,
                           Default<const Tensor&>)>
    cov{"aten::cov"};
// mode(Tensor self, int dim=-1, bool keepdim=False) -> (Tensor values, Tensor indices)
inline constexpr Op<std::tuple<Tensor, Tensor>(const Tensor&, Default<int64_t>, Default<bool>)>
    mode{"aten::mode"};
// aminmax(Tensor self, *, int? dim=None, bool keepdim=False) -> (Tensor min, Tensor max)
inline constexpr Op<std::tuple<Tensor, Tensor>(const Tensor&, Default<std::optional<int64_t>>,
                                               Default<bool>)>
    aminmax{"aten::aminmax"};

}  // namespace opscope::ops
