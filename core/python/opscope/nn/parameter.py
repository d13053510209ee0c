"""``opscope.nn.parameter``: Parameter, the tensor a Module registers as its parameter."""

import opscope

__all__ = ["Parameter"]


class Parameter(opscope.Tensor):
    """A tensor that is a module's parameter: a leaf that requires grad (unless asked not to),
    registered by assigning it to a Module attribute and found by Module.parameters().

    >>> p = Parameter(opscope.zeros(2))
    >>> p.requires_grad, p.is_leaf
    (True, True)
    """

    # As torch's: ops on a Parameter skip __torch_function__ and return plain tensors.
    __torch_function__ = opscope._C._disabled_torch_function_impl

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = opscope.empty(0)
        return opscope.Tensor._make_subclass(cls, data.detach(), requires_grad)

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        result = type(self)(self.detach().clone(), self.requires_grad)
        memo[id(self)] = result
        return result

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    __str__ = __repr__

    def __reduce_ex__(self, proto):
        return (Parameter, (self.detach(), self.requires_grad))
