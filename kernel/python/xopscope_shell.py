"""The Python half of the xopscope kernel: what kernel/interpreter.cpp asks of the IPython shell
that xeus-python built.

    setup(shell, views=True) -> dict    once, on the main thread: loads opscope.interactive
                                        (HTML views), fixes the shell; returns what kernel_info
                                        adds to xeus-python's answer
    before_cell(n, counted), after_cell()   around each execute_request, on the main thread
    shutdown()                          on shutdown_request (any thread, with the GIL)

Each fix answers an item of ../shared/kernel-pitfalls.md, cited by number.
"""
import atexit
import io
import platform
import sys
import threading
import time

__all__ = ["setup", "before_cell", "after_cell", "shutdown"]

_MAIN = threading.main_thread().ident


def _on_main_thread():
    return threading.get_ident() == _MAIN


class Outbox:
    """What other threads printed or displayed, sent by the main thread (Note [Output from
    other threads] in interpreter.cpp). `schedule` asks the main thread to call drain() soon;
    `captured` returns what the cell wrote to fds 1 and 2 ([(fd, bytes)], kernel/capture.h),
    sent to `streams[fd]`."""

    def __init__(self, schedule, captured=lambda: (), streams=None):
        self._lock = threading.Lock()
        self._items = []
        self._schedule = schedule
        self._captured = captured
        self.streams = streams or {}
        # The main thread's own writes, held back for a moment (Note [Batched output]).
        self._held = []
        self._held_stream = None
        self._held_size = 0
        self._last_sent = 0.0
        self._timer = threading.Event()
        threading.Thread(target=self._tick, name="xopscope-output", daemon=True).start()

    # Note [Batched output]
    # xeus-python publishes every write as a message: print(i) is two ("3" and "\n"), and a
    # loop of 5,000 prints sent 10,000 messages and took a minute to reach the front end
    # (ipykernel: one message, 30 ms). So the main thread's writes go out as they come only
    # after a quiet moment (BATCH_S since the last message); within that window they are held
    # and sent as one message when the window has passed — checked at the next write, and by a
    # timer thread that asks the main thread (a pending call, as for other threads' output) to
    # send what is held. Everything held is sent before any other output (a display, the
    # execute_result, the error, the view, the other stream, an input() prompt) and at the end
    # of the cell, so the order of outputs is the order of the writes. What the window costs:
    # the end of a burst of writes followed at once by a long blocking call (a sleep, one long
    # C++ op) arrives when Python runs again — its first write went out at once.
    BATCH_S = 0.05
    HELD_MAX = 1 << 16

    def write_main(self, stream, text):
        """A write of the main thread to xeus-python's `stream` (Note [Batched output])."""
        now = time.monotonic()
        if self._held_stream is not None and self._held_stream is not stream:
            self._send_held()
        if self._held_stream is None and now - self._last_sent >= self.BATCH_S:
            self.drain()  # what other threads and fds wrote before
            stream.write(text)
            self._last_sent = time.monotonic()
            return
        self._held.append(text)
        self._held_stream = stream
        self._held_size += len(text)
        if self._held_size >= self.HELD_MAX or now - self._last_sent >= self.BATCH_S:
            self.drain()
        else:
            self._timer.set()

    def new_cell(self):
        """A cell's first write goes out at once, however soon after the last cell's output."""
        self._last_sent = 0.0

    def _send_held(self):
        if self._held_stream is not None:
            stream, text = self._held_stream, "".join(self._held)
            self._held, self._held_stream, self._held_size = [], None, 0
            stream.write(text)
            self._last_sent = time.monotonic()

    def _tick(self):
        while True:
            self._timer.wait()
            self._timer.clear()
            time.sleep(self.BATCH_S)
            self._schedule()

    def put(self, send, *args):
        with self._lock:
            first = not self._items
            self._items.append((send, args))
        if first:
            self._schedule()

    def drain(self):
        """Sends what is queued, in order; consecutive writes to one stream go as one message.
        Main thread only."""
        self._send_held()
        for fd, data in self._captured():
            self.streams[fd].write(data.decode("utf-8", "replace"))
        with self._lock:
            items, self._items = self._items, []
        i = 0
        while i < len(items):
            send, args = items[i]
            i += 1
            if getattr(send, "_xopscope_write", False):
                parts = [args[0]]
                while i < len(items) and items[i][0] is send:
                    parts.append(items[i][1][0])
                    i += 1
                args = ("".join(parts),)
            send(*args)


class ThreadSafeStream(io.TextIOBase):
    """sys.stdout / sys.stderr: on the main thread, xeus-python's stream; elsewhere, the Outbox."""

    def __init__(self, stream, outbox, name):
        super().__init__()
        self._stream = stream
        self._outbox = outbox
        self._name = name
        self._write = lambda text: self._stream.write(text)
        self._write._xopscope_write = True

    @property
    def name(self):
        return f"<{self._name}>"

    @property
    def encoding(self):
        return "utf-8"

    def writable(self):
        return True

    def isatty(self):
        return False

    def fileno(self):
        # The process's own descriptor, as ipykernel's streams: during a cell it leads to the
        # cell's output too (kernel/capture.h), so faulthandler.enable() or a subprocess given
        # sys.stdout work.
        return 1 if self._name == "stdout" else 2

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        if _on_main_thread():
            self._outbox.write_main(self._stream, text)
        else:
            self._outbox.put(self._write, text)
        return len(text)

    def flush(self):
        if _on_main_thread():
            self._outbox.drain()
            self._stream.flush()


def _flushing(fn, outbox):
    """fn, after sending what the main thread wrote (an input() prompt comes after it)."""
    def call(*args, **kwargs):
        if _on_main_thread():
            outbox.drain()
        return fn(*args, **kwargs)
    call._xopscope_flushes = True
    return call


def _main_thread_only(send, outbox):
    """`send` (a display publisher's function) called as is on the main thread, queued on
    others."""
    def call(*args):
        if _on_main_thread():
            outbox.drain()
            return send(*args)
        outbox.put(send, *args)
        return None
    return call


class Kernel:
    """The state of the Python half: the shell, the outbox, the views waiting for the cell's end."""

    def __init__(self, shell, views):
        import xopscope_native  # noqa: PLC0415 — the C++ half, an embedded module
        self.shell = shell
        self.native = xopscope_native
        self.outbox = Outbox(xopscope_native.schedule_drain, xopscope_native.take_captured,
                             {1: sys.stdout, 2: sys.stderr})
        xopscope_native.set_drain(self.outbox.drain)
        self.pending_views = []
        self.show_view = None
        self._fix_streams()
        self._fix_errors()
        self._fix_exit()
        self._load_views(views)

    # Pitfall 5 --------------------------------------------------------------------------------
    def _fix_streams(self):
        sys.stdout = ThreadSafeStream(sys.stdout, self.outbox, "stdout")
        sys.stderr = ThreadSafeStream(sys.stderr, self.outbox, "stderr")
        pub = self.shell.display_pub
        pub.publish_display_data = _main_thread_only(pub.publish_display_data, self.outbox)
        pub.clear_output = _main_thread_only(pub.clear_output, self.outbox)

        # An input() prompt comes after what the cell printed (Note [Batched output]):
        # xeus-python puts its input() in builtins for each cell; pre_run_cell comes after.
        outbox = self.outbox

        def wrap_input(info=None):
            import builtins  # noqa: PLC0415
            import getpass  # noqa: PLC0415
            for owner, name in ((builtins, "input"), (getpass, "getpass")):
                current = getattr(owner, name)
                if not getattr(current, "_xopscope_flushes", False):
                    setattr(owner, name, _flushing(current, outbox))

        self.shell.events.register("pre_run_cell", wrap_input)

    # Pitfall 7 --------------------------------------------------------------------------------
    def _fix_errors(self):
        shell, native, outbox = self.shell, self.native, self.outbox

        def _showtraceback(etype, evalue, stb):
            # xeus_python_shell 0.5 keeps str(etype), "<class 'ZeroDivisionError'>", as the
            # error's ename; Jupyter's is the class name.
            shell.last_error = [getattr(etype, "__name__", str(etype)), str(evalue), stb]
            # What the cell wrote below Python goes out before xeus-python publishes the error.
            native.sync_captured()
            outbox.drain()

        shell._showtraceback = _showtraceback

    def _fix_exit(self):
        # `exit` calls shell.ask_exit(), which only IPython's terminal and ipykernel's shells
        # have: as ipykernel's, it leaves the front end an ask_exit payload (the console then
        # shuts the kernel down; exit(keep_kernel=True) keeps it).
        from IPython.core.autocall import ZMQExitAutocall  # noqa: PLC0415
        shell = self.shell
        shell.keepkernel_on_exit = False

        def ask_exit():
            shell.exit_now = not shell.keepkernel_on_exit
            shell.payload_manager.write_payload(
                {"source": "ask_exit", "keepkernel": bool(shell.keepkernel_on_exit)})

        shell.ask_exit = ask_exit
        shell.exiter = ZMQExitAutocall(shell)
        for name in ("exit", "quit"):
            shell.user_ns[name] = shell.exiter
            shell.user_ns_hidden[name] = shell.exiter

    # The views --------------------------------------------------------------------------------
    def _load_views(self, views):
        # Note [The view comes last]
        # The session layer shows a cell's view from IPython's post_run_cell event. ipykernel
        # publishes a cell's error from inside run_cell, so there the view would follow it;
        # xeus-python publishes the error after run_cell returns, which would put the view
        # between the cell's outputs and its traceback. So the kernel takes the view over: the
        # session hands it to pending_views, and after_cell draws it once xeus-python is done.
        try:
            import opscope.interactive as interactive  # noqa: PLC0415
            interactive.load_ipython_extension(self.shell)
            interactive.configure(renderer="html")
            if not views:
                interactive.configure(views="off")
        except Exception as e:  # noqa: BLE001 — the kernel still runs Python without opscope
            print(f"xopscope: opscope.interactive could not be loaded, no views: "
                  f"{type(e).__name__}: {e}", file=sys.__stderr__, flush=True)
            return
        session = interactive.frontend().session
        self.show_view = session.show
        session.show = self.pending_views.append

    def after_cell(self):
        self.outbox.drain()  # the cell's own output (capture.cpp synced it) before its view
        views, self.pending_views[:] = list(self.pending_views), []
        for execution in views:
            self.show_view(execution)
        self.outbox.drain()


_kernel = None


def setup(shell, views=True):
    """Prepares the shell; returns the kernel_info fields xeus-python gets wrong or leaves out
    (pitfall 8)."""
    global _kernel
    _kernel = Kernel(shell, views)
    try:
        import opscope  # noqa: PLC0415
        version = opscope.__version__
    except Exception:  # noqa: BLE001
        version = "unknown"
    python = platform.python_version()
    return {
        "implementation": "xopscope",
        "implementation_version": version,
        "language_info": {
            "name": "python",
            "version": python,
            "mimetype": "text/x-python",
            "file_extension": ".py",
            "codemirror_mode": {"name": "ipython", "version": sys.version_info.major},
            "pygments_lexer": f"ipython{sys.version_info.major}",
            "nbconvert_exporter": "python",
        },
        "banner": f"xopscope {version} — Python {python}, IPython, opscope's views after each "
                  f"cell (%views, %opscope)\n",
        "help_links": [
            {"text": "Python", "url": f"https://docs.python.org/{sys.version_info.major}."
                                      f"{sys.version_info.minor}"},
            {"text": "IPython", "url": "https://ipython.readthedocs.io/en/stable/"},
        ],
    }


def before_cell(execution_count, counted):
    """`execution_count` is the number xeus gives the cell (In [n]); `counted` whether the cell
    is stored in the history (not silent)."""
    shell = _kernel.shell
    # xeus counts every execute_request, IPython only the cells that are not empty: after an
    # empty cell In [n] would show what IPython keeps as In[n-1], _n-1 and history line n-1.
    # IPython's In and its in-memory history are lists indexed by the count, so the skipped
    # numbers are stored as empty inputs (as the empty cells they were) rather than jumped over.
    while counted and shell.execution_count < execution_count:
        shell.history_manager.store_inputs(shell.execution_count, "", "")
        shell.execution_count += 1
    _kernel.outbox.drain()
    _kernel.outbox.new_cell()


def after_cell():
    _kernel.after_cell()


def shutdown():
    """Pitfall 11: xeus ends the process with std::exit, so Python's atexit handlers run here."""
    if _kernel is not None and _on_main_thread():  # on the control thread it may not send
        _kernel.outbox.drain()
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001, S110 — a stream that cannot flush at exit
            pass
