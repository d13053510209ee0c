"""Record what a logging __torch_dispatch__ mode sees under PyTorch 1.13, and torch.library's
errors, as reference data for test_torch_dispatch.py and test_library.py:

    /usr/bin/python3 tests/python/make_torch_reference_dispatch.py

writes data/dispatch_torch.json with, per case of dispatch_cases.py, the list of str(func) the
mode received (aten overloads, below autograd) and, per library case, its outcome.
"""

import json
import os
import sys

import torch
import torch.library
from torch.utils._python_dispatch import TorchDispatchMode

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import dispatch_cases  # noqa: E402


class Log(TorchDispatchMode):
    def __init__(self):
        self.calls = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.calls.append(str(func))
        return func(*args, **(kwargs or {}))


def outcome(fn):
    try:
        return {"value": repr(fn())}
    except Exception as e:  # noqa: BLE001 - the exception is the recorded outcome
        return {"error": type(e).__name__, "message": str(e).split("\n")[0]}


def main():
    out = {"forward": {}, "backward": {}, "library": {}}
    for name, body in dispatch_cases.FORWARD_CASES.items():
        state = dispatch_cases._inputs(torch)
        with Log() as log:
            body(torch, state)
        out["forward"][name] = log.calls
    for name, (setup, body) in dispatch_cases.BACKWARD_CASES.items():
        state = setup(torch)
        with Log() as log:
            body(torch, state)
        out["backward"][name] = log.calls
    for name, case in dispatch_cases.LIBRARY_CASES.items():
        out["library"][name] = outcome(lambda: case(torch, torch.library))
    path = os.path.join(HERE, "data", "dispatch_torch.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote", path)


if __name__ == "__main__":
    main()
