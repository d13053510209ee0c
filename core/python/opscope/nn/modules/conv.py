"""Convolution layers: Conv1d, Conv2d, ConvTranspose1d, ConvTranspose2d, with torch.nn's
arguments, checks, parameter shapes, initialisation and printing.

Weights are (out_channels, in_channels / groups, *kernel_size), transposed ones
(in_channels, out_channels / groups, *kernel_size); both start from torch's
kaiming_uniform_(a=sqrt(5)), which is U(-1/sqrt(fan_in), 1/sqrt(fan_in)) with fan_in =
size(1) * prod(kernel_size), and the bias from the same bound.

>>> from opscope import nn
>>> nn.Conv2d(1, 6, 5)
Conv2d(1, 6, kernel_size=(5, 5), stride=(1, 1))
>>> nn.Conv1d(4, 8, 3, padding="same", bias=False)
Conv1d(4, 8, kernel_size=(3,), stride=(1,), padding=same, bias=False)
"""

import math

import opscope
from opscope.nn import functional as F
from opscope.nn.modules import Module, Parameter

__all__ = ["Conv1d", "Conv2d", "ConvTranspose1d", "ConvTranspose2d"]


def _ntuple(n):
    def parse(x):
        if isinstance(x, (list, tuple)):
            return tuple(x)
        return (x,) * n
    return parse


_single, _pair = _ntuple(1), _ntuple(2)


def _reverse_repeat_tuple(t, n):
    """(a, b) -> (b, b, a, a) for n = 2: F.pad's order for a padding given per spatial dim."""
    return tuple(x for x in reversed(t) for _ in range(n))


def _pad_index(size, left, right, mode):
    """Source positions of a dim padded by (left, right): reflect mirrors without the edge,
    replicate repeats the edge, circular wraps around."""
    out = []
    for i in range(-left, size + right):
        if mode == "reflect":
            period = 2 * (size - 1)
            j = abs(i) % period if period else 0
            out.append(j if j < size else period - j)
        elif mode == "replicate":
            out.append(min(max(i, 0), size - 1))
        else:  # circular
            out.append(i % size)
    return out


def _pad_nonzero(input, pad, mode):
    """Pads the last len(pad) // 2 dims by index_select (pad as F.pad: last dim first)."""
    out = input
    for k in range(len(pad) // 2):
        dim = out.dim() - 1 - k
        size, left, right = out.size(dim), pad[2 * k], pad[2 * k + 1]
        if mode == "reflect" and (left >= size or right >= size):
            raise RuntimeError(f"Argument #4: Padding size should be less than the corresponding input dimension, "
                               f"but got: padding ({left}, {right}) at dimension {dim} of input {list(input.shape)}")
        index = opscope.tensor(_pad_index(size, left, right, mode), dtype=opscope.int64)
        out = out.index_select(dim, index)
    return out


class _ConvNd(Module):
    _valid_padding_modes = {"zeros", "reflect", "replicate", "circular"}

    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation, transposed,
                 output_padding, groups, bias, padding_mode, device=None, dtype=None):
        super().__init__()
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        valid_padding_strings = {"same", "valid"}
        if isinstance(padding, str):
            if padding not in valid_padding_strings:
                raise ValueError("Invalid padding string {!r}, should be one of {}".format(
                    padding, valid_padding_strings))
            if padding == "same" and any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        if padding_mode not in self._valid_padding_modes:
            raise ValueError("padding_mode must be one of {}, but got padding_mode='{}'".format(
                self._valid_padding_modes, padding_mode))
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding
        self.dilation, self.transposed, self.output_padding = dilation, transposed, output_padding
        self.groups, self.padding_mode = groups, padding_mode
        if isinstance(self.padding, str):
            self._reversed_padding_repeated_twice = [0, 0] * len(kernel_size)
            if padding == "same":
                for d, k, i in zip(dilation, kernel_size, range(len(kernel_size) - 1, -1, -1)):
                    total = d * (k - 1)
                    left = total // 2
                    self._reversed_padding_repeated_twice[2 * i] = left
                    self._reversed_padding_repeated_twice[2 * i + 1] = total - left
        else:
            self._reversed_padding_repeated_twice = _reverse_repeat_tuple(self.padding, 2)
        shape = ((in_channels, out_channels // groups) if transposed
                 else (out_channels, in_channels // groups)) + tuple(kernel_size)
        self.weight = Parameter(opscope.empty(*shape, dtype=dtype))
        if bias:
            self.bias = Parameter(opscope.empty(out_channels, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        # kaiming_uniform_(weight, a=sqrt(5)): gain sqrt(2 / (1 + 5)), bound sqrt(3) gain / sqrt(fan_in)
        fan_in = self.weight.size(1) * math.prod(self.weight.shape[2:])
        bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
        with opscope.no_grad():
            self.weight.uniform_(-bound, bound)
            if self.bias is not None:
                self.bias.uniform_(-bound, bound)

    def extra_repr(self):
        s = "{in_channels}, {out_channels}, kernel_size={kernel_size}, stride={stride}"
        if self.padding != (0,) * len(self.padding):
            s += ", padding={padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += ", dilation={dilation}"
        if self.output_padding != (0,) * len(self.output_padding):
            s += ", output_padding={output_padding}"
        if self.groups != 1:
            s += ", groups={groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += ", padding_mode={padding_mode}"
        return s.format(**self.__dict__)


class Conv1d(_ConvNd):
    """input (N, C_in, L) or (C_in, L) -> (N, C_out, L_out)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode="zeros", device=None, dtype=None):
        padding_ = padding if isinstance(padding, str) else _single(padding)
        super().__init__(in_channels, out_channels, _single(kernel_size), _single(stride), padding_,
                         _single(dilation), False, _single(0), groups, bias, padding_mode, device, dtype)

    def _conv_forward(self, input, weight, bias):
        if self.padding_mode != "zeros":
            return F.conv1d(_pad_nonzero(input, self._reversed_padding_repeated_twice, self.padding_mode),
                            weight, bias, self.stride, _single(0), self.dilation, self.groups)
        return F.conv1d(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def forward(self, input):
        return self._conv_forward(input, self.weight, self.bias)


class Conv2d(_ConvNd):
    """input (N, C_in, H, W) or (C_in, H, W) -> (N, C_out, H_out, W_out)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode="zeros", device=None, dtype=None):
        padding_ = padding if isinstance(padding, str) else _pair(padding)
        super().__init__(in_channels, out_channels, _pair(kernel_size), _pair(stride), padding_,
                         _pair(dilation), False, _pair(0), groups, bias, padding_mode, device, dtype)

    def _conv_forward(self, input, weight, bias):
        if self.padding_mode != "zeros":
            return F.conv2d(_pad_nonzero(input, self._reversed_padding_repeated_twice, self.padding_mode),
                            weight, bias, self.stride, _pair(0), self.dilation, self.groups)
        return F.conv2d(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def forward(self, input):
        return self._conv_forward(input, self.weight, self.bias)


class _ConvTransposeNd(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation, transposed,
                 output_padding, groups, bias, padding_mode, device=None, dtype=None):
        if padding_mode != "zeros":
            raise ValueError('Only "zeros" padding mode is supported for {}'.format(self.__class__.__name__))
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, transposed,
                         output_padding, groups, bias, padding_mode, device, dtype)

    def _output_padding(self, input, output_size, stride, padding, kernel_size, num_spatial_dims,
                        dilation=None):
        """The output_padding that makes the output output_size (None: the layer's own)."""
        if output_size is None:
            return _single(self.output_padding)
        has_batch_dim = input.dim() == num_spatial_dims + 2
        num_non_spatial_dims = 2 if has_batch_dim else 1
        if len(output_size) == num_non_spatial_dims + num_spatial_dims:
            output_size = output_size[num_non_spatial_dims:]
        if len(output_size) != num_spatial_dims:
            raise ValueError(
                "ConvTranspose{}D: for {}D input, output_size must have {} or {} elements (got {})".format(
                    num_spatial_dims, input.dim(), num_spatial_dims, num_non_spatial_dims + num_spatial_dims,
                    len(output_size)))
        min_sizes, max_sizes = [], []
        for d in range(num_spatial_dims):
            dim_size = ((input.size(d + num_non_spatial_dims) - 1) * stride[d] - 2 * padding[d]
                        + (dilation[d] if dilation is not None else 1) * (kernel_size[d] - 1) + 1)
            min_sizes.append(dim_size)
            max_sizes.append(min_sizes[d] + stride[d] - 1)
        for i, size in enumerate(output_size):
            if size < min_sizes[i] or size > max_sizes[i]:
                raise ValueError(("requested an output size of {}, but valid sizes range "
                                  "from {} to {} (for an input of {})").format(
                                      output_size, min_sizes, max_sizes, opscope.Size(input.size()[2:])))
        return [output_size[d] - min_sizes[d] for d in range(num_spatial_dims)]


class ConvTranspose1d(_ConvTransposeNd):
    """The adjoint of Conv1d: input (N, C_in, L) -> (N, C_out, L_out)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0,
                 groups=1, bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):
        super().__init__(in_channels, out_channels, _single(kernel_size), _single(stride), _single(padding),
                         _single(dilation), True, _single(output_padding), groups, bias, padding_mode,
                         device, dtype)

    def forward(self, input, output_size=None):
        output_padding = self._output_padding(input, output_size, self.stride, self.padding,
                                              self.kernel_size, 1, self.dilation)
        return F.conv_transpose1d(input, self.weight, self.bias, self.stride, self.padding, output_padding,
                                  self.groups, self.dilation)


class ConvTranspose2d(_ConvTransposeNd):
    """The adjoint of Conv2d: input (N, C_in, H, W) -> (N, C_out, H_out, W_out)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0,
                 groups=1, bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):
        super().__init__(in_channels, out_channels, _pair(kernel_size), _pair(stride), _pair(padding),
                         _pair(dilation), True, _pair(output_padding), groups, bias, padding_mode,
                         device, dtype)

    def forward(self, input, output_size=None):
        output_padding = self._output_padding(input, output_size, self.stride, self.padding,
                                              self.kernel_size, 2, self.dilation)
        return F.conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding, output_padding,
                                  self.groups, self.dilation)
