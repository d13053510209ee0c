"""torch.cdist / torch.pdist / F.pdist (core/ops/cpu/distance.cpp, composite/distance.cpp):
against a NumPy reference for every kind of p (0, between 0 and 1, 1, between 1 and 2, 2, above 2,
inf), on batched, broadcast, non-contiguous, empty inputs, both compute modes, float32 / float64;
gradients against the formulas torch 1.13 uses (through gradcheck in test_autograd.py, and the
subgradient at zero distance here); torch's errors and the ops a trace shows.

    /usr/bin/python3 -m pytest -q tests/python/test_distance.py
"""
import itertools

import numpy as np
import pytest

import opscope
from conftest import to_numpy

PS = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, float("inf")]


def ref_dist(u, v, p):
    """||u - v||_p over the last axis (float64), u and v broadcast."""
    d = np.abs(u - v)
    if p == 0:
        return (d != 0).sum(-1).astype(np.float64)
    if np.isinf(p):
        return d.max(-1, initial=0.0)
    return (d ** p).sum(-1) ** (1 / p)


def ref_cdist(x1, x2, p):
    return ref_dist(x1[..., :, None, :], x2[..., None, :, :], p)


def ref_pdist(x, p):
    n = x.shape[0]
    return np.array([ref_dist(x[i], x[j], p) for i, j in itertools.combinations(range(n), 2)])


@pytest.mark.parametrize("p", PS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_cdist_against_numpy(p, dtype, rng):
    for s1, s2 in [((4, 3), (5, 3)), ((2, 4, 3), (2, 6, 3)), ((4, 3), (2, 5, 3)),
                   ((3, 1, 4, 2), (2, 3, 2)), ((1, 3), (1, 3)), ((30, 5), (28, 5))]:
        a = rng.standard_normal(s1)
        b = rng.standard_normal(s2)
        b.reshape(-1, s2[-1])[0] = a.reshape(-1, s1[-1])[0]  # a zero distance (batch 0, row 0)
        x1 = opscope.tensor(a).to(getattr(opscope, dtype))
        x2 = opscope.tensor(b).to(getattr(opscope, dtype))
        got = opscope.cdist(x1, x2, p=p)
        want = ref_cdist(to_numpy(x1).astype(np.float64), to_numpy(x2).astype(np.float64), p)
        assert got.dtype == x1.dtype and tuple(got.shape) == want.shape
        tol = 1e-5 if dtype == "float32" else 1e-12
        # p = 2 on more than 25 rows goes through one product: its rounding (cancellation near 0)
        atol = 2e-3 if (dtype == "float32" and p == 2 and s1[-2] > 25) else tol
        np.testing.assert_allclose(to_numpy(got), want, rtol=tol, atol=atol)


def test_cdist_compute_modes_and_layouts(rng):
    a, b = rng.standard_normal((2, 7, 4)), rng.standard_normal((2, 9, 4))
    want = ref_cdist(a, b, 2.0)
    x1, x2 = opscope.tensor(a), opscope.tensor(b)
    for mode in ["use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist",
                 "donot_use_mm_for_euclid_dist"]:
        np.testing.assert_allclose(to_numpy(opscope.cdist(x1, x2, compute_mode=mode)), want,
                                   rtol=1e-10, atol=1e-7)
    # non-contiguous operands: transposed and stepped views of the same values
    t1 = opscope.tensor(np.ascontiguousarray(a.swapaxes(-1, -2))).transpose(-1, -2)
    t2 = opscope.tensor(np.repeat(b, 2, axis=-1))[..., ::2]
    for p in (1.0, 2.0, 3.0):
        np.testing.assert_allclose(to_numpy(opscope.cdist(t1, t2, p=p)), ref_cdist(a, b, p), rtol=1e-12)
    with pytest.raises(ValueError, match="bad is not a valid value for compute_mode"):
        opscope.cdist(x1, x2, compute_mode="bad")


def test_cdist_empty_and_zero_columns():
    assert tuple(opscope.cdist(opscope.ones(0, 2), opscope.ones(3, 2)).shape) == (0, 3)
    assert tuple(opscope.cdist(opscope.ones(2, 4, 2), opscope.ones(2, 0, 2)).shape) == (2, 4, 0)
    assert opscope.cdist(opscope.ones(2, 0), opscope.ones(3, 0)).tolist() == [[0.0] * 3] * 2
    big = opscope.cdist(opscope.ones(30, 0), opscope.ones(3, 0))  # the product path's zeros
    assert tuple(big.shape) == (30, 3) and big.abs().sum().item() == 0


def test_cdist_errors_as_torch():
    f, d = opscope.ones(3, 2), opscope.ones(3, 2, dtype=opscope.float64)
    cases = [
        (lambda: opscope.cdist(opscope.ones(3), f), "cdist only supports at least 2D tensors, X1 got: 1D"),
        (lambda: opscope.cdist(f, opscope.ones(3)), "cdist only supports at least 2D tensors, X2 got: 1D"),
        (lambda: opscope.cdist(f, opscope.ones(3, 3)), "X1 and X2 must have the same number of columns. X1: 2 X2: 3"),
        (lambda: opscope.cdist(f.long(), f.long()), "cdist only supports floating-point dtypes, X1 got: Long"),
        (lambda: opscope.cdist(f, f, p=-1), "cdist only supports non-negative p values"),
        (lambda: opscope.cdist(opscope.ones(2, 3, 2), opscope.ones(3, 3, 2)),
         r"The size of tensor a \(2\) must match the size of tensor b \(3\) at non-singleton dimension 0"),
        (lambda: opscope.cdist(f, d), "expected scalar type Float but found Double"),
        (lambda: opscope.cdist(f, d, p=1), "expected scalar type Float but found Double"),
        (lambda: opscope.cdist(f, d, compute_mode="use_mm_for_euclid_dist"),
         "expected scalar type Float but found Double"),
        (lambda: opscope.cdist(f.half(), f.half()), "\"cdist\" not implemented for 'Half'"),
        (lambda: opscope.cdist(f.bfloat16(), f.bfloat16()), "\"cdist\" not implemented for 'BFloat16'"),
    ]
    for call, message in cases:
        with pytest.raises(RuntimeError, match=message):
            call()


@pytest.mark.parametrize("p", PS)
def test_pdist_against_numpy(p, rng):
    a = rng.standard_normal((6, 3))
    a[4] = a[1]  # a zero distance
    for x in (opscope.tensor(a), opscope.tensor(np.ascontiguousarray(a.T)).t()):
        got = opscope.pdist(x, p)
        np.testing.assert_allclose(to_numpy(got), ref_pdist(a, p), rtol=1e-12)
    np.testing.assert_allclose(to_numpy(opscope.nn.functional.pdist(opscope.tensor(a).float(), p)),
                               ref_pdist(a.astype(np.float32).astype(np.float64), p), rtol=1e-5)
    assert opscope.pdist(opscope.ones(1, 3)).shape == (0,)
    assert opscope.pdist(opscope.ones(0, 3)).shape == (0,)
    assert opscope.pdist(opscope.ones(3, 0)).tolist() == [0.0, 0.0, 0.0]


def test_pdist_errors_as_torch():
    cases = [
        (lambda: opscope.pdist(opscope.ones(3)), "pdist only supports 2D tensors, got: 1D"),
        (lambda: opscope.pdist(opscope.ones(3, 2), p=-1), "pdist only supports non-negative p values"),
        (lambda: opscope.pdist(opscope.ones(3, 2, dtype=opscope.int64)), "pdist only supports floating-point dtypes"),
        (lambda: opscope.pdist(opscope.ones(3, 2).bfloat16()), "\"pdist\" not implemented for 'BFloat16'"),
    ]
    for call, message in cases:
        with pytest.raises(RuntimeError, match=message):
            call()


@pytest.mark.parametrize("p", PS)
def test_gradients_at_zero_distance_are_torchs_subgradient(p):
    # Equal rows: torch's formulas give 0 (p = 1 and inf give sign(0) = 0 too)
    x = opscope.tensor([[1.0, 2.0], [1.0, 2.0]], dtype=opscope.float64, requires_grad=True)
    y = opscope.tensor([[1.0, 2.0]], dtype=opscope.float64, requires_grad=True)
    opscope.cdist(x, y, p=p).sum().backward()
    assert x.grad.tolist() == [[0.0, 0.0], [0.0, 0.0]] and y.grad.tolist() == [[0.0, 0.0]]
    z = opscope.tensor([[0.0, 1.0], [0.0, 1.0], [3.0, 1.0]], dtype=opscope.float64, requires_grad=True)
    opscope.pdist(z, p).sum().backward()
    # only the pairs with row 2 move: their difference is (+-3, 0)
    slope = 0.0 if p == 0 else 1.0
    np.testing.assert_allclose(to_numpy(z.grad), [[-slope, 0.0], [-slope, 0.0], [2 * slope, 0.0]],
                               rtol=1e-15, atol=0)


def test_nodes_and_trace_read_as_torch(rng):
    x1 = opscope.tensor(rng.standard_normal((3, 30, 4)), requires_grad=True)
    x2 = opscope.tensor(rng.standard_normal((30, 4)), requires_grad=True)
    small = opscope.cdist(x1[:, :5], x2[:6])
    assert small.grad_fn.name() == "CdistBackward0"
    assert sorted(k for k in dir(small.grad_fn) if k.startswith("_saved")) == \
        ["_saved_p", "_saved_result", "_saved_x1", "_saved_x2"]
    big = opscope.cdist(x1, x2)  # p = 2, more than 25 rows: one product
    assert big.grad_fn.name() == "ViewBackward0"
    assert big.grad_fn.next_functions[0][0].name() == "EuclideanDistBackward0"
    p = opscope.pdist(x2)
    assert p.grad_fn.name() == "PdistBackward0"
    assert sorted(k for k in dir(p.grad_fn) if k.startswith("_saved")) == ["_saved_p", "_saved_result", "_saved_self"]
    a, b = x1.detach(), x2.detach()
    with opscope.trace() as t:
        opscope.cdist(a, b)
    # torch 1.13's steps (its profiler): the batch expanded, one product, a view back
    assert [op.name for op in t.roots[0].children] == [
        "aten::expand", "aten::view", "aten::expand", "aten::contiguous", "aten::view",
        "aten::_euclidean_dist", "aten::view"]  # x2 (30, 4) broadcast to (3, 30, 4): a copy
    inner = [op.name for op in t.roots[0].walk() if op.name != "aten::_euclidean_dist"]
    assert "aten::bmm" in inner and inner[-3:] == ["aten::clamp_min_", "aten::sqrt_", "aten::view"]
    a5, b6, bt = a[:, :5], b[:6], b.t()
    with opscope.trace() as t:
        opscope.cdist(a5, b6, p=1)
        opscope.pdist(bt)
    assert [op.name for op in t.roots] == ["aten::cdist", "aten::pdist"]
    assert [op.name for op in t.roots[0].children] == ["aten::_cdist_forward"]
    assert [op.name for op in t.roots[1].children] == ["aten::contiguous", "aten::_pdist_forward"]
    with opscope.trace() as t:
        opscope.pdist(b)  # contiguous already: torch's Tensor::contiguous() runs no op
    assert [op.name for op in t.roots[0].children] == ["aten::_pdist_forward"]
