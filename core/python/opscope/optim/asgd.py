"""``opscope.optim.ASGD``: averaged stochastic gradient descent — SGD with a learning rate eta
that decays with the step count, and a running average `ax` of the parameters that starts
averaging after t0 steps (the average is kept in the state; the parameters themselves follow
plain SGD). torch 1.13's update at step t, eta and mu as the previous step left them:

    g = ±grad + weight_decay * p
    p = p * (1 - lambd * eta) - eta * g
    ax = p if mu == 1 else ax + mu * (p - ax)
    eta = lr / (1 + lambd * lr * t)^alpha;      mu = 1 / max(1, t - t0)

eta and mu live in the state as 0-d float32 tensors (eta starts as torch.tensor(lr)), so the
step reads them rounded to float32, as torch 1.13's does.

Note [ASGD's eta in torch 1.13]: torch 1.13's foreach=True path steps every parameter of a group
with the first one's eta; its for-loop, the default, with each parameter's own. They differ
only when the parameters of a group are at different steps. Each path here computes what 1.13
does for the same foreach argument (_torch_foreach_numbers).
"""
import math

import opscope

from .optimizer import (Optimizer, _check_args, _direction, _equal_or_none, _float_tensor,
                        _foreach_directions, _old_scalars_as_tensors, _torch_foreach_numbers,
                        _zeros)

__all__ = ["ASGD"]


class ASGD(Optimizer):
    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0,
                 foreach=None, maximize=False):
        _check_args(lr=lr, weight_decay=weight_decay)
        defaults = dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0, weight_decay=weight_decay,
                        foreach=foreach, maximize=maximize)
        super().__init__(params, defaults)

    _group_defaults = (("foreach", None), ("maximize", False))

    def __setstate__(self, state):
        super().__setstate__(state)
        _old_scalars_as_tensors(self.state, step=_float_tensor, eta=opscope.tensor,
                                mu=_float_tensor)

    def _update_group(self, group, params, grads):
        def init(p, state):
            state["step"] = opscope.tensor(0.)
            state["eta"] = opscope.tensor(group["lr"])
            state["mu"] = opscope.tensor(1.)
            state["ax"] = _zeros(p)

        states = self._states(params, init)
        etas = [s["eta"].item() for s in states]
        if _torch_foreach_numbers(group):  # Note [ASGD's eta in torch 1.13]
            etas = [etas[0]] * len(etas)
        self._path(group, params, grads, _single_tensor_asgd, _multi_tensor_asgd)(
            params, grads, [s["ax"] for s in states], [s["mu"] for s in states], etas,
            lambd=group["lambd"], weight_decay=group["weight_decay"],
            maximize=group["maximize"])
        lr, lambd = group["lr"], group["lambd"]
        for state in states:  # the step count, eta and mu for the next step
            state["step"] += 1
            step = state["step"].item()
            state["eta"].copy_(opscope.tensor(lr / math.pow(1 + lambd * lr * step,
                                                            group["alpha"])))
            state["mu"].copy_(opscope.tensor(1 / max(1, step - group["t0"])))


def _single_tensor_asgd(params, grads, axs, mus, etas, *, lambd, weight_decay, maximize):
    for param, grad, ax, mu, eta in zip(params, grads, axs, mus, etas):
        grad = _direction(param, grad, maximize, weight_decay)
        param.mul_(1 - lambd * eta)
        param.add_(grad, alpha=-eta)
        _average(ax, param, mu)


def _multi_tensor_asgd(params, grads, axs, mus, etas, *, lambd, weight_decay, maximize):
    grads = _foreach_directions(params, grads, maximize, weight_decay)
    eta = _equal_or_none(etas)
    if eta is not None:
        opscope._foreach_mul_(params, 1 - lambd * eta)
        opscope._foreach_add_(params, grads, alpha=-eta)
    else:
        for p, g, e in zip(params, grads, etas):  # parameters at different steps
            p.mul_(1 - lambd * e).add_(g, alpha=-e)
    for ax, p, mu in zip(axs, params, mus):
        _average(ax, p, mu)


def _average(ax, param, mu):
    """The running average: ax = param while mu is 1 (before t0), else ax += mu * (param - ax),
    mu the 0-d state tensor."""
    if mu.item() != 1:
        ax.add_(param.sub(ax).mul(mu))
    else:
        ax.copy_(param)
