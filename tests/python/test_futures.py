"""opscope.futures: torch.futures' semantics (against torch 1.13's behaviour recorded in
data/futures.json by make_torch_reference_futures.py), ``await`` from asyncio, ``submit``, and hooks
written as ``async def`` (Note [Async hooks] in core/python/futures.cpp), with a stress test of
10^4 of them."""
import _thread
import asyncio
import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
import warnings

import numpy as np
import pytest

import opscope as torch
import opscope.futures as F
from futures_cases import CASES, run_case

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "data", "futures.json")) as _f:
    REFERENCE = json.load(_f)["cases"]

# Messages compared by what they start with: torch's own text names its source file
# (value_before_done), or pybind11's argument listing (then_not_callable, collect_all_not_futures);
# the callback errors end with the stack, whose frames are torch's own files there.
PREFIX = {"value_before_done": "completed() INTERNAL ASSERT FAILED",
          "then_not_callable": "then(): incompatible function arguments",
          "collect_all_not_futures": "_collect_all(): incompatible function arguments"}
WITH_STACK = {"then_callback_raises", "then_on_failed_future"}


@pytest.mark.parametrize("name", sorted(CASES))
def test_semantics_as_torch(name):
    want, got = REFERENCE[name], json.loads(json.dumps(run_case(CASES[name], F)))
    if "value" in want:
        assert got == want, f"{name}: opscope {got}, torch {want}"
        return
    assert got.get("error") == want["error"], f"{name}: opscope {got}, torch {want}"
    if name in PREFIX:
        assert got["message"].startswith(PREFIX[name]), got["message"]
    elif name in WITH_STACK:
        head = want["message"].split("\n\nAt:\n")[0]
        assert got["message"].startswith(head + "\n\nAt:\n  "), got["message"]
        assert "futures_cases.py" in got["message"]  # the stack names where it was raised
    else:
        assert got["message"] == want["message"]


def test_callback_error_is_printed_and_others_run(capsys):
    f, seen = F.Future(), []

    def bad(fut):
        raise ValueError("in callback")
    f.add_done_callback(bad)
    f.add_done_callback(lambda fut: seen.append(fut.value()))
    f.set_result(9)
    assert seen == [9]
    err = capsys.readouterr().err
    assert "Got the following error when running the callback: ValueError: in callback" in err


def test_wait_lets_other_threads_run_and_ctrl_c_interrupts_it():
    f = F.Future()
    threading.Timer(0.05, lambda: f.set_result("from a thread")).start()
    assert f.wait() == "from a thread"  # would deadlock if wait() kept the GIL
    g = F.Future()
    # interrupt_main() is dropped where SIGINT is ignored (a job started in the background by a
    # non-interactive shell, as CI may run us): Python's own handler is put in place for the test.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    watchdog = threading.Timer(10, lambda: g.set_result("the interrupt was lost"))
    try:
        watchdog.start()
        threading.Timer(0.1, _thread.interrupt_main).start()
        t0 = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            g.wait()
        assert time.monotonic() - t0 < 5
        assert not g.done()
    finally:
        watchdog.cancel()
        signal.signal(signal.SIGINT, previous)


def test_repr_and_generic():
    f = F.Future()
    assert "pending" in repr(f)
    f.set_result(1)
    assert "done" in repr(f)
    assert F.Future[int] is not None
    assert isinstance(f.then(lambda x: 2), F.Future)


# --- asyncio --------------------------------------------------------------------------------

def run_loop(coroutine):
    """asyncio.run, failing on any error the loop's exception handler saw."""
    errors = []

    async def main():
        asyncio.get_running_loop().set_exception_handler(lambda loop, ctx: errors.append(ctx))
        return await coroutine

    result = asyncio.run(main())
    assert not errors, errors
    return result


def test_await_does_not_block_the_event_loop():
    async def main():
        fut, ticks = F.Future(), []

        async def ticker():
            while not fut.done():
                ticks.append(time.monotonic())
                await asyncio.sleep(0.005)
        threading.Timer(0.15, lambda: fut.set_result(3)).start()
        t = asyncio.get_running_loop().create_task(ticker())
        value = await fut
        await t
        return value, len(ticks)

    value, ticks = run_loop(main())
    assert value == 3
    assert ticks >= 5, f"the loop ticked {ticks} times while awaiting"


def test_await_done_future_and_exception():
    async def main():
        done = F.Future()
        done.set_result([1])
        failed, e = F.Future(), ValueError("failed")
        failed.set_exception(e)
        try:
            await failed
        except ValueError as got:
            return await done, got is e
    assert run_loop(main()) == ([1], True)


def test_await_with_timeout_and_cancellation():
    async def main():
        fut = F.Future()
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(fut, 0.05)

        async def waiter():
            return await fut
        task = asyncio.get_running_loop().create_task(waiter())
        await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert not fut.done()  # cancelling a wait does not touch the future
        threading.Thread(target=lambda: fut.set_result(5)).start()
        await asyncio.sleep(0.05)  # settle() runs on this loop: the waiters are gone, no error
        return fut.wait(), await fut
    assert run_loop(main()) == (5, 5)


def test_submit_runs_on_a_thread_and_can_be_awaited():
    a = np.random.default_rng(0).standard_normal((64, 64)).astype(np.float32)

    def work(x, scale=1.0):
        return ((torch.tensor(x) @ torch.tensor(x)) * scale).numpy(), threading.current_thread()

    async def main():
        fut = F.submit(work, a, scale=2.0)
        return await fut
    got, thread = run_loop(main())
    np.testing.assert_allclose(got, (a.astype(np.float64) @ a) * 2, rtol=1e-4, atol=1e-4)
    assert thread is not threading.current_thread()
    assert thread.name.startswith("opscope-submit-") and thread.name.endswith("work")


def test_submit_errors_and_interrupts_reach_the_waiter():
    def boom():
        raise KeyError("inside")
    with pytest.raises(KeyError, match="inside"):
        F.submit(boom).wait()

    def interrupted():
        raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        F.submit(interrupted).wait()
    with pytest.raises(TypeError):
        F.submit(5)


def test_submitted_ops_are_recorded_with_their_thread():
    def work():
        return torch.ones(3).exp().sum().item()  # exp: only this thread runs it
    with torch.profiler.trace() as t:
        torch.ones(2).neg()
        assert abs(F.submit(work).wait() - 3 * np.e) < 1e-5
    threads = {r.name: r.thread for r in t.roots}
    assert threads["aten::exp"] != threads["aten::neg"]
    assert threads["aten::sum"] == threads["aten::exp"]


# --- async hooks ----------------------------------------------------------------------------

@pytest.fixture
def hook_timeout():
    old = F.get_async_hook_timeout()
    yield F.set_async_hook_timeout
    F.set_async_hook_timeout(old)


def test_async_tensor_hook_changes_the_gradient():
    seen = []

    async def double(g):
        await asyncio.sleep(0.01)
        seen.append(threading.current_thread().name)
        return g * 2
    x = torch.ones(3, requires_grad=True)
    y = x * 3
    y.register_hook(double)
    y.sum().backward()
    assert x.grad.tolist() == [6.0, 6.0, 6.0]
    assert seen == ["opscope-async-hooks"]

    async def nothing(g):
        return None
    x.grad = None
    x.register_hook(nothing)
    (x * 3).sum().backward()
    assert x.grad.tolist() == [3.0, 3.0, 3.0]


def test_failing_async_hook_warns_and_the_gradient_passes():
    async def boom(g):
        raise ValueError("boom")

    async def cancelled(g):
        raise asyncio.CancelledError()
    for hook, why in ((boom, "raised ValueError: boom"), (cancelled, "was cancelled")):
        x = torch.ones(2, requires_grad=True)
        x.register_hook(hook)
        with pytest.warns(RuntimeWarning, match=f"async tensor hook .*{hook.__name__} {why}; "
                                                "the gradient passes through unchanged"):
            (x * 5).sum().backward()
        assert x.grad.tolist() == [5.0, 5.0]


def test_async_hook_timeout_cancels_the_coroutine(hook_timeout):
    hook_timeout(0.2)
    state = {}

    async def slow(g):
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            state["cancelled"] = True
            raise
        return g * 100
    x = torch.ones(2, requires_grad=True)
    x.register_hook(slow)
    t0 = time.monotonic()
    with pytest.warns(RuntimeWarning, match=r"did not finish within 0\.2 s and was cancelled"):
        (x * 2).sum().backward()
    assert time.monotonic() - t0 < 5
    assert x.grad.tolist() == [2.0, 2.0]
    for _ in range(100):
        if state.get("cancelled"):
            break
        time.sleep(0.01)
    assert state.get("cancelled"), "the timed-out coroutine was not cancelled"
    with pytest.raises(ValueError):
        F.set_async_hook_timeout(0)


def test_async_saved_tensor_hooks():
    packed = []

    async def pack(t):
        await asyncio.sleep(0)
        packed.append(t.shape)
        return t.clone()

    async def unpack(t):
        await asyncio.sleep(0)
        return t
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = (x * x).sum()
    y.backward()
    assert x.grad.tolist() == [2.0, 4.0, 6.0]
    assert packed

    async def bad_pack(t):
        raise RuntimeError("no room")
    x.grad = None
    with pytest.warns(RuntimeWarning, match="pack_hook .*no room; the tensor is saved as it is"):
        with torch.autograd.graph.saved_tensors_hooks(bad_pack, unpack):
            y = (x * x).sum()
    y.backward()
    assert x.grad.tolist() == [2.0, 4.0, 6.0]

    async def bad_unpack(t):
        raise RuntimeError("lost")
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, bad_unpack):
        y = (x * x).sum()
    with pytest.warns(RuntimeWarning, match="unpack_hook .*lost"):
        with pytest.raises(RuntimeError, match="unpack_hook gave no tensor"):
            y.backward()


def test_async_profiler_op_hook():
    names = []

    async def on_enter(call):
        await asyncio.sleep(0)
        names.append(call.name)
    h = torch.profiler.add_hook(on_enter=on_enter)
    try:
        z = torch.ones(3) * 2
    finally:
        h.remove()
    assert "aten::mul.Tensor" in names
    assert z.tolist() == [2.0, 2.0, 2.0]


def test_ten_thousand_async_hooks_on_four_threads():
    # 4 threads x 25 backward passes x 100 hooks: every hook runs once, every gradient is right.
    counts, lock, errors = [0], threading.Lock(), []

    async def plus_one(g):
        with lock:
            counts[0] += 1
        return g + 1
    n_threads, passes, hooks = 4, 25, 100

    def work():
        try:
            for _ in range(passes):
                x = torch.zeros(1, requires_grad=True)
                y = x
                for _ in range(hooks):
                    y = y * 1.0
                    y.register_hook(plus_one)
                y.sum().backward()
                if x.grad.item() != hooks + 1:
                    errors.append(x.grad.item())
        except BaseException as e:  # noqa: B902  (reported below)
            errors.append(e)
    t0 = time.monotonic()
    threads = [threading.Thread(target=work) for _ in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads), "hung"
    assert not errors, errors[:5]
    assert counts[0] == n_threads * passes * hooks
    assert time.monotonic() - t0 < 30


def test_top_level_await_in_ipython():
    # The REPL (build/bin/opscope) and the notebook kernel are IPython shells: with autoawait, a
    # cell may `await` a submitted Future while the event loop runs the cell.
    code = textwrap.dedent('''
        from IPython.core.interactiveshell import InteractiveShell
        sh = InteractiveShell.instance()
        for cell in ["import opscope as torch, asyncio",
                     "fut = torch.futures.submit(lambda: (torch.ones(3) * 2).sum().item())",
                     "v = await fut",
                     "w = await asyncio.wait_for(torch.futures.submit(lambda: 5), 10)"]:
            sh.run_cell(cell).raise_error()
        assert sh.user_ns["v"] == 6.0 and sh.user_ns["w"] == 5, sh.user_ns
        print("OK")
    ''')
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0 and r.stdout.strip().endswith("OK"), r.stdout + r.stderr


def test_async_grad_fn_hooks():
    async def post(grad_inputs, grad_outputs):
        await asyncio.sleep(0)
        return tuple(None if g is None else g * 10 for g in grad_inputs)

    async def pre(grad_outputs):
        raise ValueError("pre failed")
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    y.grad_fn.register_hook(post)
    y.grad_fn.register_prehook(pre)
    with pytest.warns(RuntimeWarning, match="grad_fn prehook .*pre failed"):
        y.sum().backward()
    assert x.grad.tolist() == [20.0, 20.0]
