"""CUDA kernels of 2-D convolution (core/cuda/kernels/conv.cpp: _slow_conv2d_forward,
slow_conv_dilated2d, convolution_backward) against the CPU kernels on the same inputs: conv2d and
conv1d with strides, padding, dilation, groups, with and without bias, non-contiguous inputs, an
empty batch, float32 / float64, gradients of input, weight and bias; transposed convolutions'
NotImplementedError; and a small CNN (conv, batch norm, relu, max / avg pooling, linear,
cross entropy, SGD with momentum) trained a few steps on both devices from the same start, the
losses compared step by step. Skips without a GPU (cuda_compare.py).
"""
import copy

import pytest

import opscope
import opscope.nn as nn
import opscope.nn.functional as F
from cuda_compare import DEVICE, assert_same, dev, layouts, make, needs_device

pytestmark = needs_device

# The CPU kernels and cuBLAS sum the products in different orders.
TOL = {opscope.float32: dict(rtol=1e-4, atol=1e-5), opscope.float64: {}}

CASES = [  # (N, C, H, W), (O, kh, kw), stride, padding, dilation, groups
    ((2, 3, 8, 9), (4, 3, 3), 1, 0, 1, 1),
    ((2, 3, 8, 9), (4, 3, 3), 2, 1, 1, 1),
    ((1, 4, 7, 7), (6, 3, 2), (2, 1), (1, 0), 1, 2),
    ((2, 2, 9, 9), (3, 3, 3), 1, 2, 2, 1),
    ((3, 4, 5, 6), (8, 1, 1), 1, 0, 1, 4),
    ((1, 1, 16, 16), (2, 5, 5), 3, 2, (1, 2), 1),
]


@pytest.mark.parametrize("dtype", [opscope.float32, opscope.float64])
@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("with_bias", [True, False])
def test_conv2d(dtype, case, with_bias):
    shape, (O, kh, kw), stride, padding, dilation, groups = case
    x = make(shape, dtype, seed=1)
    w = make((O, shape[1] // groups, kh, kw), dtype, seed=2)
    b = make((O,), dtype, seed=3) if with_bias else None
    for cpu_x, gpu_x in layouts(x):
        want = F.conv2d(cpu_x, w, b, stride, padding, dilation, groups)
        got = F.conv2d(gpu_x, dev(w), dev(b) if with_bias else None, stride, padding, dilation,
                       groups)
        assert_same(got, want, **TOL[dtype])
    xa, xb = x.clone().requires_grad_(), dev(x).requires_grad_()
    wa, wb = w.clone().requires_grad_(), dev(w).requires_grad_()
    ba = b.clone().requires_grad_() if with_bias else None
    bb = dev(b).requires_grad_() if with_bias else None
    out = F.conv2d(xa, wa, ba, stride, padding, dilation, groups)
    g = make(tuple(out.shape), dtype, seed=4)
    out.backward(g)
    F.conv2d(xb, wb, bb, stride, padding, dilation, groups).backward(dev(g))
    assert_same(xb.grad, xa.grad, **TOL[dtype])
    assert_same(wb.grad, wa.grad, **TOL[dtype])
    if with_bias:
        assert_same(bb.grad, ba.grad, **TOL[dtype])


def test_conv1d_unbatched_empty():
    x = make((2, 3, 20), opscope.float64, seed=5)
    w = make((5, 3, 4), opscope.float64, seed=6)
    assert_same(F.conv1d(dev(x), dev(w), None, 2, 1), F.conv1d(x, w, None, 2, 1))
    xa, xb = x.clone().requires_grad_(), dev(x).requires_grad_()
    F.conv1d(xa, w, None, 1, 0, 2).sum().backward()
    F.conv1d(xb, dev(w), None, 1, 0, 2).sum().backward()
    assert_same(xb.grad, xa.grad)
    u = make((3, 6, 6), seed=7)  # (C, H, W)
    wu = make((2, 3, 3, 3), seed=8)
    assert_same(F.conv2d(dev(u), dev(wu)), F.conv2d(u, wu), **TOL[opscope.float32])
    e = opscope.empty(0, 3, 6, 6)
    assert tuple(F.conv2d(dev(e), dev(wu)).shape) == (0, 2, 4, 4)


def test_conv_errors():
    x = dev(make((1, 3, 5, 5)))
    with pytest.raises(RuntimeError, match="expected input"):
        F.conv2d(x, dev(make((2, 4, 3, 3))))
    with pytest.raises(RuntimeError, match="not implemented for 'Long'"):
        F.conv2d(dev(opscope.ones(1, 1, 3, 3, dtype=opscope.int64)),
                 dev(opscope.ones(1, 1, 2, 2, dtype=opscope.int64)))
    if DEVICE == "cuda":
        with pytest.raises(NotImplementedError, match="slow_conv_transpose2d"):
            F.conv_transpose2d(x, dev(make((3, 2, 3, 3))))


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(8)
        self.conv2 = nn.Conv2d(8, 8, 3, stride=1, padding=1, groups=2)
        self.fc = nn.Linear(8 * 4 * 4, 5)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn1(self.conv1(x))), 2)
        x = F.avg_pool2d(F.relu(self.conv2(x)), 2)
        return self.fc(x.flatten(1))


def test_small_cnn_trains_like_cpu():
    opscope.manual_seed(0)
    cpu_model = SmallCNN().double()
    gpu_model = copy.deepcopy(cpu_model).to(DEVICE)
    cpu_opt = opscope.optim.SGD(cpu_model.parameters(), lr=0.05, momentum=0.9)
    gpu_opt = opscope.optim.SGD(gpu_model.parameters(), lr=0.05, momentum=0.9)
    for step in range(4):
        x = make((6, 3, 16, 16), opscope.float64, seed=100 + step)
        y = opscope.tensor([step % 5, 1, 2, 3, 4, 0])
        losses = []
        for model, opt, d in ((cpu_model, cpu_opt, "cpu"), (gpu_model, gpu_opt, DEVICE)):
            opt.zero_grad()
            loss = F.cross_entropy(model(x.to(d)), y.to(d))
            loss.backward()
            opt.step()
            losses.append(loss.item())
        assert abs(losses[0] - losses[1]) < 1e-9 * max(1.0, abs(losses[0])), (step, losses)
    for (name, p), q in zip(cpu_model.named_parameters(), gpu_model.parameters()):
        assert_same(q, p.detach(), rtol=1e-9, atol=1e-10)
