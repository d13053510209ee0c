// The derivative table's sorting family (see core/autograd/Derivatives.h; core/ops/sorting.h): the
// values go back where they came from (their indices).
#include "core/autograd/derivatives/common.h"

namespace opscope::autograd {

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
  };
}
// clang-format on

}  // namespace opscope::autograd
