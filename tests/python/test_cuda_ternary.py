"""addcmul / addcdiv on CUDA (core/cuda/kernels/ternary.{cpp,cu}): with a GPU, every form
(functional, in place, out=) against the CPU kernel on broadcast, strided and empty operands and
each dtype both devices take, and the gradients; without one, over the fake device of
tests/cuda/fake_device.cpp, the host side — shapes, dtypes, torch's CUDA dtype rules and messages,
AddcmulBackward0 / AddcdivBackward0 on the device.
"""

import pytest

import opscope
from cuda_compare import DEVICE, assert_same, dev, make, needs_device
from fake_cuda import needs_fake, run

OPS = {"addcmul": opscope.addcmul, "addcdiv": opscope.addcdiv}


@needs_fake
def test_host_side_over_the_fake_device(fake):
    out = run(fake, """
        def raises(f, message):
            try:
                f()
            except RuntimeError as e:
                assert str(e).startswith(message), str(e)
            else:
                raise AssertionError("no error: " + message)
        x = torch.ones(3, 4, device="cuda")
        a, b = torch.ones(4, device="cuda"), torch.ones(3, 1, device="cuda")
        for op in (torch.addcmul, torch.addcdiv):
            r = op(x, a, b, value=0.5)
            assert r.is_cuda and tuple(r.shape) == (3, 4) and r.dtype == torch.float32
            assert tuple(op(a, a, b).shape) == (3, 4)                  # broadcast past self
            assert op(x.half(), a.half(), b.half()).dtype == torch.float16   # CUDA takes half
            assert op(x, a, torch.tensor(2.0)).is_cuda                  # a CPU scalar operand
            y = x.clone()
            assert y.addcmul_(a, b) is y if op is torch.addcmul else y.addcdiv_(a, b) is y
            out = torch.empty(0, device="cuda", dtype=torch.float64)
            assert op(x, a, b, out=out) is out and tuple(out.shape) == (3, 4)
            raises(lambda: op(x, a, torch.ones(3, 1)), "Expected all tensors to be on the same")
            raises(lambda: x.long().addcmul_(a, b),
                   "result type Float can't be cast to the desired output type Long")
            w = torch.ones(3, 4, device="cuda", requires_grad=True)
            v = torch.ones(4, device="cuda", requires_grad=True)
            z = op(w, v, b, value=2.0)
            assert type(z.grad_fn).__name__ == op.__name__.capitalize() + "Backward0"
            z.sum().backward()
            assert w.grad.is_cuda and tuple(v.grad.shape) == (4,)
        bools = torch.ones(2, dtype=torch.bool, device="cuda")
        raises(lambda: torch.addcmul(bools, bools, bools), '"addcmul_cuda" not implemented for')
        longs = torch.ones(2, dtype=torch.int64, device="cuda")
        raises(lambda: torch.addcdiv(longs, longs, longs), "Integer division with addcdiv is no")
        i8 = torch.ones(2, dtype=torch.int8, device="cuda")
        assert torch.addcmul(i8, i8, i8, value=1000).dtype == torch.int8   # int64 on CUDA
        assert torch.addcmul(longs, longs, longs, value=0.5).dtype == torch.int64
        print("ok")
        """)
    assert out.strip() == "ok", out


@needs_device
@pytest.mark.parametrize("name", sorted(OPS))
@pytest.mark.parametrize("dtype", [opscope.float32, opscope.float64, opscope.bfloat16])
def test_values_against_the_cpu(name, dtype):
    op = OPS[name]
    s = make((5, 7), dtype, seed=1)
    t1 = make((7,), dtype, seed=2)
    t2 = make((5, 1), dtype, seed=3, low=0.5, high=2.0)  # away from 0 for addcdiv
    for value in (1, 0.5, -3):
        assert_same(op(dev(s), dev(t1), dev(t2), value=value), op(s, t1, t2, value=value))
        assert_same(op(dev(s).t(), dev(t2).t(), dev(t1)[:5, None].t(), value=value),
                    op(s.t(), t2.t(), t1[:5, None].t(), value=value))   # strided operands
        g = dev(s).clone()
        getattr(g, name + "_")(dev(t1), dev(t2), value=value)
        assert_same(g, op(s, t1, t2, value=value))
    e = make((0, 3), dtype)
    assert_same(op(dev(e), dev(e), dev(e)), op(e, e, e))


@needs_device
def test_integers_and_half_on_the_gpu():
    i = make((4, 3), opscope.int32, seed=4, low=-5, high=5)
    assert_same(opscope.addcmul(dev(i), dev(i), dev(i), value=3),
                opscope.addcmul(i, i, i, value=3))
    if DEVICE == "cuda":  # float16: the GPU's kernel computes in float, the CPU has none
        h, d = make((4, 3), opscope.float16, seed=5), make((4, 3), opscope.float16, seed=6) + 3
        got = opscope.addcdiv(dev(h), dev(h), dev(d), value=0.25)
        want = opscope.addcdiv(h.float(), h.float(), d.float(), value=0.25).half()
        assert_same(got, want)


@needs_device
@pytest.mark.parametrize("name", sorted(OPS))
def test_gradients_against_the_cpu(name):
    op = OPS[name]
    cpu = [make(s, opscope.float64, seed=k, low=0.5, high=2.0).requires_grad_()
           for k, s in enumerate([(3, 4), (4,), (3, 1)])]
    gpu = [dev(t.detach()).requires_grad_() for t in cpu]
    op(*cpu, value=0.7).sum().backward()
    op(*gpu, value=0.7).sum().backward()
    for g, c in zip(gpu, cpu):
        assert_same(g.grad, c.grad)
