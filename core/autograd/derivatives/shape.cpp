// The derivative table's shape family (see core/autograd/Derivatives.h): joining and splitting
// (cat, stack, split, unbind: Tensor lists, see Note [Tensor lists in the derivative table]),
// the views that are not reshapes (diagonal, unfold, as_strided, alias), the ops that move
// elements (repeat, roll, tril, triu, diag, diag_embed, constant_pad_nd) and the in-place writes
// of whole tensors (copy_, fill_, zero_). The gradient takes each element back where it came from.
#include <algorithm>

#include "core/autograd/derivatives/common.h"
#include "core/ops/views.h"
#include "core/ops/nn.h"
#include "core/ops/shape.h"

namespace opscope::autograd {

namespace {

using namespace formulas;

// cat(Tensor[] tensors, int dim=0) -> Tensor: each input gets its part of g along dim (a 1-D
// empty input, skipped by cat, gets an empty gradient).
variable_list cat_backward(C c, G g) {
  const size_t n = c.list_size(0);
  auto skipped = [&](size_t k) { return c.sizes(0, k).size() == 1 && c.sizes(0, k)[0] == 0; };
  int64_t ndim = g[0].dim();
  int64_t d = wrap_dim(c.value(1).to_int(), ndim), offset = 0;
  variable_list out(n);
  for (size_t k = 0; k < n; ++k) {
    if (skipped(k)) {
      if (c.needs(0, k)) out[k] = ops::zeros({0}, g[0].dtype());
      continue;
    }
    int64_t len = c.sizes(0, k)[static_cast<size_t>(d)];
    if (c.needs(0, k)) out[k] = ops::narrow(g[0], d, offset, len);
    offset += len;
  }
  return out;
}

// stack(Tensor[] tensors, int dim=0) -> Tensor: input k gets g's slice k along dim.
variable_list stack_backward(C c, G g) {
  const size_t n = c.list_size(0);
  int64_t d = wrap_dim(c.value(1).to_int(), g[0].dim());
  variable_list out(n);
  for (size_t k = 0; k < n; ++k)
    if (c.needs(0, k)) out[k] = ops::select(g[0], d, static_cast<int64_t>(k));
  return out;
}

// split / split_with_sizes (self, sizes, dim) -> pieces: the pieces' gradients joined again.
variable_list split_backward(C c, G g) {
  return {ops::cat(g, c.value(2).to_int())};
}

// The element offsets (from `base`) that a (sizes, strides, offset) geometry reads, shaped sizes.
Tensor element_offsets(IntArrayRef sizes, IntArrayRef strides, int64_t offset, int64_t base) {
  Tensor pos = ops::full({}, Scalar(offset - base), ScalarType::Int64);
  for (size_t i = 0; i < sizes.size(); ++i) {
    DimVector shape(sizes.size(), 1);
    shape[i] = sizes[i];
    Tensor along = ops::mul(ops::arange(Scalar(sizes[i]), ScalarType::Int64), Scalar(strides[i]));
    pos = ops::add(pos, ops::view(along, IntArrayRef(shape)));
  }
  return ops::expand(pos, sizes);
}

int64_t last_offset(IntArrayRef sizes, IntArrayRef strides, int64_t offset) {
  for (size_t i = 0; i < sizes.size(); ++i) offset += (sizes[i] - 1) * strides[i];
  return offset;
}

// as_strided (self, size, stride, storage_offset): the gradient is summed into a buffer standing
// for the storage (elements read twice get both), then read back with self's geometry. Inputs
// whose own elements overlap (an expanded self) are not divided among their aliases as torch does.
variable_list as_strided_backward(C c, G g) {
  Tensor self = c.arg(0);
  const auto& size = c.value(1).to_int_list();
  const auto& stride = c.value(2).to_int_list();
  int64_t in_off = self->storage_offset();
  int64_t out_off = c.value(3).is_none() ? in_off : c.value(3).to_int();
  int64_t base = std::min(in_off, out_off);
  int64_t len = std::max(last_offset(self.sizes(), self.strides(), in_off),
                         last_offset(size, stride, out_off)) -
                base + 1;
  Tensor out_pos = element_offsets(size, stride, out_off, base);
  Tensor buffer = ops::index_add(ops::zeros({std::max<int64_t>(len, 0)}, g[0].dtype()), 0,
                                 ops::reshape(out_pos, {-1}), ops::reshape(g[0], {-1}));
  return {ops::take(buffer, element_offsets(self.sizes(), self.strides(), in_off, base))};
}

// repeat(Tensor self, SymInt[] repeats) -> Tensor: g seen as (r0, s0, r1, s1, ...) (self's sizes
// padded with leading 1s), summed over the repeats.
variable_list repeat_backward(C c, G g) {
  const auto& r = c.value(1).to_int_list();
  IntArrayRef s = c.sizes(0);
  size_t pad = r.size() - s.size();
  std::vector<int64_t> split, repeat_dims;
  for (size_t i = 0; i < r.size(); ++i) {
    split.push_back(r[i]);
    split.push_back(i < pad ? 1 : s[i - pad]);
    repeat_dims.push_back(static_cast<int64_t>(2 * i));
  }
  Tensor summed = ops::sum(ops::reshape(g[0], IntArrayRef(split)), IntArrayRef(repeat_dims), false,
                           std::nullopt);
  return {ops::reshape(summed, s)};
}

}  // namespace

// clang-format off
std::vector<Derivative> shape_table() {
  return {
      // --- joining and splitting ---------------------------------------------------------------
      // cat(Tensor[] tensors, int dim=0) -> Tensor
      {"aten::cat", "CatBackward0", {0}, {}, false, cat_backward},
      // stack(Tensor[] tensors, int dim=0) -> Tensor
      {"aten::stack", "StackBackward0", {0}, {}, false, stack_backward},
      // split.Tensor(Tensor(a -> *) self, int split_size, int dim=0) -> Tensor(a)[]
      {"aten::split.Tensor", "SplitBackward0", {0}, {}, false, split_backward},
      // split_with_sizes(Tensor(a -> *) self, int[] split_sizes, int dim=0) -> Tensor(a)[]
      {"aten::split_with_sizes", "SplitWithSizesBackward0", {0}, {}, false, split_backward},
      // unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]: the slices stacked again
      {"aten::unbind.int", "UnbindBackward0", {0}, {}, false,
       [](C c, G g) -> variable_list { return {ops::stack(g, c.value(1).to_int())}; }},

      // --- views -------------------------------------------------------------------------------
      // alias(Tensor(a) self) -> Tensor(a)
      {"aten::alias", "AliasBackward0", {0}, {}, false, unchanged},
      // diagonal(Tensor(a) self, int offset=0, int dim1=0, int dim2=1) -> Tensor(a)
      {"aten::diagonal", "DiagonalBackward0", {0}, {}, false,
       [](C c, G g) -> variable_list {
         return {ops::diagonal_backward(g[0], c.sizes(0), c.value(1).to_int(), c.value(2).to_int(),
                                        c.value(3).to_int())};
       }},
      // diagonal_backward(Tensor grad_output, SymInt[] input_sizes, int offset, int dim1, int dim2)
      {"aten::diagonal_backward", "DiagonalBackwardBackward0", {0}, {}, false,
       [](C c, G g) -> variable_list {
         return {ops::diagonal(g[0], c.value(2).to_int(), c.value(3).to_int(), c.value(4).to_int())};
       }},
      // unfold(Tensor(a) self, int dimension, int size, int step) -> Tensor(a): windows add up
      {"aten::unfold", "UnfoldBackward0", {0}, {}, false,
       [](C c, G g) -> variable_list {
         return {ops::unfold_backward(g[0], c.sizes(0), c.value(1).to_int(), c.value(2).to_int(),
                                      c.value(3).to_int())};
       }},
      // unfold_backward(Tensor grad_in, SymInt[] input_sizes, int dim, int size, int step)
      {"aten::unfold_backward", "UnfoldBackwardBackward0", {0}, {}, false,
       [](C c, G g) -> variable_list {
         return {ops::unfold(g[0], c.value(2).to_int(), c.value(3).to_int(), c.value(4).to_int())};
       }},
      // as_strided(Tensor(a) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None)
      {"aten::as_strided", "AsStridedBackward0", {0}, {0}, false, as_strided_backward},

      // --- moving elements ---------------------------------------------------------------------
      // diag(Tensor self, int diagonal=0) -> Tensor: (n) -> a matrix, or a matrix -> (n)
      {"aten::diag", "DiagBackward0", {0}, {}, false,
       [](C c, G g) -> variable_list {
         int64_t k = c.value(1).to_int();
         if (c.sizes(0).size() == 1) return {ops::diagonal(g[0], k, 0, 1)};
         return {ops::diagonal_backward(g[0], c.sizes(0), k, 0, 1)};
       }},
      // diag_embed(Tensor self, int offset=0, int dim1=-2, int dim2=-1) -> Tensor
      {"aten::diag_embed", "DiagEmbedBackward0", {0}, {}, false,
       [](C c, G g) -> variable_list {
         return {ops::diagonal(g[0], c.value(1).to_int(), c.value(2).to_int(), c.value(3).to_int())};
       }},
      // tril(Tensor self, int diagonal=0) -> Tensor
      {"aten::tril", "TrilBackward0", {0}, {}, false,
       [](C c, G g) -> variable_list { return {ops::tril(g[0], c.value(1).to_int())}; },
       {"aten::tril_"}},
      // triu(Tensor self, int diagonal=0) -> Tensor
      {"aten::triu", "TriuBackward0", {0}, {}, false,
       [](C c, G g) -> variable_list { return {ops::triu(g[0], c.value(1).to_int())}; },
       {"aten::triu_"}},
      // repeat(Tensor self, SymInt[] repeats) -> Tensor
      {"aten::repeat", "RepeatBackward0", {0}, {}, false, repeat_backward},
      // roll(Tensor self, int[1] shifts, int[1] dims=[]) -> Tensor: rolled back
      {"aten::roll", "RollBackward0", {0}, {}, false,
       [](C c, G g) -> variable_list {
         std::vector<int64_t> back;
         for (int64_t s : c.value(1).to_int_list()) back.push_back(-s);
         return {ops::roll(g[0], back, c.value(2).to_int_list())};
       }},
      // constant_pad_nd(Tensor self, SymInt[] pad, Scalar value=0) -> Tensor: the padding cut off
      // again (a negative pad, which cropped, pads the gradient with zeros)
      {"aten::constant_pad_nd", "ConstantPadNdBackward0", {0}, {}, false,
       [](C c, G g) -> variable_list {
         std::vector<int64_t> back;
         for (int64_t p : c.value(1).to_int_list()) back.push_back(-p);
         return {ops::constant_pad_nd(g[0], back, 0)};
       }},

      // --- whole-tensor writes -----------------------------------------------------------------
      // copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!): self's old
      //   values are gone; src gets g (the engine sums a broadcast src and converts its dtype)
      {"aten::copy_", "CopyBackwards", {0, 1}, {}, false,
       [](C c, G g) -> variable_list {
         return {c.needs(0) ? zeros_like_arg(c, 0) : Tensor(), g[0]};
       }},
      // fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!)
      {"aten::fill_.Scalar", "FillBackward2", {0}, {}, false,
       [](C c, G) -> variable_list { return {zeros_like_arg(c, 0)}; }},
      // fill_.Tensor(Tensor(a!) self, Tensor value) -> Tensor(a!): value (0-d) gets the sum of g
      {"aten::fill_.Tensor", "FillBackward3", {0, 1}, {}, false,
       [](C c, G g) -> variable_list {
         return {c.needs(0) ? zeros_like_arg(c, 0) : Tensor(),
                 c.needs(1) ? ops::sum(g[0], ops::OptScalarType{}) : Tensor()};
       }},
      // zero_(Tensor(a!) self) -> Tensor(a!)
      {"aten::zero_", "ZeroBackward0", {0}, {}, false,
       [](C c, G) -> variable_list { return {zeros_like_arg(c, 0)}; }},
  };
}
// clang-format on

}  // namespace opscope::autograd
