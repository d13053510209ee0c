"""Records torch 1.13's __torch_function__ behaviour (overrides_cases.observe) into
data/overrides_torch.json, plus the names torch.overrides lists as overridable per namespace.
Run with Debian's Python, which has torch:

    /usr/bin/python3 tests/python/make_torch_reference_overrides.py
"""
import json
import os
import sys
import warnings

import torch
import torch.overrides

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import overrides_cases  # noqa: E402

warnings.simplefilter("ignore")
torch.manual_seed(0)


def overridable_names():
    """{namespace: sorted names} of torch.overrides.get_overridable_functions()."""
    names = {}
    for ns, funcs in torch.overrides.get_overridable_functions().items():
        key = ns.__name__ if hasattr(ns, "__name__") and not isinstance(ns, property) else None
        if key is None:
            continue
        if ns is torch.Tensor:
            key = "torch.Tensor"
        names[key] = sorted({getattr(f, "__name__", "?") for f in funcs})
    return names


out = {"torch_version": torch.__version__, **overrides_cases.observe(torch),
       "overridable": overridable_names()}
with open(os.path.join(HERE, "data", "overrides_torch.json"), "w") as f:
    json.dump(out, f, indent=1)
