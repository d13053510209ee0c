"""``opscope.optim.SGD``: stochastic gradient descent with momentum, dampening, Nesterov momentum,
weight decay and maximize, torch 1.13's update:

    d = ±grad + weight_decay * p
    buf = d (first step), else momentum * buf + (1 - dampening) * d
    p -= lr * (d + momentum * buf if nesterov else buf)          (no momentum: p -= lr * d)
"""
import opscope

from .optimizer import Optimizer, _direction, _foreach_directions, required

__all__ = ["SGD"]


class SGD(Optimizer):
    def __init__(self, params, lr=required, momentum=0, dampening=0, weight_decay=0,
                 nesterov=False, *, maximize=False, foreach=None, differentiable=False,
                 fused=None):
        if lr is not required and lr < 0.0:
            raise ValueError("Invalid learning rate: {}".format(lr))
        if momentum < 0.0:
            raise ValueError("Invalid momentum value: {}".format(momentum))
        if weight_decay < 0.0:
            raise ValueError("Invalid weight_decay value: {}".format(weight_decay))
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                        nesterov=nesterov, maximize=maximize, foreach=foreach,
                        differentiable=differentiable)
        if fused is not None:  # torch 1.13's SGD has no such option: its groups show it if given
            defaults["fused"] = fused
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)

    _group_defaults = (("nesterov", False), ("maximize", False), ("foreach", None),
                       ("differentiable", False))

    def _update_group(self, group, params, grads):
        bufs = [self.state[p].get("momentum_buffer") for p in params]
        self._path(group, params, grads, _single_tensor_sgd, _multi_tensor_sgd, _fused_sgd)(
            params, grads, bufs, lr=group["lr"], momentum=group["momentum"],
            dampening=group["dampening"], weight_decay=group["weight_decay"],
            nesterov=group["nesterov"], maximize=group["maximize"])
        for p, buf in zip(params, bufs):  # as torch: None without momentum
            self.state[p]["momentum_buffer"] = buf


def _single_tensor_sgd(params, grads, bufs, *, lr, momentum, dampening, weight_decay, nesterov,
                       maximize):
    for i, param in enumerate(params):
        d_p = _direction(param, grads[i], maximize, weight_decay)
        if momentum != 0:
            buf = bufs[i]
            if buf is None:
                buf = bufs[i] = d_p.clone().detach()
            else:
                buf.mul_(momentum).add_(d_p, alpha=1 - dampening)
            d_p = d_p.add(buf, alpha=momentum) if nesterov else buf
        param.add_(d_p, alpha=-lr)


def _multi_tensor_sgd(params, grads, bufs, *, lr, momentum, dampening, weight_decay, nesterov,
                      maximize):
    grads = _foreach_directions(params, grads, maximize, weight_decay)
    if momentum != 0:
        if all(b is not None for b in bufs):
            opscope._foreach_mul_(bufs, momentum)
            opscope._foreach_add_(bufs, grads, alpha=1 - dampening)
        else:
            for i, g in enumerate(grads):
                if bufs[i] is None:
                    bufs[i] = g.clone().detach()
                else:
                    bufs[i].mul_(momentum).add_(g, alpha=1 - dampening)
        grads = opscope._foreach_add(grads, bufs, alpha=momentum) if nesterov else list(bufs)
    opscope._foreach_add_(params, grads, alpha=-lr)


def _fused_sgd(params, grads, bufs, *, lr, momentum, dampening, weight_decay, nesterov, maximize):
    """One opscope._fused_sgd_ call per kind of parameter: those whose momentum buffer exists, and
    those taking their first step (their buffers made here, set to the gradient by the kernel)."""
    options = dict(weight_decay=weight_decay, momentum=momentum, lr=lr, dampening=dampening,
                   nesterov=nesterov, maximize=maximize)
    if momentum == 0:
        opscope._fused_sgd_(params, grads, [], is_first_step=False, **options)
        return
    old = [i for i, b in enumerate(bufs) if b is not None]
    new = [i for i, b in enumerate(bufs) if b is None]
    for i in new:
        bufs[i] = opscope.empty_like(params[i])
    for idx, first in ((old, False), (new, True)):
        if idx:
            opscope._fused_sgd_([params[i] for i in idx], [grads[i] for i in idx],
                                [bufs[i] for i in idx], is_first_step=first, **options)
