"""Record what PyTorch 1.13's einsum, tensordot, meshgrid, cartesian_prod and F.normalize do,
as reference data for test_torch_functional.py:

    PYTHONPATH=core/python:build/python /usr/bin/python3 \
        tests/python/make_torch_reference_torch_functional.py

Evaluates every case of torch_functional_cases.py with ``m = torch`` and writes to
data/torch_functional_torch.json its outcome (see reference_cases.py) and the aten ops the call
decomposes into, each with its first tensor argument's shape, as a logging __torch_dispatch__
mode sees them (Note [How einsum decomposes]), and the warnings it gave.
"""

import json
import os
import sys

import torch
from torch.utils._python_dispatch import TorchDispatchMode

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from torch_functional_cases import CASES, decomposition, env  # noqa: E402
from reference_cases import outcome  # noqa: E402


def main():
    cases = []
    for expr in CASES:
        case = {"expr": expr, **outcome(expr, torch, **env(torch))}
        if "error" not in case and "dims=m.tensor" not in expr:  # not dims' own select / item
            case["decomposition"] = decomposition(expr, torch, TorchDispatchMode)
            if "m.tensor(" in expr:  # torch's lift_fresh of a literal is not the call's
                case["decomposition"] = [c for c in case["decomposition"]
                                         if c[0] != "aten.lift_fresh.default"]
        cases.append(case)
    path = os.path.join(HERE, "data", "torch_functional_torch.json")
    with open(path, "w") as f:
        json.dump({"torch": torch.__version__, "cases": cases}, f, indent=0)
        f.write("\n")
    print(f"wrote {len(cases)} cases to {path}")


if __name__ == "__main__":
    main()
