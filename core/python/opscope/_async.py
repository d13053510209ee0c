"""The asyncio loop that runs hooks written as ``async def``: the Python half of C++ awaiting a
coroutine (Note [Async hooks] in core/python/futures.cpp).

A hook called from C++ (a tensor hook in backward, a saved-tensor hook, a profiler op hook) that
returns a coroutine has it run here: C++ calls ``_start(coroutine, future)``, which hands it to the
loop thread with ``loop.call_soon_threadsafe``; when its task ends, the loop thread completes the
C++ future, on which C++ waits (without the GIL) up to the timeout, then ``_cancel``s it. Why a
hook's coroutine failed is told by ``_report`` as a RuntimeWarning; the op goes on.

The loop is opscope's own, on a daemon thread named ``opscope-async-hooks`` started on first use:
never the caller's loop (a REPL's or a notebook's, which is busy running the cell that calls
backward), so a coroutine that awaits asyncio.sleep, a lock or another task of this loop works,
while one that awaits a future of another loop does not (asyncio's rule).
"""
import asyncio
import threading
import warnings

_loop = None
_thread = None
_lock = threading.Lock()


def _run(loop, ready):
    asyncio.set_event_loop(loop)
    ready.set()
    loop.run_forever()


def hook_loop():
    """The async-hook loop, started on its thread the first time it is needed."""
    global _loop, _thread
    with _lock:
        if _loop is None:
            loop, ready = asyncio.new_event_loop(), threading.Event()
            thread = threading.Thread(target=_run, args=(loop, ready), name="opscope-async-hooks",
                                      daemon=True)
            thread.start()
            ready.wait()
            _loop, _thread = loop, thread
        return _loop


class _Pending:
    """A coroutine handed to the loop: its task once the loop has started it."""
    __slots__ = ("coroutine", "task", "cancelled")

    def __init__(self, coroutine):
        self.coroutine, self.task, self.cancelled = coroutine, None, False


def _start(coroutine, future):
    """Runs coroutine on the hook loop; its result or exception completes future (a C++
    opscope._C._Future) from the loop thread. Returns the handle _cancel takes."""
    loop = hook_loop()
    if threading.current_thread() is _thread:
        coroutine.close()
        raise RuntimeError("an async hook was called on opscope's async-hook loop itself (a "
                           "coroutine there ran backward or an op with async hooks); it cannot "
                           "wait for its own loop")
    pending = _Pending(coroutine)

    def finish(task):
        if task.cancelled():
            future._set_error(asyncio.CancelledError())
        elif task.exception() is not None:
            future._set_error(task.exception())
        else:
            future.set_result(task.result())

    def begin():
        if pending.cancelled:  # timed out before the loop got to it
            coroutine.close()
            future._set_error(asyncio.CancelledError())
            return
        pending.task = loop.create_task(coroutine)
        pending.task.add_done_callback(finish)

    loop.call_soon_threadsafe(begin)
    return pending


def _cancel(pending):
    """Cancels a coroutine that ran out of time (from any thread)."""
    def cancel():
        pending.cancelled = True
        if pending.task is not None:
            pending.task.cancel()
    hook_loop().call_soon_threadsafe(cancel)


def _name(hook):
    return getattr(hook, "__qualname__", None) or repr(hook)


def _report(what, hook, exception, timeout, fallback):
    """The RuntimeWarning for a hook's coroutine that did not give a result."""
    if timeout:
        why = (f"did not finish within {timeout:g} s and was cancelled (see "
               f"opscope.futures.set_async_hook_timeout)")
    elif isinstance(exception, asyncio.CancelledError):
        why = "was cancelled"
    else:
        why = f"raised {type(exception).__name__}: {exception}"
    warnings.warn(f"async {what} {_name(hook)} {why}; {fallback}", RuntimeWarning, stacklevel=2)
