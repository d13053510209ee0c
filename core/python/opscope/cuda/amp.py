"""``opscope.cuda.amp``: torch.cuda.amp's ``autocast`` and ``GradScaler``. Mixed precision is a
CUDA feature; where CUDA is not available both disable themselves with torch's warning, and a
training loop written for a GPU runs unchanged in float32:

>>> import opscope as torch
>>> scaler = torch.cuda.amp.GradScaler(enabled=False)
>>> scaler.is_enabled(), scaler.get_scale()
(False, 1.0)

Enabled (on a machine with a GPU), GradScaler does torch's loss scaling: scale() multiplies the
loss by the scale, unscale_() divides the gradients by it and notes infinities, step() skips the
optimizer's step when one was found, update() backs the scale off after an overflow and grows it
after `growth_interval` clean steps.
"""

import warnings

import opscope

__all__ = ["autocast", "GradScaler"]


class autocast:
    """torch.cuda.amp.autocast: runs the block's CUDA ops in lower precision. Without CUDA it
    warns, as torch does, and the block runs unchanged."""

    def __init__(self, enabled=True, dtype=opscope.float16, cache_enabled=True):
        self.fast_dtype = dtype
        self._enabled = enabled
        if enabled and not opscope.cuda.is_available():
            warnings.warn("User provided device_type of 'cuda', but CUDA is not available. Disabling")
            self._enabled = False
        elif enabled:
            raise NotImplementedError("autocast: opscope has no Autocast dispatch key yet")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __call__(self, fn):
        def wrapped(*args, **kwargs):
            with self:
                return fn(*args, **kwargs)
        wrapped.__name__, wrapped.__doc__ = fn.__name__, fn.__doc__
        return wrapped


class GradScaler:
    """Scales the loss so that small float16 gradients do not underflow, and undoes the scale
    before the optimizer's step (torch.cuda.amp.GradScaler)."""

    def __init__(self, init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5,
                 growth_interval=2000, enabled=True):
        if enabled and not opscope.cuda.is_available():
            warnings.warn("torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.")
            enabled = False
        self._enabled = enabled
        if enabled:
            assert growth_factor > 1.0, "The growth factor must be > 1.0."
            assert backoff_factor < 1.0, "The backoff factor must be < 1.0."
        self._scale = float(init_scale)
        self._growth_factor, self._backoff_factor = growth_factor, backoff_factor
        self._growth_interval = growth_interval
        self._growth_tracker = 0
        self._unscaled = {}  # id(optimizer) -> found an inf or nan in its gradients

    def is_enabled(self):
        return self._enabled

    def scale(self, outputs):
        """outputs (a tensor, or tensors nested in lists / tuples) times the scale."""
        if not self._enabled:
            return outputs
        if isinstance(outputs, opscope.Tensor):
            return outputs * self._scale
        if isinstance(outputs, (list, tuple)):
            return type(outputs)(self.scale(o) for o in outputs)
        raise ValueError("outputs must be a Tensor or an iterable of Tensors")

    def unscale_(self, optimizer):
        """Divides the optimizer's gradients by the scale, once per step, and notes whether any
        holds an inf or a nan. As torch's (found_inf per device): the gradients of each device
        and dtype are divided by one _foreach_mul_, and each device's verdict is one value read
        back, not one per gradient. float16 gradients are refused, as torch refuses them."""
        if not self._enabled:
            return
        if id(optimizer) in self._unscaled:
            raise RuntimeError("unscale_() has already been called on this optimizer since the last update().")
        inv = 1.0 / self._scale
        by_device = {}  # (device, dtype) -> gradients, in the order met
        for group in optimizer.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                if p.grad.dtype == opscope.float16:
                    raise ValueError("Attempting to unscale FP16 gradients.")
                by_device.setdefault((str(p.grad.device), p.grad.dtype), []).append(p.grad)
        found_inf = False
        with opscope.no_grad():
            nonfinite = {}  # device -> a 0-d bool per gradient: any inf / nan in it
            for (device, dtype), grads in by_device.items():
                if dtype in (opscope.float32, opscope.float64):
                    opscope._foreach_mul_(grads, inv)
                else:
                    for g in grads:
                        g.mul_(inv)
                nonfinite.setdefault(device, []).extend(
                    opscope.logical_not(opscope.isfinite(g)).any() for g in grads)
            for flags in nonfinite.values():
                found_inf = found_inf or bool(opscope.stack(flags).any())
        self._unscaled[id(optimizer)] = found_inf

    def step(self, optimizer, *args, **kwargs):
        """optimizer.step(), unless the gradients held an inf or a nan."""
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if "closure" in kwargs:
            raise RuntimeError("Closure use is not currently supported if GradScaler is enabled.")
        if id(optimizer) not in self._unscaled:
            self.unscale_(optimizer)
        if not self._unscaled[id(optimizer)]:
            return optimizer.step(*args, **kwargs)
        return None

    def update(self, new_scale=None):
        """Sets the scale for the next step: new_scale, or backed off after an overflow, or grown
        after growth_interval steps without one."""
        if not self._enabled:
            return
        if new_scale is not None:
            self._scale = float(new_scale.item() if isinstance(new_scale, opscope.Tensor) else new_scale)
        elif any(self._unscaled.values()):
            self._scale *= self._backoff_factor
            self._growth_tracker = 0
        else:
            self._growth_tracker += 1
            if self._growth_tracker == self._growth_interval:
                self._scale *= self._growth_factor
                self._growth_tracker = 0
        self._unscaled.clear()

    def get_scale(self):
        return self._scale if self._enabled else 1.0

    def get_growth_factor(self):
        return self._growth_factor

    def set_growth_factor(self, new_factor):
        self._growth_factor = new_factor

    def get_backoff_factor(self):
        return self._backoff_factor

    def set_backoff_factor(self, new_factor):
        self._backoff_factor = new_factor

    def get_growth_interval(self):
        return self._growth_interval

    def set_growth_interval(self, new_interval):
        self._growth_interval = new_interval

    def state_dict(self):
        if not self._enabled:
            return {}
        return {"scale": self._scale, "growth_factor": self._growth_factor,
                "backoff_factor": self._backoff_factor, "growth_interval": self._growth_interval,
                "_growth_tracker": self._growth_tracker}

    def load_state_dict(self, state_dict):
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError("The source state dict is empty, possibly because it was saved "
                               "from a disabled instance of GradScaler.")
        self._scale = float(state_dict["scale"])
        self._growth_factor = state_dict["growth_factor"]
        self._backoff_factor = state_dict["backoff_factor"]
        self._growth_interval = state_dict["growth_interval"]
        self._growth_tracker = state_dict["_growth_tracker"]

