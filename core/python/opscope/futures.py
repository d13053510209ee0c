"""opscope.futures: torch.futures' Future, collect_all and wait_all, plus two things for
interactive work — ``await`` on a Future, and ``submit(fn, *args)`` to run a function on a thread.

>>> import opscope as torch
>>> fut = torch.futures.Future()
>>> doubled = fut.then(lambda f: f.wait() * 2)
>>> fut.set_result(21)
>>> doubled.wait()
42

A Future is a value (or an exception) that some thread sets once; ``wait()`` blocks for it without
holding the GIL, ``then(cb)`` chains work on it. The state lives in C++ (opscope._C._Future, see
core/python/futures.h), so C++ code completes and waits on the same objects.

In a REPL or a notebook, a long computation can run on a worker thread while you keep typing::

    fut = torch.futures.submit(train, model, epochs=10)   # returns at once
    ...                                                    # other cells run meanwhile
    losses = await fut                                     # top-level await (IPython)

``await fut`` never blocks the event loop: the Future completes an asyncio future of the running
loop through ``loop.call_soon_threadsafe``. Cancelling the awaiting task stops the wait, not the
work (a thread cannot be interrupted): the Future still completes.

Hooks written as ``async def`` (Tensor.register_hook, autograd.graph.saved_tensors_hooks,
profiler.add_hook) run on opscope's own asyncio loop thread, each with a timeout
(``set_async_hook_timeout``); one that raises, is cancelled or times out gives a RuntimeWarning
and the op goes on as without it (see Note [Async hooks] in core/python/futures.cpp).
"""
import itertools
import sys
import threading
import traceback
from typing import Generic, TypeVar

from opscope import _C

__all__ = ["Future", "collect_all", "wait_all", "submit", "set_async_hook_timeout",
           "get_async_hook_timeout"]

T = TypeVar("T")


def _callback_error(e):
    """torch's text for an exception raised in a callback: the type, the message and the stack
    it was raised on, innermost frame first."""
    tb = e.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    frames = "" if tb is None else "".join(
        f"  {f.f_code.co_filename}({line}): {f.f_code.co_name}\n"
        for f, line in traceback.walk_stack(tb.tb_frame))
    return f"Got the following error when running the callback: {type(e).__name__}: {e}\n\nAt:\n{frames}"


class Future(_C._Future, Generic[T]):
    """A value or an exception that is set once (torch.futures.Future)."""

    def __init__(self, *, devices=None):
        # Tensors in a value stay where they are: CPU futures need no devices; CUDA ones would
        # need stream synchronization, which opscope's futures do not do.
        for d in devices or []:
            if str(d) == "cpu":
                raise ValueError(f"Expected devices to have indices, got {d}")
            raise ValueError(f"opscope.futures.Future does not synchronize CUDA streams; "
                             f"devices={devices!r} is not supported")
        super().__init__()

    def then(self, callback):
        """A new Future holding callback(self)'s result, set when self is done (callback runs
        now when it already is). An exception in callback sets the new Future's exception."""
        if not callable(callback):
            raise TypeError(f"then(): incompatible function arguments: callback must be "
                            f"callable, got {type(callback).__name__}")
        child = Future()

        def run(fut):
            try:
                result = callback(fut)
            except Exception as e:  # noqa: B902  (it becomes child's exception, as in torch)
                child._set_error(RuntimeError(_callback_error(e)))
            else:
                child.set_result(result)
        super().add_done_callback(run)
        return child

    def add_done_callback(self, callback):
        """callback(self) when self is done (now, when it already is). An exception it raises
        is printed to stderr, and the other callbacks still run."""
        if not callable(callback):
            raise TypeError(f"add_done_callback(): incompatible function arguments: callback "
                            f"must be callable, got {type(callback).__name__}")

        def run(fut):
            try:
                callback(fut)
            except Exception as e:  # noqa: B902  (torch logs it and goes on)
                print(_callback_error(e), file=sys.stderr)
        super().add_done_callback(run)

    def set_exception(self, result):
        """Completes self with an exception: wait() and value() raise it."""
        assert isinstance(result, Exception), \
            f"{result} is of type {type(result)}, not an Exception."
        self._set_error(result)

    def __await__(self):
        """``await fut`` in a coroutine: suspends it (the event loop keeps running) until fut
        is done; its value, or raises its exception."""
        import asyncio
        loop = asyncio.get_running_loop()
        waiter = loop.create_future()

        def settle(fut):
            if waiter.done():  # the awaiting task was cancelled meanwhile
                return
            error = fut._exception()
            if error is not None:
                waiter.set_exception(error)
            else:
                waiter.set_result(fut.value())

        def done(fut):
            try:
                loop.call_soon_threadsafe(settle, fut)
            except RuntimeError:  # that loop is closed: nobody is waiting any more
                pass
        self.add_done_callback(done)
        return (yield from waiter.__await__())

    def __repr__(self):
        state = "done" if self.done() else "pending"
        return f"<opscope.futures.Future object at {id(self):#x} ({state})>"


def collect_all(futures):
    """A Future of the list of futures, done when all of them are (torch.futures.collect_all).
    When one of them fails, the combined Future fails with that exception."""
    futures = list(futures)
    for f in futures:
        if not isinstance(f, _C._Future):
            raise TypeError(f"_collect_all(): incompatible function arguments: expected a list "
                            f"of Futures, got {type(f).__name__}")
    combined = Future()
    if not futures:
        combined.set_result([])
        return combined
    remaining = [len(futures)]
    lock = threading.Lock()

    def one_done(_):
        with lock:
            remaining[0] -= 1
            last = remaining[0] == 0
        if last:
            error = next((f._exception() for f in futures if f._exception() is not None), None)
            if error is not None:
                combined._set_error(error)
            else:
                combined.set_result(futures)
    for f in futures:
        _C._Future.add_done_callback(f, one_done)
    return combined


def wait_all(futures):
    """The values of all futures, waiting for each; raises the first exception met."""
    return [fut.wait() for fut in collect_all(futures).wait()]


_submitted = itertools.count(1)


def submit(fn, *args, **kwargs):
    """Runs fn(*args, **kwargs) on a new thread; returns the Future of its result at once.

    The thread is a daemon named ``opscope-submit-N: fn``; the ops it runs are recorded with it
    (a trace's records carry their thread). An exception fn raises becomes the Future's (a
    KeyboardInterrupt or SystemExit too: wait() raises it where you wait)."""
    if not callable(fn):
        raise TypeError(f"submit() expects a callable, got {type(fn).__name__}")
    fut = Future()

    def run():
        try:
            result = fn(*args, **kwargs)
        except BaseException as e:  # noqa: B902  (it is the Future's)
            fut._set_error(e)
        else:
            fut.set_result(result)
    name = f"opscope-submit-{next(_submitted)}: {getattr(fn, '__qualname__', repr(fn))}"
    threading.Thread(target=run, name=name, daemon=True).start()
    return fut


def set_async_hook_timeout(seconds):
    """How long (seconds, > 0) an ``async def`` hook may run before it is cancelled and the op
    goes on without it; 5 s unless set."""
    _C._set_async_hook_timeout(float(seconds))


def get_async_hook_timeout():
    return _C._get_async_hook_timeout()
