"""``opscope.optim.Rprop``: resilient backpropagation — each element moves by its own step size in
the direction of its gradient's sign, never by the gradient's magnitude; the step size grows by
etaplus while the sign holds and shrinks by etaminus when it flips (and that element then rests
a step). torch 1.13's update, elementwise, with prev the gradient kept from the last step:

    g = ±grad;                 s = sign(g * prev)
    step_size *= etaplus (s > 0), etaminus (s < 0), 1 (s == 0), clamped to step_sizes
    g = 0 where s < 0;         p -= sign(g) * step_size;         prev = g

As torch 1.13: 'step' is a Python int in the state, and step_size starts as a contiguous
tensor of the gradient's sizes filled with lr.
"""
import opscope

from .optimizer import Optimizer, _zeros

__all__ = ["Rprop"]


class Rprop(Optimizer):
    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), foreach=None,
                 maximize=False):
        if not 0.0 <= lr:
            raise ValueError("Invalid learning rate: {}".format(lr))
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError("Invalid eta values: {}, {}".format(etas[0], etas[1]))
        defaults = dict(lr=lr, etas=etas, step_sizes=step_sizes, foreach=foreach,
                        maximize=maximize)
        super().__init__(params, defaults)

    _group_defaults = (("foreach", None), ("maximize", False))

    def _update_group(self, group, params, grads):
        def init(p, state):
            state["step"] = 0
            state["prev"] = _zeros(p)
            grad = p.grad
            state["step_size"] = opscope.full(grad.shape, group["lr"], dtype=grad.dtype,
                                              device=grad.device)

        states = self._states(params, init)
        for state in states:
            state["step"] += 1
        etaminus, etaplus = group["etas"]
        step_size_min, step_size_max = group["step_sizes"]
        self._path(group, params, grads, _single_tensor_rprop, _multi_tensor_rprop)(
            params, grads, [s["prev"] for s in states], [s["step_size"] for s in states],
            etaminus=etaminus, etaplus=etaplus, step_size_min=step_size_min,
            step_size_max=step_size_max, maximize=group["maximize"])


def _factors(product, etaminus, etaplus):
    """sign(g * prev) turned, in place, into each element's step-size factor: etaplus where the
    sign held, etaminus where it flipped, 1 where either was zero."""
    factor = product.sign_()
    factor.masked_fill_(factor.gt(0), etaplus)
    factor.masked_fill_(factor.lt(0), etaminus)
    factor.masked_fill_(factor.eq(0), 1)
    return factor


def _single_tensor_rprop(params, grads, prevs, step_sizes, *, etaminus, etaplus, step_size_min,
                         step_size_max, maximize):
    for param, grad, prev, step_size in zip(params, grads, prevs, step_sizes):
        grad = grad if not maximize else -grad
        factor = _factors(grad.mul(prev), etaminus, etaplus)
        step_size.mul_(factor).clamp_(step_size_min, step_size_max)
        grad = grad.clone(memory_format=opscope.preserve_format)
        grad.masked_fill_(factor.eq(etaminus), 0)
        param.addcmul_(grad.sign(), step_size, value=-1)
        prev.copy_(grad)


def _multi_tensor_rprop(params, grads, prevs, step_sizes, *, etaminus, etaplus, step_size_min,
                        step_size_max, maximize):
    if maximize:
        grads = opscope._foreach_neg(grads)
    factors = [_factors(product, etaminus, etaplus)
               for product in opscope._foreach_mul(grads, prevs)]
    opscope._foreach_mul_(step_sizes, factors)
    for step_size in step_sizes:  # opscope has no _foreach_clamp
        step_size.clamp_(step_size_min, step_size_max)
    grads = [g.clone(memory_format=opscope.preserve_format).masked_fill_(f.eq(etaminus), 0)
             for g, f in zip(grads, factors)]
    opscope._foreach_addcmul_(params, [g.sign() for g in grads], step_sizes, -1)
    for prev, grad in zip(prevs, grads):
        prev.copy_(grad)
