"""Autograd benchmark: opscope vs PyTorch 1.13, side by side in one process.

A measurement, not a test: it prints the issue's rows with ratios and targets and exits 0.

    PYTHONPATH=core/python /usr/bin/python3 tests/bench/bench_autograd.py

1. forward + backward of relu(x * 2 + 1).sum() on a 1-element tensor (per-op overhead of
   recording and running a graph). Target: opscope <= 0.5x PyTorch's time.
2. one training step (zero_grad, forward, cross_entropy, backward, SGD step) of a 784-256-10
   MLP at batch 64 and 256, float32, 1 and 2 threads (both libraries' BLAS bounded alike, see
   benchlib.set_threads). Target: opscope <= 1.0x PyTorch's time.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "core", "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from benchlib import best_per_call, fmt, np, opscope, print_table, ratio, set_threads, torch, verdict  # noqa: E402


def tiny_step(lib):
    x = lib.ones(1, requires_grad=True)

    def step():
        (lib.relu(x * 2 + 1)).sum().backward()
    return {"step": step}


def mlp_step(lib, batch, rng):
    nn = lib.nn
    xs = rng.standard_normal((batch, 784)).astype(np.float32)
    ys = rng.integers(0, 10, batch)
    x, y = lib.from_numpy(xs), lib.from_numpy(ys)
    model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10))
    opt = lib.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)

    def step():
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
    return {"step": step}


def main():
    rng = np.random.default_rng(0)
    rows = []
    libs = {"opscope": opscope, "torch": torch}
    for threads in (1, 2):
        set_threads(threads)
        cases = [("relu(x*2+1).sum() fwd+bwd, 1 element", 0.5, lambda lib: tiny_step(lib), 1e6, "us"),
                 ("MLP 784-256-10 train step, batch 64", 1.0, lambda lib: mlp_step(lib, 64, rng), 1e3, "ms"),
                 ("MLP 784-256-10 train step, batch 256", 1.0, lambda lib: mlp_step(lib, 256, rng), 1e3, "ms")]
        for name, target, make, scale, unit in cases:
            spaces = {k: (make(lib) if lib is not None else None) for k, lib in libs.items()}
            best = best_per_call({k: ("step()", sp) if sp else None for k, sp in spaces.items()},
                                 loop_s=0.02, repeat=15)
            o, t = (None if best[k] is None else best[k] * scale for k in ("opscope", "torch"))
            r = ratio(o, t)
            rows.append([name, str(threads), f"{fmt(o)} {unit}", f"{fmt(t)} {unit}", fmt(r, 2),
                         f"<= {target}x", verdict(None if r is None else r <= target)])
    print_table("Autograd: opscope vs PyTorch 1.13 (lower is better)",
                ["case", "threads", "opscope", "torch", "opscope/torch", "target", "ok"], rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
