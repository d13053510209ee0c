"""The gradient layout contract (Note [Gradient layout contract], core/autograd/Node.cpp): a
leaf's .grad has the leaf's strides when the leaf is dense, else is contiguous; retain_grad's and
autograd.grad's layouts too. Each case of make_torch_reference_grad_layout.py runs here on opscope
and must show what torch 1.13 showed (tests/python/data/grad_layout_torch.json): sizes, strides,
is_contiguous(), whether .view(-1) works, grad_fn names.

    PYTHONPATH=core/python /usr/bin/python3 -m pytest -q tests/python/test_grad_layout.py
"""
import json
import os

import pytest

import opscope
from make_torch_reference_grad_layout import CASES, OUT, layout

with open(OUT) as f:
    EXPECTED = json.load(f)


@pytest.mark.parametrize("name", sorted(CASES))
def test_layout_as_torch(name):
    got = CASES[name](opscope)
    want = EXPECTED[name]
    diff = {k: (got.get(k), v) for k, v in want.items() if got.get(k) != v}
    assert not diff, f"{name}: (opscope, torch) differ: {diff}"


def test_recorded_every_case():
    assert sorted(EXPECTED) == sorted(CASES)


def test_linear_weight_grad_views_flat():
    """The issue's example: nn.Linear(784, 256)'s weight.grad is contiguous, so view(-1) works
    and the optimizer reads it along the grain."""
    lin = opscope.nn.Linear(784, 256)
    lin(opscope.randn(1, 784)).sum().backward()
    g = lin.weight.grad
    assert g.stride() == (784, 1) and g.is_contiguous()
    assert g.view(-1).shape == (256 * 784,)


def test_first_gradient_is_stolen_when_it_obeys():
    """A contiguous gradient nobody else holds becomes .grad without a copy: a hook that keeps
    a reference to it forces a copy instead (its memory is then not .grad's)."""
    x = opscope.randn(3, 4).requires_grad_()
    seen = []
    y = x * 1
    y.register_hook(lambda g: seen.append(g))
    (y * 2).sum().backward()
    # MulBackward's gradient for x is a fresh tensor: stolen (torch does the same).
    assert x.grad.is_contiguous() and x.grad.tolist() == [[2.0] * 4] * 3
    kept = opscope.ones(3, 4)
    z = opscope.randn(3, 4).requires_grad_()
    z.register_hook(lambda g: kept)
    (z * 2).sum().backward()
    assert z.grad.data_ptr() != kept.data_ptr()
    z.grad.add_(1)
    assert kept.sum().item() == 12.0


def test_accumulated_values_and_layout():
    """Three backwards into a transposed leaf: the sum is right and the layout stays the
    leaf's."""
    w = opscope.randn(5, 3).t().detach().requires_grad_()   # (3, 5), strides (1, 3)
    for k in range(3):
        (w * (k + 1)).sum().backward()
    assert w.grad.stride() == (1, 3)
    assert w.grad.tolist() == [[6.0] * 5] * 3


def test_optimizer_reads_contract_layout():
    """An SGD step on a channels-last-like parameter: grad, parameter and momentum buffer share
    one layout, and the step is right against NumPy."""
    import numpy as np
    base = np.random.RandomState(0).randn(2, 4, 5, 3).astype(np.float32)
    p = opscope.nn.Parameter(opscope.from_numpy(base.copy()).permute(0, 3, 1, 2))
    assert p.stride() == (60, 1, 15, 3)
    opt = opscope.optim.SGD([p], lr=0.5, momentum=0.9)
    (p * p).sum().backward()
    assert p.grad.stride() == p.stride()
    opt.step()
    buf = opt.state[p]["momentum_buffer"]
    assert buf.stride() == p.stride()
    want = base.transpose(0, 3, 1, 2) * (1 - 0.5 * 2)
    np.testing.assert_allclose(np.array(p.detach().tolist()), want, rtol=1e-6, atol=1e-6)


# --- elementwise ops with operands across the grain (Note [Tiles for operands across the
# grain], core/ops/TensorIteratorLoops.cpp): large 2-D spaces walk in tiles, inputs copied
# tile by tile; the results must be the plain walk's, on any sizes, dtypes and thread counts.

@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("shape", [(130, 257), (64, 256), (300, 71)])
def test_tiled_elementwise_against_numpy(shape, threads):
    import numpy as np
    old = opscope.get_num_threads()
    opscope.set_num_threads(threads)
    try:
        rng = np.random.RandomState(5)
        a = rng.randn(*shape)
        b = rng.randn(*shape[::-1])
        c = rng.randn(*shape[::-1])
        A32, B32 = opscope.tensor(a, dtype=opscope.float32), opscope.tensor(b, dtype=opscope.float32)
        A64, B64, C64 = opscope.tensor(a), opscope.tensor(b), opscope.tensor(c)
        f32 = lambda t: np.asarray(t.tolist(), dtype=np.float32)  # noqa: E731
        f64 = lambda t: np.asarray(t.tolist(), dtype=np.float64)  # noqa: E731
        np.testing.assert_array_equal(f32(A32 + B32.t()), a.astype(np.float32) + b.T.astype(np.float32))
        np.testing.assert_array_equal(f64(A64 * B64.t()), a * b.T)
        np.testing.assert_array_equal(f64(B64.t() - C64.t()), b.T - c.T)        # both across
        np.testing.assert_array_equal(f64(B64.t().contiguous()), b.T)             # copy_
        np.testing.assert_array_equal(f64(A32.double() + B32.t()),                # promoted
                                      a.astype(np.float32).astype(np.float64)
                                      + b.T.astype(np.float32).astype(np.float64))
        ints = opscope.tensor((b * 100).astype(np.int64))
        np.testing.assert_array_equal(np.asarray((ints.t() + 3).tolist()), (b * 100).astype(np.int64).T + 3)
        for dt in ("int32", "int16", "uint8"):  # the 4-, 2- and 1-byte tile copies
            want = (b * 100).astype(np.int64).astype(dt).T
            t = opscope.tensor((b * 100).astype(np.int64)).to(getattr(opscope, dt))
            np.testing.assert_array_equal(np.asarray((t.t() + t.t()).tolist()), want + want)
        w = opscope.where(A64 > 0, B64.t(), C64.t())
        np.testing.assert_array_equal(f64(w), np.where(a > 0, b.T, c.T))
        X = opscope.tensor(a)
        X.add_(B64.t(), alpha=0.5)
        np.testing.assert_allclose(f64(X), a + 0.5 * b.T, rtol=1e-15, atol=1e-15)
        out = opscope.empty(shape, dtype=opscope.float32)
        opscope.add(A64, B64.t(), out=out)                                         # cast on write
        np.testing.assert_allclose(f64(out), (a + b.T).astype(np.float32), rtol=1e-7)
        n = opscope.tensor(rng.randn(2, shape[1], 4, shape[0])).permute(0, 3, 2, 1)  # NHWC-like
        m = opscope.tensor(rng.randn(2, shape[0], 4, shape[1]))
        np.testing.assert_array_equal(f64(n + m), np.asarray(n.tolist()) + np.asarray(m.tolist()))
    finally:
        opscope.set_num_threads(old)
