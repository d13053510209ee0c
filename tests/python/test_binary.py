"""Arithmetic, comparison and bitwise ops (core/ops/binary.h, compare.h) — add, sub, rsub, mul,
div (rounding modes), neg, pow, eq / ne / lt / le / gt / ge, bitwise and / or / xor / not — against NumPy in float64 and against outcomes recorded from torch 1.13.

* values: every dtype, broadcasting shapes, 0-d and empty operands, non-contiguous operands
  (transposed, sliced with steps, expanded), compared with NumPy (largest difference reported);
* forms: functions, methods, operators and their reflected forms, in-place ops and out=;
* result dtypes and values for every dtype pair, 0-d tensor and Python scalar operand, and every
  error path with torch's message: data/elementwise_torch.json (make_torch_reference.py).

    /usr/bin/python3 -m pytest -q tests/python/test_binary.py
"""
import operator
import re

import numpy as np
import pytest

import opscope
from conftest import assert_close, remember_difference, tolerance, to_numpy
from reference_cases import (DTYPES, FLOATS, case_params, check_case, load_reference, max_difference,
                             mismatch, outcome)

TORCH = load_reference("elementwise")

INTEGERS = ["uint8", "int8", "int16", "int32", "int64"]
NOT_BOOL = INTEGERS + FLOATS
SIGNED = INTEGERS[1:] + FLOATS
INTEGRAL = ["bool"] + INTEGERS


# --- operands --------------------------------------------------------------------------------
def sample(shape, dtype, rng, low, high):
    """Random values of `dtype` in [low, high), as a NumPy array holding exactly what an opscope
    tensor of that dtype holds (bfloat16 values as float32)."""
    if dtype == "bool":
        return np.asarray(rng.random(shape) < 0.5)
    if dtype in INTEGERS:
        return rng.integers(max(low, 0) if dtype == "uint8" else low, high, shape).astype(dtype)
    values = rng.uniform(low, high, shape)
    return to_numpy(opscope.tensor(values).to(getattr(opscope, dtype)))


def divisors(shape, dtype, rng):
    """Nonzero values of `dtype`; powers of two for floats, so that a / b is exact in every float
    dtype and floor / trunc cannot land on the other side of an integer."""
    choices = {"bool": [True], "uint8": [1, 2, 3, 7]}.get(dtype, [-7, -3, -2, -1, 1, 2, 5])
    if dtype in FLOATS:
        choices = [-4.0, -2.0, -1.0, -0.5, 0.5, 1.0, 2.0, 4.0]
    return np.asarray(rng.choice(choices, shape)).astype("float32" if dtype == "bfloat16" else dtype)


def values_for(value_range, shape, dtype, rng):
    if value_range == "divisor":
        return divisors(shape, dtype, rng)
    return sample(shape, dtype, rng, *value_range)


def make(values, dtype, layout):
    """An opscope tensor of `dtype` laid out as `layout`, and the values it holds:
    contiguous; transposed (a transpose of a contiguous tensor); sliced (a view with steps and an
    offset into a larger tensor); expanded (row 0 repeated along dim 0 with stride 0)."""
    def tensor(a):
        return opscope.tensor(np.array(a, order="C")).to(getattr(opscope, dtype))
    if values.ndim == 0 or values.size == 0 or layout == "contiguous":
        return tensor(values), values
    if layout == "transposed":
        return tensor(np.swapaxes(values, 0, -1)).transpose(0, -1), values
    if layout == "sliced" and values.ndim == 1:  # every other element, from 1
        big = np.zeros(2 * len(values) + 1, values.dtype)
        big[1::2] = values
        return tensor(big)[1::2], values
    if layout == "sliced":  # every other row and every third column, from column 1
        big = np.zeros((2 * values.shape[0],) + values.shape[1:-1] + (3 * values.shape[-1],), values.dtype)
        big[::2, ..., 1::3] = values
        return tensor(big)[::2, ..., 1::3], values
    assert layout == "expanded"
    return tensor(values[:1]).expand(*values.shape), np.broadcast_to(values[:1], values.shape)


# (shape of a, shape of b): same shape, broadcasting both ways, 0-d, empty, larger than the
# vector width and the parallel grain.
SHAPES = [((3, 4), (3, 4)), ((3, 1, 4), (2, 4)), ((2, 3), ()), ((), ()), ((5,), (1,)),
          ((1,), (2, 3, 1)), ((0, 3), (3,)), ((2, 0), (1, 0)), ((67, 130), (130,)),
          ((300, 257), (257,))]
LAYOUTS = [("contiguous", "contiguous"), ("transposed", "contiguous"), ("contiguous", "transposed"),
           ("sliced", "transposed"), ("expanded", "sliced"), ("transposed", "expanded")]

# Binary ops: the opscope call, the NumPy reference, the ranges of a and b ("divisor": see
# divisors()), the dtypes they accept. NumPy computes integer results in their dtype (wrapping
# alike) and float results in float64.
BINARY = {
    "add": (lambda a, b: opscope.add(a, b), np.add, (-9, 9), (-9, 9), DTYPES),
    "add alpha": (lambda a, b: opscope.add(a, b, alpha=3), lambda a, b: a + 3 * b, (-9, 9), (-9, 9), NOT_BOOL),
    "sub": (lambda a, b: opscope.sub(a, b), np.subtract, (-9, 9), (-9, 9), NOT_BOOL),
    "sub alpha": (lambda a, b: a.sub(b, alpha=-2), lambda a, b: a + 2 * b, (-9, 9), (-9, 9), SIGNED),
    "rsub": (lambda a, b: opscope.rsub(a, b), lambda a, b: b - a, (-9, 9), (-9, 9), NOT_BOOL),
    "mul": (lambda a, b: opscope.mul(a, b), np.multiply, (-9, 9), (-9, 9), DTYPES),
    "div": (lambda a, b: opscope.div(a, b), np.true_divide, (-9, 9), "divisor", DTYPES),
    "div trunc": (lambda a, b: opscope.div(a, b, rounding_mode="trunc"), lambda a, b: np.trunc(a / b),
                  (-9, 9), "divisor", NOT_BOOL),
    "div floor": (lambda a, b: a.div(b, rounding_mode="floor"), np.floor_divide, (-9, 9), "divisor", NOT_BOOL),
    "pow": (lambda a, b: opscope.pow(a, b), np.power, (0, 4), (0, 4), NOT_BOOL),
    "pow float": (lambda a, b: a.pow(b), lambda a, b: np.power(a, b), (0.5, 3), (-2, 2), FLOATS),
    "eq": (lambda a, b: opscope.eq(a, b), np.equal, (-2, 2), (-2, 2), DTYPES),
    "ne": (lambda a, b: a.ne(b), np.not_equal, (-2, 2), (-2, 2), DTYPES),
    "lt": (lambda a, b: opscope.lt(a, b), np.less, (-9, 9), (-9, 9), DTYPES),
    "le": (lambda a, b: a.le(b), np.less_equal, (-2, 2), (-2, 2), DTYPES),
    "gt": (lambda a, b: opscope.gt(a, b), np.greater, (-9, 9), (-9, 9), DTYPES),
    "ge": (lambda a, b: a.ge(b), np.greater_equal, (-2, 2), (-2, 2), DTYPES),
    "bitwise_and": (lambda a, b: opscope.bitwise_and(a, b), np.bitwise_and, (-99, 99), (-99, 99), INTEGRAL),
    "bitwise_or": (lambda a, b: a.bitwise_or(b), np.bitwise_or, (-99, 99), (-99, 99), INTEGRAL),
    "bitwise_xor": (lambda a, b: opscope.bitwise_xor(a, b), np.bitwise_xor, (-99, 99), (-99, 99), INTEGRAL),
}
BINARY_CASES = [(name, dtype) for name, spec in BINARY.items() for dtype in spec[4]]


def reference(numpy_op, a, b, result_dtype):
    """NumPy's result: in the result dtype for integer results, in float64 for float results."""
    if result_dtype in INTEGERS:
        return numpy_op(a.astype(result_dtype), b.astype(result_dtype))
    if result_dtype == "bool" and a.dtype == np.bool_ and b.dtype == np.bool_:
        return numpy_op(a, b).astype(bool)
    return numpy_op(a.astype(np.float64), b.astype(np.float64))


@pytest.mark.parametrize("name,dtype", BINARY_CASES, ids=[f"{n}-{d}" for n, d in BINARY_CASES])
def test_binary_against_numpy(name, dtype, rng):
    op, numpy_op, a_range, b_range, _ = BINARY[name]
    for i, (shape_a, shape_b) in enumerate(SHAPES):
        for layout_a, layout_b in LAYOUTS[: 2 if i >= len(SHAPES) - 2 else None]:
            a, a_np = make(values_for(a_range, shape_a, dtype, rng), dtype, layout_a)
            b, b_np = make(values_for(b_range, shape_b, dtype, rng), dtype, layout_b)
            r = op(a, b)
            result_dtype = str(r.dtype)[len("torch."):]
            expected = reference(numpy_op, a_np, b_np, result_dtype)
            assert_close(r, expected, **tolerance(result_dtype), family=f"{name} vs NumPy",
                         what=f"{name} {dtype} {shape_a}:{layout_a} with {shape_b}:{layout_b}")


# Mixed dtypes: the values follow the promoted dtype (bool cannot be subtracted).
MIXED = [("uint8", "int8"), ("int16", "int64"), ("bool", "float32"), ("int32", "float16"),
         ("int64", "float64"), ("bfloat16", "float16"), ("float16", "float32"), ("uint8", "bfloat16")]
MIXED_CASES = [(name, a, b) for name in ["add", "sub", "mul", "div", "div floor", "pow", "lt", "eq"]
               for a, b in MIXED if not (name == "sub" and "bool" in (a, b))]


@pytest.mark.parametrize("name,dtype_a,dtype_b", MIXED_CASES)
def test_mixed_dtypes_against_numpy(name, dtype_a, dtype_b, rng):
    op, numpy_op, a_range, b_range, _ = BINARY[name]
    a, a_np = make(values_for(a_range, (4, 5), dtype_a, rng), dtype_a, "transposed")
    b, b_np = make(values_for(b_range, (5,), dtype_b, rng), dtype_b, "sliced")
    r = op(a, b)
    result_dtype = str(r.dtype)[len("torch."):]
    assert_close(r, reference(numpy_op, a_np, b_np, result_dtype), **tolerance(result_dtype),
                 family=f"{name} vs NumPy", what=f"{name} {dtype_a} with {dtype_b}")


UNARY = {
    "neg": (opscope.neg, np.negative, NOT_BOOL),
    "bitwise_not": (opscope.bitwise_not, np.invert, INTEGRAL),
}


@pytest.mark.parametrize("name,dtype", [(n, d) for n, s in UNARY.items() for d in s[2]])
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "sliced", "expanded"])
def test_unary_against_numpy(name, dtype, layout, rng):
    op, numpy_op, _ = UNARY[name]
    for shape in [(3, 4), (), (0, 2), (257, 67)]:
        t, values = make(sample(shape, dtype, rng, -99, 99), dtype, layout)
        for r in (op(t), getattr(t, name)(), getattr(t.clone(), name + "_")()):
            assert r.dtype == t.dtype
            assert_close(r, numpy_op(values), **tolerance(dtype), family=f"{name} vs NumPy", what=f"{name} {dtype} {shape}")


# --- forms: functions, methods, operators, reflected, in-place, out= --------------------------
# (opscope expression, NumPy expression) over a, p (3, 4) and b (4,), float64 (p and b
# positive), or int64 ai, bi for the bitwise forms. The NumPy side defaults to the opscope text.
FORMS = [
    ("opscope.add(a, b)", "a + b"), ("a.add(b)", "a + b"), ("a + b", None), ("b + a", None),
    ("a + 2", None), ("2 + a", None), ("a + True", "a + 1"), ("opscope.add(a, 2, alpha=3)", "a + 6"),
    ("a.add(b, alpha=-0.5)", "a - 0.5 * b"), ("opscope.sub(a, b, alpha=2)", "a - 2 * b"),
    ("a - b", None), ("b - a", None), ("a - 2.5", None), ("2 - a", None), ("2.5 - a", None),
    ("opscope.rsub(a, b)", "b - a"), ("opscope.rsub(a, b, alpha=2)", "b - 2 * a"),
    ("opscope.rsub(a, 2)", "2 - a"), ("a * b", None), ("b * a", None), ("3 * a", None),
    ("a.mul(0.5)", "a * 0.5"), ("a / b", None), ("b / a", None), ("a / 4", None), ("3 / a", None),
    ("a.div(b)", "a / b"), ("opscope.div(a, 4, rounding_mode='floor')", "np.floor_divide(a, 4)"),
    ("a.div(b, rounding_mode='trunc')", "np.trunc(a / b)"), ("opscope.div(a, b, rounding_mode=None)", "a / b"),
    ("-a", None), ("+a", None), ("opscope.neg(a)", "-a"), ("a.neg()", "-a"),
    ("p ** b", None), ("p ** 0.5", "np.sqrt(p)"), ("a ** 2", None), ("b ** p", None),
    ("2 ** a", "2.0 ** a"), ("opscope.pow(2, a)", "2.0 ** a"), ("opscope.pow(p, b)", "p ** b"),
    ("a.pow(3)", "a ** 3"), ("a @ b", None), ("a.matmul(b)", "a @ b"),
    ("a < b", None), ("a <= 0.5", None), ("0.5 < a", None), ("0.5 >= a", None), ("a == b", None),
    ("a != b", None), ("a > b", None), ("a >= b", None), ("a == 1", None), ("opscope.eq(a, a)", "a == a"),
    ("a.gt(b)", "a > b"), ("opscope.lt(a, 0)", "a < 0"), ("a.ne(0.5)", "a != 0.5"),
    ("ai & bi", None), ("ai | bi", None), ("ai ^ bi", None), ("ai & 6", None), ("6 & ai", None),
    ("5 | ai", None), ("ai ^ 3", None), ("~ai", None), ("opscope.bitwise_and(6, ai)", "6 & ai"),
    ("ai.bitwise_xor(bi)", "ai ^ bi"), ("ai.bitwise_not()", "~ai"),
    ("ai.bool() & bi.bool()", "ai.astype(bool) & bi.astype(bool)"), ("~ai.bool()", "~ai.astype(bool)"),
]


@pytest.mark.parametrize("code,numpy_code", FORMS, ids=[f[0] for f in FORMS])
def test_forms(code, numpy_code, rng):
    values = {"a": rng.uniform(-3, 3, (3, 4)), "b": rng.uniform(0.5, 2, (4,)), "p": rng.uniform(0.5, 2, (3, 4)),
              "ai": rng.integers(-20, 20, (3, 4)), "bi": rng.integers(-20, 20, (4,))}
    tensors = {k: opscope.tensor(v) for k, v in values.items()}
    r = eval(code, {"opscope": opscope, **tensors})
    expected = eval(numpy_code or code, {"np": np, **values})
    assert_close(r, expected, rtol=1e-12, atol=1e-12, family="forms", what=code)


# In-place forms: the result is the same object, the values those of the out-of-place op, and
# the version counter counts the write.
INPLACE = [
    ("x.add_(b)", "a + b"), ("x.add_(b, alpha=2)", "a + 2 * b"), ("x.add_(2)", "a + 2"),
    ("x.sub_(b)", "a - b"), ("x.sub_(1.5, alpha=2)", "a - 3"), ("x.mul_(b)", "a * b"),
    ("x.mul_(-2)", "a * -2"), ("x.div_(b)", "a / b"), ("x.div_(2, rounding_mode='floor')", "np.floor(a / 2)"),
    ("x.div_(b, rounding_mode='trunc')", "np.trunc(a / b)"), ("x.pow_(2)", "a ** 2"),
    ("x.neg_()", "-a"), ("x.eq_(b)", "(a == b).astype(float)"), ("x.lt_(0)", "(a < 0).astype(float)"),
    ("x.ge_(b)", "(a >= b).astype(float)"), ("operator.iadd(x, b)", "a + b"),
    ("operator.isub(x, 2)", "a - 2"), ("operator.imul(x, b)", "a * b"),
    ("operator.itruediv(x, b)", "a / b"),
]


@pytest.mark.parametrize("code,numpy_code", INPLACE, ids=[c for c, _ in INPLACE])
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "sliced"])
def test_inplace(code, numpy_code, layout, rng):
    a_np = rng.uniform(-3, 3, (3, 4))
    b_np = rng.uniform(0.5, 2, (4,))
    x, _ = make(a_np, "float64", layout)
    version = x._version
    r = eval(code, {"x": x, "b": opscope.tensor(b_np), "operator": operator})
    assert r is x and x._version > version
    assert_close(x, eval(numpy_code, {"np": np, "a": a_np, "b": b_np}), rtol=1e-12, atol=1e-12,
                 family="in-place", what=f"{code} ({layout})")


@pytest.mark.parametrize("op", ["iand", "ior", "ixor", "ipow"])
def test_inplace_operators_keep_the_object(op):
    x = opscope.tensor([6, 3])
    same = x
    x = getattr(operator, op)(x, 2)
    assert x is same


def test_inplace_writes_through_views():
    base = opscope.zeros(4, 6, dtype=opscope.float64)
    base[1::2, ::3].add_(opscope.tensor([1.0, 2.0]))
    base.t()[2].mul_(0).add_(7)
    expected = np.zeros((4, 6))
    expected[1::2, ::3] += [1.0, 2.0]
    expected[:, 2] = 7
    assert_close(base, expected, rtol=0, atol=0, what="writes through views")
    assert base._version == 3


OUT_CALLS = [
    ("opscope.add(a, b, alpha=2, out=o)", "a + 2 * b"), ("opscope.sub(a, b, out=o)", "a - b"),
    ("opscope.mul(a, 2, out=o)", "a * 2"), ("opscope.div(a, b, out=o)", "a / b"),
    ("opscope.div(a, b, rounding_mode='floor', out=o)", "np.floor_divide(a, b)"),
    ("opscope.pow(p, b, out=o)", "p ** b"), ("opscope.pow(2, a, out=o)", "2.0 ** a"),
    ("opscope.pow(p, 0.5, out=o)", "np.sqrt(p)"), ("opscope.neg(a, out=o)", "-a"),
    ("opscope.lt(a, b, out=o)", "(a < b).astype(float)"), ("opscope.eq(a, 1, out=o)", "(a == 1).astype(float)"),
]


@pytest.mark.parametrize("code,numpy_code", OUT_CALLS, ids=[c for c, _ in OUT_CALLS])
@pytest.mark.parametrize("out_layout", ["contiguous", "transposed", "sliced"])
def test_out_writes_into_the_given_tensor(code, numpy_code, out_layout, rng):
    values = {"a": rng.uniform(-3, 3, (3, 4)), "b": rng.uniform(0.5, 2, (4,)), "p": rng.uniform(0.5, 2, (3, 4))}
    out, _ = make(np.zeros((3, 4)), "float64", out_layout)
    strides = out.stride()
    tensors = {k: opscope.tensor(v) for k, v in values.items()}
    assert eval(code, {"opscope": opscope, "o": out, **tensors}) is out
    assert out.stride() == strides  # an out= of the right size keeps its layout
    assert_close(out, eval(numpy_code, {"np": np, **values}), rtol=1e-12, atol=1e-12, family="out=",
                 what=f"{code} ({out_layout})")


def test_out_of_the_wrong_size_is_resized():
    out = opscope.empty(7)
    opscope.add(opscope.ones(2, 3), 1, out=out)
    assert out.shape == (2, 3) and out.stride() == (3, 1) and out.tolist() == [[2.0] * 3] * 2
    out = opscope.empty(0, dtype=opscope.bool)
    assert opscope.lt(opscope.zeros(2), opscope.ones(1), out=out) is out and out.tolist() == [True, True]


# --- recorded from torch: result dtypes and values for every dtype pair ----------------------
PROMOTION = TORCH["promotion"]
TABLES = PROMOTION["tables"]
KNOWN_DIFFERENCES = {
}


def op_family(code):
    """'m.div(a, b)', 'a / b', 's / a' -> 'div': the op a table's expression runs."""
    names = re.findall(r"\b(rsub|sub|add|mul|div|pow|neg|bitwise_\w+|eq|ne|lt|le|gt|ge)_?\(", code)
    if names:
        return names[0].replace("rsub", "sub")
    if code.strip() == "-a":
        return "neg"
    for symbol, name in [("**", "pow"), ("==", "eq"), ("<", "lt"), ("+", "add"), ("-", "sub"), ("*", "mul"),
                         ("/", "div"), ("&", "bitwise_and"), ("|", "bitwise_or"), ("^", "bitwise_xor"),
                         ("~", "bitwise_not")]:
        if symbol in code:
            return name
    return code


def operand(table, dtype, zero_dim=False):
    key = dtype if dtype in ("bool", "uint8") else ("float" if dtype in FLOATS else "int")
    t = opscope.tensor(PROMOTION[table][key], dtype=getattr(opscope, dtype))
    return t[0] if zero_dim else t


def run_row(code, form, row):
    first, second = row[0], row[1]
    a = operand("A_VALUES", first, zero_dim=form == "a0d")
    if form == "scalar":
        return outcome(code, opscope, a=a, s=eval(second))
    if form == "out":
        return outcome(code, opscope, a=a, o=opscope.empty(3, dtype=getattr(opscope, second)))
    if form == "unary":
        return outcome(code, opscope, a=a)
    return outcome(code, opscope, a=a, b=operand("B_VALUES", second, zero_dim=form == "b0d"))


def expected_outcome(row):
    if row[2].startswith("!"):
        error, message = row[2][1:].split(": ", 1)
        return {"error": error, "message": message}
    return {"dtype": row[2], "values": row[3]}


def table_params():
    for table in TABLES:
        key = (table["expr"], table["form"])
        marks = [pytest.mark.xfail(strict=True, reason=KNOWN_DIFFERENCES[key])] if key in KNOWN_DIFFERENCES else []
        yield pytest.param(table, id=f"{table['form']}: {table['expr']}", marks=marks)


@pytest.mark.parametrize("table", list(table_params()))
def test_result_dtype_and_values_match_torch(table):
    """Each row: dtype of a, dtype of b (or the scalar, or the out= dtype), torch's result."""
    code = compile(table["expr"], table["expr"], "eval")
    wrong = []
    for row in table["rows"]:
        actual = run_row(code, table["form"], row)
        expected = expected_outcome(row)
        why = mismatch(expected, actual)
        if why:
            wrong.append(f"{row[0]} with {row[1]}: {why}")
        else:
            remember_difference(f"{op_family(table['expr'])} vs torch", *max_difference(expected, actual))
    assert not wrong, f"{len(wrong)} of {len(table['rows'])} rows differ from torch:\n" + "\n".join(wrong[:12])


def test_reference_case_examples():
    import doctest
    import reference_cases
    result = doctest.testmod(reference_cases)
    assert result.attempted > 0 and result.failed == 0


def test_the_tables_cover_every_dtype_pair_and_form():
    forms = {t["form"] for t in TABLES}
    assert forms == {"1d", "a0d", "b0d", "scalar", "out", "unary"}
    assert all(len(t["rows"]) == 100 for t in TABLES if t["form"] in ("1d", "a0d", "b0d", "out"))
    assert TORCH["torch_version"].startswith("1.13")


# --- recorded from torch: errors and corner cases --------------------------------------------
CASE_XFAILS = {}


@pytest.mark.parametrize("case", case_params(TORCH["cases"], CASE_XFAILS))
def test_case_matches_torch(case):
    check_case(case, opscope)


def test_unary_plus_on_bool_is_refused_like_torch():
    with pytest.raises(RuntimeError, match="The `\\+` operator, on a bool tensor is not supported."):
        +opscope.tensor([True])


# --- add / sub with alpha round once, as torch's fused multiply-add ----------------------------
def _libm_fma(dtype):
    import ctypes
    import ctypes.util
    libm = ctypes.CDLL(ctypes.util.find_library("m"))
    f = libm.fmaf if dtype == "float32" else libm.fma
    c = ctypes.c_float if dtype == "float32" else ctypes.c_double
    f.restype, f.argtypes = c, [c, c, c]
    return f


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_add_with_alpha_is_one_fused_multiply_add(dtype):
    """torch 1.13 computes float `a + alpha * b` as fma(b, alpha, a) in the tensor's dtype (checked
    against torch: equal on every element, while `a + (alpha * b)` differs in ~10%); opscope must
    give the same bits on its vector path (contiguous, in place), its strided path and for sub."""
    rng = np.random.default_rng(20)
    n = 2051  # a vector body and a tail
    a = rng.standard_normal(n).astype(dtype)
    b = rng.standard_normal(n).astype(dtype)
    alpha = np.dtype(dtype).type(-0.37)
    fma = _libm_fma(dtype)
    want = np.array([fma(float(y), float(alpha), float(x)) for x, y in zip(a, b)], dtype)
    assert (want != a + alpha * b).sum() > n // 50  # the case tells the two roundings apart
    ta, tb = opscope.from_numpy(a), opscope.from_numpy(b)
    np.testing.assert_array_equal(opscope.add(ta, tb, alpha=-0.37).numpy(), want)
    np.testing.assert_array_equal(opscope.sub(ta, tb, alpha=0.37).numpy(), want)
    inplace = opscope.from_numpy(a.copy())
    inplace.add_(tb, alpha=-0.37)
    np.testing.assert_array_equal(inplace.numpy(), want)
    strided = opscope.add(opscope.from_numpy(np.repeat(a, 2))[::2],
                          opscope.from_numpy(np.repeat(b, 2))[::2], alpha=-0.37)
    np.testing.assert_array_equal(strided.numpy(), want)
    broadcast = opscope.add(ta, opscope.from_numpy(b[:1]), alpha=-0.37)
    np.testing.assert_array_equal(
        broadcast.numpy(), np.array([fma(float(b[0]), float(alpha), float(x)) for x in a], dtype))
