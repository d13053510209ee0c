"""Samples for the op-table test (test_op_table.py) of the ops test_spellings.py covers: the
aliases whose targets need more than the generic samples (concatenate, special_logsumexp),
matmul.out, and the samplers (multinomial)."""
import opscope
from reference_cases import matrix

SAMPLES = {}
OVERRIDES = {
    **{f"aten::concatenate{ov}": {"tensors": lambda: [matrix(2, 3), matrix(2, 3) + 6]}
       for ov in ("", ".out")},
    **{f"aten::special_logsumexp{ov}": {("int[]", "dim"): [1]} for ov in ("", ".out")},
    "aten::matmul.out": {"other": lambda: matrix(3, 4)},
    **{f"aten::multinomial{ov}": {"num_samples": 2,
                                  "out": lambda: opscope.empty(0, dtype=opscope.int64)}
       for ov in ("", ".out")},
}
