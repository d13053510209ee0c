"""Records torch 1.13's learning-rate schedules (lr_scheduler_cases.py) into
data/lr_scheduler_torch.json. Run with Debian's Python, which has torch:

    /usr/bin/python3 tests/python/make_torch_reference_lr.py
"""
import json
import os
import sys
import warnings

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import lr_scheduler_cases as cases  # noqa: E402

warnings.simplefilter("ignore")
out = {"runs": {name: cases.run(torch, name) for name in cases.CASES},
       "errors": {text: cases.error_of(torch, text) for text in cases.ERRORS}}
with open(os.path.join(HERE, "data", "lr_scheduler_torch.json"), "w") as f:
    json.dump(out, f, indent=1)
print("wrote", len(out["runs"]), "runs and", len(out["errors"]), "errors")
