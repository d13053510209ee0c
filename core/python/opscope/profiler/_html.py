"""HTML views for notebooks: self-contained (a small inline style sheet from _css.py, charts as
<img> of SVG documents from _svg.py, each with its text for pages whose sanitizer drops it: see
Note [Charts that survive sanitizing]), no JavaScript, no network; folding with <details>. They
say what the text views say (_views_text.py, _stack.py) and read the data through the same
helpers (_views.py).

    trace_html(t)            the dispatch tree: one folded line per top-level item (the summary
                             str(t) prints), unfolding to every step, key set, kernel, nested op,
                             autograd node; then the timeline and memory, folded
    stack_html(s)            a Stack as a table, layers coloured, language crossings marked, the
                             front end's frames folded into one row
    key_averages_html(rows)  a profile table from key_averages() rows
    text_html(text)          a text view (t.tree(), s.table()) as a <pre>
    page(title, html)        a whole document around views, for files

Every view reads without its style sheet: see Note [Views without their style sheet] in
_css.py. Tags carry the meaning the sheet colours: <b> the chosen key, <s> a key left out,
<em> a key this op falls through, <i> a step's label, <code> a kernel, <small> where it was
registered.

Note [Output size]: a view is saved in the notebook with every run (a lecture notebook must
stay small enough for git and course upload limits: 30 KiB for one traced training step, 100
KiB for any view), so a view says each thing once: a step whose kernel and keys were drawn above
is its label and "= same as above"; a call whose body repeats one drawn above (the same ops,
kernels and keys, other shapes) is one line naming it; the style sheet is small; charts are one
image; at most STACK_TABLES call stacks are drawn as tables. Past OUTPUT_BUDGET bytes of trees,
the remaining top-level calls keep their summary lines only, with a line saying how to see
them. The trace's JSON goes into the mime bundle only when asked for (include=[TRACE_MIME]);
t.save(path) writes it.
"""
import json
from html import escape

from opscope.profiler import _chart_text, _svg
from opscope.profiler import _views as V
from opscope.profiler._css import CSS, LAYER_COLORS
from opscope.profiler._trace import OpRecord, gc_paused

__all__ = ["view", "page", "trace_html", "trace_bundle", "trace_json", "stack_html",
           "stack_table", "key_averages_html", "key_averages_body", "text_html", "bundle",
           "with_fallback", "timeline_chart", "TRACE_MIME", "OUTPUT_BUDGET"]

TRACE_MIME = "application/vnd.opscope.trace+json"

# A grouped trace (a loop) shows this many distinct paths with the first call's tree, and lists
# up to LISTED_GROUPS in all.
FULL_GROUPS = 8
LISTED_GROUPS = 40

# A trace of more recorded events than this goes into a mime bundle as a summary (trace_json).
JSON_EMBED_EVENTS = 5000

# Bytes of dispatch trees one trace view may hold, and how many call stacks it draws as tables
# (see Note [Output size]).
OUTPUT_BUDGET = 60 * 1024
STACK_TABLES = 2

# A key's mark (see Note [Key marks] in _views.py): the tag says it without the style sheet.
_MARK_HTML = {"chosen": "<b>{}</b>", "fallthrough": "<em>{}↓</em>", "excluded": "<s>{}</s>",
              "below": "{}"}


# Note [Charts that survive sanitizing]: every front end shows a view's text/html, trusted or
# not (classic Notebook and nbconvert rank it above image/svg+xml and image/png; JupyterLab
# picks the first *safe* renderer for an untrusted output, and its HTML renderer is the safe
# one: it sanitizes), so another mime type in the bundle would never be shown: the HTML itself
# must degrade. Two sanitizers treat it differently:
#   - classic Notebook and JupyterLab (sanitize-html) drop <style> and keep <img> of SVG data
#     URIs, <details open> and the `hidden` attribute;
#   - nbconvert's --sanitize-html (nbviewer, notebooks/render.py; lxml's Cleaner) keeps <style>
#     but empties an SVG image's src (an SVG may hold script) and drops every attribute not on
#     its list: `open` (a fold that starts open is shut) and `hidden`.
# So each chart comes with its text (the graph's tree, the timeline as text lines: _chart_text)
# in a <pre hidden> placed first in an .os-chart block: where `hidden` stays, the picture
# shows; where lxml removed it, the text shows and the rule below hides what follows it (the
# emptied image, the legend of its colours, a fold that would hold the same) — a rule that
# only lxml's output reaches, as only there does the style sheet outlive `hidden`. A fold that
# starts open holds its chart with the text outside it, so nbconvert's shut fold hides nothing.
_SANITIZED_CSS = ".opscope .os-alt:not([hidden])~*{display:none}"


def view(body, classes=""):
    """`body` in a themed, self-contained block (its own style sheet)."""
    extra = f" {classes}" if classes else ""
    return f'<div class="opscope{extra}"><style>{CSS}{_SANITIZED_CSS}</style>{body}</div>'


def with_fallback(text, rich):
    """`rich` (a chart, its legend, a fold) after `text` hidden: the text shows instead where a
    sanitizer drops the chart (see Note [Charts that survive sanitizing])."""
    return (f'<div class="os-chart"><pre class="os-text os-alt" hidden>{escape(text)}</pre>'
            f'{rich}</div>')


def timeline_chart(trace, name, svg, opened=False):
    """The timeline's chart in a fold named `name`, with its text for sanitized pages."""
    alt = _alt(svg)
    text = _chart_text.timeline_text(trace, alt)
    image = _svg.img(svg, alt)
    if opened:  # nbconvert's sanitizer shuts it: the text stays outside
        return with_fallback(text, _fold(name, image, "os-section", True))
    return _fold(name, with_fallback(text, image), "os-section")


def page(title, body, dark=None):
    """A whole HTML document around `body` (views), for files and screenshots. `dark`: None
    follows the view's own rule (light unless the page says dark), True / False mark the page
    as VS Code does (body.vscode-dark / vscode-light)."""
    light_css = "background: #ffffff; color: #1f2328;"
    dark_css = "background: #0d1117; color: #e6edf3;"
    colors = f"body {{ {dark_css if dark else light_css} }}"
    theme = "" if dark is None else f' class="{"vscode-dark" if dark else "vscode-light"}"'
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


def _fold(summary, body, cls, opened=False):
    """A <details> whose summary starts with our own fold mark (see _css.py: front ends hide or
    restyle the native one); list-style:none keeps JupyterLab's native mark away when the style
    sheet is stripped and the attribute is not."""
    return (f'<details class="{cls}"{" open" if opened else ""}><summary style="list-style:none">'
            f'<span class="os-tri">▸</span> {summary}</summary>{body}</details>')


# --- the dispatch tree ----------------------------------------------------------------------------

def _time(ns, prefix=""):
    """The duration, last in a line as in str(t)."""
    return f" · <time>{prefix}{_nb(V.duration_str(ns))}</time>"


def _nb(text):
    """A duration or size that never breaks across lines ("7.5 µs")."""
    return text.replace(" ", "\u00a0")


def _memory(op):
    n = getattr(op, "memory_bytes", None)
    if not n:
        return ""
    return f' <small>{"+" if n > 0 else ""}{_nb(V.bytes_str(n))}</small>'


def _threw(op):
    return f' · <span class="os-threw">{escape(op.threw_str())}</span>'


def _root_summary(item, timed=True):
    """The root's one line, as str(t) has it: signature → dispatch path · nodes · time (and
    bytes). Untimed, for a group's line, it leaves out what differs between calls."""
    time = _time(item.duration_ns) if timed else ""
    k = V.kind(item)
    if k == "op":
        sig = escape(item.signature())
        parts = [f'<span class="os-threw">{sig}</span>' if item.threw else
                 f"<strong>{sig}</strong>"]
        path = item.path()
        if path:
            parts.append(" <small>→ " + escape(" → ".join(path)) + "</small>")
        nodes = item.summary_nodes()
        if nodes:
            parts.append(f' · <span class="os-node">{escape(", ".join(nodes))}</span>')
        if item.threw:
            parts.append(_threw(item))
        return "".join(parts) + (_memory(item) if timed else "") + time + _one_off(item)
    return _header(item) + time


def _one_off(item):
    """A mark on the call during which OpenBLAS was loaded (Note [OpenBLAS's one-off load])."""
    if not V.loads_blas(item):
        return ""
    return f' <span class="os-muted">· {escape(V.BLAS_ONE_OFF)}</span>'


def _header(item):
    k = V.kind(item)
    if k == "op":
        cls = "os-threw" if item.threw else "os-op"
        return f'<span class="{cls}">{escape(V.op_title(item))}</span>{_memory(item)}'
    ops = sum(1 for c in item.walk() if isinstance(c, OpRecord))
    if k == "backward":
        return (f'◀ backward {escape(item.name)}{V.sequence_str(item.sequence_nr)} '
                f'<small>· {ops} ops</small>')
    if k == "pass":
        return f"◀ {escape(item.summary(timed=False))}"
    if getattr(item, "crossing", False):  # C++ called Python (core/python/crossing.h)
        return f"⇢ {escape(item.name)} <small>· {ops} ops</small>"
    return f"▣ record_function {escape(item.name)} <small>· {ops} ops</small>"


def _steps(op, out, ctx):
    """Each step: <li>, its call mark, <i>label</i>, provenance, <code>kernel</code>, <small>
    site</small>, and its keys in a <div> (see _MARK_HTML). A step the view has drawn already
    (the same kernel and keys, for another op) is its label and a ditto mark (see Note [Output
    size])."""
    base = V.op_base_keys(op)
    drawn, dittos = [], []
    for step in op.steps:
        call, provenance, kernel, registered, site = V.kernel_parts(step)
        marks = V.key_marks(op, step, base)
        head = f"{V.CALL_MARK[call]} <i>{escape(step.label)}</i>"
        key = (provenance, kernel, site, tuple((k, m) for k, m, _ in marks))
        if key in ctx.seen_steps:
            drawn.append(None)
            dittos.append(head)
            continue
        ctx.seen_steps.add(key)
        drawn.append(f"<li>{head} → {escape(provenance)}"
                     + (f" ({escape(registered)})" if registered else "")
                     + f" <code>{escape(_kernel_name(kernel))}</code>"
                     + (f" <small>{escape(site)}</small>" if site else "")
                     + "<div>keys " + " ".join(_MARK_HTML[mark].format(escape(key))
                                               for key, mark, _ in marks)
                     + "</div></li>")
    if all(d is None for d in drawn):  # every step as above: one line says so
        out.append(f"<li>{' '.join(dittos)} <small>= same as above</small></li>")
        return
    n = 0
    for d in drawn:
        if d is None:
            out.append(f"<li>{dittos[n]} <small>= same as above</small></li>")
            n += 1
        else:
            out.append(d)


def _kernel_name(name):
    """A kernel's name without the opscope:: every one of ours starts with."""
    return name[9:] if name.startswith("opscope::") else name


class _Context:
    """What drawing one view carries along: whether folds start open, and the bodies drawn so
    far (see Note [Output size]: a body drawn before is named, not drawn again)."""

    def __init__(self, open_all):
        self.open_all = open_all
        self.seen = {}
        self.seen_steps = set()
        self.told_leaf = False
        self.stacks = 0


def _shape_free(item):
    """What an item's body shows, but for shapes and times: its ops' names, each step's
    kernel and keys, the nodes created, recursively. Two calls with the same one (t() of
    two weights) unfold to the same story."""
    steps = tuple((s.op, s.call, s.kernel, s.key, tuple(s.key_set)) for s in item.steps) \
        if isinstance(item, OpRecord) else ()
    nodes = tuple(n.name for n in item.nodes_created) if isinstance(item, OpRecord) else ()
    return (item.name, steps, nodes, tuple(_shape_free(c) for c in item.children))


def _drawn_before(item, ctx):
    """The signature of the call whose body this item's would repeat (see _body), or None;
    remembers this item's otherwise."""
    if not isinstance(item, OpRecord) or getattr(item, "stack", None) is not None or not (
            item.children or len(item.steps) > 1):
        return None
    key = _shape_free(item)
    first = ctx.seen.get(key)
    if first is None:
        ctx.seen[key] = item.signature()
    return first


def _body(item, out, ctx, checked=False):
    """What is inside an item, as a list: its steps, nodes, stack, then its children. A body
    the view has drawn already for another call (the same ops, kernels and keys, other
    shapes: see _shape_free) is one line naming that call."""
    first = None if checked else _drawn_before(item, ctx)
    if first is not None:
        out.append(f'<ul><li class="os-muted">the same calls as {escape(first)} above</li>'
                   f'</ul>')
        return
    out.append("<ul>")
    if isinstance(item, OpRecord):
        _steps(item, out, ctx)
        for node in item.nodes_created:
            line = V.node_line(node)
            if node.name == "AccumulateGrad":  # what it is, said once
                line = line if not ctx.told_leaf else node.name
                ctx.told_leaf = True
            out.append(f'<li class="os-node">+ autograd node {escape(line)}</li>')
        stack = getattr(item, "stack", None)
        if stack is not None and not any(getattr(c, "stack", None) is stack
                                         for c in item.children):  # else a child shows it
            where = getattr(item, "blas_routine", None) or "the kernel"
            title = f"call stack at {escape(where)} · {len(stack)} frames"
            if ctx.stacks < STACK_TABLES:
                ctx.stacks += 1
                out.append("<li>" + _fold(title, stack_table(stack), "os-section",
                                          ctx.open_all) + "</li>")
            else:  # a stack table is 20 KiB: the first ones only (Note [Output size])
                out.append(f'<li class="os-muted">{title}: t.stack("{escape(item.name)}") '
                           f'shows it</li>')
    for child in item.children:
        out.append("<li>")
        _item(child, out, ctx)
        out.append("</li>")
    out.append("</ul>")


def _item(item, out, ctx):
    """A nested item: its header line (its time last), then its body (open: unfolding a root
    shows it all)."""
    k = V.kind(item)
    if k == "op":  # the style sheet colours the line: no inner spans (Note [Output size])
        n = getattr(item, "memory_bytes", None)
        mem = f' <small>{"+" if n > 0 else ""}{V.bytes_str(n)}</small>' if n else ""
        threw = f" · {escape(item.threw_str())}" if item.threw else ""
        first = _drawn_before(item, ctx)
        same = f" · <small>same calls as {escape(first)} above</small>" if first else ""
        attr = ' class="os-threw"' if item.threw else ""  # else li>div:first-child is styled
        out.append(f'<div{attr}>{escape(V.op_title(item))}{mem}{threw} · '
                   f'{_nb(V.duration_str(item.duration_ns))}{same}</div>')
        if first:
            return
    else:
        out.append(f'<div class="os-k-{k}">{_header(item)} · '
                   f'{_nb(V.duration_str(item.duration_ns))}</div>')
    _body(item, out, ctx, checked=True)


def _root(item, out, ctx, summary):
    inner = []
    _body(item, inner, ctx)
    kind = V.kind(item)
    cls = "os-root" if kind == "op" else f"os-root os-k-{kind}"
    out.append(_fold(summary, "".join(inner), cls, ctx.open_all))


def _legend():
    """The marks' words, as the text tree's legend says them (Note [One legend])."""
    glyphs = {"call": V.CALL_MARK["call"], "redispatch": V.CALL_MARK["redispatch"],
              "node": '<span class="os-node">+</span>', "backward": '<span class="os-bwd">◀</span>'}
    parts = []
    for what, words in V.LEGEND:
        mark = glyphs.get(what) or _MARK_HTML[what].format("K")
        parts.append(f"{mark} {words}")
    return f'<div class="os-legend">{" · ".join(parts)}</div>'


def trace_body(trace, open_all=False, width=960, budget=None):
    """The trace view's content (without the style sheet): see the module's docstring."""
    if budget is None:
        budget = OUTPUT_BUDGET
    first, last = V.time_span(trace)
    items = V.top_level(trace)
    out = [f'<div class="os-title"><b>opscope trace</b> · {len(trace.ops)} ops · '
           f'{len(items)} top-level · {V.duration_str(last - first)}</div>']
    groups = V.root_groups(trace)
    grouped = bool(groups) and groups[0].key is not None
    if grouped:
        paths = "1 distinct dispatch path" if len(groups) == 1 else \
            f"{len(groups)} distinct dispatch paths"
        out.append(f'<div class="os-muted">{len(items)} top-level calls, {paths}; each folds '
                   f'open to its first call</div>')
    used, left_out, ctx = 0, 0, _Context(open_all)
    for n, g in enumerate(groups):
        if grouped and n >= LISTED_GROUPS:
            out.append(f'<div class="os-muted">… {len(groups) - n} more distinct paths</div>')
            break
        single = not grouped or g.count == 1
        summary = _root_summary(g.first) if single else (
            f'<span class="os-count">×{g.count}</span> {_root_summary(g.first, False)}'
            f'{_time(g.total_ns, "total ")}')
        if used > budget or (not single and n >= FULL_GROUPS):
            out.append(f'<div class="os-root os-line">{summary}</div>')
            left_out += used > budget
            continue
        start = len(out)
        if single:
            _root(g.first, out, ctx, summary)
        else:
            inner = ['<ul><li class="os-muted">first call:</li><li>']
            _item(g.first, inner, ctx)
            inner.append("</li></ul>")
            out.append(_fold(summary, "".join(inner), "os-root os-group", open_all))
        used += sum(len(s) for s in out[start:])
    if left_out:
        out.append(f'<div class="os-muted">the trees of {left_out} more calls are left out to '
                   f'keep this output small: print(t.tree()) shows them all</div>')
    chart = _svg.timeline_svg(trace, width, memory=True)
    if chart:
        name = "timeline and memory" if getattr(trace, "memory_events", None) else "timeline"
        out.append(timeline_chart(trace, name, chart, open_all))
    out.append(_legend())
    return "".join(out)


def _alt(svg):
    """An SVG's <title>, for its image's alt text."""
    start = svg.find("<title>")
    return svg[start + 7:svg.index("</title>")] if start >= 0 else ""


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
    """The trace's mime bundle: text/plain (str(t)) and text/html; the trace's JSON only when
    `include` names TRACE_MIME (see Note [Output size])."""
    data = {"text/plain": lambda: str(trace), "text/html": lambda: trace_html(trace)}
    if include and TRACE_MIME in include:
        data[TRACE_MIME] = lambda: trace_json(trace)
    with gc_paused():
        return bundle(data, include, exclude)


# --- the call stack -------------------------------------------------------------------------------

def _swatches(layers):
    badges = " · ".join(f'<span class="os-L-{lay}" style="border-left:4px solid '
                        f'{LAYER_COLORS.get(lay, LAYER_COLORS["other"])};padding-left:3px">'
                        f'{lay}</span>' for lay in layers)
    return f'<div class="os-legend">layers: {badges}</div>'


# Cells that must read left-aligned even where the style sheet is stripped and the front end's
# own rule (td {text-align:right}) applies: the cell's content in a <div align="left">, an
# attribute both sanitizers keep (classic Notebook strips every style attribute), which the
# front end's rule for td does not reach.
def _left(content):
    return f'<div align="left">{content}</div>'


def _breakable(text):
    """Escaped text that a narrow cell breaks after "/" and "::" rather than inside a name."""
    return escape(text).replace("/", "/<wbr>").replace("::", "::<wbr>")


def stack_table(stack, full=False):
    """A Stack as a table (#, frame, file:line, layer) with the text table's folds and crossing
    lines (_stack.py's rows), and the legend of its layers. It fits the width it is given: names
    and paths wrap rather than widen the table."""
    from opscope.profiler import _stack as S
    frames = stack.frames
    rows = S.table_rows(frames, full)
    marks = S.crossings(frames, getattr(stack, "python_crossings", ()))
    out = ['<table class="os-stack"><thead><tr><th class="os-num">#</th>'
           f'<th>{_left("frame")}</th><th>{_left("file:line")}</th><th>{_left("layer")}</th>'
           '</tr></thead>'
           '<tbody>']
    for row in rows:
        kind, a, b, fs = row
        layer = S.row_layer(row)
        css_layer = layer if layer in LAYER_COLORS else "other"
        name = _breakable(S.row_name(row))
        if kind != "frame":
            inner = "".join(f'<li value="{a + i}">{escape(S.display_name(f))} '
                            f'<small class="os-loc">{escape(S.frame_location(f))}</small></li>'
                            for i, f in enumerate(fs))
            name = (f'<details><summary style="list-style:none"><span class="os-tri">▸</span> '
                    f'{name}</summary><ol>{inner}</ol></details>')
        color = LAYER_COLORS[css_layer]
        out.append(f'<tr class="os-row os-L-{css_layer}" style="background:{color}1f">'
                   f'<td class="os-num" style="border-left:4px solid {color}">'
                   f'{S.row_index(row)}</td><td>{_left(name)}</td>'
                   f'<td class="os-loc">{_left(_breakable(S.row_location(row)))}</td>'
                   f'<td class="os-lay">{_left(escape(layer))}</td></tr>')
        if b in marks and row is not rows[-1]:
            out.append(f'<tr class="os-cross"><td class="os-num"></td><td colspan="3">'
                       f'{_left("── " + escape(marks[b]))}</td></tr>')
    out.append("</tbody></table>")
    layers = list(dict.fromkeys(S.row_layer(r) for r in rows))
    out.append(_swatches(layers))
    return "".join(out)


def stack_html(stack, full=False, classes=""):
    """The Stack as a self-contained HTML view (``s._repr_html_()``)."""
    n = len(stack)
    python = sum(f.is_python for f in stack)
    title = (f'<div class="os-title"><b>call stack</b> · {n} frames ({python} Python, '
             f'{n - python} C++), innermost first</div>')
    return view(title + stack_table(stack, full), classes)


# --- text views -----------------------------------------------------------------------------------

def text_html(text, title=None, classes=""):
    """A text view (the tree, a stack table) as HTML: the text in a <pre>, which keeps its
    columns in every front end."""
    head = f'<div class="os-title"><b>{escape(title)}</b></div>' if title else ""
    return view(f'{head}<pre class="os-text">{escape(text)}</pre>', classes)


# --- the profile ---------------------------------------------------------------------------------

def _us(us):
    return V.duration_str(int(round(us * 1000)))


def _pct_cell(value, total):
    pct = 100.0 * value / total if total else 0.0
    return f'<td class="os-num">{pct:.2f}%</td>'


def key_averages_body(rows, sort_by="cpu_time_total", row_limit=100, show_shapes=None,
                      show_memory=None, title="profile"):
    """key_averages_html's content, without the style sheet."""
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
    # the device's time, when the profile timed a GPU (ProfilerActivity.CUDA), as the text table
    show_cuda = any(getattr(r, "self_cuda_time_total", 0) > 0 for r in rows)
    total_self_cuda = sum(getattr(r, "self_cuda_time_total", 0) for r in rows)
    heads = ["Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg"]
    if show_cuda:
        heads += ["Self CUDA", "Self CUDA %", "CUDA total", "CUDA time avg"]
    if show_memory:
        heads += ["CPU Mem", "Self CPU Mem"]
    heads.append("# of Calls")
    if show_shapes:
        heads.append("Input Shapes")
    out = ['<table class="os-prof"><thead><tr>']
    for h in heads:
        sort_mark = " ▾" if sort_by and _SORT_HEAD.get(sort_by) == h else ""
        if h in ("Name", "Input Shapes"):
            out.append(f"<th>{_left(h + sort_mark)}</th>")
        else:
            out.append(f'<th class="os-num">{h}{sort_mark}</th>')
    out.append("</tr></thead><tbody>")
    for r in shown:
        out.append(f'<tr><td class="os-op">{_left(escape(str(r.key)))}</td>')
        out.append(_pct_cell(r.self_cpu_time_total, total_self))
        out.append(f'<td class="os-num">{_us(r.self_cpu_time_total)}</td>')
        out.append(_pct_cell(r.cpu_time_total, total_self or total_cpu))
        out.append(f'<td class="os-num">{_us(r.cpu_time_total)}</td>'
                   f'<td class="os-num">{_us(r.cpu_time)}</td>')
        if show_cuda:
            out.append(f'<td class="os-num">{_us(r.self_cuda_time_total)}</td>')
            out.append(_pct_cell(r.self_cuda_time_total, total_self_cuda))
            out.append(f'<td class="os-num">{_us(r.cuda_time_total)}</td>'
                       f'<td class="os-num">{_us(r.cuda_time)}</td>')
        if show_memory:
            out.append(f'<td class="os-num">{V.bytes_str(r.cpu_memory_usage)}</td>'
                       f'<td class="os-num">{V.bytes_str(r.self_cpu_memory_usage)}</td>')
        out.append(f'<td class="os-num">{r.count}</td>')
        if show_shapes:
            out.append(f'<td>{_left(escape(str(getattr(r, "input_shapes", "") or "")))}</td>')
        out.append("</tr>")
    out.append("</tbody></table>")
    more = f" · {len(rows) - len(shown)} more rows not shown" if len(shown) < len(rows) else ""
    cuda_total = f" · Self CUDA time total: {_us(total_self_cuda)}" if show_cuda else ""
    out.append(f'<div class="os-legend">Self CPU time total: {_us(total_self)}{cuda_total}'
               f'{more}</div>')
    head = f'<div class="os-title"><b>{escape(title)}</b> · {len(rows)} keys</div>'
    return head + "".join(out)


def key_averages_html(rows, sort_by="cpu_time_total", row_limit=100, show_shapes=None,
                      show_memory=None, title="profile", classes=""):
    """A key_averages() table as a self-contained HTML view. `rows`: objects with torch's
    FunctionEventAvg attributes (key, count, cpu_time_total, self_cpu_time_total, cpu_time —
    all times in µs —, cpu_memory_usage, self_cpu_memory_usage, input_shapes; the CUDA times
    when present). Sorted by `sort_by` (descending), at most `row_limit` rows; the shapes and
    memory columns appear when some row has them, unless told, the CUDA columns when some row has
    device time."""
    return view(key_averages_body(rows, sort_by, row_limit, show_shapes, show_memory, title),
                classes)


_SORT_HEAD = {"self_cpu_time_total": "Self CPU", "cpu_time_total": "CPU total",
              "cpu_time": "CPU time avg", "count": "# of Calls",
              "self_cuda_time_total": "Self CUDA", "cuda_time_total": "CUDA total",
              "cuda_time": "CUDA time avg",
              "cpu_memory_usage": "CPU Mem", "self_cpu_memory_usage": "Self CPU Mem"}
