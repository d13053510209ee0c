"""Records torch 1.13's optimizers into tests/python/data/optim_torch.json: the parameters after
three steps of every case (and a checkpoint after two: parameters and state_dict), each class's
repr, and the messages of its errors. tests/python/test_optim.py runs the same cases on opscope
(every path: single, foreach, fused) and compares.

The cases (optim_cases.py) import neither library: `T` is torch here, opscope in the test.

    /usr/bin/python3 tests/python/make_torch_reference_optim.py
"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from optim_cases import (CASES, OUT, errors, make_params, packed,  # noqa: E402
                         take_steps)


def values(t):
    return np.asarray(t.detach().tolist(), dtype=np.float64).tolist()


def run(T, cls_name, options, dtype):
    ps = make_params(T, dtype)
    opt = getattr(T.optim, cls_name)(ps, **options)
    take_steps(T, opt, ps, 2)
    checkpoint = {"params": [values(p) for p in ps], "state_dict": packed(opt.state_dict())}
    take_steps(T, opt, ps, 1)
    return {"after3": [values(p) for p in ps], "checkpoint": checkpoint}


def reprs(T):
    p = T.nn.Parameter(T.ones(2))
    q = T.nn.Parameter(T.ones(3))
    out = {}
    for name, kw in [("SGD", dict(lr=0.1)), ("Adam", {}), ("AdamW", {}), ("RMSprop", {}),
                     ("Adagrad", {}), ("Adadelta", {})]:
        out[name] = repr(getattr(T.optim, name)([{"params": [p]}, {"params": [q], "lr": 0.5}],
                                                **kw))
    return out


def main():
    import torch
    torch.set_num_threads(1)
    out = {"cases": {}, "errors": errors(torch), "reprs": reprs(torch)}
    for name, cls_name, options in CASES:
        out["cases"][name] = run(torch, cls_name, options, torch.float64)
        out["cases"][name + "_float32"] = run(torch, cls_name, options, torch.float32)
    with open(OUT, "w") as f:
        json.dump(out, f, indent=None, sort_keys=True)
        f.write("\n")
    print(f"wrote {len(out['cases'])} cases to {OUT}")


if __name__ == "__main__":
    main()
