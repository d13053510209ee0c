"""Records torch 1.13's torch.utils.data outcomes (data_loader_cases.py) into
data/data_loader_torch.json. Run with Debian's Python, which has torch:

    /usr/bin/python3 tests/python/make_torch_reference_data.py
"""
import json
import os
import sys

import torch
import torch.utils.data

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import data_loader_cases as cases  # noqa: E402

out = {expr: cases.outcome(expr, torch, torch.utils.data) for expr in cases.CASES}
assert len(out) == len(cases.CASES), "duplicate case"
with open(os.path.join(HERE, "data", "data_loader_torch.json"), "w") as f:
    json.dump(out, f, indent=1)
print("wrote", len(out), "cases")
