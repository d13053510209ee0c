"""Tensor methods torch code calls that opscope lacked: adjoint, the complex-conjugate family on
real tensors (conj, resolve_conj, resolve_neg, conj_physical, real, is_conj, is_neg, isreal),
fill_diagonal_, inner and dist (core/ops/views.cpp, compare.cpp, copy.cpp, linear.cpp,
linalg.cpp; composites in core/ops/composite/). Against NumPy, with torch 1.13's results, ops,
nodes and messages.

    /usr/bin/python3 -m pytest -q tests/python/test_tensor_extras.py
"""
import numpy as np
import pytest

import opscope
from conftest import to_numpy


def test_adjoint_and_the_conjugate_family_on_real_tensors(rng):
    x = opscope.tensor(rng.standard_normal((2, 3, 4)))
    np.testing.assert_array_equal(to_numpy(x.adjoint()), to_numpy(x).swapaxes(-1, -2))
    np.testing.assert_array_equal(to_numpy(opscope.adjoint(x)), to_numpy(x).swapaxes(-1, -2))
    with pytest.raises(RuntimeError, match=r"tensor.adjoint\(\) is only supported on matrices or "
                                           r"batches of matrices. Got 1-D tensor."):
        opscope.ones(3).adjoint()
    # torch returns the tensor itself for a real one (no op, no copy)
    for t in (x, x.long(), x.bool()):
        assert t.conj() is t and t.resolve_conj() is t and t.resolve_neg() is t
        assert t.conj_physical() is t and opscope.real(t) is t and opscope.conj(t) is t
        assert t.is_conj() is False and t.is_neg() is False
        r = opscope.isreal(t)
        assert r.dtype == opscope.bool and tuple(r.shape) == tuple(t.shape) and bool(r.all())
    with opscope.trace() as t:
        x.conj()
        x.isreal()
    assert [op.name for op in t.roots] == ["aten::conj", "aten::isreal"]
    assert [op.name for op in t.roots[0].children] == []
    assert [op.name for op in t.roots[1].children] == ["aten::ones_like"]


@pytest.mark.parametrize("shape", [(3, 3), (5, 2), (2, 5), (3, 3, 3), (7, 3), (4, 4, 4, 4)])
@pytest.mark.parametrize("wrap", [False, True])
def test_fill_diagonal_(shape, wrap):
    got = opscope.zeros(shape).fill_diagonal_(5.0, wrap=wrap)
    want = np.zeros(shape)
    np.fill_diagonal(want, 5.0, wrap=wrap)  # NumPy's rule is torch's (wrap: tall matrices only)
    np.testing.assert_array_equal(to_numpy(got), want)


def test_fill_diagonal_on_views_and_its_errors():
    base = opscope.zeros(4, 6)
    t = base.t()  # non-contiguous: the diagonal of the transposed view
    assert t.fill_diagonal_(1.0) is t
    np.testing.assert_array_equal(to_numpy(base), np.eye(4, 6))
    ints = opscope.zeros(2, 2, dtype=opscope.int64).fill_diagonal_(1.5)  # converted as torch
    assert ints.tolist() == [[1, 0], [0, 1]]
    with pytest.raises(RuntimeError, match="dimensions must larger than 1"):
        opscope.zeros(3).fill_diagonal_(1)
    with pytest.raises(RuntimeError, match="all dimensions of input must be of equal length"):
        opscope.zeros(3, 3, 4).fill_diagonal_(1)
    x = opscope.ones(3, 3, requires_grad=True)
    y = (x * 2).fill_diagonal_(0.0)
    y.sum().backward()
    np.testing.assert_array_equal(to_numpy(x.grad), 2 * (1 - np.eye(3)))
    z = opscope.zeros(7, 3)
    with opscope.trace() as tr:
        z.fill_diagonal_(1.0, wrap=True)
    assert [op.name for op in tr.roots[0].children] == [
        "aten::as_strided", "aten::fill_.Scalar", "aten::as_strided", "aten::fill_.Scalar"]


def test_inner(rng):
    a, b = rng.standard_normal((2, 3, 4)), rng.standard_normal((5, 4))
    got = opscope.inner(opscope.tensor(a), opscope.tensor(b))
    np.testing.assert_allclose(to_numpy(got), np.inner(a, b), rtol=1e-12)
    np.testing.assert_allclose(opscope.tensor(a[0, 0]).inner(opscope.tensor(b[0])).item(),
                               np.inner(a[0, 0], b[0]), rtol=1e-12)
    s = opscope.inner(opscope.tensor(2.0), opscope.tensor(b))  # a 0-d operand multiplies
    np.testing.assert_allclose(to_numpy(s), 2 * b)
    out = opscope.empty(0, dtype=opscope.float64)
    assert opscope.inner(opscope.tensor(a), opscope.tensor(b), out=out) is out
    np.testing.assert_allclose(to_numpy(out), np.inner(a, b), rtol=1e-12)
    with pytest.raises(RuntimeError, match=r"inner\(\) the last dimension must match on both input "
                                           r"tensors but got shapes \[5, 4\] and \[3\]"):
        opscope.inner(opscope.tensor(b), opscope.ones(3, dtype=opscope.float64))
    u = opscope.ones(3)
    with opscope.trace() as t:
        opscope.inner(u, u)
    assert [op.name for op in t.roots[0].children] == ["aten::tensordot"]


@pytest.mark.parametrize("p", [0, 0.5, 1, 2, 3, float("inf")])
def test_dist(p, rng):
    a, b = rng.standard_normal((3, 4)), rng.standard_normal(4)
    b[1] = a[0, 1]  # one zero difference
    got = opscope.dist(opscope.tensor(a), opscope.tensor(b), p)
    d = np.abs(a - b).ravel()
    want = (d != 0).sum() if p == 0 else d.max() if p == float("inf") else (d ** p).sum() ** (1 / p)
    np.testing.assert_allclose(got.item(), want, rtol=1e-12)
    assert got.dim() == 0
    assert got.grad_fn is None
    x = opscope.tensor(a, requires_grad=True)
    r = x.dist(opscope.tensor(b), p)
    assert r.grad_fn.name() == "DistBackward0"
    assert sorted(k for k in dir(r.grad_fn) if k.startswith("_saved")) == \
        ["_saved_other", "_saved_p", "_saved_result", "_saved_self"]


def test_dist_dtypes_and_errors():
    f32 = opscope.tensor([1.0, -5.0])
    assert opscope.dist(f32, opscope.zeros(2, dtype=opscope.float64)).dtype == opscope.float64
    with pytest.raises(RuntimeError, match="norm\\(\\): input dtype should be either floating point "
                                           "or complex. Got Long instead."):
        opscope.dist(opscope.ones(3, dtype=opscope.int64), opscope.zeros(3, dtype=opscope.int64))
    with opscope.trace() as t:
        opscope.dist(f32, f32)
    assert [op.name for op in t.roots[0].children] == ["aten::sub.Tensor", "aten::norm.Scalar"]
