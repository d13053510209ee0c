"""The dispatch trace as a terminal tree: ``print(t.tree())``.

One block per top-level op, backward node or record_function scope; inside an op, each dispatch
step on a line (label, how it was called, the kernel that ran and where it was registered) with
its keys below (see Note [Key marks] in _views.py), the autograd nodes the op created, then the
ops its kernels called, indented. Every line fits `width` columns. Colour is added with
color=True (and when a terminal IPython shows the view); without it the marks carry the
meaning:

    [AutogradCPU]      the chosen key
    ADInplaceOrView↓   a key this op falls through
    ~AutogradCPU~      a key the step's set left out (excluded, or masked by the redispatch)
    •  ↳               a step called, redispatched

A trace of more than Trace.GROUP_ABOVE top-level items shows one block per distinct dispatch
path: the count and total time, then the first call's tree.

Lines longer than the width are first shortened where nothing is lost (a kernel's opscope::
dropped; its namespaces elided in the middle, ``python::…::operator()``, only when it is longer
than a line), then wrapped at spaces onto indented lines, a registration site on a line of its
own (``core/ops/…/linear.cpp:76`` only when even that is too short): an op's name, its shapes
and a key are never cut.
"""
from opscope.profiler import _views as V
from opscope.profiler._stack import elide_name, elide_path
from opscope.profiler._textview import TextView, text_width
from opscope.profiler._trace import OpRecord, gc_paused

__all__ = ["tree", "LEGEND"]

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

_KEY_TEXT = V.KEY_TEXT


def _legend_text():
    glyph = {"call": V.CALL_MARK["call"], "redispatch": V.CALL_MARK["redispatch"], "node": "+",
             "backward": "◀"}
    return " · ".join(f"{glyph.get(what) or _KEY_TEXT[what].format('K')} {words}"
                      for what, words in V.LEGEND)


# The marks' words, as the HTML view says them (Note [One legend] in _views.py).
LEGEND = _legend_text()


class _Line:
    """A line of the tree: a prefix (the tree's guides), styled segments, and an optional
    right-aligned segment (a duration, a registration site: on a line of its own when the line
    is too long). A segment is (text, style) or (text, style, how): how "name" may be elided
    in the middle of its namespaces, "atom" is never broken across lines."""

    __slots__ = ("prefix", "segments", "right")

    def __init__(self, prefix, segments, right=None):
        self.prefix, self.segments, self.right = prefix, segments, right

    def render(self, width, color):
        """The line as one or more lines of at most `width` columns."""
        room = max(8, width - len(self.prefix))
        segments = [seg if len(seg) == 3 else (seg[0], seg[1], None) for seg in self.segments]
        right = self.right
        length = sum(len(t) for t, _, _ in segments)
        right_len = len(right[0]) + 2 if right else 0
        if length + right_len > room:
            segments = _shorten(segments, length + right_len - room, room)
            length = sum(len(t) for t, _, _ in segments)
        if length + right_len <= room:
            out = list((t, st) for t, st, _ in segments)
            if right:
                out.append((" " * (room - length - len(right[0])), None))
                out.append(right)
            return [_paint(self.prefix, out, color)]
        return self._wrap(segments, right, room, width, color)

    def _wrap(self, segments, right, room, width, color):
        cont = self.prefix.replace("├─ ", "│  ").replace("└─ ", "   ") + "    "
        tokens = []
        for text, style, how in segments:
            if how == "atom":
                tokens.append((text, style, how))
                continue
            words = text.split(" ")
            for k, w in enumerate(words):
                tokens.append((w + (" " if k < len(words) - 1 else ""), style, None))
        if right:  # a site or a time: one piece, its folders elided only if a line is short
            text = right[0]
            if len(text) + 3 > max(8, width - len(cont)):
                text = elide_path(text, max(8, width - len(cont)) - 3)
            tokens.append((" · " + text, right[1], "atom"))
        lines, current, used, limit = [], [], 0, room
        for text, style, how in tokens:
            if not text:
                continue
            if used + len(text.rstrip()) > limit and current:
                lines.append(current)
                current, used, limit = [], 0, max(8, width - len(cont))
            if not current:
                text = text.lstrip() or text
            if len(text.rstrip()) > limit:  # one word longer than a line: its middle goes
                text = elide_name(text.rstrip(), limit) + (" " if text.endswith(" ") else "")
            current.append((text, style))
            used += len(text)
        if current:
            lines.append(current)
        return [_paint(self.prefix if n == 0 else cont, line, color)
                for n, line in enumerate(lines)]


def _shorten(segments, over, room):
    """Segments with names and sites shortened by up to `over` columns, losing no word: a
    kernel's name drops its opscope:: (and its middle namespaces only when it is longer than
    a line); lines still too long are wrapped after."""
    out = []
    for text, style, how in segments:
        if over > 0 and how == "name":
            new = text[9:] if text.startswith("opscope::") else text
            if len(new) > room - 8:
                new = elide_name(new, room - 8)
            over -= len(text) - len(new)
            text = new
        out.append((text, style, how))
    return out


def _paint(prefix, segments, color):
    while segments and not segments[-1][0].strip():
        segments = segments[:-1]
    if segments:
        segments = segments[:-1] + [(segments[-1][0].rstrip(), segments[-1][1])]
    if not color:
        return (prefix + "".join(t for t, _ in segments)).rstrip()
    colored = "".join(f"\x1b[{_SGR[s]}m{t}\x1b[0m" if s else t for t, s in segments)
    return (f"\x1b[2m{prefix}\x1b[0m" if prefix else "") + colored.rstrip()


def _step_lines(op, base, prefix, out):
    for step in op.steps:
        call, provenance, kernel, registered, site = V.kernel_parts(step)
        segments = [(V.CALL_MARK[call] + " ", "muted"), (step.label, None, "atom"),
                    (f" → {provenance} ", "muted")]
        if registered:
            segments.append((f"({registered}) ", "muted"))
        segments.append((kernel, "kernel", "name"))
        out.append(_Line(prefix, segments, (site, "muted") if site else None))
        keys = [("  keys ", "muted")]
        for key, mark, _ in V.key_marks(op, step, base):
            keys.append((_KEY_TEXT[mark].format(key) + " ", mark, "atom"))
        out.append(_Line(prefix, keys))


def _header(item):
    k = V.kind(item)
    if k == "op":
        segments = [(V.op_title(item), "threw" if item.threw else "op")]
        n = getattr(item, "memory_bytes", None)
        if n:
            segments.append((f"  {'+' if n > 0 else ''}{V.bytes_str(n)}", "muted"))
        if V.loads_blas(item):
            segments.append((f" · {V.BLAS_ONE_OFF}", "muted"))
    elif k == "backward":
        segments = [("◀ backward ", "backward"), (item.name, "backward")]
        if V.sequence_str(item.sequence_nr):
            segments.append((V.sequence_str(item.sequence_nr), "muted"))
    elif k == "pass":
        segments = [("◀ ", "backward"), (item.summary(timed=False), "backward")]
    elif getattr(item, "crossing", False):  # C++ called Python (crossing.h)
        segments = [("⇢ ", "scope"), (item.name, "scope")]
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
                                       "muted"), (f'print(t.stack("{item.name}"))', None,
                                                  "atom")]))
    for i, child in enumerate(children):
        last = i == len(children) - 1
        _item_lines(child, rest + ("└─ " if last else "├─ "), rest + ("   " if last else "│  "),
                    out)


def _title_line(trace):
    first, last = V.time_span(trace)
    return _Line("", [("opscope trace", "op"),
                      (f" · {len(trace.ops)} ops · {len(V.top_level(trace))} top-level",
                       "muted")],
                 (V.duration_str(last - first), "time"))


def tree(trace, width=None, color=None, legend=True):
    """The trace's dispatch tree as a TextView (see _textview.py), fitting `width` columns
    (text_width()'s default); see the module's docstring. The str is plain text unless
    color=True; typed at a terminal IPython it shows in colour, in a notebook as HTML."""
    width = text_width(width)
    with gc_paused():
        lines = _tree(trace, legend)
        plain = "\n".join(r for line in lines for r in line.render(width, bool(color)))

    def ansi():
        with gc_paused():
            return "\n".join(r for line in lines for r in line.render(width, True))

    def html():
        from opscope.profiler import _html
        return _html.text_html(str.__str__(view) if not color else
                               "\n".join(r for line in lines for r in line.render(width, False)))

    view = TextView(plain, html=html, ansi=ansi)
    return view


def _tree(trace, legend):
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
    return out
