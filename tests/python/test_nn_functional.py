"""opscope.nn.functional against float64 NumPy references: the losses (every reduction, weights,
ignore_index, label smoothing, N-d targets, empty batches), layer_norm, embedding, dropout,
one_hot, pad and the activation wrappers, with torch 1.13's errors and messages.

    PYTHONPATH=core/python /usr/bin/python3 -m pytest -q tests/python/test_nn_functional.py
"""
import warnings

import numpy as np
import pytest

import opscope
import opscope.nn.functional as F
from conftest import assert_close, record_dispatch, to_numpy, tolerance

FLOATS = [opscope.float32, opscope.float64]
REDUCTIONS = ["none", "mean", "sum"]


def T(a, dtype=None):
    """A NumPy array as an opscope tensor (of `dtype` when given)."""
    t = opscope.from_numpy(np.array(a, order="C"))
    return t if dtype is None else t.to(dtype)


def close(actual, expected, dtype=opscope.float64, what="", scale=1.0):
    tol = tolerance(dtype)
    assert_close(actual, expected, rtol=tol["rtol"] * 4, atol=tol["atol"] * 4 * scale, what=what, family="nn")


# --- NumPy references (float64) ------------------------------------------------------------------
def np_reduce(loss, reduction):
    if reduction == "none":
        return loss
    if reduction == "sum":
        return loss.sum()
    return loss.mean() if loss.size else np.float64("nan")


def np_log_softmax(x, axis):
    m = x.max(axis=axis, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=axis, keepdims=True))


def np_nll(logp, target, weight=None, ignore_index=-100, reduction="mean"):
    """logp (N, C, *) or (C,), target (N, *) or ()."""
    if logp.ndim == 1:
        logp, target = logp[None], np.asarray(target)[None]
        squeeze = True
    else:
        squeeze = False
    c = logp.shape[1]
    w = np.ones(c) if weight is None else weight
    keep = target != ignore_index
    safe = np.where(keep, target, 0)
    picked = np.take_along_axis(logp, safe[:, None], axis=1)[:, 0]
    wt = np.where(keep, w[safe], 0.0)
    loss = -picked * wt
    if reduction == "none":
        return loss[0] if squeeze else loss
    if reduction == "sum":
        return loss.sum()
    return loss.sum() / wt.sum() if target.size else np.float64("nan")


def np_cross_entropy(x, target, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
    axis = 0 if x.ndim == 1 else 1
    logp = np_log_softmax(x, axis)
    c = x.shape[axis]
    if target.shape == x.shape:  # probabilities
        t = target * (1 - label_smoothing) + label_smoothing / c
        w = np.ones(c) if weight is None else weight
        wshape = [1] * x.ndim
        wshape[axis] = c
        per = -(logp * t * w.reshape(wshape)).sum(axis=axis)
        if reduction == "none":
            return per
        if reduction == "sum":
            return per.sum()
        return per.sum() / (x.size / c) if x.size else np.float64("nan")
    nll = np_nll(logp, target, weight, ignore_index, reduction)
    if label_smoothing == 0:
        return nll
    w = np.ones(c) if weight is None else weight
    wshape = [1] * x.ndim
    wshape[axis] = c
    smooth = -(logp * w.reshape(wshape)).sum(axis=axis)
    ignored = target == ignore_index
    smooth = np.where(ignored, 0.0, smooth)
    if reduction == "mean":
        if weight is None:
            smooth = smooth.sum() / (~ignored).sum()
        else:
            smooth = smooth.sum() / w[target[~ignored]].sum()
    elif reduction == "sum":
        smooth = smooth.sum()
    return (1 - label_smoothing) * nll + smooth * (label_smoothing / c)


def np_layer_norm(x, k, weight=None, bias=None, eps=1e-5):
    axes = tuple(range(x.ndim - k, x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    y = (x - mean) / np.sqrt(var + eps)
    if weight is not None:
        y = y * weight
    if bias is not None:
        y = y + bias
    return y, mean, 1 / np.sqrt(var + eps)


# --- nll_loss ------------------------------------------------------------------------------------
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("dtype", FLOATS)
def test_nll_loss_2d_input(rng, reduction, weighted, dtype):
    x = np_log_softmax(rng.standard_normal((7, 5)), 1)
    target = rng.integers(0, 5, 7)
    target[2] = -100
    w = rng.random(5) + 0.5 if weighted else None
    out = F.nll_loss(T(x, dtype), T(target), None if w is None else T(w, dtype), reduction=reduction)
    assert out.dtype == dtype
    close(out, np_nll(x, target, w, reduction=reduction), dtype, "nll_loss")


@pytest.mark.parametrize("shape", [(3, 4, 5), (2, 3, 4, 5), (2, 3, 2, 3, 2)])
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_nll_loss_nd_targets(rng, shape, reduction):
    x = rng.standard_normal(shape)
    n, c, rest = shape[0], shape[1], shape[2:]
    target = rng.integers(0, c, (n,) + rest)
    target.flat[1] = 1  # some class repeated
    target.flat[0] = 7  # ignored below
    w = rng.random(c) + 0.1
    out = F.nll_loss(T(x), T(target), T(w), ignore_index=7, reduction=reduction)
    flat_x = np.moveaxis(x, 1, -1).reshape(-1, c)
    expected = np_nll(flat_x, target.reshape(-1), w, ignore_index=7, reduction=reduction)
    if reduction == "none":
        expected = expected.reshape((n,) + rest)
    close(out, expected, opscope.float64, "nll_loss nd")


def test_nll_loss_unbatched_and_ignore_index(rng):
    x = rng.standard_normal(6)
    for reduction in REDUCTIONS:
        close(F.nll_loss(T(x), T(np.int64(4)), reduction=reduction), -x[4], what="unbatched")
    x2 = rng.standard_normal((4, 3))
    t = np.array([0, 2, 1, 2])
    close(F.nll_loss(T(x2), T(t), ignore_index=2), np_nll(x2, t, ignore_index=2), what="ignore_index")
    # every target ignored: the mean is 0 / 0
    assert np.isnan(F.nll_loss(T(x2), T(np.full(4, -100))).item())
    assert F.nll_loss(T(x2), T(np.full(4, -100)), reduction="sum").item() == 0.0


def test_nll_loss_uint8_target_and_noncontiguous(rng):
    x = rng.standard_normal((5, 6))
    t = np.array([0, 5, 3, 3, 1])
    close(F.nll_loss(T(x), T(t.astype(np.uint8))), np_nll(x, t), what="uint8 target")
    xt = T(x.T.copy()).t()  # transposed input
    for reduction in REDUCTIONS:
        close(F.nll_loss(xt, T(t), reduction=reduction), np_nll(x, t, reduction=reduction), what="transposed")
    x4 = rng.standard_normal((2, 3, 4, 5))
    t4 = rng.integers(0, 3, (2, 4, 5))
    perm = T(np.ascontiguousarray(x4.transpose(0, 2, 3, 1))).permute(0, 3, 1, 2)
    assert not perm.is_contiguous()
    for reduction in REDUCTIONS:
        exp = np_nll(np.moveaxis(x4, 1, -1).reshape(-1, 3), t4.reshape(-1), reduction=reduction)
        close(F.nll_loss(perm, T(t4), reduction=reduction), exp.reshape(t4.shape) if reduction == "none" else exp,
              what="nll2d strided")


def test_nll_loss_empty_batches():
    x = opscope.zeros(0, 5)
    t = opscope.zeros(0, dtype=opscope.int64)
    assert np.isnan(F.nll_loss(x, t).item())
    assert F.nll_loss(x, t, reduction="sum").item() == 0.0
    assert F.nll_loss(x, t, reduction="none").shape == (0,)
    x3 = opscope.zeros(0, 5, 3)
    t3 = opscope.zeros(0, 3, dtype=opscope.int64)
    assert np.isnan(F.nll_loss(x3, t3).item())
    assert F.nll_loss(x3, t3, reduction="none").shape == (0, 3)
    empty_rest = F.nll_loss(opscope.zeros(2, 5, 0), opscope.zeros(2, 0, dtype=opscope.int64), reduction="none")
    assert empty_rest.shape == (2, 0)


def test_nll_loss_forward_returns_total_weight(rng):
    x = T(rng.standard_normal((4, 3)))
    t = T(np.array([0, 1, -100, 2]))
    w = T(np.array([1.0, 2.0, 4.0]))
    out, total = opscope.ops.aten.nll_loss_forward(x, t, w, 2, -100)
    assert total.item() == 7.0 and out.shape == ()
    out, total = opscope.ops.aten.nll_loss_forward(x, t, w, 0, -100)
    assert out.shape == (4,) and total.item() == 0.0


def test_nll_loss_errors():
    x = opscope.randn(3, 5)
    with pytest.raises(IndexError, match="^Target 5 is out of bounds.$"):
        F.nll_loss(x, opscope.tensor([1, 2, 5]))
    with pytest.raises(IndexError, match="Target -1 is out of bounds."):
        F.nll_loss(x, opscope.tensor([1, -1, 3]), reduction="none")
    with pytest.raises(ValueError, match=r"Expected input batch_size \(3\) to match target batch_size \(2\)."):
        F.nll_loss(x, opscope.tensor([1, 2]))
    with pytest.raises(RuntimeError, match="expected scalar type Long but found Int"):
        F.nll_loss(x, opscope.tensor([1, 2, 3], dtype=opscope.int32))
    with pytest.raises(RuntimeError, match=r"weight tensor should be defined either for all 5 classes or no classes "
                                           r"but got weight tensor of shape: \[3\]"):
        F.nll_loss(x, opscope.tensor([1, 2, 3]), weight=opscope.ones(3))
    with pytest.raises(RuntimeError, match="expected scalar type Float but found Double"):
        F.nll_loss(x, opscope.tensor([1, 2, 3]), weight=opscope.ones(5, dtype=opscope.float64))
    with pytest.raises(RuntimeError, match="\"nll_loss_out_frame\" not implemented for 'Half'"):
        F.nll_loss(x.half(), opscope.tensor([1, 2, 3]))
    with pytest.raises(RuntimeError, match=r"Expected target size \[3, 2\], got \[3, 3\]"):
        F.nll_loss(opscope.randn(3, 5, 2), opscope.zeros(3, 3, dtype=opscope.int64))
    with pytest.raises(RuntimeError, match=r"size mismatch \(got input: \[5\], target: \[1\]\)"):
        F.nll_loss(opscope.randn(5), opscope.tensor([2]))
    with pytest.raises(ValueError, match=r"Expected input batch_size \(3\) to match target batch_size \(0\)."):
        F.nll_loss(x, opscope.tensor(1))
    with pytest.raises(ValueError, match=r"Expected input batch_size \(3\) to match target batch_size \(0\)."):
        F.nll_loss(x, opscope.tensor(1))  # a 0-d target has batch size 0 for torch
    with pytest.raises(ValueError, match=r"Expected 1 or more dimensions \(got 0\)"):
        F.nll_loss(opscope.randn(()), opscope.tensor(2))
    with pytest.raises(ValueError, match="foo is not a valid value for reduction"):
        F.nll_loss(x, opscope.tensor([1, 2, 3]), reduction="foo")
    with pytest.raises(RuntimeError, match="only batches of spatial targets supported"):
        opscope.ops.aten.nll_loss2d(opscope.randn(3, 5, 2, 2), opscope.zeros(3, 3, dtype=opscope.int64))


def test_nll_loss_bfloat16(rng):
    x = np_log_softmax(rng.standard_normal((6, 4)), 1)
    t = rng.integers(0, 4, 6)
    for reduction in REDUCTIONS:
        out = F.nll_loss(T(x, opscope.bfloat16), T(t), reduction=reduction)
        assert out.dtype == opscope.bfloat16
        xb = to_numpy(T(x, opscope.bfloat16)).astype(np.float64)
        close(out, np_nll(xb, t, reduction=reduction), opscope.bfloat16, "bf16 nll")


def test_nll_loss_legacy_arguments(rng):
    x = rng.standard_normal((3, 4))
    t = np.array([0, 1, 3])
    with pytest.warns(UserWarning, match="size_average and reduce args will be deprecated"):
        out = F.nll_loss(T(x), T(t), size_average=False)
    close(out, np_nll(x, t, reduction="sum"))


# --- cross_entropy -------------------------------------------------------------------------------
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("label_smoothing", [0.0, 0.2])
@pytest.mark.parametrize("shape", [(6, 5), (3, 4, 2), (2, 3, 2, 2), (5,)])
def test_cross_entropy_class_indices(rng, reduction, weighted, label_smoothing, shape):
    x = rng.standard_normal(shape) * 3
    c = shape[0] if len(shape) == 1 else shape[1]
    tshape = () if len(shape) == 1 else (shape[0],) + shape[2:]
    target = rng.integers(0, c, tshape)
    if target.ndim:
        target.flat[0] = -100
    w = rng.random(c) + 0.5 if weighted else None
    out = F.cross_entropy(T(x), T(target), None if w is None else T(w), reduction=reduction,
                          label_smoothing=label_smoothing)
    close(out, np_cross_entropy(x, target, w, reduction=reduction, label_smoothing=label_smoothing),
          what=f"cross_entropy {shape}")


@pytest.mark.parametrize("dtype", FLOATS + [opscope.bfloat16])
def test_cross_entropy_dtypes(rng, dtype):
    x = rng.standard_normal((8, 10))
    t = rng.integers(0, 10, 8)
    xin = T(x, dtype)
    out = F.cross_entropy(xin, T(t))
    assert out.dtype == dtype
    close(out, np_cross_entropy(to_numpy(xin).astype(np.float64), t), dtype, "cross_entropy dtype", scale=10)


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("label_smoothing", [0.0, 0.3])
@pytest.mark.parametrize("weighted", [False, True])
def test_cross_entropy_probability_targets(rng, reduction, label_smoothing, weighted):
    x = rng.standard_normal((4, 5, 3))
    p = rng.random((4, 5, 3))
    p /= p.sum(axis=1, keepdims=True)
    w = rng.random(5) + 0.5 if weighted else None
    out = F.cross_entropy(T(x), T(p), None if w is None else T(w), reduction=reduction,
                          label_smoothing=label_smoothing)
    close(out, np_cross_entropy(x, p, w, reduction=reduction, label_smoothing=label_smoothing), what="soft targets")


def test_cross_entropy_empty_and_errors():
    assert np.isnan(F.cross_entropy(opscope.randn(0, 5), opscope.zeros(0, dtype=opscope.int64)).item())
    empty = F.cross_entropy(opscope.randn(0, 5, 3), opscope.zeros(0, 3, dtype=opscope.int64), reduction="none")
    assert empty.shape == (0, 3)
    with pytest.raises(ValueError, match=r"Expected input batch_size \(3\) to match target batch_size \(2\)."):
        F.cross_entropy(opscope.randn(3, 5), opscope.tensor([1, 2]))
    with pytest.raises(IndexError, match="Target 5 is out of bounds."):
        F.cross_entropy(opscope.randn(3, 5), opscope.tensor([1, 2, 5]))
    with pytest.raises(RuntimeError, match="label_smoothing must be between 0.0 and 1.0. Got: 1.5"):
        F.cross_entropy(opscope.randn(3, 5), opscope.tensor([1, 2, 3]), label_smoothing=1.5)
    with pytest.raises(RuntimeError, match="Expected floating point type for target with class probabilities, "
                                           "got Long"):
        F.cross_entropy(opscope.randn(3, 5), opscope.zeros(3, 5, dtype=opscope.int64))
    with pytest.raises(RuntimeError, match="ignore_index is not supported for floating point target"):
        F.cross_entropy(opscope.randn(3, 5), opscope.rand(3, 5), ignore_index=1)


def traced_ops(fn):
    """The ops (without overload name) dispatched while fn runs, in order."""
    return [s["op"].split(".")[0] for s in record_dispatch(fn).steps]


def test_traces_show_torch_decompositions():
    x, t = opscope.randn(4, 5), opscope.tensor([0, 1, 2, 3])
    ops = traced_ops(lambda: F.cross_entropy(x, t))
    chain = ["aten::cross_entropy_loss", "aten::log_softmax", "aten::nll_loss_nd", "aten::nll_loss",
             "aten::nll_loss_forward"]
    positions = [ops.index(op) for op in chain]
    assert positions == sorted(positions), ops
    ops = traced_ops(lambda: F.nll_loss(opscope.randn(2, 3, 4), opscope.zeros(2, 4, dtype=opscope.int64)))
    assert "aten::nll_loss2d_forward" in ops
    ops = traced_ops(lambda: F.layer_norm(x, (5,)))
    assert ops.index("aten::layer_norm") < ops.index("aten::native_layer_norm")
    ops = traced_ops(lambda: F.dropout(x, 0.5))
    assert ops.index("aten::dropout") < ops.index("aten::bernoulli_") < ops.index("aten::mul")
    ops = traced_ops(lambda: F.pad(x, (1, 1)))
    assert ops[:2] == ["aten::pad", "aten::constant_pad_nd"]


# --- mse / l1 ------------------------------------------------------------------------------------
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("dtype", FLOATS + [opscope.float16])
def test_mse_and_l1(rng, reduction, dtype):
    a, b = rng.standard_normal((4, 6)), rng.standard_normal((4, 6))
    ai, bi = T(a, dtype), T(b, dtype)
    an, bn = to_numpy(ai).astype(np.float64), to_numpy(bi).astype(np.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = F.mse_loss(ai, bi, reduction=reduction)
    assert m.dtype == dtype
    close(m, np_reduce((an - bn) ** 2, reduction), dtype, "mse", scale=10)
    l1 = F.l1_loss(ai, bi, reduction=reduction)
    assert l1.dtype == dtype
    close(l1, np_reduce(np.abs(an - bn), reduction), dtype, "l1", scale=10)


def test_mse_l1_broadcast_warns_and_promotes(rng):
    a, b = rng.standard_normal(3), rng.standard_normal((2, 3))
    with pytest.warns(UserWarning, match="Using a target size"):
        out = F.mse_loss(T(a, opscope.float32), T(b, opscope.float32))
    close(out, ((a - b) ** 2).mean(), opscope.float32)
    with pytest.warns(UserWarning, match="Using a target size"):
        out = F.l1_loss(T(a, opscope.float32), T(b, opscope.float32), reduction="none")
    assert out.shape == (2, 3)
    out = F.mse_loss(T(a, opscope.float32), T(a))  # float32 with float64 -> float64
    assert out.dtype == opscope.float64 and out.item() < 1e-12
    assert np.isnan(F.mse_loss(opscope.zeros(0), opscope.zeros(0)).item())
    assert F.l1_loss(opscope.zeros(0), opscope.zeros(0), reduction="sum").item() == 0.0


def test_mse_l1_errors():
    with pytest.raises(RuntimeError, match="\"mse_cpu\" not implemented for 'Long'"):
        F.mse_loss(opscope.ones(3, dtype=opscope.int64), opscope.ones(3, dtype=opscope.int64))


# --- binary cross entropy ------------------------------------------------------------------------
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True])
def test_binary_cross_entropy(rng, reduction, weighted):
    x = rng.random((5, 4)) * 0.98 + 0.01
    x[0, 0], x[0, 1] = 0.0, 1.0  # log clamped at -100
    t = rng.random((5, 4))
    w = rng.random(4) + 0.5 if weighted else None
    out = F.binary_cross_entropy(T(x), T(t), None if w is None else T(w), reduction=reduction)
    logx = np.maximum(np.log(np.maximum(x, 1e-300)), -100)
    log1mx = np.maximum(np.log(np.maximum(1 - x, 1e-300)), -100)
    loss = -(t * logx + (1 - t) * log1mx) * (1 if w is None else w)
    close(out, np_reduce(loss, reduction), what="bce")


def test_binary_cross_entropy_errors():
    with pytest.raises(RuntimeError, match="all elements of input should be between 0 and 1"):
        F.binary_cross_entropy(opscope.rand(3) + 1, opscope.rand(3))
    with pytest.raises(ValueError, match="is different to the input size"):
        F.binary_cross_entropy(opscope.rand(3), opscope.rand(2, 3))
    with pytest.raises(RuntimeError, match="Found dtype Double but expected Float"):
        F.binary_cross_entropy(opscope.rand(3), opscope.rand(3, dtype=opscope.float64))
    with pytest.raises(RuntimeError, match=r"The size of tensor a \(3\) must match the size of tensor b \(2\) at "
                                           r"non-singleton dimension 1"):
        F.binary_cross_entropy(opscope.full((2, 3), 0.5), opscope.ones(2, 3), weight=opscope.ones(2))
    with pytest.raises(RuntimeError, match="\"binary_cross_entropy\" not implemented for 'Half'"):
        F.binary_cross_entropy(opscope.rand(3).half(), opscope.rand(3).half())


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("pos_weighted", [False, True])
def test_binary_cross_entropy_with_logits(rng, reduction, weighted, pos_weighted):
    x = rng.standard_normal((6, 3)) * 4
    x[0, 0], x[0, 1] = 200.0, -200.0  # stable: no overflow
    t = rng.random((6, 3))
    w = rng.random(3) + 0.5 if weighted else None
    pw = rng.random(3) + 0.5 if pos_weighted else None
    out = F.binary_cross_entropy_with_logits(T(x), T(t), None if w is None else T(w), reduction=reduction,
                                             pos_weight=None if pw is None else T(pw))
    log_sig = -np.logaddexp(0, -x)
    log_1m_sig = -np.logaddexp(0, x)
    loss = -((1 if pw is None else pw) * t * log_sig + (1 - t) * log_1m_sig) * (1 if w is None else w)
    close(out, np_reduce(loss, reduction), what="bce logits")
    with pytest.raises(ValueError, match=r"Target size \(torch.Size\(\[2, 3\]\)\) must be the same as input size"):
        F.binary_cross_entropy_with_logits(opscope.rand(3), opscope.rand(2, 3))


# --- layer_norm ----------------------------------------------------------------------------------
@pytest.mark.parametrize("shape,k", [((4, 10), 1), ((2, 3, 8), 2), ((5,), 1), ((3, 1), 1), ((2, 2, 3, 4), 3)])
@pytest.mark.parametrize("affine", ["none", "weight", "bias", "both"])
@pytest.mark.parametrize("dtype", FLOATS)
def test_layer_norm(rng, shape, k, affine, dtype):
    x = rng.standard_normal(shape) * 3 + 1
    ns = shape[len(shape) - k:]
    w = rng.standard_normal(ns) if affine in ("weight", "both") else None
    b = rng.standard_normal(ns) if affine in ("bias", "both") else None
    out = F.layer_norm(T(x, dtype), list(ns), None if w is None else T(w, dtype), None if b is None else T(b, dtype),
                       eps=1e-3)
    assert out.dtype == dtype and out.shape == shape
    close(out, np_layer_norm(x, k, w, b, eps=1e-3)[0], dtype, "layer_norm", scale=10)


def test_native_layer_norm_statistics_and_noncontiguous(rng):
    x = rng.standard_normal((6, 5))
    xt = T(x.T.copy()).t()
    y, mean, rstd = opscope.native_layer_norm(xt, [5], None, None, 1e-5)
    ref, rmean, rrstd = np_layer_norm(x, 1)
    close(y, ref, what="native_layer_norm")
    close(mean, rmean, what="mean")
    close(rstd, rrstd, what="rstd")
    assert mean.shape == (6, 1) and rstd.shape == (6, 1)
    y, mean, rstd = opscope.native_layer_norm(opscope.ones(0, 4), [4], None, None, 1e-5)
    assert y.shape == (0, 4) and mean.shape == (0, 1)
    out = F.layer_norm(T(x, opscope.bfloat16), (5,))
    assert out.dtype == opscope.bfloat16
    close(out, np_layer_norm(to_numpy(T(x, opscope.bfloat16)).astype(np.float64), 1)[0], opscope.bfloat16, scale=10)
    # constant rows: var 0 -> (x - mean) * 1/sqrt(eps) = 0
    assert to_numpy(F.layer_norm(opscope.ones(2, 3), (3,))).tolist() == [[0.0] * 3] * 2


def test_layer_norm_errors():
    with pytest.raises(RuntimeError, match=r"Given normalized_shape=\[3\], expected input with shape \[\*, 3\], "
                                           r"but got input of size\[3, 4\]"):
        F.layer_norm(opscope.ones(3, 4), (3,))
    with pytest.raises(RuntimeError, match=r"Expected weight to be of same shape as normalized_shape, but got weight "
                                           r"of shape \[3\] and normalized_shape = \[4\]"):
        F.layer_norm(opscope.ones(3, 4), (4,), opscope.ones(3))
    with pytest.raises(RuntimeError, match="Expected normalized_shape to be at least 1-dimensional"):
        F.layer_norm(opscope.ones(3, 4), ())
    with pytest.raises(RuntimeError, match="expected scalar type Float but found Double"):
        F.layer_norm(opscope.ones(3, 4), (4,), opscope.ones(4, dtype=opscope.float64))
    with pytest.raises(RuntimeError, match="\"LayerNormKernelImpl\" not implemented for 'Half'"):
        F.layer_norm(opscope.ones(3, 4).half(), (4,))


# --- group_norm ----------------------------------------------------------------------------------
def np_group_norm(x, groups, w=None, b=None, eps=1e-5):
    """x (N, C, *) float64 -> (y, mean (N, groups), rstd (N, groups))."""
    n, c = x.shape[:2]
    xg = x.reshape(n, groups, -1)
    mean = xg.mean(axis=2, keepdims=True)
    rstd = 1 / np.sqrt(xg.var(axis=2, keepdims=True) + eps)
    y = ((xg - mean) * rstd).reshape(x.shape)
    channel = (1, c) + (1,) * (x.ndim - 2)
    if w is not None:
        y = y * w.reshape(channel)
    if b is not None:
        y = y + b.reshape(channel)
    return y, mean[..., 0], rstd[..., 0]


@pytest.mark.parametrize("shape,groups", [((4, 6), 3), ((2, 6, 5), 2), ((2, 8, 3, 4), 4), ((3, 4, 2, 2, 2), 1),
                                          ((2, 4, 7), 4), ((1, 6, 5), 6), ((0, 4, 3), 2), ((2, 4, 0), 2)])
@pytest.mark.parametrize("affine", ["none", "weight", "bias", "both"])
@pytest.mark.parametrize("dtype", FLOATS)
def test_group_norm(rng, shape, groups, affine, dtype):
    x = rng.standard_normal(shape) * 3 + 1
    c = shape[1]
    w = rng.standard_normal(c) if affine in ("weight", "both") else None
    b = rng.standard_normal(c) if affine in ("bias", "both") else None
    y, mean, rstd = opscope.native_group_norm(
        T(x, dtype), None if w is None else T(w, dtype), None if b is None else T(b, dtype), shape[0], c,
        int(np.prod(shape[2:])), groups, 1e-3)
    assert y.dtype == dtype and y.shape == shape and mean.shape == (shape[0], groups) == rstd.shape
    if x.size == 0:  # as torch: groups of no elements have mean 0 and rstd NaN
        assert to_numpy(mean).tolist() == [[0.0] * groups] * shape[0]
        assert np.isnan(to_numpy(rstd)).all()
        return
    ref, rmean, rrstd = np_group_norm(x, groups, w, b, eps=1e-3)
    close(y, ref, dtype, "group_norm", scale=10)
    close(mean, rmean, dtype, "group_norm mean", scale=10)
    close(rstd, rrstd, dtype, "group_norm rstd", scale=10)


def test_group_norm_noncontiguous_bfloat16_and_constant_groups(rng):
    x = rng.standard_normal((3, 6, 4))
    xt = T(x.transpose(2, 1, 0).copy()).permute(2, 1, 0)  # non-contiguous
    assert not xt.is_contiguous()
    close(F.group_norm(xt, 3), np_group_norm(x, 3)[0], what="group_norm non-contiguous")
    xb = T(x, opscope.bfloat16)
    out = F.group_norm(xb, 2)
    assert out.dtype == opscope.bfloat16
    # every element within a bfloat16 step of the float64 result on the same (rounded) inputs
    close(out, np_group_norm(to_numpy(xb).astype(np.float64), 2)[0], opscope.bfloat16, scale=10)
    assert to_numpy(F.group_norm(opscope.ones(2, 4, 3), 2)).tolist() == [[[0.0] * 3] * 4] * 2


@pytest.mark.parametrize("affine", [False, True])
def test_group_norm_gradients(rng, affine):
    x = T(rng.standard_normal((2, 6, 3))).requires_grad_()
    w = T(rng.standard_normal(6)).requires_grad_() if affine else None
    b = T(rng.standard_normal(6)).requires_grad_() if affine else None
    args = (x, w, b) if affine else (x,)
    fn = (lambda x, w, b: F.group_norm(x, 3, w, b)) if affine else (lambda x: F.group_norm(x, 2))
    assert opscope.autograd.gradcheck(fn, args)
    assert opscope.autograd.gradgradcheck(fn, args)
    y = fn(*args)
    assert y.grad_fn.name() == "NativeGroupNormBackward0"


def test_group_norm_backward_kernel_matches_the_formula_and_masks(rng):
    x = T(rng.standard_normal((3, 4, 5)))
    w = T(rng.standard_normal(4))
    g = T(rng.standard_normal((3, 4, 5)))
    _, mean, rstd = opscope.native_group_norm(x, w, None, 3, 4, 5, 2, 1e-5)
    dx, dw, db = opscope.ops.aten.native_group_norm_backward(g, x, mean, rstd, w, 3, 4, 5, 2, [1, 1, 1])
    xn, gn, wn = to_numpy(x), to_numpy(g), to_numpy(w)
    xhat = np_group_norm(xn, 2)[0]
    dxhat = (gn * wn.reshape(1, 4, 1)).reshape(3, 2, -1)
    xh = xhat.reshape(3, 2, -1)
    r = 1 / np.sqrt(xn.reshape(3, 2, -1).var(axis=2, keepdims=True) + 1e-5)
    ref_dx = (r * (dxhat - dxhat.mean(axis=2, keepdims=True) - xh * (dxhat * xh).mean(axis=2, keepdims=True)))
    close(dx, ref_dx.reshape(3, 4, 5), what="native_group_norm_backward dx")
    close(dw, (gn * xhat).sum(axis=(0, 2)), what="dweight")
    close(db, gn.sum(axis=(0, 2)), what="dbias")
    only_dx = opscope.ops.aten.native_group_norm_backward(g, x, mean, rstd, w, 3, 4, 5, 2, [1, 0, 0])
    assert only_dx[1] is None and only_dx[2] is None
    close(only_dx[0], ref_dx.reshape(3, 4, 5), what="dx alone")


def test_group_norm_results_do_not_depend_on_the_thread_count(rng):
    x = T(rng.standard_normal((64, 32, 40)))
    w = T(rng.standard_normal(32)).requires_grad_()
    xr = x.clone().requires_grad_()
    results = []
    for threads in (1, 2):
        old = opscope.get_num_threads()
        opscope.set_num_threads(threads)
        try:
            xr.grad = w.grad = None
            F.group_norm(xr, 8, w).pow(2).sum().backward()
            results.append((xr.grad.clone(), w.grad.clone()))
        finally:
            opscope.set_num_threads(old)
    assert opscope.equal(results[0][0], results[1][0]) and opscope.equal(results[0][1], results[1][1])


# --- interpolate ---------------------------------------------------------------------------------
def np_linear_taps(n_in, n_out, align_corners, scale=None):
    """Per output index: (i0, i1, w0, w1) of linear interpolation along one dim (float64)."""
    o = np.arange(n_out, dtype=np.float64)
    if n_out == n_in:
        return o.astype(int), o.astype(int), np.ones(n_out), np.zeros(n_out)
    if align_corners:
        src = o * ((n_in - 1) / (n_out - 1) if n_out > 1 else 0.0)
    else:
        ratio = 1 / scale if scale else n_in / n_out
        src = np.maximum((o + 0.5) * ratio - 0.5, 0)
    i0 = np.minimum(src.astype(int), n_in - 1)
    i1 = np.where(i0 < n_in - 1, i0 + 1, i0)
    w1 = np.clip(src - i0, 0, 1)
    return i0, i1, 1 - w1, w1


def np_bilinear(x, size, align_corners):
    h0, h1, a0, a1 = np_linear_taps(x.shape[2], size[0], align_corners)
    w0, w1, b0, b1 = np_linear_taps(x.shape[3], size[1], align_corners)
    rows = x[:, :, h0] * a0[:, None] + x[:, :, h1] * a1[:, None]
    return rows[..., w0] * b0 + rows[..., w1] * b1


@pytest.mark.parametrize("align_corners", [False, True])
def test_bilinear_and_linear_match_numpy(rng, align_corners):
    for _ in range(30):
        n, c, h, w = (int(v) for v in rng.integers(1, 6, 4))
        size = tuple(int(v) for v in rng.integers(1, 12, 2))
        x = rng.standard_normal((n, c, h, w))
        xt = T(x.transpose(0, 1, 3, 2).copy()).transpose(2, 3)  # non-contiguous
        close(F.interpolate(xt, size=size, mode="bilinear", align_corners=align_corners),
              np_bilinear(x, size, align_corners), what="bilinear")
        i0, i1, w0, w1 = np_linear_taps(w, size[1], align_corners)
        close(F.interpolate(T(x[:, :, 0]), size=size[1], mode="linear", align_corners=align_corners),
              x[:, :, 0][..., i0] * w0 + x[:, :, 0][..., i1] * w1, what="linear")


def test_nearest_matches_numpy_for_sizes_and_integer_scales(rng):
    for _ in range(30):
        n, c, h, w = (int(v) for v in rng.integers(1, 6, 4))
        oh, ow = (int(v) for v in rng.integers(1, 12, 2))
        x = rng.standard_normal((n, c, h, w))
        # floor(o * in / out) in float32, as torch
        ih = np.minimum(np.floor(np.arange(oh, dtype=np.float32) * np.float32(h / oh)).astype(int), h - 1)
        iw = np.minimum(np.floor(np.arange(ow, dtype=np.float32) * np.float32(w / ow)).astype(int), w - 1)
        got = to_numpy(F.interpolate(T(x, opscope.float32), size=(oh, ow)))
        np.testing.assert_array_equal(got, x.astype(np.float32)[:, :, ih][..., iw])
        got = to_numpy(F.interpolate(T(x), scale_factor=3))
        np.testing.assert_array_equal(got, x.repeat(3, axis=2).repeat(3, axis=3))


def test_interpolate_trace_and_node():
    x = opscope.randn(1, 3, 4, 4, requires_grad=True)
    with opscope.trace() as t:
        y = F.interpolate(x, scale_factor=2, mode="bilinear")
    op = t.find("aten::upsample_bilinear2d")
    assert [s.label for s in op.steps] == ["upsample_bilinear2d[AutogradCPU]", "upsample_bilinear2d[CPU]"]
    assert y.grad_fn.name() == "UpsampleBilinear2DBackward1"
    with opscope.trace() as t:
        y.sum().backward()
    assert t.find("aten::upsample_bilinear2d_backward") is not None


# --- reflection / replication padding --------------------------------------------------------------
@pytest.mark.parametrize("mode,np_mode", [("reflect", "reflect"), ("replicate", "edge")])
def test_reflection_and_replication_padding_match_numpy(rng, mode, np_mode):
    for _ in range(40):
        n, c, h, w = (int(v) for v in rng.integers(1, 6, 4))
        x = rng.standard_normal((n, c, h, w))
        limit_h, limit_w = (h, w) if mode == "reflect" else (6, 6)
        l, r = (int(v) for v in rng.integers(0, limit_w, 2))
        t, b = (int(v) for v in rng.integers(0, limit_h, 2))
        xt = T(x.transpose(0, 1, 3, 2).copy()).transpose(2, 3)  # non-contiguous
        close(F.pad(xt, (l, r, t, b), mode=mode), np.pad(x, ((0, 0), (0, 0), (t, b), (l, r)), mode=np_mode),
              what=f"{mode} pad 2d")
        close(F.pad(T(x[0]), (l, r), mode=mode), np.pad(x[0], ((0, 0), (0, 0), (l, r)), mode=np_mode),
              what=f"{mode} pad 1d")


# --- embedding -----------------------------------------------------------------------------------
def test_embedding(rng):
    w = rng.standard_normal((10, 3))
    for idx in [np.array([1, 4, 4, 9]), np.array([[0, 2], [9, 1]]), np.zeros((0,), dtype=np.int64),
                np.array(3)]:
        out = F.embedding(T(idx), T(w))
        assert out.shape == idx.shape + (3,)
        close(out, w[idx], what="embedding")
    out = F.embedding(T(np.array([[1, 2]], dtype=np.int32)), T(w), padding_idx=-1)
    close(out, w[[[1, 2]]], what="embedding int32")
    with pytest.raises(RuntimeError, match="Expected tensor for argument #1 'indices' to have one of the following "
                                           "scalar types: Long, Int; but got torch.FloatTensor instead"):
        F.embedding(opscope.tensor([1.0, 2.0]), opscope.rand(3, 4))
    with pytest.raises(RuntimeError, match="'weight' must be 2-D"):
        F.embedding(opscope.tensor([1, 2]), opscope.rand(3))
    with pytest.raises(IndexError, match="index out of range in self"):
        F.embedding(opscope.tensor([1, 5]), opscope.rand(3, 4))
    with pytest.raises(AssertionError, match="Padding_idx must be within num_embeddings"):
        F.embedding(opscope.tensor([1]), opscope.rand(3, 4), padding_idx=3)


def test_embedding_max_norm(rng):
    w = rng.standard_normal((6, 4)) * 3
    weight = T(w.copy())
    idx = np.array([0, 2, 2, 5])
    out = F.embedding(T(idx), weight, max_norm=1.0)
    expected_w = w.copy()
    for r in np.unique(idx):
        n = np.linalg.norm(w[r])
        if n > 1.0:
            expected_w[r] = w[r] * (1.0 / (n + 1e-7))
    close(weight, expected_w, what="renormed weight")  # in place, as torch
    close(out, expected_w[idx], what="embedding max_norm")


# --- dropout -------------------------------------------------------------------------------------
def test_dropout_identity_cases():
    x = opscope.rand(4, 5)
    assert F.dropout(x, 0.5, training=False) is x
    assert F.dropout(x, 0.0) is x
    assert F.dropout(opscope.zeros(0), 0.5).shape == (0,)
    zero = F.dropout(x, 1.0)
    assert to_numpy(zero).tolist() == [[0.0] * 5] * 4


@pytest.mark.parametrize("dtype", FLOATS + [opscope.bfloat16])
def test_dropout_values_and_seed(dtype):
    x = opscope.ones(200, 50, dtype=dtype)
    opscope.manual_seed(3)
    a = F.dropout(x, 0.3)
    opscope.manual_seed(3)
    b = F.dropout(x, 0.3)
    assert a.dtype == dtype
    an = to_numpy(a).astype(np.float64)
    assert (an == to_numpy(b).astype(np.float64)).all()  # reproducible from the default generator
    kept = an != 0
    assert abs(kept.mean() - 0.7) < 0.03
    scale = to_numpy(opscope.tensor(1 / 0.7, dtype=dtype)).astype(np.float64)
    assert np.allclose(an[kept], scale, rtol=1e-2)


def test_dropout_inplace_and_errors():
    x = opscope.ones(100)
    opscope.manual_seed(0)
    y = F.dropout(x, 0.5, inplace=True)
    assert y is x and (to_numpy(x) != 1).all()
    with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1, but got 1.5"):
        F.dropout(x, 1.5)
    with pytest.raises(RuntimeError, match="dropout probability has to be between 0 and 1, but got -0.1"):
        opscope.dropout(x, -0.1, True)  # the op's own check; F.dropout's is a ValueError
    out, mask = opscope.native_dropout(opscope.ones(8), 0.5, False)
    assert mask.dtype == opscope.bool and to_numpy(mask).all() and to_numpy(out).tolist() == [1.0] * 8
    opscope.manual_seed(1)
    out, mask = opscope.native_dropout(opscope.ones(1000), 0.25, True)
    on = to_numpy(out)
    assert (on[to_numpy(mask)] == np.float32(1 / 0.75)).all() and (on[~to_numpy(mask)] == 0).all()


# --- one_hot, pad --------------------------------------------------------------------------------
def test_one_hot(rng):
    idx = rng.integers(0, 5, (3, 4))
    out = F.one_hot(T(idx))
    assert out.dtype == opscope.int64 and out.shape == (3, 4, idx.max() + 1)
    assert (to_numpy(out) == np.eye(idx.max() + 1, dtype=np.int64)[idx]).all()
    out = F.one_hot(T(idx), 7)
    assert (to_numpy(out) == np.eye(7, dtype=np.int64)[idx]).all()
    assert F.one_hot(opscope.zeros(0, dtype=opscope.int64), 3).shape == (0, 3)
    assert to_numpy(F.one_hot(opscope.tensor(2), 3)).tolist() == [0, 0, 1]
    with pytest.raises(RuntimeError, match="one_hot is only applicable to index tensor."):
        F.one_hot(opscope.tensor([1, 2], dtype=opscope.int32))
    with pytest.raises(RuntimeError, match="Class values must be non-negative."):
        F.one_hot(opscope.tensor([1, -2]))
    with pytest.raises(RuntimeError, match="Class values must be smaller than num_classes."):
        F.one_hot(opscope.tensor([1, 2]), 2)
    with pytest.raises(RuntimeError, match="Can not infer total number of classes from empty tensor."):
        F.one_hot(opscope.zeros(0, dtype=opscope.int64))


@pytest.mark.parametrize("pads", [(1, 1), (0, 2, 1, 0), (-1, 2), (-1, -1, 2, 1), (1, 2, 0, 0, 1, 1), (-2, 0)])
@pytest.mark.parametrize("dtype", [opscope.float32, opscope.int64, opscope.bool])
def test_pad_constant(rng, pads, dtype):
    x = rng.integers(0, 5, (2, 3, 4))
    value = 1 if dtype == opscope.bool else 7
    out = F.pad(T(x, dtype), pads, value=value)
    ref = x
    for d in range(len(pads) // 2):
        axis = x.ndim - 1 - d
        before, after = pads[2 * d], pads[2 * d + 1]
        n = ref.shape[axis]
        ref = np.take(ref, range(max(0, -before), n - max(0, -after)), axis=axis)
        widths = [(0, 0)] * x.ndim
        widths[axis] = (max(before, 0), max(after, 0))
        ref = np.pad(ref, widths, constant_values=value)
    assert out.dtype == dtype
    assert (to_numpy(out) == ref.astype(to_numpy(out).dtype)).all()


def test_pad_noncontiguous_and_errors():
    x = opscope.arange(12.0).view(3, 4).t()
    out = F.pad(x, (1, 0))
    assert (to_numpy(out) == np.pad(np.arange(12.0).reshape(3, 4).T, ((0, 0), (1, 0)))).all()
    out = F.pad(x, (-1, 0))  # crop only: a copy (keeping the transposed layout), not a view
    assert out.shape == (4, 2) and out.stride() == (1, 4) and out.data_ptr() != x.data_ptr()
    assert F.pad(opscope.ones(3), (-3, 0)).shape == (0,)
    with pytest.raises(RuntimeError, match="Padding length must be divisible by 2"):
        F.pad(opscope.ones(3), (1,))
    with pytest.raises(RuntimeError, match="Padding length too large"):
        F.pad(opscope.ones(3), (1, 1, 1, 1))
    with pytest.raises(NotImplementedError, match="Unrecognised padding mode foo"):
        F.pad(opscope.ones(3), (1, 1), mode="foo")
    with pytest.raises(RuntimeError, match="Length of pad must be even but instead it equals 3"):
        opscope.constant_pad_nd(opscope.ones(3, 3), [1, 1, 1])
    with pytest.raises(RuntimeError, match="The input size 3, plus negative padding -3 and 0 resulted in a negative "
                                           "output size, which is invalid. Check dimension 1 of your input."):
        opscope.constant_pad_nd(opscope.ones(2, 3), [-3, 0, 1, 0])
    with pytest.raises(RuntimeError, match=r"start \(0\) \+ length \(-1\) exceeds dimension size \(1\)."):
        opscope.constant_pad_nd(opscope.ones(3), [-2, -2])


# --- linear and activations ----------------------------------------------------------------------
def test_mlp_forward_matches_numpy(rng):
    x = rng.standard_normal((16, 784)).astype(np.float32)
    ws = [rng.standard_normal((o, i)).astype(np.float32) / np.sqrt(i) for i, o in [(784, 256), (256, 256), (256, 10)]]
    bs = [rng.standard_normal(o).astype(np.float32) for o in (256, 256, 10)]
    h, ref = T(x), x.astype(np.float64)
    for k, (w, b) in enumerate(zip(ws, bs)):
        h = F.linear(h, T(w), T(b))
        ref = ref @ w.T.astype(np.float64) + b
        if k < 2:
            h = F.relu(h)
            ref = np.maximum(ref, 0)
    close(h, ref, opscope.float32, "mlp", scale=100)


def test_activation_wrappers(rng):
    x = rng.standard_normal((3, 4))
    t = T(x)
    close(F.relu(t), np.maximum(x, 0))
    close(F.sigmoid(t), 1 / (1 + np.exp(-x)))
    close(F.tanh(t), np.tanh(x))
    close(F.silu(t), x / (1 + np.exp(-x)))
    close(F.softplus(t, beta=2, threshold=1), np.where(2 * x > 1, x, np.log1p(np.exp(2 * x)) / 2))
    from math import erf
    close(F.gelu(t), x * 0.5 * (1 + np.vectorize(erf)(x / np.sqrt(2))))
    tanh_gelu = 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))
    close(F.gelu(t, approximate="tanh"), tanh_gelu)
    close(F.softmax(t, dim=1), np.exp(np_log_softmax(x, 1)))
    close(F.log_softmax(t, dim=0), np_log_softmax(x, 0))
    close(F.softmax(t, dim=1, dtype=opscope.float32), np.exp(np_log_softmax(x, 1)), opscope.float32)
    with pytest.warns(UserWarning, match="Implicit dimension choice for softmax has been deprecated"):
        out = F.softmax(t)
    close(out, np.exp(np_log_softmax(x, 1)))
    with pytest.warns(UserWarning, match="Implicit dimension choice for log_softmax"):
        out = F.log_softmax(T(rng.standard_normal(5)))
    y = T(x.copy())
    assert F.relu(y, inplace=True) is y
    close(y, np.maximum(x, 0))
    y = T(x.copy())
    assert F.silu(y, inplace=True) is y
    close(y, x / (1 + np.exp(-x)))


def test_module_docstring_examples_run():
    import doctest
    result = doctest.testmod(F)
    assert result.failed == 0 and result.attempted > 0


def test_out_forms(rng):
    x = np_log_softmax(rng.standard_normal((5, 4)), 1)
    t = np.array([0, 3, 1, 1, 2])
    out = opscope.empty(0, dtype=opscope.float64)
    r = opscope.ops.aten.nll_loss.out(T(x), T(t), reduction=0, out=out)
    assert r is out and out.shape == (5,)
    close(out, np_nll(x, t, reduction="none"))
    x4 = rng.standard_normal((2, 3, 2, 2))
    t4 = rng.integers(0, 3, (2, 2, 2))
    out = opscope.empty(0, dtype=opscope.float64)
    assert opscope.ops.aten.nll_loss2d.out(T(x4), T(t4), out=out) is out
    close(out, np_nll(np.moveaxis(x4, 1, -1).reshape(-1, 3), t4.reshape(-1)))
    a, b = rng.random((3, 4)), rng.random((3, 4))
    for reduction, ref in [(0, (a - b) ** 2), (1, ((a - b) ** 2).mean()), (2, ((a - b) ** 2).sum())]:
        out = opscope.empty(7, dtype=opscope.float64)
        assert opscope.ops.aten.mse_loss.out(T(a), T(b), reduction, out=out) is out
        close(out, ref, what="mse_loss.out")
        out = opscope.empty(0, dtype=opscope.float64)
        assert opscope.ops.aten.binary_cross_entropy.out(T(a), T(b), None, reduction, out=out) is out
        bce = -(b * np.log(a) + (1 - b) * np.log(1 - a))
        close(out, np_reduce(bce, ["none", "mean", "sum"][reduction]), what="binary_cross_entropy.out")


def test_dtype_support_matches_torch_cpu():
    """What torch 1.13's CPU kernels refuse, opscope refuses with the same words."""
    h = opscope.rand(3, 4).half()
    with pytest.raises(RuntimeError, match="\"clamp_min_cpu\" not implemented for 'Half'"):
        F.binary_cross_entropy_with_logits(h, h)
    with pytest.raises(RuntimeError, match="\"log_softmax_lastdim_kernel_impl\" not implemented for 'Half'"):
        F.cross_entropy(h, opscope.tensor([0, 1, 2]))
    with pytest.raises(RuntimeError, match="\"LayerNormKernelImpl\" not implemented for 'Long'"):
        F.layer_norm(opscope.ones(2, 3, dtype=opscope.int64), (3,))
    with pytest.raises(RuntimeError, match="\"mse_cpu\" not implemented for 'BFloat16'"):
        F.mse_loss(opscope.rand(3).bfloat16(), opscope.rand(3).bfloat16())
    with pytest.raises(RuntimeError, match="mean\\(\\): could not infer output dtype"):
        F.l1_loss(opscope.ones(3, dtype=opscope.int64), opscope.ones(3, dtype=opscope.int64))
    b = opscope.rand(3, 4).bfloat16()
    out = F.binary_cross_entropy_with_logits(b, b)
    assert out.dtype == opscope.bfloat16
    x = to_numpy(b).astype(np.float64)
    close(out, np.mean(np.logaddexp(0, x) - x * x), opscope.bfloat16, scale=10)


def test_noncontiguous_operands(rng):
    x = rng.standard_normal((6, 5))
    t = rng.integers(0, 5, 6)
    w = rng.random(10) + 0.5
    xt = T(x.T.copy()).t()
    wt = T(w)[::2]  # stepped weight
    for reduction in REDUCTIONS:
        close(F.cross_entropy(xt, T(t), wt, reduction=reduction, label_smoothing=0.1),
              np_cross_entropy(x, t, w[::2], reduction=reduction, label_smoothing=0.1), what="ce strided")
    a, b = rng.random((4, 3)), rng.random((3, 4))
    close(F.mse_loss(T(a), T(b).t()), ((a - b.T) ** 2).mean(), what="mse strided")
    close(F.binary_cross_entropy(T(a), T(b).t()), np.mean(-(b.T * np.log(a) + (1 - b.T) * np.log(1 - a))),
          what="bce strided")
    emb = T(rng.standard_normal((3, 8)))
    close(F.embedding(T(np.array([2, 0])), emb.t()), to_numpy(emb).T[[2, 0]], what="embedding strided weight")
