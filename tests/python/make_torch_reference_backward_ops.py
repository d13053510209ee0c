"""Records torch 1.13's backward op lists of backward_ops_cases.py into
tests/python/data/backward_ops_torch.json (test_backward_ops.py compares opscope's with them).

    /usr/bin/python3 tests/python/make_torch_reference_backward_ops.py
"""
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(__file__))
from backward_ops_cases import CASES, backward_ops, saved_names  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "data", "backward_ops_torch.json")

if __name__ == "__main__":
    record = {"torch": torch.__version__, "cases": {c: backward_ops(torch, c) for c in CASES},
              "saved": saved_names(torch)}
    with open(OUT, "w") as f:
        json.dump(record, f, indent=1)
        f.write("\n")
    for case, nodes in record["cases"].items():
        print(case)
        for node, ops in nodes:
            print("   ", node, ops)
    print(record["saved"])
