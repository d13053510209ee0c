"""FX benchmark: opscope.fx vs torch.fx (1.13) on the same programs, side by side in one process.

A measurement, not a test: it prints one table and always exits 0.

    PYTHONPATH=core/python /usr/bin/python3 tests/bench/bench_fx.py [--quick]

Cases, for each library on its own tensors:
1. symbolic_trace of a chain of 1000 (neg, add) pairs, 2000 nodes: the tracer's per-node cost (Proxy, node
   naming, argument conversion) plus code generation and compilation of the GraphModule.
2. recompile() of that graph: code generation alone.
3. a call of the traced seed MLP (tests/python/fx_programs.py) against a call of the module it
   was traced from: what the generated forward costs over eager (should be ~1.0x).
4. Interpreter(gm).run of the same MLP: the node-by-node path, over the generated forward.
Target: cases 1 and 2 at most torch's time; case 3 within 10% of eager (a GraphModule call
goes through two more Python frames than the module's, the wrapper that prints the generated
line of an error, as torch.fx's does: the torch row shows what that costs there).
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "core", "python"))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
sys.path.insert(0, HERE)

from benchlib import best_per_call, fmt, opscope, print_table, ratio, torch, verdict  # noqa: E402
from fx_programs import programs  # noqa: E402


def chain(x):
    for _ in range(1000):
        x = x.neg() + 1
    return x


def namespaces():
    import importlib
    libs = {"opscope": (opscope, importlib.import_module("opscope.fx"))}
    if torch is not None:
        libs["torch"] = (torch, importlib.import_module("torch.fx"))
    out = {}
    for name, (m, fx) in libs.items():
        m.manual_seed(0)
        mlp = {p["name"]: p for p in programs(m)}["mlp"]
        module = mlp["make"]()
        gm = fx.symbolic_trace(module)
        out[name] = {"fx": fx, "chain": chain, "gm_chain": fx.symbolic_trace(chain),
                     "module": module, "gm": gm, "x": mlp["inputs"]()[0]}
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    repeat = 3 if parser.parse_args().quick else 10
    ns = namespaces()
    rows = []
    for case, stmt, loop_s in [("trace 2000-node chain", "fx.symbolic_trace(chain)", 0.2),
                               ("recompile 2000-node chain", "gm_chain.recompile()", 0.1)]:
        best = best_per_call({k: (stmt, v) for k, v in ns.items()}, loop_s=loop_s, repeat=repeat)
        o, t = best["opscope"], best.get("torch")
        r = ratio(o, t)
        rows.append([case, fmt(o * 1e3, 1), fmt(None if t is None else t * 1e3, 1), fmt(r, 2),
                     verdict(None if r is None else r <= 1.0)])
    env = ns["opscope"]
    # Two rounds: the Interpreter's garbage (a new env per run) would slow whichever statement
    # follows it in a shared round.
    best = best_per_call({"gm": ("gm(x)", env), "eager": ("module(x)", env)}, repeat=repeat * 4)
    best.update(best_per_call({"interp": ("fx.Interpreter(gm).run(x)", env)}, repeat=repeat * 4))
    r = ratio(best["gm"], best["eager"])
    rows.append(["MLP: GraphModule call / eager call", fmt(best["gm"] * 1e6, 1),
                 fmt(best["eager"] * 1e6, 1), fmt(r, 2), verdict(r <= 1.1)])
    if "torch" in ns:
        tb = best_per_call({"gm": ("gm(x)", ns["torch"]), "eager": ("module(x)", ns["torch"])},
                           repeat=repeat * 4)
        rows.append(["  (torch.fx: GraphModule call / eager)", fmt(tb["gm"] * 1e6, 1),
                     fmt(tb["eager"] * 1e6, 1), fmt(ratio(tb["gm"], tb["eager"]), 2), "n/a"])
    r = ratio(best["interp"], best["gm"])
    rows.append(["MLP: Interpreter.run / GraphModule call", fmt(best["interp"] * 1e6, 1),
                 fmt(best["gm"] * 1e6, 1), fmt(r, 2), "n/a"])
    print_table("opscope.fx vs torch.fx", ["case", "opscope", "torch / base", "ratio", "target"],
                rows, ["trace / recompile rows: ms per call, ratio opscope/torch (target <= 1.0).",
                       "MLP rows: us per call of one library (opscope, or torch where the row "
                       "says so): ratio to the base column (eager module, or the GraphModule "
                       "call)."])
    return 0


if __name__ == "__main__":
    sys.exit(main())
