"""The gradient ops a training step's backward calls, as torch 1.13's: threshold_backward (relu),
_softmax_backward_data / _log_softmax_backward_data (softmax, log_softmax) and nll_loss_backward
(nll_loss, cross_entropy). Their CPU kernels against float64 NumPy on random shapes, non-contiguous
inputs, empty batches, weights and ignore_index; torch's errors; gradcheck of every formula that
calls them (and of create_graph, which takes the differentiable path); and the backward op lists
of a small MLP's training step against the lists torch 1.13's profiler recorded
(data/backward_ops_torch.json, from make_torch_reference_backward_ops.py).

    PYTHONPATH=core/python /usr/bin/python3 -m pytest -q tests/python/test_backward_ops.py
"""
import collections
import math
import json
import os

import numpy as np
import pytest

import opscope
import opscope.nn.functional as F
from backward_ops_cases import CASES, EXACT, backward_ops, saved_names
from opscope.autograd import gradcheck

aten = opscope.ops.aten
REFERENCE = os.path.join(os.path.dirname(__file__), "data", "backward_ops_torch.json")
RNG = np.random.default_rng(10)
REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}


def T(a, dtype=opscope.float64):
    return opscope.from_numpy(np.array(a, order="C")).to(dtype)


def N(t):
    return t.detach().to(opscope.float64).numpy()


def strided(a, dtype=opscope.float64):
    """`a` as a non-contiguous tensor: every other column of a twice-as-wide tensor."""
    wide = np.zeros(a.shape[:-1] + (a.shape[-1] * 2,)) if a.ndim else np.zeros(())
    if a.ndim == 0:
        return T(a, dtype)
    wide[..., ::2] = a
    t = T(wide, dtype)[..., ::2]
    assert not t.is_contiguous() or a.shape[-1] <= 1 or a.size == 0
    return t


# --- threshold_backward ------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(5,), (3, 4), (2, 3, 4), (0, 3), ()])
@pytest.mark.parametrize("dtype", [opscope.float32, opscope.float64])
def test_threshold_backward_matches_numpy(shape, dtype):
    g, x = RNG.standard_normal(shape), RNG.standard_normal(shape)
    if x.size:
        x.flat[0] = 0.0  # at the threshold: no gradient
    for th in (0.0, 0.3):
        expected = np.where(x <= th, 0.0, g)
        for make in (T, strided):
            got = aten.threshold_backward(make(g, dtype), make(x, dtype), th)
            assert got.dtype == dtype and tuple(got.shape) == shape
            np.testing.assert_allclose(N(got), expected, rtol=1e-6)


def test_threshold_backward_broadcasts_promotes_and_passes_nan():
    g = T(np.ones((2, 3)), opscope.float32)
    x = T([1.0, -1.0, float("nan")])
    got = aten.threshold_backward(g, x, 0)
    assert got.dtype == opscope.float64 and tuple(got.shape) == (2, 3)
    np.testing.assert_array_equal(N(got), [[1, 0, 1], [1, 0, 1]])
    ints = aten.threshold_backward(opscope.tensor([1, 1, 1]), opscope.tensor([1, -1, 0]), 0)
    assert ints.tolist() == [1, 0, 0] and ints.dtype == opscope.int64
    with pytest.raises(RuntimeError, match="not implemented for 'Bool'"):
        aten.threshold_backward(opscope.tensor([True]), opscope.tensor([True]), 0)


# --- _softmax_backward_data / _log_softmax_backward_data ----------------------------------------


def np_softmax_backward(g, y, dim, log):
    if log:
        return g - np.exp(y) * g.sum(axis=dim, keepdims=True)
    return y * (g - (g * y).sum(axis=dim, keepdims=True))


@pytest.mark.parametrize("log", [False, True])
@pytest.mark.parametrize("shape,dim", [((7,), 0), ((4, 9), 1), ((4, 9), 0), ((2, 5, 3), 1),
                                       ((3, 2, 300), 1), ((2, 3, 4), -1), ((0, 4), 1), ((3, 0), 1)])
@pytest.mark.parametrize("dtype", [opscope.float32, opscope.float64])
def test_softmax_backward_data_matches_numpy(log, shape, dim, dtype):
    x, g = RNG.standard_normal(shape), RNG.standard_normal(shape)
    y = N((F.log_softmax if log else F.softmax)(T(x), dim)) if x.size else x
    expected = np_softmax_backward(g, y, dim, log)
    op = aten._log_softmax_backward_data if log else aten._softmax_backward_data
    for make in (T, strided):
        got = op(make(g, dtype), make(y, dtype), dim, dtype)
        assert got.dtype == dtype and tuple(got.shape) == shape
        tol = 1e-5 if dtype == opscope.float32 else 1e-12
        np.testing.assert_allclose(N(got), expected, rtol=tol, atol=tol)


def test_softmax_backward_data_bfloat16_and_errors():
    x, g = RNG.standard_normal((3, 5)), RNG.standard_normal((3, 5))
    y = N(F.softmax(T(x), 1))
    got = aten._softmax_backward_data(T(g, opscope.bfloat16), T(y, opscope.bfloat16), 1,
                                      opscope.bfloat16)
    assert got.dtype == opscope.bfloat16
    np.testing.assert_allclose(N(got), np_softmax_backward(g, y, 1, False), atol=0.05)
    with pytest.raises(RuntimeError, match="expected scalar type Float but found Double"):
        aten._softmax_backward_data(T(g, opscope.float32), T(y, opscope.float32), 1,
                                    opscope.float64)
    with pytest.raises(IndexError):
        aten._log_softmax_backward_data(T(g), T(y), 2, opscope.float64)


# --- nll_loss_backward -------------------------------------------------------------------------


def np_nll_backward(go, x_shape, target, weight, reduction, ignore_index):
    """d nll_loss / d input in float64."""
    batched = len(x_shape) == 2
    rows = x_shape[0] if batched else 1
    c = x_shape[-1]
    tgt = np.atleast_1d(target)
    w = np.ones(c) if weight is None else weight
    valid = tgt != ignore_index
    wt = np.where(valid, w[np.where(valid, tgt, 0)], 0.0)
    gi = np.zeros((rows, c))
    if reduction == "none" and batched:
        scale = go
    else:
        scale = np.full(rows, float(go))
        if reduction == "mean":
            scale = scale / wt.sum()
    for i in range(rows):
        if valid[i]:
            gi[i, tgt[i]] = -wt[i] * scale[i]
    return gi.reshape(x_shape)


@pytest.mark.parametrize("reduction", list(REDUCTIONS))
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("batch", [None, 0, 1, 6])
@pytest.mark.parametrize("dtype", [opscope.float32, opscope.float64])
def test_nll_loss_backward_matches_numpy(reduction, weighted, batch, dtype):
    c = 5
    shape = (c,) if batch is None else (batch, c)
    x = RNG.standard_normal(shape)
    target = RNG.integers(0, c, size=() if batch is None else (batch,))
    if batch and batch > 1:
        target[1] = -100  # ignored
    weight = RNG.random(c) + 0.5 if weighted else None
    wt = None if weight is None else T(weight, dtype)
    for make in (T, strided):
        out, total = aten.nll_loss_forward(make(x, dtype), opscope.tensor(target), wt,
                                           REDUCTIONS[reduction], -100)
        go = RNG.standard_normal(tuple(out.shape))
        got = aten.nll_loss_backward(T(go, dtype), make(x, dtype), opscope.tensor(target), wt,
                                     REDUCTIONS[reduction], -100, total)
        assert got.dtype == dtype and tuple(got.shape) == shape
        expected = np_nll_backward(go, shape, target, weight, reduction, -100)
        with np.errstate(invalid="ignore"):
            np.testing.assert_allclose(N(got), expected, rtol=1e-5, atol=1e-6)


def test_nll_loss_backward_other_ignore_index_and_all_ignored():
    x = T(RNG.standard_normal((4, 3)))
    target = opscope.tensor([2, 1, 1, 0])
    out, total = aten.nll_loss_forward(x, target, None, 1, 1)
    got = aten.nll_loss_backward(opscope.tensor(1.0, dtype=opscope.float64), x, target, None, 1,
                                 1, total)
    np.testing.assert_allclose(N(got), [[0, 0, -.5], [0, 0, 0], [0, 0, 0], [-.5, 0, 0]])
    # every target ignored: zeros (torch 1.13's backward of its NaN loss); zero weights: NaN
    x.requires_grad_(True)
    F.nll_loss(x, opscope.tensor([-100] * 4)).backward()
    assert N(x.grad).tolist() == [[0.0] * 3] * 4
    x.grad = None
    F.nll_loss(x, target, weight=T(np.zeros(3))).backward()
    assert np.isnan(N(x.grad)[0, 2]) and N(x.grad)[0, 0] == 0


def test_nll_loss_backward_errors_as_torch():
    x = T(RNG.standard_normal((3, 4)))
    t = opscope.tensor([1, -100, -100])
    _, total = aten.nll_loss_forward(x, t, None, 1, -100)
    one = opscope.tensor(1.0, dtype=opscope.float64)
    with pytest.raises(IndexError, match="Target 5 is out of bounds."):
        aten.nll_loss_backward(one, x, opscope.tensor([5, 1, 1]), None, 1, -100, total)
    with pytest.raises(RuntimeError, match=r"Expected a tensor of dimension 1 and tensor.size\[0\] "
                       r"== 3 but got: dimension 1 and tensor.size\[0\] = 2"):
        aten.nll_loss_backward(T(np.ones(2)), x, t, None, 0, -100, total)
    with pytest.raises(RuntimeError, match=r"Expected a single element grad_output tensor, "
                       r"but got: \[2\]"):
        aten.nll_loss_backward(T(np.ones(2)), x, t, None, 1, -100, total)
    with pytest.raises(RuntimeError, match="input tensor should be 1D or 2D"):
        aten.nll_loss_backward(one, T(np.ones((2, 2, 2))), t, None, 1, -100, total)


# --- the formulas that call them ---------------------------------------------------------------


def test_gradcheck_of_the_formulas():
    x = T(RNG.standard_normal((4, 5))).requires_grad_(True)
    x2 = T(RNG.standard_normal((3, 4, 2))).requires_grad_(True)
    target = opscope.tensor([0, 4, -100, 2])
    w = T(RNG.random(5) + 0.5)
    assert gradcheck(lambda a: F.relu(a), (x,))
    assert gradcheck(lambda a: F.relu(a.t()), (x,))  # non-contiguous
    assert gradcheck(lambda a: F.softmax(a, 1), (x,))
    assert gradcheck(lambda a: F.softmax(a, 1), (x2,))
    assert gradcheck(lambda a: F.log_softmax(a, 0), (x,))
    assert gradcheck(lambda a: F.log_softmax(a, 1), (x2,))
    for reduction in REDUCTIONS:
        assert gradcheck(lambda a: F.nll_loss(a, target, weight=w, reduction=reduction), (x,))
        assert gradcheck(lambda a: F.cross_entropy(a, target, reduction=reduction), (x,))
    assert gradcheck(lambda a: F.nll_loss(a[0], target[1]), (x,))  # (C) input, () target


@pytest.mark.parametrize("reduction", list(REDUCTIONS))
def test_nll_loss2d_gradient(reduction):
    """4-d inputs (nll_loss2d_forward): the gradient is the 2-d one's with every pixel a row."""
    x = T(RNG.standard_normal((2, 3, 4, 5))).requires_grad_(True)
    target = opscope.tensor(RNG.integers(0, 3, size=(2, 4, 5)))
    target[0, 1, 2] = 1
    target[1, 0, 0] = 1  # ignored (ignore_index=1 below), as is [0, 1, 2]
    w = T(RNG.random(3) + 0.5)
    loss = F.nll_loss(x, target, weight=w, reduction=reduction, ignore_index=1)
    assert loss.grad_fn.name() == "NllLoss2DBackward0"
    go = T(RNG.standard_normal(tuple(loss.shape)))
    loss.backward(go)
    rows = N(x).transpose(0, 2, 3, 1).reshape(-1, 3)
    expected = np_nll_backward(N(go).reshape(-1) if reduction == "none" else N(go), rows.shape,
                               target.numpy().reshape(-1), N(w), reduction, 1)
    np.testing.assert_allclose(N(x.grad), expected.reshape(2, 4, 5, 3).transpose(0, 3, 1, 2),
                               rtol=1e-12, atol=1e-12)
    assert gradcheck(lambda a: F.cross_entropy(a, target, weight=w, reduction=reduction), (x,))


def test_create_graph_still_differentiates_the_gradients():
    """Under create_graph the formulas build differentiable graphs (second derivatives)."""
    x = T(RNG.standard_normal((3, 4))).requires_grad_(True)
    target = opscope.tensor([1, 0, 3])

    def grad_norm(a):
        loss = F.cross_entropy(F.relu(a) + F.softmax(a, 1), target)
        (g,) = opscope.autograd.grad(loss, a, create_graph=True)
        return (g * g).sum()
    assert gradcheck(grad_norm, (x,))
    x4 = T(RNG.standard_normal((2, 3, 2, 2))).requires_grad_(True)
    t4 = opscope.tensor(RNG.integers(0, 3, size=(2, 2, 2)))

    def grad_norm_2d(a):
        (g,) = opscope.autograd.grad(F.cross_entropy(a, t4), a, create_graph=True)
        return (g * g).sum()
    assert gradcheck(grad_norm_2d, (x4,))
    # relu's threshold_backward is differentiable in its gradient (ThresholdBackwardBackward0)
    y = F.relu(x)
    (g,) = opscope.autograd.grad(y, x, T(np.ones((3, 4))).requires_grad_(True), create_graph=True)
    assert g.grad_fn.name() == "ThresholdBackwardBackward0"



# --- gelu_backward / silu_backward / softplus_backward -----------------------------------------


def np_erf(x):
    import math
    return np.vectorize(math.erf, otypes=[float])(x)


def np_activation_grad(name, g, x, **kw):
    """float64 NumPy: g * f'(x)."""
    if name == "gelu":
        if kw.get("approximate", "none") == "tanh":
            beta, kappa = np.sqrt(2 / np.pi), 0.044715
            t = np.tanh(beta * (x + kappa * x ** 3))
            d = 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * beta * (1 + 3 * kappa * x * x)
        else:
            d = 0.5 * (1 + np_erf(x / np.sqrt(2))) + x * np.exp(-x * x / 2) / np.sqrt(2 * np.pi)
    elif name == "silu":
        s = 1 / (1 + np.exp(-x))
        d = s * (1 + x * (1 - s))
    else:
        beta, threshold = kw["beta"], kw["threshold"]
        d = np.where(x * beta > threshold, 1.0, 1 / (1 + np.exp(-x * beta)))
    return g * d


ACTIVATION_GRADS = [("gelu", {}), ("gelu", {"approximate": "tanh"}), ("silu", {}),
                    ("softplus", {"beta": 1.5, "threshold": 2.0})]


def call_activation_grad(name, g, x, kw, out=None):
    op = getattr(aten, f"{name}_backward")
    extra = {"grad_input": out} if out is not None else {}
    if name == "softplus":
        return op(g, x, kw["beta"], kw["threshold"], **extra)
    return op(g, x, **kw, **extra)


@pytest.mark.parametrize("name,kw", ACTIVATION_GRADS)
@pytest.mark.parametrize("shape", [(7,), (3, 33), (2, 3, 4), (0, 3), ()])
@pytest.mark.parametrize("dtype", [opscope.float32, opscope.float64])
def test_activation_backward_matches_numpy(name, kw, shape, dtype):
    # The one-pass kernels torch's GeluBackward0 / SiluBackward0 / SoftplusBackward0 call: SLEEF
    # vector math on contiguous runs, buffered strided runs, the scalar form elsewhere.
    g, x = RNG.standard_normal(shape), RNG.standard_normal(shape) * 3
    expected = np_activation_grad(name, g, x, **kw)
    tol = 1e-12 if dtype == opscope.float64 else 2e-6
    for make in (T, strided):
        got = call_activation_grad(name, make(g, dtype), make(x, dtype), kw)
        assert got.dtype == dtype and tuple(got.shape) == shape
        np.testing.assert_allclose(N(got), expected, rtol=tol, atol=tol)


@pytest.mark.parametrize("name,kw", ACTIVATION_GRADS)
def test_activation_backward_broadcast_out_bfloat16_and_errors(name, kw):
    g, x = RNG.standard_normal((4, 5)), RNG.standard_normal((5,))
    expected = np_activation_grad(name, g, np.broadcast_to(x, (4, 5)), **kw)
    got = call_activation_grad(name, T(g), T(x), kw)
    np.testing.assert_allclose(N(got), expected, rtol=1e-12)
    out = opscope.empty(0, dtype=opscope.float64)
    assert call_activation_grad(name, T(g), T(x), kw, out=out) is out
    np.testing.assert_allclose(N(out), expected, rtol=1e-12)
    low = call_activation_grad(name, T(g, opscope.bfloat16), T(x, opscope.bfloat16), kw)
    assert low.dtype == opscope.bfloat16
    np.testing.assert_allclose(N(low), expected, rtol=2e-2, atol=2e-2)
    kernel = {"gelu": "GeluBackwardKernelImpl", "silu": "silu_backward_cpu",
              "softplus": "softplus_backward_cpu"}[name]
    for dtype, label in ((opscope.float16, "Half"), (opscope.int64, "Long")):
        with pytest.raises(RuntimeError, match=f"\"{kernel}\" not implemented for '{label}'"):
            call_activation_grad(name, T(g).to(dtype), T(g).to(dtype), kw)
    if name == "gelu":
        with pytest.raises(RuntimeError, match="approximate argument must be either none or tanh"):
            aten.gelu_backward(T(g), T(g), approximate="fast")



# --- sigmoid_backward / tanh_backward (from the result), mse / bce loss gradients ---------------


@pytest.mark.parametrize("shape", [(7,), (3, 33), (0, 3), ()])
@pytest.mark.parametrize("dtype", [opscope.float32, opscope.float64, opscope.bfloat16])
def test_sigmoid_and_tanh_backward_match_numpy(shape, dtype):
    g, y = RNG.standard_normal(shape), np.tanh(RNG.standard_normal(shape))
    tol = {opscope.float64: 1e-12, opscope.float32: 1e-6, opscope.bfloat16: 2e-2}[dtype]
    for make in (T, strided):
        gg, yy = make(g, dtype), make(y, dtype)
        gn, yn = N(gg), N(yy)  # the values opscope holds (bfloat16 rounds them)
        s = aten.sigmoid_backward(gg, yy)
        t = aten.tanh_backward(gg, yy)
        assert s.dtype == t.dtype == dtype and tuple(s.shape) == shape
        np.testing.assert_allclose(N(s), gn * (1 - yn) * yn, rtol=tol, atol=tol)
        np.testing.assert_allclose(N(t), gn * (1 - yn * yn), rtol=tol, atol=tol)
    out = opscope.empty(0, dtype=opscope.float64)
    assert aten.sigmoid_backward(T(g), T(y), grad_input=out) is out
    with pytest.raises(RuntimeError, match="\"tanh_backward_cpu\" not implemented for 'Half'"):
        aten.tanh_backward(T(g).half(), T(y).half())
    with pytest.raises(RuntimeError, match="\"sigmoid_backward_cpu\" not implemented for 'Long'"):
        aten.sigmoid_backward(opscope.tensor([1]), opscope.tensor([1]))


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("dtype", [opscope.float32, opscope.float64])
def test_mse_and_binary_cross_entropy_backward_match_numpy(reduction, dtype):
    r = REDUCTIONS[reduction]
    x = RNG.uniform(0.05, 0.95, (4, 5))
    t, w = RNG.uniform(0, 1, (4, 5)), RNG.uniform(0.5, 2, (5,))
    g = RNG.standard_normal((4, 5)) if reduction == "none" else np.array(1.7)
    norm = 1 / x.size if reduction == "mean" else 1.0
    tol = 1e-12 if dtype == opscope.float64 else 1e-5
    for make in (T, strided):
        got = aten.mse_loss_backward(T(g, dtype), make(x, dtype), make(t, dtype), r)
        np.testing.assert_allclose(N(got), 2 * (x - t) * g * norm, rtol=tol, atol=tol)
        bce = aten.binary_cross_entropy_backward(T(g, dtype), make(x, dtype), make(t, dtype),
                                                 T(w, dtype), r)
        expected = g * (x - t) / np.maximum((1 - x) * x, 1e-12) * w * norm
        np.testing.assert_allclose(N(bce), expected, rtol=tol * 10, atol=tol * 10)
    unweighted = aten.binary_cross_entropy_backward(T(g), T(x), T(t), None, r)
    np.testing.assert_allclose(N(unweighted), g * (x - t) / ((1 - x) * x) * norm, rtol=1e-12)
    # at x = 1 and t = 1 the clamped denominator gives 0, as torch's
    edge = aten.binary_cross_entropy_backward(T(1.0), T([0.2, 0.5, 1.0]), T([0.0, 1.0, 1.0]),
                                              None, 1)
    np.testing.assert_allclose(N(edge), [0.2 / 0.16 / 3, -0.5 / 0.25 / 3, 0.0], rtol=1e-12)
    with pytest.raises(RuntimeError, match="\"binary_cross_entropy_backward\" not implemented "
                                           "for 'BFloat16'"):
        aten.binary_cross_entropy_backward(T(1.0), T(x).bfloat16(), T(t).bfloat16(), None, 1)



# --- leaky_relu / hardtanh / elu and their gradients -------------------------------------------


@pytest.mark.parametrize("dtype", [opscope.float32, opscope.float64])
def test_leaky_relu_hardtanh_elu_match_numpy(dtype):
    x = RNG.standard_normal((4, 9)) * 2
    x[0, :3] = [0.0, -0.5, 0.7]  # at zero and at the hardtanh bounds
    g = RNG.standard_normal((4, 9))
    tol = 1e-12 if dtype == opscope.float64 else 1e-6
    for make in (T, strided):
        tx, tg = make(x, dtype), make(g, dtype)
        pairs = [
            (aten.leaky_relu(tx, 0.2), np.where(x > 0, x, 0.2 * x)),
            (aten.hardtanh(tx, -0.5, 0.7), np.clip(x, -0.5, 0.7)),
            (aten.elu(tx, 1.3, 1.1, 0.9), np.where(x > 0, 1.1 * x, 1.3 * 1.1 * np.expm1(0.9 * x))),
            (aten.leaky_relu_backward(tg, tx, 0.2, False), np.where(x > 0, g, 0.2 * g)),
            (aten.hardtanh_backward(tg, tx, -0.5, 0.7), np.where((x > -0.5) & (x < 0.7), g, 0)),
            (aten.elu_backward(tg, 1.3, 1.1, 0.9, False, tx),
             np.where(x > 0, 1.1 * g, g * 0.9 * 1.3 * 1.1 * np.exp(0.9 * x))),
        ]
        y = np.where(x > 0, 1.1 * x, 1.3 * 1.1 * np.expm1(0.9 * x))  # elu's result
        pairs.append((aten.elu_backward(tg, 1.3, 1.1, 0.9, True, make(y, dtype)),
                      np.where(x > 0, 1.1 * g, g * 0.9 * (y + 1.3 * 1.1))))
        for got, want in pairs:
            assert got.dtype == dtype
            np.testing.assert_allclose(N(got), want, rtol=tol, atol=tol)
        hs = np.clip(x + 3, 0, 6) / 6
        sp = np.log1p(np.exp(x))
        sig = 1 / (1 + np.exp(-x))
        more = [
            (aten.hardsigmoid(tx), hs), (aten.hardswish(tx), x * hs),
            (aten.mish(tx), x * np.tanh(sp)),
            (aten.hardsigmoid_backward(tg, tx), np.where((x > -3) & (x < 3), g / 6, 0)),
            (aten.hardswish_backward(tg, tx),
             np.where(x < -3, 0, np.where(x <= 3, g * (x / 3 + 0.5), g))),
            (aten.mish_backward(tg, tx),
             g * (np.tanh(sp) + x * sig * (1 - np.tanh(sp) ** 2))),
            (aten.log_sigmoid_forward(tx)[0], np.minimum(x, 0) - np.log1p(np.exp(-np.abs(x)))),
            (aten.log_sigmoid_backward(tg, tx, aten.log_sigmoid_forward(tx)[1]), g * (1 - sig)),
            (aten.log_sigmoid_backward(tg, tx, opscope.empty(0, dtype=dtype)), g * (1 - sig)),
        ]
        for got, want in more:
            np.testing.assert_allclose(N(got), want, rtol=tol, atol=tol)
    # the buffer is empty (the backward recomputes exp(-|x|)), as on torch's CUDA
    assert aten.log_sigmoid_forward(T(x))[1].numel() == 0
    ints = aten.hardtanh(opscope.tensor([-5, 0, 5]), -2, 3)
    assert ints.tolist() == [-2, 0, 3] and ints.dtype == opscope.int64
    with pytest.raises(RuntimeError, match="\"leaky_relu_cpu\" not implemented for 'Half'"):
        aten.leaky_relu(T(x).half())
    with pytest.raises(RuntimeError, match="negative slope"):
        aten.leaky_relu_backward(T(g), T(x), -0.1, True)
    # in place: the gradient read off the result (LeakyReluBackward1)
    w = T(x).requires_grad_(True)
    z = w * 1
    F.leaky_relu(z, 0.2, inplace=True).sum().backward()
    np.testing.assert_allclose(N(w.grad), np.where(x > 0, 1.0, 0.2), rtol=1e-12)
    # a negative slope in place cannot be undone from the result: refused at backward, as torch's
    y = F.leaky_relu_(T(x).requires_grad_(True) * 1, -0.1)
    with pytest.raises(RuntimeError, match="In-place leakyReLu backward calculation is triggered "
                                           "with a negative slope"):
        y.sum().backward()


@pytest.mark.parametrize("dtype", [opscope.float32, opscope.float64])
def test_hardshrink_softshrink_and_their_gradient_match_numpy(dtype):
    x = RNG.standard_normal((37, 65)) * 2
    x[0, :4] = [0.5, -0.5, np.nan, 0.0]  # the bounds are inside, NaN
    g = RNG.standard_normal((37, 65))
    inside = (x >= -0.5) & (x <= 0.5)
    with np.errstate(invalid="ignore"):
        hard = np.where(inside, 0.0, x)
        soft = np.where(x > 0.5, x - 0.5, np.where(x < -0.5, x + 0.5, 0.0))  # NaN -> 0, as torch's
    tol = 1e-12 if dtype == opscope.float64 else 1e-6
    for make in (T, strided):
        tx, tg = make(x, dtype), make(g, dtype)
        for got, want in ((F.hardshrink(tx), hard), (tx.hardshrink(0.5), hard),
                          (F.softshrink(tx), soft),
                          (opscope.ops.aten.hardshrink_backward(tg, tx, 0.5), np.where(inside, 0, g)),
                          (opscope.ops.aten.softshrink_backward(tg, tx, 0.5), np.where(inside, 0, g))):
            assert got.dtype == dtype
            np.testing.assert_allclose(N(got), want, rtol=tol, atol=tol)
    with pytest.raises(RuntimeError, match="lambda must be greater or equal to 0, but found to be "
                                           "-1"):
        F.softshrink(T(x), -1)
    with pytest.raises(RuntimeError, match="\"hardshrink_cpu\" not implemented for 'Long'"):
        F.hardshrink(opscope.tensor([1, 2]))
    assert repr(opscope.nn.Hardshrink()) == "Hardshrink(0.5)"
    assert repr(opscope.nn.Softshrink(0.3)) == "Softshrink(0.3)"


def test_bfloat16_activations_are_the_float_kernels_rounded():
    # Note [bfloat16 through the float kernels] (core/ops/cpu/unary_loops.h): a bfloat16 run is
    # widened to float, computed by the float kernel and rounded once, so it equals the float
    # result of the same values rounded to bfloat16, contiguous or strided, NaN kept.
    x = opscope.tensor(RNG.standard_normal((70, 33)) * 4).bfloat16()
    x[0, 0] = float("nan")
    g = opscope.tensor(RNG.standard_normal((70, 33))).bfloat16()
    aten = opscope.ops.aten
    forward = [lambda t: F.leaky_relu(t, 0.1), lambda t: F.hardtanh(t, -0.5, 0.7), F.elu,
               lambda t: F.threshold(t, 0.1, 2.0), F.hardswish, F.hardsigmoid, F.silu, F.mish,
               F.hardshrink, F.softshrink]
    backward = [lambda a, b: aten.leaky_relu_backward(a, b, 0.1, False),
                lambda a, b: aten.hardtanh_backward(a, b, -0.5, 0.7),
                lambda a, b: aten.elu_backward(a, 1.0, 1.0, 1.0, False, b),
                aten.silu_backward, aten.hardswish_backward,
                lambda a, b: aten.hardshrink_backward(a, b, 0.5),
                lambda a, b: aten.softshrink_backward(a, b, 0.5)]
    for t, u in ((x, g), (x.t(), g.t()), (x[:, ::2], g[:, ::2])):
        for f in forward:
            got, want = f(t), f(t.float()).bfloat16()
            assert got.dtype == opscope.bfloat16
            np.testing.assert_array_equal(N(got.float()), N(want.float()))
        for f in backward:
            np.testing.assert_array_equal(N(f(u, t).float()), N(f(u.float(), t.float()).bfloat16().float()))


# --- threshold; the in-place activations' own nodes --------------------------------------------


@pytest.mark.parametrize("dtype", [opscope.float32, opscope.float64, opscope.bfloat16,
                                   opscope.int64, opscope.int8, opscope.uint8])
def test_threshold_matches_numpy(dtype):
    x = RNG.standard_normal((5, 7)) * 3
    x[0, :3] = [0.5, np.nan, -0.0]  # at the threshold, NaN (stays), a signed zero
    if not dtype.is_floating_point:
        x = np.nan_to_num(np.round(x)).astype(np.int64)
    tx = opscope.tensor(x).to(dtype)
    ref = N(tx.double())  # the values as the dtype holds them (uint8 wraps negatives)
    thr = 0.5 if dtype.is_floating_point else 1
    # torch converts both scalars to self's dtype first: bfloat16's 0.5 and 7 are exact
    want = np.where(ref <= thr, 7, ref)
    for got in (opscope.threshold(tx, thr, 7), F.threshold(tx, thr, 7),
                opscope.threshold(tx.t().contiguous().t(), thr, 7),   # column-major
                opscope.threshold(tx[:, ::2], thr, 7)):
        assert got.dtype == dtype
        w = want if got.shape == want.shape else want[:, ::2]
        np.testing.assert_array_equal(N(got.double()), w)
    inplace = tx.clone()
    assert F.threshold(inplace, thr, 7, inplace=True) is inplace
    np.testing.assert_array_equal(N(inplace.double()), want)
    out = opscope.empty(0, dtype=dtype)
    assert opscope.threshold(tx, thr, 7, out=out) is out
    np.testing.assert_array_equal(N(out.double()), want)
    # 0-d and empty
    assert opscope.threshold(opscope.tensor(3).to(dtype), 4, 1).item() == 1
    assert opscope.threshold(opscope.empty(0, 3, dtype=dtype), 0, 1).shape == (0, 3)


def test_threshold_errors_and_module():
    with pytest.raises(RuntimeError, match="\"threshold_cpu\" not implemented for 'Half'"):
        opscope.threshold(opscope.ones(2).half(), 0, 1)
    with pytest.raises(RuntimeError, match="\"threshold_cpu\" not implemented for 'Bool'"):
        opscope.threshold(opscope.ones(2, dtype=opscope.bool), 0, 1)
    # an integer tensor takes the scalars as integers (1.5 -> 1, 0.5 -> 0), as torch's
    assert opscope.threshold(opscope.tensor([1, 2, 3]), 1.5, 0.5).tolist() == [0, 2, 3]
    m = opscope.nn.Threshold(0.1, 20)
    assert repr(m) == "Threshold(threshold=0.1, value=20)"
    assert repr(opscope.nn.Threshold(0.1, 20, inplace=True)) == \
        "Threshold(threshold=0.1, value=20, inplace=True)"
    assert m(opscope.tensor([0.0, 0.5])).tolist() == [20.0, 0.5]
    with pytest.raises(RuntimeError, match="ZeroDivisionError: alpha cannot be 0 for CELU"):
        opscope.celu(opscope.ones(2), 0.0)


@pytest.mark.parametrize("dtype", [opscope.float32, opscope.float64, opscope.bfloat16])
@pytest.mark.parametrize("shape,channels", [((4, 3, 5), 3), ((2, 6), 6), ((7,), 1), ((), 1),
                                            ((0, 3), 3), ((3, 4, 2, 2), 1)])
def test_prelu_and_its_gradient_match_numpy(dtype, shape, channels):
    x = RNG.standard_normal(shape) * 2
    w = RNG.uniform(0.05, 0.5, channels)
    g = RNG.standard_normal(shape)
    tx, tw, tg = (opscope.tensor(a).to(dtype) for a in (x, w, g))
    x, w, g = (N(t.double()) for t in (tx, tw, tg))  # the values the dtype holds
    wb = w.reshape([1, channels] + [1] * (len(shape) - 2)) if channels > 1 else w.reshape(())
    tol = 1e-2 if dtype == opscope.bfloat16 else 1e-6
    want = np.where(x > 0, x, wb * x)
    # the same values laid out with the dims reversed (a non-contiguous input when dim >= 2)
    dims = list(reversed(range(tx.dim())))
    reversed_layout = tx.permute(dims).contiguous().permute(dims)
    for got in (opscope.prelu(tx, tw), tx.prelu(tw), F.prelu(reversed_layout, tw)):
        assert got.dtype == dtype and got.shape == tx.shape
        np.testing.assert_allclose(N(got.double()), want, rtol=tol, atol=tol)
    gi, gw = opscope.ops.aten.prelu_backward(tg, tx, tw)
    np.testing.assert_allclose(N(gi.double()), np.where(x > 0, g, wb * g), rtol=tol, atol=tol)
    terms = np.where(x > 0, 0, x * g)
    sum_dims = tuple(d for d in range(len(shape)) if d != 1) if channels > 1 else None
    want_w = terms.sum(axis=sum_dims) if channels > 1 else np.full(1, terms.sum())
    assert gw.shape == tw.shape and gw.dtype == dtype
    np.testing.assert_allclose(N(gw.double()), want_w, rtol=tol * 10, atol=tol * 10)


def test_prelu_errors_module_and_node():
    with pytest.raises(RuntimeError, match="Mismatch of parameter numbers and input channel size. "
                                           "Found parameter numbers = 2 and channel size = 3."):
        F.prelu(opscope.randn(2, 3), opscope.randn(2))
    with pytest.raises(RuntimeError, match="Not allow zero-dim input tensor."):
        F.prelu(opscope.randn(()), opscope.randn(3))
    with pytest.raises(RuntimeError, match="Expected `weight` to be a scalar or 1D tensor, but "
                                           "got ndim = 2"):
        F.prelu(opscope.randn(2, 3), opscope.randn(1, 3))
    with pytest.raises(RuntimeError, match="\"prelu_cpu\" not implemented for 'Half'"):
        F.prelu(opscope.randn(2, 3).half(), opscope.randn(3).half())
    with pytest.raises(RuntimeError, match="Found dtype Float but expected Double"):
        F.prelu(opscope.randn(2, 3).double(), opscope.randn(3))
    # the special values as torch's (its kernel's x > 0 ? x : w x)
    special = F.prelu(opscope.tensor([float("nan"), -0.0, float("inf"), -float("inf"), -2.0]),
                      opscope.tensor([0.5])).tolist()
    assert math.isnan(special[0]) and special[1:] == [-0.0, math.inf, -math.inf, -1.0]
    assert math.copysign(1, special[1]) == -1
    m = opscope.nn.PReLU(3, 0.1)
    assert repr(m) == "PReLU(num_parameters=3)" and m.weight.tolist() == pytest.approx([0.1] * 3)
    assert repr(opscope.nn.PReLU()) == "PReLU(num_parameters=1)"
    x = opscope.tensor([[-1.0, 2.0, -4.0]], requires_grad=True)
    y = m(x)
    assert type(y.grad_fn).__name__ == "PreluBackward0"
    assert y.grad_fn._saved_weight is not None and y.grad_fn._saved_self.tolist() == x.tolist()
    y.sum().backward()
    assert m.weight.grad.tolist() == [-1.0, 0.0, -4.0]


@pytest.mark.parametrize("dtype", [opscope.float32, opscope.float64, opscope.bfloat16])
def test_rrelu_matches_its_definition(dtype):
    x = RNG.standard_normal((6, 7)) * 2
    x[0, :2] = [0.0, -0.0]
    tx = opscope.tensor(x).to(dtype)
    x = N(tx.double())
    tol = 1e-2 if dtype == opscope.bfloat16 else 1e-6
    # evaluation: leaky_relu with the mean slope, strided too
    for t, ref in ((tx, x), (tx.t(), x.T), (tx[:, ::3], x[:, ::3])):
        np.testing.assert_allclose(N(F.rrelu(t, 0.1, 0.3).double()),
                                   np.where(ref > 0, ref, 0.2 * ref), rtol=tol, atol=tol)
    # training: each x <= 0 times a factor in [lower, upper), kept in noise (1 elsewhere)
    noise = opscope.empty_like(tx)
    y = opscope.ops.aten.rrelu_with_noise(tx, noise, 0.1, 0.3, True)
    r = N(noise.double())
    assert np.all(r[x > 0] == 1) and np.all((r[x <= 0] >= 0.1 - 1e-3) & (r[x <= 0] < 0.3 + 1e-3))
    assert len(np.unique(r[x <= 0])) > 5  # drawn per element
    np.testing.assert_allclose(N(y.double()), x * r, rtol=tol, atol=tol)
    opscope.manual_seed(7)
    a = F.rrelu(tx, training=True)
    opscope.manual_seed(7)
    np.testing.assert_array_equal(N(F.rrelu(tx, training=True).double()), N(a.double()))
    # in place on a transposed (non-contiguous) tensor
    s = tx.t().clone().t()
    opscope.manual_seed(7)
    assert F.rrelu(s, training=True, inplace=True) is s
    assert np.all(N(s.double())[x > 0] == x[x > 0])
    assert np.all(N(s.double())[x < 0] < 0) and np.all(N(s.double())[x < 0] > x[x < 0])


def test_rrelu_gradient_node_errors_and_module():
    x = T(np.array([-1.0, 2.0, -3.0, 0.5]))
    w = x.clone().requires_grad_(True)
    y = F.rrelu(w * 1, 0.1, 0.3, training=True)
    assert type(y.grad_fn).__name__ == "RreluWithNoiseBackward0"
    noise = y.grad_fn._saved_noise
    y.sum().backward()
    np.testing.assert_array_equal(N(w.grad), N(noise))  # the drawn factors, 1 where x > 0
    w2 = x.clone().requires_grad_(True)
    z = F.rrelu_(w2 * 1, 0.1, 0.3)  # evaluation, in place: read off the result
    assert type(z.grad_fn).__name__ == "RreluWithNoiseBackward1"
    z.sum().backward()
    np.testing.assert_allclose(N(w2.grad), [0.2, 1.0, 0.2, 1.0], rtol=1e-12)
    with pytest.raises(RuntimeError, match="Lower bound should be less than or equal to the "
                                           "upper bound"):
        opscope.rrelu(opscope.randn(3), 0.5, 0.1)
    with pytest.raises(RuntimeError, match="\"rrelu_with_noise_out_cpu\" not implemented for "
                                           "'Half'"):
        opscope.rrelu(opscope.ones(2).half(), training=True)
    with pytest.raises(RuntimeError, match="\"leaky_relu_cpu\" not implemented for 'Long'"):
        opscope.rrelu(opscope.tensor([1, 2]))
    m = opscope.nn.RReLU(0.1, 0.3)
    assert repr(m) == "RReLU(lower=0.1, upper=0.3)"
    assert repr(opscope.nn.RReLU(inplace=True)) == \
        "RReLU(lower=0.125, upper=0.3333333333333333, inplace=True)"
    assert m.eval()(opscope.tensor([-1.0])).tolist() == pytest.approx([-0.2])
    drawn = m.train()(opscope.full((100,), -1.0))
    assert len(set(drawn.tolist())) > 50


# torch 1.13's nodes and saved attributes (grad_fn) for each form, recorded by hand
INPLACE_NODES = [
    ("leaky_relu", lambda z: F.leaky_relu(z, 0.2), "LeakyReluBackward0", "self"),
    ("leaky_relu_", lambda z: F.leaky_relu_(z, 0.2), "LeakyReluBackward1", "result"),
    ("leaky_relu inplace", lambda z: F.leaky_relu(z, 0.2, inplace=True), "LeakyReluBackward1",
     "result"),
    ("elu_", lambda z: F.elu_(z, 0.7), "EluBackward1", "result"),
    ("selu_", lambda z: F.selu_(z), "EluBackward1", "result"),
    ("celu", lambda z: F.celu(z, 0.7), "CeluBackward0", "self"),
    ("celu_", lambda z: F.celu_(z, 0.7), "CeluBackward1", "result"),
    ("threshold", lambda z: F.threshold(z, 0.1, 2.0), "ThresholdBackward0", "self"),
    ("threshold_", lambda z: F.threshold_(z, 0.1, 2.0), "ThresholdBackward1", "self"),
    ("hardtanh_", lambda z: F.hardtanh_(z), "HardtanhBackward0", "self"),
    ("hardshrink", lambda z: F.hardshrink(z, 0.4), "HardshrinkBackward0", "self"),
    ("softshrink", lambda z: F.softshrink(z, 0.4), "SoftshrinkBackward0", "self"),
]


@pytest.mark.parametrize("name", [c[0] for c in INPLACE_NODES])
def test_inplace_activations_have_torchs_nodes(name):
    _, f, node, saved = next(c for c in INPLACE_NODES if c[0] == name)
    x = np.array([-2.0, -0.5, 0.05, 0.3, 1.5])
    w = T(x).requires_grad_(True)
    y = f(w * 1)
    assert type(y.grad_fn).__name__ == node
    kept = getattr(y.grad_fn, "_saved_" + saved)
    # self is the input before the write (torch's original_self); result is the output itself
    np.testing.assert_allclose(N(kept), x if saved == "self" else N(y.detach()), rtol=0)
    y.backward(T(np.ones_like(x)))
    # the same gradient as the out-of-place form's
    w2 = T(x).requires_grad_(True)
    out_of_place = {"leaky_relu_": lambda z: F.leaky_relu(z, 0.2), "elu_": lambda z: F.elu(z, 0.7),
                    "selu_": F.selu, "celu_": lambda z: F.celu(z, 0.7),
                    "threshold_": lambda z: F.threshold(z, 0.1, 2.0),
                    "leaky_relu inplace": lambda z: F.leaky_relu(z, 0.2),
                    "hardtanh_": F.hardtanh}.get(name, f)
    out_of_place(w2 * 1).backward(T(np.ones_like(x)))
    np.testing.assert_allclose(N(w.grad), N(w2.grad), rtol=1e-12)


# --- native_layer_norm_backward ----------------------------------------------------------------


def np_layer_norm_backward(dy, x, k, w, mean, rstd):
    """float64 NumPy: (dx, dweight, dbias) of layer_norm over the last k dims, from the saved
    statistics (the forward's mean and rstd, shaped (*, 1..1))."""
    axes = tuple(range(x.ndim - k, x.ndim))
    xhat = (x - mean) * rstd
    dxhat = dy * (w if w is not None else 1.0)
    dx = rstd * (dxhat - dxhat.mean(axes, keepdims=True)
                 - xhat * (dxhat * xhat).mean(axes, keepdims=True))
    rows = tuple(range(x.ndim - k))
    return dx, (dy * xhat).sum(rows), dy.sum(rows)


@pytest.mark.parametrize("shape,k", [((5, 8), 1), ((2, 3, 6), 2), ((3, 70), 1), ((0, 4), 1),
                                     ((200, 3), 1)])
@pytest.mark.parametrize("affine", [True, False])
@pytest.mark.parametrize("dtype", [opscope.float32, opscope.float64, opscope.bfloat16])
def test_native_layer_norm_backward_matches_numpy(shape, k, affine, dtype):
    x, dy = RNG.standard_normal(shape) * 2 + 1, RNG.standard_normal(shape)
    normalized = list(shape[len(shape) - k:])
    w = RNG.standard_normal(normalized) if affine else None
    b = RNG.standard_normal(normalized) if affine else None
    tx, tw, tb = T(x, dtype), None if w is None else T(w, dtype), None if b is None else T(b, dtype)
    # the statistics from the forward, in the input's dtype, as autograd saves them
    _, mean, rstd = aten.native_layer_norm(tx, normalized, tw, tb, 1e-5)
    # the reference from the values opscope holds (bfloat16 rounds x, w and the statistics)
    dx, dw, db = np_layer_norm_backward(N(T(dy, dtype)), N(tx), k, None if w is None else N(tw),
                                        N(mean), N(rstd))
    tol = {opscope.float64: 1e-10, opscope.float32: 1e-4, opscope.bfloat16: 1e-1}[dtype]
    for make in (T, strided):
        gx, gw, gb = aten.native_layer_norm_backward(make(dy, dtype), tx, normalized, mean, rstd,
                                                     tw, tb, [1, 1, 1])
        assert gx.dtype == dtype and tuple(gx.shape) == shape
        np.testing.assert_allclose(N(gx), dx, rtol=tol, atol=tol)
        if affine:
            assert tuple(gw.shape) == tuple(normalized) and tuple(gb.shape) == tuple(normalized)
            np.testing.assert_allclose(N(gw), dw, rtol=tol, atol=tol * max(1, shape[0] ** 0.5))
            np.testing.assert_allclose(N(gb), db, rtol=tol, atol=tol * max(1, shape[0] ** 0.5))
        else:
            assert gw is None and gb is None


def test_native_layer_norm_backward_mask_and_errors():
    x, dy, w = T(RNG.standard_normal((4, 6))), T(RNG.standard_normal((4, 6))), T(np.ones(6))
    _, mean, rstd = aten.native_layer_norm(x, [6], w, w, 1e-5)
    gx, gw, gb = aten.native_layer_norm_backward(dy, x, [6], mean, rstd, w, w, [0, 1, 0])
    assert gx is None and gb is None and tuple(gw.shape) == (6,)
    # nothing asked for, or only a weight gradient without a weight: no output, no write
    assert aten.native_layer_norm_backward(dy, x, [6], mean, rstd, w, w, [0, 0, 0]) == (None,) * 3
    assert aten.native_layer_norm_backward(dy, x, [6], mean, rstd, None, None,
                                           [0, 1, 1]) == (None,) * 3
    # The same bits at any thread count (the column sums add fixed blocks of rows in order).
    big = T(RNG.standard_normal((40000, 6)))  # several blocks of rows (kGrainSize each)
    _, bm, br = aten.native_layer_norm(big, [6], w, w, 1e-5)
    runs = []
    for threads in (1, 2):
        opscope.set_num_threads(threads)
        runs.append([t.numpy().copy() for t in
                     aten.native_layer_norm_backward(big, big, [6], bm, br, w, w, [1, 1, 1])])
    for a, b in zip(*runs):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(RuntimeError, match=r"grad_out of size \[3, 6\] does not match input"):
        aten.native_layer_norm_backward(dy[:3], x, [6], mean, rstd, w, w, [1, 1, 1])
    with pytest.raises(RuntimeError, match="expected mean and rstd with 4 elements"):
        aten.native_layer_norm_backward(dy, x, [6], mean[:2], rstd, w, w, [1, 1, 1])
    with pytest.raises(RuntimeError, match=r"Given normalized_shape=\[5\], expected input"):
        aten.native_layer_norm_backward(dy, x, [5], mean, rstd, None, None, [1, 1, 1])
    with pytest.raises(RuntimeError, match="\"LayerNormBackwardKernelImpl\" not implemented for "
                                           "'Half'"):
        h = x.half()
        aten.native_layer_norm_backward(h, h, [6], mean.half(), rstd.half(), None, None,
                                        [1, 1, 1])


# --- the training step's backward, against torch 1.13 ------------------------------------------


@pytest.fixture(scope="module")
def reference():
    with open(REFERENCE) as f:
        return json.load(f)


@pytest.mark.parametrize("case", CASES)
def test_backward_op_lists_match_torch(reference, case):
    expected, got = reference["cases"][case], backward_ops(opscope, case)
    assert [n for n, _ in got] == [n for n, _ in expected]
    for (node, ops), (_, torch_ops) in zip(got, expected):
        if node in EXACT:
            assert ops == torch_ops, node
    mm = collections.Counter(op for _, ops in got for op in ops)["aten::mm"]
    assert mm == collections.Counter(op for _, ops in expected for op in ops)["aten::mm"]


def test_dir_lists_the_saved_attributes_as_torchs(reference):
    # dir(grad_fn) (IPython's tab completion) lists the _saved_* names torch's nodes have; it
    # lists every non-tensor argument, where torch lists those its formula reads: the extras.
    extra = {"_saved_half_to_float", "_saved_eps"}
    ours = saved_names(opscope)
    for node, names in reference["saved"].items():
        assert set(names) <= set(ours[node]), node
        assert set(ours[node]) - set(names) <= extra, node
    x = T(RNG.standard_normal((3, 4)), opscope.float32).requires_grad_(True)
    y = F.nll_loss(x, opscope.tensor([0, 3, 1]), weight=opscope.ones(4))
    assert y.grad_fn._saved_total_weight.item() == 3.0  # a named result, named as torch does
    # after backward the saved tensors are freed: dir still answers (tab completion), reading
    # one raises torch's error
    y.backward()
    assert "_saved_self" in dir(y.grad_fn)
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        y.grad_fn._saved_self


def test_saved_values_are_torchs(reference):
    x = T(RNG.standard_normal((3, 4)), opscope.float32).requires_grad_(True)
    nodes = {"ReluBackward0": F.relu(x), "LogSoftmaxBackward0": F.log_softmax(x, 1),
             "SoftmaxBackward0": F.softmax(x, 1),
             "NllLossBackward0": F.nll_loss(x, opscope.tensor([0, 3, 1]),
                                            weight=opscope.ones(4)),
             "GeluBackward0": F.gelu(x), "SiluBackward0": F.silu(x),
             "SoftplusBackward0": F.softplus(x),
             "NativeLayerNormBackward0": F.layer_norm(x, (4,), opscope.ones(4, requires_grad=True),
                                                      opscope.zeros(4, requires_grad=True)),
             "SigmoidBackward0": opscope.sigmoid(x), "TanhBackward0": opscope.tanh(x),
             "MseLossBackward0": F.mse_loss(x, opscope.zeros(3, 4)),
             "BinaryCrossEntropyBackward0": F.binary_cross_entropy(
                 opscope.sigmoid(x), opscope.ones(3, 4) / 2, weight=opscope.ones(4))}
    for name, y in nodes.items():
        assert y.grad_fn.name() == name
        for attr in reference["saved"][name]:
            if attr == "_saved_total_weight":  # an output, not an argument: not exposed yet
                continue
            assert getattr(y.grad_fn, attr) is not None, (name, attr)


def test_module_zero_grad_sets_none_by_default_as_the_optimizer():
    """nn.Module.zero_grad's default is torch 2.x's set_to_none=True, as Optimizer.zero_grad's."""
    m = opscope.nn.Linear(2, 1)
    opt = opscope.optim.SGD(m.parameters(), lr=0.1)
    for clear in (m.zero_grad, opt.zero_grad):
        m(opscope.ones(3, 2)).sum().backward()
        clear()
        assert all(p.grad is None for p in m.parameters())


# --- embedding's gradient ----------------------------------------------------------------------


@pytest.mark.parametrize("padding_idx", [-1, 0, 3])
@pytest.mark.parametrize("scale_grad_by_freq", [False, True])
def test_embedding_backward_matches_numpy(padding_idx, scale_grad_by_freq):
    # EmbeddingBackward0 -> embedding_backward -> embedding_dense_backward, as torch's: the rows
    # of the gradient added at their indices, none at padding_idx, each divided by its index's
    # count with scale_grad_by_freq (which opscope's old formula ignored).
    ids = np.array([[1, 3, 1], [0, 3, 3]])
    g = RNG.standard_normal((2, 3, 4))
    counts = np.bincount(ids.ravel(), minlength=6)
    expected = np.zeros((6, 4))
    for i, row in zip(ids.ravel(), g.reshape(-1, 4)):
        if i != padding_idx:
            expected[i] += row / (counts[i] if scale_grad_by_freq else 1)
    got = aten.embedding_dense_backward(T(g), opscope.tensor(ids), 6, padding_idx,
                                        scale_grad_by_freq)
    np.testing.assert_allclose(N(got), expected, rtol=1e-12)
    w = T(RNG.standard_normal((6, 4))).requires_grad_(True)
    y = F.embedding(opscope.tensor(ids), w, padding_idx=None if padding_idx < 0 else padding_idx,
                    scale_grad_by_freq=scale_grad_by_freq)
    y.backward(T(g))
    np.testing.assert_allclose(N(w.grad), expected, rtol=1e-12)
    with pytest.raises(NotImplementedError, match="sparse gradients"):
        aten.embedding_backward(T(g), opscope.tensor(ids), 6, -1, False, True)
    with pytest.raises(RuntimeError, match="'indices' to have one of the following scalar types"):
        aten.embedding_dense_backward(T(g), T(ids), 6, -1, False)



# --- cosine_similarity ---------------------------------------------------------------------------


def test_cosine_similarity_matches_numpy_and_torchs_steps():
    # aten::cosine_similarity (CompositeImplicitAutograd), torch 1.13's steps: the squared norms
    # clamped at eps^2 under no_grad, so a zero vector gives 0 and its gradient stays finite.
    a, b = RNG.standard_normal((3, 5)), RNG.standard_normal((5,))
    want = (a * b).sum(1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b))
    got = F.cosine_similarity(T(a), T(b))
    np.testing.assert_allclose(N(got), want, rtol=1e-12)
    np.testing.assert_allclose(N(opscope.cosine_similarity(T(a).t(), T(b)[:, None], 0)), want,
                               rtol=1e-12)
    zero = F.cosine_similarity(T(np.zeros((2, 3))), T(np.ones((2, 3))))
    assert zero.tolist() == [0.0, 0.0]
    x = T(a).requires_grad_(True)
    y = F.cosine_similarity(x, T(b))
    assert y.grad_fn.name() == "SumBackward1"
    y.sum().backward()
    assert np.isfinite(N(x.grad)).all()
    with pytest.raises(RuntimeError, match="expected common dtype to be floating point, yet "
                                           "common dtype is Long"):
        opscope.cosine_similarity(opscope.tensor([1, 2]), opscope.tensor([1, 2]), 0)
