"""From an ``opscope.trace()`` to the profile's FunctionEvents (see _events.py for what an event
is): one event per op call, two per backward node run, one per record_function block, and one per
memory event made outside all of them; nested as they ran, with torch's keys.
"""
import bisect
import contextlib
import gc
import math
from collections import defaultdict

from opscope.profiler._events import (MEMORY_EVENT_NAME, SCOPE_BACKWARD_FUNCTION, SCOPE_USER,
                                      EventList, FunctionEvent)
from opscope.profiler._trace import NodeRun, OpRecord

__all__ = ["events_from_trace", "op_key", "node_key", "node_identity", "gc_paused"]

# Node names torch's profiler writes with their C++ namespace (its own C++ nodes).
_NAMESPACED_NODES = ("AccumulateGrad", "CopySlices", "GraphRoot")

# A node that belongs to no forward op (AccumulateGrad) has this sequence number.
_NO_SEQUENCE_NR = 2 ** 64 - 1

# opscope's dtype names -> the C++ type names torch's Chrome trace writes as "Input type"
_CPP_TYPES = {"f32": "float", "f64": "double", "f16": "c10::Half", "bf16": "c10::BFloat16",
              "i64": "long int", "i32": "int", "i16": "short int", "i8": "signed char",
              "u8": "unsigned char", "bool": "bool", "c64": "c10::complex<float>",
              "c128": "c10::complex<double>"}


def op_key(name):
    """aten::mul.Tensor -> aten::mul (torch's profiler names ops without their overload)."""
    return name.split(".")[0]


def node_key(name):
    """The name torch's profiler gives a backward node: its C++ nodes keep their namespace."""
    return f"torch::autograd::{name}" if name in _NAMESPACED_NODES else name


def node_identity(node):
    """What ties a NodeRecord (made in forward) to its NodeRun (in backward): sequence numbers
    count per thread, so the node's id goes with it. None for a node no forward op stands for
    (AccumulateGrad, made for a leaf by whichever op first used it), which torch links to
    nothing either."""
    if node.sequence_nr == _NO_SEQUENCE_NR:
        return None
    return node.id, node.sequence_nr


def _is_tensor(v):
    return v is not None and "shape" in v


def _input_shapes(op):
    """[[2, 3], [3, 4]]: one list per argument, [] for anything but a tensor, as torch."""
    return [list(v["shape"]) if _is_tensor(v) else [] for v in op.inputs]


def _input_types(op):
    """["float", "Scalar", ...]: torch's "Input type" names."""
    types = []
    for v in op.inputs:
        if _is_tensor(v):
            types.append(_CPP_TYPES.get(v["dtype"], v["dtype"]))
        elif v is None or v["value"] == "None":
            types.append("")
        elif v["value"].startswith("["):
            is_tensors = any(f"{d}[" in v["value"] for d in _CPP_TYPES)
            types.append("TensorList" if is_tensors else "ScalarList")
        else:
            types.append("Scalar")
    return types


def _numel(shape):
    return math.prod(shape)


def _flops(op):
    """Floating-point operations by torch 1.13's formulas: 2·M·K·N for a matrix product (per
    batch for bmm), one per output element for mul and add; 0 for everything else."""
    shapes = [v["shape"] for v in op.inputs if _is_tensor(v)]
    key = op_key(op.name)
    if key in ("aten::mm", "aten::addmm") and [len(s) for s in shapes[-2:]] == [2, 2]:
        (m, k), (_, n) = shapes[-2:]
        return 2 * m * k * n
    if key in ("aten::bmm", "aten::baddbmm") and [len(s) for s in shapes[-2:]] == [3, 3]:
        (b, m, k), (_, _, n) = shapes[-2:]
        return 2 * b * m * k * n
    if key in ("aten::mul", "aten::add") and op.outputs and _is_tensor(op.outputs[0]):
        return _numel(op.outputs[0]["shape"])
    return 0


def _python_stack(stack):
    """A Stack's Python frames as torch writes them, innermost first: 'train.py(12): step' (the
    function's name, not its qualified name)."""
    if stack is None:
        return []
    return [f"{f.file}({f.line}): {f.name.rsplit('.', 1)[-1]}" for f in stack.frames
            if f.is_python]


def _sequence_nr(op):
    """The sequence number of the backward node the op created (its link to the node's run),
    or -1."""
    for node in op.nodes_created:
        if node.sequence_nr != _NO_SEQUENCE_NR:
            return node.sequence_nr
    return -1


class _Builder:
    """Turns a Trace's tree into FunctionEvents; see the module's docstring."""

    def __init__(self, trace, origin_ns, record_shapes, with_stack, with_flops):
        self.origin_ns = origin_ns
        self.record_shapes = record_shapes
        self.with_stack = with_stack
        self.with_flops = with_flops
        self.events = []
        self.event_of = {}   # id(trace item) -> the event it became (or was absorbed into)
        self.roots = []
        for item in trace.roots:
            self.roots.append(self._add(item, None))

    def _us(self, ns):
        return (ns - self.origin_ns) / 1e3

    def _new(self, name, item, parent, **fields):
        end_ns = item.end_ns if item.end_ns is not None else item.start_ns
        e = FunctionEvent(len(self.events) + 1, name, item.thread, self._us(item.start_ns),
                          self._us(end_ns), item=item, **fields)
        self.events.append(e)
        self.event_of[id(item)] = e
        if parent is not None:
            parent.append_cpu_child(e)
        return e

    def _add(self, item, parent):
        if isinstance(item, OpRecord):
            e = self._new(op_key(item.name), item, parent, trace_name=op_key(item.name),
                          input_shapes=_input_shapes(item) if self.record_shapes else [],
                          input_types=_input_types(item) if self.record_shapes else [],
                          stack=_python_stack(item.stack) if self.with_stack else [],
                          sequence_nr=_sequence_nr(item),
                          flops=_flops(item) if self.with_flops else 0)
            inner = e
        elif isinstance(item, NodeRun):
            name = node_key(item.name)
            seq = -1 if item.sequence_nr == _NO_SEQUENCE_NR else item.sequence_nr
            e = self._new(f"autograd::engine::evaluate_function: {name}", item, parent)
            inner = self._new(name, item, e, scope=SCOPE_BACKWARD_FUNCTION, sequence_nr=seq)
        else:  # a ScopeRecord: a record_function block
            key = "ProfilerStep*" if item.name.startswith("ProfilerStep#") else item.name
            e = self._new(key, item, parent, trace_name=item.name, scope=SCOPE_USER)
            inner = e
        for child in item.children:
            self._add(child, inner)
        return e

    def absorb_same_name_children(self):
        """torch's EventList._remove_dup_nodes: a parent whose only child has its key takes the
        child's place (its children, its steps)."""
        absorbed = set()
        for e in self.events:  # parents come before their children
            parent = e.cpu_parent
            if parent is None or parent.key != e.key or len(parent.cpu_children) != 1:
                continue
            parent.cpu_children = e.cpu_children
            for c in e.cpu_children:
                c.cpu_parent = parent
            parent.steps += e.steps
            parent.kernels += e.kernels
            parent.nodes_created += e.nodes_created
            self.event_of[id(e.item)] = parent
            absorbed.add(id(e))
        self.events = [e for e in self.events if id(e) not in absorbed]

    def give_backward_the_forward_stacks(self):
        """As torch: the events of a backward node's run show the stack of the forward op that
        created the node (the line that made the graph, not the one that called backward)."""
        forward = {}      # node_identity -> the stack of the op that created it
        backward_of = {}  # id(event) -> the backward node event it runs under
        for e in self.events:  # parents before children
            parent = e.cpu_parent
            if e.scope == SCOPE_BACKWARD_FUNCTION:
                backward_of[id(e)] = e
            elif parent is not None and id(parent) in backward_of:
                backward_of[id(e)] = backward_of[id(parent)]
            elif e.stack:
                for node in e.nodes_created:
                    if node_identity(node) is not None:
                        forward.setdefault(node_identity(node), e.stack)
        for e in self.events:
            node = backward_of.get(id(e))
            if node is not None:
                e.stack = forward.get(node_identity(node.item), [])

    def attribute_memory(self, records):
        """Each memory event goes to the event of the op that made it; one made outside every op
        to the innermost event open on its thread at that time (a backward node, a block), or
        else becomes a "[memory]" event. Then totals: own plus children's."""
        by_thread = defaultdict(list)
        for r in self.roots:
            by_thread[r.thread].append(r)
        loose = []
        for rec in records:
            owner = self.event_of.get(id(rec.op)) if rec.op is not None else None
            if owner is None:
                owner = _innermost(by_thread.get(rec.thread, []), self._us(rec.t_ns))
            if owner is None:
                loose.append(rec)
                continue
            owner.memory_records.append(rec)
            if rec.device.startswith("cuda"):  # device memory (the CUDA caching allocator)
                owner.self_cuda_memory_usage += rec.signed_bytes
            else:
                owner.self_cpu_memory_usage += rec.signed_bytes
        for e in reversed(self.events):  # children before parents
            e.cpu_memory_usage = e.self_cpu_memory_usage + sum(c.cpu_memory_usage
                                                               for c in e.cpu_children)
            e.cuda_memory_usage = e.self_cuda_memory_usage + sum(c.cuda_memory_usage
                                                                 for c in e.cpu_children)
        for rec in loose:
            t = self._us(rec.t_ns)
            e = FunctionEvent(len(self.events) + 1, MEMORY_EVENT_NAME, rec.thread, t, t,
                              item=rec)
            e.trace_name = None  # not a slice of the timeline
            e.memory_records.append(rec)
            if rec.device.startswith("cuda"):
                e.cuda_memory_usage = e.self_cuda_memory_usage = rec.signed_bytes
            else:
                e.cpu_memory_usage = e.self_cpu_memory_usage = rec.signed_bytes
            self.events.append(e)


def _innermost(events, t_us):
    """The innermost of these (sibling) events or their descendants whose span holds t_us."""
    found = None
    while events:
        i = bisect.bisect_right(events, t_us, key=lambda e: e.time_range.start) - 1
        if i < 0 or events[i].time_range.end < t_us:
            break
        found = events[i]
        events = found.cpu_children
    return found


@contextlib.contextmanager
def gc_paused():
    """Builds many small objects with the cycle collector off: its passes over a big trace's
    objects cost 7 times the build itself (60,000 events: 2.9 s instead of 0.4 s)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def events_from_trace(trace, origin_ns, *, record_shapes=False, profile_memory=False,
                      with_stack=False, with_flops=False):
    """The FunctionEvents of a Trace, sorted by start (then longest first), times in
    microseconds from origin_ns (CLOCK_MONOTONIC, time.monotonic_ns())."""
    with gc_paused():
        b = _Builder(trace, origin_ns, record_shapes, with_stack, with_flops)
        b.absorb_same_name_children()
        if with_stack:
            b.give_backward_the_forward_stacks()
        if profile_memory:
            b.attribute_memory(trace.memory_events)
    events = sorted(b.events, key=lambda e: (e.time_range.start, -e.time_range.end, e.id))
    return EventList(events, profile_memory=profile_memory, with_flops=with_flops,
                     origin_ns=origin_ns)
