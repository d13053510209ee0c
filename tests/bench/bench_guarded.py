"""What the no-crash checks cost (issue "No crash, no hang, no silent wrong answer"): opscope vs
NumPy vs PyTorch 1.13 per call, side by side in one process, one thread.

A measurement, not a test: it prints a table and always exits 0. The rows are the calls the
checks sit on: the guarded number-protocol slots (`a + b`), the ADInplaceOrView kernel's overlap
check (`a.add_(b)`, `a.fill_(1)`), the Autograd kernel every in-place op without a derivative now
passes (`a.uniform_()`, `a.ge_(0)`), indexing, and the p-norm's two passes (`x.norm(3)`).

    make bench BENCH=guarded
    PYTHONPATH=core/python /usr/bin/python3 tests/bench/bench_guarded.py
"""

from benchlib import (best_per_call, fmt, machine_facts, np, opscope, print_header, print_table,
                      ratio, set_threads, torch)

# (case, statement, NumPy statement or None): `a`, `b` 1-element float32, `x` 1000 elements.
CASES = [
    ("a + b", "a + b", "a + b"),
    ("a.add_(b)", "a.add_(b)", "np.add(a, b, out=a)"),
    ("a.fill_(1)", "a.fill_(1)", "a.fill(1)"),
    ("a.uniform_()", "a.uniform_()", None),
    ("a.ge_(0)", "a.ge_(0)", None),
    ("a[0] = 1", "a.__setitem__(0, 1)", "a.__setitem__(0, 1)"),
    ("x.norm(3), 1000 elements", "x.norm(3)", "np.linalg.norm(x, 3)"),
    ("x.sum(dtype=bool), 1000 elements", "x.sum(dtype=lib.bool)", None),
]


def namespace(lib):
    if lib is np:
        return {"a": np.ones(1, np.float32), "b": np.ones(1, np.float32),
                "x": np.ones(1000, np.float32), "np": np}
    return {"a": lib.ones(1), "b": lib.ones(1), "x": lib.ones(1000), "lib": lib}


def main():
    print_header(machine_facts(), "opscope: the cost of the no-crash checks (us per call, 1 thread)")
    set_threads(1)
    rows = []
    for name, stmt, np_stmt in CASES:
        best = best_per_call({
            "opscope": (stmt, namespace(opscope)),
            "numpy": (np_stmt, namespace(np)) if np_stmt else None,
            "torch": (stmt, namespace(torch)) if torch is not None else None,
        })
        us = {k: None if v is None else v * 1e6 for k, v in best.items()}
        rows.append([name, fmt(us["opscope"], 2), fmt(us["numpy"], 2), fmt(us["torch"], 2),
                     fmt(ratio(us["opscope"], us["torch"]), 2)])
    print_table("per call", ["call", "opscope us", "NumPy us", "PyTorch us", "opscope/PyTorch"],
                rows, notes=["x.norm(3) takes two passes (Note [The p-norm without overflow]); "
                             "the in-place rows pass the checks of InplaceOrView.cpp and "
                             "VariableKernel.cpp"])


if __name__ == "__main__":
    main()
