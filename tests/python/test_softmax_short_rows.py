"""softmax / log_softmax and their gradients along a last dim shorter than a vector (1-16
elements: 10 classes), which run 16 rows at a time through a transposed buffer (Note [Rows
shorter than a vector], core/ops/cpu/softmax.cpp): every row length around the bound, row counts
around the block, infinities, against NumPy in float64."""
import numpy as np
import pytest

import opscope
import opscope.nn.functional as F


def np_softmax(x, log):
    m = x.max(axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        e = np.exp(x - m)
        s = e.sum(axis=-1, keepdims=True)
        return x - m - np.log(s) if log else e / s


def np_softmax_grad(g, y, log):
    if log:
        return g - np.exp(y) * g.sum(axis=-1, keepdims=True)
    return y * (g - (g * y).sum(axis=-1, keepdims=True))


TOL = {"float32": dict(rtol=2e-6, atol=2e-6), "float64": dict(rtol=1e-13, atol=1e-13)}


@pytest.mark.parametrize("log", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("rows", [1, 15, 16, 17, 100])
@pytest.mark.parametrize("n", [1, 2, 7, 10, 15, 16, 17])
def test_forward_and_backward_against_numpy(n, rows, dtype, log):
    rng = np.random.default_rng(n * 1000 + rows)
    x = (rng.standard_normal((rows, n)) * 3).astype(dtype)
    g = rng.standard_normal((rows, n)).astype(dtype)
    fn = F.log_softmax if log else F.softmax
    xt = opscope.from_numpy(x.copy()).requires_grad_()
    y = fn(xt, dim=-1)
    ref = np_softmax(x.astype(np.float64), log)
    np.testing.assert_allclose(y.detach().numpy(), ref, **TOL[dtype])
    y.backward(opscope.from_numpy(g.copy()))
    gref = np_softmax_grad(g.astype(np.float64), y.detach().numpy().astype(np.float64), log)
    np.testing.assert_allclose(xt.grad.numpy(), gref, **TOL[dtype])


@pytest.mark.parametrize("log", [False, True])
def test_infinities_as_the_row_kernel(log):
    x = np.array([[0.0, -np.inf, 1.0], [-np.inf, -np.inf, -np.inf], [np.inf, 0.0, 1.0],
                  [2.0, 2.0, 2.0]] * 5, dtype=np.float32)
    y = (F.log_softmax if log else F.softmax)(opscope.from_numpy(x), dim=1).numpy()
    np.testing.assert_allclose(y, np_softmax(x.astype(np.float64), log), rtol=2e-6, atol=2e-6)


def test_a_batch_of_short_rows_and_a_strided_input():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, 37, 10)).astype(np.float32)
    y = F.log_softmax(opscope.from_numpy(x), dim=-1).numpy()
    np.testing.assert_allclose(y, np_softmax(x.astype(np.float64), True), rtol=2e-6, atol=2e-6)
    xt = opscope.from_numpy(x.transpose(1, 0, 2).copy()).transpose(0, 1)  # not contiguous
    np.testing.assert_allclose(F.softmax(xt, dim=2).numpy(), np_softmax(x.astype(np.float64), False),
                               rtol=2e-6, atol=2e-6)
