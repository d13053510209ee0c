// What the derivative table's files share (core/autograd/derivatives/*.cpp; private to them): the
// formulas' argument types, helpers that undo broadcasting and reductions, and the families of
// entries that derivatives() joins into one table.
#pragma once

#include <algorithm>
#include <vector>

#include "core/autograd/Derivatives.h"
#include "core/ops/copy.h"
#include "core/ops/binary.h"
#include "core/ops/factories.h"
#include "core/ops/indexing.h"
#include "core/ops/reduce.h"
#include "core/ops/views.h"
#include "core/ops/compare.h"
#include "core/ops/unary.h"

namespace opscope::autograd {

// The entries, one function per op family (core/autograd/derivatives/<family>.cpp, the families
// of core/ops/README.md); derivatives() joins them into one table.
std::vector<Derivative> unary_derivatives();
std::vector<Derivative> binary_derivatives();
std::vector<Derivative> compare_derivatives();
std::vector<Derivative> nn_derivatives();
std::vector<Derivative> reduce_derivatives();
std::vector<Derivative> linear_derivatives();
std::vector<Derivative> views_derivatives();
std::vector<Derivative> shape_derivatives();
std::vector<Derivative> indexing_derivatives();
std::vector<Derivative> copy_derivatives();
std::vector<Derivative> sorting_derivatives();
std::vector<Derivative> linalg_derivatives();
std::vector<Derivative> ternary_derivatives();
std::vector<Derivative> factories_derivatives();

namespace formulas {

using C = const BackwardContext&;
using G = const variable_list&;

// g * s, skipping the multiplication by 1 (alpha, beta).
inline Tensor times(const Tensor& g, const Scalar& s) {
  return s.to_double() == 1.0 ? g : ops::mul(g, s);
}

// The reduced dims of a reduction over `dim` (none given: all), ascending and wrapped.
inline std::vector<int64_t> reduced_dims(const IValue& dim, size_t ndim) {
  std::vector<int64_t> dims;
  if (dim.is_none() || dim.to_int_list().empty()) {
    for (size_t d = 0; d < ndim; ++d) dims.push_back(static_cast<int64_t>(d));
  } else {
    for (int64_t d : dim.to_int_list()) dims.push_back(wrap_dim(d, static_cast<int64_t>(ndim)));
  }
  std::ranges::sort(dims);
  return dims;
}

// The gradient of a reduction over `dims` of an input of `sizes`: g with the reduced dims put back
// (unless keepdim kept them), expanded to the input.
inline Tensor unreduce(Tensor g, IntArrayRef sizes, const std::vector<int64_t>& dims,
                       bool keepdim) {
  if (!keepdim)
    for (int64_t d : dims) g = ops::unsqueeze(g, d);
  return ops::expand(g, sizes);
}

// A fresh zero tensor of tensor argument a's shape and dtype, on the device the forward ran on.
inline Tensor zeros_like_arg(C c, Arg a) {
  return ops::zeros(c.sizes(a), c.dtype(a), std::nullopt, c.device());
}

// Where a reduction's result came from: 1 at the elements equal to it (the max, say), divided
// by how many there are (torch's evenly distributed gradient for ties).
inline Tensor even_share(const Tensor& x, const Tensor& full_result,
                         const std::vector<int64_t>& dims) {
  Tensor hit = ops::eq(x, full_result);
  Tensor n = ops::sum(hit, IntArrayRef(dims), /*keepdim=*/true, std::nullopt);
  return ops::div(hit, n);
}

// The gradient of a value-selecting reduction over `dim` (max.dim, kthvalue: values and
// indices) of self: g put back at the indices.
inline Tensor indexed_reduction_backward(C c, const Tensor& g, const Tensor& indices, int64_t dim,
                                         bool keepdim) {
  int64_t d = wrap_dim(dim, static_cast<int64_t>(c.sizes("self").size()));
  Tensor gi = keepdim ? g : ops::unsqueeze(g, d),
         ii = keepdim ? indices : ops::unsqueeze(indices, d);
  // out of place, so that the gradient stays differentiable (ScatterBackward0)
  return ops::scatter(zeros_like_arg(c, "self"), d, ii, ops::to(gi, c.dtype("self")));
}

// Views and reshapes of self: g reshaped back to self's shape.
inline variable_list to_input_shape(C c, G g) {
  return {ops::reshape(g[0], c.sizes("self"))};
}
// Ops whose gradient is g itself (a copy; add's self): the engine adapts dtype and broadcasts.
inline variable_list unchanged(C, G g) {
  return {g[0]};
}

inline int64_t count(IntArrayRef sizes, const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= sizes[static_cast<size_t>(d)];
  return n;
}

// The table reads as one entry per op: kept out of clang-format, which would put each field of
// each entry on a line of its own.
// An `int?` argument (slice's start and end).
inline std::optional<int64_t> opt_int(const IValue& v) {
  return v.is_none() ? std::nullopt : std::optional<int64_t>(v.to_int());
}

}  // namespace formulas
}  // namespace opscope::autograd
