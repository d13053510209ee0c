// The composite kernels of the linear family (schemas in core/ops/linear.cpp, registered at the end
// of this file): matmul, linear, outer and ger (CompositeImplicitAutograd) and linear.out
// (CompositeExplicitAutograd). Each decomposes exactly as PyTorch 1.13's at::native function,
// calling every child op through ops:: so the trace shows the same sequence as torch's. See Notes
// [How matmul decomposes] and [How linear decomposes] in core/ops/linear.h.
#include <algorithm>

#include "core/ops/copy.h"
#include "core/dispatch/Library.h"
#include "core/ops/binary.h"
#include "core/ops/linear.h"
#include "core/ops/views.h"
#include "core/ops/compare.h"
#include "core/ops/unary.h"
#include "core/ops/TensorIterator.h"

namespace opscope::composite {

namespace {

int64_t product(IntArrayRef sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return n;
}

// torch 1.13's should_fold: fold the batch of an N-D (N >= 3) operand into the rows of one mm /
// mv when the other operand is 1-D or 2-D — except a 3-D · 2-D product whose 3-D operand is a
// batch of transposed matrices (stride[0] == size[1] * size[2], stride[-1] != 1): folding it
// would copy, while bmm reads each transposed matrix as it is.
bool should_fold(const Tensor& tensor1, int64_t dim_tensor2) {
  int64_t dim_tensor1 = tensor1.dim();
  if (dim_tensor1 < 3 || (dim_tensor2 != 1 && dim_tensor2 != 2)) return false;
  IntArrayRef sizes = tensor1.sizes(), strides = tensor1.strides();
  bool transposed_batch = dim_tensor1 == 3 && dim_tensor2 == 2 && strides.back() != 1 &&
                          strides.front() == sizes[1] * sizes[2];
  return !transposed_batch;
}

}  // namespace

// (*b1, n, k) · (*b2, k, m) -> (broadcast(b1, b2), n, m), 1-D operands promoted and squeezed.
Tensor matmul(const Tensor& tensor1, const Tensor& tensor2) {
  const int64_t dim_tensor1 = tensor1.dim(), dim_tensor2 = tensor2.dim();
  OPSCOPE_CHECK(dim_tensor1 != 0 && dim_tensor2 != 0,
                "both arguments to matmul need to be at least 1D, but they are ", dim_tensor1,
                "D and ", dim_tensor2, "D");

  if (dim_tensor1 == 1 && dim_tensor2 == 1) return ops::dot(tensor1, tensor2);
  if (dim_tensor1 == 2 && dim_tensor2 == 1) return ops::mv(tensor1, tensor2);
  if (dim_tensor1 == 1 && dim_tensor2 == 2)  // torch squeezes in place (squeeze_); same values
    return ops::squeeze(ops::mm(ops::unsqueeze(tensor1, 0), tensor2), 0);
  if (dim_tensor1 == 2 && dim_tensor2 == 2) return ops::mm(tensor1, tensor2);

  if (should_fold(tensor1, dim_tensor2) || should_fold(tensor2, dim_tensor1)) {
    // Fold the larger operand t1 (transposing the problem when it is the second one) into a
    // matrix of prod(t1.sizes()[:-1]) rows. Invariant: t1.dim() >= 3, t2.dim() in {1, 2}.
    const bool transpose = dim_tensor2 > dim_tensor1;
    const Tensor t1 = transpose ? ops::transpose(tensor2, -2, -1) : tensor1;
    const Tensor t2 = !transpose ? tensor2 : dim_tensor1 == 2 ? ops::t(tensor1) : tensor1;
    IntArrayRef sizes_1 = t1.sizes();
    DimVector output_shape(sizes_1.begin(), sizes_1.end() - 1);
    const int64_t folded_dim1 = product(output_shape);
    const bool t2_is_matrix = t2.dim() == 2;
    if (t2_is_matrix) output_shape.push_back(t2.size(1));
    // reshape, not view: [3, 5, 0] @ [0, 0] would make view(-1, 0) ambiguous.
    const Tensor t1_folded = ops::reshape(t1, {folded_dim1, sizes_1.back()});
    if (!t2_is_matrix) return ops::_unsafe_view(ops::mv(t1_folded, t2), output_shape);
    Tensor output = ops::_unsafe_view(ops::mm(t1_folded, t2), output_shape);
    if (!transpose) return output;
    Tensor back = ops::transpose(output, -2, -1);
    return back.is_contiguous() ? back : ops::contiguous(back);  // Tensor::contiguous()
  }

  // Both have a batch (or a transposed 3-D batch against a matrix): broadcast the batch dims,
  // flatten them into one, bmm. n and m1 / m2 and p are tracked separately so that a mismatch
  // is reported by bmm with the sizes the user gave.
  const int64_t n = dim_tensor1 > 1 ? tensor1.size(-2) : 1;
  const int64_t m1 = tensor1.size(-1);
  IntArrayRef batch_tensor1 =
      tensor1.sizes().first(static_cast<size_t>(std::max<int64_t>(dim_tensor1 - 2, 0)));
  const int64_t m2 = dim_tensor2 > 1 ? tensor2.size(-2) : tensor2.size(0);
  const int64_t p = dim_tensor2 > 1 ? tensor2.size(-1) : 1;
  IntArrayRef batch_tensor2 =
      tensor2.sizes().first(static_cast<size_t>(std::max<int64_t>(dim_tensor2 - 2, 0)));

  DimVector output_shape = broadcast_shapes(batch_tensor1, batch_tensor2);
  DimVector tensor1_expand_size = output_shape;
  tensor1_expand_size.push_back(n);
  tensor1_expand_size.push_back(m1);
  DimVector tensor2_expand_size = output_shape;
  tensor2_expand_size.push_back(m2);
  tensor2_expand_size.push_back(p);
  const int64_t expand_batch_product = product(output_shape);

  const Tensor tensor1_expanded =
      ops::reshape(ops::expand(tensor1, tensor1_expand_size), {expand_batch_product, n, m1});
  const Tensor tensor2_expanded =
      ops::reshape(ops::expand(tensor2, tensor2_expand_size), {expand_batch_product, m2, p});

  if (dim_tensor1 > 1) output_shape.push_back(n);
  if (dim_tensor2 > 1) output_shape.push_back(p);
  return ops::_unsafe_view(ops::bmm(tensor1_expanded, tensor2_expanded), output_shape);
}

// matmul into out: the products with an out= form of their own (dot, mv, mm) write out directly,
// as torch's _matmul_impl does; the folded and batched cases compute matmul, then resize out and
// copy into it.
Tensor matmul_out(const Tensor& tensor1, const Tensor& tensor2, const Tensor& out) {
  const int64_t dim_tensor1 = tensor1.dim(), dim_tensor2 = tensor2.dim();
  if (dim_tensor1 == 1 && dim_tensor2 == 1) return ops::dot_out(tensor1, tensor2, out);
  if (dim_tensor1 == 2 && dim_tensor2 == 1) return ops::mv_out(tensor1, tensor2, out);
  if (dim_tensor1 == 2 && dim_tensor2 == 2) return ops::mm_out(tensor1, tensor2, out);
  const Tensor product = matmul(tensor1, tensor2);
  resize_output(out, product.sizes());
  ops::copy_(out, product);
  return out;
}

// --- linear --------------------------------------------------------------------------------------

// input (*, K), weight (N,K), bias broadcastable to (*, N) -> (*, N).
// See Note [How linear decomposes].
Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias) {
  if (input.dim() == 2 && bias.defined()) return ops::addmm(bias, input, ops::t(weight));
  if (bias.defined() && input.dim() == 3 && input.is_contiguous()) {
    // One addmm over the B*M rows (torch: "hit the fused path for contiguous 3D input").
    const Tensor weight_t = ops::t(weight);
    IntArrayRef sizes = input.sizes();
    const Tensor result =
        ops::addmm(bias, ops::view(input, {sizes[0] * sizes[1], sizes[2]}), weight_t);
    return ops::view(result, {sizes[0], sizes[1], result.size(1)});
  }
  Tensor output = ops::matmul(input, ops::t(weight));
  if (bias.defined()) ops::add_(output, bias);
  return output;
}

Tensor linear_out(const Tensor& input, const Tensor& weight, const Tensor& bias,
                  const Tensor& out) {
  if (input.dim() == 2 && bias.defined())
    return ops::addmm_out(bias, input, ops::t(weight), 1, 1, out);
  const Tensor product = ops::matmul(input, ops::t(weight));
  resize_output(out, product.sizes());
  ops::copy_(out, product);
  if (bias.defined()) ops::add_(out, bias);
  return out;
}

// --- outer, ger ----------------------------------------------------------------------------------

namespace {
// torch's check_1d.
void check_1d(const Tensor& t, const char* arg, const char* fn) {
  OPSCOPE_CHECK(t.dim() == 1, fn, ": Expected 1-D argument ", arg, ", but got ", t.dim(), "-D");
}
}  // namespace

// self (M), vec2 (N) -> (M,N): a column times a row, broadcast by mul.
Tensor outer(const Tensor& self, const Tensor& vec2) {
  check_1d(self, "self", "outer");
  check_1d(vec2, "vec2", "outer");
  return ops::mul(ops::reshape(self, {self.size(0), 1}), vec2);
}

Tensor outer_out(const Tensor& self, const Tensor& vec2, const Tensor& out) {
  check_1d(self, "self", "outer");
  check_1d(vec2, "vec2", "outer");
  return ops::mul_out(out, ops::reshape(self, {self.size(0), 1}), vec2);
}

Tensor ger(const Tensor& self, const Tensor& vec2) {
  return ops::outer(self, vec2);
}

Tensor ger_out(const Tensor& self, const Tensor& vec2, const Tensor& out) {
  return ops::outer_out(self, vec2, out);
}

static Library composite_implicit_linear(
    Library::IMPL, "aten", DispatchKey::CompositeImplicitAutograd, [](Library& m) {
      m.impl("matmul", fn<&matmul>);
      m.impl("matmul.out", fn<&matmul_out>);
      m.impl("linear", fn<&linear>);
      m.impl("outer", fn<&outer>);
      m.impl("outer.out", fn<&outer_out>);
      m.impl("ger", fn<&ger>);
      m.impl("ger.out", fn<&ger_out>);
    });

static Library composite_explicit_linear(
    Library::IMPL, "aten", DispatchKey::CompositeExplicitAutograd, [](Library& m) {
      m.impl("linear.out", fn<&linear_out>);
    });

}  // namespace opscope::composite
