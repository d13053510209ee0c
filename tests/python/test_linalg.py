"""opscope.linalg and the classic spellings (core/ops/linalg.h), on LAPACK from OpenBLAS.

- recorded torch 1.13 outcomes (data/linalg_torch.json, cases in linalg_cases.py): values,
  errors (type and message), strides, named results, autograd node names;
- NumPy (np.linalg) on random shapes, batched, non-contiguous and empty inputs, float32 and
  float64, reporting the largest difference; sign- and gauge-free checks for the factorizations
  (reconstruction, orthogonality, triangularity);
- gradcheck (float64 finite differences) for every differentiable op;
- the op chains a trace shows, and the LAPACK routine a trace's stack ends in.

    /usr/bin/python3 -m pytest -q tests/python/test_linalg.py
"""
import json
import os
import warnings

import numpy as np
import pytest

import opscope
import opscope.linalg as LA
from conftest import record_dispatch
from linalg_cases import env
from opscope.autograd import gradcheck
from reference_cases import case_params, mismatch, outcome

with open(os.path.join(os.path.dirname(__file__), "data", "linalg_torch.json")) as _f:
    REFERENCE = json.load(_f)

# Differences outside this family, each a strict xfail with the reason.
KNOWN_DIFFERENCES = {
    "m.linalg.matrix_power(gr(G), 0).grad_fn.name()":
        "copy_'s node prints as CopyBackwards; torch's name() says torch::autograd::CopyBackwards "
        "(core/autograd/derivatives/copy.cpp)",
}


@pytest.mark.parametrize("case", case_params(REFERENCE["cases"], KNOWN_DIFFERENCES))
def test_recorded_torch_outcome(case):
    expected = {k: v for k, v in case.items() if k != "expr"}
    actual = outcome(case["expr"], opscope, **env(opscope))
    why = mismatch(expected, actual)
    assert why is None, f"{case['expr']}\n   {why}"


@pytest.mark.parametrize("case", REFERENCE["warnings"], ids=[c["expr"] for c in REFERENCE["warnings"]])
def test_deprecation_warnings_as_torch(case):
    LA._warned.clear()  # the warnings are once per process, as torch's TORCH_WARN_ONCE
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        eval(case["expr"], {"m": opscope})  # noqa: S307 - our own cases
    ours = [str(w.message) for w in caught]
    assert len(ours) == len(case["warnings"])
    for mine, torch_message in zip(ours, case["warnings"]):
        # torch appends " (Triggered internally at <its C++ source>)".
        assert torch_message.startswith(mine)
    with warnings.catch_warnings(record=True) as again:
        warnings.simplefilter("always")
        eval(case["expr"], {"m": opscope})  # noqa: S307
    assert not again


# --- against NumPy -----------------------------------------------------------------------------

DTYPES = [opscope.float32, opscope.float64]
TOL = {opscope.float32: 2e-4, opscope.float64: 1e-10}
SHAPES = [(1, 1), (3, 3), (5, 5), (2, 4, 4), (2, 3, 2, 2)]


def well_conditioned(rng, shape, dtype, noncontiguous=False):
    """Random matrices with a dominant diagonal (condition numbers near 1), maybe transposed."""
    n = shape[-1]
    a = rng.standard_normal(shape) / np.sqrt(n) + 2 * np.eye(n)
    t = opscope.tensor(a, dtype=dtype)
    if noncontiguous:  # the same values, read through transposed strides
        t = opscope.tensor(np.swapaxes(a, -1, -2).copy(), dtype=dtype).transpose(-2, -1)
        assert n == 1 or not t.is_contiguous()
    return t


def spd(rng, shape, dtype):
    n = shape[-1]
    a = rng.standard_normal(shape)
    return opscope.tensor(a @ np.swapaxes(a, -1, -2) + n * np.eye(n), dtype=dtype)


def check(actual, expected, dtype, scale=1.0):
    """Asserts closeness and returns the largest difference (printed by the caller on failure)."""
    actual = actual.detach().numpy().astype(np.float64)
    expected = np.asarray(expected, dtype=np.float64)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    diff = float(np.max(np.abs(actual - expected))) if actual.size else 0.0
    assert diff <= TOL[dtype] * max(scale, 1.0), f"maxdiff {diff:.3g}"
    return diff


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("noncontiguous", [False, True])
def test_inv_det_slogdet_solve_against_numpy(rng, shape, dtype, noncontiguous):
    a = well_conditioned(rng, shape, dtype, noncontiguous)
    x = a.numpy().astype(np.float64)
    check(LA.inv(a), np.linalg.inv(x), dtype)
    check(opscope.inverse(a), np.linalg.inv(x), dtype)
    check(LA.det(a), np.linalg.det(x), dtype, scale=float(np.max(np.abs(np.linalg.det(x)))))
    sign, logabs = LA.slogdet(a)
    ns, nl = np.linalg.slogdet(x)
    check(sign, ns, dtype)
    check(logabs, nl, dtype)
    b = opscope.tensor(rng.standard_normal(shape[:-1] + (2,)), dtype=dtype)
    check(LA.solve(a, b), np.linalg.solve(x, b.numpy().astype(np.float64)), dtype)
    v = opscope.tensor(rng.standard_normal(shape[:-1]), dtype=dtype)
    check(LA.solve(a, v), np.linalg.solve(x, v.numpy().astype(np.float64)[..., None])[..., 0], dtype)
    bt = b.transpose(-2, -1)
    expected = np.swapaxes(np.linalg.solve(np.swapaxes(x, -1, -2), b.numpy().astype(np.float64)), -1, -2)
    check(LA.solve(a, bt, left=False), expected, dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("upper", [True, False])
@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("unit", [True, False])
def test_solve_triangular_against_numpy(rng, dtype, upper, left, unit):
    a = well_conditioned(rng, (2, 4, 4), dtype, noncontiguous=True)
    x = a.numpy().astype(np.float64)
    tri = np.triu(x) if upper else np.tril(x)
    if unit:
        tri = tri - np.diagonal(tri, axis1=-2, axis2=-1)[..., None, :] * np.eye(4) + np.eye(4)
    b = rng.standard_normal((4, 3) if left else (3, 4))
    got = LA.solve_triangular(a, opscope.tensor(b, dtype=dtype), upper=upper, left=left, unitriangular=unit)
    bb = np.broadcast_to(b if left else b.T, (2, 4, 3))
    solved = np.linalg.solve(tri if left else np.swapaxes(tri, -1, -2), bb)
    expected = solved if left else np.swapaxes(solved, -1, -2)
    check(got, expected, dtype, scale=10.0)


def test_solve_broadcasts_batch_dims(rng):
    a = well_conditioned(rng, (3, 1, 4, 4), opscope.float64)
    b = opscope.tensor(rng.standard_normal((2, 4, 5)))
    x = LA.solve(a, b)
    assert x.shape == (3, 2, 4, 5)
    expected = np.linalg.solve(np.broadcast_to(a.numpy(), (3, 2, 4, 4)), np.broadcast_to(b.numpy(), (3, 2, 4, 5)))
    check(x, expected, opscope.float64)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_cholesky_against_numpy(rng, shape, dtype):
    a = spd(rng, shape, dtype)
    x = a.numpy().astype(np.float64)
    L = np.linalg.cholesky(x)
    scale = float(np.max(np.abs(L)))
    check(LA.cholesky(a), L, dtype, scale)
    check(LA.cholesky(a, upper=True), np.swapaxes(L, -1, -2), dtype, scale)
    l_ex, info = LA.cholesky_ex(a)
    check(l_ex, L, dtype, scale)
    assert info.dtype == opscope.int32 and info.shape == shape[:-2] and not info.numpy().any()


def assert_orthonormal_columns(q, dtype):
    q = q.numpy().astype(np.float64)
    eye = np.broadcast_to(np.eye(q.shape[-1]), q.shape[:-2] + (q.shape[-1],) * 2)
    assert np.max(np.abs(np.swapaxes(q, -1, -2) @ q - eye), initial=0.0) <= 10 * TOL[dtype]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape", [(3, 3), (5, 3), (3, 5), (2, 4, 2), (2, 2, 3), (0, 3), (3, 0), (2, 0, 0)], ids=str)
@pytest.mark.parametrize("mode", ["reduced", "complete", "r"])
def test_qr_reconstructs_with_orthonormal_q(rng, shape, dtype, mode):
    a = opscope.tensor(rng.standard_normal(shape), dtype=dtype)
    q, r = LA.qr(a, mode=mode)
    m, n = shape[-2:]
    k = min(m, n)
    rows = m if mode == "complete" else k
    assert r.shape == shape[:-2] + (rows, n)
    assert np.all(np.triu(r.numpy()) == r.numpy())
    # R agrees with NumPy's up to the sign of each row (the Householder convention is shared).
    nr = np.linalg.qr(a.numpy().astype(np.float64), mode="r" if mode == "r" else mode)
    nr = nr if mode == "r" else nr[1]
    assert np.allclose(np.abs(r.numpy()), np.abs(nr), atol=10 * TOL[dtype])
    if mode == "r":
        assert q.shape == (0,)
        return
    assert q.shape == shape[:-2] + (m, m if mode == "complete" else k)
    assert_orthonormal_columns(q, dtype)
    check(q @ r, a.numpy(), dtype, scale=3.0)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape", [(1, 1), (4, 4), (2, 5, 5), (0, 0), (2, 0, 0)], ids=str)
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_eigh_against_numpy(rng, shape, dtype, uplo):
    x = rng.standard_normal(shape)
    a = opscope.tensor(x, dtype=dtype)
    w, v = LA.eigh(a, UPLO=uplo)
    nw = np.linalg.eigvalsh(x.astype(np.float32).astype(np.float64) if dtype == opscope.float32 else x, UPLO=uplo)
    scale = float(np.max(np.abs(nw), initial=1.0))
    check(w, nw, dtype, scale)
    check(LA.eigvalsh(a, uplo), nw, dtype, scale)
    assert_orthonormal_columns(v, dtype)
    # A V = V diag(w) for the triangle read, made symmetric
    tri = np.tril(x) if uplo == "L" else np.triu(x)
    sym = tri + np.swapaxes(tri, -1, -2) - np.eye(shape[-1]) * np.diagonal(x, axis1=-2, axis2=-1)[..., None, :]
    vv = v.numpy().astype(np.float64)
    check(opscope.tensor(sym @ vv), vv * w.numpy()[..., None, :], dtype, scale)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape", [(3, 3), (5, 3), (3, 5), (2, 4, 3), (1, 2, 6), (0, 3), (3, 0)], ids=str)
@pytest.mark.parametrize("full_matrices", [True, False])
def test_svd_against_numpy(rng, shape, dtype, full_matrices):
    x = rng.standard_normal(shape)
    a = opscope.tensor(x, dtype=dtype)
    u, s, vh = LA.svd(a, full_matrices=full_matrices)
    m, n = shape[-2:]
    k = min(m, n)
    assert u.shape == shape[:-2] + (m, m if full_matrices else k)
    assert vh.shape == shape[:-2] + (n if full_matrices else k, n)
    check(s, np.linalg.svd(x, compute_uv=False), dtype, scale=3.0)
    check(LA.svdvals(a), np.linalg.svd(x, compute_uv=False), dtype, scale=3.0)
    assert_orthonormal_columns(u, dtype)
    assert_orthonormal_columns(vh.transpose(-2, -1), dtype)
    uk, vk = u[..., :k], vh[..., :k, :]
    check((uk * s.unsqueeze(-2)) @ vk, x, dtype, scale=3.0)
    # torch.svd: V (not Vh), reduced unless some=False
    U, S, V = opscope.svd(a)
    check((U * S.unsqueeze(-2)) @ V.transpose(-2, -1), x, dtype, scale=3.0)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_norms_against_numpy(rng, dtype):
    x = rng.standard_normal((2, 3, 4))
    a = opscope.tensor(x, dtype=dtype)
    for ord in ["fro", "nuc", 1, -1, 2, -2, float("inf"), -float("inf")]:
        for dim in [(1, 2), (2, 1), (0, 2)]:
            for keepdim in [False, True]:
                got = LA.matrix_norm(a, ord, dim=dim, keepdim=keepdim)
                check(got, np.linalg.norm(x, ord, axis=dim, keepdims=keepdim), dtype, scale=10.0)
        check(LA.norm(a[0], ord), np.linalg.norm(x[0], ord), dtype, scale=10.0)
    for ord in [1, 2, 3.5, float("inf"), -float("inf"), 0]:
        check(LA.norm(a, ord, dim=1), np.linalg.norm(x, ord, axis=1), dtype, scale=10.0)
    check(LA.norm(a), np.linalg.norm(x.ravel()), dtype, scale=10.0)
    check(opscope.norm(a[0], "nuc"), np.linalg.norm(x[0], "nuc"), dtype, scale=10.0)
    check(a[0].norm(p="nuc"), np.linalg.norm(x[0], "nuc"), dtype, scale=10.0)


@pytest.mark.parametrize("dtype", [opscope.float32, opscope.float64, opscope.int64], ids=str)
def test_cross_against_numpy(rng, dtype):
    x = rng.integers(-5, 5, (4, 3, 2)) if dtype == opscope.int64 else rng.standard_normal((4, 3, 2))
    y = rng.integers(-5, 5, (1, 3, 2)) if dtype == opscope.int64 else rng.standard_normal((1, 3, 2))
    a, b = opscope.tensor(x, dtype=dtype), opscope.tensor(y, dtype=dtype)
    expected = np.cross(x, y, axis=1)
    got = LA.cross(a, b, dim=1)
    assert got.dtype == dtype
    assert np.allclose(got.numpy(), expected, atol=1e-5)
    assert np.allclose(opscope.cross(a, b).numpy(), expected, atol=1e-5)  # the first dim of size 3
    at = opscope.tensor(np.swapaxes(x, 0, 2).copy(), dtype=dtype).transpose(0, 2)
    assert np.allclose(at.cross(b, dim=1).numpy(), expected, atol=1e-5)


@pytest.mark.parametrize("n", [-3, -1, 0, 1, 2, 3, 4, 7])
def test_matrix_power_against_numpy(rng, n):
    a = well_conditioned(rng, (2, 3, 3), opscope.float64)
    check(LA.matrix_power(a, n), np.linalg.matrix_power(a.numpy(), n), opscope.float64, scale=100.0)
    check(a.matrix_power(n), np.linalg.matrix_power(a.numpy(), n), opscope.float64, scale=100.0)


@pytest.mark.parametrize("shape", [(4, 3), (3, 4), (2, 3, 3)], ids=str)
def test_pinv_and_matrix_rank_against_numpy(rng, shape):
    x = rng.standard_normal(shape)
    x[..., -1] = x[..., 0]  # rank-deficient
    a = opscope.tensor(x)
    check(LA.pinv(a), np.linalg.pinv(x), opscope.float64, scale=10.0)
    assert LA.matrix_rank(a).tolist() == np.linalg.matrix_rank(x).tolist()
    sym = x[..., :3, :3] + np.swapaxes(x[..., :3, :3], -1, -2)
    check(LA.pinv(opscope.tensor(sym), hermitian=True), np.linalg.pinv(sym, hermitian=True), opscope.float64,
          scale=100.0)


@pytest.mark.parametrize("driver", ["gels", "gelsy", "gelsd", "gelss"])
@pytest.mark.parametrize("shapes", [((5, 3), (5, 2)), ((3, 5), (3, 2)), ((2, 6, 4), (1, 6, 3)), ((4, 4), (4,))], ids=str)
def test_lstsq_against_numpy(rng, driver, shapes):
    a_shape, b_shape = shapes
    x, y = rng.standard_normal(a_shape), rng.standard_normal(b_shape)
    sol, res, rank, sv = LA.lstsq(opscope.tensor(x), opscope.tensor(y), driver=driver)
    vector = y.ndim == x.ndim - 1
    y2 = y[..., None] if vector else y
    batch = np.broadcast_shapes(x.shape[:-2], y2.shape[:-2])
    xs = np.broadcast_to(x, batch + x.shape[-2:]).reshape(-1, *x.shape[-2:])
    ys = np.broadcast_to(y2, batch + y2.shape[-2:]).reshape(-1, *y2.shape[-2:])
    expected = np.stack([np.linalg.lstsq(xi, yi, rcond=None)[0] for xi, yi in zip(xs, ys)])
    expected = expected.reshape(batch + expected.shape[-2:])
    check(sol, expected[..., 0] if vector else expected, opscope.float64, scale=10.0)
    m, n = x.shape[-2:]
    if driver != "gels":
        assert rank.tolist() == np.broadcast_to(np.linalg.matrix_rank(x), rank.shape).tolist()
    if driver in ("gelsd", "gelss"):
        check(sv, np.linalg.svd(x, compute_uv=False), opscope.float64, scale=10.0)
    if m > n and driver != "gelsy":
        resid = ((x @ sol.numpy() - y2) ** 2).sum(-2)
        check(res, resid, opscope.float64, scale=10.0)
    else:
        assert res.shape == (0,)


def test_multi_dot_against_numpy(rng):
    mats = [rng.standard_normal(s) for s in [(5,), (5, 2), (2, 7), (7, 3), (3,)]]
    got = LA.multi_dot([opscope.tensor(m) for m in mats])
    check(got, np.linalg.multi_dot(mats), opscope.float64, scale=10.0)


def test_empty_batches_and_matrices():
    assert LA.inv(opscope.zeros(0, 3, 3)).shape == (0, 3, 3)
    assert LA.det(opscope.zeros(0, 3, 3)).shape == (0,)
    assert LA.det(opscope.zeros(2, 0, 0)).tolist() == [1.0, 1.0]
    assert LA.cholesky(opscope.zeros(0, 2, 2)).shape == (0, 2, 2)
    w, v = LA.eigh(opscope.zeros(3, 0, 0))
    assert w.shape == (3, 0) and v.shape == (3, 0, 0)
    u, s, vh = LA.svd(opscope.zeros(0, 2, 3))
    assert (u.shape, s.shape, vh.shape) == ((0, 2, 2), (0, 2), (0, 3, 3))
    assert LA.solve(opscope.zeros(0, 2, 2), opscope.zeros(0, 2)).shape == (0, 2)


def test_singular_inputs_report_in_info():
    sing = opscope.tensor([[1., 2.], [2., 4.]])
    inverse, info = LA.inv_ex(opscope.stack([opscope.eye(2), sing]))
    assert info.tolist() == [0, 2]
    assert inverse[0].tolist() == [[1.0, 0.0], [0.0, 1.0]]
    with pytest.raises(RuntimeError, match=r"linalg.inv: \(Batch element 1\): The diagonal element 2 is zero"):
        LA.inv(opscope.stack([opscope.eye(2), sing]))
    L, info = LA.cholesky_ex(opscope.tensor([[1., 2.], [2., 1.]]))
    assert info.item() == 2


def test_out_forms():
    a = opscope.tensor([[2., 1.], [1., 3.]])
    out = opscope.empty(0)
    assert LA.inv(a, out=out) is out and np.allclose(out.numpy(), np.linalg.inv(a.numpy()))
    assert LA.det(a, out=out) is out and np.isclose(out.item(), 5.0)
    assert LA.cholesky(a, out=out) is out and np.allclose(out.numpy(), np.linalg.cholesky(a.numpy()))
    assert LA.eigvalsh(a, out=out) is out and np.allclose(out.numpy(), np.linalg.eigvalsh(a.numpy()))
    assert LA.matrix_norm(a, "nuc", out=out) is out and np.isclose(out.item(), np.linalg.norm(a.numpy(), "nuc"))
    assert opscope.inverse(a, out=out) is out
    assert LA.pinv(a, out=out) is out and np.allclose(out.numpy(), np.linalg.pinv(a.numpy()))
    assert LA.multi_dot([a, a, a], out=out) is out and np.allclose(out.numpy(), np.linalg.matrix_power(a.numpy(), 3))
    rank = opscope.empty(0, dtype=opscope.int64)
    assert LA.matrix_rank(a, out=rank) is rank and rank.item() == 2


# --- gradients ---------------------------------------------------------------------------------

def _x(rng, *shape, transposed=False):
    """A well-conditioned float64 leaf; transposed: the same values read through transposed
    strides (a non-contiguous leaf)."""
    n = shape[-1]
    a = rng.standard_normal(shape) / np.sqrt(n) + 2 * np.eye(shape[-2], n)
    if transposed:
        return opscope.tensor(np.swapaxes(a, -1, -2).copy()).transpose(-2, -1).detach().requires_grad_()
    return opscope.tensor(a, requires_grad=True)


def _sym(x):
    return x @ x.transpose(-2, -1) + x.shape[-1] * opscope.eye(x.shape[-1], dtype=x.dtype)


def _rank1(u, s, vh):
    """A function of an SVD that does not depend on the singular vectors' signs."""
    return (u[..., :1] * s[..., :1].unsqueeze(-2)) @ vh[..., :1, :]


GRAD_CASES = {
    "inv": (lambda x: LA.inv(x), [(3, 3), (2, 3, 3)]),
    "inverse": (lambda x: opscope.inverse(x), [(3, 3)]),
    "det": (lambda x: LA.det(x), [(3, 3), (2, 3, 3)]),
    "slogdet": (lambda x: LA.slogdet(x)[1], [(3, 3), (2, 3, 3)]),
    "logdet": (lambda x: opscope.logdet(_sym(x)), [(3, 3)]),
    "solve": (lambda x: LA.solve(x, x[..., :2] * 3 + 1), [(3, 3), (2, 3, 3)]),
    "solve_vector": (lambda x: LA.solve(x, x[..., 0] + 1), [(3, 3), (2, 3, 3)]),
    "solve_left_false": (lambda x: LA.solve(x, x[..., :2, :] + 1, left=False), [(3, 3)]),
    "solve_triangular": (lambda x: LA.solve_triangular(x, x[..., :2] + 1, upper=True), [(3, 3), (2, 3, 3)]),
    "solve_triangular_lower_unit_right": (
        lambda x: LA.solve_triangular(x, x[..., :2, :] + 1, upper=False, left=False, unitriangular=True), [(3, 3)]),
    "cholesky": (lambda x: LA.cholesky(_sym(x)), [(3, 3), (2, 3, 3)]),
    "cholesky_upper": (lambda x: LA.cholesky(_sym(x), upper=True), [(3, 3)]),
    "torch_cholesky": (lambda x: opscope.cholesky(_sym(x)), [(3, 3)]),
    "qr": (lambda x: LA.qr(x), [(3, 3), (4, 2), (2, 4), (2, 3, 2)]),
    "qr_complete_square": (lambda x: LA.qr(x, mode="complete"), [(3, 3)]),
    "eigh": (lambda x: LA.eigh(x + x.transpose(-2, -1)), [(3, 3), (2, 3, 3)]),
    "eigvalsh": (lambda x: LA.eigvalsh(x + x.transpose(-2, -1)), [(3, 3)]),
    "svd": (lambda x: _rank1(*LA.svd(x, full_matrices=False)), [(3, 3), (4, 2), (2, 4), (2, 3, 2)]),
    "svd_full": (lambda x: _rank1(*LA.svd(x)), [(4, 2), (2, 4)]),
    "svd_values": (lambda x: LA.svd(x)[1], [(3, 3), (4, 2)]),
    "svdvals": (lambda x: LA.svdvals(x), [(3, 3), (2, 4)]),
    "torch_svd": (lambda x: _rank1(*(lambda u, s, v: (u, s, v.transpose(-2, -1)))(*opscope.svd(x))), [(4, 2)]),
    "matrix_norm_2": (lambda x: LA.matrix_norm(x, 2), [(3, 3)]),
    "matrix_norm_nuc": (lambda x: LA.matrix_norm(x, "nuc"), [(3, 3), (2, 3, 2)]),
    "matrix_norm_1": (lambda x: LA.matrix_norm(x, -1), [(3, 3)]),
    "norm_fro": (lambda x: LA.norm(x, "fro"), [(3, 3)]),
    "cross": (lambda x: LA.cross(x, x.flip(0) * 2 + 1), [(4, 3)]),
    "matrix_power": (lambda x: LA.matrix_power(x, 5), [(3, 3)]),
    "matrix_power_negative": (lambda x: LA.matrix_power(x, -2), [(3, 3)]),
    "pinv": (lambda x: LA.pinv(x), [(4, 3), (3, 4)]),
    "pinv_hermitian": (lambda x: LA.pinv(x + x.transpose(-2, -1), hermitian=True), [(3, 3)]),
    "multi_dot": (lambda x: LA.multi_dot([x, x.transpose(0, 1), x, x[0]]), [(3, 3)]),
    "lstsq": (lambda x: LA.lstsq(x, x[..., :1] * 2 + 1).solution, [(4, 3), (3, 3), (2, 3, 3)]),
    "lstsq_wide_vector": (lambda x: LA.lstsq(x, x[..., 0] + 1, driver="gelsd").solution, [(2, 4)]),
}


@pytest.mark.parametrize("transposed", [False, True], ids=["contiguous", "transposed"])
@pytest.mark.parametrize("name", sorted(GRAD_CASES))
def test_gradcheck(rng, name, transposed):
    fn, shapes = GRAD_CASES[name]
    for shape in shapes:
        x = _x(rng, *shape, transposed=transposed)
        assert x.is_contiguous() != transposed or min(shape[-2:]) == 1
        assert gradcheck(fn, (x,))


def test_solve_gradcheck_with_a_separate_right_hand_side(rng):
    a, b = _x(rng, 2, 3, 3), opscope.tensor(rng.standard_normal((3, 2)), requires_grad=True)
    assert gradcheck(LA.solve, (a, b))
    x, y = opscope.tensor(rng.standard_normal((2, 3)), requires_grad=True), \
        opscope.tensor(rng.standard_normal((1, 3)), requires_grad=True)
    assert gradcheck(LA.cross, (x, y))


def test_det_gradient_of_singular_matrices_is_the_cofactor_matrix():
    """Where det is exactly 0 (no inverse), the gradient comes from the SVD: the cofactors.
    (torch 1.13 returns zeros for the 3 x 3 matrix below; torch 2 returns the cofactors.)"""
    x = np.array([[1., 2., 3.], [4., 5., 6.], [7., 8., 9.]])
    a = opscope.tensor(np.stack([x, 2 * np.eye(3)]), requires_grad=True)
    LA.det(a).sum().backward()
    cof = np.array([[(-1) ** (i + j) * np.linalg.det(np.delete(np.delete(x, i, 0), j, 1)) for j in range(3)]
                    for i in range(3)])
    check(a.grad[0], cof, opscope.float64, scale=10.0)
    check(a.grad[1], 4 * np.eye(3), opscope.float64)


def test_second_derivative_of_inverse(rng):
    assert opscope.autograd.gradgradcheck(LA.inv, (_x(rng, 3, 3),))


# --- traces ------------------------------------------------------------------------------------

def chain(fn):
    """The ops of a call, outermost first, each once, as a trace shows them."""
    seen = []
    for step in record_dispatch(fn).steps:
        if step["op"] not in seen:
            seen.append(step["op"])
    return seen


def test_spellings_decompose_as_torch():
    a = opscope.eye(3, dtype=opscope.float64) * 2
    assert chain(lambda: opscope.inverse(a)) == [
        "aten::inverse", "aten::linalg_inv", "aten::linalg_inv_ex", "aten::_linalg_check_errors"]
    assert chain(lambda: opscope.det(a)) == ["aten::det", "aten::linalg_det", "aten::_linalg_det"]
    assert chain(lambda: LA.solve(a, a))[:3] == ["aten::linalg_solve", "aten::linalg_solve_ex",
                                                 "aten::_linalg_solve_ex"]
    assert chain(lambda: opscope.svd(a))[:3] == ["aten::svd", "aten::linalg_svd", "aten::_linalg_svd"]
    assert chain(lambda: LA.eigvalsh(a))[:2] == ["aten::linalg_eigvalsh", "aten::_linalg_eigh"]
    assert chain(lambda: opscope.cross(a, a))[:2] == ["aten::cross", "aten::linalg_cross"]


def test_the_stack_of_an_svd_ends_in_lapack():
    a = opscope.randn(8, 8, dtype=opscope.float64)
    LA.svd(a)  # OpenBLAS loaded
    with opscope.trace(with_stack=True) as t:
        LA.svd(a)
    assert t.find("aten::_linalg_svd").blas_routine == "dgesdd_"
    s = t.stack("aten::_linalg_svd")
    assert s[0].name == "dgesdd_" and s[0].layer == "blas"
    assert any(f.file == "core/ops/cpu/linalg.cpp" for f in s)


def test_the_module_docstring_examples_run():
    import doctest
    result = doctest.testmod(LA)
    assert result.failed == 0 and result.attempted >= 5


def test_lapack_failures_raise_linalg_error_a_runtime_error():
    # torch.linalg.LinAlgError is torch._C._LinAlgError, a RuntimeError subclass; the recorded
    # cases above check its name and message per op.
    assert opscope.linalg.LinAlgError is opscope._C._LinAlgError
    assert issubclass(opscope.linalg.LinAlgError, RuntimeError)
    with pytest.raises(opscope.linalg.LinAlgError, match="the input matrix is singular"):
        opscope.linalg.inv(opscope.zeros(2, 2))
    with pytest.raises(RuntimeError, match="must be batches of square matrices") as bad_shape:
        opscope.linalg.inv(opscope.zeros(2, 3))
    assert type(bad_shape.value) is RuntimeError  # a wrong argument is not a LAPACK failure
