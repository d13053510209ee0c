"""Record torch.fx's graphs of the ten programs in fx_programs.py, as reference for test_fx.py.

Run with Debian's Python (torch 1.13) and the ``tabulate`` package that torch's
Graph.print_tabular needs (Debian's python3-tabulate; unpacked anywhere on PYTHONPATH will do):

    /usr/bin/python3 tests/python/make_torch_reference_fx.py

For each program, data/fx_graphs.json holds its nodes (op, name, target as a qualified string
such as 'torch.relu' or 'operator.add', str() of args and kwargs), str(graph), the generated
code of the GraphModule, and print_tabular's rows (the cells as tabulate printed them) and text.
The test traces the same programs with opscope.fx and compares; it never imports torch.
"""
import contextlib
import io
import json
import os
import sys

import torch
import torch.fx

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from fx_programs import programs  # noqa: E402


def target_str(node):
    return node.target if isinstance(node.target, str) else node._pretty_print_target(node.target)


def record(program):
    torch.manual_seed(0)
    gm = torch.fx.symbolic_trace(program["make"](), concrete_args=program.get("concrete_args"))
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        gm.graph.print_tabular()
    return {
        "nodes": [{"op": n.op, "name": n.name, "target": target_str(n), "args": str(n.args),
                   "kwargs": str(n.kwargs), "users": [u.name for u in n.users]}
                  for n in gm.graph.nodes],
        "graph": str(gm.graph),
        "code": gm.code,
        "tabular_rows": [[str(n.op), str(n.name), str(n.target), str(n.args), str(n.kwargs)]
                         for n in gm.graph.nodes],
        "tabular": buf.getvalue(),
    }


def main():
    import tabulate  # noqa: F401  (fail early: print_tabular would print an install hint instead)
    out = {p["name"]: record(p) for p in programs(torch)}
    path = os.path.join(HERE, "data", "fx_graphs.json")
    with open(path, "w") as f:
        json.dump({"torch_version": torch.__version__, "programs": out}, f, indent=1)
        f.write("\n")
    print(f"wrote {path}: {len(out)} programs")


if __name__ == "__main__":
    main()
