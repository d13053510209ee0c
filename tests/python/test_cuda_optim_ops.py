"""CUDA kernels of the optimizer family (core/cuda/kernels/optim.cpp) against the CPU kernels
(core/ops/cpu/optim.cpp) on the same inputs: every _foreach_* op in place and out of place, and
_fused_sgd_ / _fused_adam_ / _fused_adamw_ / _fused_rmsprop_ over several steps, on lists that
mix sizes (0-d, empty, one element, several launch chunks), dtypes (float32 and float64 in one
list), layouts (dense permuted, stepped, and a row whose tensors differ in layout) and lengths
past one launch's 32 tensors; and the argument checks. Skips without a GPU (cuda_compare.py).
"""
import pytest

import opscope
from cuda_compare import DEVICE, assert_same, dev, make, needs_device

pytestmark = needs_device

SHAPES = [(5, 7), (3,), (), (0, 4), (1,), (70, 130), (2, 3, 4)]


def column_major(z):
    return z.transpose(0, 1).contiguous().transpose(0, 1) if z.dim() >= 2 else z


def stepped(z):
    return opscope.cat([z, z], dim=-1)[..., ::2] if z.dim() >= 1 else z


def pair_lists(seed, dtype=None, low=-2.0, high=2.0, layout=None, shapes=SHAPES):
    """(cpu list, device list) of tensors of `shapes` with the same values (dtypes alternating
    float32 / float64 when dtype is None), each laid out by `layout` (a function of the tensor,
    applied on each side) when given."""
    cpu, gpu = [], []
    for i, s in enumerate(shapes):
        dt = dtype or (opscope.float32 if i % 2 == 0 else opscope.float64)
        t = make(s, dt, seed=seed * 100 + i, low=low, high=high)
        cpu.append(layout(t) if layout else t)
        gpu.append(layout(dev(t)) if layout else dev(t))
    return cpu, gpu


def assert_lists(got, want, **tol):
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert_same(g, w, **tol)


LAYOUTS = [None, column_major, stepped]


# --- foreach ------------------------------------------------------------------------------------

SCALAR_OPS = ["_foreach_add", "_foreach_sub", "_foreach_mul", "_foreach_div"]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name", SCALAR_OPS)
def test_foreach_scalar(name, layout):
    xs, gx = pair_lists(1, layout=layout)
    assert_lists(getattr(opscope, name)(gx, 1.75), getattr(opscope, name)(xs, 1.75))
    getattr(opscope, name + "_")(gx, -0.5)
    getattr(opscope, name + "_")(xs, -0.5)
    assert_lists(gx, xs)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name", ["_foreach_add", "_foreach_sub", "_foreach_mul", "_foreach_div",
                                  "_foreach_maximum"])
def test_foreach_list(name, layout):
    xs, gx = pair_lists(2, layout=layout)
    ys, gy = pair_lists(3, low=0.5, high=3.0)  # contiguous: rows differ in layout
    if name == "_foreach_maximum":  # NaN wins
        for x in (xs, gx):
            x[0][0, 0] = float("nan")
        for y in (ys, gy):
            y[0][1, 1] = float("nan")
    kw = {"alpha": 0.25} if name in ("_foreach_add", "_foreach_sub") else {}
    assert_lists(getattr(opscope, name)(gx, gy, **kw), getattr(opscope, name)(xs, ys, **kw))
    getattr(opscope, name + "_")(gx, gy, **kw)
    getattr(opscope, name + "_")(xs, ys, **kw)
    assert_lists(gx, xs)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_foreach_addc_lerp(layout):
    xs, gx = pair_lists(4, layout=layout)
    ys, gy = pair_lists(5, layout=layout)
    zs, gz = pair_lists(6, low=0.5, high=2.0)
    for name in ("_foreach_addcmul", "_foreach_addcdiv"):
        assert_lists(getattr(opscope, name)(gx, gy, gz, value=-0.3),
                     getattr(opscope, name)(xs, ys, zs, value=-0.3))
    for w in (0.3, 0.8):  # both sides of lerp's two-sided formula
        assert_lists(opscope._foreach_lerp(gx, gy, w), opscope._foreach_lerp(xs, ys, w))
    opscope._foreach_addcdiv_(gx, gy, gz, value=0.7)
    opscope._foreach_addcdiv_(xs, ys, zs, value=0.7)
    opscope._foreach_lerp_(gx, gy, 0.6)
    opscope._foreach_lerp_(xs, ys, 0.6)
    assert_lists(gx, xs)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_foreach_unary(layout):
    xs, gx = pair_lists(7, low=0.1, high=4.0, layout=layout)
    assert_lists(opscope._foreach_sqrt(gx), opscope._foreach_sqrt(xs))
    assert_lists(opscope._foreach_neg(gx), opscope._foreach_neg(xs))
    opscope._foreach_sqrt_(gx)
    opscope._foreach_sqrt_(xs)
    assert_lists(gx, xs)
    opscope._foreach_zero_(gx)
    for g in gx:
        assert g.device.type == DEVICE and not g.cpu().any().item()


def test_foreach_many_tensors():
    """More tensors than one launch takes (32), of two dtypes in runs: several launches."""
    shapes = [(i % 5 + 1, 3) for i in range(45)]
    xs, gx = pair_lists(8, shapes=shapes)
    ys, gy = pair_lists(9, shapes=shapes)
    opscope._foreach_add_(gx, gy, alpha=2.0)
    opscope._foreach_add_(xs, ys, alpha=2.0)
    assert_lists(gx, xs)


def test_foreach_large_tensor():
    """A tensor of many launch chunks (4096 elements each), next to small ones."""
    shapes = [(1000, 37), (3,), (4097,)]
    xs, gx = pair_lists(10, dtype=opscope.float32, shapes=shapes)
    ys, gy = pair_lists(11, dtype=opscope.float32, shapes=shapes)
    opscope._foreach_addcmul_(gx, gy, gy, value=0.5)
    opscope._foreach_addcmul_(xs, ys, ys, value=0.5)
    assert_lists(gx, xs)


def test_foreach_errors():
    x = dev(opscope.ones(3))
    with pytest.raises(RuntimeError, match="Tensor lists must have the same number of tensors"):
        opscope._foreach_add_([x, x], [x])
    with pytest.raises(RuntimeError, match="expected float32 or float64 tensors"):
        opscope._foreach_add_([dev(opscope.ones(3, dtype=opscope.int64))], 1)
    with pytest.raises(RuntimeError, match="must have the sizes of self"):
        opscope._foreach_add_([x], [dev(opscope.ones(4))])
    with pytest.raises(RuntimeError, match="must have the dtype of self"):
        opscope._foreach_mul_([x], [dev(opscope.ones(3, dtype=opscope.float64))])
    if DEVICE == "cuda":
        with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
            opscope._foreach_add_([x, opscope.ones(3)], 1.0)


# --- fused steps ----------------------------------------------------------------------------------

def param_lists(seed, layout=None):
    """params, grads on the CPU and their copies on the device."""
    params, gp = pair_lists(seed, layout=layout)
    grads, gg = pair_lists(seed + 1, layout=layout)
    return params, grads, gp, gg


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("momentum,nesterov,dampening", [(0.0, False, 0.0), (0.9, False, 0.1),
                                                         (0.9, True, 0.0)])
@pytest.mark.parametrize("maximize", [False, True])
def test_fused_sgd(layout, momentum, nesterov, dampening, maximize):
    params, grads, gp, gg = param_lists(30, layout)
    options = dict(weight_decay=0.01, momentum=momentum, lr=0.1, dampening=dampening,
                   nesterov=nesterov, maximize=maximize)
    if momentum == 0:
        bufs, gbufs = [], []
    else:  # uninitialized memory on the first step: the kernel must not read it
        bufs = [opscope.empty_like(p).fill_(float("nan")) for p in params]
        gbufs = [opscope.empty_like(p).fill_(float("nan")) for p in gp]
    for step in range(3):
        opscope._fused_sgd_(params, grads, bufs, is_first_step=step == 0, **options)
        opscope._fused_sgd_(gp, gg, gbufs, is_first_step=step == 0, **options)
        assert_lists(gp, params)
        assert_lists(gbufs, bufs)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name", ["_fused_adam_", "_fused_adamw_"])
@pytest.mark.parametrize("amsgrad", [False, True])
@pytest.mark.parametrize("maximize", [False, True])
@pytest.mark.parametrize("steps_on_device", [False, True])
def test_fused_adam(layout, name, amsgrad, maximize, steps_on_device):
    params, grads, gp, gg = param_lists(40, layout)
    state = [[opscope.zeros_like(p) for p in params] for _ in range(3)]
    gstate = [[opscope.zeros_like(p) for p in gp] for _ in range(3)]
    steps = [opscope.tensor(0.) for _ in params]  # torch 1.13's 0-d float32 step counts
    gsteps = [dev(s) if steps_on_device else s.clone() for s in steps]
    options = dict(lr=0.01, beta1=0.9, beta2=0.99, weight_decay=0.05, eps=1e-8, amsgrad=amsgrad,
                   maximize=maximize)
    for _ in range(4):
        for g_cpu, g_dev in zip(grads, gg):  # a new gradient each step
            g_cpu.mul_(-1.1)
            g_dev.mul_(-1.1)
        opscope._foreach_add_(steps, 1)
        opscope._foreach_add_(gsteps, 1)
        getattr(opscope, name)(params, grads, state[0], state[1], state[2] if amsgrad else [],
                               steps, **options)
        getattr(opscope, name)(gp, gg, gstate[0], gstate[1], gstate[2] if amsgrad else [],
                               gsteps, **options)
        assert_lists(gp, params, rtol=1e-5, atol=1e-6)
        for g_list, c_list in zip(gstate, state):
            assert_lists(g_list, c_list, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("centered", [False, True])
@pytest.mark.parametrize("momentum", [0.0, 0.8])
def test_fused_rmsprop(layout, centered, momentum):
    params, grads, gp, gg = param_lists(50, layout)
    sq = [opscope.zeros_like(p) for p in params]
    gsq = [opscope.zeros_like(p) for p in gp]
    ga = [opscope.zeros_like(p) for p in params] if centered else []
    gga = [opscope.zeros_like(p) for p in gp] if centered else []
    bufs = [opscope.zeros_like(p) for p in params] if momentum else []
    gbufs = [opscope.zeros_like(p) for p in gp] if momentum else []
    options = dict(lr=0.01, alpha=0.9, eps=1e-8, weight_decay=0.01, momentum=momentum,
                   centered=centered, maximize=False)
    for _ in range(3):
        opscope._fused_rmsprop_(params, grads, sq, ga, bufs, **options)
        opscope._fused_rmsprop_(gp, gg, gsq, gga, gbufs, **options)
        assert_lists(gp, params, rtol=1e-5, atol=1e-6)
        assert_lists(gsq, sq)
        assert_lists(gga, ga)
        assert_lists(gbufs, bufs, rtol=1e-5, atol=1e-6)


def test_fused_errors():
    p = [dev(opscope.ones(3))]
    steps = [opscope.tensor(1.)]
    with pytest.raises(RuntimeError, match="expected 1 state_steps, got 0"):
        opscope._fused_adam_(p, p, [dev(opscope.zeros(3))], [dev(opscope.zeros(3))], [], [],
                             lr=0.1, beta1=0.9, beta2=0.99, weight_decay=0., eps=1e-8,
                             amsgrad=False, maximize=False)
    with pytest.raises(RuntimeError, match="Tensor lists must have the same number of tensors"):
        opscope._fused_sgd_(p, [], [], weight_decay=0., momentum=0., lr=0.1, dampening=0.,
                            nesterov=False, maximize=False, is_first_step=False)
    if DEVICE == "cuda":
        with pytest.raises(RuntimeError, match="grad_scale and found_inf"):
            opscope._fused_adam_(p, p, [dev(opscope.zeros(3))], [dev(opscope.zeros(3))], [],
                                 steps, lr=0.1, beta1=0.9, beta2=0.99, weight_decay=0., eps=1e-8,
                                 amsgrad=False, maximize=False, grad_scale=dev(opscope.ones(())))
