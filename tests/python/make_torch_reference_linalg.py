"""Record what PyTorch 1.13's linalg functions do, as reference data for test_linalg.py.

    PYTHONPATH=core/python:build/python /usr/bin/python3 tests/python/make_torch_reference_linalg.py

Evaluates every case of linalg_cases.py with ``m = torch`` and writes its outcome (see
reference_cases.py) to data/linalg_torch.json, with the warnings the deprecated spellings give on
their first call in a fresh process.
"""

import json
import os
import subprocess
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from linalg_cases import ERROR_CASES, VALUE_CASES, WARNING_CASES, env  # noqa: E402
from reference_cases import outcome  # noqa: E402


def warnings_of(expr):
    """The warning messages `expr` gives on its first call in a fresh interpreter."""
    code = ("import warnings, torch as m\nwarnings.simplefilter('always')\n"
            "with warnings.catch_warnings(record=True) as w:\n"
            f"    {expr}\nprint(__import__('json').dumps([str(x.message) for x in w]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    torch.manual_seed(0)
    cases = [{"expr": e, **outcome(e, torch, **env(torch))} for e in ERROR_CASES + VALUE_CASES]
    warns = [{"expr": e, "warnings": warnings_of(e)} for e in WARNING_CASES]
    path = os.path.join(HERE, "data", "linalg_torch.json")
    with open(path, "w") as f:
        json.dump({"torch": torch.__version__, "cases": cases, "warnings": warns}, f, indent=0)
    print(f"wrote {len(cases)} cases, {len(warns)} warning cases to {path}")


if __name__ == "__main__":
    main()
