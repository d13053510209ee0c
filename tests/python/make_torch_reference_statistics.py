"""Records torch 1.13's outcomes for the statistics cases (statistics_cases.py) into
data/statistics_torch.json: each case's outcome and the aten op names torch's profiler records
for the trace cases. Run with Debian's Python, which has torch:

    PYTHONPATH=core/python:build/python /usr/bin/python3 tests/python/make_torch_reference_statistics.py

(reference_cases imports opscope; nothing here runs it.)
"""
import json
import os
import sys
import warnings

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import statistics_cases as cases  # noqa: E402
from reference_cases import outcome  # noqa: E402

warnings.simplefilter("ignore")


def op_names(expr):
    """The aten ops torch's profiler records while evaluating expr, in the order they started:
    sorted by the events' ids, which follow their starts (the listing by timestamp puts ops that
    start in the same microsecond in either order)."""
    from torch.autograd.profiler import profile

    with profile() as prof:
        eval(expr, {"m": torch, **cases.env(torch)})  # noqa: S307 - our own cases
    events = sorted(prof.function_events, key=lambda e: e.id)
    return [e.name for e in events if e.name.startswith("aten::")]

out = {
    "torch_version": torch.__version__,
    "cases": [{"expr": e, **outcome(e, torch, **cases.env(torch))} for e in cases.CASES],
    "traces": {e: op_names(e) for e in cases.TRACE_CASES},
}
with open(os.path.join(HERE, "data", "statistics_torch.json"), "w") as f:
    json.dump(out, f, indent=0)
print("wrote", len(out["cases"]), "cases,", len(out["traces"]), "traces")
