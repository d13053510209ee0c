"""Leaks: memory stays flat over 10^6 small ops, 10^4 traces, 10^4 backward passes, 10^4 op hooks
added and removed, 10^3 threads ending inside trace(with_stack=True), 10^3 profiles with stacks.

Each scenario runs in a fresh interpreter: a warm-up (caches fill, the interpreter's free lists
settle), then N iterations between two measurements of
  - rss:    the resident set (/proc/self/statm), sampled along the run (see run()) — ≤ 1 MB;
  - live:   the CPU allocator's bytes held by tensors (opscope._C._allocator_stats) — ≤ 1 MB;
  - heap:   glibc's bytes in use (mallinfo2: uordblks + hblkhd), C++ and Python's large objects
            alike — at most 1 MB and at most 64 bytes an iteration, so that a leak of a few
            hundred bytes per iteration fails even where N × leak stays under a megabyte of RSS;
  - blocks: CPython's live small objects (sys.getallocatedblocks) — at most one per 20 iterations;
  - code:   the references to a code object that ran the ops (a captured stack keeps one per
            Python frame it holds) — back where they were.

All of it takes about 10 s on 2 cores; OPSCOPE_LEAK_SCALE=k runs k times as many iterations.
The numbers are printed (pytest -s, or on failure)."""
import json
import os
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

# scenario -> (warm-up iterations, measured iterations). The counts; all of them take
# about 10 s on 2 cores. OPSCOPE_LEAK_SCALE=k runs k times as many (a soak).
SCALE = float(os.environ.get("OPSCOPE_LEAK_SCALE", "1"))
COUNTS = {
    "ops": (100_000, 1_000_000),  # iterations = op calls
    "traces": (1_000, 10_000),
    "backward": (1_000, 10_000),
    "hooks": (1_000, 10_000),
    "ended_threads": (200, 1_000),
    "profiles_with_stacks": (300, 1_000),
}

MB = 1 << 20

PRELUDE = r'''
import ctypes, gc, json, os, sys, time
import opscope as torch


class MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]


libc = ctypes.CDLL(None)
libc.mallinfo2.restype = MallInfo2
PAGE = os.sysconf("SC_PAGE_SIZE")
WARMUP, N = int(os.environ["LEAK_WARMUP"]), int(os.environ["LEAK_N"])


def measure(code):
    gc.collect()
    m = libc.mallinfo2()
    with open("/proc/self/statm") as f:
        rss = int(f.read().split()[1]) * PAGE
    return {"rss": rss, "heap": m.uordblks + m.hblkhd,
            "live": torch._C._allocator_stats("cpu")["current_bytes"],
            "blocks": sys.getallocatedblocks(), "code": sys.getrefcount(code)}


def run(step, warmup, n, per_call=1, code=None):
    """step(i) does per_call iterations' work. Prints the growth of each measure over n
    iterations after `warmup` ones; `code`: the code object whose references to count (step's
    own by default). RSS moves in steps of a megabyte (CPython's arenas come and go), so it is
    sampled after each tenth of the run and its growth is the lowest of the last three samples
    less the lowest of the first three: a steady leak shows, an arena held at one moment not."""
    code = code or step.__code__
    for i in range(warmup // per_call):
        step(i)
    before = measure(code)
    rss = [before["rss"]]
    calls = n // per_call
    t0 = time.perf_counter()
    for chunk in range(10):
        for i in range(chunk * calls // 10, (chunk + 1) * calls // 10):
            step(i)
        if chunk < 9:
            gc.collect()
            rss.append(measure(code)["rss"])
    seconds = time.perf_counter() - t0
    after = measure(code)
    rss.append(after["rss"])
    growth = {k: after[k] - before[k] for k in before}
    growth.update(rss=min(rss[-3:]) - min(rss[:3]), rss_samples=rss, n=n,
                  seconds=round(seconds, 2))
    print("RESULT", json.dumps(growth), flush=True)
'''

SCENARIOS = {
    # Small ops, no autograd: add, mul, a view, a reduction, an in-place op, one at a time.
    "ops": ("""
        a, b = torch.ones(8), torch.full((8,), 2.0)
        out = torch.zeros(8)
        def step(i):
            c = a + b
            d = c * 3
            e = d[1:5]
            s = e.sum()
            out.add_(a)
        run(step, WARMUP, N, per_call=5)
    """),
    # A trace of a few ops, read back as a Trace (its tree built in Python).
    "traces": ("""
        a = torch.ones(4, 4)
        def step(i):
            with torch.profiler.trace() as t:
                y = (a * 2 + 1).sum()
            assert len(t.ops) >= 3
        run(step, WARMUP, N)
    """),
    # Forward and backward of a small graph: a fresh leaf each time, and a persistent one whose
    # .grad accumulates (reset now and then, as an optimizer's zero_grad(set_to_none=True)).
    "backward": ("""
        w = torch.ones(4, 3, requires_grad=True)
        def step(i):
            x = torch.full((2, 4), 0.5, requires_grad=True)
            loss = (x @ w).tanh().sum() * 2
            loss.backward()
            assert x.grad is not None
            if i % 100 == 0:
                w.grad = None
        run(step, WARMUP, N)
    """),
    # Op hooks (Python callables held from C++) added and removed, an op seen in between.
    "hooks": ("""
        a = torch.ones(4)
        def step(i):
            seen = []
            h = torch.profiler.add_hook(on_enter=lambda c: seen.append(c.name))
            b = a * 2
            h.remove()
            assert seen == ["aten::mul.Tensor"], seen
        run(step, WARMUP, N)
    """),
    # A thread that runs an op inside trace(with_stack=True) and ends: its copy of the observer
    # list (holding the recorder, and the stack's references to `work`'s code) is handed over
    # when it ends, and let go by the next trace's start.
    "ended_threads": ("""
        import threading
        a, b = torch.ones(16, 8), torch.ones(8, 4)
        def work():
            y = a @ b
        def step(i):
            with torch.profiler.trace(with_stack=True) as t:
                th = threading.Thread(target=work)
                th.start()
                th.join()
            assert any(op.name == "aten::mm" for op in t.ops)
        run(step, WARMUP, N, code=work.__code__)
    """),
    # torch.profiler.profile(with_stack=True) around a product and a sum, and its table grouped by
    # stack (symbolized): each kernel's stack holds references to the Python frames' code objects
    # until it is dropped.
    "profiles_with_stacks": ("""
        a, b = torch.ones(16, 8), torch.ones(8, 4)
        def step(i):
            with torch.profiler.profile(with_stack=True) as p:
                y = (a @ b).sum()
            assert "aten::mm" in p.key_averages(group_by_stack_n=5).table()
        run(step, WARMUP, N)
    """),
}


def _run_scenario(name):
    warmup, n = COUNTS[name]
    n = int(n * SCALE)
    code = PRELUDE + textwrap.dedent(SCENARIOS[name])
    env = dict(os.environ, LEAK_WARMUP=str(warmup), LEAK_N=str(n), PYTHONPATH=os.pathsep.join(
        p for p in [os.path.join(ROOT, "core", "python"), os.environ.get("PYTHONPATH", "")] if p))
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                       timeout=900)
    assert r.returncode == 0, f"child failed:\n{r.stdout[-3000:]}\n{r.stderr[-5000:]}"
    line = [ln for ln in r.stdout.splitlines() if ln.startswith("RESULT ")][-1]
    return json.loads(line[len("RESULT "):])


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_memory_stays_flat(name):
    g = _run_scenario(name)
    n = g["n"]
    print(f"\n{name}: {n} iterations in {g['seconds']} s; growth: rss {g['rss'] / 1024:.0f} KiB, "
          f"live {g['live']} B, heap {g['heap']} B ({g['heap'] / n:.1f} B/iteration), "
          f"Python blocks {g['blocks']}, code refs {g['code']}")
    assert g["rss"] <= MB, f"RSS grew {g['rss'] / MB:.2f} MB over {n} iterations: {g}"
    assert abs(g["live"]) <= MB, f"tensors hold {g['live']} more bytes after {n} iterations: {g}"
    assert g["heap"] <= min(MB, 64 * n), f"the C heap grew {g['heap']} B over {n} iterations: {g}"
    assert g["blocks"] <= n // 20, f"{g['blocks']} more Python objects after {n} iterations: {g}"
    assert g["code"] == 0, f"{g['code']} references to a code object kept (stacks): {g}"
