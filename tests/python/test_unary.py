"""Unary ops (core/ops/unary.h), with the activations (core/ops/nn.h) and the binary / ternary ops
outside test_binary.py (remainder, fmod, atan2, maximum / minimum, clamp, where, lerp, logical,
shifts; core/ops/binary.h, compare.h), against NumPy / math in float64.

* values: every op on every dtype torch 1.13 takes on CPU, in contiguous, transposed, stepped and
  expanded layouts, 0-d and empty, broadcasting for the binary / ternary ops (largest difference
  reported per family);
* type rules: unary float functions promote integers and bool to the default float dtype, abs /
  sign / roundings / clamp keep the dtype, in-place ops that would change self's dtype fail;
* NaN / inf semantics (maximum / minimum / clamp propagate NaN; nan_to_num's defaults);
* errors with torch's messages, aliases (absolute, arctan2, clip), Python operators.

    /usr/bin/python3 -m pytest -q tests/python/test_unary.py
"""
import math

import numpy as np
import pytest
from scipy import special as scipy_special

import opscope
from conftest import assert_close, to_numpy, tolerance

A = opscope.ops.aten
INTEGERS = ["uint8", "int8", "int16", "int32", "int64"]
FLOATS = ["float16", "bfloat16", "float32", "float64"]
LAYOUTS = ["contiguous", "transposed", "stepped", "expanded", "0-d", "empty"]

erf = np.vectorize(math.erf, otypes=[np.float64])


def dt(name):
    return getattr(opscope, name)


def make(values, dtype, layout="contiguous"):
    """An opscope tensor of `dtype` in `layout` built from float64 `values` (shape (4, 6)), and the
    NumPy array of exactly what it holds."""
    values = np.asarray(values)
    if layout == "0-d":
        values = values.reshape(-1)[3]
    elif layout == "empty":
        values = values[:0]
    if dtype == "bool":
        base = opscope.tensor(values != 0)
    elif dtype in INTEGERS:
        base = opscope.tensor(np.round(values).astype(np.int64)).to(dt(dtype))
    else:
        base = opscope.tensor(values.astype(np.float64)).to(dt(dtype))
    if layout == "transposed":
        t = base.t().contiguous().t()            # (4, 6) with column-major strides
    elif layout == "stepped":
        t = _stepped(base)
    elif layout == "expanded":
        t = base[:1].expand(4, 6) if base.dim() == 2 else base
    else:
        t = base
    return t, to_numpy(t).astype(np.float64) if dtype != "bool" else to_numpy(t)


def _stepped(base):
    """`base`'s values as a view with steps: every other column of a (4, 12) tensor."""
    wide = opscope.zeros(4, 12, dtype=base.dtype)
    wide[:, ::2] = base
    return wide[:, ::2]


def values(rng, low, high, shape=(4, 6)):
    return rng.uniform(low, high, shape)


def same(actual, expected, what=""):
    """Exactly equal, NaN matching NaN (for results of one op compared across its forms)."""
    np.testing.assert_array_equal(to_numpy(actual), np.asarray(expected), err_msg=what)


def close_nan(actual, expected, what="", **tol):
    """assert_close where NaN is expected to match NaN (conftest's tolerance turns NaN into a
    failure): the NaN positions must agree, the rest is compared."""
    a, e = to_numpy(actual).astype(np.float64), np.asarray(expected, dtype=np.float64)
    np.testing.assert_array_equal(np.isnan(a), np.isnan(e), err_msg=what)
    keep = ~np.isnan(e)
    assert_close(a[keep], e[keep], what=what, family="pointwise unary", **tol)


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


# --- unary float functions -----------------------------------------------------------------------
# name -> (reference, value range, float16 supported)
UNARY_FLOAT = {
    "exp": (np.exp, (-10, 10), False), "exp2": (np.exp2, (-10, 10), True),
    "expm1": (np.expm1, (-3, 3), False), "log": (np.log, (0.01, 100), False),
    "log2": (np.log2, (0.01, 100), False), "log10": (np.log10, (0.01, 100), False),
    "log1p": (np.log1p, (-0.9, 10), False), "sqrt": (np.sqrt, (0, 100), False),
    "rsqrt": (lambda x: 1 / np.sqrt(x), (0.01, 100), False),
    "reciprocal": (lambda x: 1 / x, (0.5, 10), True),
    "sin": (np.sin, (-6, 6), False), "cos": (np.cos, (-6, 6), False), "tan": (np.tan, (-1.4, 1.4), False),
    "asin": (np.arcsin, (-1, 1), False), "acos": (np.arccos, (-1, 1), False),
    "atan": (np.arctan, (-10, 10), False), "sinh": (np.sinh, (-5, 5), False),
    "cosh": (np.cosh, (-5, 5), False), "tanh": (np.tanh, (-5, 5), False),
    "erf": (erf, (-3, 3), False), "sigmoid": (sigmoid, (-10, 10), False),
    # core/ops/cpu/unary_math.cpp
    "acosh": (np.arccosh, (1, 10), False), "asinh": (np.arcsinh, (-10, 10), False),
    "atanh": (np.arctanh, (-0.99, 0.99), False), "erfc": (scipy_special.erfc, (-3, 5), False),
    "erfinv": (scipy_special.erfinv, (-0.999, 0.999), False),
    "lgamma": (scipy_special.gammaln, (-4.9, 12), False),
    "digamma": (scipy_special.digamma, (-4.9, 12), False), "sinc": (np.sinc, (-4, 4), False),
}
VML_NAMES = {"rsqrt": "rsqrt_cpu", "sinh": "sinh_cpu", "cosh": "cosh_cpu", "sigmoid": "sigmoid_cpu",
             "acosh": "acosh_cpu", "asinh": "asinh_cpu", "atanh": "atanh_cpu", "digamma": "digamma",
             "sinc": "sinc_cpu"}


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16", "float16", "int64", "bool"])
@pytest.mark.parametrize("name", sorted(UNARY_FLOAT))
def test_unary_float_functions(name, dtype, layout, rng):
    ref, (low, high), half = UNARY_FLOAT[name]
    if dtype in INTEGERS or dtype == "bool":
        low, high = max(low, 0.5 if name in ("log", "log2", "log10", "rsqrt", "reciprocal", "lgamma",
                                             "digamma") else low), min(high, 3)
        if name in ("asin", "acos"):
            low, high = 0, 1
    t, x = make(values(rng, low, high), dtype, layout)
    fn = getattr(opscope, name)
    if dtype == "float16" and not half:
        with pytest.raises(RuntimeError, match=f"\"{VML_NAMES.get(name, name + '_vml_cpu')}\" not "
                                               "implemented for 'Half'"):
            fn(t)
        return
    out_dtype = dtype if dtype in FLOATS else "float32"
    r = fn(t)
    assert r.dtype == dt(out_dtype) and r.shape == t.shape
    with np.errstate(all="ignore"):
        expected = ref(x.astype(np.float64))
    tol = tolerance(out_dtype)
    if name in ("exp", "exp2", "sinh", "cosh") and out_dtype == "float32":
        tol["rtol"] = 4e-6
    close_nan(r, expected, what=f"{name} {dtype} {layout}", **tol)
    # method, out=, in place
    same(getattr(t, name)(), to_numpy(r), what=f"{name} method")
    out = opscope.empty(0, dtype=dt(out_dtype))
    assert fn(t, out=out) is out
    same(out, to_numpy(r), what=f"{name} out=")
    if out_dtype == dtype and layout != "expanded":
        s = t.clone()
        assert getattr(s, name + "_")() is s
        same(s, to_numpy(r), what=f"{name}_")


@pytest.mark.parametrize("name", ["exp", "sigmoid", "sqrt", "sin"])
def test_unary_float_in_place_on_integers_fails(name):
    t = opscope.tensor([1, 2, 3])
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        getattr(t, name + "_")()
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        getattr(opscope, name)(t, out=opscope.empty(3, dtype=opscope.int64))


def test_unary_float_special_values():
    x = opscope.tensor([float("nan"), float("inf"), -float("inf"), 0.0, -0.0, 100.0, -100.0])
    xn = to_numpy(x).astype(np.float64)
    with np.errstate(all="ignore"):
        for name in ("exp", "expm1", "log", "log1p", "sqrt", "tanh", "sigmoid", "erf", "atan", "sinh"):
            ref = UNARY_FLOAT[name][0]
            close_nan(getattr(opscope, name)(x), ref(xn).astype(np.float32), what=name,
                      **tolerance("float32"))
    # large inputs: the vector kernels saturate where they should
    assert to_numpy(opscope.exp(opscope.tensor([89.0, -104.0]))).tolist() == [float("inf"), 0.0]
    assert to_numpy(opscope.sigmoid(opscope.tensor([-100.0, 100.0]))).tolist() == [0.0, 1.0]


def test_long_and_strided_inputs_take_every_path(rng):
    """Lengths that leave vector tails, and a strided view, through the SLEEF kernels."""
    for n in (1, 7, 8, 9, 15, 16, 17, 31, 33, 1000, 70001):
        x = rng.uniform(-5, 5, n)
        for dtype in ("float32", "float64"):
            t = opscope.tensor(x).to(dt(dtype))
            for name in ("exp", "tanh", "sigmoid", "erf", "log1p"):
                ref = UNARY_FLOAT[name][0]
                xv = to_numpy(t).astype(np.float64)
                with np.errstate(all="ignore"):
                    close_nan(getattr(opscope, name)(t), ref(xv), what=f"{name} n={n}",
                              **tolerance(dtype))
    t = opscope.tensor(rng.uniform(-3, 3, (300, 7))).float().t()  # strided runs of 300
    assert_close(opscope.tanh(t), np.tanh(to_numpy(t).astype(np.float64)), **tolerance("float32"))


# --- gelu / silu / softplus ----------------------------------------------------------------------
def gelu_ref(x, approximate):
    if approximate == "tanh":
        return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))
    return 0.5 * x * (1 + erf(x / math.sqrt(2)))


def bf16(a):
    """Rounds to the nearest bfloat16 (ties to even), as float64."""
    bits = np.asarray(a, dtype=np.float32).view(np.uint32).astype(np.uint64)
    bits = (bits + np.uint64(0x7FFF) + ((bits >> np.uint64(16)) & np.uint64(1))) & np.uint64(0xFFFF0000)
    return bits.astype(np.uint32).view(np.float32).astype(np.float64)


def gelu_bf16_ref(x, approximate):
    """PyTorch 1.13's GELU on bfloat16 rounds after every step (1 + erf(...) loses its digits)."""
    if approximate == "tanh":
        beta, kappa = bf16(math.sqrt(2 / math.pi)), bf16(0.044715)
        inner = bf16(beta * bf16(x + bf16(kappa * bf16(bf16(x * x) * x))))
        return bf16(bf16(0.5 * x) * bf16(1 + bf16(np.tanh(inner))))
    return bf16(bf16(x * 0.5) * bf16(1 + bf16(erf(bf16(x * bf16(math.sqrt(0.5)))))))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16"])
def test_activations(dtype, layout, rng):
    t, x = make(values(rng, -6, 6), dtype, layout)
    tol = tolerance(dtype)
    for approximate in ("none", "tanh"):
        ref = gelu_bf16_ref(x, approximate) if dtype == "bfloat16" else gelu_ref(x, approximate)
        assert_close(A.gelu(t, approximate=approximate), ref, **tol,
                     what=f"gelu {approximate}", family="pointwise activations")
    assert_close(A.silu(t), x * sigmoid(x), **tol, what="silu", family="pointwise activations")
    assert_close(A.softplus(t), np.where(x > 20, x, np.log1p(np.exp(x))), **tol, what="softplus",
                 family="pointwise activations")
    sp = np.where(2 * x > 3, x, np.log1p(np.exp(2 * x)) / 2)
    assert_close(A.softplus(t, 2, 3), sp, **tol, what="softplus beta threshold",
                 family="pointwise activations")
    r = opscope.relu(t)
    assert r.dtype == t.dtype
    same(r, np.maximum(x, 0), what="relu")
    if layout != "expanded":
        s = t.clone()
        assert A.gelu_(s) is s and opscope.relu_(s) is s


@pytest.mark.parametrize("dtype", ["float16", "int64", "bool"])
def test_activation_dtype_errors(dtype):
    t = opscope.tensor([1, 0, 1]).to(dt(dtype))
    cpp = {"float16": "Half", "int64": "Long", "bool": "Bool"}[dtype]
    for fn, name in ((A.gelu, "GeluKernelImpl"), (A.silu, "silu_cpu"), (A.softplus, "softplus_cpu")):
        with pytest.raises(RuntimeError, match=f"\"{name}\" not implemented for '{cpp}'"):
            fn(t)
    with pytest.raises(RuntimeError, match="approximate argument must be either none or tanh"):
        A.gelu(opscope.ones(2), approximate="fast")


def test_relu_rules():
    assert opscope.relu(opscope.tensor([-2, 3])).tolist() == [0, 3]
    with pytest.raises(RuntimeError, match="Boolean inputs not supported for relu"):
        opscope.relu(opscope.tensor([True]))
    with pytest.raises(RuntimeError, match="\"clamp_min_cpu\" not implemented for 'Half'"):
        opscope.relu(opscope.ones(2, dtype=opscope.float16))
    r = opscope.relu(opscope.tensor([float("nan"), -1.0]))
    assert math.isnan(r.tolist()[0]) and r.tolist()[1] == 0


# --- dtype-keeping unary ops --------------------------------------------------------------------
KEEP = {"abs": np.abs, "sign": np.sign, "sgn": np.sign, "floor": np.floor, "ceil": np.ceil, "trunc": np.trunc,
        "round": np.round}


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", INTEGERS + FLOATS)
@pytest.mark.parametrize("name", sorted(KEEP))
def test_dtype_keeping_unary(name, dtype, layout, rng):
    low = 0 if dtype == "uint8" else -100
    v = values(rng, low, 100)
    v[0, :4] = [2.5, -2.5, 0.5, -0.0]
    t, x = make(v, dtype, layout)
    fn = getattr(opscope, name)
    if dtype == "float16" and name not in ("abs", "sign", "sgn"):
        with pytest.raises(RuntimeError, match=f"\"{name}_vml_cpu\" not implemented for 'Half'"):
            fn(t)
        return
    r = fn(t)
    assert r.dtype == t.dtype
    expected = KEEP[name](x)
    same(r, expected.astype(to_numpy(r).dtype) if dtype in INTEGERS else expected.astype(to_numpy(r).dtype),
         what=f"{name} {dtype} {layout}")
    out = opscope.empty(0, dtype=t.dtype)
    assert fn(t, out=out) is out
    if layout != "expanded":
        s = t.clone()
        assert getattr(s, name + "_")() is s
        same(s, to_numpy(r))


def test_dtype_keeping_unary_bool_and_specials():
    b = opscope.tensor([True, False])
    with pytest.raises(RuntimeError, match="\"abs_cpu\" not implemented for 'Bool'"):
        opscope.abs(b)
    for name in ("floor", "ceil", "round", "trunc"):
        with pytest.raises(RuntimeError, match=f"\"{name}_vml_cpu\" not implemented for 'Bool'"):
            getattr(opscope, name)(b)
    assert opscope.sign(b).tolist() == [True, False]
    assert opscope.sgn(b).tolist() == [True, False]  # sign's values for every real dtype
    x = opscope.tensor([float("nan"), -float("inf"), float("inf"), -0.0])
    assert to_numpy(opscope.sign(x)).tolist()[1:] == [-1.0, 1.0, 0.0]
    assert math.isnan(opscope.abs(x).tolist()[0]) and opscope.abs(x).tolist()[1:] == [math.inf] * 2 + [0.0]
    assert opscope.abs(opscope.tensor([-128], dtype=opscope.int8)).tolist() == [-128]  # wraps
    assert opscope.absolute(opscope.tensor([-3])).tolist() == [3]
    assert abs(opscope.tensor([-1.5])).tolist() == [1.5]


def test_round_decimals(rng):
    x = rng.uniform(-1000, 1000, (5, 7))
    for dtype in ("float32", "float64"):
        t = opscope.tensor(x).to(dt(dtype))
        xv = to_numpy(t).astype(np.float64)
        for d in (0, 1, 2, -1, -2):
            if d >= 0:
                expected = np.round(xv * 10.0 ** d) / 10.0 ** d
            else:
                expected = np.round(xv / 10.0 ** -d) * 10.0 ** -d
            assert_close(opscope.round(t, decimals=d), expected, **tolerance(dtype), what=f"round {d}")
    assert opscope.round(opscope.tensor([1234.5, 15.0]), decimals=-1).tolist() == [1230.0, 20.0]
    with pytest.raises(RuntimeError, match="\"round_cpu\" not implemented for 'Long'"):
        opscope.round(opscope.tensor([1]), decimals=1)


# --- binary ops --------------------------------------------------------------------------------------
def py_remainder(a, b):
    m = np.fmod(a, b)
    return np.where((m != 0) & ((b < 0) != (m < 0)), m + b, m)


BINARY = {"remainder": py_remainder, "fmod": np.fmod, "atan2": np.arctan2,
          "maximum": np.maximum, "minimum": np.minimum}
SHAPES = [((4, 6), (4, 6)), ((4, 1), (1, 6)), ((6,), (4, 6)), ((), (4, 6)), ((0, 6), (1, 6))]


@pytest.mark.parametrize("shapes", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8", "float32", "float64", "bfloat16", "float16"])
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary(name, dtype, shapes, rng):
    sa, sb = shapes
    low = 1 if dtype == "uint8" else -20
    a = opscope.tensor(rng.uniform(low, 20, sa)).to(dt(dtype)) if dtype not in INTEGERS else \
        opscope.tensor(rng.integers(low, 20, sa)).to(dt(dtype))
    bvals = rng.choice([-7.0, -3.0, -2.0, -0.5, 0.5, 2.0, 3.0, 5.0], sb)
    if dtype == "uint8":
        bvals = np.abs(bvals) + 0.5
    b = opscope.tensor(np.round(bvals) if dtype in INTEGERS else bvals).to(dt(dtype))
    if dtype in INTEGERS:
        b = opscope.tensor(np.where(to_numpy(b) == 0, 1, to_numpy(b))).to(dt(dtype))
    b = b.t().contiguous().t() if b.dim() == 2 else b  # non-contiguous operand
    fn = getattr(opscope, name)
    if name == "atan2" and dtype == "float16":
        with pytest.raises(RuntimeError, match="\"atan2_cpu\" not implemented for 'Half'"):
            fn(a, b)
        return
    r = fn(a, b)
    out_dtype = "float32" if (name == "atan2" and dtype in INTEGERS) else dtype
    assert r.dtype == dt(out_dtype)
    an, bn = to_numpy(a).astype(np.float64), to_numpy(b).astype(np.float64)
    expected = BINARY[name](an, bn)
    assert_close(r, expected, **tolerance(out_dtype), what=f"{name} {dtype}", family="pointwise binary")
    same(getattr(a, name)(b), to_numpy(r))
    out = opscope.empty(0, dtype=r.dtype)
    assert fn(a, b, out=out) is out
    same(out, to_numpy(r))


def test_remainder_fmod_floor_divide_rules():
    a, z = opscope.tensor([1, -3]), opscope.tensor([0, 2])
    for fn in (opscope.remainder, opscope.fmod, opscope.floor_divide):
        with pytest.raises(RuntimeError, match="ZeroDivisionError"):
            fn(a, z)
    x = opscope.tensor([-3.0, 3.0, 5.0, -0.0])
    y = opscope.tensor([2.0, -2.0, 0.0, 2.0])
    r = opscope.remainder(x, y).tolist()
    assert r[:2] == [1.0, -1.0] and math.isnan(r[2])
    assert opscope.fmod(x, y).tolist()[:2] == [-1.0, 1.0]
    assert opscope.remainder(5, opscope.tensor([2, 3])).tolist() == [1, 2]
    assert opscope.remainder(opscope.tensor([5]), 2.5).tolist() == [0.0]
    assert opscope.remainder(opscope.tensor([5]), 2.5).dtype == opscope.float32
    assert opscope.floor_divide(opscope.tensor([-7, 7]), 2).tolist() == [-4, 3]
    assert opscope.floor_divide(opscope.tensor([-7.5, 7.5]), opscope.tensor([2.0])).tolist() == [-4.0, 3.0]
    with pytest.raises(RuntimeError, match="\"remainder_cpu\" not implemented for 'Bool'"):
        opscope.remainder(opscope.tensor([True]), opscope.tensor([True]))
    t = opscope.tensor([5, 7])
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        t.remainder_(2.5)
    assert t.fmod_(3).tolist() == [2, 1] and t.tolist() == [2, 1]
    assert opscope.atan2(opscope.tensor([1]), opscope.tensor([1])).dtype == opscope.float32
    assert opscope.arctan2(opscope.tensor([1.0]), opscope.tensor([-1.0])).tolist() == [pytest.approx(3 * math.pi / 4)]


def test_maximum_minimum_nan_and_dtypes():
    a = opscope.tensor([float("nan"), 1.0, 2.0])
    b = opscope.tensor([0.0, float("nan"), 1.0])
    assert [math.isnan(v) for v in opscope.maximum(a, b).tolist()] == [True, True, False]
    assert [math.isnan(v) for v in opscope.minimum(a, b).tolist()] == [True, True, False]
    assert opscope.maximum(opscope.tensor([True, False]), opscope.tensor([False, False])).tolist() == [True, False]
    assert opscope.maximum(opscope.tensor([1]), opscope.tensor([2.5])).dtype == opscope.float32
    assert opscope.minimum(opscope.tensor([3], dtype=opscope.int8), opscope.tensor([-2])).dtype == opscope.int64


# --- clamp ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ["int64", "int16", "uint8", "float32", "float64", "bfloat16"])
def test_clamp(dtype, layout, rng):
    t, x = make(values(rng, 0 if dtype == "uint8" else -10, 10), dtype, layout)
    m = 0 if dtype == "uint8" else -3  # torch wraps -3 into uint8 (253)
    for lo, hi in ((m, 4), (None, 4), (m, None), (5, 2)):
        r = opscope.clamp(t, lo, hi)
        assert r.dtype == t.dtype
        expected = x
        if lo is not None:
            expected = np.maximum(expected, lo)
        if hi is not None:
            expected = np.minimum(expected, hi)
        same(r, expected, what=f"clamp {lo} {hi}")
        same(opscope.clip(t, lo, hi), expected)
    same(opscope.clamp_min(t, 2), np.maximum(x, 2))
    same(opscope.clamp_max(t, 2), np.minimum(x, 2))
    lo_t = opscope.tensor(rng.uniform(-5, 0, (6,))).to(t.dtype) if dtype != "uint8" else opscope.zeros(6, dtype=t.dtype)
    hi_t = opscope.tensor([[3.0]]).to(t.dtype)
    lo_n, hi_n = to_numpy(lo_t).astype(np.float64), to_numpy(hi_t).astype(np.float64)
    if layout != "0-d":
        same(opscope.clamp(t, lo_t, hi_t), np.minimum(np.maximum(x, lo_n), hi_n))
        same(opscope.clamp(t, min=lo_t), np.maximum(x, lo_n))
        same(opscope.clamp(t, max=hi_t), np.minimum(x, hi_n))
    if layout != "expanded":
        s = t.clone()
        assert s.clamp_(m, 4) is s
        same(s, np.clip(x, m, 4))


def test_clamp_rules():
    with pytest.raises(RuntimeError, match="At least one of 'min' or 'max' must not be None"):
        opscope.clamp(opscope.ones(2))
    i = opscope.tensor([1, 5])
    r = opscope.clamp(i, 0.5, 2.5)
    assert r.dtype == opscope.float32 and r.tolist() == [1.0, 2.5]
    assert opscope.clamp(i, opscope.tensor(0.5)).dtype == opscope.float32
    assert opscope.clamp(opscope.tensor([True, False]), 0, 1).dtype == opscope.int64
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type long int"):
        i.clamp_(0.5)
    nan = float("nan")
    r = opscope.clamp(opscope.tensor([nan, 1.0, 5.0]), 0.0, 2.0).tolist()
    assert math.isnan(r[0]) and r[1:] == [1.0, 2.0]
    assert all(math.isnan(v) for v in opscope.clamp(opscope.tensor([1.0, 5.0]), nan, 2.0).tolist())
    assert opscope.clamp_min(opscope.tensor([1.0, -1.0]), nan).tolist() == [1.0, -1.0]
    r = opscope.clamp(opscope.tensor([1.0, 5.0]), opscope.tensor([nan, 0.0]), opscope.tensor([2.0, 2.0]))
    assert math.isnan(r.tolist()[0]) and r.tolist()[1] == 2.0
    with pytest.raises(RuntimeError, match="\"clamp_scalar_cpu\" not implemented for 'Half'"):
        opscope.clamp(opscope.ones(2, dtype=opscope.float16), 0, 1)


# --- where / lerp -----------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["bool", "int64", "int8", "float16", "bfloat16", "float32", "float64"])
def test_where(dtype, rng):
    cond = opscope.tensor(rng.random((4, 1, 6)) < 0.5)
    a, an = make(values(rng, -5, 5), dtype)          # (4, 6)
    b, bn = make(values(rng, -5, 5)[:1], dtype)      # (1, 6)
    b = b.expand(5, 6)[:1]
    r = opscope.where(cond, a, b)
    assert r.dtype == dt(dtype) and r.shape == (4, 4, 6)
    same(to_numpy(r).astype(np.float64) if dtype != "bool" else r, np.where(to_numpy(cond), an, bn))
    same(a.where(cond, b), to_numpy(r))
    out = opscope.empty(0, dtype=dt(dtype))
    assert opscope.where(cond, a, b, out=out) is out
    c2 = opscope.tensor([True, False])
    assert opscope.where(c2, opscope.tensor([1, 2]), 0.5).tolist() == [1.0, 0.5]
    assert opscope.where(c2, 1, 0.5).dtype == opscope.float32
    assert opscope.where(c2, 2, 3).dtype == opscope.int64
    assert opscope.where(c2, opscope.tensor([1.0, 2.0], dtype=opscope.float16), 2.5).dtype == opscope.float16
    assert opscope.where(opscope.tensor([1, 0], dtype=opscope.uint8), 1.0, 2.0).tolist() == [1.0, 2.0]
    with pytest.raises(RuntimeError, match="where expected condition to be a boolean tensor, but got a tensor with dtype Long"):
        opscope.where(opscope.tensor([1, 0]), 1.0, 2.0)


@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16"])
def test_lerp(dtype, rng):
    a, an = make(values(rng, -5, 5), dtype)
    e, en = make(values(rng, -5, 5)[:, :1], dtype, "contiguous")
    e = e.expand(4, 6)
    en = np.broadcast_to(en, (4, 6))
    w, wn = make(values(rng, -1, 2), dtype, "transposed")
    tol = tolerance(dtype)
    assert_close(opscope.lerp(a, e, 0.3), an + 0.3 * (en - an), **tol, family="pointwise lerp")
    assert_close(opscope.lerp(a, e, 0.8), an + 0.8 * (en - an), **tol, family="pointwise lerp")
    assert_close(opscope.lerp(a, e, w), an + wn * (en - an), **tol, family="pointwise lerp")
    s = a.clone()
    assert s.lerp_(e, 0.5) is s
    with pytest.raises(RuntimeError, match="\"lerp_kernel_scalar\" not implemented for 'Long'"):
        opscope.lerp(opscope.tensor([1]), opscope.tensor([2]), 0.5)
    with pytest.raises(RuntimeError, match="expected dtype float for `end` but got dtype double"):
        opscope.lerp(opscope.ones(2), opscope.ones(2, dtype=opscope.float64), 0.5)


# --- logical / classification / nan_to_num -------------------------------------------------------
@pytest.mark.parametrize("dtype", ["bool", "uint8", "int64", "float16", "bfloat16", "float32"])
def test_logical(dtype, rng):
    a, an = make(rng.integers(-1, 2, (4, 6)).astype(np.float64), dtype)
    b, bn = make(rng.integers(0, 2, (1, 6)).astype(np.float64), "float64")
    for name, ref in (("logical_and", np.logical_and), ("logical_or", np.logical_or),
                      ("logical_xor", np.logical_xor)):
        r = getattr(opscope, name)(a, b)
        assert r.dtype == opscope.bool
        assert_close(r, ref(an != 0, bn != 0), what=name)
        out = opscope.empty(0)
        getattr(opscope, name)(a, b, out=out)
        same(out, ref(an != 0, bn != 0).astype(np.float32))
        s = a.clone()
        assert getattr(s, name + "_")(b) is s and s.dtype == a.dtype
    assert_close(opscope.logical_not(a), an == 0)
    s = a.clone()
    assert s.logical_not_() is s and s.dtype == a.dtype


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64", "int32", "bool"])
def test_classification_and_nan_to_num(dtype):
    v = [float("nan"), float("inf"), -float("inf"), 1.5, -0.0]
    if dtype in ("int32", "bool"):
        t = opscope.tensor([0, 1, 2, 3, 4]).to(dt(dtype))
        assert opscope.isnan(t).tolist() == [False] * 5
        assert opscope.isinf(t).tolist() == [False] * 5
        assert opscope.isfinite(t).tolist() == [True] * 5
        assert opscope.isposinf(t).tolist() == [False] * 5
        assert opscope.nan_to_num(t).tolist() == t.tolist()
        return
    t = opscope.tensor(v).to(dt(dtype))
    assert opscope.isnan(t).tolist() == [True, False, False, False, False]
    assert opscope.isinf(t).tolist() == [False, True, True, False, False]
    assert opscope.isfinite(t).tolist() == [False, False, False, True, True]
    assert opscope.isposinf(t).tolist() == [False, True, False, False, False]
    assert opscope.isneginf(t).tolist() == [False, False, True, False, False]
    big = {"float16": 65504.0, "bfloat16": 3.3895313892515355e38, "float32": 3.4028234663852886e38,
           "float64": 1.7976931348623157e308}[dtype]
    assert opscope.nan_to_num(t).tolist() == [0.0, big, -big, 1.5, -0.0]
    assert opscope.nan_to_num(t, 1.0, 2.0, 3.0).tolist() == [1.0, 2.0, 3.0, 1.5, -0.0]
    s = t.clone()
    assert s.nan_to_num_(nan=7.0) is s and s.tolist()[0] == 7.0
    out = opscope.empty(0, dtype=opscope.bool)
    assert opscope.isnan(t, out=out) is out and out.tolist()[0] is True


# --- square, positive, reciprocal, shifts, operators ---------------------------------------------
def test_square_positive():
    assert opscope.square(opscope.tensor([-3, 2])).tolist() == [9, 4]
    assert opscope.square(opscope.tensor([True, False])).dtype == opscope.int64
    assert opscope.square(opscope.tensor([1.5])).tolist() == [2.25]
    t = opscope.tensor([2.0])
    assert t.square_() is t and t.tolist() == [4.0]
    assert opscope.positive(t) is t
    with pytest.raises(RuntimeError, match="The `\\+` operator, on a bool tensor is not supported."):
        opscope.positive(opscope.tensor([True]))


def test_shifts():
    a = opscope.tensor([1, -8, 5])
    b = opscope.tensor([70, -1, 1])
    assert (a << b).tolist() == [64, 0, 10]
    assert (a >> b).tolist() == [0, -1, 2]
    i8 = opscope.tensor([1, -8], dtype=opscope.int8)
    assert (i8 << opscope.tensor([9, 1], dtype=opscope.int8)).tolist() == [0, -16]
    assert opscope.bitwise_left_shift(3, opscope.tensor([1, 2])).tolist() == [6, 12]
    assert opscope.bitwise_right_shift(opscope.tensor([8]), 2).tolist() == [2]
    assert (opscope.tensor([1], dtype=opscope.uint8) << 1).dtype == opscope.uint8
    t = opscope.tensor([1, 2])
    t <<= 2
    assert t.tolist() == [4, 8]
    t >>= 1
    assert t.tolist() == [2, 4]
    with pytest.raises(RuntimeError, match="\"lshift_cpu\" not implemented for 'Float'"):
        opscope.ones(2) << 1


def test_python_operators():
    t = opscope.tensor([-5, 7, 9])
    f = opscope.tensor([-5.5, 7.0, 9.0])
    assert (t // 2).tolist() == [-3, 3, 4]
    assert (7 // t).tolist() == [-2, 1, 0]
    assert (t % 3).tolist() == [1, 1, 0]
    assert (7 % t).tolist() == [-3, 0, 7]
    assert (f % 2).tolist() == [0.5, 1.0, 1.0]
    assert (2.5 // f).tolist() == [-1.0, 0.0, 0.0]
    assert (t // f).dtype == opscope.float32
    assert abs(t).tolist() == [5, 7, 9]
    assert (-t).tolist() == [5, -7, -9]
    assert (2 ** opscope.tensor([1, 3])).tolist() == [2, 8]
    assert (2 ** opscope.tensor([0.5])).tolist() == [pytest.approx(math.sqrt(2))]
    s = opscope.tensor([7, -7])
    s //= 2
    assert s.tolist() == [3, -4]
    s %= 3
    assert s.tolist() == [0, 2]
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        s %= 2.5
