"""``opscope.interactive``: what every line or cell's ops did, shown after it runs — the layer the
terminal REPL (``opscope``), the Jupyter kernel (``xopscope``) and ``%load_ext
opscope.interactive`` in any IPython share. They differ only in how views are drawn: ANSI text
in a terminal, HTML in a notebook.

    In [1]: %load_ext opscope.interactive
    In [2]: a = opscope.randn(2, 3, requires_grad=True); b = a @ opscope.randn(3, 4)
    matmul(f32[2,3], f32[3,4]) → mm[AutogradCPU] → mm[CPU] · MmBackward0 · 12.3 µs

After each execution that ran ops: the default view (``%views``: one summary line per top-level
op, backward node or scope, loops folded into distinct paths with counts and totals); the trace
as data in ``_trace`` and ``last()``; the last ``history`` executions in ``history()``. The
magics (``%trace``, ``%stack``, ``%profile``, ``%graph``, ``%dispatch``, ``%views``,
``%opscope``) are in _magics.py, the settings in _settings.py, the recording per execution in
_session.py, the default view in _view.py.
"""
import os
import shutil
import sys

from opscope.interactive import _view
from opscope.interactive._session import Execution, Session
from opscope.interactive._settings import SETTINGS, Settings, config_path

__all__ = ["load_ipython_extension", "unload_ipython_extension", "last", "history",
           "configure", "settings", "frontend", "Frontend", "Execution"]

_frontend = None  # the Frontend of the shell the extension is loaded in


def terminal_wants_color():
    """Colour only on a terminal, and never with NO_COLOR set (https://no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


class Frontend:
    """The extension as loaded in one IPython shell: its settings, its session, and how it draws
    (text or HTML, chosen by the settings' renderer or, on auto, by the shell)."""

    def __init__(self, shell, settings):
        self.shell = shell
        self.settings = settings
        self.session = Session(settings, self.show_execution,
                               shell.user_ns if shell is not None else None)

    # --- how to draw ---------------------------------------------------------------------------

    def html(self):
        r = self.settings.renderer
        if r != "auto":
            return r == "html"
        # A terminal shell (IPython's, the opscope REPL's) or a plain InteractiveShell draws
        # text; a kernel's shell (ipykernel's ZMQInteractiveShell, xeus-python's) draws HTML.
        name = type(self.shell).__name__ if self.shell is not None else ""
        return name not in ("TerminalInteractiveShell", "InteractiveShell", "")

    def color(self):
        c = self.settings.color
        return c == "always" if c != "auto" else terminal_wants_color()

    def width(self):
        return self.settings.width or shutil.get_terminal_size((100, 24)).columns

    def _print(self, text):
        print(text, file=sys.stdout, flush=True)

    def _display(self, bundle):
        from IPython.display import display  # noqa: PLC0415
        display(bundle, raw=True)

    def show_text(self, text, rich=None):
        """Plain text (a table, a message); in HTML front ends `rich`'s own display if given."""
        if self.html() and rich is not None:
            self._display(rich._repr_mimebundle_())
        elif self.html():
            import html  # noqa: PLC0415
            self._display({"text/plain": text,
                           "text/html": f"<pre style=\"margin:0\">{html.escape(text)}</pre>"})
        else:
            # Trailing blanks (torch's table pads every cell) would wrap a line that just fits.
            self._print("\n".join(line.rstrip() for line in str(text).splitlines()))

    def show_lines(self, lines, execution=None):
        if self.html():
            self._display({"text/plain": _view.text(lines), "text/html": _view.html(lines),
                           _view.MIME: _view.to_json(lines, execution)})
        else:
            self._print(_view.text(lines, self.width(), self.color()))

    def show_tree(self, trace):
        if self.html():
            self._display(trace._repr_mimebundle_())
        else:
            self._print(str(trace.tree(width=self.width(), color=self.color())))

    def show_stack(self, op, stack, full=False):
        if self.html():
            self._display(stack._repr_mimebundle_())
            return
        title = f"{op.name}: {op.blas_routine}" if op.blas_routine else op.name
        self._print(f"{title}\n{stack.table(width=self.width(), full=full)}")

    def show_graph(self, graph):
        if self.html():
            self._display(graph._repr_mimebundle_())
        else:
            self._print(str(graph))

    def show_execution(self, execution):
        """The default view after an execution, as %views says."""
        mode = self.settings.views
        if mode == "tree":
            self.show_tree(execution.trace)
            return
        if mode == "profile":
            from opscope.profiler._from_trace import events_from_trace  # noqa: PLC0415
            trace = execution.trace
            events = events_from_trace(trace, trace.events[0]["t_ns"])
            table = events.key_averages()
            self.show_text(table.table(sort_by="self_cpu_time_total", row_limit=15), table)
            return
        self.show_lines(execution.lines, execution)
        if mode == "stack":
            trace = execution.trace
            op = next((o for o in trace.ops if o.blas_routine and o.stack is not None), None) \
                or next((o for o in trace.ops if o.stack is not None), None)
            if op is not None:
                self.show_stack(op, op.stack)


def load_ipython_extension(ipython):
    """``%load_ext opscope.interactive``: records every execution, shows its view, adds the
    magics; the names a PyTorch user expects (``opscope``, and ``torch`` when free) are imported.
    """
    global _frontend
    if _frontend is not None and _frontend.shell is ipython:
        return
    import opscope  # noqa: PLC0415
    from opscope.interactive._magics import OpscopeMagics  # noqa: PLC0415
    s = Settings(config_path())
    if s.load_problem:
        print(f"opscope: ignoring saved settings: {s.load_problem}", file=sys.stderr)
    frontend = Frontend(ipython, s)
    ipython.register_magics(OpscopeMagics(ipython, frontend))
    ipython.events.register("pre_run_cell", frontend.session.pre_run_cell)
    ipython.events.register("post_run_cell", frontend.session.post_run_cell)
    ipython.user_ns.setdefault("opscope", opscope)
    ipython.push({"_trace": None}, interactive=False)
    _frontend = frontend
    # The event that loaded us (the %load_ext cell) began before we were here; its post_run_cell
    # finds no recording and shows nothing.


def unload_ipython_extension(ipython):
    """``%unload_ext opscope.interactive``: stops recording (the magics stay until restart, as
    IPython keeps every extension's magics)."""
    global _frontend
    if _frontend is None or _frontend.shell is not ipython:
        return
    s = _frontend.session
    for name, fn in (("pre_run_cell", s.pre_run_cell), ("post_run_cell", s.post_run_cell)):
        try:
            ipython.events.unregister(name, fn)
        except ValueError:
            pass
    s.stop()
    _frontend = None


def _require():
    if _frontend is None:
        raise RuntimeError("opscope.interactive is not loaded: %load_ext opscope.interactive in "
                           "IPython or Jupyter (the opscope REPL and the xopscope kernel load it)")
    return _frontend


def last():
    """The trace of the last line or cell that ran ops (an opscope.profiler.Trace), or None."""
    execution = _require().session.last()
    return execution.trace if execution is not None else None


def history():
    """The last executions that ran ops (Execution: number, code, lines, trace), oldest first."""
    return list(_require().session.history)


def settings():
    """The settings in effect (see %opscope)."""
    return _require().settings


def frontend():
    """The Frontend of the shell the extension is loaded in. A front end that must place the
    view itself replaces ``frontend().session.show`` (a callable taking the Execution) — the
    kernel does, to draw it after xeus-python has published the cell's error."""
    return _require()


def configure(**overrides):
    """Sets settings for this session only, not saved: ``configure(views="off", width=80)``.
    A front end uses it for its command-line switches (``opscope --no-views``) and to ask for
    its renderer (the kernel: ``renderer="html"``)."""
    s = _require().settings
    for name, value in overrides.items():
        if name not in SETTINGS:
            raise TypeError(f"configure() got an unknown setting {name!r}; the settings are "
                            f"{', '.join(SETTINGS)}")
        s.override(name, value)
