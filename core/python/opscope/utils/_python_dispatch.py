"""``__torch_dispatch__``: Python below autograd, as torch 1.13's torch.utils._python_dispatch.

A tensor whose class defines ``__torch_dispatch__`` carries the Python dispatch key; while a
``TorchDispatchMode`` is active (``with LoggingMode():``), every op call on this thread passes
the Python key. Either way the op arrives, below autograd, at the Python key's kernel
(core/python/python_dispatch.cpp), which calls ``_dispatch`` here with the aten overload
(``opscope.ops.aten.mm.default``) and the call's arguments:

>>> import opscope
>>> class Log(TorchDispatchMode):
...     def __torch_dispatch__(self, func, types, args=(), kwargs=None):
...         print(func)
...         return func(*args, **(kwargs or {}))
>>> a, b = opscope.ones(2, 3), opscope.ones(3, 4)
>>> with Log():
...     _ = opscope.mm(a, b)
aten.mm.default

Handlers run in torch's order: the innermost mode first (popped while it runs, so the ops it calls
go to the next mode, or to the kernels), then each tensor subclass, subclasses before their
parents, left to right, until one returns something other than NotImplemented.
"""

import threading

from opscope import _C

__all__ = ["TorchDispatchMode", "BaseTorchDispatchMode"]

_NO_HANDLER = object()  # _dispatch's answer when nothing in Python handles the call


class _ModeStack(threading.local):
    def __init__(self):
        self.modes = []


_stack = _ModeStack()


def _len_torch_dispatch_stack():
    return len(_stack.modes)


def _get_dispatch_stack_at(i):
    return _stack.modes[i]


def _push_mode(mode):
    _stack.modes.append(mode)
    _C._set_dispatch_mode_key(True)


def _pop_mode():
    if not _stack.modes:
        raise RuntimeError("Trying to pop from an empty mode stack")
    mode = _stack.modes.pop()
    if not _stack.modes:
        _C._set_dispatch_mode_key(False)
    return mode


class _pop_mode_temporarily:
    """The innermost mode, off the stack for the duration (what runs its __torch_dispatch__)."""

    def __enter__(self):
        self.mode = _pop_mode()
        return self.mode

    def __exit__(self, *exc):
        _push_mode(self.mode)
        return False


def _get_current_dispatch_mode():
    return _stack.modes[-1] if _stack.modes else None


def _get_current_dispatch_mode_stack():
    return list(_stack.modes)


class TorchDispatchMode:
    """Overrides every op below autograd within a ``with`` block: subclass it and define
    ``__torch_dispatch__(self, func, types, args=(), kwargs=None)``. Modes nest; inside its
    ``__torch_dispatch__`` a mode is off the stack, so ``func(*args, **kwargs)`` reaches the
    next mode or the kernels."""

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        raise NotImplementedError()

    def __enter__(self):
        _push_mode(self)
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        _pop_mode()

    @classmethod
    def push(cls, *args, **kwargs):
        import warnings
        warnings.warn("`Mode.push()` is no longer necessary and can be replaced with just `with Mode()`")
        return cls(*args, **kwargs)


class BaseTorchDispatchMode(TorchDispatchMode):
    """A mode that runs every op unchanged (a base for modes that only watch)."""

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


def _add_overloaded(types, t):
    # torch's order: a class joins once; a subclass goes before the first of its parents already
    # listed, anything else at the end.
    cls = type(t)
    if cls in types:
        return
    for i, seen in enumerate(types):
        if issubclass(cls, seen):
            types.insert(i, cls)
            return
    types.append(cls)


def _overloaded_types(args, kwargs):
    types = []
    for a in list(args) + list(kwargs.values()):
        if isinstance(a, (list, tuple)):
            for e in a:
                if _C._has_torch_dispatch(e):
                    _add_overloaded(types, e)
        elif _C._has_torch_dispatch(a):
            _add_overloaded(types, a)
    return types


def _dispatch(func, args, kwargs):
    """The Python key's handler choice for one call (called from C++). Returns the result, or
    _NO_HANDLER when neither a mode nor a subclass is there to take it."""
    types = _overloaded_types(args, kwargs)
    if _stack.modes:
        with _pop_mode_temporarily() as mode:
            scope = _C._record_function_enter(f"{type(mode).__name__}.__torch_dispatch__")
            try:
                r = mode.__torch_dispatch__(func, tuple(types), args, kwargs)
            finally:
                _C._record_function_exit(scope, f"{type(mode).__name__}.__torch_dispatch__")
        if r is not NotImplemented:
            return r
    elif not types:
        return _NO_HANDLER
    for cls in types:
        name = f"{cls.__name__}.__torch_dispatch__"
        scope = _C._record_function_enter(name)
        try:
            r = cls.__torch_dispatch__(func, tuple(types), args, kwargs)
        finally:
            _C._record_function_exit(scope, name)
        if r is not NotImplemented:
            return r
    lines = [f"Multiple dispatch failed for '{func.name()}'; all __torch_dispatch__ handlers "
             "returned NotImplemented:", ""]
    if _stack.modes or not types:
        lines.append(f"  - mode object {_get_current_dispatch_mode()!r}")
    lines += [f"  - tensor subclass {cls!r}" for cls in types]
    raise TypeError("\n".join(lines))
