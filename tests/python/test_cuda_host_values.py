"""A CUDA tensor's values reaching Python, and tensors made on the device from Python data:
tolist / item / float / int / bool / printing copy to the host as torch's do, .numpy() refuses
with torch's TypeError, opscope.tensor / as_tensor(data, device="cuda") make the tensor there —
or, where there is no GPU or no CUDA backend, raise torch's lazy-initialisation error.

Device parts run over the fake device of tests/cuda/fake_device.cpp (copies are real there, so
the values checked are the ones copied in; kernels do not run) in a CUDA build without a GPU;
the errors of a build or machine without CUDA run wherever they apply.
"""
import os
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import opscope

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
SOURCE = os.path.join(ROOT, "tests", "cuda", "fake_device.cpp")
CUDA_INCLUDE = os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "include")

needs_fake = pytest.mark.skipif(
    not opscope.cuda._is_compiled() or shutil.which("g++") is None
    or not os.path.exists(os.path.join(CUDA_INCLUDE, "cuda_runtime_api.h")),
    reason="needs a CUDA build of opscope (OPSCOPE_CUDA=ON), g++ and the CUDA headers")

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


@pytest.fixture(scope="module")
def fake(tmp_path_factory):
    lib = str(tmp_path_factory.mktemp("fake_cuda") / "libfake_cuda.so")
    subprocess.run(["g++", "-std=c++20", "-O1", "-fPIC", "-shared", "-I", CUDA_INCLUDE, SOURCE,
                    "-o", lib], check=True, capture_output=True, timeout=300)
    return lib


def run(fake, code):
    """`code` (after `import opscope as torch`) in a child over the fake device."""
    env = dict(os.environ, LD_PRELOAD=fake, PYTHONPATH=os.pathsep.join(sys.path))
    script = "import faulthandler; faulthandler.enable()\nimport opscope as torch\n" + \
        textwrap.dedent(code)
    r = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, f"exit {r.returncode}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    return r.stdout


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
        assert repr(g) == "tensor([[ 1.5000, -2.2500],\\n        [ 3.0000,  4.0000]], device='cuda:0')"
        try:
            g.numpy()
        except TypeError as e:
            assert str(e) == ("can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() "
                              "to copy the tensor to host memory first."), str(e)
        else:
            raise AssertionError("numpy() of a CUDA tensor did not raise")
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
