"""Pooling layers: MaxPool1d / 2d, AvgPool1d / 2d, AdaptiveAvgPool1d / 2d, AdaptiveMaxPool1d / 2d,
with torch.nn's arguments and printing.

>>> from opscope import nn
>>> nn.MaxPool2d(2)
MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)
>>> nn.AvgPool1d(3)
AvgPool1d(kernel_size=(3,), stride=(3,), padding=(0,))
>>> nn.AdaptiveAvgPool2d((1, 1))
AdaptiveAvgPool2d(output_size=(1, 1))
"""

from opscope.nn import functional as F
from opscope.nn.modules import Module

__all__ = ["MaxPool1d", "MaxPool2d", "AvgPool1d", "AvgPool2d", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d",
           "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d", "AvgPool3d"]


class _MaxPoolNd(Module):
    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding, self.dilation = padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def extra_repr(self):
        return "kernel_size={kernel_size}, stride={stride}, padding={padding}, dilation={dilation}, " \
               "ceil_mode={ceil_mode}".format(**self.__dict__)


class MaxPool1d(_MaxPoolNd):
    """input (N, C, L) or (C, L) -> (N, C, L_out): the maximum of each window."""

    def forward(self, input):
        return F.max_pool1d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class MaxPool2d(_MaxPoolNd):
    """input (N, C, H, W) or (C, H, W) -> (N, C, H_out, W_out): the maximum of each window."""

    def forward(self, input):
        return F.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class AvgPool1d(Module):
    """input (N, C, L) or (C, L) -> (N, C, L_out): the mean of each window."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        super().__init__()
        single = lambda x: tuple(x) if isinstance(x, (list, tuple)) else (x,)  # noqa: E731
        self.kernel_size = single(kernel_size)
        self.stride = single(stride if stride is not None else kernel_size)
        self.padding = single(padding)
        self.ceil_mode, self.count_include_pad = ceil_mode, count_include_pad

    def forward(self, input):
        return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad)

    def extra_repr(self):
        return "kernel_size={}, stride={}, padding={}".format(self.kernel_size, self.stride, self.padding)


class AvgPool2d(Module):
    """input (N, C, H, W) or (C, H, W) -> (N, C, H_out, W_out): the mean of each window."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding, self.ceil_mode = padding, ceil_mode
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override

    def forward(self, input):
        return F.avg_pool2d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)

    def extra_repr(self):
        return "kernel_size={}, stride={}, padding={}".format(self.kernel_size, self.stride, self.padding)


class AvgPool3d(Module):
    """input (N, C, T, H, W) or (C, T, H, W) -> (N, C, T_out, H_out, W_out): the mean of each
    window."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding, self.ceil_mode = padding, ceil_mode
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override

    def forward(self, input):
        return F.avg_pool3d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)

    def extra_repr(self):
        return "kernel_size={}, stride={}, padding={}".format(self.kernel_size, self.stride, self.padding)


class _AdaptivePoolNd(Module):
    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size = output_size
        if return_indices:
            self.return_indices = True

    def extra_repr(self):
        return "output_size={}".format(self.output_size)


class AdaptiveAvgPool1d(_AdaptivePoolNd):
    def __init__(self, output_size):
        super().__init__(output_size)

    def forward(self, input):
        return F.adaptive_avg_pool1d(input, self.output_size)


class AdaptiveAvgPool2d(_AdaptivePoolNd):
    def __init__(self, output_size):
        super().__init__(output_size)

    def forward(self, input):
        return F.adaptive_avg_pool2d(input, self.output_size)


class AdaptiveMaxPool1d(_AdaptivePoolNd):
    def __init__(self, output_size, return_indices=False):
        super().__init__(output_size)
        self.return_indices = return_indices

    def forward(self, input):
        return F.adaptive_max_pool1d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool2d(_AdaptivePoolNd):
    def __init__(self, output_size, return_indices=False):
        super().__init__(output_size)
        self.return_indices = return_indices

    def forward(self, input):
        return F.adaptive_max_pool2d(input, self.output_size, self.return_indices)


def _ntuple(x, n):
    """torch's _single / _pair / _triple: a sequence as a tuple, anything else repeated n times."""
    if isinstance(x, (list, tuple)):
        return tuple(x)
    return (x,) * n


class _MaxUnpoolNd(Module):
    """max pooling's partial inverse: each value put back where its index says, zeros elsewhere;
    kernel_size, stride (default: kernel_size) and padding give the default output size."""

    _dims = 0

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        self.kernel_size = _ntuple(kernel_size, self._dims)
        self.stride = _ntuple(stride if (stride is not None) else kernel_size, self._dims)
        self.padding = _ntuple(padding, self._dims)

    def extra_repr(self):
        return "kernel_size={}, stride={}, padding={}".format(self.kernel_size, self.stride, self.padding)


class MaxUnpool1d(_MaxUnpoolNd):
    """(N, C, L) or (C, L) with max_pool1d's indices -> (N, C, L_out)."""

    _dims = 1

    def forward(self, input, indices, output_size=None):
        return F.max_unpool1d(input, indices, self.kernel_size, self.stride, self.padding, output_size)


class MaxUnpool2d(_MaxUnpoolNd):
    """(N, C, H, W) or (C, H, W) with max_pool2d's indices -> (N, C, H_out, W_out)."""

    _dims = 2

    def forward(self, input, indices, output_size=None):
        return F.max_unpool2d(input, indices, self.kernel_size, self.stride, self.padding, output_size)


class MaxUnpool3d(_MaxUnpoolNd):
    """(N, C, D, H, W) or (C, D, H, W) with flat (d H + h) W + w indices -> (N, C, D_out, H_out,
    W_out)."""

    _dims = 3

    def forward(self, input, indices, output_size=None):
        return F.max_unpool3d(input, indices, self.kernel_size, self.stride, self.padding, output_size)
