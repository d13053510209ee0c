"""The joining / splitting / rearranging family (core/ops/shape.h) against NumPy: cat / concat /
stack / hstack / vstack / dstack, split / chunk / tensor_split, flip, roll, repeat / tile /
repeat_interleave, tril / triu, diag / diag_embed.

    PYTHONPATH=core/python /usr/bin/python3 -m pytest -q tests/python/test_shape.py

Every data-movement op runs on every dtype, on contiguous, transposed, stepped-slice and expanded
inputs, on empty and 0-size dims and, where torch allows it, on 0-d tensors; results must match
NumPy exactly (nothing is computed, only moved). Errors are torch 1.13's, type and message.
"""
import numpy as np
import pytest

import opscope
from conftest import assert_close

DTYPES = ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32",
          "float64")
LAYOUTS = ("contiguous", "transposed", "sliced", "expanded")
FAMILY = "shape"


# --- operands ----------------------------------------------------------------------------------

def values(shape, dtype, rng):
    """Values exactly representable in `dtype`, as a NumPy array of a dtype NumPy has (bfloat16
    values as float32)."""
    if dtype == "bool":
        return rng.integers(0, 2, size=shape).astype(bool)
    if dtype in ("uint8", "int8", "int16", "int32", "int64"):
        low = 0 if dtype == "uint8" else -100
        return rng.integers(low, 100, size=shape).astype(dtype)
    v = rng.uniform(-4, 4, size=shape)
    if dtype == "bfloat16":
        return opscope.tensor(v).to(opscope.bfloat16).float().numpy()
    return v.astype(dtype)


def tensor(a, dtype):
    return opscope.from_numpy(np.array(a, order="C")).to(getattr(opscope, dtype))


def make(v, dtype, layout="contiguous"):
    """An opscope tensor holding v, laid out as `layout`: contiguous; transposed (its memory in
    reversed dim order); sliced (every other element of a larger tensor's last dim); expanded
    (dim 0 broadcast from size 1, when v's rows are all equal — else contiguous)."""
    if layout == "transposed" and v.ndim >= 2:
        return tensor(v.transpose(), dtype).permute(*reversed(range(v.ndim)))
    if layout == "sliced" and v.ndim >= 1:
        wide = np.repeat(v, 2, axis=-1)
        return tensor(wide, dtype)[..., ::2]
    if layout == "expanded" and v.ndim >= 1 and v.shape[0] > 0 and (v == v[:1]).all():
        return tensor(v[:1], dtype).expand(*v.shape)
    return tensor(v, dtype)


def check(actual, expected, what=""):
    assert str(actual.dtype).replace("torch.", "") == expected_dtype(expected, actual), what
    assert_close(actual, np.asarray(expected), rtol=0, atol=0, what=what, family=FAMILY)


def expected_dtype(expected, actual):
    """The dtype name the result must have: NumPy's (bfloat16 results are compared as float32)."""
    name = str(actual.dtype).replace("torch.", "")
    return name if name == "bfloat16" else str(np.asarray(expected).dtype)


def raises(exc, match, fn):
    with pytest.raises(exc) as info:
        fn()
    assert match in str(info.value), str(info.value)


# --- cat / stack -------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_cat_matches_numpy(dtype, layout, rng):
    for shape, dim, ks in (((2, 3, 4), 0, (1, 3, 2)), ((2, 3, 4), 1, (3, 1, 2)),
                           ((2, 3, 4), -1, (4, 1, 5)), ((5,), 0, (2, 3, 1)), ((3, 0), 0, (1, 2))):
        parts = []
        for k in ks:
            s = list(shape)
            s[dim] = k
            parts.append(values(tuple(s), dtype, rng))
        ts = [make(p, dtype, layout) for p in parts]
        check(opscope.cat(ts, dim), np.concatenate(parts, axis=dim), f"cat {shape} dim {dim}")
        check(opscope.concat(ts, dim), np.concatenate(parts, axis=dim), "concat")


def test_cat_promotes_and_skips_legacy_empty(rng):
    a = opscope.tensor([1, 2], dtype=opscope.uint8)
    b = opscope.tensor([-1], dtype=opscope.int8)
    assert opscope.cat([a, b]).dtype == opscope.int16
    assert opscope.cat([opscope.tensor([True]), a]).dtype == opscope.uint8
    assert opscope.cat([opscope.ones(2, dtype=opscope.int32), opscope.ones(1, dtype=opscope.float16)]).dtype == opscope.float16
    m = opscope.ones(2, 3)
    # a 1-D tensor of size 0 is skipped whatever dim is, but its dtype still counts
    r = opscope.cat([opscope.zeros(0, dtype=opscope.float64), m, opscope.zeros(0)], 1)
    assert r.shape == (2, 3) and r.dtype == opscope.float64
    assert opscope.cat([opscope.zeros(0), opscope.zeros(0)], 3).shape == (0,)
    check(opscope.cat([opscope.zeros(2, 0), m], 1), np.ones((2, 3), np.float32))


def test_cat_large_is_threaded_and_exact(rng):
    a = rng.standard_normal((300, 2000)).astype(np.float32)
    b = rng.standard_normal((300, 1000)).astype(np.float32)
    check(opscope.cat([opscope.from_numpy(a), opscope.from_numpy(b)], 1), np.concatenate([a, b], 1))
    check(opscope.cat([opscope.from_numpy(a).t(), opscope.from_numpy(a).t()], 0),
          np.concatenate([a.T, a.T], 0))


def test_cat_out():
    a = opscope.ones(2, 3)
    out = opscope.empty(0, dtype=opscope.float64)
    r = opscope.cat([a, a * 2], 0, out=out)
    assert r is out and out.shape == (4, 3) and out.dtype == opscope.float64
    check(out, np.concatenate([np.ones((2, 3)), 2 * np.ones((2, 3))]))
    raises(RuntimeError, "torch.cat(): input types can't be cast to the desired output type Long",
           lambda: opscope.cat([a, a], out=opscope.empty(4, 3, dtype=opscope.int64)))
    raises(RuntimeError, "unsupported operation: some elements of the input tensor and the "
           "written-to tensor refer to a single memory location",
           lambda: opscope.cat([a, a], out=a))


def test_cat_errors():
    a = opscope.ones(2, 3)
    raises(RuntimeError, "Sizes of tensors must match except in dimension 1. Expected size 2 but "
           "got size 3 for tensor number 1 in the list.", lambda: opscope.cat([a, opscope.ones(3, 3)], 1))
    raises(RuntimeError, "Sizes of tensors must match except in dimension 0. Expected size 3 but "
           "got size 2 for tensor number 1 in the list.", lambda: opscope.cat([a, opscope.ones(2, 2)]))
    raises(RuntimeError, "Tensors must have same number of dimensions: got 2 and 1",
           lambda: opscope.cat([a, opscope.ones(3)], 1))
    raises(RuntimeError, "zero-dimensional tensor (at position 1) cannot be concatenated",
           lambda: opscope.cat([a, opscope.tensor(1.)]))
    raises(IndexError, "Dimension out of range (expected to be in range of [-2, 1], but got 3)",
           lambda: opscope.cat([a, a], 3))
    # No tensor at all: the dispatch key is Undefined, which the composite kernels serve, as in c10.
    raises(RuntimeError, "torch.cat(): expected a non-empty list of Tensors", lambda: opscope.cat([]))
    raises(RuntimeError, "stack expects a non-empty TensorList", lambda: opscope.stack([]))
    assert "Undefined: registered at" in opscope._C._dispatch_dump_table("aten::cat")


@pytest.mark.parametrize("dtype", DTYPES)
def test_stack_family_matches_numpy(dtype, rng):
    for shape in ((2, 3), (4,), (0, 2), ()):
        parts = [values(shape, dtype, rng) for _ in range(3)]
        ts = [make(p, dtype, "transposed") for p in parts]
        for dim in range(-len(shape) - 1, len(shape) + 1):
            check(opscope.stack(ts, dim), np.stack(parts, axis=dim), f"stack {shape} {dim}")
        check(opscope.hstack(ts), np.hstack(parts), f"hstack {shape}")
        check(opscope.vstack(ts), np.vstack(parts), f"vstack {shape}")
        check(opscope.dstack(ts), np.dstack(parts), f"dstack {shape}")


def test_stack_out_and_errors():
    a, b = opscope.ones(2, 3), opscope.zeros(2, 3)
    out = opscope.empty(0)
    assert opscope.stack([a, b], 1, out=out) is out and out.shape == (2, 2, 3)
    check(out, np.stack([np.ones((2, 3)), np.zeros((2, 3))], 1).astype(np.float32))
    # an out= whose strides no view of (4, 3) fits: the unsqueeze + cat path
    strided = opscope.empty(3, 2, 2).permute(2, 1, 0)
    opscope.stack([a, b], 0, out=strided)
    check(strided, np.stack([np.ones((2, 3)), np.zeros((2, 3))]).astype(np.float32))
    raises(RuntimeError, "stack expects each tensor to be equal size, but got [2, 3] at entry 0 "
           "and [3, 2] at entry 1", lambda: opscope.stack([a, opscope.ones(3, 2)]))
    raises(RuntimeError, "stack expects each tensor to be equal size, but got [2] at entry 0 and "
           "[3] at entry 1", lambda: opscope.stack([opscope.ones(2), opscope.ones(3)], 1))
    raises(IndexError, "Dimension out of range (expected to be in range of [-3, 2], but got 3)",
           lambda: opscope.stack([a, b], 3))
    assert opscope.stack([opscope.tensor(1.), opscope.tensor(2)]).dtype == opscope.float32


def test_atleast():
    s = opscope.tensor(2.)
    assert opscope.atleast_1d(s).shape == (1,)
    assert opscope.atleast_2d(s).shape == (1, 1) and opscope.atleast_2d(opscope.ones(3)).shape == (1, 3)
    assert opscope.atleast_3d(opscope.ones(3)).shape == (1, 3, 1)
    assert opscope.atleast_3d(opscope.ones(2, 3)).shape == (2, 3, 1)
    assert [t.shape for t in opscope.atleast_2d([s, opscope.ones(2)])] == [(1, 1), (1, 2)]


# --- split / chunk / tensor_split --------------------------------------------------------------

def same_storage(views, base):
    return all(v.data_ptr() - v.storage_offset() * v.element_size()
               == base.data_ptr() - base.storage_offset() * base.element_size() for v in views)


@pytest.mark.parametrize("layout", ("contiguous", "transposed", "sliced"))
def test_split_family_returns_views(layout, rng):
    v = values((7, 5), "float32", rng)
    t = make(v, "float32", layout)
    for size, dim in ((2, 0), (3, 1), (7, 0), (10, -1)):
        got = opscope.split(t, size, dim)
        want = np.split(v, range(size, v.shape[dim], size), axis=dim)
        assert len(got) == len(want) and same_storage(got, t)
        for g, w in zip(got, want):
            check(g, w, f"split {size} {dim}")
    for sizes, dim in (([2, 0, 5], 0), ([1, 4], 1)):
        got = opscope.split(t, sizes, dim)
        assert same_storage(got, t)
        for g, w in zip(got, np.split(v, np.cumsum(sizes)[:-1], axis=dim)):
            check(g, w, f"split {sizes}")
        for g, w in zip(t.split_with_sizes(sizes, dim), np.split(v, np.cumsum(sizes)[:-1], axis=dim)):
            check(g, w, "split_with_sizes")
    for chunks in (1, 2, 3, 4, 7, 9):
        got = opscope.chunk(t, chunks)
        size = -(-7 // chunks)
        want = np.split(v, range(size, 7, size))
        assert len(got) == len(want) and same_storage(got, t)
        for g, w in zip(got, want):
            check(g, w, f"chunk {chunks}")
    for sections in (1, 3, 7, 9):
        got = opscope.tensor_split(t, sections=sections)
        want = np.array_split(v, sections)
        assert len(got) == len(want) and same_storage(got, t)
        for g, w in zip(got, want):
            check(g, w, f"tensor_split {sections}")
    for idx in ([1, 5], [3, 2, 9], [0]):
        for g, w in zip(t.tensor_split(indices=idx, dim=1), np.split(v, idx, axis=1)):
            check(g, w, f"tensor_split {idx}")
        for g, w in zip(opscope.tensor_split(t, opscope.tensor(idx), 1), np.split(v, idx, axis=1)):
            check(g, w, f"tensor_split tensor {idx}")
    for g, w in zip(opscope.tensor_split(t, opscope.tensor(3)), np.array_split(v, 3)):
        check(g, w, "tensor_split 0-d tensor")


def test_split_of_empty_dims():
    assert [p.shape for p in opscope.split(opscope.zeros(0, 3), 0)] == [(0, 3)]
    assert [p.shape for p in opscope.chunk(opscope.zeros(0, 3), 3)] == [(0, 3)] * 3
    assert [p.shape for p in opscope.split(opscope.zeros(2, 0), 2)] == [(2, 0)]


def test_split_errors():
    a = opscope.ones(2, 3)
    raises(RuntimeError, "split expects at least a 1-dimensional tensor", lambda: opscope.split(opscope.tensor(1.), 1))
    raises(RuntimeError, "split_size can only be 0 if dimension size is 0, but got dimension size of 2",
           lambda: opscope.split(a, 0))
    raises(RuntimeError, "split expects split_size be non-negative, but got split_size=-1",
           lambda: opscope.split(a, -1))
    raises(RuntimeError, "split_with_sizes expects split_sizes to sum exactly to 2 (input tensor's "
           "size at dimension 0), but got split_sizes=[1, 2]", lambda: opscope.split(a, [1, 2]))
    raises(RuntimeError, "split_with_sizes expects split_sizes have only non-negative entries, but "
           "got split_sizes=[1, -1, 2]", lambda: opscope.split(a, [1, -1, 2], 1))
    raises(RuntimeError, "chunk expects `chunks` to be greater than 0, got: 0", lambda: opscope.chunk(a, 0))
    raises(RuntimeError, "chunk expects at least a 1-dimensional tensor", lambda: opscope.chunk(opscope.tensor(1.), 1))
    raises(RuntimeError, "number of sections must be larger than 0, got 0",
           lambda: opscope.tensor_split(a, sections=0))
    raises(IndexError, "Dimension out of range (expected to be in range of [-2, 1], but got 3)",
           lambda: opscope.split(a, 1, 3))


# --- flip / roll -------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_flip_and_roll_match_numpy(dtype, layout, rng):
    v = values((3, 4, 5), dtype, rng)
    t = make(v, dtype, layout)
    for dims in ([0], [2], [-1, 0], [0, 1, 2], []):
        check(opscope.flip(t, dims), np.flip(v, dims) if dims else v, f"flip {dims}")
    check(t.fliplr(), np.fliplr(v), "fliplr")
    check(opscope.flipud(t), np.flipud(v), "flipud")
    for shifts, dims in ((1, 0), (-2, 2), (7, -1), ((1, -3), (0, 2)), (5, None), (-13, None)):
        got = opscope.roll(t, shifts, dims) if dims is not None else opscope.roll(t, shifts)
        check(got, np.roll(v, shifts, dims), f"roll {shifts} {dims}")
    s = tensor(np.array(v.flat[0]), dtype)
    check(opscope.flip(s, [0]), np.array(v.flat[0]), "flip 0-d")
    check(opscope.roll(s, 3), np.array(v.flat[0]), "roll 0-d")
    e = make(values((0, 3), dtype, rng), dtype)
    assert opscope.flip(e, [1]).shape == (0, 3) and opscope.roll(e, 1, 1).shape == (0, 3)


def test_flip_keeps_dense_strides_and_big_runs(rng):
    a = opscope.ones(2, 3).t()
    assert opscope.flip(a, [0]).stride() == (1, 3)
    v = rng.standard_normal((200, 3000)).astype(np.float32)
    for dims in ([0], [1], [0, 1]):
        check(opscope.flip(opscope.from_numpy(v), dims), np.flip(v, dims))


def test_flip_roll_errors():
    a = opscope.ones(2, 3)
    raises(RuntimeError, "dim 0 appears multiple times in the list of dims", lambda: opscope.flip(a, [0, -2]))
    raises(IndexError, "Dimension out of range (expected to be in range of [-2, 1], but got 3)",
           lambda: opscope.flip(a, [3]))
    raises(RuntimeError, "Input must be >= 2-d.", lambda: opscope.fliplr(opscope.ones(3)))
    raises(RuntimeError, "Input must be >= 1-d.", lambda: opscope.flipud(opscope.tensor(1.)))
    raises(RuntimeError, "shifts and dimensions must align. shifts: 2, dims:1", lambda: opscope.roll(a, [1, 2], [0]))
    raises(RuntimeError, "`shifts` required", lambda: opscope.roll(a, [], []))
    raises(IndexError, "Dimension out of range (expected to be in range of [-2, 1], but got 5)",
           lambda: opscope.roll(a, 1, 5))
    raises(IndexError, "Dimension specified as 0 but tensor has no dimensions",
           lambda: opscope.roll(opscope.tensor(1.), 1, 0))


# --- repeat / tile / repeat_interleave ---------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_repeat_and_tile_match_numpy(dtype, layout, rng):
    v = values((2, 3), dtype, rng)
    t = make(v, dtype, layout)
    for reps in ((1, 1), (2, 3), (3, 1, 2), (2, 0), (1, 2, 1, 1)):
        check(t.repeat(*reps), np.tile(v, reps), f"repeat {reps}")
    for reps in ((2,), (2, 2), (1, 2, 3), ()):
        check(opscope.tile(t, reps), np.tile(v, reps), f"tile {reps}")
    s = tensor(np.array(v.flat[0]), dtype)
    check(s.repeat(2, 3), np.tile(np.array(v.flat[0]), (2, 3)), "repeat 0-d")


@pytest.mark.parametrize("dtype", DTYPES)
def test_repeat_interleave_matches_numpy(dtype, rng):
    v = values((3, 4), dtype, rng)
    t = make(v, dtype, "transposed")
    check(opscope.repeat_interleave(t, 2), np.repeat(v, 2), "int, flattened")
    check(t.repeat_interleave(3, dim=1), np.repeat(v, 3, axis=1), "int, dim 1")
    r = np.array([1, 0, 2])
    check(opscope.repeat_interleave(t, opscope.tensor(r), dim=0), np.repeat(v, r, axis=0), "tensor, dim 0")
    check(opscope.repeat_interleave(t, opscope.tensor([2]), dim=-1), np.repeat(v, 2, axis=-1), "[2]")
    check(opscope.repeat_interleave(t, opscope.tensor(2), dim=-1, output_size=8), np.repeat(v, 2, axis=-1), "0-d")
    s = tensor(np.array(v.flat[0]), dtype)
    check(opscope.repeat_interleave(s, 2), np.repeat(np.array(v.flat[0]), 2), "0-d self")


def test_repeat_interleave_of_repeats():
    for dtype in ("int32", "int64"):
        r = opscope.tensor([1, 0, 3, 2]).to(getattr(opscope, dtype))
        got = opscope.repeat_interleave(r)
        assert got.dtype == r.dtype
        check(got, np.repeat(np.arange(4), [1, 0, 3, 2]).astype(dtype))
    assert opscope.repeat_interleave(opscope.tensor([1, 2]), output_size=3).tolist() == [0, 1, 1]
    assert opscope.repeat_interleave(opscope.zeros(0, dtype=opscope.int64)).shape == (0,)


def test_repeat_errors():
    a = opscope.ones(2, 3)
    raises(RuntimeError, "Number of dimensions of repeat dims can not be smaller than number of "
           "dimensions of tensor", lambda: a.repeat(2))
    raises(RuntimeError, "Trying to create tensor with negative dimension -2: [-2, 6]", lambda: a.repeat(-1, 2))
    raises(RuntimeError, "repeats can not be negative", lambda: opscope.repeat_interleave(opscope.tensor([1, -1])))
    raises(RuntimeError, "repeat_interleave only accept 1D vector as repeat",
           lambda: opscope.repeat_interleave(opscope.tensor([[1, 1]])))
    raises(RuntimeError, "\"repeat_interleave_cpu\" not implemented for 'Float'",
           lambda: opscope.repeat_interleave(opscope.tensor([1., 1.])))
    raises(RuntimeError, "allocated size does not match required size",
           lambda: opscope.repeat_interleave(opscope.tensor([1, 2]), output_size=4))
    raises(RuntimeError, "repeats must have the same size as input along dim",
           lambda: opscope.repeat_interleave(a, opscope.tensor([1, 2])))
    raises(RuntimeError, "repeats must be 0-dim or 1-dim tensor",
           lambda: opscope.repeat_interleave(a, opscope.tensor([[1, 2]])))
    raises(RuntimeError, "repeats can not be negative", lambda: opscope.repeat_interleave(a, -1))


# --- tril / triu / diag ------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_tril_triu_match_numpy(dtype, layout, rng):
    for shape in ((4, 4), (3, 5), (5, 2), (2, 3, 4), (0, 3), (2, 0, 3)):
        v = values(shape, dtype, rng)
        t = make(v, dtype, layout)
        for k in (0, 1, -1, 3, -10, 10):
            check(opscope.tril(t, k), np.tril(v, k), f"tril {shape} {k}")
            check(t.triu(k), np.triu(v, k), f"triu {shape} {k}")
            out = opscope.empty(0, dtype=getattr(opscope, dtype))
            assert opscope.tril(t, k, out=out) is out
            check(out, np.tril(v, k), "tril out")
            w = make(v, dtype, "transposed").clone() if layout == "transposed" else tensor(v, dtype)
            assert w.triu_(k) is w
            check(w, np.triu(v, k), f"triu_ {shape} {k}")


def test_tril_errors():
    raises(IndexError, "Dimension out of range (expected to be in range of [-1, 0], but got -2)",
           lambda: opscope.tril(opscope.ones(3)))
    raises(IndexError, "Dimension specified as -2 but tensor has no dimensions",
           lambda: opscope.triu(opscope.tensor(1.)))
    raises(RuntimeError, "Expected out tensor to have dtype float, but got double instead",
           lambda: opscope.tril(opscope.ones(2, 2), out=opscope.empty(0, dtype=opscope.float64)))


@pytest.mark.parametrize("dtype", tuple(d for d in DTYPES if d != "float16"))
def test_diag_matches_numpy(dtype, rng):
    m = values((3, 5), dtype, rng)
    t = make(m, dtype, "transposed")
    for k in (0, 1, 4, 5, -1, -3):
        check(opscope.diag(t, k), np.diag(m, k), f"diag 2-D {k}")
    v = values((4,), dtype, rng)
    for k in (0, 2, -1):
        check(opscope.diag(make(v, dtype, "sliced"), k), np.diag(v, k), f"diag 1-D {k}")
        out = opscope.empty(0, dtype=getattr(opscope, dtype))
        assert opscope.diag(tensor(v, dtype), k, out=out) is out
        check(out, np.diag(v, k), "diag out")
    e = opscope.diag_embed(tensor(m, dtype))
    want = np.zeros((3, 5, 5), m.dtype)
    for i in range(3):
        want[i] = np.diag(m[i])
    check(e, want, "diag_embed")
    e = opscope.diag_embed(tensor(m, dtype), 1, 0, 2)
    want = np.zeros((6, 3, 6), m.dtype)
    for i in range(3):
        want[:, i, :] = np.diag(m[i], 1)
    check(e, want, "diag_embed offset, dims")


def test_diag_errors():
    raises(RuntimeError, "matrix or a vector expected", lambda: opscope.diag(opscope.ones(2, 2, 2)))
    raises(RuntimeError, "matrix or a vector expected", lambda: opscope.diag(opscope.tensor(1.)))
    raises(RuntimeError, "\"diag\" not implemented for 'Half'", lambda: opscope.diag(opscope.ones(2, dtype=opscope.float16)))
    raises(RuntimeError, "diagonal dimensions cannot be identical 0, 0",
           lambda: opscope.diag_embed(opscope.ones(2, 3), 1, 0, 0))


def test_cat_keeps_channels_last(rng):
    v = rng.standard_normal((2, 3, 4, 5)).astype(np.float32)
    cl = opscope.from_numpy(v.transpose(0, 2, 3, 1).copy()).permute(0, 3, 1, 2)  # NHWC memory
    r = opscope.cat([cl, cl], 1)
    assert r.stride() == (120, 1, 30, 6)  # channels_last strides of (2, 6, 4, 5), as torch
    check(r, np.concatenate([v, v], 1))
    assert opscope.cat([cl, opscope.from_numpy(v)], 0).is_contiguous()  # formats disagree
