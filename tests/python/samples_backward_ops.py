"""Op-table samples (see tests/python/test_op_table.py) for the gradient ops a training step's
backward calls (test_backward_ops.py checks them in depth): relu's threshold_backward, softmax's
and log_softmax's backward from their result, nll_loss_backward from nll_loss_forward's total
weight, the gelu / silu / softplus / sigmoid / tanh gradients, mse_loss_backward and
binary_cross_entropy_backward, and native_layer_norm_backward from the forward's saved
statistics."""
import opscope
from reference_cases import matrix


def _softmax_out():
    return opscope.softmax(matrix(2, 3) / 4, 1)


def _total_weight():
    return opscope.ops.aten.nll_loss_forward(matrix(2, 3), opscope.tensor([2, 0]), None, 1,
                                             -100)[1]


def _layer_norm_stats():
    return opscope.ops.aten.native_layer_norm(matrix(2, 3) / 4, [3], None, None, 1e-5)


_ACTIVATION_GRAD = {"grad_output": lambda: matrix(2, 3), "self": lambda: matrix(2, 3) / 2 - 1.5}

OVERRIDES = {
    "aten::threshold_backward": {"grad_output": lambda: matrix(2, 3),
                                 "self": lambda: matrix(2, 3) - 3, "threshold": 0},
    "aten::_softmax_backward_data": {"grad_output": lambda: matrix(2, 3), "output": _softmax_out,
                                     "dim": 1, "input_dtype": opscope.float32},
    "aten::_log_softmax_backward_data": {"grad_output": lambda: matrix(2, 3),
                                         "output": lambda: _softmax_out().log(), "dim": 1,
                                         "input_dtype": opscope.float32},
    "aten::nll_loss_backward": {"grad_output": lambda: opscope.tensor(1.0),
                                "target": lambda: opscope.tensor([2, 0]), "weight": None,
                                "reduction": 1, "ignore_index": -100,
                                "total_weight": _total_weight},
    "aten::gelu_backward": _ACTIVATION_GRAD,
    "aten::gelu_backward.grad_input": {**_ACTIVATION_GRAD, "grad_input": lambda: opscope.empty(0)},
    "aten::silu_backward": _ACTIVATION_GRAD,
    "aten::silu_backward.grad_input": {**_ACTIVATION_GRAD, "grad_input": lambda: opscope.empty(0)},
    "aten::softplus_backward": {**_ACTIVATION_GRAD, "beta": 1.0, "threshold": 20.0},
    "aten::softplus_backward.grad_input": {**_ACTIVATION_GRAD, "beta": 1.0, "threshold": 20.0,
                                           "grad_input": lambda: opscope.empty(0)},
    "aten::leaky_relu_backward": {**_ACTIVATION_GRAD, "negative_slope": 0.2,
                                  "self_is_result": False},
    "aten::hardtanh_backward": {**_ACTIVATION_GRAD, "min_val": -1.0, "max_val": 1.0},
    "aten::elu_backward": {"grad_output": lambda: matrix(2, 3), "alpha": 1.0, "scale": 1.0,
                           "input_scale": 1.0, "is_result": False,
                           "self_or_result": lambda: matrix(2, 3) / 2 - 1.5},
    "aten::hardsigmoid_backward": _ACTIVATION_GRAD,
    "aten::hardswish_backward": _ACTIVATION_GRAD,
    "aten::mish_backward": _ACTIVATION_GRAD,
    "aten::log_sigmoid_backward": {**_ACTIVATION_GRAD,
                                   "buffer": lambda: (-(matrix(2, 3) / 2 - 1.5).abs()).exp()},
    "aten::sigmoid_backward": {"grad_output": lambda: matrix(2, 3),
                               "output": lambda: matrix(2, 3) / 10},
    "aten::sigmoid_backward.grad_input": {"grad_output": lambda: matrix(2, 3),
                                          "output": lambda: matrix(2, 3) / 10,
                                          "grad_input": lambda: opscope.empty(0)},
    "aten::tanh_backward": {"grad_output": lambda: matrix(2, 3),
                            "output": lambda: matrix(2, 3) / 10},
    "aten::tanh_backward.grad_input": {"grad_output": lambda: matrix(2, 3),
                                       "output": lambda: matrix(2, 3) / 10,
                                       "grad_input": lambda: opscope.empty(0)},
    "aten::mse_loss_backward": {"grad_output": lambda: opscope.tensor(1.0),
                                "target": lambda: matrix(2, 3) / 2, "reduction": 1},
    "aten::binary_cross_entropy_backward": {"grad_output": lambda: opscope.tensor(1.0),
                                            "self": lambda: matrix(2, 3) / 10,
                                            "target": lambda: matrix(2, 3) / 20},
    "aten::embedding_backward": {"grad": lambda: matrix(2, 3),
                                 "indices": lambda: opscope.tensor([4, 1]), "num_weights": 5,
                                 "padding_idx": -1, "scale_grad_by_freq": False, "sparse": False},
    "aten::embedding_dense_backward": {"grad_output": lambda: matrix(2, 3),
                                       "indices": lambda: opscope.tensor([4, 4]), "num_weights": 5,
                                       "padding_idx": 1, "scale_grad_by_freq": True},
    "aten::native_layer_norm_backward": {
        "grad_out": lambda: matrix(2, 3), "input": lambda: matrix(2, 3) / 4,
        "normalized_shape": [3], "mean": lambda: _layer_norm_stats()[1],
        "rstd": lambda: _layer_norm_stats()[2], "weight": lambda: matrix(3) / 2,
        "bias": lambda: matrix(3), "output_mask": [1, 1, 1]},
}
