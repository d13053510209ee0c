// The optimizer family: updates that walk a list of tensors at once (torch 2.x's foreach ops,
// `_foreach_add_`, `_foreach_addcdiv_`, ...) and whole optimizer steps fused into one pass over
// each parameter's memory (`_fused_sgd_`, `_fused_adam_`, `_fused_adamw_`).
//
// Semantically `_foreach_op_(self, other, ...)` is `self[i].op_(other[i], ...)` for every i, and
// `_fused_adam_(params, grads, exp_avgs, ...)` is torch.optim.Adam's step for every parameter:
// the same results, without one dispatch per tensor per arithmetic step. The lists hold tensors
// of any sizes; tensors at one index must have the same sizes and dtype (float32 / float64).
//
// In implementation terms each index is one elementwise pass (core/ops/cpu/optim.cpp): when the
// tensors at an index share one dense layout — a parameter, its .grad (Note [Gradient layout
// contract], core/autograd/Node.cpp) and its state (zeros_like) always do — the pass reads and
// writes each element once, from flat memory; otherwise on contiguous copies, written back.
//
//   ops::_foreach_add_(params, grads, /*alpha=*/-0.1);      // SGD without momentum
//   ops::_fused_adam_(params, grads, m, v, {}, steps, 1e-3, 0.9, 0.999, 0.0, 1e-8, false, false);
#pragma once

#include "core/dispatch/KernelFunction.h"
#include "core/dispatch/Op.h"
#include "core/runtime/Scalar.h"
#include "core/tensor/Tensor.h"

namespace opscope::ops {

// _foreach_add_.List(Tensor(a!)[] self, Tensor[] other, *, Scalar alpha=1) -> ()
// self[i] += alpha * other[i]
inline constexpr Op<void(TensorList, TensorList, Default<const Scalar&>)> _foreach_add_{
    "aten::_foreach_add_.List"};

// _foreach_mul_.Scalar(Tensor(a!)[] self, Scalar scalar) -> ()
inline constexpr Op<void(TensorList, const Scalar&)> _foreach_mul_{"aten::_foreach_mul_.Scalar"};

// _foreach_zero_(Tensor(a!)[] self) -> ()
inline constexpr Op<void(TensorList)> _foreach_zero_{"aten::_foreach_zero_"};

// _fused_sgd_(Tensor(a!)[] self, Tensor(b!)[] grads, Tensor(c!)[] momentum_buffer_list, *,
//             float weight_decay, float momentum, float lr, float dampening, bool nesterov,
//             bool maximize, bool is_first_step, Tensor? grad_scale=None,
//             Tensor? found_inf=None) -> ()
// torch.optim.SGD's step; on the first step each momentum buffer is set to the gradient.
inline constexpr Op<void(TensorList, TensorList, TensorList, double, double, double, double, bool,
                         bool, bool, Default<const Tensor&>, Default<const Tensor&>)>
    _fused_sgd_{"aten::_fused_sgd_"};

// _fused_adam_(Tensor(a!)[] self, Tensor(b!)[] grads, Tensor(c!)[] exp_avgs,
//              Tensor(d!)[] exp_avg_sqs, Tensor(e!)[] max_exp_avg_sqs, Tensor[] state_steps, *,
//              float lr, float beta1, float beta2, float weight_decay, float eps, bool amsgrad,
//              bool maximize, Tensor? grad_scale=None, Tensor? found_inf=None) -> ()
// torch.optim.Adam's step, with the step counts already advanced (state_steps: one-element
// tensors); _fused_adamw_ has the same schema and decouples the weight decay.
inline constexpr Op<void(TensorList, TensorList, TensorList, TensorList, TensorList, TensorList,
                         double, double, double, double, double, bool, bool,
                         Default<const Tensor&>, Default<const Tensor&>)>
    _fused_adam_{"aten::_fused_adam_"};
inline constexpr Op<void(TensorList, TensorList, TensorList, TensorList, TensorList, TensorList,
                         double, double, double, double, double, bool, bool,
                         Default<const Tensor&>, Default<const Tensor&>)>
    _fused_adamw_{"aten::_fused_adamw_"};

}  // namespace opscope::ops
