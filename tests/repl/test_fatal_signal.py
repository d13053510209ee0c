"""The fatal-signal report (profiler/FatalSignal.h): a crash is made on purpose with standard
Python — ctypes reading address 0 inside a kernel the dispatcher calls, os.abort(), os.kill — so
no test-only hook is needed in opscope itself."""
import resource
import signal
import subprocess

import pytest

from repltools import (  # noqa: F401  (fixtures: used as test arguments)
    opscope_exe, env)


def no_core_dump():
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def crash(exe, env, path):
    return subprocess.run([exe, path], env=env, capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL, preexec_fn=no_core_dump)


SEGV_IN_A_KERNEL = """\
import ctypes
lib = opscope._C._Library("DEF", "crashtest")
handles = [lib.define("boom(Tensor x) -> Tensor")]

def boom(x):
    ctypes.string_at(0)  # reads address 0: SIGSEGV
    return x

handles.append(lib.impl("boom", "CPU", boom))
opscope.ops.crashtest.boom(opscope.ones(2))
"""


def test_segfault_in_a_kernel_reports_the_cpp_and_python_stacks(opscope_exe, env, tmp_path):
    path = tmp_path / "crash.py"
    path.write_text(SEGV_IN_A_KERNEL)
    r = crash(opscope_exe, env, str(path))
    assert r.returncode == -signal.SIGSEGV, "the process still dies of the signal"
    err = r.stderr
    assert ("opscope: fatal signal SIGSEGV (segmentation fault: address not mapped to object) "
            "at address 0x0") in err, err
    cpp = err[err.index("C++ stack, innermost first"):err.index("Fatal Python error")]
    frames = [line for line in cpp.splitlines() if line.startswith("  #")]
    assert frames[0].startswith("  #0  ") and "[libc]" in frames[0], frames[0]
    # The way down: the binding's op call, the dispatcher, the Python kernel, ctypes.
    assert any("Dispatcher::dispatch_boxed" in f and "[dispatcher]" in f for f in frames), cpp
    assert any("python_kernel" in f and "core/python/python_dispatch.cpp" in f for f in frames)
    assert any(f.rstrip().endswith("_ctypes.cpython-311-x86_64-linux-gnu.so") for f in frames)
    assert any(" main  repl/main.cpp:" in f for f in frames), cpp
    # Then faulthandler's Python frames, innermost first.
    py = err[err.index("Fatal Python error: Segmentation fault"):]
    assert f'File "{path}", line 6 in boom' in py, py
    assert f'File "{path}", line 10 in <module>' in py


@pytest.mark.parametrize("code, name, reason", [
    ("import os; os.abort()", "SIGABRT", "aborted"),
    ("import os, signal; os.kill(os.getpid(), signal.SIGFPE)", "SIGFPE",
     "sent by kill() or raise()"),
    ("import os, signal; os.kill(os.getpid(), signal.SIGBUS)", "SIGBUS",
     "sent by kill() or raise()"),
])
def test_other_fatal_signals(opscope_exe, env, tmp_path, code, name, reason):
    path = tmp_path / "die.py"
    path.write_text(code + "\n")
    r = crash(opscope_exe, env, str(path))
    assert r.returncode == -getattr(signal, name)
    assert f"opscope: fatal signal {name} ({reason})" in r.stderr, r.stderr
    assert "C++ stack, innermost first" in r.stderr
    assert "Fatal Python error" in r.stderr and f'File "{path}", line 1' in r.stderr
