"""A CUDA tensor's values reaching Python, and tensors made on the device from Python data:
tolist / item / float / int / bool / printing copy to the host as torch's do, .numpy() refuses
with torch's TypeError, opscope.tensor / as_tensor(data, device="cuda") make the tensor there —
or, where there is no GPU or no CUDA backend, raise torch's lazy-initialisation error;
copy.deepcopy keeps a tensor on its device; aten::to.device runs from Python and C++;
opscope.trace(x) of a CUDA matrix is torch 1.13's trace_cuda (the diagonal's sum).

Device parts run over the fake device of tests/cuda/fake_device.cpp (copies are real there, so
the values checked are the ones copied in; kernels do not run) in a CUDA build without a GPU;
the errors of a build or machine without CUDA run wherever they apply.
"""

import numpy as np
import pytest

import opscope
from cuda_compare import assert_same, dev, make, needs_device
from fake_cuda import needs_fake, run

MAKERS = [lambda: opscope.tensor([1.0], device="cuda"),
          lambda: opscope.as_tensor([1.0], device="cuda"),
          lambda: opscope.as_tensor(opscope.ones(2), device="cuda"),
          lambda: opscope.as_tensor(np.ones(2), device="cuda:0"),
          lambda: opscope.as_tensor(opscope.ones(2), dtype=opscope.float64, device=0)]


@pytest.mark.skipif(opscope.cuda._is_compiled(), reason="a build with the CUDA backend")
@pytest.mark.parametrize("make", MAKERS)
def test_without_the_backend_torchs_assertion(make):
    with pytest.raises(AssertionError, match="^Torch not compiled with CUDA enabled$"):
        make()


@pytest.mark.skipif(not opscope.cuda._is_compiled() or opscope.cuda.is_available(),
                    reason="needs a CUDA build on a machine without a GPU")
@pytest.mark.parametrize("make", MAKERS)
def test_without_a_gpu_torchs_lazy_init_error(make):
    with pytest.raises(RuntimeError, match="^(Found no NVIDIA driver on your system|No CUDA GPUs "
                                           "are available)"):
        make()


def test_as_tensor_on_the_cpu_keeps_sharing():
    t = opscope.ones(2)
    assert opscope.as_tensor(t, device="cpu") is t
    assert opscope.as_tensor(t, dtype=opscope.float32, device=opscope.device("cpu")) is t
    a = np.arange(3.0)
    shared = opscope.as_tensor(a, device="cpu")
    a[0] = 7.0
    assert shared.tolist() == [7.0, 1.0, 2.0]
    with pytest.raises(RuntimeError, match="no meta backend"):
        opscope.as_tensor([1.0], device="meta")


def test_numpy_of_a_tensor_that_requires_grad():
    """torch 1.13 refuses numpy() of a tensor that requires grad only while grad mode is on."""
    x = opscope.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match=r"^Can't call numpy\(\) on Tensor that requires grad. "
                                           r"Use tensor.detach\(\).numpy\(\) instead.$"):
        x.numpy()
    with opscope.no_grad():
        a = x.numpy()
    assert a.tolist() == [1.0, 1.0]
    a[0] = 3.0  # shares memory, as torch's
    assert x.tolist() == [3.0, 1.0]


def test_to_device_overload():
    """aten::to.device (its kernel takes a Device, as its schema and its C++ handle say)."""
    x = opscope.arange(3)
    y = opscope.ops.aten.to.device(x, opscope.device("cpu"), opscope.float64)
    assert y.dtype == opscope.float64 and y.tolist() == [0.0, 1.0, 2.0]
    assert opscope.ops.aten.to.device(x, opscope.device("cpu"), opscope.int64) is x
    assert opscope.ops.aten.to.device(x, opscope.device("cpu"), opscope.int64, copy=True) is not x


@needs_fake
def test_values_come_back_as_python_numbers(fake):
    run(fake, """
        import numpy as np
        x = torch.tensor([[1.5, -2.25], [3.0, 4.0]])
        g = x.cuda()
        assert g.tolist() == [[1.5, -2.25], [3.0, 4.0]]
        # A strided tensor is made contiguous on its GPU first: a kernel, whose values the fake
        # leaves out; its lists' shape and types are the host's work.
        strided = g.t().tolist()
        assert np.array(strided).shape == (2, 2) and type(strided[1][0]) is float
        assert g[1, 0].tolist() == 3.0 and type(g[1, 0].tolist()) is float   # 0-d: a number
        assert g[:, :0].tolist() == [[], []]
        w = g.clone().requires_grad_()
        assert w.tolist() == x.tolist()                               # no detach() needed
        i = torch.tensor([[3, -1]], device="cuda")
        assert i.tolist() == [[3, -1]] and type(i.tolist()[0][0]) is int
        b = torch.tensor([True, False], device="cuda")
        assert b.tolist() == [True, False] and type(b.tolist()[0]) is bool
        h = torch.tensor([0.5], dtype=torch.float16).cuda()
        assert h.tolist() == [0.5]
        assert g[0, 1].item() == -2.25 and float(g[0, 1]) == -2.25 and int(i[0, 0]) == 3
        assert bool(b[0]) and not bool(b[1])
        assert repr(g) == ("tensor([[ 1.5000, -2.2500],\\n        [ 3.0000,  4.0000]], "
                           "device='cuda:0')")
        try:
            g.numpy()
        except TypeError as e:
            assert str(e) == ("can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() "
                              "to copy the tensor to host memory first."), str(e)
        else:
            raise AssertionError("numpy() of a CUDA tensor did not raise")
        for refused in (lambda: w.numpy(), lambda: np.asarray(w)):  # the device before the grad
            try:
                refused()
            except TypeError as e:
                assert str(e).startswith("can't convert cuda:0 device type tensor"), str(e)
            else:
                raise AssertionError("numpy() of a CUDA parameter did not raise")
        """)


@needs_fake
def test_tensors_made_on_the_device_from_python_data(fake):
    run(fake, """
        import numpy as np
        t = torch.tensor([[1, 2], [3, 4]], device="cuda")
        assert t.is_cuda and t.dtype == torch.int64 and t.tolist() == [[1, 2], [3, 4]]
        cpu = torch.tensor([1.0, 2.0])
        for got, dtype in [(torch.as_tensor([1.0, 2.0], device="cuda"), torch.float32),
                           (torch.as_tensor(cpu, device="cuda"), torch.float32),
                           (torch.as_tensor(cpu, dtype=torch.float64, device=0), torch.float64),
                           (torch.as_tensor(np.array([1.0, 2.0]), device="cuda:0"), torch.float64),
                           (torch.as_tensor((1, 2), dtype=torch.float32, device="cuda"),
                            torch.float32)]:
            assert got.device == torch.device("cuda", 0) and got.dtype == dtype
            assert got.tolist() == [1.0, 2.0]
        g = cpu.cuda()
        assert torch.as_tensor(g, device="cuda") is g                 # already there: itself
        assert torch.as_tensor(g).is_cuda and torch.as_tensor(g, device="cpu").tolist() == [1, 2]
        leaf = torch.ones(2, requires_grad=True)
        moved = torch.as_tensor(leaf, device="cuda")
        assert moved.requires_grad and moved.grad_fn is not None      # history kept, as torch
        """)


@needs_fake
def test_deepcopy_and_to_device_stay_on_the_gpu(fake):
    run(fake, """
        import copy
        p = torch.tensor([[1.0, 2.0], [3.0, 4.0]], device="cuda", requires_grad=True)
        p.grad = torch.tensor([[0.5, 0.5], [0.5, 0.5]], device="cuda")
        q = copy.deepcopy(p)
        assert q.is_cuda and q.requires_grad and q.data_ptr() != p.data_ptr()
        assert q.tolist() == p.tolist() and q.grad.is_cuda and q.grad.tolist() == p.grad.tolist()
        w = copy.deepcopy(torch.nn.Parameter(p.detach()))
        assert type(w) is torch.nn.Parameter and w.is_cuda and w.tolist() == p.tolist()
        m = copy.deepcopy(torch.nn.Linear(2, 3).cuda())
        assert all(t.is_cuda for t in m.parameters())
        x = torch.arange(3)
        g = torch.ops.aten.to.device(x, torch.device("cuda"), torch.float32)
        assert g.is_cuda and g.dtype == torch.float32 and g.tolist() == [0.0, 1.0, 2.0]
        assert torch.ops.aten.to.device(g, torch.device("cuda", 0), torch.float32) is g
        """)


@needs_fake
def test_legacy_cuda_tensor_types(fake):
    run(fake, """
        from opscope import cuda
        x = cuda.FloatTensor([1, 2])
        assert x.is_cuda and x.dtype == torch.float32 and x.tolist() == [1.0, 2.0]
        assert isinstance(x, cuda.FloatTensor) and not isinstance(x, torch.FloatTensor)
        assert not isinstance(x.cpu(), cuda.FloatTensor) and not isinstance(x, cuda.LongTensor)
        assert x.type() == "torch.cuda.FloatTensor" and repr(cuda.LongTensor) == (
            "<class 'torch.cuda.LongTensor'>")
        e = cuda.DoubleTensor(2, 3)                        # sizes: uninitialised, on the GPU
        assert e.is_cuda and e.dtype == torch.float64 and tuple(e.shape) == (2, 3)
        assert tuple(cuda.LongTensor(torch.Size([4])).shape) == (4,)
        assert cuda.BoolTensor().numel() == 0 and cuda.BoolTensor().is_cuda
        a = cuda.FloatTensor(x)                            # an alias of a CUDA tensor of its dtype
        assert a.data_ptr() == x.data_ptr()
        for bad, error in [(lambda: cuda.FloatTensor(torch.ones(2)), TypeError),
                           (lambda: cuda.FloatTensor([1.0], device="cpu"), RuntimeError),
                           (lambda: cuda.FloatTensor(3.5), TypeError)]:
            try:
                bad()
            except error:
                pass
            else:
                raise AssertionError("no error")
        """)


@needs_fake
def test_trace_of_a_cuda_matrix(fake):
    """opscope.trace(x) (torch.trace) on CUDA: torch 1.13's trace_cuda, diagonal then sum, with
    sum's dtypes and its "expected a matrix"; TraceBackward0 on the device."""
    run(fake, """
        g = torch.ones(3, 4, device="cuda")
        with torch.trace() as t:
            r = torch.trace(g)
        assert r.is_cuda and tuple(r.shape) == () and r.dtype == torch.float32
        names = [op.name for op in t.ops]
        assert names[:3] == ["aten::trace", "aten::diagonal", "aten::as_strided"], names
        assert "aten::sum" in names and t.ops[0].steps[-1].key == "CUDA"
        for dt, want in [(torch.int32, torch.int64), (torch.bool, torch.int64),
                         (torch.float16, torch.float16), (torch.float64, torch.float64)]:
            assert torch.trace(torch.ones(2, 2, dtype=dt).cuda()).dtype == want, dt
        for bad in (torch.ones(2, device="cuda"), torch.ones(2, 2, 2, device="cuda")):
            try:
                torch.trace(bad)
            except RuntimeError as e:
                assert str(e) == "expected a matrix", str(e)
            else:
                raise AssertionError("no error")
        x = torch.ones(3, 2, device="cuda", requires_grad=True)
        y = x.trace()
        assert type(y.grad_fn).__name__ == "TraceBackward0"
        y.backward()
        assert x.grad.is_cuda and tuple(x.grad.shape) == (3, 2)
        """)


@needs_device
def test_trace_values_on_the_gpu():
    for shape in [(4, 4), (3, 5), (6, 2), (0, 3)]:
        for dtype in (opscope.float32, opscope.float64, opscope.int64):
            x = make(shape, dtype, seed=len(shape) + shape[0])
            assert_same(opscope.trace(dev(x)), opscope.trace(x))
            assert_same(opscope.trace(dev(x).t()), opscope.trace(x.t()))
    x = make((4, 3), opscope.float64, seed=7).requires_grad_()
    g = dev(x.detach()).requires_grad_()
    opscope.trace(x).backward()
    opscope.trace(g).backward()
    assert_same(g.grad, x.grad)


@needs_fake
def test_equal_of_cuda_tensors(fake):
    """torch.equal on CUDA: torch 1.13's cuda_equal (eq, all, one value read back); its size and
    emptiness answers and its device message. Values need a GPU (below)."""
    run(fake, """
        x = torch.ones(3, device="cuda")
        assert torch.equal(x, torch.ones(4, device="cuda")) is False       # sizes differ
        assert torch.equal(x[:0], torch.ones(0, device="cuda")) is True    # nothing to compare
        assert isinstance(torch.equal(x, x), bool)
        with torch.trace() as t:
            torch.equal(x, x)
        assert t.roots[0].name == "aten::equal" and t.roots[0].steps[-1].key == "CUDA"
        for a, b, got in [(x, torch.ones(3), "cuda:0 and cpu"),
                          (torch.ones(3), x, "cpu and cuda:0")]:
            try:
                torch.equal(a, b)
            except RuntimeError as e:
                assert str(e) == "Cannot compare two tensors on different devices. Got: " + got
            else:
                raise AssertionError("no error")
        """)


@needs_device
def test_equal_values_on_the_gpu():
    x = make((4, 5), opscope.float32, seed=9)
    g = dev(x)
    assert opscope.equal(g, g.clone()) and opscope.equal(g.t(), dev(x.t().contiguous()))
    y = x.clone()
    y[2, 3] += 1
    assert not opscope.equal(g, dev(y))
    assert opscope.equal(dev(opscope.arange(3.0)), dev(opscope.arange(3)))  # common dtype
    n = dev(opscope.tensor([1.0, float("nan")]))
    assert not opscope.equal(n, n)
