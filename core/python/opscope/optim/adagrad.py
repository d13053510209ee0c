"""``opscope.optim.Adagrad``: each parameter's step divided by the root of the sum of its squared
gradients so far, with a learning rate that decays by lr_decay; torch 1.13's update at step t:

    g = ±grad + weight_decay * p;    clr = lr / (1 + (t - 1) * lr_decay)
    sum += g * g;                    p -= clr * g / (sqrt(sum) + eps)
"""
import opscope

from .optimizer import (Optimizer, _check_args, _direction, _equal_or_none,
                        _foreach_directions)

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0,
                 eps=1e-10, foreach=None, *, maximize=False):
        _check_args(lr=lr, lr_decay=lr_decay, weight_decay=weight_decay,
                    initial_accumulator_value=initial_accumulator_value, eps=eps)
        defaults = dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                        initial_accumulator_value=initial_accumulator_value, foreach=foreach,
                        maximize=maximize)
        super().__init__(params, defaults)
        for group in self.param_groups:  # as torch: the state exists before the first step
            for p in group["params"]:
                state = self.state[p]
                state["step"] = opscope.tensor(0.0)
                state["sum"] = opscope.full_like(p, initial_accumulator_value,
                                                 memory_format=opscope.preserve_format)

    _group_defaults = (("foreach", None), ("maximize", False))

    def _update_group(self, group, params, grads):
        states = self._states(params)  # made by __init__
        self._path(group, params, grads, _single_tensor_adagrad, _multi_tensor_adagrad)(
            params, grads, [s["sum"] for s in states], [s["step"] for s in states],
            lr=group["lr"], weight_decay=group["weight_decay"], lr_decay=group["lr_decay"],
            eps=group["eps"], maximize=group["maximize"])


def _single_tensor_adagrad(params, grads, state_sums, state_steps, *, lr, weight_decay, lr_decay,
                           eps, maximize):
    for param, grad, state_sum, step_t in zip(params, grads, state_sums, state_steps):
        step_t += 1
        step = step_t.item()
        grad = _direction(param, grad, maximize, weight_decay)
        clr = lr / (1 + (step - 1) * lr_decay)
        state_sum.add_(grad * grad)
        std = state_sum.sqrt().add_(eps)
        param.add_(grad / std, alpha=-clr)


def _multi_tensor_adagrad(params, grads, state_sums, state_steps, *, lr, weight_decay, lr_decay,
                          eps, maximize):
    grads = _foreach_directions(params, grads, maximize, weight_decay)
    opscope._foreach_add_(state_steps, 1)
    minus_clr = [-lr / (1 + (s.item() - 1) * lr_decay) for s in state_steps]
    opscope._foreach_addcmul_(state_sums, grads, grads, 1)
    std = opscope._foreach_sqrt(state_sums)
    opscope._foreach_add_(std, eps)
    value = _equal_or_none(minus_clr)
    if value is not None:
        opscope._foreach_addcdiv_(params, grads, std, value)
        return
    for p, g, s, v in zip(params, grads, std, minus_clr):  # parameters at different steps
        p.add_(g / s, alpha=v)
