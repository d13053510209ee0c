"""The profiler on a GPU: the device's own time for each op's CUDA kernels (ProfilerActivity.CUDA;
Note [Device time of an op] in core/runtime/DeviceTimer.h) — marks recorded on the stream around
each CUDA kernel step, read back on the host's clock. test_profiler_device_time.py checks, without
a GPU, how those times become torch's table columns and the Chrome trace's GPU lanes; this file
checks the recording. Without a GPU every test skips with the reason."""
import json
import time

import pytest

import opscope
from opscope.profiler import ProfilerActivity, profile

pytestmark = pytest.mark.skipif(not opscope.cuda.is_available(),
                                reason="needs a CUDA GPU (and the CUDA backend built)")


def _products(n=1024, k=8):
    a = opscope.randn(n, n, device="cuda")
    b = opscope.randn(n, n, device="cuda")
    opscope.cuda.synchronize()
    return a, b, k


def test_cuda_activity_is_supported_and_times_each_kernel_step():
    assert ProfilerActivity.CUDA in opscope.profiler.supported_activities()
    a, b, k = _products()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for _ in range(k):
            c = opscope.matmul(a, b)
        c.add_(1).sum()
    opscope.cuda.synchronize()
    events = prof.events()
    mms = [e for e in events if e.key == "aten::mm"]
    assert len(mms) == k
    for mm in mms:
        assert len(mm.kernels) == 1 and mm.kernels[0].device == 0
        assert mm.self_cuda_time_total > 0
        # 2 n^3 flops at most ~1000 TFLOP/s: a 1024^3 float32 product takes more than 2 us
        assert mm.self_cuda_time_total > 2
    matmuls = [e for e in events if e.key == "aten::matmul"]
    assert all(m.self_cuda_time_total == 0 and m.cuda_time_total > 0 for m in matmuls)
    avg = {e.key: e for e in prof.key_averages()}
    assert avg["aten::mm"].count == k and avg["aten::mm"].self_cuda_time_total > 0
    text = prof.key_averages().table(sort_by="self_cuda_time_total", row_limit=5)
    assert "Self CUDA" in text and "Self CUDA time total" in text
    assert "aten::mm" in [line.split()[0] for line in text.splitlines()[3:8]], text


def test_device_spans_follow_the_stream_in_order_and_agree_with_cuda_events():
    a, b, k = _products(2048, 6)
    start, end = opscope.cuda.Event(enable_timing=True), opscope.cuda.Event(enable_timing=True)
    with opscope.trace(device_time=True) as t:
        start.record()
        for _ in range(k):
            opscope.mm(a, b)
        end.record()
    end.synchronize()
    mms = [op for op in t.ops if op.name == "aten::mm"]
    spans = [next(s for s in op.steps if s.key == "CUDA") for op in mms]
    assert all(s.device_ns > 0 and s.stream is not None for s in spans)
    # one stream: each product starts after the one before ended
    for before, after in zip(spans, spans[1:]):
        assert after.device_start_ns >= before.device_end_ns
    # the products' device time against CUDA events around the whole loop (ms -> ns)
    total = sum(s.device_ns for s in spans)
    assert 0.5 * start.elapsed_time(end) * 1e6 < total <= 1.05 * start.elapsed_time(end) * 1e6
    # the device spans lie after the host launched them, on the same clock
    for op, s in zip(mms, spans):
        assert s.device_start_ns >= op.start_ns - 50_000
    assert spans[-1].device_end_ns <= time.monotonic_ns()


def test_chrome_trace_has_gpu_lanes(tmp_path):
    a, b, _ = _products(256, 1)
    with profile() as prof:  # the default activities hold CUDA on a GPU, as torch's
        opscope.mm(a, b)
    path = tmp_path / "trace.json"
    prof.export_chrome_trace(str(path))
    doc = json.loads(path.read_text())
    kernels = [e for e in doc["traceEvents"] if e.get("cat") == "kernel"]
    assert len(kernels) == 1 and kernels[0]["args"]["Op"] == "aten::mm"
    assert kernels[0]["dur"] > 0 and kernels[0]["pid"] == 0


def test_views_and_allocations_get_no_device_time():
    # their CUDA kernels launch nothing: marks around them would time the host
    x = opscope.ones(64, 64, device="cuda")
    with opscope.trace(device_time=True) as t:
        x.t().transpose(0, 1).view(-1)
        opscope.empty(10, device="cuda")
        x.sum()
    for op in t.ops:
        timed = [s for s in op.steps if s.device_start_ns is not None]
        if op.name.startswith(("aten::t", "aten::transpose", "aten::view", "aten::as_strided",
                               "aten::empty")):
            assert not timed, op.name
    assert sum(op.self_device_ns for op in t.ops if op.name.startswith("aten::sum")) > 0


def test_a_plain_trace_marks_nothing():
    x = opscope.ones(4, device="cuda")
    with opscope.trace() as t:
        x + x
    assert all(op.self_device_ns == 0 for op in t.ops)
    assert all(s.device_start_ns is None for op in t.ops for s in op.steps)
