"""``opscope.nn``: neural-network building blocks — Modules (opscope/nn/modules/), the functional
API (``import opscope.nn.functional as F``), weight initialisation (``nn.init``) and utilities
(``nn.utils``: gradient clipping, parameter vectors), with torch.nn's interfaces."""

from opscope.nn import functional  # noqa: F401  (opscope.nn.functional after `import opscope.nn`)
from opscope.nn import init  # noqa: F401
from opscope.nn.parameter import Parameter  # noqa: F401
from opscope.nn.modules import (  # noqa: F401
    CELU, ELU, GELU, SELU, BatchNorm1d, BatchNorm2d, BatchNorm3d, BCELoss, BCEWithLogitsLoss,
    CrossEntropyLoss, Dropout, Dropout1d, Dropout2d, Embedding, Flatten, GroupNorm, Hardsigmoid, Hardswish,
    Hardtanh, HuberLoss, Identity, KLDivLoss, L1Loss, LayerNorm, LeakyReLU, Linear, LogSigmoid,
    LogSoftmax, Mish, Module, ModuleDict, ModuleList, MSELoss, NLLLoss, ParameterDict, ParameterList,
    Hardshrink, PReLU, ReLU, RReLU, Softshrink, ReLU6, Sequential, Sigmoid, SiLU, SmoothL1Loss, Softmax, Softmin, Softplus, Softsign, Tanh,
    Tanhshrink, Threshold, Unflatten)
from opscope.nn import utils  # noqa: F401
from opscope.nn.modules import RNNBase, RNN, LSTM, GRU, RNNCellBase, RNNCell, LSTMCell, GRUCell, MultiheadAttention, TransformerEncoderLayer, TransformerEncoder, TransformerDecoderLayer, TransformerDecoder, Transformer  # noqa: F401,E501
from opscope.nn.modules import Conv1d, Conv2d, ConvTranspose1d, ConvTranspose2d, MaxPool1d, MaxPool2d, AvgPool1d, AvgPool2d, AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveMaxPool1d, AdaptiveMaxPool2d  # noqa: F401,E501
from opscope.nn.modules import Upsample, UpsamplingBilinear2d, UpsamplingNearest2d  # noqa: F401
from opscope.nn.modules import InstanceNorm1d, InstanceNorm2d  # noqa: F401
from opscope.nn.modules import CosineSimilarity, PairwiseDistance  # noqa: F401
from opscope.nn.modules import (  # noqa: F401
    GLU, Softmax2d, PixelShuffle, PixelUnshuffle, MarginRankingLoss, HingeEmbeddingLoss,
    CosineEmbeddingLoss, SoftMarginLoss, MultiLabelSoftMarginLoss, MultiMarginLoss,
    MultiLabelMarginLoss, TripletMarginLoss, TripletMarginWithDistanceLoss, PoissonNLLLoss,
    GaussianNLLLoss)
from opscope.nn.modules import (  # noqa: F401
    ConstantPad1d, ConstantPad2d, ConstantPad3d, ReflectionPad1d, ReflectionPad2d, ReplicationPad1d,
    ReplicationPad2d, ZeroPad2d)
from opscope.nn.modules import (  # noqa: F401
    AvgPool3d, Bilinear, ChannelShuffle, CrossMapLRN2d, Fold, LocalResponseNorm, MaxUnpool1d, MaxUnpool2d, MaxUnpool3d, Unfold)
