"""``opscope.autograd.Variable``: the wrapper torch deprecated in 0.4, kept for old code.

``Variable(t, requires_grad=False)`` returns a plain tensor: ``t`` detached (same storage and
version counter, no history, a leaf) with requires_grad set, as torch's does; ``isinstance(x,
Variable)`` is ``isinstance(x, Tensor)``.

>>> import opscope
>>> from opscope.autograd import Variable
>>> v = Variable(opscope.ones(2), requires_grad=True)
>>> type(v).__name__, v.requires_grad, v.is_leaf
('Tensor', True, True)
"""

import warnings

import opscope


class VariableMeta(type):
    def __instancecheck__(cls, other):
        return isinstance(other, opscope.Tensor)


class Variable(metaclass=VariableMeta):
    """Variable(data=None, requires_grad=False, volatile=False) -> Tensor (deprecated: tensors are
    variables; use the tensor itself, with requires_grad_())."""

    def __new__(cls, data=None, requires_grad=False, volatile=False):
        if volatile:
            warnings.warn("volatile was removed and now has no effect. Use `with torch.no_grad():` "
                          "instead.", UserWarning, stacklevel=2)
        if data is None:
            data = opscope.empty(0)
        if not isinstance(data, opscope.Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        if requires_grad and not data.is_floating_point():
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        return data.detach().requires_grad_(bool(requires_grad))
