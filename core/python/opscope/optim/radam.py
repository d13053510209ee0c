"""``opscope.optim.RAdam``: rectified Adam — while the variance of the second-moment estimate is
not yet tractable (rho_t <= 5, the first five steps) it steps like SGD with bias-corrected
momentum, afterwards like Adam scaled by a rectification term. torch 1.13's update at step t:

    g = grad + weight_decay * p
    m = beta1 * m + (1 - beta1) * g;      v = beta2 * v + (1 - beta2) * g * g
    rho_inf = 2 / (1 - beta2) - 1;        rho_t = rho_inf - 2 t beta2^t / (1 - beta2^t)
    rho_t > 5:   rect = sqrt((rho_t - 4) (rho_t - 2) rho_inf / ((rho_inf - 4) (rho_inf - 2) rho_t))
                 p -= lr * rect / (1 - beta1^t) * m * sqrt(1 - beta2^t) / (sqrt(v) + eps)
    otherwise:   p -= lr / (1 - beta1^t) * m

Note [RAdam's epsilon in torch 1.13]: torch 1.13's foreach=True path leaves eps out of the
denominator (sqrt(v) alone); its for-loop, the default, adds it. Each path here computes what
1.13 does for the same foreach argument (_torch_foreach_numbers): eps is 0 under foreach=True.
"""
import math

import opscope

from .optimizer import (Optimizer, _check_args, _equal_or_none, _float_tensor,
                        _old_scalars_as_tensors, _torch_foreach_numbers, _zeros)

__all__ = ["RAdam"]


class RAdam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 foreach=None):
        _check_args(lr=lr, eps=eps, betas=betas, weight_decay=weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, foreach=foreach)
        super().__init__(params, defaults)

    _group_defaults = (("foreach", None),)

    def __setstate__(self, state):
        super().__setstate__(state)
        _old_scalars_as_tensors(self.state, step=_float_tensor)

    def _update_group(self, group, params, grads):
        def init(p, state):
            state["step"] = opscope.tensor(0.)  # as torch 1.13: a 0-d float32 tensor
            state["exp_avg"], state["exp_avg_sq"] = _zeros(p), _zeros(p)

        states = self._states(params, init)
        beta1, beta2 = group["betas"]
        eps = 0.0 if _torch_foreach_numbers(group) else group["eps"]  # Note [RAdam's epsilon ...]
        self._path(group, params, grads, _single_tensor_radam, _multi_tensor_radam)(
            params, grads, [s["exp_avg"] for s in states], [s["exp_avg_sq"] for s in states],
            [s["step"] for s in states], beta1=beta1, beta2=beta2, lr=group["lr"],
            weight_decay=group["weight_decay"], eps=eps)


def _rectification(step, beta2):
    """rect at this step, or None while rho_t <= 5 (the unrectified, momentum-only steps)."""
    rho_inf = 2 / (1 - beta2) - 1
    rho_t = rho_inf - 2 * step * (beta2 ** step) / (1 - beta2 ** step)
    if not rho_t > 5.:
        return None
    return math.sqrt((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t))


def _single_tensor_radam(params, grads, exp_avgs, exp_avg_sqs, state_steps, *, beta1, beta2, lr,
                         weight_decay, eps):
    for param, grad, exp_avg, exp_avg_sq, step_t in zip(params, grads, exp_avgs, exp_avg_sqs,
                                                        state_steps):
        step_t += 1
        step = step_t.item()
        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        bias_corrected_exp_avg = exp_avg / bias_correction1
        rect = _rectification(step, beta2)
        if rect is None:
            param.sub_(bias_corrected_exp_avg * lr)
        else:
            adaptive_lr = math.sqrt(bias_correction2) / exp_avg_sq.sqrt().add_(eps)
            param.sub_(bias_corrected_exp_avg * lr * adaptive_lr * rect)


def _multi_tensor_radam(params, grads, exp_avgs, exp_avg_sqs, state_steps, *, beta1, beta2, lr,
                        weight_decay, eps):
    if weight_decay != 0:
        grads = opscope._foreach_add(grads, params, alpha=weight_decay)
    opscope._foreach_add_(state_steps, 1)
    opscope._foreach_mul_(exp_avgs, beta1)
    opscope._foreach_add_(exp_avgs, grads, alpha=1 - beta1)
    opscope._foreach_mul_(exp_avg_sqs, beta2)
    opscope._foreach_addcmul_(exp_avg_sqs, grads, grads, 1 - beta2)
    adaptive, plain = [], []  # (index, step size): rectified steps and momentum-only ones
    for i, step_t in enumerate(state_steps):
        step = step_t.item()
        rect = _rectification(step, beta2)
        if rect is None:
            plain.append((i, -lr / (1 - beta1 ** step)))
        else:
            adaptive.append((i, -lr * rect * math.sqrt(1 - beta2 ** step) / (1 - beta1 ** step)))
    if adaptive:
        ps, ms = [params[i] for i, _ in adaptive], [exp_avgs[i] for i, _ in adaptive]
        denom = opscope._foreach_sqrt([exp_avg_sqs[i] for i, _ in adaptive])
        if eps != 0:
            opscope._foreach_add_(denom, eps)
        value = _equal_or_none([v for _, v in adaptive])
        if value is not None:
            opscope._foreach_addcdiv_(ps, ms, denom, value)
        else:
            for p, m, d, (_, v) in zip(ps, ms, denom, adaptive):  # parameters at different steps
                p.addcdiv_(m, d, value=v)
    if plain:
        ps, ms = [params[i] for i, _ in plain], [exp_avgs[i] for i, _ in plain]
        value = _equal_or_none([v for _, v in plain])
        if value is not None:
            opscope._foreach_add_(ps, ms, alpha=value)
        else:
            for p, m, (_, v) in zip(ps, ms, plain):
                p.add_(m, alpha=v)
