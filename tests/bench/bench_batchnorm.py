"""Batch norm and the regression losses: opscope vs PyTorch 1.13, side by side in one process.

A measurement, not a test: it prints one table per thread count and always exits 0.

    PYTHONPATH=core/python:build/python /usr/bin/python3 tests/bench/bench_batchnorm.py [--threads 1,2] [--quick]

Cases (float32):
1. F.batch_norm training forward (statistics + running-stat update + output) on ResNet-like
   activations (32, 64, 28, 28) and an MLP's (256, 512), and eval forward on the first.
2. The same training forward + backward (input, weight and bias gradients).
3. smooth_l1_loss / huber_loss forward + backward on (256, 1024).
Target: opscope time <= 1.0x torch's.
Times are the best of round-robin repeats of short loops (tests/bench/benchlib.py), in ms per call.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "core", "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from benchlib import (VERSUS_TORCH_HEADER, np, opscope, print_table, set_threads,  # noqa: E402
                      threads_and_repeat, torch, versus_torch_row)


def make(m, shape, seed=0):
    """Input, weight, bias, running mean / var in library m (values from NumPy)."""
    rng = np.random.default_rng(seed)
    c = shape[1]
    x = m.tensor((rng.standard_normal(shape) * 2 + 0.5).astype(np.float32)).requires_grad_(True)
    w = m.tensor(rng.standard_normal(c).astype(np.float32)).requires_grad_(True)
    b = m.tensor(rng.standard_normal(c).astype(np.float32)).requires_grad_(True)
    return x, w, b, m.zeros(c), m.ones(c)


def bn_step(F, x, w, b, rm, rv):
    for t in (x, w, b):
        t.grad = None
    F.batch_norm(x, rm, rv, w, b, training=True).sum().backward()


def loss_step(F, name, x, t):
    x.grad = None
    getattr(F, name)(x, t).backward()


def check_agreement():
    """Both libraries give the same outputs and gradients here."""
    OF, TF = opscope.nn.functional, torch.nn.functional
    for shape in [(32, 64, 28, 28), (256, 512)]:
        mine, theirs = make(opscope, shape), make(torch, shape)
        bn_step(OF, *mine)
        bn_step(TF, *theirs)
        worst = max(float(np.max(np.abs(a.grad.numpy() - b.grad.numpy()))) for a, b in zip(mine[:3], theirs[:3]))
        stats = max(float(np.max(np.abs(a.numpy() - b.numpy()))) for a, b in zip(mine[3:], theirs[3:]))
        print(f"  batch_norm {shape}: largest gradient difference {worst:.2e}, running stats {stats:.2e}")


def main():
    thread_counts, repeat = threads_and_repeat(15)
    if torch is None:
        print("PyTorch is not installed: nothing to compare with")
        return
    check_agreement()
    OF, TF = opscope.nn.functional, torch.nn.functional
    for threads in thread_counts:
        set_threads(threads)
        rows = []
        for shape in [(32, 64, 28, 28), (256, 512)]:
            mine, theirs = make(opscope, shape), make(torch, shape)
            env = {"OF": OF, "TF": TF, "mine": mine, "theirs": theirs, "opscope": opscope, "torch": torch,
                   "bn_step": bn_step}
            cases = [
                ("train fwd", "with opscope.no_grad(): OF.batch_norm(mine[0], mine[3], mine[4], mine[1], mine[2], True)",
                 "with torch.no_grad(): TF.batch_norm(theirs[0], theirs[3], theirs[4], theirs[1], theirs[2], True)"),
                ("train fwd+bwd", "bn_step(OF, *mine)", "bn_step(TF, *theirs)"),
            ]
            if len(shape) == 4:
                cases.append(("eval fwd", "with opscope.no_grad(): OF.batch_norm(mine[0], mine[3], mine[4], mine[1], mine[2])",
                              "with torch.no_grad(): TF.batch_norm(theirs[0], theirs[3], theirs[4], theirs[1], theirs[2])"))
            for kind, o_stmt, t_stmt in cases:
                rows.append(versus_torch_row(f"batch_norm {shape} {kind}", o_stmt, t_stmt, env, repeat))
        rng = np.random.default_rng(1)
        xa, ta = rng.standard_normal((256, 1024)).astype(np.float32), rng.standard_normal((256, 1024)).astype(np.float32)
        env = {"OF": OF, "TF": TF, "loss_step": loss_step,
               "mx": opscope.tensor(xa).requires_grad_(True), "mt": opscope.tensor(ta),
               "tx": torch.tensor(xa).requires_grad_(True), "tt": torch.tensor(ta)}
        for name in ("smooth_l1_loss", "huber_loss"):
            rows.append(versus_torch_row(f"{name} (256, 1024) fwd+bwd", f"loss_step(OF, '{name}', mx, mt)",
                                         f"loss_step(TF, '{name}', tx, tt)", env, repeat))
        print_table(f"batch norm and losses, float32, {threads} thread(s): ms per call (best of {repeat})",
                    VERSUS_TORCH_HEADER, rows)


if __name__ == "__main__":
    main()
