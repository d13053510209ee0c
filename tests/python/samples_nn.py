"""Op-table samples (see tests/python/test_op_table.py) for the nn family (core/ops/nn.cpp) and the
tensor utilities (item: core/ops/utility.cpp; equal, isclose, allclose: core/ops/compare.cpp):
class-index targets, probabilities in [0, 1], normalized shapes, index tensors."""
import opscope
from reference_cases import matrix


def _targets():
    return opscope.tensor([0, 2])  # for a (2, 3) input


def _probs():
    return matrix(2, 3) / 7  # in (0, 1)


def _spatial_input():
    return matrix(2, 3, 2, 2)


def _spatial_target():
    return opscope.zeros(2, 2, 2, dtype=opscope.int64)


_NLL = {"target": _targets, "weight": lambda: opscope.ones(3), "reduction": 1, "ignore_index": -100}
_NLL2D = {"self": _spatial_input, "target": _spatial_target, "weight": lambda: opscope.ones(3),
          "reduction": 1, "ignore_index": -100}
_OUT2 = {"output": lambda: opscope.empty(0), "total_weight": lambda: opscope.empty(0)}

SAMPLES = {}

OVERRIDES = {
    "aten::nll_loss_forward": _NLL,
    "aten::nll_loss_forward.output": {**_NLL, **_OUT2},
    "aten::nll_loss2d_forward": _NLL2D,
    "aten::nll_loss2d_forward.output": {**_NLL2D, **_OUT2},
    "aten::nll_loss": {"target": _targets},
    "aten::nll_loss2d": {"self": _spatial_input, "target": _spatial_target},
    "aten::nll_loss.out": {"target": _targets},
    "aten::nll_loss2d.out": {"self": _spatial_input, "target": _spatial_target},
    "aten::nll_loss_nd": {"target": _targets},
    "aten::cross_entropy_loss": {"target": _targets},
    "aten::mse_loss": {"target": lambda: matrix(2, 3)},
    "aten::mse_loss.out": {"target": lambda: matrix(2, 3)},
    "aten::l1_loss": {"target": lambda: matrix(2, 3)},
    "aten::binary_cross_entropy": {"self": _probs, "target": _probs},
    "aten::binary_cross_entropy.out": {"self": _probs, "target": _probs},
    "aten::binary_cross_entropy_with_logits": {"target": _probs},
    "aten::native_layer_norm": {"input": lambda: matrix(2, 3), "normalized_shape": [3],
                                "weight": lambda: opscope.ones(3), "bias": lambda: opscope.zeros(3),
                                "eps": 1e-5},
    "aten::layer_norm": {"input": lambda: matrix(2, 3), "normalized_shape": [3]},
    "aten::native_dropout": {"input": lambda: matrix(2, 3), "p": 0.5, "train": True},
    "aten::dropout": {"input": lambda: matrix(2, 3), "p": 0.5, "train": True},
    "aten::dropout_": {"p": 0.5, "train": True},
    "aten::embedding": {"weight": lambda: matrix(4, 3), "indices": lambda: opscope.tensor([[0, 3], [1, 1]])},
    "aten::embedding_renorm_": {"self": lambda: matrix(4, 3), "indices": lambda: opscope.tensor([0, 3]),
                                "max_norm": 1.0, "norm_type": 2.0},
    "aten::one_hot": {"self": lambda: opscope.tensor([0, 2, 1])},
    "aten::constant_pad_nd": {"pad": [1, 2]},
    "aten::pad": {"pad": [1, 2]},
    "aten::equal": {},
    "aten::isclose": {},
    "aten::allclose": {},
    "aten::item": {"self": lambda: opscope.tensor([2.5])},
    "aten::_local_scalar_dense": {"self": lambda: opscope.tensor([2.5])},
}
