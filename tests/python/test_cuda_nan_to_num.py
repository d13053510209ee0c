"""nan_to_num on CUDA tensors (core/cuda/kernels/elementwise.cpp: masks of NaN / +inf / -inf
taken from the input, then masked_fill_ each). Over the fake device of tests/cuda/fake_device.cpp:
forms, dtypes and the out= dtype error (no values: kernels do not run there); on a GPU, values
against the CPU kernel.
"""
import textwrap

import pytest

import opscope
from cuda_compare import DEVICE, assert_same, dev, needs_device
from fake_cuda import needs_fake, run


@needs_fake
def test_host_side_over_the_fake_device(fake):
    code = "import opscope as torch\n" + textwrap.dedent("""
        x = torch.tensor([float("nan"), float("inf"), -float("inf"), 1.5]).cuda()
        for r, dtype in [(torch.nan_to_num(x), torch.float32),
                         (torch.nan_to_num(x.half(), posinf=1.0), torch.float16),
                         (torch.nan_to_num(torch.tensor([1, 2], device="cuda")), torch.int64),
                         (torch.nan_to_num(x, out=torch.empty(0, device="cuda")),
                          torch.float32)]:
            assert r.is_cuda and r.dtype == dtype, r.dtype
        y = x.clone()
        assert y.nan_to_num_() is y
        with torch.trace() as t:
            torch.nan_to_num(x)
        assert t.roots[0].name == "aten::nan_to_num" and t.roots[0].steps[-1].key == "CUDA"
        try:
            torch.nan_to_num(x, out=torch.empty(4, dtype=torch.float64, device="cuda"))
        except RuntimeError as e:
            assert str(e) == "nan_to_num: dtype of out: Double should be same as input: Float"
        else:
            raise AssertionError("no error")
        print("ok")
        """)
    out = run(fake, code, preamble="")
    assert out.strip() == "ok", out


@needs_device
@pytest.mark.parametrize("dtype", [opscope.float32, opscope.float64, opscope.bfloat16,
                                   opscope.int32])
def test_values_against_the_cpu(dtype):
    x = opscope.tensor([[float("nan"), float("inf"), -1.5],
                        [-float("inf"), 0.0, 3e38]]).to(dtype) if dtype.is_floating_point \
        else opscope.tensor([[1, -2, 3]], dtype=dtype)
    for t in (x, x.t()):
        assert_same(opscope.nan_to_num(dev(t)), opscope.nan_to_num(t))
        assert_same(opscope.nan_to_num(dev(t), nan=1.0, posinf=2.0, neginf=-2.0),
                    opscope.nan_to_num(t, nan=1.0, posinf=2.0, neginf=-2.0))
        assert_same(opscope.nan_to_num(dev(t), nan=float("inf")),  # never replaced twice
                    opscope.nan_to_num(t, nan=float("inf")))
        g = dev(t).clone()
        g.nan_to_num_(posinf=5.0)
        assert_same(g, opscope.nan_to_num(t, posinf=5.0))
    if DEVICE == "cuda":  # float16: the CPU has no kernel; the largest half is 65504
        h = dev(opscope.tensor([float("inf"), -float("inf"), float("nan")])).half()
        assert opscope.nan_to_num(h).tolist() == [65504.0, -65504.0, 0.0]
