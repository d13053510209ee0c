"""``opscope.optim.Adamax``: Adam with the infinity norm in place of the root mean square — the
moving average of the gradient is divided by a decaying maximum of the gradient's magnitude, so
no bias correction of the second moment is needed; torch 1.13's update at step t:

    g = ±grad + weight_decay * p
    m = beta1 * m + (1 - beta1) * g;          u = max(beta2 * u, |g| + eps)
    p -= lr / (1 - beta1^t) * m / u
"""
import opscope

from .optimizer import (Optimizer, _check_args, _direction, _equal_or_none, _float_tensor,
                        _foreach_directions, _old_scalars_as_tensors, _zeros)

__all__ = ["Adamax"]


class Adamax(Optimizer):
    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 foreach=None, *, maximize=False):
        _check_args(lr=lr, eps=eps, betas=betas, weight_decay=weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, foreach=foreach,
                        maximize=maximize)
        super().__init__(params, defaults)

    _group_defaults = (("foreach", None), ("maximize", False))

    def __setstate__(self, state):
        super().__setstate__(state)
        _old_scalars_as_tensors(self.state, step=_float_tensor)

    def _update_group(self, group, params, grads):
        def init(p, state):
            state["step"] = opscope.tensor(0.)  # as torch 1.13: a 0-d float32 tensor
            state["exp_avg"], state["exp_inf"] = _zeros(p), _zeros(p)

        states = self._states(params, init)
        beta1, beta2 = group["betas"]
        self._path(group, params, grads, _single_tensor_adamax, _multi_tensor_adamax)(
            params, grads, [s["exp_avg"] for s in states], [s["exp_inf"] for s in states],
            [s["step"] for s in states], beta1=beta1, beta2=beta2, lr=group["lr"],
            eps=group["eps"], weight_decay=group["weight_decay"], maximize=group["maximize"])


def _single_tensor_adamax(params, grads, exp_avgs, exp_infs, state_steps, *, beta1, beta2, lr,
                          eps, weight_decay, maximize):
    for param, grad, exp_avg, exp_inf, step_t in zip(params, grads, exp_avgs, exp_infs,
                                                     state_steps):
        step_t += 1
        grad = _direction(param, grad, maximize, weight_decay)
        exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
        opscope.maximum(exp_inf.mul_(beta2), grad.abs().add_(eps), out=exp_inf)
        param.addcdiv_(exp_avg, exp_inf, value=-lr / (1 - beta1 ** step_t.item()))


def _multi_tensor_adamax(params, grads, exp_avgs, exp_infs, state_steps, *, beta1, beta2, lr,
                         eps, weight_decay, maximize):
    grads = _foreach_directions(params, grads, maximize, weight_decay)
    opscope._foreach_add_(state_steps, 1)
    opscope._foreach_mul_(exp_avgs, beta1)
    opscope._foreach_add_(exp_avgs, grads, alpha=1 - beta1)
    opscope._foreach_mul_(exp_infs, beta2)
    # |g| + eps tensor by tensor: opscope has no _foreach_abs
    opscope._foreach_maximum_(exp_infs, [g.abs().add_(eps) for g in grads])
    minus_clr = [-lr / (1 - beta1 ** s.item()) for s in state_steps]
    value = _equal_or_none(minus_clr)
    if value is not None:
        opscope._foreach_addcdiv_(params, exp_avgs, exp_infs, value)
        return
    for p, m, u, v in zip(params, exp_avgs, exp_infs, minus_clr):  # parameters at different steps
        p.addcdiv_(m, u, value=v)
