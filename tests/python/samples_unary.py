"""Samples for the op-table test (test_op_table.py) of the elementwise ops of the
unary, binary and compare families (core/ops/unary.h, binary.h, compare.h) and the activations:
generic samples by (type, argument name), and per-op replacements where they do not fit."""
import opscope
from reference_cases import matrix

SAMPLES = {
    ("Tensor", "condition"): lambda: matrix(2, 3) > 3,
    ("Tensor", "end"): lambda: matrix(2, 3) * 2,
    ("Tensor", "weight"): lambda: matrix(2, 3) / 8,
    ("Scalar", "weight"): 0.25,
    ("Tensor", "min"): lambda: matrix(2, 3) - 1,
    ("Tensor", "max"): lambda: matrix(2, 3) + 1,
    ("Scalar", "min"): 2,
    ("Scalar", "max"): 4,
    ("int", "decimals"): 1,
}

_BOOL_OUT = {("Tensor", "out"): lambda: opscope.empty(0, dtype=opscope.bool)}
# clamp / clip: both bounds default to None, which clamp refuses; give `min`.
_MIN = {"min": 2}
_MIN_T = {"min": lambda: matrix(2, 3) - 1}

OVERRIDES = {
    **{f"aten::{op}": _BOOL_OUT for op in ("isposinf.out", "isneginf.out", "isnan.out", "isinf.out")},
    **{f"aten::{op}{ov}": _MIN for op in ("clamp", "clamp_", "clip", "clip_") for ov in ("",)},
    "aten::clamp.out": _MIN, "aten::clip.out": _MIN,
    **{f"aten::{op}.Tensor": _MIN_T for op in ("clamp", "clamp_", "clip", "clip_")},
    "aten::clamp.Tensor_out": _MIN_T, "aten::clip.Tensor_out": _MIN_T,
}
