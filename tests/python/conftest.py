"""Shared pytest set-up: makes the in-tree package importable, gives a seeded RNG, and compares
opscope results with NumPy references while remembering the largest difference per op family
(printed at the end of the run, as micrograd / llm.c checkers print their maxdiff)."""
import contextlib
import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "core", "python"))

import opscope  # noqa: E402  (after the path above)

# family -> (largest absolute difference seen, largest relative difference seen, comparisons)
MAXDIFF = {}

# (rtol, atol) for comparing a result of this dtype with a float64 NumPy reference: a few units in
# the last place of the result dtype (float16 has 11 significant bits, bfloat16 8).
TOLERANCE = {
    "float64": (1e-12, 1e-12),
    "float32": (3e-6, 1e-6),
    "float16": (2e-3, 1e-4),
    "bfloat16": (1.6e-2, 1e-3),
}


class DispatchRecord:
    """What the trace recorder saw, flattened for tests: .steps, one dict per dispatch step
    ("kind": call / redispatch / callBoxed / redispatchBoxed, "op", "key", "key_set",
    "fallthrough", "tls_included", "tls_excluded", "kernel", "provenance", "registered_key",
    "site", "depth", "arg_key_sets": each argument's keys); .events, the steps and
    autograd's events in order ({"kind": "node_created" | "node_begin" | "node_end", "node",
    "sequence_nr", "id", "depth"}, + "next" for node_created). Depth counts the steps and node
    runs open on the event's thread."""

    def __init__(self):
        self.steps, self.events = [], []

    def add(self, events):
        """Takes in a trace recorder's events (_TraceRecorder.events())."""
        depth = {}  # thread -> how many steps / node runs are open there
        for e in events:
            kind, thread = e["kind"], e["thread"]
            d = depth.get(thread, 0)
            if kind == "enter":
                step = {"kind": e["call"], "op": e["op"], "key": e["key"], "key_set": e["key_set"],
                        "fallthrough": e["fallthrough"], "tls_included": e["tls_included"],
                        "tls_excluded": e["tls_excluded"], "kernel": e["kernel"],
                        "provenance": e["provenance"], "registered_key": e["registered_key"],
                        "site": e["site"], "depth": d,
                        "arg_key_sets": e.get("arg_keys") or [_value_keys(a) for a in e["args"]]}
                depth[thread] = d + 1
                self.steps.append(step)
                self.events.append(step)
            elif kind == "exit":
                depth[thread] = d - 1
            elif kind in ("node_created", "node_begin", "node_end"):
                if kind == "node_end":
                    d -= 1
                    depth[thread] = d
                event = {"kind": kind, "node": e["node"], "sequence_nr": e["sequence_nr"],
                         "id": e["node_id"], "depth": d}
                if kind == "node_created":
                    event["next"] = e["next"]
                if kind == "node_begin":
                    depth[thread] = d + 1
                self.events.append(event)


def _value_keys(v):
    return v["keys"] if v is not None and "keys" in v else opscope._C.DispatchKeySet()


@contextlib.contextmanager
def recorded_dispatch():
    """Records every dispatch step and autograd event made inside the block with the trace
    recorder (opscope._C._TraceRecorder); yields a DispatchRecord, filled when the block ends."""
    rec = DispatchRecord()
    recorder = opscope._C._TraceRecorder(memory=False)
    recorder.start()
    try:
        yield rec
    finally:
        recorder.stop()
        rec.add(recorder.events())


def record_dispatch(fn):
    """Runs fn() while recording (recorded_dispatch); returns the DispatchRecord (.steps: one
    dict per dispatch step; .events: the steps and autograd's events, in order)."""
    with recorded_dispatch() as rec:
        fn()
    return rec


def tolerance(dtype):
    """rtol= and atol= for a result of `dtype` (an opscope dtype or its name), for assert_close:
    `assert_close(r, expected, **tolerance(r.dtype))`; exact for integer and bool dtypes."""
    rtol, atol = TOLERANCE.get(str(dtype).replace("torch.", ""), (0.0, 0.0))
    return {"rtol": rtol, "atol": atol}


def to_numpy(t):
    """Any opscope tensor as a NumPy array (bfloat16, which NumPy lacks, as float32)."""
    if not hasattr(t, "numpy"):
        return np.asarray(t)
    if str(t.dtype) == "torch.bfloat16":
        t = t.float()
    return t.detach().numpy()


@pytest.fixture
def rng():
    return np.random.default_rng(1234)


def assert_close(actual, expected, *, rtol=1e-6, atol=1e-6, what="", family=None):
    """Compares an opscope tensor (or array) with a NumPy reference; reports the largest
    difference (as micrograd / llm.c checkers do) rather than only pass/fail. Integer and bool
    results must match exactly. With `family`, the difference joins that family's summary."""
    a = to_numpy(actual)
    e = np.asarray(expected)
    assert a.shape == e.shape, f"{what}: shape {a.shape} != {e.shape}"
    if a.size == 0:
        return 0.0
    if a.dtype == np.bool_ or e.dtype == np.bool_ or (a.dtype.kind in "iu" and e.dtype.kind in "iu"):
        wrong = a != e
        assert not wrong.any(), (
            f"{what}: {int(wrong.sum())} of {a.size} elements differ; first at "
            f"{np.argwhere(wrong)[0].tolist()}: {a[wrong][0]} != {e[wrong][0]}")
        remember_difference(family, 0.0, 0.0)
        return 0.0
    a64, e64 = a.astype(np.float64), e.astype(np.float64)
    diff = np.abs(a64 - e64)
    diff = np.where(np.isnan(a64) & np.isnan(e64), 0, diff)
    diff = np.where(np.isinf(a64) & (a64 == e64), 0, diff)
    maxdiff = float(np.nanmax(diff)) if not np.isnan(diff).all() else float("nan")
    tol = atol + rtol * np.abs(e64)
    ok = diff <= tol  # NaN against a number fails here
    # Relative difference where it means something: not for expected values within atol of 0.
    big = np.abs(e64) > max(atol, 1e-300)
    rel = float(np.max(diff[big] / np.abs(e64[big]))) if big.any() else 0.0
    remember_difference(family, maxdiff, rel)
    assert ok.all(), (
        f"{what}: maxdiff {maxdiff:.3g} (rtol {rtol}, atol {atol}); first bad element at "
        f"{np.argwhere(~ok)[0].tolist()}: {a64[~ok][0]!r} vs expected {e64[~ok][0]!r}")
    return maxdiff


def remember_difference(family, absdiff, reldiff=0.0):
    """Adds one comparison to the per-family summary printed at the end of the run."""
    if family is None:
        return
    old = MAXDIFF.get(family, (0.0, 0.0, 0))
    MAXDIFF[family] = (max(old[0], absdiff), max(old[1], reldiff), old[2] + 1)


def pytest_terminal_summary(terminalreporter):
    if not MAXDIFF:
        return
    terminalreporter.section("largest difference from the reference, per op family")
    width = max(len(f) for f in MAXDIFF)
    for family in sorted(MAXDIFF):
        absdiff, reldiff, n = MAXDIFF[family]
        terminalreporter.write_line(
            f"{family:<{width}}  abs {absdiff:9.3g}  rel {reldiff:9.3g}  ({n} comparisons)")


def cuda_unavailable_error():
    """(exception type, message pattern) of torch's answer to a CUDA device where there is none to
    use: a build without the CUDA backend raises AssertionError("Torch not compiled with CUDA
    enabled"); a build with it, on a machine without a driver or GPU, the RuntimeError of CUDA's
    lazy initialisation. Tests that use it skip where a GPU is there (the call then works)."""
    if not opscope.cuda._is_compiled():
        return AssertionError, "^Torch not compiled with CUDA enabled$"
    return RuntimeError, "Found no NVIDIA driver on your system|No CUDA GPUs are available"


needs_no_gpu = pytest.mark.skipif(opscope.cuda._is_compiled() and opscope.cuda.is_available(),
                                  reason="a GPU is there: a CUDA device works")


@pytest.fixture(scope="session")
def fake(tmp_path_factory):
    """The fake CUDA device's library (fake_cuda.py), compiled once for the session."""
    import fake_cuda

    return fake_cuda.build(tmp_path_factory.mktemp("fake_cuda"))
