"""Op-table samples (see tests/python/test_op_table.py) for the convolutions and pooling
(core/ops/nn.cpp's convolution and pooling block): an image batch, a weight that fits it, and
the window arguments each schema requires."""
import opscope
from reference_cases import matrix


def _x():
    return matrix(1, 2, 5, 5) / 50


def _w():
    return matrix(3, 2, 3, 3) / 50


def _wt():
    return matrix(2, 3, 3, 3) / 50  # transposed: (C_in, C_out, kh, kw)


_CONV = {"input": _x, "weight": _w, "bias": None, "stride": [1, 1], "padding": [0, 0],
         "dilation": [1, 1], "transposed": False, "output_padding": [0, 0], "groups": 1}
_SLOW = {"self": _x, "weight": _w, "kernel_size": [3, 3], "bias": None, "stride": [1, 1], "padding": [0, 0]}
_POOL = {"self": _x, "kernel_size": [2, 2]}

SAMPLES = {}
OVERRIDES = {
    "aten::conv1d": {"input": lambda: matrix(1, 2, 5), "weight": lambda: matrix(3, 2, 3)},
    "aten::conv1d.padding": {"input": lambda: matrix(1, 2, 5), "weight": lambda: matrix(3, 2, 3)},
    "aten::conv2d": {"input": _x, "weight": _w},
    "aten::conv2d.padding": {"input": _x, "weight": _w},
    "aten::conv_transpose1d": {"input": lambda: matrix(1, 2, 5), "weight": lambda: matrix(2, 3, 3)},
    "aten::conv_transpose2d.input": {"input": _x, "weight": _wt},
    "aten::convolution": _CONV,
    "aten::_convolution": {**_CONV, "benchmark": False, "deterministic": False, "cudnn_enabled": True,
                           "allow_tf32": True},
    "aten::_convolution_mode": {"input": _x, "weight": _w, "bias": None, "stride": [1, 1], "padding": "same",
                                "dilation": [1, 1], "groups": 1},
    "aten::convolution_backward": {"grad_output": lambda: matrix(1, 3, 3, 3), "input": _x, "weight": _w,
                                   "bias_sizes": [3], "stride": [1, 1], "padding": [0, 0], "dilation": [1, 1],
                                   "transposed": False, "output_padding": [0, 0], "groups": 1,
                                   "output_mask": [1, 1, 1]},
    "aten::thnn_conv2d": _SLOW,
    "aten::_slow_conv2d_forward": _SLOW,
    "aten::_slow_conv2d_backward.output_mask": {**_SLOW, "grad_output": lambda: matrix(1, 3, 3, 3),
                                                "output_mask": [1, 1, 1]},
    "aten::slow_conv_dilated2d": _SLOW,
    "aten::slow_conv_transpose2d": {**_SLOW, "weight": _wt},
    "aten::max_pool1d": {"self": lambda: matrix(2, 5), "kernel_size": [2]},
    "aten::max_pool1d_with_indices": {"self": lambda: matrix(2, 5), "kernel_size": [2]},
    "aten::avg_pool1d": {"self": lambda: matrix(2, 5), "kernel_size": [2]},
    "aten::max_pool2d": _POOL,
    "aten::max_pool2d_with_indices": _POOL,
    "aten::avg_pool2d": _POOL,
    "aten::max_pool2d_with_indices_backward": {
        "grad_output": lambda: matrix(1, 2, 2, 2), "self": _x, "kernel_size": [2, 2], "stride": [2, 2],
        "padding": [0, 0], "dilation": [1, 1], "ceil_mode": False,
        "indices": lambda: opscope.zeros(1, 2, 2, 2, dtype=opscope.int64)},
    "aten::avg_pool2d_backward": {
        "grad_output": lambda: matrix(1, 2, 2, 2), "self": _x, "kernel_size": [2, 2], "stride": [2, 2],
        "padding": [0, 0], "ceil_mode": False, "count_include_pad": True, "divisor_override": None},
    "aten::adaptive_avg_pool1d": {"self": lambda: matrix(2, 5), "output_size": [3]},
    "aten::adaptive_max_pool1d": {"self": lambda: matrix(2, 5), "output_size": [3]},
    "aten::adaptive_avg_pool2d": {"self": _x, "output_size": [3, 2]},
    "aten::_adaptive_avg_pool2d": {"self": _x, "output_size": [3, 2]},
    "aten::adaptive_max_pool2d": {"self": _x, "output_size": [3, 2]},
    "aten::_adaptive_avg_pool2d_backward": {"grad_output": lambda: matrix(1, 2, 3, 2), "self": _x},
    "aten::adaptive_max_pool2d_backward": {"grad_output": lambda: matrix(1, 2, 3, 2), "self": _x,
                                           "indices": lambda: opscope.zeros(1, 2, 3, 2, dtype=opscope.int64)},
}
