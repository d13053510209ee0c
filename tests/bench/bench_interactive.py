"""What the REPL's and the kernel's default view costs per execution (issue "The terminal REPL
`opscope`"): one line or cell run through IPython's InteractiveShell, without opscope.interactive
and with it (recording, grouping, drawing the view), for opscope; the same lines run plainly with
NumPy and PyTorch 1.13 beside them, so the added cost reads against what the line itself costs.

Targets: ≤ 5 ms added to an execution that ran < 100 ops; a 100,000-op loop's view in < 0.5 s.
A measurement, not a test: it prints a table and always exits 0.

    make bench BENCH=interactive
    PYTHONPATH=core/python:build/python /usr/bin/python3 tests/bench/bench_interactive.py
"""
import contextlib
import io
import os
import tempfile
import time

from benchlib import (fmt, machine_facts, np, opscope, print_header, print_table, ratio,
                      set_threads, torch, verdict)

# (case, code for opscope / torch as `lib`, code for NumPy or None, added-time target in ms)
CASES = [
    ("1 op: y = x + 1", "y = x + 1", "y = x + 1", 5.0),
    ("1 product: c = a @ b", "c = a @ b", "c = a @ b", 5.0),
    ("~60 ops: small MLP step", "h = (a @ b).relu()\nfor _ in range(20):\n"
     "    h = h * 0.5 + 1\nloss = h.sum()", None, 5.0),
    ("10,000-op loop", "for i in range(10000):\n    y = x + 1", "for i in range(10000):\n"
     "    y = x + 1", None),
    ("100,000-op loop", "for i in range(100000):\n    y = x + 1", "for i in range(100000):\n"
     "    y = x + 1", None),
]


def use(sh, lib):
    """Makes `a`, `b`, `x` of `lib` the shell's operands (float32: 2x3, 3x4, 3)."""
    sh.user_ns["lib"] = lib
    if lib is np:
        sh.run_cell("a = lib.ones((2, 3), lib.float32); b = lib.ones((3, 4), lib.float32); "
                    "x = lib.ones(3, lib.float32)", store_history=False)
    else:
        sh.run_cell("a = lib.ones(2, 3); b = lib.ones(3, 4); x = lib.ones(3)",
                    store_history=False)


def best_ms(sh, code, repeat):
    best = float("inf")
    for _ in range(repeat):
        with contextlib.redirect_stdout(io.StringIO()):
            t0 = time.perf_counter()
            sh.run_cell(code, store_history=False)
            best = min(best, time.perf_counter() - t0)
    return best * 1e3


def main():
    print_header(machine_facts(), "opscope.interactive: the default view's cost per execution "
                 "(ms, best of several, 1 thread)")
    set_threads(1)
    os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp()
    from IPython.core.interactiveshell import InteractiveShell
    sh = InteractiveShell.instance()
    rows = []
    plain = {}
    for name, code, np_code, _ in CASES:
        repeat = 3 if "100,000" in name else 15
        use(sh, opscope)
        plain[name] = {"opscope": best_ms(sh, code, repeat)}
        if torch is not None:
            use(sh, torch)
            plain[name]["torch"] = best_ms(sh, code, repeat)
        if np_code is not None:
            use(sh, np)
            plain[name]["numpy"] = best_ms(sh, np_code, repeat)
    use(sh, opscope)
    sh.extension_manager.load_extension("opscope.interactive")
    import opscope.interactive as oi
    oi.configure(color="never", renderer="text", width=100)
    for name, code, _, target in CASES:
        repeat = 3 if "100,000" in name else 15
        viewed = best_ms(sh, code, repeat)
        p = plain[name]
        added = viewed - p["opscope"]
        goal = target if target is not None else (500.0 if "100,000" in name else None)
        ok = goal is None or added <= goal
        rows.append([name, fmt(p.get("numpy"), 3), fmt(p.get("torch"), 3), fmt(p["opscope"], 3),
                     fmt(viewed, 3), fmt(added, 3), fmt(ratio(viewed, p["opscope"]), 2),
                     f"≤ {goal:g} ms {verdict(ok)}" if goal is not None else ""])
    print_table("per execution through InteractiveShell.run_cell",
                ["line", "NumPy", "PyTorch", "opscope", "opscope + views", "added",
                 "views/plain", "target (added)"], rows,
                notes=["'added' is recording every op, grouping the top-level items (C++), "
                       "turning the shown ones into Python objects and drawing the text view",
                       "the 100,000-op loop's target is the whole view in < 0.5 s"])


if __name__ == "__main__":
    main()
