"""Op-table samples (see tests/python/test_op_table.py) for the spatial transformer ops
(core/ops/nn.cpp): grid_sampler and its 2-D / 3-D kernels and backward ops, affine_grid_generator
and its backward. Inputs (1, 2, 3, 4) / (1, 2, 2, 3, 4) read at grids that reach a little past
[-1, 1], so both inside taps and padded ones run."""
import opscope
from reference_cases import matrix


def _input_2d():
    return matrix(1, 2, 3, 4) / 10


def _grid_2d():
    return matrix(1, 2, 3, 2) / 5 - 1.3


def _input_3d():
    return matrix(1, 2, 2, 3, 4) / 10


def _grid_3d():
    return matrix(1, 2, 2, 2, 3) / 10 - 1.2


_SAMPLE_2D = {"input": _input_2d, "grid": _grid_2d, "interpolation_mode": 0, "padding_mode": 1,
              "align_corners": False}
_SAMPLE_3D = {"input": _input_3d, "grid": _grid_3d, "interpolation_mode": 1, "padding_mode": 2,
              "align_corners": True}

SAMPLES = {}

OVERRIDES = {
    "aten::grid_sampler": {**_SAMPLE_2D, "interpolation_mode": 2},
    "aten::grid_sampler_2d": _SAMPLE_2D,
    "aten::grid_sampler_2d_backward": {**_SAMPLE_2D, "grad_output": lambda: matrix(1, 2, 2, 3) / 6,
                                       "output_mask": [1, 1]},
    "aten::grid_sampler_3d": _SAMPLE_3D,
    "aten::grid_sampler_3d_backward": {**_SAMPLE_3D, "interpolation_mode": 0,
                                       "grad_output": lambda: matrix(1, 2, 2, 2, 2) / 8, "output_mask": [1, 1]},
    "aten::affine_grid_generator": {"theta": lambda: matrix(2, 2, 3) / 6, "size": [2, 1, 3, 4],
                                    "align_corners": False},
    "aten::grid_sampler_2d.out": {**_SAMPLE_2D, "out": lambda: opscope.empty(0)},
    "aten::grid_sampler_3d.out": {**_SAMPLE_3D, "out": lambda: opscope.empty(0)},
    "aten::grid_sampler_2d_backward.out": {**_SAMPLE_2D, "interpolation_mode": 2,
                                           "grad_output": lambda: matrix(1, 2, 2, 3) / 6, "output_mask": [1, 1],
                                           "out0": lambda: opscope.empty(0), "out1": lambda: opscope.empty(0)},
    "aten::grid_sampler_3d_backward.out": {**_SAMPLE_3D, "grad_output": lambda: matrix(1, 2, 2, 2, 2) / 8,
                                           "output_mask": [1, 1], "out0": lambda: opscope.empty(0),
                                           "out1": lambda: opscope.empty(0)},
    "aten::affine_grid_generator.out": {"theta": lambda: matrix(1, 3, 4) / 6, "size": [1, 1, 2, 2, 3],
                                        "align_corners": True, "out": lambda: opscope.empty(0)},
    "aten::affine_grid_generator_backward": {"grad": lambda: matrix(1, 2, 3, 4, 3) / 20, "size": [1, 1, 2, 3, 4],
                                             "align_corners": True},
}
