"""``opscope.profiler``: see inside every op — the trace of what ran (``opscope.trace()``), and,
as they arrive, call stacks and the profiler's tables and timelines."""
from opscope.profiler._trace import NodeRecord, NodeRun, OpRecord, StepRecord, Trace, trace  # noqa: F401
