"""CUDA kernels of batch norm and 2-D pooling (core/cuda/kernels/norm_pool.cpp) against the CPU
kernels on the same inputs: native_batch_norm in training (running statistics updated, with and
without weight / bias / running stats) and eval, its backward (every output_mask), through
F.batch_norm / nn.BatchNorm1d / 2d and autograd; max_pool2d (+ indices) and avg_pool2d with
padding, strides, dilation, ceil_mode, count_include_pad, divisor_override, and their backward;
float32 / float64, non-contiguous inputs, empty batches, 3-D (unbatched) inputs, and the errors.
Skips without a GPU (cuda_compare.py).
"""
import copy

import pytest

import opscope
import opscope.nn as nn
import opscope.nn.functional as F
from cuda_compare import DEVICE, assert_same, dev, layouts, make, needs_device

pytestmark = needs_device

DTYPES = [opscope.float32, opscope.float64]
# Batch norm's gradients: dy k + x p + q, whose terms cancel; the CPU computes it in float32.
GRAD_TOL = {opscope.float32: dict(rtol=1e-4, atol=1e-5), opscope.float64: {}}


def both(x):
    """x on the CPU and on the device, each a leaf that requires grad."""
    return x.clone().requires_grad_(), dev(x).requires_grad_()


# --- batch norm ---------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(8, 3), (4, 3, 5), (2, 3, 4, 5), (1, 2, 7, 7), (16, 4, 1, 1)])
@pytest.mark.parametrize("affine,track", [(True, True), (False, True), (True, False)])
def test_batch_norm_training(dtype, shape, affine, track):
    C = shape[1]
    x = make(shape, dtype, seed=1, low=-3, high=5)
    w = make((C,), dtype, seed=2, low=0.5, high=1.5) if affine else None
    b = make((C,), dtype, seed=3) if affine else None
    for cpu_x, gpu_x in layouts(x):
        rm = make((C,), dtype, seed=4) if track else None
        rv = make((C,), dtype, seed=5, low=0.5, high=2) if track else None
        grm = dev(rm) if track else None
        grv = dev(rv) if track else None
        out, sm, si = opscope.native_batch_norm(cpu_x, w, b, rm, rv, True, 0.1, 1e-5)
        gout, gsm, gsi = opscope.native_batch_norm(gpu_x, dev(w) if affine else None,
                                                   dev(b) if affine else None, grm, grv, True,
                                                   0.1, 1e-5)
        assert_same(gout, out)
        assert_same(gsm, sm)
        assert_same(gsi, si)
        if track:  # updated in place
            assert_same(grm, rm)
            assert_same(grv, rv)


@pytest.mark.parametrize("dtype", DTYPES)
def test_batch_norm_eval_and_noncontiguous_stats(dtype):
    x = make((5, 4, 3, 3), dtype, seed=6)
    rm = make((4, 2), dtype, seed=7)[:, 0]   # stepped running statistics
    rv = make((4, 2), dtype, seed=8, low=0.5, high=2)[:, 1]
    w, b = make((4,), dtype, seed=9), make((4,), dtype, seed=10)
    out, sm, si = opscope.native_batch_norm(x, w, b, rm, rv, False, 0.1, 1e-3)
    gout, gsm, gsi = opscope.native_batch_norm(dev(x), dev(w), dev(b), dev(rm), dev(rv), False,
                                               0.1, 1e-3)
    assert_same(gout, out)
    assert tuple(gsm.shape) == (0,) and tuple(gsi.shape) == (0,)
    grm = dev(make((4, 2), dtype, seed=7))[:, 0]
    grv = dev(make((4, 2), dtype, seed=8, low=0.5, high=2))[:, 1]
    rm2, rv2 = rm.clone(), rv.clone()
    opscope.native_batch_norm(x, w, b, rm2, rv2, True, 0.2, 1e-5)
    opscope.native_batch_norm(dev(x), dev(w), dev(b), grm, grv, True, 0.2, 1e-5)
    assert_same(grm, rm2)
    assert_same(grv, rv2)


def test_batch_norm_empty_and_one_value():
    """No values per channel: NaN statistics, running ones kept; one value: an infinite unbiased
    variance, as on the CPU."""
    for shape in ((0, 3), (0, 3, 4), (1, 3)):
        x = opscope.empty(shape) if shape[0] == 0 else make(shape, seed=11)
        rm, rv = opscope.zeros(3), opscope.ones(3)
        grm, grv = dev(rm), dev(rv)
        out, sm, si = opscope.native_batch_norm(x, None, None, rm, rv, True, 0.1, 1e-5)
        gout, gsm, gsi = opscope.native_batch_norm(dev(x), None, None, grm, grv, True, 0.1, 1e-5)
        assert_same(gout, out)
        assert_same(gsm, sm)
        assert_same(gsi, si)
        assert_same(grm, rm)
        assert_same(grv, rv)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("train", [True, False])
def test_batch_norm_backward(dtype, train):
    C = 3
    x = make((4, C, 5, 2), dtype, seed=12)
    gy = make((4, C, 5, 2), dtype, seed=13)
    w = make((C,), dtype, seed=14, low=0.5, high=1.5)
    rm, rv = make((C,), dtype, seed=15), make((C,), dtype, seed=16, low=0.5, high=2)
    _, sm, si = opscope.native_batch_norm(x, w, None, rm.clone(), rv.clone(), True, 0.1, 1e-5)
    for mask in ([1, 1, 1], [1, 0, 0], [0, 1, 1], [1, 1, 0]):
        for cpu_gy, gpu_gy in layouts(gy):
            want = opscope.ops.aten.native_batch_norm_backward(
                cpu_gy, x, w, rm, rv, sm if train else None, si if train else None, train, 1e-5,
                mask)
            got = opscope.ops.aten.native_batch_norm_backward(
                gpu_gy, dev(x), dev(w), dev(rm), dev(rv), dev(sm) if train else None,
                dev(si) if train else None, train, 1e-5, mask)
            for g, c in zip(got, want):
                assert (g is None) == (c is None)
                if c is not None:  # the CPU sums in float32 what the GPU sums in double
                    assert_same(g, c, **GRAD_TOL[dtype])


@pytest.mark.parametrize("dtype", DTYPES)
def test_batch_norm_modules_train_like_cpu(dtype):
    """nn.BatchNorm2d / 1d forward and backward on both devices, through autograd, in train and
    eval mode."""
    for module, shape in ((nn.BatchNorm2d(3), (4, 3, 6, 6)), (nn.BatchNorm1d(5), (7, 5))):
        module = module.to(dtype)
        gmodule = copy.deepcopy(module).to(DEVICE)  # Module.to moves in place: a copy first
        for training in (True, False):
            module.train(training)
            gmodule.train(training)
            a, b = both(make(shape, dtype, seed=17))
            g = make(shape, dtype, seed=18)
            (module(a) * g).sum().backward()
            (gmodule(b) * dev(g)).sum().backward()
            assert_same(b.grad, a.grad, **GRAD_TOL[dtype])
            assert_same(gmodule.weight.grad, module.weight.grad, **GRAD_TOL[dtype])
            assert_same(gmodule.bias.grad, module.bias.grad, **GRAD_TOL[dtype])
            assert_same(gmodule.running_mean, module.running_mean)
            assert_same(gmodule.running_var, module.running_var)
            module.zero_grad()
            gmodule.zero_grad()


def test_batch_norm_errors():
    x = dev(make((4, 3)))
    with pytest.raises(RuntimeError, match="running_mean must be defined in evaluation mode"):
        opscope.native_batch_norm(x, None, None, None, None, False, 0.1, 1e-5)
    with pytest.raises(RuntimeError, match="expected scalar type Float but found Double"):
        opscope.native_batch_norm(x, dev(opscope.ones(3, dtype=opscope.float64)), None, None,
                                  None, True, 0.1, 1e-5)
    with pytest.raises(RuntimeError, match="not implemented for 'Long'"):
        opscope.native_batch_norm(dev(opscope.ones(4, 3, dtype=opscope.int64)), None, None, None,
                                  None, True, 0.1, 1e-5)
    if DEVICE == "cuda":
        with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
            opscope.native_batch_norm(x, opscope.ones(3), None, None, None, True, 0.1, 1e-5)


# --- pooling --------------------------------------------------------------------------------------

MAX_CASES = [  # kernel, stride, padding, dilation, ceil_mode
    (2, 2, 0, 1, False), (3, 1, 1, 1, False), (3, 2, 1, 1, True), ((2, 3), (1, 2), (1, 0), 1,
                                                                   False),
    (2, 1, 0, 2, False), (3, 2, 0, (2, 1), True),
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", MAX_CASES)
def test_max_pool2d(dtype, case):
    k, s, p, d, ceil = case
    x = make((2, 3, 9, 8), dtype, seed=19)
    x[0, 0, 1, 1] = float("nan")  # NaN wins its windows
    for cpu_x, gpu_x in layouts(x):
        out, idx = F.max_pool2d(cpu_x, k, s, p, d, ceil_mode=ceil, return_indices=True)
        gout, gidx = F.max_pool2d(gpu_x, k, s, p, d, ceil_mode=ceil, return_indices=True)
        assert_same(gout, out, exact=True)
        assert_same(gidx, idx)
    a, b = both(x.nan_to_num())
    out = F.max_pool2d(a, k, s, p, d, ceil_mode=ceil)
    gout = F.max_pool2d(b, k, s, p, d, ceil_mode=ceil)
    g = make(tuple(out.shape), dtype, seed=20)
    out.backward(g)
    gout.backward(dev(g))
    assert_same(b.grad, a.grad)


AVG_CASES = [  # kernel, stride, padding, ceil_mode, count_include_pad, divisor_override
    (2, 2, 0, False, True, None), (3, 1, 1, False, True, None), (3, 1, 1, False, False, None),
    (3, 2, 1, True, True, None), (3, 2, 1, True, False, None), ((2, 3), (2, 1), (1, 1), False,
                                                                 True, 5),
    (2, None, 0, False, True, None),
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", AVG_CASES)
def test_avg_pool2d(dtype, case):
    k, s, p, ceil, include, div = case
    x = make((2, 3, 7, 8), dtype, seed=21)
    kw = dict(ceil_mode=ceil, count_include_pad=include, divisor_override=div)
    for cpu_x, gpu_x in layouts(x):
        assert_same(F.avg_pool2d(gpu_x, k, s, p, **kw), F.avg_pool2d(cpu_x, k, s, p, **kw))
    a, b = both(x)
    out = F.avg_pool2d(a, k, s, p, **kw)
    gout = F.avg_pool2d(b, k, s, p, **kw)
    g = make(tuple(out.shape), dtype, seed=22)
    out.backward(g)
    gout.backward(dev(g))
    assert_same(b.grad, a.grad)


def test_pool_unbatched_empty_large():
    x = make((3, 10, 10), seed=23)  # (C, H, W)
    assert_same(F.max_pool2d(dev(x), 3, 2), F.max_pool2d(x, 3, 2), exact=True)
    assert_same(F.avg_pool2d(dev(x), 3, 2, 1), F.avg_pool2d(x, 3, 2, 1))
    e = opscope.empty(0, 3, 8, 8)  # an empty batch
    assert tuple(F.max_pool2d(dev(e), 2).shape) == (0, 3, 4, 4)
    assert tuple(F.avg_pool2d(dev(e), 2).shape) == (0, 3, 4, 4)
    big = make((4, 16, 64, 64), seed=24)
    assert_same(F.max_pool2d(dev(big), 2), F.max_pool2d(big, 2), exact=True)
    assert_same(F.avg_pool2d(dev(big), 3, 1, 1), F.avg_pool2d(big, 3, 1, 1))


def test_pool_errors():
    x = dev(make((1, 2, 5, 5)))
    with pytest.raises(RuntimeError, match="pad should be at most half of kernel size"):
        F.max_pool2d(x, 2, 1, 2)
    with pytest.raises(RuntimeError, match="non-empty 3D or 4D"):
        F.max_pool2d(dev(make((5, 5))), 2)
    with pytest.raises(RuntimeError, match="Output size is too small"):
        F.avg_pool2d(x, 7)
    with pytest.raises(RuntimeError, match="divisor must be not zero"):
        F.avg_pool2d(x, 2, divisor_override=0)
    with pytest.raises(RuntimeError, match="not implemented for 'Long'"):
        F.max_pool2d(dev(opscope.ones(1, 1, 4, 4, dtype=opscope.int64)), 2)
