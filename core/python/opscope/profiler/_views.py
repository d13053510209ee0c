"""What the views of a trace show, whatever draws them: the terminal tree (_views_text.py), the
HTML tree (_html.py) and the timeline (_svg.py) read a trace through these functions, so a
terminal and a notebook tell the same story.

Note [Key marks]: a dispatch step's keys are listed highest priority first, each with a mark:

    chosen       the key the dispatcher picked: its kernel ran
    fallthrough  above the chosen key, but this op falls through it (ADInplaceOrView for mm)
    excluded     carried by the arguments, but not in this step's set: the thread-local exclude
                 set removed it (AutogradCPU below the Autograd kernel) or the redispatch left it
                 out (everything above the redispatching kernel)
    below        in the set, below the chosen key: not looked at

Note [One legend]: the terminal tree and the HTML view explain their marks with the same words
(LEGEND); only the way a mark is drawn differs (KEY_TEXT in text, chips in HTML).
"""
from opscope.profiler._trace import (NO_SEQUENCE_NR, BackwardPass, NodeRun, OpRecord,
                                     _duration_str, _sequence_str, _short, _value_str)

__all__ = ["kind", "op_title", "outputs_str", "op_base_keys", "key_marks", "kernel_parts",
           "node_line", "item_label", "item_title", "root_groups", "bars", "time_span",
           "duration_str", "bytes_str", "NO_SEQUENCE_NR", "LEGEND", "CALL_MARK", "KEY_TEXT",
           "sequence_str", "loads_blas", "BLAS_ONE_OFF"]

duration_str = _duration_str
sequence_str = _sequence_str

# How a step was called, as the views mark it (not a triangle: those are fold marks).
CALL_MARK = {"call": "•", "redispatch": "↳"}

# A key's mark in text (see Note [Key marks]); the HTML view draws chips with the same meaning.
KEY_TEXT = {"chosen": "[{}]", "fallthrough": "{}↓", "excluded": "~{}~", "below": "{}"}

# (what, the words): see Note [One legend].
LEGEND = (("call", "call"), ("redispatch", "redispatch"), ("chosen", "chosen"),
          ("fallthrough", "falls through"), ("excluded", "excluded / not redispatched"),
          ("below", "not reached"), ("node", "node created"), ("backward", "backward"))


def kind(item):
    """"op" (an OpRecord), "backward" (a NodeRun), "pass" (a BackwardPass: one backward() call)
    or "scope" (a record_function ScopeRecord)."""
    if isinstance(item, OpRecord):
        return "op"
    if isinstance(item, NodeRun):
        return "backward"
    if isinstance(item, BackwardPass):
        return "pass"
    return "scope"


# Note [OpenBLAS's one-off load]: opscope loads OpenBLAS with dlopen at its first product in the
# process; that call pays 3-9 ms that no later product pays. The trace notes which op it was
# (OpRecord.loaded_blas, set by trace() when the library appeared during the block), and the
# views say so beside its time.
BLAS_ONE_OFF = "includes loading OpenBLAS (once per process)"


def loads_blas(item):
    """Whether OpenBLAS was loaded during this item (see Note [OpenBLAS's one-off load])."""
    return any(getattr(op, "loaded_blas", False) for op in item.walk())


def bytes_str(n):
    """1536 -> "1.5 KiB"."""
    sign = "-" if n < 0 else ""
    n = abs(n)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{sign}{n} {unit}" if unit == "B" else f"{sign}{n:.1f} {unit}"
        n /= 1024
    return ""


def outputs_str(op):
    """"f32[2,4]", "(f32[2], i64[2])", or "threw at mm[CPU]: RuntimeError: …" for an op that
    raised."""
    if op.threw:
        return op.threw_str()
    outs = [_value_str(v) for v in (op.outputs or []) if v is not None]
    if not outs:
        return ""
    return outs[0] if len(outs) == 1 else f"({', '.join(outs)})"


def op_title(op):
    """The title of an op's row: mm(f32[2,3], f32[3,4]) → f32[2,4]"""
    out = outputs_str(op)
    return f"{op.signature()} → {out}" if out else op.signature()


def item_label(item):
    """The short name a timeline bar carries: mm, MmBackward0, the scope's name."""
    if isinstance(item, OpRecord):
        return _short(item.name)
    return item.name


def item_title(item):
    """One line naming an item fully, for tooltips: aten::mm(f32[2,3], f32[3,4]) · 12.1 µs"""
    k = kind(item)
    if k == "op":
        text = f"{item.name}: {op_title(item)}"
    elif k == "backward":
        text = f"backward {item.name}{_sequence_str(item.sequence_nr)}"
    else:
        text = f"record_function {item.name}"
    return f"{text} · {_duration_str(item.duration_ns)} · thread {item.thread}"


def node_line(node):
    """An autograd node an op created, and where its gradients go:
    MmBackward0 #0 → next: AccumulateGrad, None"""
    text = f"{node.name}{_sequence_str(node.sequence_nr)}"
    if node.next:
        text += " → next: " + ", ".join(n or "None" for n in node.next)
    elif node.name == "AccumulateGrad":
        text += " (a leaf's gradient sink)"
    return text


def op_base_keys(op):
    """Every key the op's arguments carry, with the thread-local included keys: the set the
    first step started from."""
    first = op.steps[0]
    keys = first.key_set | first.tls_included
    for ks in first.arg_key_sets:
        if ks is not None:
            keys = keys | ks
    return keys


def key_marks(op, step, base=None):
    """[(key, mark, why)] for a step's keys, highest priority first; see Note [Key marks].
    `base`: op_base_keys(op), when the caller has it already."""
    if base is None:
        base = op_base_keys(op)
    in_set = step.key_set
    marks, above = [], True
    for key in reversed(list(in_set | base)):
        if key == step.key:
            marks.append((key, "chosen", "the highest key with a kernel: this step's choice"))
            above = False
        elif not in_set.has(key):
            why = ("excluded by the thread-local exclude set" if step.tls_excluded.has(key)
                   else "left out of the redispatched set")
            marks.append((key, "excluded", why))
        elif above:
            why = ("this op falls through it" if step.fallthrough.has(key)
                   else "above the chosen key, no kernel")
            marks.append((key, "fallthrough", why))
        else:
            marks.append((key, "below", "below the chosen key: not reached"))
    return marks


def kernel_parts(step):
    """(call, provenance, kernel, registered, site): how the step was called ("call" /
    "redispatch"), what ran ("autograd kernel", "opscope::autograd::autograd_kernel"), the key
    it is registered under when that is not the chosen key (an alias like
    CompositeImplicitAutograd), and where it was registered."""
    call = "redispatch" if step.call.startswith("redispatch") else "call"
    registered = step.registered_key if step.registered_key != step.key else ""
    return call, step.provenance, step.kernel, registered, step.site


class Group:
    """Top-level items with one dispatch path: the first of them stands for all."""

    __slots__ = ("first", "key", "count", "total_ns")

    def __init__(self, first, key):
        self.first, self.key, self.count, self.total_ns = first, key, 0, 0


def root_groups(trace):
    """The trace's roots as Groups, in order of first appearance. Up to trace.GROUP_ABOVE roots
    each is its own group (as str(t) shows them); past it, roots with the same untimed summary
    (the same signature, dispatch path and nodes) share one."""
    cached = getattr(trace, "_views_groups", None)
    if cached is not None and cached[0] == len(trace.roots):
        return cached[1]
    groups = _groups(trace)
    try:
        trace._views_groups = (len(trace.roots), groups)  # a trace does not change once built
    except AttributeError:
        pass
    return groups


def top_level(trace):
    """The trace's top-level items as the views show them (Note [Backward passes] in _trace.py);
    a trace-like object without top_level gives its roots."""
    items = getattr(trace, "top_level", None)
    return list(trace.roots) if items is None else items


def _groups(trace):
    roots = top_level(trace)
    if len(roots) <= trace.GROUP_ABOVE:
        groups = [Group(r, None) for r in roots]
        for g in groups:
            g.count, g.total_ns = 1, g.first.duration_ns
        return groups
    by_key = {}
    for r in roots:
        key = r.summary(timed=False) if hasattr(r, "summary") else f"scope {r.name}"
        g = by_key.get(key)
        if g is None:
            g = by_key[key] = Group(r, key)
        g.count += 1
        g.total_ns += r.duration_ns
    return list(by_key.values())


def time_span(trace):
    """(first ns, last ns) over the trace's items and memory events; (0, 0) when empty."""
    starts = [r.start_ns for r in trace.roots]
    ends = [r.end_ns or r.start_ns for r in trace.roots]
    mem = getattr(trace, "memory_events", None) or []
    if mem:
        starts.append(mem[0].t_ns)
        ends.append(mem[-1].t_ns)
    if not starts:
        return 0, 0
    return min(starts), max(ends)


class Bar:
    """An item as the timeline draws it."""

    __slots__ = ("item", "thread", "depth", "start_ns", "end_ns", "kind")

    def __init__(self, item, depth, k):
        self.item, self.depth, self.kind = item, depth, k
        self.thread = item.thread
        self.start_ns = item.start_ns
        self.end_ns = item.end_ns or item.start_ns


def bars(trace):
    """Every item of the trace as a Bar, in call order per thread. An item's kind is "backward"
    when it runs inside a backward node (the ops of a formula are backward work too)."""
    out = []
    todo = [(r, 0, None) for r in reversed(top_level(trace))]
    while todo:
        item, depth, inherited = todo.pop()
        k = kind(item)
        if k == "pass":  # not a bar of its own: its items, at its depth, are backward work
            todo.extend((c, depth, "backward") for c in reversed(item.children))
            continue
        shown = "backward" if (k == "backward" or inherited == "backward") and k != "scope" else k
        out.append(Bar(item, depth, shown))
        passed = "backward" if shown == "backward" else inherited
        todo.extend((c, depth + 1, passed) for c in reversed(item.children))
    return out
