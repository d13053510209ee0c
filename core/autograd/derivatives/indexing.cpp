// The derivative table's indexing family (see core/autograd/Derivatives.h; core/ops/indexing.h):
// the gradient goes back to where each element came from. Every formula builds its result out of
// place or through a backward op, never by writing into a tensor it made, so each is
// differentiable again: the double backward of index_select is the IndexAddBackward0 of its
// gradient, and so on (as torch's).
#include <cstdint>
#include <limits>

#include "core/autograd/derivatives/common.h"
#include "core/ops/compare.h"
#include "core/ops/factories.h"
#include "core/ops/indexing.h"
#include "core/ops/reduce.h"
#include "core/ops/shape.h"
#include "core/ops/views.h"

namespace opscope::autograd {

namespace {

using namespace formulas;

// The shape self and mask broadcast to (masked_select's input).
DimVector broadcast_sizes(IntArrayRef a, IntArrayRef b) {
  size_t n = std::max(a.size(), b.size());
  DimVector out(n, 1);
  for (size_t i = 0; i < n; ++i) {
    int64_t x = i < n - a.size() ? 1 : a[i - (n - a.size())];
    int64_t y = i < n - b.size() ? 1 : b[i - (n - b.size())];
    out[i] = x == 1 ? y : x;
  }
  return out;
}

// index_put / _index_put_impl_ (self, indices, values, accumulate, ...): self keeps g where it was
// not overwritten; values get what was read at the indices (the engine sums a broadcast value).
variable_list index_put_backward(C c, G g) {
  const auto& idx = c.value("indices").to_tensor_list();
  Tensor gs;
  if (c.needs("self"))
    gs = c.value("accumulate").to_bool() ? g[0]
                              : ops::index_put(g[0], idx, ops::zeros({}, g[0].dtype()), false);
  return {gs, c.needs("values") ? ops::index(g[0], idx) : Tensor()};
}

}  // namespace

// clang-format off
std::vector<Derivative> indexing_derivatives() {
  return {
      // masked_fill.Scalar(Tensor self, Tensor mask, Scalar value) -> Tensor: 0 where filled
      {.op = "masked_fill.Scalar", .node = "MaskedFillBackward0", .inputs = {"self"},
       .save = {"mask"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::masked_fill(g[0], c.arg("mask"), Scalar(0))};
       },
       .inplace = {"masked_fill_.Scalar"}},
      // index_select(Tensor self, int dim, Tensor index) -> Tensor: summed back at the indices
      {.op = "index_select", .node = "IndexSelectBackward0", .inputs = {"self"}, .save = {"index"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::index_add(zeros_like_arg(c, "self"), c.value("dim").to_int(), c.arg("index"), g[0])};
       }},
      // gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor
      {.op = "gather", .node = "GatherBackward0", .inputs = {"self"}, .save = {"index"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::scatter_add(zeros_like_arg(c, "self"), c.value("dim").to_int(), c.arg("index"), g[0])};
       }},
      // index.Tensor(Tensor self, Tensor?[] indices) -> Tensor: accumulated back (repeats add up)
      {.op = "index.Tensor", .node = "IndexBackward0", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         const auto& idx = c.value("indices").to_tensor_list();
         return {ops::_index_put_impl_(zeros_like_arg(c, "self"), idx, g[0], /*accumulate=*/true,
                                       /*unsafe=*/true)};
       }},
      // index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor
      {.op = "index_put", .node = "IndexPutBackward0", .inputs = {"self", "values"},
       .formula = index_put_backward, .inplace = {"index_put_"}},
      // _index_put_impl_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False,
      //                  bool unsafe=False) -> Tensor(a!)
      {.op = "_index_put_impl_", .node = "IndexPutImplBackward0", .inputs = {"self", "values"},
       .formula = index_put_backward},
      // index_add(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor:
      //   self[.., index[j], ..] += alpha * source[.., j, ..]
      {.op = "index_add", .node = "IndexAddBackward0", .inputs = {"self", "source"},
       .save = {"index"},
       .formula = [](C c, G g) -> variable_list {
         Tensor gsrc;
         if (c.needs("source"))
           gsrc = ops::reshape(times(ops::index_select(g[0], c.value("dim").to_int(), c.arg("index")),
                                     c.value("alpha").to_scalar()), c.sizes("source"));
         return {g[0], gsrc};
       },
       .inplace = {"index_add_"}},
      // index_fill.int_Scalar(Tensor self, int dim, Tensor index, Scalar value) -> Tensor
      {.op = "index_fill.int_Scalar", .node = "IndexFillBackward0", .inputs = {"self"},
       .save = {"index"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::index_fill(g[0], c.value("dim").to_int(), c.arg("index"), Scalar(0))};
       },
       .inplace = {"index_fill_.int_Scalar"}},
      // gather's adjoints: scatter.src(Tensor self, int dim, Tensor index, Tensor src) -> Tensor
      {.op = "scatter.src", .node = "ScatterBackward0", .inputs = {"self", "src"},
       .save = {"index"},
       .formula = [](C c, G g) -> variable_list {
         int64_t dim = c.value("dim").to_int();
         return {c.needs("self") ? ops::scatter(g[0], dim, c.arg("index"), Scalar(0)) : Tensor(),
                 c.needs("src") ? ops::gather(g[0], dim, c.arg("index")) : Tensor()};
       },
       .inplace = {"scatter_.src"}},
      // scatter.value(Tensor self, int dim, Tensor index, Scalar value) -> Tensor
      {.op = "scatter.value", .node = "ScatterBackward1", .inputs = {"self"}, .save = {"index"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::scatter(g[0], c.value("dim").to_int(), c.arg("index"), Scalar(0))};
       },
       .inplace = {"scatter_.value"}},
      // scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor
      {.op = "scatter_add", .node = "ScatterAddBackward0", .inputs = {"self", "src"},
       .save = {"index"},
       .formula = [](C c, G g) -> variable_list {
         return {g[0], c.needs("src") ? ops::gather(g[0], c.value("dim").to_int(), c.arg("index")) : Tensor()};
       },
       .inplace = {"scatter_add_"}},
      // masked_fill.Tensor(Tensor self, Tensor mask, Tensor value) -> Tensor: value is 0-d
      {.op = "masked_fill.Tensor", .node = "MaskedFillBackward1", .inputs = {"self", "value"},
       .save = {"mask"},
       .formula = [](C c, G g) -> variable_list {
         Tensor mask = c.arg("mask");
         return {c.needs("self") ? ops::masked_fill(g[0], mask, Scalar(0)) : Tensor(),
                 c.needs("value") ? ops::sum(ops::where(mask, g[0], Scalar(0.0)), ops::OptScalarType{})
                            : Tensor()};
       },
       .inplace = {"masked_fill_.Tensor"}},
      // masked_select(Tensor self, Tensor mask) -> Tensor: (count of true in the broadcast mask)
      {.op = "masked_select", .node = "MaskedSelectBackward0", .inputs = {"self"}, .save = {"mask"},
       .formula = [](C c, G g) -> variable_list {
         Tensor z = ops::zeros(broadcast_sizes(c.sizes("self"), c.sizes("mask")), g[0].dtype());
         return {ops::masked_scatter(z, c.arg("mask"), g[0])};
       }},
      // masked_scatter(Tensor self, Tensor mask, Tensor source) -> Tensor: the true positions of
      //   self take source's first elements, in order; the rest of source gets no gradient
      {.op = "masked_scatter", .node = "MaskedScatterBackward0", .inputs = {"self", "source"},
       .save = {"mask"},
       .formula = [](C c, G g) -> variable_list {
         Tensor mask = c.arg("mask"), gs;
         if (c.needs("source")) {
           Tensor used = ops::masked_select(g[0], mask);
           int64_t n = 1;
           for (int64_t s : c.sizes("source")) n *= s;
           Tensor rest = ops::zeros({n - used.numel()}, g[0].dtype());
           gs = ops::reshape(ops::cat(std::vector<Tensor>{used, rest}), c.sizes("source"));
         }
         return {c.needs("self") ? ops::masked_fill(g[0], mask, Scalar(0)) : Tensor(), gs};
       },
       .inplace = {"masked_scatter_"}},
      // take(Tensor self, Tensor index) -> Tensor: self read as flat
      {.op = "take", .node = "TakeBackward0", .inputs = {"self"}, .save = {"index"},
       .formula = [](C c, G g) -> variable_list {
         return {ops::put(zeros_like_arg(c, "self"), c.arg("index"), g[0], /*accumulate=*/true)};
       }},
      // put(Tensor self, Tensor index, Tensor source, bool accumulate=False) -> Tensor
      {.op = "put", .node = "PutBackward0", .inputs = {"self", "source"}, .save = {"index"},
       .formula = [](C c, G g) -> variable_list {
         Tensor index = c.arg("index"), gself;
         if (c.needs("self"))
           gself = c.value("accumulate").to_bool()
                       ? g[0]
                       : ops::put(g[0], index, ops::zeros(c.sizes("source"), g[0].dtype()), false);
         return {gself, c.needs("source") ? ops::reshape(ops::take(g[0], index), c.sizes("source")) : Tensor()};
       },
       .inplace = {"put_"}},
  };
}
// clang-format on

}  // namespace opscope::autograd
