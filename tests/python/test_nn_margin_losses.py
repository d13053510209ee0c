"""The margin, embedding and likelihood losses (F.margin_ranking_loss, hinge_embedding_loss,
cosine_embedding_loss, soft_margin_loss, multilabel_soft_margin_loss, multi_margin_loss,
multilabel_margin_loss, triplet_margin_loss, triplet_margin_with_distance_loss, poisson_nll_loss,
gaussian_nll_loss), F.glu and F.pixel_shuffle / pixel_unshuffle against float64 NumPy references
on random shapes, contiguous and not, for every reduction; their gradients (kernels against
NumPy, formulas against finite differences), the traces torch 1.13 shows, and bad targets, which
must raise and never read out of bounds. torch's own values, gradients and messages for fixed
inputs are in nn_modules_cases.py (test_nn_modules.py).

    PYTHONPATH=core/python:build/python /usr/bin/python3 -m pytest -q tests/python/test_nn_margin_losses.py
"""
import math

import numpy as np
import pytest

import opscope
import opscope.nn.functional as F
from conftest import assert_close, record_dispatch, to_numpy, tolerance
from opscope import nn
from opscope.autograd import gradcheck, gradgradcheck

FLOATS = [opscope.float32, opscope.float64]
REDUCTIONS = ["none", "mean", "sum"]
F64 = opscope.float64


def T(a, dtype=None):
    t = opscope.from_numpy(np.array(a, order="C"))
    return t if dtype is None else t.to(dtype)


def strided(a, dtype=None):
    """a (NumPy) as an opscope tensor with the same values and non-contiguous strides: a
    transposed copy's transpose, or every other element of a twice wider buffer."""
    if a.ndim >= 2:
        t = T(np.ascontiguousarray(np.swapaxes(a, -1, -2)), dtype).transpose(-1, -2)
        if not t.is_contiguous():
            return t
    wide = np.zeros(a.shape[:-1] + (a.shape[-1] * 2,), dtype=a.dtype)
    wide[..., ::2] = a
    return T(wide, dtype)[..., ::2]


def close(actual, expected, dtype=F64, what="", scale=1.0):
    tol = tolerance(dtype)
    assert_close(actual, expected, rtol=tol["rtol"] * 8, atol=tol["atol"] * 8 * scale, what=what, family="nn")


def np_reduce(loss, reduction):
    if reduction == "none":
        return loss
    if reduction == "sum":
        return loss.sum()
    return loss.mean() if loss.size else np.float64("nan")


# --- NumPy references (float64) ------------------------------------------------------------------
def np_multi_margin(x, y, p=1, margin=1.0, w=None):
    """x (N, C), y (N) -> (N) per-sample losses; and the gradient of their sum (N, C)."""
    n, c = x.shape
    loss, grad = np.zeros(n), np.zeros((n, c))
    for i in range(n):
        z = margin - x[i, y[i]] + x[i]
        z[y[i]] = 0
        on = z > 0
        wy = 1.0 if w is None else w[y[i]]
        loss[i] = wy * np.sum(z[on] ** p) / c
        g = np.where(on, wy * (1.0 if p == 1 else 2 * z), 0.0) / c
        grad[i] = g
        grad[i, y[i]] = -g.sum()
    return loss, grad


def np_multilabel_margin(x, y):
    """x (N, C), y (N, C) target rows ended by -1 -> (N) losses, gradient of their sum, is_target."""
    n, c = x.shape
    loss, grad, is_target = np.zeros(n), np.zeros((n, c)), np.zeros((n, c))
    for i in range(n):
        targets = []
        for j in y[i]:
            if j < 0:
                break
            targets.append(j)
        is_target[i, targets] = 1
        others = [k for k in range(c) if not is_target[i, k]]
        for j in targets:
            for k in others:
                z = 1 - x[i, j] + x[i, k]
                if z > 0:
                    loss[i] += z / c
                    grad[i, k] += 1 / c
                    grad[i, j] -= 1 / c
    return loss, grad, is_target


def np_cosine_embedding(x1, x2, t, margin):
    cos = (x1 * x2).sum(-1) / np.sqrt(((x1 * x1).sum(-1) + 1e-12) * ((x2 * x2).sum(-1) + 1e-12))
    return np.where(t == 1, 1 - cos, 0.0) + np.where(t == -1, np.maximum(0, cos - margin), 0.0)


def np_distance(a, b, p, eps):
    return (np.abs(a - b + eps) ** p).sum(-1) ** (1 / p)


def np_log_sigmoid(x):
    return np.minimum(x, 0) - np.log1p(np.exp(-np.abs(x)))


def np_glu(x, dim):
    a, b = np.split(x, 2, axis=dim)
    return a / (1 + np.exp(-b))


def np_pixel_shuffle(x, r):
    *batch, c, h, w = x.shape
    y = x.reshape(*batch, c // (r * r), r, r, h, w)
    n = len(batch)
    y = np.moveaxis(y, [n + 1, n + 2], [n + 3, n + 4])  # (*, C, H, W, r, r) -> order below
    y = y.reshape(*batch, c // (r * r), h, w, r, r)
    y = np.swapaxes(y, n + 2, n + 3)  # (*, C, H, r, W, r)
    return y.reshape(*batch, c // (r * r), h * r, w * r)


# --- values against NumPy: every reduction, float32 / float64, contiguous and strided inputs ---
LAYOUTS = ["plain", "strided"]


def make(a, layout, dtype):
    return T(a, dtype) if layout == "plain" else strided(a, dtype)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_pairwise_losses_match_numpy(rng, reduction, dtype, layout):
    n, d = rng.integers(2, 7), rng.integers(2, 9)
    x1, x2, x3 = (rng.standard_normal((n, d)) for _ in range(3))
    signs = np.where(rng.random((n, d)) < 0.5, -1.0, 1.0)
    a, b, c = (make(v, layout, dtype) for v in (x1, x2, x3))
    s = make(signs, layout, dtype)
    # margin_ranking_loss, target broadcast from (N, 1)
    col = signs[:, :1]
    close(F.margin_ranking_loss(a, b, T(col, dtype), margin=0.3, reduction=reduction),
          np_reduce(np.maximum(0, -col * (x1 - x2) + 0.3), reduction), dtype, "margin_ranking_loss")
    # hinge_embedding_loss; a 0 target counts for both terms
    hinge_t = signs.copy()
    hinge_t[0, 0] = 0
    hinge = np.where(hinge_t != 1, np.maximum(0, 0.7 - x1), 0) + np.where(hinge_t != -1, x1, 0)
    close(F.hinge_embedding_loss(a, make(hinge_t, layout, dtype), margin=0.7, reduction=reduction),
          np_reduce(hinge, reduction), dtype, "hinge_embedding_loss")
    # soft_margin_loss
    close(F.soft_margin_loss(a, s, reduction=reduction), np_reduce(np.log1p(np.exp(-signs * x1)), reduction),
          dtype, "soft_margin_loss")
    # multilabel_soft_margin_loss, with a class weight
    labels = (signs > 0).astype(np.float64)
    w = rng.random(d) + 0.5
    per = -(labels * np_log_sigmoid(x1) + (1 - labels) * np_log_sigmoid(-x1)) * w
    close(F.multilabel_soft_margin_loss(a, make(labels, layout, dtype), weight=T(w, dtype), reduction=reduction),
          np_reduce(per.mean(-1), reduction), dtype, "multilabel_soft_margin_loss")
    # cosine_embedding_loss with targets 1, -1 and 0 (no term)
    t = rng.integers(-1, 2, n)
    close(F.cosine_embedding_loss(a, b, T(t), margin=-0.2, reduction=reduction),
          np_reduce(np_cosine_embedding(x1, x2, t, -0.2), reduction), dtype, "cosine_embedding_loss")
    # triplet_margin_loss, p = 1 and 2, swap
    for p, swap in ((2.0, False), (1.0, True)):
        dp, dn = np_distance(x1, x2, p, 1e-6), np_distance(x1, x3, p, 1e-6)
        if swap:
            dn = np.minimum(dn, np_distance(x2, x3, p, 1e-6))
        close(F.triplet_margin_loss(a, b, c, margin=1.5, p=p, swap=swap, reduction=reduction),
              np_reduce(np.maximum(0, 1.5 + dp - dn), reduction), dtype, f"triplet_margin_loss p={p}")
        close(F.triplet_margin_with_distance_loss(
            a, b, c, distance_function=lambda u, v: F.pairwise_distance(u, v, p), margin=1.5, swap=swap,
            reduction=reduction), np_reduce(np.maximum(0, 1.5 + dp - dn), reduction), dtype,
            "triplet_margin_with_distance_loss")


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_likelihood_losses_match_numpy(rng, reduction, dtype, layout):
    shape = (rng.integers(2, 6), rng.integers(2, 7))
    x = rng.standard_normal(shape)
    counts = rng.integers(0, 6, shape).astype(np.float64)
    xi, ci = make(x, layout, dtype), make(counts, layout, dtype)
    close(F.poisson_nll_loss(xi, ci, reduction=reduction), np_reduce(np.exp(x) - counts * x, reduction), dtype,
          "poisson_nll_loss")
    rate = np.abs(x) + 0.1
    safe = np.where(counts > 1, counts, 2)  # the term counts only where counts > 1
    stirling = safe * np.log(safe) - safe + 0.5 * np.log(2 * np.pi * safe)
    loss = rate - counts * np.log(rate + 1e-8) + np.where(counts <= 1, 0, stirling)
    close(F.poisson_nll_loss(make(rate, layout, dtype), ci, log_input=False, full=True, reduction=reduction),
          np_reduce(loss, reduction), dtype, "poisson_nll_loss full")
    y = rng.standard_normal(shape)
    var = rng.random(shape) + 1e-3
    var[0, 0] = 1e-9  # clamped to eps
    for v, v_np in ((make(var, layout, dtype), var), (T(var[:, 0], dtype), var[:, :1]),
                    (T(var[:, :1], dtype), var[:, :1])):
        clamped = np.maximum(v_np, 1e-6)
        expected = 0.5 * (np.log(clamped) + (x - y) ** 2 / clamped) + 0.5 * math.log(2 * math.pi)
        close(F.gaussian_nll_loss(xi, make(y, layout, dtype), v, full=True, reduction=reduction),
              np_reduce(expected, reduction), dtype, "gaussian_nll_loss", scale=10)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_multi_margin_loss_and_its_gradient_match_numpy(rng, reduction, dtype, layout):
    n, c = rng.integers(1, 7), rng.integers(2, 9)
    x = rng.standard_normal((n, c))
    y = rng.integers(0, c, n)
    w = rng.random(c) + 0.5
    for p, margin, weight in ((1, 1.0, None), (2, 0.6, w)):
        loss, grad = np_multi_margin(x, y, p, margin, weight)
        xi = make(x, layout, dtype).requires_grad_()
        out = F.multi_margin_loss(xi, T(y), p=p, margin=margin, weight=None if weight is None else T(weight, dtype),
                                  reduction=reduction)
        close(out, np_reduce(loss, reduction), dtype, f"multi_margin_loss p={p}")
        g = rng.standard_normal(n) if reduction == "none" else np.float64(rng.standard_normal())
        out.backward(T(g, dtype))
        scale = g[:, None] if reduction == "none" else g / (n if reduction == "mean" else 1)
        close(xi.grad, grad * scale, dtype, f"multi_margin_loss_backward p={p}")
        assert out.grad_fn.name() == "MultiMarginLossBackward0"


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_multilabel_margin_loss_and_its_gradient_match_numpy(rng, reduction, dtype, layout):
    n, c = rng.integers(1, 6), rng.integers(2, 8)
    x = rng.standard_normal((n, c))
    y = np.full((n, c), -1)
    for i in range(n):  # 0..c distinct targets, the rest garbage after a -1
        k = rng.integers(0, c + 1)
        y[i, :k] = rng.permutation(c)[:k]
        if k < c - 1:
            y[i, k + 1:] = rng.integers(-1, c, c - k - 1)
    loss, grad, is_target = np_multilabel_margin(x, y)
    xi = make(x, layout, dtype).requires_grad_()
    out = F.multilabel_margin_loss(xi, make(y, layout, None), reduction=reduction)
    close(out, np_reduce(loss, reduction), dtype, "multilabel_margin_loss")
    assert out.grad_fn.name() == "MultilabelMarginLossBackward0"
    assert to_numpy(out.grad_fn._saved_is_target).tolist() == is_target.tolist()
    g = rng.standard_normal(n) if reduction == "none" else np.float64(rng.standard_normal())
    out.backward(T(g, dtype))
    scale = g[:, None] if reduction == "none" else g / (n if reduction == "mean" else 1)
    close(xi.grad, grad * scale, dtype, "multilabel_margin_loss_backward")


def test_unbatched_and_single_class_inputs(rng):
    x = rng.standard_normal(5)
    loss, _ = np_multi_margin(x[None], np.array([3]), 2, 0.5)
    for r in REDUCTIONS:  # a 0-d target: a 0-d loss for every reduction
        out = F.multi_margin_loss(T(x), opscope.tensor(3), p=2, margin=0.5, reduction=r)
        assert out.shape == () and math.isclose(out.item(), loss[0], rel_tol=1e-12)
    assert F.multi_margin_loss(T(x), opscope.tensor([3]), reduction="none").shape == (1,)
    y = np.array([4, 0, -1, 2, 2])
    loss, _, _ = np_multilabel_margin(x[None], y[None])
    for r in REDUCTIONS:
        out = F.multilabel_margin_loss(T(x), T(y), reduction=r)
        assert out.shape == () and math.isclose(out.item(), loss[0], rel_tol=1e-12)
    assert F.multi_margin_loss(opscope.tensor(1.5), opscope.tensor(0)).item() == 0.0
    assert F.multilabel_margin_loss(opscope.tensor(1.5), opscope.tensor(0)).item() == 0.0


def test_large_batches_match_numpy_whatever_the_thread_count(rng):
    """Rows run in parallel; a reduced loss still adds them in row order, so the result does not
    depend on how many threads ran."""
    x = rng.standard_normal((3000, 17)).astype(np.float32)
    y = rng.integers(0, 17, 3000)
    labels = np.where(rng.random((3000, 17)) < 0.3, rng.integers(0, 17, (3000, 17)), -1)
    results = []
    threads = opscope.get_num_threads()
    try:
        for n in sorted({1, threads}):
            opscope.set_num_threads(n)
            results.append([F.multi_margin_loss(T(x), T(y)).item(), F.multi_margin_loss(T(x), T(y), p=2).item(),
                            F.multilabel_margin_loss(T(x), T(labels)).item()])
    finally:
        opscope.set_num_threads(threads)
    assert all(r == results[0] for r in results)
    x64 = x.astype(np.float64)
    assert math.isclose(results[0][0], np_multi_margin(x64, y)[0].mean(), rel_tol=1e-6)
    assert math.isclose(results[0][1], np_multi_margin(x64, y, 2)[0].mean(), rel_tol=1e-6)
    assert math.isclose(results[0][2], np_multilabel_margin(x64, labels)[0].mean(), rel_tol=1e-6)


# --- glu, pixel shuffle --------------------------------------------------------------------------
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", FLOATS + [opscope.bfloat16])
def test_glu_matches_numpy(rng, dtype, layout):
    x = rng.standard_normal((3, 4, 6))
    xi = make(x, layout, dtype)
    x = to_numpy(xi).astype(np.float64)  # bfloat16: the rounded inputs
    for dim in (-1, 1, 0) if x.shape[0] % 2 == 0 else (-1, 1):
        out = F.glu(xi, dim)
        assert out.dtype == dtype
        close(out, np_glu(x, dim), dtype, f"glu dim={dim}")
        g = rng.standard_normal(out.shape)
        a, b = np.split(x, 2, axis=dim)
        s = 1 / (1 + np.exp(-b))
        expected = np.concatenate([g * s, g * a * s * (1 - s)], axis=dim)
        grad = opscope.ops.aten.glu_backward(T(g, dtype), xi, dim)
        close(grad, expected, dtype, f"glu_backward dim={dim}", scale=4)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_pixel_shuffle_matches_numpy_for_every_dtype(rng, layout):
    for shape, r in (((2, 8, 3, 5), 2), ((9, 2, 2), 3), ((2, 1, 4, 1, 3), 2), ((1, 3, 4, 4), 1)):
        x = rng.standard_normal(shape)
        for dtype in (F64, opscope.float32, opscope.int64, opscope.int16, opscope.uint8, opscope.bool,
                      opscope.bfloat16):
            xi = make(x * 5, layout, dtype) if dtype != opscope.bool else make(x > 0, layout, dtype)
            xn = to_numpy(xi)
            out = F.pixel_shuffle(xi, r)
            assert out.dtype == dtype and out.is_contiguous()
            assert (to_numpy(out) == np_pixel_shuffle(xn, r)).all(), (shape, dtype)
            back = F.pixel_unshuffle(out, r)
            assert (to_numpy(back) == xn).all(), (shape, dtype)
            assert back.data_ptr() != out.data_ptr()  # never an alias, even for r = 1


def test_pixel_shuffle_gradients_and_modules(rng):
    x = opscope.randn(2, 8, 2, 3, dtype=F64, requires_grad=True)
    assert gradcheck(lambda t: F.pixel_shuffle(t, 2), [x]) and gradgradcheck(lambda t: F.pixel_shuffle(t, 2), [x])
    y = F.pixel_shuffle(x, 2)
    assert y.grad_fn.name() == "PixelShuffleBackward0" and y.grad_fn._saved_upscale_factor == 2
    z = F.pixel_unshuffle(y, 2)
    assert z.grad_fn.name() == "PixelUnshuffleBackward0"
    assert opscope.equal(nn.PixelUnshuffle(2)(nn.PixelShuffle(2)(x)), x)
    assert repr(nn.PixelShuffle(3)) == "PixelShuffle(upscale_factor=3)"


# --- gradients: formulas against finite differences ------------------------------------------------
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_gradcheck_and_gradgradcheck(rng, reduction):
    def leaf(*shape, positive=False):
        a = rng.standard_normal(shape)
        return strided(np.abs(a) + 0.5 if positive else a, F64).requires_grad_()

    signs = T(np.where(rng.random((4, 5)) < 0.5, -1.0, 1.0))
    a, b, c = leaf(4, 5), leaf(4, 5), leaf(4, 5)
    r = reduction
    assert gradcheck(lambda x: F.soft_margin_loss(x, signs, reduction=r), [a])
    assert gradgradcheck(lambda x: F.soft_margin_loss(x, signs, reduction=r), [a])
    w = opscope.rand(5, dtype=F64)
    assert gradcheck(lambda x: F.multi_margin_loss(x, opscope.tensor([0, 4, 1, 2]), p=2, margin=0.4, weight=w,
                                                   reduction=r), [a])
    assert gradcheck(lambda x: F.multilabel_margin_loss(x, opscope.tensor([[4, 0, -1, 1, 1], [1, 2, 3, 0, 4],
                                                                           [-1, 0, 0, 0, 0], [2, -1, 3, 3, 3]]),
                                                        reduction=r), [a])
    for fn, inputs in [
        (lambda x, y: F.margin_ranking_loss(x, y, signs, margin=0.2, reduction=r), [a, b]),
        (lambda x: F.hinge_embedding_loss(x, signs, margin=0.3, reduction=r), [a]),
        (lambda x, y: F.cosine_embedding_loss(x, y, opscope.tensor([1, -1, 0, 1]), margin=-0.4, reduction=r), [a, b]),
        (lambda x, y, z: F.triplet_margin_loss(x, y, z, margin=4.0, p=3, swap=True, reduction=r), [a, b, c]),
        (lambda x, t: F.poisson_nll_loss(x, t, reduction=r), [a, b]),
        (lambda x, t: F.poisson_nll_loss(x, t * 3, log_input=False, full=True, reduction=r),
         [leaf(4, 5, positive=True), leaf(4, 5, positive=True)]),
        (lambda x, t: F.multilabel_soft_margin_loss(x, t.sigmoid(), weight=w, reduction=r),
         [a, b]),
        (lambda x, y, v: F.gaussian_nll_loss(x, y, v, reduction=r), [a, b, leaf(4, 1, positive=True)]),
    ]:
        assert gradcheck(fn, inputs) and gradgradcheck(fn, inputs)


def test_glu_gradients_and_double_backward(rng):
    x = strided(rng.standard_normal((3, 6)), F64).requires_grad_()
    g = strided(rng.standard_normal((3, 3)), F64).requires_grad_()
    assert gradcheck(lambda t: F.glu(t), [x]) and gradgradcheck(lambda t: F.glu(t), [x])
    backward = lambda go, t: opscope.ops.aten.glu_backward(go, t, 1)  # noqa: E731
    assert gradcheck(backward, [g, x]) and gradgradcheck(backward, [g, x])
    y = F.glu(x)
    assert y.grad_fn.name() == "GluBackward0" and y.grad_fn._saved_dim == -1
    assert backward(g, x).grad_fn.name() == "GluBackwardBackward0"


def test_soft_margin_loss_double_backward_node(rng):
    x = opscope.randn(3, 4, dtype=F64, requires_grad=True)
    loss = F.soft_margin_loss(x, opscope.ones(3, 4, dtype=F64))
    assert loss.grad_fn.name() == "SoftMarginLossBackward0"
    g, = opscope.autograd.grad(loss, x, create_graph=True)
    assert g.grad_fn.name() == "SoftMarginLossBackwardBackward0"


def test_multi_margin_losses_have_no_double_backward(rng):
    """As in torch 1.13: create_graph records a NotImplemented node, which fails when reached."""
    x = opscope.randn(3, 4, dtype=F64, requires_grad=True)
    for loss, op in ((F.multi_margin_loss(x, opscope.tensor([0, 1, 2])), "multi_margin_loss_backward"),
                     (F.multilabel_margin_loss(x, opscope.tensor([[0, 1, -1, 2]] * 3)),
                      "multilabel_margin_loss_backward")):
        g, = opscope.autograd.grad(loss, x, create_graph=True)
        assert g.requires_grad and g.grad_fn.name() == "NotImplemented"
        with pytest.raises(RuntimeError, match=f"derivative for aten::{op} is not implemented"):
            g.sum().backward()


# --- bad targets and arguments: errors, never out-of-bounds reads --------------------------------
def test_bad_targets_raise():
    x = opscope.randn(3, 4)
    for t in ([0, 4, 1], [0, -1, 1], [2, 1, 1 << 40], [-(1 << 40), 0, 0]):
        with pytest.raises(RuntimeError, match="^target out of range$"):
            F.multi_margin_loss(x, opscope.tensor(t))
        with pytest.raises(RuntimeError, match="^target out of range$"):
            opscope.ops.aten.multi_margin_loss_backward(opscope.tensor(1.0), x, opscope.tensor(t), 1, 1.0, None, 1)
    for t in ([[0, 4, -1, 0]] * 3, [[0, -2, -1, 0]] * 3, [[1, 2, 3, 1 << 40]] * 3):
        with pytest.raises(RuntimeError, match="argument #2 'target' is out of range"):
            F.multilabel_margin_loss(x, opscope.tensor(t))
        with pytest.raises(RuntimeError, match="argument #3 'target' is out of range"):
            opscope.ops.aten.multilabel_margin_loss_backward(opscope.tensor(1.0), x, opscope.tensor(t), 1,
                                                             opscope.zeros(3, 4))
    # a weight shorter than the classes: torch 1.13 reads past it; opscope refuses (as later torch)
    with pytest.raises(RuntimeError, match=r"inconsistent weight size, expected 4 but got \[3\]"):
        F.multi_margin_loss(x, opscope.tensor([0, 3, 1]), weight=opscope.ones(3))
    # a per-sample grad_output shorter than the batch: refused rather than read past
    with pytest.raises(RuntimeError, match=r"tensor.size\[0\] == 3 but got: dimension 1 and tensor.size\[0\] = 2"):
        opscope.ops.aten.multi_margin_loss_backward(opscope.ones(2), x, opscope.tensor([0, 1, 2]), 1, 1.0, None, 0)
    with pytest.raises(RuntimeError, match="Expected a single element grad_output tensor"):
        opscope.ops.aten.multi_margin_loss_backward(opscope.ones(0), x, opscope.tensor([0, 1, 2]), 1, 1.0, None, 1)


def test_errors_match_torch():
    x = opscope.zeros(3, 4)
    cases = [
        (lambda: F.multi_margin_loss(x, opscope.tensor([0, 1])), RuntimeError, "inconsistent target size, got: [2]"),
        (lambda: F.multi_margin_loss(x, opscope.tensor([0, 1, 2], dtype=opscope.int32)), RuntimeError,
         "expected scalar type Long but found Int"),
        (lambda: F.multi_margin_loss(x.bfloat16(), opscope.tensor([0, 1, 2])), RuntimeError,
         "\"multi_margin_loss_cpu_kernel\" not implemented for 'BFloat16'"),
        (lambda: F.multi_margin_loss(x, opscope.tensor([0, 1, 2]), p=3), ValueError, "only p == 1 and p == 2 supported"),
        (lambda: F.multilabel_margin_loss(x, opscope.tensor([[0, 1, -1]] * 3)), RuntimeError,
         "inconsistent size [3, 3] for argument #2 'target'"),
        (lambda: F.cosine_embedding_loss(x, x, opscope.ones(3, 1)), RuntimeError,
         "0D or 1D target tensor expected, multi-target not supported"),
        (lambda: F.triplet_margin_loss(x, x, x[0]), RuntimeError,
         "All inputs should have same dimension but got 2D, 2D and 1D inputs."),
        (lambda: F.glu(opscope.tensor(1.0)), RuntimeError, "glu does not support scalars because halving size must be even"),
        (lambda: F.glu(x, 0), RuntimeError, "Halving dimension must be even, but dimension 0 is size 3"),
        (lambda: F.glu(x.long()), RuntimeError, "\"glu_cpu\" not implemented for 'Long'"),
        (lambda: F.pixel_shuffle(opscope.zeros(1, 8, 2, 2), 3), RuntimeError,
         "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of upscale_factor, "
         "but input.size(-3)=8 is not divisible by 9"),
        (lambda: F.pixel_unshuffle(opscope.zeros(1, 1, 4, 3), 2), RuntimeError,
         "pixel_unshuffle expects width to be divisible by downscale_factor, but input.size(-1)=3 is not divisible by 2"),
        (lambda: F.soft_margin_loss(x, opscope.ones(3, 4, requires_grad=True)), RuntimeError,
         "The function 'soft_margin_loss' is not differentiable with respect to argument 'target'. "
         "This input cannot have requires_grad True."),
        (lambda: F.gaussian_nll_loss(x, x, -opscope.ones(3, 4)), ValueError, "var has negative entry/entries"),
        (lambda: nn.Softmax2d()(opscope.zeros(2, 3)), AssertionError, "Softmax2d requires a 3D or 4D tensor as input"),
    ]
    for call, error, message in cases:
        with pytest.raises(error) as info:
            call()
        assert str(info.value) == message


def test_empty_inputs():
    e = opscope.zeros(0, 3)
    assert math.isnan(F.soft_margin_loss(e, e).item()) and F.soft_margin_loss(e, e, reduction="sum").item() == 0
    for r, check in (("mean", math.isnan), ("sum", lambda v: v == 0)):
        assert check(F.multi_margin_loss(e, opscope.zeros(0, dtype=opscope.int64), reduction=r).item())
        assert check(F.multilabel_margin_loss(e, opscope.zeros(0, 3, dtype=opscope.int64), reduction=r).item())
    assert F.multi_margin_loss(e, opscope.zeros(0, dtype=opscope.int64), reduction="none").shape == (0,)
    assert F.glu(opscope.zeros(0, 4)).shape == (0, 2)
    assert F.pixel_shuffle(opscope.zeros(0, 4, 2, 2), 2).shape == (0, 1, 4, 4)
    # torch 1.13's CPU kernel returns an empty input's clone, in the input's shape
    assert F.pixel_unshuffle(opscope.zeros(2, 1, 0, 4), 2).shape == (2, 1, 0, 4)
    x = opscope.zeros(0, 4, requires_grad=True)
    F.multi_margin_loss(x, opscope.zeros(0, dtype=opscope.int64), reduction="sum").backward()
    assert x.grad.shape == (0, 4)


def test_out_forms_and_non_contiguous_outputs(rng):
    x = rng.standard_normal((3, 4))
    y = np.array([0, 3, 1])
    out = opscope.empty(6, dtype=F64)[::2]  # (3), not contiguous
    r = opscope.ops.aten.multi_margin_loss(T(x), T(y), 1, 1.0, None, 0, out=out)
    assert r is out
    close(out, np_multi_margin(x, y)[0], what="multi_margin_loss.out")
    gi = opscope.empty(4, 3, dtype=F64).t()  # (3, 4), not contiguous
    r = opscope.ops.aten.multi_margin_loss_backward(opscope.tensor(1.0, dtype=F64), T(x), T(y), 1, 1.0, None, 2,
                                                    grad_input=gi)
    assert r is gi
    close(gi, np_multi_margin(x, y)[1], what="multi_margin_loss_backward.grad_input")
    labels = np.array([[1, -1, 0, 0], [3, 2, -1, 0], [-1, 1, 1, 1]])
    out, is_target = opscope.empty(0, dtype=F64), opscope.empty(0, dtype=F64)
    r = opscope.ops.aten.multilabel_margin_loss_forward(T(x), T(labels), 0, output=out, is_target=is_target)
    assert r[0] is out and r[1] is is_target
    loss, _, marks = np_multilabel_margin(x, labels)
    close(out, loss, what="multilabel_margin_loss_forward.output")
    close(is_target, marks, what="is_target")
    s = opscope.empty(0, dtype=F64)
    assert opscope.ops.aten.soft_margin_loss(T(x), T(np.sign(x)), 1, out=s) is s
    close(s, np.log1p(np.exp(-np.abs(x))).mean(), what="soft_margin_loss.out")
    g = opscope.empty(0, dtype=F64)
    assert opscope.ops.aten.glu(T(x), 1, out=g) is g
    close(g, np_glu(x, 1), what="glu.out")


# --- traces: the ops torch 1.13 runs -------------------------------------------------------------
def children(fn, top):
    """The ops the composite `top` called directly (one level below it), overloads included:
    each call is one step at that depth (its redispatches are deeper)."""
    steps = record_dispatch(fn).steps
    start = next(i for i, s in enumerate(steps) if s["op"] == f"aten::{top}")
    while steps[start + 1]["op"] == f"aten::{top}":  # its redispatches, down to the kernel
        start += 1
    depth = steps[start]["depth"]
    ops = []
    for s in steps[start + 1:]:
        if s["depth"] <= depth:
            break
        if s["depth"] == depth + 1:
            ops.append(s["op"].replace("aten::", ""))
    return ops


def test_traces_show_torch_decompositions():
    x, y, z = (opscope.randn(3, 4, requires_grad=True) for _ in range(3))
    t = opscope.tensor([1.0, -1.0, 1.0])
    # what torch 1.13's TorchDispatchMode sees below each op (clone: its autograd's copy for
    # clamp_min_, which opscope keeps differently)
    assert children(lambda: F.margin_ranking_loss(x[:, 0], y[:, 0], t), "margin_ranking_loss") == [
        "sub.Tensor", "neg", "mul.Tensor", "add.Scalar", "clamp_min_", "mean"]
    assert children(lambda: F.hinge_embedding_loss(x, opscope.ones(3, 4), reduction="sum"),
                    "hinge_embedding_loss") == [
        "zeros_like", "empty_like", "fill_.Scalar", "sub_.Tensor", "clamp_min_", "ne.Scalar", "where.self",
        "ne.Scalar", "where.self", "add.Tensor", "sum"]
    assert children(lambda: F.cosine_embedding_loss(x, y, t), "cosine_embedding_loss") == [
        "mul.Tensor", "sum.dim_IntList", "mul.Tensor", "sum.dim_IntList", "add.Scalar", "mul.Tensor",
        "sum.dim_IntList", "add.Scalar", "mul.Tensor", "sqrt_", "div.Tensor", "zeros_like", "empty_like",
        "fill_.Scalar", "sub_.Tensor", "sub.Scalar", "clamp_min_", "eq.Scalar", "where.self", "eq.Scalar",
        "where.self", "add.Tensor", "mean"]
    assert children(lambda: F.triplet_margin_loss(x, y, z, swap=True, reduction="none"), "triplet_margin_loss") == [
        "pairwise_distance", "pairwise_distance", "pairwise_distance", "min.other", "add.Scalar", "sub.Tensor",
        "clamp_min"]
    assert children(lambda: F.poisson_nll_loss(x, y.abs()), "poisson_nll_loss") == [
        "mul.Tensor", "exp", "sub.Tensor", "mean"]
    assert children(lambda: F.poisson_nll_loss(x.abs(), y.abs(), log_input=False, full=True), "poisson_nll_loss") == [
        "add.Scalar", "log", "mul.Tensor", "sub.Tensor", "mul.Scalar", "log", "mul.Scalar", "log", "mul.Tensor",
        "sub.Tensor", "add.Tensor", "le.Scalar", "masked_fill.Scalar", "add_.Tensor", "mean"]
    assert children(lambda: F.soft_margin_loss(x, y.detach()), "soft_margin_loss") == [
        "empty.memory_format", "neg.out", "mul_.Tensor", "exp_", "add_.Scalar", "log_", "mean", "resize_", "copy_"]
    assert children(lambda: F.multilabel_margin_loss(x, opscope.tensor([[0, 1, -1, 2]] * 3)),
                    "multilabel_margin_loss") == ["multilabel_margin_loss_forward"]
    assert children(lambda: F.glu(x), "glu") == ["narrow", "narrow"]
    steps = [s["op"] for s in record_dispatch(lambda: F.multi_margin_loss(x, opscope.tensor([0, 1, 2]))).steps]
    assert "aten::multi_margin_loss" in steps
    # the nodes torch records
    assert F.margin_ranking_loss(x[:, 0], y[:, 0], t).grad_fn.name() == "MeanBackward0"
    assert F.triplet_margin_loss(x, y, z, reduction="none").grad_fn.name() == "ClampMinBackward0"
    assert F.hinge_embedding_loss(x, opscope.ones(3, 4), reduction="none").grad_fn.name() == "AddBackward0"
    assert F.multilabel_soft_margin_loss(x, y.detach(), reduction="sum").grad_fn.name() == "SumBackward0"
    assert F.gaussian_nll_loss(x, y, z.abs(), reduction="none").grad_fn.name() == "MulBackward0"
