"""``opscope.nn`` Modules, filed as torch.nn.modules files them: module.py (Module), container.py
(Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict), linear.py, activation.py,
dropout.py, flatten.py, normalization.py (LayerNorm, GroupNorm), batchnorm.py, sparse.py (Embedding),
loss.py; conv.py, pooling.py, rnn.py and transformer.py add theirs below. Each layer has torch
1.13's interface, parameter names, initialisation rules and printing, over opscope's ops (so each
forward shows in a trace as torch's does).

>>> import opscope
>>> from opscope import nn
>>> model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
>>> model
Sequential(
  (0): Linear(in_features=4, out_features=8, bias=True)
  (1): ReLU()
  (2): Linear(in_features=8, out_features=2, bias=True)
)
>>> [name for name, _ in model.named_parameters()]
['0.weight', '0.bias', '2.weight', '2.bias']
"""

from opscope.nn.parameter import Parameter  # noqa: F401
from opscope.nn.modules.module import Module  # noqa: F401
from opscope.nn.modules.container import (  # noqa: F401
    ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential)
from opscope.nn.modules.linear import Bilinear, Identity, Linear  # noqa: F401
from opscope.nn.modules.activation import (  # noqa: F401
    CELU, ELU, GELU, GLU, SELU, Softmax2d, Hardsigmoid, Hardswish, Hardtanh, LeakyReLU, LogSigmoid, LogSoftmax, Mish,
    Hardshrink, PReLU, ReLU, ReLU6, RReLU, Softshrink, Sigmoid, SiLU, Softmax, Softmin, Softplus, Softsign, Tanh, Tanhshrink,
    Threshold)
from opscope.nn.modules.dropout import Dropout, Dropout1d, Dropout2d  # noqa: F401
from opscope.nn.modules.flatten import Flatten, Unflatten  # noqa: F401
from opscope.nn.modules.normalization import CrossMapLRN2d, GroupNorm, LayerNorm, LocalResponseNorm  # noqa: F401
from opscope.nn.modules.batchnorm import (  # noqa: F401
    BatchNorm1d, BatchNorm2d, BatchNorm3d, InstanceNorm1d, InstanceNorm2d)
from opscope.nn.modules.sparse import Embedding  # noqa: F401
from opscope.nn.modules.loss import (  # noqa: F401
    BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, HuberLoss, KLDivLoss, L1Loss, MSELoss, NLLLoss,
    SmoothL1Loss, MarginRankingLoss, HingeEmbeddingLoss, CosineEmbeddingLoss, SoftMarginLoss,
    MultiLabelSoftMarginLoss, MultiMarginLoss, MultiLabelMarginLoss, TripletMarginLoss,
    TripletMarginWithDistanceLoss, PoissonNLLLoss, GaussianNLLLoss)

# The other families' files (their authors add one line each):
from opscope.nn.modules.rnn import *  # noqa: E402,F401,F403  (RNN, LSTM, GRU, their cells)
from opscope.nn.modules.transformer import *  # noqa: E402,F401,F403  (attention, Transformer)
from opscope.nn.modules.conv import *  # noqa: E402,F401,F403  (Conv1d, Conv2d, ConvTranspose1d / 2d)
from opscope.nn.modules.pooling import *  # noqa: E402,F401,F403  (Max / Avg / Adaptive pools, 1d and 2d)
from opscope.nn.modules.upsampling import *  # noqa: E402,F401,F403  (Upsample, UpsamplingNearest2d / Bilinear2d)
from opscope.nn.modules.padding import *  # noqa: E402,F401,F403  (Constant / Zero / Reflection / Replication pads)
from opscope.nn.modules.distance import *  # noqa: E402,F401,F403  (PairwiseDistance, CosineSimilarity)
from opscope.nn.modules.pixelshuffle import *  # noqa: E402,F401,F403  (PixelShuffle, PixelUnshuffle)
from opscope.nn.modules.fold import *  # noqa: E402,F401,F403  (Fold, Unfold)
from opscope.nn.modules.channelshuffle import *  # noqa: E402,F401,F403  (ChannelShuffle)
