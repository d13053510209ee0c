"""The linear family's newer ops (addmm, addmv, baddbmm, outer / ger, linear) against NumPy in
float64, and the BLAS opscope loads (core/runtime/Blas.h): its kernel family, the user's
OPENBLAS_CORETYPE, the thread count.

    PYTHONPATH=core/python /usr/bin/python3 -m pytest -q tests/python/test_linear.py

Operands come in every layout BLAS reads in place (row-major, transposed = column-major) and ones it
cannot (stepped slices, expanded), which the kernels copy first; beta / alpha as torch's (beta = 0
ignores NaN in self). Float results are compared with a tolerance that grows with K.
"""
import os
import subprocess
import sys

import numpy as np
import pytest

import opscope
from conftest import assert_close, record_dispatch

FLOATS = ("float32", "float64", "float16", "bfloat16")
INTS = ("uint8", "int8", "int16", "int32", "int64")
EPS = {"float32": 2.0 ** -23, "float64": 2.0 ** -52, "float16": 2.0 ** -10, "bfloat16": 2.0 ** -7}
LAYOUTS = ("contiguous", "transposed", "sliced")


# --- operands ----------------------------------------------------------------------------------

def values(shape, dtype, rng):
    """float64 values exactly representable in `dtype` (small integers for integer dtypes)."""
    if dtype in INTS:
        low = 0 if dtype == "uint8" else -3
        return rng.integers(low, 4, size=shape).astype(np.float64)
    v = rng.uniform(-1, 1, size=shape)
    if dtype in ("float16", "bfloat16"):  # round through the dtype itself
        return opscope.tensor(v).to(getattr(opscope, dtype)).double().numpy()
    if dtype == "float32":
        return v.astype(np.float32).astype(np.float64)
    return v


def make(v, dtype, layout="contiguous"):
    """An opscope tensor holding v in `dtype`, laid out as `layout`: contiguous; transposed (the
    last two dims swapped in memory: column-major matrices); sliced (every other element of the
    last dim of a larger tensor)."""
    def tensor(a):
        return opscope.tensor(np.ascontiguousarray(a)).to(getattr(opscope, dtype))
    if v.ndim < 2 and layout == "transposed" or v.size == 0:
        layout = "contiguous"
    if layout == "contiguous":
        return tensor(v)
    if layout == "transposed":
        return tensor(np.swapaxes(v, -1, -2)).transpose(-1, -2)
    big = np.zeros(v.shape[:-1] + (2 * v.shape[-1],))
    big[..., ::2] = v
    return tensor(big)[..., ::2]


def check(result, expected, dtype, k, scale=1.0, what=""):
    """result (opscope) vs expected (float64 NumPy): exact for integers (wrapped to the dtype);
    for floats a few ulps of the dtype times the size of the sum."""
    if dtype in INTS:
        expected = np.asarray(expected).astype(np.int64).astype(np.dtype(dtype))
        return assert_close(result, expected, what=what, family="linear")
    eps = EPS[dtype]
    atol = 4 * eps * (max(k, 1) + 2) * scale
    return assert_close(result, expected, rtol=4 * eps, atol=atol, what=what, family="linear")


# --- addmm ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS + INTS)
@pytest.mark.parametrize("la", LAYOUTS)
@pytest.mark.parametrize("lb", LAYOUTS)
def test_addmm_against_numpy(dtype, la, lb, rng):
    for m, k, n in ((3, 4, 5), (17, 33, 9), (1, 7, 1), (64, 65, 66)):
        for self_shape in ((m, n), (n,), (1, n), (m, 1), ()):
            a, b, c = values((m, k), dtype, rng), values((k, n), dtype, rng), values(self_shape, dtype, rng)
            beta, alpha = (2, 3) if dtype in INTS else (0.5, -1.5)
            r = opscope.addmm(make(c, dtype), make(a, dtype, la), make(b, dtype, lb), beta=beta, alpha=alpha)
            assert r.dtype == getattr(opscope, dtype) and tuple(r.shape) == (m, n)
            check(r, beta * c + alpha * (a @ b), dtype, k, scale=2, what=f"addmm {m}x{k}x{n} self {self_shape}")


def test_addmm_transposed_result_and_strided_out(rng):
    """A column-major or stepped out= tensor: BLAS writes the transposed problem, or a copy."""
    a, b, c = values((6, 5), "float64", rng), values((5, 7), "float64", rng), values((6, 7), "float64", rng)
    out_t = opscope.empty(7, 6, dtype=opscope.float64).t()
    opscope.addmm(make(c, "float64"), make(a, "float64"), make(b, "float64"), beta=2, out=out_t)
    check(out_t, 2 * c + a @ b, "float64", 5)
    big = opscope.zeros(6, 14, dtype=opscope.float64)
    out_s = big[:, ::2]
    big_c = make(c, "float64")
    out_s.copy_(big_c)
    out_s.addmm_(make(a, "float64"), make(b, "float64"), beta=-1, alpha=2)
    check(out_s, -c + 2 * (a @ b), "float64", 5)
    assert float(big[:, 1::2].abs().sum()) == 0  # the gaps stay untouched


@pytest.mark.parametrize("dtype", ("float32", "float64", "int64", "bfloat16"))
def test_addmm_beta_zero_ignores_nan_and_k_zero(dtype, rng):
    a, b = values((3, 4), dtype, rng), values((4, 5), dtype, rng)
    if dtype != "int64":
        nan = opscope.full((3, 5), float("nan"), dtype=getattr(opscope, dtype))
        check(opscope.addmm(nan, make(a, dtype), make(b, dtype), beta=0), a @ b, dtype, 4)
        check(opscope.addmm(nan, make(a[:, :0], dtype), make(b[:0], dtype), beta=0), np.zeros((3, 5)), dtype, 0)
    c = values((3, 5), dtype, rng)
    r = opscope.addmm(make(c, dtype), make(a[:, :0], dtype), make(b[:0], dtype), beta=2)
    check(r, 2 * c, dtype, 0)  # K = 0: beta * self
    assert opscope.addmm(make(c[:0], dtype), make(a[:0], dtype), make(b, dtype)).shape == (0, 5)


def test_addmm_forms(rng):
    a, b, c = values((4, 3), "float32", rng), values((3, 2), "float32", rng), values((4, 2), "float32", rng)
    self_ = make(c, "float32")
    r = self_.addmm(make(a, "float32"), make(b, "float32"), alpha=2)
    check(r, c + 2 * (a @ b), "float32", 3)
    out = opscope.empty(0)
    assert opscope.addmm(self_, make(a, "float32"), make(b, "float32"), out=out) is out
    check(out, c + a @ b, "float32", 3)
    t = make(c, "float32")
    assert t.addmm_(make(a, "float32"), make(b, "float32"), beta=0.5) is t
    check(t, 0.5 * c + a @ b, "float32", 3)
    # integer alpha / beta as the op's type: alpha=1.5 on int32 is 1 (as torch)
    ones = opscope.ones(2, 4, dtype=opscope.int32)
    r = opscope.addmm(ones, opscope.ones(2, 3, dtype=opscope.int32), opscope.ones(3, 4, dtype=opscope.int32), alpha=1.5)
    assert r.tolist() == [[4] * 4] * 2


# --- addmv ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS + INTS)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_addmv_against_numpy(dtype, layout, rng):
    for m, k in ((3, 4), (40, 70), (1, 5), (6, 1)):
        for self_shape in ((m,), (1,), ()):
            a, x, c = values((m, k), dtype, rng), values((k,), dtype, rng), values(self_shape, dtype, rng)
            beta, alpha = (-1, 2) if dtype in INTS else (1.5, 0.25)
            r = opscope.addmv(make(c, dtype), make(a, dtype, layout), make(x, dtype, layout), beta=beta, alpha=alpha)
            assert tuple(r.shape) == (m,)
            check(r, beta * c + alpha * (a @ x), dtype, k, what=f"addmv {m}x{k} self {self_shape}")


def test_addmv_forms_and_edges(rng):
    a, x, c = values((5, 3), "float64", rng), values((3,), "float64", rng), values((5,), "float64", rng)
    t = make(c, "float64")
    assert t.addmv_(make(a, "float64"), make(x, "float64"), beta=2) is t
    check(t, 2 * c + a @ x, "float64", 3)
    out = opscope.empty(7, dtype=opscope.float64)
    opscope.addmv(make(c, "float64"), make(a, "float64"), make(x, "float64"), out=out)
    check(out, c + a @ x, "float64", 3)
    nan = opscope.full((5,), float("nan"), dtype=opscope.float64)
    check(opscope.addmv(nan, make(a, "float64"), make(x, "float64"), beta=0), a @ x, "float64", 3)
    r = opscope.addmv(make(c, "float64"), make(a[:, :0], "float64"), make(x[:0], "float64"), beta=3)
    check(r, 3 * c, "float64", 0)
    # the result takes vec's dtype; self is cast into it
    r = opscope.addmv(make(c, "float64"), make(a, "float32"), make(x, "float32"))
    assert r.dtype == opscope.float32


# --- baddbmm -------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS + INTS)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_baddbmm_against_numpy(dtype, layout, rng):
    # (2, 3, 4, 5): K*M*N < 400, torch's small loop; (3, 20, 30, 10): BLAS per batch entry
    for bs, m, k, n in ((2, 3, 4, 5), (3, 20, 30, 10), (1, 1, 9, 1)):
        for self_shape in ((bs, m, n), (n,), (1, m, 1), ()):
            a, b, c = values((bs, m, k), dtype, rng), values((bs, k, n), dtype, rng), values(self_shape, dtype, rng)
            beta, alpha = (2, -1) if dtype in INTS else (-0.5, 2.0)
            r = opscope.baddbmm(make(c, dtype), make(a, dtype, layout), make(b, dtype, layout), beta=beta, alpha=alpha)
            assert tuple(r.shape) == (bs, m, n)
            check(r, beta * c + alpha * (a @ b), dtype, k, scale=2, what=f"baddbmm {bs}x{m}x{k}x{n}")


@pytest.mark.parametrize("shape", ((2, 3, 4, 5), (3, 20, 30, 10)))
def test_baddbmm_forms_and_edges(shape, rng):
    bs, m, k, n = shape
    a, b, c = values((bs, m, k), "float32", rng), values((bs, k, n), "float32", rng), values((bs, m, n), "float32", rng)
    t = make(c, "float32")
    assert t.baddbmm_(make(a, "float32"), make(b, "float32"), beta=0.5) is t
    check(t, 0.5 * c + a @ b, "float32", k, scale=2)
    out = opscope.empty(0)
    opscope.baddbmm(make(c, "float32"), make(a, "float32"), make(b, "float32"), alpha=3, out=out)
    check(out, c + 3 * (a @ b), "float32", k, scale=4)
    nan = opscope.full((bs, m, n), float("nan"))
    check(opscope.baddbmm(nan, make(a, "float32"), make(b, "float32"), beta=0), a @ b, "float32", k, scale=2)
    r = opscope.baddbmm(make(c, "float32"), make(a[..., :0], "float32"), make(b[:, :0], "float32"), beta=2)
    check(r, 2 * c, "float32", 0)


# --- outer, ger, linear --------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS + INTS + ("bool",))
def test_outer_and_ger(dtype, rng):
    if dtype == "bool":
        x, y = rng.integers(0, 2, 4).astype(bool), rng.integers(0, 2, 3).astype(bool)
        tx, ty = opscope.tensor(x), opscope.tensor(y)
        assert (opscope.outer(tx, ty).numpy() == np.outer(x, y)).all()
        return
    x, y = values((4,), dtype, rng), values((3,), dtype, rng)
    for op in (opscope.outer, opscope.ger, lambda a, b: a.outer(b), lambda a, b: a.ger(b)):
        check(op(make(x, dtype, "sliced"), make(y, dtype)), np.outer(x, y), dtype, 1)
    out = opscope.empty(0, dtype=getattr(opscope, dtype))
    opscope.outer(make(x, dtype), make(y, dtype), out=out)
    check(out, np.outer(x, y), dtype, 1)
    # mul's type promotion: int32 outer float32 is float32
    r = opscope.outer(opscope.ones(3, dtype=opscope.int32), opscope.ones(2))
    assert r.dtype == opscope.float32 and r.shape == (3, 2)


@pytest.mark.parametrize("dtype", ("float32", "float64", "int64"))
def test_linear_against_numpy(dtype, rng):
    w, bias = values((6, 5), dtype, rng), values((6,), dtype, rng)
    for shape in ((5,), (4, 5), (3, 4, 5), (2, 3, 4, 5)):
        x = values(shape, dtype, rng)
        for layout in ("contiguous", "transposed"):
            xt, wt = make(x, dtype, layout), make(w, dtype, "transposed")
            check(opscope.ops.aten.linear(xt, wt), x @ w.T, dtype, 5, what=f"linear {shape}")
            check(opscope.ops.aten.linear(xt, wt, make(bias, dtype)), x @ w.T + bias, dtype, 5,
                  scale=2, what=f"linear {shape} + bias")
    out = opscope.empty(0, dtype=getattr(opscope, dtype))
    x = values((3, 4, 5), dtype, rng)
    opscope.ops.aten.linear.out(make(x, dtype), make(w, dtype), make(bias, dtype), out=out)
    check(out, x @ w.T + bias, dtype, 5, scale=2)
    out2 = opscope.empty(0, dtype=getattr(opscope, dtype))
    opscope.ops.aten.linear.out(make(x[0], dtype), make(w, dtype), make(bias, dtype), out=out2)
    check(out2, x[0] @ w.T + bias, dtype, 5, scale=2)


def ops_called(fn):
    """The aten ops `fn` dispatches to, in order (one name per dispatch step, repeats merged)."""
    rec = record_dispatch(fn)
    names = []
    for step in rec.steps:
        name = step["op"].replace("aten::", "")
        if not names or names[-1] != name:
            names.append(name)
    return names


@pytest.mark.parametrize("shape, contiguous, expected", [
    ((2, 3), True, ["linear", "t", "addmm"]),
    ((5, 2, 3), True, ["linear", "t", "view", "addmm", "view"]),
    ((5, 2, 3), False, ["linear", "t", "matmul", "add_"]),
    ((2, 5, 2, 3), True, ["linear", "t", "matmul", "add_"]),
])
def test_linear_decomposes_as_torch(shape, contiguous, expected):
    """linear's children are torch 1.13's: addmm for a 2-D input with bias, view + addmm + view
    for a contiguous 3-D one, else matmul then add_. See Note [How linear decomposes]."""
    x = opscope.ones(*shape)
    if not contiguous:
        x = x.transpose(0, 1).contiguous().transpose(0, 1)
    w, b = opscope.ones(4, 3), opscope.ones(4)
    called = ops_called(lambda: opscope.ops.aten.linear(x, w, b))
    top = [n for n in called if n in ("linear", "t", "view", "addmm", "matmul", "add_", "add_.Tensor")]
    top = [n.replace(".Tensor", "") for n in top]
    assert top[:len(expected)] == expected, called


# --- errors (torch 1.13's messages) ----------------------------------------------------------

ERRORS = [
    (lambda: opscope.addmm(opscope.ones(2, 3), opscope.ones(2, 3), opscope.ones(2, 3)),
     "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)"),
    (lambda: opscope.addmm(opscope.ones(2, 3), opscope.ones(3), opscope.ones(3, 3)),
     "mat1 must be a matrix, got 1-D tensor"),
    (lambda: opscope.addmm(opscope.ones(2, 3), opscope.ones(2, 3), opscope.ones(3)),
     "mat2 must be a matrix, got 1-D tensor"),
    (lambda: opscope.addmm(opscope.ones(2, 4, dtype=opscope.float64), opscope.ones(2, 3), opscope.ones(3, 4)),
     "self and mat2 must have the same dtype"),
    (lambda: opscope.addmm(opscope.ones(2, 4), opscope.ones(2, 3, dtype=opscope.float64), opscope.ones(3, 4)),
     "mat1 and mat2 must have the same dtype"),
    (lambda: opscope.addmm(opscope.ones(5), opscope.ones(2, 3), opscope.ones(3, 4)),
     "The expanded size of the tensor (4) must match the existing size (5) at non-singleton dimension 1"),
    (lambda: opscope.ones(4).addmm_(opscope.ones(2, 3), opscope.ones(3, 4)),
     "Bad in-place call: input tensor size [4] and output tensor size [2, 4] should match"),
    (lambda: opscope.addmm(opscope.ones(2, 4, dtype=opscope.bool), opscope.ones(2, 3, dtype=opscope.bool),
                           opscope.ones(3, 4, dtype=opscope.bool)),
     "\"addmm_impl_cpu_\" not implemented for 'Bool'"),
    (lambda: opscope.addmm(opscope.ones(2, 4), opscope.ones(2, 3), opscope.ones(3, 4), out=opscope.empty(2, 4, dtype=opscope.float64)),
     "Expected out tensor to have dtype float, but got double instead"),
    (lambda: opscope.addmv(opscope.ones(2), opscope.ones(2, 3), opscope.ones(4)), "size mismatch, got 2, 2x3,4"),
    (lambda: opscope.addmv(opscope.ones(3), opscope.ones(2, 3), opscope.ones(3)), "size mismatch, got 3, 2x3,3"),
    (lambda: opscope.addmv(opscope.ones(2, 1), opscope.ones(2, 3), opscope.ones(3)),
     "vector + matrix @ vector expected, got 2, 2, 1"),
    (lambda: opscope.addmv(opscope.ones(2), opscope.ones(2, 3), opscope.ones(3, dtype=opscope.float64)),
     "expected scalar type Float but found Double"),
    (lambda: opscope.ones(1).addmv_(opscope.ones(2, 3), opscope.ones(3)),
     "Bad in-place call: input tensor size [1] and output tensor size [2] should match"),
    (lambda: opscope.baddbmm(opscope.ones(3, 3, 4), opscope.ones(2, 3, 5), opscope.ones(2, 5, 4)),
     "The expanded size of the tensor (2) must match the existing size (3) at non-singleton dimension 0"),
    (lambda: opscope.baddbmm(opscope.ones(2, 3, 4), opscope.ones(2, 3, 5), opscope.ones(2, 6, 4)),
     "Expected size for first two dimensions of batch2 tensor to be: [2, 5] but got: [2, 6]."),
    (lambda: opscope.ones(1, 3, 4).baddbmm_(opscope.ones(2, 3, 5), opscope.ones(2, 5, 4)),
     "Bad in-place call: input tensor size [1, 3, 4] and output tensor size [2, 3, 4] should match"),
    (lambda: opscope.baddbmm(opscope.ones(2, 3, 4), opscope.ones(2, 3, 5, dtype=opscope.float64), opscope.ones(2, 5, 4)),
     "expected scalar type Double but found Float"),
    (lambda: opscope.baddbmm(opscope.ones(2, 30, 4), opscope.ones(2, 30, 50, dtype=opscope.float64), opscope.ones(2, 50, 4)),
     "mat1 and mat2 must have the same dtype"),
    (lambda: opscope.baddbmm(opscope.ones(2, 3, 4, dtype=opscope.bool), opscope.ones(2, 3, 5, dtype=opscope.bool),
                             opscope.ones(2, 5, 4, dtype=opscope.bool)),
     "\"baddbmm\" not implemented for 'Bool'"),
    (lambda: opscope.ones(2).addmv_(opscope.ones(2, 3, dtype=opscope.float64), opscope.ones(3, dtype=opscope.float64)),
     "Bad in-place call: input tensor dtype float and output tensor dtype double should match"),
    (lambda: opscope.ones(2, 3, 4).baddbmm_(opscope.ones(2, 3, 5, dtype=opscope.float64),
                                            opscope.ones(2, 5, 4, dtype=opscope.float64)),
     "Bad in-place call: input tensor dtype float and output tensor dtype double should match"),
    (lambda: opscope.outer(opscope.ones(2, 3), opscope.ones(3)), "outer: Expected 1-D argument self, but got 2-D"),
    (lambda: opscope.ger(opscope.ones(3), opscope.ones(3, 1)), "outer: Expected 1-D argument vec2, but got 2-D"),
    (lambda: opscope.ops.aten.linear(opscope.ones(2, 3), opscope.ones(4, 2)),
     "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x4)"),
    (lambda: opscope.ops.aten.linear(opscope.tensor(1.0), opscope.ones(2)),
     "both arguments to matmul need to be at least 1D, but they are 0D and 1D"),
    (lambda: opscope.ops.aten.linear(opscope.ones(2, 3), opscope.ones(4, 3, dtype=opscope.float64)),
     "expected scalar type Float but found Double"),
]


@pytest.mark.parametrize("index", range(len(ERRORS)))
def test_errors_as_torch(index):
    fn, message = ERRORS[index]
    with pytest.raises(RuntimeError) as info:
        fn()
    assert message in str(info.value)


def test_addmv_size_mismatch_with_0d_self_is_an_index_error():
    with pytest.raises(IndexError, match="Dimension specified as 0 but tensor has no dimensions"):
        opscope.addmv(opscope.tensor(1.0), opscope.ones(2, 3), opscope.ones(4))


# --- the BLAS ------------------------------------------------------------------------------------

def run_python(code, **env):
    here = os.path.dirname(os.path.abspath(__file__))
    # The build under test: the caller's PYTHONPATH (make's names its build folder), else the tree.
    environment = dict(os.environ, PYTHONPATH=os.environ.get(
        "PYTHONPATH", os.path.join(here, "..", "..", "core", "python")))
    for key in ("OPENBLAS_CORETYPE", "OPSCOPE_BLAS_LIBRARY", "OPSCOPE_LOG"):
        environment.pop(key, None)
    environment.update(env)
    done = subprocess.run([sys.executable, "-c", code], env=environment, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done


def test_blas_info_reports_a_kernel_family():
    info = opscope._C._blas_info()
    assert info["corename"], info
    assert info["library"] and info["threading"] in ("openmp", "pthreads", "sequential")
    assert info["corename"] in info["text"] and info["library"] in info["text"]
    features = info["cpu_features"].split()
    if os.environ.get("OPENBLAS_CORETYPE"):  # the user's choice is kept (some machines set it)
        assert info["requested_coretype"] == os.environ["OPENBLAS_CORETYPE"]
        assert info["reason"] == "set by the user"
    elif {"avx512f", "avx512bw", "avx512vl", "avx512dq"} <= set(features):
        assert info["requested_coretype"] == "SkylakeX"
    elif {"avx2", "fma"} <= set(features):
        assert info["requested_coretype"] in ("Haswell", "Zen")
    if info["requested_coretype"] and not info["shared"]:
        assert info["corename"].lower() == info["requested_coretype"].lower(), info["text"]


def test_user_openblas_coretype_is_respected():
    done = run_python("import opscope; i = opscope._C._blas_info(); "
                      "print(i['corename'], '|', i['reason'])", OPENBLAS_CORETYPE="Prescott")
    corename, reason = [s.strip() for s in done.stdout.split("|")]
    assert corename == "Prescott" and "user" in reason


@pytest.mark.parametrize("features, expected", [
    ("avx2 fma avx512f avx512bw avx512vl avx512dq", "SkylakeX"),
    ("avx2 fma", "Haswell"),
    ("avx2 fma amd", "Zen"),
    ("avx2", ""),
])
def test_kernel_choice_from_cpu_features(features, expected):
    """The choice for other CPUs (OPSCOPE_BLAS_CPU_FEATURES stands in for the CPU's features; no
    product runs, so kernels this CPU lacks are never executed)."""
    done = run_python("import opscope; i = opscope._C._blas_info(); print(repr(i['requested_coretype']), "
                      "repr(i['reason']))", OPSCOPE_BLAS_CPU_FEATURES=features)
    requested, reason = done.stdout.split(" ", 1)
    assert requested == repr(expected), done.stdout
    if expected == "SkylakeX":
        assert "avx512f" in reason


def test_environment_is_restored_after_the_load():
    done = run_python("import os, opscope; opscope._C._blas_info(); "
                      "print(os.getenv('OPENBLAS_CORETYPE'))")
    assert done.stdout.strip() == "None"


def test_numpy_loaded_first_does_not_decide_opscopes_kernels():
    """NumPy links Debian's libopenblas.so.0 (the pthread build); loaded first, its constructor
    has run without our OPENBLAS_CORETYPE. opscope must still get its own choice."""
    done = run_python("import numpy as np; np.ones((64, 64)) @ np.ones((64, 64)); import opscope; "
                      "i = opscope._C._blas_info(); print(i['corename'], i['requested_coretype'] or '-')")
    corename, requested = done.stdout.split()
    if requested != "-":
        assert corename.lower() == requested.lower()


PTHREAD_OPENBLAS = "/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0"


@pytest.mark.skipif(not os.path.exists(PTHREAD_OPENBLAS), reason="no Debian pthread OpenBLAS")
def test_a_copy_loaded_with_other_kernels_gets_a_private_copy():
    """The very file opscope loads was loaded first (by NumPy) with other kernels (Prescott, as
    Debian's 0.3.21 picks on CPUs it does not know): opscope loads a private copy instead, and
    its products still agree with NumPy's."""
    code = ("import os; os.environ['OPENBLAS_CORETYPE'] = 'Prescott'\n"
            "import numpy as np; np.ones((64, 64)) @ np.ones((64, 64))\n"
            "del os.environ['OPENBLAS_CORETYPE']\n"
            "import opscope; i = opscope._C._blas_info()\n"
            "a = np.random.default_rng(0).standard_normal((300, 200)); b = a.T.copy()\n"
            "d = abs(opscope.mm(opscope.from_numpy(a), opscope.from_numpy(b)).numpy() - a @ b).max()\n"
            "print(i['corename'], i['requested_coretype'] or '-', 'private copy' in i['library_why'], d < 1e-9)")
    done = run_python(code, OPSCOPE_BLAS_LIBRARY=PTHREAD_OPENBLAS)
    corename, requested, private, close = done.stdout.split()
    assert close == "True"
    if requested not in ("-", "Prescott"):
        assert corename.lower() == requested.lower() and private == "True", done.stdout


def test_log_channel_prints_the_choice():
    done = run_python("import opscope; opscope.mm(opscope.ones(2, 2), opscope.ones(2, 2))", OPSCOPE_LOG="blas")
    assert "[blas] OpenBLAS" in done.stderr and "kernels:" in done.stderr


def test_set_num_threads_governs_openblas():
    saved = opscope.get_num_threads()
    try:
        opscope.set_num_threads(1)
        assert opscope._C._blas_info()["num_threads"] == 1
        opscope.set_num_threads(2)
        assert opscope.get_num_threads() == 2 and opscope._C._blas_info()["num_threads"] == 2
    finally:
        opscope.set_num_threads(saved)
    with pytest.raises(RuntimeError, match="set_num_threads expects a positive integer"):
        opscope.set_num_threads(0)


def test_omp_num_threads_is_respected():
    done = run_python("import opscope; print(opscope.get_num_threads(), opscope._C._blas_info()['num_threads'])",
                      OMP_NUM_THREADS="1")
    assert done.stdout.split() == ["1", "1"]


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("layout", ["nn", "tn", "nt", "column-major out"])
def test_products_split_over_threads(threads, layout, rng):
    """Small float products on several threads are split by rows of C (Note [Splitting small
    products] in core/ops/cpu/gemm.h): every block must land where it belongs, for each layout."""
    saved = opscope.get_num_threads()
    opscope.set_num_threads(threads)
    try:
        for m, k, n in [(256, 200, 300), (33, 64, 257), (300, 128, 17)]:
            a, b = rng.standard_normal((m, k)), rng.standard_normal((k, n))
            A = opscope.from_numpy(a.T.copy()).t() if layout == "tn" else opscope.from_numpy(a)
            B = opscope.from_numpy(b.T.copy()).t() if layout == "nt" else opscope.from_numpy(b)
            for dtype in (opscope.float32, opscope.float64):
                A2, B2 = A.to(dtype), B.to(dtype)
                if layout == "column-major out":
                    out = opscope.empty(n, m, dtype=dtype).t()
                    r = opscope.addmm(opscope.ones(m, n, dtype=dtype), A2, B2, beta=0.5, out=out)
                    assert r is out
                else:
                    r = opscope.addmm(opscope.ones(m, n, dtype=dtype), A2, B2, beta=0.5)
                tol = 1e-4 if dtype is opscope.float32 else 1e-10
                assert_close(r, 0.5 + a @ b, rtol=tol, atol=tol, what=f"{layout} {m}x{k}x{n}",
                             family="linear")
    finally:
        opscope.set_num_threads(saved)
