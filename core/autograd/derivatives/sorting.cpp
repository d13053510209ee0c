// The derivative table's sorting family (see core/autograd/Derivatives.h; core/ops/sorting.h): the
// values go back where they came from (their indices).
#include "core/autograd/derivatives/common.h"

namespace opscope::autograd {

namespace {

using namespace formulas;

// median() / nanmedian(): g shared evenly by the elements equal to the result (the NaNs, when
// the result is NaN).
variable_list median_all_backward(C c, G g) {
  Tensor self = c.arg("self"), r = c.result();
  Tensor hit = ops::logical_or(ops::eq(self, r), ops::logical_and(ops::isnan(self), ops::isnan(r)));
  Tensor count = ops::sum(hit, std::nullopt, false, std::nullopt);
  return {ops::mul(ops::div(g[0], count), hit)};
}

}  // namespace

// clang-format off
std::vector<Derivative> sorting_derivatives() {
  using namespace formulas;
  return {
      // sort(Tensor self, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)
      {.op = "sort", .node = "SortBackward0", .inputs = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         return {indexed_reduction_backward(c, g[0], c.result(1), c.value("dim").to_int(), true)};
       },
       .outputs = 1},
      // sort.stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False) -> (...)
      {.op = "sort.stable", .node = "SortBackward1", .inputs = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         return {indexed_reduction_backward(c, g[0], c.result(1), c.value("dim").to_int(), true)};
       },
       .outputs = 1},
      // topk(Tensor self, int k, int dim=-1, bool largest=True, bool sorted=True)
      //   -> (Tensor values, Tensor indices)
      {.op = "topk", .node = "TopkBackward0", .inputs = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         return {indexed_reduction_backward(c, g[0], c.result(1), c.value("dim").to_int(), true)};
       },
       .outputs = 1},
      // kthvalue(Tensor self, int k, int dim=-1, bool keepdim=False) -> (Tensor values, ...)
      {.op = "kthvalue", .node = "KthvalueBackward0", .inputs = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         return {indexed_reduction_backward(c, g[0], c.result(1), c.value("dim").to_int(),
                                            c.value("keepdim").to_bool())};
       },
       .outputs = 1},
      // median(Tensor self) -> Tensor: shared evenly by the elements equal to the result (the
      //   NaNs when it is NaN), as torch's evenly_distribute_backward
      {.op = "median", .node = "MedianBackward0", .inputs = {"self"}, .save = {"self"},
       .save_result = true, .formula = median_all_backward},
      {.op = "nanmedian", .node = "NanmedianBackward0", .inputs = {"self"}, .save = {"self"},
       .save_result = true, .formula = median_all_backward},
      // median.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices):
      //   to the element each value came from
      {.op = "median.dim", .node = "MedianBackward1", .inputs = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         return {indexed_reduction_backward(c, g[0], c.result(1), c.value("dim").to_int(),
                                            c.value("keepdim").to_bool())};
       },
       .outputs = 1},
      {.op = "nanmedian.dim", .node = "NanmedianBackward1", .inputs = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         return {indexed_reduction_backward(c, g[0], c.result(1), c.value("dim").to_int(),
                                            c.value("keepdim").to_bool())};
       },
       .outputs = 1},
  };
}
// clang-format on

}  // namespace opscope::autograd
