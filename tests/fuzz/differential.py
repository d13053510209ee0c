"""Silent wrong answers: the same cases run against opscope and against PyTorch 1.13 (when
`import torch` works), their results compared.

    /usr/bin/python3 tests/fuzz/fuzz.py --torch --calls 20000 --seed 3

A case's snippet runs as written in an opscope worker and, with `import opscope as torch`
replaced by `import torch`, in a PyTorch worker. Where both return a result, the results must
agree: same kind, dtype, shape, and values (NaN equal to NaN; floating values within a tolerance
of the dtype, relative to the largest magnitude). Where PyTorch raises and opscope returns a
result, opscope accepted something torch refuses (an out-of-range index read, say): listed too,
since a result where an error belongs is the same kind of silent wrong answer. Cases that draw
random numbers or read uninitialized memory (rand*, dropout, empty*, ...) are not compared.

Not part of `make test` (the tests must not need PyTorch); a report for people to read.
"""
import collections
import math
import re

import cases
import harness

# Targets whose results are random or uninitialized, or differ by design, are not compared;
# nor cases whose code draws random numbers or has opscope-only parts.
NOT_COMPARED_TARGET = re.compile(
    r"rand|dropout|normal|uniform|bernoulli|multinomial|seed|empty|data_ptr|_version|hash\(|"
    r"repr\(|str\(|format\(|torch\.trace|dlpack|initial_seed|num_threads|storage_offset|"
    r"_make_subclass|DispatchKeySet|torch\._C|Generator|exponential|printoptions|grad_fn|"
    r"_base|_is_view|scenario:(node_poke|profiler|library)|get_default_dtype|id\(")
NOT_COMPARED_CODE = re.compile(
    r"torch\.(rand|randn|randint|trace|profiler|Generator|default_generator)|"
    r"\.(normal_|uniform_|random_|bernoulli_|exponential_)\(|torch\.empty\((?!\(0|0,|\(\d+, 0)|"
    r"torch\._C|dropout")

# torch refusing how the arguments were passed rather than what they are (torch.ops takes no
# numbers for Tensor arguments and no keyword `self`; names opscope has and torch has not):
# not listed among the cases opscope accepts.
BINDING_NOISE = re.compile(
    r"^(TypeError|AttributeError)|Expected a value of type|got multiple values for argument")

TOLERANCE = {"float16": 2e-3, "bfloat16": 1.6e-2, "float32": 2e-5, "float64": 1e-10}


def to_torch(code):
    return code.replace("import opscope as torch\n", "import torch\n")


def _close(a, b, rtol, scale):
    if isinstance(a, bool) or isinstance(b, bool) or not isinstance(a, float) and not isinstance(b, float):
        return a == b
    if math.isnan(a) and math.isnan(b):
        return True
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= rtol * max(scale, 1e-30) + 1e-300


def differences(x, y, path="r"):
    """Where two summaries (worker.summarize) disagree, as text; [] when they agree."""
    if x[0] != y[0]:
        return [f"{path}: {x[0]} vs {y[0]} in torch"]
    if x[0] == "tensor":
        _, dt1, sh1, v1 = x
        _, dt2, sh2, v2 = y
        out = []
        if dt1 != dt2:
            out.append(f"{path}: dtype {dt1} vs {dt2} in torch")
        if sh1 != sh2:
            return out + [f"{path}: shape {sh1} vs {sh2} in torch"]
        rtol = TOLERANCE.get(dt1, 0.0) if dt1 == dt2 else 1e-3
        finite = [abs(v) for v in list(v1) + list(v2)
                  if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)]
        scale = max(finite, default=0.0)
        bad = [i for i, (a, b) in enumerate(zip(v1, v2)) if not _close(a, b, rtol, scale)]
        if bad:
            i = bad[0]
            out.append(f"{path}: {len(bad)} of {len(v1)} values differ, first at flat index {i}: "
                       f"{v1[i]!r} vs {v2[i]!r} in torch")
        return out
    if x[0] == "seq":
        if len(x[1]) != len(y[1]):
            return [f"{path}: {len(x[1])} items vs {len(y[1])} in torch"]
        out = []
        for i, (a, b) in enumerate(zip(x[1], y[1])):
            out += differences(a, b, f"{path}[{i}]")
        return out
    if x[0] == "number":
        a, b = x[1], y[1]
        if type(a) != type(b) and not (isinstance(a, (int, float)) and isinstance(b, (int, float))
                                       and not isinstance(a, bool) and not isinstance(b, bool)):
            return [f"{path}: {a!r} vs {b!r} in torch"]
        if not _close(a, b, 1e-6, max(abs(a), abs(b)) if isinstance(a, (int, float)) and
                      isinstance(b, (int, float)) and all(map(math.isfinite, (a, b))) else 0.0):
            return [f"{path}: {a!r} vs {b!r} in torch"]
        return []
    return []


def run_differential(seed, calls, start=0, timeout=10.0, progress=None, log=print):
    """Runs cases in both libraries; returns (counts, mismatches, accepted) where mismatches and
    accepted are lists of (case, detail)."""
    ts = cases.targets()
    env_o = {"FUZZ_SUMMARY": "1"}
    env_t = {"FUZZ_SUMMARY": "1", "FUZZ_MODULE": "torch"}
    workers = {"opscope": None, "torch": None}
    counts = collections.Counter()
    mismatches, accepted = [], []

    def run(which, env, case_id, code):
        w = workers[which]
        if w is None or not w.alive():
            if w is not None:
                w.close()
            w = workers[which] = harness.Worker(timeout=timeout, extra_env=env)
        return w.run(case_id, code)

    try:
        for i in range(start, start + calls):
            case = cases.make_case(seed, i, ts)
            if NOT_COMPARED_TARGET.search(case.target) or NOT_COMPARED_CODE.search(case.code):
                counts["not compared"] += 1
                continue
            a = run("opscope", env_o, case.id, case.code)
            b = run("torch", env_t, case.id, to_torch(case.code))
            ka, kb = harness.kind_of(a), harness.kind_of(b)
            if ka == "ok" and kb == "ok":
                d = differences(a.get("summary") or ["none"], b.get("summary") or ["none"])
                if d:
                    counts["mismatch"] += 1
                    mismatches.append((case, "; ".join(d[:3])))
                    log(f"=== mismatch in case {case.id} - {case.target}: {'; '.join(d[:3])}\n"
                        f"{case.code}")
                else:
                    counts["same result"] += 1
            elif ka == "ok" and kb == "exception":
                counts["opscope returns, torch raises"] += 1
                if not BINDING_NOISE.search(f"{b['type']}: {b['msg']}"):
                    accepted.append((case, f"torch: {b['type']}: {b['msg']}"))
            elif ka == "exception" and kb == "ok":
                counts["opscope raises, torch returns"] += 1
            elif ka == "exception" and kb == "exception":
                counts["both raise"] += 1
            else:
                counts[f"opscope {ka}, torch {kb}"] += 1
            if progress and (i - start + 1) % 2000 == 0:
                progress(counts, i - start + 1, calls)
    finally:
        for w in workers.values():
            if w is not None:
                w.kill()
                w.close()
    return counts, mismatches, accepted
