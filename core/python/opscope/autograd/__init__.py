"""``opscope.autograd``: reverse-mode automatic differentiation, as ``torch.autograd``.

Every differentiable op on a tensor that requires grad records a node (``y.grad_fn``, named like
PyTorch's: ``MulBackward0``); ``backward()`` runs the recorded graph back to the leaves and
accumulates into their ``.grad``; ``grad()`` returns the gradients instead. The engine, the
nodes and the derivative formulas are C++ (core/autograd/); this module is their Python face.

>>> import opscope
>>> x = opscope.tensor([1.0, 2.0, 3.0], requires_grad=True)
>>> y = (x * x).sum()
>>> y.grad_fn
<SumBackward0 object at ...>
>>> y.backward()
>>> x.grad
tensor([2., 4., 6.])
>>> opscope.autograd.grad((x ** 3).sum(), x)
(tensor([ 3., 12., 27.]),)
"""

import functools

import opscope
from opscope import _C

__all__ = ["backward", "grad", "no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled",
           "inference_mode", "Function", "gradcheck", "gradgradcheck", "graph"]

is_grad_enabled = _C.is_grad_enabled
is_inference_mode_enabled = _C.is_inference_mode_enabled


def _tensor_tuple(x):
    if x is None:
        return None
    if isinstance(x, opscope.Tensor):
        return (x,)
    return tuple(x)


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    """Accumulates into the .grad of the leaves `tensors` depend on the gradient of
    sum(tensor_i * grad_tensors_i) (grad_tensors may be left out for scalars)."""
    tensors = _tensor_tuple(tensors)
    grad_tensors = _tensor_tuple(grad_tensors) or ()
    if retain_graph is None:
        retain_graph = create_graph
    inputs = _tensor_tuple(inputs) or ()
    _C._backward(tensors, grad_tensors, retain_graph, create_graph, inputs)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         allow_unused=False):
    """The gradients of sum(output_i * grad_outputs_i) with respect to each of `inputs`, as a
    tuple; no .grad is touched."""
    outputs = _tensor_tuple(outputs)
    inputs = _tensor_tuple(inputs)
    grad_outputs = _tensor_tuple(grad_outputs) or ()
    if retain_graph is None:
        retain_graph = create_graph
    return _C._grad(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused)


class _GradModeContext:
    """A context manager that is also a decorator (as torch's _DecoratorContextManager)."""

    def _mode(self):
        raise NotImplementedError

    def __enter__(self):
        self._saved = _C.is_grad_enabled()
        _C._set_grad_enabled(self._mode())

    def __exit__(self, *exc):
        _C._set_grad_enabled(self._saved)
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.__class__(*self._args()):
                return fn(*args, **kwargs)
        return wrapper

    def _args(self):
        return ()

    def clone(self):
        return self.__class__(*self._args())


class no_grad(_GradModeContext):
    """Ops record no graph inside: results do not require grad.

    >>> x = opscope.ones(2, requires_grad=True)
    >>> with opscope.no_grad():
    ...     y = x * 2
    >>> y.requires_grad
    False
    """

    def _mode(self):
        return False


class enable_grad(_GradModeContext):
    """Turns recording back on inside a no_grad scope."""

    def _mode(self):
        return True


class set_grad_enabled(_GradModeContext):
    """Sets grad mode to `mode` — as a call (takes effect at once), a context manager (restored
    on exit) or a decorator."""

    def __init__(self, mode):
        self.mode = bool(mode)
        self._prev = _C.is_grad_enabled()
        _C._set_grad_enabled(self.mode)

    def _mode(self):
        return self.mode

    def _args(self):
        return (self.mode,)

    def __enter__(self):
        self._saved = self._prev
        _C._set_grad_enabled(self.mode)

    def __call__(self, fn):
        _C._set_grad_enabled(self._prev)  # the decorator form does not switch at definition
        return super().__call__(fn)


class inference_mode(_GradModeContext):
    """Like no_grad, and cheaper: inside, the Autograd and ADInplaceOrView layers are skipped
    altogether and new tensors are *inference tensors*, which can never join a graph later
    (torch.inference_mode; see core/autograd/GradMode.h). ``inference_mode(False)`` switches back
    to normal mode inside. Usable bare as a decorator too.

    >>> with opscope.inference_mode():
    ...     y = opscope.ones(2) * 2
    >>> y.is_inference(), y.requires_grad
    (True, False)
    """

    def __new__(cls, mode=True):
        if isinstance(mode, bool):
            return super().__new__(cls)
        return cls()(mode)  # @inference_mode without parentheses

    def __init__(self, mode=True):
        self.mode = mode

    def _args(self):
        return (self.mode,)

    def __enter__(self):
        self._guard = _C._InferenceMode(self.mode)

    def __exit__(self, *exc):
        del self._guard
        return False


from opscope.autograd import function, graph  # noqa: E402,F401
from opscope.autograd.function import Function, once_differentiable  # noqa: E402,F401
from opscope.autograd.gradcheck import GradcheckError, gradcheck, gradgradcheck  # noqa: E402,F401
from opscope.autograd.variable import Variable  # noqa: E402,F401  (deprecated wrapper)
