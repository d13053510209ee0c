"""Advanced indexing and the indexing ops (core/ops/indexing.h, core/python/indexing.cpp)
against NumPy: t[tensor], t[mask], t[list], several index tensors broadcast together, mixed with
slices / ints / None / Ellipsis, t[idx] = value, and index_select, gather, scatter, scatter_add,
masked_fill, masked_select, masked_scatter, nonzero, argwhere, take, put_, index_add_,
index_fill_, index_put_. Every dtype for self, non-contiguous self, empty and 0-d cases, and
torch 1.13's errors (messages checked where torch's are fixed text).

    PYTHONPATH=core/python /usr/bin/python3 -m pytest -q tests/python/test_indexing.py
"""
import numpy as np
import pytest

import opscope
from conftest import assert_close, to_numpy

ALL_DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64"]


def close(actual, expected, what):
    assert_close(actual, expected, rtol=0, atol=0, family="indexing", what=what)


def make(rng, shape, dtype="float32", layout="contiguous"):
    """(opscope tensor, the same values in NumPy) of `shape`, laid out as asked."""
    if layout == "transposed" and len(shape) >= 2:
        base = rng.integers(-50, 50, size=shape[::-1])
        a = np.ascontiguousarray(base).transpose(*range(len(shape) - 1, -1, -1))
        x = opscope.tensor(base).permute(*range(len(shape) - 1, -1, -1))
    elif layout == "stepped":
        base = rng.integers(-50, 50, size=tuple(2 * s for s in shape))
        sl = tuple(slice(None, None, 2) for _ in shape)
        a, x = base[sl], opscope.tensor(base)[sl]
    else:
        a = rng.integers(-50, 50, size=shape)
        x = opscope.tensor(a)
    np_dtype = "float32" if dtype == "bfloat16" else dtype
    a = a.astype(np_dtype)
    x = x.to(getattr(opscope, dtype))
    return x, a


def to_opscope_index(item):
    """A NumPy-side index item as the opscope one: arrays become tensors, tuples recurse."""
    if isinstance(item, tuple):
        return tuple(to_opscope_index(i) for i in item)
    if isinstance(item, np.ndarray):
        return opscope.tensor(item)
    return item


# --- getitem ------------------------------------------------------------------------------
# Cases where NumPy's rules and torch 1.13's agree (see core/python/indexing.cpp for where they
# do not). `r` builds index arrays: r(hi, *shape) is a random int64 array in [-hi, hi).
def getitem_cases(rng):
    def r(hi, *shape):
        return rng.integers(-hi, hi, size=shape).astype(np.int64)

    def m(*shape):
        return rng.random(shape) > 0.5

    return [
        ((5, 6, 7), (r(5, 4),)),
        ((5, 6, 7), (r(5, 2, 3),)),
        ((5, 6, 7), (slice(None), r(6, 4))),
        ((5, 6, 7), (Ellipsis, r(7, 3))),
        ((5, 6, 7), (r(5, 4), r(6, 4))),            # adjacent: result (4, 7)
        ((5, 6, 7), (r(5, 4), r(6, 1))),            # broadcast together
        ((5, 6, 7), (slice(None), r(6, 2, 1), r(7, 3))),
        ((5, 6, 7), (r(5, 4), slice(None), r(7, 4))),   # separated: B goes first
        ((5, 6, 7), (r(5, 3), slice(1, 5, 2), r(7, 1))),
        ((5, 6, 7), (r(5, 3), None, r(6, 3))),      # None between: B first in both
        ((5, 6, 7), (None, r(5, 3), r(6, 3))),
        ((5, 6, 7), (r(5, 3), Ellipsis)),
        ((5, 6, 7), (slice(1, 4), r(6, 2))),
        ((5, 6, 7), (m(5),)),
        ((5, 6, 7), (m(5, 6),)),
        ((5, 6, 7), (m(5, 6, 7),)),
        ((5, 6, 7), (slice(None), m(6))),
        ((5, 6, 7), (Ellipsis, m(7))),
        ((5, 6, 7), (m(5), slice(None), slice(2, 5))),
        ((5, 6, 7), (r(5, 0),)),                    # empty index
        ((5, 6, 7), (np.zeros(5, bool),)),          # mask selecting nothing
        ((5, 0, 7), (r(5, 3),)),                    # empty self
        ((8,), (r(8, 3, 2),)),
        ((8,), (m(8),)),
        ((5, 6), (r(5, 4), r(6, 4))),
        ((5, 6), ([0, 2, -1],)),
        ((5, 6), ([[0, 1], [2, 3]],)),
        ((5, 6), ([True, False, True, True, False],)),
        ((5, 6), (slice(None), [1, -2])),
        ((5, 6), ([0, 1], [2, 3])),
        ((3, 4, 5, 6), (slice(None), r(4, 2), r(5, 2), slice(None))),
        ((3, 4, 5, 6), (r(3, 2), slice(None), slice(None), r(6, 2))),
    ]


CASE_IDS = [str(i) for i in range(32)]


@pytest.mark.parametrize("case", range(32), ids=CASE_IDS)
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "stepped"])
def test_getitem_against_numpy(case, layout):
    rng = np.random.default_rng(case)
    shape, index = getitem_cases(rng)[case]
    x, a = make(rng, shape, "float64", layout)
    if isinstance(index[0], list) and len(index) == 1:
        np_index, op_index = index[0], index[0]  # a list is itself the index
        np_index = np.array(np_index) if not isinstance(np_index[0], list) else tuple(np.array(i) for i in np_index)
    else:
        np_index, op_index = index, to_opscope_index(index)
    expected = a[np_index]
    r = x[op_index]
    assert tuple(r.shape) == expected.shape, (index, r.shape, expected.shape)
    close(r, expected, f"{shape}{index}")


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_getitem_every_dtype(dtype, rng):
    x, a = make(rng, (4, 5), dtype)
    i = np.array([3, 0, -1, 2])
    mask = a > 0 if dtype != "bool" else a
    close(x[opscope.tensor(i)], a[i], f"{dtype} x[i]")
    close(x[opscope.tensor(mask)], a[mask], f"{dtype} x[mask]")
    close(x[:, opscope.tensor([1, 1, 4])], a[:, [1, 1, 4]], f"{dtype} x[:, i]")
    assert x[opscope.tensor(i)].dtype == x.dtype


def test_uint8_mask_is_accepted(rng):
    x, a = make(rng, (4, 5))
    m = (a > 0).astype(np.uint8)
    close(x[opscope.tensor(m)], a[m.astype(bool)], "x[uint8 mask]")


def test_bool_and_zero_dim_items():
    x, a = opscope.arange(24.0).view(2, 3, 4), np.arange(24.0).reshape(2, 3, 4)
    assert tuple(x[True, [0]].shape) == (1, 3, 4)
    assert tuple(x[False, [0]].shape) == (0, 3, 4)  # torch: the False index tensor is empty
    # a 0-d integer tensor selects (a view), a 0-d bool adds a dim
    r = x[opscope.tensor(1)]
    close(r, a[1], "x[tensor(1)]")
    r[0, 0] = -5
    assert x[1, 0, 0].item() == -5
    assert tuple(x[opscope.tensor(True)].shape) == (1, 2, 3, 4)
    assert tuple(x[opscope.tensor(False)].shape) == (0, 2, 3, 4)
    close(x[opscope.tensor(1), [0, 2], 1:], a[1, [0, 2], 1:], "x[t(1), list, slice]")
    z = opscope.tensor(3.5)
    close(z[opscope.tensor(True)], np.array([3.5]), "0-d[True tensor]")
    with pytest.raises(IndexError, match="too many indices for tensor of dimension 0"):
        z[None, opscope.tensor([0, 0])]  # as torch: the index counts as a dim of z


def test_torch_rules_where_numpy_differs():
    x = opscope.arange(24).view(2, 3, 4)
    # ints select first, so the tensor index is alone in its run: (3, 2), NumPy says (2, 3)
    assert tuple(x[0, :, [1, 2]].shape) == (3, 2)
    # a list holding a list is a tuple of indices; other lists are one int64 index
    assert tuple(x[[[0, 1], [1, 0]]].shape) == (2, 4)
    assert tuple(x[[0, None]].shape) == (1, 3, 4)
    assert tuple(x[[0, 1.5]].shape) == (2, 3, 4)   # floats in a list are truncated
    assert x[[]].shape == (0, 3, 4) and x[[]].dtype == opscope.int64
    # a mask advances the running dim by one only (torch 1.13)
    with pytest.raises(IndexError, match=r"The shape of the mask \[2, 3\] at index 1 does not match"):
        x[opscope.ones(2, 3, dtype=opscope.bool), 1:]


def test_result_is_a_copy():
    x = opscope.arange(6.0)
    r = x[[0, 1]]
    r[0] = 100
    assert x[0].item() == 0


# --- setitem ------------------------------------------------------------------------------
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "stepped"])
@pytest.mark.parametrize("dtype", ["int64", "float32", "float16", "bool"])
def test_setitem_against_numpy(layout, dtype, rng):
    for case in range(12):
        x, a = make(rng, (5, 6), dtype, layout)
        i = rng.integers(-5, 5, size=3)
        j = rng.integers(0, 6, size=3)
        m = rng.random((5, 6)) > 0.5
        v = rng.integers(-9, 9, size=(3, 6)).astype(a.dtype)
        w = rng.integers(-9, 9, size=(5, 3)).astype(a.dtype)
        index, value = [
            ((i,), 7), ((i,), v), ((i, j), 3), ((m,), 0), ((m,), v[0, 0]),
            ((m[:, 0],), v[0]), ((slice(None), j), w), ((i, slice(1, 4)), 1),
            ((m,), np.arange(int(m.sum())).astype(a.dtype)), ((Ellipsis, j), 2), ((None, i), v[None]),
            (([1, 3],), 5),
        ][case]
        expected = a.copy()
        np_index = index if not isinstance(index[0], list) else (np.array(index[0]),)
        expected[np_index] = value
        op_value = opscope.tensor(value).to(x.dtype) if isinstance(value, np.ndarray) else value
        if isinstance(op_value, np.generic):
            op_value = op_value.item()
        op_index = to_opscope_index(index) if not isinstance(index[0], list) else index[0]
        x[op_index] = op_value
        close(x, expected, f"{layout} {dtype} case {case}")


def test_setitem_writes_through_views_and_bumps_version():
    base = opscope.zeros(4, 5)
    view = base[1:]
    view[view == 0] = 2
    assert base[0].sum().item() == 0 and base[1:].sum().item() == 30
    assert base._version >= 1


def test_setitem_mask_assignment_dispatches_masked_fill():
    from opscope import _C  # noqa: F401
    x = opscope.arange(6.0)
    x[x > 2] = 0
    assert x.tolist() == [0, 1, 2, 0, 0, 0]
    x[opscope.tensor([True, False] * 3)] = opscope.tensor(7.0, dtype=opscope.float64)  # one value: masked_fill_
    assert x.tolist() == [7, 1, 7, 0, 7, 0]


def test_setitem_refuses_values_that_overlap_self():
    x = opscope.arange(6.0)
    with pytest.raises(RuntimeError, match="some elements of the input tensor and the written-to tensor refer to"):
        x[[0, 1]] = x[2:4]


def test_setitem_casts_python_numbers_to_self_dtype():
    x = opscope.zeros(4, dtype=opscope.int32)
    x[[0, 1]] = 2.7
    assert x.tolist() == [2, 2, 0, 0] and x.dtype == opscope.int32


def test_setitem_value_shape_and_dtype_errors():
    x = opscope.zeros(3, 4)
    with pytest.raises(RuntimeError, match=r"shape mismatch: value tensor of shape \[2\] cannot be broadcast "
                                           r"to indexing result of shape \[1, 4\]"):
        x[[0]] = opscope.ones(2)
    with pytest.raises(RuntimeError, match="Index put requires the source and destination dtypes match, got "
                                           "Float for the destination and Long for the source."):
        x[[0]] = opscope.tensor([1])


# --- errors ---------------------------------------------------------------------------------
ERRORS = [
    ("x[opscope.tensor([5])]", IndexError, "index 5 is out of bounds for dimension 0 with size 3"),
    ("x[:, opscope.tensor([5])]", IndexError, "index 5 is out of bounds for dimension 0 with size 4"),
    ("x[[0], [7]]", IndexError, "index 7 is out of bounds for dimension 1 with size 4"),
    ("x[opscope.tensor([-4])]", IndexError, "index -4 is out of bounds for dimension 0 with size 3"),
    ("x[opscope.tensor([1.0])]", IndexError, "tensors used as indices must be long, byte or bool tensors"),
    ("x[opscope.tensor([1], dtype=opscope.int32)]", IndexError, "tensors used as indices must be long, byte or bool tensors"),
    ("x[opscope.tensor([True, False])]", IndexError,
     "The shape of the mask [2] at index 0 does not match the shape of the indexed tensor [3, 4] at index 0"),
    ("x[:, opscope.tensor([True, False])]", IndexError,
     "The shape of the mask [2] at index 0 does not match the shape of the indexed tensor [3, 4] at index 1"),
    ("x[[0, 1], [1, 2, 3]]", IndexError,
     "shape mismatch: indexing tensors could not be broadcast together with shapes [2], [3]"),
    ("x[[0], [0], [0]]", IndexError, "too many indices for tensor of dimension 2"),
    ("x[opscope.ones(3, 4, 1, dtype=opscope.bool)]", IndexError, "too many indices for tensor of dimension 2"),
    ("x['a']", TypeError, "new(): invalid data type 'str'"),
    ("x[{}]", IndexError, "only integers, slices"),
]


@pytest.mark.parametrize("expr,exc,message", ERRORS, ids=[e[0] for e in ERRORS])
def test_errors_as_torch(expr, exc, message):
    x = opscope.arange(12.0).view(3, 4)
    with pytest.raises(exc) as info:
        eval(expr, {"x": x, "opscope": opscope})
    assert message in str(info.value)


# --- ops ------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("index_dtype", ["int64", "int32"])
def test_index_select(dtype, index_dtype, rng):
    x, a = make(rng, (4, 5, 3), dtype, "transposed")
    for dim in range(3):
        i = rng.integers(0, a.shape[dim], size=6)
        r = opscope.index_select(x, dim, opscope.tensor(i).to(getattr(opscope, index_dtype)))
        close(r, np.take(a, i, axis=dim), f"index_select dim {dim}")
    out = opscope.empty(0, dtype=x.dtype)
    opscope.index_select(x, 1, opscope.tensor([0, 4]), out=out)
    close(out, a[:, [0, 4]], "index_select out=")
    assert x.index_select(-1, opscope.tensor([], dtype=opscope.int64)).shape == (4, 5, 0)


def test_index_select_errors():
    x = opscope.arange(12.0).view(3, 4)
    with pytest.raises(IndexError, match="index out of range in self"):
        x.index_select(0, opscope.tensor([5]))
    with pytest.raises(IndexError, match="index out of range in self"):
        x.index_select(0, opscope.tensor([-1]))  # no negative index (torch 1.13)
    with pytest.raises(RuntimeError, match="INDICES element is out of DATA bounds, id=-1 axis_dim=4"):
        x.index_select(1, opscope.tensor([-1]))  # torch's dim-1 kernel words it so
    with pytest.raises(IndexError, match="Index is supposed to be a vector"):
        x.index_select(0, opscope.tensor([[1]]))
    with pytest.raises(RuntimeError, match=r"index_select\(\): Expected dtype int32 or int64 for index"):
        x.index_select(0, opscope.tensor([1.0]))
    assert opscope.tensor(5.0).index_select(0, opscope.tensor([0, 0])).shape == ()  # torch's 0-d rule


def np_gather(a, dim, idx):
    return np.take_along_axis(a, idx, axis=dim)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_gather(dtype, rng):
    x, a = make(rng, (4, 5, 6), dtype, "stepped")
    for dim in range(3):
        shape = [3, 4, 5]
        shape[dim] = 7
        idx = rng.integers(0, a.shape[dim], size=shape)  # gather takes no negative index
        r = opscope.gather(x, dim, opscope.tensor(idx))
        # NumPy's take_along_axis wants equal shapes off dim: cut a to the index shape there
        cut = tuple(slice(0, s) if d != dim else slice(None) for d, s in enumerate(shape))
        close(r, np_gather(a[cut], dim, idx), f"gather dim {dim}")
    out = opscope.empty(0, dtype=x.dtype)
    idx = opscope.tensor([[0, 1], [1, 0]])
    assert opscope.gather(x[:, :, 0], 1, idx, out=out) is out
    assert x.gather(0, opscope.zeros(0, 2, 2, dtype=opscope.int64)).shape == (0, 2, 2)


def test_gather_errors():
    x = opscope.arange(12.0).view(3, 4)
    with pytest.raises(RuntimeError, match=r"gather\(\): Expected dtype int64 for index"):
        x.gather(0, opscope.tensor([[1]], dtype=opscope.int32))
    with pytest.raises(RuntimeError, match="index 5 is out of bounds for dimension 0 with size 3"):
        x.gather(0, opscope.tensor([[5]]))
    with pytest.raises(RuntimeError, match="index -1 is out of bounds for dimension 1 with size 4"):
        x.gather(-1, opscope.tensor([[0, -1]]))
    with pytest.raises(RuntimeError, match="index -1 is out of bounds for dimension 1 with size 4"):
        x.scatter(1, opscope.tensor([[0, -1]]), 2.0)
    with pytest.raises(RuntimeError, match="Index tensor must have the same number of dimensions as input tensor"):
        x.gather(0, opscope.tensor([1]))
    with pytest.raises(RuntimeError, match=r"Size does not match at dimension 1 expected index \[1, 5\]"):
        x.gather(0, opscope.tensor([[1] * 5]))


def np_scatter(a, dim, idx, src, reduce=None):
    out = a.copy()
    for pos in np.ndindex(*idx.shape):
        target = list(pos)
        target[dim] = idx[pos]
        target = tuple(target)
        v = src[pos] if isinstance(src, np.ndarray) else src
        if reduce == "add":
            with np.errstate(over="ignore"):
                out[target] = out[target] + v
        elif reduce == "multiply":
            out[target] = out[target] * v
        else:
            out[target] = v
    return out


@pytest.mark.parametrize("dtype", ["int64", "int32", "float32", "float64", "float16", "uint8"])
def test_scatter_family(dtype, rng):
    x, a = make(rng, (4, 5), dtype, "transposed")
    a = a.astype(np.float64) if dtype == "float16" else a
    for dim in range(2):
        idx = rng.integers(0, a.shape[dim], size=(3, 4))
        src_x, src_a = make(rng, (4, 4), dtype)
        src_a = src_a.astype(np.float64) if dtype == "float16" else src_a
        ti = opscope.tensor(idx)
        # unique positions for plain scatter (repeated ones are unordered, as in torch)
        uniq = np.stack([rng.permutation(a.shape[dim])[:3] for _ in range(4)], axis=1) if dim == 0 else \
            np.stack([rng.permutation(a.shape[dim])[:4] for _ in range(3)], axis=0)
        close(x.scatter(dim, opscope.tensor(uniq), src_x), np_scatter(a, dim, uniq, src_a), f"scatter src {dim}")
        close(x.scatter(dim, ti, 3), np_scatter(a, dim, idx, 3), f"scatter value {dim}")
        close(x.scatter_add(dim, ti, src_x), np_scatter(a, dim, idx, src_a, "add"), f"scatter_add {dim}")
        close(x.scatter(dim, ti, src_x, reduce="add"), np_scatter(a, dim, idx, src_a, "add"), f"reduce add {dim}")
        if dtype in ("float32", "float64"):
            close(x.scatter(dim, ti, src_x, reduce="multiply"), np_scatter(a, dim, idx, src_a, "multiply"),
                  f"reduce multiply {dim}")
        y = x.clone()
        assert y.scatter_add_(dim, ti, src_x) is y
        close(y, np_scatter(a, dim, idx, src_a, "add"), f"scatter_add_ {dim}")


def test_scatter_errors():
    x = opscope.arange(12.0).view(3, 4)
    with pytest.raises(RuntimeError, match="index 5 is out of bounds for dimension 0 with size 3"):
        x.scatter(0, opscope.tensor([[5]]), 1.0)
    with pytest.raises(RuntimeError, match="reduce argument must be either add or multiply."):
        x.scatter(0, opscope.tensor([[1]]), 1.0, reduce="foo")
    with pytest.raises(RuntimeError, match=r"scatter\(\): Expected self.dtype to be equal to src.dtype"):
        x.scatter(0, opscope.tensor([[1]]), opscope.ones(1, 1, dtype=opscope.float64))
    with pytest.raises(RuntimeError, match=r"scatter\(\): Expected dtype int64 for index"):
        x.scatter(0, opscope.tensor([[1]], dtype=opscope.int32), 1.0)
    with pytest.raises(RuntimeError, match=r"Expected index \[1, 5\] to be smaller than self \[3, 4\] apart "
                                           r"from dimension 0 and to be smaller size than src \[1, 5\]"):
        x.scatter(0, opscope.tensor([[1] * 5]), opscope.ones(1, 5))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_masked_ops(dtype, rng):
    x, a = make(rng, (4, 5), dtype, "transposed")
    m = rng.random((4, 5)) > 0.5
    row = rng.random(5) > 0.5
    tm, trow = opscope.tensor(m), opscope.tensor(row)
    value = True if dtype == "bool" else 3
    expected = a.copy()
    expected[m] = value
    close(x.masked_fill(tm, value), expected, "masked_fill")
    close(x.masked_fill(tm, opscope.tensor(value)), expected, "masked_fill 0-d tensor")
    expected = a.copy()
    expected[:, row] = value
    y = x.clone()
    assert y.masked_fill_(trow, value) is y  # the mask broadcasts over rows
    close(y, expected, "masked_fill_ broadcast")
    close(x.masked_select(tm), a[m], "masked_select")
    close(opscope.masked_select(x, trow), np.broadcast_to(a, (4, 5))[np.broadcast_to(row, (4, 5))], "masked_select bc")
    src_x, src_a = make(rng, (20,), dtype)
    expected = a.copy()
    expected[m] = src_a[: int(m.sum())]
    close(x.masked_scatter(tm, src_x), expected, "masked_scatter")


def test_masked_errors():
    x = opscope.arange(12.0).view(3, 4)
    with pytest.raises(RuntimeError, match="masked_fill_ only supports a 0-dimensional value tensor"):
        x.masked_fill(x > 1, opscope.tensor([1.0]))
    with pytest.raises(RuntimeError, match="masked_select: expected BoolTensor or ByteTensor for mask"):
        x.masked_select(opscope.tensor([1, 0, 1, 1]))
    with pytest.raises(RuntimeError, match="Number of elements of source < number of ones in mask"):
        x.masked_scatter(x > 5, opscope.ones(2))
    with pytest.raises(RuntimeError):
        x.clone().masked_fill_(opscope.ones(2, 3, 4, dtype=opscope.bool), 1.0)
    # the functional form broadcasts self with the mask, as torch's expand_outplace
    assert x.masked_fill(opscope.ones(2, 3, 4, dtype=opscope.bool), 1.0).shape == (2, 3, 4)
    assert x.masked_scatter(opscope.ones(2, 3, 4, dtype=opscope.bool), opscope.ones(24)).shape == (2, 3, 4)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", [(0,), (7,), (3, 4), (2, 3, 4), (2, 0, 3), ()])
def test_nonzero_and_argwhere(dtype, shape, rng):
    x, a = make(rng, shape, dtype, "transposed")
    a = np.where(np.abs(a) > 20, 0, a).astype(a.dtype)
    x = opscope.tensor(a).to(x.dtype) if a.ndim == 0 else x.masked_fill(opscope.tensor(np.abs(to_numpy(x)) > 20), 0)
    expected = np.argwhere(a)
    r = opscope.nonzero(x)
    assert r.dtype == opscope.int64
    close(r, expected, "nonzero")
    close(x.nonzero(), expected, "Tensor.nonzero")
    close(opscope.argwhere(x), expected, "argwhere")
    out = opscope.empty(0, dtype=opscope.int64)
    assert opscope.nonzero(x, out=out) is out
    close(out, expected, "nonzero out=")
    cols = opscope.ops.aten.nonzero_numpy(x)
    expected_cols = np.nonzero(a) if a.ndim else np.nonzero(a.reshape(1))
    assert len(cols) == len(expected_cols)
    for c, e in zip(cols, expected_cols):
        close(c, e, "nonzero_numpy")


def test_nonzero_layout_is_torchs():
    r = opscope.nonzero(opscope.tensor([[1, 0], [0, 1], [1, 1]]))
    assert r.stride() == (1, 4)


def test_nonzero_as_tuple_and_where_of_a_condition():
    x = opscope.tensor([[1, 0], [0, 1]])
    r = opscope.nonzero(x, as_tuple=True)
    assert isinstance(r, tuple) and [c.tolist() for c in r] == [[0, 1], [0, 1]]
    assert [c.tolist() for c in x.nonzero(as_tuple=True)] == [[0, 1], [0, 1]]
    assert [c.tolist() for c in opscope.where(x > 0)] == [[0, 1], [0, 1]]
    assert [c.tolist() for c in opscope.tensor(5).nonzero(as_tuple=True)] == [[0]]
    out = opscope.empty(0, dtype=opscope.int64)
    assert opscope.nonzero(x, out=out) is out and out.tolist() == [[0, 0], [1, 1]]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_take_and_put(dtype, rng):
    x, a = make(rng, (4, 5), dtype, "transposed")
    i = rng.integers(-20, 20, size=(3, 2))
    close(x.take(opscope.tensor(i)), a.reshape(-1)[i], "take")
    src_x, src_a = make(rng, (6,), dtype)
    pos = rng.permutation(20)[:6]
    expected = a.copy().reshape(-1)
    expected[pos] = src_a
    y = x.clone()
    assert y.put_(opscope.tensor(pos), src_x) is y
    close(y, expected.reshape(4, 5), "put_")
    if dtype in ("int64", "float64", "float32"):
        dup = np.array([1, 1, 2, 1, 0, 19])
        expected = a.copy().reshape(-1)
        np.add.at(expected, dup, src_a)
        close(x.put(opscope.tensor(dup), src_x, accumulate=True), expected.reshape(4, 5), "put accumulate")


def test_take_put_errors():
    x = opscope.arange(12.0).view(3, 4)
    with pytest.raises(IndexError, match="out of range: tried to access index 20 on a tensor of 12 elements."):
        x.take(opscope.tensor([20]))
    with pytest.raises(IndexError, match=r"take\(\): tried to take from an empty tensor"):
        opscope.zeros(0).take(opscope.tensor([0]))
    with pytest.raises(IndexError, match=r"put_\(\): Expected source and index to have the same number of elements"):
        x.put(opscope.tensor([1]), opscope.ones(2))
    with pytest.raises(RuntimeError, match=r"put_\(\): Expected a long tensor for index, but got Int"):
        x.put(opscope.tensor([1], dtype=opscope.int32), opscope.ones(1))


@pytest.mark.parametrize("dtype", ["int64", "int32", "float32", "float64", "float16"])
def test_index_add_and_index_fill(dtype, rng):
    x, a = make(rng, (5, 4), dtype, "stepped")
    i = np.array([4, 0, 4, 3])  # index_add takes no negative index
    src_x, src_a = make(rng, (4, 4), dtype)
    expected = a.astype(np.float64).copy()
    np.add.at(expected, i, src_a)
    close(x.index_add(0, opscope.tensor(i), src_x), expected.astype(a.dtype), "index_add")
    expected = a.astype(np.float64).copy()
    src2_x, src2_a = make(rng, (4, 5), dtype)
    np.add.at(expected, (slice(None), [1, 1, 3, 0]), 2 * src2_a.T)
    close(x.index_add(1, opscope.tensor([1, 1, 3, 0]), src2_x.t(), alpha=2), expected.astype(a.dtype),
          "index_add alpha dim 1")
    expected = a.copy()
    expected[[0, 3]] = 7
    close(x.index_fill(0, opscope.tensor([0, 3]), 7), expected, "index_fill")
    expected = a.copy()
    expected[:, [1]] = 2
    y = x.clone()
    assert y.index_fill_(1, opscope.tensor([1]), opscope.tensor(2)) is y
    close(y, expected, "index_fill_ tensor")


def test_index_add_fill_errors():
    x = opscope.arange(12.0).view(3, 4)
    with pytest.raises(IndexError, match="index 5 is out of bounds for dimension 0 with size 3"):
        x.index_fill(0, opscope.tensor([5]), 1.0)
    with pytest.raises(IndexError, match=r"index_fill_\(\): Expected dtype int64 for index."):
        x.index_fill(0, opscope.tensor([1], dtype=opscope.int32), 1.0)
    with pytest.raises(IndexError, match="index out of range in self"):
        x.index_add(0, opscope.tensor([5]), opscope.ones(1, 4))
    with pytest.raises(IndexError, match="index out of range in self"):
        x.index_add(0, opscope.tensor([-1]), opscope.ones(1, 4))
    with pytest.raises(RuntimeError, match=r"Number of indices \(1\) should be equal to source.size\(dim\): \(2\)"):
        x.index_add(0, opscope.tensor([1]), opscope.ones(2, 4))


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int64", "float32", "float64", "bfloat16"])
def test_index_put(dtype, rng):
    x, a = make(rng, (4, 5), dtype, "transposed")
    i, j = np.array([0, 3, 3, 1]), np.array([1, 2, 2, 4])
    v_x, v_a = make(rng, (4,), dtype)
    expected = a.copy()
    expected[i, j] = v_a
    expected[3, 2] = a[3, 2]  # the repeated position: one of the two writes wins
    r = opscope.index_put(x, (opscope.tensor(i), opscope.tensor(j)), v_x)
    got = to_numpy(r)
    got[3, 2] = a[3, 2]
    close(got, expected, "index_put")
    y = x.clone()
    assert opscope.index_put_(y, (None, opscope.tensor([0, 2])), opscope.tensor(np.ones((4, 1), a.dtype)).to(x.dtype)) is y
    expected = a.copy()
    expected[:, [0, 2]] = 1
    close(y, expected, "index_put_ None, broadcast value")
    if dtype not in ("bool", "uint8"):
        expected = a.astype(np.float64).copy()
        np.add.at(expected, (i, j), v_a)
        close(x.index_put((opscope.tensor(i), opscope.tensor(j)), v_x, accumulate=True), expected.astype(a.dtype),
              "index_put accumulate")


def test_index_through_ops_namespace():
    x = opscope.arange(12.0).view(3, 4)
    r = opscope.ops.aten.index.Tensor(x, [None, opscope.tensor([0, 3])])
    close(r, np.arange(12.0).reshape(3, 4)[:, [0, 3]], "aten.index.Tensor")
    out = opscope.empty(0)
    opscope.ops.aten.index.Tensor_out(x, [opscope.tensor([2])], out=out)
    close(out, np.arange(12.0).reshape(3, 4)[[2]], "aten.index.Tensor_out")


def test_large_kernels_match(rng):
    n = 200_000
    x = opscope.tensor(rng.random(n))
    a = to_numpy(x)
    i = rng.integers(0, n, size=n)
    close(x[opscope.tensor(i)], a[i], "big index")
    m = a > 0.5
    close(x[opscope.tensor(m)], a[m], "big mask")
    x2, a2 = x.view(400, 500), a.reshape(400, 500)
    idx = rng.integers(0, 500, size=(400, 300))
    close(x2.gather(1, opscope.tensor(idx)), np.take_along_axis(a2, idx, 1), "big gather")
    close(opscope.nonzero(opscope.tensor(m)), np.argwhere(m), "big nonzero")
