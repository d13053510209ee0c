"""Helpers of the CUDA-against-CPU kernel tests (test_cuda_optim_ops.py, test_cuda_scan_sort.py,
test_cuda_norm_pool.py): random CPU inputs, the layouts a kernel may meet, and the comparison of
a result on the device with the CPU kernel's.

DEVICE is "cuda"; the tests skip with the reason when no GPU is visible. Setting
OPSCOPE_CUDA_TEST_DEVICE=cpu runs the same tests with the CPU on both sides: that checks only the
tests themselves (their calls, shapes and tolerances) on a machine without a GPU, never a kernel.
"""
import os

import numpy as np
import pytest

import opscope

DEVICE = os.environ.get("OPSCOPE_CUDA_TEST_DEVICE", "cuda")

needs_device = pytest.mark.skipif(
    DEVICE == "cuda" and not opscope.cuda.is_available(),
    reason="needs a CUDA GPU (and the CUDA backend built)")

# How close the device must come to the CPU kernel (rtol, atol).
TOL = {opscope.float32: (1e-5, 1e-6), opscope.float64: (1e-12, 1e-12),
       opscope.float16: (2e-3, 2e-3), opscope.bfloat16: (1.6e-2, 1.6e-2)}


def make(shape, dtype=opscope.float32, seed=0, low=-2.0, high=2.0):
    """A random CPU tensor of `dtype` (integers in [low, high), bools half true)."""
    r = np.random.default_rng(seed)
    if dtype == opscope.bool:
        return opscope.tensor(r.random(shape) < 0.5)
    if not dtype.is_floating_point:
        return opscope.tensor(r.integers(int(low), int(high), size=shape)).to(dtype)
    return opscope.tensor(r.uniform(low, high, size=shape)).to(dtype)


def dev(t):
    """t copied to the device under test (a copy on the CPU too: never t itself)."""
    return t.to(DEVICE) if DEVICE != "cpu" else t.clone()


def layouts(t):
    """(cpu, device) pairs made by the same ops on each side from t: contiguous, column-major
    (dense, permuted) and stepped (every other element of cat([t, t], -1): not dense, and
    along the last dim each value of t's even positions comes twice)."""
    pairs = [(t, dev(t))]
    if t.dim() >= 2:
        def column_major(z):
            return z.transpose(0, 1).contiguous().transpose(0, 1)
        pairs.append((column_major(t), column_major(dev(t))))
    if t.dim() >= 1:
        def stepped(z):
            return opscope.cat([z, z], dim=-1)[..., ::2]
        pairs.append((stepped(t), stepped(dev(t))))
    return pairs


def as_numpy(t):
    t = t.detach().cpu()
    if t.dtype in (opscope.float16, opscope.bfloat16):
        t = t.to(opscope.float64)
    return t.numpy()


def assert_same(got, want, rtol=None, atol=None, exact=False):
    """got (on the device) holds what want (the CPU kernel's result) holds: device, shape, dtype,
    values (NaN where NaN)."""
    assert got.device.type == DEVICE, got.device
    assert tuple(got.shape) == tuple(want.shape), (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    if exact or not want.dtype.is_floating_point:
        np.testing.assert_array_equal(as_numpy(got), as_numpy(want))
        return
    r, a = TOL.get(want.dtype, (1e-5, 1e-6))
    np.testing.assert_allclose(as_numpy(got), as_numpy(want), rtol=r if rtol is None else rtol,
                               atol=a if atol is None else atol, equal_nan=True)
