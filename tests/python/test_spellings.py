"""The spellings ordinary PyTorch tutorials use (nanoGPT, makemore, minGPT, the official
tutorials): aliases (multiply, greater, arccos, fix, concatenate, special.*), keepdims= / axis=,
out= (matmul), indexing with range and any sequence, in-place shape ops (unsqueeze_, t_,
resize_, ...), legacy types (FloatTensor, Tensor.type()), Variable, as_tensor, backends flags,
multinomial and randperm — replayed against torch 1.13's recorded outcomes
(data/spellings_torch.json, from make_torch_reference_spellings.py), plus the statistics of the
samplers and their generators, checked against their definitions."""

import math
import warnings

import numpy as np
import pytest

import opscope
import spellings_cases as cases
from conftest import record_dispatch
from reference_cases import case_params, load_reference, mismatch, outcome

TORCH = load_reference("spellings")

# Errors whose type matches torch's but whose text is the binding's generic one: torch lists its
# Python signatures (named-dim overloads too), opscope its own.
TYPE_ONLY = {
    "m.sum(x, keepdim=True, keepdims=True)", "m.sum(x, dim=0, axis=1)",
}

KNOWN = {
    "m.special.log_softmax(x, 0)": "log_softmax's float32 kernel (core/ops/cpu/softmax.cpp) rounds "
                                   "~1e-5 relative away from torch near 0; the alias passes through",
    "leaf.resize_(6)": "the in-place checking Autograd kernel answers first with the leaf message; "
                       "torch's resize_ has its own ('cannot resize variables that require grad')",
    "(x.resize_(2, 2), x._version)[1]": "resize_ bumps the version (ADInplaceOrView, as every op "
                                        "writing self); torch's does not",
    "m.typename(m.Tensor)": "a class is named by its module: opscope.Tensor lives in opscope",
    "m.randn(2, out=m.empty(0, requires_grad=True))": "the out= checking Autograd kernel answers "
                                                      "first with the leaf message",
    "m.randint(3, (2,), out=m.empty(0, dtype=m.int32), dtype=m.int64)":
        "an explicit dtype= equal to randint's default (long) is not told from the default, so "
        "it is not checked against out's",
}


def _outcome(case):
    with warnings.catch_warnings():  # x.new_tensor(tensor) warns, as torch's does
        warnings.simplefilter("ignore")
        got = outcome(case["expr"], opscope, **cases.env(opscope))
    if case["expr"] in TYPE_ONLY and "error" in got and "error" in case:
        got["message"] = case["message"]
    return got


# torch 1.13 was recorded from Debian's CPU-only build; a build of opscope with the CUDA backend
# answers True, as a CUDA build of torch does.
BUILT_WITH_CUDA = {"m.backends.cuda.is_built()"}


@pytest.mark.parametrize("case", case_params(
    [c for c in TORCH["cases"] if not (opscope.cuda._is_compiled() and c["expr"] in BUILT_WITH_CUDA)],
    KNOWN))
def test_case_matches_torch(case):
    expected = {k: v for k, v in case.items() if k != "expr"}
    why = mismatch(expected, _outcome(case))
    assert why is None, f"{case['expr']}\n   {why}"


@pytest.fixture
def restore_flags():
    yield
    opscope.set_float32_matmul_precision("highest")
    opscope.use_deterministic_algorithms(False)
    opscope.backends.cudnn.benchmark = False
    opscope.backends.cudnn.enabled = True
    opscope.set_default_dtype(opscope.float32)


@pytest.mark.parametrize("sequence", TORCH["stateful"], ids=lambda s: " ; ".join(c["expr"] for c in s))
def test_flag_sequences_match_torch(sequence, restore_flags):
    for case in sequence:
        expected = {k: v for k, v in case.items() if k != "expr"}
        why = mismatch(expected, outcome(case["expr"], opscope, **cases.env(opscope)))
        assert why is None, f"{case['expr']}\n   {why}"


def test_unknown_matmul_precision_warns_and_keeps_the_setting(restore_flags):
    opscope.set_float32_matmul_precision("high")
    with pytest.warns(UserWarning, match="foo is not one of 'highest', 'high', or 'medium'"):
        opscope.set_float32_matmul_precision("foo")
    assert opscope.get_float32_matmul_precision() == "high"


def test_reference_data_is_torch_1_13():
    assert TORCH["torch_version"].startswith("1.13") and len(TORCH["cases"]) > 300


# --- traces: an alias is an op of its own, then its target -----------------------------------

def _op_names(expr):
    scope = {"m": opscope, **cases.env(opscope)}
    rec = record_dispatch(lambda: eval(expr, scope))  # noqa: S307 - our own cases
    return [s["op"].split(".")[0] for s in rec.steps if s["kind"] in ("call", "callBoxed")]


def _is_subsequence(short, long):
    it = iter(long)
    return all(name in it for name in short)


@pytest.mark.parametrize("expr", sorted(TORCH["traces"]))
def test_trace_names_follow_torchs(expr):
    """opscope's ops are torch's profiler's, in order, starting with the same op (torch's also
    list the allocations inside kernels, empty / resize_, which opscope's kernels make directly)."""
    # the expression's own arguments: out=m.empty(...), m.tensor(...) (torch: to, lift_fresh, detach_)
    skip = ("aten::empty", "aten::tensor", "aten::to", "aten::lift_fresh", "aten::detach_")
    torch_names = [n for n in TORCH["traces"][expr] if n not in skip]
    names = [n for n in _op_names(expr) if n not in skip]
    assert names and names[0] == torch_names[0], (names, torch_names)
    assert _is_subsequence(names, torch_names), (names, torch_names)


@pytest.mark.parametrize("fn, node", [
    (lambda a, b: opscope.multiply(a, b), "MulBackward0"),
    (lambda a, b: opscope.divide(a, b), "DivBackward0"),
    (lambda a, b: opscope.subtract(a, b, alpha=2), "SubBackward0"),
    (lambda a, b: opscope.special.expit(a) * b, "MulBackward0"),
    (lambda a, b: opscope.arctan(a) + opscope.negative(b), "AddBackward0"),
    (lambda a, b: opscope.special.logsumexp(opscope.stack([a, b]), 0), "LogsumexpBackward0"),
    (lambda a, b: opscope.concatenate([a, b]), "CatBackward0"),
])
def test_aliases_differentiate_as_their_targets(fn, node):
    rng = np.random.default_rng(0)
    a = opscope.tensor(rng.uniform(-0.9, 0.9, (3, 2)), requires_grad=True)
    b = opscope.tensor(rng.uniform(0.5, 2.0, (3, 2)), requires_grad=True)
    assert type(fn(a, b).grad_fn).__name__ == node
    assert opscope.autograd.gradcheck(fn, (a, b))


def test_alias_out_forms_refuse_inputs_that_require_grad():
    a = opscope.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="functions with out=... arguments don't support"):
        opscope.multiply(a, a, out=opscope.empty(3))


# --- keepdims= / axis= on every reduction, as methods too ------------------------------------

@pytest.mark.parametrize("name", ["sum", "mean", "amax", "amin", "std", "var", "logsumexp", "prod"])
def test_numpy_keywords_are_torchs_keywords(name):
    x = opscope.tensor(np.random.default_rng(1).uniform(0.5, 2, (3, 4, 2)))
    dim = 1 if name == "prod" else (1,)
    want = getattr(opscope, name)(x, dim, keepdim=True)
    for got in (getattr(opscope, name)(x, axis=dim, keepdims=True), getattr(x, name)(axis=dim, keepdims=True)):
        assert got.shape == want.shape and opscope.equal(got, want)


# --- matmul(out=) on every shape case, against the functional result --------------------------

@pytest.mark.parametrize("shapes", [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 3), (3, 4)),
                                    ((5, 2, 3), (3,)), ((5, 2, 3), (3, 4)), ((2, 3), (5, 3, 4)),
                                    ((5, 2, 3), (5, 3, 4)), ((1, 2, 3), (5, 3, 4)), ((0, 3), (3, 2))])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_matmul_out_equals_matmul(shapes, dtype):
    rng = np.random.default_rng(2)
    a, b = (opscope.tensor(rng.standard_normal(s), dtype=getattr(opscope, dtype)) for s in shapes)
    want = opscope.matmul(a, b)
    out = opscope.empty(7, dtype=want.dtype)  # wrong size: resized
    got = opscope.matmul(a, b, out=out)
    assert got is out and out.shape == want.shape
    np.testing.assert_allclose(out.numpy(), want.numpy(), rtol=1e-6)


# --- indexing with a range or any sequence, against NumPy --------------------------------------

def test_range_indexing_is_list_indexing_against_numpy():
    rng = np.random.default_rng(3)
    for _ in range(40):
        shape = tuple(rng.integers(1, 6, size=rng.integers(1, 4)))
        data = rng.standard_normal(shape).astype(np.float32)
        x = opscope.tensor(data)
        n = shape[0]
        start, stop = sorted(rng.integers(-n, n + 1, size=2))
        r = range(start, stop, int(rng.integers(1, 3)))
        want = data[list(r)]
        np.testing.assert_array_equal(x[r].numpy(), want)
        np.testing.assert_array_equal(x.t()[..., r].numpy() if x.dim() == 2 else x[r].numpy(),
                                      data.T[..., list(r)] if x.dim() == 2 else want)
        y, expect = x.clone(), data.copy()
        y[r] = 7.0
        expect[list(r)] = 7.0
        np.testing.assert_array_equal(y.numpy(), expect)


def test_makemore_rows_by_range_and_targets():
    logits = opscope.randn(32, 27)
    targets = opscope.randint(0, 27, (32,))
    picked = logits[range(32), targets]
    np.testing.assert_array_equal(picked.numpy(), logits.numpy()[np.arange(32), targets.numpy()])
    picked_arange = logits[opscope.arange(32), targets]
    assert opscope.equal(picked, picked_arange)


# --- in-place shape ops: the functional view's geometry, on self -------------------------------

@pytest.mark.parametrize("op, args", [
    ("unsqueeze", (0,)), ("unsqueeze", (-1,)), ("unsqueeze", (1,)), ("squeeze", ()), ("squeeze", (1,)),
    ("t", ()), ("transpose", (0, 1)), ("transpose", (-1, 0)), ("swapaxes", (0, 1)), ("swapdims", (1, 0)),
    ("as_strided", ((2, 2), (1, 3), 1)),
])
def test_inplace_shape_op_takes_its_view_geometry(op, args):
    base = opscope.arange(12.).reshape(4, 1, 3)[:, :, :2] if op != "t" else opscope.arange(12.).reshape(3, 4)[:, 1:]
    x = base.clone() if op == "as_strided" else base
    view = getattr(x, op)(*args)
    target = x.clone() if op == "as_strided" else x
    if op == "as_strided":
        view = getattr(target, op)(*args)
    version = target._version
    ret = getattr(target, op + "_")(*args)
    assert ret is target
    assert (target.shape, target.stride(), target.storage_offset()) == (view.shape, view.stride(), view.storage_offset())
    assert opscope.equal(target, view) and target._version == version + 1


def test_inplace_shape_op_on_a_view_keeps_sharing_storage():
    x = opscope.arange(6.).reshape(2, 3)
    row = x[1]
    row.unsqueeze_(0).t_()
    assert row.shape == (3, 1) and row._base is x._base
    row[0, 0] = -1
    assert x[1, 0].item() == -1


@pytest.mark.parametrize("fn", [
    lambda x: (x * 1).t_() * 2,
    lambda x: (x * 1).unsqueeze_(1).transpose_(0, 2).squeeze_() * 2,
    lambda x: (x * 1).unsqueeze_(-1).swapaxes_(0, 1).squeeze_(-1) + x.t(),
])
def test_inplace_shape_ops_differentiate(fn):
    x = opscope.tensor(np.random.default_rng(5).standard_normal((2, 3)), requires_grad=True)
    assert opscope.autograd.gradcheck(fn, (x,))


def test_inplace_shape_op_refuses_what_it_cannot_differentiate():
    # A view of a tensor that requires grad, and as_strided_: opscope refuses rather than leave a
    # graph whose shapes no longer match (torch rewrites the base's history); no_grad works.
    y = opscope.ones(2, 3, requires_grad=True) * 2
    with pytest.raises(NotImplementedError, match=r"t_\(\) on a view of a tensor that requires grad"):
        y[0].t_()
    with pytest.raises(NotImplementedError, match=r"as_strided_\(\) on a tensor that requires grad"):
        y.as_strided_((3,), (1,))
    with opscope.no_grad():
        assert y.t_().shape == (3, 2)


def test_resize_grows_storage_and_keeps_the_prefix():
    x = opscope.arange(4.)
    x.resize_(3, 3)
    assert x.shape == (3, 3) and x.stride() == (3, 1)
    assert x.flatten()[:4].tolist() == [0.0, 1.0, 2.0, 3.0]
    x.resize_(2)
    assert x.tolist() == [0.0, 1.0]


# --- legacy types ---------------------------------------------------------------------------

@pytest.mark.parametrize("name, dtype", [
    ("FloatTensor", "float32"), ("DoubleTensor", "float64"), ("HalfTensor", "float16"),
    ("BFloat16Tensor", "bfloat16"), ("LongTensor", "int64"), ("IntTensor", "int32"),
    ("ShortTensor", "int16"), ("CharTensor", "int8"), ("ByteTensor", "uint8"), ("BoolTensor", "bool")])
def test_legacy_type_round_trip(name, dtype):
    cls = getattr(opscope, name)
    t = cls([1, 0, 1])
    assert t.dtype == getattr(opscope, dtype) and isinstance(t, cls) and type(t) is opscope.Tensor
    assert t.type() == f"torch.{name}" and opscope.ones(2).type(f"torch.{name}").dtype == t.dtype
    assert opscope.ones(2).type(cls).dtype == t.dtype and cls(2, 3).shape == (2, 3)
    others = [c for c in ("FloatTensor", "LongTensor", "BoolTensor") if c != name]
    assert not any(isinstance(t, getattr(opscope, c)) for c in others)


def test_tensor_follows_the_default_dtype():
    opscope.set_default_dtype(opscope.float64)
    try:
        assert opscope.Tensor([1, 2]).dtype == opscope.float64 and opscope.Tensor(2).dtype == opscope.float64
    finally:
        opscope.set_default_dtype(opscope.float32)


def test_variable_shares_storage_and_version():
    t = opscope.ones(3)
    v = opscope.autograd.Variable(t, requires_grad=True)
    (v * 2).sum().backward()
    assert v.grad.tolist() == [2.0] * 3 and t.grad is None
    with pytest.warns(UserWarning, match="volatile was removed"):
        opscope.autograd.Variable(t, volatile=True)


def test_as_tensor_shares_numpy_memory_when_it_can():
    a = np.array([1.0, 2.0])
    shared, copied = opscope.as_tensor(a), opscope.as_tensor(a, dtype=opscope.float32)
    a[0] = 5.0
    assert shared.tolist() == [5.0, 2.0] and copied.tolist() == [1.0, 2.0]


# --- multinomial: the distribution, the generator --------------------------------------------

def _chi2_ok(counts, probs, draws):
    """Pearson's statistic below the 1e-6 tail of chi-square with k - 1 degrees of freedom
    (Wilson-Hilferty), so a correct sampler fails about once in a million runs."""
    expected = np.asarray(probs) * draws
    keep = expected > 0
    assert counts[~keep].sum() == 0, "a category of probability 0 was drawn"
    stat = float((((counts - expected) ** 2)[keep] / expected[keep]).sum())
    k = int(keep.sum()) - 1
    bound = k * (1 - 2 / (9 * k) + 4.75 * math.sqrt(2 / (9 * k))) ** 3
    return stat < bound, stat, bound


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("replacement", [True, False])
def test_multinomial_draws_follow_the_probabilities(dtype, replacement):
    weights = np.array([[1.0, 0.0, 3.0, 6.0, 2.0], [5.0, 5.0, 0.0, 0.0, 10.0]])
    probs = weights / weights.sum(1, keepdims=True)
    g = opscope.Generator().manual_seed(7)
    p = opscope.tensor(weights, dtype=getattr(opscope, dtype)).t().contiguous().t()  # non-contiguous rows
    n = 20000
    if replacement:
        draws = opscope.multinomial(p, n, replacement=True, generator=g).numpy()
    else:  # one draw per call: the first of a sample without replacement follows p too
        draws = np.stack([opscope.multinomial(p, 1, generator=g).numpy()[:, 0] for _ in range(n // 10)], 1)
    for row in range(2):
        counts = np.bincount(draws[row], minlength=5)
        ok, stat, bound = _chi2_ok(counts, probs[row], draws.shape[1])
        assert ok, (row, counts, stat, bound)


def test_multinomial_without_replacement_draws_distinct_categories():
    g = opscope.Generator().manual_seed(3)
    p = opscope.rand(50, 30, generator=g) + 0.01
    s = opscope.multinomial(p, 30, generator=g)
    assert s.shape == (50, 30) and all(sorted(r) == list(range(30)) for r in s.tolist())
    zero_last = opscope.multinomial(opscope.tensor([0.0, 1.0, 0.0, 2.0]), 4, generator=g)
    assert sorted(zero_last[:2].tolist()) == [1, 3] and sorted(zero_last[2:].tolist()) == [0, 2]


def test_multinomial_generators_reproduce_and_separate():
    p = opscope.tensor([0.1, 0.2, 0.3, 0.4])

    def run(seed, **kw):
        g = opscope.Generator().manual_seed(seed)
        return [opscope.multinomial(p, 1, replacement=True, generator=g).item() for _ in range(200)], \
            opscope.multinomial(p, 3, generator=g).tolist()

    assert run(1) == run(1) and run(1) != run(2)
    opscope.manual_seed(5)
    first = opscope.multinomial(p, 50, True).tolist()
    opscope.manual_seed(5)
    assert opscope.multinomial(p, 50, True).tolist() == first


def test_multinomial_out_of_a_non_contiguous_result():
    out = opscope.zeros(3, 4, dtype=opscope.int64).t()
    r = opscope.multinomial(opscope.tensor([[0.0, 1.0], [1.0, 0.0], [1.0, 0.0], [0.0, 1.0]]), 3, True, out=out)
    assert r is out and out.tolist() == [[1, 1, 1], [0, 0, 0], [0, 0, 0], [1, 1, 1]]


def test_makemore_sampling_loop():
    """makemore's loop: one draw at a time from a row of softmax probabilities."""
    g = opscope.Generator().manual_seed(2147483647)
    probs = opscope.softmax(opscope.randn(27, 27, generator=g), 1)
    ix, out = 0, []
    for _ in range(500):
        ix = opscope.multinomial(probs[ix], num_samples=1, replacement=True, generator=g).item()
        out.append(ix)
    assert all(0 <= i < 27 for i in out) and len(set(out)) > 20


# --- randperm and exponential_ ----------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["int64", "int32", "int16", "uint8", "float32", "float64", "float16", "bfloat16"])
def test_randperm_is_a_permutation(dtype):
    for n in (0, 1, 2, 17, 200):
        p = opscope.randperm(n, dtype=getattr(opscope, dtype))
        assert p.dtype == getattr(opscope, dtype) and sorted(p.tolist()) == list(range(n))


def test_randperm_is_uniform_and_reproducible():
    g = opscope.Generator().manual_seed(11)
    draws = 6000
    counts = np.zeros(24)
    index = {p: k for k, p in enumerate(__import__("itertools").permutations(range(4)))}
    for _ in range(draws):
        counts[index[tuple(opscope.randperm(4, generator=g).tolist())]] += 1
    ok, stat, bound = _chi2_ok(counts, np.full(24, 1 / 24), draws)
    assert ok, (stat, bound)
    a = opscope.randperm(50, generator=opscope.Generator().manual_seed(4))
    b = opscope.randperm(50, generator=opscope.Generator().manual_seed(4))
    assert opscope.equal(a, b)
    out = opscope.empty(0, dtype=opscope.int64)
    assert opscope.randperm(6, out=out) is out and sorted(out.tolist()) == list(range(6))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_exponential_mean_and_support(dtype):
    x = opscope.empty(40000, dtype=getattr(opscope, dtype)).exponential_(2.0, generator=opscope.Generator().manual_seed(1))
    values = x.numpy().astype(np.float64)
    assert (values >= 0).all()
    assert abs(values.mean() - 0.5) < 6 * 0.5 / math.sqrt(values.size)


# --- the modules' docstring examples run ------------------------------------------------------

@pytest.mark.parametrize("module", ["opscope.backends", "opscope._legacy_tensor", "opscope.special",
                                    "opscope.autograd.variable"])
def test_docstring_examples(module):
    import doctest
    import importlib
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0
