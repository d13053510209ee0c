"""Fold and Unfold: F.fold / F.unfold (col2im / im2col) as layers without parameters, as
torch.nn.modules.fold; their arguments are kept as given and printed so.

>>> import opscope
>>> from opscope import nn
>>> nn.Unfold(kernel_size=(2, 3))
Unfold(kernel_size=(2, 3), dilation=1, padding=0, stride=1)
>>> nn.Unfold(2)(opscope.zeros(1, 3, 4, 4)).shape
torch.Size([1, 12, 9])
>>> nn.Fold(output_size=4, kernel_size=2)(opscope.ones(1, 12, 9))[0, 0]
tensor([[1., 2., 2., 1.],
        [2., 4., 4., 2.],
        [2., 4., 4., 2.],
        [1., 2., 2., 1.]])
"""
from opscope.nn import functional as F
from opscope.nn.modules.module import Module

__all__ = ["Fold", "Unfold"]


class Fold(Module):
    """(N, C kh kw, L) or (C kh kw, L) -> (N, C, H, W) or (C, H, W), (H, W) = output_size: each
    column a block added into the image where the window sits (overlaps summed)."""

    __constants__ = ["output_size", "kernel_size", "dilation", "padding", "stride"]

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.output_size = output_size
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input):
        return F.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return ("output_size={output_size}, kernel_size={kernel_size}, "
                "dilation={dilation}, padding={padding}, stride={stride}".format(**self.__dict__))


class Unfold(Module):
    """(N, C, H, W) or (C, H, W) -> (N, C kh kw, L) or (C kh kw, L): the block under the window
    at each of the L positions, one column each."""

    __constants__ = ["kernel_size", "dilation", "padding", "stride"]

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input):
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return ("kernel_size={kernel_size}, dilation={dilation}, padding={padding},"
                " stride={stride}".format(**self.__dict__))
