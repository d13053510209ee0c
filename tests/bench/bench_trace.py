"""What watching costs: per-op time of a 1-element ``a + b`` with nothing observing, inside
``opscope.trace()``, with stacks, under ``opscope.profiler.profile(record_shapes=True)``, and
PyTorch 1.13's profiler on the same op; and how long the trace of a 10,000-op loop takes to become
its default view. Targets (issue 5): recording adds <= 1 us per op; a stack capture <= 10 us per
op; the views of a 10,000-op loop render in < 1 s and stay a screenful.

    PYTHONPATH=core/python /usr/bin/python3 tests/bench/bench_trace.py
"""
import argparse
import time

import benchlib
import opscope

try:
    import torch
except ImportError:  # the opscope rows still run
    torch = None

N = 10_000


def per_op(run, wrap=None, repeat=7):
    """Best seconds per op of run(N) over `repeat` rounds, each inside a fresh wrap() context."""
    best = None
    for _ in range(repeat):
        ctx = wrap() if wrap else None
        if ctx is not None:
            ctx.__enter__()
        t0 = time.perf_counter()
        run(N)
        elapsed = time.perf_counter() - t0
        if ctx is not None:
            ctx.__exit__(None, None, None)
        best = elapsed if best is None else min(best, elapsed)
    return best / N


def add_loop(lib):
    a, b = lib.ones(1), lib.ones(1)

    def run(n):
        for _ in range(n):
            a + b
    return run


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    benchlib.set_threads(args.threads)
    benchlib.print_header(benchlib.machine_facts(), "opscope: the cost of recording")

    off = per_op(add_loop(opscope))
    traced = per_op(add_loop(opscope), opscope.trace)
    stacked = per_op(add_loop(opscope), lambda: opscope.trace(with_stack=True))
    profiled = per_op(add_loop(opscope), lambda: opscope.profiler.profile(record_shapes=True))
    rows = [["nothing observing", benchlib.fmt(off * 1e6), "n/a", "n/a", ""],
            ["opscope.trace()", benchlib.fmt(traced * 1e6), benchlib.fmt((traced - off) * 1e6),
             "<= 1 us", benchlib.verdict(traced - off <= 1e-6)],
            ["opscope.trace(with_stack=True)", benchlib.fmt(stacked * 1e6),
             benchlib.fmt((stacked - off) * 1e6), "stack <= 10 us",
             benchlib.verdict(stacked - traced <= 10e-6)],
            ["profiler record_shapes", benchlib.fmt(profiled * 1e6),
             benchlib.fmt((profiled - off) * 1e6), "<= 1 us",
             benchlib.verdict(profiled - off <= 1e-6)]]
    if torch is not None:
        t_off = per_op(add_loop(torch))
        t_prof = per_op(add_loop(torch),
                        lambda: torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU],
                                                       record_shapes=True))
        rows += [["torch: nothing observing", benchlib.fmt(t_off * 1e6), "n/a", "n/a", ""],
                 ["torch.profiler.profile(record_shapes=True)", benchlib.fmt(t_prof * 1e6),
                  benchlib.fmt((t_prof - t_off) * 1e6), "(reference)", ""]]
    benchlib.print_table("Per-op cost of a + b, 1 element (us/op)",
                         ["case", "us/op", "added", "target", "ok"], rows,
                         [f"best of 7 rounds of {N} ops; 'added' = minus nothing observing; "
                          "a + b is 2 dispatch steps (AutogradCPU, CPU), an allocation and a free; "
                          "with_stack captures one stack per op (at its CPU kernel): its target is "
                          "on the difference to opscope.trace()"])

    x = opscope.ones(2)
    with opscope.trace() as t:
        for _ in range(N):
            x = x + 1
    t0 = time.perf_counter()
    text = str(t)  # the tree is built at the end of the with block: time that too
    t1 = time.perf_counter()
    t0b = time.perf_counter()
    opscope.profiler.Trace(t.events)
    t1b = time.perf_counter()
    render = (t1 - t0) + (t1b - t0b)
    benchlib.print_table(f"The trace of a {N}-op loop",
                         ["case", "seconds", "lines", "target", "ok"],
                         [["build the tree + default text view", benchlib.fmt(render),
                           str(len(text.splitlines())), "< 1 s, a screenful",
                           benchlib.verdict(render < 1 and len(text.splitlines()) < 40)]])


if __name__ == "__main__":
    main()
