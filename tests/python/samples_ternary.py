"""Samples for the op-table test (test_op_table.py) of the ternary family (core/ops/ternary.h:
addcmul, addcdiv) and the small ops beside them: operands that broadcast against the generic
(2, 3) float32 `self`, a divisor without zeros, a list of tensors to broadcast, and a one-element
tensor for is_nonzero."""
import opscope
from reference_cases import matrix

SAMPLES = {
    ("Tensor", "tensor1"): lambda: matrix(3),        # broadcasts over self's rows
    ("Tensor", "tensor2"): lambda: matrix(2, 1) + 1,  # no zero: addcdiv divides by it
}

OVERRIDES = {
    "aten::broadcast_tensors": {"tensors": lambda: [matrix(2, 1), matrix(3)]},
    "aten::is_nonzero": {"self": lambda: opscope.tensor([2.5])},
}
