"""The profile's events: what ``prof.events()`` and ``prof.key_averages()`` hold, with the names
and meanings of torch 1.13's FunctionEvent / FunctionEventAvg / EventList
(torch/autograd/profiler_util.py), built from an ``opscope.trace()`` by _from_trace.py.

One FunctionEvent per

    op call            OpRecord      key "aten::mm" (the op's name without its overload)
    record_function    ScopeRecord   key its name ("ProfilerStep#3" is counted as "ProfilerStep*")
    backward node run  NodeRun       two events, as torch's engine records them:
                                     "autograd::engine::evaluate_function: MulBackward0"
                                     around "MulBackward0" (which holds the node's ops)
    memory event outside every other event (profile_memory): "[memory]", no duration

Redispatches are not events: ``mm[AutogradCPU] → mm[CPU]`` is one call of aten::mm, as torch's
profiler sees it; the steps stay on the event (``evt.steps``) for the Chrome trace. Times are
microseconds from the start of the recording, floats (torch's are whole microseconds); memory is
bytes, allocations positive and frees negative.

Self time is an event's time minus its children's; self memory likewise. As torch's EventList
does, an event whose only child has the same key absorbs that child (aten::sum calling
aten::sum.dim_IntList is one aten::sum).
"""
import enum
from collections import defaultdict, namedtuple

from opscope.profiler._trace import OpRecord

__all__ = ["DeviceType", "Interval", "Kernel", "FunctionEvent", "FunctionEventAvg", "EventList",
           "MEMORY_EVENT_NAME"]

MEMORY_EVENT_NAME = "[memory]"

# torch's RecordScope values, kept on each event as `scope`.
SCOPE_FUNCTION = 0
SCOPE_BACKWARD_FUNCTION = 1
SCOPE_USER = 7


class DeviceType(enum.Enum):
    """Where an event ran (torch.autograd.DeviceType); opscope records CPU events only."""
    CPU = 0
    CUDA = 1


# A device kernel an op launched, as torch.autograd.profiler_util.Kernel: its name (here the
# op's CUDA kernel function), the device's index, its duration in us.
Kernel = namedtuple("Kernel", ["name", "device", "duration"])


class Interval:
    """An event's span in microseconds from the start of the recording."""

    def __init__(self, start, end):
        self.start = start
        self.end = end

    def elapsed_us(self):
        return self.end - self.start


def _format_time(time_us):
    """12.345us, 1.234ms, 1.234s: torch's three decimals."""
    if time_us >= 1e6:
        return f"{time_us / 1e6:.3f}s"
    if time_us >= 1e3:
        return f"{time_us / 1e3:.3f}ms"
    return f"{time_us:.3f}us"


class _Formatted:
    """The averages and their formatted forms, shared by FunctionEvent and FunctionEventAvg;
    each has count, cpu_time_total, self_cpu_time_total and their CUDA twins (the device's time,
    0 unless the profile timed a GPU)."""

    @property
    def cpu_time(self):
        return 0.0 if self.count == 0 else self.cpu_time_total / self.count

    @property
    def cuda_time(self):
        return 0.0 if self.count == 0 else self.cuda_time_total / self.count

    cpu_time_str = property(lambda self: _format_time(self.cpu_time))
    cuda_time_str = property(lambda self: _format_time(self.cuda_time))
    cpu_time_total_str = property(lambda self: _format_time(self.cpu_time_total))
    cuda_time_total_str = property(lambda self: _format_time(self.cuda_time_total))
    self_cpu_time_total_str = property(lambda self: _format_time(self.self_cpu_time_total))
    self_cuda_time_total_str = property(lambda self: _format_time(self.self_cuda_time_total))


class FunctionEvent(_Formatted):
    """One op call, record_function block, backward node run or loose memory event.

    torch's attributes (name, key, trace_name, time_range, thread, input_shapes, stack, scope,
    sequence_nr, cpu_children, cpu_parent, cpu_memory_usage, flops, ...) plus opscope's:
    ``item`` (the OpRecord / NodeRun / ScopeRecord / MemoryRecord it stands for), ``steps`` and
    ``nodes_created`` (an op's dispatch steps and autograd nodes, those of absorbed same-name
    children included), ``input_types`` and ``memory_records`` (the memory events it made
    itself).
    """

    def __init__(self, id, name, thread, start_us, end_us, *, trace_name=None, item=None,
                 input_shapes=None, input_types=None, stack=None, scope=SCOPE_FUNCTION,
                 sequence_nr=-1, flops=0):
        self.id = id
        self.name = name
        self.trace_name = trace_name if trace_name is not None else name
        self.time_range = Interval(start_us, end_us)
        self.thread = thread
        self.fwd_thread = thread
        self.input_shapes = input_shapes if input_shapes is not None else []
        self.input_types = input_types if input_types is not None else []
        self.stack = stack if stack is not None else []
        self.scope = scope
        self.sequence_nr = sequence_nr
        self.flops = flops
        self.item = item
        is_op = isinstance(item, OpRecord)
        self.steps = list(item.steps) if is_op else []
        self.nodes_created = list(item.nodes_created) if is_op else []
        self.count = 1
        self.cpu_children = []
        self.cpu_parent = None
        self.memory_records = []
        self.self_cpu_memory_usage = 0
        self.cpu_memory_usage = 0
        # The device kernels the op's own steps launched, as torch's Kernel(name, device,
        # duration in us): one per timed CUDA kernel step (Note [Device time of an op]).
        self.kernels = ([Kernel(st.kernel, st.device_index, st.device_self_ns / 1e3)
                         for st in item.steps if st.device_self_ns > 0] if is_op else [])
        # torch's fields opscope has no use for yet, kept so code written for torch runs
        self.node_id = -1
        self.device_type = DeviceType.CPU
        self.device_index = 0
        self.is_async = False
        self.is_remote = False
        self.is_legacy = False
        self.cuda_memory_usage = 0
        self.self_cuda_memory_usage = 0

    @property
    def key(self):
        return self.name

    @property
    def cpu_time_total(self):
        return self.time_range.elapsed_us()

    @property
    def self_cpu_time_total(self):
        return self.cpu_time_total - sum(c.cpu_time_total for c in self.cpu_children)

    @property
    def cuda_time_total(self):
        """The device's time for this event's kernels and its children's (us), as torch's."""
        return (sum(k.duration for k in self.kernels)
                + sum(c.cuda_time_total for c in self.cpu_children))

    @property
    def self_cuda_time_total(self):
        """The device's time for the kernels this event launched itself (us)."""
        return sum(k.duration for k in self.kernels)

    def append_cpu_child(self, child):
        self.cpu_children.append(child)
        child.cpu_parent = self

    def __repr__(self):
        return (f"<FunctionEvent id={self.id} name={self.name} cpu_time={self.cpu_time_str} "
                f"start_us={self.time_range.start:.3f} end_us={self.time_range.end:.3f} "
                f"cpu_children={[c.id for c in self.cpu_children]} thread={self.thread} "
                f"input_shapes={self.input_shapes} cpu_memory_usage={self.cpu_memory_usage} "
                f"seq_nr={self.sequence_nr}>")


class FunctionEventAvg(_Formatted):
    """The sum of events with one key (and input shapes, and stack, when grouped by them)."""

    def __init__(self):
        self.key = None
        self.count = 0
        self.cpu_time_total = 0.0
        self.self_cpu_time_total = 0.0
        self.cuda_time_total = 0.0
        self.self_cuda_time_total = 0.0
        self.cpu_memory_usage = 0
        self.self_cpu_memory_usage = 0
        self.cuda_memory_usage = 0
        self.self_cuda_memory_usage = 0
        self.flops = 0
        self.input_shapes = None
        self.stack = None
        self.scope = None
        self.cpu_parent = None
        self.cpu_children = None
        self.node_id = 0
        self.device_type = DeviceType.CPU
        self.is_async = False
        self.is_remote = False
        self.is_legacy = False

    def add(self, other):
        """Adds an event (or another average) with the same key."""
        if self.key is None:  # the first one decides what the group shows
            self.key = other.key
            self.input_shapes = other.input_shapes
            self.stack = other.stack
            self.scope = other.scope
            self.cpu_parent = other.cpu_parent
            self.cpu_children = other.cpu_children
        if other.key != self.key:
            raise ValueError(f"cannot average {other.key} into {self.key}")
        return self._sum(other)

    def _sum(self, other):
        self.count += other.count
        self.cpu_time_total += other.cpu_time_total
        self.self_cpu_time_total += other.self_cpu_time_total
        self.cuda_time_total += other.cuda_time_total
        self.self_cuda_time_total += other.self_cuda_time_total
        self.cpu_memory_usage += other.cpu_memory_usage
        self.self_cpu_memory_usage += other.self_cpu_memory_usage
        self.cuda_memory_usage += other.cuda_memory_usage
        self.self_cuda_memory_usage += other.self_cuda_memory_usage
        self.flops += other.flops or 0
        return self

    __iadd__ = add

    def __repr__(self):
        return (f"<FunctionEventAvg key={self.key} self_cpu_time={self.self_cpu_time_total_str} "
                f"cpu_time={self.cpu_time_str} input_shapes={self.input_shapes} "
                f"cpu_memory_usage={self.cpu_memory_usage}>")


class EventList(list):
    """A list of FunctionEvent or FunctionEventAvg; ``str()`` is its table."""

    def __init__(self, *args, profile_memory=False, with_flops=False, origin_ns=None, **kwargs):
        super().__init__(*args, **kwargs)
        self._profile_memory = profile_memory
        self._with_flops = with_flops
        self._origin_ns = origin_ns  # CLOCK_MONOTONIC ns at time 0 of the events

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75,
              max_name_column_width=55, max_shapes_column_width=80, header=None,
              top_level_events_only=False):
        """The events as torch's text table (see opscope/profiler/_table.py). `sort_by`: an
        attribute to sort by, largest first (``self_cpu_time_total``, ``cpu_time_total``,
        ``cpu_time``, ``count``, ``cpu_memory_usage``, ``self_cpu_memory_usage``, ...); None
        keeps the recorded order. `top_level_events_only`: only rows without a parent. A
        TextView: a str that, typed at a prompt, shows itself (see _textview.py)."""
        from opscope.profiler._table import build_table
        from opscope.profiler._textview import TextView
        return TextView(build_table(self, sort_by=sort_by, row_limit=row_limit,
                           max_src_column_width=max_src_column_width,
                           max_name_column_width=max_name_column_width,
                           max_shapes_column_width=max_shapes_column_width, header=header,
                           profile_memory=self._profile_memory, with_flops=self._with_flops,
                           top_level_events_only=top_level_events_only))

    def __str__(self):
        return str.__str__(self.table())

    def _repr_html_(self):
        from opscope.profiler import _html
        return _html.key_averages_html(self, sort_by=None)

    def _repr_mimebundle_(self, include=None, exclude=None):
        from opscope.profiler import _html
        return _html.bundle({"text/plain": self.table, "text/html": self._repr_html_},
                            include, exclude)

    @property
    def self_cpu_time_total(self):
        return sum(e.self_cpu_time_total for e in self)

    def key_averages(self, group_by_input_shapes=False, group_by_stack_n=0):
        """One FunctionEventAvg per key (and per input shapes, and per innermost
        `group_by_stack_n` stack entries, when asked), in order of first appearance."""
        groups = defaultdict(FunctionEventAvg)
        for e in self:
            group = [e.key]
            if group_by_input_shapes:
                group.append(str(e.input_shapes))
            if group_by_stack_n > 0:
                group.extend(e.stack[:group_by_stack_n])
            groups[tuple(group)].add(e)
        averages = EventList(groups.values(), profile_memory=self._profile_memory,
                             with_flops=self._with_flops)
        for avg in averages:
            avg.stack = avg.stack[:group_by_stack_n]
            if not group_by_input_shapes:
                avg.input_shapes = ""
        return averages

    def total_average(self):
        """All events summed into one FunctionEventAvg with key "Total"."""
        total = FunctionEventAvg()
        total.key = "Total"
        for e in self:
            total._sum(e)
        return total

    def export_chrome_trace(self, path):
        """Writes the events as a Chrome trace (see opscope/profiler/_chrome.py)."""
        from opscope.profiler._chrome import write_chrome_trace
        write_chrome_trace(self, path, self._origin_ns)

    def supported_export_stacks_metrics(self):
        return ["self_cpu_time_total", "self_cuda_time_total"]

    def export_stacks(self, path, metric="self_cpu_time_total"):
        """Writes folded stacks (``outer;...;inner value``, one line per event with a stack and
        a positive `metric` in whole microseconds), the input of flamegraph.pl and speedscope."""
        if metric not in self.supported_export_stacks_metrics():
            raise ValueError(f"metric should be one of: {self.supported_export_stacks_metrics()}")
        clean = str.maketrans(" ;\t\n", "____")
        with open(path, "w") as f:
            for e in self:
                value = int(getattr(e, metric))
                if e.stack and value > 0:
                    frames = [entry.translate(clean) for entry in reversed(e.stack)]
                    f.write(f"{';'.join(frames + [e.key.translate(clean)])} {value}\n")
