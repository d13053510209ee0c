"""cov, corrcoef, quantile / nanquantile, mode, aminmax, logspace, the signal windows and the
modified Bessel functions i0 / i1 / i0e / i1e:

- recorded torch 1.13 outcomes (data/statistics_torch.json, cases in statistics_cases.py):
  values, dtypes, shapes, mode's indices, errors and messages, gradients through the composites;
- the ops torch's profiler records for the composites, as a subsequence of opscope's trace;
- NumPy / SciPy references on random shapes, transposed and strided inputs, every dtype;
- gradients by finite differences live in test_autograd.py (I0Backward0, ModeBackward0, ...).

    /usr/bin/python3 -m pytest -q tests/python/test_statistics.py
"""
import math

import numpy as np
import pytest
import scipy.signal
import scipy.special
import scipy.stats

import opscope
import statistics_cases as cases
from conftest import assert_close, record_dispatch, to_numpy
from reference_cases import case_params, load_reference, mismatch, outcome

TORCH = load_reference("statistics")

# Differences from torch, each a strict xfail naming why.
KNOWN_DIFFERENCES = {
    "m.aminmax(X.requires_grad_()).min.grad_fn.name()":
        "torch's NotImplemented node's name() is torch::autograd::NotImplemented; opscope's every "
        "NotImplemented node (heaviside, bincount, aminmax) prints as NotImplemented "
        "(core/autograd/derivatives/reduce.cpp)",
}


def test_reference_data_is_torch_1_13():
    assert TORCH["torch_version"].startswith("1.13") and len(TORCH["cases"]) > 400


@pytest.mark.parametrize("case", case_params(TORCH["cases"], KNOWN_DIFFERENCES))
def test_recorded_torch_outcome(case):
    expected = {k: v for k, v in case.items() if k != "expr"}
    actual = outcome(case["expr"], opscope, **cases.env(opscope))
    why = mismatch(expected, actual)
    assert why is None, f"{case['expr']}\n   {why}"


# --- traces: the composites call the ops torch's do, in order -------------------------------------

def _op_names(expr):
    """The case's top-level ops and their direct children (the composite's decomposition: the
    ops inside those, such as an overload's redispatch to another overload, are the kernels'
    business, and torch's differ there: mul_.Scalar -> mul_.Tensor against torch's mul_ -> mul)."""
    scope = {"m": opscope, **cases.env(opscope)}
    rec = record_dispatch(lambda: eval(expr, scope))  # noqa: S307 - our own cases
    calls = [s for s in rec.steps if s["kind"] in ("call", "callBoxed")]
    top = calls[0]["depth"]
    child = min((s["depth"] for s in calls if s["depth"] > top), default=top)
    return [s["op"].split(".")[0] for s in calls if s["depth"] <= child]


def _is_subsequence(short, long):
    it = iter(long)
    return all(name in it for name in short)


# opscope's ops that torch's profiler does not list: is_scalar_tensor_true's ones (torch: new_ones,
# new_empty, empty, fill_; see Note [Checks on a 0-d bool tensor]), and the ops torch runs
# inside a kernel without recording them.
OPSCOPE_ONLY = {"aten::ones", "aten::_reshape_alias"}


@pytest.mark.parametrize("expr", sorted(TORCH["traces"]))
def test_trace_names_follow_torchs(expr):
    skip = ("aten::empty", "aten::tensor", "aten::to", "aten::lift_fresh", "aten::detach_",
            "aten::empty_strided", "aten::as_strided")
    torch_names = [n for n in TORCH["traces"][expr] if n not in skip]
    names = [n for n in _op_names(expr) if n not in skip and n not in OPSCOPE_ONLY]
    assert names and names[0] == torch_names[0], (names, torch_names)
    assert _is_subsequence(names, torch_names), (names, torch_names)


# --- cov / corrcoef against NumPy ------------------------------------------------------------------

def _t(array, dtype="float64", layout="plain"):
    a = np.asarray(array)
    if layout == "transposed" and a.ndim == 2:
        return opscope.tensor(np.ascontiguousarray(a.T), dtype=getattr(opscope, dtype)).t()
    if layout == "strided" and a.ndim >= 1:
        wide = np.repeat(a, 2, axis=-1)
        return opscope.tensor(wide, dtype=getattr(opscope, dtype))[..., ::2]
    return opscope.tensor(a, dtype=getattr(opscope, dtype))


@pytest.mark.parametrize("layout", ["plain", "transposed", "strided"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_cov_and_corrcoef_match_numpy(rng, dtype, layout):
    tol = (1e-12, 1e-12) if dtype == "float64" else (2e-5, 2e-5)
    for shape in [(4, 9), (1, 7), (6, 2), (3, 30)]:
        x = rng.standard_normal(shape)
        fw = rng.integers(0, 4, shape[1])
        fw[0] = 1
        aw = rng.uniform(0.1, 2.0, shape[1])
        t = _t(x, dtype, layout)
        for correction in (0, 1, 2):
            if shape[1] - correction <= 2:  # (the weighted normalizer may reach 0: NaNs)
                continue
            assert_close(opscope.cov(t, correction=correction), np.cov(x, ddof=correction),
                         rtol=tol[0], atol=tol[1], what=f"cov {shape} ddof={correction}", family="cov")
            assert_close(opscope.cov(t, correction=correction, fweights=opscope.tensor(fw),
                                     aweights=_t(aw, dtype)),
                         np.cov(x, ddof=correction, fweights=fw, aweights=aw),
                         rtol=tol[0] * 10, atol=tol[1] * 10, what=f"weighted cov {shape}", family="cov")
        assert_close(opscope.corrcoef(t), np.corrcoef(x), rtol=tol[0] * 10, atol=tol[1] * 10,
                     what=f"corrcoef {shape}", family="cov")
    # one variable: a 0-d covariance; integer input computes in the default float dtype
    v = rng.standard_normal(8)
    assert_close(opscope.cov(_t(v)), np.cov(v), rtol=1e-12, atol=1e-12, what="cov 1-D")
    xi = rng.integers(-5, 5, (3, 7))
    r = opscope.cov(opscope.tensor(xi))
    assert r.dtype == opscope.float32
    assert_close(r, np.cov(xi), rtol=1e-5, atol=1e-5, what="cov int")


# --- quantile / nanquantile against NumPy ---------------------------------------------------------

@pytest.mark.parametrize("interpolation", ["linear", "lower", "higher", "midpoint", "nearest"])
@pytest.mark.parametrize("layout", ["plain", "transposed", "strided"])
def test_quantile_matches_numpy(rng, interpolation, layout):
    for shape in [(5, 8), (7, 3), (1, 6), (4, 17)]:
        x = rng.standard_normal(shape)
        x[rng.random(shape) < 0.1] = np.nan
        t = _t(x, "float64", layout)
        q = np.array([0.0, 0.1, 0.5, 0.77, 1.0])
        for dim in (None, 0, 1):
            for keepdim in (False, True):
                for fn, npfn in ((opscope.quantile, np.quantile), (opscope.nanquantile, np.nanquantile)):
                    with np.errstate(invalid="ignore"), np.testing.suppress_warnings() as sup:
                        sup.filter(RuntimeWarning)
                        want = npfn(x, q, axis=dim, keepdims=keepdim, method=interpolation)
                        want_scalar = npfn(x, 0.35, axis=dim, keepdims=keepdim, method=interpolation)
                    got = fn(t, opscope.tensor(q), dim=dim, keepdim=keepdim, interpolation=interpolation)
                    np.testing.assert_allclose(to_numpy(got), want, rtol=1e-12, atol=1e-12,
                                               err_msg=f"{fn.__name__} {shape} {dim} {keepdim}")
                    got = fn(t, 0.35, dim=dim, keepdim=keepdim, interpolation=interpolation)
                    np.testing.assert_allclose(to_numpy(got), want_scalar, rtol=1e-12, atol=1e-12)


def test_quantile_float32_out_and_methods(rng):
    x = rng.standard_normal((6, 5)).astype(np.float32)
    t = opscope.tensor(x)
    out = opscope.empty(3)
    r = opscope.quantile(t, 0.25, dim=1, keepdim=False, out=opscope.empty(0))
    assert_close(r, np.quantile(x, 0.25, axis=1), rtol=1e-6, atol=1e-6, what="quantile f32")
    r = t.nanquantile(opscope.tensor([0.5, 0.9]), 0)
    assert r.shape == (2, 5)
    r = opscope.nanquantile(t, 0.5, out=out)
    assert r is out and out.shape == ()
    np.testing.assert_allclose(to_numpy(out), np.nanquantile(x, 0.5), rtol=1e-6)


# --- mode ------------------------------------------------------------------------------------------

def _numpy_mode(v):
    """The smallest of the most frequent values (NaN-free input)."""
    values, counts = np.unique(v, return_counts=True)
    return values[np.argmax(counts)]


@pytest.mark.parametrize("dtype", ["float64", "float32", "bfloat16", "float16", "int64", "int32",
                                   "int16", "int8", "uint8", "bool"])
@pytest.mark.parametrize("layout", ["plain", "transposed"])
def test_mode_matches_numpy(rng, dtype, layout):
    high = 2 if dtype == "bool" else 5
    for shape, dim in [((6, 9), 1), ((6, 9), 0), ((3, 40), 1), ((2, 3, 25), -1), ((11,), 0)]:
        x = rng.integers(0, high, shape)
        t = _t(x, dtype, layout if len(shape) == 2 else "plain")
        values, indices = opscope.mode(t, dim)
        want = np.apply_along_axis(_numpy_mode, dim, x)
        np.testing.assert_array_equal(to_numpy(values).astype(np.int64), want, err_msg=f"{shape} {dim}")
        picked = np.take_along_axis(x, np.expand_dims(to_numpy(indices), dim), dim).squeeze(dim)
        np.testing.assert_array_equal(picked, want, err_msg=f"indices {shape} {dim}")
        kv, ki = t.mode(dim, keepdim=True)
        assert kv.shape == ki.shape == tuple(1 if k == dim % len(shape) else s for k, s in enumerate(shape))


def test_mode_index_is_the_last_after_torchs_sort():
    # under 17 elements std::sort is an insertion sort: the last occurrence of the mode
    v, i = opscope.mode(opscope.tensor([3, 1, 3, 2, 1, 1, 3]))
    assert (v.item(), i.item()) == (1, 5)
    v, i = opscope.mode(opscope.tensor([[2.0, 2.0, 1.0, 1.0]]), 1)
    assert (v.item(), i.item()) == (1.0, 3)


# --- aminmax ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int32", "int16", "int8", "uint8",
                                   "bool"])
@pytest.mark.parametrize("layout", ["plain", "transposed", "strided"])
def test_aminmax_matches_numpy(rng, dtype, layout):
    for shape in [(7, 13), (1, 300), (130, 3), (33, 65)]:
        low, high = {"bool": (0, 2), "uint8": (0, 250)}.get(dtype, (-100, 100))
        x = rng.integers(low, high, shape)
        if dtype.startswith("float"):
            x = rng.standard_normal(shape)
        t = _t(x, dtype, layout)
        xs = to_numpy(t)
        lo, hi = opscope.aminmax(t)
        assert lo.item() == xs.min() and hi.item() == xs.max()
        for dim in (0, 1, -1):
            lo, hi = opscope.aminmax(t, dim=dim)
            np.testing.assert_array_equal(to_numpy(lo), xs.min(axis=dim))
            np.testing.assert_array_equal(to_numpy(hi), xs.max(axis=dim))
            lo, hi = t.aminmax(dim=dim, keepdim=True)
            np.testing.assert_array_equal(to_numpy(hi), xs.max(axis=dim, keepdims=True))


def test_aminmax_nan_wins_and_long_rows(rng):
    x = rng.standard_normal((5, 3000)).astype(np.float32)
    x[2, 1777] = np.nan
    x[4, 3] = np.nan
    t = opscope.tensor(x)
    lo, hi = opscope.aminmax(t, dim=1)
    np.testing.assert_array_equal(to_numpy(lo), x.min(axis=1))
    np.testing.assert_array_equal(to_numpy(hi), x.max(axis=1))
    lo, hi = opscope.aminmax(t)
    assert math.isnan(lo.item()) and math.isnan(hi.item())
    lo, hi = opscope.aminmax(t.t(), dim=0)  # the rows, read as columns
    np.testing.assert_array_equal(to_numpy(hi), x.max(axis=1))
    np.testing.assert_array_equal(to_numpy(lo), x.min(axis=1))
    big = rng.standard_normal(1_000_003)
    lo, hi = opscope.aminmax(opscope.tensor(big))
    assert lo.item() == big.min() and hi.item() == big.max()


def test_aminmax_has_no_derivative_in_torch_1_13():
    x = opscope.tensor([1.0, 3.0, 2.0], requires_grad=True)
    lo, hi = opscope.aminmax(x)
    assert hi.grad_fn.name() == "NotImplemented"
    with pytest.raises(RuntimeError, match="derivative for aten::aminmax is not implemented"):
        hi.backward()


# --- logspace against NumPy ------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float64", "float32", "bfloat16"])
def test_logspace_matches_numpy(dtype):
    for start, end, steps, base in [(-2, 3, 7, 2.0), (0.5, 4.25, 40, 10.0), (3, -1, 9, 0.5), (1, 1, 3, 7.0)]:
        got = opscope.logspace(start, end, steps, base=base, dtype=getattr(opscope, dtype))
        want = np.logspace(start, end, steps, base=base)
        rtol = {"float64": 1e-14, "float32": 1e-6, "bfloat16": 8e-3}[dtype]
        assert_close(got, want, rtol=rtol, atol=0, what=f"logspace {start} {end} {steps}", family="logspace")


# --- windows against SciPy -------------------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3, 8, 31])
@pytest.mark.parametrize("periodic", [True, False])
def test_windows_match_scipy(n, periodic):
    sym = not periodic
    f64 = opscope.float64
    assert_close(opscope.hann_window(n, periodic, dtype=f64), scipy.signal.windows.hann(n, sym=sym),
                 rtol=1e-12, atol=1e-14, what="hann", family="windows")
    assert_close(opscope.hamming_window(n, periodic, dtype=f64),
                 scipy.signal.windows.hamming(n, sym=sym), rtol=1e-12, atol=1e-14, what="hamming")
    assert_close(opscope.hamming_window(n, periodic, 0.6, 0.4, dtype=f64),
                 scipy.signal.windows.general_hamming(n, 0.6, sym=sym), rtol=1e-12, atol=1e-14)
    assert_close(opscope.bartlett_window(n, periodic, dtype=f64),
                 scipy.signal.windows.bartlett(n, sym=sym), rtol=1e-12, atol=1e-14, what="bartlett")
    assert_close(opscope.blackman_window(n, periodic, dtype=f64),
                 scipy.signal.windows.blackman(n, sym=sym), rtol=1e-12, atol=1e-14, what="blackman")
    for beta in (12.0, 3.5):
        assert_close(opscope.kaiser_window(n, periodic, beta, dtype=f64),
                     scipy.signal.windows.kaiser(n, beta, sym=sym), rtol=1e-12, atol=1e-14,
                     what="kaiser", family="windows")
    w = opscope.hann_window(n, periodic)
    assert w.dtype == opscope.float32 and w.shape == (n,)


# --- i0 / i1 / i0e / i1e against SciPy -------------------------------------------------------------

BESSEL = [(opscope.i0, scipy.special.i0), (opscope.special.i0, scipy.special.i0),
          (opscope.special.i1, scipy.special.i1), (opscope.special.i0e, scipy.special.i0e),
          (opscope.special.i1e, scipy.special.i1e)]


@pytest.mark.parametrize("fn,ref", BESSEL, ids=["i0", "special.i0", "i1", "i0e", "i1e"])
@pytest.mark.parametrize("layout", ["plain", "transposed", "strided"])
def test_bessel_functions_match_scipy(rng, fn, ref, layout):
    x = np.concatenate([rng.uniform(-9, 9, 60), rng.uniform(-700, 700, 40), [0.0, 8.0, -8.0, 1e-300]])
    x = x.reshape(8, 13)
    got = fn(_t(x, "float64", layout))
    want = ref(x)
    # a few ulp, as Cephes's expansions in double
    np.testing.assert_allclose(to_numpy(got), want, rtol=4e-15, atol=0)
    got32 = fn(_t(x, "float32", layout))
    with np.errstate(over="ignore"):
        want32 = ref(x.astype(np.float32).astype(np.float64))
    finite = np.abs(want32) < 3e38
    np.testing.assert_allclose(to_numpy(got32)[finite], want32[finite], rtol=2e-6)


def test_bessel_in_place_and_integer_promotion(rng):
    x = opscope.tensor(rng.uniform(-3, 3, (4, 5)))
    y = x.clone()
    assert y.i0_() is y
    assert_close(y, scipy.special.i0(to_numpy(x)), rtol=1e-14, atol=0, what="i0_")
    r = opscope.i0(opscope.tensor([1, 2, 3]))
    assert r.dtype == opscope.float32
    assert_close(r, scipy.special.i0([1.0, 2.0, 3.0]), rtol=1e-6, atol=0, what="i0 int")
    assert opscope.special.i1e(opscope.tensor([True])).dtype == opscope.float32
