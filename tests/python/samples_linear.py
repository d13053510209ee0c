"""Samples for the op-table test (test_op_table.py) of the linear family (core/ops/linear.h):
per-op replacements for the generic samples, whose (2, 3) `self` cannot be multiplied."""
from reference_cases import matrix

_ADDMM = {"self": lambda: matrix(2, 4), "mat1": lambda: matrix(2, 3), "mat2": lambda: matrix(3, 4)}
_ADDMV = {"self": lambda: matrix(2), "mat": lambda: matrix(2, 3), "vec": lambda: matrix(3)}
_BADDBMM = {"self": lambda: matrix(2, 2, 4), "batch1": lambda: matrix(2, 2, 3),
            "batch2": lambda: matrix(2, 3, 4)}
_LINEAR = {"input": lambda: matrix(2, 3), "weight": lambda: matrix(4, 3), "bias": lambda: matrix(4)}
_OUTER = {"self": lambda: matrix(2), "vec2": lambda: matrix(3)}
_EINSUM = {"equation": "ij,jk->ik", "tensors": lambda: [matrix(2, 3), matrix(3, 4)]}
_TENSORDOT = {"other": lambda: matrix(3, 4), "dims_self": [1], "dims_other": [0]}

OVERRIDES = {
    **{f"aten::addmm{s}": _ADDMM for s in ("", ".out", "_")},
    **{f"aten::addmv{s}": _ADDMV for s in ("", ".out", "_")},
    **{f"aten::baddbmm{s}": _BADDBMM for s in ("", ".out", "_")},
    **{f"aten::linear{s}": _LINEAR for s in ("", ".out")},
    **{f"aten::{op}{s}": _OUTER for op in ("outer", "ger") for s in ("", ".out")},
    "aten::einsum": _EINSUM,
    **{f"aten::tensordot{s}": _TENSORDOT for s in ("", ".out")},
}
