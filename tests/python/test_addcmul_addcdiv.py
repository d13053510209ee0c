"""addcmul / addcdiv (self + value * tensor1 * tensor2, self + value * tensor1 / tensor2): values
against NumPy on random broadcast shapes, strided, 0-d and empty inputs, every dtype they take, the
in-place and out= forms; torch 1.13's outcomes (values, dtypes, errors and their messages,
gradients, node names) replayed from data/addc_small_methods_torch.json
(make_torch_reference_l.py); gradcheck in float64; and the ops a trace shows.

    PYTHONPATH=core/python:build/python /usr/bin/python3 -m pytest -q tests/python/test_addcmul_addcdiv.py
"""
import numpy as np
import pytest

import opscope
from addc_small_methods_cases import env
from conftest import to_numpy
from reference_cases import case_params, load_reference, mismatch, outcome

TORCH = load_reference("addc_small_methods")

# Where opscope knowingly differs from torch 1.13 (case -> why).
KNOWN = {
    "m.addcmul(i, i, j, out=m.empty(3))":
        "torch 1.13's CPU kernel has no dynamic cast (an INTERNAL ASSERT on an out= of another "
        "dtype); opscope computes in int64 and writes the float out=",
}


@pytest.mark.parametrize("case", case_params(TORCH["addc"], KNOWN))
def test_case_matches_torch(case):
    expected = {k: v for k, v in case.items() if k != "expr"}
    why = mismatch(expected, outcome(case["expr"], opscope, **env(opscope)))
    assert why is None, f"{case['expr']}\n   {why}"


def test_reference_data_is_torch_1_13():
    assert TORCH["torch_version"].startswith("1.13")


# --- against NumPy ------------------------------------------------------------------------------

# (self, tensor1, tensor2) shapes: equal, broadcast every way, 0-d, empty
SHAPES = [
    ((5, 7), (5, 7), (5, 7)),
    ((4, 1, 6), (3, 1), (6,)),
    ((6,), (2, 3, 6), (3, 1)),
    ((), (3, 4), ()),
    ((), (), ()),
    ((0, 3), (3,), (1, 3)),
    ((2, 0), (1,), ()),
    ((31, 17), (17,), (31, 1)),
]


def _numpy_addc(div, s, a, b, value, dtype):
    s, a, b = (x.astype(np.float64) for x in (s, a, b))
    r = s + value * a / b if div else s + value * a * b
    return r.astype(dtype)


def _random(rng, shape, dtype, positive=False):
    if np.issubdtype(dtype, np.integer):
        lo = 1 if positive else (-9 if np.issubdtype(dtype, np.signedinteger) else 0)
        return rng.integers(lo, 10, size=shape).astype(dtype)
    x = rng.standard_normal(shape).astype(dtype)
    return np.asarray(np.abs(x) + 0.5 if positive else x, dtype=dtype)


FLOAT_TOL = {"float32": dict(rtol=2e-6, atol=1e-6), "float64": dict(rtol=1e-13, atol=1e-13)}


def _compare(result, expected, dtype_name):
    got = to_numpy(result)
    assert got.shape == expected.shape and str(result.dtype) == f"torch.{dtype_name}"
    if dtype_name in FLOAT_TOL:
        maxdiff = float(np.max(np.abs(got - expected))) if got.size else 0.0
        np.testing.assert_allclose(got, expected, **FLOAT_TOL[dtype_name],
                                   err_msg=f"maxdiff {maxdiff:.3g}")
    else:
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("shapes", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "int32", "int16", "int8", "uint8"])
def test_addcmul_matches_numpy(shapes, dtype, rng):
    s, a, b = (_random(rng, sh, dtype) for sh in shapes)
    value = 0.75 if dtype.startswith("float") else 3
    result = opscope.addcmul(opscope.from_numpy(s), opscope.from_numpy(a), opscope.from_numpy(b),
                             value=value)
    # integers wrap in their own dtype, as torch's kernel computes in it
    expected = (s + np.array(value, dtype) * a * b).astype(dtype) if not dtype.startswith("float") \
        else _numpy_addc(False, s, a, b, value, dtype)
    _compare(result, expected, dtype)


@pytest.mark.parametrize("shapes", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_addcdiv_matches_numpy(shapes, dtype, rng):
    s, a = (_random(rng, sh, dtype) for sh in shapes[:2])
    b = _random(rng, shapes[2], dtype, positive=True)
    result = opscope.addcdiv(opscope.from_numpy(s), opscope.from_numpy(a), opscope.from_numpy(b),
                             value=-1.25)
    _compare(result, _numpy_addc(True, s, a, b, -1.25, dtype), dtype)


@pytest.mark.parametrize("div", [False, True], ids=["addcmul", "addcdiv"])
def test_strided_operands(div, rng):
    """Transposed, stepped and expanded operands give what their contiguous copies give."""
    base = opscope.from_numpy(rng.standard_normal((12, 10)).astype(np.float32))
    s = base.t()[::2]                                            # (5, 12), strided
    a = opscope.from_numpy(rng.standard_normal((12,)).astype(np.float32)).expand(5, 12)
    b = opscope.from_numpy(np.abs(rng.standard_normal((12, 5))).astype(np.float32) + 0.5).t()
    op = opscope.addcdiv if div else opscope.addcmul
    expected = op(s.contiguous(), a.contiguous(), b.contiguous(), value=0.5)
    _compare(op(s, a, b, value=0.5), to_numpy(expected), "float32")
    out = opscope.empty(5, 12).t().contiguous().t()             # a column-major out=
    op(s, a, b, value=0.5, out=out)
    _compare(out, to_numpy(expected), "float32")


@pytest.mark.parametrize("div", [False, True], ids=["addcmul_", "addcdiv_"])
def test_inplace_writes_self_and_returns_it(div, rng):
    s_np = rng.standard_normal((4, 6)).astype(np.float32)
    a_np = rng.standard_normal((6,)).astype(np.float32)
    b_np = np.abs(rng.standard_normal((4, 1))).astype(np.float32) + 0.5
    s = opscope.from_numpy(s_np.copy())
    view = s[:, 1:4]                                             # in place through a view
    ret = view.addcdiv_(opscope.from_numpy(a_np[1:4]), opscope.from_numpy(b_np), value=2) if div \
        else view.addcmul_(opscope.from_numpy(a_np[1:4]), opscope.from_numpy(b_np), value=2)
    assert ret is view
    expected = s_np.copy()
    expected[:, 1:4] = _numpy_addc(div, s_np[:, 1:4], a_np[1:4], b_np, 2, np.float32)
    _compare(s, expected, "float32")


def test_out_is_resized_and_returned(rng):
    f, g = (opscope.from_numpy(rng.standard_normal(sh).astype(np.float64)) for sh in [(3, 1), (4,)])
    out = opscope.empty(7, dtype=opscope.float64)
    ret = opscope.addcmul(f, g, g, out=out)
    assert ret is out and out.shape == (3, 4)
    _compare(out, _numpy_addc(False, to_numpy(f), to_numpy(g), to_numpy(g), 1, np.float64),
             "float64")


def test_out_of_a_wider_dtype_gets_the_cast_result():
    """Where torch 1.13 hits an INTERNAL ASSERT (KNOWN above), opscope writes the result cast to
    out='s dtype, as for add."""
    i, j = opscope.tensor([7, -3, 2]), opscope.tensor([2, 5, -4])
    out = opscope.addcmul(i, i, j, out=opscope.empty(3))
    assert out.dtype == opscope.float32 and out.tolist() == [21.0, -18.0, -6.0]
    f = opscope.tensor([1.5, 2.0])
    out = opscope.addcdiv(f, f, f, value=0.5, out=opscope.empty(2, dtype=opscope.float64))
    assert out.dtype == opscope.float64 and out.tolist() == [2.0, 2.5]


def test_adam_second_moment_update_in_float32(rng):
    """exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2): Adam's line, as written."""
    v_np = np.abs(rng.standard_normal(200_000)).astype(np.float32)
    g_np = rng.standard_normal(200_000).astype(np.float32)
    v, g = opscope.from_numpy(v_np.copy()), opscope.from_numpy(g_np)
    v.mul_(0.999).addcmul_(g, g, value=1 - 0.999)
    value = np.float32(1 - 0.999)
    _compare(v, v_np * np.float32(0.999) + value * g_np * g_np, "float32")


# --- gradients ----------------------------------------------------------------------------------

@pytest.mark.parametrize("div", [False, True], ids=["addcmul", "addcdiv"])
@pytest.mark.parametrize("shapes", [((3, 4), (3, 4), (3, 4)), ((2, 1, 3), (3,), (4, 1)), ((), (2,), ())],
                         ids=str)
def test_gradcheck(div, shapes, rng):
    s, a = (opscope.from_numpy(rng.standard_normal(sh)).requires_grad_() for sh in shapes[:2])
    b = opscope.from_numpy(np.asarray(np.abs(rng.standard_normal(shapes[2])) + 0.5)).requires_grad_()
    op = opscope.addcdiv if div else opscope.addcmul
    assert opscope.autograd.gradcheck(lambda s, a, b: op(s, a, b, value=-0.7), (s, a, b))
    assert opscope.autograd.gradgradcheck(lambda s, a, b: op(s, a, b, value=-0.7), (s, a, b))


@pytest.mark.parametrize("div", [False, True], ids=["addcmul_", "addcdiv_"])
def test_inplace_gradcheck(div, rng):
    a = opscope.from_numpy(rng.standard_normal((3, 4))).requires_grad_()
    b = opscope.from_numpy(np.abs(rng.standard_normal((4,))) + 0.5).requires_grad_()
    s = opscope.from_numpy(rng.standard_normal((3, 4))).requires_grad_()

    def f(s, a, b):
        r = s * 1
        return r.addcdiv_(a, b, value=1.5) if div else r.addcmul_(a, b, value=1.5)
    assert opscope.autograd.gradcheck(f, (s, a, b))
    assert f(s, a, b).grad_fn.name() == ("AddcdivBackward0" if div else "AddcmulBackward0")


# --- traces -------------------------------------------------------------------------------------

TRACE_CASES = [e for e in TORCH["traces"] if "addc" in e]


def _trace_names(expr):
    scope = {"m": opscope, **env(opscope)}
    with opscope.trace() as t:
        eval(expr, scope)  # noqa: S307 - our own cases
    return [op.name.split(".")[0] for op in t.ops]


@pytest.mark.parametrize("expr", TRACE_CASES)
def test_trace_names_are_torchs(expr):
    """The trace shows torch's ops (torch's profiler also lists the out= tensor's aten::empty,
    which the expression makes, and so does opscope's)."""
    assert _trace_names(expr) == TORCH["traces"][expr]

