"""``opscope.linalg``: torch.linalg — inverses, determinants, solves, the Cholesky, QR, symmetric
eigen- and singular value decompositions, norms, cross products, powers, pseudo-inverses, ranks.

Each function is the aten op of the same name (``linalg.inv`` is ``aten::linalg_inv``), with
torch's signature, out= and named-tuple results (``torch.return_types.linalg_svd``); matrices are
the last two dims, leading dims are a batch. The factorizations run on LAPACK from OpenBLAS.

>>> import opscope
>>> opscope.linalg.vector_norm(opscope.tensor([3., 4.]))
tensor(5.)
>>> opscope.linalg.vector_norm(opscope.tensor([[3., -4.]]), ord=float("inf"), dim=1)
tensor([4.])
>>> a = opscope.tensor([[2., 0.], [0., 4.]])
>>> opscope.linalg.inv(a)
tensor([[0.5000, 0.0000],
        [0.0000, 0.2500]])
>>> opscope.linalg.det(a)
tensor(8.)
>>> opscope.linalg.eigvalsh(a)
tensor([2., 4.])
"""

import functools
import warnings

import opscope
from opscope import _C

__all__ = [
    "cholesky", "cholesky_ex", "cross", "det", "eigh", "eigvalsh", "inv", "inv_ex", "lstsq",
    "matrix_norm", "matrix_power", "matrix_rank", "multi_dot", "norm", "pinv", "qr", "slogdet",
    "solve", "solve_ex", "solve_triangular", "svd", "svdvals", "vector_norm",
]

_F = _C._VariableFunctions

# What a singular, not positive-definite or non-converging matrix raises (a RuntimeError), as
# torch.linalg.LinAlgError is torch._C._LinAlgError.
LinAlgError = _C._LinAlgError

vector_norm = _F.linalg_vector_norm  # out= folded in, as torch.linalg
norm = _F.linalg_norm
matrix_norm = _F.linalg_matrix_norm
inv = _F.linalg_inv
inv_ex = _F.linalg_inv_ex
det = _F.linalg_det
slogdet = _F.linalg_slogdet
solve = _F.linalg_solve
solve_ex = _F.linalg_solve_ex
solve_triangular = _F.linalg_solve_triangular
cholesky = _F.linalg_cholesky
cholesky_ex = _F.linalg_cholesky_ex
qr = _F.linalg_qr
eigh = _F.linalg_eigh
eigvalsh = _F.linalg_eigvalsh
svd = _F.linalg_svd
svdvals = _F.linalg_svdvals
cross = _F.linalg_cross
matrix_power = _F.linalg_matrix_power
matrix_rank = _F.linalg_matrix_rank
pinv = _F.linalg_pinv
multi_dot = _F.linalg_multi_dot
lstsq = _F.linalg_lstsq


# torch.cholesky and torch.qr say once per process that they are deprecated (TORCH_WARN_ONCE),
# with these words.
_DEPRECATED = {
    "cholesky": (
        "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a "
        "future PyTorch release.\nL = torch.cholesky(A)\nshould be replaced with\n"
        "L = torch.linalg.cholesky(A)\nand\nU = torch.cholesky(A, upper=True)\n"
        "should be replaced with\nU = torch.linalg.cholesky(A).mH().\n"
        "This transform will produce equivalent results for all valid (symmetric positive "
        "definite) inputs."),
    "qr": (
        "torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future "
        "PyTorch release.\nThe boolean parameter 'some' has been replaced with a string parameter "
        "'mode'.\nQ, R = torch.qr(A, some)\nshould be replaced with\n"
        "Q, R = torch.linalg.qr(A, 'reduced' if some else 'complete')"),
}
_warned = set()


def _deprecated(name, op):
    @functools.wraps(op)
    def call(*args, **kwargs):
        if name not in _warned:
            _warned.add(name)
            warnings.warn(_DEPRECATED[name], UserWarning, stacklevel=2)
        return op(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    # The Python-defined function takes part in __torch_function__ like the op it wraps.
    wrapper = _C._torch_function_wrapper(call)
    wrapper._torch_builtin = True  # torch.cholesky / qr are C++ functions: arguments as called
    return wrapper


def _install():
    """opscope.cholesky / opscope.qr and their Tensor methods with torch's deprecation warning."""
    for name in _DEPRECATED:
        setattr(opscope, name, _deprecated(name, getattr(_F, name)))
        setattr(opscope.Tensor, name, _deprecated(name, getattr(opscope.Tensor, name)))


_install()
