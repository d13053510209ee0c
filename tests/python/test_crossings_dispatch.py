"""C++ → Python crossings of the dispatcher (core/python/python_dispatch.cpp): the Python key's
kernel calling __torch_dispatch__ and a kernel written in Python (opscope.library) take the GIL
through CallIntoPython, so a trace shows each as a scope under its op, named with the GIL's state,
and a stack taken in the Python code labels its boundary the same way (core/python/crossing.h).
The profiler's op hooks (profiler.cpp) are labelled in stacks too.

    PYTHONPATH=core/python:build/python /usr/bin/python3 -m pytest -q tests/python/test_crossings_dispatch.py
"""
import pytest

import opscope
import opscope.library as library
import opscope.profiler as prof
from opscope.profiler._trace import ScopeRecord
from opscope.utils._python_dispatch import TorchDispatchMode

BIG = 20_000  # elements: over the GIL-release threshold (gil.h, 16384)


class Spy(TorchDispatchMode):
    """Runs every call; keeps the crossings and a stack seen inside the handler."""

    def __init__(self):
        self.crossings = []
        self.stacks = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.crossings.append(opscope._C._python_crossings())
        self.stacks.append(prof.stack())
        return func(*args, **(kwargs or {}))


def crossings_under(item):
    return [c for c in item.children if isinstance(c, ScopeRecord) and c.crossing]


def test_torch_dispatch_crosses_under_its_op_with_the_handler_inside():
    a, b = opscope.ones(2, 3), opscope.ones(3, 4)
    with opscope.trace() as t:
        with Spy() as spy:
            opscope.mm(a, b)
    mm = t.roots[0]
    assert mm.name == "aten::mm" and "mm[Python]" in [s.label for s in mm.steps]
    crossing, = crossings_under(mm)
    assert crossing.name == "C++ → Python: __torch_dispatch__ aten::mm · GIL held"
    handler, = crossing.children
    assert isinstance(handler, ScopeRecord) and handler.name == "Spy.__torch_dispatch__"
    inner, = handler.children
    assert inner.name == "aten::mm" and [s.label for s in inner.steps] == ["mm[CPU]"]
    assert spy.crossings == [["C++ → Python: __torch_dispatch__ aten::mm · GIL held"]]
    assert opscope._C._python_crossings() == []


def test_the_gil_state_follows_the_release_around_big_ops():
    big = opscope.ones(BIG)
    with Spy() as spy:
        big.sin()
    assert spy.crossings == [
        ["C++ → Python: __torch_dispatch__ aten::sin · GIL acquired, was released"]]
    old = opscope._C._set_gil_release_elements(-1)
    try:
        with Spy() as spy:
            big.sin()
    finally:
        opscope._C._set_gil_release_elements(old)
    assert spy.crossings == [["C++ → Python: __torch_dispatch__ aten::sin · GIL held"]]


def test_a_stack_in_the_handler_labels_its_boundary():
    with Spy() as spy:
        opscope.ones(3).cos()
    s = spy.stacks[-1]
    assert s.python_crossings == ["C++ → Python: __torch_dispatch__ aten::cos · GIL held"]
    text = str(s.table(width=120))
    lines = text.splitlines()
    k = next(i for i, line in enumerate(lines) if "── C++ → Python: __torch_dispatch__ aten::cos" in line)
    assert any("Spy.__torch_dispatch__" in line for line in lines[:k])
    # the C++ side right below the label is the Python key's kernel
    below = [line for line in lines[k + 1:] if "python_dispatch.cpp" in line or "python_fallback" in line]
    assert below and text.index("python_fallback") > text.index("── C++ → Python: __torch_dispatch__")
    assert all(len(line) <= 120 for line in lines)


def test_an_exception_in_the_handler_leaves_no_crossing_behind():
    class Boom(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            raise ValueError("no")

    with pytest.raises(ValueError, match="no"):
        with Boom():
            opscope.ones(2).neg()
    assert opscope._C._python_crossings() == []


SEEN = []  # what twice saw: (the crossings, a stack)


def twice(x):
    SEEN.append((opscope._C._python_crossings(), prof.stack()))
    return x * 2


@pytest.fixture(scope="module")
def twice_op():
    lib = library.Library("opscope_crossings", "DEF")
    lib.define("twice(Tensor x) -> Tensor")
    lib.impl("twice", twice, "CPU")
    yield opscope.ops.opscope_crossings.twice, SEEN
    del lib


def test_a_python_kernel_crosses_under_its_op(twice_op):
    op, seen = twice_op
    seen.clear()
    with opscope.trace() as t:
        assert op(opscope.ones(2)).tolist() == [2.0, 2.0]
    rec = t.find("opscope_crossings::twice")
    assert rec.steps[-1].provenance == "python kernel"
    crossing, = crossings_under(rec)
    assert crossing.name == "C++ → Python: python kernel twice · GIL held"
    assert [c.name for c in crossing.children] == ["aten::mul.Tensor"]
    assert seen[0][0] == ["C++ → Python: python kernel twice · GIL held"]
    assert "── C++ → Python: python kernel twice" in str(seen[0][1].table(width=120))


def test_nested_crossings_label_each_boundary(twice_op):
    # A mode's handler runs the op, whose Python kernel runs: two crossings, outermost first, and
    # the stack labels each boundary with its own.
    op, seen = twice_op
    seen.clear()
    with Spy():
        op(opscope.ones(2))
    crossings, s = seen[0]
    assert crossings == ["C++ → Python: __torch_dispatch__ opscope_crossings::twice · GIL held",
                         "C++ → Python: python kernel twice · GIL held"]
    text = str(s.table(width=140))
    inner = text.index("── C++ → Python: python kernel twice")
    outer = text.index("── C++ → Python: __torch_dispatch__ opscope_crossings::twice")
    assert text.index("python_kernel") > inner and inner < text.index("Spy.__torch_dispatch__") < outer
    assert text.index("python_fallback") > outer


def test_a_profiler_hook_stack_labels_its_boundary():
    stacks = []

    def on_enter(call):
        if call.name == "aten::neg":
            stacks.append(prof.stack())

    h = prof.add_hook(on_enter=on_enter)
    try:
        opscope.ones(2).neg()
    finally:
        h.remove()
    s, = stacks
    label = ("C++ → Python: profiler on_enter hook "
             "test_a_profiler_hook_stack_labels_its_boundary.<locals>.on_enter · GIL held")
    assert s.python_crossings == [label]
    text = str(s.table(width=200))
    assert "── " + label in text
    assert text.index("── " + label) < text.index("profiler.cpp")
