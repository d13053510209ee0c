"""``opscope.profiler``: what ops do inside, as data and as views.

So far the call stack (``stack()``: Python and C++ frames merged, with file:line and layers); the
trace recorder and the profile join it here.

>>> import opscope
>>> s = opscope.profiler.stack()
>>> s[0].is_python, s[0].layer
(True, 'python')
"""
from opscope.profiler._stack import Frame, Stack, stack  # noqa: F401

__all__ = ["Frame", "Stack", "stack"]
