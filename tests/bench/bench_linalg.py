"""opscope.linalg against NumPy and PyTorch: inv, det, solve, cholesky, qr, eigh, svd on a single
large matrix and on a batch of small ones, float64, one thread.

    PYTHONPATH=core/python:build/python /usr/bin/python3 tests/bench/bench_linalg.py [--threads 1]

All three libraries run LAPACK from OpenBLAS (opscope the OpenMP build it loads itself; NumPy and
PyTorch the one Debian links them to), so a large matrix measures the same routines: the ratios
show what opscope adds around them (the dispatcher, the copy of each matrix into a column-major
buffer). A batch of small matrices measures that per-matrix overhead: opscope and PyTorch loop
over the batch calling LAPACK per matrix, NumPy's gufuncs do too.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import best_per_call, fmt, machine_facts, np, opscope, print_header, print_table, ratio, set_threads, torch  # noqa: E402,E501

OPS = {
    # name: (opscope / torch statement, numpy statement, input kind)
    "inv": ("L.inv(a)", "np.linalg.inv(a)", "general"),
    "det": ("L.det(a)", "np.linalg.det(a)", "general"),
    "solve": ("L.solve(a, b)", "np.linalg.solve(a, b)", "general"),
    "cholesky": ("L.cholesky(a)", "np.linalg.cholesky(a)", "spd"),
    "qr": ("L.qr(a)", "np.linalg.qr(a)", "general"),
    "eigh": ("L.eigh(a)", "np.linalg.eigh(a)", "spd"),
    "svd": ("L.svd(a, full_matrices=False)", "np.linalg.svd(a, full_matrices=False)", "general"),
    "svdvals": ("L.svdvals(a)", "np.linalg.svd(a, compute_uv=False)", "general"),
}


def inputs(shape, kind, rng):
    n = shape[-1]
    a = rng.standard_normal(shape)
    if kind == "spd":
        a = a @ np.swapaxes(a, -1, -2) + n * np.eye(n)
    else:
        a = a + n ** 0.5 * np.eye(n)
    b = rng.standard_normal(shape[:-1] + (4,))
    return a, b


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    set_threads(args.threads)
    print_header(machine_facts(), f"bench_linalg: float64, {args.threads} thread(s)")
    rng = np.random.default_rng(0)
    for shape, label in [((256, 256), "one 256 x 256 matrix"), ((1000, 8, 8), "a batch of 1000 8 x 8 matrices")]:
        rows = []
        for name, (stmt, np_stmt, kind) in OPS.items():
            a, b = inputs(shape, kind, rng)
            cases = {
                "opscope": (stmt, {"L": opscope.linalg, "a": opscope.tensor(a), "b": opscope.tensor(b)}),
                "numpy": (np_stmt, {"np": np, "a": a, "b": b}),
                "torch": (stmt, {"L": torch.linalg, "a": torch.tensor(a), "b": torch.tensor(b)}) if torch else None,
            }
            t = best_per_call(cases, loop_s=0.02, repeat=8)
            us = {k: None if v is None else v * 1e6 for k, v in t.items()}
            rows.append([name, fmt(us["opscope"], 1), fmt(us["numpy"], 1), fmt(us["torch"], 1),
                         fmt(ratio(us["opscope"], us["numpy"]), 2), fmt(ratio(us["opscope"], us["torch"]), 2)])
        print_table(f"{label}: microseconds per call (lower is better)",
                    ["op", "opscope", "numpy", "torch", "opscope/numpy", "opscope/torch"], rows)


if __name__ == "__main__":
    main()
