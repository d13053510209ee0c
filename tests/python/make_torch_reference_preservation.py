"""Record what PyTorch 1.13 gives back for the Python object preservation cases
(preservation_cases.py) into data/preservation_torch.json:

    /usr/bin/python3 tests/python/make_torch_reference_preservation.py
"""

import json
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from preservation_cases import CASES  # noqa: E402

if __name__ == "__main__":
    torch.manual_seed(0)
    out = {case.__name__: case(torch) for case in CASES}
    with open(os.path.join(HERE, "data", "preservation_torch.json"), "w") as f:
        json.dump(out, f, indent=1)
    print(json.dumps(out, indent=1))
