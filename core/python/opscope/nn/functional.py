"""``opscope.nn.functional``: torch.nn.functional's functions over opscope's ops.

Each function has torch 1.13's signature, argument checks and warnings, and calls the aten op
torch calls (``F.cross_entropy`` -> ``aten::cross_entropy_loss``, ``F.layer_norm`` ->
``aten::layer_norm``, ...), so a dispatch trace reads like torch's. Reductions are given as
strings ('none', 'mean', 'sum') and passed to the ops as torch's enum (0, 1, 2).

>>> import opscope
>>> import opscope.nn.functional as F
>>> logits = opscope.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 3.0]])
>>> F.cross_entropy(logits, opscope.tensor([0, 2]))
tensor(0.1755)
>>> F.one_hot(opscope.tensor([0, 2]))
tensor([[1, 0, 0],
        [0, 0, 1]])
"""

import warnings

import opscope
from opscope import _C

__all__ = [
    "linear", "relu", "relu_", "gelu", "silu", "sigmoid", "tanh", "softplus", "softmax",
    "log_softmax", "dropout", "cross_entropy", "nll_loss", "mse_loss", "l1_loss",
    "binary_cross_entropy", "binary_cross_entropy_with_logits", "layer_norm", "embedding",
    "one_hot", "pad",
]


class _Op:
    """An aten overload looked up on first use (the ops of other families may be declared by
    builds that have them), like torch._C._nn.<op>."""

    def __init__(self, name):
        self._name = name
        self._fn = None

    def __call__(self, *args, **kwargs):
        if self._fn is None:
            self._fn = _C._op_overload(self._name)
        return self._fn(*args, **kwargs)


_cross_entropy_loss = _Op("aten::cross_entropy_loss")
_nll_loss_nd = _Op("aten::nll_loss_nd")
_mse_loss = _Op("aten::mse_loss")
_l1_loss = _Op("aten::l1_loss")
_binary_cross_entropy = _Op("aten::binary_cross_entropy")
_one_hot = _Op("aten::one_hot")
_pad = _Op("aten::pad")
_embedding_renorm_ = _Op("aten::embedding_renorm_")
_linear = _Op("aten::linear")
_gelu = _Op("aten::gelu")
_silu = _Op("aten::silu")
_silu_ = _Op("aten::silu_")
_softplus = _Op("aten::softplus")


# --- reductions, as torch.nn._reduction -------------------------------------------------------
def _reduction_enum(reduction):
    if reduction == "none":
        return 0
    if reduction == "mean":
        return 1
    if reduction == "elementwise_mean":
        warnings.warn("reduction='elementwise_mean' is deprecated, please use reduction='mean' instead.")
        return 1
    if reduction == "sum":
        return 2
    raise ValueError("{} is not a valid value for reduction".format(reduction))


def _legacy_reduction(size_average, reduce):
    """The reduction the deprecated size_average / reduce arguments ask for (with torch's warning)."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    ret = "mean" if size_average and reduce else "sum" if reduce else "none"
    warnings.warn("size_average and reduce args will be deprecated, please use reduction='{}' instead.".format(ret))
    return ret


def _enum(size_average, reduce, reduction):
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    return _reduction_enum(reduction)


# --- broadcasting, as torch.broadcast_shapes / broadcast_tensors ---------------------------------
def _infer_size(a, b):
    """The broadcast of two shapes, with torch._infer_size's error."""
    ndim = max(len(a), len(b))
    out = []
    for i in range(ndim):
        k = ndim - 1 - i  # from the back
        sa = a[len(a) - 1 - k] if k < len(a) else 1
        sb = b[len(b) - 1 - k] if k < len(b) else 1
        if sa != sb and sa != 1 and sb != 1:
            raise RuntimeError(f"The size of tensor a ({sa}) must match the size of tensor b ({sb}) "
                               f"at non-singleton dimension {i}")
        out.append(sb if sa == 1 else sa)
    return out


def _broadcast_tensors(*tensors):
    broadcast = getattr(opscope, "broadcast_tensors", None)
    if broadcast is not None:
        return broadcast(*tensors)
    shape = []
    for t in tensors:
        shape = _infer_size(shape, list(t.shape))
    return [t if list(t.shape) == shape else t.expand(shape) for t in tensors]


# --- linear and activations -------------------------------------------------------------------
def linear(input, weight, bias=None):
    """y = input @ weight.T + bias: aten::linear."""
    return _linear(input, weight, bias)


def relu(input, inplace=False):
    return input.relu_() if inplace else opscope.relu(input)


def relu_(input):
    return input.relu_()


def gelu(input, approximate="none"):
    return _gelu(input, approximate=approximate)


def silu(input, inplace=False):
    return _silu_(input) if inplace else _silu(input)


def sigmoid(input):
    return input.sigmoid()


def tanh(input):
    return input.tanh()


def softplus(input, beta=1, threshold=20):
    return _softplus(input, beta, threshold)


def _get_softmax_dim(name, ndim, stacklevel):
    warnings.warn("Implicit dimension choice for {} has been deprecated. "
                  "Change the call to include dim=X as an argument.".format(name), stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _get_softmax_dim("softmax", input.dim(), _stacklevel)
    return input.softmax(dim) if dtype is None else input.softmax(dim, dtype=dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _get_softmax_dim("log_softmax", input.dim(), _stacklevel)
    return input.log_softmax(dim) if dtype is None else input.log_softmax(dim, dtype=dtype)


def dropout(input, p=0.5, training=True, inplace=False):
    """Zeroes each element with probability p (default generator: opscope.manual_seed) and scales
    the others by 1 / (1 - p); the input itself when not training or p == 0."""
    if p < 0.0 or p > 1.0:
        raise ValueError("dropout probability has to be between 0 and 1, but got {}".format(p))
    return opscope.dropout_(input, p, training) if inplace else opscope.dropout(input, p, training)


# --- losses -----------------------------------------------------------------------------------
def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                  reduction="mean", label_smoothing=0.0):
    """log_softmax over the class dim (1, or 0 for an unbatched input) + nll_loss; target holds
    class indices, or class probabilities when it has input's shape."""
    return _cross_entropy_loss(input, target, weight, _enum(size_average, reduce, reduction), ignore_index,
                               label_smoothing)


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    return _nll_loss_nd(input, target, weight, _enum(size_average, reduce, reduction), ignore_index)


def _warn_size(name, input, target):
    if target.size() != input.size():
        warnings.warn(
            "Using a target size ({}) that is different to the input size ({}). "
            "This will likely lead to incorrect results due to broadcasting. "
            "Please ensure they have the same size.".format(target.size(), input.size()),
            stacklevel=3,
        )


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    _warn_size("mse_loss", input, target)
    enum = _enum(size_average, reduce, reduction)
    expanded_input, expanded_target = _broadcast_tensors(input, target)
    return _mse_loss(expanded_input, expanded_target, enum)


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    _warn_size("l1_loss", input, target)
    enum = _enum(size_average, reduce, reduction)
    expanded_input, expanded_target = _broadcast_tensors(input, target)
    return _l1_loss(expanded_input, expanded_target, enum)


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    enum = _enum(size_average, reduce, reduction)
    if target.size() != input.size():
        raise ValueError(
            "Using a target size ({}) that is different to the input size ({}) is deprecated. "
            "Please ensure they have the same size.".format(target.size(), input.size()))
    if weight is not None:
        weight = weight.expand(_infer_size(target.size(), weight.size()))
    return _binary_cross_entropy(input, target, weight, enum)


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction="mean", pos_weight=None):
    enum = _enum(size_average, reduce, reduction)
    if not (target.size() == input.size()):
        raise ValueError("Target size ({}) must be the same as input size ({})".format(target.size(), input.size()))
    return opscope.binary_cross_entropy_with_logits(input, target, weight, pos_weight, enum)


# --- normalization, embedding, one_hot, pad ---------------------------------------------------
def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Normalizes over the last len(normalized_shape) dims: aten::layer_norm."""
    if isinstance(normalized_shape, int):
        normalized_shape = (normalized_shape,)
    return opscope.layer_norm(input, list(normalized_shape), weight, bias, eps, True)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
              sparse=False):
    """The rows weight[input]: aten::embedding. padding_idx only matters for gradients; max_norm
    renormalizes, in place, the rows looked up whose norm exceeds it."""
    if padding_idx is not None:
        if padding_idx > 0:
            assert padding_idx < weight.size(0), "Padding_idx must be within num_embeddings"
        elif padding_idx < 0:
            assert padding_idx >= -weight.size(0), "Padding_idx must be within num_embeddings"
            padding_idx = weight.size(0) + padding_idx
    else:
        padding_idx = -1
    if max_norm is not None:
        input = input.contiguous()
        _embedding_renorm_(weight, input, max_norm, norm_type)
    return opscope.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)


def one_hot(tensor, num_classes=-1):
    """int64 class indices (*) -> (*, num_classes) int64 with a 1 at each index."""
    return _one_hot(tensor, num_classes)


def pad(input, pad, mode="constant", value=None):
    """Pads (or, with negative sizes, crops) the last len(pad) // 2 dims; pad is
    (left_last, right_last, left_second_last, ...). Only mode='constant' is implemented."""
    return _pad(input, list(pad), mode, value)
