"""A trace over time, as inline SVG: the timeline (ops per thread as nested bars) and memory
(the allocator's total bytes as a step line), on one time axis so they line up.

Timeline: one lane per thread, one row per nesting depth; a bar per op, backward node run and
record_function scope, coloured by kind (forward op, backward node, op inside a backward node,
scope), labelled where the label fits, with a <title> tooltip (full name, shapes, duration).
Bars narrower than MERGE_PX next to each other in a row are drawn as one bar whose tooltip counts
them, so a 10,000-op loop stays a few hundred elements.

Only presentation attributes the themes do not change are inline (the bars' fills); text and
grid take their colours from the view's style sheet (_css.py).
"""
from collections import Counter
from html import escape

from opscope.profiler import _views as V

__all__ = ["timeline_svg", "memory_svg", "BAR_FILLS"]

MERGE_PX = 2.0      # bars narrower than this may merge with their neighbours
ROW = 18            # height of a nesting level
BAR = 15            # height of a bar
GUTTER = 74         # left margin for the lanes' names
AXIS = 22           # height of the time axis

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
    t = 0
    while t <= span:
        x = scale.x(scale.t0 + t)
        out.append(f'<line class="os-grid" x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{bottom}" '
                   f'stroke="#8884" stroke-width="1"/>')
        out.append(f'<text class="os-axis" x="{x:.1f}" y="{top - 6}" text-anchor="middle">'
                   f'{_time_label(t, unit)}</text>')
        t += step


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


def _cluster_title(members):
    names = Counter(V.item_label(b.item) for b in members)
    total = sum(b.end_ns - b.start_ns for b in members)
    parts = ", ".join(f"{n} ×{c}" for n, c in names.most_common(4))
    more = " …" if len(names) > 4 else ""
    return f"{len(members)} calls: {parts}{more} · {V.duration_str(total)} in all"


def timeline_svg(trace, width=960):
    """The trace's timeline as an <svg> element (a string); "" when nothing was recorded."""
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
    legend_y = y + 4
    height = legend_y + 18

    out = [f'<svg class="os-timeline" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="img">',
           f'<title>timeline: {len(bars)} calls on {len(threads)} thread(s), '
           f'{V.duration_str(t1 - t0)}</title>']
    _axis(scale, AXIS, y - 4, out)
    for th in threads:
        out.append(f'<text class="os-lane" x="6" y="{lane_y[th] + 12}">thread {th}</text>')
    for (th, d), rects in rows.items():
        ry = lane_y[th] + d * ROW
        for x, w, k, members in rects:
            if len(members) > 1:
                kinds = {_bar_kind(b) for b in members}
                k = kinds.pop() if len(kinds) == 1 else "cluster"
                names = {V.item_label(b.item) for b in members}
                label = f"{names.pop()} ×{len(members)}" if len(names) == 1 else ""
                title = _cluster_title(members)
            else:
                title, label = V.item_title(members[0].item), V.item_label(members[0].item)
            cls, fill, _ = BAR_FILLS[k]
            w = max(w, 1.0)
            out.append(f'<rect class="os-bar {cls}" x="{x:.2f}" y="{ry}" width="{w:.2f}" '
                       f'height="{BAR}" fill="{fill}" stroke="#0003" stroke-width="0.5">'
                       f'<title>{escape(title)}</title></rect>')
            if label and w >= len(label) * 6.7 + 6:
                out.append(f'<text class="os-bar-text" x="{x + 3:.2f}" y="{ry + 11}" '
                           f'fill="#111">{escape(label)}</text>')
    x = GUTTER
    present = {_bar_kind(b) for b in bars}
    for k in [k for k in ("op", "node", "backward", "scope") if k in present]:
        _, fill, text = BAR_FILLS[k]
        out.append(f'<rect x="{x}" y="{legend_y + 3}" width="12" height="10" fill="{fill}" '
                   f'stroke="#0003"/><text class="os-axis" x="{x + 16}" y="{legend_y + 12}">'
                   f'{text}</text>')
        x += 16 + len(text) * 7 + 18
    out.append("</svg>")
    return "".join(out)


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


def memory_svg(trace, width=960, height=120):
    """The allocator's total bytes over the trace's time, as an <svg> step line; "" when the
    trace has no memory events."""
    events = getattr(trace, "memory_events", None) or []
    if not events:
        return ""
    t0, t1 = V.time_span(trace)
    scale = _Scale(t0, t1, width)
    top, bottom = AXIS + 6, height - 8
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
    allocs = sum(e.kind == "alloc" for e in events)
    title = (f"memory: peak {V.bytes_str(peak_event.total_bytes)} at "
             f"{V.duration_str(peak_event.t_ns - t0)}; {allocs} allocations, "
             f"{len(events) - allocs} frees")
    out = [f'<svg class="os-memory" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="img"><title>{escape(title)}</title>']
    _axis(scale, AXIS, bottom, out)
    for b in (0, peak_event.total_bytes):
        out.append(f'<text class="os-axis" x="{GUTTER - 6}" y="{y(b) + 4:.1f}" '
                   f'text-anchor="end">{V.bytes_str(b)}</text>')
    out.append(f'<path class="os-memarea" d="{line}V{bottom}H{scale.x0:.1f}Z" fill="#0969da" '
               f'fill-opacity="0.15"/>')
    out.append(f'<path class="os-memline" d="{line}" fill="none" stroke="#0969da" '
               f'stroke-width="1.5"><title>{escape(title)}</title></path>')
    px = scale.x(peak_event.t_ns)
    out.append(f'<circle cx="{px:.1f}" cy="{y(peak_event.total_bytes):.1f}" r="3" '
               f'fill="#cf222e"><title>peak {V.bytes_str(peak_event.total_bytes)}</title>'
               f'</circle>')
    out.append(f'<text class="os-lane" x="6" y="{AXIS - 6}">memory</text></svg>')
    return "".join(out)
