"""Samples for the reductions in the op-table test (tests/python/test_op_table.py): per-op
overrides only, so no generic key can clash with another family's."""
import opscope
from reference_cases import matrix

DIM_LIST = {("int[]", "dim"): [1]}
CORRECTION = {("int[]", "dim"): [1], "correction": 1}
SOFTMAX = {"half_to_float": False}
NORM = {"p": 2, ("int[]", "dim"): [1], "keepdim": False}

SAMPLES = {}
_MEDIAN_OUT = {"values": lambda: opscope.empty(0), "indices": lambda: opscope.empty(0, dtype=opscope.int64)}
OVERRIDES = {
    "aten::median.dim_values": _MEDIAN_OUT, "aten::nanmedian.dim_values": _MEDIAN_OUT,
    "aten::cummax.out": _MEDIAN_OUT, "aten::cummin.out": _MEDIAN_OUT,
    "aten::bincount": {"self": lambda: opscope.tensor([1, 1, 3])},
    "aten::bincount.out": {"self": lambda: opscope.tensor([1, 1, 3]),
                           "out": lambda: opscope.empty(0, dtype=opscope.int64)},
    # searchsorted / bucketize / isin (core/ops/cpu/bucketize.cpp)
    **{f"aten::searchsorted.{ov}": {"sorted_sequence": lambda: opscope.tensor([1.0, 2.0, 4.0]),
                                     "self": (lambda: matrix(2, 3)) if ov.startswith("Tensor") else 2.5,
                                     "out": lambda: opscope.empty(0, dtype=opscope.int64)}
       for ov in ("Tensor", "Tensor_out", "Scalar", "Scalar_out")},
    **{f"aten::bucketize.{ov}": {"boundaries": lambda: opscope.tensor([1.0, 2.0, 4.0]),
                                  "self": (lambda: matrix(2, 3)) if ov.startswith("Tensor") else 2.5,
                                  "out": lambda: opscope.empty(0, dtype=opscope.int64)}
       for ov in ("Tensor", "Tensor_out", "Scalar", "Scalar_out")},
    **{f"aten::isin.{ov}": {"elements": lambda: matrix(2, 3), "test_elements": lambda: opscope.tensor([2.0, 5.0]),
                             "element": 2, "test_element": 2,
                             "out": lambda: opscope.empty(0, dtype=opscope.bool)}
       for ov in ("Tensor_Tensor", "Tensor_Tensor_out", "Tensor_Scalar", "Tensor_Scalar_out",
                  "Scalar_Tensor", "Scalar_Tensor_out")},
    **{f"aten::_cum{m}_helper": {"values": lambda: opscope.empty(2, 3),
                                  "indices": lambda: opscope.empty(2, 3, dtype=opscope.int64)}
       for m in ("max", "min")},
    "aten::cummaxmin_backward": {"grad": lambda: matrix(2, 3), "input": lambda: matrix(2, 3),
                                 "indices": lambda: opscope.tensor([[0, 0, 0], [0, 1, 1]])},
    **{name: DIM_LIST for name in [
        "aten::sum.dim_IntList", "aten::sum.IntList_out", "aten::mean.dim", "aten::mean.out",
        "aten::var.dim", "aten::var.out",
        "aten::std.dim", "aten::std.out", "aten::var_mean.dim", "aten::std_mean.dim",
        "aten::logsumexp", "aten::logsumexp.out",
        "aten::count_nonzero.dim_IntList", "aten::frobenius_norm.dim", "aten::frobenius_norm.out"]},
    "aten::count_nonzero.dim_IntList_out": {("int[]", "dim"): [1],
                                            "out": lambda: opscope.empty(0, dtype=opscope.int64)},
    **{name: CORRECTION for name in [
        "aten::var.correction", "aten::var.correction_out", "aten::std.correction",
        "aten::std.correction_out", "aten::var_mean.correction", "aten::std_mean.correction"]},
    **{name: dict(CORRECTION, out0=lambda: opscope.empty(0), out1=lambda: opscope.empty(0))
       for name in ["aten::var_mean.correction_out", "aten::std_mean.correction_out"]},
    **{name: SOFTMAX for name in ["aten::_softmax", "aten::_softmax.out", "aten::_log_softmax",
                                  "aten::_log_softmax.out"]},
    **{name: NORM for name in ["aten::norm.ScalarOpt_dim", "aten::norm.ScalarOpt_dim_dtype",
                               "aten::norm.ScalarOpt_dtype", "aten::norm.ScalarOpt_dtype_out",
                               "aten::norm.dtype_out", "aten::norm.out"]},
    "aten::max.dim_max": {"max": lambda: opscope.empty(0),
                          "max_values": lambda: opscope.empty(0, dtype=opscope.int64)},
    "aten::min.dim_min": {"min": lambda: opscope.empty(0),
                          "min_indices": lambda: opscope.empty(0, dtype=opscope.int64)},
    **{name: {"out": lambda: opscope.empty(0, dtype=opscope.bool)}
       for name in ["aten::all.out", "aten::all.all_out", "aten::any.out", "aten::any.all_out"]},
    "aten::argmax.out": {"out": lambda: opscope.empty(0, dtype=opscope.int64)},
    "aten::count_nonzero.out": {"out": lambda: opscope.empty(0, dtype=opscope.int64)},
    "aten::argmin.out": {"out": lambda: opscope.empty(0, dtype=opscope.int64)},
}
