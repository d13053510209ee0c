"""roll on CUDA tensors (core/cuda/kernels/shape.cpp: narrow and cat per dim, as the CPU kernel
and torch's roll_common). Over the fake device of tests/cuda/fake_device.cpp: shapes, layouts,
errors and the trace (cat's kernel does not run there, so no values); on a GPU, values against
the CPU on every form.
"""
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

import opscope
from cuda_compare import assert_same, dev, make, needs_device

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
SOURCE = os.path.join(ROOT, "tests", "cuda", "fake_device.cpp")
CUDA_INCLUDE = os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "include")

FORMS = [((1,), None), ((-1,), (0,)), ((1, 2), (0, 1)), ((5,), (-1,)), ((-7, 3), (1, 0)),
         ((2,), (1,))]


@pytest.mark.skipif(
    not opscope.cuda._is_compiled() or shutil.which("g++") is None
    or not os.path.exists(os.path.join(CUDA_INCLUDE, "cuda_runtime_api.h")),
    reason="needs a CUDA build of opscope (OPSCOPE_CUDA=ON), g++ and the CUDA headers")
def test_roll_host_side_over_the_fake_device(tmp_path):
    lib = str(tmp_path / "libfake_cuda.so")
    subprocess.run(["g++", "-std=c++20", "-O1", "-fPIC", "-shared", "-I", CUDA_INCLUDE, SOURCE,
                    "-o", lib], check=True, capture_output=True, timeout=300)
    code = "import opscope as torch\nFORMS = " + repr(FORMS) + textwrap.dedent("""
        g = torch.ones(3, 4, device="cuda")
        for t in (g, g.t(), g[:, ::2], g[:0]):
            for shifts, dims in FORMS:
                r = t.roll(shifts, dims) if dims is not None else t.roll(shifts)
                assert r.is_cuda and r.shape == t.shape and r.dtype == t.dtype
        with torch.trace() as tr:
            g.roll(1, 0)
        assert [(op.name, op.steps[-1].key) for op in tr.roots] == [("aten::roll", "CUDA")]
        for bad, error, message in [
                (lambda: g.roll([]), RuntimeError, "`shifts` required"),
                (lambda: g.roll((1, 2), (0,)), RuntimeError,
                 "shifts and dimensions must align. shifts: 2, dims:1"),
                (lambda: g.roll(1, 5), IndexError, "Dimension out of range")]:
            try:
                bad()
            except error as e:
                assert str(e).startswith(message), str(e)
            else:
                raise AssertionError("no error: " + message)
        print("ok")
        """)
    env = dict(os.environ, LD_PRELOAD=lib, PYTHONPATH=os.pathsep.join(sys.path))
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "ok", \
        f"exit {r.returncode}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"


@needs_device
@pytest.mark.parametrize("dtype", [opscope.float32, opscope.int64, opscope.bool])
def test_roll_values(dtype):
    x = make((4, 5, 3), dtype, seed=1, low=-9, high=9)
    for t in (x, x.transpose(0, 2), x[:, ::2], x[:0]):
        for shifts, dims in FORMS + [((1, -1, 2), (0, 1, 2))]:
            want = t.roll(shifts, dims) if dims is not None else t.roll(shifts)
            got = dev(t).roll(shifts, dims) if dims is not None else dev(t).roll(shifts)
            assert_same(got, want, exact=True)
