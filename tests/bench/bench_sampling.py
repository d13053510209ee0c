"""Sampling benchmark: multinomial and randperm, opscope vs NumPy vs PyTorch 1.13 in one process.

A measurement, not a test: it prints one table and always exits 0.

    PYTHONPATH=core/python:build/python /usr/bin/python3 tests/bench/bench_sampling.py

What is measured (us/call, best of round-robin repeats, see benchlib.py):

1. makemore's loop step: one draw from a row of 27 probabilities,
   ``multinomial(p, 1, replacement=True, generator=g)`` (NumPy: ``rng.choice(27, p=p)``), and the
   same without replacement (opscope and torch run their checks and the exponential trick as ops).
2. Many draws: 10^5 samples with replacement from 1000 categories; 64 rows of 1000 categories,
   100 samples each without replacement.
3. randperm(10^5) (NumPy: ``rng.permutation``).
"""

from benchlib import best_per_call, fmt, np, opscope, print_table, ratio, torch

CASES = [
    # (case, opscope / torch stmt, NumPy stmt)
    ("multinomial(p27, 1, True)", "m.multinomial(p27, 1, replacement=True, generator=g)",
     "rng.choice(27, p=n27)"),
    ("multinomial(p27, 1)", "m.multinomial(p27, 1, generator=g)", "rng.choice(27, p=n27)"),
    ("multinomial(p1000, 1e5, True)", "m.multinomial(p1000, 100000, replacement=True, generator=g)",
     "rng.choice(1000, 100000, p=n1000)"),
    ("multinomial(64x1000, 100)", "m.multinomial(p64, 100, generator=g)", None),
    ("randperm(1e5)", "m.randperm(100000, generator=g)", "rng.permutation(100000)"),
]


def namespace(m):
    if m is None:
        return None
    g = m.Generator().manual_seed(0)
    p27 = m.softmax(m.randn(27, generator=g), 0)
    p1000 = m.rand(1000, generator=g)
    return {"m": m, "g": g, "p27": p27, "p1000": p1000, "p64": m.rand(64, 1000, generator=g)}


def main():
    rng = np.random.default_rng(0)
    n27 = rng.random(27)
    n1000 = rng.random(1000)
    numpy_ns = {"rng": rng, "n27": n27 / n27.sum(), "n1000": n1000 / n1000.sum()}
    ours, theirs = namespace(opscope), namespace(torch)
    rows = []
    for name, stmt, np_stmt in CASES:
        cases = {"opscope": (stmt, ours), "torch": (stmt, theirs) if theirs else None,
                 "numpy": (np_stmt, numpy_ns) if np_stmt else None}
        us = {k: None if v is None else v * 1e6 for k, v in best_per_call(cases, repeat=15).items()}
        rows.append([name, fmt(us["opscope"]), fmt(us["torch"]), fmt(us["numpy"]),
                     fmt(ratio(us["opscope"], us["torch"]))])
    print_table("Sampling (us/call, lower is better)",
                ["case", "opscope", "torch", "numpy", "opscope/torch"], rows,
                notes=["opscope draws from its Philox generator, torch from mt19937: same "
                       "distributions, different numbers."])


if __name__ == "__main__":
    main()
