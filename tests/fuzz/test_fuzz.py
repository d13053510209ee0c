"""No crash, no hang, no SystemError: a short seeded fuzz run and the corpus of every case that
once crashed, hung, aborted or raised a SystemError (tests/fuzz/corpus/).

Each case runs in a worker process (worker.py) so that a segfault or an abort is counted, not
fatal to pytest; see harness.py for the outcomes and fuzz.py (`make fuzz`) for the long run.
FUZZ_TEST_CALLS / FUZZ_TEST_SEED change the short run (default 3000 calls, seed 20240601).
"""
import inspect
import keyword
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import cases  # noqa: E402
import fuzz  # noqa: E402
import harness  # noqa: E402

TEST_CALLS = int(os.environ.get("FUZZ_TEST_CALLS", 3000))
TEST_SEED = int(os.environ.get("FUZZ_TEST_SEED", 20240601))


def _describe(stats, limit=8):
    lines = [stats.summary(), ""]
    for rec in stats.defects[:limit]:
        lines.append(harness.format_defect(rec))
    if len(stats.defects) > limit:
        lines.append(f"... and {len(stats.defects) - limit} more (make fuzz prints them all)")
    return "\n".join(lines)


# --- the harness itself: each fatal outcome is seen -------------------------------------------

@pytest.fixture(scope="module")
def runner():
    r = harness.Runner(timeout=3.0, confirm_fatal=False)
    yield r
    r.close()


@pytest.mark.parametrize("code, kind", [
    ("import opscope as torch\nprint(repr(torch.ones(2) + 1))\n", "ok"),
    ("import opscope as torch\ntorch.ones(2) + 'a'\n", "exception"),
    ("import ctypes\nctypes.string_at(0)\n", "crash"),
    ("import os\nos.abort()\n", "abort"),
    ("import time\ntime.sleep(60)\n", "hang"),
    ("raise SystemError('returned a result with an exception set')\n", "SystemError"),
    ("import builtins\nraise getattr(builtins, 'Keyboard' + 'Interrupt')\n", "BaseException"),
    ("import os\nos._exit(3)\n", "exit"),
])
def test_harness_tells_outcomes_apart(runner, code, kind):
    reply = runner.run_case("self-test", code)
    assert harness.kind_of(reply) == kind, reply
    # and the worker after it (a fresh one where this one died) still runs cases
    assert harness.kind_of(runner.run_case("after", "x = 1\n")) == "ok"


def test_fatal_case_is_confirmed_and_minimized():
    code = ("import ctypes\nimport os\nimport opscope as torch\nx = torch.ones(3)\n"
            "y = x + 1\nctypes.string_at(0)\nprint(repr(y))\n")
    r = harness.Runner(timeout=5.0)
    try:
        r.run_case("7:1", code, target="self-test")
    finally:
        r.close()
    (rec,) = r.stats.defects
    assert rec["kind"] == "crash" and rec["how"] == "alone"
    assert rec["reproducer"] == "import ctypes\nctypes.string_at(0)\n"


def test_state_dependent_crash_is_reproduced_with_the_cases_before_it():
    first = "import builtins\nbuiltins._fuzz_armed = True\n"
    second = "import builtins, ctypes\nif getattr(builtins, '_fuzz_armed', False):\n    ctypes.string_at(0)\n"
    r = harness.Runner(timeout=5.0, minimize_fatal=False)
    try:
        assert harness.kind_of(r.run_case("1:0", first)) == "ok"
        assert harness.kind_of(r.run_case("1:1", second)) == "crash"
    finally:
        r.close()
    (rec,) = r.stats.defects
    assert rec["how"] == "after 1 earlier cases"
    assert harness.kind_of(harness.run_alone(rec["reproducer"], 5.0)) == "crash"


def test_cases_are_reproducible_and_standalone():
    ts = cases.targets()
    a = [cases.make_case(5, i, ts) for i in range(50)]
    b = [cases.make_case(5, i, ts) for i in range(50)]
    assert [c.code for c in a] == [c.code for c in b]
    for c in a:
        compile(c.code, c.id, "exec")
        assert c.code.startswith("import numpy as np\nimport opscope as torch\n")


def test_every_op_overload_method_and_function_is_a_target():
    import opscope
    import opscope.nn.functional as F
    names = {t.name for t in cases.targets()}
    for full in opscope._C._all_op_names():
        ns, rest = full.split("::")
        op, _, overload = rest.partition(".")
        overload = overload or "default"
        expected = (f"torch.ops.{ns}.{op}.{overload}" if not keyword.iskeyword(overload)
                    else f"getattr(torch.ops.{ns}.{op}, {overload!r})")
        assert expected in names, full
    for n in dir(opscope.Tensor):
        if not n.startswith("__"):
            assert f"Tensor.{n}" in names, n
    for module, prefix in ((opscope, "torch"), (F, "torch.nn.functional")):
        for n in getattr(module, "__all__", None) or dir(module):
            obj = getattr(module, n)
            if not n.startswith("_") and callable(obj) and not inspect.ismodule(obj) and \
                    getattr(obj, "__module__", prefix) != "warnings":
                assert f"{prefix}.{n}" in names, n


# --- the short run and the corpus -------------------------------------------------------------

def test_seeded_short_run_has_no_fatal_outcome():
    stats = fuzz.run_fuzz(TEST_SEED, TEST_CALLS, timeout=20.0, max_confirm=8)
    assert stats.calls + stats.outcomes.get("skipped", 0) == TEST_CALLS
    assert not any(stats.fatal_counts().values()), _describe(stats)


@pytest.fixture(scope="module")
def corpus_results():
    results, _ = fuzz.replay_corpus(timeout=20.0)
    return results


@pytest.mark.parametrize("path", harness.corpus_files(),
                         ids=[os.path.basename(p) for p in harness.corpus_files()])
def test_corpus_case_is_no_longer_fatal(corpus_results, path):
    reply = corpus_results[path]
    with open(path) as f:
        code = f.read()
    assert not harness.is_fatal(reply), (
        f"{harness.kind_of(reply)} ({reply.get('type') or ''} {reply.get('msg')}) replaying "
        f"{os.path.relpath(path)}:\n{code}\n--- stderr:\n{reply.get('stderr', '')[-2000:]}")
