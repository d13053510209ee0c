"""Op library benchmark (issue 3): opscope vs NumPy vs PyTorch 1.13, side by side in one process.

A measurement, not a test: it prints one table per section with the ratios and the issue's
targets, and always exits 0. Run it with

    make bench                                  # installs python3-torch, builds, runs every bench
    PYTHONPATH=core/python /usr/bin/python3 tests/bench/bench_ops.py [--json results.json]

What is measured:

1. Per-call overhead from Python (us/call) with 1-element float32 inputs: add, mul, relu, sum,
   matmul 2x2, ``a[0]``, ``a[mask]``. Target: opscope <= 0.5x PyTorch.
2. Elementwise ops and reductions on 10^7 float32 elements, 1 and 2 threads, in GB/s (bytes the
   op must move: 12/element for a binary op with a fresh output, 8 for a unary one, 4 for a
   reduction over everything). Each row's ceiling is the matching STREAM-style kernel of
   stream.c (add, scale, sum) on touched arrays, same thread count. Targets: >= 1.0x PyTorch, and
   >= 0.9x the ceiling for the memory-bound rows (the transcendental rows: PyTorch only).
3. softmax / log_softmax over the last dim of a (4096, 1000) float32 tensor, 1 and 2 threads.
   Target: >= 1.0x PyTorch (a time ratio torch/opscope >= 1).

4. Mixed layouts (the optimizer issue): ``a.add_(b, alpha=0.5)`` against ``a.add_(b)`` on 200k
   contiguous float32 elements (target: the alpha form <= 1.1x the plain one), and ``a + b.t()``
   against ``a + b`` for (400, 500) and (2048, 2048) float32 (target: <= 2x the contiguous time),
   1 thread, torch side by side. ``--only layouts``.

5. The library's special functions, NaN-ignoring and selecting reductions, scans, searches and
   histograms (session 34's ops), 1 and 2 threads, ms per call beside torch and NumPy. Target:
   <= 1.0x PyTorch's time. ``--only library``.

Every time is the best of round-robin repeats of short timeit loops (see benchlib.py).
"""

import argparse
import importlib
import json

from benchlib import (NA, OPSCOPE_DEFAULT_THREADS, best_per_call, build_stream, fmt,
                      machine_facts, np, opscope, print_header, print_table, ratio, set_threads,
                      stream_namespace, torch, verdict)

# ---------------------------------------------------------------------------------------------
# 1. Per-call overhead
# ---------------------------------------------------------------------------------------------

# (case, opscope stmt, NumPy stmt or None, PyTorch stmt): `a`, `b` 1-element float32, `a4` four
# elements, `m` 2x2, `mask` a 1-element bool tensor holding True.
OVERHEAD_CASES = [
    ("add  a + b", "a + b", "a + b", "a + b"),
    ("mul  a * b", "a * b", "a * b", "a * b"),
    ("relu(a)", "lib.relu(a)", "np.maximum(a, 0)", "lib.relu(a)"),
    ("a.sum()", "a.sum()", "a.sum()", "a.sum()"),
    ("matmul 2x2  m @ m", "m @ m", "m @ m", "m @ m"),
    ("a4[0]", "a4[0]", "a4[0]", "a4[0]"),
    ("a[mask]", "a[mask]", "a[mask]", "a[mask]"),
    ("in place  a.add_(b)", "a.add_(b)", "np.add(a, b, out=a)", "a.add_(b)"),
]
OVERHEAD_TARGET = 0.5


def overhead_namespace(lib):
    if lib is np:
        return {"np": np, "a": np.ones(1, np.float32), "b": np.ones(1, np.float32),
                "a4": np.ones(4, np.float32), "m": np.ones((2, 2), np.float32),
                "mask": np.ones(1, bool)}
    return {"lib": lib, "a": lib.ones(1), "b": lib.ones(1), "a4": lib.ones(4),
            "m": lib.ones(2, 2), "mask": lib.ones(1, dtype=lib.bool)}


def available(stmt, space):
    """False when the statement raises (an op this build lacks): its cell reads n/a."""
    try:
        eval(stmt, space)  # noqa: S307 - our own benchmark statements
        return True
    except Exception:  # noqa: BLE001
        return False


def bench_overhead():
    set_threads(1)
    spaces = {"opscope": overhead_namespace(opscope), "numpy": overhead_namespace(np),
              "torch": overhead_namespace(torch) if torch is not None else None}
    results, rows = [], []
    for case, s_os, s_np, s_t in OVERHEAD_CASES:
        cases = {"opscope": (s_os, spaces["opscope"]), "numpy": (s_np, spaces["numpy"]),
                 "torch": (s_t, spaces["torch"]) if torch is not None else None}
        cases = {k: c if c is not None and available(*c) else None for k, c in cases.items()}
        us = {k: None if v is None else v * 1e6 for k, v in best_per_call(cases).items()}
        r = ratio(us["opscope"], us["torch"])
        ok = None if r is None else r <= OVERHEAD_TARGET
        results.append({"case": case, "us_per_call": us, "opscope_over_torch": r, "ok": ok})
        rows.append([case, fmt(us["opscope"]), fmt(us["numpy"]), fmt(us["torch"]), fmt(r, 2),
                     f"<= {OVERHEAD_TARGET}x torch", verdict(ok)])
    print_table("1. Per-call overhead from Python, 1-element float32 (us/call, lower is better)",
                ["case", "opscope", "numpy", "torch", "opscope/torch", "target", "ok"], rows,
                ["NumPy's a4[0] returns a NumPy scalar, not a 0-d array; relu is np.maximum(a, 0)."])
    return results


# ---------------------------------------------------------------------------------------------
# 2. 10^7 float32: elementwise and reductions
# ---------------------------------------------------------------------------------------------

BIG_N = 10 ** 7

# (case, bytes per element, stream ceiling kernel or None, opscope/torch stmt, NumPy stmt or None)
BIG_CASES = [
    ("c = a + b", 12, "add", "a + b", "a + b"),
    ("c = a * b", 12, "add", "a * b", "a * b"),
    ("relu(a)", 8, "scale", "lib.relu(a)", "np.maximum(a, 0)"),
    ("abs(a)", 8, "scale", "lib.abs(a)", "np.abs(a)"),
    ("a * 2", 8, "scale", "a * 2", "a * 2"),
    ("exp(a)", 8, None, "lib.exp(a)", "np.exp(a)"),
    ("tanh(a)", 8, None, "lib.tanh(a)", "np.tanh(a)"),
    ("sigmoid(a)", 8, None, "lib.sigmoid(a)", None),
    ("gelu(a)", 8, None, "lib.nn.functional.gelu(a)", None),
    ("a.sum()", 4, "sum", "a.sum()", "a.sum()"),
    ("a.mean()", 4, "sum", "a.mean()", "a.mean()"),
    ("a.amax()", 4, "sum", "a.amax()", "a.max()"),
    ("a2.sum(0)  (1000x10000)", 4, "sum", "a2.sum(0)", "a2.sum(0)"),
    ("a2.sum(1)  (1000x10000)", 4, "sum", "a2.sum(1)", "a2.sum(1)"),
]
BW_TARGET_CEILING = 0.9
BW_TARGET_TORCH = 1.0


def big_namespace(lib):
    """Inputs in [-4, 4) (exp, tanh stay finite; relu and abs have work to do)."""
    if lib is np:
        a = (np.arange(BIG_N, dtype=np.float32) % 8.0 - 4.0).astype(np.float32)
        return {"np": np, "a": a, "b": a * 0.5, "a2": a.reshape(1000, 10000)}
    a = lib.arange(BIG_N, dtype=lib.float32) % 8.0 - 4.0
    importlib.import_module(lib.__name__ + ".nn.functional")  # lib.nn.functional.gelu
    return {"lib": lib, "a": a, "b": a * 0.5, "a2": a.reshape(1000, 10000)}


def bench_big():
    stream, why = build_stream()
    spaces = {"opscope": big_namespace(opscope), "numpy": big_namespace(np),
              "torch": big_namespace(torch) if torch is not None else None}
    ceiling_space = stream_namespace(stream, huge=1, n=BIG_N) if stream is not None else None
    results, rows = [], []
    for threads in (1, 2):
        set_threads(threads, stream)
        for case, nbytes, kernel, stmt, np_stmt in BIG_CASES:
            cases = {"opscope": (stmt, spaces["opscope"]),
                     "numpy": (np_stmt, spaces["numpy"]) if np_stmt else None,
                     "torch": (stmt, spaces["torch"]) if torch is not None else None}
            cases = {k: c if c is not None and available(*c) else None for k, c in cases.items()}
            if kernel and ceiling_space is not None:
                cases["ceiling"] = (f"{kernel}()", ceiling_space)
            seconds = best_per_call(cases, loop_s=0.04, repeat=6)
            gbps = {k: None if t is None else BIG_N * nbytes / t / 1e9 for k, t in seconds.items()}
            r_torch = ratio(gbps["opscope"], gbps["torch"])
            r_ceil = ratio(gbps["opscope"], gbps.get("ceiling"))
            checks = [(r_torch, BW_TARGET_TORCH)] + ([(r_ceil, BW_TARGET_CEILING)] if kernel else [])
            oks = [r >= t for r, t in checks if r is not None]
            ok = all(oks) if oks and gbps["opscope"] is not None else None
            target = (f">={BW_TARGET_CEILING}x ceil, >=1x torch" if kernel else ">=1x torch")
            results.append({"case": case, "threads": threads, "gbps": gbps,
                            "opscope_over_torch": r_torch, "opscope_over_ceiling": r_ceil, "ok": ok})
            rows.append([case, str(threads), fmt(gbps["opscope"], 1), fmt(gbps["numpy"], 1),
                         fmt(gbps["torch"], 1), fmt(gbps.get("ceiling"), 1), fmt(r_ceil, 2),
                         fmt(r_torch, 2), target, verdict(ok)])
    set_threads(OPSCOPE_DEFAULT_THREADS, stream)
    if ceiling_space is not None:
        ceiling_space["free"]()
    print_table(f"2. 10^7 float32 elements (GB/s moved, higher is better)",
                ["case", "threads", "opscope", "numpy", "torch", "ceiling", "opscope/ceil",
                 "opscope/torch", "target", "ok"], rows,
                ["GB/s = bytes the op must move (12, 8 or 4 per element) x 10^7 / time; outputs "
                 "are fresh tensors, as users write them.",
                 "ceiling: stream.c's add / scale / sum on touched huge-page arrays, same threads"
                 + ("" if stream else f" (n/a: {why})") + ".",
                 "NumPy is single-threaded: its 2-thread rows run on one thread."])
    return results


# ---------------------------------------------------------------------------------------------
# 3. softmax on (4096, 1000)
# ---------------------------------------------------------------------------------------------

SOFTMAX_CASES = [("softmax(x, -1)", "lib.softmax(x, -1)"),
                 ("log_softmax(x, -1)", "lib.log_softmax(x, -1)")]


def bench_softmax():
    spaces = {"opscope": {"lib": opscope, "x": opscope.randn(4096, 1000)},
              "torch": {"lib": torch, "x": torch.randn(4096, 1000)} if torch is not None else None}
    results, rows = [], []
    for threads in (1, 2):
        set_threads(threads)
        for case, stmt in SOFTMAX_CASES:
            cases = {k: (stmt, sp) if sp is not None and available(stmt, sp) else None
                     for k, sp in spaces.items()}
            ms = {k: None if t is None else t * 1e3
                  for k, t in best_per_call(cases, loop_s=0.04, repeat=6).items()}
            speedup = ratio(ms["torch"], ms["opscope"])
            ok = None if speedup is None else speedup >= 1.0
            results.append({"case": case, "threads": threads, "ms": ms, "torch_over_opscope": speedup,
                            "ok": ok})
            rows.append([case, str(threads), fmt(ms["opscope"]), fmt(ms["torch"]), fmt(speedup, 2),
                         ">= 1.0", verdict(ok)])
    set_threads(OPSCOPE_DEFAULT_THREADS)
    print_table("3. softmax over the last dim of (4096, 1000) float32 (ms/call, lower is better)",
                ["case", "threads", "opscope", "torch", "torch/opscope", "target", "ok"], rows)
    return results


# ---------------------------------------------------------------------------------------------
# 4. Mixed layouts
# ---------------------------------------------------------------------------------------------

def layouts_namespace(lib, rng):
    conv = lib.from_numpy
    n = 200_000
    ns = {"a": conv(rng.random(n, dtype=np.float32)), "b": conv(rng.random(n, dtype=np.float32))}
    for m, k in ((400, 500), (2048, 2048)):
        ns[f"x{m}"] = conv(rng.random((m, k), dtype=np.float32))
        ns[f"y{m}"] = conv(rng.random((m, k), dtype=np.float32))
        ns[f"t{m}"] = conv(rng.random((k, m), dtype=np.float32)).t()
    return ns


LAYOUT_ROWS = [  # (case, statement, baseline statement, target ratio)
    ("add_ alpha, 200k", "a.add_(b, alpha=0.5)", "a.add_(b)", 1.1),
    ("a + b.t(), (400, 500)", "x400 + t400", "x400 + y400", 2.0),
    ("a + b.t(), (2048, 2048)", "x2048 + t2048", "x2048 + y2048", 2.0),
]


def bench_layouts():
    set_threads(1)
    rng = np.random.default_rng(0)
    spaces = {"opscope": layouts_namespace(opscope, rng)}
    if torch is not None:
        spaces["torch"] = layouts_namespace(torch, np.random.default_rng(0))
    rows, report = [], []
    for name, stmt, base, target in LAYOUT_ROWS:
        cases = {}
        for lib, space in spaces.items():
            cases[lib] = (stmt, space)
            cases[lib + " base"] = (base, space)
        best = best_per_call(cases, loop_s=0.02, repeat=15)
        us = {k: v * 1e6 for k, v in best.items()}
        r = ratio(us["opscope"], us["opscope base"])
        rt = ratio(us.get("torch"), us.get("torch base")) if torch is not None else None
        rows.append([name, fmt(us["opscope"], 1), fmt(us["opscope base"], 1), fmt(r, 2),
                     fmt(us.get("torch"), 1), fmt(us.get("torch base"), 1), fmt(rt, 2),
                     verdict(r <= target) + f" (<= {target}x)"])
        report.append({"case": name, "opscope_us": us["opscope"], "base_us": us["opscope base"],
                       "torch_us": us.get("torch"), "torch_base_us": us.get("torch base"),
                       "ratio": r, "target": target, "ok": r <= target})
    print_table("mixed layouts, float32, 1 thread: us per call (best of 15)",
                ["case", "opscope", "its base", "ratio", "torch", "torch base", "torch ratio",
                 "target"], rows,
                notes=["base: a.add_(b) for the alpha row, a + b (both contiguous) for the "
                       "transposed rows; ratio = the case over its base."])
    return report


# ---------------------------------------------------------------------------------------------
# 5. The library's special functions, scans, searches and histograms
# ---------------------------------------------------------------------------------------------

# (case, opscope / torch stmt, NumPy stmt or None). Inputs: `u` 10^6 float32 in (-0.99, 0.99),
# `p` 10^6 positive float32, `h` 10^6 float32 with 10% NaN, `m` (1000, 1000) float32, `edges`
# 10^4 sorted float32, `ints` 10^6 int64 in [0, 1000), `few` 1000 int64.
LIBRARY_CASES = [
    ("lgamma(p)  10^6", "lib.lgamma(p)", None),
    ("digamma(p)  10^6", "lib.digamma(p)", None),
    ("erfinv(u)  10^6", "lib.erfinv(u)", None),
    ("xlogy(u, p)  10^6", "lib.xlogy(u, p)", None),
    ("logaddexp(u, p)  10^6", "lib.logaddexp(u, p)", "np.logaddexp(u, p)"),
    ("hypot(u, p)  10^6", "lib.hypot(u, p)", "np.hypot(u, p)"),
    ("nansum(h)  10^6", "lib.nansum(h)", "np.nansum(h)"),
    ("nanmean(h)  10^6", "lib.nanmean(h)", "np.nanmean(h)"),
    ("median(m, 1)  1000x1000", "lib.median(m, 1)", None),
    ("cummax(m, 1)  1000x1000", "lib.cummax(m, 1)", None),
    ("logcumsumexp(m, 1)  1000x1000", "lib.logcumsumexp(m, 1)", "np.logaddexp.accumulate(m, 1)"),
    ("searchsorted(edges, p)  10^4 / 10^6", "lib.searchsorted(edges, p)", "np.searchsorted(edges, p)"),
    ("bincount(ints)  10^6", "lib.bincount(ints)", "np.bincount(ints)"),
    ("histc(u, 100)  10^6", "lib.histc(u, 100, -1, 1)", "np.histogram(u, 100, (-1, 1))"),
    ("isin(ints, few)  10^6 / 1000", "lib.isin(ints, few)", "np.isin(ints, few)"),
]


def library_namespace(lib):
    rng = np.random.default_rng(0)
    u = rng.uniform(-0.99, 0.99, 10 ** 6).astype(np.float32)
    p = rng.uniform(0.1, 20, 10 ** 6).astype(np.float32)
    h = rng.normal(0, 1, 10 ** 6).astype(np.float32)
    h[rng.random(10 ** 6) < 0.1] = np.nan
    m = rng.normal(0, 1, (1000, 1000)).astype(np.float32)
    edges = np.sort(rng.uniform(0, 20, 10 ** 4)).astype(np.float32)
    ints = rng.integers(0, 1000, 10 ** 6)
    few = rng.integers(0, 2000, 1000)
    arrays = {"u": u, "p": p, "h": h, "m": m, "edges": edges, "ints": ints, "few": few}
    if lib is np:
        return {"np": np, **arrays}
    return {"lib": lib, **{k: lib.from_numpy(v.copy()) for k, v in arrays.items()}}


def bench_library():
    spaces = {"opscope": library_namespace(opscope), "numpy": library_namespace(np),
              "torch": library_namespace(torch) if torch is not None else None}
    results, rows = [], []
    for threads in (1, 2):
        set_threads(threads)
        for case, stmt, np_stmt in LIBRARY_CASES:
            cases = {"opscope": (stmt, spaces["opscope"]),
                     "numpy": (np_stmt, spaces["numpy"]) if np_stmt else None,
                     "torch": (stmt, spaces["torch"]) if torch is not None else None}
            cases = {k: c if c is not None and available(*c) else None for k, c in cases.items()}
            seconds = best_per_call(cases, loop_s=0.02, repeat=5)
            r = ratio(seconds["opscope"], seconds["torch"])
            ok = None if r is None else r <= 1.0
            results.append({"case": case, "threads": threads, "seconds": seconds,
                            "opscope_over_torch": r, "ok": ok})
            ms = {k: None if v is None else v * 1e3 for k, v in seconds.items()}
            rows.append([case, str(threads), fmt(ms["opscope"]), fmt(ms["numpy"]), fmt(ms["torch"]),
                         fmt(r, 2), "<=1x torch", verdict(ok)])
    set_threads(OPSCOPE_DEFAULT_THREADS)
    print_table("5. Special functions, scans, searches, histograms (ms per call, lower is better)",
                ["case", "threads", "opscope", "numpy", "torch", "opscope/torch", "target", "ok"], rows,
                ["NumPy is single-threaded: its 2-thread rows run on one thread."])
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", metavar="PATH", help="also write the numbers as JSON to PATH")
    parser.add_argument("--only", choices=["overhead", "big", "softmax", "layouts", "library"],
                        action="append",
                        help="run only these sections (repeatable)")
    args = parser.parse_args()
    facts = machine_facts()
    print_header(facts, "opscope op library benchmark")
    sections = {"overhead": bench_overhead, "big": bench_big, "softmax": bench_softmax,
                "layouts": bench_layouts, "library": bench_library}
    report = {"machine": facts}
    for name, run in sections.items():
        if not args.only or name in args.only:
            report[name] = run()
    rows = [r for name in sections for r in report.get(name, [])]
    misses = [r["case"] + (f" ({r['threads']} threads)" if "threads" in r else "")
              for r in rows if r["ok"] is False]
    print(f"\n{len(misses)} row(s) miss their target" + (": " if misses else ".") + "; ".join(misses))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2)
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
