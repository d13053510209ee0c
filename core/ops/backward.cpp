// The backward ops (see core/ops/backward.h): schemas, CompositeExplicitAutograd kernels, entry
// points.
#include "core/ops/backward.h"

#include "core/dispatch/Library.h"
#include "core/ops/copy.h"
#include "core/ops/binary.h"
#include "core/ops/factories.h"
#include "core/ops/views.h"
#include "core/ops/compare.h"
#include "core/ops/unary.h"

namespace opscope {

namespace composite {

namespace {
Tensor zeros_for(const Tensor& grad, IntArrayRef sizes) {
  return ops::zeros(sizes, grad.dtype(), std::nullopt, grad.device());
}
}  // namespace

Tensor select_backward(const Tensor& grad, IntArrayRef input_sizes, int64_t dim, int64_t index) {
  Tensor z = zeros_for(grad, input_sizes);
  ops::copy_(ops::select(z, dim, index), grad);
  return z;
}

Tensor slice_backward(const Tensor& grad, IntArrayRef input_sizes, int64_t dim, int64_t start,
                      int64_t end, int64_t step) {
  Tensor z = zeros_for(grad, input_sizes);
  ops::copy_(ops::slice(z, dim, start, end, step), grad);
  return z;
}

Tensor diagonal_backward(const Tensor& grad, IntArrayRef input_sizes, int64_t offset, int64_t dim1,
                         int64_t dim2) {
  Tensor z = zeros_for(grad, input_sizes);
  ops::copy_(ops::diagonal(z, offset, dim1, dim2), grad);
  return z;
}

// grad_in (.., windows, .., size): window w of dim covers [w * step, w * step + size) of input.
Tensor unfold_backward(const Tensor& grad_in, IntArrayRef input_sizes, int64_t dim, int64_t size,
                       int64_t step) {
  Tensor z = zeros_for(grad_in, input_sizes);
  const int64_t ndim = static_cast<int64_t>(input_sizes.size());
  const int64_t d = ndim == 0 ? 0 : wrap_dim(dim, ndim);
  if (ndim == 0) return ops::add_(z, ops::reshape(grad_in, IntArrayRef()));
  for (int64_t w = 0; w < grad_in.size(d); ++w) {
    Tensor window = ops::movedim(ops::select(grad_in, d, w), -1, d);  // (.., size, ..)
    Tensor part = ops::narrow(z, d, w * step, size);
    ops::add_(part, window);
  }
  return z;
}

}  // namespace composite

static Library backward_ops(Library::FRAGMENT, "aten", [](Library& m) {
  constexpr DispatchKey kExplicit = DispatchKey::CompositeExplicitAutograd;
  m.def(
      "select_backward(Tensor grad_output, SymInt[] input_sizes, int dim, SymInt index) -> "
      "Tensor");
  m.impl("select_backward", kExplicit, fn<&composite::select_backward>);
  m.def(
      "slice_backward(Tensor grad_output, SymInt[] input_sizes, int dim, SymInt start, "
      "SymInt end, SymInt step) -> Tensor");
  m.impl("slice_backward", kExplicit, fn<&composite::slice_backward>);
  m.def(
      "diagonal_backward(Tensor grad_output, SymInt[] input_sizes, int offset, int dim1, "
      "int dim2) -> Tensor");
  m.impl("diagonal_backward", kExplicit, fn<&composite::diagonal_backward>);
  m.def(
      "unfold_backward(Tensor grad_in, SymInt[] input_sizes, int dim, int size, int step) -> "
      "Tensor");
  m.impl("unfold_backward", kExplicit, fn<&composite::unfold_backward>);
});

}  // namespace opscope
