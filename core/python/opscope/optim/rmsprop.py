"""``opscope.optim.RMSprop``: divides the gradient by the root of a moving average of its square
(alpha the average's decay); centered subtracts the squared moving average of the gradient first;
momentum accumulates the divided gradient (fused: opscope._fused_rmsprop_, one pass; torch has
no fused RMSprop). torch 1.13's update, step by step:

    g = ±grad + weight_decay * p
    square_avg = alpha * square_avg + (1 - alpha) * g**2
    avg = sqrt(square_avg - grad_avg**2 if centered else square_avg) + eps
    p -= lr * (buf = momentum * buf + g / avg  if momentum else  g / avg)
"""
import opscope

from .optimizer import Optimizer, _check_args, _direction, _foreach_directions, _zeros

__all__ = ["RMSprop"]


class RMSprop(Optimizer):
    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0,
                 centered=False, foreach=None, maximize=False, differentiable=False):
        _check_args(lr=lr, eps=eps, momentum=momentum, weight_decay=weight_decay, alpha=alpha)
        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                        weight_decay=weight_decay, foreach=foreach, maximize=maximize,
                        differentiable=differentiable)
        super().__init__(params, defaults)

    _group_defaults = (("momentum", 0), ("centered", False), ("foreach", None),
                       ("maximize", False), ("differentiable", False))

    def _update_group(self, group, params, grads):
        momentum, centered = group["momentum"], group["centered"]

        def init(p, state):
            state["step"] = 0
            state["square_avg"] = _zeros(p)
            if momentum > 0:
                state["momentum_buffer"] = _zeros(p)
            if centered:
                state["grad_avg"] = _zeros(p)

        states = self._states(params, init)
        for state in states:
            state["step"] += 1
        self._path(group, params, grads, _single_tensor_rmsprop, _multi_tensor_rmsprop,
                   _fused_rmsprop)(
            params, grads, [s["square_avg"] for s in states],
            [s["grad_avg"] for s in states] if centered else [],
            [s["momentum_buffer"] for s in states] if momentum > 0 else [],
            lr=group["lr"], alpha=group["alpha"], eps=group["eps"],
            weight_decay=group["weight_decay"], momentum=momentum, centered=centered,
            maximize=group["maximize"])


def _fused_rmsprop(params, grads, square_avgs, grad_avgs, bufs, *, lr, alpha, eps, weight_decay,
                   momentum, centered, maximize):
    opscope._fused_rmsprop_(params, grads, square_avgs, grad_avgs, bufs, lr=lr, alpha=alpha,
                            eps=eps, weight_decay=weight_decay, momentum=momentum,
                            centered=centered, maximize=maximize)


def _single_tensor_rmsprop(params, grads, square_avgs, grad_avgs, bufs, *, lr, alpha, eps,
                           weight_decay, momentum, centered, maximize):
    for i, param in enumerate(params):
        grad = _direction(param, grads[i], maximize, weight_decay)
        square_avg = square_avgs[i]
        square_avg.mul_(alpha).add_(grad * grad, alpha=1 - alpha)
        if centered:
            grad_avg = grad_avgs[i]
            grad_avg.mul_(alpha).add_(grad, alpha=1 - alpha)
            avg = square_avg.sub(grad_avg * grad_avg).sqrt_()
        else:
            avg = square_avg.sqrt()
        avg = avg.add_(eps)
        if momentum > 0:
            buf = bufs[i]
            buf.mul_(momentum).add_(grad / avg)
            param.add_(buf, alpha=-lr)
        else:
            param.add_(grad / avg, alpha=-lr)


def _multi_tensor_rmsprop(params, grads, square_avgs, grad_avgs, bufs, *, lr, alpha, eps,
                          weight_decay, momentum, centered, maximize):
    grads = _foreach_directions(params, grads, maximize, weight_decay)
    opscope._foreach_mul_(square_avgs, alpha)
    opscope._foreach_addcmul_(square_avgs, grads, grads, 1 - alpha)
    if centered:
        opscope._foreach_mul_(grad_avgs, alpha)
        opscope._foreach_add_(grad_avgs, grads, alpha=1 - alpha)
        avg = opscope._foreach_addcmul(square_avgs, grad_avgs, grad_avgs, -1)
        opscope._foreach_sqrt_(avg)
    else:
        avg = opscope._foreach_sqrt(square_avgs)
    opscope._foreach_add_(avg, eps)
    if momentum > 0:
        opscope._foreach_mul_(bufs, momentum)
        opscope._foreach_addcdiv_(bufs, grads, avg)
        opscope._foreach_add_(params, bufs, alpha=-lr)
    else:
        opscope._foreach_addcdiv_(params, grads, avg, -lr)
