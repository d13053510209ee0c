"""DataLoader benchmark: per-batch overhead of opscope.utils.data vs torch.utils.data 1.13, side
by side in one process.

A measurement, not a test: it prints one table and always exits 0.

    PYTHONPATH=core/python /usr/bin/python3 tests/bench/bench_data.py [--quick] [--workers]

Cases: a TensorDataset of 10,000 x 784 float32 images and int64 labels (MNIST's shape), batch
64, num_workers=0, shuffle off and on; the same through a user Dataset whose __getitem__
returns (image, label) (the per-item path of every tutorial). Each row is one epoch (157
batches: the loop body is empty), in µs per batch; ratio = opscope / torch (≤ 1.0: opscope's
overhead is at most torch's, the target). Both run torch's algorithm: a BatchSampler of
indices, ``dataset[i]`` per index, ``default_collate`` stacking the samples.

``--workers`` adds num_workers=2 rows (whole epochs, worker start and stop included; no
target: opscope sends batches through a pipe, torch through shared memory).

Times are the best of round-robin repeats (tests/bench/benchlib.py).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "core", "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from benchlib import (best_per_call, fmt, machine_facts, np, opscope, print_header,  # noqa: E402
                      print_table, ratio, set_threads, torch, verdict)

import opscope.utils.data as odata  # noqa: E402

N, FEATURES, BATCH = 10_000, 784, 64


class Pairs:
    """A user map-style dataset over two tensors: __getitem__ in Python, one sample at a time."""

    def __init__(self, x, y):
        self.x, self.y = x, y

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


def make_loaders(lib, data, x, y, shuffle, workers=0):
    base = data.Dataset
    ds_user = type("UserPairs", (Pairs, base), {})(x, y)
    gen = lib.Generator().manual_seed(0)
    kw = {"batch_size": BATCH, "shuffle": shuffle, "num_workers": workers}
    if shuffle:
        kw["generator"] = gen
    return {"TensorDataset": data.DataLoader(data.TensorDataset(x, y), **kw),
            "user Dataset": data.DataLoader(ds_user, **kw)}


def epoch(loader):
    for _ in loader:
        pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("--workers", action="store_true", help="add num_workers=2 rows")
    args = parser.parse_args()
    set_threads(1)
    print_header(machine_facts(), "DataLoader per-batch overhead: opscope vs PyTorch 1.13")

    rng = np.random.default_rng(0)
    xn = rng.standard_normal((N, FEATURES), dtype=np.float32)
    yn = rng.integers(0, 10, N).astype(np.int64)
    ox, oy = opscope.from_numpy(xn), opscope.from_numpy(yn)
    tx = ty = None
    if torch is not None:
        import torch.utils.data as tdata
        tx, ty = torch.from_numpy(xn), torch.from_numpy(yn)

    batches = -(-N // BATCH)
    repeat = 5 if args.quick else 15
    rows = []
    configs = [(False, 0), (True, 0)] + ([(False, 2), (True, 2)] if args.workers else [])
    for shuffle, workers in configs:
        ours = make_loaders(opscope, odata, ox, oy, shuffle, workers)
        theirs = make_loaders(torch, tdata, tx, ty, shuffle, workers) if torch is not None else {}
        for name in ours:
            cases = {"opscope": ("epoch(l)", {"epoch": epoch, "l": ours[name]}),
                     "torch": ("epoch(l)", {"epoch": epoch, "l": theirs[name]}) if theirs else None}
            best = best_per_call(cases, loop_s=0.0, repeat=repeat if workers == 0 else 3)
            o = best["opscope"] * 1e6 / batches
            t = best["torch"] * 1e6 / batches if best["torch"] is not None else None
            r = ratio(o, t)
            target = verdict(r <= 1.0) if (r is not None and workers == 0) else "n/a"
            rows.append([f"{name}, shuffle={shuffle}, workers={workers}", fmt(o, 1),
                         fmt(t, 1), fmt(r, 2), target])
    print_table(f"µs per batch of {BATCH} ({N} x {FEATURES} float32 + int64 labels, 1 thread)",
                ["case", "opscope µs", "torch µs", "opscope/torch", "target ≤1.0"], rows,
                notes=["one epoch per timing, empty loop body; best of round-robin repeats"])


if __name__ == "__main__":
    main()
