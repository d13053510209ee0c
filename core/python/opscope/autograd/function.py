"""``opscope.autograd.Function``: an op whose forward and backward you write yourself.

    class MyExp(opscope.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x.exp()
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, grad):
            y, = ctx.saved_tensors
            return grad * y

    y = MyExp.apply(x)       # y.grad_fn is a MyExpBackward node: it is also the ctx above

``apply`` runs ``forward`` without recording anything (grad mode off), then — when grad mode is on
and an input requires grad — records one node for the whole call (core/python/nodes.cpp), named
after the class as torch names it (``MyExpBackward``). In backward the engine calls
``backward(ctx, *grads)`` with one gradient per output of forward, and expects one per input
(None for inputs that are not tensors or need none).
"""
import functools
import warnings

import opscope
from opscope import _C


class FunctionCtx:
    """What forward and backward may use on ``ctx``."""

    def save_for_backward(self, *tensors):
        """Keeps tensors (or None) for backward, as ``ctx.saved_tensors``; checked there for
        in-place writes made since."""
        for i, t in enumerate(tensors):
            if t is not None and not isinstance(t, opscope.Tensor):
                raise TypeError(f"save_for_backward can only save variables, but argument {i} is "
                                f"of type {type(t).__name__}")
        self.to_save = tensors

    def mark_dirty(self, *tensors):
        """Says forward wrote these inputs in place (and returns them): they get this node as
        their grad_fn."""
        self.dirty_tensors = tensors

    def mark_non_differentiable(self, *tensors):
        """Says these outputs have no gradient: they do not require grad, and backward still
        receives a (zero) gradient for them."""
        self.non_differentiable = tensors

    def set_materialize_grads(self, value):
        """With False, backward receives None instead of zeros for outputs no gradient reached."""
        self.materialize_grads = bool(value)


class BackwardCFunction(_C._FunctionBase, FunctionCtx):
    """The class of a Function's node; each Function gets a subclass named ``<Name>Backward``."""

    def apply(self, *grads):
        """What the engine calls: the Function's backward with this ctx."""
        return self._forward_cls.backward(self, *grads)


class FunctionMeta(type):
    """Makes the node class of each Function: ``MyExp`` gets ``MyExpBackward``."""

    def __init__(cls, name, bases, attrs):
        backward_name = attrs.get("_backward_name", name + "Backward")
        cls._backward_cls = type(backward_name, (BackwardCFunction,), {"_forward_cls": cls})
        super().__init__(name, bases, attrs)


class Function(metaclass=FunctionMeta):
    """The base of custom autograd Functions: subclass it, write ``forward(ctx, *args)`` and
    ``backward(ctx, *grads)`` as staticmethods, call ``YourFunction.apply(*args)``."""

    def __init__(self, *args, **kwargs):
        warnings.warn(f"{self.__class__} should not be instantiated. Methods on autograd functions"
                      "are all static, so you should invoke them on the class itself. "
                      "Instantiating an autograd function will raise an error in a future version "
                      "of PyTorch.", DeprecationWarning)  # torch 1.13's words, missing space kept

    def __call__(self, *args, **kwargs):
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please use "
            "new-style autograd function with static forward method. (Example: "
            "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom "
                                  "autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for "
                                  "your custom autograd.Function to use it with backward mode AD.")

    vjp = backward

    @classmethod
    def apply(cls, *args):
        ctx = cls._backward_cls()
        requires = [isinstance(a, opscope.Tensor) and a.requires_grad for a in args]
        executable = _C.is_grad_enabled() and any(requires)
        ctx.needs_input_grad = tuple(executable and r for r in requires)
        ctx.materialize_grads = True
        with opscope.autograd.no_grad():
            outputs = cls.forward(ctx, *args)
        return _C._function_record(ctx, args, outputs, executable)


class _DelayedError(Function):
    """Passes gradients through, and fails if anything differentiates through it (what
    once_differentiable puts after a backward computed without a graph). Its node is named
    ``Error``, as torch's (``grad_fn=<Error>``)."""
    _backward_name = "Error"

    @staticmethod
    def forward(ctx, *grads):
        return tuple(grads)

    @staticmethod
    def backward(ctx, *grads):
        raise RuntimeError("trying to differentiate twice a function that was marked with "
                           "@once_differentiable")


def once_differentiable(fn):
    """Decorates a backward that is not differentiable itself: it runs without recording, and
    differentiating its result again (create_graph) raises an error instead of being wrong."""

    @functools.wraps(fn)
    def wrapper(ctx, *args):
        with opscope.autograd.no_grad():
            outputs = fn(ctx, *args)
        if not _C.is_grad_enabled():
            return outputs
        if not any(isinstance(a, opscope.Tensor) and a.requires_grad for a in args):
            return outputs
        # As torch: the results become fresh leaves that require grad, fed through a node that
        # raises if a second backward ever reaches it.
        single = not isinstance(outputs, tuple)
        fakes = [t.detach().requires_grad_() if isinstance(t, opscope.Tensor) and
                 t.is_floating_point() else t for t in ((outputs,) if single else outputs)]
        wrapped = _DelayedError.apply(*fakes)
        return wrapped[0] if single else wrapped

    return wrapper
