"""The profile as text: torch 1.13's ``key_averages().table()`` layout, column for column.

    ------------  ------------  ...  ------------
            Name    Self CPU %  ...    # of Calls
    ------------  ------------  ...  ------------
        aten::mm        61.20%  ...             3
    ------------  ------------  ...  ------------
    Self CPU time total: 1.234ms

Columns: Name, Self CPU %, Self CPU, CPU total %, CPU total, CPU time avg; Self CUDA, Self CUDA %,
CUDA total, CUDA time avg when an event has device time (a profile with ProfilerActivity.CUDA on
a GPU); CPU Mem and Self CPU Mem when the profile recorded memory (CUDA Mem and Self CUDA Mem too
when device memory was used); # of Calls; Input Shapes when events carry shapes (grouped by
them); Source Location when they carry stacks (grouped by them); Total FLOPs (scaled to KFLOPs,
MFLOPs, ...) with ``with_flops``. Percentages are of the sum of every row's self time, shown or
not; the device's "Self CUDA time total" line follows the CPU one. Each column is 12 wide (Name: the longest name + 4, at most 55) and followed by 2 spaces.
"""
import math

from opscope.profiler._events import _format_time

__all__ = ["build_table", "format_memory", "format_time", "SORT_KEYS"]

format_time = _format_time

# What sort_by accepts (largest first).
SORT_KEYS = ("cpu_time", "cuda_time", "cpu_time_total", "cuda_time_total",
             "self_cpu_time_total", "self_cuda_time_total", "cpu_memory_usage",
             "cuda_memory_usage", "self_cpu_memory_usage", "self_cuda_memory_usage", "count",
             "flops")

_COLUMN_WIDTH = 12
_SPACING = 2
_MAX_STACK_ENTRIES = 5
_FLOPS_UNITS = ("FLOPs", "KFLOPs", "MFLOPs", "GFLOPs", "TFLOPs", "PFLOPs")


def format_memory(nbytes):
    """1.50 Kb, 2.00 Mb, 512 b: torch's binary units and spelling."""
    for unit, size in (("Gb", 1024 ** 3), ("Mb", 1024 ** 2), ("Kb", 1024)):
        if abs(nbytes) >= size:
            return f"{nbytes / size:.2f} {unit}"
    return f"{nbytes} b"


def _share(part, total):
    if total == 0:
        return "NaN"
    return f"{part * 100.0 / total:.2f}%"


def _flops_scale(smallest):
    """(factor, unit) that shows the smallest nonzero count with 1 to 3 integer digits."""
    level = int(max(0, min(math.log10(smallest) / 3, len(_FLOPS_UNITS) - 1)))
    return 10.0 ** (-3 * level), _FLOPS_UNITS[level]


def _trim_path(path, width):
    """Keeps the end of a long stack entry, marking the cut with '...'."""
    if len(path) > width:
        path = path[len(path) - width:]
        if len(path) > 3:
            path = "..." + path[3:]
    return path


class _Layout:
    """Column widths and alignment; renders rows."""

    def __init__(self):
        self.formats = []
        self.widths = []

    def add(self, width, align=">"):
        self.formats.append("{: " + align + str(width) + "}")
        self.widths.append(width)

    @property
    def separator(self):
        return "".join("-" * w + " " * _SPACING for w in self.widths)

    @property
    def line_length(self):
        return sum(self.widths) + _SPACING * (len(self.widths) - 1)

    def row(self, values):
        return "".join(f.format(v) + " " * _SPACING for f, v in zip(self.formats, values))


def _sorted(events, sort_by):
    if sort_by is None:
        return list(events)
    if sort_by not in SORT_KEYS:
        raise AttributeError(f"sort_by={sort_by!r} is not a column of the profile; use one of "
                             f"{', '.join(SORT_KEYS)}")
    return sorted(events, key=lambda e: getattr(e, sort_by), reverse=True)


def build_table(events, sort_by=None, header=None, row_limit=100, max_src_column_width=75,
                max_name_column_width=55, max_shapes_column_width=80, with_flops=False,
                profile_memory=False, top_level_events_only=False):
    """The text table of FunctionEvents or FunctionEventAvgs; see the module's docstring."""
    if len(events) == 0:
        return ""
    events = _sorted(events, sort_by)
    has_shapes = any(e.input_shapes for e in events)
    stacks = [e.stack for e in events if e.stack]
    flops = [e.flops for e in events if e.flops and e.flops > 0] if with_flops else []

    layout = _Layout()
    name_width = max(len(e.key) for e in events) + 4
    if max_name_column_width is not None:
        name_width = min(name_width, max_name_column_width)
    layout.add(name_width)
    has_cuda_time = any(e.self_cuda_time_total > 0 for e in events)
    has_cuda_mem = any(e.self_cuda_memory_usage > 0 for e in events)
    headers = ["Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg"]
    if has_cuda_time:
        headers += ["Self CUDA", "Self CUDA %", "CUDA total", "CUDA time avg"]
    if profile_memory:
        headers += ["CPU Mem", "Self CPU Mem"]
        if has_cuda_mem:
            headers += ["CUDA Mem", "Self CUDA Mem"]
    headers.append("# of Calls")
    for _ in headers[1:]:
        layout.add(_COLUMN_WIDTH)
    if has_shapes:
        shapes_width = max(len(str(e.input_shapes)) for e in events) + 4
        if max_shapes_column_width is not None:
            shapes_width = min(shapes_width, max_shapes_column_width)
        headers.append("Input Shapes")
        layout.add(shapes_width)
    if stacks:
        src_width = max(len(entry) for s in stacks for entry in s) + 4
        if max_src_column_width is not None:
            src_width = min(src_width, max_src_column_width)
        headers.append("Source Location")
        layout.add(src_width, align="<")
    if flops:
        flops_factor, flops_unit = _flops_scale(min(flops))
        headers.append(f"Total {flops_unit}")
        layout.add(_COLUMN_WIDTH)

    total_self = sum(e.self_cpu_time_total for e in events)
    total_self_cuda = sum(e.self_cuda_time_total for e in events)
    lines = []
    if header is not None:
        lines += ["=" * layout.line_length, header]
    if top_level_events_only:
        lines += ["=" * layout.line_length, "This report only display top-level ops statistics"]
    lines += [layout.separator, layout.row(headers), layout.separator]

    shown = 0
    for e in events:
        if shown == row_limit:
            break
        if top_level_events_only and e.cpu_parent is not None:
            continue
        shown += 1
        name = e.key
        if max_name_column_width is not None and len(name) >= max_name_column_width - 3:
            name = name[:max_name_column_width - 3] + "..."
        values = [name, _share(e.self_cpu_time_total, total_self), e.self_cpu_time_total_str,
                  _share(e.cpu_time_total, total_self), e.cpu_time_total_str, e.cpu_time_str]
        if has_cuda_time:
            values += [e.self_cuda_time_total_str, _share(e.self_cuda_time_total, total_self_cuda),
                       e.cuda_time_total_str, e.cuda_time_str]
        if profile_memory:
            values += [format_memory(e.cpu_memory_usage), format_memory(e.self_cpu_memory_usage)]
            if has_cuda_mem:
                values += [format_memory(e.cuda_memory_usage),
                           format_memory(e.self_cuda_memory_usage)]
        values.append(e.count)
        if has_shapes:
            values.append(str(e.input_shapes)[:shapes_width])
        if stacks:
            values.append(_trim_path(e.stack[0], src_width) if e.stack else "")
        if flops:
            values.append(f"{e.flops * flops_factor:8.3f}" if e.flops and e.flops > 0 else "--")
        lines.append(layout.row(values))
        if stacks:  # the next stack entries under the first, then an empty row
            src_column = headers.index("Source Location")
            for entry in (e.stack or [])[1:_MAX_STACK_ENTRIES]:
                row = [""] * len(headers)
                row[src_column] = _trim_path(entry, src_width)
                lines.append(layout.row(row))
            lines.append(layout.row([""] * len(headers)))

    lines += [layout.separator, f"Self CPU time total: {format_time(total_self)}"]
    if has_cuda_time:
        lines.append(f"Self CUDA time total: {format_time(total_self_cuda)}")
    return "".join(line + "\n" for line in lines)
