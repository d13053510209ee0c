"""``opscope.profiler``: what ops do inside, as data and as views.

So far the trace of what ran (``opscope.trace()``: ops, dispatch steps, autograd nodes) and the
call stack (``stack()``: Python and C++ frames merged, with file:line and layers); the profile
joins them here.

>>> import opscope
>>> s = opscope.profiler.stack()
>>> s[0].is_python, s[0].layer
(True, 'python')
"""
from opscope.profiler._graph import Graph, graph  # noqa: F401
from opscope.profiler._stack import Frame, Stack, stack  # noqa: F401
from opscope.profiler._trace import NodeRecord, NodeRun, OpRecord, StepRecord, Trace, trace  # noqa: F401

__all__ = ["Frame", "Stack", "stack", "trace", "Trace", "OpRecord", "StepRecord", "NodeRecord",
           "NodeRun", "graph", "Graph"]
