"""torch.unique / unique_consecutive on CUDA tensors (core/cuda/kernels/unique.cpp: the CPU
kernels over a host copy, the results copied back). Only copies run, so the fake device of
tests/cuda/fake_device.cpp gives real values: each form against the CPU's, results on the GPU,
sorted whatever `sorted=` says (torch's CUDA kernels always sort). On a GPU the same checks run
without the fake.
"""
import os
import subprocess
import sys
import textwrap

import pytest

import opscope
from fake_cuda import needs_fake, run

CHECKS = textwrap.dedent("""
    import opscope as torch
    x = torch.tensor([[3, 1, 3], [2, 1, 3], [3, 1, 3]])
    f = torch.tensor([2.5, float("nan"), -1.0, 2.5, 0.0])
    cases = [
        lambda t: torch.unique(t), lambda t: torch.unique(t, sorted=False),
        lambda t: torch.unique(t, return_inverse=True, return_counts=True),
        lambda t: torch.unique(t, dim=0, return_inverse=True, return_counts=True),
        lambda t: torch.unique(t, dim=1), lambda t: torch.unique_consecutive(t),
        lambda t: torch.unique_consecutive(t.flatten(), return_inverse=True, return_counts=True),
        lambda t: torch.unique_consecutive(t, dim=0, return_counts=True),
        lambda t: t.unique(), lambda t: torch.unique(t[:0]),
    ]
    for k, case in enumerate(cases):
        for t in (x, x.t(), x.to(torch.float64)):
            # sorted=False: sorted on CUDA, as torch's CUDA kernel; the CPU keeps its own order
            want, got = (case if k != 1 else cases[0])(t), case(t.cuda())
            want = want if isinstance(want, tuple) else (want,)
            got = got if isinstance(got, tuple) else (got,)
            for g, w in zip(got, want):
                assert g.is_cuda and g.dtype == w.dtype and g.tolist() == w.tolist(), (k, g, w)
    u, inv, cnt = torch.unique(f.cuda(), return_inverse=True, return_counts=True)
    w = torch.unique(f, return_inverse=True, return_counts=True)
    assert str(u.cpu().tolist()) == str(w[0].tolist()) and inv.tolist() == w[1].tolist()
    with torch.trace() as tr:
        torch.unique(x.cuda())
    assert tr.roots[-1].name == "aten::_unique2" and tr.roots[-1].steps[-1].key == "CUDA"
    print("ok")
    """)


@needs_fake
def test_unique_over_the_fake_device(fake):
    out = run(fake, CHECKS, preamble="")
    assert out.strip() == "ok", out


@pytest.mark.skipif(not opscope.cuda.is_available(), reason="needs a CUDA GPU")
def test_unique_on_a_gpu():
    r = subprocess.run([sys.executable, "-c", CHECKS], capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)), timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stdout[-3000:] + r.stderr[-3000:]
