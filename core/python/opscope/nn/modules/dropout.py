"""Dropout layers: in training mode each zeroes elements (Dropout) or whole channels
(Dropout1d, Dropout2d) with probability p and scales the rest by 1 / (1 - p); in eval mode they
pass the input through."""

from opscope.nn import functional as F
from opscope.nn.modules.module import Module

__all__ = ["Dropout", "Dropout1d", "Dropout2d"]


class _DropoutNd(Module):
    __constants__ = ["p", "inplace"]

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError("dropout probability has to be between 0 and 1, but got {}".format(p))
        self.p, self.inplace = p, inplace

    def extra_repr(self):
        return "p={}, inplace={}".format(self.p, self.inplace)


class Dropout(_DropoutNd):
    def forward(self, input):
        return F.dropout(input, self.p, self.training, self.inplace)


class Dropout1d(_DropoutNd):
    def forward(self, input):
        return F.dropout1d(input, self.p, self.training, self.inplace)


class Dropout2d(_DropoutNd):
    def forward(self, input):
        return F.dropout2d(input, self.p, self.training, self.inplace)
