"""The profiler's device time (ProfilerActivity.CUDA; Note [Device time of an op] in
core/runtime/DeviceTimer.h), from the trace's events onwards: the GPU-free half. A CPU trace is
given the fields a CUDA kernel step recorded with device time carries (device_ns on its enter and
exit, stream, device_index; share/opscope.trace-1.md), then read back as a profile: its kernels,
self / total CUDA times, torch's table columns and the Chrome trace's GPU lanes. On a GPU,
test_cuda_profiler.py checks the recording itself."""
import json

import opscope
from opscope.profiler import _trace
from opscope.profiler._chrome import chrome_trace
from opscope.profiler._from_trace import events_from_trace

KERNEL_US = {"aten::mm": 30.0, "aten::add": 2.5}


def _profile_with_device_time():
    a, b = opscope.ones(8, 8), opscope.ones(8, 8)
    with opscope.trace() as t:
        opscope.matmul(a, b).add(1)
    doc = json.loads(t.to_json())
    origin = doc["events"][0]["t_ns"]
    open_steps, clock = {}, origin + 10_000
    for e in doc["events"]:
        op = e.get("op", "").split(".")[0]  # aten::add.Tensor -> aten::add
        if e["kind"] == "enter" and e["key"] == "CPU" and op in KERNEL_US:
            e.update(device_ns=clock, stream=7, device_index=0)
            open_steps[e["step"]] = KERNEL_US[op]
        elif e["kind"] == "exit" and e["step"] in open_steps:
            clock += int(open_steps.pop(e["step"]) * 1000)
            e["device_ns"] = clock
            clock += 1000
    trace = _trace.load(json.dumps(doc))
    return events_from_trace(trace, origin), origin


def test_kernels_and_self_and_total_cuda_time():
    events, _ = _profile_with_device_time()
    by_key = {e.key: e for e in events}
    mm, matmul, add = by_key["aten::mm"], by_key["aten::matmul"], by_key["aten::add"]
    assert [(k.device, k.duration) for k in mm.kernels] == [(0, 30.0)]
    assert mm.kernels[0].name == [s.kernel for s in mm.steps if s.key == "CPU"][0]
    assert (mm.self_cuda_time_total, mm.cuda_time_total) == (30.0, 30.0)
    # matmul launched nothing itself: its time is mm's (torch's self / total split)
    assert (matmul.self_cuda_time_total, matmul.cuda_time_total) == (0.0, 30.0)
    assert add.self_cuda_time_total == 2.5
    avg = {e.key: e for e in events.key_averages()}
    assert avg["aten::mm"].self_cuda_time_total == 30.0
    assert avg["aten::matmul"].cuda_time_total == 30.0
    assert avg["aten::mm"].cuda_time == 30.0  # per call


def test_table_has_torchs_cuda_columns():
    events, _ = _profile_with_device_time()
    text = events.key_averages().table(sort_by="self_cuda_time_total")
    header = text.splitlines()[1].split()
    assert header[:10] == ["Name", "Self", "CPU", "%", "Self", "CPU", "CPU", "total", "%", "CPU"]
    assert "Self CUDA" in text.splitlines()[1] and "CUDA time avg" in text.splitlines()[1]
    assert text.rstrip().endswith("Self CUDA time total: 32.500us")
    first_row = text.splitlines()[3]
    assert first_row.split()[0] == "aten::mm" and "92.31%" in first_row  # 30 / 32.5
    # A profile without device time keeps the CPU-only columns.
    with opscope.profiler.profile(activities=[opscope.profiler.ProfilerActivity.CPU]) as p:
        opscope.ones(2) + 1
    assert "CUDA" not in p.key_averages().table()


def test_chrome_trace_puts_kernels_on_stream_lanes_linked_to_their_ops():
    events, origin = _profile_with_device_time()
    doc = chrome_trace(events, origin)
    kernels = [e for e in doc["traceEvents"] if e.get("cat") == "kernel"]
    assert [(k["args"]["Op"], k["pid"], k["tid"], k["dur"]) for k in kernels] == [
        ("aten::mm", 0, 7, 30.0), ("aten::add.Tensor", 0, 7, 2.5)]
    mm_slice = next(e for e in doc["traceEvents"] if e.get("ph") == "X" and e["name"] == "aten::mm")
    assert kernels[0]["args"]["External id"] == mm_slice["args"]["External id"]
    starts = [e for e in doc["traceEvents"] if e.get("cat") == "ac2g" and e["ph"] == "s"]
    ends = [e for e in doc["traceEvents"] if e.get("cat") == "ac2g" and e["ph"] == "f"]
    assert len(starts) == len(ends) == 2
    assert {s["id"] for s in starts} == {f["id"] for f in ends}
    assert starts[0]["ts"] == mm_slice["ts"] and ends[0]["ts"] == kernels[0]["ts"]
    lanes = {(m["pid"], m["args"]["name"]) for m in doc["traceEvents"]
             if m["ph"] == "M" and m["name"] == "thread_name" and m["pid"] == 0}
    assert lanes == {(0, "stream 7")}
    labels = [m["args"]["labels"] for m in doc["traceEvents"]
              if m["ph"] == "M" and m["name"] == "process_labels"]
    assert labels == ["CPU", "GPU 0"]


def test_a_trace_without_device_time_has_no_device_fields():
    with opscope.trace() as t:
        opscope.ones(2) + 1
    assert all("device_ns" not in e for e in t.events)
    assert all(op.self_device_ns == 0 for op in t.ops)


def test_a_kernel_that_calls_ops_keeps_only_its_own_time():
    # sum() runs sum.dim_IntList from inside its kernel: the inner step's span lies inside the
    # outer one's, and each op is given only its own part (torch gives a kernel to the innermost
    # op), so nothing is counted twice.
    with opscope.trace() as t:
        opscope.ones(4).sum()
    doc = json.loads(t.to_json())
    origin = doc["events"][0]["t_ns"]
    spans = {"aten::sum": (0, 10_000), "aten::sum.dim_IntList": (2_000, 8_000)}
    steps = {}
    for e in doc["events"]:
        if e["kind"] == "enter" and e["key"] == "CPU" and e["op"] in spans:
            e.update(device_ns=origin + spans[e["op"]][0], stream=0, device_index=0)
            steps[e["step"]] = spans[e["op"]][1]
        elif e["kind"] == "exit" and e["step"] in steps:
            e["device_ns"] = origin + steps[e["step"]]
    assert len(steps) == 2, "sum's CPU kernel no longer calls sum.dim_IntList"
    trace = _trace.load(json.dumps(doc))
    outer, inner = (op for op in trace.ops if op.name.startswith("aten::sum"))
    assert (outer.self_device_ns, inner.self_device_ns) == (4_000, 6_000)
    # The profile folds sum.dim_IntList into its same-named parent (torch's _remove_dup_nodes):
    # one aten::sum with both kernels, 10 us in all.
    events = events_from_trace(trace, origin)
    (summed,) = [e for e in events if e.key == "aten::sum"]
    assert sorted(k.duration for k in summed.kernels) == [4.0, 6.0]
    assert summed.self_cuda_time_total == summed.cuda_time_total == 10.0
    assert events.key_averages().table().rstrip().endswith("Self CUDA time total: 10.000us")


def test_the_notebook_table_has_the_cuda_columns_too():
    from opscope.profiler._html import key_averages_body
    events, _ = _profile_with_device_time()
    html = key_averages_body(events.key_averages(), sort_by="self_cuda_time_total")
    heads = [h.split("<")[0].replace(" ▾", "") for h in html.split('<th class="os-num">')[1:]]
    assert heads[:9] == ["Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg",
                         "Self CUDA", "Self CUDA %", "CUDA total", "CUDA time avg"]
    assert "Self CUDA time total: 32.5" in html and "92.31%" in html
