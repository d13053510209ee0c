"""``opscope.nn.init``: the weight initialisations of torch.nn.init, with its signatures, bounds and
errors. Each fills a tensor in place (under no_grad) from the default generator
(opscope.manual_seed) and returns it; the layers' reset_parameters use them as torch's do, so a
model starts from the same distributions as under torch (not the same numbers: the generators
differ).

The scale rules: fan_in = size(1) * receptive field, fan_out = size(0) * receptive field (the
receptive field is the product of the dims after the second); xavier: std = gain *
sqrt(2 / (fan_in + fan_out)); kaiming: std = gain / sqrt(fan); a uniform with that std has bound
sqrt(3) * std.

>>> import opscope
>>> from opscope.nn import init
>>> w = opscope.empty(3, 5)
>>> init.calculate_gain("leaky_relu", 0.2)
1.3867504905630728
>>> init._calculate_fan_in_and_fan_out(w)
(5, 3)
>>> bool(init.kaiming_uniform_(w, a=5 ** 0.5).abs().max() <= 1 / 5 ** 0.5)
True
"""

import math
import warnings

import opscope

__all__ = ["calculate_gain", "uniform_", "normal_", "trunc_normal_", "constant_", "ones_", "zeros_",
           "eye_", "dirac_", "xavier_uniform_", "xavier_normal_", "kaiming_uniform_", "kaiming_normal_",
           "orthogonal_", "sparse_", "uniform", "normal", "constant", "xavier_uniform", "xavier_normal",
           "kaiming_uniform", "kaiming_normal", "orthogonal", "sparse"]


def calculate_gain(nonlinearity, param=None):
    """The gain that keeps activations' variance through a layer followed by nonlinearity:
    1 for linear / conv* / sigmoid, 5/3 for tanh, sqrt(2) for relu,
    sqrt(2 / (1 + negative_slope^2)) for leaky_relu (param: the slope, default 0.01), 3/4 for selu."""
    linear_fns = ["linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
                  "conv_transpose3d"]
    if nonlinearity in linear_fns or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            negative_slope = 0.01
        elif (not isinstance(param, bool) and isinstance(param, int)) or isinstance(param, float):
            negative_slope = param  # bool is an int: excluded above
        else:
            raise ValueError("negative_slope {} not a valid number".format(param))
        return math.sqrt(2.0 / (1 + negative_slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError("Unsupported nonlinearity {}".format(nonlinearity))


def uniform_(tensor, a=0.0, b=1.0):
    """Fills tensor from U(a, b)."""
    with opscope.no_grad():
        return tensor.uniform_(a, b)


def normal_(tensor, mean=0.0, std=1.0):
    """Fills tensor from N(mean, std^2)."""
    with opscope.no_grad():
        return tensor.normal_(mean, std)


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0):
    """Fills tensor from N(mean, std^2) restricted to [a, b], as torch: uniform values between
    the normal CDF at a and at b (on the erf scale), through erfinv_, scaled, shifted and
    clamped, all in place."""
    def norm_cdf(x):
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    if (mean < a - 2 * std) or (mean > b + 2 * std):
        warnings.warn("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. "
                      "The distribution of values may be incorrect.", stacklevel=2)
    with opscope.no_grad():
        lo, hi = norm_cdf((a - mean) / std), norm_cdf((b - mean) / std)
        tensor.uniform_(2 * lo - 1, 2 * hi - 1)
        tensor.erfinv_()
        tensor.mul_(std * math.sqrt(2.0))
        tensor.add_(mean)
        tensor.clamp_(min=a, max=b)
        return tensor


def constant_(tensor, val):
    """Fills tensor with val."""
    with opscope.no_grad():
        return tensor.fill_(val)


def ones_(tensor):
    """Fills tensor with 1."""
    with opscope.no_grad():
        return tensor.fill_(1.0)


def zeros_(tensor):
    """Fills tensor with 0."""
    with opscope.no_grad():
        return tensor.zero_()


def eye_(tensor):
    """Fills a 2-D tensor with the identity (ones on the diagonal of a possibly non-square matrix)."""
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    with opscope.no_grad():
        tensor.copy_(opscope.eye(*tensor.shape, dtype=tensor.dtype))
    return tensor


def dirac_(tensor, groups=1):
    """Fills a 3-, 4- or 5-D convolution weight (out, in, *k) so the convolution passes its input
    channels through: a 1 at the kernel's centre for out channel d of each group and in channel d."""
    dimensions = tensor.dim()
    if dimensions not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tensor.size()
    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    out_chans_per_grp = sizes[0] // groups
    min_dim = min(out_chans_per_grp, sizes[1])
    centre = tuple(s // 2 for s in sizes[2:])
    with opscope.no_grad():
        tensor.zero_()
        for g in range(groups):
            for d in range(min_dim):
                tensor[(g * out_chans_per_grp + d, d) + centre] = 1
    return tensor


def _calculate_fan_in_and_fan_out(tensor):
    """(fan_in, fan_out) of a weight (out, in, *receptive field)."""
    if tensor.dim() < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    receptive_field_size = 1
    for s in tensor.shape[2:]:
        receptive_field_size *= s
    return tensor.size(1) * receptive_field_size, tensor.size(0) * receptive_field_size


def xavier_uniform_(tensor, gain=1.0):
    """Glorot & Bengio (2010): U(-a, a), a = gain * sqrt(6 / (fan_in + fan_out))."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std
    return uniform_(tensor, -a, a)


def xavier_normal_(tensor, gain=1.0):
    """Glorot & Bengio (2010): N(0, std^2), std = gain * sqrt(2 / (fan_in + fan_out))."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(tensor, 0.0, std)


def _calculate_correct_fan(tensor, mode):
    mode = mode.lower()
    valid_modes = ["fan_in", "fan_out"]
    if mode not in valid_modes:
        raise ValueError("Mode {} not supported, please use one of {}".format(mode, valid_modes))
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def _kaiming_std(tensor, a, mode, nonlinearity):
    """gain / sqrt(fan) for the kaiming inits; None (after torch's warning) for an empty tensor."""
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op")
        return None
    return calculate_gain(nonlinearity, a) / math.sqrt(_calculate_correct_fan(tensor, mode))


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu"):
    """He et al. (2015): U(-bound, bound), bound = gain * sqrt(3 / fan) (a: leaky_relu's slope)."""
    std = _kaiming_std(tensor, a, mode, nonlinearity)
    if std is None:
        return tensor
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu"):
    """He et al. (2015): N(0, std^2), std = gain / sqrt(fan)."""
    std = _kaiming_std(tensor, a, mode, nonlinearity)
    if std is None:
        return tensor
    return normal_(tensor, 0, std)


def orthogonal_(tensor, gain=1):
    """Saxe et al. (2013): a (semi-)orthogonal matrix times gain — the Q of the QR of a Gaussian
    matrix, its columns' signs fixed by R's diagonal so Q is uniformly distributed. Dims after the
    first are flattened."""
    if tensor.dim() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.size(0)
    cols = tensor.numel() // rows
    with opscope.no_grad():
        flattened = opscope.empty(rows, cols, dtype=tensor.dtype).normal_(0, 1)
        if rows < cols:
            flattened = flattened.t()
        q, r = opscope.linalg.qr(flattened)
        q = q * opscope.diag(r, 0).sign()
        if rows < cols:
            q = q.t()
        tensor.view_as(q).copy_(q)
        tensor.mul_(gain)
    return tensor


def sparse_(tensor, sparsity, std=0.01):
    """Martens (2010): a 2-D tensor from N(0, std^2) with ceil(sparsity * rows) zeros in each
    column, at random rows."""
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    num_zeros = int(math.ceil(sparsity * rows))
    with opscope.no_grad():
        tensor.normal_(0, std)
        for col_idx in range(cols):
            zero_indices = opscope.randperm(rows)[:num_zeros]
            tensor[zero_indices, col_idx] = 0
    return tensor


def _make_deprecate(meth):
    new_name = meth.__name__
    old_name = new_name[:-1]

    def deprecated_init(*args, **kwargs):
        warnings.warn("nn.init.{} is now deprecated in favor of nn.init.{}.".format(old_name, new_name),
                      stacklevel=2)
        return meth(*args, **kwargs)

    deprecated_init.__doc__ = f"{old_name}(...): deprecated, use nn.init.{new_name}."
    deprecated_init.__name__ = old_name
    return deprecated_init


uniform = _make_deprecate(uniform_)
normal = _make_deprecate(normal_)
constant = _make_deprecate(constant_)
xavier_uniform = _make_deprecate(xavier_uniform_)
xavier_normal = _make_deprecate(xavier_normal_)
kaiming_uniform = _make_deprecate(kaiming_uniform_)
kaiming_normal = _make_deprecate(kaiming_normal_)
orthogonal = _make_deprecate(orthogonal_)
sparse = _make_deprecate(sparse_)
