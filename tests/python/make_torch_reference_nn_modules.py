"""Records torch 1.13's results of the snippets in nn_modules_cases.py into
data/nn_modules_torch.json. Run with Debian's Python, which has torch:

    /usr/bin/python3 tests/python/make_torch_reference_nn_modules.py
"""
import json
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import nn_modules_cases as cases  # noqa: E402

out = {name: cases.run(torch, name) for name in cases.CASES}
with open(os.path.join(HERE, "data", "nn_modules_torch.json"), "w") as f:
    json.dump(out, f, indent=1, sort_keys=True)
print("wrote", len(out), "cases,", sum("error" in v for v in out.values()), "of them errors")
