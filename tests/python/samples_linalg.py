"""Samples for the op-table test (test_op_table.py) of the linalg family (core/ops/linalg.h):
square, symmetric positive-definite and solvable operands where the generic (2, 3) ones do not
fit. The recorded cases of the family are in linalg_cases.py."""
import opscope
from reference_cases import matrix


def _square():  # well-conditioned, not symmetric
    return opscope.tensor([[4., 1., 2.], [0., 5., 1.], [1., 2., 6.]])


def _spd():
    return opscope.tensor([[4., 1., 2.], [1., 5., 3.], [2., 3., 6.]])


def _info():
    return opscope.zeros(2, dtype=opscope.int32)


_SQUARE = {"self": _square, "A": _square}
_SPD = {"self": _spd, "A": _spd}
_SOLVE = {"A": _square, "B": lambda: matrix(3, 2)}
_CROSS = {"self": lambda: matrix(2, 3), "other": lambda: matrix(2, 3) * 2}

# Every op whose matrix argument is named A (linalg_svd, linalg_qr, ...): a (2, 3) one.
SAMPLES = {("Tensor", "A"): lambda: matrix(2, 3), ("Tensor", "b"): lambda: matrix(2, 2)}

OVERRIDES = {
    "aten::_linalg_check_errors": {"info": _info, "api_name": "linalg.inv", "is_matrix": False},
    **{f"aten::{op}": _SQUARE for op in (
        "linalg_inv_ex", "linalg_inv", "linalg_inv.out", "inverse", "inverse.out", "_linalg_det",
        "linalg_det", "linalg_det.out", "det", "_linalg_slogdet", "linalg_slogdet", "slogdet",
        "linalg_matrix_power", "linalg_matrix_power.out", "matrix_power", "matrix_power.out")},
    **{f"aten::{op}": _SPD for op in (
        "logdet", "linalg_cholesky_ex", "linalg_cholesky", "linalg_cholesky.out", "cholesky",
        "cholesky.out", "_linalg_eigh", "linalg_eigh", "linalg_eigvalsh", "linalg_eigvalsh.out")},
    **{f"aten::{op}": _SOLVE for op in (
        "_linalg_solve_ex", "linalg_solve_ex", "linalg_solve", "linalg_solve.out")},
    **{f"aten::{op}": _CROSS for op in ("linalg_cross", "linalg_cross.out", "cross", "cross.out")},
    **{f"aten::linalg_solve_triangular{s}": {"self": _square, "B": lambda: matrix(3, 2), "upper": True}
       for s in ("", ".out")},
    "aten::linalg_matrix_norm": {"ord": 2},
    "aten::linalg_matrix_norm.out": {"ord": 2},
    "aten::linalg_norm.ord_str": {"ord": "nuc"},
    "aten::linalg_norm.ord_str_out": {"ord": "nuc"},
    "aten::nuclear_norm.dim": {"dim": [0, 1]},
    "aten::nuclear_norm.dim_out": {"dim": [0, 1]},
    "aten::linalg_pinv": {"rcond": 1e-15},
    "aten::linalg_pinv.rcond_tensor": {"rcond": lambda: opscope.tensor(1e-15)},
    "aten::linalg_matrix_rank": {"tol": 0.5},
    "aten::linalg_matrix_rank.atol_rtol_tensor": {"input": lambda: matrix(2, 3)},
    "aten::linalg_matrix_rank.tol_tensor": {"input": lambda: matrix(2, 3), "tol": lambda: opscope.tensor(0.5)},
    "aten::linalg_multi_dot": {"tensors": lambda: [matrix(2, 3), matrix(3, 4), matrix(4)]},
    "aten::linalg_multi_dot.out": {"tensors": lambda: [matrix(2, 3), matrix(3, 4), matrix(4)]},
    "aten::linalg_pinv.out": {"rcond": 1e-15},
    "aten::linalg_pinv.out_rcond_tensor": {"rcond": lambda: opscope.tensor(1e-15)},
    "aten::linalg_matrix_rank.out": {"tol": 0.5},
    "aten::linalg_matrix_rank.atol_rtol_tensor_out": {"input": lambda: matrix(2, 3)},
    "aten::linalg_matrix_rank.out_tol_tensor": {"input": lambda: matrix(2, 3), "tol": lambda: opscope.tensor(0.5)},
}
# The distances (core/ops/cpu/distance.cpp): rows of x1 against rows of x2, rows of self.
_X1, _X2 = (lambda: matrix(2, 3)), (lambda: matrix(4, 3) * 0.5)
OVERRIDES.update({
    "aten::cdist": {"x1": _X1, "x2": _X2},
    "aten::_cdist_forward": {"x1": _X1, "x2": _X2, "p": 2.0, "compute_mode": None},
    "aten::_euclidean_dist": {"x1": _X1, "x2": _X2},
    "aten::_cdist_backward": {"grad": lambda: matrix(2, 4), "x1": _X1, "x2": _X2, "p": 1.5,
                              "cdist": lambda: opscope.cdist(_X1(), _X2(), p=1.5)},
    "aten::pdist": {"self": lambda: matrix(4, 3)},
    "aten::_pdist_forward": {"self": lambda: matrix(4, 3), "p": 3.0},
    "aten::_pdist_backward": {"grad": lambda: matrix(6), "self": lambda: matrix(4, 3), "p": 2.0,
                              "pdist": lambda: opscope.pdist(matrix(4, 3))},
})
for _op in ("aten::linalg_matrix_power", "aten::linalg_matrix_power.out", "aten::matrix_power",
            "aten::matrix_power.out"):
    OVERRIDES[_op] = {**_SQUARE, "n": 3}
