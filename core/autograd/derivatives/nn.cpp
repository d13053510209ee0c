// The derivative table's nn family (see core/autograd/Derivatives.h; core/ops/nn.h): activations,
// losses, layer norm, dropout, embedding and padding.
#include "core/autograd/GradMode.h"
#include "core/autograd/derivatives/common.h"
#include "core/ops/binary.h"
#include "core/ops/compare.h"
#include "core/ops/copy.h"
#include "core/ops/indexing.h"
#include "core/ops/nn.h"
#include "core/ops/reduce.h"
#include "core/ops/unary.h"
#include "core/ops/views.h"

namespace opscope::autograd {

// clang-format off
std::vector<Derivative> nn_derivatives() {
  using namespace formulas;
  return {
      // relu(Tensor self) -> Tensor: 1 where result > 0
      {.op = "relu", .node = "ReluBackward0", .inputs = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         return {ops::mul(g[0], ops::gt(c.result(), Scalar(0)))};
       },
       .inplace = {"relu_"}},
      // gelu(Tensor self, *, str approximate="none") -> Tensor
      //   none: Phi(x) + x phi(x); tanh: d/dx 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
      {.op = "gelu", .node = "GeluBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("self");
         if (c.value("approximate").to_string() == "tanh") {
           constexpr double kBeta = 0.7978845608028654, kKappa = 0.044715;  // sqrt(2/pi)
           Tensor x2 = ops::mul(x, x);
           Tensor inner = ops::mul(ops::add(x, ops::mul(ops::mul(x2, x), kKappa)), kBeta);
           Tensor t = ops::tanh(inner);
           Tensor left = ops::mul(ops::add(t, Scalar(1)), 0.5);
           Tensor dinner = ops::mul(ops::add(ops::mul(x2, 3 * kKappa), Scalar(1)), kBeta);
           Tensor right = ops::mul(ops::mul(ops::mul(x, 0.5), ops::rsub(ops::mul(t, t), Scalar(1))),
                                   dinner);
           return {ops::mul(g[0], ops::add(left, right))};
         }
         Tensor cdf = ops::mul(ops::add(ops::erf(ops::mul(x, 0.7071067811865476)), Scalar(1)), 0.5);
         Tensor pdf = ops::mul(ops::exp(ops::mul(ops::mul(x, x), -0.5)), 0.3989422804014327);
         return {ops::mul(g[0], ops::add(cdf, ops::mul(x, pdf)))};
       },
       .inplace = {"gelu_"}},
      // silu(Tensor self) -> Tensor: s (1 + x (1 - s)), s = sigmoid(x)
      {.op = "silu", .node = "SiluBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("self"), sg = ops::sigmoid(x);
         Tensor d = ops::mul(sg, ops::add(ops::mul(x, ops::rsub(sg, Scalar(1))), Scalar(1)));
         return {ops::mul(g[0], d)};
       },
       .inplace = {"silu_"}},
      // softplus(Tensor self, Scalar beta=1, Scalar threshold=20) -> Tensor:
      //   sigmoid(beta x), 1 where beta x > threshold (there the result is x itself)
      {.op = "softplus", .node = "SoftplusBackward0", .inputs = {"self"}, .save = {"self"},
       .formula = [](C c, G g) -> variable_list {
         Tensor bx = ops::mul(c.arg("self"), c.value("beta").to_scalar());
         Tensor d = ops::where(ops::gt(bx, c.value("threshold").to_scalar()), Scalar(1.0), ops::sigmoid(bx));
         return {ops::mul(g[0], d)};
       }},
      // nll_loss_forward(Tensor self, Tensor target, Tensor? weight, int reduction,
      //                  int ignore_index) -> (Tensor output, Tensor total_weight)
      //   self (N,C) or (C), target (N) or (); d/dself[n, target[n]] = -weight[target[n]] * g
      //   (divided by the total weight for the mean), 0 for ignored targets
      {.op = "nll_loss_forward", .node = "NllLossBackward0", .inputs = {"self"},
       .save = {"target", "weight"},
       .formula = [](C c, G g) -> variable_list {
         Tensor target = c.arg("target"), weight = c.arg("weight");
         int64_t reduction = c.value("reduction").to_int(), ignore = c.value("ignore_index").to_int();
         int64_t classes = c.sizes("self").back();
         Tensor valid = ops::ne(target, Scalar(ignore));
         Tensor safe = ops::where(valid, target, Scalar(int64_t{0}));
         Tensor coef = ops::to(valid, c.dtype("self"));
         if (weight.defined())
           coef = ops::mul(coef, ops::view(ops::index_select(weight, 0, ops::reshape(safe, {-1})),
                                           safe.sizes()));
         if (reduction == 1) coef = ops::div(coef, ops::sum(coef, ops::OptScalarType{}));
         coef = ops::mul(coef, g[0]);
         return {ops::neg(ops::mul(ops::one_hot(safe, classes), ops::unsqueeze(coef, -1)))};
       },
       .outputs = 1},
      // mse_loss(Tensor self, Tensor target, int reduction=1) -> Tensor: 2 (self - target)
      {.op = "mse_loss", .node = "MseLossBackward0", .inputs = {"self", "target"},
       .save = {"self", "target"},
       .formula = [](C c, G g) -> variable_list {
         Tensor d = ops::mul(ops::mul(ops::sub(c.arg("self"), c.arg("target")), g[0]), 2.0);
         if (c.value("reduction").to_int() == 1) {
           int64_t n = 1;
           for (int64_t s : c.sizes("self")) n *= s;
           d = ops::div(d, Scalar(n));
         }
         return {c.needs("self") ? d : Tensor(), c.needs("target") ? ops::neg(d) : Tensor()};
       }},
      // binary_cross_entropy(Tensor self, Tensor target, Tensor? weight=None, int reduction=1):
      //   (self - target) / (self (1 - self)), the denominator at least 1e-12
      {.op = "binary_cross_entropy", .node = "BinaryCrossEntropyBackward0", .inputs = {"self"},
       .save = {"self", "target", "weight"},
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("self"), y = c.arg("target"), w = c.arg("weight");
         Tensor den = ops::clamp_min(ops::mul(x, ops::rsub(x, Scalar(1))), Scalar(1e-12));
         Tensor d = ops::mul(ops::div(ops::sub(x, y), den), g[0]);
         if (w.defined()) d = ops::mul(d, w);
         if (c.value("reduction").to_int() == 1) {
           int64_t n = 1;
           for (int64_t s : c.sizes("self")) n *= s;
           d = ops::div(d, Scalar(n));
         }
         return {d};
       }},
      // native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias,
      //                   float eps) -> (Tensor out, Tensor mean, Tensor rstd)
      //   xhat = (x - mean) rstd; dx = rstd (dxhat - mean(dxhat) - xhat mean(dxhat xhat)) over the
      //   normalized dims, dxhat = g weight; dweight = g xhat, dbias = g (the engine sums them
      //   down to weight's and bias's shape)
      {.op = "native_layer_norm", .node = "NativeLayerNormBackward0",
       .inputs = {"input", "weight", "bias"}, .save = {"input", "weight"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("input"), w = c.arg("weight"), mean = c.result(1), rstd = c.result(2);
         size_t k = c.value("normalized_shape").to_int_list().size(), nd = c.sizes("input").size();
         std::vector<int64_t> dims;
         for (size_t d = nd - k; d < nd; ++d) dims.push_back(static_cast<int64_t>(d));
         if (grad_mode_enabled()) {  // create_graph: mean and rstd as functions of x
           mean = ops::mean(x, IntArrayRef(dims), true, std::nullopt);
           Tensor var = ops::var(x, IntArrayRef(dims), int64_t{0}, true);
           rstd = ops::reciprocal(ops::sqrt(ops::add(var, Scalar(c.value("eps").to_double()))));
         }
         Tensor xhat = ops::mul(ops::sub(x, mean), rstd);
         Tensor dxhat = w.defined() ? ops::mul(g[0], w) : g[0];
         Tensor dx;
         if (c.needs("input")) {
           Tensor m1 = ops::mean(dxhat, IntArrayRef(dims), true, std::nullopt);
           Tensor m2 = ops::mean(ops::mul(dxhat, xhat), IntArrayRef(dims), true, std::nullopt);
           dx = ops::mul(rstd, ops::sub(ops::sub(dxhat, m1), ops::mul(xhat, m2)));
         }
         return {dx, c.needs("weight") ? ops::mul(g[0], xhat) : Tensor(), c.needs("bias") ? g[0] : Tensor()};
       },
       .outputs = 1},
      // native_dropout(Tensor input, float p, bool? train) -> (Tensor, Tensor mask):
      //   mask / (1 - p) in training, 1 otherwise
      {.op = "native_dropout", .node = "NativeDropoutBackward0", .inputs = {"input"},
       .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         bool train = c.value("train").is_none() || c.value("train").to_bool();
         if (!train) return {g[0]};
         double p = c.value("p").to_double();
         return {ops::mul(ops::mul(g[0], c.result(1)), p == 1.0 ? 0.0 : 1.0 / (1.0 - p))};
       },
       .outputs = 1},
      // embedding(Tensor weight, Tensor indices, int padding_idx=-1, ...) -> Tensor:
      //   each row of g summed into the row of weight it came from; padding_idx gets none
      {.op = "embedding", .node = "EmbeddingBackward0", .inputs = {"weight"}, .save = {"indices"},
       .formula = [](C c, G g) -> variable_list {
         Tensor idx = ops::reshape(c.arg("indices"), {-1});
         int64_t dim = c.sizes("weight").back(), pad = c.value("padding_idx").to_int();
         Tensor rows = ops::reshape(g[0], {-1, dim});
         if (pad >= 0) rows = ops::mul(rows, ops::unsqueeze(ops::ne(idx, Scalar(pad)), 1));
         return {ops::index_add(zeros_like_arg(c, "weight"), 0, idx, rows)};  // IndexAddBackward0 again
       }},
      // binary_cross_entropy_with_logits(Tensor self, Tensor target, Tensor? weight=None,
      //                                  Tensor? pos_weight=None, int reduction=1) -> Tensor:
      //   l = (1 - t) x + (1 + (pw - 1) t) softplus(-x);
      //   dl/dx = (1 - t) - (1 + (pw - 1) t) (1 - sigmoid(x)) (sigmoid(x) - t without pw),
      //   dl/dt = -x + (pw - 1) softplus(-x)
      {.op = "binary_cross_entropy_with_logits", .node = "BinaryCrossEntropyWithLogitsBackward0",
       .inputs = {"self", "target"}, .save = {"self", "target", "weight", "pos_weight"},
       .formula = [](C c, G g) -> variable_list {
         Tensor x = c.arg("self"), t = c.arg("target"), w = c.arg("weight"), pw = c.arg("pos_weight"), dx, dt;
         if (pw.defined()) {
           Tensor coef = ops::add(ops::mul(ops::sub(pw, Scalar(1)), t), Scalar(1));
           dx = ops::sub(ops::rsub(t, Scalar(1)), ops::mul(coef, ops::rsub(ops::sigmoid(x), Scalar(1))));
           dt = ops::sub(ops::mul(ops::sub(pw, Scalar(1)), ops::softplus(ops::neg(x))), x);
         } else {
           dx = ops::sub(ops::sigmoid(x), t);
           dt = ops::neg(x);
         }
         Tensor scale = w.defined() ? ops::mul(g[0], w) : g[0];
         if (c.value("reduction").to_int() == 1) scale = ops::div(scale, Scalar(count(c.sizes("self"),
             reduced_dims(IValue(), c.sizes("self").size()))));
         return {c.needs("self") ? ops::mul(dx, scale) : Tensor(), c.needs("target") ? ops::mul(dt, scale) : Tensor()};
       }},
      // constant_pad_nd(Tensor self, SymInt[] pad, Scalar value=0) -> Tensor: the padding cut off
      // again (a negative pad, which cropped, pads the gradient with zeros)
      {.op = "constant_pad_nd", .node = "ConstantPadNdBackward0", .inputs = {"self"},
       .formula = [](C c, G g) -> variable_list {
         std::vector<int64_t> back;
         for (int64_t p : c.value("pad").to_int_list()) back.push_back(-p);
         return {ops::constant_pad_nd(g[0], back, 0)};
       }},
  };
}
// clang-format on

}  // namespace opscope::autograd
