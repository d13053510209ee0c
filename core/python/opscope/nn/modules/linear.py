"""Identity and Linear: y = x and y = x W^T + b, with torch's parameter shapes and
initialisation (reset_parameters: kaiming_uniform_(W, a=sqrt(5)), which is U(-1/sqrt(in),
1/sqrt(in)), and the same bound for b)."""

import math

import opscope
from opscope.nn import functional as F
from opscope.nn import init
from opscope.nn.modules.module import Module
from opscope.nn.parameter import Parameter

__all__ = ["Identity", "Linear", "Bilinear"]


class Identity(Module):
    """Returns its input (any arguments to the constructor are ignored): a placeholder layer."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class Linear(Module):
    """y = x W^T + b: x (*, in_features) -> (*, out_features); W (out_features, in_features),
    b (out_features)."""

    __constants__ = ["in_features", "out_features"]

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(opscope.empty((out_features, in_features), device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(opscope.empty(out_features, device=device, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return "in_features={}, out_features={}, bias={}".format(
            self.in_features, self.out_features, self.bias is not None)


class Bilinear(Module):
    """y = x1^T A x2 + b: x1 (*, in1_features), x2 (*, in2_features) -> (*, out_features); A
    (out_features, in1_features, in2_features), b (out_features), both U(-1/sqrt(in1),
    1/sqrt(in1)) as torch's reset_parameters."""

    __constants__ = ["in1_features", "in2_features", "out_features"]

    def __init__(self, in1_features, in2_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in1_features = in1_features
        self.in2_features = in2_features
        self.out_features = out_features
        self.weight = Parameter(opscope.empty((out_features, in1_features, in2_features), device=device,
                                              dtype=dtype))
        if bias:
            self.bias = Parameter(opscope.empty(out_features, device=device, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        bound = 1 / math.sqrt(self.weight.size(1))
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1, input2):
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self):
        return "in1_features={}, in2_features={}, out_features={}, bias={}".format(
            self.in1_features, self.in2_features, self.out_features, self.bias is not None)
