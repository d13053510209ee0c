"""save / load benchmark: opscope.save / opscope.load vs torch.save / torch.load (1.13), the same
checkpoints side by side in one process.

A measurement, not a test: it prints one table and always exits 0.

    PYTHONPATH=core/python /usr/bin/python3 tests/bench/bench_serialization.py [--quick]

Cases (float32), each saved to and loaded from a file in a temporary folder and an io.BytesIO:
1. one tensor of 100 MB (25M elements): the storage bytes dominate.
2. a state dict of 100 tensors of 1 MB: the same bytes in 100 records.
3. a state dict of 2000 tensors of 16 elements: the pickle dominates (opscope pickles with the
   pure-Python pickler, to write torch's global names without importing torch).
Target: case 1 and 2 save and load in well under a second, at most 1.5x torch's time.

Times are the best of a few round-robin repeats (tests/bench/benchlib.py), in ms per call. Most of
a large load is page faults on the fresh memory the tensors get; torch pays them too.
"""
import argparse
import io
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "core",
                                "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from benchlib import best_per_call, fmt, opscope, print_table, ratio, torch, verdict  # noqa: E402


def checkpoints(m, quick):
    scale = 10 if quick else 1
    m.manual_seed(0)
    return {
        "one 100 MB tensor": m.randn(25_000_000 // scale),
        "100 x 1 MB": {f"layer{i}.weight": m.randn(250_000 // scale) for i in range(100)},
        "2000 x 16 floats": {f"layer{i}.bias": m.randn(16) for i in range(2000)},
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="a tenth of the sizes")
    args = parser.parse_args()
    libs = {"opscope": opscope}
    if torch is not None:
        libs["torch"] = torch
    objs = {name: checkpoints(m, args.quick) for name, m in libs.items()}
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for case in objs["opscope"]:
            for target in ("file", "BytesIO"):
                for op in ("save", "load"):
                    cases = {}
                    for name, m in libs.items():
                        path = os.path.join(tmp, f"{name}.pt")
                        ns = {"m": m, "obj": objs[name][case], "path": path, "io": io}
                        if target == "file":
                            m.save(ns["obj"], path)
                            stmt = "m.save(obj, path)" if op == "save" else "m.load(path)"
                        else:
                            buf = io.BytesIO()
                            m.save(ns["obj"], buf)
                            ns["data"] = buf.getvalue()
                            stmt = ("m.save(obj, io.BytesIO())" if op == "save"
                                    else "m.load(io.BytesIO(data))")
                        cases[name] = (stmt, ns)
                    best = best_per_call(cases, loop_s=0.001, repeat=5)
                    o, t = best["opscope"], best.get("torch")
                    r = ratio(t, o)
                    big = case != "2000 x 16 floats"
                    ok = None if not big or r is None else (o < 1.0 and r >= 1 / 1.5)
                    rows.append([f"{case}, {target}, {op}", fmt(o * 1e3, 1),
                                 fmt(None if t is None else t * 1e3, 1), fmt(r, 2), verdict(ok)])
    print_table("opscope.save / load vs torch.save / load (ms per call)",
                ["case", "opscope", "torch", "torch/opscope", "target"], rows,
                ["torch/opscope > 1: opscope is faster. Target (big cases): under 1 s and "
                 "at least 1/1.5 of torch's speed."])
    return 0


if __name__ == "__main__":
    sys.exit(main())
