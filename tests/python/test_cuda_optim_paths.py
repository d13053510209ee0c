"""opscope.optim's foreach and fused paths over CUDA parameters (optim/optimizer.py's
_per_device_and_dtype): each (device, dtype) group of parameters is one _fused_* / _foreach_* call
on its own device's kernel, state tensors live on their parameter's device, and one optimizer may
hold CPU and CUDA parameters.

Three parts, each run where it can:
- every build: the grouping on the CPU — parameters of two dtypes in one optimizer end bit for
  bit where each dtype alone does, one kernel call per dtype;
- a CUDA build without a GPU: the same steps over the fake device (tests/cuda/fake_device.cpp:
  kernels do not run, so no values), checked by their trace — which ops ran at which dispatch key
  on which tensors — and where the state landed;
- with a GPU: a few steps of each optimizer on each path on CUDA against the same on the CPU
  (skipped without one, with the reason; OPSCOPE_CUDA_TEST_DEVICE=cpu runs them CPU against CPU).
"""

import numpy as np
import pytest

import opscope
from cuda_compare import DEVICE, assert_same, dev, make, needs_device
from fake_cuda import needs_fake, run
from opscope.optim.optimizer import _device_dtype_groups

# (optimizer, options): every optimizer with a fused kernel, with the options its kernel branches
# on (momentum buffers, amsgrad, centered).
OPTIMIZERS = [
    ("SGD", dict(lr=0.1)),
    ("SGD", dict(lr=0.1, momentum=0.9, weight_decay=0.01, nesterov=True)),
    ("Adam", dict(lr=0.01)),
    ("Adam", dict(lr=0.02, weight_decay=0.1, amsgrad=True, maximize=True)),
    ("AdamW", dict(lr=0.01)),
    ("RMSprop", dict(lr=0.01)),
    ("RMSprop", dict(lr=0.01, alpha=0.9, momentum=0.5, centered=True, weight_decay=0.1)),
]
PATHS = {"default": {}, "foreach": dict(foreach=True), "single": dict(foreach=False)}
CASES = [(cls, opts, path) for cls, opts in OPTIMIZERS for path in PATHS]
IDS = [f"{cls}-{i}-{path}" for i, (cls, opts, path) in enumerate(CASES)]
SHAPES = [(5, 7), (3,), (), (2, 3, 4)]


def make_params(device="cpu", dtypes=(opscope.float32, opscope.float64), seed=0):
    """Parameters of SHAPES (dtypes in turn) on `device` with gradients, the same values for the
    same seed whatever the device."""
    rng = np.random.default_rng(seed)
    params = []
    for i, shape in enumerate(SHAPES):
        dtype = dtypes[i % len(dtypes)]
        p = opscope.nn.Parameter(opscope.tensor(rng.uniform(-1, 1, shape)).to(dtype).to(device))
        params.append(p)
    return params


def set_grads(params, step, positions):
    """Gradients for `step` on each parameter's device: the same values for the same step and
    position in SHAPES, whatever the device."""
    for p, i in zip(params, positions):
        rng = np.random.default_rng((1000 + step) * 100 + i)
        p.grad = opscope.tensor(rng.uniform(-1, 1, tuple(p.shape))).to(p.dtype).to(p.device)


def run_steps(cls, options, params, steps=3, positions=None):
    """An optimizer over `params` (at `positions` in SHAPES: all by default) after `steps`."""
    opt = getattr(opscope.optim, cls)(params, **options)
    for step in range(steps):
        set_grads(params, step, positions or range(len(params)))
        opt.step()
    return opt


def host(t):
    return t.detach().cpu().tolist()


# --- every build: the grouping on the CPU ----------------------------------------------------

def test_groups_by_device_and_dtype():
    f, d = opscope.ones(2), opscope.ones(2, dtype=opscope.float64)
    assert _device_dtype_groups([f, f, f]) is None  # one device and dtype: one call, no copies
    assert _device_dtype_groups([d, f, d, f, f]) == [[0, 2], [1, 3, 4]]  # first seen first


@pytest.mark.parametrize("cls,options,path", CASES, ids=IDS)
def test_two_dtypes_step_as_each_alone(cls, options, path):
    """float32 and float64 parameters in one optimizer (a call per dtype) end bit for bit where
    the same parameters end in an optimizer per dtype (one call each, as before the grouping)."""
    mixed = make_params()
    opt = run_steps(cls, {**options, **PATHS[path]}, mixed)
    alone = make_params()
    opts = [run_steps(cls, {**options, **PATHS[path]}, alone[k::2],
                      positions=range(k, len(alone), 2)) for k in (0, 1)]
    for i, (p, q) in enumerate(zip(mixed, alone)):
        assert host(p) == host(q), i
        want = opts[i % 2].state[q]
        assert opt.state[p].keys() == want.keys()
        for key, v in opt.state[p].items():
            w = want[key]
            assert (host(v) if isinstance(v, opscope.Tensor) else v) == (
                host(w) if isinstance(w, opscope.Tensor) else w), (i, key)


@pytest.mark.parametrize("cls,options", OPTIMIZERS, ids=[o[0] for o in OPTIMIZERS])
def test_one_fused_call_per_dtype(cls, options):
    params = make_params()
    opt = getattr(opscope.optim, cls)(params, **options)
    set_grads(params, 0, range(len(params)))
    with opscope.trace() as t:
        opt.step()
    fused = [op for op in t.roots if op.name.startswith("aten::_fused_")]
    assert [(op.steps[-1].key, op.inputs[0]["value"]) for op in fused] == [
        ("CPU", "[f32[5,7], f32[]]"), ("CPU", "[f64[3], f64[2,3,4]]")]
    uniform = make_params(dtypes=(opscope.float32,))
    opt = getattr(opscope.optim, cls)(uniform, **options)
    set_grads(uniform, 0, range(len(uniform)))
    with opscope.trace() as t:
        opt.step()
    assert len([op for op in t.roots if op.name.startswith("aten::_fused_")]) == 1


def test_zero_grad_zeroes_each_dtype():
    params = make_params()
    opt = opscope.optim.SGD(params, lr=0.1)
    set_grads(params, 0, range(len(params)))
    grads = [p.grad for p in params]
    with opscope.trace() as t:
        opt.zero_grad(set_to_none=False)
    assert [op.name for op in t.roots] == ["aten::_foreach_zero_"] * 2
    assert all(p.grad is g and not g.any().item() for p, g in zip(params, grads))


def test_fused_true_names_the_supported_devices():
    h = opscope.nn.Parameter(opscope.ones(2, dtype=opscope.float16))
    h.grad = opscope.ones(2, dtype=opscope.float16)
    devices = "['cpu', 'cuda']" if opscope.cuda._is_compiled() else "['cpu']"
    with pytest.raises(RuntimeError) as e:
        opscope.optim.Adam([h], fused=True).step()
    assert str(e.value) == ("`fused=True` requires all the params to be floating point Tensors "
                            f"of supported devices: {devices}.")


# --- a CUDA build without a GPU: the fake device ----------------------------------------------

def run_fake(fake, code):
    """`code` in a child over the fake device, after the setup below; its stdout lines."""
    return run(fake, code, timeout=300,
               preamble="import faulthandler; faulthandler.enable()\n" + FAKE_SETUP).splitlines()


# Three parameters: float32 on the GPU, float32 on the CPU, float64 on the GPU.
FAKE_SETUP = """
import opscope as torch
def params():
    ps = [torch.nn.Parameter(torch.ones(3, device="cuda")), torch.nn.Parameter(torch.ones(2)),
          torch.nn.Parameter(torch.ones(4, dtype=torch.float64, device="cuda"))]
    for p in ps:
        p.grad = torch.ones_like(p)
    return ps
def calls(opt):
    '''The optimizer's second step as (op, key, first argument) lines.'''
    opt.step()
    with torch.trace() as t:
        opt.step()
    return [f"{op.name} {op.steps[-1].key} {op.inputs[0].get('value', '')}" for op in t.roots]
def where(opt, ps):
    return [{k: (v.device.type, tuple(v.shape), str(v.dtype)) for k, v in opt.state[p].items()
             if isinstance(v, torch.Tensor)} for p in ps]
"""

# Per optimizer and path, the calls of a step over FAKE_SETUP's parameters: one launch per device
# and dtype, at that device's key. CPU step counts stay on the CPU (torch 1.13's Adam default).
FUSED_CALLS = {
    ("SGD", "dict(lr=0.1, momentum=0.9)"): [
        "aten::_fused_sgd_ CUDA [f32[3]]", "aten::_fused_sgd_ CPU [f32[2]]",
        "aten::_fused_sgd_ CUDA [f64[4]]"],
    ("Adam", "dict(amsgrad=True)"): [
        "aten::_foreach_add_.Scalar CPU [f32[]]", "aten::_fused_adam_ CUDA [f32[3]]",
        "aten::_foreach_add_.Scalar CPU [f32[]]", "aten::_fused_adam_ CPU [f32[2]]",
        "aten::_foreach_add_.Scalar CPU [f32[]]", "aten::_fused_adam_ CUDA [f64[4]]"],
    ("AdamW", "dict(fused=True)"): [  # fused=True: step counts on the GPU, (1,), as torch 1.13
        "aten::_foreach_add_.Scalar CUDA [f32[1]]", "aten::_fused_adamw_ CUDA [f32[3]]",
        "aten::_foreach_add_.Scalar CPU [f32[]]", "aten::_fused_adamw_ CPU [f32[2]]",
        "aten::_foreach_add_.Scalar CUDA [f32[1]]", "aten::_fused_adamw_ CUDA [f64[4]]"],
    ("RMSprop", "dict(momentum=0.5, centered=True)"): [
        "aten::_fused_rmsprop_ CUDA [f32[3]]", "aten::_fused_rmsprop_ CPU [f32[2]]",
        "aten::_fused_rmsprop_ CUDA [f64[4]]"],
    ("SGD", "dict(lr=0.1, momentum=0.9, foreach=True)"): [
        "aten::_foreach_mul_.Scalar CUDA [f32[3]]", "aten::_foreach_add_.List CUDA [f32[3]]",
        "aten::_foreach_add_.List CUDA [f32[3]]",
        "aten::_foreach_mul_.Scalar CPU [f32[2]]", "aten::_foreach_add_.List CPU [f32[2]]",
        "aten::_foreach_add_.List CPU [f32[2]]",
        "aten::_foreach_mul_.Scalar CUDA [f64[4]]", "aten::_foreach_add_.List CUDA [f64[4]]",
        "aten::_foreach_add_.List CUDA [f64[4]]"],
}


@needs_fake
def test_each_device_gets_its_own_launch(fake):
    code = "".join(f"print(repr(calls(torch.optim.{cls}(params(), **{opts}))))\n"
                   for cls, opts in FUSED_CALLS)
    got = run_fake(fake, code)
    for (key, want), line in zip(FUSED_CALLS.items(), got):
        assert eval(line) == want, key
    assert len(got) == len(FUSED_CALLS)


@needs_fake
def test_foreach_adam_runs_on_each_device(fake):
    lines = run_fake(fake, """
for line in calls(torch.optim.Adam(params(), foreach=True, weight_decay=0.1)):
    print(line)
""")
    foreach = [line for line in lines if "_foreach_" in line and "[f32[]]" not in line]
    assert {line.split()[1] for line in foreach if "f32[3]" in line or "f64[4]" in line} == {"CUDA"}
    assert {line.split()[1] for line in foreach if "f32[2]" in line} == {"CPU"}
    assert any(line.startswith("aten::_foreach_addcdiv_.Scalar CUDA [f64[4]]") for line in lines)


@needs_fake
def test_state_lands_on_the_parameters_device(fake):
    lines = run_fake(fake, """
for cls, opts in [("SGD", dict(lr=0.1, momentum=0.9)), ("Adam", {}), ("Adam", dict(fused=True)),
                  ("Adam", dict(capturable=True)), ("AdamW", dict(amsgrad=True)),
                  ("RMSprop", dict(momentum=0.5, centered=True))]:
    ps = params()
    opt = getattr(torch.optim, cls)(ps, **opts)
    opt.step()
    print(repr(where(opt, ps)))
""")
    got = [eval(line) for line in lines]
    f32, f64 = "torch.float32", "torch.float64"  # str(dtype), torch's spelling
    cuda3, cpu2, cuda4 = ("cuda", (3,), f32), ("cpu", (2,), f32), ("cuda", (4,), f64)
    assert got[0] == [{"momentum_buffer": cuda3}, {"momentum_buffer": cpu2},
                      {"momentum_buffer": cuda4}]
    cpu_step = ("cpu", (), f32)
    for on_device, state in ((False, got[1]), (True, got[2]), (True, got[3])):
        assert [s["exp_avg"] for s in state] == [s["exp_avg_sq"] for s in state] == [
            cuda3, cpu2, cuda4]
        assert [s["step"] for s in state] == (
            [("cuda", (1,), f32), cpu_step, ("cuda", (1,), f32)] if on_device else [cpu_step] * 3)
    assert [s["max_exp_avg_sq"] for s in got[4]] == [cuda3, cpu2, cuda4]
    assert [(s["square_avg"], s["grad_avg"], s["momentum_buffer"]) for s in got[5]] == [
        (cuda3,) * 3, (cpu2,) * 3, (cuda4,) * 3]


@needs_fake
def test_zero_grad_and_checkpoints_across_devices(fake):
    lines = run_fake(fake, """
ps = params()
opt = torch.optim.Adam(ps)
opt.step()
with torch.trace() as t:
    opt.zero_grad(set_to_none=False)
print(repr([f"{op.name} {op.steps[-1].key} {op.inputs[0]['value']}" for op in t.roots]))
sd = opt.state_dict()
cpu = [torch.nn.Parameter(p.detach().cpu()) for p in ps]
moved = torch.optim.Adam(cpu)
moved.load_state_dict(sd)    # state cast to the CPU parameters' devices; step kept as it is
print(repr(where(moved, cpu)))
back = torch.optim.Adam(ps)
back.load_state_dict(moved.state_dict())
print(repr(where(back, ps)))
""")
    assert eval(lines[0]) == ["aten::_foreach_zero_ CUDA [f32[3]]",
                              "aten::_foreach_zero_ CPU [f32[2]]",
                              "aten::_foreach_zero_ CUDA [f64[4]]"]
    on_cpu, back = eval(lines[1]), eval(lines[2])
    assert {s["exp_avg"][0] for s in on_cpu} == {"cpu"}
    assert [s["exp_avg"][0] for s in back] == ["cuda", "cpu", "cuda"]
    assert {s["step"][0] for s in back} == {"cpu"}


# --- with a GPU: CUDA against the CPU ----------------------------------------------------------

@needs_device
@pytest.mark.parametrize("cls,options,path", CASES, ids=IDS)
def test_steps_on_the_device_as_on_the_cpu(cls, options, path):
    """Three steps on the device: parameters and state as three steps on the CPU give (the
    kernels' own comparison is test_cuda_optim_ops.py's)."""
    want = make_params()
    want_opt = run_steps(cls, {**options, **PATHS[path]}, want)
    got = [opscope.nn.Parameter(dev(p.detach())) for p in make_params()]
    got_opt = run_steps(cls, {**options, **PATHS[path]}, got)
    for i, (p, q) in enumerate(zip(got, want)):
        assert p.device.type == DEVICE
        tol = dict(rtol=1e-5, atol=1e-6) if p.dtype == opscope.float32 else dict(rtol=1e-12)
        np.testing.assert_allclose(host(p), host(q), **tol, err_msg=str(i))
        for key, v in got_opt.state[p].items():
            w = want_opt.state[q][key]
            if isinstance(v, opscope.Tensor):
                np.testing.assert_allclose(host(v), host(w), **tol, err_msg=f"{i} {key}")
            else:
                assert v == w, (i, key)


@needs_device
@pytest.mark.parametrize("cls,options", OPTIMIZERS, ids=[o[0] for o in OPTIMIZERS])
def test_cpu_and_device_parameters_in_one_optimizer(cls, options):
    """Parameters on the CPU and on the device in one optimizer step as all on the CPU do."""
    want = make_params()
    run_steps(cls, options, want)
    got = make_params()
    devices = [DEVICE if i % 2 == 0 else "cpu" for i in range(len(got))]
    got = [opscope.nn.Parameter(p.detach().to(d)) for p, d in zip(got, devices)]
    run_steps(cls, options, got)
    for i, (p, q) in enumerate(zip(got, want)):
        assert p.device.type == devices[i]
        tol = dict(rtol=1e-5, atol=1e-6) if p.dtype == opscope.float32 else dict(rtol=1e-12)
        np.testing.assert_allclose(host(p), host(q), **tol, err_msg=str(i))


@needs_device
def test_fused_adam_step_counts_on_the_device():
    """fused=True keeps each step count on its parameter's GPU, (1,) float32 as torch 1.13, and
    the kernel reads it there: the values match the CPU's 0-d counts."""
    want = make_params()
    run_steps("Adam", dict(lr=0.01), want)
    got = [opscope.nn.Parameter(dev(p.detach())) for p in make_params()]
    opt = run_steps("Adam", dict(lr=0.01, fused=True), got)
    for p, q in zip(got, want):
        step = opt.state[p]["step"]
        if DEVICE == "cuda":
            assert step.device.type == "cuda" and tuple(step.shape) == (1,)
        assert host(step) in ([3.0], 3.0)
        tol = dict(rtol=1e-5, atol=1e-6) if p.dtype == opscope.float32 else dict(rtol=1e-12)
        np.testing.assert_allclose(host(p), host(q), **tol)


# --- around the optimizer: gradient clipping, GradScaler's inf check (all / any on CUDA) -------

@needs_fake
def test_clipping_and_grad_scaling_run_on_the_device(fake):
    lines = run_fake(fake, """
ps = params()
for norm_type in (2.0, float("inf")):    # norms gathered on the first gradient's device
    total = torch.nn.utils.clip_grad_norm_(ps, 1.0, norm_type=norm_type)
    print(total.device.type, tuple(total.shape))
x = torch.ones(3, 4, device="cuda")
with torch.trace() as t:
    x.all()
print(t.roots[0].name, t.roots[0].steps[-1].key)
print(x.all().dtype, tuple(x.any(1).shape), tuple(x.all(0, keepdim=True).shape),
      torch.ones(2, dtype=torch.uint8, device="cuda").any().dtype,
      tuple(torch.zeros(0, 3, device="cuda").all(1).shape))
out = torch.empty(4, dtype=torch.bool, device="cuda")
print(torch.any(x, 0, out=out) is out)
for bad in (lambda: torch.all(x, 0, out=torch.empty(4, device="cuda")), lambda: x.any(5)):
    try:
        bad()
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__, e)
ws = [torch.nn.Parameter(torch.ones(3, device="cuda")) for _ in range(2)]
opt, scaler = torch.optim.Adam(ws), torch.cuda.amp.GradScaler()
scaler.scale(sum((w * w).sum() for w in ws)).backward()
with torch.trace() as t:
    scaler.step(opt)    # found_inf is whatever the fake's memory says: the calls are the point
scaler.update()
print(sorted({op.name + " " + op.steps[-1].key for op in t.roots
              if op.name in ("aten::_foreach_mul_.Scalar", "aten::any", "aten::stack")}))
try:
    half = torch.nn.Parameter(torch.ones(2, dtype=torch.float16, device="cuda"))
    half.grad = torch.ones_like(half)
    torch.cuda.amp.GradScaler().unscale_(torch.optim.SGD([half], lr=0.1))
except ValueError as e:
    print(e)
""")
    assert lines[:2] == ["cuda ()", "cuda ()"]
    assert lines[2] == "aten::all CUDA"
    assert lines[3] == "torch.bool (3,) (1, 4) torch.uint8 (0,)"
    assert lines[4] == "True"
    assert lines[5] == "RuntimeError all only supports bool tensor for result, got: Float"
    assert lines[6] == ("IndexError Dimension out of range (expected to be in range of [-2, 1], "
                        "but got 5)")
    # one _foreach_mul_ for the gradients, one any per gradient, one stack + any per device
    assert lines[7] == "['aten::_foreach_mul_.Scalar CUDA', 'aten::any CUDA', 'aten::stack CUDA']"
    assert lines[8] == "Attempting to unscale FP16 gradients."


@needs_device
def test_all_any_values_on_the_device():
    x = make((6, 5), opscope.float32, seed=3)
    x[1] = 0.0
    x[2, 3] = float("nan")
    x[:, 4] = 0.0
    for t in (x, x.t(), (x > 0).to(opscope.uint8), x > 0, make((0, 4), opscope.float64)):
        for f in (lambda z: z.all(), lambda z: z.any(), lambda z: z.all(0),
                  lambda z: z.any(1, keepdim=True), lambda z: z.all(-1)):
            assert_same(f(dev(t)), f(t))


@needs_device
def test_clip_grad_norm_over_cpu_and_device_gradients():
    for norm_type in (2.0, 1.0, float("inf")):
        want = make_params()
        got = [opscope.nn.Parameter(p.detach().to(DEVICE if i % 2 == 0 else "cpu"))
               for i, p in enumerate(make_params())]
        set_grads(want, 0, range(len(want)))
        set_grads(got, 0, range(len(got)))
        total_want = opscope.nn.utils.clip_grad_norm_(want, 0.5, norm_type=norm_type)
        total_got = opscope.nn.utils.clip_grad_norm_(got, 0.5, norm_type=norm_type)
        assert total_got.device.type == DEVICE
        np.testing.assert_allclose(host(total_got), host(total_want), rtol=1e-6)
        for p, q in zip(got, want):
            np.testing.assert_allclose(host(p.grad), host(q.grad), rtol=1e-5, atol=1e-7)


@pytest.mark.skipif(not opscope.cuda.is_available(), reason="needs a CUDA GPU")
def test_grad_scaler_skips_a_step_with_an_inf_and_backs_off():
    w = opscope.nn.Parameter(opscope.ones(3, device="cuda"))
    v = opscope.nn.Parameter(opscope.ones(2, dtype=opscope.float64, device="cuda"))
    opt = opscope.optim.SGD([w, v], lr=0.5)
    scaler = opscope.cuda.amp.GradScaler(init_scale=4.0)
    scaler.scale((w * w).sum() + (v * v).sum()).backward()      # gradients 4 * 2 = 8
    scaler.step(opt)                                            # unscaled to 2: w = 1 - 0.5 * 2
    scaler.update()
    assert w.tolist() == [0.0] * 3 and v.tolist() == [0.0] * 2 and scaler.get_scale() == 4.0
    opt.zero_grad()
    w.grad = opscope.tensor([1.0, float("inf"), 1.0], device="cuda")
    v.grad = opscope.ones(2, dtype=opscope.float64, device="cuda")
    scaler.step(opt)                                            # skipped: an inf
    scaler.update()
    assert w.tolist() == [0.0] * 3 and v.tolist() == [0.0] * 2 and scaler.get_scale() == 2.0
