"""Records torch 1.13's F.grid_sample / F.affine_grid values and gradients into
tests/python/data/grid_sample_torch.json (test_grid_sample.py compares opscope's with them).

    /usr/bin/python3 tests/python/make_torch_reference_grid_sample.py

The inputs are not stored: both sides make them with grid_sample_inputs() below (NumPy's PCG64
from fixed seeds), so only torch's results are recorded.
"""
import json
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(__file__))
from grid_sample_cases import AFFINE_CASES, FORWARD_ONLY, SAMPLE_CASES, affine_inputs, sample_inputs  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "data", "grid_sample_torch.json")


def values(t):
    """A tensor's values, flat (NaN as null); float32 ones by their shortest float32 decimal, which
    reads back to the same float32."""
    a = t.detach().numpy()
    short = (lambda v: float(repr(v))) if a.dtype == np.float32 else float
    return [None if np.isnan(v) else short(v) for v in a.ravel()]


def record_sample(case):
    x, grid, grad_output = (torch.from_numpy(a) for a in sample_inputs(case))
    mode, padding, align_corners = case["mode"], case["padding_mode"], case["align_corners"]
    if case["name"] in FORWARD_ONLY:
        out = torch.nn.functional.grid_sample(x, grid, mode, padding, align_corners)
        return {"out": values(out)}
    x.requires_grad_()
    grid.requires_grad_()
    out = torch.nn.functional.grid_sample(x, grid, mode, padding, align_corners)
    grad_input, grad_grid = torch.autograd.grad(out, (x, grid), grad_output)
    return {"out": values(out), "grad_input": values(grad_input), "grad_grid": values(grad_grid)}


def record_affine(case):
    theta, weight = (torch.from_numpy(a) for a in affine_inputs(case))
    theta.requires_grad_()
    grid = torch.nn.functional.affine_grid(theta, case["size"], case["align_corners"])
    (grad_theta,) = torch.autograd.grad((grid * weight).sum(), theta)
    return {"grid": values(grid), "grad_theta": values(grad_theta)}


if __name__ == "__main__":
    record = {"torch": torch.__version__,
              "sample": {c["name"]: record_sample(c) for c in SAMPLE_CASES},
              "affine": {c["name"]: record_affine(c) for c in AFFINE_CASES}}
    with open(OUT, "w") as f:
        json.dump(record, f, separators=(",", ":"))
        f.write("\n")
    print(len(record["sample"]), "grid_sample cases,", len(record["affine"]), "affine_grid cases ->", OUT)
