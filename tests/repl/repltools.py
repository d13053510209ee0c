"""Shared parts of the REPL tests: the executable under test, a clean environment for it, a small
driver for a session in a pty (pexpect), and the fixtures, which the test modules import. Not a
conftest.py: `make test` runs tests/python in the same pytest run, whose test modules do `from
conftest import ...` — and sys.modules["conftest"] is whichever conftest.py pytest loaded last.

The executable is <build>/bin/opscope of the build folder the tests run against: the one named by
OPSCOPE_BUILD_DIR, else the one whose python/ folder is on PYTHONPATH (as `make test` exports
it), else <repo>/build. Its environment has no PYTHONPATH (the REPL finds its own build) and a
temporary HOME, IPYTHONDIR and XDG_CONFIG_HOME, so the user's IPython history, config and saved
opscope settings are neither read nor written.
"""
import atexit
import os
import re
import shutil
import tempfile

import pytest


REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

# Escape sequences a terminal program writes: CSI (colours, cursor moves, modes), OSC (the
# title), charset selection and keypad modes.
ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][A-Z0-9]"
                  r"|\x1b[=>78]")
# An SGR sequence that sets a colour (foreground 30-37 / 90-97 / 38;..., background 40-47 / 100-107
# / 48;...): what NO_COLOR forbids. Bold, reverse and resets are not colours.
COLOUR_SGR = re.compile(r"\x1b\[(?:[0-9;]*;)?(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])(?:;[0-9;]*)?m")


def clean(text):
    """What a reader sees of a terminal's output, roughly: escapes and carriage returns gone."""
    return ANSI.sub("", text).replace("\r", "")


# The build folder under test (bench_repl.py measures the same one).
def build_dir():
    if os.environ.get("OPSCOPE_BUILD_DIR"):
        return os.path.abspath(os.environ["OPSCOPE_BUILD_DIR"])
    for entry in os.environ.get("PYTHONPATH", "").split(os.pathsep):
        if entry and os.path.basename(os.path.normpath(entry)) == "python":
            build = os.path.dirname(os.path.normpath(entry))
            if os.path.exists(os.path.join(build, "bin", "opscope")):
                return build
    return os.path.join(REPO, "build")


OPSCOPE = os.path.join(build_dir(), "bin", "opscope")


# Byte code of the REPL's Python, compiled once for the whole run (each test starts several
# processes), in a folder of its own: never written into the tree, even where
# PYTHONDONTWRITEBYTECODE is set (some sandboxes and CI set it; then every start compiles again).
PYCACHE = tempfile.mkdtemp(prefix="opscope-tests-repl-pycache-")
atexit.register(shutil.rmtree, PYCACHE, True)


def make_env(home, **extra):
    """The REPL's environment: a temporary home, no PYTHONPATH, no colour unless asked."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "NO_COLOR", "COLUMNS", "LINES", "IPYTHONDIR",
                        "XDG_CONFIG_HOME", "PROMPT_TOOLKIT_COLOR_DEPTH",
                        "PYTHONDONTWRITEBYTECODE")}
    env.update(PYTHONPYCACHEPREFIX=PYCACHE)
    env.update(HOME=str(home), IPYTHONDIR=str(home / "ipython"),
               XDG_CONFIG_HOME=str(home / "config"), TERM="xterm-256color",
               # prompt_toolkit asks the terminal where its cursor is; pexpect never answers.
               PROMPT_TOOLKIT_NO_CPR="1", NO_COLOR="1")
    for k, v in extra.items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = v
    return env


class Session:
    """An interactive `opscope` in a pty. run(line) types a line and returns what was printed
    until the next prompt, escapes removed."""

    def __init__(self, exe, env, args=(), columns=80, rows=40, timeout=30):
        import pexpect  # noqa: PLC0415
        self.pexpect = pexpect
        self.child = pexpect.spawn(exe, list(args), env=env, dimensions=(rows, columns),
                                   encoding="utf-8", codec_errors="replace", timeout=timeout)
        self.number = 0
        self.start_output = self.expect_prompt()

    def expect_prompt(self, timeout=-1):
        """Waits for the next execution's prompt, In [n+1]: (the current prompt is drawn again
        as a line is typed, so its own number would match too early)."""
        sgr = r"(?:\x1b\[[0-9;]*m)*"  # the prompt's colours, when it has some
        self.child.expect(rf"In \[{sgr}{self.number + 1}{sgr}\]:", timeout=timeout)
        self.number += 1
        return self.child.before

    def run(self, line, timeout=-1):
        """Types `line` (several lines for a block: the shell indents by itself) and Enter;
        returns the output up to the next prompt, cleaned."""
        for part in line.split("\n"):
            self.child.sendline(part)
        raw = self.expect_prompt(timeout)
        return clean(raw)

    def raw_run(self, line, timeout=-1):
        self.child.sendline(line)
        return self.expect_prompt(timeout)

    def close(self):
        if self.child.isalive():
            self.child.sendeof()
            try:
                self.child.expect(self.pexpect.EOF, timeout=10)
            except self.pexpect.TIMEOUT:
                self.child.terminate(force=True)
        self.child.close()


# --- fixtures (imported by the test modules) ------------------------------------------------

@pytest.fixture(scope="session")
def opscope_exe():
    if not os.access(OPSCOPE, os.X_OK):
        pytest.fail(f"{OPSCOPE} is missing: build it (make build; CMake option OPSCOPE_REPL=ON)")
    return OPSCOPE


@pytest.fixture
def env(tmp_path):
    return make_env(tmp_path)


@pytest.fixture
def session_factory(opscope_exe, tmp_path):
    """Starts sessions (closed at the end of the test): session_factory(args=..., **env)."""
    started = []

    def start(args=(), columns=80, rows=40, **extra_env):
        s = Session(opscope_exe, make_env(tmp_path, **extra_env), args, columns, rows)
        started.append(s)
        return s

    yield start
    for s in started:
        s.close()
