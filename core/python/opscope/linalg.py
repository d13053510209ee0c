"""``opscope.linalg``: the torch.linalg functions within opscope's op set.

>>> import opscope
>>> opscope.linalg.vector_norm(opscope.tensor([3., 4.]))
tensor(5.)
>>> opscope.linalg.vector_norm(opscope.tensor([[3., -4.]]), ord=float("inf"), dim=1)
tensor([4.])
"""

from opscope import _C

__all__ = ["vector_norm"]

vector_norm = _C._VariableFunctions.linalg_vector_norm  # out= folded in, as torch.linalg
