"""LayerNorm: normalize over the trailing normalized_shape dims of each sample, then scale and
shift elementwise; GroupNorm: normalize each sample's groups of channels, then scale and shift
per channel (weight ones, bias zeros at the start)."""

import numbers

import opscope
from opscope.nn import functional as F
from opscope.nn import init
from opscope.nn.modules.module import Module
from opscope.nn.parameter import Parameter

__all__ = ["LayerNorm", "GroupNorm", "LocalResponseNorm", "CrossMapLRN2d"]


class LayerNorm(Module):
    """(*, *normalized_shape) -> same shape: (x - mean) / sqrt(var + eps) * weight + bias, mean and
    (biased) var over the normalized dims."""

    __constants__ = ["normalized_shape", "eps", "elementwise_affine"]

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, device=None, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if self.elementwise_affine:
            self.weight = Parameter(opscope.empty(self.normalized_shape, device=device, dtype=dtype))
            self.bias = Parameter(opscope.empty(self.normalized_shape, device=device, dtype=dtype))
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        if self.elementwise_affine:
            init.ones_(self.weight)
            init.zeros_(self.bias)

    def forward(self, input):
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return "{normalized_shape}, eps={eps}, elementwise_affine={elementwise_affine}".format(**self.__dict__)


class GroupNorm(Module):
    """(N, C, *) -> same shape: the C channels split into num_groups groups, each sample's group
    normalized over its channels and *, then weight[c] x + bias[c] (F.group_norm)."""

    __constants__ = ["num_groups", "num_channels", "eps", "affine"]

    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, device=None, dtype=None):
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError("num_channels must be divisible by num_groups")
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        if self.affine:
            self.weight = Parameter(opscope.empty(num_channels, device=device, dtype=dtype))
            self.bias = Parameter(opscope.empty(num_channels, device=device, dtype=dtype))
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        if self.affine:
            init.ones_(self.weight)
            init.zeros_(self.bias)

    def forward(self, input):
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return "{num_groups}, {num_channels}, eps={eps}, affine={affine}".format(**self.__dict__)


class LocalResponseNorm(Module):
    """x / (k + alpha / size * sum of x^2 over `size` neighbouring channels)^beta, over inputs
    (N, C, *) (F.local_response_norm); no parameters."""

    __constants__ = ["size", "alpha", "beta", "k"]

    def __init__(self, size, alpha=1e-4, beta=0.75, k=1.0):
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input):
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self):
        return "{size}, alpha={alpha}, beta={beta}, k={k}".format(**self.__dict__)


class CrossMapLRN2d(Module):
    """LocalResponseNorm's legacy form over 4-D inputs (N, C, H, W): its own autograd Function
    (opscope.nn.modules._functions.CrossMapLRN2d), as torch's."""

    def __init__(self, size, alpha=1e-4, beta=0.75, k=1):
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input):
        from opscope.nn.modules._functions import CrossMapLRN2d as _cross_map_lrn2d
        return _cross_map_lrn2d.apply(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self):
        return "{size}, alpha={alpha}, beta={beta}, k={k}".format(**self.__dict__)
