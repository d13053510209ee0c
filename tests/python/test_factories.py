"""Factories — empty, zeros, ones, full, arange, linspace, eye, the *_like forms, tensor(), and
the random ones (rand, randn, randint and the in-place samplers) — against NumPy, and their
dtype inference, keywords and errors against torch 1.13 (data/factories_torch.json).

Random values are opscope's own Philox stream, not torch's: they are checked for range,
reproducibility (manual_seed, Generator objects) and distribution, not against torch.

    /usr/bin/python3 -m pytest -q tests/python/test_factories.py
"""

import numpy as np
import pytest

import opscope
from conftest import assert_close, to_numpy, tolerance, cuda_unavailable_error, needs_no_gpu
from reference_cases import DTYPES, FLOATS, case_params, check_case, load_reference

TORCH = load_reference("factories")



def dt(name):
    return getattr(opscope, name)


def np_dtype(name):
    return np.float32 if name == "bfloat16" else np.dtype(name)


# --- constant factories ----------------------------------------------------------------------
SHAPES = [(), (0,), (3,), (2, 3), (2, 0, 4), (1, 1, 5)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_zeros_ones_full_empty(shape, dtype):
    d = dt(dtype)
    fill = {"bool": True, "uint8": 200, "int8": -7}.get(dtype, 3.5 if dtype in FLOATS else -30000)
    for t, expected in [(opscope.zeros(shape, dtype=d), np.zeros(shape)),
                        (opscope.ones(*shape, dtype=d) if shape else opscope.ones((), dtype=d), np.ones(shape)),
                        (opscope.full(shape, fill, dtype=d), np.full(shape, fill, dtype=np_dtype(dtype)))]:
        assert t.dtype is d and tuple(t.shape) == shape and t.is_contiguous()
        assert_close(t, expected.astype(np_dtype(dtype)), rtol=0, atol=0, family="constant factories")
    e = opscope.empty(shape, dtype=d)
    assert e.dtype is d and tuple(e.shape) == shape and e.is_contiguous()
    # Row-major strides; a size-0 dim counts as 1 (torch's rule, unlike NumPy's).
    assert e.stride() == tuple(int(np.prod([max(n, 1) for n in shape[i + 1:]])) for i in range(len(shape)))


def test_default_dtype_applies_to_float_factories():
    opscope.set_default_dtype(opscope.float64)
    try:
        assert opscope.zeros(2).dtype is opscope.float64 and opscope.full((1,), 1.5).dtype is opscope.float64
        assert opscope.arange(1.0).dtype is opscope.float64 and opscope.tensor([1.0]).dtype is opscope.float64
        assert opscope.arange(2).dtype is opscope.int64 and opscope.full((1,), 2).dtype is opscope.int64
    finally:
        opscope.set_default_dtype(opscope.float32)
    assert opscope.zeros(2).dtype is opscope.float32


# --- arange, linspace, eye against NumPy -----------------------------------------------------
ARANGES = [(0, 10, 1), (0, 1, 0.1), (-1.5, 2.5, 0.5), (0.3, 100.7, 0.37), (1, -2, -0.0071),
           (0, 1, 1 / 3), (10, 0, -3), (-50, 50, 0.37), (5, 5, 1), (1e6, 1e6 + 100, 1.3)]


# Float bounds with an integer dtype are in the recorded cases; float16 stays in its range.
ARANGE_CASES = [(*bounds, dtype) for bounds in ARANGES for dtype in ["float32", "float64", "int64", "float16"]
                if not (dtype == "int64" and any(isinstance(v, float) for v in bounds))
                and not (dtype == "float16" and max(map(abs, bounds)) > 1000)]


@pytest.mark.parametrize("start,end,step,dtype", ARANGE_CASES)
def test_arange_against_numpy(start, end, step, dtype):
    t = opscope.arange(start, end, step, dtype=dt(dtype))
    # Length: ceil((end - start) / step) in double, as both torch and NumPy compute it.
    expected = np.arange(start, end, step, dtype=np.float64)
    assert t.shape == expected.shape
    rtol = {"float16": 1e-3, "float32": 2e-6}.get(dtype, 1e-12)
    assert_close(t, expected.astype(np_dtype(dtype)) if dtype == "int64" else expected,
                 rtol=rtol, atol=rtol * max(abs(start), abs(end), 1), family="arange", what=str((start, end, step)))


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("start,end,steps", [(0, 1, 5), (-3.3, 7.7, 101), (1, 0, 6), (5, 5, 3),
                                             (0, 255, 4), (1e-3, 5, 333), (2, 3, 1), (0, 1, 0)], ids=str)
def test_linspace_against_numpy(start, end, steps, dtype):
    # Integer dtypes follow torch's own formula (not monotonic!): see the recorded cases. Like
    # torch, float16 / bfloat16 step in their own precision: a few units of the largest value.
    t = opscope.linspace(start, end, steps, dtype=dt(dtype))
    eps = {"float16": 2.0 ** -10, "bfloat16": 2.0 ** -7}.get(dtype, 0)
    atol = max(tolerance(dtype)["atol"], 4 * eps * max(abs(start), abs(end)))
    assert_close(t, np.linspace(start, end, steps), rtol=tolerance(dtype)["rtol"], atol=atol,
                 family="linspace", what=str((start, end, steps)))


@pytest.mark.parametrize("dtype", ["float32", "int64", "bool", "bfloat16"])
@pytest.mark.parametrize("n,m", [(3, None), (2, 5), (5, 2), (0, 3), (1, 1), (0, None)])
def test_eye_against_numpy(n, m, dtype):
    t = opscope.eye(n, dtype=dt(dtype)) if m is None else opscope.eye(n, m, dtype=dt(dtype))
    assert t.dtype is dt(dtype)
    assert_close(t, np.eye(n, m).astype(np_dtype(dtype)), rtol=0, atol=0, family="eye")


# --- *_like ----------------------------------------------------------------------------------
LIKE_SOURCES = {
    "contiguous": lambda: opscope.ones(2, 3, dtype=opscope.int16),
    "transposed": lambda: opscope.ones(2, 3, 4).permute(2, 0, 1),
    "sliced": lambda: opscope.ones(4, 6)[::2, 1::3],
    "expanded": lambda: opscope.ones(3, 1).expand(3, 4),
    "0-d": lambda: opscope.tensor(2.5, dtype=opscope.float64),
    "empty": lambda: opscope.ones(0, 3, dtype=opscope.bool),
}


def preserved_strides(src):
    """preserve_format: the source's strides when its elements tile memory densely in some dim
    order (contiguous, permuted), row-major strides otherwise (sliced with steps, expanded)."""
    expected = 1
    for stride, size in sorted((s, n) for s, n in zip(src.stride(), src.shape) if n > 1):
        if stride != expected:
            return opscope.empty(src.shape).stride()
        expected *= size
    return src.stride()


@pytest.mark.parametrize("source", list(LIKE_SOURCES))
def test_like_factories_keep_shape_dtype_and_dense_layout(source):
    src = LIKE_SOURCES[source]()
    for t, value in [(opscope.zeros_like(src), 0), (opscope.ones_like(src), 1), (opscope.full_like(src, 7), 7),
                     (opscope.empty_like(src), None), (opscope.rand_like(src.double()), None)]:
        assert t.shape == src.shape and not t.requires_grad
        assert t.stride() == preserved_strides(src), f"{source}: {t.stride()}"
        if value is not None:
            assert t.dtype is src.dtype
            assert_close(t, np.full(tuple(src.shape), value).astype(to_numpy(src).dtype), rtol=0, atol=0)
        assert t.data_ptr() != src.data_ptr() or src.numel() == 0
    t = opscope.zeros_like(src, dtype=opscope.float16, memory_format=opscope.contiguous_format)
    assert t.dtype is opscope.float16 and t.is_contiguous()


def test_like_factories_do_not_inherit_requires_grad():
    src = opscope.ones(3, requires_grad=True)
    assert not opscope.zeros_like(src).requires_grad
    assert opscope.ones_like(src, requires_grad=True).requires_grad


# --- tensor() --------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"])
@pytest.mark.parametrize("layout", ["contiguous", "reversed", "transposed", "0-d"])
def test_tensor_from_numpy_copies_with_its_dtype(dtype, layout, rng):
    a = (rng.standard_normal((3, 4)) * 50).astype(dtype)
    a = {"contiguous": a, "reversed": a[::-1, ::2], "transposed": a.T, "0-d": a[1, 2, ...]}[layout]
    t = opscope.tensor(a)
    assert str(t.dtype) == f"torch.{dtype}" and tuple(t.shape) == a.shape and t.is_contiguous()
    assert_close(t, a, rtol=0, atol=0, family="tensor()")
    before = to_numpy(t).copy()
    a[...] = 0  # a copy: the tensor keeps its values
    assert_close(t, before, rtol=0, atol=0)


def test_tensor_from_nested_lists_against_numpy(rng):
    for shape in [(3,), (2, 3), (2, 1, 4), (1,), (0,), (2, 0)]:
        floats = (rng.standard_normal(shape) * 10).tolist()
        ints = rng.integers(-100, 100, shape).tolist()
        bools = (rng.random(shape) < 0.5).tolist()
        assert_close(opscope.tensor(floats, dtype=opscope.float64), np.array(floats).reshape(shape), rtol=0, atol=0)
        assert_close(opscope.tensor(ints), np.array(ints, dtype=np.int64).reshape(shape), rtol=0, atol=0)
        assert_close(opscope.tensor(bools), np.array(bools, dtype=bool).reshape(shape), rtol=0, atol=0)
        if 0 not in shape:  # an empty list is float32, whatever it was meant to hold
            assert opscope.tensor(floats).dtype is opscope.float32
            assert opscope.tensor(ints).dtype is opscope.int64 and opscope.tensor(bools).dtype is opscope.bool


def test_from_numpy_shares_memory_and_tensor_does_not():
    a = np.arange(6.0).reshape(2, 3)
    shared, copied = opscope.from_numpy(a), opscope.tensor(a)
    a[0, 0] = 100
    assert shared[0, 0].item() == 100 and copied[0, 0].item() == 0


# --- random ----------------------------------------------------------------------------------
def test_rand_randn_randint_ranges_and_distribution():
    opscope.manual_seed(0)
    u = to_numpy(opscope.rand(200_000, dtype=opscope.float64))
    assert u.min() >= 0 and u.max() < 1
    assert abs(u.mean() - 0.5) < 0.005 and abs(u.std() - 12 ** -0.5) < 0.005
    n = to_numpy(opscope.randn(200_000))
    assert abs(n.mean()) < 0.01 and abs(n.std() - 1) < 0.01
    assert 0.31 < np.mean(np.abs(n) > 1) < 0.33  # P(|z| > 1) = 0.3173
    k = to_numpy(opscope.randint(-3, 7, (100_000,)))
    assert k.dtype == np.int64 and k.min() == -3 and k.max() == 6
    counts = np.bincount(k + 3)
    assert counts.min() > 9_000 and counts.max() < 11_000


def test_normal_and_bernoulli_samples_have_their_moments():
    """torch.normal's four forms and torch.bernoulli's two, per element: mean + std N(0, 1) with
    mean and std broadcast, 1 with the element's probability; the generator's draws repeat."""
    opscope.manual_seed(0)
    mean = opscope.tensor([[-3.0], [0.0], [5.0]], dtype=opscope.float64)
    std = opscope.tensor([0.5, 1.0, 2.0, 4.0], dtype=opscope.float64)
    n = 40_000
    x = to_numpy(opscope.normal(mean.expand(3, n).contiguous(), 2.0))
    assert np.allclose(x.mean(axis=1), [-3, 0, 5], atol=0.05) and np.allclose(x.std(axis=1), 2, atol=0.05)
    x = to_numpy(opscope.normal(1.5, std.repeat(n, 1).t().contiguous()))
    assert np.allclose(x.mean(axis=1), 1.5, atol=0.1) and np.allclose(x.std(axis=1), [0.5, 1, 2, 4], rtol=0.03)
    x = to_numpy(opscope.normal(mean.expand(3, n).unsqueeze(1), std.view(1, 4, 1)))
    assert x.shape == (3, 4, n)
    assert np.allclose(x.mean(axis=2), [[-3] * 4, [0] * 4, [5] * 4], atol=0.1)
    assert np.allclose(x.std(axis=2), [[0.5, 1, 2, 4]] * 3, rtol=0.03)
    x = to_numpy(opscope.normal(2.0, 3.0, (n,)))
    assert abs(x.mean() - 2) < 0.05 and abs(x.std() - 3) < 0.05
    p = opscope.tensor([0.0, 0.1, 0.5, 0.9, 1.0], dtype=opscope.float64)
    b = to_numpy(opscope.bernoulli(p.repeat(n, 1)))
    assert set(np.unique(b)) <= {0.0, 1.0} and np.allclose(b.mean(axis=0), [0, 0.1, 0.5, 0.9, 1], atol=0.01)
    b = to_numpy(opscope.bernoulli(opscope.zeros(n, dtype=opscope.int32), 0.25))
    assert b.dtype == np.int32 and abs(b.mean() - 0.25) < 0.01
    g = opscope.Generator().manual_seed(7)
    first = opscope.normal(mean, 1.0, generator=g)
    assert opscope.equal(first, opscope.normal(mean, 1.0, generator=opscope.Generator().manual_seed(7)))


@pytest.mark.parametrize("dtype", FLOATS)
def test_random_floats_of_every_float_dtype(dtype):
    u = opscope.rand(5000, dtype=dt(dtype))
    n = opscope.randn(5000, dtype=dt(dtype))
    assert u.dtype is dt(dtype) and n.dtype is dt(dtype)
    u = to_numpy(u).astype(np.float64)
    assert u.min() >= 0 and u.max() <= 1 and abs(u.mean() - 0.5) < 0.03
    assert abs(to_numpy(n).astype(np.float64).std() - 1) < 0.05


@pytest.mark.parametrize("dtype", ["uint8", "int8", "int16", "int32", "int64", "float32", "float16", "bool"])
def test_randint_dtypes(dtype):
    high = 2 if dtype == "bool" else 100
    t = opscope.randint(0, high, (1000,), dtype=dt(dtype))
    v = to_numpy(t).astype(np.int64)
    assert t.dtype is dt(dtype) and v.min() == 0 and v.max() == high - 1


def test_manual_seed_reproduces_and_reseeding_changes():
    opscope.manual_seed(42)
    first = [opscope.rand(5), opscope.randn(2, 3), opscope.randint(10, (4,)), opscope.empty(3).uniform_(-1, 1)]
    assert opscope.initial_seed() == 42
    opscope.manual_seed(42)
    second = [opscope.rand(5), opscope.randn(2, 3), opscope.randint(10, (4,)), opscope.empty(3).uniform_(-1, 1)]
    for a, b in zip(first, second):
        assert a.tolist() == b.tolist()
    opscope.manual_seed(43)
    assert opscope.rand(5).tolist() != first[0].tolist()
    assert opscope.rand(5).tolist() != opscope.rand(5).tolist()  # the stream moves on


def test_generator_objects_are_independent_streams():
    g1, g2 = opscope.Generator().manual_seed(7), opscope.Generator().manual_seed(7)
    opscope.manual_seed(0)
    a = opscope.rand(6, generator=g1)
    opscope.rand(100)  # the default generator does not touch g2
    b = opscope.rand(6, generator=g2)
    assert a.tolist() == b.tolist() and g1.initial_seed() == 7
    assert opscope.randn(3, generator=g1).tolist() == opscope.randn(3, generator=g2).tolist()
    assert opscope.randint(0, 9, (5,), generator=g1).tolist() == opscope.randint(0, 9, (5,), generator=g2).tolist()
    g3 = opscope.Generator().manual_seed(8)
    assert opscope.rand(6, generator=g3).tolist() != opscope.rand(6, generator=opscope.Generator().manual_seed(7)).tolist()
    offset = g1.get_offset()
    x = opscope.rand(4, generator=g1)
    g1.set_offset(offset)
    assert opscope.rand(4, generator=g1).tolist() == x.tolist()


def test_inplace_samplers():
    opscope.manual_seed(1)
    u = to_numpy(opscope.empty(50_000, dtype=opscope.float64).uniform_(2, 5))
    assert u.min() >= 2 and u.max() < 5 and abs(u.mean() - 3.5) < 0.02
    n = to_numpy(opscope.empty(50_000, dtype=opscope.float64).normal_(3, 2))
    assert abs(n.mean() - 3) < 0.05 and abs(n.std() - 2) < 0.05
    b = to_numpy(opscope.empty(50_000).bernoulli_(0.3))
    assert set(np.unique(b)) <= {0.0, 1.0} and abs(b.mean() - 0.3) < 0.01
    r = to_numpy(opscope.empty(50_000, dtype=opscope.int16).random_(5, 9))
    assert r.min() == 5 and r.max() == 8
    r = to_numpy(opscope.empty(1000, dtype=opscope.uint8).random_())
    assert r.min() < 10 and r.max() > 245
    views = opscope.zeros(4, 6)
    views[:, ::2].uniform_(1, 2)  # samplers write through views
    assert (to_numpy(views)[:, 1::2] == 0).all() and (to_numpy(views)[:, ::2] >= 1).all()


# --- keywords --------------------------------------------------------------------------------
FACTORY_CALLS = ["opscope.ones(2, {kw})", "opscope.zeros((2, 3), {kw})", "opscope.empty(2, {kw})",
                 "opscope.full((2,), 1.0, {kw})", "opscope.arange(3.0, {kw})", "opscope.linspace(0, 1, 3, {kw})",
                 "opscope.eye(2, {kw})", "opscope.rand(2, {kw})", "opscope.randn(2, {kw})",
                 "opscope.tensor([1.0], {kw})", "opscope.zeros_like(opscope.ones(2), {kw})",
                 "opscope.scalar_tensor(1.0, {kw})", "opscope.empty_strided((2,), (1,), {kw})"]


@pytest.mark.parametrize("call", FACTORY_CALLS)
def test_requires_grad_and_device_keywords(call):
    t = eval(call.format(kw="requires_grad=True"), {"opscope": opscope})
    assert t.requires_grad and t.is_leaf and t.grad_fn is None
    assert not eval(call.format(kw="dtype=opscope.float64"), {"opscope": opscope}).requires_grad
    for device in ["'cpu'", "opscope.device('cpu')", "'cpu:0'"]:
        t = eval(call.format(kw=f"device={device}"), {"opscope": opscope})
        assert t.device == opscope.device("cpu") and t.is_cpu and not t.is_cuda


@needs_no_gpu
@pytest.mark.parametrize("call", FACTORY_CALLS + ["opscope.randint(3, (2,), {kw})"])
def test_cuda_device_without_a_cuda_backend_is_torchs_error(call):
    # The binding's lazy CUDA initialisation (opscope.cuda._lazy_init, called from C++) fails as
    # torch's does: AssertionError("Torch not compiled with CUDA enabled") in a build without
    # CUDA, CUDA's own RuntimeError in one with it on a machine without a GPU.
    error, message = cuda_unavailable_error()
    for device in ["'cuda'", "'cuda:0'", "opscope.device('cuda', 1)", "0"]:
        with pytest.raises(error, match=message):
            eval(call.format(kw=f"device={device}"), {"opscope": opscope})
    for move in [lambda t: t.to("cuda"), lambda t: t.cuda(), lambda t: t.to(0),
                 lambda t: t.to(opscope.device("cuda:0"), opscope.float64)]:
        with pytest.raises(error, match=message):
            move(opscope.ones(2))


# --- recorded from torch: dtype inference, values, errors ------------------------------------
CASE_XFAILS = {
    "m.ones(2, device='tpu')": "the list of device types in the error is opscope's (cpu, cuda, meta, "
                               "privateuseone), shorter than torch's (core/runtime/Device.cpp)",
}


@pytest.mark.parametrize("case", case_params(TORCH["cases"], CASE_XFAILS))
def test_case_matches_torch(case):
    check_case(case, opscope)


def test_reference_data_is_torch_1_13():
    assert TORCH["torch_version"].startswith("1.13") and len(TORCH["cases"]) > 150
