"""Threads benchmark: two Python threads running big ops at once, opscope vs PyTorch 1.13.

A measurement, not a test: it prints the rows with ratios and targets and exits 0.

    PYTHONPATH=core/python:build/python /usr/bin/python3 tests/bench/bench_threads.py [--quick]

1. Two-thread scaling: each thread runs the same op K times with one intra-op thread (so that a
   thread alone uses one core); the scaling is 2 * (time of one thread alone) / (time of two
   threads at once): 2.0 when both cores work, 1.0 when the GIL serializes them. Ops: a 512x512
   float32 matmul (opscope.mm and the `@` operator), a sum over 4M float32 elements, and
   backward of (x @ w).tanh().sum() at 256x256. Target: opscope >= 1.6x (issue 16) on 2 cores.
   Each figure is the best of several rounds (on a shared machine another process's burst takes
   a core away from one round, not from all of them).
2. The cost of releasing the GIL: opscope.add(a, b, out=c) just below and at the threshold
   (gil.h: kReleaseGilElements), and on 1 element — the per-call overhead that never pays it.
"""
import argparse
import os
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from benchlib import best_per_call, fmt, np, opscope, print_table, ratio, set_threads, torch, verdict  # noqa: E402,E501

SCALING_TARGET = 1.6
RELEASE_AT = 16384  # core/python/gil.h kReleaseGilElements


def cases(lib):
    """(name, setup -> op) for each scaling row; each thread gets its own tensors."""
    rng = np.random.default_rng(0)

    def mm():
        a = lib.tensor(rng.standard_normal((512, 512), dtype=np.float32))
        return lambda: lib.mm(a, a)

    def matmul_operator():
        a = lib.tensor(rng.standard_normal((512, 512), dtype=np.float32))
        return lambda: a @ a

    def big_sum():
        v = lib.tensor(rng.standard_normal(4_000_000, dtype=np.float32))
        return lambda: v.sum()

    def backward():
        x = lib.tensor(rng.standard_normal((256, 256), dtype=np.float32))
        w = lib.tensor(rng.standard_normal((256, 256), dtype=np.float32), requires_grad=True)

        def step():
            lib.tanh(lib.mm(x, w)).sum().backward()
        return step

    return [("mm 512x512", mm), ("a @ a 512x512", matmul_operator), ("sum 4M", big_sum),
            ("backward mm+tanh 256", backward)]


def run_threads(lib, setup, k, n_threads):
    """Seconds for n_threads threads each running its op k times (after one warm-up call)."""
    barrier = threading.Barrier(n_threads + 1)
    errors = []

    def work():
        try:
            if lib is opscope:
                lib.set_num_threads(1)  # OpenMP's count is per thread
            op = setup()
            op()
            barrier.wait()
            for _ in range(k):
                op()
            barrier.wait()
        except BaseException as e:  # noqa: B902  (reported below)
            errors.append(e)
            barrier.abort()

    threads = [threading.Thread(target=work) for _ in range(n_threads)]
    for t in threads:
        t.start()
    barrier.wait()
    t0 = time.perf_counter()
    barrier.wait()
    elapsed = time.perf_counter() - t0
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return elapsed


def calibrate(lib, setup, seconds=0.15):
    k = 1
    while run_threads(lib, setup, k, 1) < seconds and k < 10_000:
        k *= 2
    return k


def bench_scaling(rounds):
    libs = {"opscope": opscope, "torch": torch}
    set_threads(1)  # torch's threads and the OpenBLAS NumPy / torch share; opscope's per thread
    rows, results = [], []
    for i, (name, _) in enumerate(cases(opscope)):
        scaling = {}
        for key, lib in libs.items():
            if lib is None:
                scaling[key] = None
                continue
            setup = cases(lib)[i][1]
            k = calibrate(lib, setup)
            one = min(run_threads(lib, setup, k, 1) for _ in range(rounds))
            two = min(run_threads(lib, setup, k, 2) for _ in range(rounds))
            scaling[key] = 2 * one / two
        ok = scaling["opscope"] >= SCALING_TARGET
        results.append({"case": name, "scaling": scaling, "ok": ok})
        rows.append([name, fmt(scaling["opscope"], 2), fmt(scaling["torch"], 2),
                     f">= {SCALING_TARGET}x", verdict(ok)])
    print_table("1. Two threads at once: scaling over one thread (2.0 = both cores busy)",
                ["case", "opscope", "torch", "target", "ok"], rows,
                [f"{os.cpu_count()} cores; one intra-op thread per Python thread; best of "
                 f"{rounds} rounds."])
    return results


def bench_release_cost():
    set_threads(1)
    rows, results = [], []
    timings = {}
    for n in (RELEASE_AT - 1, RELEASE_AT, 1):
        a, b, c = opscope.ones(n), opscope.ones(n), opscope.empty(n)
        timings[n] = best_per_call({"opscope": ("lib.add(a, b, out=c)",
                                                {"lib": opscope, "a": a, "b": b, "c": c})},
                                   repeat=60)["opscope"] * 1e6
    below, at = timings[RELEASE_AT - 1], timings[RELEASE_AT]
    results = {"below_us": below, "at_us": at, "one_element_us": timings[1]}
    rows = [[f"add(a, b, out=c), {RELEASE_AT - 1} elements (GIL kept)", fmt(below)],
            [f"add(a, b, out=c), {RELEASE_AT} elements (GIL released)", fmt(at)],
            ["difference: releasing and retaking the GIL", fmt(at - below)],
            ["add(a, b, out=c), 1 element (GIL kept)", fmt(timings[1])]]
    print_table("2. What releasing the GIL costs (us/call, best of 60)", ["case", "us"], rows,
                [f"release / op at the threshold: {fmt(ratio(at - below, at), 3)}"])
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="2 rounds instead of 5")
    args = parser.parse_args()
    bench_scaling(2 if args.quick else 5)
    bench_release_cost()


if __name__ == "__main__":
    main()
