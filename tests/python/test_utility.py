"""Tensor utilities against NumPy and torch 1.13's behaviour: equal, isclose, allclose, item(),
tolist(), numel() / nelement(), the dtype casts (float(), long(), ...), copy_ with broadcasting and
dtype conversion, clone.

    PYTHONPATH=core/python /usr/bin/python3 -m pytest -q tests/python/test_utility.py
"""
import numpy as np
import pytest

import opscope
from conftest import assert_close, to_numpy

NAN, INF = float("nan"), float("inf")


def T(a, dtype=None):
    t = opscope.from_numpy(np.array(a, order="C"))
    return t if dtype is None else t.to(dtype)


# --- equal ---------------------------------------------------------------------------------------
def test_equal():
    a = opscope.arange(6.0).view(2, 3)
    assert opscope.equal(a, a.clone()) and a.equal(a.clone())
    assert opscope.equal(a.t(), a.t().contiguous())  # strided against contiguous
    b = a.clone()
    b[1, 2] = 0.0
    assert not opscope.equal(a, b)
    assert not opscope.equal(opscope.tensor([NAN]), opscope.tensor([NAN]))  # nan != nan
    assert not opscope.equal(opscope.ones(2), opscope.ones(1))  # shapes differ: no broadcasting
    assert not opscope.equal(opscope.ones(()), opscope.ones(1))
    assert opscope.equal(opscope.ones(0), opscope.ones(0, dtype=opscope.int64))
    # compared in the common dtype, as torch 1.13
    assert opscope.equal(opscope.ones(2), opscope.ones(2, dtype=opscope.int64))
    assert opscope.equal(opscope.tensor([True]), opscope.tensor([1]))
    assert not opscope.equal(opscope.tensor([0.1], dtype=opscope.float64), opscope.tensor([0.1]))
    for dtype in [opscope.float16, opscope.bfloat16, opscope.int8, opscope.uint8, opscope.bool]:
        x = opscope.ones(3, 4, dtype=dtype)
        assert opscope.equal(x, x.clone())
    big = opscope.rand(1000, 1000)
    c = big.clone()
    assert opscope.equal(big, c)
    c[999, 999] += 1
    assert not opscope.equal(big, c)


# --- isclose / allclose --------------------------------------------------------------------------
def np_isclose(a, b, rtol, atol, equal_nan):
    return np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)


@pytest.mark.parametrize("equal_nan", [False, True])
@pytest.mark.parametrize("dtype", [opscope.float32, opscope.float64])
def test_isclose_against_numpy(rng, equal_nan, dtype):
    a = rng.standard_normal((5, 6))
    b = a + rng.standard_normal((5, 6)) * 1e-5
    b[0, :3] = a[0, :3] + 1
    a[1, 0], b[1, 0] = NAN, NAN
    a[1, 1], b[1, 1] = INF, INF
    a[1, 2], b[1, 2] = INF, -INF
    a[1, 3], b[1, 3] = NAN, 1.0
    at, bt = T(a, dtype), T(b, dtype)
    an, bn = to_numpy(at).astype(np.float64), to_numpy(bt).astype(np.float64)
    for rtol, atol in [(1e-5, 1e-8), (1e-3, 0.0), (0.0, 1e-4), (0.0, 0.0)]:
        got = opscope.isclose(at, bt, rtol=rtol, atol=atol, equal_nan=equal_nan)
        assert got.dtype == opscope.bool
        assert_close(got, np_isclose(an, bn, rtol, atol, equal_nan), what=f"isclose {rtol} {atol}", family="utility")
        assert opscope.allclose(at, bt, rtol, atol, equal_nan) == bool(np_isclose(an, bn, rtol, atol, equal_nan).all())


def test_isclose_broadcast_integers_and_bools():
    got = opscope.isclose(opscope.tensor([1, 2, 5]), opscope.tensor([1, 3, 3]), atol=1)
    assert to_numpy(got).tolist() == [True, True, False]
    got = opscope.isclose(opscope.tensor([[1.0], [2.0]]), opscope.tensor([1.0, 2.0, 3.0]))
    assert got.shape == (2, 3)
    got = opscope.isclose(opscope.tensor([True, False]), opscope.tensor([False, False]))
    assert to_numpy(got).tolist() == [False, True]
    assert opscope.allclose(opscope.ones(3), opscope.ones(2, 3))
    assert opscope.ones(3).allclose(opscope.ones(3) + 1e-7)
    assert not opscope.ones(3).allclose(opscope.ones(3) + 1e-3)
    assert opscope.allclose(opscope.ones(3, dtype=opscope.int64), opscope.ones(3, dtype=opscope.int64))
    assert opscope.allclose(opscope.ones(0), opscope.ones(0))


def test_isclose_errors():
    with pytest.raises(RuntimeError, match="Float did not match Double"):
        opscope.isclose(opscope.ones(3), opscope.ones(3, dtype=opscope.float64))
    with pytest.raises(RuntimeError, match="rtol must be greater than or equal to zero, but got -1"):
        opscope.isclose(opscope.ones(1), opscope.ones(1), rtol=-1)
    with pytest.raises(RuntimeError, match="atol must be greater than or equal to zero, but got -1"):
        opscope.allclose(opscope.ones(1), opscope.ones(1), atol=-1)


# --- item, tolist, numel -------------------------------------------------------------------------
def test_item_returns_python_scalars_of_the_right_kind():
    cases = [(opscope.tensor([3]), 3, int), (opscope.tensor(True), True, bool), (opscope.tensor(2.5), 2.5, float),
             (opscope.tensor(200, dtype=opscope.uint8), 200, int), (opscope.tensor(-3, dtype=opscope.int8), -3, int),
             (opscope.tensor(1.5, dtype=opscope.float16), 1.5, float),
             (opscope.tensor(1.1, dtype=opscope.bfloat16), 1.1015625, float),
             (opscope.tensor([[7.0]], dtype=opscope.float64), 7.0, float)]
    for t, value, kind in cases:
        got = t.item()
        assert type(got) is kind and got == value, (t, got)
    with pytest.raises(ValueError, match="only one element tensors can be converted to Python scalars"):
        opscope.ones(2).item()
    with pytest.raises(ValueError, match="only one element tensors can be converted to Python scalars"):
        opscope.ones(0).item()


def test_item_ops_for_cpp_callers():
    item, dense = opscope.ops.aten.item.default, opscope.ops.aten._local_scalar_dense.default
    assert item(opscope.tensor([3])) == 3 and type(item(opscope.tensor([3]))) is int
    assert item(opscope.tensor(True)) is True
    assert dense(opscope.tensor(2.5, dtype=opscope.bfloat16)) == 2.5
    assert item(opscope.arange(6.0).view(2, 3)[1:, 2:]) == 5.0  # a strided one-element view
    with pytest.raises(RuntimeError, match="a Tensor with 2 elements cannot be converted to Scalar"):
        item(opscope.ones(2))


def test_tolist(rng):
    a = rng.standard_normal((2, 3, 4))
    assert T(a).tolist() == a.tolist()
    assert T(a).permute(2, 0, 1).tolist() == a.transpose(2, 0, 1).tolist()
    assert opscope.tensor(2.5).tolist() == 2.5
    assert opscope.ones(2, 0).tolist() == [[], []]
    ints = opscope.arange(6).view(2, 3).t().tolist()
    assert ints == [[0, 3], [1, 4], [2, 5]] and type(ints[0][0]) is int
    bools = opscope.tensor([True, False]).tolist()
    assert bools == [True, False] and type(bools[0]) is bool
    assert opscope.tensor([1.1], dtype=opscope.bfloat16).tolist() == [1.1015625]


def test_numel_and_nelement():
    t = opscope.ones(2, 3, 4)
    assert t.numel() == t.nelement() == opscope.numel(t) == 24
    assert opscope.ones(()).numel() == 1 and opscope.ones(3, 0).numel() == 0
    assert t[:, 1:].numel() == 16


# --- casts, copy_, clone -------------------------------------------------------------------------
def test_dtype_casts():
    x = opscope.tensor([1.7, -1.7, 300.0, 0.0])
    expected = {"float": (opscope.float32, [1.7, -1.7, 300.0, 0.0]),
                "double": (opscope.float64, [1.7, -1.7, 300.0, 0.0]),
                "long": (opscope.int64, [1, -1, 300, 0]), "int": (opscope.int32, [1, -1, 300, 0]),
                "short": (opscope.int16, [1, -1, 300, 0]), "bool": (opscope.bool, [True, True, True, False])}
    for name, (dtype, values) in expected.items():
        y = getattr(x, name)()
        assert y.dtype == dtype, name
        assert_close(y, np.array(values, dtype=to_numpy(y).dtype), rtol=1e-6, what=name, family="utility")
    assert x.half().dtype == opscope.float16 and x.bfloat16().dtype == opscope.bfloat16
    assert opscope.tensor([300]).byte().tolist() == [44]  # wraps like torch
    assert opscope.tensor([200]).char().tolist() == [-56]
    assert x.float() is x  # no copy when the dtype matches, as torch


def test_copy_broadcasts_and_converts(rng):
    dst = opscope.zeros(2, 3)
    out = dst.copy_(opscope.tensor([1, 2, 3]))
    assert out is dst and dst.tolist() == [[1.0, 2.0, 3.0]] * 2
    ints = opscope.zeros(3, dtype=opscope.int32).copy_(opscope.tensor([1.7, -1.7, 2.5]))
    assert ints.tolist() == [1, -1, 2]
    a = rng.standard_normal((4, 5))
    dst = opscope.zeros(5, 4)
    dst.copy_(T(a).t())
    assert_close(dst, a.T, what="copy_ transposed", family="utility")
    view = opscope.zeros(4, 6)[:, ::2]
    view.copy_(T(a[:, :3], opscope.float64))
    assert_close(view, a[:, :3].astype(np.float32), what="copy_ into a strided view", family="utility")
    with pytest.raises(RuntimeError, match=r"The size of tensor a \(3\) must match the size of tensor b \(2\) at "
                                           r"non-singleton dimension 1"):
        opscope.zeros(2, 3).copy_(opscope.ones(2))


def test_clone_is_a_deep_copy_with_the_same_layout(rng):
    a = T(rng.standard_normal((3, 2))).t()
    c = a.clone()
    assert c.stride() == (1, 2) and c.data_ptr() != a.data_ptr()
    assert_close(c, to_numpy(a), what="clone", family="utility")
    c[0, 0] = 100.0
    assert a[0, 0].item() != 100.0
    assert a.clone(memory_format=opscope.contiguous_format).is_contiguous()
