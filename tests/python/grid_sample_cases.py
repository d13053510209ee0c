"""The F.grid_sample / F.affine_grid cases that make_torch_reference_grid_sample.py records with
torch 1.13 and test_grid_sample.py replays with opscope; inputs from NumPy's PCG64 with fixed
seeds, so neither side stores them.

grid_sample: every mode x padding_mode x align_corners, float32 and float64, 4-D (bilinear,
nearest, bicubic) and 5-D (bilinear, nearest). The grids mix random points in [-1.6, 1.6] with
chosen ones: the centre and the corners, points that land on a half pixel (nearest's ties), and
points far outside (50, -30, 1e4). The `nan` cases put NaN and inf in the grid and record the
forward only (torch 1.13's backward of a NaN grid with border / reflection padding writes out of
bounds; see Note [NaN in grid_sampler's grid] in core/ops/cpu/grid_sampler_coords.h); zeros
padding records its backward with a NaN too.
"""
import itertools

import numpy as np

MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
PADDINGS = ("zeros", "border", "reflection")

# 4-D: input (2, 2, 4, 5), grid (2, 3, 4, 2); 5-D: input (2, 2, 3, 4, 5), grid (2, 2, 3, 4, 3)
SHAPES = {4: ((2, 2, 4, 5), (2, 3, 4, 2)), 5: ((2, 2, 3, 4, 5), (2, 2, 3, 4, 3))}

# Chosen grid points (x, y[, z]) written over the first points of batch 0.
SPECIAL_2D = [(0.0, 0.0), (-1.0, -1.0), (1.0, 1.0), (-0.25, 0.25), (0.5, -0.5), (50.0, -30.0),
              (1e4, 0.5), (-1.0, 1.0)]
SPECIAL_3D = [(0.0, 0.0, 0.0), (-1.0, 1.0, -1.0), (-0.25, 0.25, 0.5), (50.0, -30.0, 0.1),
              (1e4, 0.5, -0.5), (1.0, 1.0, 1.0)]


def _cases():
    cases = []
    seed = 0
    for dims, dtype, mode, padding, align in itertools.product(
            (4, 5), ("float32", "float64"), MODES, PADDINGS, (False, True)):
        if dims == 5 and mode == "bicubic":
            continue
        seed += 1
        name = "{}d-{}-{}-{}-{}".format(dims - 2, dtype, mode, padding, "align" if align else "noalign")
        base = {"dims": dims, "dtype": dtype, "mode": mode, "padding_mode": padding, "align_corners": align}
        cases.append(dict(base, name=name, seed=seed, nan=padding == "zeros"))
        cases.append(dict(base, name=name + "-nan", seed=seed + 1000, nan=True))
    return cases


SAMPLE_CASES = _cases()
FORWARD_ONLY = {c["name"] for c in SAMPLE_CASES if c["name"].endswith("-nan")}


def sample_inputs(case):
    """(input, grid, grad_output) as NumPy arrays of the case's dtype."""
    rng = np.random.default_rng(case["seed"])
    in_shape, grid_shape = SHAPES[case["dims"]]
    x = rng.standard_normal(in_shape)
    grid = rng.uniform(-1.6, 1.6, grid_shape)
    flat = grid.reshape(-1, grid_shape[-1])
    special = SPECIAL_2D if case["dims"] == 4 else SPECIAL_3D
    flat[:len(special)] = special
    if case["nan"]:
        flat[len(special)][0] = np.nan
        if case["name"].endswith("-nan"):
            flat[len(special) + 1][:] = np.nan
            flat[len(special) + 2][-1] = np.inf
            flat[len(special) + 3][0] = -np.inf
    out_shape = in_shape[:2] + grid_shape[1:-1]
    grad_output = rng.standard_normal(out_shape)
    dtype = np.dtype(case["dtype"])
    return x.astype(dtype), grid.astype(dtype), grad_output.astype(dtype)


AFFINE_CASES = [
    {"name": "2d-noalign", "size": [2, 3, 4, 5], "align_corners": False, "dtype": "float32", "seed": 1},
    {"name": "2d-align", "size": [2, 3, 4, 5], "align_corners": True, "dtype": "float64", "seed": 2},
    {"name": "2d-unit-height-align", "size": [2, 1, 1, 5], "align_corners": True, "dtype": "float64", "seed": 3},
    {"name": "2d-unit-noalign", "size": [1, 2, 1, 1], "align_corners": False, "dtype": "float32", "seed": 4},
    {"name": "3d-noalign", "size": [2, 1, 3, 4, 5], "align_corners": False, "dtype": "float64", "seed": 5},
    {"name": "3d-align", "size": [1, 2, 2, 3, 4], "align_corners": True, "dtype": "float32", "seed": 6},
]


def affine_inputs(case):
    """(theta (N, k, k + 1), weight of the grid's shape) for the case."""
    rng = np.random.default_rng(case["seed"])
    k = len(case["size"]) - 2
    theta = rng.standard_normal((case["size"][0], k, k + 1))
    weight = rng.standard_normal(tuple(case["size"][:1]) + tuple(case["size"][2:]) + (k,))
    dtype = np.dtype(case["dtype"])
    return theta.astype(dtype), weight.astype(dtype)
