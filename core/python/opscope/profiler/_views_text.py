"""The dispatch trace as a terminal tree: ``print(t.tree())``.

One block per top-level op, backward node or record_function scope; inside an op, each dispatch
step on a line (label, how it was called, the kernel that ran and where it was registered) with
its keys below (see Note [Key marks] in _views.py), the autograd nodes the op created, then the
ops its kernels called, indented. Every line fits `width` columns. Colour is added on a tty
(unless NO_COLOR is set) or with color=True; without it the marks carry the meaning:

    [AutogradCPU]      the chosen key
    ADInplaceOrView↓   a key this op falls through
    ~AutogradCPU~      a key the step's set left out (excluded, or masked by the redispatch)

A trace of more than Trace.GROUP_ABOVE top-level items shows one block per distinct dispatch
path: the count and total time, then the first call's tree.
"""
import os
import shutil
import sys

from opscope.profiler import _views as V
from opscope.profiler._trace import OpRecord, gc_paused

__all__ = ["tree"]

# How many distinct dispatch paths a grouped tree shows in full; the rest get one line each.
FULL_GROUPS = 8
LISTED_GROUPS = 40

_SGR = {
    "op": "1",              # bold
    "chosen": "1;32",       # bold green
    "fallthrough": "2",     # dim
    "excluded": "2;9;31",   # dim, struck, red
    "below": "2",
    "time": "36",           # cyan
    "backward": "1;35",     # bold magenta
    "scope": "1;33",        # bold yellow
    "node": "35",
    "kernel": "34",         # blue
    "muted": "2",
    "threw": "1;31",
}

# A key's mark in text (see Note [Key marks] in _views.py).
_KEY_TEXT = {"chosen": "[{}]", "fallthrough": "{}↓", "excluded": "~{}~", "below": "{}"}

LEGEND = "▸ call  ↳ redispatch  [K] chosen  K↓ fell through  ~K~ excluded / not redispatched"


def _use_color(color):
    if color is not None:
        return bool(color)
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ


class _Line:
    """A line of the tree: a prefix (the tree's guides), styled segments, and an optional
    right-aligned segment (a duration)."""

    __slots__ = ("prefix", "segments", "right", "optional")

    def __init__(self, prefix, segments, right=None, optional=False):
        self.prefix, self.segments, self.right = prefix, segments, right
        self.optional = optional  # drop `right` rather than cut the segments

    def render(self, width, color):
        right = self.right[0] if self.right else ""
        room = max(1, width - len(self.prefix) - (len(right) + 2 if right else 0))
        length = sum(len(t) for t, _ in self.segments)
        if right and (room < 8 or (self.optional and length > room)):
            right, room = "", max(1, width - len(self.prefix))
        out, used = [], 0
        for text, style in self.segments:
            if used + len(text) > room:  # cut here, the last column an ellipsis
                if room > used:
                    out.append((text[:room - used - 1] + "…", style))
                elif out:
                    last, last_style = out.pop()
                    out.append((last[:-1] + "…", last_style))
                used = room
                break
            out.append((text, style))
            used += len(text)
        prefix = self.prefix[: max(0, width - 1)]
        if right:
            out.append((" " * (room - used + 2), None))
            out.append((right, self.right[1]))
        if not color:
            return (prefix + "".join(t for t, _ in out)).rstrip()
        colored = "".join(f"\x1b[{_SGR[s]}m{t}\x1b[0m" if s else t for t, s in out)
        return (f"\x1b[2m{prefix}\x1b[0m" if prefix else "") + colored


def _step_lines(op, base, prefix, out):
    for step in op.steps:
        call, provenance, kernel, registered, site = V.kernel_parts(step)
        segments = [("▸ " if call == "call" else "↳ ", "muted"), (step.label, None),
                    (f" → {provenance} ", "muted")]
        if registered:
            segments.append((f"({registered}) ", "muted"))
        segments.append((kernel, "kernel"))
        out.append(_Line(prefix, segments, (site, "muted") if site else None, optional=True))
        keys = [("    keys ", "muted")]
        for key, mark, _ in V.key_marks(op, step, base):
            keys.append((_KEY_TEXT[mark].format(key), mark))
            keys.append((" ", None))
        out.append(_Line(prefix, keys[:-1]))


def _header(item):
    k = V.kind(item)
    if k == "op":
        segments = [(V.op_title(item), "threw" if item.threw else "op")]
        n = getattr(item, "memory_bytes", None)
        if n:
            segments.append((f"  {'+' if n > 0 else ''}{V.bytes_str(n)}", "muted"))
    elif k == "backward":
        segments = [("◀ backward ", "backward"), (item.name, "backward")]
        if item.sequence_nr is not None and item.sequence_nr != V.NO_SEQUENCE_NR:
            segments.append((f" #{item.sequence_nr}", "muted"))
    else:
        segments = [("▣ record_function ", "scope"), (item.name, "scope")]
    return segments, (V.duration_str(item.duration_ns), "time")


def _item_lines(item, first, rest, out):
    """Lines for an item: its header after `first`, its details and children after `rest`."""
    segments, right = _header(item)
    out.append(_Line(first, segments, right))
    children = item.children
    detail = rest + ("│  " if children else "   ")
    if isinstance(item, OpRecord):
        _step_lines(item, V.op_base_keys(item), detail, out)
        for node in item.nodes_created:
            out.append(_Line(detail, [("+ autograd node ", "muted"),
                                      (V.node_line(node), "node")]))
        stack = getattr(item, "stack", None)
        if stack is not None and not any(getattr(c, "stack", None) is stack for c in children):
            where = getattr(item, "blas_routine", None) or "the kernel"
            out.append(_Line(detail, [(f"+ call stack at {where}: {len(stack)} frames, ",
                                       "muted"), (f'print(t.stack("{item.name}"))', None)]))
    for i, child in enumerate(children):
        last = i == len(children) - 1
        _item_lines(child, rest + ("└─ " if last else "├─ "), rest + ("   " if last else "│  "),
                    out)


def _title_line(trace):
    first, last = V.time_span(trace)
    return _Line("", [("opscope trace", "op"),
                      (f" · {len(trace.ops)} ops · {len(trace.roots)} top-level", "muted")],
                 (V.duration_str(last - first), "time"))


def tree(trace, width=None, color=None, legend=True):
    """The trace's dispatch tree as text; see the module's docstring."""
    with gc_paused():
        return _tree(trace, width, color, legend)


def _tree(trace, width, color, legend):
    if width is None:
        width = shutil.get_terminal_size((100, 24)).columns
    width = max(width, 20)
    color = _use_color(color)
    out = [_title_line(trace)]
    groups = V.root_groups(trace)
    grouped = groups and groups[0].key is not None
    for n, g in enumerate(groups):
        if grouped and n >= LISTED_GROUPS:
            out.append(_Line("", [(f"… {len(groups) - n} more distinct paths", "muted")]))
            break
        if grouped and g.count > 1:
            out.append(_Line("", [(f"×{g.count} ", "time"), (g.key, None)],
                             (f"total {V.duration_str(g.total_ns)}", "time")))
            if n >= FULL_GROUPS:
                continue
            out.append(_Line("", [("first call:", "muted")]))
            _item_lines(g.first, "  ", "  ", out)
        else:
            _item_lines(g.first, "", "", out)
    if legend:
        out.append(_Line("", [(LEGEND, "muted")]))
    return "\n".join(line.render(width, color) for line in out)
