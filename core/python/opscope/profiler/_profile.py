"""``opscope.profiler.profile``: torch.profiler.profile's interface over ``opscope.trace()``.

    with opscope.profiler.profile(record_shapes=True) as prof:
        model(x).sum().backward()
    print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=10))
    prof.export_chrome_trace("trace.json")      # open in https://ui.perfetto.dev

With a schedule, each ``prof.step()`` starts the next step, and the schedule's action for it
decides whether the step is recorded:

    NONE             not recorded
    WARMUP           not recorded (torch warms up its tracer here; opscope needs no warm-up)
    RECORD           recorded
    RECORD_AND_SAVE  recorded, and the last step of an active cycle: when it ends the recording
                     stops and on_trace_ready(prof) is called; events() and key_averages() then
                     describe that cycle

Without a schedule every step is recorded and on_trace_ready is called once, at the end. With a
schedule each step is also a record_function block "ProfilerStep#<n>" (one "ProfilerStep*" row in
the table), as in torch.

Differences from torch 1.13, on purpose:
- Times are microseconds with nanoseconds kept (torch: whole microseconds).
- Keys are the ops opscope runs: no aten::resolve_conj / aten::to / aten::detach that torch's
  kernels call inside (backward's seed gradient is aten::ones_like, as torch's).
- A backward node's "autograd::engine::evaluate_function: X" and "X" share one span (opscope
  times the node's run once), so the first has no self time; "X" has no input shapes.
- Stacks are the Python frames of the stack opscope captured for the op (at its BLAS call or its
  innermost kernel; see opscope.trace(with_stack=True)); ops without one have none. Folded stacks
  (export_stacks) end with the op's key.
- Rows show Source Location before Total FLOPs, as the header does (torch 1.13 swaps the values).
- sort_by takes the table's columns only, and an unknown one's error lists them.
- schedule() does not warn about warmup=0 (opscope needs no warm-up); bad arguments raise
  ValueError. ProfilerActivity.CUDA without a GPU (or without the CUDA backend) warns and
  records nothing.
- With ProfilerActivity.CUDA on a GPU, each op's device time is the span between CUDA events
  recorded on its stream right before and after its CUDA kernel step (Note [Device time of an
  op]): the op's kernels with any gap between them, where torch's CUPTI times each kernel alone.
  The Chrome trace shows those spans on a "stream N" lane of the GPU's process, linked to the op
  that launched them, named by the op's CUDA kernel function (not the device kernel's name).
- Memory is charged to the op that was innermost when it was allocated or freed (torch: to every
  event whose time span holds it, on any thread).
- The Chrome trace counts time from the start of the recording, names threads by the recorder's
  numbers, and adds opscope's args (see _chrome.py); AccumulateGrad gets no forward flow.
"""
import enum
import json
import os
import socket
import time
import warnings

from opscope.profiler._chrome import write_chrome_trace
from opscope.profiler._from_trace import events_from_trace
from opscope.profiler._trace import trace

__all__ = ["ProfilerActivity", "ProfilerAction", "schedule", "supported_activities",
           "tensorboard_trace_handler", "profile"]


class ProfilerActivity(enum.Enum):
    """What to profile. CPU: the ops, backward nodes and record_function blocks; CUDA: the GPU's
    time for each op's kernels (with a GPU and the CUDA backend; otherwise it records nothing)."""
    CPU = 0
    CUDA = 1


def _gpu_present():
    from opscope import cuda  # the package imports this module
    return cuda._is_compiled() and cuda.is_available()


def supported_activities():
    """The activities opscope records: CPU, and CUDA where a GPU is visible to a CUDA build."""
    if _gpu_present():
        return {ProfilerActivity.CPU, ProfilerActivity.CUDA}
    return {ProfilerActivity.CPU}


class ProfilerAction(enum.Enum):
    """What the profiler does during a step; see the module's docstring."""
    NONE = 0
    WARMUP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3


def schedule(*, wait, warmup, active, repeat=0, skip_first=0):
    """A schedule for ``profile(schedule=...)``: skip the first `skip_first` steps, then cycles of
    `wait` steps not recorded, `warmup` steps not recorded, `active` steps recorded (the last as
    RECORD_AND_SAVE); `repeat` cycles, or cycles until the end when 0.

    >>> s = schedule(wait=1, warmup=1, active=2, repeat=1)
    >>> [s(i).name for i in range(5)]
    ['NONE', 'WARMUP', 'RECORD', 'RECORD_AND_SAVE', 'NONE']
    """
    if min(wait, warmup, repeat, skip_first) < 0 or active <= 0:
        raise ValueError(f"Invalid profiler schedule arguments: wait={wait}, warmup={warmup}, "
                         f"active={active} (must be > 0), repeat={repeat}, "
                         f"skip_first={skip_first}")
    cycle = wait + warmup + active

    def action(step):
        if step < skip_first:
            return ProfilerAction.NONE
        step -= skip_first
        if repeat > 0 and step >= repeat * cycle:
            return ProfilerAction.NONE
        position = step % cycle
        if position < wait:
            return ProfilerAction.NONE
        if position < wait + warmup:
            return ProfilerAction.WARMUP
        if position < cycle - 1:
            return ProfilerAction.RECORD
        return ProfilerAction.RECORD_AND_SAVE
    return action


def _record_every_step(step):
    return ProfilerAction.RECORD


def tensorboard_trace_handler(dir_name, worker_name=None, use_gzip=False):
    """An on_trace_ready that writes each cycle's Chrome trace to
    ``dir_name/<worker_name>.<ms since epoch>.pt.trace.json[.gz]`` (worker_name defaults to
    ``<host>_<pid>``), the files TensorBoard's profiler plugin reads."""
    def handler(prof):
        os.makedirs(dir_name, exist_ok=True)
        worker = worker_name or f"{socket.gethostname()}_{os.getpid()}"
        name = f"{worker}.{int(time.time() * 1000)}.pt.trace.json" + (".gz" if use_gzip else "")
        prof.export_chrome_trace(os.path.join(dir_name, name))
    return handler


_RECORDING = (ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE)


class profile:
    """Profiles the ops run inside ``with`` (or between ``start()`` and ``stop()``); see the
    module's docstring. `record_shapes`: input shapes and types on each op event (and
    ``key_averages(group_by_input_shape=True)``); `profile_memory`: allocations and frees (the
    CPU Mem columns, "[memory]" events in the Chrome trace); `with_stack`: the Python frames an
    op was called from (``key_averages(group_by_stack_n=n)``, ``export_stacks``); `with_flops`:
    FLOPs of matrix products, mul and add. `with_modules` is accepted and does nothing, as in
    torch 1.13's eager mode.
    """

    def __init__(self, *, activities=None, schedule=None, on_trace_ready=None,
                 record_shapes=False, profile_memory=False, with_stack=False, with_flops=False,
                 with_modules=False, use_cuda=None):
        self.activities = set(activities) if activities else supported_activities()
        if use_cuda is not None:
            warnings.warn("use_cuda is deprecated, use activities argument instead")
            if use_cuda:
                self.activities.add(ProfilerActivity.CUDA)
            else:
                self.activities.discard(ProfilerActivity.CUDA)
        if not self.activities:
            raise ValueError("No valid profiler activities found")
        self._device_time = False  # ProfilerActivity.CUDA with a GPU: time each CUDA kernel step
        if ProfilerActivity.CUDA in self.activities:
            if _gpu_present():
                self._device_time = True
            else:
                warnings.warn("no CUDA GPU visible to opscope (or no CUDA backend built): "
                              "ProfilerActivity.CUDA records nothing")
        self.record_shapes = record_shapes
        self.profile_memory = profile_memory
        self.with_stack = with_stack
        self.with_flops = with_flops
        self.with_modules = with_modules
        self.schedule = schedule or _record_every_step
        self.record_steps = schedule is not None  # ProfilerStep#<n> blocks
        self.on_trace_ready = on_trace_ready
        self.step_num = 0
        self.current_action = self.schedule(self.step_num)
        self._recorder = None       # the opscope.trace recording now
        self._origin_ns = None      # when it started (CLOCK_MONOTONIC)
        self._finished = None       # (trace, origin_ns) of the last finished recording
        self._events = None         # its EventList, built when first asked for
        self._step_block = None     # the open ProfilerStep#<n> record_function
        self._metadata = {}         # top-level keys of the Chrome trace

    # --- the steps ---------------------------------------------------------------------------

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, exc_type, exc_value, tb):
        self.stop()
        return False

    def start(self):
        self._transition(ProfilerAction.NONE, self.current_action)
        self._open_step_block(self.step_num)

    def stop(self):
        self._close_step_block()
        self._transition(self.current_action, None)

    def step(self):
        """Ends the current step and starts the next."""
        self._close_step_block()
        previous = self.current_action
        self.step_num += 1
        self.current_action = self.schedule(self.step_num)
        self._transition(previous, self.current_action)
        self._open_step_block(self.step_num)

    def _transition(self, previous, current):
        """What happens between a step with action `previous` and the next with `current`
        (None: the profiler stops), torch's table of transitions in rules."""
        A = ProfilerAction
        if previous is A.RECORD_AND_SAVE or (previous is A.RECORD and current is None):
            self._stop_recording()
            self._trace_ready()
        elif previous is A.RECORD and current in (A.NONE, A.WARMUP):
            warnings.warn(f"Incorrect schedule: RECORD followed by {current.name}")
            self._stop_recording()
        elif previous is A.WARMUP and current in (A.NONE, None):
            if current is A.NONE:
                warnings.warn("Incorrect schedule: WARMUP followed by NONE")
            self._start_recording()
            self._stop_recording()
        if current in _RECORDING and self._recorder is None:
            self._start_recording()

    def _start_recording(self):
        self._recorder = trace(with_stack=self.with_stack, memory=self.profile_memory,
                               device_time=self._device_time)
        self._origin_ns = time.monotonic_ns()
        self._recorder.__enter__()

    def _stop_recording(self):
        self._recorder.__exit__(None, None, None)
        self._finished = (self._recorder, self._origin_ns)
        self._events = None
        self._recorder = None

    def _trace_ready(self):
        if self.on_trace_ready is not None:
            self.on_trace_ready(self)

    def _open_step_block(self, n):
        if self.record_steps:
            from opscope.profiler import record_function  # the package imports this module
            self._step_block = record_function(f"ProfilerStep#{n}")
            self._step_block.__enter__()

    def _close_step_block(self):
        if self._step_block is not None:
            self._step_block.__exit__(None, None, None)
            self._step_block = None

    # --- the results -------------------------------------------------------------------------

    def events(self):
        """Every event of the last finished recording (an EventList of FunctionEvent), in order
        of start."""
        if self._finished is None:
            raise RuntimeError("Profiler didn't finish running: read the results after the with "
                               "block, after stop(), or in on_trace_ready")
        if self._events is None:
            recorded, origin_ns = self._finished
            self._events = events_from_trace(recorded, origin_ns,
                                             record_shapes=self.record_shapes,
                                             profile_memory=self.profile_memory,
                                             with_stack=self.with_stack,
                                             with_flops=self.with_flops)
        return self._events

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0):
        """The events averaged per key (op name, block name, backward node), and per input
        shapes / innermost `group_by_stack_n` stack entries when asked: an EventList of
        FunctionEventAvg, whose ``table()`` is torch's table."""
        return self.events().key_averages(group_by_input_shape, group_by_stack_n)

    def export_chrome_trace(self, path):
        """Writes the last recording as a Chrome trace (.json, or .json.gz); see _chrome.py."""
        write_chrome_trace(self.events(), path, self._finished[1], self._metadata)

    def add_metadata(self, key, value):
        """Adds a top-level string entry to the Chrome traces this profiler writes."""
        self._metadata[key] = str(value)

    def add_metadata_json(self, key, value):
        """Adds a top-level entry given as JSON text to the Chrome traces this writes."""
        self._metadata[key] = json.loads(value)

    def export_stacks(self, path, metric="self_cpu_time_total"):
        """Writes folded stacks of the ops (needs with_stack=True), for flamegraph.pl."""
        if not self.with_stack:
            raise RuntimeError("export_stacks() requires with_stack=True")
        self.events().export_stacks(path, metric)

    def _repr_html_(self):
        """The last recording as a notebook shows it: the key_averages table (by total CPU
        time), then the timeline of ops per thread and, with profile_memory, memory over time."""
        from opscope.profiler import _html, _svg
        if self._finished is None:
            return _html.view('<div class="os-muted">opscope profile: nothing recorded yet</div>')
        recorded = self._finished[0]
        parts = [_html.key_averages_body(self.key_averages(), sort_by="cpu_time_total",
                                         row_limit=30)]
        chart = _svg.timeline_svg(recorded, memory=True)
        if chart:
            name = "timeline and memory" if recorded.memory_events else "timeline"
            parts.append(_html.timeline_chart(recorded, name, chart, opened=True))
        return _html.view("".join(parts))

    def _repr_mimebundle_(self, include=None, exclude=None):
        from opscope.profiler import _html
        text = (lambda: self.key_averages().table(sort_by="cpu_time_total", row_limit=30)) \
            if self._finished is not None else (lambda: repr(self))
        return _html.bundle({"text/plain": text, "text/html": self._repr_html_},
                            include, exclude)

    def __repr__(self):
        state = "recording" if self._recorder is not None else (
            "finished" if self._finished is not None else "not started")
        return f"<opscope.profiler.profile step {self.step_num}, {state}>"
