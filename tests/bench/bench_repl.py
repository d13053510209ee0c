"""How long the `opscope` REPL takes to start (issue "The terminal REPL `opscope`"): `opscope -c
pass`, and an interactive start in a pty until the first prompt is drawn, against IPython 8.5 on
the same /usr/bin/python3 (`python3 -m IPython`: Debian's; an `ipython3` on PATH may belong to
another Python) and against `python3 -c "import torch"` (PyTorch 1.13, when installed).

Target: ≤ 1.1x IPython for both starts. A measurement, not a test: it prints a table and always
exits 0. Each command runs round-robin with the others (a disturbance of a shared machine hits
every row alike), after one warm-up run; best and median of the runs.

    make bench BENCH=repl
    PYTHONPATH=core/python:build/python /usr/bin/python3 tests/bench/bench_repl.py [--runs N]

Where the time goes: PYTHONPROFILEIMPORTTIME=1 build/bin/opscope -c pass 2>&1 | sort -t'|' -k2 -n
"""
import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from benchlib import fmt, machine_facts, print_header, print_table, ratio, verdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "repl"))
from repltools import build_dir  # noqa: E402  (the build folder the REPL tests use)

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
PYTHON = "/usr/bin/python3"
TARGET = 1.1


def have_torch():
    return subprocess.run([PYTHON, "-c", "import torch"], capture_output=True).returncode == 0


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_once(argv, env):
    """(wall seconds, CPU seconds) of one run of `argv` to its end."""
    c0, t0 = children_cpu(), time.perf_counter()
    subprocess.run(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - t0, children_cpu() - c0


def prompt_once(argv, env):
    """(wall seconds from spawning `argv` in a pty to its first `In [1]:` prompt, CPU seconds of
    the whole process, its exit included)."""
    import pexpect  # noqa: PLC0415
    c0, t0 = children_cpu(), time.perf_counter()
    child = pexpect.spawn(argv[0], argv[1:], env=env, dimensions=(40, 100), encoding="utf-8",
                          codec_errors="replace", timeout=60)
    child.expect(r"In \[(?:\x1b\[[0-9;]*m)*1(?:\x1b\[[0-9;]*m)*\]:")
    elapsed = time.perf_counter() - t0
    child.sendline("exit")  # (IPython asks for confirmation on Ctrl-D)
    child.expect(pexpect.EOF)
    child.close()
    return elapsed, children_cpu() - c0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=15, help="timed runs per command (default 15)")
    args = ap.parse_args()

    opscope_exe = os.path.join(build_dir(), "bin", "opscope")
    if not os.access(opscope_exe, os.X_OK):
        print(f"bench_repl: {opscope_exe} is missing (make build)")
        return 0
    home = tempfile.mkdtemp(prefix="bench_repl_")
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "NO_COLOR", "PYTHONDONTWRITEBYTECODE")}
    # Byte code cached as on a user's machine, for every command alike: with
    # PYTHONDONTWRITEBYTECODE (set in some sandboxes and CI) opscope's sources would be compiled
    # at every start while Debian ships IPython's .pyc. The cache goes to the temporary folder,
    # not into the tree.
    env.update(HOME=home, IPYTHONDIR=os.path.join(home, "ipython"),
               XDG_CONFIG_HOME=os.path.join(home, "config"), PROMPT_TOOLKIT_NO_CPR="1",
               TERM="xterm-256color", PYTHONPYCACHEPREFIX=os.path.join(home, "pycache"))
    env_opscope = dict(env, PYTHONPATH=os.path.join(REPO, "core", "python") + os.pathsep
                       + os.path.join(build_dir(), "python"))

    torch = have_torch()
    # name -> (kind, argv, env); kind "exit": until the process ends; "prompt": until In [1]:
    cases = {
        "python3 -c pass": ("exit", [PYTHON, "-c", "pass"], env),
        "python3 -c 'import opscope'": ("exit", [PYTHON, "-c", "import opscope"], env_opscope),
        "ipython -c pass": ("exit", [PYTHON, "-m", "IPython", "-c", "pass"], env),
        "opscope -c pass": ("exit", [opscope_exe, "-c", "pass"], env),
        "python3 -c 'import torch'": ("exit", [PYTHON, "-c", "import torch"], env)
        if torch else None,
        "ipython: first prompt": ("prompt", [PYTHON, "-m", "IPython"], env),
        "opscope: first prompt": ("prompt", [opscope_exe], env),
    }
    measured = {k: c for k, c in cases.items() if c is not None}
    times = {k: [] for k in measured}
    for round_ in range(args.runs + 1):  # round 0 warms caches and creates the profiles
        for name, (kind, argv, e) in measured.items():
            t = (run_once if kind == "exit" else prompt_once)(argv, e)
            if round_ > 0:
                times[name].append(t)
    shutil.rmtree(home, ignore_errors=True)

    best = {k: min(t for t, _ in v) for k, v in times.items()}
    median = {k: statistics.median(t for t, _ in v) for k, v in times.items()}
    cpu = {k: min(c for _, c in v) for k, v in times.items()}
    against = {"opscope -c pass": "ipython -c pass", "opscope: first prompt": "ipython: first prompt",
               "python3 -c 'import torch'": "ipython -c pass"}
    rows = []
    for name in cases:
        if name not in measured:
            rows.append([name, "n/a", "n/a", "n/a", "n/a", "n/a", "n/a",
                         "PyTorch not installed"])
            continue
        base = against.get(name)
        r_best = ratio(best[name], best.get(base)) if base else None
        r_median = ratio(median[name], median.get(base)) if base else None
        r_cpu = ratio(cpu[name], cpu.get(base)) if base else None
        target = verdict(r_best <= TARGET) if name.startswith("opscope") and r_best else ""
        x = lambda r: fmt(r, 2) + "x" if r else ""  # noqa: E731
        rows.append([name, fmt(best[name]), fmt(median[name]), fmt(cpu[name]), x(r_best),
                     x(r_median), x(r_cpu), target])
    print_header(machine_facts(), "Start-up of the opscope REPL (tests/bench/bench_repl.py)")
    print_table(f"Seconds, best and median of {args.runs} runs; ratios against IPython 8.5 "
                f"on the same Python (target <= {TARGET}x on the best wall time)",
                ["command", "best s", "median s", "CPU s", "best vs ipython",
                 "median vs ipython", "CPU vs ipython", "target"], rows,
                notes=[f"opscope: {opscope_exe}",
                       "ipython: /usr/bin/python3 -m IPython (Debian's python3-ipython)",
                       "first prompt: spawned in a pty, until 'In [1]:' is drawn (its CPU s "
                       "count the whole process, its exit included)",
                       "CPU s: user + system time of the process, best run: what a busy "
                       "machine disturbs least"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
