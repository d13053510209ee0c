"""torch.functional's counterparts in opscope/functional.py — einsum and tensordot
(core/ops/composite/linear.cpp, Note [How einsum decomposes]), meshgrid and cartesian_prod
(core/ops/composite/shape.cpp) — and F.normalize:

- recorded torch 1.13 outcomes (data/torch_functional_torch.json, cases in
  torch_functional_cases.py): values, errors (type and message), and the ops each call
  decomposes into as a logging __torch_dispatch__ mode sees them, shape by shape;
- NumPy's einsum on random equations and shapes, contiguous and not, float32 and float64;
- gradcheck and gradgradcheck (float64 finite differences) through the decomposition;
- what a trace shows.

    /usr/bin/python3 -m pytest -q tests/python/test_torch_functional.py
"""
import numpy as np
import pytest

import opscope
from torch_functional_cases import decomposition, env
from opscope.autograd import gradcheck, gradgradcheck
from opscope.utils._python_dispatch import TorchDispatchMode
from reference_cases import case_params, load_reference, mismatch, outcome

REFERENCE = load_reference("torch_functional")

# Each a strict xfail with the reason.
KNOWN_DIFFERENCES = {
    "m.meshgrid(T(3), T(2, 2), indexing='ij')":
        "torch's message prints the tensor as its C++ operator<< does (values, then "
        "[ torch.DoubleTensor{2,2} ]); ours names its dims and shape",
}


@pytest.mark.parametrize("case", case_params(REFERENCE["cases"], KNOWN_DIFFERENCES))
def test_same_as_torch(case):
    expected = {k: v for k, v in case.items() if k not in ("expr", "decomposition")}
    why = mismatch(expected, outcome(case["expr"], opscope, **env(opscope)))
    assert why is None, f"{case['expr']}\n   {why}"
    if "decomposition" in case:
        assert decomposition(case["expr"], opscope, TorchDispatchMode) == case["decomposition"]


def test_the_recorded_cases_cover_each_path():
    """The reference holds mul-only pairs, sums before a product, diagonals, three operands."""
    ops = {call[0] for case in REFERENCE["cases"] for call in case.get("decomposition", [])}
    assert {"aten.bmm.default", "aten.mul.Tensor", "aten.sum.dim_IntList", "aten.diagonal.default",
            "aten.unsqueeze.default", "aten.mm.default"} <= ops
    assert sum("error" in case for case in REFERENCE["cases"]) >= 20


def _random_equation(rng):
    """An equation over 1-3 operands with its operand shapes (labels repeated within and across
    operands, some summed, an explicit or implicit output)."""
    letters = "abcdefgH"
    sizes = {c: int(rng.integers(1, 5)) for c in letters}
    n_ops = int(rng.integers(1, 4))
    terms = ["".join(rng.choice(list(letters), size=int(rng.integers(0, 4)))) for _ in range(n_ops)]
    used = sorted(set("".join(terms)))
    if rng.random() < 0.5:
        out = "".join(rng.permutation([c for c in used if rng.random() < 0.5]))
        equation = ",".join(terms) + "->" + out
    else:
        equation = ",".join(terms)
    return equation, [tuple(sizes[c] for c in t) for t in terms]


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_random_equations_match_numpy(rng, dtype):
    tol = 1e-12 if dtype == "float64" else 2e-5
    worst = 0.0
    for _ in range(300):
        equation, shapes = _random_equation(rng)
        arrays = [rng.standard_normal(s).astype(dtype) for s in shapes]
        tensors = []
        for a in arrays:  # every other operand non-contiguous: a transposed copy, transposed back
            t = opscope.tensor(a)
            if a.ndim >= 2 and rng.random() < 0.5:
                t = opscope.tensor(np.ascontiguousarray(a.T)).permute(*reversed(range(a.ndim)))
                assert not t.is_contiguous() or 1 in a.shape
            tensors.append(t)
        expected = np.einsum(equation, *[a.astype(np.float64) for a in arrays])
        got = opscope.einsum(equation, *tensors)
        assert got.dtype == getattr(opscope, dtype) and tuple(got.shape) == expected.shape, equation
        diff = np.abs(got.double().numpy() - expected)
        scale = 1 + np.abs(expected)
        worst = max(worst, float((diff / scale).max()) if diff.size else 0.0)
        assert (diff <= tol * scale * 10).all(), (equation, shapes, float(diff.max()))
    print(f"einsum {dtype}: largest relative difference from NumPy (float64) {worst:.2e}")


@pytest.mark.parametrize("dims", [0, 1, 2, ([1, 0], [0, 1]), ([2], [0])])
def test_tensordot_matches_numpy(rng, dims):
    a, b = rng.standard_normal((3, 4, 5)), rng.standard_normal((4, 3, 5)) if dims != ([2], [0]) \
        else rng.standard_normal((5, 2))
    if isinstance(dims, int):
        b = rng.standard_normal(a.shape[3 - dims:] + (2,))
    got = opscope.tensordot(opscope.tensor(a), opscope.tensor(b), dims=dims)
    np.testing.assert_allclose(got.numpy(), np.tensordot(a, b, axes=dims), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("equation, shapes", [
    ("ij,jk->ik", [(3, 4), (4, 2)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 2)]),
    ("ii->i", [(3, 3)]),
    ("iij->j", [(3, 3, 2)]),
    ("ij,k->ik", [(2, 3), (4,)]),
    ("...ij,...jk", [(2, 3, 4), (4, 2)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]),
    ("i,i->", [(5,), (5,)]),
    ("ij,kj->ik", [(3, 4), (1, 4)]),
])
def test_gradients(rng, equation, shapes):
    tensors = tuple(opscope.tensor(rng.standard_normal(s), requires_grad=True) for s in shapes)
    assert gradcheck(lambda *t: opscope.einsum(equation, *t), tensors)
    assert gradgradcheck(lambda *t: opscope.einsum(equation, *t), tensors)


def test_tensordot_gradients(rng):
    a = opscope.tensor(rng.standard_normal((3, 4, 5)), requires_grad=True)
    b = opscope.tensor(rng.standard_normal((5, 1, 2)), requires_grad=True)
    assert gradcheck(lambda x, y: opscope.tensordot(x, y, dims=([2, 1], [0, 1])), (a, b))
    assert gradcheck(lambda x, y: opscope.tensordot(x, y, dims=1), (a, b))


def test_a_trace_shows_the_product_einsum_became():
    q = opscope.randn(2, 3, 4, 5, requires_grad=True)
    k = opscope.randn(2, 3, 6, 5)
    with opscope.trace() as t:
        scores = opscope.einsum("bhqd,bhkd->bhqk", q, k)
    root = t.roots[0]
    assert root.name == "aten::einsum" and scores.shape == (2, 3, 4, 6)
    assert "bmm[AutogradCPU]" in root.path(limit=100) and "bmm[CPU]" in root.path(limit=100)
    nodes = [n.name for op in root.walk() if hasattr(op, "nodes_created") for n in op.nodes_created]
    assert "BmmBackward0" in nodes
    assert scores.grad_fn.name() == "ViewBackward0"


def test_meshgrid_without_indexing_warns_once(recwarn):
    import opscope.functional as functional
    functional._meshgrid_warned = False
    a, b = opscope.arange(3), opscope.arange(2)
    x, y = opscope.meshgrid(a, b)
    opscope.meshgrid(a, b)
    assert [str(w.message) for w in recwarn] == [
        "torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument."]
    assert x.tolist() == [[0, 0], [1, 1], [2, 2]] and y.tolist() == [[0, 1], [0, 1], [0, 1]]
    assert x._base is not None or x.stride() == (1, 0)  # a view of a, not a copy


def test_meshgrid_cartesian_prod_and_normalize_match_numpy(rng):
    a, b, c = (rng.standard_normal(n) for n in (3, 4, 2))
    for indexing in ("ij", "xy"):
        got = opscope.meshgrid(*(opscope.tensor(v) for v in (a, b, c)), indexing=indexing)
        for g, e in zip(got, np.meshgrid(a, b, c, indexing=indexing)):
            np.testing.assert_array_equal(g.numpy(), e)
    got = opscope.cartesian_prod(opscope.tensor(a), opscope.tensor(b), opscope.tensor(c))
    expected = np.array([[x, y, z] for x in a for y in b for z in c])
    np.testing.assert_array_equal(got.numpy(), expected)
    x = rng.standard_normal((3, 5, 4))
    for p, dim in ((2.0, 1), (1.0, -1), (3.0, 0)):
        norm = np.maximum((np.abs(x) ** p).sum(axis=dim, keepdims=True) ** (1 / p), 1e-12)
        np.testing.assert_allclose(
            opscope.nn.functional.normalize(opscope.tensor(x), p=p, dim=dim).numpy(), x / norm,
            rtol=1e-12)
    x = opscope.tensor(x).transpose(0, 2)  # non-contiguous
    np.testing.assert_allclose(opscope.nn.functional.normalize(x).numpy(),
                               x.numpy() / np.linalg.norm(x.numpy(), axis=1, keepdims=True),
                               rtol=1e-12)


def test_grid_and_normalize_gradients(rng):
    a = opscope.tensor(rng.standard_normal(3), requires_grad=True)
    b = opscope.tensor(rng.standard_normal(2), requires_grad=True)
    assert gradcheck(lambda x, y: opscope.meshgrid(x, y, indexing="xy"), (a, b))
    assert gradcheck(lambda x, y: opscope.cartesian_prod(x, y), (a, b))
    x = opscope.tensor(rng.standard_normal((3, 4)), requires_grad=True)
    assert gradcheck(lambda t: opscope.nn.functional.normalize(t, p=3.0, dim=0), (x,))
    assert gradgradcheck(lambda t: opscope.nn.functional.normalize(t), (x,))


def test_diff_take_along_dim_and_pairwise_distance_match_numpy_and_differentiate(rng):
    x = rng.standard_normal((4, 5))
    xt = opscope.tensor(x.T.copy()).t()  # non-contiguous
    for n, dim in [(1, -1), (2, 0), (3, 1)]:
        np.testing.assert_allclose(opscope.diff(xt, n=n, dim=dim).numpy(), np.diff(x, n=n, axis=dim), rtol=1e-12)
    idx = rng.integers(0, 5, (4, 3))
    np.testing.assert_array_equal(opscope.take_along_dim(xt, opscope.tensor(idx), dim=1).numpy(),
                                  np.take_along_axis(x, idx, axis=1))
    y = rng.standard_normal((4, 5))
    np.testing.assert_allclose(opscope.pairwise_distance(opscope.tensor(x), opscope.tensor(y), 3.0).numpy(),
                               (np.abs(x - y + 1e-6) ** 3).sum(axis=1) ** (1 / 3), rtol=1e-12)
    a = opscope.tensor(x, requires_grad=True)
    b = opscope.tensor(y, requires_grad=True)
    assert gradcheck(lambda t: opscope.diff(t, n=2, dim=0, prepend=t[:1] * 2), (a,))
    assert gradcheck(lambda t: opscope.take_along_dim(t, opscope.tensor(idx), dim=1), (a,))
    assert gradcheck(lambda s, t: opscope.nn.functional.pairwise_distance(s, t, 1.5), (a, b))


def test_subclass_operands_reach_their_override():
    seen = []

    class Logged(opscope.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            seen.append(func.__name__)
            return super().__torch_function__(func, types, args, kwargs)

    x = opscope.ones(2, 3).as_subclass(Logged)
    out = opscope.einsum("ij->j", x)
    assert seen[0] == "einsum" and type(out) is Logged and out.tolist() == [2.0, 2.0, 2.0]
    seen.clear()
    assert type(opscope.tensordot(x, opscope.ones(3, 2), dims=1)) is Logged
    assert seen[0] == "tensordot"
