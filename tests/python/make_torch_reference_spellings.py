"""Records torch 1.13's outcomes for the spellings cases (spellings_cases.py) into
data/spellings_torch.json: each case's outcome, the stateful sequences' outcomes, and the aten op
names torch's profiler records for the trace cases. Run with Debian's Python, which has torch:

    PYTHONPATH=core/python:build/python /usr/bin/python3 tests/python/make_torch_reference_spellings.py

(reference_cases imports opscope; nothing here runs it.)
"""
import json
import os
import sys
import warnings

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import spellings_cases as cases  # noqa: E402
from reference_cases import outcome, torch_op_names  # noqa: E402

warnings.simplefilter("ignore")


def op_names(expr):
    return torch_op_names(expr, torch, **cases.env(torch))


out = {
    "torch_version": torch.__version__,
    "cases": [{"expr": e, **outcome(e, torch, **cases.env(torch))} for e in cases.CASES],
    "stateful": [[{"expr": e, **outcome(e, torch, **cases.env(torch))} for e in seq] for seq in cases.STATEFUL],
    "traces": {e: op_names(e) for e in cases.TRACE_CASES},
}
with open(os.path.join(HERE, "data", "spellings_torch.json"), "w") as f:
    json.dump(out, f, indent=1)
print("wrote", len(out["cases"]), "cases,", len(out["stateful"]), "sequences,", len(out["traces"]), "traces")
