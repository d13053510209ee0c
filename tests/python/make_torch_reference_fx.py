"""Record torch.fx's graphs of the ten programs in fx_programs.py, as reference for test_fx.py.

Run with Debian's Python (torch 1.13) and the ``tabulate`` package that torch's
Graph.print_tabular needs (Debian's python3-tabulate; unpacked anywhere on PYTHONPATH will do):

    /usr/bin/python3 tests/python/make_torch_reference_fx.py

For each program, data/fx_graphs.json holds its nodes (op, name, target as a qualified string
such as 'torch.relu' or 'operator.add', str() of args and kwargs), str(graph), the generated
code of the GraphModule, what ShapeProp records on each node for the program's example
inputs, and print_tabular's rows (the cells tabulate printed, object addresses blanked) and text.
"rewrites" holds the code and matches of torch.fx.replace_pattern on the cases of
fx_programs.rewrites, "extras" the code and graph of fx_programs.extras (annotations, a
ProxyableClassMeta class). The test traces the same programs with opscope.fx and compares; it never
imports torch.
"""
import contextlib
import io
import json
import os
import re
import sys

import tabulate  # print_tabular needs it (else it prints an install hint)
import torch
import torch.fx
from torch.fx.node import map_aggregate
from torch.fx.passes.shape_prop import ShapeProp

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from fx_programs import extras, programs, rewrites  # noqa: E402


def target_str(node):
    return node.target if isinstance(node.target, str) else node._pretty_print_target(node.target)


def shape_meta(node):
    """ShapeProp's record of a node as plain data: its tensor_meta with each TensorMetadata as
    the list of its fields (shape, dtype, requires_grad, stride, memory_format, is_quantized,
    qparams), objects other than numbers and strings as their repr; and the value's type name."""
    def plain(leaf):
        return leaf if isinstance(leaf, (int, float, str, bool, type(None))) else repr(leaf)
    meta = node.meta.get("tensor_meta")
    return {"tensor_meta": None if meta is None else map_aggregate(meta, plain),
            "type": node.meta["type"].__name__}


def record(program):
    torch.manual_seed(0)
    gm = torch.fx.symbolic_trace(program["make"](), concrete_args=program.get("concrete_args"))
    ShapeProp(gm).propagate(*program["inputs"]())
    headers = ["opcode", "name", "target", "args", "kwargs"]
    rows = [[str(n.op), str(n.name), str(n.target), str(n.args), str(n.kwargs)]
            for n in gm.graph.nodes]
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        gm.graph.print_tabular()
    # print_tabular is tabulate on these cells; kept with object addresses blanked
    # ('at 0x...'), so that recording twice gives the same file.
    assert buf.getvalue() == tabulate.tabulate(rows, headers=headers) + "\n"
    rows = [[re.sub(r" at 0x[0-9a-f]+", " at 0x...", cell) for cell in row] for row in rows]
    return {
        "nodes": [{"op": n.op, "name": n.name, "target": target_str(n), "args": str(n.args),
                   "kwargs": str(n.kwargs), "users": [u.name for u in n.users],
                   "shape_prop": shape_meta(n)}
                  for n in gm.graph.nodes],
        "graph": str(gm.graph),
        "code": gm.code,
        "tabular_rows": rows,
        "tabular": tabulate.tabulate(rows, headers=headers) + "\n",
    }


def record_rewrite(program, pattern, replacement):
    gm = torch.fx.symbolic_trace(program)
    matches = torch.fx.replace_pattern(gm, pattern, replacement)
    return {"code": gm.code,
            "matches": [{"anchor": m.anchor.name,
                         "nodes_map": [[p.name, g.name if isinstance(g, torch.fx.Node) else repr(g)]
                                       for p, g in m.nodes_map.items()]} for m in matches]}


def main():
    out = {p["name"]: record(p) for p in programs(torch)}
    rewritten = {name: record_rewrite(*case) for name, case in rewrites(torch).items()}
    more = {}
    for name, (fn, _) in extras(torch).items():
        gm = torch.fx.symbolic_trace(fn)
        more[name] = {"code": gm.code, "graph": str(gm.graph)}
    path = os.path.join(HERE, "data", "fx_graphs.json")
    with open(path, "w") as f:
        json.dump({"torch_version": torch.__version__, "programs": out, "rewrites": rewritten,
                   "extras": more}, f, indent=1)
        f.write("\n")
    print(f"wrote {path}: {len(out)} programs")


if __name__ == "__main__":
    main()
