"""``opscope.optim.Adadelta``: steps scaled by the ratio of two running roots, of the past updates
and of the past gradients (rho their decay); torch 1.13's update:

    g = ±grad + weight_decay * p;        square_avg = rho * square_avg + (1 - rho) * g * g
    delta = sqrt(acc_delta + eps) / sqrt(square_avg + eps) * g
    acc_delta = rho * acc_delta + (1 - rho) * delta * delta;      p -= lr * delta
"""
import opscope

from .optimizer import Optimizer, _check_args, _direction, _foreach_directions, _zeros

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *,
                 maximize=False):
        _check_args(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay)
        defaults = dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize,
                        foreach=foreach)
        super().__init__(params, defaults)

    _group_defaults = (("foreach", None), ("maximize", False))

    def _update_group(self, group, params, grads):
        def init(p, state):
            state["step"] = 0
            state["square_avg"], state["acc_delta"] = _zeros(p), _zeros(p)

        states = self._states(params, init)
        for state in states:
            state["step"] += 1
        self._path(group, params, grads, _single_tensor_adadelta, _multi_tensor_adadelta)(
            params, grads, [s["square_avg"] for s in states], [s["acc_delta"] for s in states],
            lr=group["lr"], rho=group["rho"], eps=group["eps"],
            weight_decay=group["weight_decay"], maximize=group["maximize"])


def _single_tensor_adadelta(params, grads, square_avgs, acc_deltas, *, lr, rho, eps, weight_decay,
                            maximize):
    for param, grad, square_avg, acc_delta in zip(params, grads, square_avgs, acc_deltas):
        grad = _direction(param, grad, maximize, weight_decay)
        square_avg.mul_(rho).add_(grad * grad, alpha=1 - rho)
        std = square_avg.add(eps).sqrt_()
        delta = acc_delta.add(eps).sqrt_().div_(std).mul_(grad)
        acc_delta.mul_(rho).add_(delta * delta, alpha=1 - rho)
        param.add_(delta, alpha=-lr)


def _multi_tensor_adadelta(params, grads, square_avgs, acc_deltas, *, lr, rho, eps, weight_decay,
                           maximize):
    grads = _foreach_directions(params, grads, maximize, weight_decay)
    opscope._foreach_mul_(square_avgs, rho)
    opscope._foreach_addcmul_(square_avgs, grads, grads, 1 - rho)
    std = opscope._foreach_add(square_avgs, eps)
    opscope._foreach_sqrt_(std)
    deltas = opscope._foreach_add(acc_deltas, eps)
    opscope._foreach_sqrt_(deltas)
    opscope._foreach_div_(deltas, std)
    opscope._foreach_mul_(deltas, grads)
    opscope._foreach_add_(params, deltas, alpha=-lr)
    opscope._foreach_mul_(acc_deltas, rho)
    opscope._foreach_addcmul_(acc_deltas, deltas, deltas, 1 - rho)
