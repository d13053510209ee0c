// ReducePlan: see Note [Reduction layout] in core/ops/cpu/reduce_plan.h.
#include "core/ops/cpu/reduce_plan.h"

#include <algorithm>

#include "core/ops/copy.h"
#include "core/ops/views.h"
#include "core/ops/TensorIterator.h"

namespace opscope::cpu {

uint64_t reduce_dim_mask(std::optional<IntArrayRef> dims, int64_t ndim) {
  OPSCOPE_CHECK(ndim <= 64, "opscope reductions support at most 64 dims, got ", ndim);
  if (!dims || dims->empty()) return ndim == 0 ? 0 : (ndim == 64 ? ~0ull : (1ull << ndim) - 1);
  uint64_t mask = 0;
  for (int64_t d : *dims) {
    int64_t w = wrap_dim(d, ndim);
    if (ndim == 0) continue;  // a 0-d tensor accepts dim 0 / -1 and has nothing to reduce
    OPSCOPE_CHECK(!(mask >> w & 1), "dim ", w, " appears multiple times in the list of dims");
    mask |= 1ull << w;
  }
  return mask;
}

uint64_t reduce_dim_mask(int64_t dim, int64_t ndim) {
  int64_t w = wrap_dim(dim, ndim);
  return ndim == 0 ? 0 : 1ull << w;
}

DimVector reduced_shape(IntArrayRef sizes, uint64_t mask, bool keepdim) {
  DimVector out;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (!(mask >> d & 1)) {
      out.push_back(sizes[d]);
    } else if (keepdim) {
      out.push_back(1);
    }
  }
  return out;
}

ReducePlan::ReducePlan(const Tensor& self, uint64_t mask, bool keepdim,
                       std::initializer_list<ScalarType> out_dtypes) {
  DimVector out_sizes = reduced_shape(self.sizes(), mask, keepdim);
  int k = 0;
  for (ScalarType t : out_dtypes) results_[k++] = make_empty(out_sizes, t);

  const int64_t nd = self.dim();
  if (self.numel() == 0) {
    outer_ = compute_numel(out_sizes);
    reduced_ = 0;
    inner_ = 1;
    return;
  }
  // Read a dense (possibly permuted) input in its memory order; copy anything else.
  Tensor base = is_non_overlapping_and_dense(*self.impl()) ? self : contiguous_if_needed(self);
  DimVector order;  // dims of size > 1, outermost in memory first
  for (int64_t d = 0; d < nd; ++d)
    if (base.size(d) != 1) order.push_back(d);
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t a, int64_t b) { return base.stride(a) > base.stride(b); });

  // [kept...][reduced...][kept...] is the most the three levels express.
  int state = 0;  // 0: before the reduced dims, 1: in them, 2: after them
  bool fits = true;
  for (int64_t d : order) {
    bool red = mask >> d & 1;
    if (red) {
      if (state == 2) fits = false;
      state = 1;
    } else if (state == 1) {
      state = 2;
    }
  }
  DimVector kept_order;
  if (fits) {
    bool seen_reduced = false;
    for (int64_t d : order) {
      int64_t s = base.size(d);
      if (mask >> d & 1) {
        reduced_ *= s;
        seen_reduced = true;
      } else {
        kept_order.push_back(d);
        (seen_reduced ? inner_ : outer_) *= s;
      }
    }
    input_ = base;
  } else {
    // Copy with the kept dims first (in memory order), then the reduced ones.
    DimVector perm;
    for (int64_t d : order)
      if (!(mask >> d & 1)) perm.push_back(d), kept_order.push_back(d), outer_ *= base.size(d);
    for (int64_t d : order)
      if (mask >> d & 1) perm.push_back(d), reduced_ *= base.size(d);
    for (int64_t d = 0; d < nd; ++d)
      if (base.size(d) == 1) perm.push_back(d);
    input_ = ops::contiguous(ops::permute(base, perm));
  }

  // Outputs in the kept dims' memory order: a temporary when that is not their tensor order.
  if (!std::ranges::is_sorted(kept_order)) {
    // Position of each tensor dim of the result (with keepdim, reduced dims stay as 1).
    DimVector out_dim_of(static_cast<size_t>(nd), -1);
    for (int64_t d = 0, j = 0; d < nd; ++d)
      if (!(mask >> d & 1) || keepdim) out_dim_of[d] = j++;
    DimVector strides = contiguous_strides(out_sizes);
    int64_t step = 1;
    for (size_t j = kept_order.size(); j-- > 0;) {
      int64_t od = out_dim_of[kept_order[j]];
      strides[od] = step;
      step *= out_sizes[od];
    }
    for (int i = 0; i < k; ++i)
      targets_[i] = make_empty_strided(out_sizes, strides, results_[i].dtype(), self.device());
  }
}

Tensor ReducePlan::finish(int k) {
  if (targets_[k].defined()) {
    ops::copy_(results_[k], targets_[k]);
    targets_[k] = Tensor();
  }
  return results_[k];
}

void check_nonempty_reduction(const Tensor& self, uint64_t mask, bool dim_given,
                              std::string_view name, bool index_error_without_dim) {
  if (self.numel() != 0) return;
  if (!dim_given) {
    if (index_error_without_dim)
      throw IndexError(detail::str(name,
                                   "(): Expected reduction dim to be specified for "
                                   "input.numel() == 0."));
    throw Error(detail::str(name,
                            "(): Expected reduction dim to be specified for input.numel() "
                            "== 0. Specify the reduction dim with the 'dim' argument."));
  }
  for (int64_t d = 0; d < self.dim(); ++d) {
    if ((mask >> d & 1) && self.size(d) == 0)
      throw IndexError(
          detail::str(name, "(): Expected reduction dim ", d, " to have non-zero size."));
  }
}

Tensor cast_if_needed(const Tensor& self, ScalarType dtype) {
  return self.dtype() == dtype ? self : ops::to(self, dtype);
}

Tensor contiguous_if_needed(const Tensor& self) {
  return self.is_contiguous() ? self : ops::contiguous(self);
}

Tensor write_out(const Tensor& out, const Tensor& result) {
  resize_output(out, result.sizes());
  ops::copy_(out, result);
  return out;
}

}  // namespace opscope::cpu
