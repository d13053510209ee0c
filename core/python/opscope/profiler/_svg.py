"""A trace over time, as SVG: the timeline (ops per thread as nested bars) and memory
(the allocator's total bytes as a step line), on one time axis so they line up.

Timeline: one lane per thread, one row per nesting depth; a bar per op, backward node run and
record_function scope, coloured by kind (forward op, backward node, op inside a backward node,
scope), labelled where the label fits. Bars narrower than MERGE_PX next to each other in a row
are drawn as one bar (labelled "add ×300" when they are calls of one op), so a 10,000-op loop
stays a few hundred elements.

Each chart is a standalone SVG document with its own colours (mid greys for text and grid, light
fills with dark labels: readable on light and dark pages), because the HTML views show it as an
<img> (``img()``): a front end's sanitizer removes inline <svg> from an untrusted notebook but
keeps images (see Note [Views without their style sheet] in _css.py). An image shows no
tooltips, so bars carry none; the tree beside the chart names every call.
"""
import re
from html import escape

from opscope.profiler import _views as V

__all__ = ["timeline_svg", "memory_svg", "img", "BAR_FILLS"]

_TEXT = "#777"    # axis labels and lane names: mid grey reads on light and dark
_GRID = "#8888884d"
_FONT = "DejaVu Sans Mono,Menlo,Consolas,monospace"

MERGE_PX = 2.0      # bars narrower than this may merge with their neighbours
ROW = 18            # height of a nesting level
BAR = 15            # height of a bar
GUTTER = 74         # left margin for the lanes' names
AXIS = 22           # height of the time axis
MEMORY_LANE = 60    # height of the memory lane below a timeline

BAR_FILLS = {       # kind -> (class, fill, legend)
    "op": ("os-op", "#8db8f2", "forward op"),
    "node": ("os-node-run", "#f2a65a", "backward node"),
    "backward": ("os-bwd-op", "#f9d29b", "op in backward"),
    "scope": ("os-scope-bar", "#c5b3e6", "record_function"),
    "cluster": ("os-cluster", "#b9c2cc", "many short calls"),
}


def _nice_step(span, target=8):
    """A 1-2-5 step giving about `target` ticks over `span`."""
    if span <= 0:
        return 1
    raw = span / target
    mag = 10 ** (len(str(int(raw))) - 1) if raw >= 1 else 1
    for m in (1, 2, 5, 10):
        if raw <= m * mag:
            return m * mag
    return 10 * mag


def _time_label(ns, unit):
    scale, name = unit
    return f"{ns / scale:g} {name}" if ns else "0"


def _unit(step):
    """The unit the axis labels use, for ticks `step` ns apart: 0.5 ms rather than 500 µs."""
    if step >= 100_000_000:
        return (1_000_000_000, "s")
    if step >= 100_000:
        return (1_000_000, "ms")
    if step >= 100:
        return (1_000, "µs")
    return (1, "ns")


class _Scale:
    """Time (ns) to x (px) across the plotting width."""

    def __init__(self, t0, t1, width):
        self.t0, self.t1 = t0, max(t1, t0 + 1)
        self.x0, self.x1 = GUTTER, width - 14
        self.k = (self.x1 - self.x0) / (self.t1 - self.t0)

    def x(self, t):
        return self.x0 + (t - self.t0) * self.k


def _axis(scale, top, bottom, out):
    """Tick labels above `top` and grid lines from `top` to `bottom`."""
    span = scale.t1 - scale.t0
    step = _nice_step(span)
    unit = _unit(step)
    labels = []
    out.append(f'<g stroke="{_GRID}" stroke-width="1">')
    t = 0
    while t <= span:
        x = scale.x(scale.t0 + t)
        out.append(f'<path d="M{x:.0f} {top}V{bottom}"/>')
        labels.append(f'<text x="{x:.0f}" y="{top - 6}">{_time_label(t, unit)}</text>')
        t += step
    out.append('</g><g text-anchor="middle">' + "".join(labels) + "</g>")


def _bar_kind(bar):
    if bar.kind == "backward" and V.kind(bar.item) == "backward":
        return "node"
    return bar.kind


def _rows(bars, scale):
    """{(thread, depth): [(x, w, kind, [bars])]}: drawable rectangles, tiny neighbours merged."""
    rows = {}
    for b in bars:
        x, w = scale.x(b.start_ns), (b.end_ns - b.start_ns) * scale.k
        row = rows.setdefault((b.thread, b.depth), [])
        if w < MERGE_PX and row:
            px, pw, pk, members = row[-1]
            if len(members) > 1 or pw < MERGE_PX:
                if x - (px + pw) < MERGE_PX:
                    members.append(b)
                    row[-1] = (px, max(pw, x + w - px), pk, members)
                    continue
        row.append((x, w, _bar_kind(b), [b]))
    return rows


def _svg_open(cls, width, height, title):
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="{cls}" width="{width}" '
            f'height="{height}" viewBox="0 0 {width} {height}" font-family="{_FONT}" '
            f'font-size="11" fill="{_TEXT}"><title>{escape(title)}</title>')


def timeline_svg(trace, width=960, memory=False):
    """The trace's timeline as a standalone SVG document (a string); "" when nothing was
    recorded. `memory`: with the allocator's bytes in a lane below the threads, on the same
    axis (one image for the views: see Note [Output size] in _html.py)."""
    bars = V.bars(trace)
    if not bars:
        return ""
    t0, t1 = V.time_span(trace)
    scale = _Scale(t0, t1, width)
    threads = list(dict.fromkeys(b.thread for b in bars))
    depth = {}
    for b in bars:
        depth[b.thread] = max(depth.get(b.thread, 0), b.depth)
    rows = _rows(bars, scale)

    lanes_top = AXIS + 4
    lane_y, y = {}, lanes_top
    for th in threads:
        lane_y[th] = y
        y += (depth[th] + 1) * ROW + 8
    memory = memory and bool(getattr(trace, "memory_events", None))
    lanes_bottom = y
    if memory:
        y += MEMORY_LANE + 8
    legend_y = y + 4
    height = legend_y + 18

    title = (f"timeline: {len(bars)} calls on {len(threads)} thread(s), "
             f"{V.duration_str(t1 - t0)}")
    out = []
    _axis(scale, AXIS, y - 4, out)
    if memory:
        title += "; " + _memory_lane(trace, scale, lanes_bottom + 4, y - 8, out)
    out.insert(0, _svg_open("os-timeline", width, height, title))
    out.append('<g font-weight="bold">' + "".join(
        f'<text x="6" y="{lane_y[th] + 12}">thread {th}</text>' for th in threads) + "</g>")
    rects, labels = {}, []
    for (th, d), drawn in rows.items():
        ry = lane_y[th] + d * ROW
        for x, w, k, members in drawn:
            if len(members) > 1:
                kinds = {_bar_kind(b) for b in members}
                k = kinds.pop() if len(kinds) == 1 else "cluster"
                names = {V.item_label(b.item) for b in members}
                label = f"{names.pop()} ×{len(members)}" if len(names) == 1 else ""
            else:
                label = V.item_label(members[0].item)
            w = max(w, 1.0)
            rects.setdefault(k, []).append(f"M{x:.1f} {ry}h{w:.1f}v{BAR}h{-w:.1f}z")
            if label and w >= len(label) * 6.7 + 6:
                labels.append(f'<text x="{x + 3:.1f}" y="{ry + 11}">{escape(label)}</text>')
    for k, drawn in rects.items():  # one path per kind: a bar is 20 bytes
        cls, fill, _ = BAR_FILLS[k]
        out.append(f'<path class="os-bar {cls}" fill="{fill}" stroke="#0003" '
                   f'stroke-width="0.5" d="{"".join(drawn)}"/>')
    if labels:
        out.append('<g fill="#111111">' + "".join(labels) + "</g>")
    x = GUTTER
    present = {_bar_kind(b) for b in bars}
    for k in [k for k in ("op", "node", "backward", "scope") if k in present]:
        _, fill, text = BAR_FILLS[k]
        out.append(f'<rect x="{x}" y="{legend_y + 3}" width="12" height="10" fill="{fill}" '
                   f'stroke="#0003"/><text x="{x + 16}" y="{legend_y + 12}">{text}</text>')
        x += 16 + len(text) * 7 + 18
    out.append("</svg>")
    return "".join(out)


def img(svg, alt):
    """An SVG document as an <img> with a data URI: what survives a notebook's sanitizer (see
    Note [Views without their style sheet] in _css.py). `alt` says what the chart shows, for
    when the image is not drawn (the document's own <title> goes: an image shows none). The
    document goes in as it is, but for what a URI or an
    attribute cannot hold: % and # percent-encoded, & as an entity, " as ' (a third of the
    size of base64, which would also hide it from the notebook's diffs)."""
    data = re.sub(r"<title>.*?</title>", "", svg, count=1)
    data = (data.replace('"', "'").replace("%", "%25").replace("#", "%23").replace("\n", " ")
            .replace("&", "&amp;"))
    return f'<img src="data:image/svg+xml,{data}" alt="{escape(alt)}">'


def _memory_points(events, scale):
    """(x, total bytes) steps, at most about two per pixel column: the column's highest total
    and its last."""
    points, column, high, last = [], None, 0, 0
    for e in events:
        x = round(scale.x(e.t_ns))
        if x != column:
            if column is not None:
                points.append((column, high))
                if last != high:
                    points.append((column, last))
            column, high = x, e.total_bytes
        high = max(high, e.total_bytes)
        last = e.total_bytes
    if column is not None:
        points.append((column, high))
        if last != high:
            points.append((column, last))
    return points


def _memory_lane(trace, scale, top, bottom, out):
    """The allocator's total bytes as a step line between `top` and `bottom`, with the lane's
    name and its 0 / peak labels; returns the lane's one-line description."""
    events = trace.memory_events
    t0 = scale.t0
    peak_event = max(events, key=lambda e: e.total_bytes)
    peak = max(peak_event.total_bytes, 1)

    def y(b):
        return bottom - (bottom - top) * b / peak

    start = events[0].total_bytes - (events[0].bytes if events[0].kind == "alloc"
                                     else -events[0].bytes)
    pts = _memory_points(events, scale)
    d = [f"M{scale.x0:.1f},{y(max(start, 0)):.1f}"]
    for x, b in pts:
        d.append(f"H{x}V{y(b):.1f}")
    d.append(f"H{scale.x1:.1f}")
    line = "".join(d)
    for b in (0, peak_event.total_bytes):
        out.append(f'<text x="{GUTTER - 6}" y="{y(b) + 4:.1f}" '
                   f'text-anchor="end">{V.bytes_str(b)}</text>')
    out.append(f'<path d="{line}V{bottom}H{scale.x0:.1f}Z" fill="#0969da" fill-opacity="0.15"/>')
    out.append(f'<path class="os-memline" d="{line}" fill="none" stroke="#0969da" '
               f'stroke-width="1.5"/>')
    px = scale.x(peak_event.t_ns)
    out.append(f'<circle cx="{px:.1f}" cy="{y(peak_event.total_bytes):.1f}" r="3" '
               f'fill="#cf222e"/>')
    out.append(f'<text x="6" y="{(top + bottom) / 2 - 8:.0f}" font-weight="bold">memory'
               f'</text>')
    allocs = sum(e.kind == "alloc" for e in events)
    return (f"memory: peak {V.bytes_str(peak_event.total_bytes)} at "
            f"{V.duration_str(peak_event.t_ns - t0)}; {allocs} allocations, "
            f"{len(events) - allocs} frees")


def memory_svg(trace, width=960, height=120):
    """The allocator's total bytes over the trace's time, as a standalone SVG document (a step
    line); "" when the trace has no memory events."""
    events = getattr(trace, "memory_events", None) or []
    if not events:
        return ""
    t0, t1 = V.time_span(trace)
    scale = _Scale(t0, t1, width)
    out = []
    _axis(scale, AXIS, height - 8, out)
    title = _memory_lane(trace, scale, AXIS + 6, height - 8, out)
    return _svg_open("os-memory", width, height, title) + "".join(out) + "</svg>"
