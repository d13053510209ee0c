"""The cases of torch.functional's counterparts (opscope/functional.py: einsum, tensordot,
meshgrid, cartesian_prod), F.normalize, the samplers normal / bernoulli (and the in-place fills'
nodes), the dtype functions promote_types / can_cast / result_type, diff, take_along_dim and
pairwise_distance, whose outcomes and
decompositions
make_torch_reference_torch_functional.py records under PyTorch 1.13 and test_torch_functional.py
replays under opscope.

Every case is a line of Python in which ``m`` is the tensor module, ``F`` its nn.functional and
``T(*shape)`` a float64 tensor of that shape with deterministic values (no random stream:
torch's and ours differ).
"""

# (equation, operand shapes): matrix products, batches, broadcasting dims of size 1, traces and
# diagonals, sums, outer products, ellipses in every position, implicit outputs, upper-case
# labels, three operands (summed as soon as one operand alone holds a label), spaces.
EQUATIONS = [
    ("ij,jk->ik", [(4, 5), (5, 3)]),
    ("ij,jk", [(4, 5), (5, 3)]),
    ("ij,kj->ik", [(4, 5), (3, 5)]),
    ("ij,kj->ik", [(4, 5), (1, 5)]),
    ("bij,bjk->bik", [(2, 4, 5), (2, 5, 3)]),
    ("bij,bjk->bik", [(1, 4, 5), (2, 5, 3)]),
    ("bhqd,bhkd->bhqk", [(2, 3, 4, 5), (2, 3, 6, 5)]),
    ("bhqk,bhkd->bhqd", [(2, 3, 4, 6), (2, 3, 6, 5)]),
    ("ii->i", [(3, 3)]),
    ("ii", [(3, 3)]),
    ("iij->ij", [(3, 3, 2)]),
    ("iji->j", [(3, 2, 3)]),
    ("ij->", [(4, 5)]),
    ("ij->j", [(4, 5)]),
    ("ij->ji", [(4, 5)]),
    ("ij", [(4, 5)]),
    ("ji", [(4, 5)]),
    ("i,j->ij", [(5,), (4,)]),
    ("i,i->", [(5,), (5,)]),
    ("i,i", [(5,), (5,)]),
    ("i,i->i", [(5,), (5,)]),
    ("ij,ij->i", [(4, 5), (4, 5)]),
    ("ij,ij->ij", [(4, 5), (4, 5)]),
    ("ij,ij", [(4, 5), (4, 5)]),
    ("ij,j->i", [(4, 5), (5,)]),
    ("ij,j", [(4, 5), (5,)]),
    ("ij,k->i", [(4, 5), (3,)]),
    ("ij,k->ik", [(4, 5), (3,)]),
    ("...ij,...jk->...ik", [(2, 4, 5), (2, 5, 3)]),
    ("...ij,...jk", [(2, 4, 5), (5, 3)]),
    ("...ij,...jk", [(2, 1, 4, 5), (3, 5, 2)]),
    ("i...->...", [(3, 4, 5)]),
    ("...i->i...", [(3, 4, 5)]),
    ("...,...->...", [(2, 3), (3,)]),
    ("a...b,b...c->a...c", [(2, 3, 4), (4, 3, 5)]),
    ("...ij->ij", [(2, 3, 4, 5)]),
    ("Aa,ab->Ab", [(4, 5), (5, 2)]),
    ("ba,ab", [(5, 4), (4, 5)]),
    ("ij,jk,kl->il", [(4, 5), (5, 3), (3, 2)]),
    ("i,j,k->ijk", [(2,), (3,), (4,)]),
    ("ij,jk,ki->", [(3, 4), (4, 5), (5, 3)]),
    ("bn,anm,bm->ba", [(2, 3), (4, 3, 5), (2, 5)]),
    (" i j , j k -> i k ", [(4, 5), (5, 3)]),
    ("ij,jk->ik", [(0, 5), (5, 3)]),
    ("ij,jk->ik", [(4, 0), (0, 3)]),
    ("i->", [(0,)]),
    ("->", [()]),
    (",->", [(), ()]),
    ("i,->i", [(3,), ()]),
]

EINSUM_CASES = [f"m.einsum({eq!r}, {', '.join(f'T{tuple(s)}' for s in shapes)})"
                for eq, shapes in EQUATIONS]

OTHER_CASES = [
    # the other spellings: operands in one list, the sublist form (with and without output)
    "m.einsum('ij,jk->ik', [T(4, 5), T(5, 3)])",
    "m.einsum(T(4, 5), [0, 1], T(5, 3), [1, 2], [0, 2])",
    "m.einsum(T(4, 5), [0, 1], T(5, 3), [1, 2])",
    "m.einsum(T(2, 4, 5), [Ellipsis, 0, 1], T(2, 5, 3), [Ellipsis, 1, 2], [Ellipsis, 0, 2])",
    "m.einsum(T(4, 5), [0, 52])",
    "m.einsum('ij')",
    "m.einsum(T(3))",
    # dtypes: integers (sum widens to int64), float32, mixed
    "m.einsum('ij->', m.arange(6, dtype=m.int32).reshape(2, 3))",
    "m.einsum('ij,jk', m.arange(6, dtype=m.int32).reshape(2, 3), m.ones(3, 2, dtype=m.int32))",
    "m.einsum('ij,jk', m.ones(2, 3), m.ones(3, 2))",
    "m.einsum('ij,jk', m.ones(2, 3), m.ones(3, 2, dtype=m.float64))",
    # errors, each of torch's messages
    "m.einsum('ij,jk', T(4, 5), T(6, 3))",
    "m.einsum('ij,j->k', T(4, 5), T(5))",
    "m.einsum('iij', T(1, 4, 5))",
    "m.einsum('i.j', T(4, 5))",
    "m.einsum('...i...', T(4, 5))",
    "m.einsum('ij->ii', T(4, 5))",
    "m.einsum('ij->i..', T(4, 5))",
    "m.einsum('...ij->......', T(4, 5))",
    "m.einsum('ijk', T(4, 5))",
    "m.einsum('...ijk', T(4, 5))",
    "m.einsum('ij,jk', T(4, 5))",
    "m.einsum('ij', T(4, 5), T(4, 5))",
    "m.einsum('i1', T(4, 5))",
    "m.einsum('ij->i1', T(4, 5))",
    "m.einsum('...ij,...->...', T(2, 4, 5), T(3))",
    # tensordot: dims as an int, two lists, a tensor; out=; its errors
    "m.tensordot(T(3, 4, 5), T(4, 5, 2))",
    "m.tensordot(T(3, 4, 5), T(5, 2), dims=1)",
    "m.tensordot(T(3, 4), T(5, 2), dims=0)",
    "m.tensordot(T(3, 4, 5), T(4, 3, 2), dims=([1, 0], [0, 1]))",
    "m.tensordot(T(3, 4, 5), T(5, 1, 2), dims=([2, 1], [0, 1]))",
    "m.tensordot(T(3, 4, 5), T(4, 5, 2), dims=[[-2, -1], [0, 1]])",
    "m.tensordot(T(3, 4, 5), T(4, 5, 2), dims=m.tensor(2))",
    "m.tensordot(T(3, 4, 5), T(4, 5, 2), dims=m.tensor([[1, 2], [0, 1]]))",
    "m.tensordot(T(3, 4, 5), T(4, 5, 2), out=m.empty(7, dtype=m.float64))",
    "m.tensordot(T(3, 4, 5), T(4, 5, 2), out=m.empty(0))",
    "m.tensordot(T(3, 4, 5), T(4, 5, 2), dims=-1)",
    "m.tensordot(T(3, 4, 5), T(4, 5, 2), dims=([0], [0]))",
    "m.tensordot(T(3, 4, 5), T(4, 5, 2), dims=([0, 1], [0]))",
    "m.tensordot(T(3, 4, 5), T(4, 5, 2), dims=([5], [0]))",
    "m.tensordot(T(3, 4, 5), T(4, 5, 2), dims=1.5)",
    "m.tensordot(T(3, 4, 5), T(4, 5, 2).float(), dims=2)",
]

GRID_CASES = [
    "m.meshgrid(T(3), T(2), indexing='ij')",
    "m.meshgrid(T(3), T(2), indexing='xy')",
    "m.meshgrid([T(3), T(2), T(4)], indexing='xy')",
    "m.meshgrid((T(3), T(2)), indexing='ij')",
    "m.meshgrid(T(3), T(), indexing='ij')",
    "m.meshgrid(T(3), indexing='xy')",
    "m.meshgrid(T(0), T(2), indexing='ij')",
    "m.meshgrid(T(3), T(2))",
    "m.meshgrid(indexing='ij')",
    "m.meshgrid(T(3), T(2).float(), indexing='ij')",
    "m.meshgrid(T(3), T(2), indexing='foo')",
    "m.meshgrid(T(3), T(2, 2), indexing='ij')",
    "m.cartesian_prod(T(3), T(2))",
    "m.cartesian_prod(T(2), T(2), T(3))",
    "m.cartesian_prod(T(3))",
    "m.cartesian_prod(T(2, 2))",
    "F.normalize(T(3, 4))",
    "F.normalize(T(3, 4), p=1, dim=0)",
    "F.normalize(T(2, 3, 4), dim=-1)",
    "F.normalize(T(3, 4) * 0)",
    "F.normalize(T(3, 4), p=float('inf'))",
    "F.normalize(T(3, 4), out=m.empty(0, dtype=m.float64))",
    "F.normalize(T(4))",
    "F.normalize(T(4), dim=0)",
]

# Samples as new tensors and the dtype functions: what does not depend on the draws (shapes,
# dtypes, nodes, zero gradients, errors; the generators' streams differ).
RANDOM_CASES = [
    "m.normal(T(3), 2.0).shape",
    "m.normal(0.5, T(2, 3).abs()).shape",
    "m.normal(T(2, 1), T(3).abs()).shape",
    "m.normal(0, 1, size=(2, 3)).dtype",
    "m.normal(0., 1., (2,), dtype=m.float64).dtype",
    "m.normal(T(3).float(), 1.0).dtype",
    "m.normal(T(3).requires_grad_(), 2.0).grad_fn.name()",
    "m.normal(0.5, T(3).abs().requires_grad_()).grad_fn.name()",
    "m.normal(T(3).requires_grad_(), T(3).abs()).grad_fn.name()",
    "m.autograd.grad(m.normal(T(3).requires_grad_(), 1.0).sum(), [T(3)], allow_unused=True)",
    "(lambda x: (m.normal(x, T(3).abs()).sum().backward(), x.grad)[1])(T(3).requires_grad_())",
    "m.normal(T(3), -1.0)",
    "m.normal(m.zeros(3), m.full((3,), -1.))",
    "m.normal(0, 1, (2,), dtype=m.int64)",
    "m.normal(m.zeros(2), m.ones(3))",
    "m.normal(m.zeros(3, dtype=m.int64), 1.0)",
    "m.bernoulli(m.zeros(2, 3)).tolist()",
    "m.bernoulli(m.ones(2, 3, dtype=m.float64))",
    "m.bernoulli(m.ones(3), 0.0)",
    "m.bernoulli(m.ones(3, dtype=m.int32), 1.0)",
    "m.ones(2, 2).bernoulli()",
    "m.bernoulli(m.full((3,), 0.5).requires_grad_()).grad_fn.name()",
    "m.bernoulli(m.full((3,), 1.5))",
    "m.bernoulli(m.ones(3), 1.5)",
    "m.bernoulli(m.ones(3, dtype=m.int64))",
    "m.zeros(2, 3).bernoulli_(m.ones(3)).tolist()",
    "m.zeros(2, 3, dtype=m.int64).bernoulli_(m.zeros(1, 3)).tolist()",
    "[getattr(T(3).requires_grad_().clone(), f)().grad_fn.name() for f in "
    "('normal_', 'uniform_', 'exponential_', 'random_')]",
    "T(3).requires_grad_().clone().random_(5).grad_fn.name()",
    "T(3).requires_grad_().clone().random_(1, 5).grad_fn.name()",
    "T(3).requires_grad_().clone().bernoulli_(0.3).grad_fn.name()",
    "T(3).requires_grad_().clone().bernoulli_(m.full((3,), 0.3)).grad_fn.name()",
    "(lambda x: (x.clone().normal_().sum().backward(), x.grad)[1])(T(3).requires_grad_())",
    "(lambda x: (x.clone().uniform_().sum().backward(), x.grad)[1])(T(3).requires_grad_())",
    "m.promote_types(m.int8, m.uint8)",
    "m.promote_types(m.float16, m.bfloat16)",
    "m.promote_types(m.bool, m.int32)",
    "m.promote_types(m.float32, 1)",
    "m.can_cast(m.float32, m.int32)",
    "m.can_cast(m.int32, m.float16)",
    "m.can_cast(m.int32, m.bool)",
    "m.can_cast(1, m.int32)",
    "m.result_type(m.ones(2, dtype=m.int32), 2.5)",
    "m.result_type(2, 3.0)",
    "m.result_type(True, 2)",
    "m.result_type(m.tensor(1.0, dtype=m.float64), m.ones(2, dtype=m.float16))",
    "m.result_type(m.ones(2, dtype=m.uint8), m.ones(2, dtype=m.int8))",
    "m.result_type(m.ones(2, dtype=m.int64), m.tensor(1.5))",
]

# diff, take_along_dim, pairwise_distance and their modules.
MORE_CASES = [
    "m.diff(T(5))", "m.diff(T(3, 4), dim=0)", "m.diff(T(3, 4), n=2)", "m.diff(T(3, 4), n=5)",
    "m.diff(T(3, 4), n=0)", "m.diff(T(3, 4), n=2, dim=0, prepend=T(2, 4), append=T(1, 4))",
    "m.diff(T(3, 4), append=T(3, 1))", "m.diff(T(2, 3) > 0)", "m.diff(m.arange(6).reshape(2, 3))",
    "T(2, 3).diff()", "m.diff(T(0))", "m.diff(T(3, 4), dim=-2, prepend=T(1, 4))",
    "m.diff(T())", "m.diff(T(3), n=-1)", "m.diff(T(3, 4), prepend=T(4))",
    "m.diff(T(3, 4), dim=0, prepend=T(2, 5))", "m.diff(T(3), dim=2)",
    "m.take_along_dim(T(3, 4), m.tensor([[0], [1], [3]]), dim=1)",
    "m.take_along_dim(T(3, 4), m.tensor([[2, 0, 1, 1]]), dim=0)",
    "m.take_along_dim(T(3, 4), m.tensor([[0, 1]]), dim=-1)",
    "m.take_along_dim(T(3, 4), m.tensor([0, 5, 11]))",
    "T(2, 3).take_along_dim(m.tensor([[1], [0]]), 1)",
    "m.take_along_dim(T(3, 4), m.tensor([0, 1]), dim=1)",
    "m.take_along_dim(T(3, 4), m.tensor([[0]], dtype=m.int32), dim=1)",
    "m.take_along_dim(T(3, 4), m.tensor([[0], [1], [3]]), dim=2)",
    "m.take_along_dim(T(3, 4), m.tensor([[4], [1], [3]]), dim=1)",
    "F.pairwise_distance(T(3, 4), T(3, 4) * 2)",
    "F.pairwise_distance(T(3, 4), T(4), p=1.0, keepdim=True)",
    "F.pairwise_distance(T(4), T(4) + 1, eps=0.0)",
    "m.pairwise_distance(T(2, 3, 4), T(3, 4), p=3.0)",
    "m.nn.PairwiseDistance(p=1.5)(T(3, 4), T(3, 4).cos())",
    "m.nn.CosineSimilarity(dim=0)(T(3, 4), T(3, 4).cos())",
    "repr(m.nn.PairwiseDistance(p=1, keepdim=True))", "repr(m.nn.CosineSimilarity(dim=0, eps=1e-3))",
    "F.pairwise_distance(T(3, 4), T(2, 4))",
]

CASES = EINSUM_CASES + OTHER_CASES + GRID_CASES + RANDOM_CASES + MORE_CASES
LOGGED = ("einsum", "tensordot", "meshgrid", "cartesian_prod", "normalize", "normal", "bernoulli",
          "diff", "take_along_dim", "pairwise_distance")


def decomposition(expr, m, mode_base):
    """[(str(func), first tensor argument's shape)] of the ops a logging __torch_dispatch__ mode
    (`mode_base`: m.utils._python_dispatch.TorchDispatchMode) sees while `expr` calls one of
    LOGGED: the ops it decomposes into, below autograd (a CompositeImplicitAutograd child such
    as reshape shows as what it became, _reshape_alias or clone + _unsafe_view)."""
    class Log(mode_base):
        def __init__(self):
            super().__init__()
            self.calls = []

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            first = next((a for a in args if isinstance(a, m.Tensor)), None)
            self.calls.append([str(func), list(first.shape) if first is not None else None])
            return func(*args, **(kwargs or {}))

    log = Log()

    def logged(fn):
        def call(*args, **kwargs):
            with log:
                return fn(*args, **kwargs)
        return call

    class Logged:  # m (or F), with the LOGGED functions run under the mode
        def __init__(self, module):
            self._module = module

        def __getattr__(self, name):
            value = getattr(self._module, name)
            return logged(value) if name in LOGGED else value

    eval(expr, {**env(m), "m": Logged(m), "F": Logged(m.nn.functional)})  # noqa: S307
    return log.calls


def env(m):
    """The names a case may use besides ``m``: F, and T(*shape), deterministic float64 values."""
    def T(*shape):
        n = 1
        for s in shape:
            n *= s
        return (m.arange(n, dtype=m.float64) * 0.37 + 0.5).sin().reshape(shape)
    return {"T": T, "F": m.nn.functional}
