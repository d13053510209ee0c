"""``opscope.optim.NAdam``: Adam with Nesterov momentum — the step looks ahead along the momentum,
whose coefficient mu_t warms up with momentum_decay; torch 1.13's update at step t:

    g = grad + weight_decay * p
    mu_t = beta1 * (1 - 0.96^(t * momentum_decay) / 2);      mu_product = mu_1 * ... * mu_t
    m = beta1 * m + (1 - beta1) * g;      v = beta2 * v + (1 - beta2) * g * g
    denom = sqrt(v / (1 - beta2^t)) + eps
    p -= lr * (1 - mu_t) / (1 - mu_product) * g / denom
    p -= lr * mu_{t+1} / (1 - mu_product * mu_{t+1}) * m / denom

Note [NAdam's momentum product in torch 1.13]: torch 1.13's for-loop, its default, multiplies
mu_t into the last line's product twice (1 - mu_product * mu_t * mu_{t+1}; torch 2.0 fixed
it), and its foreach=True path does not. mu_product is a 0-d float32 tensor in the state, and
the for-loop takes that product in float32 tensor arithmetic, the foreach path in Python floats.
Every path here computes what torch 1.13 does for the same foreach argument
(_torch_foreach_numbers).
"""
import math

import opscope

from .optimizer import (Optimizer, _check_args, _equal_or_none, _float_tensor,
                        _old_scalars_as_tensors, _torch_foreach_numbers, _zeros)

__all__ = ["NAdam"]


class NAdam(Optimizer):
    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 momentum_decay=4e-3, foreach=None):
        _check_args(lr=lr, eps=eps, betas=betas, weight_decay=weight_decay,
                    momentum_decay=momentum_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                        momentum_decay=momentum_decay, foreach=foreach)
        super().__init__(params, defaults)

    _group_defaults = (("foreach", None),)

    def __setstate__(self, state):
        super().__setstate__(state)
        _old_scalars_as_tensors(self.state, step=_float_tensor, mu_product=opscope.tensor)

    def _update_group(self, group, params, grads):
        def init(p, state):
            state["step"] = opscope.tensor(0.)  # as torch 1.13: 0-d float32 tensors
            state["mu_product"] = opscope.tensor(1.)
            state["exp_avg"], state["exp_avg_sq"] = _zeros(p), _zeros(p)

        states = self._states(params, init)
        beta1, beta2 = group["betas"]
        sizes = [_step_sizes(s["step"], s["mu_product"], beta1=beta1, beta2=beta2,
                             lr=group["lr"], momentum_decay=group["momentum_decay"],
                             mu_twice=not _torch_foreach_numbers(group))
                 for s in states]
        self._path(group, params, grads, _single_tensor_nadam, _multi_tensor_nadam)(
            params, grads, [s["exp_avg"] for s in states], [s["exp_avg_sq"] for s in states],
            sizes, beta1=beta1, beta2=beta2, weight_decay=group["weight_decay"],
            eps=group["eps"])


def _step_sizes(step_t, mu_product, *, beta1, beta2, lr, momentum_decay, mu_twice):
    """Advances one parameter's step count and momentum product (0-d tensors, in place) and
    returns its step's scalars: (1 - beta2^t, the gradient's step size, the moving average's).
    `mu_twice`: torch 1.13's for-loop product (see Note [NAdam's momentum product in torch
    1.13])."""
    step_t += 1
    step = step_t.item()
    mu = beta1 * (1. - 0.5 * (0.96 ** (step * momentum_decay)))
    mu_next = beta1 * (1. - 0.5 * (0.96 ** ((step + 1) * momentum_decay)))
    mu_product *= mu
    product = mu_product.item()
    product_next = (mu_product * mu * mu_next).item() if mu_twice else product * mu_next
    return 1 - beta2 ** step, -lr * (1. - mu) / (1. - product), -lr * mu_next / (1. - product_next)


def _single_tensor_nadam(params, grads, exp_avgs, exp_avg_sqs, sizes, *, beta1, beta2,
                         weight_decay, eps):
    for param, grad, exp_avg, exp_avg_sq, (bias_correction2, grad_size, avg_size) in zip(
            params, grads, exp_avgs, exp_avg_sqs, sizes):
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        denom = exp_avg_sq.div(bias_correction2).sqrt().add_(eps)
        param.addcdiv_(grad, denom, value=grad_size)
        param.addcdiv_(exp_avg, denom, value=avg_size)


def _multi_tensor_nadam(params, grads, exp_avgs, exp_avg_sqs, sizes, *, beta1, beta2,
                        weight_decay, eps):
    if weight_decay != 0:
        grads = opscope._foreach_add(grads, params, alpha=weight_decay)
    opscope._foreach_mul_(exp_avgs, beta1)
    opscope._foreach_add_(exp_avgs, grads, alpha=1 - beta1)
    opscope._foreach_mul_(exp_avg_sqs, beta2)
    opscope._foreach_addcmul_(exp_avg_sqs, grads, grads, 1 - beta2)
    denom = opscope._foreach_sqrt(exp_avg_sqs)
    shared = [_equal_or_none(column) for column in zip(*sizes)]
    if None not in shared:
        bias_correction2, grad_size, avg_size = shared
        opscope._foreach_div_(denom, math.sqrt(bias_correction2))
        opscope._foreach_add_(denom, eps)
        opscope._foreach_addcdiv_(params, grads, denom, grad_size)
        opscope._foreach_addcdiv_(params, exp_avgs, denom, avg_size)
        return
    for p, g, m, d, (bc2, gs, ms) in zip(params, grads, exp_avgs, denom, sizes):
        d.div_(math.sqrt(bc2)).add_(eps)  # parameters at different steps
        p.addcdiv_(g, d, value=gs)
        p.addcdiv_(m, d, value=ms)
