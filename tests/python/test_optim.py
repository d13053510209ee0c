"""opscope.optim against torch 1.13 (tests/python/data/optim_torch.json, recorded by
make_torch_reference_optim.py): every optimizer case on every path — tensor by tensor
("single"), the _foreach_* ops ("foreach"), the fused kernels where the optimizer has them, and
the default — three steps (RAdam's seven; LBFGS's with a closure), the state_dict part-way in
torch's structure, a torch checkpoint loaded and stepped on, a group whose parameters are at
different steps, old states' scalars, reprs and error messages; then the foreach / fused ops
themselves against NumPy (strided and mixed layouts, version counters, errors).

    PYTHONPATH=core/python /usr/bin/python3 -m pytest -q tests/python/test_optim.py
"""
import json

import numpy as np
import pytest

import opscope
import opscope.optim.optimizer
from optim_cases import (CASES, CLOSURE, FLOAT64_ONLY, OUT, REPRS, UNEVEN, advance, errors,
                         packed, params_for, repr_of, steps_of, uneven_steps)

with open(OUT) as f:
    REF = json.load(f)

FUSED = {"SGD", "Adam", "AdamW", "RMSprop"}

# Where torch 1.13's foreach=True computes other numbers than its default for-loop (nadam.py's
# and radam.py's Notes), foreach=True asks for those numbers: these optimizers' foreach ops run
# with the for-loop's numbers under the default (foreach=None), and foreach=True has cases of its
# own (recorded with foreach=True).
FOREACH_NUMBERS_DIFFER = {"NAdam", "RAdam"}


def paths(cls_name, options=()):
    if cls_name in CLOSURE:  # LBFGS: one flat vector, no foreach
        return {"default": {}}
    if "foreach" in options:  # the case chooses: torch 1.13's foreach=True numbers
        return {"given": {}}
    out = {"single": dict(foreach=False), "foreach": dict(foreach=True), "default": {}}
    if cls_name in FOREACH_NUMBERS_DIFFER:
        del out["foreach"]
    if cls_name == "RMSprop":  # no fused= (torch 1.13's signature): fused is its default
        out["fused"] = {}
    elif cls_name in FUSED:
        out["fused"] = dict(fused=True)
        out["single"] = dict(foreach=False, fused=False)
    return out


def values(t):
    return np.asarray(t.detach().tolist(), dtype=np.float64)


def tols(dtype):
    return dict(rtol=1e-10, atol=1e-12) if dtype == opscope.float64 else dict(rtol=2e-5, atol=2e-6)


PARAMS = [(name, cls, opts, dtype, path)
          for name, cls, opts in CASES
          for dtype in (opscope.float64, opscope.float32)
          if dtype == opscope.float64 or name not in FLOAT64_ONLY
          for path in paths(cls, opts)]


def case_key(name, dtype):
    return name if dtype == opscope.float64 else name + "_float32"


def state_tols(dtype, cls_name):
    """tols, but 1e-4 for LBFGS's float32 state: its history holds differences of gradients
    (y = g_new - g_old) and what is computed from them, where float32's rounding of the loss's
    sums, which differs with their order, shows at ~4e-5 of the vector's largest element."""
    if cls_name in CLOSURE and dtype == opscope.float32:
        return dict(rtol=1e-4, atol=1e-4)
    return tols(dtype)


def assert_state_close(got, want, tol, where):
    """A packed state value against torch's: tensors by dtype, shape and values (within `tol`),
    lists entry by entry (LBFGS's history), floats within `tol`, anything else equal and of one
    type (a 'step' kept as an int stays an int)."""
    if isinstance(want, dict):  # a tensor: dtype, shape, values
        assert isinstance(got, dict), where
        assert (got["dtype"], got["shape"]) == (want["dtype"], want["shape"]), where
        np.testing.assert_allclose(got["tensor"], want["tensor"], **tol, err_msg=where)
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), where
        for i, (g, w) in enumerate(zip(got, want)):
            assert_state_close(g, w, tol, f"{where}[{i}]")
    elif isinstance(want, float):
        assert type(got) is float, where
        np.testing.assert_allclose(got, want, **tol, err_msg=where)
    else:
        assert got == want and type(got) is type(want), where


@pytest.mark.parametrize("name,cls_name,options,dtype,path", PARAMS,
                         ids=[f"{p[0]}-{str(p[3]).split('.')[-1]}-{p[4]}" for p in PARAMS])
def test_steps_as_torch(name, cls_name, options, dtype, path):
    ref = REF["cases"][case_key(name, dtype)]
    before, after = steps_of(cls_name)
    ps = params_for(opscope, cls_name, dtype)
    opt = getattr(opscope.optim, cls_name)(ps, **options, **paths(cls_name, options)[path])
    advance(opscope, cls_name, opt, ps, before)
    for p, want in zip(ps, ref["checkpoint"]["params"]):
        np.testing.assert_allclose(values(p), want, **tols(dtype))
    got_sd = packed(opt.state_dict())
    want_sd = ref["checkpoint"]["state_dict"]
    assert got_sd["state"].keys() == want_sd["state"].keys()
    for k, want_state in want_sd["state"].items():
        got_state = got_sd["state"][k]
        assert got_state.keys() == want_state.keys()
        for key, want_v in want_state.items():
            assert_state_close(got_state[key], want_v, state_tols(dtype, cls_name), key)
    skip = {"foreach", "fused"}  # the path's options, which the opscope side sets
    for g, w in zip(got_sd["param_groups"], want_sd["param_groups"]):
        assert {k: v for k, v in g.items() if k not in skip} == {
            k: v for k, v in w.items() if k not in skip}
    advance(opscope, cls_name, opt, ps, after)
    for p, want in zip(ps, ref["after3"]):
        np.testing.assert_allclose(values(p), want, **tols(dtype))


def unpack(v, dtype=None):
    if isinstance(v, dict) and "tensor" in v:
        return opscope.tensor(v["tensor"], dtype=getattr(opscope, v["dtype"]))
    if isinstance(v, list):
        return [unpack(x) for x in v]
    return v


@pytest.mark.parametrize("name,cls_name,options", CASES, ids=[c[0] for c in CASES])
def test_torch_checkpoint_loads_and_steps_on(name, cls_name, options):
    """torch's state_dict at the checkpoint of a float64 run, loaded into float32 parameters
    (state tensors cast to float32, LBFGS's lists too; 'step' kept): the steps after it match
    torch's. FLOAT64_ONLY cases (LBFGS to convergence) load into float64 parameters."""
    ref = REF["cases"][name]
    dtype = opscope.float64 if name in FLOAT64_ONLY else opscope.float32
    sd = ref["checkpoint"]["state_dict"]
    state = {int(k): {kk: unpack(vv) for kk, vv in s.items()} for k, s in sd["state"].items()}
    pairs = {"betas", "etas", "step_sizes"}  # tuples in torch's groups, lists in JSON
    groups = [{k: (tuple(v) if k in pairs else v) for k, v in g.items()}
              for g in sd["param_groups"]]
    ps = params_for(opscope, cls_name, dtype)
    with opscope.no_grad():
        for p, v in zip(ps, ref["checkpoint"]["params"]):
            p.copy_(opscope.tensor(v))
    opt = getattr(opscope.optim, cls_name)(ps, **options)
    opt.load_state_dict({"state": state, "param_groups": groups})
    for i, p in enumerate(ps):
        for key, v in opt.state[p].items():
            for t in (v if isinstance(v, list) else [v]):
                if isinstance(t, opscope.Tensor):
                    assert t.dtype == (dtype if key != "step" else opscope.float32), key
            if isinstance(v, opscope.Tensor):
                assert v is not state[i][key]  # a copy
    advance(opscope, cls_name, opt, ps, steps_of(cls_name)[1])
    for p, want in zip(ps, ref["after3"]):
        np.testing.assert_allclose(values(p), want, rtol=2e-5, atol=2e-6)


@pytest.mark.parametrize("foreach", [None, False, True])
@pytest.mark.parametrize("cls_name,options", UNEVEN, ids=[u[0] for u in UNEVEN])
def test_parameters_at_different_steps(cls_name, options, foreach):
    """A group whose parameters are at different steps (the foreach paths' per-parameter loops):
    torch 1.13's numbers for the same foreach argument."""
    want = REF["uneven"][cls_name]["foreach" if foreach else "default"]
    got = uneven_steps(opscope, cls_name, dict(options, foreach=foreach))
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", ["nadam_foreach", "radam_foreach"])
def test_foreach_numbers_when_the_loop_runs(name, monkeypatch):
    """foreach=True on parameters the foreach ops do not take runs tensor by tensor, still with
    torch 1.13's foreach=True numbers (the path never changes the formula): the _foreach_* ops
    are refused here by making _kernel_groups refuse everything."""
    monkeypatch.setattr(opscope.optim.optimizer, "_kernel_groups", lambda params, grads:
                        (False, None))
    (cls_name, options), = [(c, o) for n, c, o in CASES if n == name]
    ref = REF["cases"][name]
    ps = params_for(opscope, cls_name, opscope.float64)
    opt = getattr(opscope.optim, cls_name)(ps, **options)
    advance(opscope, cls_name, opt, ps, sum(steps_of(cls_name)))
    for p, want in zip(ps, ref["after3"]):
        np.testing.assert_allclose(values(p), want, **tols(opscope.float64))


# (optimizer, a state saved by a torch before 1.12 — scalars as Python numbers —, the parameter
# after one step from it: torch 1.13's, for a float64 parameter of ones with gradient ones)
OLD_STATES = [
    ("Adamax", dict(step=2, exp_avg=[0.0, 0.0], exp_inf=[0.0, 0.0]), 0.9992619926273063),
    ("NAdam", dict(step=2, mu_product=0.5, exp_avg=[0.0, 0.0], exp_avg_sq=[0.0, 0.0]),
     0.9973801059780854),
    ("ASGD", dict(step=3, eta=0.01, mu=1, ax=[0.0, 0.0]), 0.9899990002235398),
]


@pytest.mark.parametrize("cls_name,old,want", OLD_STATES, ids=[o[0] for o in OLD_STATES])
def test_old_state_scalars_load_as_tensors(cls_name, old, want):
    """load_state_dict of a state whose step (mu_product, eta, mu) are Python numbers makes them
    0-d float32 tensors, as torch 1.13's __setstate__, and steps on as torch 1.13 does."""
    p = opscope.nn.Parameter(opscope.ones(2, dtype=opscope.float64))
    opt = getattr(opscope.optim, cls_name)([p])
    state = {k: (opscope.tensor(v, dtype=opscope.float64) if isinstance(v, list) else v)
             for k, v in old.items()}
    opt.load_state_dict({"state": {0: state}, "param_groups": opt.state_dict()["param_groups"]})
    for key, v in old.items():
        got = opt.state[p][key]
        assert isinstance(got, opscope.Tensor), key
        if not isinstance(v, list):
            assert got.dtype == opscope.float32 and got.dim() == 0, key
            assert got.item() == np.float32(v), key
    p.grad = opscope.ones(2, dtype=opscope.float64)
    opt.step()
    np.testing.assert_allclose(values(p), [want, want], rtol=1e-14)


def test_reprs_as_torch():
    assert sorted(REF["reprs"]) == sorted(key for key, _, _ in REPRS)
    for key, cls_name, options in REPRS:
        want = REF["reprs"][key]
        if key == "Adam":  # fused=None (torch 2.x's default) where torch 1.13 says False
            want = want.replace("fused: False", "fused: None")
        assert repr_of(opscope, cls_name, options) == want, key


@pytest.mark.parametrize("module", ["opscope.optim", "opscope.optim.lbfgs"])
def test_docstring_examples_run(module):
    import doctest
    import importlib
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0


def test_errors_as_torch():
    assert errors(opscope) == REF["errors"]


def test_fused_and_foreach_together_refused():
    p = opscope.nn.Parameter(opscope.ones(2))
    (p * p).sum().backward()
    opt = opscope.optim.Adam([p], foreach=True, fused=True)
    with pytest.raises(RuntimeError, match="`fused` and `foreach` cannot be `True` together."):
        opt.step()
    h = opscope.nn.Parameter(opscope.ones(2, dtype=opscope.float16))
    h.grad = opscope.ones(2, dtype=opscope.float16)
    with pytest.raises(RuntimeError, match="requires all the params to be floating point"):
        opscope.optim.SGD([h], lr=0.1, fused=True).step()


def test_zero_grad():
    p = opscope.nn.Parameter(opscope.ones(2, 3))
    opt = opscope.optim.SGD([p], lr=0.1)
    (p * p).sum().backward()
    opt.zero_grad()  # torch 2.x's default, set_to_none=True
    assert p.grad is None
    (p * p).sum().backward()
    g = p.grad
    opt.zero_grad(set_to_none=False)  # torch 1.13's default: zeros, in place
    assert p.grad is g and g.tolist() == [[0.0] * 3] * 2
    opt.zero_grad(set_to_none=True)
    assert p.grad is None


def test_add_param_group_and_state_indices():
    a, b, c = (opscope.nn.Parameter(opscope.ones(n)) for n in (1, 2, 3))
    opt = opscope.optim.SGD([a, b], lr=0.1, momentum=0.9)
    opt.add_param_group({"params": c, "lr": 0.5})
    assert [g["lr"] for g in opt.param_groups] == [0.1, 0.5]
    assert opt.param_groups[1]["momentum"] == 0.9
    for p in (a, b, c):
        (p * p).sum().backward()
    opt.step()
    sd = opt.state_dict()
    assert [g["params"] for g in sd["param_groups"]] == [[0, 1], [2]]
    assert sorted(sd["state"]) == [0, 1, 2]
    assert sd["state"][2]["momentum_buffer"].tolist() == [2.0] * 3
    with pytest.raises(ValueError, match="some parameters appear in more than one"):
        opt.add_param_group({"params": [a]})


# --- the foreach and fused ops --------------------------------------------------------------

def np_of(t):
    return np.asarray(t.tolist(), dtype=np.float64)


def lists(rng, dtype=opscope.float32, transposed=False):
    """Three lists of tensors of sizes (4, 5), (7,), (2, 3, 2); the first list transposed or
    sliced when asked (layouts unlike the others')."""
    def make(shape):
        return opscope.tensor(rng.randn(*shape), dtype=dtype)
    shapes = [(4, 5), (7,), (2, 3, 2)]
    xs = [make(s) for s in shapes]
    if transposed:
        xs[0] = make((5, 4)).t()
        xs[2] = make((2, 3, 4))[:, :, ::2]
    return xs, [make(s) for s in shapes], [make(s).abs() + 0.5 for s in shapes]


FOREACH = [
    ("_foreach_add_", lambda x, y, z: x + 2.5 * y, lambda X, Y, Z: opscope._foreach_add_(X, Y, alpha=2.5)),
    ("_foreach_add_.Scalar", lambda x, y, z: x + 1.5, lambda X, Y, Z: opscope._foreach_add_(X, 1.5)),
    ("_foreach_sub_", lambda x, y, z: x - 0.5 * y, lambda X, Y, Z: opscope._foreach_sub_(X, Y, alpha=0.5)),
    ("_foreach_mul_", lambda x, y, z: x * y, lambda X, Y, Z: opscope._foreach_mul_(X, Y)),
    ("_foreach_mul_.Scalar", lambda x, y, z: x * 3, lambda X, Y, Z: opscope._foreach_mul_(X, 3)),
    ("_foreach_div_", lambda x, y, z: x / z, lambda X, Y, Z: opscope._foreach_div_(X, Z)),
    ("_foreach_div_.Scalar", lambda x, y, z: x / 4, lambda X, Y, Z: opscope._foreach_div_(X, 4.0)),
    ("_foreach_maximum_", lambda x, y, z: np.maximum(x, y), lambda X, Y, Z: opscope._foreach_maximum_(X, Y)),
    ("_foreach_addcmul_", lambda x, y, z: x + 0.3 * y * z, lambda X, Y, Z: opscope._foreach_addcmul_(X, Y, Z, 0.3)),
    ("_foreach_addcdiv_", lambda x, y, z: x - 0.7 * y / z, lambda X, Y, Z: opscope._foreach_addcdiv_(X, Y, Z, -0.7)),
    ("_foreach_lerp_", lambda x, y, z: x + 0.25 * (y - x), lambda X, Y, Z: opscope._foreach_lerp_(X, Y, 0.25)),
    ("_foreach_lerp_.far", lambda x, y, z: x + 0.75 * (y - x), lambda X, Y, Z: opscope._foreach_lerp_(X, Y, 0.75)),
    ("_foreach_sqrt_", lambda x, y, z: np.sqrt(np.abs(x)), lambda X, Y, Z: opscope._foreach_sqrt_([t.abs_() for t in X])),
    ("_foreach_neg_", lambda x, y, z: -x, lambda X, Y, Z: opscope._foreach_neg_(X)),
    ("_foreach_zero_", lambda x, y, z: 0 * x, lambda X, Y, Z: opscope._foreach_zero_(X)),
]


@pytest.mark.parametrize("transposed", [False, True], ids=["dense", "strided"])
@pytest.mark.parametrize("dtype", [opscope.float32, opscope.float64], ids=["f32", "f64"])
@pytest.mark.parametrize("name,ref,op", FOREACH, ids=[f[0] for f in FOREACH])
def test_foreach_inplace_against_numpy(name, ref, op, dtype, transposed):
    rng = np.random.RandomState(1)
    xs, ys, zs = lists(rng, dtype, transposed)
    want = [ref(np_of(x), np_of(y), np_of(z)) for x, y, z in zip(xs, ys, zs)]
    versions = [x._version for x in xs]
    strides = [x.stride() for x in xs]
    op(xs, ys, zs)
    tol = dict(rtol=1e-6, atol=1e-6) if dtype == opscope.float32 else dict(rtol=1e-13, atol=1e-14)
    for x, w, v, s in zip(xs, want, versions, strides):
        np.testing.assert_allclose(np_of(x), w, **tol)
        assert x._version > v and x.stride() == s  # written in place, version bumped


def test_foreach_functional_forms():
    rng = np.random.RandomState(2)
    xs, ys, zs = lists(rng, opscope.float64, transposed=True)
    before = [np_of(x) for x in xs]
    checks = [
        (opscope._foreach_add(xs, ys, alpha=2), [x + 2 * y for x, y in zip(before, map(np_of, ys))]),
        (opscope._foreach_add(xs, 1.0), [x + 1 for x in before]),
        (opscope._foreach_mul(xs, ys), [x * np_of(y) for x, y in zip(before, ys)]),
        (opscope._foreach_div(xs, 2.0), [x / 2 for x in before]),
        (opscope._foreach_addcdiv(xs, ys, zs, 0.5),
         [x + 0.5 * np_of(y) / np_of(z) for x, y, z in zip(before, ys, zs)]),
        (opscope._foreach_sqrt(zs), [np.sqrt(np_of(z)) for z in zs]),
        (opscope._foreach_neg(xs), [-x for x in before]),
        (opscope._foreach_maximum(xs, ys), [np.maximum(x, np_of(y)) for x, y in zip(before, ys)]),
    ]
    for got, want in checks:
        for g, w in zip(got, want):
            np.testing.assert_allclose(np_of(g), w, rtol=1e-13, atol=1e-14)
    for x, b in zip(xs, before):
        assert (np_of(x) == b).all()  # the functional forms leave self alone


def test_foreach_errors():
    a = [opscope.ones(2), opscope.ones(3)]
    with pytest.raises(RuntimeError, match="Tensor lists must have the same number of tensors, "
                                           "got 2 and 1"):
        opscope._foreach_add_(a, [opscope.ones(2)])
    with pytest.raises((RuntimeError, NotImplementedError)):  # no tensor to dispatch on
        opscope._foreach_mul_([], 2.0)
    with pytest.raises(RuntimeError, match="sizes of self"):
        opscope._foreach_add_(a, [opscope.ones(2), opscope.ones(4)])
    with pytest.raises(RuntimeError, match="float32 or float64"):
        opscope._foreach_add_([opscope.ones(2, dtype=opscope.int64)], 1)
    leaf = opscope.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in "
                                           "an in-place operation."):
        opscope._foreach_add_([leaf], 1.0)
    with opscope.no_grad():
        opscope._foreach_add_([leaf], 1.0)
    assert leaf.tolist() == [2.0, 2.0]


def test_fused_sgd_first_step_and_layouts():
    """_fused_sgd_ on a channels-last-like parameter whose gradient is contiguous (layouts
    unlike): the kernel runs on copies and writes back; is_first_step sets the buffer to d."""
    rng = np.random.RandomState(3)
    base = rng.randn(2, 4, 5, 3)
    p = opscope.tensor(base).permute(0, 3, 1, 2)
    g = opscope.tensor(rng.randn(2, 3, 4, 5))
    buf = opscope.empty_like(p)
    want_p = np_of(p) - 0.1 * (np_of(g) + 0.01 * np_of(p))
    opscope._fused_sgd_([p], [g], [buf], weight_decay=0.01, momentum=0.9, lr=0.1, dampening=0.0,
                        nesterov=False, maximize=False, is_first_step=True)
    np.testing.assert_allclose(np_of(p), want_p, rtol=1e-13)
    d = np_of(g) + 0.01 * base.transpose(0, 3, 1, 2)
    np.testing.assert_allclose(np_of(buf), d, rtol=1e-13)
    assert p.stride() == (60, 1, 15, 3)


def test_fused_adam_errors():
    p, g = [opscope.ones(3)], [opscope.ones(3)]
    with pytest.raises(RuntimeError, match="state_steps"):
        opscope._fused_adam_(p, g, [opscope.zeros(3)], [opscope.zeros(3)], [], [], lr=0.1,
                             beta1=0.9, beta2=0.99, weight_decay=0.0, eps=1e-8, amsgrad=False,
                             maximize=False)
    with pytest.raises(RuntimeError, match="grad_scale"):
        opscope._fused_adamw_(p, g, [opscope.zeros(3)], [opscope.zeros(3)], [], [opscope.tensor(1.)],
                              lr=0.1, beta1=0.9, beta2=0.99, weight_decay=0.0, eps=1e-8,
                              amsgrad=False, maximize=False, grad_scale=opscope.tensor(1.))


def test_training_learns_on_every_path():
    """A small regression learns with each optimizer's default (fused / foreach) path: the loss
    falls by 30% within 30 steps."""
    rng = np.random.RandomState(4)
    x = opscope.tensor(rng.randn(32, 6), dtype=opscope.float32)
    y = opscope.tensor(rng.randn(32, 1), dtype=opscope.float32)
    for cls, kw in [("SGD", dict(lr=0.05, momentum=0.9)), ("Adam", dict(lr=0.02)),
                    ("AdamW", dict(lr=0.02)), ("RMSprop", dict(lr=0.01)),
                    ("Adagrad", dict(lr=0.1)), ("Adadelta", dict(lr=5.0)),
                    ("Adamax", dict(lr=0.05)), ("NAdam", dict(lr=0.02)), ("RAdam", dict(lr=0.3)),
                    ("ASGD", dict(lr=0.2)), ("Rprop", dict(lr=0.01))]:
        opscope.manual_seed(0)
        model = opscope.nn.Sequential(opscope.nn.Linear(6, 16), opscope.nn.Tanh(),
                                      opscope.nn.Linear(16, 1))
        opt = getattr(opscope.optim, cls)(model.parameters(), **kw)
        first = None
        for _ in range(30):
            opt.zero_grad()
            loss = ((model(x) - y) ** 2).mean()
            loss.backward()
            opt.step()
            first = loss.item() if first is None else first
        assert loss.item() < 0.7 * first, cls


@pytest.mark.parametrize("line_search_fn", [None, "strong_wolfe"])
def test_lbfgs_fits_a_small_regression(line_search_fn):
    """LBFGS with a closure fits the small regression above (129 parameters, 32 points) in three
    steps: the loss falls below 1e-4 of its start; step() returns the closure's first loss."""
    rng = np.random.RandomState(4)
    x = opscope.tensor(rng.randn(32, 6), dtype=opscope.float32)
    y = opscope.tensor(rng.randn(32, 1), dtype=opscope.float32)
    opscope.manual_seed(0)
    model = opscope.nn.Sequential(opscope.nn.Linear(6, 16), opscope.nn.Tanh(),
                                  opscope.nn.Linear(16, 1))
    opt = opscope.optim.LBFGS(model.parameters(), line_search_fn=line_search_fn)

    def closure():
        opt.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        return loss

    start = ((model(x) - y) ** 2).mean().item()
    first = opt.step(closure).item()
    assert first == start
    for _ in range(2):
        opt.step(closure)
    assert ((model(x) - y) ** 2).mean().item() < 1e-4 * first
    assert opt.state[next(model.parameters())]["n_iter"] > 20


@pytest.mark.parametrize("centered", [False, True])
@pytest.mark.parametrize("momentum", [0.0, 0.5])
def test_fused_rmsprop_with_a_gradient_of_another_layout(centered, momentum):
    """A .grad set by hand with another layout than its parameter's: the fused kernel runs on
    copies and writes back (parameter and state, never a stale copy), as the single path."""
    rng = np.random.RandomState(6)
    start = rng.randn(4, 6)
    grad = opscope.tensor(rng.randn(6, 4)).t()
    p = opscope.nn.Parameter(opscope.tensor(start))
    q = opscope.nn.Parameter(opscope.tensor(start))
    fused = opscope.optim.RMSprop([p], lr=0.01, centered=centered, momentum=momentum)
    single = opscope.optim.RMSprop([q], lr=0.01, centered=centered, momentum=momentum,
                                   foreach=False)
    for _ in range(2):
        p.grad, q.grad = grad, grad.contiguous()
        fused.step()
        single.step()
    np.testing.assert_allclose(values(p), values(q), rtol=1e-13, atol=1e-15)
    for key, v in single.state[q].items():
        if isinstance(v, opscope.Tensor):
            np.testing.assert_allclose(values(fused.state[p][key]), values(v), rtol=1e-13)
