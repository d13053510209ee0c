"""Convolution benchmark: opscope vs PyTorch 1.13, side by side in one process.

A measurement, not a test: it prints one table per thread count and always exits 0.

    PYTHONPATH=core/python:build/python /usr/bin/python3 tests/bench/bench_conv.py [--threads 1,2] [--quick]

Cases (float32, forward + backward of every parameter and the input, as a training step does):
1. LeNet: x (64, 1, 28, 28) -> conv 1->6 5x5 -> relu -> max_pool 2 -> conv 6->16 5x5 -> relu
   -> max_pool 2 -> sum.
2. ResNet-style 3x3 block without batch norm: x (16, 64, 28, 28) -> conv 64->64 3x3 pad 1 -> relu
   -> conv 64->64 3x3 pad 1 -> sum.
3. Forward only, both cases, under no_grad.
Target: opscope time <= 1.0x torch's (torch 1.13 runs float32 convolutions on oneDNN /
mkldnn; opscope on im2col + OpenBLAS sgemm).

Times are the best of round-robin repeats of short loops (tests/bench/benchlib.py), in ms per call.
On a shared 2-core machine the 2-thread rows need both cores idle; read them only from a quiet
run. The OpenBLAS kernels matter for the products: OPENBLAS_CORETYPE=SkylakeX runs opscope's
sgemm ~20% faster than Haswell's on an AVX-512 CPU (see core/runtime/Blas.h).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "core", "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from benchlib import (VERSUS_TORCH_HEADER, np, opscope, print_table, set_threads,  # noqa: E402
                      threads_and_repeat, torch, versus_torch_row)

import opscope.nn.functional as OF  # noqa: E402


def make(m, F, shapes, seed=0):
    """Leaves of the given shapes in library m (values from NumPy, so both libraries agree)."""
    rng = np.random.default_rng(seed)
    out = []
    for s in shapes:
        a = (rng.standard_normal(s) * 0.1).astype(np.float32)
        t = m.tensor(a)
        t.requires_grad_(len(s) > 0 and s != shapes[0])  # parameters require grad ...
        out.append(t)
    out[0].requires_grad_(True)  # ... and the input (its gradient is computed, as in a deep net)
    return out


def lenet(F, x, w1, b1, w2, b2):
    h = F.max_pool2d(F.relu(F.conv2d(x, w1, b1)), 2)
    return F.max_pool2d(F.relu(F.conv2d(h, w2, b2)), 2)


def block(F, x, w1, b1, w2, b2):
    return F.conv2d(F.relu(F.conv2d(x, w1, b1, padding=1)), w2, b2, padding=1)


CASES = {
    "LeNet 64x1x28x28 (conv 1->6 5x5, pool, 6->16 5x5, pool)":
        (lenet, [(64, 1, 28, 28), (6, 1, 5, 5), (6,), (16, 6, 5, 5), (16,)]),
    "3x3 block 16x64x28x28 (conv 64->64 pad 1, relu, conv 64->64)":
        (block, [(16, 64, 28, 28), (64, 64, 3, 3), (64,), (64, 64, 3, 3), (64,)]),
}


def step(fn, F, args):
    for a in args:
        a.grad = None
    fn(F, *args).sum().backward()


def check_agreement():
    """The two libraries compute the same gradients here (a benchmark of wrong answers is none)."""
    for name, (fn, shapes) in CASES.items():
        mine, theirs = make(opscope, OF, shapes), make(torch, torch.nn.functional, shapes)
        step(fn, OF, mine)
        step(fn, torch.nn.functional, theirs)
        worst = max(float(np.max(np.abs(a.grad.numpy() - b.grad.numpy()))) for a, b in zip(mine, theirs))
        print(f"  {name}: largest gradient difference opscope vs torch {worst:.2e}")


def main():
    thread_counts, repeat = threads_and_repeat(40)
    if torch is None:
        print("PyTorch is not installed: nothing to compare with")
        return
    print(f"opscope {opscope.__version__ if hasattr(opscope, '__version__') else ''}, torch {torch.__version__}, "
          f"mkldnn {torch.backends.mkldnn.is_available()}")
    check_agreement()
    TF = torch.nn.functional
    for threads in thread_counts:
        set_threads(threads)
        rows = []
        for name, (fn, shapes) in CASES.items():
            mine, theirs = make(opscope, OF, shapes), make(torch, TF, shapes)
            env = {"step": step, "fn": fn, "OF": OF, "TF": TF, "mine": mine, "theirs": theirs,
                   "opscope": opscope, "torch": torch}
            for kind, o_stmt, t_stmt in [
                ("fwd+bwd", "step(fn, OF, mine)", "step(fn, TF, theirs)"),
                ("fwd", "with opscope.no_grad(): fn(OF, *mine)", "with torch.no_grad(): fn(TF, *theirs)"),
            ]:
                rows.append(versus_torch_row(f"{name} {kind}", o_stmt, t_stmt, env, repeat, digits=2))
        print_table(f"convolutions, float32, {threads} thread(s): ms per call (best of {repeat})",
                    VERSUS_TORCH_HEADER, rows)


if __name__ == "__main__":
    main()
