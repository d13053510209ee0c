"""Shared pytest set-up: makes the in-tree package importable, gives a seeded RNG, and compares
opscope results with NumPy references while remembering the largest difference per op family
(printed at the end of the run, as micrograd / llm.c checkers print their maxdiff)."""
import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "core", "python"))

import opscope  # noqa: E402  (after the path above)

# family -> (largest absolute difference seen, largest relative difference seen, comparisons)
MAXDIFF = {}

# (rtol, atol) for comparing a result of this dtype with a float64 NumPy reference: a few units in
# the last place of the result dtype (float16 has 11 significant bits, bfloat16 8).
TOLERANCE = {
    "float64": (1e-12, 1e-12),
    "float32": (3e-6, 1e-6),
    "float16": (2e-3, 1e-4),
    "bfloat16": (1.6e-2, 1e-3),
}


def record_dispatch(fn):
    """Runs fn() with a _DispatchRecorder installed; returns the recorder (.steps: one dict per
    dispatch step; .events: the steps and autograd's events, in order)."""
    rec = opscope._C._DispatchRecorder()
    handle = opscope._C._add_dispatch_observer(rec)
    try:
        fn()
    finally:
        handle.remove()
    return rec


def tolerance(dtype):
    """rtol= and atol= for a result of `dtype` (an opscope dtype or its name), for assert_close:
    `assert_close(r, expected, **tolerance(r.dtype))`; exact for integer and bool dtypes."""
    rtol, atol = TOLERANCE.get(str(dtype).replace("torch.", ""), (0.0, 0.0))
    return {"rtol": rtol, "atol": atol}


def to_numpy(t):
    """Any opscope tensor as a NumPy array (bfloat16, which NumPy lacks, as float32)."""
    if not hasattr(t, "numpy"):
        return np.asarray(t)
    if str(t.dtype) == "torch.bfloat16":
        t = t.float()
    return t.detach().numpy()


@pytest.fixture
def rng():
    return np.random.default_rng(1234)


def assert_close(actual, expected, *, rtol=1e-6, atol=1e-6, what="", family=None):
    """Compares an opscope tensor (or array) with a NumPy reference; reports the largest
    difference (as micrograd / llm.c checkers do) rather than only pass/fail. Integer and bool
    results must match exactly. With `family`, the difference joins that family's summary."""
    a = to_numpy(actual)
    e = np.asarray(expected)
    assert a.shape == e.shape, f"{what}: shape {a.shape} != {e.shape}"
    if a.size == 0:
        return 0.0
    if a.dtype == np.bool_ or e.dtype == np.bool_ or (a.dtype.kind in "iu" and e.dtype.kind in "iu"):
        wrong = a != e
        assert not wrong.any(), (
            f"{what}: {int(wrong.sum())} of {a.size} elements differ; first at "
            f"{np.argwhere(wrong)[0].tolist()}: {a[wrong][0]} != {e[wrong][0]}")
        remember_difference(family, 0.0, 0.0)
        return 0.0
    a64, e64 = a.astype(np.float64), e.astype(np.float64)
    diff = np.abs(a64 - e64)
    diff = np.where(np.isnan(a64) & np.isnan(e64), 0, diff)
    diff = np.where(np.isinf(a64) & (a64 == e64), 0, diff)
    maxdiff = float(np.nanmax(diff)) if not np.isnan(diff).all() else float("nan")
    tol = atol + rtol * np.abs(e64)
    ok = diff <= tol  # NaN against a number fails here
    # Relative difference where it means something: not for expected values within atol of 0.
    big = np.abs(e64) > max(atol, 1e-300)
    rel = float(np.max(diff[big] / np.abs(e64[big]))) if big.any() else 0.0
    remember_difference(family, maxdiff, rel)
    assert ok.all(), (
        f"{what}: maxdiff {maxdiff:.3g} (rtol {rtol}, atol {atol}); first bad element at "
        f"{np.argwhere(~ok)[0].tolist()}: {a64[~ok][0]!r} vs expected {e64[~ok][0]!r}")
    return maxdiff


def remember_difference(family, absdiff, reldiff=0.0):
    """Adds one comparison to the per-family summary printed at the end of the run."""
    if family is None:
        return
    old = MAXDIFF.get(family, (0.0, 0.0, 0))
    MAXDIFF[family] = (max(old[0], absdiff), max(old[1], reldiff), old[2] + 1)


def pytest_terminal_summary(terminalreporter):
    if not MAXDIFF:
        return
    terminalreporter.section("largest difference from the reference, per op family")
    width = max(len(f) for f in MAXDIFF)
    for family in sorted(MAXDIFF):
        absdiff, reldiff, n = MAXDIFF[family]
        terminalreporter.write_line(
            f"{family:<{width}}  abs {absdiff:9.3g}  rel {reldiff:9.3g}  ({n} comparisons)")
