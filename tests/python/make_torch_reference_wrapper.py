"""Record what PyTorch 1.13 does with __torch_dispatch__ wrapper subclasses (values, errors and
the ops the subclass or a mode sees), as reference data for test_wrapper_subclass.py:

    /usr/bin/python3 tests/python/make_torch_reference_wrapper.py

writes data/wrapper_subclass_torch.json, one outcome per case of wrapper_subclass_cases.py.
"""

import json
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import wrapper_subclass_cases  # noqa: E402


def main():
    out = {name: wrapper_subclass_cases.outcome(torch, name) for name in wrapper_subclass_cases.CASES}
    # torch's own printing of a LoggingTensor (results wrapped again) and its ops: kept to state
    # the difference (test_wrapper_subclass.py), not compared.
    env = wrapper_subclass_cases.Env(torch)
    try:
        repr(env.L(torch.tensor([1.5, 2.0, 3.0])))
    except Exception as e:  # noqa: BLE001
        out["_torch_repr_logging_tensor"] = {"error": type(e).__name__, "message": str(e), "ops": env.log}
    with open(os.path.join(HERE, "data", "wrapper_subclass_torch.json"), "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
