"""``opscope.optim.Adam``: moving averages of the gradient and of its square, bias-corrected,
torch 1.13's update at step t (AdamW, in adamw.py, shares it with decoupled weight decay):

    g = ±grad (+ weight_decay * p for Adam;  AdamW: p *= 1 - lr * weight_decay)
    m = beta1 * m + (1 - beta1) * g;     v = beta2 * v + (1 - beta2) * g * g
    vmax = max(vmax, v) (amsgrad);       denom = sqrt(vmax or v) / sqrt(1 - beta2^t) + eps
    p -= lr / (1 - beta1^t) * m / denom
"""
import math

import opscope

from .optimizer import Optimizer, _equal_or_none, _implementation

__all__ = ["Adam"]


def _check_adam_args(lr, eps, betas, weight_decay):
    if not 0.0 <= lr:
        raise ValueError("Invalid learning rate: {}".format(lr))
    if not 0.0 <= eps:
        raise ValueError("Invalid epsilon value: {}".format(eps))
    if not 0.0 <= betas[0] < 1.0:
        raise ValueError("Invalid beta parameter at index 0: {}".format(betas[0]))
    if not 0.0 <= betas[1] < 1.0:
        raise ValueError("Invalid beta parameter at index 1: {}".format(betas[1]))
    if not 0.0 <= weight_decay:
        raise ValueError("Invalid weight_decay value: {}".format(weight_decay))


class Adam(Optimizer):
    _decoupled = False

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 amsgrad=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False, fused=None):
        _check_adam_args(lr, eps, betas, weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad,
                        maximize=maximize, foreach=foreach, capturable=capturable,
                        differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            for key, value in (("amsgrad", False), ("maximize", False), ("foreach", None),
                               ("capturable", False), ("differentiable", False), ("fused", None)):
                group.setdefault(key, value)

    @opscope.no_grad()
    def step(self, closure=None):
        """Performs a single optimization step; `closure` re-evaluates the model and returns the
        loss."""
        loss = self._evaluate(closure)
        for group in self.param_groups:
            params, grads = self._with_grads(group)
            if not params:
                continue
            states = [self.state[p] for p in params]
            for p, state in zip(params, states):
                if len(state) == 0:  # as torch 1.13: a 0-d float32 step count
                    state["step"] = opscope.tensor(0.)
                    state["exp_avg"] = opscope.zeros_like(p, memory_format=opscope.preserve_format)
                    state["exp_avg_sq"] = opscope.zeros_like(
                        p, memory_format=opscope.preserve_format)
                    if group["amsgrad"]:
                        state["max_exp_avg_sq"] = opscope.zeros_like(
                            p, memory_format=opscope.preserve_format)
            beta1, beta2 = group["betas"]
            how = _implementation(group, params, grads)
            {"fused": _fused_adam, "foreach": _multi_tensor_adam,
             "single": _single_tensor_adam}[how](
                params, grads, [s["exp_avg"] for s in states], [s["exp_avg_sq"] for s in states],
                [s["max_exp_avg_sq"] for s in states] if group["amsgrad"] else [],
                [s["step"] for s in states], amsgrad=group["amsgrad"], beta1=beta1, beta2=beta2,
                lr=group["lr"], weight_decay=group["weight_decay"], eps=group["eps"],
                maximize=group["maximize"], decoupled=self._decoupled)
        return loss


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
