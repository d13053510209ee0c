"""The profile as a Chrome trace (the Trace Event Format that Perfetto, chrome://tracing and
TensorBoard's profiler open), laid out as torch 1.13's Kineto writes it:

    {"schemaVersion": 1, "deviceProperties": [], "displayTimeUnit": "ms",
     "traceEvents": [...], "traceName": "<path>"}

traceEvents, ``ts`` / ``dur`` in microseconds (with nanoseconds as three decimals) from the start of
the recording, ``pid`` the process, ``tid`` the recorder's thread number:

    "X"  one per FunctionEvent, nested per thread as they ran; cat "cpu_op" (ops and backward
         nodes) or "user_annotation" (record_function). args: "External id", "Sequence number",
         "Fwd thread id", with record_shapes "Input Dims" / "Input type" (torch's names), and
         opscope's "Op" (the overload that ran), "Dispatch path" (the key chosen at each step:
         mm[AutogradCPU] → mm[CPU]) and "Dispatch steps" (per step: call, key, kernel, why).
    "s" / "f"  cat and name "fwdbwd": a flow from each forward op that created an autograd node
         to that node's run in backward ("f" binds to its enclosing slice: "bp": "e"); both carry
         the same "id", and "Sequence number" links them in the X events' args too.
    "i"  name "[memory]", cat "cpu_instant_event", scope "t", with profile_memory: one per
         allocation or free; args "Bytes" (negative for a free), "Addr", "Total Allocated",
         "Total Reserved", "Device Type" 0, "Device Id" -1, as torch.
    "X"  cat "kernel", with a GPU (ProfilerActivity.CUDA): one per timed CUDA kernel step, on
         the GPU's process (pid: the device's index, labelled "GPU <n>") and its stream's lane
         (tid: the stream's id, "stream <id>"), named by the op's CUDA kernel function; args
         "External id" (the op's), "device", "stream", "Op". An "s" / "f" flow (cat "ac2g")
         links each to the op that launched it, as Kineto links a launch to its kernel.
    "M"  process_name, process_labels, process_sort_index; thread_name, thread_sort_index.
"""
import gzip
import json
import os
import sys

from opscope.profiler._events import MEMORY_EVENT_NAME, SCOPE_BACKWARD_FUNCTION, SCOPE_USER
from opscope.profiler._from_trace import gc_paused, node_identity
from opscope.profiler._trace import NodeRun, OpRecord

__all__ = ["chrome_trace", "write_chrome_trace"]

_PROCESS_NAME = "opscope"


def _ts(us):
    """Microseconds with three decimals: nanoseconds survive the JSON float."""
    return round(us, 3)


def _step_args(step):
    return {"call": step.call, "key": step.key, "key_set": str(step.key_set),
            "kernel": step.kernel, "provenance": step.provenance, "site": step.site}


def _slice(e, pid):
    """The "X" event of one FunctionEvent."""
    args = {"External id": e.id}
    if e.sequence_nr >= 0:
        args["Sequence number"] = e.sequence_nr
        args["Fwd thread id"] = e.fwd_thread
    if e.input_shapes:
        args["Input Dims"] = e.input_shapes
        args["Input type"] = e.input_types
    if isinstance(e.item, OpRecord):
        args["Op"] = e.item.name
        args["Dispatch path"] = " → ".join(s.label for s in e.steps)
        args["Dispatch steps"] = [_step_args(s) for s in e.steps]
        if e.item.threw:
            args["Threw"] = True
    if e.flops:
        args["FLOPs"] = e.flops
    if e.stack:
        args["Call stack"] = ";".join(e.stack)
    return {"ph": "X", "cat": "user_annotation" if e.scope == SCOPE_USER else "cpu_op",
            "name": e.trace_name, "pid": pid, "tid": e.thread,
            "ts": _ts(e.time_range.start), "dur": _ts(e.time_range.elapsed_us()), "args": args}


def _flows(events, pid):
    """"s" at each forward op that created a node, "f" at that node's run (the event named after
    the node, inside "autograd::engine::evaluate_function: ...")."""
    runs = {node_identity(e.item): e for e in events
            if isinstance(e.item, NodeRun) and e.scope == SCOPE_BACKWARD_FUNCTION}
    flows = []
    for e in events:
        for node in e.nodes_created:
            run = runs.pop(node_identity(node), None) if node_identity(node) else None
            if run is None:
                continue
            flow_id = len(flows) // 2 + 1
            flows.append({"ph": "s", "id": flow_id, "pid": pid, "tid": e.thread,
                          "ts": _ts(e.time_range.start), "cat": "fwdbwd", "name": "fwdbwd"})
            flows.append({"ph": "f", "id": flow_id, "pid": pid, "tid": run.thread,
                          "ts": _ts(run.time_range.start), "cat": "fwdbwd", "name": "fwdbwd",
                          "bp": "e"})
    return flows


def _memory(events, origin_ns, pid):
    """One "[memory]" instant event per allocation / free, in time order."""
    records = sorted((r for e in events for r in e.memory_records), key=lambda r: r.t_ns)
    out = []
    for r in records:
        # torch's device types: 0 CPU, 1 CUDA (Device Id: the GPU's index; -1 for the CPU)
        cuda = r.device.startswith("cuda")
        args = {"Device Type": 1 if cuda else 0,
                "Device Id": int(r.device.partition(":")[2] or 0) if cuda else -1,
                "Addr": r.ptr, "Bytes": r.signed_bytes,
                "Total Allocated": r.total_bytes, "Total Reserved": r.total_bytes}
        out.append({"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": MEMORY_EVENT_NAME,
                    "pid": pid, "tid": r.thread, "ts": _ts((r.t_ns - origin_ns) / 1e3),
                    "args": args})
    return out


def _kernels(events, origin_ns, pid, first_flow_id):
    """The device's spans of the timed CUDA kernel steps, each linked to its op (Note [Device
    time of an op]); the GPU lanes' metadata."""
    out, lanes = [], set()
    flow_id = first_flow_id
    for e in events:
        if not isinstance(e.item, OpRecord):
            continue
        for st in e.steps:
            if st.device_ns <= 0:
                continue
            device, stream = st.device_index, st.stream or 0
            lanes.add((device, stream))
            ts = _ts((st.device_start_ns - origin_ns) / 1e3)
            out.append({"ph": "X", "cat": "kernel", "name": st.kernel, "pid": device,
                        "tid": stream, "ts": ts, "dur": _ts(st.device_ns / 1e3),
                        "args": {"External id": e.id, "device": device, "stream": stream,
                                 "Op": e.item.name}})
            out.append({"ph": "s", "id": flow_id, "pid": pid, "tid": e.thread,
                        "ts": _ts(e.time_range.start), "cat": "ac2g", "name": "ac2g"})
            out.append({"ph": "f", "id": flow_id, "pid": device, "tid": stream, "ts": ts,
                        "cat": "ac2g", "name": "ac2g", "bp": "e"})
            flow_id += 1
    for device in sorted({d for d, _ in lanes}):
        out += [{"name": "process_name", "ph": "M", "ts": 0, "pid": device, "tid": 0,
                 "args": {"name": _PROCESS_NAME}},
                {"name": "process_labels", "ph": "M", "ts": 0, "pid": device, "tid": 0,
                 "args": {"labels": f"GPU {device}"}},
                {"name": "process_sort_index", "ph": "M", "ts": 0, "pid": device, "tid": 0,
                 "args": {"sort_index": 5000000 + device}}]
    for device, stream in sorted(lanes):
        out += [{"name": "thread_name", "ph": "M", "ts": 0, "pid": device, "tid": stream,
                 "args": {"name": f"stream {stream}"}},
                {"name": "thread_sort_index", "ph": "M", "ts": 0, "pid": device, "tid": stream,
                 "args": {"sort_index": stream}}]
    return out


def _metadata(threads, pid):
    process = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "python"
    out = [{"name": "process_name", "ph": "M", "ts": 0, "pid": pid, "tid": 0,
            "args": {"name": _PROCESS_NAME}},
           {"name": "process_labels", "ph": "M", "ts": 0, "pid": pid, "tid": 0,
            "args": {"labels": "CPU"}},
           {"name": "process_sort_index", "ph": "M", "ts": 0, "pid": pid, "tid": 0,
            "args": {"sort_index": 0}}]
    for i, tid in enumerate(sorted(threads)):
        out += [{"name": "thread_name", "ph": "M", "ts": 0, "pid": pid, "tid": tid,
                 "args": {"name": f"thread {tid} ({process})"}},
                {"name": "thread_sort_index", "ph": "M", "ts": 0, "pid": pid, "tid": tid,
                 "args": {"sort_index": i}}]
    return out


def chrome_trace(events, origin_ns=None, name="opscope", metadata=None):
    """The Chrome trace of an EventList, as a dict ready for json.dump. `origin_ns`: the
    CLOCK_MONOTONIC time the events' microseconds count from (needed for memory events);
    `metadata`: more top-level keys (profile.add_metadata)."""
    pid = os.getpid()
    slices = [e for e in events if e.trace_name is not None and e.key != MEMORY_EVENT_NAME]
    with gc_paused():
        trace_events = _metadata({e.thread for e in events}, pid)
        trace_events += [_slice(e, pid) for e in slices]
        flows = _flows(slices, pid)
        trace_events += flows
        if origin_ns is not None:
            trace_events += _memory(events, origin_ns, pid)
            trace_events += _kernels(slices, origin_ns, pid, len(flows) // 2 + 1)
    return {"schemaVersion": 1, "deviceProperties": [], **(metadata or {}),
            "displayTimeUnit": "ms", "traceEvents": trace_events, "traceName": name}


def write_chrome_trace(events, path, origin_ns=None, metadata=None):
    """Writes chrome_trace(events) to path (gzip-compressed when it ends in .gz)."""
    trace = chrome_trace(events, origin_ns, name=str(path), metadata=metadata)
    text = json.dumps(trace)  # in one piece: json.dump's many small writes are slower
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "wt") as f:
        f.write(text)
