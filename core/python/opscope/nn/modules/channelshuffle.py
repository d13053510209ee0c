"""ChannelShuffle: F.channel_shuffle as a layer (no parameters), as
torch.nn.modules.channelshuffle.

>>> import opscope
>>> from opscope import nn
>>> nn.ChannelShuffle(2)
ChannelShuffle(groups=2)
>>> nn.ChannelShuffle(2)(opscope.arange(4.0).view(1, 4, 1))[0, :, 0]
tensor([0., 2., 1., 3.])
"""
from opscope.nn import functional as F
from opscope.nn.modules.module import Module

__all__ = ["ChannelShuffle"]


class ChannelShuffle(Module):
    """(N, g k, *) -> the same shape: the channels read as g groups of k, written as k groups
    of g (ShuffleNet's mixing of grouped convolutions' channels)."""

    __constants__ = ["groups"]

    def __init__(self, groups):
        super().__init__()
        self.groups = groups

    def forward(self, input):
        return F.channel_shuffle(input, self.groups)

    def extra_repr(self):
        return "groups={}".format(self.groups)
