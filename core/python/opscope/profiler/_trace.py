"""The trace as data: ``with opscope.trace() as t`` records every op run inside, with its dispatch
steps, the autograd nodes it created, and the backward nodes the engine ran with their ops.

The recorder is C++ (profiler/Recorder.h): a dispatch observer that keeps the raw events —
step entered, step left, node created, node run begin / end — in order. This module turns them
into a tree:

    t.roots    what ran at the top: OpRecord (a forward op) or NodeRun (a backward node)
    t.ops      every OpRecord, nested ones included, in call order
    t.top_level  the roots as the views show them: each backward() call's node runs and the
               ops its engine ran between them gathered into one BackwardPass

An OpRecord is one call of an op (``aten::mm``): its first dispatch step and the redispatches
below it (``mm[AutogradCPU] → mm[CPU]``) are its ``steps``; ops its kernels called are its
``children``; nodes recorded by its Autograd kernel are ``nodes_created``; the allocations and
frees it made itself are ``memory_events``; with ``trace(with_stack=True)``, ``stack`` is the call
stack at its innermost kernel (right before the BLAS routine, for a product). User scopes
(``opscope.profiler.record_function``) are ScopeRecords in the same tree.

The trace is data: ``t.to_json()`` writes it in the ``opscope.trace/1`` format
(share/opscope.trace-1.md), ``opscope.profiler.load(path)`` reads it back.
"""
import contextlib
import datetime
import gc
import json

from opscope import _C
from opscope.profiler._stack import Stack

__all__ = ["trace", "Trace", "OpRecord", "StepRecord", "NodeRecord", "NodeRun", "ScopeRecord",
           "BackwardPass", "MemoryRecord", "load", "SCHEMA", "NO_SEQUENCE_NR"]

# The JSON format to_json writes and load reads (share/opscope.trace-1.md).
SCHEMA = "opscope.trace/1"


# Arguments a summary line leaves out: unset options, and options that rarely matter.
_UNSHOWN_VALUES = ("None", "False")
_UNSHOWN_ARGUMENTS = ("layout", "pin_memory", "memory_format", "non_blocking")


# The sequence_nr of a node made outside a forward op (AccumulateGrad): UINT64_MAX, which the
# views show as no number at all.
NO_SEQUENCE_NR = 2 ** 64 - 1


def _sequence_str(nr):
    """" #12", or "" for a node without a sequence number."""
    return "" if nr is None or nr == NO_SEQUENCE_NR else f" #{nr}"


# Note [A path without its allocations]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# A kernel that makes its result calls empty / empty_like / empty_strided, each two or three
# steps (empty_like[CPU] → empty_strided[BackendSelect] → empty_strided[CPU]), and those come
# first: rrelu's one-line summary read "rrelu(…) → empty_like[CPU] → … → empty_strided[CPU]"
# where a reader looks for rrelu_with_noise. An op's path leaves out the ops below it that only
# allocate; the trace's tree, the profile and the memory timeline keep them, and an allocation
# op's own path (empty_like(…) → empty_like[CPU] → empty_strided[…]) is whole.
_ALLOCATIONS = frozenset({"empty", "empty_like", "empty_strided", "new_empty",
                          "new_empty_strided"})
# Views, which only make new metadata over the same memory, are left out the same way below an op
# that computes: einsum's line reads einsum(…) → bmm[AutogradCPU] → bmm[CPU] · BmmBackward0, not
# its unsqueeze / permute / reshape steps first; linear's, addmm's steps without t's. A view op
# that copies (reshape of a non-viewable tensor: clone + _unsafe_view) is kept.
_VIEWS = frozenset({
    "view", "_unsafe_view", "_reshape_alias", "reshape", "view_as", "reshape_as", "unsqueeze",
    "squeeze", "permute", "transpose", "t", "expand", "expand_as", "as_strided", "select", "slice",
    "narrow", "movedim", "moveaxis", "diagonal", "flatten", "unflatten", "alias", "detach",
    "swapaxes", "swapdims", "unfold", "split", "split_with_sizes", "chunk", "unbind",
    "resolve_conj", "resolve_neg", "lift_fresh", "contiguous"})


def _only_metadata(op):
    """Whether op and every op below it are views or allocations (no element was computed)."""
    return _short(op.name) in _VIEWS and all(
        _short(c.name) in _ALLOCATIONS or _only_metadata(c)
        for c in op.children if isinstance(c, OpRecord))


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
        # A CUDA kernel step under a recorder that times the device: when the stream reached the
        # kernel step's start and end (CLOCK_MONOTONIC ns) and the stream's id. See Note [Device
        # time of an op] in core/runtime/DeviceTimer.h.
        self.device_start_ns = e.get("device_ns")
        self.device_end_ns = None
        self.stream = e.get("stream")
        self.device_index = e.get("device_index", 0)
        # device_ns less the spans of the ops this step's kernel called, which lie inside it
        # (Trace._attribute_device_time): the step's own kernels' time
        self.device_self_ns = 0

    @property
    def device_ns(self):
        """The device's time for this step's kernels (0 when not timed)."""
        if self.device_start_ns is None or self.device_end_ns is None:
            return 0
        return max(0, self.device_end_ns - self.device_start_ns)

    @property
    def label(self):
        """The step as a trace reads it: mm[AutogradCPU]."""
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
    """What ops, backward node runs and scopes share: a span of time on a thread, children, and
    the item they ran in."""

    def __init__(self, e, parent):
        self.children = []
        self.start_ns = e["t_ns"]
        self.end_ns = None
        self.thread = e["thread"]
        self.parent = parent

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
        super().__init__(e, parent)
        self.name = e["op"]
        self.steps = [StepRecord(e)]
        self.inputs = e["args"]
        self.outputs = None
        self.nodes_created = []
        self.threw = False
        self.error = None         # "RuntimeError: …" when the exception left the trace's block
        self.memory_events = []
        self.blas_routine = None
        self.loaded_blas = False  # see Note [OpenBLAS's one-off load] in _views.py
        self._stack = None
        self._path_ops = None     # path_ops(), once the tree is built

    @property
    def self_device_ns(self):
        """The device's time for the kernels this op's own steps launched (not its children's):
        torch's self CUDA time."""
        return sum(s.device_self_ns for s in self.steps)

    @property
    def stack(self):
        """The call stack at this op's innermost kernel: right before its BLAS routine when it
        calls one, else where the dispatcher enters its backend kernel; for a composite (matmul),
        its first child's with a stack. None when the trace was not asked for stacks."""
        for op in self.walk():
            if isinstance(op, OpRecord) and op._stack is not None:
                return op._stack
        return None

    @property
    def self_memory_bytes(self):
        """Bytes this op allocated minus bytes it freed, its children's left out."""
        return sum(m.signed_bytes for m in self.memory_events)

    @property
    def memory_bytes(self):
        """Bytes allocated minus freed by this op and every op below it."""
        return sum(op.self_memory_bytes for op in self.walk() if isinstance(op, OpRecord))

    def path_ops(self):
        """The ops a one-line summary tells of, in call order: this op and those below it but the
        allocations and the metadata-only views under an op that computes (Note [A path without
        its allocations]); all of them when nothing else would be left."""
        def collect(skip_views):
            ops = []

            def visit(op):
                ops.append(op)
                for c in op.children:
                    if not isinstance(c, OpRecord):
                        continue
                    if skip_allocations and _short(c.name) in _ALLOCATIONS:
                        continue
                    if skip_views and _only_metadata(c):
                        continue
                    visit(c)
            visit(self)
            return ops
        if self._path_ops is not None:  # path() and summary_nodes() both ask
            return self._path_ops
        skip_allocations = _short(self.name) not in _ALLOCATIONS
        ops = collect(skip_views=not _only_metadata(self))
        if len(ops) == 1 and self.children and all(
                s.provenance == "math kernel" for s in self.steps):  # a composite of views only
            ops = collect(skip_views=False)
        self._path_ops = ops
        return ops

    def path(self, limit=8):
        """The dispatch path: every step of the ops path_ops() keeps, in order, leaving out
        composite (math kernel) steps, which the names of their children stand for."""
        labels = []
        kept = self.path_ops()
        kept_ids = {id(op) for op in kept}
        for op in kept:
            has_kept_children = any(id(c) in kept_ids for c in op.children)
            for s in op.steps:
                if s.provenance == "math kernel" and has_kept_children:
                    continue
                labels.append(s.label)
        if len(labels) > limit:
            labels = labels[:limit] + [f"… ({len(labels) - limit} more)"]
        return labels

    def summary_nodes(self):
        """The autograd nodes the ops of path_ops() recorded (AccumulateGrad left out)."""
        return [n.name for op in self.path_ops() for n in op.nodes_created
                if n.name != "AccumulateGrad"]

    def signature(self):
        """The op's name and its inputs' metadata, mm(f32[2,3], f32[3,4]): the op's name and its inputs' metadata."""
        shown = [_value_str(v) for v, n in zip(self.inputs, self.steps[0].arg_names)
                 if v is not None and ("shape" in v or (v["value"] not in _UNSHOWN_VALUES and
                                                        n not in _UNSHOWN_ARGUMENTS))]
        return f"{_short(self.name)}({', '.join(shown)})"

    def summary(self, timed=True):
        """matmul(f32[2,3], f32[3,4]) → mm[AutogradCPU] → mm[CPU] · MmBackward0 · 12.3 µs"""
        parts = [" → ".join([self.signature()] + self.path())]
        nodes = self.summary_nodes()
        if nodes:
            parts.append(", ".join(nodes))
        if self.threw:
            parts.append(self.threw_str())
        if timed:
            parts.append(_duration_str(self.duration_ns))
        return " · ".join(parts)

    def failing_step(self):
        """The label of the step that raised: the last step of the innermost op that threw
        (mm[CPU]); None when nothing threw."""
        if not self.threw:
            return None
        inner = self
        while True:
            below = [c for c in inner.children if isinstance(c, OpRecord) and c.threw]
            if not below:
                return inner.steps[-1].label
            inner = below[-1]

    def threw_str(self):
        """threw at mm[CPU]: RuntimeError: … (the message when the exception left the block)"""
        text = f"threw at {self.failing_step()}"
        return f"{text}: {self.error}" if self.error else text

    def __repr__(self):
        return f"<op {self.summary()}>"


# The name of the scope C++ opens where it calls Python (core/python/crossing.h) starts so.
CROSSING_PREFIX = "C++ → Python: "


class ScopeRecord(_Timed):
    """A user scope: ``with opscope.profiler.record_function("name"):``, with what ran inside.

    Also a C++ → Python crossing (``crossing`` is True): a hook, a custom Function's backward or a
    saved-tensor hook that C++ called, named with the GIL's state —
    "C++ → Python: tensor hook double_it · GIL acquired, was released" (core/python/crossing.h)."""

    def __init__(self, e, parent):
        super().__init__(e, parent)
        self.name = e["name"]
        self.id = e["scope"]
        self.crossing = self.name.startswith(CROSSING_PREFIX)

    def summary(self, timed=True):
        """scope "train step": 12 ops · 1.2 ms"""
        n = sum(1 for item in self.walk() if isinstance(item, OpRecord))
        ops = f'{n} op{"s" if n != 1 else ""}'
        text = f"{self.name}: {ops}" if self.crossing else f'scope "{self.name}": {ops}'
        return text + (f" · {_duration_str(self.duration_ns)}" if timed else "")

    def __repr__(self):
        return f"<{self.summary()}>"


class MemoryRecord:
    """One allocation or free: ``kind`` ("alloc" / "free"), ``bytes``, ``ptr``, ``device``,
    ``total_bytes`` (the device allocator's bytes in use after it), ``t_ns``, ``thread``, and
    ``op``: the innermost op running when it happened (None outside any op)."""

    __slots__ = ("kind", "t_ns", "thread", "bytes", "ptr", "device", "total_bytes", "op")

    def __init__(self, e, op):
        self.kind = e["kind"]
        self.t_ns = e["t_ns"]
        self.thread = e["thread"]
        self.bytes = e["bytes"]
        self.ptr = e["ptr"]
        self.device = e["device"]
        self.total_bytes = e["total_bytes"]
        self.op = op

    @property
    def signed_bytes(self):
        return self.bytes if self.kind == "alloc" else -self.bytes

    def __repr__(self):
        where = f" in {self.op.name}" if self.op is not None else ""
        return f"<{self.kind} {self.bytes} bytes on {self.device}{where}>"


class NodeRun(_Timed):
    """A backward node the engine ran, with the ops its formula (and hooks) called."""

    def __init__(self, e, parent):
        super().__init__(e, parent)
        self.name = e["node"]
        self.sequence_nr = e["sequence_nr"]
        self.id = e["node_id"]

    def path(self, limit=8):
        """The dispatch paths of the ops this node ran, in order; those that only make views or
        allocate are left out when others computed (Note [A path without its allocations])."""
        ops = [c for c in self.children if isinstance(c, OpRecord)]
        computing = [c for c in ops if not _only_metadata(c) and _short(c.name) not in _ALLOCATIONS]
        labels = [lab for c in (computing or ops) for lab in c.path()]
        if len(labels) > limit:
            labels = labels[:limit] + [f"… ({len(labels) - limit} more)"]
        return labels

    def summary(self, timed=True):
        """backward MulBackward0 #12: mul[AutogradCPU] → mul[CPU] · 3.1 µs"""
        labels = self.path()
        text = f"backward {self.name}{_sequence_str(self.sequence_nr)}"
        if labels:
            text += ": " + " → ".join(labels)
        return text + (f" · {_duration_str(self.duration_ns)}" if timed else "")

    def __repr__(self):
        return f"<{self.summary()}>"


class BackwardPass:
    """One backward() (or autograd.grad()) call as the views show it: the node runs of its
    engine, the ops the engine ran between nodes (summing a broadcast gradient, accumulating
    into .grad), and the seed gradient (ones) made right before. See Note [Backward passes].

    Not recorded as such: the recorder sees node runs and ops, so Trace.top_level gathers them."""

    def __init__(self, children):
        self.children = children
        self.name = "backward()"
        self.thread = children[0].thread
        self.start_ns = children[0].start_ns
        self.end_ns = max((c.end_ns or c.start_ns) for c in children)
        self.parent = None

    @property
    def duration_ns(self):
        return self.end_ns - self.start_ns

    def walk(self):
        yield self
        for c in self.children:
            yield from c.walk()

    @property
    def node_runs(self):
        return [c for c in self.children if isinstance(c, NodeRun)]

    def summary(self, timed=True):
        """backward(): MseLossBackward0 → AddmmBackward0 → … · 10 nodes, 6 ops · 1.2 ms"""
        names = [n.name for n in self.node_runs if n.name != "AccumulateGrad"]
        if len(names) > 6:
            names = names[:6] + ["…"]
        ops = sum(1 for c in self.walk() if isinstance(c, OpRecord))
        nodes = len(self.node_runs)
        text = (f"backward(): {' → '.join(names) or 'AccumulateGrad'} · {nodes} node"
                f"{'s' if nodes != 1 else ''}, {ops} op{'s' if ops != 1 else ''}")
        return text + (f" · {_duration_str(self.duration_ns)}" if timed else "")

    def __repr__(self):
        return f"<{self.summary()}>"


# Note [Backward passes]: the recorder marks where each backward node runs, but not the
# backward() call around them, so ops its engine runs between nodes (the sum that reduces a
# broadcast gradient to a bias's shape, the seed gradient ones([]) made just before) would stand
# at top level among the forward ops. The engine holds the thread from the first node to the
# last: a top-level op between two node runs of one thread is its work, unless it records
# autograd nodes or is a seed — then a forward and the next backward() came between (an
# optimizer's no_grad updates alone do not separate two passes: the next forward does). A seed
# is an aten::ones / ones_like of a 0-dim result right before the first node run.
_SEEDS = ("aten::ones", "aten::ones_like")


def _is_seed(item):
    if not isinstance(item, OpRecord) or item.name not in _SEEDS or item.threw:
        return False
    out = (item.outputs or [None])[0]
    return isinstance(out, dict) and tuple(out.get("shape", (1,))) == ()


def _engine_op(item):
    """Whether an op between two node runs can be the engine's: one that records no autograd
    node and is no seed (forward work, and so the next backward() call, records nodes)."""
    return isinstance(item, OpRecord) and not _is_seed(item) and not any(
        isinstance(op, OpRecord) and op.nodes_created for op in item.walk())


def _gather_backward_passes(roots):
    """roots with each run of node runs (and the ops between them) as one BackwardPass."""
    out, i = [], 0
    while i < len(roots):
        r = roots[i]
        if not isinstance(r, NodeRun):
            out.append(r)
            i += 1
            continue
        j, last = i, i
        while j + 1 < len(roots) and roots[j + 1].thread == r.thread and (
                isinstance(roots[j + 1], NodeRun) or _engine_op(roots[j + 1])):
            j += 1
            if isinstance(roots[j], NodeRun):
                last = j
        members = roots[i:last + 1]
        if out and _is_seed(out[-1]) and out[-1].thread == r.thread:
            members.insert(0, out.pop())
        out.append(BackwardPass(members))
        i = last + 1
    return out


class Trace:
    """What ran inside ``opscope.trace()``; see the module's docstring."""

    # More top-level items than this and str() groups them by dispatch path.
    GROUP_ABOVE = 20

    def __init__(self, events):
        self.events = events
        self.roots = []
        self.ops = []
        self.nodes_created = []
        self.scopes = []
        self.memory_events = []
        with gc_paused():
            self._build(events)
            self._attribute_device_time()

    def _attribute_device_time(self):
        """Each timed step's own share of its span: a CUDA kernel that calls other ops (sum()
        runs sum.dim_IntList) has their timed spans inside its own, so they are taken out of
        it, as torch gives each kernel to the innermost op. An op's covered time is its timed
        spans, or else its children's."""
        for op in reversed(self.ops):  # children before their parents
            inner = sum(getattr(c, "device_covered_ns", 0) for c in op.children)
            timed = [s for s in op.steps if s.device_ns > 0]
            own = sum(s.device_ns for s in timed)
            for s in timed:
                s.device_self_ns = max(0, own - inner) * s.device_ns // own
            op.device_covered_ns = own if timed else inner

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
                    if e.get("stack") is not None and top._stack is None:
                        top._stack = _stack_of(e["stack"])
                    continue
                op = OpRecord(e, top)
                (top.children if top is not None else self.roots).append(op)
                self.ops.append(op)
                stack.append(op)
                steps[e["step"]] = (op, True)
                if e.get("stack") is not None:
                    op._stack = _stack_of(e["stack"])
            elif kind == "exit":
                op, first = steps.pop(e["step"], (None, False))
                if op is not None and "device_ns" in e:
                    step = next((st for st in reversed(op.steps) if st.id == e["step"]), None)
                    if step is not None:
                        step.device_end_ns = e["device_ns"]
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
                self._close(stack, NodeRun, e["node_id"], e["t_ns"])
            elif kind == "scope_begin":
                scope = ScopeRecord(e, top)
                (top.children if top is not None else self.roots).append(scope)
                self.scopes.append(scope)
                stack.append(scope)
            elif kind == "scope_end":
                self._close(stack, ScopeRecord, e["scope"], e["t_ns"])
            elif kind in ("alloc", "free"):
                owner = _innermost_op(stack)
                m = MemoryRecord(e, owner)
                self.memory_events.append(m)
                if owner is not None:
                    owner.memory_events.append(m)
            elif kind == "blas_call":
                # The first BLAS routine an op calls gives its stack (OpenMP's other threads
                # call the routine too, outside any op: theirs are left out).
                owner = _innermost_op(stack)
                if owner is not None and owner.blas_routine is None:
                    owner.blas_routine = e["routine"]
                    if e.get("stack") is not None:  # None: converted without stacks
                        owner._stack = _stack_of(e["stack"])

    @staticmethod
    def _close(stack, cls, ident, t_ns):
        """Ends the open NodeRun / ScopeRecord `ident` (and anything left open inside it)."""
        if not any(isinstance(s, cls) and s.id == ident for s in stack):
            return
        while not (isinstance(stack[-1], cls) and stack[-1].id == ident):
            stack.pop()
        stack.pop().end_ns = t_ns

    @property
    def top_level(self):
        """The roots as the views show them: see Note [Backward passes]."""
        cached = getattr(self, "_top_level", None)
        if cached is None or cached[0] != len(self.roots):
            cached = self._top_level = (len(self.roots), _gather_backward_passes(self.roots))
        return cached[1]

    def find(self, name):
        """The first recorded call of an op (``aten::mm``, ``mm`` or ``aten::add.Tensor``)."""
        for op in self.ops:
            if name in (op.name, _short(op.name)) or op.name.startswith(name + "."):
                return op
        raise KeyError(f"no call of {name} was recorded")

    def stack(self, name):
        """The call stack of the first recorded call of an op (see OpRecord.stack); needs
        ``opscope.trace(with_stack=True)``."""
        op = self.find(name)
        if op.stack is None:
            raise ValueError(f"no stack was recorded for {op.name}: record with "
                             "opscope.trace(with_stack=True)")
        return op.stack

    def to_json(self, indent=None):
        """The trace as JSON text, in the opscope.trace/1 format (share/opscope.trace-1.md).
        Stacks are written named (symbolized), so reading the file needs no binary."""
        doc = {"schema": SCHEMA,
               "created": datetime.datetime.now(datetime.timezone.utc).isoformat(),
               "clock": "CLOCK_MONOTONIC ns",
               "events": [_event_to_json(e) for e in self.events]}
        return json.dumps(doc, indent=indent)

    def save(self, path):
        """Writes to_json() to path."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.to_json())

    def summary_lines(self):
        """One line per top-level op, backward() pass or scope (top_level); past GROUP_ABOVE,
        one line per distinct dispatch path with its count and total time, in order of first
        appearance."""
        items = self.top_level
        if len(items) <= self.GROUP_ABOVE:
            return [r.summary() for r in items]
        groups = {}
        for r in items:
            key = r.summary(timed=False)
            count, total = groups.get(key, (0, 0))
            groups[key] = (count + 1, total + r.duration_ns)
        lines = [f"{len(items)} top-level calls, {len(groups)} distinct paths:"]
        for key, (count, total) in groups.items():  # first appearance, as the tree's groups
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
        """The dispatch tree as text, fitting `width` columns (the terminal's, or a notebook's:
        see _textview.text_width): every step with its keys and kernel, nested ops, autograd
        nodes, backward runs, scopes (see _views_text.py). A TextView: a str (print() it) that,
        typed at a prompt, shows itself — in colour in a terminal, as HTML in a notebook."""
        from opscope.profiler import _views_text
        return _views_text.tree(self, width=width, color=color)

    def _repr_html_(self):
        from opscope.profiler import _html
        return _html.trace_html(self)

    def _repr_mimebundle_(self, include=None, exclude=None):
        from opscope.profiler import _html
        return _html.trace_bundle(self, include, exclude)


@contextlib.contextmanager
def gc_paused():
    """Turning events into objects makes many small objects and frees none: the cyclic
    collector's passes over them would more than double the time (1.0 s against 0.4 s for the
    60,000 events of a 10,000-op loop with backward)."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def _blas_loaded():
    """Whether opscope's OpenBLAS (the OpenMP build, which it prefers; NumPy's is the pthread
    one) is mapped into this process (see Note [OpenBLAS's one-off load] in _views.py): read
    from /proc/self/maps, which does not load it."""
    try:
        with open("/proc/self/maps", "rb") as f:
            return b"openblas-openmp/" in f.read()
    except OSError:
        return True  # unknown: claim nothing


# The ops whose CPU kernels call OpenBLAS (core/ops/cpu/gemm.h).
_BLAS_OPS = {"aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm", "aten::mv", "aten::addmv",
             "aten::dot", "aten::vdot", "aten::addr", "aten::ger"}


def _mark_blas_load(trace):
    """Marks the first product of the trace as the one that loaded OpenBLAS."""
    op = next((o for o in trace.ops if o.blas_routine or o.name in _BLAS_OPS), None)
    if op is not None:
        op.loaded_blas = True


def _ancestors(item):
    out, p = [], item.parent
    while p is not None:
        out.append(p)
        p = p.parent
    return out


def _innermost_op(stack):
    return next((s for s in reversed(stack) if isinstance(s, OpRecord)), None)


def _stack_of(raw):
    """A recorded stack: the capture itself, or (from a saved trace) its frames already named."""
    return Stack.from_frames(raw) if isinstance(raw, list) else Stack(raw)


_KEY_SET_FIELDS = ("key_set", "fallthrough", "tls_included", "tls_excluded")


def _value_to_json(v):
    if v is None or "keys" not in v:
        return v
    return dict(v, shape=list(v["shape"]), strides=list(v["strides"]), keys=list(v["keys"]))


def _value_from_json(v):
    if v is None or "keys" not in v:
        return v
    return dict(v, shape=tuple(v["shape"]), strides=tuple(v["strides"]),
                keys=_C.DispatchKeySet(v["keys"]))


def _event_to_json(e):
    out = dict(e)
    for k in _KEY_SET_FIELDS:
        if k in out:
            out[k] = list(out[k])
    if "arg_keys" in out:
        out["arg_keys"] = [list(ks) for ks in out["arg_keys"]]
    for k in ("args", "outputs"):
        if k in out:
            out[k] = [_value_to_json(v) for v in out[k]]
    if "stack" in out:
        out["stack"] = _stack_of(out["stack"]).to_dicts()
    return out


def _event_from_json(e):
    out = dict(e)
    for k in _KEY_SET_FIELDS:
        if k in out:
            out[k] = _C.DispatchKeySet(out[k])
    if "arg_keys" in out:
        out["arg_keys"] = [_C.DispatchKeySet(ks) for ks in out["arg_keys"]]
    for k in ("args", "outputs"):
        if k in out:
            out[k] = [_value_from_json(v) for v in out[k]]
    return out


def load(source):
    """A Trace read back from what ``Trace.to_json()`` / ``save()`` wrote: a path, a file object,
    or the JSON text itself."""
    if hasattr(source, "read"):
        text = source.read()
    elif isinstance(source, str) and source.lstrip().startswith("{"):
        text = source
    else:
        with open(source, encoding="utf-8") as f:
            text = f.read()
    doc = json.loads(text)
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        found = doc.get("schema") if isinstance(doc, dict) else type(doc).__name__
        raise ValueError(f"opscope.profiler.load: expected a trace in the {SCHEMA} format, "
                         f"found schema {found!r}")
    return Trace([_event_from_json(e) for e in doc["events"]])


class trace(contextlib.AbstractContextManager):
    """``with opscope.trace() as t:`` records every op run inside (on every thread); after the
    block, ``t`` is the Trace (``print(t)`` gives one line per op).

    ``with_stack=True`` also captures the call stack at each op's innermost kernel (``t.stack
    ("aten::mm")``); ``memory=False`` leaves allocations and frees out; ``device_time=True``
    times each CUDA kernel step on the GPU (``op.self_device_ns``; two CUDA events a step, see
    Note [Device time of an op] in core/runtime/DeviceTimer.h), as the profiler does for
    ProfilerActivity.CUDA."""

    def __init__(self, with_stack=False, memory=True, device_time=False):
        self._recorder = _C._TraceRecorder(stacks=bool(with_stack), memory=bool(memory),
                                           device_time=bool(device_time))
        self._trace = None

    def __enter__(self):
        self._blas_before = _blas_loaded()
        self._recorder.start()
        return self

    def __exit__(self, exc_type, exc, tb):
        self._recorder.stop()
        with gc_paused():
            self._trace = Trace(self._recorder.events())
        if not self._blas_before and _blas_loaded():
            _mark_blas_load(self._trace)
        if exc is not None:  # the op that raised it is the last one that threw
            threw = [op for op in self._trace.ops if op.threw]
            if threw:
                message = f"{exc_type.__name__}: {exc}".splitlines()[0]
                for op in threw:
                    if op is threw[-1] or op in _ancestors(threw[-1]):
                        op.error = message
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
