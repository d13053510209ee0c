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
    ("Tensor", "values"): lambda: matrix(2, 3) / 4,
}

_BOOL_OUT = {("Tensor", "out"): lambda: opscope.empty(0, dtype=opscope.bool)}
# gcd / lcm take integers; float_power's out= and in-place tensors must be float64.
_INTEGERS = {"self": lambda: matrix(2, 3, dtype=opscope.int64) * 4,
             "other": lambda: matrix(2, 3, dtype=opscope.int64) * 6}
_DOUBLE_SELF = {"self": lambda: matrix(2, 3, dtype=opscope.float64)}
_DOUBLE_OUT = {("Tensor", "out"): lambda: opscope.empty(0, dtype=opscope.float64)}
# clamp / clip: both bounds default to None, which clamp refuses; give `min`.
_MIN = {"min": 2}
_MIN_T = {"min": lambda: matrix(2, 3) - 1}

OVERRIDES = {
    **{f"aten::{op}": _BOOL_OUT for op in ("isposinf.out", "isneginf.out", "isnan.out", "isinf.out")},
    **{f"aten::{op}{ov}": _MIN for op in ("clamp", "clamp_", "clip", "clip_") for ov in ("",)},
    "aten::clamp.out": _MIN, "aten::clip.out": _MIN,
    **{f"aten::{op}.Tensor": _MIN_T for op in ("clamp", "clamp_", "clip", "clip_")},
    "aten::clamp.Tensor_out": _MIN_T, "aten::clip.Tensor_out": _MIN_T,
    "aten::signbit.out": _BOOL_OUT,
    **{f"aten::{op}": _INTEGERS for op in ("gcd", "gcd_", "gcd.out", "lcm", "lcm_", "lcm.out")},
    **{f"aten::float_power_.{ov}": _DOUBLE_SELF for ov in ("Tensor", "Scalar")},
    **{f"aten::float_power.{ov}_out": _DOUBLE_OUT for ov in ("Tensor_Tensor", "Tensor_Scalar", "Scalar")},
}
