"""HTML views for notebooks: self-contained (inline CSS from _css.py, inline SVG from _svg.py),
no JavaScript, no network; folding with <details>. They say what the text views say
(_views_text.py, _stack.py) and read the data through the same helpers (_views.py).

    trace_html(t)            the dispatch tree: one folded line per top-level item (the summary
                             str(t) prints), unfolding to every step, key set, kernel, nested op,
                             autograd node; then the timeline and memory, folded
    stack_html(s)            a Stack as a table, layers coloured, language crossings marked
    key_averages_html(rows)  a profile table from key_averages() rows
    page(title, html)        a whole document around views, for files
"""
import json
from html import escape

from opscope.profiler import _svg
from opscope.profiler import _views as V
from opscope.profiler._css import CSS, LAYER_COLORS
from opscope.profiler._trace import OpRecord, gc_paused

__all__ = ["view", "page", "trace_html", "trace_bundle", "trace_json", "stack_html",
           "stack_table", "key_averages_html", "bundle"]

# A grouped trace (a loop) shows this many distinct paths with the first call's tree, and lists
# up to LISTED_GROUPS in all.
FULL_GROUPS = 8
LISTED_GROUPS = 40

# A trace of more recorded events than this goes into a mime bundle as a summary (trace_json).
JSON_EMBED_EVENTS = 5000

# A key's mark (see Note [Key marks] in _views.py): <b> and <s> say it without the style sheet.
_MARK_HTML = {
    "chosen": '<b class="os-key os-chosen" title="{why}">{key}</b>',
    "fallthrough": '<span class="os-key os-fallthrough" title="{why}">{key}↓</span>',
    "excluded": '<s class="os-key os-excluded" title="{why}">{key}</s>',
    "below": '<span class="os-key os-below" title="{why}">{key}</span>',
}


def view(body, classes=""):
    """`body` in a themed, self-contained block (its own style sheet)."""
    extra = f" {classes}" if classes else ""
    return f'<div class="opscope{extra}"><style>{CSS}</style>{body}</div>'


def page(title, body, dark=None):
    """A whole HTML document around `body` (views), for files and screenshots. `dark`: None
    follows the system's colour scheme (prefers-color-scheme), True / False force one."""
    light_css = "background: #ffffff; color: #1f2328;"
    dark_css = "background: #0d1117; color: #e6edf3;"
    if dark is None:
        colors = (f"body {{ {light_css} }} @media (prefers-color-scheme: dark) "
                  f"{{ body {{ {dark_css} }} }}")
        theme = ""
    else:
        colors = f"body {{ {dark_css if dark else light_css} }}"
        theme = f' class="{"vscode-dark" if dark else "vscode-light"}"'
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<title>{escape(title)}</title><style>{colors} body {{ margin: 16px 20px; '
            f'font-family: system-ui, sans-serif; }} h2 {{ font-size: 15px; margin: 18px 0 6px; '
            f'font-weight: 600; }}</style></head><body{theme}>\n{body}\n</body></html>\n')


def bundle(data, include=None, exclude=None):
    """{mime: value} with include / exclude applied; `data` maps a mime type to a value or to a
    function making it, so a type left out costs nothing."""
    out = {}
    for mime, value in data.items():
        if (include and mime not in include) or (exclude and mime in exclude):
            continue
        out[mime] = value() if callable(value) else value
    return out


# --- the dispatch tree ----------------------------------------------------------------------------

def _label_html(label):
    """mm[AutogradCPU] with the key highlighted; other path entries as they are."""
    if label.endswith("]") and "[" in label:
        name, key = label[:-1].split("[", 1)
        return f'{escape(name)}<span class="os-kc">[{escape(key)}]</span>'
    return escape(label)


def _time(item):
    return f'<span class="os-time">{V.duration_str(item.duration_ns)}</span>'


def _memory(op):
    n = getattr(op, "memory_bytes", None)
    if not n:
        return ""
    return (f'<span class="os-mem" title="bytes allocated minus freed by this op and the ops '
            f'below it">{"+" if n > 0 else ""}{V.bytes_str(n)}</span>')


def _root_summary(item, timed=True):
    """The root's one line, as str(t) has it: signature → dispatch path · nodes · time (and
    bytes). Untimed, for a group's line, it leaves out what differs between calls."""
    time = _time(item) if timed else ""
    k = V.kind(item)
    if k == "op":
        cls = "os-threw" if item.threw else "os-op"
        parts = [f'<span class="{cls}">{escape(item.signature())}</span>']
        path = item.path()
        if path:
            parts.append(' <span class="os-path">→ ' +
                         " → ".join(_label_html(p) for p in path) + "</span>")
        nodes = [n.name for op in item.walk() if isinstance(op, OpRecord)
                 for n in op.nodes_created if n.name != "AccumulateGrad"]
        if nodes:
            parts.append(f' · <span class="os-node">{escape(", ".join(nodes))}</span>')
        if item.threw:
            parts.append(' · <span class="os-threw">threw</span>')
        return time + "".join(parts) + (_memory(item) if timed else "")
    return time + _header(item)


def _header(item):
    k = V.kind(item)
    if k == "op":
        cls = "os-threw" if item.threw else "os-op"
        return f'<span class="{cls}">{escape(V.op_title(item))}</span>{_memory(item)}'
    if k == "backward":
        nr = item.sequence_nr
        seq = "" if nr is None or nr == V.NO_SEQUENCE_NR else f" #{nr}"
        ops = sum(1 for c in item.walk() if isinstance(c, OpRecord))
        return (f'<span class="os-bwd">◀ backward {escape(item.name)}</span>'
                f'<span class="os-muted">{seq} · {ops} ops</span>')
    ops = sum(1 for c in item.walk() if isinstance(c, OpRecord))
    return (f'<span class="os-scope">▣ record_function {escape(item.name)}</span>'
            f'<span class="os-muted"> · {ops} ops</span>')


def _steps(op, out):
    base = V.op_base_keys(op)
    for step in op.steps:
        call, provenance, kernel, registered, site = V.kernel_parts(step)
        out.append(f'<div class="os-step"><span class="os-call" title="{call}">'
                   f'{"▸" if call == "call" else "↳"}</span>'
                   f'<span class="os-label">{_label_html(step.label)}</span>'
                   f' <span class="os-muted">→ {escape(provenance)}</span> ')
        if registered:
            out.append(f'<span class="os-muted">({escape(registered)})</span> ')
        out.append(f'<code class="os-kernel">{escape(kernel)}</code>')
        if site:
            out.append(f'<span class="os-site">{escape(site)}</span>')
        out.append('<div class="os-keys"><span class="os-muted">keys </span>')
        for key, mark, why in V.key_marks(op, step, base):
            out.append(_MARK_HTML[mark].format(key=escape(key), why=escape(why)))
        out.append("</div></div>")


def _body(item, out, open_all):
    """What is inside an item: its steps, nodes, stack, then its children (folded details)."""
    if isinstance(item, OpRecord):
        _steps(item, out)
        for node in item.nodes_created:
            out.append(f'<div class="os-step"><span class="os-call">+</span>'
                       f'<span class="os-muted">autograd node </span>'
                       f'<span class="os-node">{escape(V.node_line(node))}</span></div>')
        stack = getattr(item, "stack", None)
        if stack is not None and not any(getattr(c, "stack", None) is stack
                                         for c in item.children):  # else a child shows it
            where = getattr(item, "blas_routine", None) or "the kernel"
            out.append(f'<details class="os-section"{" open" if open_all else ""}><summary>'
                       f'call stack at {escape(where)} · {len(stack)} frames</summary>'
                       f'{stack_table(stack)}</details>')
    for child in item.children:
        _item(child, out, open_all)


def _item(item, out, open_all, root=False, summary=None):
    """An item as a <details>: a root folded unless `open_all`, the items below it open (what
    unfolding a root shows); the call stacks inside folded unless `open_all`."""
    opened = " open" if open_all or not root else ""
    cls = "os-root" if root else "os-item"
    out.append(f'<details class="{cls} os-k-{V.kind(item)}"{opened}><summary>')
    out.append(summary if summary is not None else _time(item) + _header(item))
    out.append('</summary><div class="os-body">')
    _body(item, out, open_all)
    out.append("</div></details>")


def _legend():
    marks = "".join(_MARK_HTML[m].format(key="K", why="") + f" {text} · " for m, text in (
        ("chosen", "chosen key"), ("fallthrough", "falls through"), ("excluded", "left out"),
        ("below", "not reached")))
    return (f'<div class="os-legend">{marks}▸ call ↳ redispatch · '
            f'<span class="os-node">+ node created</span> · '
            f'<span class="os-bwd">◀ backward</span></div>')


def trace_body(trace, open_all=False, width=960):
    """The trace view's content (without the style sheet): see the module's docstring."""
    first, last = V.time_span(trace)
    out = [f'<div class="os-title"><b>opscope trace</b> · {len(trace.ops)} ops · '
           f'{len(trace.roots)} top-level · {V.duration_str(last - first)}</div>']
    groups = V.root_groups(trace)
    grouped = bool(groups) and groups[0].key is not None
    if grouped:
        paths = "1 distinct dispatch path" if len(groups) == 1 else \
            f"{len(groups)} distinct dispatch paths"
        out.append(f'<div class="os-muted">{paths}; each folds open to its first call</div>')
    for n, g in enumerate(groups):
        if grouped and n >= LISTED_GROUPS:
            out.append(f'<div class="os-muted">… {len(groups) - n} more distinct paths</div>')
            break
        if not grouped or g.count == 1:
            _item(g.first, out, open_all, root=True, summary=_root_summary(g.first))
            continue
        line = (f'<span class="os-time">total {V.duration_str(g.total_ns)}</span>'
                f'<span class="os-count">×{g.count}</span>{_root_summary(g.first, False)}')
        if n >= FULL_GROUPS:
            out.append(f'<div class="os-root os-line">{line}</div>')
            continue
        out.append(f'<details class="os-root os-group"{" open" if open_all else ""}>'
                   f'<summary>{line}</summary><div class="os-body">'
                   f'<div class="os-muted">first call:</div>')
        _item(g.first, out, open_all)
        out.append("</div></details>")
    timeline = _svg.timeline_svg(trace, width)
    if timeline:
        out.append(f'<details class="os-section"{" open" if open_all else ""}><summary>timeline'
                   f'</summary><div class="os-scroll">{timeline}</div></details>')
    memory = _svg.memory_svg(trace, width)
    if memory:
        out.append(f'<details class="os-section"{" open" if open_all else ""}><summary>memory'
                   f'</summary><div class="os-scroll">{memory}</div></details>')
    out.append(_legend())
    return "".join(out)


def trace_html(trace, open_all=False, width=960, classes=""):
    """The trace as a self-contained HTML view (``t._repr_html_()``). The cyclic garbage
    collector waits meanwhile: its passes over a big trace's objects would cost more than the
    drawing (see _trace.gc_paused)."""
    with gc_paused():
        return view(trace_body(trace, open_all, width), classes)


def _item_json(item):
    d = {"kind": V.kind(item), "name": item.name, "start_ns": item.start_ns,
         "end_ns": item.end_ns, "thread": item.thread}
    if isinstance(item, OpRecord):
        d["steps"] = [{"call": s.call, "key": s.key, "kernel": s.kernel,
                       "provenance": s.provenance, "site": s.site} for s in item.steps]
        d["nodes_created"] = [n.name for n in item.nodes_created]
    d["children"] = [_item_json(c) for c in item.children]
    return d


def trace_json(trace, max_events=None):
    """The trace as JSON data for the notebook's mime bundle: ``t.to_json()``'s document
    (opscope.trace/1) up to `max_events` recorded events (JSON_EMBED_EVENTS); past that a
    summary (opscope.trace-summary/1) — a whole loop's trace is megabytes, too much to keep in
    every notebook cell; ``t.save(path)`` writes it. Without to_json, the tree as plain dicts."""
    if max_events is None:
        max_events = JSON_EMBED_EVENTS
    events = getattr(trace, "events", None) or []
    if len(events) > max_events:
        return {"schema": "opscope.trace-summary/1", "events_recorded": len(events),
                "ops": len(trace.ops), "top_level": len(trace.roots),
                "summary": trace.summary_lines(),
                "note": f"more than {max_events} events: not embedded; t.save(path) writes "
                        f"the whole trace (opscope.trace/1)"}
    to_dict = getattr(trace, "to_dict", None)
    if to_dict is not None:
        return to_dict()
    to_json = getattr(trace, "to_json", None)
    if to_json is not None:
        data = to_json()
        return json.loads(data) if isinstance(data, (str, bytes)) else data
    return {"schema": "opscope.trace-views/0", "roots": [_item_json(r) for r in trace.roots]}


def trace_bundle(trace, include=None, exclude=None):
    with gc_paused():
        return bundle({"text/plain": lambda: str(trace), "text/html": lambda: trace_html(trace),
                       "application/vnd.opscope.trace+json": lambda: trace_json(trace)},
                      include, exclude)


# --- the call stack -------------------------------------------------------------------------------

def _swatches(layers):
    badges = "".join(f'<span class="os-badge os-L-{lay}">{lay}</span>' for lay in layers)
    return f'<div class="os-swatches">layers: {badges}</div>'


def stack_table(stack, full=False):
    """A Stack as a table (#, frame, file:line, layer) with the text table's folds and crossing
    lines (_stack.py's rows), and the legend of its layers."""
    from opscope.profiler import _stack as S
    frames = stack.frames
    rows = S._rows(frames, full)
    marks = S._crossings(frames)
    out = ['<div class="os-scroll"><table class="os-stack"><thead><tr><th class="os-num">#</th><th>frame</th>'
           '<th>file:line</th><th>layer</th></tr></thead><tbody>']
    for row in rows:
        kind, a, b, fs = row
        layer = fs[0].layer if fs[0].layer in LAYER_COLORS else "other"
        name = escape(S._row_name(row))
        if kind == "fold":
            inner = "".join(f'<li value="{a + i}">{escape(f.short_name)} '
                            f'<span class="os-loc">{escape(f.location)}</span></li>'
                            for i, f in enumerate(fs))
            name = f'<details><summary>{name}</summary><ol>{inner}</ol></details>'
        else:
            name = f'<span title="{escape(fs[0].name[:600])}">{name}</span>'
        out.append(f'<tr class="os-row os-L-{layer}"><td class="os-idx os-num">'
                   f'{S._row_index(row)}</td><td>{name}</td>'
                   f'<td class="os-loc">{escape(S._row_location(row))}</td>'
                   f'<td><span class="os-badge os-L-{layer}">{escape(fs[0].layer)}</span></td>'
                   f'</tr>')
        if b in marks and row is not rows[-1]:
            out.append(f'<tr class="os-cross"><td></td><td colspan="3">── {escape(marks[b])}'
                       f'</td></tr>')
    out.append("</tbody></table></div>")
    layers = list(dict.fromkeys(f.layer for f in frames))
    out.append(_swatches(layers))
    return "".join(out)


def stack_html(stack, full=False, classes=""):
    """The Stack as a self-contained HTML view (``s._repr_html_()``)."""
    n = len(stack)
    python = sum(f.is_python for f in stack)
    title = (f'<div class="os-title"><b>call stack</b> · {n} frames ({python} Python, '
             f'{n - python} C++), innermost first</div>')
    return view(title + stack_table(stack, full), classes)


# --- the profile ---------------------------------------------------------------------------------

def _us(us):
    return V.duration_str(int(round(us * 1000)))


def _pct_cell(value, total):
    pct = 100.0 * value / total if total else 0.0
    return (f'<td class="os-num os-pct"><i style="width:{min(pct, 100):.1f}%"></i>'
            f'{pct:.2f}%</td>')


def key_averages_html(rows, sort_by="cpu_time_total", row_limit=100, show_shapes=None,
                      show_memory=None, title="profile", classes=""):
    """A key_averages() table as a self-contained HTML view. `rows`: objects with torch's
    FunctionEventAvg attributes (key, count, cpu_time_total, self_cpu_time_total, cpu_time —
    all times in µs —, cpu_memory_usage, self_cpu_memory_usage, input_shapes). Sorted by
    `sort_by` (descending), at most `row_limit` rows; the shapes and memory columns appear when
    some row has them, unless told."""
    rows = list(rows)
    total_self = sum(r.self_cpu_time_total for r in rows)
    total_cpu = max([r.cpu_time_total for r in rows] + [0])
    if show_shapes is None:
        show_shapes = any(getattr(r, "input_shapes", None) for r in rows)
    if show_memory is None:
        show_memory = any(getattr(r, "cpu_memory_usage", 0) or
                          getattr(r, "self_cpu_memory_usage", 0) for r in rows)
    if sort_by:
        rows.sort(key=lambda r: getattr(r, sort_by), reverse=True)
    shown = rows[:row_limit] if row_limit and row_limit > 0 else rows
    heads = ["Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg"]
    if show_memory:
        heads += ["CPU Mem", "Self CPU Mem"]
    heads.append("# of Calls")
    if show_shapes:
        heads.append("Input Shapes")
    out = ['<div class="os-scroll"><table class="os-prof"><thead><tr>']
    for h in heads:
        cls = "" if h in ("Name", "Input Shapes") else ' class="os-num"'
        sort_mark = " ▾" if sort_by and _SORT_HEAD.get(sort_by) == h else ""
        out.append(f"<th{cls}>{h}{sort_mark}</th>")
    out.append("</tr></thead><tbody>")
    for r in shown:
        out.append(f'<tr><td class="os-op os-name">{escape(str(r.key))}</td>')
        out.append(_pct_cell(r.self_cpu_time_total, total_self))
        out.append(f'<td class="os-num">{_us(r.self_cpu_time_total)}</td>')
        out.append(_pct_cell(r.cpu_time_total, total_self or total_cpu))
        out.append(f'<td class="os-num">{_us(r.cpu_time_total)}</td>'
                   f'<td class="os-num">{_us(r.cpu_time)}</td>')
        if show_memory:
            out.append(f'<td class="os-num">{V.bytes_str(r.cpu_memory_usage)}</td>'
                       f'<td class="os-num">{V.bytes_str(r.self_cpu_memory_usage)}</td>')
        out.append(f'<td class="os-num">{r.count}</td>')
        if show_shapes:
            out.append(f'<td>{escape(str(getattr(r, "input_shapes", "") or ""))}</td>')
        out.append("</tr>")
    out.append("</tbody></table></div>")
    more = f" · {len(rows) - len(shown)} more rows not shown" if len(shown) < len(rows) else ""
    out.append(f'<div class="os-legend">Self CPU time total: {_us(total_self)}{more}</div>')
    head = f'<div class="os-title"><b>{escape(title)}</b> · {len(rows)} keys</div>'
    return view(head + "".join(out), classes)


_SORT_HEAD = {"self_cpu_time_total": "Self CPU", "cpu_time_total": "CPU total",
              "cpu_time": "CPU time avg", "count": "# of Calls",
              "cpu_memory_usage": "CPU Mem", "self_cpu_memory_usage": "Self CPU Mem"}
