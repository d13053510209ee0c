"""``opscope.optim.Adam``: moving averages of the gradient and of its square, bias-corrected,
torch 1.13's update at step t (AdamW, in adamw.py, shares it with decoupled weight decay):

    g = ±grad (+ weight_decay * p for Adam;  AdamW: p *= 1 - lr * weight_decay)
    m = beta1 * m + (1 - beta1) * g;     v = beta2 * v + (1 - beta2) * g * g
    vmax = max(vmax, v) (amsgrad);       denom = sqrt(vmax or v) / sqrt(1 - beta2^t) + eps
    p -= lr / (1 - beta1^t) * m / denom
"""
import math

import opscope

from .optimizer import Optimizer, _check_args, _equal_or_none, _zeros

__all__ = ["Adam"]


class Adam(Optimizer):
    _decoupled = False

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 amsgrad=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False, fused=None):
        _check_args(lr=lr, eps=eps, betas=betas, weight_decay=weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad,
                        maximize=maximize, foreach=foreach, capturable=capturable,
                        differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)

    _group_defaults = (("amsgrad", False), ("maximize", False), ("foreach", None),
                       ("capturable", False), ("differentiable", False), ("fused", None))

    def _update_group(self, group, params, grads):
        amsgrad = group["amsgrad"]

        on_device = self.defaults.get("capturable") or self.defaults.get("fused")

        def init(p, state):
            # As torch 1.13: the step count is a 0-d float32 CPU tensor, or a (1,) one on the
            # parameter's GPU with capturable=True or fused=True (read there by the kernels).
            # CPU parameters keep the 0-d one: torch 1.13 has neither option for them.
            if on_device and p.is_cuda:
                state["step"] = opscope.zeros((1,), dtype=opscope.float32, device=p.device)
            else:
                state["step"] = opscope.tensor(0.)
            state["exp_avg"], state["exp_avg_sq"] = _zeros(p), _zeros(p)
            if amsgrad:
                state["max_exp_avg_sq"] = _zeros(p)

        states = self._states(params, init)
        beta1, beta2 = group["betas"]
        self._path(group, params, grads, _single_tensor_adam, _multi_tensor_adam, _fused_adam)(
            params, grads, [s["exp_avg"] for s in states], [s["exp_avg_sq"] for s in states],
            [s["max_exp_avg_sq"] for s in states] if amsgrad else [],
            [s["step"] for s in states], amsgrad=amsgrad, beta1=beta1, beta2=beta2,
            lr=group["lr"], weight_decay=group["weight_decay"], eps=group["eps"],
            maximize=group["maximize"], decoupled=self._decoupled)


def _single_tensor_adam(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, *,
                        amsgrad, beta1, beta2, lr, weight_decay, eps, maximize, decoupled):
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        exp_avg, exp_avg_sq, step_t = exp_avgs[i], exp_avg_sqs[i], state_steps[i]
        step_t += 1
        if weight_decay != 0:
            if decoupled:
                param.mul_(1 - lr * weight_decay)
            else:
                grad = grad.add(param, alpha=weight_decay)
        exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
        exp_avg_sq.mul_(beta2).add_(grad * grad, alpha=1 - beta2)
        step = step_t.item()
        step_size = lr / (1 - beta1 ** step)
        bias_correction2_sqrt = math.sqrt(1 - beta2 ** step)
        if amsgrad:
            opscope.maximum(max_exp_avg_sqs[i], exp_avg_sq, out=max_exp_avg_sqs[i])
            denom = (max_exp_avg_sqs[i].sqrt() / bias_correction2_sqrt).add_(eps)
        else:
            denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
        param.add_(exp_avg / denom, alpha=-step_size)


def _multi_tensor_adam(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, *,
                       amsgrad, beta1, beta2, lr, weight_decay, eps, maximize, decoupled):
    if maximize:
        grads = opscope._foreach_neg(grads)
    opscope._foreach_add_(state_steps, 1)
    if weight_decay != 0:
        if decoupled:
            opscope._foreach_mul_(params, 1 - lr * weight_decay)
        else:
            grads = opscope._foreach_add(grads, params, alpha=weight_decay)
    opscope._foreach_mul_(exp_avgs, beta1)
    opscope._foreach_add_(exp_avgs, grads, alpha=1 - beta1)
    opscope._foreach_mul_(exp_avg_sqs, beta2)
    opscope._foreach_addcmul_(exp_avg_sqs, grads, grads, 1 - beta2)
    steps = [s.item() for s in state_steps]
    if amsgrad:
        opscope._foreach_maximum_(max_exp_avg_sqs, exp_avg_sqs)
        denom = opscope._foreach_sqrt(max_exp_avg_sqs)
    else:
        denom = opscope._foreach_sqrt(exp_avg_sqs)
    step = _equal_or_none(steps)
    if step is not None:
        opscope._foreach_div_(denom, math.sqrt(1 - beta2 ** step))
        opscope._foreach_add_(denom, eps)
        opscope._foreach_addcdiv_(params, exp_avgs, denom, -lr / (1 - beta1 ** step))
        return
    for p, m, d, s in zip(params, exp_avgs, denom, steps):  # parameters at different steps
        d.div_(math.sqrt(1 - beta2 ** s)).add_(eps)
        p.add_(m / d, alpha=-lr / (1 - beta1 ** s))


def _fused_adam(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, *, amsgrad,
                beta1, beta2, lr, weight_decay, eps, maximize, decoupled):
    opscope._foreach_add_(state_steps, 1)
    fused = opscope._fused_adamw_ if decoupled else opscope._fused_adam_
    fused(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, lr=lr, beta1=beta1,
          beta2=beta2, weight_decay=weight_decay, eps=eps, amsgrad=amsgrad, maximize=maximize)
