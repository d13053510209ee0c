"""The timeline as text: what a view shows where its chart cannot be drawn.

An untrusted notebook exported by nbconvert (nbviewer, `jupyter nbconvert --sanitize-html`)
loses every SVG image (lxml's cleaner empties an <img> whose data URI is SVG: SVG may hold
script), so the HTML views carry this text beside the chart (see Note [Charts that survive
sanitizing] in _html.py). Per thread, one line per call in call order, nested calls indented
as deep as MAX_LINES allows: its mark (◀ a backward node, ▣ a record_function scope), name,
time, and a bar over the trace's span:

    thread 1                                0                 133.8 µs          267.6 µs
        linear                      37.5 µs      ███████
        relu                         6.9 µs             ██
    ◀   MseLossBackward0            20.6 µs                           ████
    ◀   AccumulateGrad               730 ns                                  ▏
"""
from opscope.profiler import _views as V

__all__ = ["timeline_text", "MAX_LINES"]

TRACK = 44        # characters of the time track
NAME = 26         # characters of a call's name
MAX_LINES = 40    # call lines at most; the rest is one line saying how many

# A line's mark, as the tree has it: a backward node's run, a record_function scope.
_GLYPH = {"backward": "◀", "scope": "▣"}


def _track(start, end, t0, span):
    """The cells [start, end) covers on the track: full blocks, a thin bar when shorter than
    one cell."""
    a = (start - t0) * TRACK / span
    b = (end - t0) * TRACK / span
    first = min(int(a), TRACK - 1)
    last = max(first + 1, min(TRACK, int(-(-b // 1))))
    if b - a < 0.5:
        return " " * first + "▏"
    return " " * first + "█" * (last - first)


def _lines(bars, depth):
    """[[depth, glyph, {name: count}, start, end, busy ns]]: the bars down to `depth`, in call
    order (a call, then what it called)."""
    return [[b.depth, _GLYPH.get(V.kind(b.item), " "), {V.item_label(b.item): 1}, b.start_ns,
             b.end_ns, b.end_ns - b.start_ns] for b in bars if b.depth <= depth]


def _merge(lines, joins):
    """Neighbouring lines at one depth for which joins(last, line) holds, as one line."""
    out = []
    for line in lines:
        last = out[-1] if out else None
        if last and last[0] == line[0] and joins(last, line):
            for name, n in line[2].items():
                last[2][name] = last[2].get(name, 0) + n
            if last[1] != line[1]:
                last[1] = " "
            last[4], last[5] = line[4], last[5] + line[5]
        else:
            out.append([line[0], line[1], dict(line[2]), line[3], line[4], line[5]])
    return out


def _choose(bars, cell_ns):
    """The lines to print: every level of nesting that fits in MAX_LINES; past that, runs of
    one op as one line ("add ×300"), then neighbours shorter than a track cell as one line (a
    loop's mul, add, mul, add ... as "mul ×1000, add ×1000")."""
    lines = _lines(bars, 0)
    for depth in range(1, max(b.depth for b in bars) + 1):
        deeper = _lines(bars, depth)
        if len(deeper) > MAX_LINES:
            break
        lines = deeper
    if len(lines) > MAX_LINES:
        lines = _merge(lines, lambda a, b: a[1] == b[1] and list(a[2]) == list(b[2]))
    if len(lines) > MAX_LINES:
        def short(a, b):
            return (b[4] - b[3] < cell_ns and b[3] - a[4] < cell_ns
                    and (a[4] - a[3] < cell_ns or sum(a[2].values()) > 1))
        lines = _merge(lines, short)
    return lines


def _label(names):
    ranked = sorted(names.items(), key=lambda nc: -nc[1])  # stable: first seen first on ties
    parts = [f"{n} ×{c}" if c > 1 else n for n, c in ranked]
    return ", ".join(parts[:2]) + (", …" if len(parts) > 2 else "")


def _fit(text, width):
    return text if len(text) <= width else text[:width - 1] + "…"


def timeline_text(trace, title=None):
    """The trace's timeline as lines of text (a str; "" when nothing was recorded), under
    `title` (the chart's own description) when given."""
    bars = V.bars(trace)
    if not bars:
        return ""
    t0, t1 = V.time_span(trace)
    span = max(t1 - t0, 1)
    out = title.split("; ", 1) if title else []  # the memory's description on a line of its own
    lead = 4 + NAME + 10
    for thread in dict.fromkeys(b.thread for b in bars):
        mid, end = V.duration_str(span // 2), V.duration_str(span)
        axis = "0".ljust(TRACK // 2 - len(mid) // 2) + mid
        axis = axis.ljust(TRACK - len(end)) + end
        out.append(f"thread {thread}".ljust(lead) + axis)
        lines = _choose([b for b in bars if b.thread == thread], span / TRACK)
        for depth, glyph, names, start, stop, busy in lines[:MAX_LINES]:
            label = _fit("  " * depth + _label(names), NAME - 1)
            out.append(f"{glyph}   {label.ljust(NAME)}{V.duration_str(busy).rjust(9)} "
                       f"{_track(start, stop, t0, span)}")
        if len(lines) > MAX_LINES:
            out.append(f"    … {len(lines) - MAX_LINES} more lines: print(t.tree()) lists "
                       f"every call")
    return "\n".join(line.rstrip() for line in out)
