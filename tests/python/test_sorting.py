"""The sorting family (core/ops/sorting.h) against NumPy: sort (stable and not, both
directions), argsort, msort, topk, kthvalue, and the unique ops (_unique2, _unique, unique_dim,
unique_consecutive).

    PYTHONPATH=core/python /usr/bin/python3 -m pytest -q tests/python/test_sorting.py

Values must match exactly (nothing is computed). Indices must match exactly where the order is
defined (stable sorts, distinct values); elsewhere they must point at the values returned. NaN
orders above everything, as in torch.
"""
import numpy as np
import pytest

import opscope
from conftest import assert_close, to_numpy

DTYPES = ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32",
          "float64")
FAMILY = "sorting"
NO_HALF_BOOL = tuple(d for d in DTYPES if d not in ("bool", "float16"))


def values(shape, dtype, rng, nan=False):
    """Values exactly representable in dtype, with many ties; NaN and +-inf in float dtypes
    when asked."""
    if dtype == "bool":
        return rng.integers(0, 2, size=shape).astype(bool)
    v = rng.integers(0 if dtype == "uint8" else -6, 7, size=shape)
    if dtype in ("uint8", "int8", "int16", "int32", "int64"):
        return v.astype(dtype)
    v = v / 2.0
    if nan and v.size >= 4:
        flat = v.reshape(-1)
        flat[rng.choice(flat.size, size=max(1, flat.size // 6), replace=False)] = np.nan
        flat[0], flat[-1] = np.inf, -np.inf
    return v.astype(np.float32 if dtype == "bfloat16" else dtype)


def make(v, dtype, layout="contiguous"):
    def tensor(a):
        return opscope.from_numpy(np.array(a, order="C")).to(getattr(opscope, dtype))
    if layout == "transposed" and v.ndim >= 2:
        return tensor(v.transpose()).permute(*reversed(range(v.ndim)))
    if layout == "sliced" and v.ndim >= 1:
        return tensor(np.repeat(v, 2, axis=-1))[..., ::2]
    return tensor(v)


def npy(t):
    return t.float().numpy() if str(t.dtype) == "torch.bfloat16" else t.numpy()


def check(actual, expected, what=""):
    """Exact comparison. NaN and infinities become sentinels on both sides first (NaN positions
    checked here): assert_close's tolerance atol + rtol * |expected| is nan for them."""
    a, e = (np.asarray(x) if not hasattr(x, "dtype") or isinstance(x, (np.ndarray, np.generic)) else npy(x)
            for x in (actual, expected))
    if a.dtype.kind == "f" or e.dtype.kind == "f":
        big = np.finfo(np.float64).max
        a, e = a.astype(np.float64), e.astype(np.float64)
        assert a.shape != e.shape or (np.isnan(a) == np.isnan(e)).all(), f"{what}: NaN positions differ"
        a, e = (np.nan_to_num(x, nan=-1.5e308, posinf=big, neginf=-big) for x in (a, e))
    assert_close(a, e, rtol=0, atol=0, what=what, family=FAMILY)


def sort_reference(v, dim, descending):
    """Stable sort along dim with torch's NaN order: (values, indices). Ascending sorts by
    (is NaN, value); descending by (is not NaN, -value), so NaN comes first."""
    moved = np.moveaxis(v.astype(np.float64), dim, -1)
    nan = np.isnan(moved)
    key = np.where(nan, np.inf, moved)
    order = np.lexsort((-key, ~nan), axis=-1) if descending else np.lexsort((key, nan), axis=-1)
    vals = np.take_along_axis(np.moveaxis(v, dim, -1), order, axis=-1)
    return np.moveaxis(vals, -1, dim), np.moveaxis(order, -1, dim)


def raises(exc, match, fn):
    with pytest.raises(exc) as info:
        fn()
    assert match in str(info.value), str(info.value)


# --- sort / argsort / msort --------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", ("contiguous", "transposed", "sliced"))
def test_stable_sort_matches_numpy(dtype, layout, rng):
    for shape in ((40,), (5, 33), (3, 4, 70), (0, 3), (4, 1)):
        v = values(shape, dtype, rng, nan=True)
        t = make(v, dtype, layout)
        for dim in range(-len(shape), len(shape)):
            for descending in (False, True):
                want_v, want_i = sort_reference(v, dim, descending)
                got = opscope.sort(t, stable=True, dim=dim, descending=descending)
                check(got.values, want_v, f"{shape} dim {dim} desc {descending}")
                check(got.indices, want_i, f"{shape} dim {dim} desc {descending} indices")
                check(opscope.argsort(t, stable=True, dim=dim, descending=descending), want_i, "argsort")


@pytest.mark.parametrize("dtype", DTYPES)
def test_unstable_sort_orders_values(dtype, rng):
    v = values((6, 300), dtype, rng, nan=True)
    t = make(v, dtype, "transposed")
    for descending in (False, True):
        want_v, _ = sort_reference(v, 1, descending)
        vals, idx = t.sort(1, descending)
        check(vals, want_v, "values")
        assert idx.dtype == opscope.int64
        check(vals, np.take_along_axis(v, npy(idx), 1), "indices point at the values")
        check(opscope.argsort(t, 1, descending), npy(idx), "argsort is sort's indices")
    check(opscope.msort(t), sort_reference(v, 0, False)[0], "msort")


def test_sort_ties_follow_torch():
    # std::sort's order of equal keys, which torch 1.13 (stable=False) returns
    got = opscope.sort(opscope.zeros(20)).indices.tolist()
    assert got == [10, 19, 18, 17, 16, 15, 14, 13, 12, 11, 0, 9, 8, 7, 6, 5, 4, 3, 2, 1]


def test_sort_0d_empty_and_out():
    r = opscope.sort(opscope.tensor(3.))
    assert r.values.shape == () and r.indices.item() == 0
    assert opscope.sort(opscope.tensor(3.), 0).values.item() == 3.0
    r = opscope.sort(opscope.zeros(0, 3), 0)
    assert r.values.shape == (0, 3) and r.indices.dtype == opscope.int64
    values_out, indices_out = opscope.empty(0), opscope.empty(0, dtype=opscope.int64)
    r = opscope.ops.aten.sort.values(opscope.tensor([3., 1., 2.]), 0, False, values=values_out,
                                     indices=indices_out)
    assert r[0] is values_out and r[1] is indices_out
    assert values_out.tolist() == [1., 2., 3.] and indices_out.tolist() == [1, 2, 0]
    out = opscope.empty(0)
    assert opscope.msort(opscope.tensor([[2.], [1.]]), out=out) is out and out.tolist() == [[1.], [2.]]


def test_sort_errors():
    a = opscope.ones(2, 3)
    raises(IndexError, "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
           lambda: opscope.sort(a, 2))
    raises(RuntimeError, "Expected out tensor to have dtype float, but got long int instead",
           lambda: opscope.ops.aten.sort.values(a, values=opscope.empty(0, dtype=opscope.int64),
                                                indices=opscope.empty(0, dtype=opscope.int64)))
    raises(RuntimeError, "Expected out tensor to have dtype long int, but got float instead",
           lambda: opscope.ops.aten.sort.values(a, values=opscope.empty(0), indices=opscope.empty(0)))


# --- topk / kthvalue ---------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", NO_HALF_BOOL)
@pytest.mark.parametrize("layout", ("contiguous", "transposed", "sliced"))
def test_topk_matches_numpy(dtype, layout, rng):
    for shape, dim in (((7, 50), 1), ((7, 50), 0), ((3, 1000), -1), ((5,), 0)):
        v = values(shape, dtype, rng, nan=True)
        t = make(v, dtype, layout)
        n = shape[dim]
        for k in (0, 1, 3, n):
            for largest in (True, False):
                want, _ = sort_reference(v, dim, largest)
                want = np.take(want, range(k), axis=dim)
                vals, idx = opscope.topk(t, k, dim, largest)
                check(vals, want, f"topk {shape} {dim} k {k} largest {largest}")
                check(vals, np.take_along_axis(v, npy(idx), dim), "indices point at the values")
                vals, idx = t.topk(k, dim, largest, sorted=False)
                check(np.sort(npy(vals), axis=dim), np.sort(want, axis=dim), "unsorted topk")


def test_topk_ties_follow_torch():
    assert opscope.topk(opscope.tensor([1, 1, 1, 1, 1]), 2).indices.tolist() == [2, 4]
    assert opscope.topk(opscope.tensor([3., float("nan"), 2, -float("inf"), float("nan")]), 2).indices.tolist() == [1, 4]


@pytest.mark.parametrize("dtype", NO_HALF_BOOL)
def test_kthvalue_matches_numpy(dtype, rng):
    v = values((6, 41), dtype, rng, nan=True)
    t = make(v, dtype, "transposed")
    for k in (1, 7, 41):
        want = sort_reference(v, 1, False)[0][:, k - 1]
        vals, idx = opscope.kthvalue(t, k, 1)
        check(vals, want, f"kthvalue {k}")
        check(vals, np.take_along_axis(v, npy(idx)[:, None], 1)[:, 0], "indices point at the values")
        vals, idx = t.kthvalue(k, -1, keepdim=True)
        assert vals.shape == (6, 1) and idx.shape == (6, 1)


@pytest.mark.parametrize("dtype", ["float64", "float32", "bfloat16", "int64", "uint8"])
def test_median_and_nanmedian_match_numpy(dtype, rng):
    """The lower median (torch's: of an even count, the smaller middle value), NaN where a slice
    has one (median) or only NaNs (nanmedian); indices of elements holding the value."""
    for shape, dim in [((5, 7), 1), ((6, 4), 0), ((3, 4, 6), -1), ((1, 9), 1), ((7,), 0)]:
        x = rng.uniform(0, 50, shape)
        if dtype.startswith("float"):
            x[rng.random(shape) < 0.15] = np.nan
        t = opscope.tensor(x).to(getattr(opscope, dtype))
        if t.dim() == 2:
            t = t.t().contiguous().t()  # non-contiguous
        xs = to_numpy(t).astype(np.float64)
        for name, ignore in (("median", False), ("nanmedian", True)):
            def lower_median(v):
                keep = v[~np.isnan(v)] if ignore else v
                if keep.size == 0 or (not ignore and np.isnan(keep).any()):
                    return np.nan
                return np.sort(keep)[(keep.size - 1) // 2]
            want = np.apply_along_axis(lower_median, dim, xs)
            vals, idx = getattr(opscope, name)(t, dim)
            np.testing.assert_array_equal(to_numpy(vals).astype(np.float64), want, err_msg=f"{name} {shape}")
            picked = np.take_along_axis(xs, np.expand_dims(to_numpy(idx), dim), dim).squeeze(dim)
            np.testing.assert_array_equal(picked, want, err_msg=f"{name} indices {shape}")
            kv, ki = getattr(t, name)(dim, keepdim=True)
            assert kv.shape == ki.shape == tuple(1 if k == (dim % t.dim()) else s for k, s in enumerate(t.shape))
            full = getattr(opscope, name)(t)
            assert full.dim() == 0
            np.testing.assert_array_equal(to_numpy(full).astype(np.float64), lower_median(xs.reshape(-1)))


def test_median_rules_and_gradients():
    # torch 1.13's values: the first NaN's index, a slice of NaNs for nanmedian, empty inputs
    x = opscope.tensor([3.0, float("nan"), 1.0, float("nan")])
    assert opscope.median(x, 0).indices.item() == 1 and opscope.median(x).isnan().item()
    assert opscope.nanmedian(x, 0).values.item() == 1.0 and opscope.nanmedian(x, 0).indices.item() == 2
    both = opscope.nanmedian(opscope.tensor([float("nan")] * 2), 0)
    assert both.values.isnan().item() and both.indices.item() == 0
    assert opscope.median(opscope.tensor([])).isnan().item()
    assert opscope.median(opscope.tensor([4, 1, 3, 2]), 0) == (opscope.tensor(2), opscope.tensor(3))
    assert opscope.median(opscope.zeros(0, 3), 1).values.shape == (0,)
    with pytest.raises(IndexError, match=r"median\(\): Expected reduction dim 1 to have non-zero size."):
        opscope.median(opscope.zeros(2, 0), 1)
    with pytest.raises(RuntimeError, match="\"median_cpu\" not implemented for 'Bool'"):
        opscope.median(opscope.tensor([True]))
    with pytest.raises(RuntimeError, match="\"median_out\" not implemented for 'Half'"):
        opscope.median(opscope.tensor([1.0], dtype=opscope.float16), 0)
    values, indices = opscope.empty(0), opscope.empty(0, dtype=opscope.int64)
    r = opscope.median(opscope.tensor([[1.0, 5.0, 2.0]]), 1, out=(values, indices))
    assert r.values is values and values.tolist() == [2.0] and indices.tolist() == [2]
    # median(): shared evenly among the elements equal to it (its NaNs when it is NaN)
    a = opscope.tensor([1.0, 2.0, 2.0, 7.0], requires_grad=True)
    a.median().backward()
    assert a.grad.tolist() == [0.0, 0.5, 0.5, 0.0]
    b = opscope.tensor([1.0, float("nan"), 2.0, float("nan")], requires_grad=True)
    b.median().backward()
    assert b.grad.tolist() == [0.0, 0.5, 0.0, 0.5]
    assert b.median().grad_fn.name() == "MedianBackward0"
    assert b.median(0).values.grad_fn.name() == "MedianBackward1"
    assert b.nanmedian().grad_fn.name() == "NanmedianBackward0"
    assert b.nanmedian(0).values.grad_fn.name() == "NanmedianBackward1"


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "uint8"])
def test_searchsorted_bucketize_isin_match_numpy(dtype, rng):
    """Left / right positions among sorted boundaries (1-D, or one row per leading index), with
    a sorter for an unsorted sequence; bucketize as searchsorted; isin as np.isin. Values in
    another dtype compare in the common one."""
    cast = getattr(opscope, dtype)
    for n, shape in [(7, (4, 5)), (1, (3,)), (12, (2, 3, 4)), (0, (5,))]:
        b = np.sort(np.round(rng.uniform(0, 20, n)))
        x = np.round(rng.uniform(-2, 22, shape), 1 if dtype.startswith("float") else 0)
        tb, tx = opscope.tensor(b).to(cast), opscope.tensor(x).to(cast)
        bn, xn = to_numpy(tb).astype(np.float64), to_numpy(tx).astype(np.float64)
        for right in (False, True):
            side = "right" if right else "left"
            want = np.searchsorted(bn, xn, side=side)
            np.testing.assert_array_equal(to_numpy(opscope.searchsorted(tb, tx, right=right)), want)
            np.testing.assert_array_equal(to_numpy(opscope.searchsorted(tb, tx, side=side)), want)
            np.testing.assert_array_equal(to_numpy(opscope.bucketize(tx, tb, right=right)), want)
            r = opscope.searchsorted(tb, tx.t() if tx.dim() == 2 else tx, right=right, out_int32=True)
            assert r.dtype == opscope.int32
            perm = rng.permutation(n)
            r = opscope.searchsorted(tb[perm], tx, right=right, sorter=opscope.tensor(np.argsort(perm)))
            np.testing.assert_array_equal(to_numpy(r), want)
        test = np.round(rng.uniform(0, 20, 6))
        for invert in (False, True):
            got = opscope.isin(tx, opscope.tensor(test).to(cast), invert=invert)
            np.testing.assert_array_equal(to_numpy(got), np.isin(xn, to_numpy(opscope.tensor(test).to(cast)), invert=invert))
    # one sequence per row: boundaries (2, 3), values (2, k)
    rows = opscope.tensor([[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]])
    assert opscope.searchsorted(rows, opscope.tensor([[3.0, 6.5], [3.0, 0.0]])).tolist() == [[1, 3], [1, 0]]


def test_searchsorted_bucketize_isin_rules():
    s = opscope.tensor([1.0, 2.0, 2.0, 3.0])
    assert opscope.searchsorted(s, 2.0).item() == 1 and opscope.bucketize(2.0, s, right=True).item() == 3
    assert opscope.searchsorted(opscope.tensor([1.0, float("nan")]), opscope.tensor([float("nan"), 5.0])).tolist() == [2, 2]
    assert opscope.searchsorted(opscope.tensor([1, 2, 3], dtype=opscope.uint8), opscope.tensor([-1, 300])).tolist() == [0, 3]
    assert opscope.isin(opscope.tensor([1.0, float("nan")]), opscope.tensor([float("nan"), 1.0])).tolist() == [True, False]
    assert opscope.isin(2, opscope.tensor([1, 2])).item() is True
    assert opscope.isin(opscope.tensor([1, 2]), 2).tolist() == [False, True]
    # integers: a table over the test values' range (values outside it, far or negative, are
    # not in it); a range too wide for a table goes through the sorted search
    e = opscope.tensor([5, -3, 2**40, 7, 0, -(2**62)])
    assert opscope.isin(e, opscope.tensor([7, 5, 0])).tolist() == [True, False, False, True, True, False]
    assert opscope.isin(e, opscope.tensor([2**62, 7, -(2**62)])).tolist() == [False, False, False, True, False, True]
    assert opscope.isin(e, opscope.tensor([7]), invert=True).tolist() == [True, True, True, False, True, True]
    assert opscope.isin(opscope.tensor([True, False]), opscope.tensor([True])).tolist() == [True, False]
    assert opscope.isin(opscope.tensor([250, 3], dtype=opscope.uint8), opscope.tensor([250])).tolist() == [True, False]
    out = opscope.empty(0, dtype=opscope.int64)
    assert opscope.searchsorted(s, opscope.tensor([2.5]), out=out) is out and out.tolist() == [3]
    messages = [
        (lambda: opscope.searchsorted(opscope.tensor([[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]]), opscope.tensor([1.0])),
         "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries "
         "tensor and input value tensor must match, but we got boundaries tensor [2, 3] and input value tensor [1]"),
        (lambda: opscope.searchsorted(s, s, side="left", right=True),
         "torch.searchsorted(): side and right can't be set to opposites, got side of left while right was True"),
        (lambda: opscope.searchsorted(s, s, side="middle"),
         "torch.searchsorted(): side can only be 'left' or 'right' but got middle"),
        (lambda: opscope.searchsorted(s, s, out_int32=True, out=opscope.empty(0, dtype=opscope.int64)),
         "torch.searchsorted(): output tensor's dtype is wrong, it can only be Int(int32) or Long(int64) depending "
         "on whether out_int32 flag is True, but we got output tensor's dtype Long and out_int32 flag is True"),
        (lambda: opscope.searchsorted(s, s, sorter=opscope.tensor([0, 1, 2, 3], dtype=opscope.int32)),
         "torch.searchsorted(): sorter must be a tensor of long dtype but got dtype Int"),
        (lambda: opscope.searchsorted(s, s, sorter=opscope.tensor([0, 1])),
         "torch.searchsorted(): boundary and sorter must have the same size, but got boundary tensor [4]and got "
         "sorter tensor [2]"),
        (lambda: opscope.searchsorted(opscope.tensor([[1.0, 2.0]]), 2),
         "torch.searchsorted(): input value can be a scalar only when boundaries tensor dimension is 1, but we got "
         "boundaries tensor dim(2) and input value's dim(0) numel(1)"),
        (lambda: opscope.bucketize(s, opscope.tensor([[1.0]])), "boundaries tensor must be 1 dimension, but got dim(2)"),
    ]
    for call, message in messages:
        with pytest.raises(RuntimeError) as info:
            call()
        assert str(info.value) == message


def test_kthvalue_ties_follow_torch():
    # torch's quick-select picks these among equal values (recorded from torch 1.13)
    t = opscope.tensor([[0, 1, 1, 0, 2], [1, 1, 0, 0, 0], [0, 1, 0, 1, 1]])
    assert opscope.kthvalue(t, 2, 1).indices.tolist() == [0, 2, 0]
    t = opscope.tensor([[0, 1, 1, 0, 2, 0, 1, 1, 0, 0, 1], [1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 0]])
    assert opscope.kthvalue(t, 4, 1).indices.tolist() == [0, 3]


def test_topk_kthvalue_edges_and_errors():
    r = opscope.topk(opscope.tensor(3.), 1)
    assert r.values.shape == () and r.indices.item() == 0
    assert opscope.topk(opscope.zeros(2, 0), 0).values.shape == (2, 0)
    r = opscope.kthvalue(opscope.tensor(4.), 1)
    assert r.values.item() == 4.0 and r.indices.shape == ()
    assert opscope.kthvalue(opscope.zeros(2, 0), 1, 0).values.shape == (0,)
    a = opscope.ones(2, 3)
    raises(RuntimeError, "selected index k out of range", lambda: opscope.topk(a, 4))
    raises(RuntimeError, "selected index k out of range", lambda: opscope.topk(a, -1))
    raises(RuntimeError, "\"topk_cpu\" not implemented for 'Bool'", lambda: opscope.topk(a > 0, 1))
    raises(RuntimeError, "\"topk_cpu\" not implemented for 'Half'", lambda: opscope.topk(a.half(), 1))
    raises(RuntimeError, "kthvalue(): selected number k out of range for dimension 1",
           lambda: opscope.kthvalue(a, 4))
    raises(IndexError, "kthvalue(): Expected reduction dim 1 to have non-zero size.",
           lambda: opscope.kthvalue(opscope.zeros(2, 0), 1))
    raises(RuntimeError, "\"kthvalue_cpu\" not implemented for 'Half'", lambda: opscope.kthvalue(a.half(), 1))


# --- unique ------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", tuple(d for d in DTYPES if d != "float16"))
@pytest.mark.parametrize("layout", ("contiguous", "transposed", "sliced"))
def test_unique_matches_numpy(dtype, layout, rng):
    for shape in ((50,), (6, 7), (0, 3), ()):
        v = values(shape, dtype, rng)
        t = make(v, dtype, layout)
        u, inv, cnt = opscope._unique2(t, True, True, True)
        want_u, want_inv, want_cnt = np.unique(v, return_inverse=True, return_counts=True)
        check(u, want_u, f"unique {shape}")
        check(inv, want_inv.reshape(v.shape), "inverse")
        check(cnt, want_cnt, "counts")
        u, inv, cnt = opscope._unique2(t, False, False, False)
        assert inv.shape == (0,) and cnt.shape == (0,)
        check(np.sort(npy(u)), want_u, "unsorted unique holds the same values")
        u, inv = opscope._unique(t, False, True)
        check(npy(u)[npy(inv)], v.astype(npy(u).dtype), "unsorted inverse rebuilds self")


def test_unique_order_follows_torch():
    # sorted=False: std::unordered_set's order, as torch's CPU kernel
    u = opscope._unique2(opscope.tensor([3, 1, 2, 3, 7, 5, 100, -4]), False)[0]
    assert u.tolist() == [-4, 100, 5, 7, 2, 1, 3]
    # only counts asked: the inverse is filled as well (torch does)
    assert opscope._unique2(opscope.tensor([3, 1, 3]), True, False, True)[1].tolist() == [1, 0, 1]
    raises(RuntimeError, "\"unique\" not implemented for 'Half'",
           lambda: opscope._unique2(opscope.ones(2, dtype=opscope.float16)))


@pytest.mark.parametrize("dtype", tuple(d for d in DTYPES if d != "float16"))
def test_unique_dim_matches_numpy(dtype, rng):
    v = values((5, 4), dtype, rng)
    v = np.concatenate([v, v[:2]], axis=0)  # repeated rows
    for dim in (0, 1, -1):
        t = make(v, dtype, "transposed")
        u, inv, cnt = opscope.ops.aten.unique_dim(t, dim, True, True, True)
        want_u, want_inv, want_cnt = np.unique(v, axis=dim, return_inverse=True, return_counts=True)
        check(u, want_u, f"unique_dim {dim}")
        check(inv, want_inv.reshape(-1), "inverse")
        check(cnt, want_cnt, "counts")


def unique_consecutive_reference(v):
    flat = v.reshape(-1)
    out, counts, inverse = [], [], []
    for x in flat:
        if not out or x != out[-1]:
            out.append(x)
            counts.append(0)
        counts[-1] += 1
        inverse.append(len(out) - 1)
    return np.array(out, v.dtype), np.array(inverse).reshape(v.shape), np.array(counts)


@pytest.mark.parametrize("dtype", tuple(d for d in DTYPES if d != "float16"))
def test_unique_consecutive_matches_reference(dtype, rng):
    for shape in ((40,), (3, 9), ()):
        v = values(shape, dtype, rng)
        u, inv, cnt = opscope.ops.aten.unique_consecutive(make(v, dtype, "sliced"), True, True)
        want_u, want_inv, want_cnt = unique_consecutive_reference(v)
        check(u, want_u, f"unique_consecutive {shape}")
        check(inv, want_inv, "inverse")
        check(cnt, want_cnt, "counts")
    v = values((6, 3), dtype, rng)
    v = np.repeat(v, 2, axis=0)
    u, inv, cnt = opscope.ops.aten.unique_consecutive(make(v, dtype), True, True, 0)
    starts = [i for i in range(len(v)) if i == 0 or not np.array_equal(v[i], v[i - 1])]
    check(u, v[starts], "rows")
    check(inv, np.cumsum([i in starts for i in range(len(v))]) - 1, "row inverse")
    check(cnt, np.diff(starts + [len(v)]), "row counts")
    nan = opscope.tensor([1., float("nan"), float("nan"), 2, 2])
    assert opscope.ops.aten.unique_consecutive(nan, False, True)[2].tolist() == [1, 1, 1, 2]


# --- torch.unique / unique_consecutive (Python, as torch/functional.py) -------------------------
def test_unique_functions_return_what_was_asked(rng):
    v = rng.integers(-3, 4, size=(5, 4))
    t = opscope.from_numpy(v)
    want_u, want_inv, want_cnt = np.unique(v, return_inverse=True, return_counts=True)
    u = opscope.unique(t)
    assert isinstance(u, opscope.Tensor) and u.tolist() == want_u.tolist()
    u, cnt = t.unique(return_counts=True)
    assert cnt.tolist() == want_cnt.tolist()
    u, inv = opscope.unique(t, return_inverse=True)
    assert inv.shape == (5, 4) and inv.flatten().tolist() == want_inv.tolist()
    u, inv, cnt = opscope.unique(t, sorted=True, return_inverse=True, return_counts=True)
    assert u.tolist() == want_u.tolist() and cnt.tolist() == want_cnt.tolist()
    rows, cnt = opscope.unique(t, dim=0, return_counts=True)
    want_rows, want_rcnt = np.unique(v, axis=0, return_counts=True)
    assert rows.tolist() == want_rows.tolist() and cnt.tolist() == want_rcnt.tolist()
    u, cnt = opscope.tensor([1, 1, 2, 2, 1]).unique_consecutive(return_counts=True)
    assert u.tolist() == [1, 2, 1] and cnt.tolist() == [2, 2, 1]
    assert opscope.unique_consecutive(opscope.tensor([[1, 1], [1, 1], [2, 3]]), dim=0).tolist() == [[1, 1], [2, 3]]
    assert opscope.unique(opscope.zeros(0, 3)).shape == (0,)
