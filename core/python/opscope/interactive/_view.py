"""The default view after a line or a cell: one line per top-level item — an op called from the
user's code, a backward node the engine ran, a ``record_function`` scope —, or, when there are
more than ``max_lines`` of them (a loop), one line per distinct way they ran, with counts and
total times (Note [Folding a loop] in profiler/Recorder.cpp: the grouping is done in C++ on the
raw events, and only each group's first item is turned into Python objects here).

    matmul(f32[2,3], f32[3,4]) → mm[AutogradCPU] → mm[CPU] · MmBackward0 · 12.3 µs

The lines are data (ViewLine); ``text()`` draws them for a terminal (ANSI colour, fitted to the
width) and ``html()`` for a notebook (inline styles only, so a sanitized output still reads).
"""
import html as _html
import re

from opscope.profiler._trace import (_UNSHOWN_ARGUMENTS, _UNSHOWN_VALUES, NodeRun, OpRecord,
                                     Trace, _duration_str, gc_paused)

__all__ = ["ViewLine", "build_lines", "text", "html", "to_json", "MIME", "NO_SEQUENCE_NR"]

# The mime type of the view as data in a notebook output (to_json()).
MIME = "application/vnd.opscope.trace+json"

# The sequence number of a node no forward op made (AccumulateGrad): shown as none.
NO_SEQUENCE_NR = 2 ** 64 - 1


class ViewLine:
    """One line of the view. `kind`: "op", "backward", "scope", or "note" (a header or a "… more"
    line, whose words are all in `title`). `path`: the dispatch steps' labels (``mm[CPU]``);
    `count`: how many items ran this way (None on a line for one item); `ns`: its time, or the
    group's total."""

    __slots__ = ("kind", "title", "path", "nodes", "threw", "count", "ns", "slow")

    def __init__(self, kind, title, path=(), nodes=(), threw=False, count=None, ns=None,
                 slow=False):
        self.kind = kind
        self.title = title
        self.path = list(path)
        self.nodes = list(nodes)
        self.threw = threw
        self.count = count
        self.ns = ns
        self.slow = slow

    def key(self):
        """What makes two lines the same path (timings and counts aside)."""
        return (self.kind, self.title, tuple(self.path), tuple(self.nodes), self.threw)

    def plain(self):
        return _text_line(self, width=None, color=False)

    def __repr__(self):
        return f"<ViewLine {self.plain()}>"


def _elide_values(op):
    """The op's non-tensor arguments, which differ between the items of its group, as "…"."""
    names = op.steps[0].arg_names
    op.inputs = [dict(v, value="…") if v is not None and "value" in v
                 and v["value"] not in _UNSHOWN_VALUES and n not in _UNSHOWN_ARGUMENTS else v
                 for v, n in zip(op.inputs, names)]


def _line_of(item, values_vary=False):
    """The ViewLine of one top-level OpRecord / NodeRun / ScopeRecord."""
    if isinstance(item, OpRecord):
        if values_vary:
            _elide_values(item)
        return ViewLine("op", item.signature(), item.path(), item.summary_nodes(), item.threw,
                        ns=item.duration_ns)
    if isinstance(item, NodeRun):
        title = f"backward {item.name}"
        if item.sequence_nr != NO_SEQUENCE_NR:
            title += f" #{item.sequence_nr}"
        return ViewLine("backward", title, item.path(), ns=item.duration_ns)
    n = sum(1 for x in item.walk() if isinstance(x, OpRecord))
    return ViewLine("scope", f'scope "{item.name}": {n} op{"s" if n != 1 else ""}',
                    ns=item.duration_ns)


def _item_in(events, span):
    """The top-level item of `span` = (begin, end, thread, start_ns, ...) built from its events
    (other threads' events among them make items of their own, left out)."""
    _, _, thread, start_ns = span[:4]
    t = Trace(events)
    for root in t.roots:
        if root.thread == thread and root.start_ns == start_ns:
            return root
    return t.roots[0] if t.roots else None


def _items_of(recording, spans):
    """The top-level items of consecutive spans, converting their events once."""
    if not spans:
        return []
    t = Trace(recording.events(spans[0][0], spans[-1][1] + 1, stacks=False))
    by_start = {(r.thread, r.start_ns): r for r in t.roots}
    items = []
    for s in spans:
        item = by_start.get((s[2], s[3]))
        if item is None:  # should not happen: build it alone
            item = _item_in(recording.events(s[0], s[1] + 1, stacks=False), s)
        if item is not None:
            items.append(item)
    return items


def _fmt_count(n):
    return f"{n:,}"


def build_lines(recording, max_lines, slow_ns):
    """The ViewLines of a recording (a _C._Recording): [] when it ran nothing."""
    with gc_paused():
        return _build_lines(recording, max_lines, slow_ns)


def _build_lines(recording, max_lines, slow_ns):
    max_lines = max(max_lines, 3)
    groups, first_items, count = recording.group_items(max_lines)
    lines = []
    if count <= max_lines:
        for item in _items_of(recording, first_items):
            line = _line_of(item)
            line.slow = line.ns is not None and line.ns >= slow_ns
            lines.append(line)
    else:
        lines = _folded_lines(recording, groups, count, max_lines, slow_ns)
    if recording.dropped_items:
        n = recording.dropped_items
        lines.append(ViewLine(
            "note", f"… {_fmt_count(n)} more top-level call{'s' if n != 1 else ''} "
            f"({_duration_str(recording.dropped_ns)}) not recorded: past the bound of "
            f"{_fmt_count(len(recording))} events (%opscope max_events=N)"))
    return lines


def _folded_lines(recording, groups, count, max_lines, slow_ns):
    """One line per distinct path, in order of first appearance; past max_lines the slowest
    stay and the rest become one "… more" line."""
    # Groups that differ only in what a line does not show (the first iteration's extra
    # AccumulateGrad) are merged once drawn, so a few more are drawn than will be shown.
    by_total = sorted(range(len(groups)), key=lambda i: -groups[i][2])
    drawn = sorted(by_total[:max_lines * 2])
    merged = {}  # ViewLine.key() -> [line, first group index]
    for i in drawn:
        span, n, total_ns, values_vary = groups[i]
        item = _item_in(recording.events(span[0], span[1] + 1, stacks=False), span)
        if item is None:
            continue
        line = _line_of(item, values_vary)
        key = line.key()
        if key in merged:
            kept = merged[key][0]
            kept.count += n
            kept.ns += total_ns
        else:
            line.count, line.ns = n, total_ns
            merged[key] = [line, i]
    shown = sorted(merged.values(), key=lambda v: -v[0].ns)[:max_lines - 2]
    shown.sort(key=lambda v: v[1])
    total_ns = sum(g[2] for g in groups)
    header = ViewLine("note", f"{_fmt_count(count)} top-level calls, {len(groups)} distinct "
                      f"path{'s' if len(groups) != 1 else ''} · {_duration_str(total_ns)}")
    lines = [header]
    for line, _ in shown:
        line.slow = line.ns / max(line.count, 1) >= slow_ns
        lines.append(line)
    shown_calls = sum(line.count for line, _ in shown)
    hidden_calls = count - shown_calls
    if hidden_calls > 0:
        hidden_ns = total_ns - sum(line.ns for line, _ in shown)
        lines.append(ViewLine(
            "note", f"… {_fmt_count(hidden_calls)} more call{'s' if hidden_calls != 1 else ''} "
            f"on other paths ({_duration_str(max(hidden_ns, 0))}): %trace shows every op"))
    return lines


# --- text ------------------------------------------------------------------------------------

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_SGR = {"op": "1", "key": "36", "node": "35", "time": "2", "slow": "33", "threw": "31",
        "arrow": "2", "count": "1", "note": "2"}


def _paint(text, role, color):
    return f"\x1b[{_SGR[role]}m{text}\x1b[0m" if color and text else text


def _fit(count, title, path, tail, width):
    """Shortens a line's parts to fit `width` columns, giving up first what says least: the
    middle of the dispatch path (its first and last steps say where it started and which kernel
    ran), then the op's arguments, then the path's first step where that keeps the nodes, then
    the nodes, then the path's first step (a "…" left in its place where it fits). The op's name
    and the last step's key stay; only a line still too long is cut at its end."""
    path, tail = list(path), list(tail)

    def length():
        return (len(count) + len(title) + sum(3 + len(p) for p in path) +
                sum(3 + len(t) for _, t in tail))

    while length() > width and len(path) > 2:
        if path[1] != "…":
            path[1] = "…"
        elif len(path) > 3:
            del path[2]
        else:
            break
    if length() > width and "(" in title:
        title = title.split("(", 1)[0] + "(…)"
    if length() > width and len(path) > 1 and any(role == "node" for role, _ in tail):
        # The node says autograd ran, which is what a first step like f[AutogradCPU] says too:
        # keep the node and give up that step when this is enough.
        kept = path
        path = ["…", path[-1]]
        if length() > width:
            path = kept
    if length() > width:
        tail = [(role, t) for role, t in tail if role != "node"]
    dropped = False
    while length() > width and len(path) > 1:
        del path[0]
        dropped = True
    if dropped and path[0] != "…":  # a "…" says steps were left out, where it fits
        path.insert(0, "…")
        if length() > width:
            del path[0]
    return title, path, tail


def _text_line(line, width, color):
    if line.kind == "note":
        text = line.title
        if width is not None and len(text) > width:
            text = text[:width - 1] + "…"
        return _paint(text, "note", color)
    count = f"×{line.count:<7,} " if line.count is not None else ""
    tail = []
    if line.nodes:
        tail.append(("node", ", ".join(line.nodes)))
    if line.threw:
        tail.append(("threw", "threw"))
    if line.ns is not None:
        time = _duration_str(line.ns)
        tail.append(("slow" if line.slow else "time",
                     f"total {time}" if line.count is not None else time))
    title, path = line.title, line.path
    if width is not None:
        title, path, tail = _fit(count, title, path, tail, width)
    parts = [_paint(count, "count", color) if count else ""]
    name, _, rest = title.partition("(")
    if line.kind == "op" and rest:
        parts.append(_paint(name, "op", color) + "(" + rest)
    else:
        parts.append(_paint(title, "op", color))
    arrow = _paint(" → ", "arrow", color)
    for p in path:
        label, bracket, key = p.partition("[")
        parts.append(arrow + (label + _paint(bracket + key, "key", color) if bracket else p))
    dot = _paint(" · ", "arrow", color)
    for role, t in tail:
        parts.append(dot + _paint(t, role, color))
    out = "".join(parts)
    if width is not None and len(_plain(out)) > width:  # narrower than any fitting
        out = _plain(out)[:width - 1] + "…"
    return out


def _plain(text):
    return _ANSI.sub("", text)


def text(lines, width=None, color=False):
    """The view as text: one string, lines joined, each fitted to `width` columns."""
    return "\n".join(_text_line(line, width, color) for line in lines)


# --- HTML ------------------------------------------------------------------------------------

# Inline styles only: a notebook opened untrusted strips <style> elements but keeps these.
_STYLE = {"op": "font-weight:bold", "key": "color:#0b6e99", "node": "color:#8e3a9d",
          "time": "color:#6b6b6b", "slow": "color:#b35900;font-weight:bold",
          "threw": "color:#c62828;font-weight:bold", "arrow": "color:#8a8a8a",
          "count": "font-weight:bold", "note": "color:#6b6b6b"}


def _span(text, role):
    return f'<span style="{_STYLE[role]}">{_html.escape(text)}</span>' if text else ""


def _html_line(line):
    if line.kind == "note":
        return _span(line.title, "note")
    parts = []
    if line.count is not None:
        parts.append(_span(f"×{line.count:,}", "count") + " ")
    name, _, rest = line.title.partition("(")
    if line.kind == "op" and rest:
        parts.append(_span(name, "op") + _html.escape("(" + rest))
    else:
        parts.append(_span(line.title, "op"))
    for p in line.path:
        label, bracket, key = p.partition("[")
        parts.append(_span(" → ", "arrow") + _html.escape(label) + _span(bracket + key, "key"))
    if line.nodes:
        parts.append(_span(" · ", "arrow") + _span(", ".join(line.nodes), "node"))
    if line.threw:
        parts.append(_span(" · ", "arrow") + _span("threw", "threw"))
    if line.ns is not None:
        t = _duration_str(line.ns)
        parts.append(_span(" · ", "arrow") + _span(f"total {t}" if line.count is not None
                                                     else t, "slow" if line.slow else "time"))
    return "".join(parts)


def html(lines):
    """The view as self-contained HTML: one block element per line (nothing glues when a
    sanitizer strips styles), monospace, no script, no class names."""
    body = "".join(f'<div style="white-space:pre-wrap;margin:0">{_html_line(line)}</div>'
                   for line in lines)
    return ('<div class="opscope-view" style="font-family:monospace;font-size:12px;'
            f'line-height:1.45">{body}</div>')


# --- data ------------------------------------------------------------------------------------

def to_json(lines, execution=None):
    """The view as data, for a notebook output's MIME part: the summary lines and what the
    execution recorded — small whatever ran (a 100,000-op loop is a few lines); the full trace is
    ``_trace.save(path)``'s (share/opscope.trace-1.md)."""
    doc = {"schema": "opscope.view/1",
           "lines": [{k: getattr(line, k) for k in ViewLine.__slots__
                      if getattr(line, k) not in (None, [], False)} for line in lines]}
    if execution is not None:
        doc.update(execution=execution.number, events=execution.events,
                   wall_ns=execution.wall_ns)
    return doc
