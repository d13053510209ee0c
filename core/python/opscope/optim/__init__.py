"""``opscope.optim``: SGD (momentum, dampening, Nesterov, weight decay), Adam, AdamW and RMSprop,
with torch 1.13's update rules, parameter groups, state and zero_grad.

>>> import opscope
>>> w = opscope.nn.Parameter(opscope.tensor([1.0, -2.0]))
>>> opt = opscope.optim.SGD([w], lr=0.1, momentum=0.9)
>>> (w * w).sum().backward()
>>> opt.step()
>>> w
Parameter containing:
tensor([ 0.8000, -1.6000], requires_grad=True)
"""

import math

import opscope

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop"]


class Optimizer:
    """Holds parameter groups (dicts with 'params' and the hyper-parameters) and per-parameter
    state; subclasses implement step()."""

    def __init__(self, params, defaults):
        self.defaults = defaults
        self.state = {}
        self.param_groups = []
        params = list(params)
        if not params:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(params[0], dict):
            params = [{"params": params}]
        for group in params:
            self.add_param_group(group)

    def add_param_group(self, group):
        group = dict(group)
        ps = group["params"]
        group["params"] = [ps] if isinstance(ps, opscope.Tensor) else list(ps)
        for p in group["params"]:
            if not p.is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")
        for k, v in self.defaults.items():
            group.setdefault(k, v)
        self.param_groups.append(group)

    def _gradients(self):
        """(group, parameter, gradient, state) for every parameter that has a .grad: the gradient
        negated when its group maximizes, the parameter's state dict made on first use."""
        for g in self.param_groups:
            for p in g["params"]:
                if p.grad is not None:
                    grad = -p.grad if g["maximize"] else p.grad
                    yield g, p, grad, self.state.setdefault(p, {})

    @staticmethod
    def _evaluate(closure):
        """What step(closure) starts with: the loss the closure computes (with grad mode on,
        inside step's no_grad), or None without a closure."""
        if closure is None:
            return None
        with opscope.enable_grad():
            return closure()

    def zero_grad(self, set_to_none=False):
        """Clears the gradients (zeroes them, as torch 1.13 does by default)."""
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    if set_to_none:
                        p.grad = None
                    else:
                        p.grad.detach_()
                        p.grad.zero_()

    def state_dict(self):
        ids = {}
        groups = []
        for group in self.param_groups:
            g = {k: v for k, v in group.items() if k != "params"}
            g["params"] = [ids.setdefault(id(p), len(ids)) for p in group["params"]]
            groups.append(g)
        state = {ids[id(p)]: s for group in self.param_groups for p in group["params"]
                 for s in [self.state.get(p)] if s is not None}
        return {"state": state, "param_groups": groups}

    def __repr__(self):
        lines = [type(self).__name__ + " ("]
        for i, group in enumerate(self.param_groups):
            lines.append(f"Parameter Group {i}")
            for k in sorted(k for k in group if k != "params"):
                lines.append(f"    {k}: {group[k]}")
        return "\n".join(lines) + "\n)"

    def step(self, closure=None):
        raise NotImplementedError


class SGD(Optimizer):
    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False,
                 *, maximize=False):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening,
                                      weight_decay=weight_decay, nesterov=nesterov, maximize=maximize))

    @opscope.no_grad()
    def step(self, closure=None):
        loss = self._evaluate(closure)
        for g in self.param_groups:
            for p in g["params"]:
                if p.grad is None:
                    continue
                d_p = p.grad if not g["maximize"] else -p.grad
                if g["weight_decay"] != 0:
                    d_p = d_p.add(p, alpha=g["weight_decay"])
                if g["momentum"] != 0:
                    state = self.state.setdefault(p, {})
                    buf = state.get("momentum_buffer")
                    if buf is None:
                        buf = state["momentum_buffer"] = d_p.clone().detach()
                    else:
                        buf.mul_(g["momentum"]).add_(d_p, alpha=1 - g["dampening"])
                    d_p = d_p.add(buf, alpha=g["momentum"]) if g["nesterov"] else buf
                p.add_(d_p, alpha=-g["lr"])
        return loss


class Adam(Optimizer):
    """Adam (decoupled=False) and, through AdamW, AdamW: moving averages of the gradient and its
    square, bias-corrected."""

    _decoupled = False

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 amsgrad=False, *, maximize=False):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if eps < 0.0:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                                      amsgrad=amsgrad, maximize=maximize))

    @opscope.no_grad()
    def step(self, closure=None):
        loss = self._evaluate(closure)
        for g, p, grad, state in self._gradients():
            beta1, beta2 = g["betas"]
            if not state:
                state["step"] = 0
                state["exp_avg"] = opscope.zeros_like(p)
                state["exp_avg_sq"] = opscope.zeros_like(p)
                if g["amsgrad"]:
                    state["max_exp_avg_sq"] = opscope.zeros_like(p)
            state["step"] += 1
            if g["weight_decay"] != 0:
                if self._decoupled:
                    p.mul_(1 - g["lr"] * g["weight_decay"])
                else:
                    grad = grad.add(p, alpha=g["weight_decay"])
            exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
            exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
            exp_avg_sq.mul_(beta2).add_(grad * grad, alpha=1 - beta2)
            step = state["step"]
            step_size = g["lr"] / (1 - beta1 ** step)
            bias_correction2_sqrt = math.sqrt(1 - beta2 ** step)
            if g["amsgrad"]:
                state["max_exp_avg_sq"] = opscope.maximum(state["max_exp_avg_sq"], exp_avg_sq)
                denom = (state["max_exp_avg_sq"].sqrt() / bias_correction2_sqrt).add_(g["eps"])
            else:
                denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(g["eps"])
            p.add_(exp_avg / denom, alpha=-step_size)
        return loss


class AdamW(Adam):
    """Adam with decoupled weight decay (weight_decay 1e-2 by default)."""

    _decoupled = True

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                 amsgrad=False, *, maximize=False):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize)


class RMSprop(Optimizer):
    """RMSprop: divides the gradient by the root of a moving average of its square (alpha the
    average's decay); centered subtracts the squared moving average of the gradient first;
    momentum accumulates the divided gradient. torch 1.13's update, step by step:

        square_avg = alpha * square_avg + (1 - alpha) * grad**2
        avg = sqrt(square_avg - grad_avg**2 if centered else square_avg) + eps
        param -= lr * (buf = momentum * buf + grad / avg  if momentum else  grad / avg)
    """

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0,
                 centered=False, *, maximize=False):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if eps < 0.0:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if alpha < 0.0:
            raise ValueError(f"Invalid alpha value: {alpha}")
        super().__init__(params, dict(lr=lr, alpha=alpha, eps=eps, weight_decay=weight_decay,
                                      momentum=momentum, centered=centered, maximize=maximize))

    @opscope.no_grad()
    def step(self, closure=None):
        loss = self._evaluate(closure)
        for g, p, grad, state in self._gradients():
            alpha = g["alpha"]
            if not state:
                state["step"] = 0
                state["square_avg"] = opscope.zeros_like(p)
                if g["momentum"] > 0:
                    state["momentum_buffer"] = opscope.zeros_like(p)
                if g["centered"]:
                    state["grad_avg"] = opscope.zeros_like(p)
            state["step"] += 1
            if g["weight_decay"] != 0:
                grad = grad.add(p, alpha=g["weight_decay"])
            square_avg = state["square_avg"]
            square_avg.mul_(alpha).add_(grad * grad, alpha=1 - alpha)
            if g["centered"]:
                grad_avg = state["grad_avg"]
                grad_avg.mul_(alpha).add_(grad, alpha=1 - alpha)
                avg = square_avg.sub(grad_avg * grad_avg).sqrt_()
            else:
                avg = square_avg.sqrt()
            avg.add_(g["eps"])
            if g["momentum"] > 0:
                buf = state["momentum_buffer"]
                buf.mul_(g["momentum"]).add_(grad / avg)
                p.add_(buf, alpha=-g["lr"])
            else:
                p.add_(grad / avg, alpha=-g["lr"])
        return loss


from opscope.optim import lr_scheduler  # noqa: E402,F401  (schedules: opscope/optim/lr_scheduler.py)
