"""Records torch 1.13's backward op lists of backward_ops_cases.py into
tests/python/data/backward_ops_torch.json (test_backward_ops.py compares opscope's with them).

    /usr/bin/python3 tests/python/make_torch_reference_backward_ops.py
"""
import collections
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(__file__))
from backward_ops_cases import CASES, backward_ops, saved_names  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "data", "backward_ops_torch.json")


def steady(case, runs=15):
    """Each node's op list as most runs record it (ties: the longer list). torch's profiler nests
    by time, and now and then an op lands under its neighbour or nowhere (backward_ops_cases.py),
    a different one each run; the nodes come in the same order every run."""
    backward_ops(torch, case)  # warm up
    recordings = [backward_ops(torch, case) for _ in range(runs)]
    out = []
    for position, (node, _) in enumerate(recordings[0]):
        seen = collections.Counter(json.dumps(r[position][1]) for r in recordings)
        ops = max(seen, key=lambda k: (seen[k], len(json.loads(k))))
        out.append([node, json.loads(ops)])
    return out


if __name__ == "__main__":
    record = {"torch": torch.__version__, "cases": {c: steady(c) for c in CASES},
              "saved": saved_names(torch)}
    with open(OUT, "w") as f:
        json.dump(record, f, indent=1)
        f.write("\n")
    for case, nodes in record["cases"].items():
        print(case)
        for node, ops in nodes:
            print("   ", node, ops)
    print(record["saved"])
