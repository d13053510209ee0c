"""Op-table samples (see tests/python/test_op_table.py) for the optimizer ops (core/ops/optim.cpp,
kernels in core/ops/cpu/optim.cpp): the _foreach_* list ops and the fused optimizer steps.

Each list holds three parameters of different shapes (a matrix, a vector, a 3-d block); the i-th
tensor of every list has the shape of the i-th parameter, as an optimizer passes them. Values are
positive (sqrt, division) and differ between lists (maximum, lerp)."""
import opscope
from reference_cases import matrix

_SHAPES = ((2, 3), (4,), (3, 1, 2))


def _params(scale=1.0, offset=0.0):
    """One tensor per shape: 1, 2, 3, ... times `scale`, plus `offset`."""
    return [matrix(*shape) * scale + offset for shape in _SHAPES]


def _zeros():
    return [opscope.zeros(*shape) for shape in _SHAPES]


def _steps(step=3.0):
    """Adam's per-parameter step counts: one-element float tensors, as torch.optim keeps them."""
    return [opscope.tensor(step) for _ in _SHAPES]


SAMPLES = {
    ("Tensor[]", "self"): _params,
    ("Tensor[]", "other"): lambda: _params(0.5, 1.0),
    ("Tensor[]", "tensor1"): lambda: _params(0.25),
    ("Tensor[]", "tensor2"): lambda: _params(2.0, 1.0),
    ("Tensor[]", "tensors1"): lambda: _params(-1.0, 10.0),  # lerp's end points
    ("Scalar", "scalar"): 0.5,
}

# Adam / AdamW after a few steps: first and second moments already non-zero.
_ADAM = {
    "grads": lambda: _params(0.1),
    "exp_avgs": lambda: _params(0.01),
    "exp_avg_sqs": lambda: _params(0.001, 0.001),
    "max_exp_avg_sqs": lambda: _params(0.002, 0.001),
    "state_steps": _steps,
    "lr": 1e-3, "beta1": 0.9, "beta2": 0.999, "weight_decay": 1e-2, "eps": 1e-8,
    "amsgrad": True, "maximize": False,
}

OVERRIDES = {
    "aten::_fused_adam_": _ADAM,
    "aten::_fused_adamw_": _ADAM,
    # SGD with momentum and Nesterov on its first step (the buffers are written, not read).
    "aten::_fused_sgd_": {"grads": lambda: _params(0.1), "momentum_buffer_list": _zeros,
                          "weight_decay": 1e-4, "momentum": 0.9, "lr": 0.1, "dampening": 0.0,
                          "nesterov": True, "maximize": False, "is_first_step": True},
    # Centered RMSprop with momentum: every state list is used.
    "aten::_fused_rmsprop_": {"grads": lambda: _params(0.1), "square_avgs": lambda: _params(0.01, 0.01),
                              "grad_avgs": lambda: _params(0.001), "momentum_buffer_list": lambda: _params(0.01),
                              "lr": 1e-2, "alpha": 0.99, "eps": 1e-8, "weight_decay": 0.0, "momentum": 0.9,
                              "centered": True, "maximize": False},
}
