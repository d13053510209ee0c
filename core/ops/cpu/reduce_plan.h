// How a reduction walks its input: the dims to reduce, the result's shape, and a three-level view
// of the input that the CPU reduction kernels loop over.
//
// Semantically a reduction over a set of dims computes, for every index of the kept dims,
//     out[kept] = reduce over every index of the reduced dims of self[kept, reduced]
// with the result shaped like self minus the reduced dims (or with them as size 1: keepdim).
//
// Note [Reduction layout]
// ~~~~~~~~~~~~~~~~~~~~~~~
// In implementation terms the kernels never see the tensor's dims. ReducePlan arranges the
// input, without copying whenever the memory allows it, as one contiguous block
//     x[outer][reduced][inner]       (element strides: reduced * inner, inner, 1)
// and the outputs as contiguous [outer][inner], so that
//     out[o][i] = reduce_r x[o][r][i].
// inner == 1 is a reduction along contiguous rows (sum(dim=-1), sum() of everything: outer == 1);
// inner > 1 reduces whole rows onto each other, a vertical vector op (sum(dim=0) of a matrix).
// To get there, dims of size 1 are dropped, a dense permuted input (a transpose) is read in its
// memory order, and adjacent dims with the same role are merged. A layout that still alternates
// (reduce dims 0 and 2 of a [a, b, c] tensor) is copied once with the kept dims first.
// Outputs follow the memory order of the kept dims; when that differs from their tensor order the
// kernels write into a temporary and finish() copies it into the (contiguous) results.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "core/tensor/Tensor.h"

namespace opscope::cpu {

// The optional arguments of the reduction schemas (dim=None, dtype=None), as kernels take them.
using OptDims = std::optional<IntArrayRef>;
using OptDtype = std::optional<ScalarType>;

// Bit d set: dim d is reduced. A dim list that is None or empty means every dim (torch 1.13's
// sum(dim=[])); dims are wrapped (IndexError "Dimension out of range ...") and may appear once
// ("dim 0 appears multiple times in the list of dims").
uint64_t reduce_dim_mask(std::optional<IntArrayRef> dims, int64_t ndim);
// One dim (wrapped), as max(dim) / argmax(dim) / cumsum(dim) take it.
uint64_t reduce_dim_mask(int64_t dim, int64_t ndim);
// self's sizes without the reduced dims, or with them as 1 when keepdim.
DimVector reduced_shape(IntArrayRef sizes, uint64_t mask, bool keepdim);

class ReducePlan {
 public:
  // Plans out[k] (of dtype out_dtypes[k], at most 2) = reduce over the dims in `mask` of `self`.
  // `self` must already have the dtype the kernel reads.
  ReducePlan(const Tensor& self, uint64_t mask, bool keepdim,
             std::initializer_list<ScalarType> out_dtypes);

  int64_t outer() const { return outer_; }
  int64_t reduced() const { return reduced_; }
  int64_t inner() const { return inner_; }
  // Number of results: outer * inner.
  int64_t num_outputs() const { return outer_ * inner_; }
  // Nothing to compute: the results are empty.
  bool empty_output() const { return num_outputs() == 0; }
  // Each result reduces zero elements (a reduced dim of size 0).
  bool empty_reduction() const { return reduced_ == 0; }

  // The [outer][reduced][inner] block; null when it has no elements.
  template <typename T>
  const T* input() const {
    return input_.defined() ? input_.data_ptr<T>() : nullptr;
  }
  // Where the kernel writes result k, contiguous [outer][inner].
  template <typename T>
  T* output(int k = 0) const {
    return (targets_[k].defined() ? targets_[k] : results_[k]).data_ptr<T>();
  }
  // After the kernel ran: result k, shaped reduced_shape(self, mask, keepdim), contiguous.
  Tensor finish(int k = 0);

 private:
  Tensor input_;
  Tensor results_[2];
  Tensor targets_[2];  // temporaries in the kept dims' memory order, see Note [Reduction layout]
  int64_t outer_ = 1, reduced_ = 1, inner_ = 1;
};

// torch's error for a reduction without identity (max, amax, argmax) over no elements:
// "max(): Expected reduction dim to be specified for input.numel() == 0. ..." (dim not given) or
// IndexError "max(): Expected reduction dim 0 to have non-zero size." (a reduced dim of size 0).
void check_nonempty_reduction(const Tensor& self, uint64_t mask, bool dim_given,
                              std::string_view name, bool index_error_without_dim = false);

// `self` in `dtype` / contiguous, going through the dispatcher (and so the trace) only when that
// takes a copy, as torch's Tensor::to / Tensor::contiguous do.
Tensor cast_if_needed(const Tensor& self, ScalarType dtype);
Tensor contiguous_if_needed(const Tensor& self);

// Writes `result` into an out= tensor (resized to its shape) and returns `out`.
Tensor write_out(const Tensor& out, const Tensor& result);

}  // namespace opscope::cpu
