"""Shared pytest set-up: makes the in-tree package importable and gives a seeded RNG."""
import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "core", "python"))


@pytest.fixture
def rng():
    return np.random.default_rng(1234)


def assert_close(actual, expected, *, rtol=1e-6, atol=1e-6, what=""):
    """Compares an opscope tensor (or array) with a NumPy reference; reports the largest
    difference (as micrograd / llm.c checkers do) rather than only pass/fail."""
    a = actual.numpy() if hasattr(actual, "numpy") else np.asarray(actual)
    e = np.asarray(expected)
    assert a.shape == e.shape, f"{what}: shape {a.shape} != {e.shape}"
    if a.size == 0:
        return 0.0
    if a.dtype == np.bool_ or e.dtype == np.bool_:
        assert (a == e).all(), f"{what}: boolean mismatch"
        return 0.0
    diff = np.abs(a.astype(np.float64) - e.astype(np.float64))
    both_nan = np.isnan(a.astype(np.float64)) & np.isnan(e.astype(np.float64))
    diff = np.where(both_nan, 0, diff)
    same_inf = np.isinf(a.astype(np.float64)) & (a.astype(np.float64) == e.astype(np.float64))
    diff = np.where(same_inf, 0, diff)
    maxdiff = float(np.nanmax(diff))
    tol = atol + rtol * np.abs(e.astype(np.float64))
    assert (diff <= tol).all(), f"{what}: maxdiff {maxdiff:.3g}"
    return maxdiff
