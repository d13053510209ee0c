"""The fake CUDA device of the host-side CUDA tests (tests/cuda/fake_device.cpp: real copies,
device memory the host cannot read, kernels that do nothing): built once per test session by the
`fake` fixture (conftest.py), preloaded into a child Python that runs a test's code, so that a
CUDA build's host code — dispatch keys, shapes, dtypes, state, messages — runs without a GPU.

    @needs_fake
    def test_something(fake):
        out = run(fake, '''
            x = torch.ones(2, device="cuda")
            print(x.device)
            ''')
"""
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

import opscope

SOURCE = os.path.join(os.path.dirname(__file__), "..", "cuda", "fake_device.cpp")
CUDA_INCLUDE = os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "include")

needs_fake = pytest.mark.skipif(
    not opscope.cuda._is_compiled() or shutil.which("g++") is None
    or not os.path.exists(os.path.join(CUDA_INCLUDE, "cuda_runtime_api.h")),
    reason="needs a CUDA build of opscope (OPSCOPE_CUDA=ON), g++ and the CUDA headers")

PREAMBLE = "import faulthandler; faulthandler.enable()\nimport opscope as torch\n"


def build(folder):
    """Compiles the fake device into folder; the library's path."""
    lib = os.path.join(str(folder), "libfake_cuda.so")
    subprocess.run(["g++", "-std=c++20", "-O1", "-fPIC", "-shared", "-I", CUDA_INCLUDE, SOURCE,
                    "-o", lib], check=True, capture_output=True, timeout=300)
    return lib


def run(lib, code, timeout=120, preamble=PREAMBLE):
    """Runs `code` (dedented, after `preamble`: `import opscope as torch`) in a child Python over
    the fake device; its stdout. A crash or an uncaught exception fails the test with the child's
    output."""
    env = dict(os.environ, LD_PRELOAD=lib, PYTHONPATH=os.pathsep.join(sys.path))
    script = preamble + textwrap.dedent(code)
    r = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                       timeout=timeout)
    assert r.returncode == 0, f"exit {r.returncode}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    return r.stdout
