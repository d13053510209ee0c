"""The trace as data: ``with opscope.trace() as t`` records every op run inside, with its dispatch
steps, the autograd nodes it created, and the backward nodes the engine ran with their ops.

The recorder is C++ (profiler/Recorder.h): a dispatch observer that keeps the raw events —
step entered, step left, node created, node run begin / end — in order. This module turns them
into a tree:

    t.roots    what ran at the top: OpRecord (a forward op) or NodeRun (a backward node)
    t.ops      every OpRecord, nested ones included, in call order

An OpRecord is one call of an op (``aten::mm``): its first dispatch step and the redispatches
below it (``mm[AutogradCPU] → mm[CPU]``) are its ``steps``; ops its kernels called are its
``children``; nodes recorded by its Autograd kernel are ``nodes_created``.
"""
import contextlib

from opscope import _C

__all__ = ["trace", "Trace", "OpRecord", "StepRecord", "NodeRecord", "NodeRun"]


# Arguments a summary line leaves out: unset options, and options that rarely matter.
_UNSHOWN_VALUES = ("None", "False")
_UNSHOWN_ARGUMENTS = ("layout", "pin_memory", "memory_format", "non_blocking")


def _short(name):
    """aten::mm.out -> mm"""
    return name.split("::")[-1].split(".")[0]


def _value_str(v):
    if v is None:
        return "None"
    if "value" in v:
        return v["value"]
    return f"{v['dtype']}[{','.join(str(s) for s in v['shape'])}]"


def _duration_str(ns):
    if ns < 1_000:
        return f"{ns} ns"
    if ns < 1_000_000:
        return f"{ns / 1e3:.1f} µs"
    if ns < 1_000_000_000:
        return f"{ns / 1e6:.2f} ms"
    return f"{ns / 1e9:.2f} s"


class StepRecord:
    """One dispatch step: which key was chosen out of which set, and why; the kernel that ran."""

    def __init__(self, e):
        self.call = e["call"]                  # call, redispatch, callBoxed, redispatchBoxed
        self.op = e["op"]                      # aten::mm
        self.key = e["key"]                    # the chosen key: AutogradCPU
        self.key_set = e["key_set"]            # keys dispatched on (after include / exclude)
        self.fallthrough = e["fallthrough"]    # keys of key_set this op falls through
        self.tls_included = e["tls_included"]
        self.tls_excluded = e["tls_excluded"]
        self.kernel = e["kernel"]
        self.provenance = e["provenance"]      # kernel, math kernel, autograd kernel, ...
        self.registered_key = e["registered_key"]
        self.site = e["site"]                  # core/ops/linear.cpp:42
        self.arg_names = e["arg_names"]
        self.args = e["args"]
        self.arg_key_sets = e.get("arg_keys") or [a["keys"] if a and "keys" in a else None
                                                  for a in e["args"]]
        self.id = e["step"]

    @property
    def label(self):
        """mm[AutogradCPU]"""
        return f"{_short(self.op)}[{self.key}]"

    def __repr__(self):
        return f"<step {self.call} {self.label} {self.kernel} [{self.provenance}]>"


class NodeRecord:
    """An autograd node an op's Autograd kernel created."""

    def __init__(self, e):
        self.name = e["node"]
        self.sequence_nr = e["sequence_nr"]
        self.next = [n or None for n in e["next"]]
        self.id = e["node_id"]

    def __repr__(self):
        return f"<node {self.name} #{self.sequence_nr}>"


class _Timed:
    """What ops and backward node runs share: a span of time, and children."""

    @property
    def duration_ns(self):
        return (self.end_ns or self.start_ns) - self.start_ns

    def walk(self):
        """This item and every one below it, in call order."""
        yield self
        for c in self.children:
            yield from c.walk()


class OpRecord(_Timed):
    """One call of an op, with its dispatch steps, the ops it called, and the nodes it recorded."""

    def __init__(self, e, parent):
        self.name = e["op"]
        self.steps = [StepRecord(e)]
        self.inputs = e["args"]
        self.outputs = None
        self.children = []
        self.nodes_created = []
        self.start_ns = e["t_ns"]
        self.end_ns = None
        self.thread = e["thread"]
        self.threw = False
        self.parent = parent


    def path(self, limit=8):
        """The dispatch path: every step of this op and the ops below it, in order, leaving out
        composite (math kernel) steps, which the names of their children stand for."""
        labels = []
        for op in self.walk():
            if not isinstance(op, OpRecord):
                continue
            for s in op.steps:
                if s.provenance == "math kernel" and op.children:
                    continue
                labels.append(s.label)
        if len(labels) > limit:
            labels = labels[:limit] + [f"… ({len(labels) - limit} more)"]
        return labels

    def signature(self):
        """mm(f32[2,3], f32[3,4]): the op's name and its inputs' metadata."""
        shown = [_value_str(v) for v, n in zip(self.inputs, self.steps[0].arg_names)
                 if v is not None and ("shape" in v or (v["value"] not in _UNSHOWN_VALUES and
                                                        n not in _UNSHOWN_ARGUMENTS))]
        return f"{_short(self.name)}({', '.join(shown)})"

    def summary(self, timed=True):
        """matmul(f32[2,3], f32[3,4]) → mm[AutogradCPU] → mm[CPU] · MmBackward0 · 12.3 µs"""
        parts = [" → ".join([self.signature()] + self.path())]
        nodes = [n.name for op in self.walk() if isinstance(op, OpRecord)
                 for n in op.nodes_created if n.name != "AccumulateGrad"]
        if nodes:
            parts.append(", ".join(nodes))
        if self.threw:
            parts.append("threw")
        if timed:
            parts.append(_duration_str(self.duration_ns))
        return " · ".join(parts)

    def __repr__(self):
        return f"<op {self.summary()}>"


class NodeRun(_Timed):
    """A backward node the engine ran, with the ops its formula (and hooks) called."""

    def __init__(self, e, parent):
        self.name = e["node"]
        self.sequence_nr = e["sequence_nr"]
        self.id = e["node_id"]
        self.children = []
        self.start_ns = e["t_ns"]
        self.end_ns = None
        self.thread = e["thread"]
        self.parent = parent


    def summary(self, timed=True):
        """backward MulBackward0 #12: mul[AutogradCPU] → mul[CPU] · 3.1 µs"""
        labels = [lab for c in self.children if isinstance(c, OpRecord) for lab in c.path()]
        if len(labels) > 8:
            labels = labels[:8] + [f"… ({len(labels) - 8} more)"]
        text = f"backward {self.name} #{self.sequence_nr}"
        if labels:
            text += ": " + " → ".join(labels)
        return text + (f" · {_duration_str(self.duration_ns)}" if timed else "")

    def __repr__(self):
        return f"<{self.summary()}>"


class Trace:
    """What ran inside ``opscope.trace()``; see the module's docstring."""

    # More top-level items than this and str() groups them by dispatch path.
    GROUP_ABOVE = 20

    def __init__(self, events):
        self.events = events
        self.roots = []
        self.ops = []
        self.nodes_created = []
        self._build(events)

    def _build(self, events):
        open_items = {}   # thread -> stack of OpRecord / NodeRun
        steps = {}        # step id -> (OpRecord, is its first step)
        for e in events:
            stack = open_items.setdefault(e["thread"], [])
            top = stack[-1] if stack else None
            kind = e["kind"]
            if kind == "enter":
                if e["call"] in ("redispatch", "redispatchBoxed") and isinstance(top, OpRecord):
                    top.steps.append(StepRecord(e))
                    steps[e["step"]] = (top, False)
                    continue
                op = OpRecord(e, top)
                (top.children if top is not None else self.roots).append(op)
                self.ops.append(op)
                stack.append(op)
                steps[e["step"]] = (op, True)
            elif kind == "exit":
                op, first = steps.pop(e["step"], (None, False))
                if op is None or not first:
                    continue
                op.end_ns = e["t_ns"]
                op.outputs = e["outputs"]
                op.threw = e["threw"]
                while stack and stack[-1] is not op:  # an unbalanced child (threw)
                    stack.pop()
                if stack:
                    stack.pop()
            elif kind == "node_created":
                node = NodeRecord(e)
                self.nodes_created.append(node)
                owner = next((s for s in reversed(stack) if isinstance(s, OpRecord)), None)
                if owner is not None:
                    owner.nodes_created.append(node)
            elif kind == "node_begin":
                run = NodeRun(e, top)
                (top.children if top is not None else self.roots).append(run)
                stack.append(run)
            elif kind == "node_end":
                while stack and not (isinstance(stack[-1], NodeRun) and
                                     stack[-1].id == e["node_id"]):
                    stack.pop()
                if stack:
                    stack.pop().end_ns = e["t_ns"]

    def find(self, name):
        """The first recorded call of an op (``"aten::mm"``, ``"mm"`` or ``"aten::add.Tensor"``)."""
        for op in self.ops:
            if name in (op.name, _short(op.name)) or op.name.startswith(name + "."):
                return op
        raise KeyError(f"no call of {name} was recorded")

    def summary_lines(self):
        """One line per top-level op or backward node; past GROUP_ABOVE, one line per distinct
        dispatch path with its count and total time."""
        if len(self.roots) <= self.GROUP_ABOVE:
            return [r.summary() for r in self.roots]
        groups = {}
        for r in self.roots:
            key = r.summary(timed=False)
            count, total = groups.get(key, (0, 0))
            groups[key] = (count + 1, total + r.duration_ns)
        lines = [f"{len(self.roots)} top-level calls, {len(groups)} distinct paths:"]
        for key, (count, total) in sorted(groups.items(), key=lambda kv: -kv[1][1]):
            lines.append(f"  ×{count:<6} {key} · total {_duration_str(total)}")
        return lines

    def __str__(self):
        return "\n".join(self.summary_lines())

    def __repr__(self):
        return f"<opscope trace: {len(self.ops)} ops, {len(self.roots)} top-level>"

    def __len__(self):
        return len(self.roots)

    # --- views: _views_text.py (terminal), _html.py (notebooks) ---

    def tree(self, width=None, color=None):
        """The dispatch tree as text, fitting `width` columns: every step with its keys and
        kernel, nested ops, autograd nodes, backward runs, scopes (see _views_text.py)."""
        from opscope.profiler import _views_text
        return _views_text.tree(self, width=width, color=color)

    def _repr_html_(self):
        from opscope.profiler import _html
        return _html.trace_html(self)

    def _repr_mimebundle_(self, include=None, exclude=None):
        from opscope.profiler import _html
        return _html.trace_bundle(self, include, exclude)


class trace(contextlib.AbstractContextManager):
    """``with opscope.trace() as t:`` records every op run inside (on every thread); after the
    block, ``t`` is the Trace (``print(t)`` gives one line per op)."""

    def __init__(self):
        self._recorder = _C._TraceRecorder()
        self._trace = None

    def __enter__(self):
        self._recorder.start()
        return self

    def __exit__(self, *exc):
        self._recorder.stop()
        self._trace = Trace(self._recorder.events())
        return False

    def __getattr__(self, name):  # the Trace's attributes, once the block is over
        if name.startswith("_"):
            raise AttributeError(name)
        if self._trace is None:
            raise RuntimeError("the trace is still recording: read it after the with block")
        return getattr(self._trace, name)

    def __str__(self):
        return str(self._trace) if self._trace is not None else "<opscope trace: recording>"

    def __repr__(self):
        return repr(self._trace) if self._trace is not None else "<opscope trace: recording>"

    def __len__(self):
        return len(self._trace) if self._trace is not None else 0

    # The views' protocol, which __getattr__ leaves out (underscore names).
    def _repr_html_(self):
        return self._trace._repr_html_() if self._trace is not None else None

    def _repr_mimebundle_(self, include=None, exclude=None):
        if self._trace is None:
            return {"text/plain": str(self)}
        return self._trace._repr_mimebundle_(include, exclude)
