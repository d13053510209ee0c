// The derivative table's indexing family (see core/autograd/Derivatives.h): the gradient goes back
// to where each element came from. Every formula builds its result out of place or through a
// backward op (select_backward, ...), never by writing into a tensor it made, so each is
// differentiable again: the double backward of index_select is the IndexAddBackward0 of its
// gradient, and so on (as torch's).
#include <cstdint>
#include <limits>

#include "core/autograd/derivatives/common.h"
#include "core/ops/views.h"
#include "core/ops/unary.h"
#include "core/ops/shape.h"
#include "core/ops/sorting.h"
#include "core/ops/binary.h"
#include "core/ops/compare.h"
#include "core/ops/nn.h"

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
  const auto& idx = c.value(1).to_tensor_list();
  Tensor gs;
  if (c.needs(0))
    gs = c.value(3).to_bool() ? g[0]
                              : ops::index_put(g[0], idx, ops::zeros({}, g[0].dtype()), false);
  return {gs, c.needs(2) ? ops::index(g[0], idx) : Tensor()};
}

}  // namespace

// clang-format off
std::vector<Derivative> indexing_table() {
  return {
      // select.int(Tensor(a) self, int dim, int index) -> Tensor(a)
      {"aten::select.int", "SelectBackward0", {0}, {}, false,
       [](C c, G g) -> variable_list {
         return {ops::select_backward(g[0], c.sizes(0), c.value(1).to_int(), c.value(2).to_int())};
       }},
      // select_backward(Tensor grad_output, SymInt[] input_sizes, int dim, SymInt index) -> Tensor
      {"aten::select_backward", "SelectBackwardBackward0", {0}, {}, false,
       [](C c, G g) -> variable_list {
         return {ops::select(g[0], c.value(2).to_int(), c.value(3).to_int())};
       }},
      // slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None,
      //              SymInt step=1) -> Tensor(a)
      {"aten::slice.Tensor", "SliceBackward0", {0}, {}, false,
       [](C c, G g) -> variable_list {
         int64_t start = opt_int(c.value(2)).value_or(0);
         int64_t end = opt_int(c.value(3)).value_or(std::numeric_limits<int64_t>::max());
         return {ops::slice_backward(g[0], c.sizes(0), c.value(1).to_int(), start, end,
                                     c.value(4).to_int())};
       }},
      // slice_backward(Tensor grad_output, SymInt[] input_sizes, int dim, SymInt start,
      //                SymInt end, SymInt step) -> Tensor
      {"aten::slice_backward", "SliceBackwardBackward0", {0}, {}, false,
       [](C c, G g) -> variable_list {
         return {ops::slice(g[0], c.value(2).to_int(), c.value(3).to_int(), c.value(4).to_int(),
                            c.value(5).to_int())};
       }},
      // index_select(Tensor self, int dim, Tensor index) -> Tensor: summed back at the indices
      {"aten::index_select", "IndexSelectBackward0", {0}, {2}, false,
       [](C c, G g) -> variable_list {
         return {ops::index_add(zeros_like_arg(c, 0), c.value(1).to_int(), c.arg(2), g[0])};
       }},
      // gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor
      {"aten::gather", "GatherBackward0", {0}, {2}, false,
       [](C c, G g) -> variable_list {
         return {ops::scatter_add(zeros_like_arg(c, 0), c.value(1).to_int(), c.arg(2), g[0])};
       }},
      // index.Tensor(Tensor self, Tensor?[] indices) -> Tensor: accumulated back (repeats add up)
      {"aten::index.Tensor", "IndexBackward0", {0}, {}, false,
       [](C c, G g) -> variable_list {
         const auto& idx = c.value(1).to_tensor_list();
         return {ops::_index_put_impl_(zeros_like_arg(c, 0), idx, g[0], /*accumulate=*/true,
                                       /*unsafe=*/true)};
       }},
      // index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor
      {"aten::index_put", "IndexPutBackward0", {0, 2}, {}, false,
       index_put_backward, {"aten::index_put_"}},
      // _index_put_impl_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False,
      //                  bool unsafe=False) -> Tensor(a!)
      {"aten::_index_put_impl_", "IndexPutImplBackward0", {0, 2}, {}, false,
       index_put_backward},
      // index_add(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor:
      //   self[.., index[j], ..] += alpha * source[.., j, ..]
      {"aten::index_add", "IndexAddBackward0", {0, 3}, {2}, false,
       [](C c, G g) -> variable_list {
         Tensor gsrc;
         if (c.needs(3))
           gsrc = ops::reshape(times(ops::index_select(g[0], c.value(1).to_int(), c.arg(2)),
                                     c.value(4).to_scalar()), c.sizes(3));
         return {g[0], gsrc};
       },
       {"aten::index_add_"}},
      // index_fill.int_Scalar(Tensor self, int dim, Tensor index, Scalar value) -> Tensor
      {"aten::index_fill.int_Scalar", "IndexFillBackward0", {0}, {2}, false,
       [](C c, G g) -> variable_list {
         return {ops::index_fill(g[0], c.value(1).to_int(), c.arg(2), Scalar(0))};
       },
       {"aten::index_fill_.int_Scalar"}},
      // gather's adjoints: scatter.src(Tensor self, int dim, Tensor index, Tensor src) -> Tensor
      {"aten::scatter.src", "ScatterBackward0", {0, 3}, {2}, false,
       [](C c, G g) -> variable_list {
         int64_t dim = c.value(1).to_int();
         return {c.needs(0) ? ops::scatter(g[0], dim, c.arg(2), Scalar(0)) : Tensor(),
                 c.needs(3) ? ops::gather(g[0], dim, c.arg(2)) : Tensor()};
       },
       {"aten::scatter_.src"}},
      // scatter.value(Tensor self, int dim, Tensor index, Scalar value) -> Tensor
      {"aten::scatter.value", "ScatterBackward1", {0}, {2}, false,
       [](C c, G g) -> variable_list {
         return {ops::scatter(g[0], c.value(1).to_int(), c.arg(2), Scalar(0))};
       },
       {"aten::scatter_.value"}},
      // scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor
      {"aten::scatter_add", "ScatterAddBackward0", {0, 3}, {2}, false,
       [](C c, G g) -> variable_list {
         return {g[0], c.needs(3) ? ops::gather(g[0], c.value(1).to_int(), c.arg(2)) : Tensor()};
       },
       {"aten::scatter_add_"}},
      // masked_fill.Tensor(Tensor self, Tensor mask, Tensor value) -> Tensor: value is 0-d
      {"aten::masked_fill.Tensor", "MaskedFillBackward1", {0, 2}, {1}, false,
       [](C c, G g) -> variable_list {
         Tensor mask = c.arg(1);
         return {c.needs(0) ? ops::masked_fill(g[0], mask, Scalar(0)) : Tensor(),
                 c.needs(2) ? ops::sum(ops::where(mask, g[0], Scalar(0.0)), ops::OptScalarType{})
                            : Tensor()};
       },
       {"aten::masked_fill_.Tensor"}},
      // masked_select(Tensor self, Tensor mask) -> Tensor: (count of true in the broadcast mask)
      {"aten::masked_select", "MaskedSelectBackward0", {0}, {1}, false,
       [](C c, G g) -> variable_list {
         Tensor z = ops::zeros(broadcast_sizes(c.sizes(0), c.sizes(1)), g[0].dtype());
         return {ops::masked_scatter(z, c.arg(1), g[0])};
       }},
      // masked_scatter(Tensor self, Tensor mask, Tensor source) -> Tensor: the true positions of
      //   self take source's first elements, in order; the rest of source gets no gradient
      {"aten::masked_scatter", "MaskedScatterBackward0", {0, 2}, {1}, false,
       [](C c, G g) -> variable_list {
         Tensor mask = c.arg(1), gs;
         if (c.needs(2)) {
           Tensor used = ops::masked_select(g[0], mask);
           int64_t n = 1;
           for (int64_t s : c.sizes(2)) n *= s;
           Tensor rest = ops::zeros({n - used.numel()}, g[0].dtype());
           gs = ops::reshape(ops::cat(std::vector<Tensor>{used, rest}), c.sizes(2));
         }
         return {c.needs(0) ? ops::masked_fill(g[0], mask, Scalar(0)) : Tensor(), gs};
       },
       {"aten::masked_scatter_"}},
      // take(Tensor self, Tensor index) -> Tensor: self read as flat
      {"aten::take", "TakeBackward0", {0}, {1}, false,
       [](C c, G g) -> variable_list {
         return {ops::put(zeros_like_arg(c, 0), c.arg(1), g[0], /*accumulate=*/true)};
       }},
      // put(Tensor self, Tensor index, Tensor source, bool accumulate=False) -> Tensor
      {"aten::put", "PutBackward0", {0, 2}, {1}, false,
       [](C c, G g) -> variable_list {
         Tensor index = c.arg(1), gself;
         if (c.needs(0))
           gself = c.value(3).to_bool()
                       ? g[0]
                       : ops::put(g[0], index, ops::zeros(c.sizes(2), g[0].dtype()), false);
         return {gself, c.needs(2) ? ops::reshape(ops::take(g[0], index), c.sizes(2)) : Tensor()};
       },
       {"aten::put_"}},

      // --- sorting: the values go back where they came from (indices) -------------------------
      // sort(Tensor self, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)
      {"aten::sort", "SortBackward0", {0}, {}, true,
       [](C c, G g) -> variable_list {
         return {indexed_reduction_backward(c, g[0], c.result(1), c.value(1).to_int(), true)};
       },
       {}, 1},
      // sort.stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False) -> (...)
      {"aten::sort.stable", "SortBackward1", {0}, {}, true,
       [](C c, G g) -> variable_list {
         return {indexed_reduction_backward(c, g[0], c.result(1), c.value(2).to_int(), true)};
       },
       {}, 1},
      // topk(Tensor self, int k, int dim=-1, bool largest=True, bool sorted=True)
      //   -> (Tensor values, Tensor indices)
      {"aten::topk", "TopkBackward0", {0}, {}, true,
       [](C c, G g) -> variable_list {
         return {indexed_reduction_backward(c, g[0], c.result(1), c.value(2).to_int(), true)};
       },
       {}, 1},
      // kthvalue(Tensor self, int k, int dim=-1, bool keepdim=False) -> (Tensor values, ...)
      {"aten::kthvalue", "KthvalueBackward0", {0}, {}, true,
       [](C c, G g) -> variable_list {
         return {indexed_reduction_backward(c, g[0], c.result(1), c.value(2).to_int(),
                                            c.value(3).to_bool())};
       },
       {}, 1},
  };
}
// clang-format on

}  // namespace opscope::autograd
