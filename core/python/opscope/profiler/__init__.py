"""``opscope.profiler``: what ops do inside, as data and as views.

The trace of what ran (``opscope.trace()``: ops, dispatch steps, autograd nodes, memory, user
scopes, stacks at kernels; ``load()`` reads a saved one back), the call stack (``stack()``: Python
and C++ frames merged, with file:line and layers), user scopes (``record_function``), op hooks
(``add_hook``), and the profile (``profile``: torch.profiler's interface, tables, Chrome traces).

>>> import opscope
>>> s = opscope.profiler.stack()
>>> s[0].is_python, s[0].layer
(True, 'python')
"""
from opscope.profiler._graph import Graph, graph  # noqa: F401
from opscope.profiler._stack import Frame, Stack, stack  # noqa: F401
from opscope.profiler._trace import (MemoryRecord, NodeRecord, NodeRun, OpRecord,  # noqa: F401
                                     ScopeRecord, StepRecord, Trace, load, trace)
from opscope.profiler._hooks import HookHandle, add_hook, record_function  # noqa: F401
from opscope.profiler._events import EventList, FunctionEvent, FunctionEventAvg  # noqa: F401
from opscope.profiler._profile import (ProfilerAction, ProfilerActivity, profile,  # noqa: F401
                                       schedule, supported_activities, tensorboard_trace_handler)

__all__ = ["Frame", "Stack", "stack", "trace", "Trace", "OpRecord", "StepRecord", "NodeRecord",
           "NodeRun", "ScopeRecord", "MemoryRecord", "load", "record_function", "add_hook",
           "HookHandle", "profile", "schedule", "ProfilerAction", "ProfilerActivity",
           "supported_activities", "tensorboard_trace_handler", "EventList", "FunctionEvent",
           "FunctionEventAvg", "graph", "Graph"]
