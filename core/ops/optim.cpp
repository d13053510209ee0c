// The optimizer family's schemas (see core/ops/optim.h): torch 2.x's foreach ops and fused
// optimizer steps, as native_functions.yaml writes them. Their CPU kernels and rows are in
// core/ops/cpu/optim.cpp. A foreach op's lists are indexed alike: self[i] with other[i].
#include "core/ops/optim.h"

#include "core/dispatch/Library.h"

namespace opscope {

static Library optim_ops(Library::FRAGMENT, "aten", [](Library& m) {
  constexpr auto F = Variants::Function;  // torch._foreach_add_(...), never a method
  // self[i] (*), other[i] (*) -> self[i] + alpha * other[i]; .Scalar: self[i] + scalar
  m.def("_foreach_add.Scalar(Tensor[] self, Scalar scalar) -> Tensor[]", F);
  m.def("_foreach_add_.Scalar(Tensor(a!)[] self, Scalar scalar) -> ()", F);
  m.def("_foreach_add.List(Tensor[] self, Tensor[] other, *, Scalar alpha=1) -> Tensor[]", F);
  m.def("_foreach_add_.List(Tensor(a!)[] self, Tensor[] other, *, Scalar alpha=1) -> ()", F);
  // self[i] - alpha * other[i]; .Scalar: self[i] - scalar
  m.def("_foreach_sub.Scalar(Tensor[] self, Scalar scalar) -> Tensor[]", F);
  m.def("_foreach_sub_.Scalar(Tensor(a!)[] self, Scalar scalar) -> ()", F);
  m.def("_foreach_sub.List(Tensor[] self, Tensor[] other, *, Scalar alpha=1) -> Tensor[]", F);
  m.def("_foreach_sub_.List(Tensor(a!)[] self, Tensor[] other, *, Scalar alpha=1) -> ()", F);
  // self[i] * other[i]; .Scalar: self[i] * scalar
  m.def("_foreach_mul.Scalar(Tensor[] self, Scalar scalar) -> Tensor[]", F);
  m.def("_foreach_mul_.Scalar(Tensor(a!)[] self, Scalar scalar) -> ()", F);
  m.def("_foreach_mul.List(Tensor[] self, Tensor[] other) -> Tensor[]", F);
  m.def("_foreach_mul_.List(Tensor(a!)[] self, Tensor[] other) -> ()", F);
  // self[i] / other[i]; .Scalar: self[i] / scalar
  m.def("_foreach_div.Scalar(Tensor[] self, Scalar scalar) -> Tensor[]", F);
  m.def("_foreach_div_.Scalar(Tensor(a!)[] self, Scalar scalar) -> ()", F);
  m.def("_foreach_div.List(Tensor[] self, Tensor[] other) -> Tensor[]", F);
  m.def("_foreach_div_.List(Tensor(a!)[] self, Tensor[] other) -> ()", F);
  // max(self[i], other[i]), NaN when either is
  m.def("_foreach_maximum.List(Tensor[] self, Tensor[] other) -> Tensor[]", F);
  m.def("_foreach_maximum_.List(Tensor(a!)[] self, Tensor[] other) -> ()", F);
  // self[i] + value * tensor1[i] * tensor2[i]
  m.def("_foreach_addcmul.Scalar(Tensor[] self, Tensor[] tensor1, Tensor[] tensor2, "
        "Scalar value=1) -> Tensor[]", F);
  m.def("_foreach_addcmul_.Scalar(Tensor(a!)[] self, Tensor[] tensor1, Tensor[] tensor2, "
        "Scalar value=1) -> ()", F);
  // self[i] + value * tensor1[i] / tensor2[i]
  m.def("_foreach_addcdiv.Scalar(Tensor[] self, Tensor[] tensor1, Tensor[] tensor2, "
        "Scalar value=1) -> Tensor[]", F);
  m.def("_foreach_addcdiv_.Scalar(Tensor(a!)[] self, Tensor[] tensor1, Tensor[] tensor2, "
        "Scalar value=1) -> ()", F);
  // self[i] + weight * (tensors1[i] - self[i])
  m.def("_foreach_lerp.Scalar(Tensor[] self, Tensor[] tensors1, Scalar weight) -> Tensor[]", F);
  m.def("_foreach_lerp_.Scalar(Tensor(a!)[] self, Tensor[] tensors1, Scalar weight) -> ()", F);
  // sqrt(self[i]), -self[i], 0
  m.def("_foreach_sqrt(Tensor[] self) -> Tensor[]", F);
  m.def("_foreach_sqrt_(Tensor(a!)[] self) -> ()", F);
  m.def("_foreach_neg(Tensor[] self) -> Tensor[]", F);
  m.def("_foreach_neg_(Tensor(a!)[] self) -> ()", F);
  m.def("_foreach_zero_(Tensor(a!)[] self) -> ()", F);

  // One optimizer step over every parameter of a group, one pass over each parameter's memory.
  // params[i], grads[i], state[i] (*) alike; state_steps[i] one element each.
  m.def("_fused_sgd_(Tensor(a!)[] self, Tensor(b!)[] grads, Tensor(c!)[] momentum_buffer_list, "
        "*, float weight_decay, float momentum, float lr, float dampening, bool nesterov, "
        "bool maximize, bool is_first_step, Tensor? grad_scale=None, Tensor? found_inf=None) "
        "-> ()", F);
  m.def("_fused_adam_(Tensor(a!)[] self, Tensor(b!)[] grads, Tensor(c!)[] exp_avgs, "
        "Tensor(d!)[] exp_avg_sqs, Tensor(e!)[] max_exp_avg_sqs, Tensor[] state_steps, *, "
        "float lr, float beta1, float beta2, float weight_decay, float eps, bool amsgrad, "
        "bool maximize, Tensor? grad_scale=None, Tensor? found_inf=None) -> ()", F);
  m.def("_fused_adamw_(Tensor(a!)[] self, Tensor(b!)[] grads, Tensor(c!)[] exp_avgs, "
        "Tensor(d!)[] exp_avg_sqs, Tensor(e!)[] max_exp_avg_sqs, Tensor[] state_steps, *, "
        "float lr, float beta1, float beta2, float weight_decay, float eps, bool amsgrad, "
        "bool maximize, Tensor? grad_scale=None, Tensor? found_inf=None) -> ()", F);
  // torch has no fused RMSprop; this one follows _fused_adam_'s form. grad_avgs is used when
  // centered, momentum_buffer_list when momentum > 0 (else either may be empty).
  m.def("_fused_rmsprop_(Tensor(a!)[] self, Tensor[] grads, Tensor(b!)[] square_avgs, "
        "Tensor(c!)[] grad_avgs, Tensor(d!)[] momentum_buffer_list, *, float lr, float alpha, "
        "float eps, float weight_decay, float momentum, bool centered, bool maximize) -> ()", F);
});

}  // namespace opscope
