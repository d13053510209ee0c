"""smooth_l1_loss and huber_loss on CUDA, forward and backward (core/cuda/kernels/loss.cpp: the
CPU kernels' formulas from ops with CUDA kernels). Over the fake device of
tests/cuda/fake_device.cpp: shapes, dtypes, autograd nodes and the argument errors (no values:
kernels do not run there); on a GPU, values and gradients against the CPU.
"""
import textwrap

import pytest

import opscope
import opscope.nn.functional as F
from cuda_compare import assert_same, dev, make, needs_device
from fake_cuda import needs_fake, run

LOSSES = [("smooth_l1", dict(beta=1.0)), ("smooth_l1", dict(beta=0.3)),
          ("smooth_l1", dict(beta=0.0)), ("huber", dict(delta=1.0)), ("huber", dict(delta=0.4))]


def loss_fn(name):
    return F.smooth_l1_loss if name == "smooth_l1" else F.huber_loss


@needs_fake
def test_host_side_over_the_fake_device(fake):
    code = "import opscope as torch\nimport opscope.nn.functional as F\n" + textwrap.dedent("""
        x = torch.ones(3, 4, device="cuda", requires_grad=True)
        t = torch.zeros(4, device="cuda")
        for f, node in [(F.smooth_l1_loss, "SmoothL1LossBackward0"),
                        (F.huber_loss, "HuberLossBackward0")]:
            for reduction, shape in [("mean", ()), ("sum", ()), ("none", (3, 4))]:
                r = f(x, t, reduction=reduction)
                assert r.is_cuda and tuple(r.shape) == shape and type(r.grad_fn).__name__ == node
                x.grad = None
                r.sum().backward()
                assert x.grad.is_cuda and tuple(x.grad.shape) == (3, 4)
            assert f(x.detach().half(), t.half()).dtype == torch.float16   # CUDA takes half
        assert F.smooth_l1_loss(x, t, beta=0.0).is_cuda
        longs = torch.ones(2, dtype=torch.int64, device="cuda")
        for bad, message in [
                (lambda: F.smooth_l1_loss(x, t, beta=-1.0),
                 "smooth_l1_loss does not support negative values for beta."),
                (lambda: F.huber_loss(x, t, delta=0.0),
                 "huber_loss does not support non-positive values for delta."),
                (lambda: F.smooth_l1_loss(longs, longs),
                 '"smooth_l1_cuda" not implemented for \\'Long\\'')]:
            try:
                bad()
            except RuntimeError as e:
                assert str(e) == message, str(e)
            else:
                raise AssertionError("no error: " + message)
        print("ok")
        """)
    out = run(fake, code, preamble="")
    assert out.strip() == "ok", out


@needs_device
@pytest.mark.filterwarnings("ignore:Using a target size")  # the broadcast target, on purpose
@pytest.mark.parametrize("name,options", LOSSES,
                         ids=[f"{n}-{list(o.values())[0]}" for n, o in LOSSES])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_values_and_gradients_against_the_cpu(name, options, reduction):
    f = loss_fn(name)
    x = make((6, 5), opscope.float64, seed=1, low=-3, high=3).requires_grad_()
    t = make((5,), opscope.float64, seed=2, low=-3, high=3)
    g = dev(x.detach()).requires_grad_()
    want = f(x, t, reduction=reduction, **options)
    got = f(g, dev(t), reduction=reduction, **options)
    assert_same(got, want)
    seed = make(tuple(want.shape), opscope.float64, seed=3)
    want.backward(seed)
    got.backward(dev(seed))
    assert_same(g.grad, x.grad)
