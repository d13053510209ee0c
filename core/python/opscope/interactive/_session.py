"""Per-execution capture: every REPL line or notebook cell runs under a trace recorder, and what
it recorded becomes an Execution — the default view drawn after it, the trace as data
(``_trace``, ``opscope.interactive.last()``), and an entry in a bounded history.

Note [One recording per execution]
The recorder starts in IPython's pre_run_cell event and stops in post_run_cell, so it sees the
user's code and IPython's display of its result, nothing of the prompt. It is bounded
(RecorderOptions' max_events and max_stacks, Note [A bounded recording]): a long session keeps at
most `history` executions, and of those only as many recordings as fit twice max_events; older
ones keep their view's lines and lose their trace. An execution that ran no op is not kept at
all, so after ``x = 1`` or ``%trace``, ``last()`` is still the last line that ran ops. The trace
is built from the recording only when asked for (a 100,000-op loop's events take seconds to
become Python objects; its view takes milliseconds, Note [Folding a loop]).
"""
import collections
import sys
import time

from opscope import _C
from opscope.interactive import _view
from opscope.profiler._trace import Trace, gc_paused

__all__ = ["Execution", "LazyTrace", "Session"]


class LazyTrace(Trace):
    """A Trace built from its recording when first read (``_trace.roots``, ``print(_trace)``)."""

    _FIELDS = ("events", "roots", "ops", "nodes_created", "scopes", "memory_events")

    def __init__(self, recording):  # noqa: D107 — Trace.__init__ runs on first use
        self._recording = recording

    def __getattr__(self, name):
        if name not in self._FIELDS:
            raise AttributeError(name)
        recording = self.__dict__.get("_recording")
        if recording is None:
            raise RuntimeError("this execution's trace was dropped from the history to bound "
                               "memory (%opscope history / max_events)")
        with gc_paused():
            Trace.__init__(self, recording.events(stacks=True))
        self._recording = None
        return getattr(self, name)

    def _drop(self):
        """Forgets the recording if the trace was never built (the history's memory bound)."""
        if "roots" not in self.__dict__:
            self._recording = None


class Execution:
    """One REPL line or cell that ran ops: its number and code, its view's lines, its trace."""

    def __init__(self, number, code, recording, lines, wall_ns):
        self.number = number
        self.code = code
        self.lines = lines
        self.wall_ns = wall_ns
        self.events = len(recording)
        self.trace = LazyTrace(recording)

    def __repr__(self):
        first = self.code.strip().splitlines()[0] if self.code.strip() else ""
        return f"<opscope execution [{self.number}] {first[:40]!r}: {self.events} events>"


class Session:
    """The recording around each execution of one IPython shell, and what was kept."""

    def __init__(self, settings, show, user_ns=None):
        self.settings = settings
        self.show = show                 # show(execution): draws the default view
        self.user_ns = user_ns           # where _trace goes
        self.history = collections.deque()
        self.suppress_view = False       # a magic drew this execution's view itself
        self._recorder = None
        self._started_ns = 0
        self._depth = 0                  # pre_run_cell events not yet matched by a post
        self._reported_failure = False

    # --- the IPython events ----------------------------------------------------------------

    def pre_run_cell(self, info=None):
        # A cell that runs cells (get_ipython().run_cell(...) in user code): the outer one
        # records them all, and its view comes once, at its end.
        self._depth += 1
        if self._depth > 1:
            return
        self.suppress_view = False
        self.start()

    def post_run_cell(self, result=None):
        self._depth = max(self._depth - 1, 0)
        if self._depth > 0:
            return
        try:
            self._after(result)
        except Exception as e:  # noqa: BLE001 — a view must never break the user's session
            if not self._reported_failure:
                self._reported_failure = True
                print(f"opscope: the view after this execution failed ({type(e).__name__}: {e}); "
                      "the next failures are not reported", file=sys.stderr)

    def _after(self, result):
        execution = self.stop(getattr(getattr(result, "info", None), "raw_cell", "") or "",
                              getattr(result, "execution_count", None))
        if execution is None:
            return
        if self.user_ns is not None:
            self.user_ns["_trace"] = execution.trace
        if self.suppress_view:
            return
        if self.settings.views != "off":
            self.show(execution)

    # --- recording ---------------------------------------------------------------------------

    def start(self):
        if self._recorder is not None:  # a run_cell inside a run_cell: the outer one records
            return
        install = getattr(_C, "_install_interrupt_handler", None)
        if install is not None:  # Ctrl-C reaches long kernels (REPL issue); rebound each time
            install()
        s = self.settings
        if not s.record:
            return
        self._recorder = _C._TraceRecorder(stacks=s.stacks, memory=s.memory,
                                           max_events=s.max_events, max_stacks=s.max_stacks)
        self._started_ns = time.monotonic_ns()
        self._recorder.start()

    def stop(self, code="", number=None):
        """Stops recording; returns the Execution (None when nothing ran)."""
        recorder, self._recorder = self._recorder, None
        if recorder is None:
            return None
        recorder.stop()
        wall_ns = time.monotonic_ns() - self._started_ns
        recording = recorder.take()
        if len(recording) == 0 and recording.dropped_items == 0:
            return None
        s = self.settings
        lines = _view.build_lines(recording, s.max_lines, int(s.slow_ms * 1e6))
        if not lines:  # only events outside any op (another thread's allocations)
            return None
        execution = Execution(number, code, recording, lines, wall_ns)
        self._keep(execution)
        return execution

    def _keep(self, execution):
        self.history.append(execution)
        while len(self.history) > max(self.settings.history, 1):
            self.history.popleft().trace._drop()
        budget = 2 * self.settings.max_events if self.settings.max_events else None
        if budget is None:
            return
        kept = 0
        for e in reversed(self.history):
            kept += e.events
            if kept > budget and e is not execution:
                e.trace._drop()

    def last(self):
        """The last Execution that ran ops, or None."""
        return self.history[-1] if self.history else None
