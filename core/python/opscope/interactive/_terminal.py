"""The Python half of the ``opscope`` terminal REPL (repl/main.cpp is the C++ half, which starts
the interpreter and calls ``main(sys.argv)``): the command line, IPython's terminal shell with
opscope loaded, the banner, running a script / ``-c`` / stdin through the shell so that the session
layer records it, and exit statuses like python's.

    $ opscope                     the prompt; after each line, one summary line per op it ran
    $ opscope script.py [arg ...] runs the script, then the views of the whole run
    $ opscope -i script.py        ... then the prompt (on a terminal; without one it ends there)
    $ opscope -c "code" [arg ...] runs code (IPython syntax: magics work), then its views

The command line is parsed here, not by CPython (PyConfig.parse_argv is off): python's own
options are not ours. What is parsed is tested in-process (tests/repl/test_terminal_args.py); the
rest needs the real executable in a pty (tests/repl/test_repl.py).
"""
import linecache
import os
import sys
import traceback

__all__ = ["main", "parse_args", "Options", "UsageError", "USAGE", "HELP"]

USAGE = "usage: opscope [option] ... [-c cmd | file | -] [arg] ..."

HELP = f"""\
{USAGE}

An IPython shell with opscope loaded and `import opscope as torch` done: after each line, one
summary line per op it ran (name, shapes, dispatch path, autograd node, time); the magics
%trace, %stack, %profile, %graph, %dispatch, %views and %opscope show more (%trace? for help).

Options (before the file or -c, as python's):
  -c cmd        run cmd, then show its views; IPython syntax (magics) allowed. sys.argv is
                ['-c', arg ...]. Ends the option list
  -i            after the file or -c, stay at the prompt (when stdin is a terminal; without one
                the run ends after the file, with its exit status)
  --no-views    show no view after each execution (%views off, for this session only)
  -h, --help    print this help and exit
  -V, --version print opscope's version and exit
  file          run this Python file as python would (sys.argv = [file, arg ...], its folder
                first on sys.path), then show the views of the whole run
  -             read the program from stdin (what happens when stdin is not a terminal and no
                file or -c is given)
  arg ...       the program's sys.argv[1:]

Exit status: as python's — 0, a SystemExit's code, 1 after an uncaught exception (its traceback
is printed), 2 for a bad command line or a file that cannot be opened, 130 after Ctrl-C ends a
file or -c. At the prompt an exception prints its traceback and the prompt comes back; Ctrl-C
interrupts the line running; Ctrl-D (or exit) leaves with 0.

Environment:
  NO_COLOR        no colour (colour is used only when stdout is a terminal)
  IPYTHONDIR      where IPython's profile_opscope lives: history, ipython_config.py (~/.ipython)
  XDG_CONFIG_HOME where %opscope saves the settings: $XDG_CONFIG_HOME/opscope/interactive.json"""


class UsageError(Exception):
    """A bad command line: printed with the usage line, exit status 2 (python's)."""


class Options:
    """What the command line asks for."""

    def __init__(self):
        self.help = False
        self.version = False
        self.inspect = False        # -i
        self.views = True           # --no-views sets False
        self.command = None         # -c cmd
        self.script = None          # a file, or "-" for stdin
        self.args = []              # the program's sys.argv[1:]

    def __repr__(self):
        fields = ", ".join(f"{k}={v!r}" for k, v in vars(self).items())
        return f"Options({fields})"


def parse_args(args):
    """The options in `args` (sys.argv[1:]), read as python reads its own: options first; the
    first argument that is not one (or the one after -c) starts the program's arguments.

    >>> parse_args(["-i", "tour.py", "-v"]).script, parse_args(["-i", "tour.py", "-v"]).args
    ('tour.py', ['-v'])
    >>> parse_args(["-ic", "x = 1", "a"]).command, parse_args(["-ic", "x = 1", "a"]).inspect
    ('x = 1', True)
    >>> parse_args(["--frobnicate"])
    Traceback (most recent call last):
    ...
    opscope.interactive._terminal.UsageError: unknown option --frobnicate
    """
    o = Options()
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":                       # the end of the options; the next is the file
            i += 1
            break
        if a == "-" or not a.startswith("-"):
            break
        if a.startswith("--"):
            if a == "--help":
                o.help = True
            elif a == "--version":
                o.version = True
            elif a == "--no-views":
                o.views = False
            else:
                raise UsageError(f"unknown option {a}")
            i += 1
            continue
        # A cluster of one-letter options, as python takes them: -i, -ic "code", -c"code".
        for j, letter in enumerate(a[1:], start=1):
            if letter == "i":
                o.inspect = True
            elif letter == "h":
                o.help = True
            elif letter == "V":
                o.version = True
            elif letter == "c":
                if j + 1 < len(a):
                    o.command, rest = a[j + 1:], i + 1
                elif i + 1 < len(args):
                    o.command, rest = args[i + 1], i + 2
                else:
                    raise UsageError("argument expected for the -c option")
                o.args = args[rest:]
                return o
            else:
                raise UsageError(f"unknown option -{letter}")
        i += 1
    if i < len(args):
        o.script, o.args = args[i], args[i + 1:]
    return o


def _version_line():
    import IPython  # noqa: PLC0415
    import opscope  # noqa: PLC0415
    py = ".".join(str(v) for v in sys.version_info[:3])
    return f"opscope {opscope.__version__} (Python {py}, IPython {IPython.__version__})"


def _banner():
    # Lines of at most 80 columns: a teaching terminal is that wide.
    import IPython  # noqa: PLC0415
    import opscope  # noqa: PLC0415
    py = ".".join(str(v) for v in sys.version_info[:3])
    return (
        f"opscope {opscope.__version__} · IPython {IPython.__version__} · Python {py}\n"
        "Done for you: import opscope; import opscope as torch\n"
        "After each line, one line per op it ran. More: %trace, %stack [op], %profile,\n"
        "%graph <tensor>, %dispatch <op>, %views off|summary|tree|stack|profile, %opscope\n"
        "(%trace? for help). Ctrl-C interrupts, Ctrl-D exits.\n")


def _stdin_is_tty():
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False


# --- the program (a file, -c, stdin), run as one execution of the shell ------------------------

# Note [A program runs as one cell]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# The session layer records what runs between IPython's pre_run_cell and post_run_cell events,
# so a file given on the command line must run inside shell.run_cell to get its views. The cell
# is one call into this module, `_run_pending()`, which compiles the program under its own name
# (the file's path, "<string>" for -c, "<stdin>") and executes it in the shell's namespace — the
# one the prompt uses afterwards, as `python -i` keeps a script's globals. It handles the
# program's end itself, the way python's main does: SystemExit gives the status, any other
# exception prints IPython's traceback of the program's frames only (tb_offset skips this
# module's) and gives 1. IPython's own paths do not fit: run_cell reports sys.exit(3) as an
# error with "To exit: use 'exit'..." and loses the code, and %run swallows both exceptions and
# codes, and expands $names and {expressions} in the arguments it is given. The cell's first line
# is a comment naming the program (`# opscope script.py a b`): what an Execution's code shows in
# opscope.interactive.history(). It is not stored in IPython's history (store_history=False).

_pending = None   # (source, filename) for _run_pending
_status = 0       # what the last program's end gave


def _exit_status(exc):
    """python's status for SystemExit(code): None → 0, an int → itself, else printed → 1."""
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def _run_pending():
    global _status, _pending
    from IPython import get_ipython  # noqa: PLC0415
    shell = get_ipython()
    source, filename = _pending
    _pending = None
    ns = shell.user_ns
    ns["__name__"] = "__main__"
    if filename not in ("<string>", "<stdin>"):
        ns["__file__"] = filename
    try:
        code = compile(source, filename, "exec", dont_inherit=True)
        exec(code, ns)  # noqa: S102 — running the user's program is the point
        _status = 0
    except SystemExit as e:
        _status = _exit_status(e)
    except BrokenPipeError as e:
        # Whoever read stdout went away (`opscope script.py | head`). As python: the traceback on
        # stderr and 1 — and nothing more written to the closed pipe (the views, IPython's own
        # output): stdout now goes to /dev/null (the recipe of Python's signal docs, SIGPIPE).
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
        traceback.print_exception(type(e), e, e.__traceback__.tb_next, file=sys.stderr)
        _status = 1
    except KeyboardInterrupt:
        shell.showtraceback(tb_offset=1)
        _status = 130
    except BaseException:  # noqa: BLE001 — any end of the program is reported, as python does
        shell.showtraceback(tb_offset=1)
        _status = 1


def _run_program(shell, source, filename, label):
    """Runs a program as one execution of the shell (Note [A program runs as one cell]);
    returns its exit status."""
    global _pending, _status
    _pending = (source, filename)
    _status = 0
    label = " ".join(label.split())  # one comment line, whatever the arguments hold
    if len(label) > 80:
        label = label[:77] + "..."
    cell = (f"# opscope {label}\n"
            "__import__('opscope.interactive._terminal', fromlist=['_'])._run_pending()\n")
    result = shell.run_cell(cell, store_history=False)
    if not result.success and _status == 0:
        _status = 1  # interrupted before the program started, or the cell machinery failed
    return _status


def _remember_source(filename, text):
    """Lets tracebacks show the lines of a program that has no file (-c, stdin)."""
    lines = text.splitlines(keepends=True)
    linecache.cache[filename] = (len(text), None, lines, filename)


# --- the shell ---------------------------------------------------------------------------------

def _make_shell(color, prompt, script):
    """IPython's terminal application (profile "opscope" under IPYTHONDIR: its own history and
    config), initialized, with the session layer loaded and the names of the banner defined."""
    from IPython.terminal.ipapp import TerminalIPythonApp  # noqa: PLC0415
    from traitlets.config import Config  # noqa: PLC0415

    import opscope  # noqa: PLC0415
    import opscope.interactive  # noqa: PLC0415

    c = Config()
    c.BaseIPythonApplication.profile = "opscope"
    c.TerminalIPythonApp.display_banner = False     # shown by main(), just before the prompt
    c.TerminalInteractiveShell.banner1 = _banner()
    c.TerminalInteractiveShell.banner2 = ""
    c.TerminalInteractiveShell.confirm_exit = False  # Ctrl-D exits at once, as python's
    # The terminal's title (an escape sequence) only at a prompt on a terminal, never in a log.
    c.TerminalInteractiveShell.term_title = prompt and sys.stdout.isatty()
    c.TerminalInteractiveShell.term_title_format = "opscope: {cwd}"
    # A script's folder is sys.path[0] (main() put it there); the prompt's is the cwd's ''.
    c.InteractiveShellApp.ignore_cwd = script is not None
    app = TerminalIPythonApp.instance(config=c)
    app.initialize(argv=[])
    shell = app.shell
    if not color:
        shell.run_line_magic("colors", "NoColor")  # tracebacks, %pinfo, the debugger
    shell.extension_manager.load_extension("opscope.interactive")
    # Like names IPython's startup code defines: hidden from %who, kept by %reset.
    shell.push({"opscope": opscope, "torch": opscope}, interactive=False)
    opscope.interactive.configure(renderer="text")
    return shell


def main(argv=None):
    """The REPL's entry point: `argv` is the whole command line (sys.argv). Returns the exit
    status; repl/main.cpp exits with it."""
    argv = list(sys.argv if argv is None else argv)
    try:
        o = parse_args(argv[1:])
    except UsageError as e:
        print(f"opscope: {e}\n{USAGE}\nTry 'opscope --help' for more information.",
              file=sys.stderr)
        return 2
    if o.help:
        print(HELP)
        return 0
    if o.version:
        print(_version_line())
        return 0

    interactive_stdin = _stdin_is_tty()
    stdin_program = o.script == "-"
    if o.command is None and o.script is None and not interactive_stdin:
        o.script = "-"  # python reads its program from a stdin that is not a terminal
    source = filename = label = None
    if o.command is not None:
        source, filename, label = o.command, "<string>", f"-c {o.command}"
        sys.argv = ["-c", *o.args]
        sys.path.insert(0, "")
    elif o.script == "-":
        source, filename, label = sys.stdin.read(), "<stdin>", "- (stdin)"
        sys.argv = ["-" if stdin_program else "", *o.args]
        sys.path.insert(0, "")
    elif o.script is not None:
        try:
            with open(o.script, "rb") as f:
                source = f.read()
        except OSError as e:
            print(f"opscope: can't open file {o.script!r}: [Errno {e.errno}] {e.strerror}",
                  file=sys.stderr)
            return 2
        filename, label = o.script, " ".join([o.script, *o.args])
        sys.argv = [o.script, *o.args]
        sys.path.insert(0, os.path.dirname(os.path.realpath(o.script)))
    else:
        sys.argv = [""]
        sys.path.insert(0, "")
    if isinstance(source, str) and filename in ("<string>", "<stdin>"):
        _remember_source(filename, source)

    from opscope.interactive import terminal_wants_color  # noqa: PLC0415
    color = terminal_wants_color()
    if not color:
        # prompt_toolkit (the prompt's syntax colours) has no NO_COLOR of its own.
        os.environ.setdefault("PROMPT_TOOLKIT_COLOR_DEPTH", "DEPTH_1_BIT")
    prompt = source is None or (o.inspect and interactive_stdin)
    try:
        shell = _make_shell(color, prompt, o.script if o.script not in (None, "-") else None)
    except ImportError as e:
        if e.name is None or e.name.split(".")[0] not in ("IPython", "prompt_toolkit",
                                                          "traitlets", "pygments", "jedi"):
            raise
        print(f"opscope: the REPL needs IPython 8 with prompt_toolkit ({e}); on Debian: "
              "apt install python3-ipython python3-prompt-toolkit (tools/setup.sh does)",
              file=sys.stderr)
        return 1
    if not o.views:
        import opscope.interactive  # noqa: PLC0415
        opscope.interactive.configure(views="off")

    status = 0
    if source is not None:
        if filename in ("<string>", "<stdin>"):
            # As at the prompt: magics, !shell commands. A file is Python (as %run takes a .py).
            source = shell.transform_cell(source)
        status = _run_program(shell, source, filename, label)
    if not prompt:
        sys.stdout.flush()
        return status
    if source is not None:
        print()  # the program's views, a blank line, the banner
    shell.show_banner()
    shell.mainloop()
    return 0  # python -i ends with 0 after the prompt, whatever the program did
