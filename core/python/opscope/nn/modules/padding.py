"""The padding layers: ConstantPad1d / 2d / 3d and ZeroPad2d (F.pad, "constant"), ReflectionPad1d
/ 2d (mode "reflect": aten::reflection_pad1d / 2d) and ReplicationPad1d / 2d ("replicate"). A
padding is one int for every side or a tuple (left, right[, top, bottom[, front, back]]).

>>> from opscope import nn
>>> nn.ReflectionPad2d((1, 1, 2, 0))
ReflectionPad2d((1, 1, 2, 0))
"""
from opscope.nn import functional as F
from opscope.nn.modules.module import Module

__all__ = ["ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ZeroPad2d", "ReflectionPad1d",
           "ReflectionPad2d", "ReplicationPad1d", "ReplicationPad2d"]


def _sides(padding, n):
    """padding as a tuple of n ints: one int repeated, or the tuple given."""
    return tuple(padding) if isinstance(padding, (tuple, list)) else (padding,) * n


class _ConstantPadNd(Module):
    __constants__ = ["padding", "value"]

    def __init__(self, value):
        super().__init__()
        self.value = value

    def forward(self, input):
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self):
        return "padding={}, value={}".format(self.padding, self.value)


class ConstantPad1d(_ConstantPadNd):
    """Pads the last dim with `value`."""

    def __init__(self, padding, value):
        super().__init__(value)
        self.padding = _sides(padding, 2)


class ConstantPad2d(_ConstantPadNd):
    """Pads the last two dims with `value`."""

    def __init__(self, padding, value):
        super().__init__(value)
        self.padding = _sides(padding, 4)


class ConstantPad3d(_ConstantPadNd):
    """Pads the last three dims with `value`."""

    def __init__(self, padding, value):
        super().__init__(value)
        self.padding = _sides(padding, 6)


class ZeroPad2d(ConstantPad2d):
    """Pads the last two dims with zeros."""

    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return "{}".format(self.padding)


class _ModePadNd(Module):
    """F.pad with a fixed non-constant mode; repr the padding alone."""

    __constants__ = ["padding"]
    _mode = None

    def forward(self, input):
        return F.pad(input, self.padding, self._mode)

    def extra_repr(self):
        return "{}".format(self.padding)


class _ReflectionPadNd(_ModePadNd):
    _mode = "reflect"


class ReflectionPad1d(_ReflectionPadNd):
    """Pads the last dim with the input's cells mirrored at its edges."""

    def __init__(self, padding):
        super().__init__()
        self.padding = _sides(padding, 2)


class ReflectionPad2d(_ReflectionPadNd):
    """Pads the last two dims with the input's cells mirrored at its edges."""

    def __init__(self, padding):
        super().__init__()
        self.padding = _sides(padding, 4)


class _ReplicationPadNd(_ModePadNd):
    _mode = "replicate"


class ReplicationPad1d(_ReplicationPadNd):
    """Pads the last dim with copies of its edge cells."""

    def __init__(self, padding):
        super().__init__()
        self.padding = _sides(padding, 2)


class ReplicationPad2d(_ReplicationPadNd):
    """Pads the last two dims with copies of its edge cells."""

    def __init__(self, padding):
        super().__init__()
        self.padding = _sides(padding, 4)
