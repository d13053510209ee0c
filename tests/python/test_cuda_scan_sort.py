"""CUDA kernels of cumsum / cumprod, flip, sort / argsort and topk (core/cuda/kernels/
scan_sort.cpp) against the CPU kernels on the same inputs: every dtype each claims, dims inside
and last, non-contiguous inputs, empty and 0-d tensors, long rows (several scan tiles, sorts
padded to 2^17), ties and NaN (compared with the CPU's stable sort: the GPU sort is stable),
out= forms, gradients, and the errors. Skips without a GPU (cuda_compare.py).
"""
import numpy as np
import pytest

import opscope
from cuda_compare import DEVICE, assert_same, dev, layouts, make, needs_device

pytestmark = needs_device

SCAN_FLOATS = [opscope.float32, opscope.float64, opscope.bfloat16]
INTS = [opscope.int64, opscope.int32, opscope.int16, opscope.int8, opscope.uint8, opscope.bool]


# --- cumsum / cumprod ---------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", SCAN_FLOATS)
@pytest.mark.parametrize("shape,dim", [((5, 7), 1), ((5, 7), 0), ((3, 4, 5), 1), ((3, 4, 5), -1),
                                       ((0, 3), 1), ((4, 0), 1), ((), 0), ((300,), 0)])
def test_cumsum_cumprod(dtype, shape, dim):
    x = make(shape, dtype, seed=1, low=0.5, high=1.5)
    for cpu, gpu in layouts(x):
        for name in ("cumsum", "cumprod"):
            assert_same(getattr(opscope, name)(gpu, dim), getattr(opscope, name)(cpu, dim))


@pytest.mark.parametrize("n", [1, 31, 256, 257, 10000])
def test_scan_long_rows(n):
    """Rows over several tiles of the block scan; columns (inner > 1) walked by threads."""
    x = make((3, n), opscope.float32, seed=2)
    assert_same(opscope.cumsum(dev(x), 1), opscope.cumsum(x, 1), rtol=1e-5, atol=1e-4)
    assert_same(opscope.cumsum(dev(x), 0), opscope.cumsum(x, 0))
    y = make((2, n), opscope.float64, seed=3, low=0.99, high=1.01)
    assert_same(opscope.cumprod(dev(y), 1), opscope.cumprod(y, 1))


@pytest.mark.parametrize("dtype", INTS)
def test_scan_integers(dtype):
    """Integers and bool scan in int64 (the default result dtype), or in a given dtype."""
    x = make((4, 6), dtype, seed=4, low=-3, high=4) if dtype != opscope.uint8 else \
        make((4, 6), dtype, seed=4, low=0, high=4)
    for cpu, gpu in layouts(x):
        assert_same(opscope.cumsum(gpu, 1), opscope.cumsum(cpu, 1))
        assert_same(opscope.cumprod(gpu, 0), opscope.cumprod(cpu, 0))
    assert_same(opscope.cumsum(dev(x), 1, dtype=opscope.float64),
                opscope.cumsum(x, 1, dtype=opscope.float64))
    if dtype != opscope.bool:
        assert_same(opscope.cumsum(dev(x), 1, dtype=opscope.int32),
                    opscope.cumsum(x, 1, dtype=opscope.int32))


@pytest.mark.skipif(DEVICE != "cuda", reason="the CPU has no float16 scan")
def test_scan_float16():
    """float16 has a GPU kernel (accumulating in float); the CPU's is refused, so the reference
    is the float32 scan rounded."""
    x = make((4, 50), opscope.float16, seed=5, low=0.5, high=1.0)
    got = opscope.cumsum(dev(x), 1)
    assert got.dtype == opscope.float16
    want = opscope.cumsum(x.float(), 1).half()
    np.testing.assert_allclose(got.cpu().float().numpy(), want.float().numpy(), rtol=2e-3)


def test_scan_out_and_errors():
    x = make((3, 4), opscope.float32, seed=6)
    out = dev(opscope.empty(0))
    opscope.cumsum(dev(x), 1, out=out)
    assert_same(out, opscope.cumsum(x, 1))
    out64 = dev(opscope.empty(0, dtype=opscope.float64))
    opscope.cumprod(dev(x), 0, dtype=opscope.float64, out=out64)
    assert_same(out64, opscope.cumprod(x, 0, dtype=opscope.float64))
    with pytest.raises(RuntimeError, match="provided dtype must match dtype of result in cumsum"):
        opscope.cumsum(dev(x), 1, dtype=opscope.float64, out=dev(opscope.empty(0)))
    with pytest.raises(IndexError, match="Dimension out of range"):
        opscope.cumsum(dev(x), 2)


def test_scan_gradients():
    """cumsum's and cumprod's backward run on the device (flip, cumsum, mul, div)."""
    for name in ("cumsum", "cumprod"):
        x = make((3, 5), opscope.float64, seed=7, low=0.5, high=1.5)
        a = x.clone().requires_grad_()
        b = dev(x).requires_grad_()
        g = make((3, 5), opscope.float64, seed=8)
        getattr(opscope, name)(a, 1).backward(g)
        getattr(opscope, name)(b, 1).backward(dev(g))
        assert_same(b.grad, a.grad)


def test_flip():
    x = make((3, 4, 5), opscope.float32, seed=9)
    for cpu, gpu in layouts(x):
        for dims in ([0], [-1], [0, 2], [0, 1, 2], []):
            assert_same(opscope.flip(gpu, dims), opscope.flip(cpu, dims), exact=True)
    i = make((6,), opscope.int64, seed=10, low=-5, high=5)
    assert_same(opscope.flip(dev(i), [0]), opscope.flip(i, [0]))
    z = opscope.tensor(3.5)
    assert_same(opscope.flip(dev(z), [0]), opscope.flip(z, [0]))
    e = opscope.empty(0, 3)
    assert_same(opscope.flip(dev(e), [1]), opscope.flip(e, [1]))
    with pytest.raises(RuntimeError, match="dim 0 appears multiple times in the list of dims"):
        opscope.flip(dev(x), [0, -3])


# --- sort / argsort / topk ----------------------------------------------------------------------

ALL_DTYPES = [opscope.float32, opscope.float64, opscope.float16, opscope.bfloat16, opscope.int64,
              opscope.int32, opscope.int16, opscope.int8, opscope.uint8]


def distinct(shape, dtype, seed):
    """Distinct values (a permutation, shifted to the dtype's range), exact in every dtype."""
    n = int(np.prod(shape))
    r = np.random.default_rng(seed)
    v = r.permutation(n).astype(np.float64)
    if dtype != opscope.uint8:
        v -= n // 2
    return opscope.tensor(v.reshape(shape)).to(dtype)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("descending", [False, True])
def test_sort_distinct(dtype, descending):
    """Distinct values (100 fit int8 / uint8): values and indices as the CPU's, each layout."""
    x = distinct((10, 10), dtype, seed=11)
    for cpu, gpu in layouts(x):
        for dim in (0, 1, -1):
            v, i = opscope.sort(gpu, dim=dim, descending=descending)
            cv, ci = opscope.sort(cpu, dim=dim, descending=descending)
            assert_same(v, cv, exact=True)
            assert_same(i, ci)
            assert_same(opscope.argsort(gpu, dim=dim, descending=descending), ci)


@pytest.mark.parametrize("dtype", [opscope.float32, opscope.float64, opscope.int64,
                                   opscope.bool])
@pytest.mark.parametrize("descending", [False, True])
def test_sort_ties_nan_zeros(dtype, descending):
    """Ties keep their order (the GPU sort is stable): the CPU's stable sort, NaN included
    (above every number) and -0.0 equal to 0.0."""
    x = make((6, 40), dtype, seed=12, low=-3, high=3)
    if dtype.is_floating_point:
        x = x.round()  # many ties
        x[0, 3] = x[0, 9] = x[2, 0] = float("nan")
        x[1, 4] = -0.0
        x[1, 5] = 0.0
        x[1, 6] = -0.0
        x[3, :] = float("nan")
    for cpu, gpu in layouts(x):
        v, i = opscope.sort(gpu, dim=1, descending=descending, stable=True)
        cv, ci = opscope.sort(cpu, dim=1, descending=descending, stable=True)
        assert_same(v, cv, exact=True)
        assert_same(i, ci)
        if dtype.is_floating_point:  # -0.0 kept as itself
            np.testing.assert_array_equal(np.signbit(v.cpu().numpy()), np.signbit(cv.numpy()))


@pytest.mark.parametrize("n", [1, 2, 3, 1000, 4097, 70000])
def test_sort_lengths(n):
    """Rows of any length: padded to a power of two, up to 2^17 here."""
    x = distinct((2, n), opscope.float32, seed=13)
    v, i = opscope.sort(dev(x), dim=1)
    cv, ci = opscope.sort(x, dim=1)
    assert_same(v, cv, exact=True)
    assert_same(i, ci)
    x = distinct((n, 3), opscope.int64, seed=14)
    v, i = opscope.sort(dev(x), dim=0, descending=True)
    cv, ci = opscope.sort(x, dim=0, descending=True)
    assert_same(v, cv)
    assert_same(i, ci)


def test_sort_empty_scalar_out():
    for shape in ((0,), (0, 3), (3, 0)):
        e = opscope.empty(shape)
        v, i = opscope.sort(dev(e), dim=-1)
        assert v.shape == e.shape and i.shape == e.shape and i.dtype == opscope.int64
    z = opscope.tensor(2.5)
    v, i = opscope.sort(dev(z))
    assert_same(v, z, exact=True)
    assert_same(i, opscope.tensor(0))
    x = distinct((4, 5), opscope.float32, seed=15)
    vo, io = dev(opscope.empty(0)), dev(opscope.empty(0, dtype=opscope.int64))
    opscope.sort(dev(x), 0, False, values=vo, indices=io)  # opscope's binding: no out=(v, i)
    cv, ci = opscope.sort(x, dim=0)
    assert_same(vo, cv, exact=True)
    assert_same(io, ci)
    with pytest.raises(RuntimeError, match="Expected out tensor to have dtype long int"):
        opscope.sort(dev(x), 0, False, values=dev(opscope.empty(0)), indices=dev(opscope.empty(0)))


@pytest.mark.parametrize("dtype", [opscope.float32, opscope.float64, opscope.int64,
                                   opscope.int32, opscope.bfloat16])
@pytest.mark.parametrize("largest", [True, False])
def test_topk(dtype, largest):
    x = distinct((7, 30), dtype, seed=16)
    for n, (cpu, gpu) in enumerate(layouts(x)):
        for k, dim in ((1, 1), (5, 1), (30, 1), (0, 1), (3, 0), (7, 0)):
            v, i = opscope.topk(gpu, k, dim=dim, largest=largest)
            cv, ci = opscope.topk(cpu, k, dim=dim, largest=largest)
            assert_same(v, cv, exact=True)
            if n == 2:
                # The stepped layout holds each row's values twice (layouts()): which of two
                # equal values topk names is left open (torch's CPU and CUDA kernels differ
                # too), so the indices are checked by what they point at.
                assert_same(opscope.gather(gpu, dim, i), cv, exact=True)
            else:
                assert_same(i, ci)


def test_topk_half_nan_scalar_out_errors():
    if DEVICE == "cuda":
        x = distinct((5, 40), opscope.float16, seed=17)
        v, i = opscope.topk(dev(x), 6)
        cv, ci = opscope.topk(x.float(), 6)  # the CPU has no float16 topk
        assert_same(v, cv.half(), exact=True)
        assert_same(i, ci)
    y = distinct((3, 20), opscope.float32, seed=18)
    y[1, 5] = float("nan")
    for largest in (True, False):
        v, i = opscope.topk(dev(y), 4, largest=largest)
        cv, ci = opscope.topk(y, 4, largest=largest)
        assert_same(v, cv, exact=True)
        assert_same(i, ci)
    z = opscope.tensor(1.5)
    v, i = opscope.topk(dev(z), 1)
    assert_same(v, opscope.topk(z, 1)[0], exact=True)
    assert_same(i, opscope.topk(z, 1)[1])
    vo, io = dev(opscope.empty(0)), dev(opscope.empty(0, dtype=opscope.int64))
    opscope.topk(dev(y), 3, 0, True, True, values=vo, indices=io)
    cv, ci = opscope.topk(y, 3, dim=0)
    assert_same(vo, cv, exact=True)
    assert_same(io, ci)
    with pytest.raises(RuntimeError, match="selected index k out of range"):
        opscope.topk(dev(y), 21)
    if DEVICE == "cuda":
        with pytest.raises(RuntimeError, match="\"topk_out_cuda\" not implemented for 'Bool'"):
            opscope.topk(dev(opscope.ones(3, dtype=opscope.bool)), 1)


def test_sort_topk_gradients():
    x = distinct((4, 6), opscope.float64, seed=19)
    g = make((4, 3), opscope.float64, seed=20)
    a = x.clone().requires_grad_()
    b = dev(x).requires_grad_()
    opscope.topk(a, 3)[0].backward(g)
    opscope.topk(b, 3)[0].backward(dev(g))
    assert_same(b.grad, a.grad)
    a.grad = None
    b.grad = None
    gs = make((4, 6), opscope.float64, seed=21)
    opscope.sort(a, dim=0, descending=True)[0].backward(gs)
    opscope.sort(b, dim=0, descending=True)[0].backward(dev(gs))
    assert_same(b.grad, a.grad)
