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

    def put(self, send, *args):
        with self._lock:
            first = not self._items
            self._items.append((send, args))
        if first:
            self._schedule()

    def drain(self):
        """Sends what is queued, in order; consecutive writes to one stream go as one message."""
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
            self._outbox.drain()  # what other threads wrote before comes first
            self._stream.write(text)
        else:
            self._outbox.put(self._write, text)
        return len(text)

    def flush(self):
        if _on_main_thread():
            self._outbox.drain()
            self._stream.flush()


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
        session = interactive._frontend.session
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
