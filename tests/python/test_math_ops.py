"""The math ops of core/ops/cpu/unary_math.cpp and binary_math.cpp and their composites (see
core/ops/unary.h, binary.h): polygamma, frac, signbit, deg2rad / rad2deg; logaddexp /
logaddexp2, hypot, copysign, fmax / fmin, xlogy, heaviside, gcd / lcm, nextafter, ldexp,
float_power; the arc* and torch.special aliases. Against NumPy / SciPy in float64, on broadcast
and non-contiguous operands, 0-d and empty ones, every dtype torch 1.13 takes on CPU (its dtype
errors with its kernel names), the special values torch gives, and the ops a trace shows.
(acosh, asinh, atanh, erfc, erfinv, lgamma, digamma and sinc are in test_unary.py's table.)

    /usr/bin/python3 -m pytest -q tests/python/test_math_ops.py
"""
import math

import numpy as np
import pytest
from scipy import special as scipy_special

import opscope
from conftest import assert_close, to_numpy, tolerance

INTEGERS = ["uint8", "int8", "int16", "int32", "int64"]
NAN, INF = float("nan"), float("inf")


def dt(name):
    return getattr(opscope, name)


def same_nan(actual, expected, what=""):
    """Equal where finite, NaN where NaN, the same infinities (float64 comparison)."""
    a = np.asarray(to_numpy(actual), dtype=np.float64)
    np.testing.assert_array_equal(a, np.asarray(expected, dtype=np.float64), err_msg=what)


def operand(rng, shape, low, high, dtype, layout):
    """A tensor of `dtype` with values in [low, high) in `layout`: contiguous, or a transposed /
    stepped view of the same values."""
    values = rng.uniform(low, high, shape)
    if dtype in INTEGERS:
        values = np.round(values)
    base = opscope.tensor(values).to(dt(dtype))
    if layout == "transposed" and base.dim() == 2:
        return base.t().contiguous().t()
    if layout == "stepped" and base.dim() >= 1:
        wide = opscope.zeros(*base.shape[:-1], base.shape[-1] * 2, dtype=base.dtype)
        wide[..., ::2] = base
        return wide[..., ::2]
    return base


# --- polygamma, frac, signbit, deg2rad / rad2deg -----------------------------------------------

@pytest.mark.parametrize("n", [0, 1, 2, 3, 4])
@pytest.mark.parametrize("dtype", ["float64", "float32", "bfloat16", "int64"])
def test_polygamma(n, dtype, rng):
    x = operand(rng, (4, 6), -3.9, 12, dtype, "transposed")
    xn = to_numpy(x).astype(np.float64)
    if dtype == "int64":
        x, xn = x.abs() + 1, np.abs(xn) + 1  # the poles 0, -1, ... are torch's own business
    r = opscope.polygamma(n, x)
    assert r.dtype == (opscope.float32 if dtype == "int64" else x.dtype)
    out_dtype = "float32" if dtype == "int64" else dtype
    tol = tolerance(out_dtype)
    if out_dtype == "float64":
        tol = {"rtol": 1e-10, "atol": 1e-12}
    elif out_dtype == "float32":
        tol = {"rtol": 2e-5, "atol": 1e-5}  # float sums of ζ's terms near the poles
    assert_close(r, scipy_special.polygamma(n, xn), what=f"polygamma {n} {dtype}", **tol)
    np.testing.assert_array_equal(to_numpy(x.polygamma(n)), to_numpy(r))
    np.testing.assert_array_equal(to_numpy(opscope.special.polygamma(n, x)), to_numpy(r))
    out = opscope.empty(0, dtype=r.dtype)
    assert opscope.polygamma(n, x, out=out) is out
    np.testing.assert_array_equal(to_numpy(out), to_numpy(r))
    if dtype != "int64":
        y = x.clone()
        assert y.polygamma_(n) is y
        np.testing.assert_array_equal(to_numpy(y), to_numpy(r))


def test_polygamma_and_digamma_special_values():
    x = opscope.tensor([0.0, -0.0, -1.0, -2.5, 1e-300, INF, NAN], dtype=opscope.float64)
    np.testing.assert_allclose(to_numpy(opscope.digamma(x)),
                               [-INF, INF, NAN, scipy_special.digamma(-2.5), -1e300, INF, NAN], rtol=1e-15)
    assert opscope.polygamma(1, opscope.tensor([0.5, 1.0], dtype=opscope.float64)).tolist() == \
        [pytest.approx(math.pi ** 2 / 2, rel=1e-15), pytest.approx(math.pi ** 2 / 6, rel=1e-15)]
    assert math.isinf(opscope.polygamma(2, opscope.tensor([0.0])).item())
    with pytest.raises(RuntimeError, match=r"polygamma\(n, x\) does not support negative n\."):
        opscope.polygamma(-1, opscope.tensor([1.0]))
    for n, name in ((0, "digamma"), (1, "trigamma"), (2, "polygamma")):
        with pytest.raises(RuntimeError, match=f"\"{name}\" not implemented for 'Half'"):
            opscope.polygamma(n, opscope.tensor([1.0], dtype=opscope.float16))
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        opscope.tensor([1, 2]).polygamma_(1)


def test_polygamma_far_arguments_end_quickly():
    """n! stops at inf, and a far negative x is moved to positive arguments (a term-by-term sum up
    to x + k >= 9 would take 10^15 steps — SciPy's polygamma(1, -1e15 + 0.5) does not return)."""
    assert opscope.polygamma(2**62, opscope.tensor([1.0])).item() == -math.inf
    x = opscope.tensor([-1e15 + 0.5, -123456.25, -2.5], dtype=opscope.float64)
    r = opscope.polygamma(1, x).tolist()
    assert r[0] == pytest.approx(math.pi ** 2, rel=1e-12)  # trigamma(n + 1/2) -> pi^2 as n -> -inf
    assert r[2] == pytest.approx(scipy_special.polygamma(1, -2.5), rel=1e-13)
    assert opscope.polygamma(3, opscope.tensor([-1e6 + 0.5])).isfinite().item()  # float32


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", ["logaddexp", "logaddexp2", "hypot"])
def test_binary_math_vector_path(name, dtype, rng):
    # Contiguous float32 / float64 operands go through the AVX2 kernels (unary_vec.h, where the
    # CPU has them): the special values in every lane of a vector and in the padded tail, and
    # random values against float64 NumPy.
    specials = [(-INF, -INF), (INF, INF), (INF, -INF), (-INF, 3.0), (NAN, 1.0), (1.0, NAN), (0.0, -0.0),
                (-88.0, 88.0), (1e30, 1e30), (-1e-30, 2.5)]
    ref = {"logaddexp": np.logaddexp, "logaddexp2": np.logaddexp2, "hypot": np.hypot}[name]
    for shift in range(9):
        pairs = [(0.5, 0.25)] * shift + specials * 3
        a = np.array([p[0] for p in pairs], dtype=dtype)
        b = np.array([p[1] for p in pairs], dtype=dtype)
        got = to_numpy(getattr(opscope, name)(opscope.tensor(a), opscope.tensor(b)))
        with np.errstate(all="ignore"):
            want = ref(a.astype(np.float64), b.astype(np.float64)).astype(dtype)
        np.testing.assert_allclose(got, want, rtol=2e-6 if dtype == "float32" else 1e-14, equal_nan=True)
    a = rng.standard_normal(1003).astype(dtype) * 20
    b = rng.standard_normal(1003).astype(dtype) * 20
    got = to_numpy(getattr(opscope, name)(opscope.tensor(a), opscope.tensor(b)))
    np.testing.assert_allclose(got, ref(a.astype(np.float64), b.astype(np.float64)),
                               rtol=2e-6 if dtype == "float32" else 1e-14)
    if hasattr(opscope.Tensor, name + "_"):  # in place over the first operand
        x = opscope.tensor(a)
        getattr(x, name + "_")(opscope.tensor(b))
        np.testing.assert_array_equal(to_numpy(x), got)


def test_erfinv_lgamma_sinc_special_values():
    x = opscope.tensor([1.0, -1.0, 1.5, 0.0, -0.0, 1e-300, 0.9999999999], dtype=opscope.float64)
    r = opscope.erfinv(x)
    same_nan(r, [INF, -INF, NAN, 0.0, -0.0, 8.86226925452758e-301, scipy_special.erfinv(0.9999999999)])
    assert math.copysign(1, r[4].item()) == -1
    # erf(erfinv(y)) = y to the last bits, across (-1, 1)
    y = np.linspace(-0.999999, 0.999999, 2001)
    back = scipy_special.erf(to_numpy(opscope.erfinv(opscope.tensor(y))))
    np.testing.assert_allclose(back, y, rtol=0, atol=3e-16)  # erf's own last bit
    np.testing.assert_allclose(to_numpy(opscope.lgamma(opscope.tensor([0.0, -1.0, INF, -INF, 0.5], dtype=opscope.float64))),
                               [INF, INF, INF, INF, math.lgamma(0.5)], rtol=1e-15)
    same_nan(opscope.sinc(opscope.tensor([0.0, 1.0, INF, 1e-20], dtype=opscope.float64)),
             [1.0, np.sinc(1.0), NAN, 1.0])
    same_nan(opscope.acosh(opscope.tensor([0.5, 1.0])), [NAN, 0.0])
    same_nan(opscope.atanh(opscope.tensor([1.0, -1.0, 2.0])), [INF, -INF, NAN])


@pytest.mark.parametrize("layout", ["contiguous", "transposed", "stepped"])
@pytest.mark.parametrize("dtype", ["float64", "float32", "float16", "bfloat16"])
def test_frac(dtype, layout, rng):
    x = operand(rng, (4, 6), -20, 20, dtype, layout)
    xn = to_numpy(x).astype(np.float64)
    r = opscope.frac(x)
    assert r.dtype == x.dtype
    assert_close(r, xn - np.trunc(xn), what=f"frac {dtype}", **tolerance(dtype))
    y = x.clone()
    assert y.frac_() is y
    np.testing.assert_array_equal(to_numpy(y), to_numpy(r))
    for name, label in (("int64", "Long"), ("uint8", "Byte"), ("bool", "Bool")):
        with pytest.raises(RuntimeError, match=f"\"frac_cpu\" not implemented for '{label}'"):
            opscope.frac(opscope.tensor([1]).to(dt(name)))


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16", "bfloat16", "int8", "int64", "uint8", "bool"])
def test_signbit(dtype):
    if dtype in ("uint8", "bool"):
        x = opscope.tensor([0, 1, 255 if dtype == "uint8" else 1]).to(dt(dtype))
        expected = [False, False, False]
    elif dtype in INTEGERS:
        x, expected = opscope.tensor([-3, 0, 7]).to(dt(dtype)), [True, False, False]
    else:
        x = opscope.tensor([-0.0, 0.0, -1.5, 2.0, NAN, -NAN, -INF]).to(dt(dtype))
        expected = [True, False, True, False, False, True, True]
        if dtype == "bfloat16":  # opscope's float -> bfloat16 conversion makes every NaN positive
            x, expected = x[:5], expected[:5]
    r = opscope.signbit(x)
    assert r.dtype == opscope.bool and r.tolist() == expected
    assert x.signbit().tolist() == expected
    out = opscope.empty(0, dtype=opscope.bool)
    assert opscope.signbit(x[::2], out=out) is out and out.tolist() == expected[::2]


def test_deg2rad_rad2deg(rng):
    x = operand(rng, (3, 5), -400, 400, "float64", "transposed")
    xn = to_numpy(x)
    assert_close(opscope.deg2rad(x), np.deg2rad(xn), rtol=1e-15, atol=0)
    assert_close(opscope.rad2deg(x), np.rad2deg(xn), rtol=1e-15, atol=0)
    i = opscope.tensor([180, -90])
    assert opscope.deg2rad(i).dtype == opscope.float32
    assert_close(opscope.deg2rad(i), [math.pi, -math.pi / 2], **tolerance("float32"))
    assert opscope.rad2deg(opscope.tensor([True])).tolist() == [pytest.approx(57.2957795, rel=1e-7)]
    h = opscope.tensor([180.0], dtype=opscope.float16)
    assert opscope.deg2rad(h).dtype == opscope.float16
    y = x.clone()
    assert y.deg2rad_() is y and opscope.equal(y, opscope.deg2rad(x))
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        opscope.tensor([1, 2]).rad2deg_()


# --- binary math ops ---------------------------------------------------------------------------

def _logaddexp2(a, b):
    return np.logaddexp2(a, b)


def _xlogy(x, y):
    with np.errstate(all="ignore"):
        return np.where(np.isnan(y), np.nan, np.where(x == 0, 0.0, x * np.log(y)))


def _heaviside(x, v):
    return np.heaviside(x, v)


# name -> (reference, values of self, values of other, the dtypes torch 1.13 computes on the CPU,
# whether integers are promoted to the default float dtype)
BINARY_MATH = {
    "logaddexp": (np.logaddexp, (-30, 30), (-30, 30), ("float64", "float32", "bfloat16"), False),
    "logaddexp2": (_logaddexp2, (-30, 30), (-30, 30), ("float64", "float32", "bfloat16"), False),
    "hypot": (np.hypot, (-1e3, 1e3), (-1e3, 1e3), ("float64", "float32", "bfloat16"), False),
    "copysign": (np.copysign, (-10, 10), (-10, 10), ("float64", "float32", "float16", "bfloat16"), True),
    "fmax": (np.fmax, (-10, 10), (-10, 10), ("float64", "float32", "float16", "bfloat16") + tuple(INTEGERS), False),
    "fmin": (np.fmin, (-10, 10), (-10, 10), ("float64", "float32", "float16", "bfloat16") + tuple(INTEGERS), False),
    "xlogy": (_xlogy, (-3, 3), (0.01, 20), ("float64", "float32", "float16", "bfloat16"), True),
    "heaviside": (_heaviside, (-2, 2), (-1, 1), ("float64", "float32", "float16", "bfloat16") + tuple(INTEGERS), False),
    "nextafter": (np.nextafter, (-10, 10), (-10, 10), ("float64", "float32", "bfloat16"), False),
    "gcd": (np.gcd, (-60, 60), (-60, 60), tuple(INTEGERS), False),
    "lcm": (np.lcm, (-30, 30), (-30, 30), tuple(INTEGERS), False),
}
SHAPES = [((4, 6), (4, 6)), ((4, 1), (1, 6)), ((6,), (4, 6)), ((), (4, 6)), ((0, 6), (1, 6))]
LABELS = {"float16": "Half", "bfloat16": "BFloat16", "float32": "Float", "float64": "Double",
          "int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool"}


@pytest.mark.parametrize("shapes", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", ["float64", "float32", "float16", "bfloat16", "int64", "int16", "uint8"])
@pytest.mark.parametrize("name", sorted(BINARY_MATH))
def test_binary_math(name, dtype, shapes, rng):
    ref, (la, ha), (lb, hb), dtypes, promotes = BINARY_MATH[name]
    if dtype == "uint8":
        la, lb = max(la, 0), max(lb, 0)
    if dtype in INTEGERS:  # small integers keep hypot / gcd / lcm within the dtype
        ha, hb = min(ha, 100), min(hb, 100)
    a = operand(rng, shapes[0], la, ha, dtype, "contiguous")
    b = operand(rng, shapes[1], lb, hb, dtype, "transposed")
    fn = getattr(opscope, name)
    if dtype not in dtypes and not (promotes and dtype in INTEGERS):
        with pytest.raises(RuntimeError, match=f"\"{name}_cpu\" not implemented for '{LABELS[dtype]}'"):
            fn(a, b)
        return
    r = fn(a, b)
    out_dtype = "float32" if (promotes and dtype in INTEGERS) else dtype
    assert r.dtype == dt(out_dtype) and tuple(r.shape) == np.broadcast_shapes(shapes[0], shapes[1])
    an, bn = to_numpy(a).astype(np.float64), to_numpy(b).astype(np.float64)
    if name in ("gcd", "lcm"):  # in int64, then wrapped into the dtype as its arithmetic wraps
        expected = ref(to_numpy(a).astype(np.int64), to_numpy(b).astype(np.int64)).astype(to_numpy(a).dtype)
    elif name == "nextafter":  # in the dtype's own steps (bfloat16's: within its tolerance)
        expected = ref(to_numpy(a), to_numpy(b)).astype(np.float64)
    else:
        expected = ref(an, bn)
    tol = tolerance(out_dtype)
    if out_dtype == "float16" and name == "xlogy":
        tol = {"rtol": 2e-3, "atol": 2e-3}
    assert_close(r, expected, what=f"{name} {dtype} {shapes}", family="pointwise binary math", **tol)
    # method, out=, in place (for the ops that have one)
    if hasattr(opscope.Tensor, name):
        np.testing.assert_array_equal(to_numpy(getattr(a, name)(b)), to_numpy(r))
    out = opscope.empty(0, dtype=r.dtype)
    assert fn(a, b, out=out) is out
    np.testing.assert_array_equal(to_numpy(out), to_numpy(r))
    if hasattr(opscope.Tensor, name + "_") and out_dtype == dtype and r.shape == a.shape:
        s = a.clone()
        assert getattr(s, name + "_")(b) is s
        np.testing.assert_array_equal(to_numpy(s), to_numpy(r))


def test_binary_math_special_values():
    x = opscope.tensor([-INF, INF, INF, NAN, 1.0, 0.0], dtype=opscope.float64)
    y = opscope.tensor([-INF, INF, -INF, 1.0, NAN, -0.0], dtype=opscope.float64)
    same_nan(opscope.logaddexp(x, y), [-INF, INF, INF, NAN, NAN, math.log(2)])
    same_nan(opscope.logaddexp2(x, y), [-INF, INF, INF, NAN, NAN, 1.0])
    same_nan(opscope.hypot(x, y), [INF, INF, INF, NAN, NAN, 0.0])
    same_nan(opscope.fmax(x, y), [-INF, INF, INF, 1.0, 1.0, 0.0])
    same_nan(opscope.fmin(x, y), [-INF, INF, -INF, 1.0, 1.0, -0.0])
    assert opscope.fmax(opscope.tensor([NAN]), opscope.tensor([NAN])).isnan().item()
    # copysign takes -0.0's sign; integers become the default float dtype
    assert opscope.copysign(opscope.tensor([1.0, 2.0]), opscope.tensor([-0.0, 0.0])).tolist() == [-1.0, 2.0]
    assert opscope.copysign(opscope.tensor([1, 2]), -1).tolist() == [-1.0, -2.0]
    assert opscope.copysign(opscope.tensor([True]), opscope.tensor([True])).dtype == opscope.float32
    # xlogy: 0 where x is 0 unless y is NaN
    same_nan(opscope.xlogy(opscope.tensor([0.0, 1.0, 0.0, 2.0]), opscope.tensor([0.0, NAN, NAN, 4.0])),
             [0.0, NAN, NAN, np.float32(2 * math.log(4.0))])
    assert opscope.xlogy(2, opscope.tensor([1.0, math.e])).tolist() == [0.0, pytest.approx(2.0, rel=1e-7)]
    assert opscope.xlogy(opscope.tensor([3]), 1).dtype == opscope.float32
    # fmax / fmin keep bool; gcd / lcm of magnitudes, int8's -128 as torch (it stays -128)
    assert opscope.fmax(opscope.tensor([True, False]), opscope.tensor([False, False])).tolist() == [True, False]
    assert opscope.gcd(opscope.tensor([-4, 0, 6]), opscope.tensor([6, 0, -4])).tolist() == [2, 0, 2]
    assert opscope.lcm(opscope.tensor([-4, 0, 6]), opscope.tensor([6, 0, -4])).tolist() == [12, 0, 12]
    assert opscope.gcd(opscope.tensor([-128], dtype=opscope.int8), opscope.tensor([0], dtype=opscope.int8)).tolist() == [-128]
    with pytest.raises(RuntimeError, match="\"gcd_cpu\" not implemented for 'Bool'"):
        opscope.gcd(opscope.tensor([True]), opscope.tensor([True]))
    with pytest.raises(RuntimeError, match="\"lcm_cpu\" not implemented for 'Float'"):
        opscope.lcm(opscope.tensor([1.0]), opscope.tensor([2.0]))
    # heaviside: one dtype only
    assert opscope.heaviside(opscope.tensor([-1.0, 0.0, 2.0]), opscope.tensor([0.5])).tolist() == [0.0, 0.5, 1.0]
    assert opscope.heaviside(opscope.tensor([True, False]), opscope.tensor([False, True])).tolist() == [True, True]
    with pytest.raises(RuntimeError, match="heaviside is not yet implemented for tensors with different dtypes."):
        opscope.heaviside(opscope.tensor([1]), opscope.tensor([0.5]))


def test_nextafter_steps():
    f64 = opscope.tensor([1.0, 0.0, -0.0, 5.0], dtype=opscope.float64)
    to = opscope.tensor([2.0, -1.0, 1.0, 5.0], dtype=opscope.float64)
    same_nan(opscope.nextafter(f64, to), np.nextafter(to_numpy(f64), to_numpy(to)))
    # bfloat16: one step of its 16 bits (1 -> 1 + 2^-7), the smallest subnormal from 0
    b = opscope.nextafter(opscope.tensor([1.0, 1.0, 0.0, 0.0, -2.0, NAN], dtype=opscope.bfloat16),
                          opscope.tensor([2.0, 0.0, 1.0, -1.0, -3.0, 1.0], dtype=opscope.bfloat16))
    same_nan(b.float(), [1 + 2 ** -7, 1 - 2 ** -8, 2.0 ** -133, -2.0 ** -133, -2 - 2 ** -6, NAN])
    with pytest.raises(RuntimeError, match="\"nextafter_cpu\" not implemented for 'Half'"):
        opscope.nextafter(opscope.tensor([1.0], dtype=opscope.float16), opscope.tensor([2.0], dtype=opscope.float16))


def test_gcd_lcm_of_the_most_negative_value_do_not_trap():
    # Found by the fuzzer (seed 3535): Euclid in signed arithmetic reached INT64_MIN / -1, a SIGFPE
    # that ended the process. Unsigned magnitudes now; the results wrap as torch's do in range.
    lo = -(2 ** 63)
    a = opscope.tensor([lo, 2, -4, 6, 0])
    b = opscope.tensor([7, 6, 6, -4, lo])
    assert opscope.gcd(a, b).tolist() == [1, 2, 2, 2, lo]  # |lo| = 2^63 wraps back to lo
    assert opscope.lcm(a, b).tolist() == [lo, 6, 12, 12, 0]
    assert a.clone().lcm_(b).tolist() == [lo, 6, 12, 12, 0]
    i8 = opscope.tensor([-128, 100], dtype=opscope.int8)
    assert opscope.gcd(i8, opscope.tensor([0, 3], dtype=opscope.int8)).tolist() == [-128, 1]
    assert opscope.lcm(i8, opscope.tensor([3, 3], dtype=opscope.int8)).tolist() == [-128, 44]  # 300 wraps


def test_ldexp_and_float_power(rng):
    x = operand(rng, (3, 4), -5, 5, "float32", "transposed")
    e = opscope.tensor([[1, -2, 3, 0]])
    r = opscope.ldexp(x, e)
    assert r.dtype == opscope.float32
    assert_close(r, np.ldexp(to_numpy(x).astype(np.float64), to_numpy(e)), **tolerance("float32"))
    assert opscope.ldexp(opscope.tensor([1]), opscope.tensor([3])).tolist() == [8.0]
    y = x.clone()
    assert opscope.ldexp_(y, e) is y and opscope.equal(y, r)
    # float_power: float64 whatever comes in; out= and in place must already be float64
    p = opscope.float_power(opscope.tensor([2, 3]), 2)
    assert p.dtype == opscope.float64 and p.tolist() == [4.0, 9.0]
    assert opscope.float_power(2, opscope.tensor([0.5], dtype=opscope.float16)).tolist() == [math.sqrt(2)]
    xt = operand(rng, (2, 3), 0.5, 3, "float32", "stepped")
    et = operand(rng, (3,), -2, 2, "bfloat16", "contiguous")
    assert_close(opscope.float_power(xt, et), to_numpy(xt).astype(np.float64) ** to_numpy(et).astype(np.float64),
                 rtol=1e-15, atol=0)
    with pytest.raises(RuntimeError, match="the output given to float_power has dtype Float but the "
                                           "operation's result requires dtype Double"):
        opscope.float_power(xt, 2, out=opscope.empty(0))
    with pytest.raises(RuntimeError, match="the base given to float_power_ has dtype Float but the "
                                           "operation's result requires dtype Double"):
        xt.clone().float_power_(2)
    d = xt.double()
    assert d.float_power_(opscope.tensor([2])) is d and opscope.equal(d, xt.double() ** 2)


# --- aliases and traces --------------------------------------------------------------------------

def test_aliases_and_special_functions(rng):
    x = operand(rng, (2, 3), 0.1, 0.9, "float64", "contiguous")
    for alias, target in (("arccosh", "acosh"), ("arcsinh", "asinh"), ("arctanh", "atanh")):
        arg = x + 1 if target == "acosh" else x
        assert opscope.equal(getattr(opscope, alias)(arg), getattr(opscope, target)(arg))
        assert opscope.equal(getattr(arg, alias)(), getattr(opscope, target)(arg))
    s = opscope.special
    for alias, target in (("erfc", "erfc"), ("erfinv", "erfinv"), ("gammaln", "lgamma"), ("digamma", "digamma"),
                          ("psi", "digamma"), ("sinc", "sinc")):
        assert opscope.equal(getattr(s, alias)(x), getattr(opscope, target)(x)), alias
    assert opscope.equal(s.xlogy(x, x + 1), opscope.xlogy(x, x + 1))
    assert opscope.equal(s.xlogy(2.0, x), opscope.xlogy(2.0, x))
    assert opscope.equal(s.xlogy(x, 3.0), opscope.xlogy(x, 3.0))
    with opscope.trace() as t:
        s.psi(x)
        s.xlogy(x, 3.0)
    assert [op.name for op in t.roots] == ["aten::special_psi", "aten::special_xlogy.other_scalar"]
    assert [c.name for c in t.roots[0].children] == ["aten::digamma"]
    assert [c.name for c in t.roots[1].children] == ["aten::xlogy.Scalar_Other"]


def test_composites_show_torch_steps():
    """The composite ops call what torch 1.13's kernels call: deg2rad an empty_like then
    deg2rad.out, a mul.out; ldexp a pow.Scalar and a mul; float_power a `to` and a pow; the
    Scalar overloads their Tensor overload."""
    x = opscope.tensor([1.0, 2.0])

    def children(fn):
        with opscope.trace() as t:
            fn()
        return [op.name for op in t.roots[0].walk()][1:]

    def in_order(wanted, names):
        it = iter(names)
        return all(w in it for w in wanted)

    assert in_order(["aten::empty_like", "aten::deg2rad.out", "aten::mul.out"], children(lambda: opscope.deg2rad(x)))
    assert in_order(["aten::pow.Scalar", "aten::mul.Tensor"], children(lambda: opscope.ldexp(x, opscope.tensor([1, 2]))))
    steps = children(lambda: opscope.float_power(x, opscope.tensor([2])))
    assert steps.count("aten::to.dtype") == 2 and steps[-1] == "aten::pow.Tensor_Tensor"
    xd = x.double()
    assert in_order(["aten::to.dtype", "aten::pow.Tensor_Scalar"], children(lambda: opscope.float_power(xd, 2.0)))
    assert children(lambda: opscope.copysign(x, -1)) == ["aten::copysign.Tensor"]
    assert children(lambda: opscope.xlogy(2, x)) == ["aten::xlogy.Tensor"]
