// The derivative table's views family (see core/autograd/Derivatives.h; core/ops/views.h): results
// that share self's storage. The gradient takes the inverse path (a reshape back, the inverse
// permutation), or goes through the view's own backward op (select_backward, ...), which has an
// entry too, so that double backward works.
#include <algorithm>
#include <limits>

#include "core/autograd/derivatives/common.h"
#include "core/ops/binary.h"
#include "core/ops/factories.h"
#include "core/ops/indexing.h"
#include "core/ops/shape.h"
#include "core/ops/views.h"

namespace opscope::autograd {

namespace {

using namespace formulas;

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
  int64_t out_off =
      c.value("storage_offset").is_none() ? in_off : c.value("storage_offset").to_int();
  int64_t base = std::min(in_off, out_off);
  int64_t len = std::max(last_offset(self.sizes(), self.strides(), in_off),
                         last_offset(size, stride, out_off)) -
                base + 1;
  Tensor out_pos = element_offsets(size, stride, out_off, base);
  Tensor buffer = ops::index_add(ops::zeros({std::max<int64_t>(len, 0)}, g[0].dtype()), 0,
                                 ops::reshape(out_pos, {-1}), ops::reshape(g[0], {-1}));
  return {ops::take(buffer, element_offsets(self.sizes(), self.strides(), in_off, base))};
}

}  // namespace

// clang-format off
std::vector<Derivative> views_derivatives() {
  return {
      // t(Tensor(a) self) -> Tensor(a)
      {.op = "t", .node = "TBackward0", .inputs = {"self"},
       .formula = [](C, G g) -> variable_list { return {ops::t(g[0])}; }},
      // transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)
      {.op = "transpose.int", .node = "TransposeBackward0", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::transpose(g[0], c.value("dim0").to_int(), c.value("dim1").to_int())};
       }},
      // permute(Tensor(a) self, int[] dims) -> Tensor(a): the inverse permutation
      {.op = "permute", .node = "PermuteBackward0", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         const auto& dims = c.value("dims").to_int_list();
         std::vector<int64_t> inverse(dims.size());
         for (size_t i = 0; i < dims.size(); ++i)
           inverse[static_cast<size_t>(wrap_dim(dims[i], static_cast<int64_t>(dims.size())))] =
               static_cast<int64_t>(i);
         return {ops::permute(g[0], inverse)};
       }},
      // view(Tensor(a) self, SymInt[] size) -> Tensor(a)
      {.op = "view", .node = "ViewBackward0", .inputs = {"self"}, .formula = to_input_shape},
      // _reshape_alias(Tensor(a) self, SymInt[] size, SymInt[] stride) -> Tensor(a)
      {.op = "_reshape_alias", .node = "ReshapeAliasBackward0", .inputs = {"self"},
       .formula = to_input_shape},
      // _unsafe_view(Tensor self, SymInt[] size) -> Tensor
      {.op = "_unsafe_view", .node = "UnsafeViewBackward0", .inputs = {"self"},
       .formula = to_input_shape},
      // unsqueeze(Tensor(a) self, int dim) -> Tensor(a)
      {.op = "unsqueeze", .node = "UnsqueezeBackward0", .inputs = {"self"},
       .formula = to_input_shape},
      // squeeze(Tensor(a) self) -> Tensor(a)
      {.op = "squeeze", .node = "SqueezeBackward0", .inputs = {"self"}, .formula = to_input_shape},
      // squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)
      {.op = "squeeze.dim", .node = "SqueezeBackward1", .inputs = {"self"},
       .formula = to_input_shape},
      // The in-place forms (core/ops/composite/views_inplace.cpp): self's history goes through
      // a node of torch's name for the in-place op; swapaxes_ / swapdims_ run transpose_.
      // unsqueeze_(Tensor(a!) self, int dim) -> Tensor(a!)
      {.op = "unsqueeze_", .node = "UnsqueezeBackward1", .inputs = {"self"},
       .formula = to_input_shape},
      // squeeze_(Tensor(a!) self) -> Tensor(a!)
      {.op = "squeeze_", .node = "SqueezeBackward2", .inputs = {"self"}, .formula = to_input_shape},
      // squeeze_.dim(Tensor(a!) self, int dim) -> Tensor(a!)
      {.op = "squeeze_.dim", .node = "SqueezeBackward3", .inputs = {"self"},
       .formula = to_input_shape},
      // t_(Tensor(a!) self) -> Tensor(a!)
      {.op = "t_", .node = "TBackward1", .inputs = {"self"},
       .formula = [](C, G g) -> variable_list { return {ops::t(g[0])}; }},
      // transpose_(Tensor(a!) self, int dim0, int dim1) -> Tensor(a!)
      {.op = "transpose_", .node = "TransposeBackward1", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::transpose(g[0], c.value("dim0").to_int(), c.value("dim1").to_int())};
       }},
      // expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a): the engine
      // sums g over the expanded dims (as for any broadcast input)
      {.op = "expand", .node = "ExpandBackward0", .inputs = {"self"}, .formula = unchanged},
      // unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]: the slices stacked again
      {.op = "unbind.int", .node = "UnbindBackward0", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::stack(g, c.value("dim").to_int())};
       }},
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
      // select.int(Tensor(a) self, int dim, int index) -> Tensor(a)
      {.op = "select.int", .node = "SelectBackward0", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::select_backward(g[0], c.sizes("self"), c.value("dim").to_int(), c.value("index").to_int())};
       }},
      // select_backward(Tensor grad_output, SymInt[] input_sizes, int dim, SymInt index) -> Tensor
      {.op = "select_backward", .node = "SelectBackwardBackward0", .inputs = {"grad_output"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::select(g[0], c.value("dim").to_int(), c.value("index").to_int())};
       }},
      // slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None,
      //              SymInt step=1) -> Tensor(a)
      {.op = "slice.Tensor", .node = "SliceBackward0", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         int64_t start = opt_int(c.value("start")).value_or(0);
         int64_t end = opt_int(c.value("end")).value_or(std::numeric_limits<int64_t>::max());
         return {ops::slice_backward(g[0], c.sizes("self"), c.value("dim").to_int(), start, end,
                                     c.value("step").to_int())};
       }},
      // slice_backward(Tensor grad_output, SymInt[] input_sizes, int dim, SymInt start,
      //                SymInt end, SymInt step) -> Tensor
      {.op = "slice_backward", .node = "SliceBackwardBackward0", .inputs = {"grad_output"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::slice(g[0], c.value("dim").to_int(), c.value("start").to_int(), c.value("end").to_int(),
                            c.value("step").to_int())};
       }},
  };
}
// clang-format on

}  // namespace opscope::autograd
