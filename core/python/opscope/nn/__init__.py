"""``opscope.nn``: neural-network building blocks — Modules (opscope/nn/modules.py) and the
functional API (``import opscope.nn.functional as F``), with torch.nn's interfaces."""

from opscope.nn import functional  # noqa: F401  (opscope.nn.functional after `import opscope.nn`)
from opscope.nn.modules import (  # noqa: F401
    GELU, CrossEntropyLoss, Dropout, Embedding, Flatten, LayerNorm, Linear, Module, MSELoss,
    Parameter, ReLU, Sequential, Sigmoid, Tanh, Unflatten)
