"""bitwise_not (~mask), logical_not and count_nonzero on CUDA tensors (core/cuda/kernels/
elementwise.cpp, reduce.cpp): the xor kernel against an all-ones CPU scalar, eq's out= kernel, and
the nonzero mask summed. Without a GPU, over the fake
device of tests/cuda/fake_device.cpp, the host side (dtypes, forms, the trace, errors); with one,
values against the CPU kernels.
"""

import pytest

import opscope
from cuda_compare import assert_same, dev, make, needs_device
from fake_cuda import needs_fake, run


@needs_fake
def test_host_side_over_the_fake_device(fake):
    out = run(fake, """
        b = torch.tensor([True, False], device="cuda")
        i = torch.tensor([1, -3], device="cuda")
        for got, dtype in [(~b, torch.bool), (~i, torch.int64),
                           (torch.bitwise_not(i.to(torch.uint8)), torch.uint8),
                           (torch.logical_not(i), torch.bool),
                           (torch.logical_not(i, out=torch.empty(0, device="cuda")),
                            torch.float32)]:
            assert got.is_cuda and got.dtype == dtype and tuple(got.shape) == (2,), got.dtype
        c = b.clone()
        assert c.bitwise_not_() is c and c.logical_not_() is c
        o = torch.empty(2, dtype=torch.int64, device="cuda")
        assert torch.bitwise_not(i, out=o) is o
        with torch.trace() as t:
            ~b
        assert [(op.name, op.steps[-1].key) for op in t.roots] == [("aten::bitwise_not", "CUDA")]
        for bad, message in [(lambda: ~torch.ones(2, device="cuda"), "~ (operator.invert)"),
                             (lambda: torch.bitwise_not(torch.ones(2, device="cuda")),
                              '"bitwise_not_cuda" not implemented for \\'Float\\'')]:
            try:
                bad()
            except (TypeError, RuntimeError) as e:
                assert str(e).startswith(message), str(e)
            else:
                raise AssertionError("no error")
        x = torch.ones(2, 3, device="cuda")
        for got, shape in [(torch.count_nonzero(x), ()), (torch.count_nonzero(x, 1), (2,)),
                           (torch.count_nonzero(x, [0, 1]), ()),
                           (torch.count_nonzero(x[:0], 0), (3,))]:
            assert got.is_cuda and got.dtype == torch.int64 and tuple(got.shape) == shape
        try:
            torch.count_nonzero(x, [0, 0])
        except RuntimeError as e:
            assert str(e) == "dim 0 appears multiple times in the list of dims", str(e)
        else:
            raise AssertionError("no error")
        print("ok")
        """)
    assert out.strip() == "ok", out


@needs_device
@pytest.mark.parametrize("dtype", [opscope.bool, opscope.uint8, opscope.int8, opscope.int32,
                                   opscope.int64])
def test_bitwise_not_values(dtype):
    x = make((5, 6), dtype, seed=2, low=-100, high=100)
    for t in (x, x.t(), x[:, ::2]):
        assert_same(opscope.bitwise_not(dev(t)), opscope.bitwise_not(t))
        g = dev(t).clone()
        g.bitwise_not_()
        assert_same(g, opscope.bitwise_not(t))


@needs_device
@pytest.mark.parametrize("dtype", [opscope.bool, opscope.int64, opscope.float32,
                                   opscope.float64])
def test_logical_not_values(dtype):
    x = make((4, 5), dtype, seed=3, low=-2, high=2)
    if dtype.is_floating_point:
        x[0, 0], x[1, 1], x[2, 2] = 0.0, float("nan"), -0.0
    for t in (x, x.t()):
        assert_same(opscope.logical_not(dev(t)), opscope.logical_not(t))
        out = dev(opscope.empty(0, dtype=opscope.float32))
        assert_same(opscope.logical_not(dev(t), out=out),
                    opscope.logical_not(t, out=opscope.empty(0)))


@needs_device
def test_count_nonzero_values():
    x = make((4, 6), opscope.float32, seed=5)
    x[1] = 0.0
    x[2, 3] = float("nan")
    for t in (x, x.t(), (x > 0).to(opscope.int32)):
        for dims in (None, 0, 1, [0, 1], [-1]):
            assert_same(opscope.count_nonzero(dev(t), dims), opscope.count_nonzero(t, dims))
