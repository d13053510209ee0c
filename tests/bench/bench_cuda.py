"""CUDA kernels: opscope vs PyTorch on the same GPU, side by side (issue 17's performance list).

    PYTHONPATH=core/python:build-cuda/python python tests/bench/bench_cuda.py [--quick]

Rows: the host overhead of a 1-element add (the time a loop of launches takes per op, the GPU
idle), inside opscope.trace() too, and its allocation and launch apart, beside what a clock read
and an empty kernel launched through the driver API cost from Python (the floor of any eager op);
add of 2^28 float32 against the device-to-device copy bandwidth; mm in float32 (TF32 off and on)
and bfloat16 at 4096 and 8192, in TFLOP/s, each beside cuBLAS called directly (ctypes, torch's
tensors); softmax, layer_norm, cross_entropy and a sum over rows; one training step of a small transformer block (forward, backward, AdamW), then
each library's profile of that step by device time.
Device times come from CUDA events around a loop of calls, after a warm-up, best of the repeats.
Without a GPU, or without the CUDA backend, it says so and exits 0; PyTorch's column reads n/a
when torch (with CUDA) is not installed.
"""
import argparse
import math
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "core",
                                "python"))
import opscope  # noqa: E402

try:
    import torch
    if not torch.cuda.is_available():
        torch = None
except ImportError:
    torch = None

NA = "n/a"


def device_time(lib, fn, iters, repeat):
    """Best seconds per call of fn() on the GPU (CUDA events around `iters` calls)."""
    fn()
    lib.cuda.synchronize()
    best = math.inf
    for _ in range(repeat):
        start, end = lib.cuda.Event(enable_timing=True), lib.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(iters):
            fn()
        end.record()
        end.synchronize()
        best = min(best, start.elapsed_time(end) / 1e3 / iters)
    return best


def host_time(lib, fn, iters, repeat):
    """Best host seconds per call of fn(): the launch overhead. Keep iters well under the
    launches the GPU queues (~1000): past that the loop waits for the GPU, and what it measures
    is the GPU's time per tiny kernel, the same for both libraries."""
    fn()
    lib.cuda.synchronize()
    best = math.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(iters):
            fn()
        best = min(best, (time.perf_counter() - t0) / iters)
        lib.cuda.synchronize()
    return best


def row(name, o, t, unit, scale=1.0, higher_is_better=False):
    fo = f"{o * scale:.3f}" if o is not None else NA
    ft = f"{t * scale:.3f}" if t is not None else NA
    if o is None or t is None:
        r = NA
    else:
        r = f"{(o / t if not higher_is_better else t / o):.2f}x"
    print(f"{name:<44} {fo:>12} {ft:>12} {unit:<8} {r:>8}")


def both(build, measure):
    """measure(lib, fn) for opscope and torch, fn built by build(lib) on each."""
    o = measure(opscope, build(opscope))
    t = measure(torch, build(torch)) if torch is not None else None
    return o, t


class Block:
    """A transformer block built from either library's modules (same code for both)."""

    @staticmethod
    def make(lib, d=512, heads=8, t=256, b=16):
        nn, F = lib.nn, lib.nn.functional

        class B(nn.Module):
            def __init__(self):
                super().__init__()
                self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
                self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
                self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

            def forward(self, x):
                bb, tt, dd = x.shape
                q, k, v = self.qkv(self.ln1(x)).split(dd, dim=-1)
                q, k, v = (z.view(bb, tt, heads, dd // heads).transpose(1, 2) for z in (q, k, v))
                att = F.softmax((q @ k.transpose(-2, -1)) / math.sqrt(dd // heads), dim=-1)
                x = x + self.proj((att @ v).transpose(1, 2).reshape(bb, tt, dd))
                return x + self.mlp(self.ln2(x))

        model = B().cuda()
        opt = lib.optim.AdamW(model.parameters(), lr=1e-4, foreach=False)
        x = lib.randn(b, t, d, device="cuda")

        def step():
            opt.zero_grad()
            model(x).square().mean().backward()
            opt.step()
        return step


class DirectCublas:
    """cuBLAS called straight through ctypes on torch's tensors and default stream: the ceiling
    each product row is held to (issue 17: >= 0.95x a direct cuBLAS call at the same shape).
    None of it when no libcublas can be loaded."""

    SGEMM_MATH = {False: 0, True: 3}  # CUBLAS_DEFAULT_MATH, CUBLAS_TF32_TENSOR_OP_MATH
    R_32F, R_16BF, COMPUTE_32F, GEMM_DEFAULT_TENSOR_OP = 0, 14, 68, 99

    def __init__(self):
        import ctypes
        import glob
        self.ct = ctypes
        here = os.path.dirname(torch.__file__) if torch is not None else ""
        names = ["libcublas.so.13", "libcublas.so.12"]
        names += sorted(glob.glob(os.path.join(here, "..", "nvidia", "*", "lib", "libcublas.so*")))
        names += sorted(glob.glob(os.path.join(here, "..", "nvidia", "cublas", "lib",
                                               "libcublas.so*")))
        names += sorted(glob.glob("/usr/local/cuda/lib64/libcublas.so*"))
        self.lib = None
        for name in names:
            try:
                self.lib = ctypes.CDLL(name)
                break
            except OSError:
                continue
        if self.lib is None:
            return
        self.handle = ctypes.c_void_p()
        if self.lib.cublasCreate_v2(ctypes.byref(self.handle)) != 0:
            self.lib = None

    def product(self, size, dtype_name, tf32):
        """fn() computing a size^3 product with cuBLAS alone (C = A @ B, column-major B^T A^T)."""
        ct, lib = self.ct, self.lib
        dt = getattr(torch, dtype_name)
        a = torch.randn(size, size, device="cuda").to(dt)
        b = torch.randn(size, size, device="cuda").to(dt)
        c = torch.empty(size, size, device="cuda", dtype=dt)
        one, zero = ct.c_float(1.0), ct.c_float(0.0)
        h, n = self.handle, ct.c_int(size)
        pa, pb, pc = (ct.c_void_p(t.data_ptr()) for t in (a, b, c))
        lib.cublasSetStream_v2(h, ct.c_void_p(torch.cuda.current_stream().cuda_stream))
        if dtype_name == "float32":
            def fn():
                lib.cublasSetMathMode(h, self.SGEMM_MATH[tf32])
                return lib.cublasSgemm_v2(h, 0, 0, n, n, n, ct.byref(one), pb, n, pa, n,
                                          ct.byref(zero), pc, n)
        else:
            def fn():
                return lib.cublasGemmEx(h, 0, 0, n, n, n, ct.byref(one), pb, self.R_16BF, n, pa,
                                        self.R_16BF, n, ct.byref(zero), pc, self.R_16BF, n,
                                        self.COMPUTE_32F, self.GEMM_DEFAULT_TENSOR_OP)
        status = fn()
        if status != 0:
            raise RuntimeError(f"direct cuBLAS call returned status {status}")
        fn.keep = (a, b, c)
        return fn


class BareLaunch:
    """An empty kernel launched from Python through the driver API (ctypes, cuLaunchKernel), on
    the legacy default stream: what any eager op launched from Python pays at least, with no
    dispatch, no tensor and no allocation. None of it when libcuda cannot be loaded."""

    PTX = (b".version 7.0\n.target sm_50\n.address_size 64\n"
           b".visible .entry opscope_bench_empty()\n{\n\tret;\n}\n")

    def __init__(self):
        import ctypes
        self.ct = ctypes
        self.fn = None
        try:
            cu = ctypes.CDLL("libcuda.so.1")
        except OSError:
            return
        module, func = ctypes.c_void_p(), ctypes.c_void_p()
        # The runtime (opscope's, torch's) made the device's primary context current already.
        if cu.cuModuleLoadData(ctypes.byref(module), self.PTX) != 0:
            return
        if cu.cuModuleGetFunction(ctypes.byref(func), module, b"opscope_bench_empty") != 0:
            return
        launch, one, zero, null = cu.cuLaunchKernel, ctypes.c_uint(1), ctypes.c_uint(0), None

        def fn():
            return launch(func, one, one, one, one, one, one, zero, null, null, null)
        if fn() != 0:
            return
        self.fn = fn


def clock_read_ns(n=200000):
    """Nanoseconds per time.perf_counter_ns() call (clock_gettime(CLOCK_MONOTONIC), the
    recorder's clock) seen from Python, best of 5: slow where the VM's clocksource has no vDSO."""
    best = math.inf
    clock = time.perf_counter_ns
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(n):
            clock()
        best = min(best, (time.perf_counter() - t0) / n)
    return best


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="fewer repeats, smaller products")
    args = p.parse_args()
    if not opscope.cuda.is_available():
        print("bench_cuda: no CUDA GPU visible to opscope (or the CUDA backend is not built): "
              "nothing to measure")
        return 0
    repeat = 3 if args.quick else 10
    print(f"GPU: {opscope.cuda.get_device_name(0)}; PyTorch "
          f"{torch.__version__ if torch is not None else 'not available (n/a)'}")
    print(f"{'case':<44} {'opscope':>12} {'torch':>12} {'unit':<8} {'ratio':>8}")

    # Host overhead of a tiny op.
    def tiny(lib):
        a = lib.ones(1, device="cuda")
        return lambda: a + a
    o, t = both(tiny, lambda lib, fn: host_time(lib, fn, 200, 5 * repeat))
    row("add 1 float32 element: host time per op", o, t, "us", 1e6)
    # What recording costs on a CUDA op (target <= +1 us of host time): in the process's first
    # trace, whose records go to fresh pages, and in a second one, on the pages the first freed
    # (as the REPL's and the kernel's recordings of each line). See Note [Pages touched ahead of
    # the recorder] in profiler/Chunked.cpp.
    with opscope.trace():
        traced = host_time(opscope, tiny(opscope), 200, 5 * repeat)
    with opscope.trace():
        again = host_time(opscope, tiny(opscope), 200, 5 * repeat)
    row("  the same inside opscope.trace()", traced, None, "us", 1e6)
    print(f"{'  recording cost per op (opscope)':<44} {(traced - o) * 1e6:>12.3f} {'':>12} us"
          "   (the first trace: fresh memory)")
    print(f"{'  the same in a second trace':<44} {(again - o) * 1e6:>12.3f} {'':>12} us"
          "   (memory reused)")
    print(f"{'  a clock read from Python (perf_counter_ns)':<44} {clock_read_ns() * 1e6:>12.3f} "
          f"{'':>12} us")
    bare = BareLaunch()
    if bare.fn is not None:
        print(f"{'  empty kernel, cuLaunchKernel through ctypes':<44} "
              f"{host_time(opscope, bare.fn, 200, 5 * repeat) * 1e6:>12.3f} {'':>12} us"
              "   (the floor of an eager launch from Python)")
    # Where the host time goes: the allocation alone, an in-place add (no allocation).
    for name, build in (("empty(1) on the GPU (allocate + free)",
                         lambda lib: (lambda: lib.empty(1, device="cuda"))),
                        ("a.add_(a), 1 element (no allocation)",
                         lambda lib: (lambda a=lib.ones(1, device="cuda"): a.add_(a)))):
        o2, t2 = both(build, lambda lib, fn: host_time(lib, fn, 200, 5 * repeat))
        row(name, o2, t2, "us", 1e6)

    # Bandwidth: add of 2^28 float32 vs a device-to-device copy.
    n = 1 << (26 if args.quick else 28)

    def big_add(lib):
        a, b = lib.ones(n, device="cuda"), lib.ones(n, device="cuda")
        return lambda: a + b

    def big_copy(lib):
        a, b = lib.ones(n, device="cuda"), lib.empty(n, device="cuda")
        return lambda: b.copy_(a)
    o, t = both(big_add, lambda lib, fn: device_time(lib, fn, 5, repeat))
    co, ct = both(big_copy, lambda lib, fn: device_time(lib, fn, 5, repeat))
    gb = 3 * 4 * n / 1e9
    row(f"add 2^{int(math.log2(n))} float32", gb / o, gb / t if t else None, "GB/s", 1, True)
    row(f"copy_ 2^{int(math.log2(n))} float32 (the ceiling)", 2 * 4 * n / 1e9 / co,
        2 * 4 * n / 1e9 / ct if ct else None, "GB/s", 1, True)
    print(f"{'  add bandwidth / copy bandwidth (opscope)':<44} {(gb / o) / (8 * n / 1e9 / co):>12.2f}")

    # Products.
    sizes = [2048] if args.quick else [4096, 8192]
    direct = DirectCublas() if torch is not None else None
    if direct is not None and direct.lib is None:
        print("  (no libcublas loadable through ctypes: no direct cuBLAS rows)")
        direct = None
    for size in sizes:
        for dtype_name, tf32 in (("float32", False), ("float32", True), ("bfloat16", False)):
            def mm(lib, size=size, dtype_name=dtype_name, tf32=tf32):
                lib.backends.cuda.matmul.allow_tf32 = tf32
                dt = getattr(lib, dtype_name)
                a = lib.randn(size, size, device="cuda").to(dt)
                b = lib.randn(size, size, device="cuda").to(dt)
                return lambda: a @ b
            o, t = both(mm, lambda lib, fn: device_time(lib, fn, 3, repeat))
            flop = 2 * size ** 3 / 1e12
            label = f"mm {size}^3 {dtype_name}{' tf32' if tf32 else ''}"
            row(label, flop / o, flop / t if t else None, "TFLOP/s", 1, True)
            if direct is not None:
                try:
                    d = device_time(torch, direct.product(size, dtype_name, tf32), 3, repeat)
                except Exception as e:  # the opscope and torch rows stand without it
                    print(f"  direct cuBLAS: {type(e).__name__}: {e}")
                    continue
                print(f"{'  the same product, cuBLAS called directly':<44} {'':>12} "
                      f"{flop / d:>12.3f} {'TFLOP/s':<8} {(flop / o) / (flop / d):>7.2f}x")
    opscope.backends.cuda.matmul.allow_tf32 = False
    if torch is not None:
        torch.backends.cuda.matmul.allow_tf32 = False

    # Kernels of a transformer's step.
    def softmax(lib):
        x = lib.randn(64 * 256, 1024, device="cuda")
        return lambda: lib.softmax(x, -1)

    def layer_norm(lib):
        x = lib.randn(64 * 256, 1024, device="cuda")
        w, b = lib.ones(1024, device="cuda"), lib.zeros(1024, device="cuda")
        return lambda: lib.nn.functional.layer_norm(x, (1024,), w, b)

    def cross_entropy(lib):
        x = lib.randn(8192, 1000, device="cuda")
        y = lib.randint(0, 1000, (8192,), device="cuda")
        return lambda: lib.nn.functional.cross_entropy(x, y)

    def row_sum(lib):
        x = lib.randn(4096, 4096, device="cuda")
        return lambda: x.sum(0)
    for name, build in (("softmax (16384, 1024) dim=-1", softmax),
                        ("layer_norm (16384, 1024)", layer_norm),
                        ("cross_entropy (8192, 1000)", cross_entropy),
                        ("sum(0) of (4096, 4096)", row_sum)):
        o, t = both(build, lambda lib, fn: device_time(lib, fn, 10, repeat))
        row(name, o, t, "ms", 1e3)

    o, t = both(Block.make, lambda lib, fn: device_time(lib, fn, 3, repeat))
    row("transformer block step (16x256x512, AdamW)", o, t, "ms", 1e3)
    if not args.quick:
        profile_block_step()
    return 0


def profile_block_step():
    """Where the block's step spends the GPU's time: each library's profiler on one step, the
    ops with the most device time first."""
    for lib in (opscope, torch):
        if lib is None:
            continue
        step = Block.make(lib)
        step()
        lib.cuda.synchronize()
        P = lib.profiler
        with P.profile(activities=[P.ProfilerActivity.CPU, P.ProfilerActivity.CUDA]) as prof:
            step()
            lib.cuda.synchronize()
        print(f"\n{lib.__name__}: one transformer block step, by self CUDA time")
        print(prof.key_averages().table(sort_by="self_cuda_time_total", row_limit=15))


if __name__ == "__main__":
    sys.exit(main())
