"""`opscope` without a terminal: scripts, -c, stdin, the switches, exit statuses — each compared
with what /usr/bin/python3 does with the same command line where python has the same option."""
import os
import re
import subprocess
import sys

import pytest

from repltools import (  # noqa: F401  (fixtures: used as test arguments)
    ANSI, REPO, opscope_exe, env)

PYTHON = "/usr/bin/python3"


def run(exe, args, env, input=None, cwd=None, timeout=60):
    return subprocess.run([exe, *args], env=env, input=input, capture_output=True, text=True,
                          cwd=cwd, timeout=timeout, stdin=None if input is not None
                          else subprocess.DEVNULL)


def python(args, env, input=None, cwd=None):
    return subprocess.run([PYTHON, *args], env=env, input=input, capture_output=True, text=True,
                          cwd=cwd, timeout=60, stdin=None if input is not None
                          else subprocess.DEVNULL)


SUMMARY = re.compile(r"^matmul\(f32\[2,3\], f32\[3,4\]\) → mm\[AutogradCPU\] → mm\[CPU\]", re.M)


@pytest.fixture
def script(tmp_path):
    def write(text, name="prog.py"):
        p = tmp_path / name
        p.write_text(text)
        return str(p)
    return write


# --- a script -------------------------------------------------------------------------------------


def test_script_runs_as_python_would_then_shows_the_views(opscope_exe, env, script):
    path = script(
        "import sys, os\n"
        "a = torch.randn(2, 3, requires_grad=True)\n"
        "b = a @ torch.randn(3, 4)\n"
        "print('argv', sys.argv[1:], 'path0', sys.path[0] == os.path.dirname(__file__))\n"
        "print('name', __name__)\n")
    r = run(opscope_exe, [path, "x", "--flag"], env)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "argv ['x', '--flag'] path0 True" in out
    assert "name __main__" in out
    # The views of the whole run come after the script's own output.
    assert SUMMARY.search(out), out
    assert out.index("name __main__") < SUMMARY.search(out).start()
    assert not ANSI.search(out), "no colour without a terminal"


@pytest.mark.parametrize("body, status", [
    ("import sys; sys.exit(3)", 3),
    ("import sys; sys.exit()", 0),
    ("raise SystemExit('bye')", 1),
    ("def f():\n    1/0\nf()", 1),
    ("raise KeyboardInterrupt", 130),
])
def test_script_exit_status_like_python(opscope_exe, env, script, body, status):
    path = script(body + "\n")
    r = run(opscope_exe, [path], env)
    assert r.returncode == status, (r.stdout, r.stderr)
    if status != 130:  # python ends by SIGINT there; we exit 130, what a shell shows for it
        assert python([path], env).returncode == status
    if "bye" in body:
        assert r.stderr.strip() == "bye"
    if "1/0" in body:
        # IPython's traceback of the program's own frames, not the launcher's.
        text = r.stdout + r.stderr
        assert "ZeroDivisionError" in text and "prog.py:2" in text, text
        assert "_terminal.py" not in text and "_run_pending" not in text, text


def test_a_missing_script_is_status_2(opscope_exe, env, tmp_path):
    r = run(opscope_exe, [str(tmp_path / "nope.py")], env)
    assert r.returncode == 2
    assert "opscope: can't open file" in r.stderr and "No such file or directory" in r.stderr


def test_inspect_without_a_terminal_ends_after_the_script(opscope_exe, env, script):
    path = script("x = torch.ones(2) + 1\nprint('done', x.tolist())\nraise SystemExit(4)\n")
    r = run(opscope_exe, ["-i", path], env)
    assert r.returncode == 4
    assert "done [2.0, 2.0]" in r.stdout and "In [" not in r.stdout


# --- -c and stdin -----------------------------------------------------------------------------------


def test_c_runs_code_with_argv_like_python(opscope_exe, env):
    code = "import sys; print(sys.argv); b = torch.ones(2, 3) @ torch.ones(3, 4)"
    r = run(opscope_exe, ["-c", code, "a", "-b"], env)
    assert r.returncode == 0, r.stderr
    assert "['-c', 'a', '-b']" in r.stdout
    assert re.search(r"^matmul\(f32\[2,3\], f32\[3,4\]\) → .*mm\[CPU\]", r.stdout, re.M), r.stdout


def test_c_takes_ipython_syntax(opscope_exe, env):
    r = run(opscope_exe, ["-c", "%dispatch aten::mm"], env)
    assert r.returncode == 0, r.stderr
    assert "computed table:" in r.stdout


def test_c_exception_is_status_1_with_traceback(opscope_exe, env):
    r = run(opscope_exe, ["-c", "x = 1\ntorch.ones(2) @ torch.ones(3)"], env)
    assert r.returncode == 1
    text = r.stdout + r.stderr
    assert "RuntimeError" in text and "<string>" in text, text
    assert "torch.ones(2) @ torch.ones(3)" in text, "the source line of -c is shown"


def test_program_from_stdin(opscope_exe, env):
    r = run(opscope_exe, [], env, input="import sys\nprint(repr(sys.argv[0]))\n"
                                         "b = torch.ones(2, 3) @ torch.ones(3, 4)\n")
    assert r.returncode == 0, r.stderr
    assert "''" in r.stdout and "mm[CPU]" in r.stdout
    r = run(opscope_exe, ["-", "q"], env, input="import sys; print(sys.argv)\n")
    assert "['-', 'q']" in r.stdout


def test_runs_as_usr_bin_python3_without_pythonpath(opscope_exe, env):
    assert "PYTHONPATH" not in env
    code = ("import sys, opscope, IPython\n"
            "print(sys.executable, sys.prefix)\n"
            "maps = open('/proc/self/maps').read().split()\n"
            "print(sorted({m for m in maps if m.endswith('libopscope_core.so')}))\n"
            "print(opscope._C.__file__)\n")
    r = run(opscope_exe, ["-c", code], env)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "/usr/bin/python3 /usr"
    build = os.path.dirname(os.path.dirname(os.path.realpath(opscope_exe)))
    core = os.path.join(build, "python", "opscope", "libopscope_core.so")
    assert lines[1] == repr([core]), "one core library, this build's (one dispatcher)"
    assert lines[2].startswith(os.path.join(build, "python", "opscope", "_C"))


# --- the switches -------------------------------------------------------------------------------------


def test_no_views(opscope_exe, env):
    r = run(opscope_exe, ["--no-views", "-c", "b = torch.ones(2, 3) @ torch.ones(3, 4)"], env)
    assert r.returncode == 0 and r.stdout == "", r.stdout


def test_help(opscope_exe, env):
    r = run(opscope_exe, ["--help"], env)
    assert r.returncode == 0
    assert r.stdout.startswith("usage: opscope [option] ... [-c cmd | file | -] [arg] ...")
    for option in ("-c cmd", "-i ", "--no-views", "--help", "--version", "NO_COLOR"):
        assert option in r.stdout
    assert max(len(line) for line in r.stdout.splitlines()) <= 100
    assert run(opscope_exe, ["-h"], env).stdout == r.stdout


def test_version(opscope_exe, env):
    r = run(opscope_exe, ["--version"], env)
    assert r.returncode == 0
    version = re.search(r'__version__ = "([^"]+)"',
                        open(os.path.join(REPO, "core", "python", "opscope", "__init__.py"))
                        .read()).group(1)
    assert re.fullmatch(rf"opscope {re.escape(version)} \(Python 3\.11\.\d+, IPython [\d.]+\)\n",
                        r.stdout), r.stdout
    assert run(opscope_exe, ["-V"], env).stdout == r.stdout


@pytest.mark.parametrize("args, message", [
    (["--frobnicate"], "unknown option --frobnicate"),
    (["-z"], "unknown option -z"),
    (["-c"], "argument expected for the -c option"),
])
def test_bad_command_lines_are_status_2(opscope_exe, env, args, message):
    r = run(opscope_exe, args, env)
    assert r.returncode == 2
    assert r.stderr.startswith(f"opscope: {message}\nusage: opscope"), r.stderr
    if args != ["--frobnicate"]:
        assert python(args, env).returncode == 2  # as python's


def test_in_process_options():
    """The parser and its doctests, in this process (no executable)."""
    import doctest  # noqa: PLC0415
    sys.path.insert(0, os.path.join(REPO, "core", "python"))
    from opscope.interactive import _terminal  # noqa: PLC0415
    failures, tried = doctest.testmod(_terminal)
    assert tried >= 3 and failures == 0
    o = _terminal.parse_args(["--no-views", "-i", "--", "-script.py", "-i"])
    assert (o.views, o.inspect, o.script, o.args) == (False, True, "-script.py", ["-i"])
    o = _terminal.parse_args(["-c", "print(1)", "-i"])
    assert (o.command, o.inspect, o.args) == ("print(1)", False, ["-i"])
    o = _terminal.parse_args([])
    assert o.script is None and o.command is None


def test_a_closed_stdout_is_status_1_like_python(opscope_exe, env):
    # `opscope -c ... | head -1`: the reader goes away; python reports BrokenPipeError, exits 1.
    p = subprocess.Popen([opscope_exe, "-c", "for i in range(10**6): print(i)"], env=env,
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    assert p.stdout.readline() == "0\n"
    p.stdout.close()
    err = p.stderr.read()
    assert p.wait(timeout=60) == 1
    assert err.rstrip().endswith("BrokenPipeError: [Errno 32] Broken pipe"), err
    assert "IPython" not in err and "_terminal.py" not in err, err
