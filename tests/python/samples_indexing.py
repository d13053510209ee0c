"""Samples for the op-table test (test_op_table.py) of the indexing family (core/ops/indexing.h):
index tensors, masks and sources that fit the generic (2, 3) float32 `self`."""
import opscope
from reference_cases import matrix


def _long(values):
    return lambda: opscope.tensor(values, dtype=opscope.int64)


def _mask():
    return opscope.tensor([[True, False, True], [False, False, True]])


_ROWS = _long([1, 0])                    # along dim 0 of (2, 3)
_GRID = _long([[0, 1, 1], [1, 0, 0]])    # gather / scatter index shaped like self
_FLAT = _long([0, 5])                    # take / put: positions in self's 6 elements
_INDICES = lambda: [opscope.tensor([0, 1]), None]  # noqa: E731  (Tensor?[])
_LONG_OUT = lambda: opscope.empty(0, dtype=opscope.int64)  # noqa: E731

OVERRIDES = {
    "aten::take_along_dim": {"indices": lambda: opscope.tensor([[2], [0]]), "dim": 1},
    **{f"aten::index.{s}": {"indices": _INDICES} for s in ("Tensor", "Tensor_out")},
    **{f"aten::{op}": {"indices": _INDICES, "values": lambda: opscope.tensor(1.5)}
       for op in ("index_put_", "index_put", "_index_put_impl_")},
    **{f"aten::index_select{s}": {"index": _ROWS} for s in ("", ".out")},
    **{f"aten::index_add{s}": {"index": _ROWS, "source": lambda: matrix(2, 3)} for s in ("", "_", ".out")},
    **{f"aten::index_fill{s}.int_{k}": {"index": _long([1])} for s in ("", "_") for k in ("Scalar", "Tensor")},
    **{f"aten::gather{s}": {"index": _GRID} for s in ("", ".out")},
    **{f"aten::scatter{s}": {"index": _GRID, "reduce": "add"}
       for s in (".src", ".value", ".reduce", ".value_reduce", "_.src", "_.value", "_.reduce",
                 "_.value_reduce", ".src_out", ".value_out", ".reduce_out", ".value_reduce_out")},
    **{f"aten::scatter_add{s}": {"index": _GRID} for s in ("", "_", ".out")},
    **{f"aten::masked_fill{s}": {"mask": _mask} for s in (".Scalar", ".Tensor", "_.Scalar", "_.Tensor")},
    **{f"aten::masked_select{s}": {"mask": _mask} for s in ("", ".out")},
    **{f"aten::masked_scatter{s}": {"mask": _mask, "source": lambda: matrix(2, 3)} for s in ("", "_")},
    "aten::nonzero.out": {"out": _LONG_OUT},
    **{f"aten::take{s}": {"index": _FLAT} for s in ("", ".out")},
    **{f"aten::put{s}": {"index": _FLAT, "source": lambda: matrix(2)} for s in ("", "_")},
}
