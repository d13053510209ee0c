// Sorting and selection: sort, argsort, msort, topk, kthvalue, and the unique family
// (_unique2, _unique, unique_dim, unique_consecutive).
//
// Semantically each op orders the elements of every 1-D slice along `dim` independently and
// reports, next to the values, where each came from (int64 indices into the slice). NaN
// orders as larger than everything, +inf included, as in torch: last in an ascending sort, first
// in a descending one and in topk(largest=True). sort(stable=True) keeps equal elements in their
// original order; sort(stable=False) gives torch's order for ties too (the same std::sort over
// the same (value, index) pairs). unique returns the distinct elements of the flattened tensor
// (or distinct slices with unique_dim), optionally with each element's position in the result
// (inverse) and each result's multiplicity (counts).
//
// In implementation terms, as in PyTorch 1.13 (Sorting.cpp, SortingKernel.cpp, TopKImpl.h,
// Unique.cpp): sort.stable, topk, kthvalue.values, _unique2, _unique, unique_dim and
// unique_consecutive are CPU kernels (core/ops/cpu/sorting.cpp) that copy each slice into a
// vector of (value, index) pairs and run std::stable_sort / std::sort / std::partial_sort /
// std::nth_element on it, slices split between threads. The other overloads decompose:
//   sort -> sort.stable      sort.values -> sort.values_stable      argsort, msort -> sort
//   kthvalue -> empty, empty, kthvalue.values
// unique's hash-set order (sorted=False) is std::unordered_set's, which torch's CPU kernel uses.
//
//   Tensor x = ops::randn({4, 5});
//   auto [v, i] = ops::sort(x, 1);                   // rows ascending; x[r][i[r][c]] == v[r][c]
//   auto [t, j] = ops::topk(x, 2, 1);                // per row: the 2 largest, then their places
//   auto [u, inv, cnt] = ops::_unique2(ops::round(x), true, true, true);
#pragma once

#include <optional>
#include <tuple>

#include "core/dispatch/Op.h"
#include "core/tensor/Tensor.h"

namespace opscope::ops {

// The named returns (values, indices) of the schemas become Python named tuples.
using TensorPair = std::tuple<Tensor, Tensor>;
using TensorTriple = std::tuple<Tensor, Tensor, Tensor>;

// sort(Tensor self, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)
// (.., n, ..) -> values (.., n, ..) ordered along dim, indices int64 (.., n, ..).
// sort.stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False)
//   -> (Tensor values, Tensor indices)
inline constexpr Overloads sort{
    Op<TensorPair(const Tensor&, Default<int64_t>, Default<bool>)>{"aten::sort"},
    Op<TensorPair(const Tensor&, std::optional<bool>, Default<int64_t>, Default<bool>)>{
        "aten::sort.stable"}};
// sort.values(Tensor self, int dim=-1, bool descending=False, *, Tensor(a!) values,
//             Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)
// sort.values_stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False,
//                    Tensor(a!) values, Tensor(b!) indices)
//   -> (Tensor(a!) values, Tensor(b!) indices)
inline constexpr Overloads sort_out{
    Op<TensorPair(const Tensor&, int64_t, bool, const Tensor&, const Tensor&)>{"aten::sort.values"},
    Op<TensorPair(const Tensor&, std::optional<bool>, int64_t, bool, const Tensor&, const Tensor&)>{
        "aten::sort.values_stable"}};

// topk(Tensor self, int k, int dim=-1, bool largest=True, bool sorted=True)
//   -> (Tensor values, Tensor indices)
// (.., n, ..) -> (.., k, ..): the k largest (smallest) along dim, 0 <= k <= n.
inline constexpr Op<TensorPair(const Tensor&, int64_t, Default<int64_t>, Default<bool>,
                               Default<bool>)>
    topk{"aten::topk"};

// kthvalue.values(Tensor self, int k, int dim=-1, bool keepdim=False, *, Tensor(a!) values,
//                 Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)
inline constexpr Op<TensorPair(const Tensor&, int64_t, int64_t, bool, const Tensor&, const Tensor&)>
    kthvalue_out{"aten::kthvalue.values"};
// median.dim_values(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) values,
//                   Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)
inline constexpr Op<TensorPair(const Tensor&, int64_t, bool, const Tensor&, const Tensor&)> median_dim_out{
    "aten::median.dim_values"};
// nanmedian.dim_values(...): as median.dim_values, NaNs left out
inline constexpr Op<TensorPair(const Tensor&, int64_t, bool, const Tensor&, const Tensor&)>
    nanmedian_dim_out{
    "aten::nanmedian.dim_values"};

// _unique2(Tensor self, bool sorted=True, bool return_inverse=False, bool return_counts=False)
//   -> (Tensor, Tensor, Tensor)
// self (any) -> distinct (m), inverse (self's shape, int64) or (0), counts (m) or (0).
inline constexpr Op<TensorTriple(const Tensor&, Default<bool>, Default<bool>, Default<bool>)>
    _unique2{"aten::_unique2"};

}  // namespace opscope::ops
