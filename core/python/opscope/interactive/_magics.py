"""The magics, the same in the REPL, in the xopscope kernel and in any IPython after
``%load_ext opscope.interactive``. ``%name?`` shows each one's help (its docstring).

    %trace                 the full dispatch tree of the last line / cell that ran ops
    %trace <statement>     ... of one statement, run now          %%trace    ... of a cell
    %stack [op]            the merged Python + C++ call stack of an op of the last execution
    %profile               the last execution's key_averages table  %%profile  ... of a cell
    %graph <tensor>        the autograd graph behind a tensor
    %dispatch <op>         an op's registrations and dispatch table
    %views [mode]          what is shown after each execution: off|summary|tree|stack|profile
    %opscope [name=value]  the settings (saved under the user's config dir)
"""
import argparse
import shlex

from IPython.core.error import UsageError
from IPython.core.magic import Magics, cell_magic, line_cell_magic, line_magic, magics_class

from opscope import _C
from opscope.interactive._settings import SETTINGS, VIEWS

__all__ = ["OpscopeMagics"]


class _Parser(argparse.ArgumentParser):
    """argparse that reports a bad option as IPython's UsageError instead of exiting."""

    def error(self, message):
        raise UsageError(f"%{self.prog}: {message}")


def _parse(prog, line, add):
    p = _Parser(prog=prog, add_help=False)
    add(p)
    try:
        return p.parse_args(shlex.split(line))
    except ValueError as e:  # shlex: no closing quotation
        raise UsageError(f"%{prog}: {e}") from None


class _SortedTable:
    """A key_averages table as %profile's --sort and --limit ask, for an HTML front end (the
    table's own HTML keeps the recorded order and every row)."""

    def __init__(self, text, table, sort_by, row_limit):
        self.text, self.table, self.sort_by, self.row_limit = text, table, sort_by, row_limit

    def _repr_mimebundle_(self, include=None, exclude=None):
        from opscope.profiler import _html  # noqa: PLC0415
        return {"text/plain": str(self.text),
                "text/html": _html.key_averages_html(self.table, self.sort_by, self.row_limit)}


@magics_class
class OpscopeMagics(Magics):
    """opscope's magics over one front end (see opscope.interactive.Frontend)."""

    def __init__(self, shell, frontend):
        super().__init__(shell)
        self.frontend = frontend

    # --- helpers ---------------------------------------------------------------------------

    def _last_trace(self, magic):
        execution = self.frontend.session.last()
        if execution is None:
            if not self.frontend.settings.record:
                raise UsageError(f"%{magic}: recording is off (%opscope record=on)")
            raise UsageError(f"%{magic}: no line has run an op yet in this session")
        return execution.trace

    def _run(self, code, magic, manager):
        """Runs user code (a statement or a cell) inside `manager` (a trace or a profile);
        returns the value of an expression, else None. The execution's default view is not
        drawn: the magic draws its own."""
        self.frontend.session.suppress_view = True
        try:
            compiled, mode = self.shell.compile(code, f"<%{magic}>", "eval"), "eval"
        except SyntaxError:
            compiled, mode = self.shell.compile(code, f"<%{magic}>", "exec"), "exec"
        with manager:
            if mode == "eval":
                return eval(compiled, self.shell.user_global_ns, self.shell.user_ns)
            exec(compiled, self.shell.user_global_ns, self.shell.user_ns)
        return None

    # --- %trace ----------------------------------------------------------------------------

    @line_cell_magic
    def trace(self, line, cell=None):
        """The dispatch tree: every op, every dispatch step with its key set and the key chosen,
        the kernel that ran and where it was registered, nested ops, autograd nodes created,
        backward runs.

        %trace                 of the last line / cell that ran ops
        %trace <statement>     of one statement, run now (an expression's value is returned)
        %%trace                of the cell below it, run now
        Options (before the statement): --stack  also record call stacks (for %stack)
        """
        opts, code = self._split_options(line, cell, "trace", ("--stack",))
        if code is None:
            self.frontend.show_tree(self._last_trace("trace"))
            return None
        import opscope  # noqa: PLC0415 — the package imports this module
        recording = opscope.profiler.trace(with_stack="--stack" in opts)
        try:
            return self._run(code, "trace", recording)
        finally:
            if recording._trace is not None:
                self.frontend.show_tree(recording._trace)

    @staticmethod
    def _split_options(line, cell, magic, known):
        """Leading --options of a line magic, and the code: the rest of the line, or the cell."""
        words = line.split()
        opts = []
        while words and words[0].startswith("--"):
            if words[0] not in known:
                raise UsageError(f"%{magic}: unknown option {words[0]} (known: "
                                 f"{', '.join(known)})")
            opts.append(words.pop(0))
        rest = line.strip()
        for o in opts:
            rest = rest[len(o):].lstrip()
        if cell is not None:
            if rest and not rest.startswith("--"):
                raise UsageError(f"%%{magic}: unexpected {rest!r} after the options")
            return opts, cell
        return opts, (rest or None)

    # --- %stack ----------------------------------------------------------------------------

    @line_magic
    def stack(self, line):
        """The call stack of an op of the last execution, Python and C++ frames merged, from the
        innermost (the BLAS routine or the kernel) to the user's line, with file:line and the
        layer of each frame (python, binding, dispatcher, autograd, kernel, BLAS).

        %stack            the first op that has a recorded stack (a product's: at the BLAS call)
        %stack aten::mm   that op (also mm, aten::add.Tensor)
        %stack --full     every frame, the front end's own ones unfolded
        Stacks are recorded when the setting stacks is on (the default; %opscope stacks=on).
        """
        args = _parse("stack", line, lambda p: (p.add_argument("op", nargs="?"),
                                                 p.add_argument("--full", action="store_true")))
        t = self._last_trace("stack")
        if args.op is not None:
            try:
                op = t.find(args.op)
            except KeyError:
                names = sorted({o.name for o in t.ops})
                raise UsageError(f"%stack: {args.op} did not run in the last execution; these "
                                 f"did: {', '.join(names[:20])}") from None
            found = op.stack
        else:
            op = next((o for o in t.ops if o.blas_routine is not None and o.stack is not None),
                      None) or next((o for o in t.ops if o.stack is not None), None)
            found = op.stack if op is not None else None
        if found is None:
            why = ("stacks are off: %opscope stacks=on" if not self.frontend.settings.stacks
                   else "past the bound of stacks per execution (%opscope max_stacks=N)")
            what = args.op or "any op"
            raise UsageError(f"%stack: no stack was recorded for {what} ({why})")
        self.frontend.show_stack(op, found, full=args.full)

    # --- %profile --------------------------------------------------------------------------

    @line_cell_magic
    def profile(self, line, cell=None):
        """The profile as torch.profiler prints it: key_averages().table().

        %profile                       of the last line / cell that ran ops
        %%profile                      of the cell below it, run now
        Options: --sort KEY (self_cpu_time_total, cpu_time_total, count, ...),
                 --limit N (rows, default 20), --shapes (group by input shapes),
                 --memory (the CPU Mem columns: bytes allocated),
                 --chrome PATH (also write a Chrome trace: open it in Perfetto or chrome://tracing)
        """
        def add(p):
            p.add_argument("--sort", default="self_cpu_time_total")
            p.add_argument("--limit", type=int, default=20)
            p.add_argument("--shapes", action="store_true")
            p.add_argument("--memory", action="store_true")
            p.add_argument("--chrome", metavar="PATH")
        args = _parse("profile", line, add)
        from opscope.profiler._from_trace import events_from_trace  # noqa: PLC0415
        if cell is None:
            trace = self._last_trace("profile")
            origin = trace.events[0]["t_ns"] if trace.events else 0
            events = events_from_trace(trace, origin, record_shapes=args.shapes,
                                       profile_memory=args.memory)
        else:
            import opscope  # noqa: PLC0415
            prof = opscope.profiler.profile(record_shapes=args.shapes,
                                            profile_memory=args.memory)
            self._run(cell, "profile", prof)
            events = prof.events()
        table = events.key_averages(group_by_input_shapes=args.shapes)
        try:
            text = table.table(sort_by=args.sort, row_limit=args.limit)
        except (KeyError, AttributeError, ValueError) as e:
            raise UsageError(f"%profile: cannot sort by {args.sort!r} ({e})") from None
        self.frontend.show_text(text, _SortedTable(text, table, args.sort, args.limit))
        if args.chrome:
            events.export_chrome_trace(args.chrome)
            self.frontend.show_text(f"Chrome trace written to {args.chrome} (open it in "
                                    "https://ui.perfetto.dev or chrome://tracing)")

    # --- %graph ----------------------------------------------------------------------------

    @line_magic
    def graph(self, line):
        """The autograd graph behind a tensor: its grad_fn and every node backward will run,
        down to the leaves' AccumulateGrad, with the tensors each node saved.

        %graph loss             any expression giving a tensor
        %graph --no-saved loss  without the saved tensors
        """
        words = line.split()
        show_saved = "--no-saved" not in words
        expr = " ".join(w for w in words if w != "--no-saved")
        if not expr:
            raise UsageError("%graph: which tensor? e.g. %graph loss")
        import opscope  # noqa: PLC0415
        self.frontend.session.suppress_view = True
        value = self.shell.ev(expr)
        if not isinstance(value, opscope.Tensor):
            raise UsageError(f"%graph: {expr} is a {type(value).__name__}, not a tensor")
        if value.grad_fn is None:
            why = ("it requires grad but is a leaf" if value.requires_grad
                   else "it does not require grad")
            self.frontend.show_text(f"{expr} has no autograd graph: {why} (grad_fn is None)")
            return
        self.frontend.show_graph(opscope.profiler.graph(value, show_saved=show_saved))

    # --- %dispatch -------------------------------------------------------------------------

    @line_magic
    def dispatch(self, line):
        """An op's registrations and its computed dispatch table: which kernel runs for each
        dispatch key, and where it was registered.

        %dispatch aten::mm      (also mm, add.Tensor)
        """
        name = line.strip()
        if not name:
            raise UsageError("%dispatch: which op? e.g. %dispatch aten::mm")
        if "::" not in name:
            name = "aten::" + name
        try:
            registrations = _C._dispatch_dump(name)
            table = _C._dispatch_dump_table(name)
        except Exception as e:  # noqa: BLE001 — the dispatcher's message says what exists
            raise UsageError(f"%dispatch: {e}") from None
        self.frontend.show_text(f"{registrations.rstrip()}\n\ncomputed table:\n{table.rstrip()}")

    # --- settings --------------------------------------------------------------------------

    @line_magic
    def views(self, line):
        """What is shown after each line or cell that ran ops (saved, like %opscope):

        %views summary   one line per op, loops folded (the default)
        %views tree      the full dispatch tree
        %views stack     the summary, and the call stack of the innermost product or kernel
        %views profile   the key_averages table
        %views off       nothing (the trace is still recorded: %trace, _trace)
        %views           shows the current mode
        """
        mode = line.strip().lower()
        if not mode:
            self.frontend.show_text(f"views: {self.frontend.settings.views} "
                                    f"(one of {', '.join(VIEWS)})")
            return
        if mode not in VIEWS:
            raise UsageError(f"%views: expected one of {', '.join(VIEWS)}, got {mode!r}")
        self.frontend.settings.set("views", mode)

    @line_magic
    def opscope(self, line):
        """opscope's settings for the REPL and notebooks, saved in
        ~/.config/opscope/interactive.json ($XDG_CONFIG_HOME):

        %opscope                    every setting, its value and what it means
        %opscope name=value ...     sets and saves (e.g. %opscope max_lines=30 color=never)
        %opscope --session name=value   sets for this session only
        %opscope --reset            back to the defaults
        """
        words = line.split()
        settings = self.frontend.settings
        if not words:
            self.frontend.show_text(settings.table())
            return
        if words == ["--reset"]:
            settings.reset()
            self.frontend.show_text("settings reset to the defaults")
            return
        session_only = "--session" in words
        assignments = [w for w in words if w != "--session"]
        for a in assignments:
            name, eq, value = a.partition("=")
            if not eq or name not in SETTINGS:
                raise UsageError(f"%opscope: expected name=value with a name among "
                                 f"{', '.join(SETTINGS)}, got {a!r}")
            try:
                (settings.override if session_only else settings.set)(name, value)
            except ValueError as e:
                raise UsageError(f"%opscope: {name}: {e}") from None
