"""Linear algebra on matrices with infinities and NaNs: an answer or torch's error, never a hang.

LAPACK's SVD (gesdd, and the SVD least-squares drivers gelsd / gelss) never returns on some
matrices with an infinity; torch 1.13 hangs on the first case below (see Note [SVD of a matrix
with infinities] in core/ops/cpu/linalg.cpp). Each case runs in a child process with a time limit,
so that a hang fails the test instead of stopping the suite.
"""
import os
import subprocess
import sys

import pytest

# Found by the fuzzer (tests/fuzz, case 20240601:2780): -inf and 1e308 in a 4 x 3 matrix.
FUZZ_MATRIX = ("opscope.tensor([[-1.993, -1.283, 1.624, -inf], [-1.594, 1e308, 2.889, 2.553], "
               "[1.65, 2.215, -3.622, 3.778]], dtype=opscope.float64).permute((1, 0))")

CASES = {
    "svd": "r = opscope.linalg.svd(A); out = [r.U, r.S, r.Vh]",
    "svd_full": "r = opscope.linalg.svd(A, full_matrices=True); out = [r.U, r.S, r.Vh]",
    "svdvals": "out = [opscope.linalg.svdvals(A)]",
    "pinv": "out = [opscope.linalg.pinv(A, 1e-5, hermitian=False)]",
    "matrix_norm_2": "out = [opscope.linalg.matrix_norm(A, ord=2)]",
    "lstsq_gelsd": "r = opscope.linalg.lstsq(A, opscope.ones(4, 2, dtype=A.dtype), driver='gelsd');"
                   " out = [r.solution, r.singular_values]",
    "lstsq_gelss": "r = opscope.linalg.lstsq(A, opscope.ones(4, 2, dtype=A.dtype), driver='gelss');"
                   " out = [r.solution, r.singular_values]",
}


def run_child(code, timeout=60):
    env = dict(os.environ)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=timeout, env=env)


@pytest.mark.parametrize("name", sorted(CASES))
def test_an_infinity_gives_nan_not_a_hang(name):
    code = f"""
import opscope
from math import inf
A = {FUZZ_MATRIX}
{CASES[name]}
for t in out:
    assert t.isnan().all().item(), (t, "expected all NaN")
print("shapes", [tuple(t.shape) for t in out])
"""
    r = run_child(code)
    assert r.returncode == 0, r.stderr
    assert "shapes" in r.stdout


def test_svd_shapes_with_an_infinity_are_the_usual_ones():
    import opscope
    A = opscope.tensor([[1.0, float("inf")], [2.0, 3.0], [4.0, 5.0]], dtype=opscope.float64)
    U, S, Vh = opscope.linalg.svd(A, full_matrices=False)
    assert (tuple(U.shape), tuple(S.shape), tuple(Vh.shape)) == ((3, 2), (2,), (2, 2))
    assert U.isnan().all() and S.isnan().all() and Vh.isnan().all()
    U, S, Vh = opscope.linalg.svd(A, full_matrices=True)
    assert (tuple(U.shape), tuple(S.shape), tuple(Vh.shape)) == ((3, 3), (2,), (2, 2))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_svd_with_a_nan_is_torchs_error(dtype):
    import opscope
    A = opscope.tensor([[1.0, float("nan")], [2.0, 3.0]], dtype=getattr(opscope, dtype))
    with pytest.raises(RuntimeError, match="linalg.svd: The algorithm failed to converge because "
                                           "the input matrix contained non-finite values."):
        opscope.linalg.svd(A)


def test_a_batch_keeps_finite_matrices_exact():
    import numpy as np
    import opscope
    rng = np.random.default_rng(0)
    a = rng.standard_normal((3, 4, 3))
    a[1, 2, 0] = np.inf
    S = opscope.linalg.svdvals(opscope.from_numpy(a)).numpy()
    np.testing.assert_allclose(S[0], np.linalg.svd(a[0], compute_uv=False), rtol=1e-12)
    np.testing.assert_allclose(S[2], np.linalg.svd(a[2], compute_uv=False), rtol=1e-12)
    assert np.isnan(S[1]).all()
