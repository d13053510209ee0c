// CompositeImplicitAutograd kernels of the view family that are other views under another name
// (schemas in core/ops/views.cpp): ravel, reshape_as, broadcast_to, broadcast_tensors, mT, mH.
// Each calls the op PyTorch 1.13's does, so a trace reads `ravel -> view`, `broadcast_to ->
// expand`, and autograd differentiates that op.
#include <algorithm>
#include <vector>

#include "core/dispatch/Library.h"
#include "core/ops/TensorIterator.h"
#include "core/ops/copy.h"
#include "core/ops/views.h"

namespace opscope::composite {

// self (*s) -> (numel): a view when self is contiguous, else a contiguous copy viewed flat.
// As torch's Tensor::contiguous(), an already contiguous self calls no op (the trace shows view).
Tensor ravel(const Tensor& self) {
  return ops::view(self.is_contiguous() ? self : ops::contiguous(self), {-1});
}

// self reshaped to other's shape.
Tensor reshape_as(const Tensor& self, const Tensor& other) {
  return ops::reshape(self, other.sizes());
}

// self (*s) -> size: expand's rules (size-1 and new leading dims broadcast, -1 keeps a size).
Tensor broadcast_to(const Tensor& self, IntArrayRef size) {
  return ops::expand(self, size);
}

// tensors[i] (*s_i) -> (*s), s the broadcast of every s_i; a tensor already of shape s is
// returned as it is (torch's expand_outplace), the others expanded.
std::vector<Tensor> broadcast_tensors(TensorList tensors) {
  DimVector shape;
  for (size_t i = 0; i < tensors.size(); ++i)
    shape = i == 0 ? DimVector(tensors[i].sizes()) : broadcast_shapes(shape, tensors[i].sizes());
  std::vector<Tensor> result;
  result.reserve(tensors.size());
  for (const Tensor& t : tensors)
    result.push_back(std::ranges::equal(t.sizes(), shape) ? t : ops::expand(t, shape));
  return result;
}

// self (*, m, n) -> (*, n, m): the last two dims swapped; a 0-d self is itself (torch's too).
Tensor mT(const Tensor& self) {
  if (self.dim() == 0) return self;
  OPSCOPE_CHECK(self.dim() >= 2,
                "tensor.mT is only supported on matrices or batches of matrices. Got ",
                self.dim(), "-D tensor.");
  return ops::transpose(self, -2, -1);
}

// The conjugate transpose of the last two dims: mT, as every opscope dtype is real.
Tensor mH(const Tensor& self) {
  if (self.dim() == 0) return self;
  OPSCOPE_CHECK(self.dim() >= 2,
                "tensor.mH is only supported on matrices or batches of matrices. Got ",
                self.dim(), "-D tensor.");
  return ops::transpose(self, -2, -1);
}

// (*, m, n) -> (*, n, m); torch's message for fewer than 2 dims
Tensor adjoint(const Tensor& self) {
  OPSCOPE_CHECK(self.dim() >= 2,
                "tensor.adjoint() is only supported on matrices or batches of matrices. Got ",
                self.dim(), "-D tensor.");
  return ops::transpose(self, -2, -1);
}

// conj, resolve_conj, resolve_neg, conj_physical, real of a real tensor: self (no op runs)
Tensor itself(const Tensor& self) {
  return self;
}

// is_conj, is_neg of a real tensor
bool never(const Tensor&) {
  return false;
}

static Library composite_implicit_view_shorthands(
    Library::IMPL, "aten", DispatchKey::CompositeImplicitAutograd, [](Library& m) {
      m.impl("ravel", fn<&ravel>);
      m.impl("reshape_as", fn<&reshape_as>);
      m.impl("broadcast_to", fn<&broadcast_to>);
      m.impl("broadcast_tensors", fn<&broadcast_tensors>);
      m.impl("mT", fn<&mT>);
      m.impl("mH", fn<&mH>);
      m.impl("adjoint", fn<&adjoint>);
      m.impl("conj", fn<&itself>);
      m.impl("resolve_conj", fn<&itself>);
      m.impl("resolve_neg", fn<&itself>);
      m.impl("conj_physical", fn<&itself>);
      m.impl("real", fn<&itself>);
      m.impl("is_conj", fn<&never>);
      m.impl("is_neg", fn<&never>);
    });

}  // namespace opscope::composite
