"""Op-table samples (see tests/python/test_op_table.py) for the samplers of the factories family
(core/ops/factories.cpp): probabilities in [0, 1] for bernoulli, means and standard deviations
for normal's four forms."""
from reference_cases import matrix

_PROBABILITIES = lambda: matrix(2, 3) / 10  # noqa: E731

OVERRIDES = {
    "aten::bernoulli": {"self": _PROBABILITIES},
    "aten::bernoulli.p": {"p": 0.5},
    "aten::bernoulli_.Tensor": {"p": _PROBABILITIES},
    "aten::normal.Tensor_float": {"mean": lambda: matrix(2, 3), "std": 1.0},
    "aten::normal.float_Tensor": {"mean": 0.0, "std": lambda: matrix(2, 3)},
    "aten::normal.Tensor_Tensor": {"mean": lambda: matrix(2, 3), "std": lambda: matrix(2, 3)},
    "aten::normal.float_float": {"mean": 0.0, "std": 1.0, "size": [2, 3]},
}
