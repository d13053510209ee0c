"""matmul float32 at 256, 1024 and 2048 on 1 and 2 threads: opscope, NumPy and PyTorch side by side.

    PYTHONPATH=core/python /usr/bin/python3 tests/bench/bench_matmul.py [--sizes 256,1024,2048]
                                                                       [--threads 1,2]

Prints GFLOP/s, the ratios to NumPy and PyTorch, and the fraction of the CPU's float32 peak (per
core used): peak = cores x flop/cycle x clock, with 64 flop/cycle for AVX-512 FMA (two 16-wide
FMA units), 32 for AVX2 FMA, 8 otherwise; the clock from `lscpu` (max MHz) or /proc/cpuinfo
("cpu MHz"), printed with its source. Also prints which OpenBLAS kernel family ("corename") each
library runs: opscope's from opscope._C._blas_info(), NumPy's and PyTorch's from the OpenBLAS
they share (Debian links both to libopenblas.so.0), asked through ctypes. PyTorch columns are
left out when torch is not installed. Each measurement starts after 0.5 s idle (other libraries'
BLAS threads spin after their calls). The load average is printed: on a shared machine, the
numbers are only as good as the CPU time the benchmark got.
"""
import argparse
import os
import re
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "core", "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import opscope  # noqa: E402
from benchlib import shared_openblas  # noqa: E402

try:
    import torch
except ImportError:  # the torch columns are optional
    torch = None


# --- the CPU -------------------------------------------------------------------------------------

def cpu_flags():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    return set()


def clock_ghz():
    """(GHz, where it came from): lscpu's max MHz, else /proc/cpuinfo's current 'cpu MHz'."""
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, timeout=10).stdout
        m = re.search(r"CPU max MHz:\s*([\d.]+)", out)
        if m and float(m.group(1)) > 0:
            return float(m.group(1)) / 1000, "lscpu 'CPU max MHz'"
    except (OSError, subprocess.SubprocessError):
        pass
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("cpu MHz"):
                return float(line.split(":")[1]) / 1000, "/proc/cpuinfo 'cpu MHz'"
    return float("nan"), "unknown"


def flop_per_cycle(flags):
    if {"avx512f", "avx512bw", "avx512vl", "avx512dq"} <= flags:
        return 64, "AVX-512 FMA"
    if {"avx2", "fma"} <= flags:
        return 32, "AVX2 FMA"
    return 8, "SSE"


# --- NumPy's / torch's OpenBLAS ------------------------------------------------------------------

# --- timing --------------------------------------------------------------------------------------

def best_seconds(fn, flops):
    # Let the previous library's threads go to sleep first: OpenBLAS's pthread workers spin for
    # up to ~0.1 s after a call, libgomp's for a while too; measured right after another library,
    # a 2-thread product shares its cores with them.
    time.sleep(0.5)
    fn()  # warm up (and load the BLAS)
    reps = max(1, min(50, int(0.5e9 * 2 / flops * 20)))  # ~ a fraction of a second per round
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        for _ in range(reps):
            fn()
        best = min(best, (time.perf_counter() - t0) / reps)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="256,1024,2048")
    parser.add_argument("--threads", default="1,2")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    thread_counts = [int(s) for s in args.threads.split(",")]

    flags = cpu_flags()
    ghz, clock_source = clock_ghz()
    fpc, isa = flop_per_cycle(flags)
    info = opscope._C._blas_info()
    np.ones((64, 64), np.float32) @ np.ones((64, 64), np.float32)  # NumPy's OpenBLAS is loaded
    np_lib, np_path = shared_openblas()

    print(f"CPU: {os.cpu_count()} cores visible, {isa} ({fpc} float32 flop/cycle/core), clock {ghz:.2f} GHz "
          f"from {clock_source}: peak {fpc * ghz:.1f} GFLOP/s per core")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"opscope: {info['corename']} kernels ({info['reason']}), {info['threading']} OpenBLAS "
          f"{info['library']}")
    if np_lib is not None:
        print(f"NumPy {np.__version__}: {np_lib.openblas_get_corename().decode()} kernels, {np_path}")
    if torch is not None:
        blas_info = re.search(r"BLAS_INFO=(\w+)", torch.__config__.show())
        print(f"PyTorch {torch.__version__}: BLAS_INFO={blas_info.group(1) if blas_info else '?'}, "
              f"the same OpenBLAS as NumPy ({np_lib.openblas_get_corename().decode() if np_lib else '?'} kernels)")
    print()

    cols = ["opscope", "numpy"] + (["torch"] if torch is not None else [])
    header = f"{'size':>5} {'thr':>3} " + " ".join(f"{c + ' GF/s':>13} {'%peak':>6}" for c in cols)
    header += f" {'vs numpy':>9}" + (f" {'vs torch':>9}" if torch is not None else "")
    print(header)
    print("-" * len(header))
    for n in sizes:
        flops = 2.0 * n * n * n
        a_np = np.random.default_rng(0).standard_normal((n, n), dtype=np.float32)
        b_np = np.random.default_rng(1).standard_normal((n, n), dtype=np.float32)
        a, b = opscope.from_numpy(a_np), opscope.from_numpy(b_np)
        if torch is not None:
            a_t, b_t = torch.from_numpy(a_np), torch.from_numpy(b_np)
        for threads in thread_counts:
            opscope.set_num_threads(threads)
            if np_lib is not None:
                np_lib.openblas_set_num_threads(threads)
            rates = {"opscope": flops / best_seconds(lambda: opscope.matmul(a, b), flops) / 1e9,
                     "numpy": flops / best_seconds(lambda: np.matmul(a_np, b_np), flops) / 1e9}
            if torch is not None:
                torch.set_num_threads(threads)
                rates["torch"] = flops / best_seconds(lambda: torch.matmul(a_t, b_t), flops) / 1e9
            peak = threads * fpc * ghz
            row = f"{n:>5} {threads:>3} " + " ".join(
                f"{rates[c]:>13.1f} {100 * rates[c] / peak:>5.0f}%" for c in cols)
            row += f" {rates['opscope'] / rates['numpy']:>8.2f}x"
            if torch is not None:
                row += f" {rates['opscope'] / rates['torch']:>8.2f}x"
            print(row, flush=True)
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
