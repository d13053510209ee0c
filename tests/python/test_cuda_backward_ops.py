"""CUDA kernels of the gradient ops a training step's backward calls (core/cuda/kernels/backward.cu,
backward.cpp): threshold_backward, _softmax_backward_data, _log_softmax_backward_data,
nll_loss_backward, gelu / silu / softplus / sigmoid / tanh / leaky_relu / hardtanh / elu /
mse_loss_backward and native_layer_norm_backward (and leaky_relu / hardtanh / elu themselves),
against opscope's CPU kernels on the same inputs (which test_backward_ops.py checks against NumPy
and torch 1.13), and a small MLP's and a LayerNorm / GELU block's gradients on both devices.

Without a GPU (or without the CUDA backend) every test skips with the reason.
"""
import numpy as np
import pytest

import opscope
import opscope.nn.functional as F

pytestmark = pytest.mark.skipif(not opscope.cuda.is_available(),
                                reason="needs a CUDA GPU (and the CUDA backend built)")
if opscope.cuda.is_available():  # a crash prints its C++ frames too, before faulthandler's
    opscope._C._cuda_reportFatalSignals()

aten = opscope.ops.aten
FLOATS = [opscope.float32, opscope.float64, opscope.bfloat16]
TOL = {opscope.float32: 1e-5, opscope.float64: 1e-12, opscope.bfloat16: 2e-2,
       opscope.int64: 0}


def make(shape, dtype=opscope.float32, seed=0):
    r = np.random.default_rng(seed)
    if dtype == opscope.int64:
        return opscope.tensor(r.integers(-3, 3, size=shape))
    return opscope.tensor(r.standard_normal(shape)).to(dtype)


def same(gpu, cpu, dtype):
    assert gpu.device.type == "cuda" and gpu.dtype == cpu.dtype
    assert tuple(gpu.shape) == tuple(cpu.shape)
    g = gpu.cpu().to(opscope.float64).numpy()
    c = cpu.to(opscope.float64).numpy()
    np.testing.assert_allclose(g, c, rtol=TOL[dtype], atol=TOL[dtype])


@pytest.mark.parametrize("dtype", FLOATS + [opscope.int64])
@pytest.mark.parametrize("shape", [(7,), (4, 5), (0, 3)])
def test_threshold_backward(dtype, shape):
    g, x = make(shape, dtype, 1), make(shape, dtype, 2)
    for th in (0, 0.5):
        same(aten.threshold_backward(g.cuda(), x.cuda(), th), aten.threshold_backward(g, x, th),
             dtype)
    if len(shape) == 2:  # non-contiguous
        same(aten.threshold_backward(g.cuda().t(), x.cuda().t(), 0),
             aten.threshold_backward(g.t(), x.t(), 0), dtype)
    if len(shape) == 2 and shape[0] > 0:  # broadcast a row of x (x[0] of (0, 3): IndexError)
        same(aten.threshold_backward(g.cuda(), x[0].cuda(), 0),
             aten.threshold_backward(g, x[0], 0), dtype)


@pytest.mark.parametrize("log", [False, True])
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape,dim", [((5,), 0), ((4, 9), 1), ((4, 9), 0), ((2, 3, 300), 2),
                                       ((2, 5, 3), 1), ((0, 4), 1)])
def test_softmax_backward_data(log, dtype, shape, dim):
    x, g = make(shape, opscope.float64, 3), make(shape, opscope.float64, 4)
    y = (F.log_softmax if log else F.softmax)(x, dim).to(dtype)
    g = g.to(dtype)
    op = aten._log_softmax_backward_data if log else aten._softmax_backward_data
    same(op(g.cuda(), y.cuda(), dim, dtype), op(g, y, dim, dtype), dtype)


@pytest.mark.parametrize("reduction", [0, 1, 2])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("batch", [None, 0, 6])
@pytest.mark.parametrize("dtype", [opscope.float32, opscope.float64])
def test_nll_loss_backward(reduction, weighted, batch, dtype):
    c = 5
    x = make((c,) if batch is None else (batch, c), dtype, 5)
    r = np.random.default_rng(6)
    target = opscope.tensor(r.integers(0, c, size=() if batch is None else (batch,)))
    if batch:
        target[2] = -100
    w = opscope.tensor(r.random(c) + 0.5).to(dtype) if weighted else None
    out, total = aten.nll_loss_forward(x, target, w, reduction, -100)
    go = make(tuple(out.shape), dtype, 7)
    cpu = aten.nll_loss_backward(go, x, target, w, reduction, -100, total)
    gpu = aten.nll_loss_backward(go.cuda(), x.cuda(), target.cuda(),
                                 None if w is None else w.cuda(), reduction, -100, total.cuda())
    same(gpu, cpu, dtype)
    if batch == 0:
        return  # no target to be out of bounds
    with pytest.raises(IndexError, match="Target 9 is out of bounds."):
        bad = opscope.full(tuple(target.shape), 9, dtype=opscope.int64)
        aten.nll_loss_backward(go.cuda(), x.cuda(), bad.cuda(), None, reduction, -100,
                               total.cuda())


def test_mlp_gradients_match_cpu():
    opscope.manual_seed(0)
    model = opscope.nn.Sequential(opscope.nn.Linear(8, 16), opscope.nn.ReLU(),
                                  opscope.nn.Linear(16, 4)).double()
    x, target = make((6, 8), opscope.float64, 8), opscope.tensor([0, 3, 1, 2, 3, 0])
    grads = {}
    for device in ("cpu", "cuda"):
        model.to(device)
        model.zero_grad()
        out = model(x.to(device))
        (F.cross_entropy(out, target.to(device)) + F.softmax(out, 1)[:, 0].sum()).backward()
        grads[device] = [p.grad.cpu() for p in model.parameters()]
    for g, c in zip(grads["cuda"], grads["cpu"]):
        np.testing.assert_allclose(g.numpy(), c.numpy(), rtol=1e-10, atol=1e-12)


ACTIVATION_GRADS = [("gelu", {}), ("gelu", {"approximate": "tanh"}), ("silu", {}),
                    ("softplus", {"beta": 1.5, "threshold": 2.0})]


def activation_grad(name, g, x, kw):
    op = getattr(aten, f"{name}_backward")
    return op(g, x, kw["beta"], kw["threshold"]) if name == "softplus" else op(g, x, **kw)


@pytest.mark.parametrize("name,kw", ACTIVATION_GRADS)
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(7,), (33, 65), (0, 3), ()])
def test_activation_backward(name, kw, dtype, shape):
    # gelu_backward / silu_backward / softplus_backward: the elementwise kernels against the CPU's
    # (float16 too: the CPU has none, so against float32 rounded).
    g, x = make(shape, dtype, 40), make(shape, dtype, 41) * 3
    same(activation_grad(name, g.cuda(), x.cuda(), kw), activation_grad(name, g, x, kw), dtype)
    if len(shape) == 2 and shape[0] > 0:
        same(activation_grad(name, g.cuda().t(), x.cuda().t(), kw),
             activation_grad(name, g.t(), x.t(), kw), dtype)
        same(activation_grad(name, g.cuda(), x.cuda()[0], kw), activation_grad(name, g, x[0], kw),
             dtype)
    h = activation_grad(name, g.cuda().half(), x.cuda().half(), kw)
    ref = activation_grad(name, g.float(), x.float(), kw).half()
    assert h.dtype == opscope.float16
    np.testing.assert_allclose(h.cpu().float().numpy(), ref.float().numpy(), rtol=2e-3, atol=2e-3)


@pytest.mark.parametrize("dtype", FLOATS)
def test_leaky_relu_hardtanh_elu_and_their_gradients(dtype):
    g, x = make((33, 65), dtype, 50), make((33, 65), dtype, 51) * 2
    for fn in (lambda t: aten.leaky_relu(t, 0.2), lambda t: aten.hardtanh(t, -0.5, 0.7),
               lambda t: aten.elu(t, 1.3, 1.1, 0.9), lambda t: aten.relu6(t * 4),
               lambda t: aten.selu(t), lambda t: aten.hardsigmoid(t * 3),
               lambda t: aten.hardswish(t * 3), lambda t: aten.mish(t),
               lambda t: aten.log_sigmoid(t), lambda t: aten.celu(t, 0.7),
               lambda t: aten.threshold(t, 0.1, 2.0)):
        same(fn(x.cuda()), fn(x), dtype)
        same(fn(x.cuda().t()), fn(x.t()), dtype)
    for fn in (lambda a, b: aten.leaky_relu_backward(a, b, 0.2, False),
               lambda a, b: aten.hardtanh_backward(a, b, -0.5, 0.7),
               lambda a, b: aten.elu_backward(a, 1.3, 1.1, 0.9, False, b),
               lambda a, b: aten.elu_backward(a, 1.3, 1.1, 0.9, True, b),
               lambda a, b: aten.hardsigmoid_backward(a, b * 3),
               lambda a, b: aten.hardswish_backward(a, b * 3), aten.mish_backward,
               lambda a, b: aten.log_sigmoid_backward(a, b, aten.log_sigmoid_forward(b)[1])):
        same(fn(g.cuda(), x.cuda()), fn(g, x), dtype)
    ints = opscope.tensor([-5, 0, 5], device="cuda")
    assert aten.hardtanh(ints, -2, 3).cpu().tolist() == [-2, 0, 3]
    # threshold on integers takes its scalars through int64 (-1 as uint8 is 255), as torch's
    assert aten.threshold(ints, 0, -7).cpu().tolist() == [-7, -7, 5]
    assert aten.threshold(ints.to(opscope.uint8), 200, -1).cpu().tolist() == [251, 255, 255]


@pytest.mark.parametrize("dtype", FLOATS)
def test_sigmoid_tanh_and_mse_loss_backward(dtype):
    g, y = make((33, 65), dtype, 47), make((33, 65), dtype, 48).tanh()
    for op in (aten.sigmoid_backward, aten.tanh_backward):
        same(op(g.cuda(), y.cuda()), op(g, y), dtype)
        same(op(g.cuda().t(), y.cuda().t()), op(g.t(), y.t()), dtype)
    t = make((33, 65), dtype, 49)
    for reduction in (0, 1, 2):
        grad = g if reduction == 0 else opscope.tensor(1.5).to(dtype)
        same(aten.mse_loss_backward(grad.cuda(), y.cuda(), t.cuda(), reduction),
             aten.mse_loss_backward(grad, y, t, reduction), dtype)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("rows,cols", [(5, 8), (300, 33), (4096, 512), (3, 1500), (0, 16),
                                       (7, 1)])
@pytest.mark.parametrize("affine", [True, False])
def test_native_layer_norm_backward(dtype, rows, cols, affine):
    # dx per row (block-wide sums), dweight / dbias down the rows through partial sums
    # (Note [Layer norm's gradient on the GPU]), against the CPU kernel on the same statistics.
    x, dy = make((rows, cols), dtype, 42) * 2 + 1, make((rows, cols), dtype, 43)
    w = make((cols,), dtype, 44) if affine else None
    b = make((cols,), dtype, 45) if affine else None
    _, mean, rstd = aten.native_layer_norm(x, [cols], w, b, 1e-5)
    cpu = aten.native_layer_norm_backward(dy, x, [cols], mean, rstd, w, b, [1, 1, 1])
    on = [None if t is None else t.cuda() for t in (dy, x, mean, rstd, w, b)]
    gpu = aten.native_layer_norm_backward(on[0], on[1], [cols], on[2], on[3], on[4], on[5],
                                          [1, 1, 1])
    tol = {opscope.float32: 1e-4, opscope.float64: 1e-10, opscope.bfloat16: 1e-1}[dtype]
    for got, want in zip(gpu, cpu):
        if want is None:
            assert got is None
            continue
        assert got.device.type == "cuda" and got.dtype == want.dtype
        np.testing.assert_allclose(got.cpu().to(opscope.float64).numpy(),
                                   want.to(opscope.float64).numpy(), rtol=tol,
                                   atol=tol * max(1.0, rows ** 0.5))
    if rows and cols > 1:
        only_w = aten.native_layer_norm_backward(on[0], on[1], [cols], on[2], on[3], on[4], on[5],
                                                 [0, 1, 0])
        assert only_w[0] is None and only_w[2] is None and (only_w[1] is None) == (not affine)


def test_layer_norm_gelu_block_gradients_match_cpu():
    # Autograd end to end: LayerNorm -> Linear -> GELU -> Linear on both devices, same weights.
    torch = opscope
    torch.manual_seed(3)
    model = torch.nn.Sequential(torch.nn.LayerNorm(24), torch.nn.Linear(24, 48),
                                torch.nn.GELU(approximate="tanh"), torch.nn.Linear(48, 24),
                                torch.nn.SiLU())
    x = make((6, 5, 24), opscope.float32, 46)
    model(x).square().mean().backward()
    cpu_grads = [p.grad.clone() for p in model.parameters()]
    model.zero_grad()
    model.cuda()
    model(x.cuda()).square().mean().backward()
    for p, want in zip(model.parameters(), cpu_grads):
        np.testing.assert_allclose(p.grad.cpu().numpy(), want.numpy(), rtol=1e-4, atol=1e-5)
