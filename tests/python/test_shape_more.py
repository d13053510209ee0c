"""More of the shape family (core/ops/composite/shape_more.cpp) against NumPy / SciPy / itertools:
rot90, kron, block_diag, diagflat, column_stack / row_stack, hsplit / vsplit / dsplit,
triu_indices / tril_indices, vander, combinations.

    PYTHONPATH=core/python:build/python /usr/bin/python3 -m pytest -q tests/python/test_shape_more.py

Data-movement ops must match exactly on several dtypes and on contiguous, transposed and sliced
inputs; kron and vander compute products and are compared with a tolerance. Errors are torch
1.13's, type and message (the literals below were read from torch 1.13). Gradients are checked by
finite differences in float64, and each op's children in a trace are torch 1.13's.
"""
import itertools

import numpy as np
import pytest
import scipy.linalg

import opscope
from conftest import assert_close, record_dispatch

DTYPES = ("bool", "uint8", "int32", "int64", "bfloat16", "float32", "float64")
LAYOUTS = ("contiguous", "transposed", "sliced")
FAMILY = "shape"


def values(shape, dtype, rng):
    if dtype == "bool":
        return rng.integers(0, 2, size=shape).astype(bool)
    if dtype in ("uint8", "int32", "int64"):
        return rng.integers(0, 9, size=shape).astype(dtype)
    v = rng.uniform(-4, 4, size=shape)
    if dtype == "bfloat16":
        return opscope.tensor(v).to(opscope.bfloat16).float().numpy()
    return v.astype(dtype)


def make(v, dtype, layout="contiguous"):
    """An opscope tensor holding v: contiguous, transposed (memory in reversed dim order) or
    sliced (every other element of a wider last dim)."""
    def t(a):
        return opscope.from_numpy(np.array(a, order="C")).to(getattr(opscope, dtype))
    if layout == "transposed" and v.ndim >= 2:
        return t(v.transpose()).permute(*reversed(range(v.ndim)))
    if layout == "sliced" and v.ndim >= 1:
        return t(np.repeat(v, 2, axis=-1))[..., ::2]
    return t(v)


def as_numpy(t):
    return t.float().numpy() if t.dtype == opscope.bfloat16 else t.numpy()


def exact(actual, expected, dtype):
    assert actual.dtype == getattr(opscope, dtype), (actual.dtype, dtype)
    assert tuple(actual.shape) == expected.shape, (tuple(actual.shape), expected.shape)
    np.testing.assert_array_equal(as_numpy(actual), expected)


def ops_called(fn):
    """The aten ops fn dispatches to, in order, without overload names (repeats merged)."""
    names = []
    for step in record_dispatch(fn).steps:
        name = step["op"].replace("aten::", "").split(".")[0]
        if not names or names[-1] != name:
            names.append(name)
    return names


def raises(fn, message, exc=RuntimeError):
    with pytest.raises(exc) as info:
        fn()
    assert str(info.value).splitlines()[0] == message, str(info.value)


# --- rot90 -------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_rot90_matches_numpy(dtype, layout, rng):
    for shape in [(3, 4), (2, 3, 5), (0, 3), (4, 1, 2, 3)]:
        v = values(shape, dtype, rng)
        x = make(v, dtype, layout)
        for k in range(-5, 6):
            for dims in itertools.permutations(range(-len(shape), len(shape)), 2):
                if (dims[0] - dims[1]) % len(shape) == 0:
                    continue
                exact(opscope.rot90(x, k, list(dims)), np.rot90(v, k, dims), dtype)
        exact(x.rot90(), np.rot90(v), dtype)


def test_rot90_errors():
    x = opscope.randn(2, 3, 4)
    raises(lambda: opscope.rot90(x, 1, [0]), "expected total rotation dims == 2, but got dims = 1")
    raises(lambda: opscope.rot90(opscope.randn(3)),
           "expected total dims >= 2, but got total dims = 1")
    raises(lambda: opscope.rot90(x, 1, [1, 1]),
           "expected rotation dims to be different, but got dim0 = 1 and dim1 = 1")
    raises(lambda: opscope.rot90(x, 1, [0, -3]),
           "expected rotation dims to be different, but got dim0 = 0 and dim1 = -3")
    raises(lambda: opscope.rot90(x, 1, [3, 1]), "Rotation dim0 out of range, dim0 = 3")
    raises(lambda: opscope.rot90(x, 1, [0, -4]), "Rotation dim1 out of range, dim1 = -4")


@pytest.mark.parametrize("k, expected", [
    (1, ["rot90", "flip", "transpose_"]), (2, ["rot90", "flip"]),
    (-1, ["rot90", "flip", "transpose_"]), (4, ["rot90", "clone"])])
def test_rot90_decomposes_as_torch(k, expected):
    x = opscope.randn(2, 3)
    calls = ops_called(lambda: opscope.rot90(x, k))
    assert [c for c in calls if c in ("rot90", "flip", "transpose_", "clone")] == expected, calls


def test_rot90_out_and_grad():
    x = opscope.randn(3, 4)
    out = opscope.empty(0)
    opscope.ops.aten.rot90.out(x, 1, [0, 1], out=out)
    exact(out, np.rot90(x.numpy()), "float32")
    xd = opscope.randn(2, 3, 4, dtype=opscope.float64, requires_grad=True)
    for k in (1, 2, 3, 0):
        assert opscope.autograd.gradcheck(lambda t: opscope.rot90(t, k, [2, 0]), (xd,))
    y = opscope.rot90(xd)
    assert "Rot90Backward0" in str(y.grad_fn)


# --- kron --------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ("int64", "float32", "float64"))
@pytest.mark.parametrize("layout", ("contiguous", "sliced"))
def test_kron_matches_numpy(dtype, layout, rng):
    for sa, sb in [((2, 3), (3, 2)), ((3,), (2, 2, 2)), ((2, 1, 3), (4,)), ((), (3,)),
                   ((0, 2), (2, 3)), ((2,), ())]:
        a, b = values(sa, dtype, rng), values(sb, dtype, rng)
        got = opscope.kron(make(a, dtype, layout), make(b, dtype, layout))
        assert_close(got, np.kron(a, b), rtol=1e-6, atol=1e-6, what=f"kron{sa}{sb}", family=FAMILY)
        assert got.dtype == getattr(opscope, dtype)


def test_kron_promotes_out_and_traces():
    assert_close(opscope.kron(opscope.tensor([1, 2]), opscope.tensor([1.5])),
                 np.array([1.5, 3.0], dtype=np.float32))
    a, b = opscope.randn(3, 4), opscope.randn(2, 2)
    out = opscope.empty(0)
    opscope.kron(a, b, out=out)
    assert_close(out, np.kron(a.numpy(), b.numpy()))
    assert ops_called(lambda: opscope.kron(a, b)) == [
        "kron", "_unsafe_view", "mul", "_unsafe_view"]


def test_kron_of_a_transposed_matrix_fails_as_torch():
    # torch 1.13's kron _unsafe_views mul's result, which follows a transposed operand's layout.
    raises(lambda: opscope.kron(opscope.randn(4, 3).t(), opscope.randn(2, 2)),
           "view size is not compatible with input tensor's size and stride (at least one "
           "dimension spans across two contiguous subspaces). Use .reshape(...) instead.")


def test_kron_grad():
    a = opscope.randn(2, 3, dtype=opscope.float64, requires_grad=True)
    b = opscope.randn(3, dtype=opscope.float64, requires_grad=True)
    assert opscope.autograd.gradcheck(opscope.kron, (a, b))


# --- block_diag --------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_block_diag_matches_scipy(dtype, layout, rng):
    shapes = [(2, 3), (3,), (), (0, 2), (2, 0), (1, 1), (4, 2)]
    vs = [values(s, dtype, rng) for s in shapes]
    got = opscope.block_diag(*[make(v, dtype, layout) for v in vs])
    expected = scipy.linalg.block_diag(*[np.atleast_2d(v) for v in vs]).astype(vs[0].dtype)
    exact(got, expected, dtype)


def test_block_diag_promotes_empty_out_errors():
    got = opscope.block_diag(opscope.tensor([True]), opscope.tensor([[2]]))
    exact(got, np.array([[1, 0], [0, 2]]), "int64")
    got = opscope.block_diag(opscope.tensor([1, 2], dtype=opscope.int32), opscope.tensor(2.5))
    assert got.dtype == opscope.float32
    exact(opscope.block_diag(), np.zeros((1, 0), np.float32), "float32")
    out = opscope.empty(0, dtype=opscope.float64)
    opscope.ops.aten.block_diag.out([opscope.ones(2, 2, dtype=opscope.float64)], out=out)
    exact(out, np.ones((2, 2)), "float64")
    raises(lambda: opscope.block_diag(opscope.ones(2, 2), opscope.ones(2, 3, 4)),
           "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input 1 has 3 "
           "dimensions")


def test_block_diag_grad_and_trace():
    ts = [opscope.randn(2, 3, dtype=opscope.float64, requires_grad=True),
          opscope.randn(3, dtype=opscope.float64, requires_grad=True),
          opscope.randn((), dtype=opscope.float64, requires_grad=True)]
    assert opscope.autograd.gradcheck(lambda *t: opscope.block_diag(*t), tuple(ts))
    assert "BlockDiagBackward0" in str(opscope.block_diag(*ts).grad_fn)
    a, b = opscope.ones(2, 2), opscope.ones(3)
    calls = [c for c in ops_called(lambda: opscope.block_diag(a, b))
             if c in ("block_diag", "expand", "zeros", "slice", "copy_")]
    assert calls == ["block_diag", "expand", "zeros", "slice", "slice", "copy_", "slice", "slice",
                     "copy_"], calls


# --- diagflat, column_stack, row_stack ---------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_diagflat_matches_numpy(dtype, layout, rng):
    for shape in [(3, 4), (5,), (), (0,), (2, 2, 2)]:
        v = values(shape, dtype, rng)
        for offset in (-2, 0, 1, 3):
            exact(opscope.diagflat(make(v, dtype, layout), offset), np.diagflat(v, offset), dtype)
    x = opscope.randn(3, 4, dtype=opscope.float64, requires_grad=True)
    assert opscope.autograd.gradcheck(lambda t: t.diagflat(-1), (x,))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_column_row_stack_match_numpy(dtype, layout, rng):
    parts = [values(s, dtype, rng) for s in [(3,), (3, 2), (3, 1), (3,)]]
    ts = [make(p, dtype, layout) for p in parts]
    exact(opscope.column_stack(ts), np.column_stack(parts), dtype)
    exact(opscope.column_stack([make(np.array(parts[0][0]), dtype)] * 2),
          np.column_stack([parts[0][0]] * 2), dtype)
    rows = [values(s, dtype, rng) for s in [(4,), (2, 4), (1, 4)]]
    exact(opscope.row_stack([make(r, dtype, layout) for r in rows]), np.vstack(rows), dtype)
    out = opscope.empty(0, dtype=getattr(opscope, dtype))
    opscope.column_stack(ts, out=out)
    exact(out, np.column_stack(parts), dtype)
    opscope.row_stack([make(r, dtype) for r in rows], out=out)
    exact(out, np.vstack(rows), dtype)


def test_column_row_stack_errors_and_trace():
    raises(lambda: opscope.column_stack([]), "column_stack expects a non-empty TensorList")
    raises(lambda: opscope.row_stack([]), "vstack expects a non-empty TensorList")
    v, m = opscope.ones(3), opscope.ones(3, 2)
    assert ops_called(lambda: opscope.column_stack([v, m])) == [
        "column_stack", "reshape", "_reshape_alias", "hstack", "atleast_1d", "cat"]
    assert ops_called(lambda: opscope.row_stack([v, v]))[:3] == ["row_stack", "vstack",
                                                                  "atleast_2d"]


# --- hsplit, vsplit, dsplit --------------------------------------------------------------------

@pytest.mark.parametrize("layout", LAYOUTS)
def test_hvdsplit_match_numpy(layout, rng):
    v = values((4, 6, 2), "float32", rng)
    x = make(v, "float32", layout)
    cases = [("hsplit", np.hsplit, 3), ("hsplit", np.hsplit, [1, 4]),
             ("vsplit", np.vsplit, 2), ("vsplit", np.vsplit, [3, 1, 7]),
             ("dsplit", np.dsplit, 2), ("dsplit", np.dsplit, [1])]
    for name, ref, arg in cases:
        want = ref(v, arg)
        # The method only with a list: see test_split_method_with_an_int below.
        methods = [getattr(x, name)(arg)] if isinstance(arg, list) else []
        for got in [getattr(opscope, name)(x, arg)] + methods:
            assert len(got) == len(want)
            for g, w in zip(got, want):
                exact(g, w, "float32")
                assert g._is_view()  # views of self
    v1 = values((6,), "int64", rng)
    for g, w in zip(opscope.hsplit(make(v1, "int64"), 3), np.hsplit(v1, 3)):
        exact(g, w, "int64")


def test_split_method_with_an_int():
    """An `int` overload is tried before the `int[]` one in the same place, as torch's binding
    orders them (core/python/ops.cpp sort_signatures): x.hsplit(3) is hsplit.int, not
    hsplit.array([3])."""
    x = opscope.randn(4, 6, 8)
    assert len(x.hsplit(3)) == 3 and len(x.hsplit([3])) == 2
    assert len(x.vsplit(2)) == 2 and len(x.vsplit([1])) == 2 and len(x.dsplit(4)) == 4


def test_hvdsplit_errors_and_trace():
    x, m, v = opscope.randn(2, 3, 4), opscope.randn(3, 4), opscope.randn(3)
    raises(lambda: opscope.hsplit(opscope.tensor(1.), 1),
           "torch.hsplit requires a tensor with at least 1 dimension, but got a tensor with 0 "
           "dimensions!")
    raises(lambda: opscope.hsplit(x, 2),
           "torch.hsplit attempted to split along dimension 1, but the size of the dimension 3 "
           "is not divisible by the split_size 2!")
    raises(lambda: opscope.hsplit(v, 2),
           "torch.hsplit attempted to split along dimension 0, but the size of the dimension 3 "
           "is not divisible by the split_size 2!")
    raises(lambda: opscope.hsplit(x, 0),
           "torch.hsplit attempted to split along dimension 1, but the size of the dimension 3 "
           "is not divisible by the split_size 0!")
    raises(lambda: opscope.vsplit(v, [1]),
           "torch.vsplit requires a tensor with at least 2 dimension, but got a tensor with 1 "
           "dimensions!")
    raises(lambda: opscope.vsplit(x, 3),
           "torch.vsplit attempted to split along dimension 0, but the size of the dimension 2 "
           "is not divisible by the split_size 3!")
    raises(lambda: opscope.dsplit(m, 2),
           "torch.dsplit requires a tensor with at least 3 dimension, but got a tensor with 2 "
           "dimensions!")
    assert ops_called(lambda: opscope.hsplit(x, 3))[:3] == ["hsplit", "tensor_split", "slice"]
    xd = opscope.randn(2, 4, dtype=opscope.float64, requires_grad=True)
    assert opscope.autograd.gradcheck(lambda t: opscope.hsplit(t, [1, 3]), (xd,))


# --- triu_indices, tril_indices ----------------------------------------------------------------

def test_triangle_indices_match_numpy():
    for row, col in [(0, 3), (3, 0), (1, 1), (3, 4), (5, 2), (4, 4)]:
        for offset in (-7, -2, -1, 0, 1, 2, 7, 2**62, -2**62):
            for name in ("triu", "tril"):
                got = getattr(opscope, f"{name}_indices")(row, col, offset)
                want = np.stack(getattr(np, f"{name}_indices")(row, offset, col)) \
                    if row and col else np.zeros((2, 0), np.int64)
                exact(got, want.astype(np.int64).reshape(2, -1), "int64")
    exact(opscope.tril_indices(3, 3, dtype=opscope.int32),
          np.stack(np.tril_indices(3)).astype(np.int32), "int32")
    out = opscope.empty(0, dtype=opscope.int64)
    opscope.ops.aten.triu_indices.out(3, 3, 1, out=out)
    exact(out, np.array([[0, 0, 1], [1, 2, 2]]), "int64")


def test_triangle_indices_errors():
    raises(lambda: opscope.triu_indices(-1, 3), "row must be non-negative, got-1")
    raises(lambda: opscope.tril_indices(3, -1), "col must be non-negative, got-1")
    raises(lambda: opscope.triu_indices(3, 3, dtype=opscope.float32),
           "\"triu_indices\" not implemented for 'Float'")
    raises(lambda: opscope.tril_indices(3, 3, dtype=opscope.int8),
           "\"tril_indices\" not implemented for 'Char'")
    raises(lambda: opscope.ops.aten.triu_indices.out(2, 2, 0, out=opscope.empty(0)),
           "\"triu_indices\" not implemented for 'Float'")
    assert ops_called(lambda: opscope.triu_indices(2, 2)) == ["triu_indices"]



def test_triangle_indices_of_huge_matrices_end_quickly():
    """The count is a closed form and only rows holding cells are walked: 2**62 rows of 0 or 2
    columns take no time; a count past int64 is refused with torch's overflow message."""
    assert opscope.tril_indices(2**62, 0).shape == (2, 0) and opscope.triu_indices(0, 2**62).shape == (2, 0)
    assert opscope.triu_indices(2**62, 2).shape == (2, 3)
    assert opscope.tril_indices(2**62, 2, -2**62 + 3).shape == (2, 5)
    for args in [(2**62, 2), (2**40, 2**40)]:
        with pytest.raises(RuntimeError, match="Storage size calculation overflowed with sizes=\\[2, "):
            opscope.tril_indices(*args)


# --- vander, combinations ----------------------------------------------------------------------

@pytest.mark.parametrize("dtype, want", [("bool", "int64"), ("uint8", "int64"),
                                         ("int32", "int64"), ("int64", "int64"),
                                         ("float32", "float32"), ("float64", "float64")])
@pytest.mark.parametrize("layout", ("contiguous", "sliced"))
def test_vander_matches_numpy(dtype, want, layout, rng):
    for n in (0, 1, 4):
        v = values((n,), dtype, rng)
        x = make(v, dtype, layout)
        for N in (None, 0, 1, 3, 5):
            for increasing in (False, True):
                got = opscope.vander(x, N, increasing)
                ref = np.vander(v.astype(np.float64), N, increasing)
                assert got.dtype == getattr(opscope, want)
                assert_close(got, ref.astype(want), rtol=1e-5, atol=1e-5,
                             what=f"vander n={n} N={N}", family=FAMILY)


def test_vander_errors_grad_trace():
    raises(lambda: opscope.vander(opscope.ones(2, 2)), "x must be a one-dimensional tensor.")
    raises(lambda: opscope.vander(opscope.tensor(1.)), "x must be a one-dimensional tensor.")
    raises(lambda: opscope.vander(opscope.ones(3), -1), "N must be non-negative.")
    # torch 1.13's vander overwrites the input cumprod saved for backward: its gradient fails,
    # and so does ours, with torch's message.
    x = opscope.randn(4, dtype=opscope.float64, requires_grad=True)
    with pytest.raises(RuntimeError) as info:
        opscope.vander(x, 3).sum().backward()
    assert str(info.value).startswith(
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.DoubleTensor [4, 2]], which is output 0 of AsStridedBackward0, is at "
        "version 3; expected version 2 instead."), str(info.value)
    ones = opscope.ones(3)
    calls = ops_called(lambda: opscope.vander(ones))
    assert [c for c in calls if c in ("vander", "fill_", "cumprod", "flip")] == [
        "vander", "fill_", "cumprod", "flip"], calls
    assert calls[:3] == ["vander", "empty", "select"], calls


@pytest.mark.parametrize("dtype", DTYPES)
def test_combinations_match_itertools(dtype, rng):
    for n in (0, 1, 4):
        v = values((n,), dtype, rng)
        x = make(v, dtype, "sliced")
        for r in (1, 2, 3, 5):
            for with_replacement in (False, True):
                pick = itertools.combinations_with_replacement if with_replacement \
                    else itertools.combinations
                want = np.array([list(c) for c in pick(v, r)], dtype=v.dtype).reshape(-1, r)
                exact(opscope.combinations(x, r, with_replacement), want, dtype)
    exact(opscope.combinations(make(values((3,), dtype, rng), dtype), 0),
          np.zeros((0,), dtype=values((1,), dtype, rng).dtype), dtype)


def test_combinations_errors_grad_trace():
    raises(lambda: opscope.combinations(opscope.ones(3, 4)),
           "Expect a 1D vector, but got shape [3, 4]")
    raises(lambda: opscope.combinations(opscope.ones(3), -1),
           "Expect a non-negative number, but got -1")
    x = opscope.randn(4, dtype=opscope.float64, requires_grad=True)
    assert opscope.autograd.gradcheck(lambda t: opscope.combinations(t, 2), (x,))
    ones = opscope.ones(3)
    calls = ops_called(lambda: opscope.combinations(ones))
    assert [c for c in calls if c in ("combinations", "meshgrid", "arange", "full", "lt", "mul_",
                                      "masked_select", "stack")] == [
        "combinations", "meshgrid", "arange", "meshgrid", "full", "lt", "mul_", "masked_select",
        "stack"], calls
