// The derivative table's shape family (see core/autograd/Derivatives.h; core/ops/shape.h): new
// tensors assembled from others (cat, stack, split: Tensor lists, see Note [Tensor lists in the
// derivative table]; repeat, roll, rot90, block_diag, tril, diag, ...). The gradient takes each element back where
// it came from.
#include <algorithm>

#include "core/autograd/derivatives/common.h"
#include "core/ops/factories.h"
#include "core/ops/reduce.h"
#include "core/ops/shape.h"
#include "core/ops/views.h"

namespace opscope::autograd {

namespace {

using namespace formulas;

// cat(Tensor[] tensors, int dim=0) -> Tensor: each input gets its part of g along dim (a 1-D
// empty input, skipped by cat, gets an empty gradient).
variable_list cat_backward(C c, G g) {
  const size_t n = c.list_size("tensors");
  auto skipped = [&](size_t k) {
    return c.sizes("tensors", k).size() == 1 && c.sizes("tensors", k)[0] == 0;
  };
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

// block_diag(Tensor[] tensors) -> Tensor: input k gets its diagonal block of g, shaped back
// (a 0-d / 1-D input was the block (1, 1) / (1, n)).
variable_list block_diag_backward(C c, G g) {
  const size_t n = c.list_size("tensors");
  variable_list out(n);
  int64_t row = 0, col = 0;
  for (size_t k = 0; k < n; ++k) {
    IntArrayRef s = c.sizes("tensors", k);
    int64_t rows = s.size() == 2 ? s[0] : 1, cols = s.size() == 2 ? s[1] : s.size() == 1 ? s[0] : 1;
    if (c.needs("tensors", k)) {
      Tensor block = ops::slice(ops::slice(g[0], 0, row, row + rows), 1, col, col + cols);
      out[k] = s.size() == 2 ? block : ops::reshape(block, s);
    }
    row += rows;
    col += cols;
  }
  return out;
}

}  // namespace

// clang-format off
std::vector<Derivative> shape_derivatives() {
  return {
      // flip(Tensor self, int[] dims) -> Tensor
      {.op = "flip", .node = "FlipBackward0", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::flip(g[0], c.value("dims").to_int_list())};
       }},
      // rot90(Tensor self, int k=1, int[] dims=[0,1]) -> Tensor: turned back, -k quarter turns
      {.op = "rot90", .node = "Rot90Backward0", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::rot90(g[0], -c.value("k").to_int(), c.value("dims").to_int_list())};
       }},
      // block_diag(Tensor[] tensors) -> Tensor
      {.op = "block_diag", .node = "BlockDiagBackward0", .inputs = {"tensors"},
       .formula = block_diag_backward},
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
  };
}
// clang-format on

}  // namespace opscope::autograd
