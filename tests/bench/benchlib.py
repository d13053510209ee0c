"""Shared parts of the benchmarks in tests/bench: timing (best of round-robin repeats), tables,
machine facts, thread control of every library at once, and the STREAM-style bandwidth
ceilings of stream.c. Each bench_*.py starts with

    from benchlib import np, opscope, torch, best_per_call, print_table, ...

(`torch` is None when PyTorch is not installed: its columns read "n/a").
"""
import ctypes
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import timeit

import numpy as np

import opscope

# libgomp is shared by opscope and PyTorch, and `import torch` changes its thread count: read
# opscope's default before that import.
OPSCOPE_DEFAULT_THREADS = opscope.get_num_threads()

try:
    import torch
except ImportError:  # PyTorch is optional; its columns read "n/a"
    torch = None

HERE = os.path.dirname(os.path.abspath(__file__))
NA = "n/a"


# ---------------------------------------------------------------------------------------------
# Helpers: timing, formatting, tables
# ---------------------------------------------------------------------------------------------

def _calibrated(timer, loop_s):
    """The loop count that makes one timeit loop of `timer` last about loop_s seconds."""
    number = 1
    while True:  # like timeit.autorange, to a shorter loop
        elapsed = timer.timeit(number)
        if elapsed >= loop_s:
            return number
        number = max(number * 2, int(number * loop_s / max(elapsed, 1e-9) * 1.1))


def best_per_call(cases, loop_s=0.005, repeat=40):
    """Best-of-`repeat` seconds per execution of each statement, side by side.

    cases maps a name to (stmt, namespace), or to None (not measured: the result is None). The
    repeats go round-robin over the cases, so that a disturbance of the machine (a compiler
    starting, a frequency change) hits every library alike rather than one column. Many short
    loops rather than a few long ones: on a shared VM quiet stretches come and go within seconds.
    """
    timers = {k: timeit.Timer(c[0], globals=c[1]) for k, c in cases.items() if c is not None}
    numbers = {k: _calibrated(t, loop_s) for k, t in timers.items()}
    best = {k: None for k in cases}
    for _ in range(repeat):
        for k, t in timers.items():
            per_call = t.timeit(numbers[k]) / numbers[k]
            best[k] = per_call if best[k] is None else min(best[k], per_call)
    return best


def threads_and_repeat(full_repeat, quick_repeat=5):
    """The command line most benchmarks take: --threads 1,2 (thread counts to run at) and --quick
    (quick_repeat repeats instead of full_repeat). Returns (thread counts, repeat)."""
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--quick", action="store_true", help="fewer repeats")
    args = ap.parse_args()
    return [int(t) for t in args.threads.split(",")], quick_repeat if args.quick else full_repeat


def fmt(x, digits=3):
    return NA if x is None else f"{x:.{digits}f}"


def ratio(num, den):
    return None if num is None or den is None or den == 0 else num / den


def verdict(ok):
    return NA if ok is None else ("PASS" if ok else "MISS")


# print_table's header for versus_torch_row's rows.
VERSUS_TORCH_HEADER = ["case", "opscope ms", "torch ms", "opscope/torch", "<= 1.0x"]


def versus_torch_row(case, o_stmt, t_stmt, env, repeat, digits=3, loop_s=0.02):
    """Times o_stmt (opscope) against t_stmt (torch), both run in env: a row under
    VERSUS_TORCH_HEADER (ms per call of each, their ratio, and whether opscope takes at most
    torch's time)."""
    best = best_per_call({"opscope": (o_stmt, env), "torch": (t_stmt, env)}, loop_s=loop_s, repeat=repeat)
    r = ratio(best["opscope"], best["torch"])
    return [case, fmt(best["opscope"] * 1e3, digits), fmt(best["torch"] * 1e3, digits), fmt(r, 2),
            verdict(r is not None and r <= 1.0)]


def print_table(title, header, rows, notes=()):
    """Prints an aligned plain-text table: text columns left-aligned, the others right-aligned."""
    cells = [header] + [[str(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]

    def line(row):
        out = []
        for i, c in enumerate(row):
            out.append(c.ljust(widths[i]) if i == 0 else c.rjust(widths[i]))
        return " | ".join(out).rstrip()

    print(f"\n{title}\n{'=' * len(title)}")
    print(line(header))
    print("-+-".join("-" * w for w in widths))
    for row in cells[1:]:
        print(line(row))
    for note in notes:
        print(f"  {note}")
    sys.stdout.flush()


def shared_openblas():
    """The OpenBLAS NumPy (and torch: Debian links both to libopenblas.so.0) loaded, opened again
    through ctypes (same file: same copy), and its path; (None, None) when none is loaded."""
    with open("/proc/self/maps") as f:
        paths = {line.split()[-1] for line in f if "libopenblas" in line and "/" in line}
    mine = opscope._C._blas_info().get("library")
    for path in sorted(paths):
        if mine is None or os.path.realpath(path) != os.path.realpath(mine):
            lib = ctypes.CDLL(path)
            lib.openblas_get_corename.restype = ctypes.c_char_p
            return lib, path
    return None, None


def set_threads(n, stream=None):
    """Sets the intra-op thread count of every library: opscope (OpenMP and its OpenBLAS), torch
    (torch.set_num_threads does not reach the pthread OpenBLAS it shares with NumPy, so that is
    set directly; else torch's "1 thread" products would run on every core)."""
    opscope.set_num_threads(n)
    if torch is not None:
        torch.set_num_threads(n)
    blas, _ = shared_openblas()
    if blas is not None:
        blas.openblas_set_num_threads(n)
    if stream is not None:
        stream.stream_set_num_threads(n)


# ---------------------------------------------------------------------------------------------
# 0. Machine facts
# ---------------------------------------------------------------------------------------------

def _thp_mode():
    """The bracketed choice in the kernel's transparent-huge-page switch, e.g. "madvise"."""
    try:
        with open("/sys/kernel/mm/transparent_hugepage/enabled") as f:
            text = f.read()
    except OSError:
        return NA
    return text[text.find("[") + 1:text.find("]")] if "[" in text else text.strip()


def machine_facts():
    model = NA
    try:
        with open("/proc/cpuinfo") as f:
            for ln in f:
                if ln.startswith("model name"):
                    model = ln.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {
        "cpu": model,
        "cores": os.cpu_count(),
        "cores_usable": len(os.sched_getaffinity(0)),
        "transparent_hugepages": _thp_mode(),
        "python": platform.python_version(),
        "opscope": opscope.__version__,
        "numpy": np.__version__,
        "torch": torch.__version__ if torch is not None else NA,
        "OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS", "(unset)"),
        "opscope_threads_default": OPSCOPE_DEFAULT_THREADS,
        "torch_threads_default": torch.get_num_threads() if torch is not None else NA,
    }


def print_header(facts, title):
    print(title)
    print(f"  CPU      {facts['cpu']}, {facts['cores']} cores "
          f"({facts['cores_usable']} usable by this process), "
          f"transparent huge pages: {facts['transparent_hugepages']}")
    print(f"  versions Python {facts['python']}, opscope {facts['opscope']}, "
          f"NumPy {facts['numpy']}, PyTorch {facts['torch']}")
    print(f"  threads  OMP_NUM_THREADS={facts['OMP_NUM_THREADS']}, "
          f"opscope default {facts['opscope_threads_default']}, "
          f"PyTorch default {facts['torch_threads_default']} (NumPy: single-threaded)")


# ---------------------------------------------------------------------------------------------
# Bandwidth ceilings: stream.c
# ---------------------------------------------------------------------------------------------

def build_stream():
    """Compiles stream.c into a temp dir and loads it; returns (library, None) or (None, why)."""
    gcc = shutil.which("gcc")
    if gcc is None:
        return None, "gcc not found"
    with tempfile.TemporaryDirectory(prefix="opscope-bench-") as tmp:
        so = os.path.join(tmp, "libstream.so")
        cmd = [gcc, "-O3", "-march=native", "-fopenmp", "-shared", "-fPIC",
               os.path.join(HERE, "stream.c"), "-o", so]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            return None, f"gcc failed: {proc.stderr.strip()[:200]}"
        lib = ctypes.CDLL(so)  # stays mapped after the file is gone
    fptr = ctypes.POINTER(ctypes.c_float)
    lib.stream_alloc.argtypes = [ctypes.c_long, ctypes.c_int]
    lib.stream_alloc.restype = fptr
    lib.stream_free.argtypes = [fptr]
    lib.stream_free.restype = None
    lib.stream_add.argtypes = [fptr, fptr, fptr, ctypes.c_long]
    lib.stream_add.restype = None
    lib.stream_scale.argtypes = [fptr, fptr, ctypes.c_long]
    lib.stream_scale.restype = None
    lib.stream_sum.argtypes = [fptr, ctypes.c_long]
    lib.stream_sum.restype = ctypes.c_float
    lib.stream_set_num_threads.argtypes = [ctypes.c_int]
    lib.stream_set_num_threads.restype = None
    return lib, None


def stream_namespace(stream, huge, n):
    """The C kernels on touched arrays of n floats of their own, on huge or on 4 KiB pages:
    `add()` (c = a + b: 12 bytes per element), `scale()` (b = 2a: 8 bytes), `sum()` (reads a:
    4 bytes); `free()` gives the arrays back."""
    arrays = [stream.stream_alloc(n, huge) for _ in range(3)]
    if not all(arrays):
        raise MemoryError("stream_alloc failed")
    a, b, c = arrays
    return {"add": lambda: stream.stream_add(a, b, c, n),
            "scale": lambda: stream.stream_scale(a, c, n),
            "sum": lambda: stream.stream_sum(a, n),
            "free": lambda: [stream.stream_free(x) for x in arrays]}
