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

import math
import warnings

import opscope
from opscope import _C

__all__ = [
    "linear", "relu", "relu_", "gelu", "silu", "sigmoid", "tanh", "softplus", "softmax",
    "log_softmax", "dropout", "cross_entropy", "nll_loss", "mse_loss", "l1_loss",
    "binary_cross_entropy", "binary_cross_entropy_with_logits", "layer_norm", "embedding",
    "one_hot", "pad",
    "hardtanh", "hardtanh_", "relu6", "leaky_relu", "leaky_relu_", "elu", "elu_", "selu", "selu_",
    "celu", "celu_", "threshold", "threshold_", "prelu", "rrelu", "rrelu_", "hardshrink", "softshrink",
    "mish", "hardsigmoid", "hardswish", "logsigmoid", "softsign", "tanhshrink", "softmin",
    "smooth_l1_loss", "huber_loss", "kl_div", "batch_norm", "dropout1d", "dropout2d",
    "normalize", "group_norm", "instance_norm", "cosine_similarity", "pairwise_distance", "pdist",
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
_leaky_relu = _Op("aten::leaky_relu")
_leaky_relu_ = _Op("aten::leaky_relu_")
_hardtanh = _Op("aten::hardtanh")
_hardtanh_ = _Op("aten::hardtanh_")
_relu6 = _Op("aten::relu6")
_relu6_ = _Op("aten::relu6_")
_elu = _Op("aten::elu")
_softshrink = _Op("aten::softshrink")
_elu_ = _Op("aten::elu_")
_hardsigmoid = _Op("aten::hardsigmoid")
_hardsigmoid_ = _Op("aten::hardsigmoid_")
_hardswish = _Op("aten::hardswish")
_hardswish_ = _Op("aten::hardswish_")
_mish = _Op("aten::mish")
_mish_ = _Op("aten::mish_")
_log_sigmoid = _Op("aten::log_sigmoid")
_smooth_l1_loss = _Op("aten::smooth_l1_loss")
_huber_loss = _Op("aten::huber_loss")
_batch_norm = _Op("aten::batch_norm")


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


# --- more activations: short compositions of existing ops (torch has its own aten op for most:
# hardtanh, elu, leaky_relu, mish, log_sigmoid; these show the ops they are made of instead) ---
def _inplace(input, result, inplace):
    """result written back into input for the inplace=True forms."""
    return input.copy_(result) if inplace else result


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """min(max(input, min_val), max_val): aten::hardtanh, whose gradient (HardtanhBackward0 ->
    hardtanh_backward) is 1 strictly between the bounds and 0 at and beyond them."""
    return _hardtanh_(input, min_val, max_val) if inplace else _hardtanh(input, min_val, max_val)


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    return hardtanh(input, min_val, max_val, inplace=True)


def relu6(input, inplace=False):
    """min(max(input, 0), 6): aten::relu6 -> hardtanh, as torch."""
    return _relu6_(input) if inplace else _relu6(input)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    """input where input > 0, negative_slope * input elsewhere (aten::leaky_relu)."""
    return _leaky_relu_(input, negative_slope) if inplace else _leaky_relu(input, negative_slope)


def leaky_relu_(input, negative_slope=0.01):
    return leaky_relu(input, negative_slope, inplace=True)


def elu(input, alpha=1.0, inplace=False):
    """input where input > 0, alpha * (exp(input) - 1) elsewhere (aten::elu)."""
    return _elu_(input, alpha) if inplace else _elu(input, alpha)


def elu_(input, alpha=1.0):
    return elu(input, alpha, inplace=True)


def selu(input, inplace=False):
    """scale * elu(input, alpha) with the self-normalizing constants: aten::selu -> elu."""
    return opscope.selu_(input) if inplace else opscope.selu(input)


def selu_(input):
    return opscope.selu_(input)


def celu(input, alpha=1.0, inplace=False):
    """input where input > 0, alpha * (exp(input / alpha) - 1) elsewhere: aten::celu, which
    calls elu with input_scale = 1 / alpha (its gradient: CeluBackward0 -> elu_backward)."""
    return opscope.celu_(input, alpha) if inplace else opscope.celu(input, alpha)


def celu_(input, alpha=1.0):
    return opscope.celu_(input, alpha)


def threshold(input, threshold, value, inplace=False):
    """value where input <= threshold, input elsewhere (aten::threshold; its gradient
    ThresholdBackward0 -> threshold_backward passes where input > threshold)."""
    return opscope.threshold_(input, threshold, value) if inplace else opscope.threshold(
        input, threshold, value)


def threshold_(input, threshold, value):
    return opscope.threshold_(input, threshold, value)


def mish(input, inplace=False):
    """input * tanh(softplus(input)) (aten::mish)."""
    return _mish_(input) if inplace else _mish(input)


def hardsigmoid(input, inplace=False):
    """clamp(input / 6 + 1/2, 0, 1) (aten::hardsigmoid)."""
    return _hardsigmoid_(input) if inplace else _hardsigmoid(input)


def hardswish(input, inplace=False):
    """input * hardsigmoid(input) (aten::hardswish)."""
    return _hardswish_(input) if inplace else _hardswish(input)


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """<x1, x2> / (max(||x1||, eps) max(||x2||, eps)) along dim, x1 and x2 broadcast
    (aten::cosine_similarity)."""
    return opscope.cosine_similarity(x1, x2, dim, eps)


def pdist(input, p=2):
    """The p-norm distance between every pair of rows of input (N, M), as N(N-1)/2 values
    (aten::pdist)."""
    return opscope.pdist(input, p)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """||x1 - x2 + eps||_p along the last dim, x1 and x2 broadcast (aten::pairwise_distance)."""
    return opscope.pairwise_distance(x1, x2, p, eps, keepdim)


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    """input / max(||input||_p, eps) along dim: each slice scaled to unit p-norm, as torch's
    Python function computes it (norm, clamp_min, expand_as, div)."""
    if out is None:
        denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
        return input / denom
    denom = input.norm(p, dim, keepdim=True).clamp_min_(eps).expand_as(input)
    return opscope.div(input, denom, out=out)


def logsigmoid(input):
    """log(sigmoid(input)) without overflow: aten::log_sigmoid -> log_sigmoid_forward."""
    return _log_sigmoid(input)


def prelu(input, weight):
    """input where input > 0, weight[c] * input elsewhere, c the channel (dim 1); a one-element
    weight everywhere (aten::prelu; its gradient PreluBackward0 -> prelu_backward)."""
    return opscope.prelu(input, weight)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    """Randomized leaky ReLU: in training each negative element is scaled by a factor drawn from
    U(lower, upper), else by (lower + upper) / 2 (aten::rrelu -> rrelu_with_noise; its gradient
    RreluWithNoiseBackward0 -> rrelu_with_noise_backward)."""
    if inplace:
        return opscope.rrelu_(input, lower, upper, training)
    return opscope.rrelu(input, lower, upper, training)


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    return opscope.rrelu_(input, lower, upper, training)


def hardshrink(input, lambd=0.5):
    """0 where -lambd <= input <= lambd, input elsewhere (aten::hardshrink; its gradient
    HardshrinkBackward0 -> hardshrink_backward)."""
    return opscope.hardshrink(input, lambd)


def softshrink(input, lambd=0.5):
    """input - lambd above lambd, input + lambd below -lambd, 0 between (aten::softshrink; its
    gradient SoftshrinkBackward0 -> softshrink_backward)."""
    return _softshrink(input, lambd)


def softsign(input):
    """input / (1 + |input|)."""
    return input / (input.abs() + 1)


def tanhshrink(input):
    """input - tanh(input)."""
    return input - input.tanh()


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    """softmax(-input) along dim."""
    if dim is None:
        dim = _get_softmax_dim("softmin", input.dim(), _stacklevel)
    return (-input).softmax(dim) if dtype is None else (-input).softmax(dim, dtype=dtype)


def dropout(input, p=0.5, training=True, inplace=False):
    """Zeroes each element with probability p (default generator: opscope.manual_seed) and scales
    the others by 1 / (1 - p); the input itself when not training or p == 0."""
    if p < 0.0 or p > 1.0:
        raise ValueError("dropout probability has to be between 0 and 1, but got {}".format(p))
    return opscope.dropout_(input, p, training) if inplace else opscope.dropout(input, p, training)


def _feature_dropout(input, p, training, inplace):
    """Zeroes whole channels (dim 1 of (N, C, *)) with probability p, scaling the rest by
    1 / (1 - p): torch's feature_dropout, as input * noise with noise (N, C, 1, ...)."""
    if not training or p == 0:
        return input
    noise_shape = tuple(input.shape[:2]) + (1,) * (input.dim() - 2)
    noise = opscope.empty(noise_shape, dtype=input.dtype)
    if p == 1:
        noise.fill_(0)
    else:
        noise.bernoulli_(1 - p).div_(1 - p)
    return input.mul_(noise) if inplace else input * noise


def dropout1d(input, p=0.5, training=True, inplace=False):
    """Channel dropout of (N, C, L) or (C, L) inputs."""
    if p < 0.0 or p > 1.0:
        raise ValueError("dropout probability has to be between 0 and 1, but got {}".format(p))
    inp_dim = input.dim()
    if inp_dim not in (2, 3):
        raise RuntimeError(f"dropout1d: Expected 2D or 3D input, but received a {inp_dim}D input. "
                           "Note that dropout1d exists to provide channel-wise dropout on inputs with 1 "
                           "spatial dimension, a channel dimension, and an optional batch dimension "
                           "(i.e. 2D or 3D inputs).")
    is_batched = inp_dim == 3
    if not is_batched:
        input = input.unsqueeze_(0) if inplace else input.unsqueeze(0)
    result = _feature_dropout(input, p, training, inplace)
    if not is_batched:
        result = result.squeeze_(0) if inplace else result.squeeze(0)
    return result


def dropout2d(input, p=0.5, training=True, inplace=False):
    """Channel dropout of (N, C, H, W) inputs (a 3-D input is read as (N, C, L), with torch's
    warning)."""
    if p < 0.0 or p > 1.0:
        raise ValueError("dropout probability has to be between 0 and 1, but got {}".format(p))
    inp_dim = input.dim()
    if inp_dim not in (3, 4):
        warnings.warn(f"dropout2d: Received a {inp_dim}-D input to dropout2d, which is deprecated "
                      "and will result in an error in a future release. To retain the behavior "
                      "and silence this warning, please use dropout instead. Note that dropout2d "
                      "exists to provide channel-wise dropout on inputs with 2 spatial dimensions, "
                      "a channel dimension, and an optional batch dimension (i.e. 3D or 4D inputs).")
    if inp_dim == 3:
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise "
                      "1D dropout behavior is desired - input is interpreted as shape (N, C, L), where C "
                      "is the channel dim. This behavior will change in a future release to interpret the "
                      "input as one without a batch dimension, i.e. shape (C, H, W). To maintain the 1D "
                      "channel-wise dropout behavior, please switch to using dropout1d instead.")
    return _feature_dropout(input, p, training, inplace)


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


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    """0.5 d^2 / beta where |d| < beta, |d| - 0.5 beta elsewhere (d = input - target), reduced:
    aten::smooth_l1_loss (also for beta 0, where it is the l1 loss, as in torch 1.13)."""
    _warn_size("smooth_l1_loss", input, target)
    enum = _enum(size_average, reduce, reduction)
    expanded_input, expanded_target = _broadcast_tensors(input, target)
    return _smooth_l1_loss(expanded_input, expanded_target, enum, beta)


def huber_loss(input, target, reduction="mean", delta=1.0):
    """0.5 d^2 where |d| < delta, delta (|d| - 0.5 delta) elsewhere, reduced: aten::huber_loss."""
    _warn_size("huber_loss", input, target)
    expanded_input, expanded_target = _broadcast_tensors(input, target)
    return _huber_loss(expanded_input, expanded_target, _reduction_enum(reduction), delta)


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    """KL(target || exp(input)) pointwise: target (log target - input) with input log-probabilities,
    0 where target is 0; reduction 'batchmean' divides the sum by the batch size (the true KL
    divergence), 'mean' by the number of elements (with torch's warning)."""
    if size_average is not None or reduce is not None:
        enum = _enum(size_average, reduce, reduction)
    else:
        if reduction == "mean":
            warnings.warn(
                "reduction: 'mean' divides the total loss by both the batch size and the support size."
                "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                "'mean' will be changed to behave the same as 'batchmean' in the next major release.")
        enum = _reduction_enum("sum" if reduction == "batchmean" else reduction)
    if log_target:
        loss = opscope.exp(target) * (target - input)
    else:  # xlogy(target, target) - target * input
        product = target * input
        xlogy = opscope.where(target == 0, opscope.zeros_like(target), target * opscope.log(target))
        loss = xlogy - product
    reduced = loss.mean() if enum == 1 else loss.sum() if enum == 2 else loss
    if reduction == "batchmean" and input.dim() != 0:
        reduced = reduced / input.size()[0]
    return reduced


# --- margin, embedding and likelihood losses; glu; pixel shuffle -----------------------------
# As torch 1.13 files them: margin_ranking_loss, hinge_embedding_loss, cosine_embedding_loss,
# triplet_margin_loss and poisson_nll_loss are aten CompositeImplicitAutograd ops;
# soft_margin_loss, multi_margin_loss and multilabel_margin_loss are torch._C._nn ops with their
# own backward (SoftMarginLossBackward0, MultiMarginLossBackward0, MultilabelMarginLossBackward0);
# multilabel_soft_margin_loss, gaussian_nll_loss and triplet_margin_with_distance_loss are
# written here in Python over other ops, as in torch.
__all__ += [
    "margin_ranking_loss", "hinge_embedding_loss", "cosine_embedding_loss", "soft_margin_loss",
    "multilabel_soft_margin_loss", "multi_margin_loss", "multilabel_margin_loss",
    "triplet_margin_loss", "triplet_margin_with_distance_loss", "poisson_nll_loss",
    "gaussian_nll_loss", "glu", "pixel_shuffle", "pixel_unshuffle",
]

_soft_margin_loss = _Op("aten::soft_margin_loss")
_multi_margin_loss = _Op("aten::multi_margin_loss")
_multilabel_margin_loss = _Op("aten::multilabel_margin_loss")
_glu = _Op("aten::glu")


def _check_no_requires_grad(tensor, name, fn_name):
    """torch's autograd refuses, in grad mode, an argument that requires grad but has no
    derivative formula (check_no_requires_grad in its generated VariableType)."""
    if tensor is not None and tensor.requires_grad and opscope.is_grad_enabled():
        raise RuntimeError(f"The function '{fn_name}' is not differentiable with respect to argument "
                           f"'{name}'. This input cannot have requires_grad True.")


def margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    """max(0, -target (input1 - input2) + margin), reduced: aten::margin_ranking_loss."""
    enum = _enum(size_average, reduce, reduction)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(
            "margin_ranking_loss : All input tensors should have same dimension but got sizes: "
            "input1: {}, input2: {}, target: {} ".format(input1.size(), input2.size(), target.size()))
    return opscope.margin_ranking_loss(input1, input2, target, margin, enum)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction="mean"):
    """input where target is 1, max(0, margin - input) where it is -1, reduced:
    aten::hinge_embedding_loss."""
    return opscope.hinge_embedding_loss(input, target, margin, _enum(size_average, reduce, reduction))


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """For each sample, sum over its target classes j (target's row up to the first -1) and the
    other classes i of max(0, 1 - (input[j] - input[i])) / C, reduced:
    aten::multilabel_margin_loss -> multilabel_margin_loss_forward."""
    return _multilabel_margin_loss(input, target, _enum(size_average, reduce, reduction))


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """log(1 + exp(-target input)), reduced: aten::soft_margin_loss."""
    enum = _enum(size_average, reduce, reduction)
    _check_no_requires_grad(target, "target", "soft_margin_loss")
    return _soft_margin_loss(input, target, enum)


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """-(target log sigmoid(input) + (1 - target) log sigmoid(-input)) [* weight], averaged over
    the classes (the last dim), then reduced over the samples."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    C = input.size(class_dim)
    loss = loss.sum(dim=class_dim) / C  # one value per sample
    if reduction == "none":
        return loss
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    raise ValueError(reduction + " is not valid")


def cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    """1 - cos(input1, input2) where target is 1, max(0, cos - margin) where it is -1, reduced:
    aten::cosine_embedding_loss."""
    return opscope.cosine_embedding_loss(input1, input2, target, margin, _enum(size_average, reduce, reduction))


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None,
                      reduction="mean"):
    """For each sample with target class y: sum over the other classes i of
    weight[y] max(0, margin - input[y] + input[i])^p / C, reduced: aten::multi_margin_loss."""
    enum = _enum(size_average, reduce, reduction)
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None:
        if weight.dim() != 1:
            raise ValueError("weight must be one-dimensional")
    _check_no_requires_grad(weight, "weight", "multi_margin_loss")
    return _multi_margin_loss(input, target, p, margin, weight, enum)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, size_average=None,
                        reduce=None, reduction="mean"):
    """max(0, margin + d(anchor, positive) - d(anchor, negative)), d the pairwise p-norm distance
    (swap: the smaller of d(anchor, negative) and d(positive, negative)), reduced:
    aten::triplet_margin_loss."""
    enum = _enum(size_average, reduce, reduction)
    return opscope.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap, enum)


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin=1.0,
                                      swap=False, reduction="mean"):
    """triplet_margin_loss with any distance function (pairwise_distance by default)."""
    distance_function = distance_function if distance_function is not None else pairwise_distance
    positive_dist = distance_function(anchor, positive)
    negative_dist = distance_function(anchor, negative)
    if swap:
        swap_dist = distance_function(positive, negative)
        negative_dist = opscope.min(negative_dist, swap_dist)
    output = opscope.clamp(positive_dist - negative_dist + margin, min=0.0)
    enum = _reduction_enum(reduction)
    if enum == 1:
        return output.mean()
    if enum == 2:
        return output.sum()
    return output


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None,
                     reduction="mean"):
    """exp(input) - target input (log_input), else input - target log(input + eps); full adds
    Stirling's approximation of log(target!) where target > 1; reduced: aten::poisson_nll_loss."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    if reduction != "none" and reduction != "mean" and reduction != "sum":
        raise ValueError(reduction + " is not valid")
    return opscope.poisson_nll_loss(input, target, log_input, full, eps, _reduction_enum(reduction))


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    """(log(var) + (input - target)^2 / var) / 2 (+ log(2 pi) / 2 with full), var clamped at eps
    (without a gradient through the clamp); var has input's shape, or it without the last dim,
    or that dim as 1."""
    if var.size() != input.size():
        if input.size()[:-1] == var.size():  # one variance per sample: broadcast over the last dim
            var = opscope.unsqueeze(var, -1)
        elif input.size()[:-1] == var.size()[:-1] and var.size(-1) == 1:
            pass
        else:
            raise ValueError("var is of incorrect size")
    if reduction != "none" and reduction != "mean" and reduction != "sum":
        raise ValueError(reduction + " is not valid")
    if opscope.any(var < 0):
        raise ValueError("var has negative entry/entries")
    var = var.clone()
    with opscope.no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (opscope.log(var) + (input - target) ** 2 / var)
    if full:
        loss += 0.5 * math.log(2 * math.pi)
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def glu(input, dim=-1):
    """a sigmoid(b), a and b the halves of input along dim: aten::glu."""
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    return _glu(input, dim)


def pixel_shuffle(input, upscale_factor):
    """(*, C r^2, H, W) -> (*, C, H r, W r), r = upscale_factor: aten::pixel_shuffle."""
    return opscope.pixel_shuffle(input, upscale_factor)


def pixel_unshuffle(input, downscale_factor):
    """(*, C, H r, W r) -> (*, C r^2, H, W), r = downscale_factor: aten::pixel_unshuffle."""
    return opscope.pixel_unshuffle(input, downscale_factor)


# --- spatial transformers: affine_grid, grid_sample ----------------------------------------------
_ALIGN_CORNERS_DEFAULT_CHANGED = (
    "Default grid_sample and affine_grid behavior has changed "
    "to align_corners=False since 1.3.0. Please specify "
    "align_corners=True if the old behavior is desired. "
    "See the documentation of grid_sample for details.")


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """input (N, C, H, W) read at grid (N, Ho, Wo, 2) -> (N, C, Ho, Wo) (5-D: (N, C, D, H, W) at
    (N, Do, Ho, Wo, 3)): aten::grid_sampler with torch's mode and padding enums."""
    if mode != "bilinear" and mode != "nearest" and mode != "bicubic":
        raise ValueError(
            "nn.functional.grid_sample(): expected mode to be "
            "'bilinear', 'nearest' or 'bicubic', but got: '{}'".format(mode))
    if padding_mode != "zeros" and padding_mode != "border" and padding_mode != "reflection":
        raise ValueError(
            "nn.functional.grid_sample(): expected padding_mode "
            "to be 'zeros', 'border', or 'reflection', "
            "but got: '{}'".format(padding_mode))
    mode_enum = {"bilinear": 0, "nearest": 1, "bicubic": 2}[mode]
    padding_mode_enum = {"zeros": 0, "border": 1, "reflection": 2}[padding_mode]
    if align_corners is None:
        warnings.warn(_ALIGN_CORNERS_DEFAULT_CHANGED)
        align_corners = False
    return opscope.grid_sampler(input, grid, mode_enum, padding_mode_enum, align_corners)


def affine_grid(theta, size, align_corners=None):
    """theta (N, 2, 3) and size (N, C, H, W) -> the sampling grid (N, H, W, 2) of the affine map
    (3-D: (N, 3, 4), (N, C, D, H, W) -> (N, D, H, W, 3)): aten::affine_grid_generator."""
    if align_corners is None:
        warnings.warn(_ALIGN_CORNERS_DEFAULT_CHANGED)
        align_corners = False
    if not theta.is_floating_point():
        raise ValueError("Expected theta to have floating point type, but got {}".format(theta.dtype))
    if len(size) == 4:
        if theta.dim() != 3 or theta.shape[-2] != 2 or theta.shape[-1] != 3:
            raise ValueError(
                "Expected a batch of 2D affine matrices of shape Nx2x3 "
                "for size {}. Got {}.".format(size, theta.shape))
        spatial_size = size[-2:]
    elif len(size) == 5:
        if theta.dim() != 3 or theta.shape[-2] != 3 or theta.shape[-1] != 4:
            raise ValueError(
                "Expected a batch of 3D affine matrices of shape Nx3x4 "
                "for size {}. Got {}.".format(size, theta.shape))
        spatial_size = size[-3:]
    else:
        raise NotImplementedError(
            "affine_grid only supports 4D and 5D sizes, "
            "for 2D and 3D affine transforms, respectively. "
            "Got size {}.".format(size))
    if align_corners and min(spatial_size) == 1:
        warnings.warn(
            "Since version 1.3.0, affine_grid behavior has changed "
            "for unit-size grids when align_corners=True. "
            "This is not an intended use case of affine_grid. "
            "See the documentation of affine_grid for details.")
    elif min(size) <= 0:
        raise ValueError("Expected non-zero, positive output size. Got {}".format(size))
    return opscope.affine_grid_generator(theta, size, align_corners)


# --- normalization, embedding, one_hot, pad ---------------------------------------------------
def _verify_batch_size(size):
    """torch's check that training-mode batch norm sees more than one value per channel."""
    size_prods = size[0]
    for i in range(len(size) - 2):
        size_prods *= size[i + 2]
    if size_prods == 1:
        raise ValueError("Expected more than 1 value per channel when training, got input size {}".format(size))


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1,
               eps=1e-5):
    """Normalizes each channel (dim 1) of input (N, C, *): by the batch's statistics when training
    (moving running_mean / running_var, when given, by momentum), by the running ones otherwise;
    then * weight + bias. aten::batch_norm -> aten::native_batch_norm."""
    if training:
        _verify_batch_size(input.size())
    return _batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, False)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Normalizes over the last len(normalized_shape) dims: aten::layer_norm."""
    if isinstance(normalized_shape, int):
        normalized_shape = (normalized_shape,)
    return opscope.layer_norm(input, list(normalized_shape), weight, bias, eps, True)


def _verify_spatial_size(size):
    """torch's check that instance norm sees more than one element per (sample, channel)."""
    size_prods = 1
    for i in range(2, len(size)):
        size_prods *= size[i]
    if size_prods == 1:
        raise ValueError("Expected more than 1 spatial element when training, got input size {}".format(size))


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None,
                  use_input_stats=True, momentum=0.1, eps=1e-5):
    """Normalizes each (sample, channel) of input (N, C, *) over *: aten::instance_norm
    (batch_norm of the input seen as (1, N C, *))."""
    if use_input_stats:
        _verify_spatial_size(input.size())
    return opscope.instance_norm(input, weight, bias, running_mean, running_var, use_input_stats,
                                 momentum, eps, False)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    """Normalizes each sample's num_groups groups of channels (dim 1) over their channels and
    the dims after, then * weight[c] + bias[c]: aten::group_norm -> aten::native_group_norm."""
    _verify_batch_size([input.size(0) * input.size(1) // num_groups, num_groups] + list(input.size()[2:]))
    return opscope.group_norm(input, num_groups, weight, bias, eps, False)


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
        with opscope.no_grad():  # torch's _no_grad_embedding_renorm_: a leaf weight may be renormed
            _embedding_renorm_(weight, input, max_norm, norm_type)
    return opscope.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)


def one_hot(tensor, num_classes=-1):
    """int64 class indices (*) -> (*, num_classes) int64 with a 1 at each index."""
    return _one_hot(tensor, num_classes)


def pad(input, pad, mode="constant", value=None):
    """Pads (or, with negative sizes, crops) the last len(pad) // 2 dims; pad is
    (left_last, right_last, left_second_last, ...). Only mode='constant' is implemented."""
    return _pad(input, list(pad), mode, value)


# --- recurrent and attention ------------------------------------------------------------------
# The recurrent ops nn.RNN / LSTM / GRU and the cells call (torch's _VF.lstm, ...), and attention.
import math  # noqa: E402  (this section's own import)

_lstm = _Op("aten::lstm.input")
_gru = _Op("aten::gru.input")
_rnn_tanh = _Op("aten::rnn_tanh.input")
_rnn_relu = _Op("aten::rnn_relu.input")
_lstm_cell = _Op("aten::lstm_cell")
_gru_cell = _Op("aten::gru_cell")
_rnn_tanh_cell = _Op("aten::rnn_tanh_cell")
_rnn_relu_cell = _Op("aten::rnn_relu_cell")
_scaled_dot_product_attention = _Op("aten::scaled_dot_product_attention")


_rnn_data = {"LSTM": _Op("aten::lstm.data"), "GRU": _Op("aten::gru.data"),
             "RNN_TANH": _Op("aten::rnn_tanh.data"), "RNN_RELU": _Op("aten::rnn_relu.data")}


def _rnn_packed(mode, data, batch_sizes, hx, params, has_biases, num_layers, dropout, train,
                bidirectional):
    """A recurrent layer over a PackedSequence's data and batch_sizes (torch's lstm.data /
    gru.data / rnn_tanh.data / rnn_relu.data overloads)."""
    return _rnn_data[mode](data, batch_sizes, hx, params, has_biases, num_layers, dropout, train,
                           bidirectional)


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False,
                                 scale=None):
    """softmax(query key^T * scale + mask) value, scale = 1 / sqrt(E) by default (torch 2.x's
    F.scaled_dot_product_attention). query (*, L, E), key (*, S, E), value (*, S, Ev) -> (*, L, Ev).
    A bool attn_mask marks the pairs that take part (True), a float one is added; is_causal
    masks keys after each query."""
    return _scaled_dot_product_attention(query, key, value, attn_mask, dropout_p, is_causal,
                                         scale=scale)


def _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads):
    """Whether the MultiheadAttention input is batched, with torch 1.13's shape assertions."""
    if query.dim() == 3:
        is_batched = True
        assert key.dim() == 3 and value.dim() == 3, \
            ("For batched (3-D) `query`, expected `key` and `value` to be 3-D"
             f" but found {key.dim()}-D and {value.dim()}-D tensors respectively")
        if key_padding_mask is not None:
            assert key_padding_mask.dim() == 2, \
                ("For batched (3-D) `query`, expected `key_padding_mask` to be `None` or 2-D"
                 f" but found {key_padding_mask.dim()}-D tensor instead")
        if attn_mask is not None:
            assert attn_mask.dim() in (2, 3), \
                ("For batched (3-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D"
                 f" but found {attn_mask.dim()}-D tensor instead")
    elif query.dim() == 2:
        is_batched = False
        assert key.dim() == 2 and value.dim() == 2, \
            ("For unbatched (2-D) `query`, expected `key` and `value` to be 2-D"
             f" but found {key.dim()}-D and {value.dim()}-D tensors respectively")
        if key_padding_mask is not None:
            assert key_padding_mask.dim() == 1, \
                ("For unbatched (2-D) `query`, expected `key_padding_mask` to be `None` or 1-D"
                 f" but found {key_padding_mask.dim()}-D tensor instead")
        if attn_mask is not None:
            assert attn_mask.dim() in (2, 3), \
                ("For unbatched (2-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D"
                 f" but found {attn_mask.dim()}-D tensor instead")
            if attn_mask.dim() == 3:
                expected_shape = (num_heads, query.shape[0], key.shape[0])
                assert tuple(attn_mask.shape) == expected_shape, \
                    f"Expected `attn_mask` shape to be {expected_shape} but got {attn_mask.shape}"
    else:
        raise AssertionError(
            f"query should be unbatched 2D or batched 3D tensor but received {query.dim()}-D query tensor")
    return is_batched


def _in_projection_packed(q, k, v, w, b=None):
    """q, k, v projected by the packed (3E, E) in-projection: one linear when q, k and v are the
    same tensor (self-attention), two when k is v."""
    E = q.size(-1)
    if k is v:
        if q is k:
            return linear(q, w, b).chunk(3, dim=-1)
        w_q, w_kv = w.split([E, E * 2])
        b_q, b_kv = (None, None) if b is None else b.split([E, E * 2])
        return (linear(q, w_q, b_q),) + tuple(linear(k, w_kv, b_kv).chunk(2, dim=-1))
    w_q, w_k, w_v = w.chunk(3)
    b_q, b_k, b_v = (None, None, None) if b is None else b.chunk(3)
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def _in_projection(q, k, v, w_q, w_k, w_v, b_q=None, b_k=None, b_v=None):
    Eq, Ek, Ev = q.size(-1), k.size(-1), v.size(-1)
    assert tuple(w_q.shape) == (Eq, Eq), f"expecting query weights shape of {(Eq, Eq)}, but got {w_q.shape}"
    assert tuple(w_k.shape) == (Eq, Ek), f"expecting key weights shape of {(Eq, Ek)}, but got {w_k.shape}"
    assert tuple(w_v.shape) == (Eq, Ev), f"expecting value weights shape of {(Eq, Ev)}, but got {w_v.shape}"
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads, in_proj_weight,
                                 in_proj_bias, bias_k, bias_v, add_zero_attn, dropout_p,
                                 out_proj_weight, out_proj_bias, training=True,
                                 key_padding_mask=None, need_weights=True, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None,
                                 k_proj_weight=None, v_proj_weight=None, static_k=None,
                                 static_v=None, average_attn_weights=True):
    """torch 1.13's multi-head attention: query (L, N, E) or (L, E), key / value (S, N, Ek/Ev)
    -> (output (L, N, E), weights (N, L, S) averaged over heads, (N, heads, L, S) otherwise, or
    None). Masks: bool True = may not attend; float ones are added."""
    is_batched = _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not is_batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)

    tgt_len, bsz, embed_dim = query.shape
    src_len, _, _ = key.shape
    if key_padding_mask is not None:
        if key_padding_mask.dtype != opscope.bool and not key_padding_mask.is_floating_point():
            raise AssertionError("only bool and floating types of key_padding_mask are supported")
    assert embed_dim == embed_dim_to_check, \
        f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}"
    head_dim = embed_dim // num_heads
    assert head_dim * num_heads == embed_dim, f"embed_dim {embed_dim} not divisible by num_heads {num_heads}"
    if use_separate_proj_weight:
        assert tuple(key.shape[:2]) == tuple(value.shape[:2]), \
            f"key's sequence and batch dims {key.shape[:2]} do not match value's {value.shape[:2]}"
    else:
        assert tuple(key.shape) == tuple(value.shape), f"key shape {key.shape} does not match value shape {value.shape}"

    if not use_separate_proj_weight:
        assert in_proj_weight is not None, "use_separate_proj_weight is False but in_proj_weight is None"
        q, k, v = _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias)
    else:
        assert q_proj_weight is not None, "use_separate_proj_weight is True but q_proj_weight is None"
        assert k_proj_weight is not None, "use_separate_proj_weight is True but k_proj_weight is None"
        assert v_proj_weight is not None, "use_separate_proj_weight is True but v_proj_weight is None"
        b_q, b_k, b_v = (None, None, None) if in_proj_bias is None else in_proj_bias.chunk(3)
        q, k, v = _in_projection(query, key, value, q_proj_weight, k_proj_weight, v_proj_weight,
                                 b_q, b_k, b_v)

    if attn_mask is not None:
        if attn_mask.dtype == opscope.uint8:
            warnings.warn("Byte tensor for attn_mask in nn.MultiheadAttention is deprecated. Use bool tensor instead.")
            attn_mask = attn_mask.to(opscope.bool)
        else:
            assert attn_mask.is_floating_point() or attn_mask.dtype == opscope.bool, \
                f"Only float, byte, and bool types are supported for attn_mask, not {attn_mask.dtype}"
        if attn_mask.dim() == 2:
            correct_2d_size = (tgt_len, src_len)
            if tuple(attn_mask.shape) != correct_2d_size:
                raise RuntimeError(f"The shape of the 2D attn_mask is {attn_mask.shape}, but should be {correct_2d_size}.")
            attn_mask = attn_mask.unsqueeze(0)
        elif attn_mask.dim() == 3:
            correct_3d_size = (bsz * num_heads, tgt_len, src_len)
            if tuple(attn_mask.shape) != correct_3d_size:
                raise RuntimeError(f"The shape of the 3D attn_mask is {attn_mask.shape}, but should be {correct_3d_size}.")
        else:
            raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")

    if bias_k is not None and bias_v is not None:
        assert static_k is None, "bias cannot be added to static key."
        assert static_v is None, "bias cannot be added to static value."
        k = opscope.cat([k, bias_k.repeat(1, bsz, 1)])
        v = opscope.cat([v, bias_v.repeat(1, bsz, 1)])
        if attn_mask is not None:
            attn_mask = pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = pad(key_padding_mask, (0, 1))
    else:
        assert bias_k is None
        assert bias_v is None

    # (L, N, E) -> (N * heads, L, head_dim)
    q = q.contiguous().view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    if static_k is None:
        k = k.contiguous().view(k.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    else:
        assert static_k.size(0) == bsz * num_heads, \
            f"expecting static_k.size(0) of {bsz * num_heads}, but got {static_k.size(0)}"
        assert static_k.size(2) == head_dim, f"expecting static_k.size(2) of {head_dim}, but got {static_k.size(2)}"
        k = static_k
    if static_v is None:
        v = v.contiguous().view(v.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    else:
        assert static_v.size(0) == bsz * num_heads, \
            f"expecting static_v.size(0) of {bsz * num_heads}, but got {static_v.size(0)}"
        assert static_v.size(2) == head_dim, f"expecting static_v.size(2) of {head_dim}, but got {static_v.size(2)}"
        v = static_v

    if add_zero_attn:
        zero_attn_shape = (bsz * num_heads, 1, head_dim)
        k = opscope.cat([k, opscope.zeros(zero_attn_shape, dtype=k.dtype, device=k.device)], dim=1)
        v = opscope.cat([v, opscope.zeros(zero_attn_shape, dtype=v.dtype, device=v.device)], dim=1)
        if attn_mask is not None:
            attn_mask = pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = pad(key_padding_mask, (0, 1))

    src_len = k.size(1)
    if key_padding_mask is not None:
        assert tuple(key_padding_mask.shape) == (bsz, src_len), \
            f"expecting key_padding_mask shape of {(bsz, src_len)}, but got {key_padding_mask.shape}"
        key_padding_mask = key_padding_mask.view(bsz, 1, 1, src_len).expand(
            -1, num_heads, -1, -1).reshape(bsz * num_heads, 1, src_len)
        if attn_mask is None:
            attn_mask = key_padding_mask
        elif attn_mask.dtype == opscope.bool:
            attn_mask = attn_mask.logical_or(key_padding_mask)
        else:
            attn_mask = attn_mask.masked_fill(key_padding_mask, float("-inf"))

    if attn_mask is not None and attn_mask.dtype == opscope.bool:
        new_attn_mask = opscope.zeros_like(attn_mask, dtype=q.dtype)
        new_attn_mask.masked_fill_(attn_mask, float("-inf"))
        attn_mask = new_attn_mask

    if not training:
        dropout_p = 0.0

    B, Nt, E = q.shape
    q_scaled = q / math.sqrt(E)
    if attn_mask is not None:
        attn_output_weights = opscope.baddbmm(attn_mask, q_scaled, k.transpose(-2, -1))
    else:
        attn_output_weights = opscope.bmm(q_scaled, k.transpose(-2, -1))
    attn_output_weights = softmax(attn_output_weights, dim=-1)
    if dropout_p > 0.0:
        attn_output_weights = dropout(attn_output_weights, p=dropout_p)
    attn_output = opscope.bmm(attn_output_weights, v)
    attn_output = attn_output.transpose(0, 1).contiguous().view(tgt_len * bsz, embed_dim)
    attn_output = linear(attn_output, out_proj_weight, out_proj_bias)
    attn_output = attn_output.view(tgt_len, bsz, attn_output.size(1))

    if need_weights:
        attn_output_weights = attn_output_weights.view(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            attn_output_weights = attn_output_weights.sum(dim=1) / num_heads
        if not is_batched:
            attn_output = attn_output.squeeze(1)
            attn_output_weights = attn_output_weights.squeeze(0)
        return attn_output, attn_output_weights
    if not is_batched:
        attn_output = attn_output.squeeze(1)
    return attn_output, None


__all__ += ["scaled_dot_product_attention", "multi_head_attention_forward"]


# --- convolution and pooling ------------------------------------------------------------------
# torch.nn.functional's convolutions are torch's builtins (torch.conv2d, ...); its pooling
# functions add return_indices and stride=None. Kernels: core/ops/cpu/conv.cpp, cpu/pool.cpp.
_max_pool2d_with_indices = _Op("aten::max_pool2d_with_indices")
_avg_pool2d = _Op("aten::avg_pool2d")
_adaptive_avg_pool2d = _Op("aten::adaptive_avg_pool2d")
_adaptive_max_pool2d = _Op("aten::adaptive_max_pool2d")
__all__ += ["conv1d", "conv2d", "conv_transpose1d", "conv_transpose2d", "max_pool1d", "max_pool2d",
            "max_pool1d_with_indices", "max_pool2d_with_indices", "avg_pool1d", "avg_pool2d",
            "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_max_pool1d", "adaptive_max_pool2d",
            "adaptive_max_pool1d_with_indices", "adaptive_max_pool2d_with_indices"]


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """input (N, C_in, L) or (C_in, L), weight (C_out, C_in / groups, k) -> (N, C_out, L_out);
    padding an int, a 1-tuple, 'valid' or 'same'."""
    return opscope.conv1d(input, weight, bias, stride, padding, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """input (N, C_in, H, W) or (C_in, H, W), weight (C_out, C_in / groups, kH, kW)
    -> (N, C_out, H_out, W_out); padding an int, a pair, 'valid' or 'same'."""
    return opscope.conv2d(input, weight, bias, stride, padding, dilation, groups)


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """The adjoint of conv1d: weight (C_in, C_out / groups, k)."""
    return opscope.conv_transpose1d(input, weight, bias, stride, padding, output_padding, groups, dilation)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """The adjoint of conv2d: weight (C_in, C_out / groups, kH, kW)."""
    return opscope.conv_transpose2d(input, weight, bias, stride, padding, output_padding, groups, dilation)


def _stride(stride):
    return [] if stride is None else stride


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    return _max_pool2d_with_indices(input, kernel_size, _stride(stride), padding, dilation, ceil_mode)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """The maximum of each window (and, with return_indices, its flat index h * W + w)."""
    if return_indices:
        return max_pool2d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    return opscope.max_pool2d(input, kernel_size, _stride(stride), padding, dilation, ceil_mode)


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    return opscope.max_pool1d_with_indices(input, kernel_size, _stride(stride), padding, dilation, ceil_mode)


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    if return_indices:
        return max_pool1d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    return opscope.max_pool1d(input, kernel_size, _stride(stride), padding, dilation, ceil_mode)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """The mean of each window; count_include_pad counts the zero padding in the divisor,
    divisor_override replaces it."""
    return _avg_pool2d(input, kernel_size, _stride(stride), padding, ceil_mode, count_include_pad,
                       divisor_override)


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """The mean of each (kT, kH, kW) window of (N, C, T, H, W) or (C, T, H, W): aten::avg_pool3d."""
    return _avg_pool3d(input, kernel_size, _stride(stride), padding, ceil_mode, count_include_pad,
                       divisor_override)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    return opscope.avg_pool1d(input, kernel_size, _stride(stride), padding, ceil_mode, count_include_pad)


def _list_with_default(out_size, defaults):
    """An adaptive pool's output size with None entries taken from the input's size."""
    if isinstance(out_size, int):
        return out_size
    if len(defaults) <= len(out_size):
        raise ValueError("Input dimension should be at least {}".format(len(out_size) + 1))
    return [v if v is not None else d for v, d in zip(out_size, list(defaults)[-len(out_size):])]


def adaptive_avg_pool2d(input, output_size):
    """Means over windows [floor(i H / OH), ceil((i + 1) H / OH)) (the same along W)."""
    return _adaptive_avg_pool2d(input, _list_with_default(output_size, input.size()))


def adaptive_avg_pool1d(input, output_size):
    return opscope.adaptive_avg_pool1d(input, output_size)


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=False):
    return _adaptive_max_pool2d(input, _list_with_default(output_size, input.size()))


def adaptive_max_pool2d(input, output_size, return_indices=False):
    out = adaptive_max_pool2d_with_indices(input, output_size)
    return out if return_indices else out[0]


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=False):
    return opscope.adaptive_max_pool1d(input, output_size)


def adaptive_max_pool1d(input, output_size, return_indices=False):
    out = adaptive_max_pool1d_with_indices(input, output_size)
    return out if return_indices else out[0]


# --- upsampling ------------------------------------------------------------------------------
# F.interpolate picks the aten op torch 1.13 picks (core/ops/cpu/upsample.cpp): the .vec
# overloads, given output_size or scale_factors; area mode is adaptive average pooling.
__all__ += ["interpolate", "upsample", "upsample_nearest", "upsample_bilinear"]

_UPSAMPLE_OPS = {  # (mode, input dims) -> the op; the linear ones take align_corners
    ("nearest", 3): "aten::upsample_nearest1d.vec", ("nearest", 4): "aten::upsample_nearest2d.vec",
    ("nearest-exact", 3): "aten::_upsample_nearest_exact1d.vec",
    ("nearest-exact", 4): "aten::_upsample_nearest_exact2d.vec",
    ("linear", 3): "aten::upsample_linear1d.vec", ("bilinear", 4): "aten::upsample_bilinear2d.vec",
}
# torch's ops that opscope does not have yet: 3-D (5-D input) modes, bicubic, anti-aliasing
_UPSAMPLE_MISSING = {
    ("nearest", 5): "upsample_nearest3d", ("nearest-exact", 5): "_upsample_nearest_exact3d",
    ("area", 5): "adaptive_avg_pool3d", ("trilinear", 5): "upsample_trilinear3d",
    ("bicubic", 4): "upsample_bicubic2d",
}
_WRONG_DIMS = {"linear": 3, "bilinear": 4, "trilinear": 5}


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    """Resamples the spatial dims of input (N, C, *) to `size`, or to each size times
    `scale_factor`: nearest / nearest-exact / area copy or average cells, linear / bilinear
    interpolate (align_corners: the corner cells' centres line up)."""
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating modes: "
                             "linear | bilinear | bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    dim = input.dim() - 2  # spatial dims
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        scale_factors = None
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError(
                    "Input and output must have the same number of spatial dimensions, but got "
                    f"input with spatial dimensions of {list(input.shape[2:])} and output size of {size}. "
                    "Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
                    "output size in (o1, o2, ...,oK) format.")
            output_size = size
        else:
            output_size = [size for _ in range(dim)]
    elif scale_factor is not None:
        output_size = None
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dim:
                raise ValueError(
                    "Input and scale_factor must have the same number of spatial dimensions, but "
                    f"got input with spatial dimensions of {list(input.shape[2:])} and "
                    f"scale_factor of shape {scale_factor}. "
                    "Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
                    "scale_factor in (s1, s2, ...,sK) format.")
            scale_factors = scale_factor
        else:
            scale_factors = [scale_factor for _ in range(dim)]
    else:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor is not None and recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if mode == "area" and output_size is None:
        recompute_scale_factor = True
    if recompute_scale_factor is not None and recompute_scale_factor:
        output_size = [int(math.floor(float(input.size(i + 2)) * scale_factors[i])) for i in range(dim)]
        scale_factors = None
    if antialias and not (mode in ("bilinear", "bicubic") and input.ndim == 4):
        raise ValueError("Anti-alias option is only supported for bilinear and bicubic modes")
    if antialias:
        raise NotImplementedError(f"interpolate(mode={mode!r}, antialias=True) calls aten::_upsample_{mode}2d_aa, "
                                  "which opscope does not have yet")
    key = (mode, input.dim())
    if key in _UPSAMPLE_OPS:
        op = _C._op_overload(_UPSAMPLE_OPS[key])
        if mode in _WRONG_DIMS:
            return op(input, output_size, align_corners, scale_factors)
        return op(input, output_size, scale_factors)
    if mode == "area" and input.dim() in (3, 4):
        pool = adaptive_avg_pool1d if input.dim() == 3 else adaptive_avg_pool2d
        return pool(input, output_size)
    if key in _UPSAMPLE_MISSING:
        raise NotImplementedError(f"interpolate(mode={mode!r}) of a {input.dim()}D input calls "
                                  f"aten::{_UPSAMPLE_MISSING[key]}, which opscope does not have yet")
    if mode in _WRONG_DIMS and input.dim() in (3, 4, 5):
        raise NotImplementedError(f"Got {input.dim()}D input, but {mode} mode needs {_WRONG_DIMS[mode]}D input")
    raise NotImplementedError(
        "Input Error: Only 3D, 4D and 5D input Tensors supported"
        " (got {}D) for the modes: nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact"
        " (got {})".format(input.dim(), mode))


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    """Deprecated spelling of interpolate."""
    warnings.warn("nn.functional.upsample is deprecated. Use nn.functional.interpolate instead.")
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    """Deprecated: interpolate(mode="nearest")."""
    warnings.warn("nn.functional.upsample_nearest is deprecated. Use nn.functional.interpolate instead.")
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    """Deprecated: interpolate(mode="bilinear", align_corners=True)."""
    warnings.warn("nn.functional.upsample_bilinear is deprecated. Use nn.functional.interpolate instead.")
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


# --- sliding blocks, unpooling, channel shuffle, local response norm, bilinear ----------------
# As torch 1.13 files them: unfold / fold call torch._C._nn.im2col / col2im, max_unpool1d / 2d
# torch._C._nn.max_unpool2d (1d on a trailing dim of 1), max_unpool3d torch._C._nn.max_unpool3d;
# channel_shuffle, native_channel_shuffle and bilinear are torch's own functions (aten ops);
# local_response_norm is Python over other ops, so a trace and the backward nodes read as torch's.
__all__ += [
    "unfold", "fold", "max_unpool1d", "max_unpool2d", "max_unpool3d", "channel_shuffle",
    "native_channel_shuffle", "local_response_norm", "bilinear", "avg_pool3d",
]

_im2col = _Op("aten::im2col")
_col2im = _Op("aten::col2im")
_max_unpool2d = _Op("aten::max_unpool2d")
_max_unpool3d = _Op("aten::max_unpool3d")
_avg_pool3d = _Op("aten::avg_pool3d")


def _ntuple(x, n):
    """torch.nn.modules.utils._ntuple: an iterable as a tuple, anything else repeated n times."""
    if isinstance(x, (list, tuple)) or hasattr(x, "__iter__") and not isinstance(x, str):
        return tuple(x)
    return (x,) * n


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """Sliding local blocks: (N, C, H, W) or (C, H, W) -> (N, C kh kw, L) or (C kh kw, L), column l
    the window at the l-th of the L positions (zero padding outside the image)."""
    return _im2col(input, _ntuple(kernel_size, 2), _ntuple(dilation, 2), _ntuple(padding, 2),
                   _ntuple(stride, 2))


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """unfold's adjoint: (N, C kh kw, L) or (C kh kw, L) -> (N, C, H, W) or (C, H, W),
    (H, W) = output_size, overlapping blocks summed."""
    return _col2im(input, _ntuple(output_size, 2), _ntuple(kernel_size, 2), _ntuple(dilation, 2),
                   _ntuple(padding, 2), _ntuple(stride, 2))


def _unpool_output_size(input, kernel_size, stride, padding, output_size):
    """torch's: (in - 1) stride + kernel - 2 padding per spatial dim, or output_size (its last
    len(kernel_size) entries) within stride of that."""
    input_size = input.size()
    default_size = []
    for d in range(len(kernel_size)):
        default_size.append((input_size[-len(kernel_size) + d] - 1) * stride[d] + kernel_size[d] - 2 * padding[d])
    if output_size is None:
        return default_size
    if len(output_size) == len(kernel_size) + 2:
        output_size = output_size[2:]
    if len(output_size) != len(kernel_size):
        raise ValueError(
            "output_size should be a sequence containing "
            "{} or {} elements, but it has a length of '{}'".format(
                len(kernel_size), len(kernel_size) + 2, len(output_size)))
    for d in range(len(kernel_size)):
        min_size = default_size[d] - stride[d]
        max_size = default_size[d] + stride[d]
        if not (min_size < output_size[d] < max_size):
            raise ValueError('invalid output_size "{}" (dim {} must be between {} and {})'.format(
                output_size, d, min_size, max_size))
    return output_size


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """max_pool1d's partial inverse: each value put at its index along the output's last dim,
    zeros elsewhere (max_unpool2d on a trailing dim of 1)."""
    kernel_size = _ntuple(kernel_size, 1)
    _stride = _ntuple(stride, 1) if stride is not None else kernel_size
    padding = _ntuple(padding, 1)
    output_size = _unpool_output_size(input, kernel_size, _stride, padding, output_size)
    if isinstance(output_size, list):
        output_size = output_size + [1]
    else:
        output_size = output_size + (1,)
    return _max_unpool2d(input.unsqueeze(-1), indices.unsqueeze(-1), output_size).squeeze(-1)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """max_pool2d's partial inverse: each value put at its flat index h OW + w of its output
    plane, zeros elsewhere."""
    kernel_size = _ntuple(kernel_size, 2)
    _stride = _ntuple(stride, 2) if stride is not None else kernel_size
    padding = _ntuple(padding, 2)
    output_size = _unpool_output_size(input, kernel_size, _stride, padding, output_size)
    return _max_unpool2d(input, indices, output_size)


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The 3-D max_unpool2d: flat indices (t OH + h) OW + w into (OT, OH, OW) planes."""
    kernel_size = _ntuple(kernel_size, 3)
    _stride = _ntuple(stride, 3) if stride is not None else kernel_size
    padding = _ntuple(padding, 3)
    output_size = _unpool_output_size(input, kernel_size, _stride, padding, output_size)
    return _max_unpool3d(input, indices, output_size, _stride, padding)


def channel_shuffle(input, groups):
    """(N, g k, *) -> the same shape, channel i g + j taken from channel j k + i."""
    return opscope.channel_shuffle(input, groups)


def native_channel_shuffle(input, groups):
    """channel_shuffle without the rank check: aten::native_channel_shuffle."""
    return opscope.native_channel_shuffle(input, groups)


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    """input / (k + alpha / size * sum of input^2 over the `size` neighbouring channels)^beta,
    torch's op sequence: the squares padded along the channels and averaged by avg_pool2d (3-D
    input) or avg_pool3d (more dims)."""
    dim = input.dim()
    if dim < 3:
        # (torch's message continues its string literal on an indented line: 26 spaces)
        raise ValueError(
            "Expected 3D or higher dimensionality" + " " * 26 + "input (got {} dimensions)".format(dim))
    if input.numel() == 0:
        return input
    div = input.mul(input).unsqueeze(1)
    if dim == 3:
        div = pad(div, (0, 0, size // 2, (size - 1) // 2))
        div = avg_pool2d(div, (size, 1), stride=1).squeeze(1)
    else:
        sizes = input.size()
        div = div.view(sizes[0], 1, sizes[1], sizes[2], -1)
        div = pad(div, (0, 0, 0, 0, size // 2, (size - 1) // 2))
        div = avg_pool3d(div, (size, 1, 1), stride=1).squeeze(1)
        div = div.view(sizes)
    div = div.mul(alpha).add(k).pow(beta)
    return input / div


def bilinear(input1, input2, weight, bias=None):
    """input1 (*, I1), input2 (*, I2), weight (O, I1, I2) -> (*, O):
    x1 weight[o] x2^T + bias[o], aten::bilinear."""
    return opscope.bilinear(input1, input2, weight, bias)


# Every public function here honours __torch_function__ as the C++ ops do: a call with a Tensor
# subclass or another tensor-like argument (an FX Proxy), or under a TorchFunctionMode, goes to its
# __torch_function__ with the public function as func. See opscope/overrides.py.
# The ones torch 1.13 writes in C++ (torch._C._nn.linear, ...) hand their arguments to an override
# as called, exact tensors not among the types; the others as torch's Python functions do.
_TORCH_BUILTINS = {
    "adaptive_avg_pool1d", "avg_pool1d", "avg_pool2d", "celu_", "conv1d", "conv2d",
    "conv_transpose1d", "conv_transpose2d", "elu_", "gelu", "hardshrink", "hardtanh_", "leaky_relu_", "linear",
    "logsigmoid", "one_hot", "pad", "prelu", "relu_", "rrelu_", "selu_", "softplus", "softshrink", "threshold_",
    "cosine_similarity", "pairwise_distance", "pixel_shuffle", "pixel_unshuffle",
    "channel_shuffle", "native_channel_shuffle", "bilinear", "avg_pool3d",
}


def _honour_torch_function():
    import types
    for name in __all__:
        f = globals().get(name)
        if isinstance(f, types.FunctionType):
            wrapper = _C._torch_function_wrapper(f)
            if name in _TORCH_BUILTINS:
                wrapper._torch_builtin = True
            globals()[name] = wrapper


_honour_torch_function()
