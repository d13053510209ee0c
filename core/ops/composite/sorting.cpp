// The decompositions of the sorting family (schemas in core/ops/sorting.cpp, registered at the end
// of this file): sort, sort.values, kthvalue, median.dim and nanmedian.dim
// (CompositeExplicitAutograd), argsort and msort
// (CompositeImplicitAutograd), each over the ops torch 1.13 calls, so a trace shows the same
// children as torch's.
#include "core/dispatch/Library.h"
#include "core/ops/factories.h"
#include "core/ops/sorting.h"

namespace opscope::composite {

// sort -> sort.stable(stable=False)
ops::TensorPair sort(const Tensor& self, int64_t dim, bool descending) {
  return ops::sort(self, std::optional<bool>(false), dim, descending);
}
ops::TensorPair sort_values(const Tensor& self, int64_t dim, bool descending, const Tensor& values,
                            const Tensor& indices) {
  return ops::sort_out(self, std::optional<bool>(false), dim, descending, values, indices);
}
Tensor argsort(const Tensor& self, int64_t dim, bool descending) {
  return std::get<1>(ops::sort(self, dim, descending));
}
Tensor msort(const Tensor& self) {
  return std::get<0>(ops::sort(self, 0, false));
}
Tensor msort_out(const Tensor& self, const Tensor& out) {
  Tensor indices = ops::empty({0}, ScalarType::Int64, {}, self.device());
  ops::sort_out(self, 0, false, out, indices);
  return out;
}
// kthvalue -> empty (values), empty (indices), kthvalue.values
ops::TensorPair kthvalue(const Tensor& self, int64_t k, int64_t dim, bool keepdim) {
  Tensor values = ops::empty({0}, self.dtype(), {}, self.device());
  Tensor indices = ops::empty({0}, ScalarType::Int64, {}, self.device());
  ops::kthvalue_out(self, k, dim, keepdim, values, indices);
  return {values, indices};
}

// median.dim / nanmedian.dim -> empty (values), empty (indices), *.dim_values
template <bool IgnoreNan>
ops::TensorPair median_dim(const Tensor& self, int64_t dim, bool keepdim) {
  Tensor values = ops::empty({0}, self.dtype(), {}, self.device());
  Tensor indices = ops::empty({0}, ScalarType::Int64, {}, self.device());
  if constexpr (IgnoreNan)
    ops::nanmedian_dim_out(self, dim, keepdim, values, indices);
  else
    ops::median_dim_out(self, dim, keepdim, values, indices);
  return {values, indices};
}

static Library composite_explicit_sorting(
    Library::IMPL, "aten", DispatchKey::CompositeExplicitAutograd, [](Library& m) {
      m.impl("sort", fn<&sort>);
      m.impl("sort.values", fn<&sort_values>);
      m.impl("kthvalue", fn<&kthvalue>);
      m.impl("median.dim", fn<&median_dim<false>>);
      m.impl("nanmedian.dim", fn<&median_dim<true>>);
    });

static Library composite_implicit_sorting(
    Library::IMPL, "aten", DispatchKey::CompositeImplicitAutograd, [](Library& m) {
      m.impl("argsort", fn<&argsort>);
      m.impl("msort", fn<&msort>);
      m.impl("msort.out", fn<&msort_out>);
    });

}  // namespace opscope::composite
