// Composite kernels of the indexing family (schemas in core/ops/indexing.cpp, registered at the end
// of this file): the functional forms are clone + the in-place op, index_put_ forwards to
// _index_put_impl_, and nonzero_numpy / argwhere are nonzero — each as torch 1.13 decomposes it, so
// traces match.
#include <algorithm>
#include <utility>

#include "core/dispatch/Dispatcher.h"
#include "core/dispatch/Library.h"
#include "core/ops/copy.h"
#include "core/ops/indexing.h"
#include "core/ops/views.h"
#include "core/ops/TensorIterator.h"

namespace opscope::composite {

// CompositeExplicitAutograd
Tensor index_put_(const Tensor& self, TensorList indices, const Tensor& values, bool accumulate) {
  return ops::_index_put_impl_(self, indices, values, accumulate, /*unsafe=*/false);
}
Tensor index_put(const Tensor& self, TensorList indices, const Tensor& values, bool accumulate) {
  return ops::index_put_(ops::clone(self), indices, values, accumulate);
}

namespace {
// torch's expand_outplace(self, mask): both expanded to their broadcast shape when they differ.
std::pair<Tensor, Tensor> expand_outplace(const Tensor& a, const Tensor& b) {
  if (std::ranges::equal(a.sizes(), b.sizes())) return {a, b};
  DimVector shape = broadcast_shapes(a.sizes(), b.sizes());
  return {ops::expand(a, shape), ops::expand(b, shape)};
}
}  // namespace

// self and mask broadcast together, as torch: masked_fill(zeros(2, 3), ones(4, 1, 3)) is (4, 2, 3)
// (torch's expand_outplace(mask, self): a size mismatch names the mask as tensor a).
Tensor masked_fill_scalar(const Tensor& self, const Tensor& mask, const Scalar& value) {
  auto [m, s] = expand_outplace(mask, self);
  return ops::masked_fill_(ops::clone(s), m, value);
}
Tensor masked_fill_tensor(const Tensor& self, const Tensor& mask, const Tensor& value) {
  auto [m, s] = expand_outplace(mask, self);
  return ops::masked_fill_(ops::clone(s), m, value);
}
Tensor masked_scatter(const Tensor& self, const Tensor& mask, const Tensor& source) {
  auto [m, s] = expand_outplace(mask, self);
  return ops::masked_scatter_(ops::clone(s, /*memory_format=*/std::nullopt), m, source);
}
Tensor put(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate) {
  return ops::put_(ops::clone(self), index, source, accumulate);
}
Tensor index_fill_scalar(const Tensor& self, int64_t dim, const Tensor& index,
                         const Scalar& value) {
  return ops::index_fill_(ops::clone(self), dim, index, value);
}
Tensor index_fill_tensor(const Tensor& self, int64_t dim, const Tensor& index,
                         const Tensor& value) {
  static const auto op = typed_op<Tensor(const Tensor&, int64_t, const Tensor&, const Tensor&)>(
      "aten::index_fill_.int_Tensor");
  return op.call(ops::clone(self), dim, index, value);
}

// CompositeImplicitAutograd
std::vector<Tensor> nonzero_numpy(const Tensor& self) {
  // A 0-d tensor reads as 1-D here (torch: `if (self.dim() == 0) return
  // self.unsqueeze(0).nonzero().unbind(1)`).
  if (self.dim() == 0) return ops::unbind(ops::nonzero(ops::unsqueeze(self, 0)), 1);
  return ops::unbind(ops::nonzero(self), 1);
}
Tensor argwhere(const Tensor& self) {
  return ops::nonzero(self);
}

// torch 1.13's take_along_dim: with a dim, self and indices broadcast against each other except
// along it (broadcast_to), then gather; without, the flattened self (a view) at the flattened
// indices.
Tensor take_along_dim(const Tensor& self, const Tensor& indices, std::optional<int64_t> dim) {
  OPSCOPE_CHECK(self.device() == indices.device(),
                "torch.take_along_dim(): Expected all tensors to be on the same device");
  if (!dim) {
    const Tensor flat_self = ops::view(self, {-1});  // first, as torch's
    return ops::gather(flat_self, 0, ops::view(indices, {-1}));
  }
  OPSCOPE_CHECK(self.dim() == indices.dim(),
                "torch.take_along_dim(): input and indices should have the same number of "
                "dimensions, but got ",
                self.dim(), " dimensions for input, and ", indices.dim(),
                " dimensions for indices");
  OPSCOPE_CHECK(indices.dtype() == ScalarType::Int64,
                "torch.take_along_dim(): dtype of indices should be Long but got ",
                cpp_name(indices.dtype()));
  const int64_t d = wrap_dim(*dim, self.dim());
  DimVector self_sizes(self.sizes().begin(), self.sizes().end());
  self_sizes[static_cast<size_t>(d)] = indices.size(d);
  const Tensor indices_b = ops::broadcast_to(indices, broadcast_shapes(self_sizes, indices.sizes()));
  DimVector indices_sizes(indices.sizes().begin(), indices.sizes().end());
  indices_sizes[static_cast<size_t>(d)] = self.size(d);
  const Tensor self_b = ops::broadcast_to(self, broadcast_shapes(indices_sizes, self.sizes()));
  return ops::gather(self_b, d, indices_b);
}

static Library composite_explicit_indexing(
    Library::IMPL, "aten", DispatchKey::CompositeExplicitAutograd, [](Library& m) {
      m.impl("index_put_", fn<&index_put_>);
      m.impl("index_put", fn<&index_put>);
      m.impl("index_fill.int_Scalar", fn<&index_fill_scalar>);
      m.impl("index_fill.int_Tensor", fn<&index_fill_tensor>);
      m.impl("masked_fill.Scalar", fn<&masked_fill_scalar>);
      m.impl("masked_fill.Tensor", fn<&masked_fill_tensor>);
      m.impl("masked_scatter", fn<&masked_scatter>);
      m.impl("put", fn<&put>);
    });

static Library composite_implicit_indexing(
    Library::IMPL, "aten", DispatchKey::CompositeImplicitAutograd, [](Library& m) {
      m.impl("take_along_dim", fn<&take_along_dim>);
      m.impl("nonzero_numpy", fn<&nonzero_numpy>);
      m.impl("argwhere", fn<&argwhere>);
    });

}  // namespace opscope::composite
