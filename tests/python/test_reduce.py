"""Reductions — sum, mean, prod, max / min, amax / amin, argmax / argmin, var / std (and var_mean /
std_mean), norm / linalg_vector_norm, all / any, count_nonzero, logsumexp, cumsum / cumprod,
softmax / log_softmax — against NumPy in float64.

* values: random shapes, every dim / one dim / tuples of dims / negative dims, keepdim, dtype=,
  non-contiguous inputs (transposed, stepped, expanded), 0-d inputs, empty inputs and 0-size
  dims, every dtype torch 1.13 supports for the op, NaN and infinities;
* forms: functions, methods, out=, the named (values, indices) results;
* errors: torch's exception types and messages (out-of-range and repeated dims, dtypes the op
  refuses, reductions without identity over nothing, out= dtypes).

    /usr/bin/python3 -m pytest -q tests/python/test_reduce.py
"""
import math
import warnings

import numpy as np
import pytest

import opscope
from conftest import assert_close, to_numpy, tolerance

FAMILY = "reduce"
INTEGERS = ["uint8", "int8", "int16", "int32", "int64"]
FLOATS = ["float16", "bfloat16", "float32", "float64"]
ALL = ["bool"] + INTEGERS + FLOATS
SHAPES = [(7,), (3, 5), (2, 3, 4), (4, 1, 6), (2, 3, 2, 5)]
LAYOUTS = ["contiguous", "transposed", "stepped", "expanded"]


def dt(name):
    return getattr(opscope, name)


def sample(shape, dtype, rng, low=-3.0, high=3.0):
    """Random values of `dtype` as a NumPy array holding exactly what the opscope tensor holds."""
    if dtype == "bool":
        return np.asarray(rng.random(shape) < 0.5)
    if dtype in INTEGERS:
        return rng.integers(0 if dtype == "uint8" else -4, 5, shape).astype(dtype)
    return to_numpy(opscope.tensor(rng.uniform(low, high, shape)).to(dt(dtype)))


def make(shape, dtype, rng, layout="contiguous", **kw):
    """(opscope tensor, the same values as a NumPy array) with the requested memory layout."""
    if layout == "contiguous" or len(shape) < 2:
        a = sample(shape, dtype, rng, **kw)
        return opscope.tensor(a).to(dt(dtype)), a
    if layout == "transposed":
        a = sample(shape[::-1], dtype, rng, **kw)
        t = opscope.tensor(a).to(dt(dtype)).permute(*range(len(shape) - 1, -1, -1))
        return t, a.transpose()
    if layout == "stepped":
        big = (shape[0] * 2,) + shape[1:-1] + (shape[-1] * 3,)
        a = sample(big, dtype, rng, **kw)
        t = opscope.tensor(a).to(dt(dtype))[::2, ..., 1::3]
        return t, a[::2, ..., 1::3]
    a = sample((1,) + shape[1:], dtype, rng, **kw)  # expanded along dim 0
    return opscope.tensor(a).to(dt(dtype)).expand(*shape), np.broadcast_to(a, shape)


def dim_choices(ndim):
    """None (all), every single dim and its negative form, and a tuple of two dims."""
    out = [None] + list(range(ndim)) + [-1]
    if ndim >= 2:
        out += [(0, ndim - 1), (-1, 0)]
    if ndim >= 3:
        out += [(0, 2)]
    return out


def np_axis(dim):
    return tuple(dim) if isinstance(dim, (tuple, list)) else dim


def f64(a):
    return np.asarray(a, dtype=np.float64)


def check(actual, expected, dtype, what, **kw):
    tol = tolerance(dtype)
    tol.update(kw)
    assert_close(actual, expected, what=what, family=FAMILY, **tol)


def call_dim(fn, t, dim, **kw):
    return fn(t, **kw) if dim is None else fn(t, dim, **kw)


# --- sum, mean, prod ---------------------------------------------------------------------------
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("keepdim", [False, True])
def test_sum_mean_float32_every_dim(shape, layout, keepdim, rng):
    t, a = make(shape, "float32", rng, layout)
    for dim in dim_choices(len(shape)):
        kw = {} if dim is None else {"keepdim": keepdim}
        ax = np_axis(dim)
        kd = keepdim and dim is not None
        r = opscope.sum(t) if dim is None else opscope.sum(t, dim, keepdim=keepdim)
        check(r, f64(a).sum(axis=ax, keepdims=kd), "float32", f"sum {shape} dim={dim}", atol=1e-5)
        assert r.dtype == opscope.float32
        r = t.mean() if dim is None else t.mean(dim, **kw)
        check(r, f64(a).mean(axis=ax, keepdims=kd), "float32", f"mean {shape} dim={dim}", atol=1e-5)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16", "float16"])
def test_nansum_nanmean_every_dim(shape, layout, dtype, rng):
    """NaNs left out: nansum counts them as 0, nanmean divides by the count of numbers (NaN where
    there is none); the vector loop and the scalar tail see NaNs in every lane."""
    t, _ = make(shape, "float64", rng, layout)
    holes = opscope.tensor(rng.random(tuple(t.shape)) < 0.3)
    t = opscope.where(holes, float("nan"), t).to(getattr(opscope, dtype))
    a = to_numpy(t).astype(np.float64)
    for dim in dim_choices(len(shape)):
        for keepdim in (False, True):
            kw = {} if dim is None else {"dim": dim, "keepdim": keepdim}
            kd = keepdim and dim is not None
            r = opscope.nansum(t, **kw)
            assert r.dtype == t.dtype
            check(r, np.nansum(a, axis=np_axis(dim), keepdims=kd), dtype, f"nansum {shape} dim={dim}", atol=1e-3)
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)  # numpy's "mean of empty slice"
                want = np.nanmean(a, axis=np_axis(dim), keepdims=kd)
            got = to_numpy(t.nanmean(**kw)).astype(np.float64)
            np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
            check(got[~np.isnan(got)], want[~np.isnan(want)], dtype, f"nanmean {shape} dim={dim}", atol=1e-3)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ["float64", "float32", "bfloat16", "int64", "uint8", "bool"])
def test_cummax_cummin_logcumsumexp(dtype, layout, rng):
    """Running maxima / minima with the index of the latest equal element (a NaN sticks, at
    its index), and log(cumsum(exp)) without overflow, along every dim."""
    for shape in [(5, 7), (3, 4, 6), (9,)]:
        t, _ = make(shape, "float64", rng, layout)
        t = (t * 3).round()  # ties
        if dtype.startswith("float"):
            t = opscope.where(opscope.tensor(rng.random(tuple(t.shape)) < 0.1), float("nan"), t)
        t = (t > 0) if dtype == "bool" else t.abs().to(getattr(opscope, dtype)) if dtype == "uint8" else t.to(getattr(opscope, dtype))
        a = to_numpy(t).astype(np.float64)
        for dim in range(-len(shape), len(shape)):
            for name, better in (("cummax", np.greater_equal), ("cummin", np.less_equal)):
                v, i = getattr(t, name)(dim)
                assert v.dtype == t.dtype and i.dtype == opscope.int64 and v.shape == t.shape
                moved = np.moveaxis(a, dim, -1)
                want_v, want_i = np.empty_like(moved), np.empty(moved.shape, dtype=np.int64)
                for idx in np.ndindex(moved.shape[:-1]):
                    best, at = moved[idx + (0,)], 0
                    for k, x in enumerate(moved[idx]):
                        if np.isnan(x) or (not np.isnan(best) and better(x, best)):
                            best, at = x, k
                        want_v[idx + (k,)], want_i[idx + (k,)] = best, at
                np.testing.assert_array_equal(to_numpy(v).astype(np.float64), np.moveaxis(want_v, -1, dim))
                np.testing.assert_array_equal(to_numpy(i), np.moveaxis(want_i, -1, dim))
            if dtype in ("float64", "float32", "bfloat16"):
                r = opscope.logcumsumexp(t, dim)
                with np.errstate(all="ignore"):
                    want = np.logaddexp.accumulate(a, axis=dim)
                got = to_numpy(r).astype(np.float64)
                np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
                check(got[~np.isnan(got)], want[~np.isnan(want)], dtype, f"logcumsumexp {shape} {dim}")


def test_cummax_logcumsumexp_rules():
    x = opscope.tensor([2.0, 2.0, 1.0, 2.0, float("nan"), 3.0])
    assert opscope.cummax(x, 0).indices.tolist() == [0, 1, 1, 3, 4, 4]
    assert opscope.cummin(x, 0).indices.tolist() == [0, 1, 2, 2, 4, 4]
    r = opscope.cummax(opscope.tensor(3.0), 0)
    assert r.values.item() == 3.0 and r.indices.item() == 0 and r.values.dim() == 0
    assert opscope.cummax(opscope.zeros(0, 2), 0).values.shape == (0, 2)
    v, i = opscope.empty(0), opscope.empty(0, dtype=opscope.int64)
    assert opscope.cummin(opscope.tensor([[3.0, 1.0, 2.0]]), 1, out=(v, i)).values is v
    assert v.tolist() == [[3.0, 1.0, 1.0]] and i.tolist() == [[0, 1, 1]]
    assert opscope.logcumsumexp(opscope.tensor([-math.inf, -math.inf, 0.0, math.inf, 1.0]), 0).tolist() == \
        [-math.inf, -math.inf, 0.0, math.inf, math.inf]
    assert opscope.logcumsumexp(opscope.tensor([1000.0, 1000.0]), 0).tolist() == [1000.0, pytest.approx(1000.6931472)]
    with pytest.raises(RuntimeError, match="\"cummax_cpu\" not implemented for 'Half'"):
        opscope.cummax(opscope.tensor([1.0], dtype=opscope.float16), 0)
    with pytest.raises(RuntimeError, match="\"logcumsumexp_out_cpu\" not implemented for 'Long'"):
        opscope.logcumsumexp(opscope.tensor([1, 2]), 0)
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of \[-1, 0\], but got 3\)"):
        opscope.cummax(opscope.zeros(2), 3)
    a = opscope.tensor([1.0, 3.0, 2.0, 5.0], requires_grad=True)
    a.cummax(0).values.sum().backward()
    assert a.grad.tolist() == [1.0, 2.0, 0.0, 1.0]
    assert a.cummin(0).values.grad_fn.name() == "CumminBackward0"
    with opscope.trace() as t:
        a.cummax(0)
        opscope.logcumsumexp(a, 0)
    assert [c.name for c in t.roots[0].walk()][1:] == ["aten::empty.memory_format", "aten::empty.memory_format",
                                                       "aten::cummax.out", "aten::_cummax_helper"]
    assert [c.name for c in t.roots[1].walk()][-1] == "aten::_logcumsumexp"


def test_cumsum_cumprod_in_place():
    x = opscope.tensor([[1, 2, 3], [4, 5, 6]], dtype=opscope.int32)
    assert x.cumsum_(1) is x and x.dtype == opscope.int32 and x.tolist() == [[1, 3, 6], [4, 9, 15]]
    y = opscope.tensor([1.0, 2.0, 3.0, 4.0])
    assert y.cumprod_(0).tolist() == [1.0, 2.0, 6.0, 24.0]
    t = opscope.arange(12.0).reshape(3, 4).t()  # non-contiguous
    want = opscope.arange(12.0).reshape(3, 4).t().cumsum(0)
    assert t.cumsum_(0).tolist() == want.tolist()
    assert opscope.tensor([1, 2], dtype=opscope.uint8).cumprod_(0).tolist() == [1, 2]
    with pytest.raises(RuntimeError, match="Bad in-place call: input tensor dtype float and output "
                                           "tensor dtype double should match"):
        opscope.tensor([1.0, 2.0]).cumsum_(0, dtype=opscope.float64)
    with pytest.raises(RuntimeError, match="Bad in-place call: input tensor dtype long int and "
                                           "output tensor dtype float should match"):
        opscope.tensor([1, 2]).cumprod_(0, dtype=opscope.float32)
    with pytest.raises(RuntimeError, match="\"cumsum_out_cpu\" not implemented for 'Bool'"):
        opscope.tensor([True, True]).cumsum_(0)
    a = opscope.tensor([1.0, 2.0, 3.0], requires_grad=True)
    r = (a * 1).cumprod_(0)
    assert r.grad_fn.name() == "CumprodBackward0"
    r.sum().backward()
    assert a.grad.tolist() == [9.0, 4.0, 2.0]  # d/da of a0 + a0 a1 + a0 a1 a2


def test_cummax_helpers_check_their_outputs():
    # Found by the fuzzer (seed 3535): _cummax_helper / _cummin_helper wrote self's elements into
    # whatever outputs they were given (a (0, 3) float16 values): a segfault. torch's dtype
    # messages now, and outputs of another size are resized.
    x = opscope.full((2, 4, 1), 2.0)
    for helper in (opscope._cummax_helper, opscope._cummin_helper):
        with pytest.raises(RuntimeError, match="expected scalar type Float but found Half"):
            helper(x, opscope.empty((0, 3), dtype=opscope.float16), opscope.empty(0, dtype=opscope.int64), -1)
        with pytest.raises(RuntimeError, match="expected scalar type Long but found Int"):
            helper(x, opscope.empty(0), opscope.empty(0, dtype=opscope.int32), -1)
        v, i = opscope.empty((0, 3)), opscope.tensor([-1, 0, -2, 1, -1, 0]).reshape(2, 3)
        helper(x, v, i, 1)
        assert tuple(v.shape) == tuple(i.shape) == (2, 4, 1) and v.tolist() == x.tolist()


@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8"])
def test_bincount_matches_numpy(dtype, rng):
    for n, minlength in [(50, 0), (7, 20), (0, 3), (1, 0)]:
        x = rng.integers(0, 12, n)
        t = opscope.tensor(x).to(getattr(opscope, dtype))
        r = opscope.bincount(t, minlength=minlength)
        assert r.dtype == opscope.int64
        np.testing.assert_array_equal(to_numpy(r), np.bincount(x, minlength=minlength))
        w = rng.uniform(-1, 1, n)
        for wdtype, rdtype in (("float32", opscope.float32), ("float64", opscope.float64), ("int64", opscope.float64)):
            tw = opscope.tensor(w * 10 if wdtype == "int64" else w).to(getattr(opscope, wdtype))
            r = opscope.bincount(t, tw, minlength)
            assert r.dtype == rdtype
            check(r, np.bincount(x, to_numpy(tw).astype(np.float64), minlength), "float32", f"bincount {wdtype}")


@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16"])
def test_histc_matches_numpy(dtype, rng):
    for n, bins, lo, hi in [(200, 10, -2.0, 3.0), (50, 7, 0, 0), (30, 1, -1.0, 1.0), (0, 4, 0, 0)]:
        x = rng.normal(0, 1.5, n)
        t = opscope.tensor(x).to(getattr(opscope, dtype))
        xn = to_numpy(t).astype(np.float64)
        r = opscope.histc(t, bins=bins, min=lo, max=hi)
        assert r.dtype == t.dtype and r.shape == (bins,)
        rng_lo, rng_hi = (lo, hi) if lo != hi else ((xn.min(), xn.max()) if n else (-1.0, 1.0))
        keep = xn[(xn >= rng_lo) & (xn <= rng_hi)]
        want, _ = np.histogram(keep, bins=bins, range=(rng_lo, rng_hi))
        # a value on an edge may fall either side through rounding: totals agree, bins within one
        got = to_numpy(r).astype(np.float64)
        assert got.sum() == want.sum() and np.abs(got - want).max() <= 1, (got, want)


def test_bincount_histc_rules():
    assert opscope.bincount(opscope.tensor([], dtype=opscope.int64)).tolist() == []
    assert opscope.histc(opscope.tensor([1.0, 2.0, 1.0]), bins=4, min=0, max=3).tolist() == [0.0, 2.0, 1.0, 0.0]
    assert opscope.histc(opscope.tensor([0.0, 1.0, 2.0, 3.0]), bins=3, min=0, max=3).tolist() == [1.0, 1.0, 2.0]
    assert opscope.histc(opscope.tensor([2.0, 2.0]), bins=3).tolist() == [0.0, 2.0, 0.0]
    messages = [
        (lambda: opscope.bincount(opscope.tensor([-1])), "bincount only supports 1-d non-negative integral inputs."),
        (lambda: opscope.bincount(opscope.tensor([[1]])), "bincount only supports 1-d non-negative integral inputs."),
        (lambda: opscope.bincount(opscope.tensor([1.0])), "\"bincount_cpu\" not implemented for 'Float'"),
        (lambda: opscope.bincount(opscope.tensor([1, 2]), opscope.tensor([1.0])),
         "weights should be 1-d and have the same length as input"),
        (lambda: opscope.bincount(opscope.tensor([1]), minlength=-1), "minlength should be >= 0"),
        (lambda: opscope.histc(opscope.tensor([1, 2]), bins=3), "\"histogram_cpu\" not implemented for 'Long'"),
        (lambda: opscope.histc(opscope.tensor([1.0]), bins=0),
         "torch.histogram(): bins must be > 0, but got 0 for dimension 0"),
        (lambda: opscope.histc(opscope.tensor([1.0]), bins=2, min=3, max=1), "torch.histc: max must be larger than min"),
        (lambda: opscope.histc(opscope.tensor([float("nan")]), bins=2), "torch.histc: range of [nan, nan] is not finite"),
        (lambda: opscope.histc(opscope.tensor([1.0, float("inf")]), bins=2), "torch.histc: range of [1, inf] is not finite"),
    ]
    for call, message in messages:
        with pytest.raises(RuntimeError) as info:
            call()
        assert str(info.value) == message
    # bincount's weights: torch 1.13's NotImplemented node; histc: no gradient at all
    w = opscope.tensor([0.5, 1.0], requires_grad=True)
    r = opscope.bincount(opscope.tensor([0, 2]), w)
    assert r.grad_fn.name() == "NotImplemented"
    with pytest.raises(RuntimeError, match="derivative for aten::bincount is not implemented"):
        r.sum().backward()
    assert not opscope.histc(w, bins=3).requires_grad


def test_nansum_nanmean_rules():
    assert opscope.nansum(opscope.tensor([1, 2, 3], dtype=opscope.uint8)).tolist() == 6
    assert opscope.nansum(opscope.tensor([True, True])).dtype == opscope.int64
    assert opscope.nansum(opscope.tensor([]), 0).item() == 0.0
    assert opscope.nanmean(opscope.tensor([float("nan")])).isnan().item()
    assert opscope.nansum(opscope.tensor([1.0, float("nan")]), dtype=opscope.float64).dtype == opscope.float64
    out = opscope.empty(0)
    assert opscope.nanmean(opscope.tensor([[1.0, float("nan"), 3.0]]), 1, out=out) is out and out.tolist() == [2.0]
    with pytest.raises(RuntimeError, match="nanmean\\(\\): expected input to have floating point dtype but got Long"):
        opscope.nanmean(opscope.tensor([1, 2]))
    x = opscope.tensor([[1.0, float("nan")], [3.0, 4.0]], dtype=opscope.float64, requires_grad=True)
    x.nansum(0).sum().backward()
    assert x.grad.tolist() == [[1.0, 0.0], [1.0, 1.0]]
    assert x.nansum().grad_fn.name() == "NansumBackward0"
    with opscope.trace() as t:
        x.nanmean(1)
    assert [c.name for c in t.roots[0].children][:3] == ["aten::ne.Tensor", "aten::logical_not_", "aten::sum.dim_IntList"]


@pytest.mark.parametrize("dtype", ALL)
def test_sum_every_dtype(dtype, rng):
    t, a = make((4, 6), dtype, rng)
    expected_dtype = "int64" if dtype == "bool" or dtype in INTEGERS else dtype
    for dim in [None, 0, 1, (0, 1)]:
        r = call_dim(opscope.sum, t, dim)
        assert r.dtype == dt(expected_dtype), (dtype, dim)
        e = f64(a).sum(axis=np_axis(dim))
        if expected_dtype == "int64":
            e = a.astype(np.int64).sum(axis=np_axis(dim))
        check(r, e, expected_dtype, f"sum {dtype} dim={dim}", rtol=max(tolerance(dtype)["rtol"], 1e-6) * 4,
              atol=max(tolerance(dtype)["atol"], 1e-6) * 8)


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int32", "int64", "float32", "float64"])
def test_prod_every_dtype(dtype, rng):
    t, a = make((3, 5), dtype, rng, low=0.5, high=1.5)
    out_dtype = "int64" if dtype in INTEGERS or dtype == "bool" else dtype
    for dim in [None, 0, 1, -1]:
        r = t.prod() if dim is None else t.prod(dim)
        assert r.dtype == dt(out_dtype)
        e = (a.astype(np.int64) if out_dtype == "int64" else f64(a)).prod(axis=dim)
        check(r, e, out_dtype, f"prod {dtype} dim={dim}")
    r = opscope.prod(t, 1, keepdim=True)
    assert r.shape == (3, 1)


def test_dtype_argument_casts_first(rng):
    t, a = make((3, 4), "int32", rng)
    r = t.sum(dtype=opscope.float64)
    assert r.dtype == opscope.float64
    check(r, a.sum(), "float64", "sum dtype=")
    r = t.sum(1, dtype=opscope.float32)
    assert r.dtype == opscope.float32
    r = opscope.mean(t, 0, dtype=opscope.float64)
    check(r, f64(a).mean(0), "float64", "mean dtype=")
    r = t.prod(0, dtype=opscope.float64)
    check(r, f64(a).prod(0), "float64", "prod dtype=")
    h = opscope.tensor([60000.0, 60000.0], dtype=opscope.float16)
    assert math.isinf(h.sum().item())  # float16 result overflows ...
    assert h.sum(dtype=opscope.float32).item() == 120000.0  # ... but not with dtype=float32
    assert opscope.tensor([True, True]).sum(dtype=opscope.bool).item() is True
    b = opscope.tensor([200, 100], dtype=opscope.uint8)
    assert b.sum().item() == 300 and b.sum(dtype=opscope.uint8).item() == 44  # wraps as torch


def test_float16_bfloat16_accumulate_in_float(rng):
    for name in ["float16", "bfloat16"]:
        t = opscope.ones(5000, dtype=dt(name))
        # One rounding at the end: 5000 ones sum to 5000 in float (4992 / 5008 in bfloat16).
        assert t.sum().float().item() in (5000.0, 4992.0, 5008.0), name
        assert abs(t.mean().float().item() - 1.0) < 1e-2


def test_float32_sum_of_many_keeps_precision(rng):
    a = rng.random(3_000_001).astype(np.float32)
    t = opscope.tensor(a)
    check(t.sum(), f64(a).sum(), "float32", "sum 3e6", rtol=1e-6, atol=0)
    check(t.mean(), f64(a).mean(), "float32", "mean 3e6", rtol=1e-6, atol=0)
    m = t[:3_000_000].view(3000, 1000)
    check(m.sum(0), f64(a[:3_000_000]).reshape(3000, 1000).sum(0), "float32", "sum dim0", rtol=2e-6)
    check(m.sum(1), f64(a[:3_000_000]).reshape(3000, 1000).sum(1), "float32", "sum dim1", rtol=2e-6)


def test_mean_needs_floating():
    with pytest.raises(RuntimeError, match=r"mean\(\): could not infer output dtype. Input dtype must "
                       r"be either a floating point or complex dtype. Got: Int"):
        opscope.ones(2, dtype=opscope.int32).mean()
    with pytest.raises(RuntimeError, match="Optional dtype must be either a floating point or complex "
                       "dtype. Got: Long"):
        opscope.ones(2).mean(dtype=opscope.int64)


def test_prod_has_no_half_kernel():
    with pytest.raises(RuntimeError, match="\"prod_cpu\" not implemented for 'Half'"):
        opscope.ones(2, dtype=opscope.float16).prod()
    assert opscope.ones(2, dtype=opscope.float16).prod(dtype=opscope.float32).item() == 1.0


# --- dims -----------------------------------------------------------------------------------------
def test_dim_errors():
    t = opscope.ones(2, 3)
    msg = r"Dimension out of range \(expected to be in range of \[-2, 1\], but got 5\)"
    for fn in [lambda: t.sum(5), lambda: t.mean((0, 5)), lambda: t.amax(5), lambda: t.max(5),
               lambda: t.argmax(5), lambda: t.var(5), lambda: t.cumsum(5), lambda: t.softmax(5),
               lambda: t.prod(5), lambda: t.all(5), lambda: opscope.logsumexp(t, 5)]:
        with pytest.raises(IndexError, match=msg):
            fn()
    with pytest.raises(RuntimeError, match="dim 0 appears multiple times in the list of dims"):
        t.sum((0, -2))
    with pytest.raises(IndexError, match=r"expected to be in range of \[-1, 0\], but got 5"):
        opscope.tensor(3.0).sum(5)


def test_zero_dim_inputs():
    t = opscope.tensor(2.5)
    for r in [t.sum(), t.sum(0), t.sum(-1, keepdim=True), t.mean(0), t.amax(0), t.max(), t.prod(0),
              t.max(0)[0], t.cumsum(0), t.norm(), opscope.logsumexp(t, 0)]:
        assert r.shape == (), r
    assert t.sum(0).item() == 2.5 and t.max(0)[1].item() == 0 and t.argmax().item() == 0
    assert t.softmax(0).item() == 1.0 and t.log_softmax(-1).item() == 0.0
    assert math.isnan(t.var().item()) and t.var(unbiased=False).item() == 0.0
    assert t.all().item() is True and t.any(0).item() is True


def test_empty_inputs():
    e = opscope.empty(0, 3)
    assert e.sum().item() == 0 and e.prod().item() == 1
    assert to_numpy(e.sum(0)).tolist() == [0, 0, 0] and e.sum(1).shape == (0,)
    assert to_numpy(e.prod(0)).tolist() == [1, 1, 1]
    assert math.isnan(e.mean().item()) and np.isnan(to_numpy(e.mean(0))).all()
    assert e.all().item() is True and e.any().item() is False
    assert to_numpy(e.all(0)).tolist() == [True] * 3
    assert e.amax(1).shape == (0,) and e.max(1).values.shape == (0,) and e.argmax(1).shape == (0,)
    assert e.norm().item() == 0 and e.count_nonzero().item() == 0
    assert e.cumsum(0).shape == (0, 3) and e.softmax(1).shape == (0, 3)
    assert to_numpy(opscope.logsumexp(e, 0)).tolist() == [-math.inf] * 3
    assert np.isnan(to_numpy(e.var(0))).all()


@pytest.mark.parametrize("fn,name,exc", [
    (lambda e: e.max(), "max", RuntimeError), (lambda e: e.min(), "min", RuntimeError),
    (lambda e: e.amax(), "amax", RuntimeError), (lambda e: e.amin(), "amin", RuntimeError),
])
def test_no_identity_over_nothing_without_dim(fn, name, exc):
    with pytest.raises(exc, match=rf"^{name}\(\): Expected reduction dim to be specified for "
                       r"input.numel\(\) == 0. Specify the reduction dim with the 'dim' argument.$"):
        fn(opscope.empty(0))


def test_no_identity_over_nothing_with_dim():
    e = opscope.empty(0, 3)
    for name in ["max", "min", "amax", "amin", "argmax", "argmin"]:
        with pytest.raises(IndexError, match=rf"{name}\(\): Expected reduction dim 0 to have non-zero size."):
            getattr(e, name)(0)
    with pytest.raises(IndexError, match=r"argmax\(\): Expected reduction dim to be specified for "
                       r"input.numel\(\) == 0."):
        opscope.empty(0).argmax()


# --- max, min, amax, amin, argmax, argmin --------------------------------------------------------
@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "stepped"])
def test_max_min_every_dtype(dtype, layout, rng):
    t, a = make((4, 7), dtype, rng, layout)
    ref = a.astype(np.float64) if dtype != "bool" else a
    check(t.max(), ref.max(), dtype, "max()")
    check(t.min(), ref.min(), dtype, "min()")
    for dim in [0, 1, -1]:
        r = opscope.max(t, dim)
        assert r[0].dtype == t.dtype and r[1].dtype == opscope.int64
        check(r[0], ref.max(axis=dim), dtype, f"max dim={dim}")
        # ties: the first occurrence, as np.argmax
        check(r[1], np.argmax(ref, axis=dim), "int64", f"max indices dim={dim}")
        r = t.min(dim, keepdim=True)
        check(r[0], ref.min(axis=dim, keepdims=True), dtype, "min values")
        check(r[1], np.argmin(ref, axis=dim)[..., None] if dim != 0 else np.argmin(ref, axis=0)[None],
              "int64", "min indices")
        check(t.amax(dim), ref.max(axis=dim), dtype, "amax")
        check(opscope.amin(t, dim, True), ref.min(axis=dim, keepdims=True), dtype, "amin")
        if dtype != "bool":
            check(t.argmax(dim), np.argmax(ref, axis=dim), "int64", "argmax")
            check(t.argmin(dim, keepdim=True), np.expand_dims(np.argmin(ref, axis=dim), dim),
                  "int64", "argmin")
    check(t.amax((0, 1)), ref.max(), dtype, "amax all")
    check(t.amax(), ref.max(), dtype, "amax []")
    if dtype != "bool":
        check(t.argmax(), np.argmax(ref), "int64", "argmax flattened")
        assert t.argmax(keepdim=True).shape == (1, 1)


def test_max_returns_named_tuple():
    t = opscope.tensor([[1.0, 5.0, 2.0], [7.0, 0.0, 7.0]])
    r = opscope.max(t, 1)
    assert r[0].tolist() == [5.0, 7.0] and r[1].tolist() == [1, 0]
    assert r.values.tolist() == [5.0, 7.0] and r.indices.tolist() == [1, 0]
    values, indices = t.min(0)
    assert values.tolist() == [1.0, 0.0, 2.0] and indices.tolist() == [0, 1, 0]


def test_nan_propagates():
    nan = float("nan")
    t = opscope.tensor([[1.0, nan, 3.0, nan], [4.0, 2.0, -1.0, 0.0]])
    assert math.isnan(t.max().item()) and math.isnan(t.min().item())
    assert math.isnan(t.amax().item()) and math.isnan(t.amin().item())
    r = t.max(1)
    assert math.isnan(r.values[0].item()) and r.indices.tolist() == [1, 0]
    assert t.argmax(1).tolist() == [1, 0] and t.argmin(1).tolist() == [1, 2]
    assert t.argmax().item() == 1
    assert np.isnan(to_numpy(t.amax(0))).tolist() == [False, True, False, True]
    long = opscope.arange(100000.0)
    long[77777] = nan
    assert math.isnan(long.max().item()) and long.argmax().item() == 77777
    assert math.isnan(t.sum().item()) and math.isnan(t.norm().item())


def test_minmax_out_and_errors():
    t = opscope.tensor([[1.0, 3.0], [4.0, 2.0]])
    v, i = opscope.empty(0), opscope.empty(0, dtype=opscope.int64)
    r = opscope.max(t, 1, out=(v, i))
    assert r[0] is v and r[1] is i and v.tolist() == [3.0, 4.0] and i.tolist() == [1, 0]
    r = opscope.ops.aten.max.dim_max(t, 0, max=v, max_values=i)  # the overload, by keyword
    assert r[0] is v and v.tolist() == [4.0, 3.0] and i.tolist() == [1, 0]
    with pytest.raises(RuntimeError, match="Expected out tensor to have dtype long int, but got float instead"):
        opscope.ops.aten.max.dim_max(t, 0, max=opscope.empty(0), max_values=opscope.empty(0))
    out = opscope.empty(0)
    assert opscope.amax(t, 0, out=out) is out and out.tolist() == [4.0, 3.0]
    with pytest.raises(RuntimeError, match="Expected the dtype for input and out to match, but got Float "
                       "for input's dtype and Double for out's dtype."):
        opscope.amax(t, 0, out=opscope.empty(0, dtype=opscope.float64))
    out = opscope.empty(0, dtype=opscope.int64)
    assert opscope.argmax(t, 1, out=out) is out and out.tolist() == [1, 0]
    with pytest.raises(RuntimeError, match="\"argmax_cpu\" not implemented for 'Bool'"):
        opscope.tensor([True]).argmax()


# --- var, std ----------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16", "float16"])
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "stepped"])
def test_var_std(dtype, layout, rng):
    t, a = make((4, 3, 5), dtype, rng, layout)
    a = f64(a)
    loose = {"rtol": 2e-2, "atol": 2e-2} if dtype in ("bfloat16", "float16") else {"atol": 1e-5}
    check(t.var(), a.var(ddof=1), dtype, "var()", **loose)
    check(t.std(False), a.std(ddof=0), dtype, "std(False)", **loose)
    for dim in [0, -1, (0, 2)]:
        check(t.var(dim), a.var(axis=dim, ddof=1), dtype, f"var {dim}", **loose)
        check(t.var(dim, False, True), a.var(axis=dim, ddof=0, keepdims=True), dtype, "var pos", **loose)
        check(t.std(dim, unbiased=True), a.std(axis=dim, ddof=1), dtype, "std", **loose)
        check(opscope.var(t, dim, correction=2), a.var(axis=dim, ddof=2), dtype, "var corr", **loose)
        check(opscope.std(t, dim, correction=0, keepdim=True), a.std(axis=dim, keepdims=True), dtype,
              "std corr", **loose)
        v, m = opscope.var_mean(t, dim)
        check(v, a.var(axis=dim, ddof=1), dtype, "var_mean var", **loose)
        check(m, a.mean(axis=dim), dtype, "var_mean mean", **loose)
        assert m.dtype == t.dtype
        s, m = opscope.std_mean(t, dim, unbiased=False, keepdim=True)
        check(s, a.std(axis=dim, keepdims=True), dtype, "std_mean", **loose)


def test_var_edge_cases():
    with pytest.raises(RuntimeError, match="std and var only support floating point and complex dtypes"):
        opscope.ones(3, dtype=opscope.int32).var()
    one = opscope.ones(1)
    assert math.isnan(one.var().item()) and one.var(unbiased=False).item() == 0
    assert math.isnan(opscope.var(opscope.ones(2), 0, correction=2).item())  # 0 / 0
    assert math.isinf(opscope.var(opscope.tensor([1.0, 2.0]), 0, correction=2).item())
    with pytest.raises(TypeError):  # as torch 1.13: correction= needs dim
        opscope.var(opscope.ones(2), correction=2)
    out = opscope.empty(0)
    assert opscope.var(opscope.tensor([[1.0, 3.0]]), 1, out=out) is out and out.tolist() == [2.0]


# --- norm -------------------------------------------------------------------------------------
@pytest.mark.parametrize("p", [2, 1, 3, 0, 0.5, math.inf, -math.inf])
@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16"])
def test_norm(p, dtype, rng):
    t, a = make((3, 4, 5), dtype, rng, "transposed")
    a = f64(a)

    def ref(axis=None, keepdims=False):
        x = np.abs(a)
        if p == 0:
            return (x != 0).sum(axis=axis, keepdims=keepdims).astype(np.float64)
        if p == math.inf:
            return x.max(axis=axis, keepdims=keepdims)
        if p == -math.inf:
            return x.min(axis=axis, keepdims=keepdims)
        return (x ** p).sum(axis=axis, keepdims=keepdims) ** (1 / p)

    loose = {"rtol": 2e-2, "atol": 2e-2} if dtype == "bfloat16" else {"rtol": 1e-5, "atol": 1e-5}
    check(t.norm(p), ref(), dtype, f"norm p={p}", **loose)
    check(opscope.norm(t, p, 1), ref(1), dtype, f"norm p={p} dim 1", **loose)
    check(t.norm(p, (0, 2), True), ref((0, 2), True), dtype, "norm dims keepdim", **loose)
    check(opscope.linalg_vector_norm(t, p, -1), ref(-1), dtype, "linalg_vector_norm", **loose)
    assert t.norm(p).dtype == t.dtype


def test_norm_dtype_and_errors():
    t = opscope.tensor([3.0, 4.0])
    assert t.norm().item() == 5.0
    r = opscope.norm(t, 2, dtype=opscope.float64)
    assert r.dtype == opscope.float64 and r.item() == 5.0
    with pytest.raises(RuntimeError, match="norm\\(\\): input dtype should be either floating point or "
                       "complex. Got Long instead."):
        opscope.ones(2, dtype=opscope.int64).norm()
    with pytest.raises(RuntimeError, match="linalg.vector_norm: Expected a floating point or complex "
                       "tensor as input. Got Long"):
        opscope.linalg_vector_norm(opscope.ones(2, dtype=opscope.int64))
    with pytest.raises(RuntimeError, match="linalg.vector_norm cannot compute the inf norm on an empty "
                       "tensor because the operation does not have an identity"):
        opscope.linalg_vector_norm(opscope.empty(0), math.inf)
    assert opscope.empty(0).norm(math.inf).item() == 0.0


# --- all, any, count_nonzero -------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ALL)
def test_all_any(dtype, rng):
    t, a = make((4, 5), dtype, rng, "transposed")
    out_dtype = opscope.uint8 if dtype == "uint8" else opscope.bool
    a = a.astype(np.float64) != 0
    for r, e in [(t.all(), a.all()), (t.any(), a.any()), (t.all(0), a.all(0)), (t.any(1), a.any(1)),
                 (opscope.all(t, -1, keepdim=True), a.all(-1, keepdims=True))]:
        assert r.dtype == out_dtype
        check(r, e.astype(np.uint8) if dtype == "uint8" else e, "bool", f"all/any {dtype}")
    check(opscope.count_nonzero(t), a.sum(), "int64", "count_nonzero")
    check(opscope.count_nonzero(t, 1), a.sum(1), "int64", "count_nonzero dim")
    check(t.count_nonzero((0, 1)), a.sum(), "int64", "count_nonzero dims")
    nan = opscope.tensor([float("nan"), 1.0])
    assert nan.all().item() is True  # NaN is nonzero


def test_all_any_out():
    t = opscope.tensor([[True, False], [True, True]])
    out = opscope.empty(0, dtype=opscope.bool)
    assert opscope.all(t, 1, out=out) is out and out.tolist() == [False, True]
    assert opscope.any(t, out=out) is out and out.item() is True
    with pytest.raises(RuntimeError, match="all only supports bool tensor for result, got: Float"):
        opscope.all(t, 0, out=opscope.empty(0))


# --- logsumexp --------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16", "int64"])
def test_logsumexp(dtype, rng):
    t, a = make((3, 4, 5), dtype, rng, "stepped")
    a = f64(a) * (1.0 if dtype == "int64" else 1.0)

    def ref(axis, keepdims=False):
        m = a.max(axis=axis, keepdims=True)
        r = np.log(np.exp(a - m).sum(axis=axis, keepdims=True)) + m
        return r if keepdims else np.squeeze(r, axis=axis)

    r = opscope.logsumexp(t, 1)
    assert r.dtype == (opscope.float32 if dtype == "int64" else t.dtype)
    loose = {"rtol": 2e-2, "atol": 2e-2} if dtype == "bfloat16" else {"rtol": 1e-5, "atol": 1e-5}
    check(r, ref(1), "float64", "logsumexp", **loose)
    check(t.logsumexp((0, 2), keepdim=True), ref((0, 2), True), "float64", "logsumexp dims", **loose)
    big = opscope.tensor([[1000.0, 1000.0], [-math.inf, -math.inf], [math.inf, 1.0]])
    r = to_numpy(big.logsumexp(1)).tolist()
    assert r[0] == pytest.approx(1000.0 + math.log(2), rel=1e-6) and r[1:] == [-math.inf, math.inf]


# --- cumsum, cumprod ----------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["bool", "uint8", "int32", "int64", "bfloat16", "float32", "float64"])
@pytest.mark.parametrize("layout", ["contiguous", "transposed"])
def test_cumsum_cumprod(dtype, layout, rng):
    t, a = make((3, 4, 5), dtype, rng, layout, low=0.5, high=1.5)
    out_dtype = "int64" if dtype == "bool" or dtype in INTEGERS else dtype
    ref = a.astype(np.int64) if out_dtype == "int64" else f64(a)
    for dim in [0, 1, -1]:
        r = t.cumsum(dim)
        assert r.dtype == dt(out_dtype)
        check(r, np.cumsum(ref, axis=dim), out_dtype, f"cumsum {dim}", atol=1e-5)
        check(opscope.cumprod(t, dim), np.cumprod(ref, axis=dim), out_dtype, f"cumprod {dim}")
    r = t.cumsum(0, dtype=opscope.float64)
    assert r.dtype == opscope.float64
    with pytest.raises(RuntimeError, match="\"cumsum_out_cpu\" not implemented for 'Half'"):
        opscope.ones(2, dtype=opscope.float16).cumsum(0)


# --- softmax, log_softmax ----------------------------------------------------------------------
def np_softmax(a, axis):
    m = a.max(axis=axis, keepdims=True)
    e = np.exp(a - m)
    return e / e.sum(axis=axis, keepdims=True)


@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16"])
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "stepped"])
@pytest.mark.parametrize("shape", [(5,), (3, 70), (4, 3, 37)])
def test_softmax_log_softmax(dtype, layout, shape, rng):
    t, a = make(shape, dtype, rng, layout, low=-20, high=20)
    a = f64(a)
    loose = {"rtol": 2e-2, "atol": 1e-2} if dtype == "bfloat16" else {"rtol": 1e-5, "atol": 1e-6}
    for dim in range(-len(shape), len(shape)):
        r = t.softmax(dim)
        assert r.dtype == t.dtype
        check(r, np_softmax(a, dim), dtype, f"softmax {shape} {dim}", **loose)
        check(opscope.log_softmax(t, dim), np.log(np_softmax(a, dim)), dtype, f"log_softmax {dim}",
              **dict(loose, atol=max(loose["atol"], 1e-5) * (20 if dtype == "bfloat16" else 1)))


def test_softmax_special_values_and_dtype():
    inf, nan = math.inf, math.nan
    t = opscope.tensor([[-inf, -inf, -inf], [0.0, -inf, 0.0], [1.0, nan, 2.0], [inf, 1.0, 2.0]])
    r = to_numpy(t.softmax(1))
    assert np.isnan(r[0]).all() and r[1].tolist() == [0.5, 0.0, 0.5] and np.isnan(r[2]).all()
    assert np.isnan(r[3, 0]) and np.isnan(to_numpy(t.log_softmax(1))[0]).all()
    assert to_numpy(opscope.tensor([[1000.0, 0.0]]).log_softmax(1)).tolist() == [[0.0, -1000.0]]
    # exp of large negative and positive differences (the polynomial's clamps)
    x = opscope.tensor([[0.0, -50.0, -87.0, -90.0, -200.0]])
    check(x.softmax(1), np_softmax(f64(to_numpy(x)), 1), "float32", "softmax tails", atol=1e-30)
    i = opscope.tensor([1, 2, 3])
    r = i.softmax(0, dtype=opscope.float64)
    assert r.dtype == opscope.float64
    check(r, np_softmax(np.array([1.0, 2.0, 3.0]), 0), "float64", "softmax dtype=")
    with pytest.raises(RuntimeError, match="\"softmax_lastdim_kernel_impl\" not implemented for 'Long'"):
        i.softmax(0)
    with pytest.raises(RuntimeError, match="\"log_softmax_lastdim_kernel_impl\" not implemented for 'Half'"):
        opscope.ones(2, dtype=opscope.float16).log_softmax(-1)
    with pytest.raises(RuntimeError, match="softmax with half to float conversion is not supported on CPU"):
        opscope._softmax(opscope.ones(2, dtype=opscope.float16), 0, True)


def test_softmax_long_rows_and_columns(rng):
    a = rng.normal(size=(64, 1000)).astype(np.float32) * 10
    t = opscope.tensor(a)
    check(t.softmax(-1), np_softmax(f64(a), 1), "float32", "softmax rows", rtol=1e-5, atol=1e-7)
    check(t.softmax(0), np_softmax(f64(a), 0), "float32", "softmax columns", rtol=1e-5, atol=1e-7)
    check(t.log_softmax(0), np.log(np_softmax(f64(a), 0)), "float32", "log_softmax columns",
          rtol=1e-5, atol=1e-4)


# --- out= forms -------------------------------------------------------------------------------
def test_out_forms():
    t = opscope.tensor([[1.0, 2.0], [3.0, 4.0]])
    out = opscope.empty(0)
    assert opscope.sum(t, 0, out=out) is out and out.tolist() == [4.0, 6.0]
    out64 = opscope.empty(0, dtype=opscope.float64)
    assert opscope.sum(t, 1, out=out64) is out64 and out64.tolist() == [3.0, 7.0]
    with pytest.raises(RuntimeError, match="Expected out tensor to have dtype float, but got double instead"):
        opscope.sum(t, 0, dtype=opscope.float32, out=out64)
    assert opscope.mean(t, 1, out=out) is out and out.tolist() == [1.5, 3.5]
    assert opscope.prod(t, 0, out=out) is out and out.tolist() == [3.0, 8.0]
    assert opscope.cumsum(t, 1, out=out) is out and out.tolist() == [[1.0, 3.0], [3.0, 7.0]]
    assert opscope.softmax(t, 1, out=out) is out and out.shape == (2, 2)
    assert opscope.norm(t, 2, 0, out=out) is out
    assert opscope.logsumexp(t, 0, out=out) is out
    assert opscope.std(t, 0, out=out) is out


# --- which ops run -----------------------------------------------------------------------------
def dispatch_trace(fn):
    """The op names the dispatcher logs while fn() runs, in order."""
    import re
    import tempfile
    with tempfile.TemporaryFile() as f:
        opscope._C._set_dispatch_log(True, f.fileno())
        try:
            fn()
        finally:
            opscope._C._set_dispatch_log(False, f.fileno())
        f.seek(0)
        names = re.findall(r"op=\[(aten::[\w.]+)\]", f.read().decode())
        # One entry per op call: an op's redispatches (Autograd -> CPU) are the same call.
        return [n for i, n in enumerate(names) if i == 0 or names[i - 1] != n]


def test_decompositions_match_torch():
    x = opscope.ones(2, 3)
    assert dispatch_trace(lambda: x.softmax(1)) == ["aten::softmax.int", "aten::_softmax"]
    assert dispatch_trace(lambda: x.log_softmax(0)) == ["aten::log_softmax.int", "aten::_log_softmax"]
    assert dispatch_trace(lambda: x.sum()) == ["aten::sum", "aten::sum.dim_IntList"]
    assert dispatch_trace(lambda: x.mean()) == ["aten::mean", "aten::mean.dim"]
    assert dispatch_trace(lambda: x.var(1)) == ["aten::var.dim", "aten::var.correction"]
    # torch.norm (Python, as torch/functional.py): the Frobenius norm by default, norm for a number
    assert dispatch_trace(lambda: x.norm()) == ["aten::frobenius_norm.dim", "aten::norm.ScalarOpt_dim"]
    assert dispatch_trace(lambda: x.norm(dim=(0, 1))) == [
        "aten::frobenius_norm.dim", "aten::mul.Tensor", "aten::sum.dim_IntList", "aten::sqrt"]
    assert dispatch_trace(lambda: x.norm(p=1)) == ["aten::norm.ScalarOpt_dim"]
    assert dispatch_trace(lambda: opscope.ops.aten.norm.Scalar(x)) == ["aten::norm.Scalar",
                                                                       "aten::norm.ScalarOpt_dim"]
    assert dispatch_trace(lambda: opscope.max(x, x)) == ["aten::max.other", "aten::maximum"]
    mask = x > 0
    assert dispatch_trace(lambda: opscope.where(mask))[:4] == [
        "aten::where", "aten::nonzero_numpy", "aten::nonzero", "aten::unbind.int"]
    assert dispatch_trace(lambda: x.amax(0)) == ["aten::amax"]


def test_more_out_forms():
    t = opscope.tensor([[1.0, 0.0], [3.0, 5.0]])
    out = opscope.empty(0, dtype=opscope.int64)
    assert opscope.count_nonzero(t, 0, out=out) is out and out.tolist() == [2, 1]
    o0, o1 = opscope.empty(0), opscope.empty(0)
    r = opscope.ops.aten.var_mean.correction_out(t, [1], correction=0, out0=o0, out1=o1)
    assert r[0] is o0 and r[1] is o1 and o0.tolist() == [0.25, 1.0] and o1.tolist() == [0.5, 4.0]
    out = opscope.empty(0)
    assert opscope.linalg_vector_norm(t, 1, out=out) is out and out.item() == 9.0


def test_torch_norm_forms_match_numpy(rng):
    """opscope.norm / Tensor.norm as torch.norm: Frobenius by default (over one or two dims, or
    all), the vector p-norm for a number; errors as torch's."""
    v = rng.standard_normal((3, 4, 5))
    t = opscope.from_numpy(v)
    assert_close(t.norm(), np.linalg.norm(v.ravel()), what="norm()")
    assert_close(opscope.norm(t, dim=1), np.sqrt((v * v).sum(1)), what="norm(dim=1)")
    assert_close(t.norm(dim=(0, 2), keepdim=True), np.sqrt((v * v).sum((0, 2), keepdims=True)), what="norm fro 2 dims")
    assert_close(t.norm(p=1), np.abs(v).sum(), what="norm(p=1)")
    assert_close(t.norm(p=float("inf"), dim=2), np.abs(v).max(2), what="norm(inf, dim=2)")
    assert_close(t.norm(p=3, dim=[0, 1]), (np.abs(v) ** 3).sum((0, 1)) ** (1 / 3), what="norm(p=3)")
    assert_close(opscope.linalg.vector_norm(t, ord=0.5, dim=-1), (np.abs(v) ** 0.5).sum(-1) ** 2, what="vector_norm")
    assert opscope.norm(t, p=2, dtype=opscope.float32).dtype is opscope.float32
    with pytest.raises(RuntimeError, match="Expected at most 2 dimensions, but got 3 dimensions instead."):
        t.norm(dim=(0, 1, 2))
    with pytest.raises(RuntimeError, match="only valid string values are 'fro' and 'nuc', found bad"):
        t.norm(p="bad")
    with pytest.raises(ValueError, match="dtype argument is not supported in frobenius norm"):
        t.norm(dim=1, dtype=opscope.float32)


def test_max_min_of_two_tensors_are_maximum_minimum():
    a, b = opscope.tensor([1.0, float("nan"), 3.0]), opscope.tensor([2.0, 1.0, 0.0])
    r = opscope.max(a, b)
    assert r.tolist()[0] == 2.0 and r.tolist()[2] == 3.0 and np.isnan(r.tolist()[1])
    assert opscope.min(a, b).tolist()[2] == 0.0
    out = opscope.empty(0)
    assert opscope.max(a, b, out=out) is out
