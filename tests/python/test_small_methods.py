"""The small Tensor methods and functions PyTorch code reaches for: ravel, broadcast_to,
broadcast_tensors, broadcast_shapes, reshape_as, type_as, mT / mH, is_complex / is_signed /
is_nonzero / get_device / is_same_size, trace, sum_to_size, new_empty_strided. Values against
NumPy on random shapes (strided, 0-d, empty), views that share storage, torch 1.13's outcomes
(values, errors and messages, node names) replayed from data/addc_small_methods_torch.json
(make_torch_reference_l.py), gradcheck, and the ops a trace shows (the composites' children).

    PYTHONPATH=core/python:build/python /usr/bin/python3 -m pytest -q tests/python/test_small_methods.py
"""
import numpy as np
import pytest

import opscope
from addc_small_methods_cases import env
from conftest import to_numpy
from reference_cases import DTYPES, case_params, load_reference, mismatch, outcome

TORCH = load_reference("addc_small_methods")

# Where opscope knowingly differs from torch 1.13 (case -> why): nowhere now.
KNOWN = {}


@pytest.mark.parametrize("case", case_params(TORCH["small"], KNOWN))
def test_case_matches_torch(case):
    expected = {k: v for k, v in case.items() if k != "expr"}
    why = mismatch(expected, outcome(case["expr"], opscope, **env(opscope)))
    assert why is None, f"{case['expr']}\n   {why}"


# --- against NumPy ------------------------------------------------------------------------------

def _tensor(rng, shape, dtype=np.float32):
    return opscope.from_numpy(rng.standard_normal(shape).astype(dtype))


def _strided(rng, shape):
    """A tensor of `shape` that is not contiguous: every other column of a transposed base."""
    base = _tensor(rng, (shape[-1] * 2,) + tuple(shape[:-1])) if shape else _tensor(rng, ())
    return base[::2].movedim(0, -1) if shape else base


@pytest.mark.parametrize("shape", [(3, 4), (2, 3, 5), (1,), (), (0, 4), (4, 1, 2)], ids=str)
def test_ravel(shape, rng):
    t = _tensor(rng, shape)
    r = opscope.ravel(t)
    np.testing.assert_array_equal(to_numpy(r), np.ravel(to_numpy(t)))
    if t.numel():
        r[0] = 100.0   # a view of a contiguous tensor
        assert to_numpy(t).ravel()[0] == 100.0
    s = _strided(rng, shape)
    np.testing.assert_array_equal(to_numpy(s.ravel()), np.ravel(to_numpy(s)))
    assert s.ravel().is_contiguous()


@pytest.mark.parametrize("shape,to", [((3,), (4, 3)), ((2, 1), (5, 2, 7)), ((), (2, 3)),
                                       ((1, 0), (3, 0)), ((4, 1), (3, -1, 2))], ids=str)
def test_broadcast_to_is_numpys_view(shape, to, rng):
    t = _tensor(rng, shape)
    r = opscope.broadcast_to(t, to)
    expected = np.broadcast_to(to_numpy(t), tuple(shape[i - len(to) + len(shape)] if s == -1 else s
                                                  for i, s in enumerate(to)))
    np.testing.assert_array_equal(to_numpy(r), expected)
    assert r.data_ptr() == t.data_ptr()
    assert t.broadcast_to(to).shape == r.shape


@pytest.mark.parametrize("shapes", [[(3, 1), (4,)], [(2, 1, 5), (3, 1), ()], [(0, 1), (1, 6)],
                                    [(7,)], [(2, 3), (2, 3)]], ids=str)
def test_broadcast_tensors_and_shapes(shapes, rng):
    ts = [_tensor(rng, s) for s in shapes]
    out = opscope.broadcast_tensors(*ts)
    expected = np.broadcast_arrays(*[to_numpy(t) for t in ts])
    assert len(out) == len(ts)
    for r, e in zip(out, expected):
        np.testing.assert_array_equal(to_numpy(r), e)
    assert tuple(opscope.broadcast_shapes(*shapes)) == np.broadcast_shapes(*shapes)
    assert isinstance(opscope.broadcast_shapes(*shapes), opscope.Size)


@pytest.mark.parametrize("shape,size", [((3, 4), (1, 4)), ((3, 4), (4,)), ((2, 3, 4), (3, 1)),
                                         ((2, 3, 4), ()), ((5, 1), (1, 1)), ((0, 3), (1, 3))],
                         ids=str)
def test_sum_to_size_against_numpy(shape, size, rng):
    t = _tensor(rng, shape, np.float64)
    lead = len(shape) - len(size)
    keep = tuple(i + lead for i, s in enumerate(size) if s == 1 and shape[i + lead] != 1)
    expected = to_numpy(t).sum(axis=keep, keepdims=True).sum(axis=tuple(range(lead)))
    r = t.sum_to_size(size)
    assert tuple(r.shape) == size
    np.testing.assert_allclose(to_numpy(r), expected.reshape(size), rtol=1e-12, atol=1e-12)
    if size:
        np.testing.assert_allclose(to_numpy(t.sum_to_size(*size)), to_numpy(r))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "int32", "int16", "int8", "uint8"])
@pytest.mark.parametrize("shape", [(4, 4), (3, 7), (6, 2), (0, 3), (1, 1)], ids=str)
def test_trace_against_numpy(dtype, shape, rng):
    a = (rng.standard_normal(shape) * 10).astype(dtype)
    t = opscope.from_numpy(a)
    expected = np.trace(a.astype(np.float64 if dtype.startswith("float") else np.int64))
    for x, e in [(t, expected), (t.t(), expected), (t[::2, 1:], np.trace(a[::2, 1:].astype(np.float64)))]:
        r = opscope.trace(x)
        assert r.dim() == 0
        assert r.dtype == (getattr(opscope, dtype) if dtype.startswith("float") else opscope.int64)
        np.testing.assert_allclose(r.item(), e, rtol=1e-6 if dtype == "float32" else 1e-12)


@pytest.mark.parametrize("shape", [(3, 4), (2, 5, 3), (4, 1, 1, 2), (0, 2)], ids=str)
def test_mT_mH_reshape_as(shape, rng):
    t = _tensor(rng, shape)
    expected = np.swapaxes(to_numpy(t), -1, -2)
    for r in (t.mT, t.mH):
        np.testing.assert_array_equal(to_numpy(r), expected)
        assert r.data_ptr() == t.data_ptr()
    other = opscope.zeros(*reversed(shape))
    np.testing.assert_array_equal(to_numpy(t.reshape_as(other)),
                                  to_numpy(t).reshape(tuple(reversed(shape))))


@pytest.mark.parametrize("dtype", DTYPES)
def test_dtype_predicates(dtype):
    t = opscope.zeros(2, dtype=getattr(opscope, dtype))
    assert t.is_signed() is (dtype not in ("bool", "uint8")) is opscope.is_signed(t)
    assert t.is_complex() is False and opscope.is_complex(t) is False
    assert t.get_device() == -1 == opscope.get_device(t)
    assert t.type_as(opscope.ones(1, dtype=opscope.float64)).dtype == opscope.float64


@pytest.mark.parametrize("dtype", DTYPES)
def test_is_nonzero_is_bool_of_the_tensor(dtype):
    for value in (0, 1):
        t = opscope.tensor([value]).to(getattr(opscope, dtype))
        assert t.is_nonzero() is bool(t) is bool(value)


def test_new_empty_strided_takes_selfs_dtype_and_the_strides():
    t = opscope.ones(3, dtype=opscope.int16)
    r = t.new_empty_strided((2, 3), (1, 2))
    assert r.dtype == opscope.int16 and tuple(r.shape) == (2, 3) and r.stride() == (1, 2)
    r = t.new_empty_strided((2, 3), (3, 1), dtype=opscope.float64)
    assert r.dtype == opscope.float64 and r.is_contiguous()


# --- opscope.trace: the op and the recorder -----------------------------------------------------

def test_trace_is_the_op_with_a_tensor_and_the_recorder_without():
    x = opscope.arange(9.).view(3, 3)
    assert opscope.trace(x).item() == 12.0
    assert opscope.trace(input=x).item() == 12.0
    with opscope.trace() as t:
        opscope.trace(x)
    assert [op.name.split(".")[0] for op in t.ops] == ["aten::trace"]
    with opscope.trace(with_stack=True) as t:
        x.trace()
    assert t.ops[0].name == "aten::trace"
    assert isinstance(t, opscope.profiler.trace)


# --- gradients ----------------------------------------------------------------------------------

def test_gradcheck(rng):
    def f64(*shape):
        return opscope.from_numpy(rng.standard_normal(shape)).requires_grad_()
    gradcheck = opscope.autograd.gradcheck
    assert gradcheck(lambda a: opscope.trace(a), (f64(3, 5),))
    assert gradcheck(lambda a: opscope.trace(a.t()), (f64(4, 2),))
    assert opscope.autograd.gradgradcheck(lambda a: opscope.trace(a * a), (f64(3, 3),))
    assert gradcheck(lambda a: a.sum_to_size(1, 3), (f64(4, 3),))
    assert gradcheck(lambda a: a.sum_to_size(3), (f64(2, 4, 3),))
    assert gradcheck(lambda a: opscope.broadcast_to(a, (4, 2, 3)), (f64(2, 1),))
    assert gradcheck(lambda a, b: opscope.broadcast_tensors(a, b), (f64(3, 1), f64(4)))
    assert gradcheck(lambda a: a.t().ravel(), (f64(3, 4),))
    assert gradcheck(lambda a: a.mT * a.mH, (f64(2, 3, 4),))
    assert gradcheck(lambda a: a.reshape_as(opscope.zeros(6, 2)), (f64(3, 4),))


def test_grad_of_trace_is_the_identity_pattern(rng):
    a = opscope.from_numpy(rng.standard_normal((3, 5))).requires_grad_()
    opscope.trace(a).backward()
    np.testing.assert_array_equal(to_numpy(a.grad), np.eye(3, 5))
    assert opscope.trace(a).grad_fn.name() == "TraceBackward0"


# --- traces -------------------------------------------------------------------------------------

TRACE_CASES = [e for e in TORCH["traces"] if "addc" not in e]
# the expression's own arguments (m.tensor(...): torch's to, lift_fresh, detach_) and the
# allocations inside torch's kernels (empty, empty_like), which opscope's kernels make directly
SKIP = ("aten::empty", "aten::empty_like", "aten::tensor", "aten::to", "aten::lift_fresh",
        "aten::detach_", "aten::zeros", "aten::zero_", "aten::fill_")


def _trace_names(expr):
    scope = {"m": opscope, **env(opscope)}
    with opscope.trace() as t:
        eval(expr, scope)  # noqa: S307 - our own cases
    return [op.name.split(".")[0] for op in t.ops]


def _is_subsequence(short, long):
    it = iter(long)
    return all(name in it for name in short)


@pytest.mark.parametrize("expr", TRACE_CASES)
def test_trace_names_follow_torchs(expr):
    """The composite shows the op it is written in, as torch's does: `ravel -> view`,
    `broadcast_to -> expand`, `type_as -> to -> _to_copy`, `mT -> transpose`."""
    torch_names = [n for n in TORCH["traces"][expr] if n not in SKIP]
    names = [n for n in _trace_names(expr) if n not in SKIP]
    assert names and names[0] == torch_names[0], (names, torch_names)
    assert _is_subsequence(names, torch_names), (names, torch_names)
    assert len(names) >= min(2, len(torch_names)), (names, torch_names)
