"""Samples for the op-table test (test_op_table.py) of the joining / splitting / rearranging
family (core/ops/shape.h) and the sorting family (core/ops/sorting.h): per-op replacements for
the generic samples, for the arguments the generic table has no value for (lists of tensors,
split sizes, k, ...)."""
import opscope
from reference_cases import matrix


def _pair():
    return [matrix(2, 3), matrix(2, 3) + 6]


def _long_out():
    return opscope.empty(0, dtype=opscope.int64)


_TENSORS = {"tensors": _pair}
_VALUES_INDICES = {"values": lambda: opscope.empty(0), "indices": _long_out}

OVERRIDES = {
    # joining
    **{f"aten::{op}{ov}": _TENSORS
       for op in ("cat", "concat", "stack", "hstack", "vstack", "dstack")
       for ov in ("", ".out")},
    **{f"aten::{op}{ov}": _TENSORS
       for op in ("column_stack", "row_stack", "block_diag") for ov in ("", ".out")},
    **{f"aten::atleast_{n}d.Sequence": _TENSORS for n in (1, 2, 3)},
    **{f"aten::{op}": {"tensors": lambda: [matrix(3), matrix(2)], "indexing": "xy"}
       for op in ("meshgrid", "meshgrid.indexing", "cartesian_prod")},
    # splitting (views)
    "aten::split.Tensor": {"split_size": 2, "dim": 1},
    "aten::split.sizes": {"split_size": [1, 2], "dim": 1},
    "aten::split_with_sizes": {"split_sizes": [1, 2], "dim": 1},
    "aten::chunk": {"chunks": 2, "dim": 1},
    "aten::tensor_split.sections": {"sections": 2, "dim": 1},
    "aten::tensor_split.indices": {"indices": [1], "dim": 1},
    "aten::tensor_split.tensor_indices_or_sections": {
        "tensor_indices_or_sections": lambda: opscope.tensor([1, 2]), "dim": 1},
    "aten::hsplit.int": {"sections": 3},
    "aten::hsplit.array": {"indices": [1]},
    "aten::vsplit.int": {"sections": 2},
    "aten::vsplit.array": {"indices": [1]},
    "aten::dsplit.int": {"self": lambda: matrix(2, 3, 4), "sections": 2},
    "aten::dsplit.array": {"self": lambda: matrix(2, 3, 4), "indices": [1, 3]},
    # rearranging
    "aten::rot90": {"k": 3, "dims": [1, 0]},
    "aten::rot90.out": {"k": 1},
    "aten::vander": {"x": lambda: matrix(3), "N": 4},
    "aten::combinations": {"self": lambda: matrix(4), "r": 3},
    **{f"aten::{op}": {"row": 3, "col": 4, "offset": 1} for op in ("triu_indices", "tril_indices")},
    **{f"aten::{op}.out": {"row": 3, "col": 4, "out": _long_out}
       for op in ("triu_indices", "tril_indices")},
    "aten::roll": {"shifts": [1]},
    "aten::roll.out": {"shifts": [1]},
    "aten::repeat": {"repeats": [2, 1, 2]},
    "aten::repeat.out": {"repeats": [2, 1, 2]},
    "aten::tile": {"dims": [2, 1]},
    "aten::repeat_interleave.Tensor": {"repeats": lambda: opscope.tensor([1, 0, 2])},
    "aten::repeat_interleave.self_Tensor": {"repeats": lambda: opscope.tensor([1, 2]), "dim": 0},
    "aten::repeat_interleave.self_int": {"repeats": 2},
    # sorting
    "aten::sort.stable": {"stable": True},
    "aten::sort.values": _VALUES_INDICES,
    "aten::sort.values_stable": {"stable": True, **_VALUES_INDICES},
    "aten::argsort.stable": {"stable": True},
    "aten::topk": {"k": 2},
    "aten::topk.values": {"k": 2, **_VALUES_INDICES},
    "aten::kthvalue": {"k": 2},
    "aten::kthvalue.values": {"k": 2, **_VALUES_INDICES},
    "aten::unique_dim": {"dim": 1},
}
