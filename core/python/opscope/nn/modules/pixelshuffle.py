"""PixelShuffle and PixelUnshuffle: F.pixel_shuffle / F.pixel_unshuffle as layers (no
parameters), as torch.nn.modules.pixelshuffle.

>>> import opscope
>>> from opscope import nn
>>> nn.PixelShuffle(2)(opscope.zeros(1, 8, 3, 3)).shape
torch.Size([1, 2, 6, 6])
"""
from opscope.nn import functional as F
from opscope.nn.modules.module import Module

__all__ = ["PixelShuffle", "PixelUnshuffle"]


class PixelShuffle(Module):
    """(*, C r^2, H, W) -> (*, C, H r, W r), r = upscale_factor: sub-pixel convolution's
    rearrangement."""

    __constants__ = ["upscale_factor"]

    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input):
        return F.pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self):
        return "upscale_factor={}".format(self.upscale_factor)


class PixelUnshuffle(Module):
    """(*, C, H r, W r) -> (*, C r^2, H, W), r = downscale_factor: PixelShuffle's inverse."""

    __constants__ = ["downscale_factor"]

    def __init__(self, downscale_factor):
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input):
        return F.pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self):
        return "downscale_factor={}".format(self.downscale_factor)
