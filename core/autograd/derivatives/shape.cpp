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
  const size_t n = c.list_size("tensors");
  auto skipped = [&](size_t k) { return c.sizes("tensors", k).size() == 1 && c.sizes("tensors", k)[0] == 0; };
  int64_t ndim = g[0].dim();
  int64_t d = wrap_dim(c.value("dim").to_int(), ndim), offset = 0;
  variable_list out(n);
  for (size_t k = 0; k < n; ++k) {
    if (skipped(k)) {
      if (c.needs("tensors", k)) out[k] = ops::zeros({0}, g[0].dtype());
      continue;
    }
    int64_t len = c.sizes("tensors", k)[static_cast<size_t>(d)];
    if (c.needs("tensors", k)) out[k] = ops::narrow(g[0], d, offset, len);
    offset += len;
  }
  return out;
}

// stack(Tensor[] tensors, int dim=0) -> Tensor: input k gets g's slice k along dim.
variable_list stack_backward(C c, G g) {
  const size_t n = c.list_size("tensors");
  int64_t d = wrap_dim(c.value("dim").to_int(), g[0].dim());
  variable_list out(n);
  for (size_t k = 0; k < n; ++k)
    if (c.needs("tensors", k)) out[k] = ops::select(g[0], d, static_cast<int64_t>(k));
  return out;
}

// split / split_with_sizes (self, sizes, dim) -> pieces: the pieces' gradients joined again.
variable_list split_backward(C c, G g) {
  return {ops::cat(g, c.value("dim").to_int())};
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
  Tensor self = c.arg("self");
  const auto& size = c.value("size").to_int_list();
  const auto& stride = c.value("stride").to_int_list();
  int64_t in_off = self->storage_offset();
  int64_t out_off = c.value("storage_offset").is_none() ? in_off : c.value("storage_offset").to_int();
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
  const auto& r = c.value("repeats").to_int_list();
  IntArrayRef s = c.sizes("self");
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
      {.op = "cat", .node = "CatBackward0", .inputs = {"tensors"}, .formula = cat_backward},
      // stack(Tensor[] tensors, int dim=0) -> Tensor
      {.op = "stack", .node = "StackBackward0", .inputs = {"tensors"}, .formula = stack_backward},
      // split.Tensor(Tensor(a -> *) self, int split_size, int dim=0) -> Tensor(a)[]
      {.op = "split.Tensor", .node = "SplitBackward0", .inputs = {"self"},
       .formula = split_backward},
      // split_with_sizes(Tensor(a -> *) self, int[] split_sizes, int dim=0) -> Tensor(a)[]
      {.op = "split_with_sizes", .node = "SplitWithSizesBackward0", .inputs = {"self"},
       .formula = split_backward},
      // unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]: the slices stacked again
      {.op = "unbind.int", .node = "UnbindBackward0", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::stack(g, c.value("dim").to_int())};
       }},

      // --- views -------------------------------------------------------------------------------
      // alias(Tensor(a) self) -> Tensor(a)
      {.op = "alias", .node = "AliasBackward0", .inputs = {"self"}, .formula = unchanged},
      // diagonal(Tensor(a) self, int offset=0, int dim1=0, int dim2=1) -> Tensor(a)
      {.op = "diagonal", .node = "DiagonalBackward0", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::diagonal_backward(g[0], c.sizes("self"), c.value("offset").to_int(), c.value("dim1").to_int(),
                                        c.value("dim2").to_int())};
       }},
      // diagonal_backward(Tensor grad_output, SymInt[] input_sizes, int offset, int dim1, int dim2)
      {.op = "diagonal_backward", .node = "DiagonalBackwardBackward0", .inputs = {"grad_output"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::diagonal(g[0], c.value("offset").to_int(), c.value("dim1").to_int(), c.value("dim2").to_int())};
       }},
      // unfold(Tensor(a) self, int dimension, int size, int step) -> Tensor(a): windows add up
      {.op = "unfold", .node = "UnfoldBackward0", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::unfold_backward(g[0], c.sizes("self"), c.value("dimension").to_int(), c.value("size").to_int(),
                                      c.value("step").to_int())};
       }},
      // unfold_backward(Tensor grad_in, SymInt[] input_sizes, int dim, int size, int step)
      {.op = "unfold_backward", .node = "UnfoldBackwardBackward0", .inputs = {"grad_in"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::unfold(g[0], c.value("dim").to_int(), c.value("size").to_int(), c.value("step").to_int())};
       }},
      // as_strided(Tensor(a) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None)
      {.op = "as_strided", .node = "AsStridedBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = as_strided_backward},

      // --- moving elements ---------------------------------------------------------------------
      // diag(Tensor self, int diagonal=0) -> Tensor: (n) -> a matrix, or a matrix -> (n)
      {.op = "diag", .node = "DiagBackward0", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         int64_t k = c.value("diagonal").to_int();
         if (c.sizes("self").size() == 1) return {ops::diagonal(g[0], k, 0, 1)};
         return {ops::diagonal_backward(g[0], c.sizes("self"), k, 0, 1)};
       }},
      // diag_embed(Tensor self, int offset=0, int dim1=-2, int dim2=-1) -> Tensor
      {.op = "diag_embed", .node = "DiagEmbedBackward0", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::diagonal(g[0], c.value("offset").to_int(), c.value("dim1").to_int(), c.value("dim2").to_int())};
       }},
      // tril(Tensor self, int diagonal=0) -> Tensor
      {.op = "tril", .node = "TrilBackward0", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::tril(g[0], c.value("diagonal").to_int())};
       },
       .inplace = {"tril_"}},
      // triu(Tensor self, int diagonal=0) -> Tensor
      {.op = "triu", .node = "TriuBackward0", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::triu(g[0], c.value("diagonal").to_int())};
       },
       .inplace = {"triu_"}},
      // repeat(Tensor self, SymInt[] repeats) -> Tensor
      {.op = "repeat", .node = "RepeatBackward0", .inputs = {"self"}, .formula = repeat_backward},
      // roll(Tensor self, int[1] shifts, int[1] dims=[]) -> Tensor: rolled back
      {.op = "roll", .node = "RollBackward0", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         std::vector<int64_t> back;
         for (int64_t s : c.value("shifts").to_int_list()) back.push_back(-s);
         return {ops::roll(g[0], back, c.value("dims").to_int_list())};
       }},
      // constant_pad_nd(Tensor self, SymInt[] pad, Scalar value=0) -> Tensor: the padding cut off
      // again (a negative pad, which cropped, pads the gradient with zeros)
      {.op = "constant_pad_nd", .node = "ConstantPadNdBackward0", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         std::vector<int64_t> back;
         for (int64_t p : c.value("pad").to_int_list()) back.push_back(-p);
         return {ops::constant_pad_nd(g[0], back, 0)};
       }},

      // --- whole-tensor writes -----------------------------------------------------------------
      // copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!): self's old
      //   values are gone; src gets g (the engine sums a broadcast src and converts its dtype)
      {.op = "copy_", .node = "CopyBackwards", .inputs = {"self", "src"},
       .formula = [](C c, G g) -> variable_list {
         return {c.needs("self") ? zeros_like_arg(c, "self") : Tensor(), g[0]};
       }},
      // fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!)
      {.op = "fill_.Scalar", .node = "FillBackward2", .inputs = {"self"},
       .formula = [](C c, G) -> variable_list { return {zeros_like_arg(c, "self")}; }},
      // fill_.Tensor(Tensor(a!) self, Tensor value) -> Tensor(a!): value (0-d) gets the sum of g
      {.op = "fill_.Tensor", .node = "FillBackward3", .inputs = {"self", "value"},
       .formula = [](C c, G g) -> variable_list {
         return {c.needs("self") ? zeros_like_arg(c, "self") : Tensor(),
                 c.needs("value") ? ops::sum(g[0], ops::OptScalarType{}) : Tensor()};
       }},
      // zero_(Tensor(a!) self) -> Tensor(a!)
      {.op = "zero_", .node = "ZeroBackward0", .inputs = {"self"},
       .formula = [](C c, G) -> variable_list { return {zeros_like_arg(c, "self")}; }},
  };
}
// clang-format on

}  // namespace opscope::autograd
