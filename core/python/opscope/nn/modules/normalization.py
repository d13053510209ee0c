"""LayerNorm: normalize over the trailing normalized_shape dims of each sample, then scale and
shift elementwise (weight ones, bias zeros at the start)."""

import numbers

import opscope
from opscope.nn import functional as F
from opscope.nn import init
from opscope.nn.modules.module import Module
from opscope.nn.parameter import Parameter

__all__ = ["LayerNorm"]


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
