"""Activation layers: each applies its opscope.nn.functional function, with torch's constructor
arguments, checks and extra_repr (what shows in the model's printout)."""

import warnings

from opscope.nn import functional as F
import opscope
from opscope.nn.modules.module import Module
from opscope.nn.parameter import Parameter

__all__ = ["Threshold", "ReLU", "ReLU6", "PReLU", "RReLU", "Hardshrink", "Softshrink", "LeakyReLU", "ELU", "CELU", "SELU", "GELU", "SiLU", "Mish", "Tanh",
           "Sigmoid", "Hardtanh", "Hardsigmoid", "Hardswish", "Softplus", "Softmax", "LogSoftmax",
           "Softmin", "LogSigmoid", "Softsign", "Tanhshrink", "GLU", "Softmax2d"]


def _inplace_repr(inplace, leading=""):
    return (leading + "inplace=True") if inplace else ""


class Threshold(Module):
    """value where x <= threshold, x elsewhere."""

    __constants__ = ["threshold", "value", "inplace"]

    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold, self.value, self.inplace = threshold, value, inplace

    def forward(self, input):
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self):
        return "threshold={}, value={}{}".format(self.threshold, self.value,
                                                 _inplace_repr(self.inplace, ", "))


class ReLU(Module):
    """max(x, 0)."""

    __constants__ = ["inplace"]

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self):
        return _inplace_repr(self.inplace)


class PReLU(Module):
    """x where x > 0, a x elsewhere, with a learnt slope a: one for every channel (dim 1), or one
    for all (num_parameters=1), each starting at `init`."""

    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        self.num_parameters = num_parameters
        super().__init__()
        self.weight = Parameter(opscope.empty(num_parameters, device=device, dtype=dtype)
                                .fill_(init))

    def forward(self, input):
        return F.prelu(input, self.weight)

    def extra_repr(self):
        return "num_parameters={}".format(self.num_parameters)


class RReLU(Module):
    """x where x >= 0, a x elsewhere: a drawn from U(lower, upper) per element in training,
    (lower + upper) / 2 in evaluation."""

    def __init__(self, lower=1.0 / 8, upper=1.0 / 3, inplace=False):
        super().__init__()
        self.lower, self.upper, self.inplace = lower, upper, inplace

    def forward(self, input):
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self):
        return "lower={}, upper={}{}".format(self.lower, self.upper,
                                             _inplace_repr(self.inplace, ", "))


class Hardshrink(Module):
    """0 where -lambd <= x <= lambd, x elsewhere."""

    __constants__ = ["lambd"]

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return F.hardshrink(input, self.lambd)

    def extra_repr(self):
        return "{}".format(self.lambd)


class Softshrink(Hardshrink):
    """x - lambd above lambd, x + lambd below -lambd, 0 between."""

    def forward(self, input):
        return F.softshrink(input, self.lambd)


class Hardtanh(Module):
    """clamp(x, min_val, max_val)."""

    __constants__ = ["min_val", "max_val", "inplace"]

    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False, min_value=None, max_value=None):
        super().__init__()
        if min_value is not None:
            warnings.warn("keyword argument min_value is deprecated and rename to min_val")
            min_val = min_value
        if max_value is not None:
            warnings.warn("keyword argument max_value is deprecated and rename to max_val")
            max_val = max_value
        self.min_val, self.max_val, self.inplace = min_val, max_val, inplace
        assert self.max_val > self.min_val

    def forward(self, input):
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self):
        return "min_val={}, max_val={}{}".format(self.min_val, self.max_val, _inplace_repr(self.inplace, ", "))


class ReLU6(Hardtanh):
    """min(max(x, 0), 6)."""

    def __init__(self, inplace=False):
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self):
        return _inplace_repr(self.inplace)


class LeakyReLU(Module):
    """x where x > 0, negative_slope * x elsewhere."""

    __constants__ = ["inplace", "negative_slope"]

    def __init__(self, negative_slope=1e-2, inplace=False):
        super().__init__()
        self.negative_slope, self.inplace = negative_slope, inplace

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self):
        return "negative_slope={}{}".format(self.negative_slope, _inplace_repr(self.inplace, ", "))


class ELU(Module):
    """x where x > 0, alpha (exp(x) - 1) elsewhere."""

    __constants__ = ["alpha", "inplace"]

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha, self.inplace = alpha, inplace

    def forward(self, input):
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self):
        return "alpha={}{}".format(self.alpha, _inplace_repr(self.inplace, ", "))


class CELU(ELU):
    """x where x > 0, alpha (exp(x / alpha) - 1) elsewhere."""

    def forward(self, input):
        return F.celu(input, self.alpha, self.inplace)


class SELU(Module):
    """scale * elu(x, alpha), the self-normalizing constants."""

    __constants__ = ["inplace"]

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.selu(input, self.inplace)

    def extra_repr(self):
        return _inplace_repr(self.inplace)


class GELU(Module):
    """x * Phi(x) (approximate='tanh': the tanh approximation)."""

    __constants__ = ["approximate"]

    def __init__(self, approximate="none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self):
        return "approximate={}".format(repr(self.approximate))


class SiLU(Module):
    """x * sigmoid(x)."""

    __constants__ = ["inplace"]

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.silu(input, inplace=self.inplace)

    def extra_repr(self):
        return _inplace_repr(self.inplace)


class Mish(SiLU):
    """x * tanh(softplus(x))."""

    def forward(self, input):
        return F.mish(input, inplace=self.inplace)


class Hardsigmoid(Module):
    """clamp(x / 6 + 1/2, 0, 1)."""

    __constants__ = ["inplace"]

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.hardsigmoid(input, self.inplace)


class Hardswish(Hardsigmoid):
    """x * hardsigmoid(x)."""

    def forward(self, input):
        return F.hardswish(input, self.inplace)


class Tanh(Module):
    def forward(self, input):
        return input.tanh()


class Sigmoid(Module):
    def forward(self, input):
        return input.sigmoid()


class LogSigmoid(Module):
    def forward(self, input):
        return F.logsigmoid(input)


class Softsign(Module):
    def forward(self, input):
        return F.softsign(input)


class Tanhshrink(Module):
    def forward(self, input):
        return F.tanhshrink(input)


class Softplus(Module):
    """log(1 + exp(beta x)) / beta (x itself where beta x > threshold)."""

    __constants__ = ["beta", "threshold"]

    def __init__(self, beta=1, threshold=20):
        super().__init__()
        self.beta, self.threshold = beta, threshold

    def forward(self, input):
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self):
        return "beta={}, threshold={}".format(self.beta, self.threshold)


class _SoftmaxBase(Module):
    """Softmax-like layers along dim (None: torch's deprecated implicit choice, with its warning)."""

    __constants__ = ["dim"]

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def __setstate__(self, state):
        super().__setstate__(state)
        if not hasattr(self, "dim"):
            self.dim = None

    def extra_repr(self):
        return "dim={dim}".format(dim=self.dim)


class Softmax(_SoftmaxBase):
    """exp(x) / sum(exp(x)) along dim."""

    def forward(self, input):
        return F.softmax(input, self.dim, _stacklevel=5)


class LogSoftmax(_SoftmaxBase):
    """log(softmax(x)) along dim."""

    def forward(self, input):
        return F.log_softmax(input, self.dim, _stacklevel=5)


class Softmin(_SoftmaxBase):
    """softmax(-x) along dim."""

    def forward(self, input):
        return F.softmin(input, self.dim, _stacklevel=5)


class Softmax2d(Module):
    """Softmax over the channels (dim -3) of each spatial location of a (N, C, H, W) or (C, H, W)
    input."""

    def forward(self, input):
        assert input.dim() == 4 or input.dim() == 3, "Softmax2d requires a 3D or 4D tensor as input"
        return F.softmax(input, -3, _stacklevel=5)


class GLU(Module):
    """The gated linear unit: a sigmoid(b), a and b the input's halves along dim."""

    __constants__ = ["dim"]

    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.glu(input, self.dim)

    def extra_repr(self):
        return "dim={}".format(self.dim)
