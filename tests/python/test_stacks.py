"""opscope.profiler.stack(): Python and C++ frames merged in the right order, symbolized with
file:line, sorted into layers — at top level, inside a backward hook the engine calls from C++,
inside a Python kernel the dispatcher calls, inside an op's kernel during backward (the GIL
released), at the BLAS call of a product, in a thread and in a generator.

The merge is checked two ways: the Python frames come in the order Python itself reports
(traceback.extract_stack), and every group of Python frames is followed by the C frame of the eval
loop that runs it (_PyEval_EvalFrameDefault), never by anything else."""
import inspect
import os
import subprocess
import sys
import threading
import traceback

import pytest

import opscope
from opscope import _C
from opscope.profiler import Stack, stack

HERE = "tests/python/test_stacks.py"


def python_frames(s):
    return [(f.name, f.line) for f in s if f.is_python]


def check_merged(s):
    """Each run of Python frames stands right before its eval-loop activation."""
    frames = s.frames
    for i, f in enumerate(frames[:-1]):
        if f.is_python and not frames[i + 1].is_python:
            assert frames[i + 1].name == "_PyEval_EvalFrameDefault", (i, s.table(full=True))
            assert frames[i + 1].layer == "cpython"


def layer_runs(s, keep=("python", "binding", "dispatcher", "autograd", "kernel", "blas")):
    """The stack's layers, innermost first, consecutive repeats merged, only the `keep` ones."""
    runs = []
    for f in s:
        if f.layer in keep and (not runs or runs[-1] != f.layer):
            runs.append(f.layer)
    return runs


def is_subsequence(wanted, runs):
    it = iter(runs)
    return all(any(w == r for r in it) for w in wanted)


def this_line():
    return inspect.currentframe().f_back.f_lineno


def test_stack_starts_at_the_caller_with_its_line():
    s = stack(); line = this_line()  # noqa: E702  (the same line)
    top = s[0]
    assert top.is_python and top.layer == "python"
    assert top.name == "test_stack_starts_at_the_caller_with_its_line"
    assert (top.file, top.line) == (HERE, line)
    assert top.module == "" and not top.inlined
    check_merged(s)
    # The Python frames are Python's own view of the stack, in the same order.
    ours = [(name.rsplit(".", 1)[-1], line) for name, line in python_frames(s)]
    theirs = [(f.name, f.lineno) for f in reversed(traceback.extract_stack())]
    assert ours[1:] == theirs[1:], (ours, theirs)
    # Below them: the interpreter and libc's __libc_start_main.
    assert s[-1].layer in ("cpython", "libc")
    assert any(f.layer == "libc" for f in s)


def test_frames_indexing_and_repr():
    s = stack()
    assert len(s) == len(s.frames) > 5
    assert [f.index for f in s] == list(range(len(s)))
    assert s[0] is s.frames[0]
    assert repr(s).startswith("<opscope.profiler.Stack: ")
    assert "Python" in repr(s) and "C++" in repr(s)
    assert repr(s[0]).startswith("<Frame #0 test_frames_indexing_and_repr at tests/python/")
    assert all(f.layer in opscope.profiler._stack.LAYERS for f in s)


def test_stack_inside_a_backward_hook():
    got = []

    def hook(grad):
        got.append(stack())
        return grad

    x = opscope.ones(3, requires_grad=True)
    y = (x * 2).sum()
    x.register_hook(hook)
    y.backward(); line = this_line()  # noqa: E702
    (s,) = got
    check_merged(s)
    assert s[0].name == "test_stack_inside_a_backward_hook.<locals>.hook"
    assert s[0].file == HERE
    # hook (python) <- the binding that calls it <- the engine (autograd) <- _backward's binding
    # <- Tensor.backward (python) <- this test (python).
    runs = layer_runs(s)
    assert is_subsequence(["python", "binding", "autograd", "binding", "python"], runs), runs
    engine = [f for f in s if f.file == "core/autograd/Engine.cpp"]
    assert engine and all(f.line > 0 and f.layer == "autograd" for f in engine)
    assert any(f.file == "core/python/autograd.cpp" and f.layer == "binding" for f in s)
    caller = [f for f in s if f.name == "test_stack_inside_a_backward_hook"]
    assert [(f.file, f.line) for f in caller] == [(HERE, line)]
    table = str(s)
    assert "C++ → Python" in table and "Python → C++" in table


def test_stack_inside_a_python_kernel():
    lib = _C._Library("FRAGMENT", "opscope_stacks")
    d = lib.define("probe(Tensor self) -> Tensor")
    got = []

    def kernel(t):
        got.append(stack())
        return t + 1

    h = lib.impl("probe", "CPU", kernel)
    try:
        r = opscope.ops.opscope_stacks.probe(opscope.ones(2))
    finally:
        h.remove()
        d.remove()
    assert r.tolist() == [2.0, 2.0]
    (s,) = got
    check_merged(s)
    assert s[0].name == "test_stack_inside_a_python_kernel.<locals>.kernel"
    runs = layer_runs(s)
    assert is_subsequence(["python", "binding", "dispatcher", "binding", "python"], runs), runs
    assert any(f.file == "core/dispatch/Dispatcher.cpp" and f.line > 0 for f in s)
    assert any(f.file == "core/python/python_dispatch.cpp" for f in s)  # the Python-kernel glue
    assert any(f.name == "test_stack_inside_a_python_kernel" for f in s)


def test_stack_of_a_kernel_during_backward_without_the_gil():
    # The engine releases the GIL; a capture at mm's CPU kernel then takes it for the Python
    # frame references, and still sees the Python caller of backward().
    a = opscope.randn(64, 64, requires_grad=True)
    b = opscope.randn(64, 64)
    loss = opscope.mm(a, b).sum()
    probe = _C._StackProbe("aten::mm", "CPU")
    try:
        loss.backward(); line = this_line()  # noqa: E702
    finally:
        probe.remove()
    raws = probe.stacks()
    assert len(raws) == 1  # grad of a only: grad @ b.T
    s = Stack(raws[0])
    check_merged(s)
    runs = layer_runs(s)
    assert is_subsequence(["dispatcher", "autograd", "binding", "python"], runs), runs
    assert any(f.file == "core/autograd/Engine.cpp" for f in s)
    caller = [f for f in s if f.name == "test_stack_of_a_kernel_during_backward_without_the_gil"]
    assert [f.line for f in caller] == [line]


def test_stack_at_the_blas_call_of_mm():
    a, b = opscope.randn(64, 64), opscope.randn(64, 64)
    opscope.mm(a, b)  # OpenBLAS loaded
    probe = _C._StackProbe("blas")
    try:
        opscope.mm(a, b); line = this_line()  # noqa: E702
    finally:
        probe.remove()
    stacks = [Stack(r) for r in probe.stacks()]
    # One per OpenMP thread that ran rows; the calling thread's has the Python frames.
    (s,) = [s for s in stacks if any(f.is_python for f in s)]
    check_merged(s)
    assert s[0].name == "cblas_sgemm" and s[0].layer == "blas"
    assert s[1].file == "core/runtime/Blas.cpp"
    runs = layer_runs(s)
    assert is_subsequence(["blas", "kernel", "dispatcher", "binding", "python"], runs), runs
    mm = [f for f in s if f.short_name == "opscope::cpu::mm"]
    assert mm and mm[0].file == "core/ops/cpu/linear.cpp" and mm[0].line > 0
    caller = [f for f in s if f.name == "test_stack_at_the_blas_call_of_mm"]
    assert [f.line for f in caller] == [line]
    assert "host → BLAS" in s.table()


def test_stack_in_a_thread_and_in_a_generator():
    got = []

    def gen():
        got.append(stack())
        yield 1

    def run():
        list(gen())
        got.append(stack())

    t = threading.Thread(target=run)
    t.start()
    t.join()
    in_gen, in_thread = got
    for s in got:
        check_merged(s)
    names = [f.name for f in in_gen if f.is_python]
    assert names[0].endswith(".gen") and names[1].endswith(".run")
    assert in_thread[0].name.endswith("run")
    assert any(f.name == "Thread.run" for f in in_thread)
    assert not any(f.name == "test_stack_in_a_thread_and_in_a_generator" for f in in_thread)


def test_stack_through_a_c_callback():
    # sorted() (C) calls the key function (Python): a second eval-loop activation.
    got = []

    def key(v):
        if not got:
            got.append(stack())
        return v

    sorted([2, 1], key=key)
    (s,) = got
    check_merged(s)
    names = [f.name for f in s if f.is_python]
    assert names[:2] == ["test_stack_through_a_c_callback.<locals>.key",
                         "test_stack_through_a_c_callback"]


def test_captures_use_the_fast_path():
    fast, exact = _C._capture_stats()
    for _ in range(10):
        stack()
    fast2, exact2 = _C._capture_stats()
    assert fast2 - fast == 10 and exact2 == exact


@pytest.mark.parametrize("width", [80, 120, 200])
def test_table_fits_the_width(width):
    a = opscope.randn(64, 64, requires_grad=True)
    got = []
    a.register_hook(lambda g: got.append(stack()))
    opscope.mm(a, a).sum().backward()
    text = got[0].table(width=width)
    lines = text.splitlines()
    assert lines[0].split() == ["#", "frame", "file:line", "layer"]
    assert all(len(line) <= width for line in lines), [ln for ln in lines if len(ln) > width]
    full = got[0].table(width=width, full=True)
    assert len(full.splitlines()) > len(lines)  # folding shortened it
    assert len([ln for ln in full.splitlines() if ln[:1].isdigit()]) == len(got[0])


def test_short_names():
    short = opscope.profiler._stack.short_cxx_name
    assert short("opscope::autograd::run_hook(std::function<opscope::Tensor (opscope::Tensor "
                 "const&)> const&, opscope::Tensor&) [clone .part.0]"
                 ) == "opscope::autograd::run_hook"
    assert short("void opscope::parallel_for<opscope::cpu::gemm::cblas_gemm_rows<float>(long)::"
                 "{lambda(long, long)#1}>(long, long, long, F const&)"
                 ) == "opscope::parallel_for<…>"
    assert short("opscope::python::init_autograd(pybind11::module_&)::{lambda(pybind11::handle)#3}"
                 "::operator()(pybind11::handle) const") == (
                     "opscope::python::init_autograd(…)::{lambda(…)#3}::operator()")
    assert short("opscope::Tensor::operator bool() const") == "opscope::Tensor::operator bool"
    assert short("cblas_sgemm") == "cblas_sgemm"


def test_docstring_examples_run():
    import doctest

    import opscope.profiler._stack as stack_module
    for module in (opscope.profiler, stack_module):
        failures, tried = doctest.testmod(module)
        assert tried > 0 and failures == 0, module.__name__


EXACT_SCRIPT = r"""
import opscope, json
from opscope import _C
from opscope.profiler import stack
got = []
def hook(g):
    got.append(stack())
    return g
def key(v):
    got.append(stack())
    return v
def main():
    x = opscope.ones(2, requires_grad=True)
    x.register_hook(hook)
    x.sum().backward()
    sorted([1], key=key)
main()
print(json.dumps({"stats": _C._capture_stats(),
                  "stacks": [[(f.name, f.layer, f.is_python) for f in s] for s in got]}))
"""


def test_the_exact_path_places_the_same_frames():
    # OPSCOPE_STACKS_EXACT=1: libgcc's unwinder and the anchors' stack addresses, never the
    # eval-loop range. Both ways must give the same stacks.
    import json
    results = []
    for exact in (False, True):
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
        env.pop("OPSCOPE_STACKS_EXACT", None)
        if exact:
            env["OPSCOPE_STACKS_EXACT"] = "1"
        out = subprocess.run([sys.executable, "-c", EXACT_SCRIPT], env=env, check=True,
                             capture_output=True, text=True).stdout
        results.append(json.loads(out))
    fast, exact = results
    assert fast["stats"][1] == 0 and fast["stats"][0] >= 2
    assert exact["stats"][0] == 0 and exact["stats"][1] >= 2
    assert fast["stacks"] == exact["stacks"]
    for frames in exact["stacks"]:
        for f, nxt in zip(frames, frames[1:]):
            if f[2] and not nxt[2]:
                assert nxt[0] == "_PyEval_EvalFrameDefault"
