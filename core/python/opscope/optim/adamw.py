"""``opscope.optim.AdamW``: Adam with decoupled weight decay (the parameter shrinks by
lr * weight_decay each step instead of the decay joining the gradient); the update is Adam's
(adam.py), weight_decay 1e-2 by default, as torch 1.13."""
from .adam import Adam
from .optimizer import Optimizer, _check_args

__all__ = ["AdamW"]


class AdamW(Optimizer):
    _decoupled = True

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                 amsgrad=False, *, maximize=False, foreach=None, capturable=False, fused=None):
        _check_args(lr=lr, eps=eps, betas=betas, weight_decay=weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad,
                        foreach=foreach, maximize=maximize, capturable=capturable)
        if fused is not None:  # torch 1.13's AdamW has no such option: its groups show it if given
            defaults["fused"] = fused
        super().__init__(params, defaults)

    _group_defaults = (("amsgrad", False), ("maximize", False), ("foreach", None),
                       ("capturable", False))

    _update_group = Adam._update_group
