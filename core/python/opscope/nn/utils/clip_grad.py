"""Gradient clipping: rescale all gradients together so their joint norm is at most max_norm
(clip_grad_norm_), or clamp each gradient element (clip_grad_value_). In place on .grad.

>>> import opscope
>>> from opscope.nn.utils import clip_grad_norm_
>>> p = opscope.zeros(2, requires_grad=True)
>>> p.grad = opscope.tensor([3.0, 4.0])
>>> clip_grad_norm_([p], max_norm=1.0)
tensor(5.)
>>> p.grad
tensor([0.6000, 0.8000])
"""

import math
import warnings

import opscope

__all__ = ["clip_grad_norm_", "clip_grad_norm", "clip_grad_value_"]


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False):
    """Scales the gradients of parameters (a tensor or an iterable of them) by
    min(1, max_norm / (total_norm + 1e-6)), total_norm being the norm_type-norm of all gradients
    together (inf: the largest |element|). Returns total_norm (a 0-d tensor); a nan or inf total
    raises RuntimeError when error_if_nonfinite."""
    if isinstance(parameters, opscope.Tensor):
        parameters = [parameters]
    grads = [p.grad for p in parameters if p.grad is not None]
    max_norm = float(max_norm)
    norm_type = float(norm_type)
    if len(grads) == 0:
        return opscope.tensor(0.0)
    # Each gradient's norm is gathered on the first gradient's device, and the coefficient taken
    # back to each one's, as torch 1.13 does: parameters may live on several devices.
    device = grads[0].device
    if norm_type == math.inf:
        norms = [g.detach().abs().max().to(device) for g in grads]
        total_norm = norms[0] if len(norms) == 1 else opscope.stack(norms).max()
    else:
        total_norm = opscope.stack([g.detach().norm(norm_type).to(device)
                                    for g in grads]).norm(norm_type)
    if error_if_nonfinite and bool(total_norm.isnan() | total_norm.isinf()):
        raise RuntimeError(
            f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, so it "
            "cannot be clipped. To disable this error and scale the gradients by the non-finite norm "
            "anyway, set `error_if_nonfinite=False`")
    clip_coef = max_norm / (total_norm + 1e-6)
    # Multiplying by the clamped coefficient (1 when there is nothing to clip) rather than
    # branching, as torch does: the same ops run either way.
    clip_coef_clamped = opscope.clamp(clip_coef, max=1.0)
    for g in grads:
        g.detach().mul_(clip_coef_clamped.to(g.device))
    return total_norm


def clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False):
    """Deprecated spelling of clip_grad_norm_."""
    warnings.warn("torch.nn.utils.clip_grad_norm is now deprecated in favor of "
                  "torch.nn.utils.clip_grad_norm_.", stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite)


def clip_grad_value_(parameters, clip_value):
    """Clamps every gradient element of parameters into [-clip_value, clip_value]."""
    if isinstance(parameters, opscope.Tensor):
        parameters = [parameters]
    clip_value = float(clip_value)
    for p in parameters:
        if p.grad is not None:
            p.grad.detach().clamp_(min=-clip_value, max=clip_value)
