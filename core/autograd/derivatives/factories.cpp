// The derivative table's factories family (see core/autograd/Derivatives.h; core/ops/factories.h):
// the random samplers. What they write does not depend on their inputs' values, so each gradient
// is zero (torch's NormalBackward*, BernoulliBackward*, ...): an in-place fill of a tensor that
// needs a gradient gives none to what it overwrote.
#include "core/autograd/derivatives/common.h"
#include "core/ops/factories.h"

namespace opscope::autograd {

namespace {

// Zeros for every tensor argument whose gradient is wanted.
variable_list zeros_for(formulas::C c, std::initializer_list<Arg> args) {
  variable_list grads;
  for (Arg a : args)
    grads.push_back(c.needs(a) ? formulas::zeros_like_arg(c, a) : Tensor());
  return grads;
}

}  // namespace

// clang-format off
std::vector<Derivative> factories_derivatives() {
  using namespace formulas;
  return {
      // the in-place fills: normal_, uniform_, exponential_, random_ (3), bernoulli_ (2)
      {.op = "normal_", .node = "NormalBackward0", .inputs = {"self"},
       .formula = [](C c, G) -> variable_list { return zeros_for(c, {"self"}); }},
      {.op = "uniform_", .node = "UniformBackward0", .inputs = {"self"},
       .formula = [](C c, G) -> variable_list { return zeros_for(c, {"self"}); }},
      {.op = "exponential_", .node = "ExponentialBackward0", .inputs = {"self"},
       .formula = [](C c, G) -> variable_list { return zeros_for(c, {"self"}); }},
      {.op = "random_.from", .node = "RandomBackward0", .inputs = {"self"},
       .formula = [](C c, G) -> variable_list { return zeros_for(c, {"self"}); }},
      {.op = "random_.to", .node = "RandomBackward1", .inputs = {"self"},
       .formula = [](C c, G) -> variable_list { return zeros_for(c, {"self"}); }},
      {.op = "random_", .node = "RandomBackward2", .inputs = {"self"},
       .formula = [](C c, G) -> variable_list { return zeros_for(c, {"self"}); }},
      {.op = "bernoulli_.Tensor", .node = "BernoulliBackward1", .inputs = {"self", "p"},
       .formula = [](C c, G) -> variable_list { return zeros_for(c, {"self", "p"}); }},
      {.op = "bernoulli_.float", .node = "BernoulliBackward2", .inputs = {"self"},
       .formula = [](C c, G) -> variable_list { return zeros_for(c, {"self"}); }},
      // the samples as new tensors
      {.op = "bernoulli", .node = "BernoulliBackward0", .inputs = {"self"},
       .formula = [](C c, G) -> variable_list { return zeros_for(c, {"self"}); }},
      {.op = "normal.Tensor_float", .node = "NormalBackward1", .inputs = {"mean"},
       .formula = [](C c, G) -> variable_list { return zeros_for(c, {"mean"}); }},
      {.op = "normal.float_Tensor", .node = "NormalBackward2", .inputs = {"std"},
       .formula = [](C c, G) -> variable_list { return zeros_for(c, {"std"}); }},
      {.op = "normal.Tensor_Tensor", .node = "NormalBackward3", .inputs = {"mean", "std"},
       .formula = [](C c, G) -> variable_list { return zeros_for(c, {"mean", "std"}); }},
  };
}
// clang-format on

}  // namespace opscope::autograd
