"""Records torch 1.13's outcomes for addcmul / addcdiv and the small Tensor methods (ravel,
broadcast_to, reshape_as, type_as, mT / mH, is_complex / is_signed / is_nonzero / get_device /
is_same_size, trace, broadcast_shapes / broadcast_tensors, sum_to_size, new_empty_strided) into
data/addc_small_methods_torch.json: each case's outcome (values, or the error's type and
message), the gradients and node names, and the aten ops torch's profiler records for the trace
cases. test_addcmul_addcdiv.py and test_small_methods.py replay them under opscope. Run with
Debian's Python, which has torch:

    PYTHONPATH=core/python:build/python /usr/bin/python3 tests/python/make_torch_reference_l.py

(reference_cases imports opscope; nothing here runs it.)
"""
import json
import os
import sys
import warnings

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from addc_small_methods_cases import ADDC, SMALL, TRACES, env  # noqa: E402
from reference_cases import outcome, torch_op_names  # noqa: E402

warnings.simplefilter("ignore")


def op_names(expr):
    return torch_op_names(expr, torch, **env(torch))


def record(exprs):
    return [{"expr": e, **outcome(e, torch, **env(torch))} for e in exprs]


out = {
    "torch_version": torch.__version__,
    "addc": record(ADDC),
    "small": record(SMALL),
    "traces": {e: op_names(e) for e in TRACES},
}
with open(os.path.join(HERE, "data", "addc_small_methods_torch.json"), "w") as f:
    json.dump(out, f, indent=1)
print("wrote", len(out["addc"]), "addc cases,", len(out["small"]), "small-method cases,",
      len(out["traces"]), "traces")
