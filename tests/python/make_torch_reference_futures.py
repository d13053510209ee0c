"""Records torch 1.13's torch.futures behaviour for the scenarios in futures_cases.py into
data/futures.json (test_futures.py compares opscope.futures against it).

    /usr/bin/python3 tests/python/make_torch_reference_futures.py
"""
import json
import os
import sys

import torch
import torch.futures

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from futures_cases import CASES, run_case  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "futures.json")


def main():
    recorded = {name: run_case(fn, torch.futures) for name, fn in CASES.items()}
    with open(OUT, "w") as f:
        json.dump({"torch": torch.__version__, "cases": recorded}, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {len(recorded)} cases to {OUT}")


if __name__ == "__main__":
    main()
