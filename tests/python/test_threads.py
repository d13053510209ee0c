"""Threads: ops and backward on several threads at once give the right answers; traces, profiles
and op hooks started and ended while other threads run backward never deadlock; Ctrl-C during a
long op raises KeyboardInterrupt and the process goes on.

Each scenario runs in a child process with faulthandler armed (dump_traceback_later): a deadlock
prints every thread's Python stack there, then this process adds the native stacks (gdb, when it
is installed and may attach) and fails the test — it never hangs the suite. See
Note [No Python object dies under a lock] in core/dispatch/Observer.cpp for the deadlocks these
tests caught.

OPSCOPE_THREADS_SECONDS sets the length of the long run (default 20 s)."""
import os
import queue
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
LONG_RUN_S = float(os.environ.get("OPSCOPE_THREADS_SECONDS", "20"))

# What every child starts with: opscope, faulthandler armed, and a worker that runs forward and
# backward on its own tensors and checks both against NumPy (in float64).
PRELUDE = r'''
import faulthandler, os, sys, threading, time
import numpy as np
import opscope as torch

faulthandler.dump_traceback_later(float(os.environ["CHILD_TIMEOUT"]), exit=False)
errors = []          # what went wrong on any thread (a thread's exception would only print)
errors_lock = threading.Lock()


def fail(msg):
    with errors_lock:
        errors.append(msg)


def close(got, want, what):
    got = np.asarray(got, dtype=np.float64)
    diff = float(np.max(np.abs(got - want))) if got.size else 0.0
    if got.shape != want.shape or not diff <= 1e-4 * (1 + float(np.max(np.abs(want)))):
        fail(f"{what}: shape {got.shape} vs {want.shape}, maxdiff {diff:.3g}")
        return False
    return True


def one_step(rng, tag, shared=None):
    """loss = sum(tanh(x @ w) ** 2) [+ sum(shared * x[:, :4])]; backward; checks the loss and both
    gradients. Returns the gradient it added into `shared` (float64), or None."""
    a = rng.standard_normal((8, 12)).astype(np.float32)
    b = rng.standard_normal((12, 6)).astype(np.float32)
    x = torch.tensor(a, requires_grad=True)
    w = torch.tensor(b, requires_grad=True)
    y = torch.tanh(x @ w)
    loss = (y * y).sum()
    if shared is not None:
        loss = loss + (shared * x[:, :4]).sum()
    loss.backward()
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    yr = np.tanh(a64 @ b64)
    g = 2 * yr * (1 - yr * yr)
    gx = g @ b64.T
    if shared is None:
        close(loss.item(), np.float64((yr * yr).sum()), f"{tag} loss")
    else:
        gx[:, :4] += shared.detach().numpy().astype(np.float64)
    close(x.grad.numpy(), gx, f"{tag} x.grad")
    close(w.grad.numpy(), a64.T @ g, f"{tag} w.grad")
    return a64[:, :4] if shared is not None else None


def worker(seed, stop, counts, shared=None, sums=None):
    rng = np.random.default_rng(seed)
    n, acc = 0, np.zeros((8, 4))
    try:
        while not stop.is_set():
            contribution = one_step(rng, f"thread {seed} step {n}", shared)
            if contribution is not None:
                acc += contribution
            n += 1
    except BaseException as e:  # noqa: B902  (reported, not swallowed)
        fail(f"thread {seed} step {n}: {type(e).__name__}: {e}")
    counts[seed] = n
    if sums is not None:
        sums[seed] = acc


def start_workers(k, **kw):
    stop, counts = threading.Event(), {}
    threads = [threading.Thread(target=worker, args=(s, stop, counts), kwargs=kw, daemon=True)
               for s in range(k)]
    for t in threads:
        t.start()
    return stop, counts, threads


def stop_workers(stop, counts, threads, k):
    stop.set()
    for t in threads:
        t.join()
    if len(counts) != k or min(counts.values()) == 0:
        fail(f"workers did not all make progress: {counts}")


def finish():
    faulthandler.cancel_dump_traceback_later()
    if errors:
        print("ERRORS:", *errors[:20], sep="\n  ", file=sys.stderr)
        sys.exit(1)
    print("OK", flush=True)
'''


def _native_stacks(pid):
    """Every thread's C/C++ stack of process pid, by gdb (best effort: '' when it cannot)."""
    if shutil.which("gdb") is None:
        return ""
    try:
        r = subprocess.run(["gdb", "-p", str(pid), "-batch", "-nx", "-ex", "thread apply all bt 40"],
                           capture_output=True, text=True, timeout=60)
        return r.stdout[-20000:]
    except (subprocess.SubprocessError, OSError):
        return ""


def run_child(body, timeout, on_ready=None):
    """Runs PRELUDE + body in a fresh interpreter. A child still running after `timeout` seconds
    counts as deadlocked: its faulthandler has printed the Python stacks by then; the native ones
    are added and the test fails. With on_ready, once the child prints READY, on_ready(proc,
    next_line) is called, next_line(timeout) giving the child's next line of output."""
    code = PRELUDE + textwrap.dedent(body)
    env = dict(os.environ, CHILD_TIMEOUT=str(timeout), PYTHONUNBUFFERED="1",
               PYTHONPATH=os.pathsep.join(p for p in [os.path.join(ROOT, "core", "python"),
                                                      os.environ.get("PYTHONPATH", "")] if p))
    # SIGINT back to its default in the child, as a terminal gives it: a job started in the
    # background by a non-interactive shell (as CI may run us) passes SIGINT on ignored.
    proc = subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    # Both pipes are read by threads (a full pipe would block the child); stdout's lines also go
    # to a queue for on_ready.
    out, err, lines = [], [], queue.Queue()

    def pump(stream, sink, q=None):
        for line in stream:
            sink.append(line)
            if q is not None:
                q.put(line)

    pumps = [threading.Thread(target=pump, args=(proc.stdout, out, lines), daemon=True),
             threading.Thread(target=pump, args=(proc.stderr, err), daemon=True)]
    for p in pumps:
        p.start()

    def next_line(wait):
        try:
            return lines.get(timeout=wait)
        except queue.Empty:
            return ""

    def output():
        proc.wait()
        for p in pumps:
            p.join(timeout=10)
        return "".join(out), "".join(err)

    t0 = time.monotonic()
    try:
        if on_ready is not None:
            line = next_line(timeout)
            if line.strip() != "READY":
                proc.kill()
                o, e = output()
                pytest.fail(f"child said {line!r}\nstdout:\n{o[-3000:]}\nstderr:\n{e[-10000:]}")
            try:
                on_ready(proc, next_line)
            except AssertionError as failure:
                proc.kill()
                o, e = output()
                pytest.fail(f"{failure}\nstdout:\n{o[-3000:]}\nstderr:\n{e[-10000:]}")
        proc.wait(timeout=max(1.0, timeout + 3 - (time.monotonic() - t0)))
    except subprocess.TimeoutExpired:
        native = _native_stacks(proc.pid)
        proc.kill()
        o, e = output()
        pytest.fail(f"deadlock: the child did not finish in {timeout} s\n--- Python stacks "
                    f"(faulthandler) ---\n{e[-20000:]}\n--- native stacks ---\n{native}")
    finally:
        if proc.poll() is None:
            proc.kill()
    o, e = output()
    assert proc.returncode == 0 and o.strip().endswith("OK"), (
        f"child exited with {proc.returncode}\nstdout:\n{o[-5000:]}\nstderr:\n{e[-20000:]}")
    return o


def test_ops_and_backward_on_four_threads_are_right():
    # Four threads, each its own forward + backward (checked against NumPy at every step), all
    # of them also adding into one shared leaf's .grad: its sum must be every contribution.
    out = run_child(f"""
        shared = torch.zeros(8, 4, requires_grad=True)
        stop, counts, sums = threading.Event(), {{}}, {{}}
        threads = [threading.Thread(target=worker, args=(s, stop, counts, shared, sums))
                   for s in range(4)]
        for t in threads:
            t.start()
        time.sleep({LONG_RUN_S})
        stop_workers(stop, counts, threads, 4)
        close(shared.grad.numpy(), sum(sums.values()), "shared leaf's .grad")
        print("steps", sum(counts.values()), flush=True)
        finish()
    """, timeout=LONG_RUN_S + 40)
    steps = int(out.split("steps")[1].split()[0])
    assert steps >= 100, f"only {steps} steps in {LONG_RUN_S} s"


def test_a_shared_leaf_gets_every_threads_gradient():
    # Four threads' backward passes add into one big leaf's .grad at once (each thread adds k + 1
    # per pass: integers, exact in float32). Unserialized, in-place adds lose some of them — see
    # Note [Concurrent accumulation] in core/autograd/Engine.cpp.
    run_child("""
        shared = torch.zeros(256, 256, requires_grad=True)
        ones = torch.ones(256, 256)
        stop, counts = threading.Event(), {}
        def accumulate(k):
            c, n = ones * float(k + 1), 0
            try:
                while not stop.is_set():
                    (shared * c).sum().backward()
                    n += 1
            except BaseException as e:
                fail(f"thread {k}: {type(e).__name__}: {e}")
            counts[k] = n
        threads = [threading.Thread(target=accumulate, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        time.sleep(3)
        stop.set()
        for t in threads:
            t.join()
        want = sum((k + 1) * n for k, n in counts.items())
        got = shared.grad.numpy()
        if got.min() != want or got.max() != want:
            fail(f"shared .grad in [{got.min()}, {got.max()}], want {want} everywhere ({counts})")
        finish()
    """, timeout=40)


def test_a_trace_on_one_thread_while_others_run():
    # The tracing thread's own ops are exactly its program, in order, while three other threads
    # run forward and backward (their ops are in the trace too, on their own threads).
    run_child("""
        stop, counts, threads = start_workers(3)
        def tracer():
            others, t_end = 0, time.monotonic() + 4
            try:
                # Each trace holds the thousands of ops the others ran meanwhile: 4 s of them.
                for i in range(60):
                    if i >= 5 and time.monotonic() > t_end:
                        break
                    x = torch.ones(4, 4)
                    with torch.profiler.trace() as t:
                        y = x.exp()  # the workers call no exp, nor mean: these mark this thread
                        time.sleep(0.003)  # lets the others run, inside the trace
                        y = (y + 1).mean()
                    assert abs(y.item() - (np.e + 1)) < 1e-5, y.item()
                    me = {r.thread for r in t.roots if r.name == "aten::exp"}
                    assert len(me) == 1, me
                    names = [r.name for r in t.roots if r.thread in me]
                    assert names == ["aten::exp", "aten::add.Tensor", "aten::mean"], names
                    others += len({r.thread for r in t.roots} - me)
                assert others > 0, f"no other thread's ops in {i} traces"
            except BaseException as e:
                fail(f"tracer: {type(e).__name__}: {e}")
        tr = threading.Thread(target=tracer)
        tr.start()
        tr.join()
        stop_workers(stop, counts, threads, 3)
        finish()
    """, timeout=60)


def test_hooks_added_and_removed_while_threads_run_backward():
    # The deadlock: a backward thread drops the last reference of a removed hook — a Python
    # callable — while holding the observer list's mutex, and waits for the GIL; the main thread
    # holds the GIL and waits for that mutex (adding the next hook, or dispatching an op).
    run_child("""
        stop, counts, threads = start_workers(3)
        seen_total, t_end, i = 0, time.monotonic() + 4, 0
        while time.monotonic() < t_end:
            seen = []
            h = torch.profiler.add_hook(on_enter=lambda c, seen=seen: seen.append(c.name),
                                        on_exit=lambda c: None)
            z = torch.ones(3) * 2
            h.remove()
            if "aten::mul.Tensor" not in seen:
                fail(f"iteration {i}: the hook missed this thread's op: {seen[:5]}")
            if z.tolist() != [2.0, 2.0, 2.0]:
                fail(f"iteration {i}: {z.tolist()}")
            seen_total += len(seen)
            i += 1
        stop_workers(stop, counts, threads, 3)
        print("iterations", i, flush=True)
        finish()
    """, timeout=40)


@pytest.mark.parametrize("kind", ["trace", "profile"])
def test_stacks_recordings_ending_while_threads_run_backward(kind):
    # trace(with_stack=True) / profile(with_stack=True) ending while other threads run backward
    # (with the GIL released, their kernels' stacks hold Python frames): the recorder, and the
    # frames it holds, must not be freed under the observer list's mutex, nor a stack captured
    # under the BLAS listeners' one.
    run_child(f"""
        stop, counts, threads = start_workers(3)
        a, b = torch.ones(16, 8), torch.ones(8, 4)
        t_end, i = time.monotonic() + 4, 0
        while time.monotonic() < t_end:
            if "{kind}" == "trace":
                with torch.profiler.trace(with_stack=True) as t:
                    for _ in range(5):  # BLAS calls here and on the others, with stacks
                        y = a @ b
                mm = [r for r in t.ops if r.name == "aten::mm" and r.stack is not None]
                if not mm:
                    fail(f"iteration {{i}}: no stack for this thread's mm")
            else:
                with torch.profiler.profile(with_stack=True) as p:
                    for _ in range(5):
                        y = a @ b
                names = {{e.key for e in p.key_averages()}}
                if "aten::mm" not in names:
                    fail(f"iteration {{i}}: no aten::mm row in {{sorted(names)[:10]}}")
            if y.sum().item() != 16 * 4 * 8:
                fail(f"iteration {{i}}: a @ b sums to {{y.sum().item()}}")
            i += 1
        stop_workers(stop, counts, threads, 3)
        finish()
    """, timeout=60)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_during_a_long_op():
    # SIGINT arrives while a long matmul / sum / backward runs: KeyboardInterrupt is raised when the
    # op returns, the process goes on, and the next op is right. Three rounds, one per kind of op.
    def interrupt(proc, next_line):
        for _ in range(3):
            time.sleep(0.6)
            proc.send_signal(signal.SIGINT)
            line = next_line(40)
            assert line.startswith("caught"), f"child said {line!r}"

    run_child("""
        a = torch.ones(600, 600) / 600
        v = torch.ones(20_000_000)
        def long_mm():
            (a @ a @ a).sum()
        def long_sum():
            v.sum()
        def long_backward():
            w = torch.ones(600, 600, requires_grad=True)
            (w @ a @ a).sum().backward()
        print("READY", flush=True)
        for op in (long_mm, long_sum, long_backward):
            t0, caught = time.monotonic(), False
            try:
                while time.monotonic() - t0 < 30:
                    op()
            except KeyboardInterrupt:
                caught = True
            print("caught" if caught else "not caught", op.__name__, flush=True)
            if not caught:
                fail(f"{op.__name__}: no KeyboardInterrupt in 30 s")
            z = (torch.ones(3, 3) @ torch.ones(3, 3)).sum()
            if z.item() != 27.0:
                fail(f"after {op.__name__}: next op gave {z.item()}")
        finish()
    """, timeout=60, on_ready=interrupt)


# --- The GIL released around big kernels (Note [Releasing the GIL around kernels], gil.cpp) ----

# Thread A runs one long op; thread B loops short ops of the same kind. B finishing two or more
# ops wholly inside A's op shows both ran at once: were the GIL held through A's kernel, B could
# take no timestamp there (one B op may slip in between A's timestamp and A's call, not two).
CONCURRENT = r'''
import numpy as np
rng = np.random.default_rng(0)
def rand(*shape):
    return torch.tensor(rng.standard_normal(shape, dtype=np.float32))
KIND = {kind!r}
if KIND == "mm":
    big, small = rand(1800, 1800), rand(400, 400)
    long_op = lambda: torch.mm(big, big)
    short_op = lambda: torch.mm(small, small)
elif KIND == "sum":
    big, small = rand(40_000_000), rand(400_000)
    long_op = lambda: big.sum()
    short_op = lambda: small.sum()
else:
    x, w, small = rand(1500, 1500), rand(1500, 1500).requires_grad_(), rand(400, 400)
    long_op = lambda: torch.mm(x, w).sum().backward()
    short_op = lambda: torch.mm(small, small)
inside_best = 0
for attempt in range(3):
    stamps, go, stop = [], threading.Event(), threading.Event()
    def b_loop():
        torch.set_num_threads(1)
        go.set()
        while not stop.is_set():
            s = time.perf_counter(); short_op(); stamps.append((s, time.perf_counter()))
    torch.set_num_threads(1)
    long_op()
    tb = threading.Thread(target=b_loop); tb.start(); go.wait(); time.sleep(0.02)
    t0 = time.perf_counter(); long_op(); t1 = time.perf_counter()
    stop.set(); tb.join()
    inside = sum(1 for s, e in stamps if t0 <= s and e <= t1)
    inside_best = max(inside_best, inside)
    if inside >= 2:
        break
print("inside", inside_best, "window", round(t1 - t0, 3), flush=True)
if inside_best < 2:
    fail(f"{{KIND}}: thread B finished {{inside_best}} ops during A's {{t1 - t0:.3f}} s op")
finish()
'''


@pytest.mark.parametrize("kind", ["mm", "sum", "backward"])
def test_two_threads_run_big_ops_at_once(kind):
    # The two-thread speed-up itself (> 1.6x on 2 cores) is tests/bench/bench_threads.py's row:
    # on a shared 2-core machine a timed assertion would be flaky; this one is not.
    run_child(CONCURRENT.format(kind=kind), timeout=60)


def test_small_ops_keep_the_gil_and_big_ones_release_it():
    # The decision itself: a 1-element op keeps the GIL (no cost on small ops); a view of a big
    # tensor too (metadata only); a big op or a big factory releases it.
    run_child("""
        from opscope import _C
        probe = _C._gil_release_probe
        big = torch.ones(100_000)
        checks = {"add 1 elem": (probe("aten::add.Tensor", torch.ones(1), torch.ones(1)), False),
                  "add big": (probe("aten::add.Tensor", big, big), True),
                  "view big": (probe("aten::view", big, [100_000]), False),
                  "zeros big": (probe("aten::zeros", [100_000]), True),
                  "zeros small": (probe("aten::zeros", [4]), False),
                  "cat big": (probe("aten::cat", [big, big], 0), True)}
        for name, (got, want) in checks.items():
            if got != want:
                fail(f"{name}: releases the GIL: {got}, want {want}")
        finish()
    """, timeout=30)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_while_other_threads_run_big_ops():
    # Two workers run big ops with the GIL released (and hooks taking it back from OpenMP
    # threads); SIGINT interrupts the main thread's long op only; the workers finish right.
    def interrupt(proc, next_line):
        time.sleep(0.8)
        proc.send_signal(signal.SIGINT)
        line = next_line(40)
        assert line.startswith("caught"), f"child said {line!r}"

    run_child("""
        big = torch.ones(1200, 1200) / 1200
        stop, done = threading.Event(), {}
        calls = []
        h = torch.profiler.add_hook(on_enter=lambda c: calls.append(c.name))
        def work(k):
            n = 0
            try:
                while not stop.is_set():
                    y = torch.mm(big, big).sum()
                    if abs(y.item() - 1200.0) > 1e-2:
                        fail(f"worker {k}: {y.item()}")
                    n += 1
            except BaseException as e:
                fail(f"worker {k}: {type(e).__name__}: {e}")
            done[k] = n
        workers = [threading.Thread(target=work, args=(k,)) for k in range(2)]
        for w in workers:
            w.start()
        print("READY", flush=True)
        caught, t0 = False, time.monotonic()
        try:
            while time.monotonic() - t0 < 30:
                torch.mm(big, big)
        except KeyboardInterrupt:
            caught = True
        print("caught" if caught else "not caught", flush=True)
        stop.set()
        for w in workers:
            w.join()
        h.remove()
        if not caught:
            fail("no KeyboardInterrupt")
        if len(done) != 2 or min(done.values()) == 0:
            fail(f"workers: {done}")
        if "aten::mm" not in calls:
            fail("the op hook saw no mm")
        finish()
    """, timeout=60, on_ready=interrupt)
