"""Records torch 1.13's optimizers into tests/python/data/optim_torch.json: the parameters after
the last step of every case ("after3": three steps; RAdam's seven, see optim_cases.STEPS) and a
checkpoint part-way (after two steps; RAdam's after five: parameters and state_dict), each
class's repr, the messages of its errors, and a group whose parameters are at different steps
(optim_cases.uneven_steps, with foreach=None and foreach=True). tests/python/test_optim.py runs
the same cases on opscope (every path: single, foreach, fused) and compares. LBFGS's cases step
with a closure (optim_cases.CLOSURE).

The cases (optim_cases.py) import neither library: `T` is torch here, opscope in the test.

    /usr/bin/python3 tests/python/make_torch_reference_optim.py
"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from optim_cases import (CASES, FLOAT64_ONLY, OUT, REPRS, UNEVEN, advance,  # noqa: E402
                         errors, packed, params_for, repr_of, steps_of, uneven_steps)


def values(t):
    return np.asarray(t.detach().tolist(), dtype=np.float64).tolist()


def run(T, cls_name, options, dtype):
    before, after = steps_of(cls_name)
    ps = params_for(T, cls_name, dtype)
    opt = getattr(T.optim, cls_name)(ps, **options)
    advance(T, cls_name, opt, ps, before)
    checkpoint = {"params": [values(p) for p in ps], "state_dict": packed(opt.state_dict())}
    advance(T, cls_name, opt, ps, after)
    return {"after3": [values(p) for p in ps], "checkpoint": checkpoint}


def reprs(T):
    return {key: repr_of(T, cls_name, options) for key, cls_name, options in REPRS}


def main():
    import torch
    torch.set_num_threads(1)
    out = {"cases": {}, "errors": errors(torch), "reprs": reprs(torch), "uneven": {
        cls_name: {"default": uneven_steps(torch, cls_name, options),
                   "foreach": uneven_steps(torch, cls_name, dict(options, foreach=True))}
        for cls_name, options in UNEVEN}}
    for name, cls_name, options in CASES:
        out["cases"][name] = run(torch, cls_name, options, torch.float64)
        if name not in FLOAT64_ONLY:
            out["cases"][name + "_float32"] = run(torch, cls_name, options, torch.float32)
    with open(OUT, "w") as f:
        json.dump(out, f, indent=None, sort_keys=True)
        f.write("\n")
    print(f"wrote {len(out['cases'])} cases to {OUT}")


if __name__ == "__main__":
    main()
