"""User scopes and op hooks: ``record_function`` names a block in traces and profiles (PyTorch's
``torch.profiler.record_function``); ``add_hook`` calls your functions around every op call
(PyTorch's RecordFunction callbacks; C++: profiler/Hooks.h).

>>> import opscope
>>> seen = []
>>> with opscope.profiler.add_hook(on_enter=lambda call: seen.append(call.name)):
...     y = opscope.ones(2) * 3
>>> seen
['aten::ones', 'aten::mul.Tensor']
"""
import contextlib
import functools

from opscope import _C

__all__ = ["record_function", "add_hook", "HookHandle"]


class record_function(contextlib.ContextDecorator):
    """``with record_function("my block"):`` (or ``@record_function("my block")``) marks a user
    scope: traces show it as a ScopeRecord holding the ops run inside, profiles as a row of its
    own. Costs nothing when nothing records. ``args`` is accepted for PyTorch's signature."""

    def __init__(self, name, args=None):
        if not isinstance(name, str):
            raise TypeError(f"record_function(): name must be a str, not {type(name).__name__}")
        self.name = name
        self.args = args
        self._ids = []

    def __enter__(self):
        self._ids.append(_C._record_function_enter(self.name))
        return self

    def __exit__(self, *exc):
        if self._ids:
            _C._record_function_exit(self._ids.pop(), self.name)
        return False

    def __call__(self, fn):
        """As a decorator: every call of fn is one scope."""
        @functools.wraps(fn)
        def scoped(*args, **kwargs):
            with record_function(self.name, self.args):
                return fn(*args, **kwargs)
        return scoped


class HookHandle:
    """What add_hook returns: ``remove()`` stops the hooks; as a context manager, the hooks are
    removed at the end of the block."""

    def __init__(self, handle):
        self._handle = handle

    def remove(self):
        self._handle.remove()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()
        return False


def add_hook(on_enter=None, on_exit=None):
    """Calls ``on_enter(call)`` before and ``on_exit(call)`` after every op call, on whatever
    thread runs it, until the returned handle's ``remove()``.

    ``call`` is the op call: ``name`` ("aten::mm"), ``inputs`` (tensors and values, schema
    order), ``outputs`` (on exit; None if the op threw), ``threw``, ``key`` (the key its first
    dispatch step chose), ``kernel``, ``provenance``, ``step`` (the step's id). A call's
    redispatches (mm[AutogradCPU] → mm[CPU]) are one call. Ops a hook runs itself are not reported
    to hooks. An exception a hook raises is printed as unraisable (like one in ``__del__``) and
    the op goes on.
    """
    for name, fn in (("on_enter", on_enter), ("on_exit", on_exit)):
        if fn is not None and not callable(fn):
            raise TypeError(f"add_hook(): {name} must be callable or None, not "
                            f"{type(fn).__name__}")
    if on_enter is None and on_exit is None:
        raise TypeError("add_hook(): give on_enter, on_exit or both")
    return HookHandle(_C._add_op_hook(on_enter, on_exit))
