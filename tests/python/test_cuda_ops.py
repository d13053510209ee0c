"""CUDA kernels (core/cuda/kernels/) against opscope's CPU kernels on the same inputs.

Every op here runs twice, on copies of one set of random inputs: on the GPU and on the CPU, whose
kernels the rest of the suite checks against recorded torch values. The inputs cover each dtype
the CUDA kernel claims, non-contiguous operands (transposes, steps), broadcasting, CPU scalars
joining GPU tensors, and empty tensors; gradients are compared the same way. The last tests train
a small MLP and a small transformer block on both devices from the same start and compare the
losses step by step.

Without a GPU (or without the CUDA backend) every test skips with the reason: tools/device-check.sh
runs this file on the lent GPU machine.
"""
import copy
import math

import numpy as np
import pytest

import opscope
import opscope.nn as nn
import opscope.nn.functional as F

pytestmark = pytest.mark.skipif(not opscope.cuda.is_available(),
                                reason="needs a CUDA GPU (and the CUDA backend built)")
if opscope.cuda.is_available():  # a crash prints its C++ frames too, before faulthandler's
    opscope._C._cuda_reportFatalSignals()

FLOATS = [opscope.float32, opscope.float64, opscope.float16, opscope.bfloat16]
# How close the GPU must come to the CPU kernel: the 16-bit dtypes round differently when the
# two compute in different orders (fused vs step by step), float32 sums in another order.
TOL = {opscope.float32: (1e-5, 1e-5), opscope.float64: (1e-12, 1e-12),
       opscope.float16: (2e-3, 2e-3), opscope.bfloat16: (1.6e-2, 1.6e-2),
       opscope.int64: (0, 0), opscope.int32: (0, 0), opscope.bool: (0, 0)}


def rng(seed=0):
    return np.random.default_rng(seed)


def make(shape, dtype=opscope.float32, seed=0, low=-2.0, high=2.0):
    """A random CPU tensor of `dtype` (integers in [low, high), bools half true)."""
    r = rng(seed)
    if dtype == opscope.bool:
        return opscope.tensor(r.random(shape) < 0.5)
    if dtype in (opscope.int64, opscope.int32):
        return opscope.tensor(r.integers(int(low), int(high), size=shape)).to(dtype)
    return opscope.tensor(r.uniform(low, high, size=shape)).to(dtype)


def as_numpy(t):
    t = t.detach().cpu()
    if t.dtype in (opscope.float16, opscope.bfloat16):
        t = t.to(opscope.float64)
    return t.numpy()


def assert_same(gpu, cpu, dtype=None, rtol=None, atol=None):
    """gpu (a CUDA tensor) holds what cpu (the CPU kernel's result) holds: shape, dtype, values."""
    assert gpu.device.type == "cuda", gpu.device
    assert tuple(gpu.shape) == tuple(cpu.shape), (gpu.shape, cpu.shape)
    assert gpu.dtype == cpu.dtype, (gpu.dtype, cpu.dtype)
    r, a = TOL.get(dtype or cpu.dtype, (1e-5, 1e-5))
    np.testing.assert_allclose(as_numpy(gpu), as_numpy(cpu), rtol=rtol if rtol is not None else r,
                               atol=atol if atol is not None else a, equal_nan=True)


def _is_half(a):
    return isinstance(a, opscope.Tensor) and a.dtype == opscope.float16


def _down(r):
    if isinstance(r, (tuple, list)):
        parts = [_down(x) for x in r]
        return type(r)(*parts) if hasattr(r, "_fields") else type(r)(parts)
    return r.half() if isinstance(r, opscope.Tensor) and r.dtype == opscope.float32 else r


def cpu_ref(fn, *args, **kw):
    """fn on the CPU. float16 operands go through float32 and the result is rounded back: torch
    1.13's CPU kernels take few float16 ops, and the GPU computes float16 in float32 too."""
    if not any(_is_half(a) for a in args):
        return fn(*args, **kw)
    return _down(fn(*[a.float() if _is_half(a) else a for a in args], **kw))


def layouts(t):
    """t as the kernels may meet it, as (cpu, cuda) pairs made by the same ops on each device:
    contiguous, column-major memory (a transposed copy transposed back), and a step in the last
    dim (every other element of a wider tensor)."""
    pairs = [(t, t.cuda())]
    if t.dim() >= 2:
        def column_major(z):
            return z.transpose(0, 1).contiguous().transpose(0, 1)
        pairs.append((column_major(t), column_major(t.cuda())))
    if t.dim() >= 1:
        def stepped(z):
            return opscope.cat([z, z], dim=-1)[..., ::2]
        pairs.append((stepped(t), stepped(t.cuda())))
    return pairs


# --- elementwise ----------------------------------------------------------------------------------

UNARY_FLOAT = ["exp", "log", "sqrt", "rsqrt", "sin", "cos", "tanh", "sigmoid", "erf", "expm1",
               "log1p", "reciprocal", "floor", "ceil", "round", "trunc", "neg", "abs", "sign"]


@pytest.mark.parametrize("name", UNARY_FLOAT)
@pytest.mark.parametrize("dtype", FLOATS)
def test_unary(name, dtype):
    low = 0.1 if name in ("log", "sqrt", "rsqrt", "log1p", "reciprocal") else -2.0
    x = make((5, 7), dtype, seed=1, low=low, high=3.0)
    for cpu, gpu in layouts(x):
        assert gpu.stride() == cpu.stride()
        assert_same(getattr(opscope, name)(gpu), cpu_ref(getattr(opscope, name), cpu), dtype)
    # in place and out=
    g = x.cuda()
    getattr(g, name + "_")()
    assert_same(g, cpu_ref(getattr(opscope, name), x), dtype)
    out = opscope.empty(0, dtype=dtype, device="cuda")
    getattr(opscope, name)(x.cuda(), out=out)
    assert_same(out, cpu_ref(getattr(opscope, name), x), dtype)


@pytest.mark.parametrize("name", ["exp", "sqrt", "sigmoid"])
def test_unary_promotes_integers(name):
    x = make((4, 3), opscope.int64, seed=2, low=0, high=5)
    assert_same(getattr(opscope, name)(x.cuda()), getattr(opscope, name)(x))


@pytest.mark.parametrize("dtype", [opscope.int64, opscope.int32])
def test_integer_unary(dtype):
    x = make((6, 5), dtype, seed=3, low=-9, high=9)
    for name in ("neg", "abs", "sign", "floor"):
        assert_same(getattr(opscope, name)(x.cuda()), getattr(opscope, name)(x))


@pytest.mark.parametrize("dtype", FLOATS)
def test_activations(dtype):
    x = make((3, 4, 5), dtype, seed=4, low=-4, high=4)
    for cpu, gpu in layouts(x):
        assert_same(F.relu(gpu), cpu_ref(F.relu, cpu), dtype)
        assert_same(F.gelu(gpu), cpu_ref(F.gelu, cpu), dtype)
        assert_same(F.gelu(gpu, approximate="tanh"), cpu_ref(F.gelu, cpu, approximate="tanh"),
                    dtype)
        assert_same(F.silu(gpu), cpu_ref(F.silu, cpu), dtype)
        assert_same(F.softplus(gpu, beta=2, threshold=3),
                    cpu_ref(F.softplus, cpu, beta=2, threshold=3), dtype)


BINARY = ["add", "sub", "mul", "div", "maximum", "minimum", "pow", "atan2", "remainder", "fmod"]


@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize("dtype", FLOATS)
def test_binary_broadcast(name, dtype):
    low = 0.5 if name == "pow" else -3.0
    a = make((4, 1, 6), dtype, seed=5, low=low, high=3.0)
    b = make((3, 1), dtype, seed=6, low=0.5, high=3.0)
    f = getattr(opscope, name)
    assert_same(f(a.cuda(), b.cuda()), cpu_ref(f, a, b), dtype)
    # a transposed operand against a stepped one
    at = a[:, 0].t()  # (6, 4), strides (1, 6)
    bt = make((6, 8), dtype, seed=7, low=0.5, high=3.0)
    assert_same(f(a.cuda()[:, 0].t(), bt.cuda()[:, ::2]), cpu_ref(f, at, bt[:, ::2]), dtype)


def test_binary_type_promotion_and_scalars():
    i = make((3, 4), opscope.int64, seed=8, low=-5, high=5)
    f = make((3, 4), opscope.float32, seed=9)
    h = make((4,), opscope.float16, seed=10)
    assert_same(i.cuda() + f.cuda(), i + f)
    assert_same(h.cuda() * f.cuda(), h * f)
    assert_same(i.cuda() / 3, i / 3)
    assert_same(i.cuda() // 3, i // 3)
    assert_same(i.cuda() % 3, i % 3)
    assert_same(f.cuda() * 2.5, f * 2.5)
    assert_same(2 ** f.cuda(), 2 ** f)
    assert_same(f.cuda() ** 2, f ** 2)
    assert_same(opscope.add(f.cuda(), f.cuda(), alpha=-0.5), opscope.add(f, f, alpha=-0.5))
    assert_same(opscope.sub(i.cuda(), i.cuda().t().t(), alpha=3), opscope.sub(i, i, alpha=3))
    # a 0-d CPU tensor joins a CUDA op as a scalar
    s = opscope.tensor(1.5)
    assert_same(f.cuda() + s, f + s)
    assert_same(opscope.div(i.cuda(), opscope.tensor(2), rounding_mode="floor"),
                opscope.div(i, opscope.tensor(2), rounding_mode="floor"))
    assert_same(opscope.div(f.cuda(), 0.7, rounding_mode="trunc"),
                opscope.div(f, 0.7, rounding_mode="trunc"))
    b1, b2 = make((5,), opscope.bool, seed=11), make((5,), opscope.bool, seed=12)
    assert_same(b1.cuda() & b2.cuda(), b1 & b2)
    assert_same(b1.cuda() | b2.cuda(), b1 | b2)
    assert_same(opscope.logical_xor(b1.cuda(), b2.cuda()), opscope.logical_xor(b1, b2))
    assert_same(i.cuda() ^ 5, i ^ 5)


def test_binary_in_place_and_out():
    a = make((4, 5), opscope.float32, seed=13)
    b = make((5,), opscope.float32, seed=14)
    g = a.cuda()
    g.mul_(b.cuda()).add_(1.0).div_(b.cuda()).sub_(b.cuda(), alpha=2)
    assert_same(g, ((a * b) + 1.0) / b - 2 * b)
    out = opscope.empty(2, 2, device="cuda")  # resized
    opscope.add(a.cuda(), b.cuda(), out=out)
    assert_same(out, a + b)
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output "
                                           "type Long"):
        i = opscope.zeros(4, 5, dtype=opscope.int64, device="cuda")
        i.add_(a.cuda())


def test_lerp():
    a, b = make((3, 5), seed=15), make((3, 5), seed=16)
    w = make((5,), seed=17, low=0, high=1)
    assert_same(opscope.lerp(a.cuda(), b.cuda(), 0.3), opscope.lerp(a, b, 0.3))
    assert_same(opscope.lerp(a.cuda(), b.cuda(), w.cuda()), opscope.lerp(a, b, w))


@pytest.mark.parametrize("dtype", FLOATS + [opscope.int64])
def test_comparisons_where_clamp(dtype):
    a = make((4, 6), dtype, seed=18, low=-3, high=3)
    b = make((6,), dtype, seed=19, low=-3, high=3)
    for name in ("eq", "ne", "lt", "le", "gt", "ge"):
        f = getattr(opscope, name)
        assert_same(f(a.cuda(), b.cuda()), cpu_ref(f, a, b))
        assert_same(f(a.cuda().t().t(), 1), cpu_ref(f, a, 1))
    cond = a > b
    assert_same(opscope.where(cond.cuda(), a.cuda(), b.cuda()), cpu_ref(opscope.where, cond, a, b))
    assert_same(opscope.where(cond.cuda(), a.cuda(), 0.0), cpu_ref(opscope.where, cond, a, 0.0))
    assert_same(opscope.where(cond.cuda(), 1.0, a.cuda()), cpu_ref(opscope.where, cond, 1.0, a))
    assert_same(a.cuda().clamp(-1, 2), cpu_ref(opscope.clamp, a, -1, 2))
    assert_same(a.cuda().clamp(min=0), cpu_ref(opscope.clamp, a, min=0))
    assert_same(a.cuda().clamp(max=1), cpu_ref(opscope.clamp, a, max=1))
    assert_same(opscope.clamp(a.cuda(), b.cuda(), b.cuda() + 1), cpu_ref(opscope.clamp, a, b, b + 1))
    assert_same(opscope.maximum(a.cuda(), b.cuda()), cpu_ref(opscope.maximum, a, b))


def test_nan_handling():
    x = opscope.tensor([1.0, float("nan"), -float("inf"), float("inf"), -2.0])
    g = x.cuda()
    assert_same(opscope.isnan(g), opscope.isnan(x))
    assert_same(opscope.isposinf(g), opscope.isposinf(x))
    assert_same(opscope.isneginf(g), opscope.isneginf(x))
    assert_same(F.relu(g), F.relu(x))
    assert_same(g.clamp(0, 1), x.clamp(0, 1))
    assert_same(opscope.maximum(g, opscope.zeros(5, device="cuda")),
                opscope.maximum(x, opscope.zeros(5)))
    assert_same(g.max(), x.max())
    assert_same(g.argmax(), x.argmax())


def test_empty_and_zero_dim():
    e = opscope.empty(0, 3, device="cuda")
    assert tuple((e + 1).shape) == (0, 3)
    assert tuple(e.sum(0).shape) == (3,)
    assert as_numpy(e.sum(0)).tolist() == [0.0, 0.0, 0.0]
    z = opscope.tensor(2.5)
    assert_same(opscope.exp(z.cuda()), opscope.exp(z))
    assert_same(z.cuda() * z.cuda(), z * z)


def test_missing_kernel_message():
    """An op without a CUDA kernel says so in torch's words (the dispatcher's message)."""
    x = opscope.ones(3, device="cuda")
    with pytest.raises(NotImplementedError, match="Could not run 'aten::take' with arguments "
                                                  "from the 'CUDA' backend"):
        opscope.take(x, opscope.zeros(1, dtype=opscope.int64, device="cuda"))


# --- reductions -------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
def test_reductions(dtype):
    x = make((3, 4, 5), dtype, seed=20)
    for cpu, gpu in layouts(x):
        for dim in (None, 0, 1, -1, (0, 2)):
            for keepdim in (False, True):
                kw = {} if dim is None else {"dim": dim, "keepdim": keepdim}
                sum_tol = 4 * TOL[dtype][0] + 1e-6
                assert_same(gpu.sum(**kw), cpu_ref(opscope.sum, cpu, **kw), dtype, rtol=sum_tol)
                assert_same(gpu.mean(**kw), cpu_ref(opscope.mean, cpu, **kw), dtype, rtol=sum_tol)
                if dim is not None:
                    assert_same(opscope.amax(gpu, dim, keepdim),
                                cpu_ref(opscope.amax, cpu, dim, keepdim))
                    assert_same(opscope.amin(gpu, dim, keepdim),
                                cpu_ref(opscope.amin, cpu, dim, keepdim))
                    assert_same(opscope.logsumexp(gpu, dim, keepdim),
                                cpu_ref(opscope.logsumexp, cpu, dim, keepdim), dtype, rtol=1e-2
                                if dtype in (opscope.float16, opscope.bfloat16) else 1e-5)
                    assert_same(gpu.norm(dim=dim, keepdim=keepdim),
                                cpu_ref(opscope.norm, cpu, dim=dim, keepdim=keepdim),
                                dtype, rtol=1e-2 if dtype != opscope.float64 else 1e-12)
        for dim in (0, 2):
            gv, gi = gpu.max(dim)
            cv, ci = cpu_ref(opscope.max, cpu, dim)
            assert_same(gv, cv)
            assert_same(gi, ci)
            gv, gi = gpu.min(dim, keepdim=True)
            cv, ci = cpu_ref(opscope.min, cpu, dim, keepdim=True)
            assert_same(gv, cv)
            assert_same(gi, ci)
            assert_same(gpu.argmax(dim), cpu_ref(opscope.argmax, cpu, dim))
            assert_same(gpu.argmin(dim), cpu_ref(opscope.argmin, cpu, dim))
        assert_same(gpu.max(), cpu_ref(opscope.max, cpu))
        assert_same(gpu.argmax(), cpu_ref(opscope.argmax, cpu))


@pytest.mark.parametrize("dtype", [opscope.float32, opscope.float64])
def test_var_std_norms(dtype):
    x = make((6, 7), dtype, seed=21)
    for cpu, gpu in layouts(x):
        for dim in (None, 0, 1):
            kw = {} if dim is None else {"dim": dim}
            assert_same(gpu.var(**kw), cpu.var(**kw), dtype)
            assert_same(gpu.std(**kw, unbiased=False), cpu.std(**kw, unbiased=False), dtype)
        vm_g, vm_c = opscope.var_mean(gpu, 1), opscope.var_mean(cpu, 1)
        assert_same(vm_g[0], vm_c[0], dtype)
        assert_same(vm_g[1], vm_c[1], dtype)
        for p in (0, 1, 2, 3, float("inf"), -float("inf")):
            assert_same(opscope.linalg.vector_norm(gpu, p, dim=1),
                        opscope.linalg.vector_norm(cpu, p, dim=1), dtype,
                        rtol=1e-5 if dtype == opscope.float32 else 1e-12)


def test_integer_and_bool_reductions():
    i = make((5, 6), opscope.int64, seed=22, low=-100, high=100)
    assert_same(i.cuda().sum(), i.sum())
    assert_same(i.cuda().sum(1), i.sum(1))
    assert_same(i.cuda().prod(0), i.prod(0))
    assert_same(i.cuda().max(), i.max())
    assert_same(i.cuda().argmin(1), i.argmin(1))
    i32 = i.to(opscope.int32)
    assert_same(i32.cuda().sum(0), i32.sum(0))  # int64 result
    b = make((5, 6), opscope.bool, seed=23)
    assert_same(b.cuda().sum(1), b.sum(1))
    assert_same(b.cuda().max(), b.max())


@pytest.mark.parametrize("dtype", FLOATS)
def test_softmax(dtype):
    x = make((4, 5, 6), dtype, seed=24, low=-5, high=5)
    for cpu, gpu in layouts(x):
        for dim in (0, 1, -1):
            tol = 5e-3 if dtype in (opscope.float16, opscope.bfloat16) else None
            if dtype != opscope.float16:  # the CPU kernel refuses float16 (as torch 1.13's)
                assert_same(F.softmax(gpu, dim), F.softmax(cpu, dim), dtype, atol=tol)
                assert_same(F.log_softmax(gpu, dim), F.log_softmax(cpu, dim), dtype, atol=tol)
            else:
                ref = F.softmax(cpu.float(), dim).half()
                assert_same(F.softmax(gpu, dim), ref, dtype, atol=tol)


@pytest.mark.parametrize("dtype", [opscope.float32, opscope.float64, opscope.bfloat16])
def test_each_kernel_path_of_the_row_and_column_reductions(dtype):
    # Column reductions read in place, split over up to 64 row blocks when the columns are few
    # (Note [Reducing down columns]: (4096, 40) takes two passes, (8, 3000, 33) over dim 1 too,
    # (70, 50) one); float32 inputs of 4096 columns or more, 4 | inner, go four columns at a
    # time (reduce_cols_vec4_kernel): (64, 70000) in one pass, (256, 4096) in two, (2, 128, 4096)
    # over dim 1 in two, across outer slices; (300, 1000) and (6, 500, 8) stay scalar, and so
    # does an unaligned start (a view from element 1). Rows of at most 1024 go through one
    # warp's registers, longer ones through a block (Note [Rows that fit a warp's registers]):
    # layer norm's 1, 33, 1000 and 1024 columns, then 1500; softmax's 1 to 32 elements a lane
    # (1, 33, 64, 65, 129, 300, 512, 513, 1000, 1024 columns), then rows of at most 8 * 256
    # held in a block's registers (Note [A softmax row in registers]: 1500, 2048); 2049 and
    # 3000 take the block kernel.
    tol = {opscope.bfloat16: 2e-2, opscope.float32: 1e-4, opscope.float64: 1e-10}[dtype]
    for shape, dim in (((4096, 40), 0), ((8, 3000, 33), 1), ((70, 50), 0), ((5000, 3), 0),
                       ((64, 70000), 0), ((300, 1000), 0), ((6, 500, 8), 1),
                       ((256, 4096), 0), ((2, 128, 4096), 1)):
        x = make(shape, dtype, seed=25, low=0.0, high=1.0)
        if shape in ((300, 1000), (256, 4096)):
            x[17, 5] = float("nan")  # a NaN down one column: sum / amax give NaN there
        g = x.cuda()
        for name in ("sum", "mean", "amax", "amin"):
            assert_same(getattr(g, name)(dim), getattr(x, name)(dim), dtype, rtol=tol, atol=tol)
        assert_same(g.norm(dim=dim), x.norm(dim=dim), dtype, rtol=tol, atol=tol)
        assert_same((g > 0.999).any(dim), (x > 0.999).any(dim))
        assert_same((g > 0.001).all(dim), (x > 0.001).all(dim))
    unaligned = make((129 * 4096 + 1,), dtype, seed=34)[1:].view(129, 4096)
    assert_same(unaligned.cuda().sum(0), unaligned.sum(0), dtype, rtol=tol, atol=tol)
    ints = make((3000, 40), opscope.int64, seed=26, low=-50, high=50)
    assert_same(ints.cuda().sum(0), ints.sum(0))
    # Few long rows are cut into chunks (Note [Splitting long rows]): a full reduction of a
    # million elements, three rows of 20,000, two of 16,384 (the smallest cut).
    for shape in ((1_000_003,), (3, 20_000), (2, 16_384)):
        x = make(shape, dtype, seed=32, low=0.0, high=1.0)
        g = x.cuda()
        for name in ("sum", "mean", "amax", "amin"):
            assert_same(getattr(g, name)(-1), getattr(x, name)(-1), dtype, rtol=tol, atol=tol)
        assert_same(g.sum(), x.sum(), dtype, rtol=tol, atol=tol)
        assert_same(g.norm(), x.norm(), dtype, rtol=tol, atol=tol)
        assert_same((g > 0.9999).any(), (x > 0.9999).any())
    big_ints = make((100_000,), opscope.int64, seed=33, low=-50, high=50)
    assert_same(big_ints.cuda().sum(), big_ints.sum())
    for cols in (1, 33, 64, 65, 129, 300, 512, 513, 1000, 1024, 1500, 2048, 2049, 3000):
        x = make((37, cols), dtype, seed=27, low=-6, high=6)
        x[3, 0] = float("-inf")
        for fn in (F.softmax, F.log_softmax):
            assert_same(fn(x.cuda(), -1), fn(x, -1), dtype, rtol=tol, atol=tol)
        if cols in (64, 65, 129, 300, 512, 513, 2048, 2049, 3000):
            continue  # softmax's paths only
        w, b = make((cols,), dtype, seed=28), make((cols,), dtype, seed=29)
        y = make((37, cols), dtype, seed=30)
        assert_same(F.layer_norm(y.cuda(), (cols,), w.cuda(), b.cuda()),
                    F.layer_norm(y, (cols,), w, b), dtype, rtol=tol, atol=tol)
        _, mean, rstd = opscope.native_layer_norm(y.cuda(), (cols,), None, None, 1e-5)
        _, cmean, crstd = opscope.native_layer_norm(y, (cols,), None, None, 1e-5)
        assert_same(mean, cmean, dtype, rtol=tol, atol=tol)
        assert_same(rstd, crstd, dtype, rtol=tol, atol=tol)
    nan_row = make((2, 40), dtype, seed=31)
    nan_row[1, 7] = float("nan")
    assert_same(F.softmax(nan_row.cuda(), -1), F.softmax(nan_row, -1), dtype, rtol=tol, atol=tol)


# --- products -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
def test_matmul_family(dtype):
    tol = {opscope.float32: 1e-4, opscope.float64: 1e-10, opscope.float16: 1e-2,
           opscope.bfloat16: 5e-2}[dtype]
    a, b = make((5, 7), dtype, seed=25), make((7, 3), dtype, seed=26)
    c = make((5, 3), dtype, seed=27)
    # The reference: float64 in float64, the rest in float32 (the CPU's bfloat16 products round
    # differently, and it has no float16 ones).
    up = opscope.float64 if dtype == opscope.float64 else opscope.float32

    def ref(fn, *ts, **kw):
        return fn(*[t.to(up) for t in ts], **kw).to(dtype)
    for ca, ga in layouts(a):
        for cb, gb in layouts(b):
            assert_same(opscope.mm(ga, gb), ref(opscope.mm, ca, cb), dtype, rtol=tol, atol=tol)
    assert_same(opscope.addmm(c.cuda(), a.cuda(), b.cuda(), beta=0.5, alpha=2),
                ref(opscope.addmm, c, a, b, beta=0.5, alpha=2), dtype, rtol=tol, atol=tol)
    bias = make((3,), dtype, seed=28)
    assert_same(opscope.addmm(bias.cuda(), a.cuda(), b.cuda()), ref(opscope.addmm, bias, a, b),
                dtype, rtol=tol, atol=tol)
    x, y = make((4, 5, 6), dtype, seed=29), make((4, 6, 2), dtype, seed=30)
    assert_same(opscope.bmm(x.cuda(), y.cuda()), ref(opscope.bmm, x, y), dtype, rtol=tol, atol=tol)
    assert_same(opscope.bmm(x.cuda().transpose(1, 2).contiguous().transpose(1, 2), y.cuda()),
                ref(opscope.bmm, x, y), dtype, rtol=tol, atol=tol)
    z = make((4, 5, 2), dtype, seed=31)
    assert_same(opscope.baddbmm(z.cuda(), x.cuda(), y.cuda(), beta=0.3, alpha=1.7),
                ref(opscope.baddbmm, z, x, y, beta=0.3, alpha=1.7), dtype, rtol=tol, atol=tol)
    v = make((7,), dtype, seed=32)
    assert_same(opscope.mv(a.cuda(), v.cuda()), ref(opscope.mv, a, v), dtype, rtol=tol, atol=tol)
    assert_same(opscope.dot(v.cuda(), v.cuda()), ref(opscope.dot, v, v), dtype, rtol=tol, atol=tol)
    # matmul's decomposition: batched @ matrix, vector @ batched
    w = make((6, 3), dtype, seed=33)
    assert_same(x.cuda() @ w.cuda(), ref(opscope.matmul, x, w), dtype, rtol=tol, atol=tol)



@pytest.mark.parametrize("dtype", FLOATS)
def test_linear_with_the_bias_in_the_product_epilogue(dtype):
    # nn.Linear's addmm(bias, x, weight.t()) runs as one cublasLtMatmul adding the bias in its
    # epilogue (Note [A bias in the product's epilogue]): every operand layout, alpha, a (1, N)
    # bias, one-row and one-column problems (the gemm path), against the CPU.
    tol = {opscope.float32: 1e-4, opscope.float64: 1e-10, opscope.float16: 2e-2,
           opscope.bfloat16: 1e-1}[dtype]
    up = opscope.float64 if dtype == opscope.float64 else opscope.float32
    x, w = make((64, 96), dtype, seed=60), make((80, 96), dtype, seed=61)
    b = make((80,), dtype, seed=62)

    def ref(*ts, **kw):
        return opscope.addmm(*[t.to(up) for t in ts], **kw).to(dtype)
    for cx, gx in layouts(x):
        for cw, gw in layouts(w):
            assert_same(F.linear(gx, gw, b.cuda()), ref(b, cx, cw.t()), dtype, rtol=tol, atol=tol)
    assert_same(opscope.addmm(b.cuda(), x.cuda(), w.cuda().t(), alpha=-0.5),
                ref(b, x, w.t(), alpha=-0.5), dtype, rtol=tol, atol=tol)
    assert_same(opscope.addmm(b[None].cuda(), x.cuda(), w.cuda().t()), ref(b[None], x, w.t()),
                dtype, rtol=tol, atol=tol)
    out = opscope.empty(64, 80, dtype=dtype, device="cuda")
    opscope.addmm(b.cuda(), x.cuda(), w.cuda().t(), out=out)
    assert_same(out, ref(b, x, w.t()), dtype, rtol=tol, atol=tol)
    assert_same(F.linear(x[:1].cuda(), w.cuda(), b.cuda()), ref(b, x[:1], w.t()), dtype,
                rtol=tol, atol=tol)
    assert_same(F.linear(x.cuda(), w[:1].cuda(), b[:1].cuda()), ref(b[:1], x, w[:1].t()), dtype,
                rtol=tol, atol=tol)
    if dtype == opscope.float32:  # TF32 in the epilogue path too: ~1e-3 off, not 1e-1
        opscope.backends.cuda.matmul.allow_tf32 = True
        try:
            assert_same(F.linear(x.cuda(), w.cuda(), b.cuda()), ref(b, x, w.t()), rtol=2e-2,
                        atol=2e-2)
        finally:
            opscope.backends.cuda.matmul.allow_tf32 = False


def test_matmul_errors_and_empty():
    a = opscope.ones(2, 3, device="cuda")
    with pytest.raises(RuntimeError, match=r"mat1 and mat2 shapes cannot be multiplied \(2x3 and 2x3\)"):
        opscope.mm(a, a)
    k0 = opscope.mm(opscope.ones(2, 0, device="cuda"), opscope.ones(0, 4, device="cuda"))
    assert as_numpy(k0).tolist() == [[0.0] * 4] * 2
    with pytest.raises(RuntimeError, match="\"addmm_cuda\" not implemented for 'Long'"):
        opscope.mm(opscope.ones(2, 2, dtype=opscope.int64, device="cuda"),
                   opscope.ones(2, 2, dtype=opscope.int64, device="cuda"))


def test_tf32_flag_defaults_off():
    assert opscope.backends.cuda.matmul.allow_tf32 is False
    a, b = make((64, 64), seed=34), make((64, 64), seed=35)
    # TF32 (10-bit mantissa) would be ~1e-3 off; full float32 agrees with the CPU to ~1e-5.
    assert_same(a.cuda() @ b.cuda(), a @ b, rtol=1e-4, atol=1e-4)


# --- indexing, shape ---------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [opscope.float32, opscope.float16, opscope.int64, opscope.bool])
def test_index_select_gather_scatter(dtype):
    x = make((5, 6), dtype, seed=36, low=-9, high=9)
    idx = opscope.tensor([4, 0, 2, 2, 1])
    for cpu, gpu in layouts(x):
        assert_same(opscope.index_select(gpu, 0, idx.cuda()), opscope.index_select(cpu, 0, idx))
        assert_same(opscope.index_select(gpu, 1, idx[:3].cuda()),
                    opscope.index_select(cpu, 1, idx[:3]))
    g = opscope.tensor([[0, 1, 1], [5, 4, 0]])
    assert_same(opscope.gather(x.cuda(), 1, g.cuda()), opscope.gather(x, 1, g))
    src = make((2, 3), dtype, seed=37)
    # scatter with a repeated index keeps one of the values, which one left open (torch's CPU
    # and CUDA kernels differ): each row's indices distinct here.
    distinct_g = opscope.tensor([[0, 1, 3], [5, 4, 0]])
    assert_same(x.cuda().scatter(1, distinct_g.cuda(), src.cuda()), x.scatter(1, distinct_g, src))
    assert_same(x.cuda().scatter(0, opscope.tensor([[1, 2, 3]]).cuda(), 1),
                x.scatter(0, opscope.tensor([[1, 2, 3]]), 1))
    if dtype in (opscope.float32, opscope.int64):
        assert_same(x.cuda().scatter_add(1, g.cuda(), src.cuda()), x.scatter_add(1, g, src))
        acc = opscope.zeros(5, 3, dtype=dtype)
        rows = make((6, 3), dtype, seed=38)
        ii = opscope.tensor([0, 4, 0, 1, 4, 4])
        assert_same(acc.cuda().index_add(0, ii.cuda(), rows.cuda()), acc.index_add(0, ii, rows))


def test_index_errors():
    x = opscope.ones(3, 4, device="cuda")
    with pytest.raises(IndexError, match="index out of range in self"):
        opscope.index_select(x, 0, opscope.tensor([0, 3]).cuda())
    with pytest.raises(IndexError, match="index 5 is out of bounds for dimension 0 with size 3"):
        x[opscope.tensor([5]).cuda()]
    with pytest.raises(RuntimeError, match="index 7 is out of bounds for dimension 1 with size 4"):
        opscope.gather(x, 1, opscope.tensor([[7]]).cuda())


@pytest.mark.parametrize("dtype", [opscope.float32, opscope.int64])
def test_advanced_indexing(dtype):
    x = make((4, 5, 6), dtype, seed=39, low=-9, high=9)
    i = opscope.tensor([3, 0, -1])
    j = opscope.tensor([[1], [4]])
    m = x > 0 if dtype == opscope.float32 else x > 2
    g = x.cuda()
    assert_same(g[i.cuda()], x[i])
    assert_same(g[i], x[i])  # CPU indices may index a GPU tensor, as in torch
    assert_same(g[:, i.cuda()], x[:, i])
    assert_same(g[i.cuda(), :, j.cuda()], x[i, :, j])      # non-adjacent: B first
    assert_same(g[:, j.cuda(), i.cuda()], x[:, j, i])      # adjacent: B in place
    assert_same(g[m.cuda()], x[m])
    assert_same(g[1:, ::2][opscope.tensor([0, 2]).cuda()], x[1:, ::2][opscope.tensor([0, 2])])
    # index_put_, with and without accumulate
    # (i names row 3 twice, as 3 and -1: without accumulate, which write lands is left open, as
    # in torch, so the rows put to are distinct here.)
    v, rows = make((3, 6), dtype, seed=40), opscope.tensor([3, 0, -2])
    a, b = x.clone(), x.cuda()
    a[rows, 1] = v
    b[rows.cuda(), 1] = v.cuda()
    assert_same(b, a)
    a, b = x.clone(), x.cuda()
    dup = opscope.tensor([0, 1, 0, 0])
    a.index_put_((dup,), make((4, 5, 6), dtype, seed=41), accumulate=True)
    b.index_put_((dup.cuda(),), make((4, 5, 6), dtype, seed=41).cuda(), accumulate=True)
    assert_same(b, a)
    a, b = x.clone(), x.cuda()
    a[m] = 0
    b[m.cuda()] = 0
    assert_same(b, a)
    a, b = x.clone(), x.cuda()
    a.masked_fill_(m, 7)
    b.masked_fill_(m.cuda(), 7)
    assert_same(b, a)
    assert_same(opscope.nonzero(m.cuda()), opscope.nonzero(m))
    row_mask = m[0, :, :1]  # (5, 1): broadcast against x
    assert_same(opscope.masked_select(x.cuda(), row_mask.cuda()), opscope.masked_select(x, row_mask))


@pytest.mark.parametrize("dtype", [opscope.float32, opscope.bfloat16, opscope.int64])
def test_cat_stack(dtype):
    a, b = make((2, 3), dtype, seed=42), make((4, 3), dtype, seed=43)
    c = make((3, 2), dtype, seed=44).t()  # (2, 3), column-major
    assert_same(opscope.cat([a.cuda(), b.cuda()]), opscope.cat([a, b]))
    assert_same(opscope.cat([a.cuda(), c.cuda().contiguous().t().t()], 1), opscope.cat([a, c], 1))
    assert_same(opscope.stack([a.cuda(), c.contiguous().cuda()], 1), opscope.stack([a, c], 1))
    assert_same(opscope.cat([a.cuda(), opscope.empty(0, device="cuda", dtype=dtype)]),
                opscope.cat([a, opscope.empty(0, dtype=dtype)]))
    mixed = opscope.cat([a.cuda(), a.cuda().double()])
    assert mixed.dtype == opscope.float64


# --- nn -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [opscope.float32, opscope.float64, opscope.bfloat16])
def test_layer_norm_embedding(dtype):
    x = make((3, 4, 8), dtype, seed=45)
    w, b = make((8,), dtype, seed=46), make((8,), dtype, seed=47)
    tol = 2e-2 if dtype == opscope.bfloat16 else None
    assert_same(F.layer_norm(x.cuda(), (8,), w.cuda(), b.cuda()), F.layer_norm(x, (8,), w, b),
                dtype, rtol=tol, atol=tol)
    assert_same(F.layer_norm(x.cuda(), (4, 8)), F.layer_norm(x, (4, 8)), dtype, rtol=tol, atol=tol)
    out, mean, rstd = opscope.native_layer_norm(x.cuda(), (8,), None, None, 1e-5)
    cout, cmean, crstd = opscope.native_layer_norm(x, (8,), None, None, 1e-5)
    assert_same(mean, cmean, dtype, rtol=tol, atol=tol)
    assert_same(rstd, crstd, dtype, rtol=tol, atol=tol)
    table = make((10, 4), dtype, seed=48)
    ids = opscope.tensor([[1, 9, 1], [0, 3, 3]])
    assert_same(F.embedding(ids.cuda(), table.cuda()), F.embedding(ids, table))


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_nll_cross_entropy(reduction):
    logits = make((6, 5), opscope.float32, seed=49)
    target = opscope.tensor([0, 4, 2, -100, 1, 4])
    weight = make((5,), opscope.float32, seed=50, low=0.1, high=2)
    for w in (None, weight):
        wc = None if w is None else w.cuda()
        assert_same(F.cross_entropy(logits.cuda(), target.cuda(), weight=wc, reduction=reduction),
                    F.cross_entropy(logits, target, weight=w, reduction=reduction))
        assert_same(F.nll_loss(F.log_softmax(logits.cuda(), 1), target.cuda(), weight=wc,
                               reduction=reduction, ignore_index=-100),
                    F.nll_loss(F.log_softmax(logits, 1), target, weight=w, reduction=reduction))
    for reduction_ in ("mean", "sum", "none"):
        p, q = make((4, 6), seed=51), make((6,), seed=52)
        assert_same(F.mse_loss(p.cuda(), q.cuda().expand(4, 6), reduction=reduction_),
                    F.mse_loss(p, q.expand(4, 6), reduction=reduction_))
    with pytest.raises(IndexError, match="Target 7 is out of bounds."):
        F.nll_loss(logits.cuda(), opscope.tensor([7, 0, 0, 0, 0, 0]).cuda())


def test_dropout():
    x = opscope.ones(200, 300, device="cuda")
    opscope.cuda.manual_seed(0)
    y1 = F.dropout(x, 0.3)
    opscope.cuda.manual_seed(0)
    y2 = F.dropout(x, 0.3)
    assert_same(y1, y2)  # seeded: the same mask
    kept = (as_numpy(y1) != 0)
    assert abs(kept.mean() - 0.7) < 0.01
    np.testing.assert_allclose(as_numpy(y1)[kept], 1 / 0.7, rtol=1e-6)
    y3 = F.dropout(x, 0.3)
    assert (as_numpy(y3) != as_numpy(y1)).any()  # the stream moved on
    assert_same(F.dropout(x, 0.3, training=False), x)
    g = opscope.empty(1000, device="cuda").uniform_(2, 3)
    assert 2 <= as_numpy(g).min() and as_numpy(g).max() < 3
    n = opscope.empty(100000, device="cuda").normal_(1.0, 2.0)
    assert abs(as_numpy(n).mean() - 1.0) < 0.05 and abs(as_numpy(n).std() - 2.0) < 0.05


# --- gradients ------------------------------------------------------------------------------------------

def _grads_match(fn, *shapes, seed=51, rtol=1e-5, atol=1e-5, **make_kw):
    cpu_in = [make(s, opscope.float32, seed=seed + k, **make_kw).requires_grad_()
              for k, s in enumerate(shapes)]
    gpu_in = [t.detach().cuda().requires_grad_() for t in cpu_in]
    fn(*cpu_in).sum().backward()
    fn(*gpu_in).sum().backward()
    for c, g in zip(cpu_in, gpu_in):
        assert g.grad is not None and g.grad.device.type == "cuda"
        assert_same(g.grad, c.grad, rtol=rtol, atol=atol)


def test_gradients():
    _grads_match(lambda a, b: (a * b + a / (b.abs() + 1)).exp(), (3, 4), (4,))
    _grads_match(lambda a: F.gelu(a) + F.relu(a) + a.sigmoid() + a.tanh(), (5, 6))
    _grads_match(lambda a: F.softmax(a, -1) * opscope.arange(6., device=a.device), (4, 6))
    _grads_match(lambda a: F.log_softmax(a, 0)[1], (4, 6))
    _grads_match(lambda a, b: a @ b, (3, 5), (5, 2), rtol=1e-4, atol=1e-4)
    _grads_match(lambda a, b: opscope.bmm(a, b), (2, 3, 5), (2, 5, 2), rtol=1e-4, atol=1e-4)
    _grads_match(lambda a: F.layer_norm(a, (6,)) * opscope.arange(6., device=a.device),
                 (4, 6), rtol=1e-4, atol=1e-4)
    _grads_match(lambda a, w, b: F.layer_norm(a, (6,), w, b) ** 2, (4, 6), (6,), (6,),
                 rtol=1e-4, atol=1e-4)
    _grads_match(lambda a: a.var(0) + a.mean(1).sum() + a.max(1)[0].sum() + a.norm(), (4, 6))
    _grads_match(lambda a: a[opscope.tensor([2, 0, 2], device=a.device)] * 3, (4, 6))
    _grads_match(lambda w: F.embedding(opscope.tensor([[1, 3], [3, 3]], device=w.device), w),
                 (5, 2))
    _grads_match(lambda a, b: opscope.cat([a, b], 1).logsumexp(1), (3, 2), (3, 4))
    _grads_match(lambda a: opscope.where(a > 0, a, a * a).clamp(-1, 1), (4, 6))

    _grads_match(lambda a, b: F.mse_loss(a, b), (4, 6), (4, 6))

    def ce(a):
        return F.cross_entropy(a, opscope.tensor([1, 0, 3, 2], device=a.device))
    _grads_match(ce, (4, 5))


# --- training: the same code on both devices -----------------------------------------------------------

class Block(nn.Module):
    """A pre-norm transformer block: attention by matmul and softmax, then a GELU MLP."""

    def __init__(self, d=16, heads=2):
        super().__init__()
        self.heads = heads
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
        self.head = nn.Linear(d, 7)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(d, dim=-1)
        q, k, v = (z.view(b, t, self.heads, d // self.heads).transpose(1, 2) for z in (q, k, v))
        att = (q @ k.transpose(-2, -1)) / math.sqrt(d // self.heads)
        mask = opscope.ones(t, t, device=x.device).tril() == 0
        att = F.softmax(att.masked_fill(mask, float("-inf")), dim=-1)
        y = (att @ v).transpose(1, 2).reshape(b, t, d)
        x = x + self.proj(y)
        x = x + self.mlp(self.ln2(x))
        return self.head(x)


def _train(model, inputs, targets, steps, opt_cls, **opt_kw):
    opt = opt_cls(model.parameters(), **opt_kw)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        out = model(inputs)
        loss = F.cross_entropy(out.reshape(-1, out.shape[-1]), targets.reshape(-1))
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def _same_training(model, inputs, targets, steps=5, noise=None, **opt_kw):
    """noise: {parameter name: the slice of it whose true gradient is zero} — Adam moves those
    elements by ~lr * sign(rounding noise), which differs between the devices."""
    gpu_model = copy.deepcopy(model).cuda()
    cpu_losses = _train(model, inputs, targets, steps, opscope.optim.AdamW, **opt_kw)
    gpu_losses = _train(gpu_model, inputs.cuda(), targets.cuda(), steps, opscope.optim.AdamW,
                        **opt_kw)
    # The two devices sum in different orders (float32): the losses agree to ~1e-6 relative.
    # A parameter may differ by a few Adam steps' worth where its gradient is at the noise level
    # (Adam's first steps are ~lr * sign(g)): hence the looser bound on the parameters.
    np.testing.assert_allclose(gpu_losses, cpu_losses, rtol=1e-3, atol=1e-4)
    assert gpu_losses[-1] < gpu_losses[0]
    lr = opt_kw["lr"]
    for (name, p), q in zip(model.named_parameters(), gpu_model.parameters()):
        assert q.device.type == "cuda", name
        np.testing.assert_allclose(as_numpy(q), as_numpy(p), rtol=0, atol=2 * steps * lr,
                                   err_msg=name)
        close = np.isclose(as_numpy(q), as_numpy(p), rtol=1e-3, atol=1e-4)
        if noise and name in noise:
            keep = np.ones(close.shape, bool)
            keep[noise[name]] = False
            close = close[keep]
        assert close.mean() > 0.97, (name, close.mean())


def test_mlp_trains_like_cpu():
    opscope.manual_seed(0)
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 32), nn.GELU(),
                          nn.LayerNorm(32), nn.Linear(32, 5))
    x = make((64, 10), seed=60)
    y = opscope.tensor(rng(61).integers(0, 5, size=64))
    _same_training(model, x, y, lr=1e-2)


def test_transformer_block_trains_like_cpu():
    opscope.manual_seed(0)
    model = Block()
    x = make((4, 9, 16), seed=62)
    y = opscope.tensor(rng(63).integers(0, 7, size=(4, 9)))
    # The key projection's bias adds the same q . b_k to every score of a row, which softmax
    # cancels: its gradient is rounding noise on both devices.
    _same_training(model, x, y, lr=3e-3, weight_decay=0.01, noise={"qkv.bias": slice(16, 32)})


def test_composite_library_ops_match_the_cpu():
    """einsum, tensordot, meshgrid, F.normalize, instance_norm: on CUDA through their children's
    kernels, the CPU's values (float64); normal's tensor forms keep mean and std."""
    g = rng(3)
    x = g.standard_normal((2, 4, 6, 6))
    xc, xg = opscope.tensor(x), opscope.tensor(x, device="cuda")
    pairs = [
        (lambda t: opscope.einsum("bchw,bcHW->bhwHW", t, t), "einsum"),
        (lambda t: opscope.einsum("bchw,c->bhw", t, t[0, :, 0, 0]), "einsum vector"),
        (lambda t: opscope.tensordot(t, t, dims=([1, 2], [1, 2])), "tensordot"),
        (lambda t: F.normalize(t, dim=1), "normalize"),
        (lambda t: F.instance_norm(t), "instance_norm"),
    ]
    for fn, what in pairs:
        np.testing.assert_allclose(fn(xg).cpu().numpy(), fn(xc).numpy(), rtol=1e-10, atol=1e-10,
                                   err_msg=what)
    gx, gy = opscope.meshgrid(opscope.arange(3., device="cuda"), opscope.arange(2., device="cuda"),
                              indexing="xy")
    assert gx.cpu().tolist() == [[0, 1, 2], [0, 1, 2]] and gy.cpu().tolist() == [[0, 0, 0], [1, 1, 1]]
    mean = opscope.full((4000,), 3.0, dtype=opscope.float64, device="cuda")
    s = opscope.normal(mean, 2.0).cpu().numpy()
    assert abs(s.mean() - 3) < 0.2 and abs(s.std() - 2) < 0.2
