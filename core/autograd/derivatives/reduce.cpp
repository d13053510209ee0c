// The derivative table's reduce family (see core/autograd/Derivatives.h; core/ops/reduce.h): a
// result over dims. The gradient is put back over the reduced dims (unreduce), shared among the
// extremes, or through the scan or softmax it came from.
#include <cmath>
#include <limits>

#include "core/autograd/GradMode.h"
#include "core/autograd/derivatives/common.h"
#include "core/ops/binary.h"
#include "core/ops/compare.h"
#include "core/ops/nn.h"
#include "core/ops/reduce.h"
#include "core/ops/shape.h"
#include "core/ops/unary.h"
#include "core/ops/views.h"

namespace opscope::autograd {

namespace {

using namespace formulas;

// amax / amin (self, dim, keepdim): g shared among the extremes of each reduction.
variable_list extreme_over_dims_backward(C c, G g) {
  auto dims = reduced_dims(c.value("dim"), c.sizes("self").size());
  bool keep = c.value("keepdim").to_bool();
  Tensor r = unreduce(c.result(), c.sizes("self"), dims, keep);
  return {
      ops::mul(unreduce(g[0], c.sizes("self"), dims, keep), even_share(c.arg("self"), r, dims))};
}
// max() / min() of every element.
variable_list extreme_backward(C c, G g) {
  auto dims = reduced_dims(IValue(), c.sizes("self").size());
  return {ops::mul(ops::expand(g[0], c.sizes("self")),
                   even_share(c.arg("self"), ops::expand(c.result(), c.sizes("self")), dims))};
}
// max.dim / min.dim (self, dim, keepdim) -> (values, indices): g back at the indices.
variable_list extreme_dim_backward(C c, G g) {
  return {indexed_reduction_backward(c, g[0], c.result(1), c.value("dim").to_int(),
                                     c.value("keepdim").to_bool())};
}

// The product of every element of x along dim but the one in place: the exclusive cumulative
// products from the left and from the right, multiplied (no division, so zeros are fine).
Tensor product_of_others(const Tensor& x, int64_t dim) {
  const int64_t nd = x.dim(), n = x.size(dim);
  std::vector<int64_t> pad(static_cast<size_t>(2 * (nd - dim)), 0);
  pad[static_cast<size_t>(2 * (nd - 1 - dim))] = 1;  // one 1 before the first element of dim
  auto exclusive = [&](const Tensor& t) {
    return ops::cumprod(ops::narrow(ops::constant_pad_nd(t, pad, 1), dim, 0, n), dim);
  };
  int64_t d[1] = {dim};
  return ops::mul(exclusive(x),
                  ops::flip(exclusive(ops::flip(x, IntArrayRef(d, 1))), IntArrayRef(d, 1)));
}

// The gradient of the p-norm of self over `dims` (linalg_vector_norm, norm):
//   p = 0: none; p = 1: sign(x); p = +-inf: sign(x), shared among the extremes;
//   otherwise x |x|^(p-2) / norm^(p-1), 0 where the norm is 0.
Tensor norm_backward(C c, const Tensor& g, double p, const std::vector<int64_t>& dims, bool keep) {
  Tensor x = c.arg("self"), gfull = unreduce(g, c.sizes("self"), dims, keep);
  if (p == 0.0) return zeros_like_arg(c, "self");
  if (p == 1.0) return ops::mul(gfull, ops::sign(x));
  Tensor norm = unreduce(c.result(), c.sizes("self"), dims, keep);
  if (std::isinf(p))
    return ops::mul(ops::mul(gfull, ops::sign(x)), even_share(ops::abs(x), norm, dims));
  Tensor d = p == 2.0 ? ops::div(x, norm)
                      : ops::div(ops::mul(x, ops::pow(ops::abs(x), Scalar(p - 2))),
                                 ops::pow(norm, Scalar(p - 1)));
  return ops::mul(gfull, ops::where(ops::eq(norm, Scalar(0)), Scalar(0.0), d));
}

// var / std's shared part: 2 (x - mean) / (N - correction), times the gradient of the variance.
Tensor variance_backward(C c, const Tensor& gvar, const std::vector<int64_t>& dims, bool keep) {
  double corr =
      c.value("correction").is_none() ? 1.0 : static_cast<double>(c.value("correction").to_int());
  Tensor x = c.arg("self");
  Tensor centered = ops::sub(x, ops::mean(x, IntArrayRef(dims), true, std::nullopt));
  double n = static_cast<double>(count(c.sizes("self"), dims));
  return ops::mul(ops::mul(unreduce(gvar, c.sizes("self"), dims, keep), centered),
                  2.0 / (n - corr));
}

// mean's gradient over `dims`.
Tensor mean_backward(C c, const Tensor& g, const std::vector<int64_t>& dims, bool keep) {
  return ops::div(unreduce(g, c.sizes("self"), dims, keep), Scalar(count(c.sizes("self"), dims)));
}

}  // namespace

namespace {

using namespace formulas;

// See the logcumsumexp entry below.
variable_list logcumsumexp_backward(C c, G g) {
  Tensor grad = g[0], self = c.arg("self"), result = c.result();
  if (grad.numel() == 0) return {grad};
  const int64_t dim = c.value("dim").to_int();
  const std::vector<int64_t> d = {self.dim() == 0 ? 0 : wrap_dim(dim, self.dim())};
  auto reversed_logcumsumexp = [&](const Tensor& x) {
    return ops::flip(ops::logcumsumexp(ops::flip(x, d), dim), d);
  };
  // The dtype's lowest finite value stands for log 0 (-inf would make -inf - -inf = NaN in the
  // logcumsumexp's own gradient, and so in second derivatives).
  const double lowest = grad.dtype() == ScalarType::Float64  ? std::numeric_limits<double>::lowest()
                        : grad.dtype() == ScalarType::BFloat16 ? -3.3895313892515355e38
                        : grad.dtype() == ScalarType::Float16  ? -65504.0
                                                               : std::numeric_limits<float>::lowest();
  Tensor log_abs = ops::log(ops::abs(grad));
  Tensor log_positive = ops::where(ops::gt(grad, Scalar(0)), log_abs, Scalar(lowest));
  Tensor log_negative = ops::where(ops::lt(grad, Scalar(0)), log_abs, Scalar(lowest));
  Tensor positive = ops::exp(ops::add(reversed_logcumsumexp(ops::sub(log_positive, result)), self));
  Tensor negative = ops::exp(ops::add(reversed_logcumsumexp(ops::sub(log_negative, result)), self));
  return {ops::sub(positive, negative)};
}

}  // namespace

// clang-format off
std::vector<Derivative> reduce_derivatives() {
  return {
      // sum(Tensor self, *, ScalarType? dtype=None) -> Tensor: g everywhere
      {.op = "sum", .node = "SumBackward0", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list { return {ops::expand(g[0], c.sizes("self"))}; }},
      // trace(Tensor self) -> Tensor: sum_i self[i, i], so g on the diagonal, 0 elsewhere
      {.op = "trace", .node = "TraceBackward0", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         auto sizes = c.sizes("self");
         return {ops::mul(ops::eye(sizes[0], sizes[1], c.dtype("self"), std::nullopt, c.device()), g[0])};
       }},
      // sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None)
      {.op = "sum.dim_IntList", .node = "SumBackward1", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         auto dims = reduced_dims(c.value("dim"), c.sizes("self").size());
         return {unreduce(g[0], c.sizes("self"), dims, c.value("keepdim").to_bool())};
       }},
      // nansum(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None):
      //   g where self is a number, 0 at its NaNs
      {.op = "nansum", .node = "NansumBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         Tensor self = c.arg("self");
         auto dims = reduced_dims(c.value("dim"), c.sizes("self").size());
         Tensor spread = unreduce(ops::to(g[0], self.dtype()), c.sizes("self"), dims,
                                  c.value("keepdim").to_bool());
         return {ops::mul(spread, ops::logical_not(ops::isnan(self)))};
       }},
      // mean(Tensor self, *, ScalarType? dtype=None) -> Tensor: g / numel everywhere
      {.op = "mean", .node = "MeanBackward0", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         auto dims = reduced_dims(IValue(), c.sizes("self").size());
         return {ops::div(ops::expand(g[0], c.sizes("self")), Scalar(count(c.sizes("self"), dims)))};
       }},
      // mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None)
      {.op = "mean.dim", .node = "MeanBackward1", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         auto dims = reduced_dims(c.value("dim"), c.sizes("self").size());
         Tensor full = unreduce(g[0], c.sizes("self"), dims, c.value("keepdim").to_bool());
         return {ops::div(full, Scalar(count(c.sizes("self"), dims)))};
       }},
      // _softmax(Tensor self, int dim, bool half_to_float) -> Tensor:
      //   result * (g - sum(g * result, dim)): _softmax_backward_data as torch's; under
      //   create_graph the same from differentiable ops
      {.op = "_softmax", .node = "SoftmaxBackward0", .inputs = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         Tensor y = c.result();
         if (!grad_mode_enabled())
           return {ops::_softmax_backward_data(g[0], y, c.value("dim").to_int(), c.dtype("self"))};
         int64_t dims[1] = {c.value("dim").to_int()};
         Tensor s = ops::sum(ops::mul(g[0], y), IntArrayRef(dims, 1), true, std::nullopt);
         return {ops::mul(y, ops::sub(g[0], s))};
       }},
      // _log_softmax(Tensor self, int dim, bool half_to_float) -> Tensor:
      //   g - exp(result) * sum(g, dim): _log_softmax_backward_data as torch's; under
      //   create_graph the same from differentiable ops
      {.op = "_log_softmax", .node = "LogSoftmaxBackward0", .inputs = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         if (!grad_mode_enabled())
           return {ops::_log_softmax_backward_data(g[0], c.result(), c.value("dim").to_int(),
                                                   c.dtype("self"))};
         int64_t dims[1] = {c.value("dim").to_int()};
         Tensor s = ops::sum(g[0], IntArrayRef(dims, 1), true, std::nullopt);
         return {ops::sub(g[0], ops::mul(ops::exp(c.result()), s))};
       }},
      // amax(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor: shared among the maxima
      {.op = "amax", .node = "AmaxBackward0", .inputs = {"self"}, .save = {"self"},
       .save_result = true, .formula = extreme_over_dims_backward},
      // amin(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor
      {.op = "amin", .node = "AminBackward0", .inputs = {"self"}, .save = {"self"},
       .save_result = true, .formula = extreme_over_dims_backward},
      // max(Tensor self) -> Tensor / min(Tensor self) -> Tensor: shared among the extremes
      {.op = "max", .node = "MaxBackward1", .inputs = {"self"}, .save = {"self"},
       .save_result = true, .formula = extreme_backward},
      {.op = "min", .node = "MinBackward1", .inputs = {"self"}, .save = {"self"},
       .save_result = true, .formula = extreme_backward},
      // max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
      {.op = "max.dim", .node = "MaxBackward0", .inputs = {"self"}, .save_result = true,
       .formula = extreme_dim_backward, .outputs = 1},
      // min.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
      {.op = "min.dim", .node = "MinBackward0", .inputs = {"self"}, .save_result = true,
       .formula = extreme_dim_backward, .outputs = 1},
      // var.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) -> Tensor:
      //   2 (x - mean) / (N - correction)
      {.op = "var.correction", .node = "VarBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         auto dims = reduced_dims(c.value("dim"), c.sizes("self").size());
         double corr = c.value("correction").is_none() ? 1.0 : static_cast<double>(c.value("correction").to_int());
         Tensor x = c.arg("self");
         Tensor centered = ops::sub(x, ops::mean(x, IntArrayRef(dims), true, std::nullopt));
         Tensor gfull = unreduce(g[0], c.sizes("self"), dims, c.value("keepdim").to_bool());
         double n = static_cast<double>(count(c.sizes("self"), dims));
         return {ops::mul(ops::mul(gfull, centered), 2.0 / (n - corr))};
       }},
      // std.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) -> Tensor:
      //   var's gradient times 1 / (2 result)
      {.op = "std.correction", .node = "StdBackward0", .inputs = {"self"}, .save = {"self"},
       .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         auto dims = reduced_dims(c.value("dim"), c.sizes("self").size());
         double corr = c.value("correction").is_none() ? 1.0 : static_cast<double>(c.value("correction").to_int());
         bool keep = c.value("keepdim").to_bool();
         Tensor x = c.arg("self");
         Tensor centered = ops::sub(x, ops::mean(x, IntArrayRef(dims), true, std::nullopt));
         Tensor gstd = unreduce(ops::div(g[0], ops::mul(c.result(), 2.0)), c.sizes("self"), dims, keep);
         double n = static_cast<double>(count(c.sizes("self"), dims));
         return {ops::mul(ops::mul(gstd, centered), 2.0 / (n - corr))};
       }},
      // logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor: exp(self - result)
      {.op = "logsumexp", .node = "LogsumexpBackward0", .inputs = {"self"}, .save = {"self"},
       .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         auto dims = reduced_dims(c.value("dim"), c.sizes("self").size());
         bool keep = c.value("keepdim").to_bool();
         Tensor r = unreduce(c.result(), c.sizes("self"), dims, keep);
         return {ops::mul(unreduce(g[0], c.sizes("self"), dims, keep), ops::exp(ops::sub(c.arg("self"), r)))};
       }},
      // mode(Tensor self, int dim=-1, bool keepdim=False) -> (Tensor values, Tensor indices):
      //   to the element each value came from (value_selecting_reduction_backward)
      {.op = "mode", .node = "ModeBackward0", .inputs = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         return {indexed_reduction_backward(c, g[0], c.result(1), c.value("dim").to_int(),
                                            c.value("keepdim").to_bool())};
       },
       .outputs = 1},
      // aminmax(Tensor self, *, int? dim=None, bool keepdim=False) -> (Tensor min, Tensor max):
      //   no derivative in torch 1.13, whose node is named NotImplemented and fails in backward
      {.op = "aminmax", .node = "NotImplemented", .inputs = {"self"},
       .formula = [](C, G) -> variable_list {
         throw Error("derivative for aten::aminmax is not implemented");
       }},
      // bincount(Tensor self, Tensor? weights=None, int minlength=0) -> Tensor: no derivative for
      //   the weights in torch 1.13, whose node is named NotImplemented and fails in backward
      {.op = "bincount", .node = "NotImplemented", .inputs = {"weights"},
       .formula = [](C, G) -> variable_list {
         throw Error("derivative for aten::bincount is not implemented");
       }},
      // cummax(Tensor self, int dim) -> (Tensor values, Tensor indices): to where each running
      //   maximum came from (cummaxmin_backward: a scatter_add at the indices)
      {.op = "cummax", .node = "CummaxBackward0", .inputs = {"self"}, .save = {"self"},
       .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         return {ops::cummaxmin_backward(g[0], c.arg("self"), c.result(1), c.value("dim").to_int())};
       },
       .outputs = 1},
      // cummin(Tensor self, int dim) -> (Tensor values, Tensor indices)
      {.op = "cummin", .node = "CumminBackward0", .inputs = {"self"}, .save = {"self"},
       .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         return {ops::cummaxmin_backward(g[0], c.arg("self"), c.result(1), c.value("dim").to_int())};
       },
       .outputs = 1},
      // logcumsumexp(Tensor self, int dim) -> Tensor: out[k] = log Σ_{j≤k} e^x[j], so
      //   dx[j] = e^x[j] Σ_{k≥j} g[k] e^-out[k]; the positive and negative parts of g are summed
      //   apart, in log space (a reversed logcumsumexp), so nothing overflows
      {.op = "logcumsumexp", .node = "LogcumsumexpBackward0", .inputs = {"self"}, .save = {"self"},
       .save_result = true, .formula = logcumsumexp_backward},
      // cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor: the reversed cumsum
      {.op = "cumsum", .node = "CumsumBackward0", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         int64_t d[1] = {c.value("dim").to_int()};
         IntArrayRef dim(d, 1);
         return {ops::flip(ops::cumsum(ops::flip(g[0], dim), d[0]), dim)};
       },
       .inplace = {"cumsum_"}},
      // prod(Tensor self, *, ScalarType? dtype=None) -> Tensor: the product of the others
      {.op = "prod", .node = "ProdBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         Tensor flat = ops::reshape(c.arg("self"), {-1});
         return {ops::mul(g[0], ops::reshape(product_of_others(flat, 0), c.sizes("self")))};
       }},
      // prod.dim_int(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None)
      {.op = "prod.dim_int", .node = "ProdBackward1", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("self");
         if (x.dim() == 0) return {g[0]};
         int64_t d = wrap_dim(c.value("dim").to_int(), x.dim());
         Tensor gfull = unreduce(g[0], c.sizes("self"), {d}, c.value("keepdim").to_bool());
         return {ops::mul(gfull, product_of_others(x, d))};
       }},
      // cumprod(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor:
      //   the reversed cumsum of g * result, divided by self (inputs without zeros)
      {.op = "cumprod", .node = "CumprodBackward0", .inputs = {"self"}, .save = {"self"},
       .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         int64_t d[1] = {c.value("dim").to_int()};
         IntArrayRef dim(d, 1);
         Tensor s = ops::flip(ops::cumsum(ops::flip(ops::mul(g[0], c.result()), dim), d[0]), dim);
         return {ops::div(s, c.arg("self"))};
       },
       .inplace = {"cumprod_"}},
      // var_mean.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False)
      //   -> (Tensor, Tensor)
      {.op = "var_mean.correction", .node = "VarMeanBackward0", .inputs = {"self"},
       .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         auto dims = reduced_dims(c.value("dim"), c.sizes("self").size());
         bool keep = c.value("keepdim").to_bool();
         return {ops::add(variance_backward(c, g[0], dims, keep), mean_backward(c, g[1], dims, keep))};
       }},
      // std_mean.correction(...) -> (Tensor, Tensor): std's part is var's times 1 / (2 std)
      {.op = "std_mean.correction", .node = "StdMeanBackward0", .inputs = {"self"},
       .save = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         auto dims = reduced_dims(c.value("dim"), c.sizes("self").size());
         bool keep = c.value("keepdim").to_bool();
         Tensor gvar = ops::div(g[0], ops::mul(c.result(0), 2.0));
         return {ops::add(variance_backward(c, gvar, dims, keep), mean_backward(c, g[1], dims, keep))};
       }},
      // linalg_vector_norm(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *,
      //                    ScalarType? dtype=None) -> Tensor
      {.op = "linalg_vector_norm", .node = "LinalgVectorNormBackward0", .inputs = {"self"},
       .save = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         auto dims = reduced_dims(c.value("dim"), c.sizes("self").size());
         return {norm_backward(c, g[0], c.value("ord").to_double(), dims, c.value("keepdim").to_bool())};
       }},
      // norm.Scalar(Tensor self, Scalar p=2) -> Tensor
      {.op = "norm.Scalar", .node = "NormBackward0", .inputs = {"self"}, .save = {"self"},
       .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         auto dims = reduced_dims(IValue(), c.sizes("self").size());
         return {norm_backward(c, g[0], c.value("p").to_double(), dims, false)};
       }},
      // norm.ScalarOpt_dim(Tensor self, Scalar? p, int[1] dim, bool keepdim=False) -> Tensor
      {.op = "norm.ScalarOpt_dim", .node = "NormBackward1", .inputs = {"self"}, .save = {"self"},
       .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         auto dims = reduced_dims(c.value("dim"), c.sizes("self").size());
         double p = c.value("p").is_none() ? 2.0 : c.value("p").to_double();
         return {norm_backward(c, g[0], p, dims, c.value("keepdim").to_bool())};
       }},
  };
}
// clang-format on

}  // namespace opscope::autograd
