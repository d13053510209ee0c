"""C++ → Python crossings in the views: a hook or a custom Function's backward that the autograd
engine calls shows in the trace as a scope under the node that ran it, named with the GIL's
state, and a stack taken inside it labels its C++ → Python boundary the same way
(core/python/crossing.h)."""

import threading

import opscope
import opscope.profiler as prof
from opscope.profiler._trace import ScopeRecord, NodeRun


class Double(opscope.autograd.Function):
    stacks = []

    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        Double.stacks.append(prof.stack())
        return g * 2


def double_it(g):
    return g * 2


def traced_backward():
    x = opscope.randn(3, requires_grad=True)
    x.register_hook(double_it)
    with opscope.trace() as t:
        Double.apply(x).sum().backward()
    return t, x


def crossings_of(t):
    out = []

    def walk(items, parent):
        for item in items:
            if isinstance(item, ScopeRecord) and item.crossing:
                out.append((item, parent))
            walk(getattr(item, "children", []), item)

    walk(t.roots, None)
    return out


def test_trace_shows_each_crossing_under_its_node_with_the_gil_state():
    t, x = traced_backward()
    assert x.grad.tolist() == [4.0, 4.0, 4.0]
    found = {item.name: parent for item, parent in crossings_of(t)}
    fn = "C++ → Python: custom Function backward DoubleBackward · GIL acquired, was released"
    hook = "C++ → Python: tensor hook double_it · GIL acquired, was released"
    assert set(found) == {fn, hook}
    assert isinstance(found[fn], NodeRun) and found[fn].name == "DoubleBackward"
    assert isinstance(found[hook], NodeRun)
    # the ops the Python code ran are inside the crossing
    for item, _ in crossings_of(t):
        assert [c.name for c in item.children] == ["aten::mul.Tensor"]
        assert item.summary(timed=False) == item.name + ": 1 op"
    text = t.tree(width=120, color=False)
    assert "⇢ " + fn in text and "⇢ " + hook in text


def test_stack_marks_the_boundary_with_the_crossing():
    Double.stacks.clear()
    traced_backward()
    s = Double.stacks[0]
    assert s.python_crossings == [
        "C++ → Python: custom Function backward DoubleBackward · GIL acquired, was released"]
    text = s.table(width=100)
    assert "── C++ → Python: custom Function backward DoubleBackward" in text
    assert "GIL acquired, was released" in text
    # the label sits right above the C++ frames of the call site
    lines = text.splitlines()
    k = next(i for i, line in enumerate(lines) if "custom Function backward" in line)
    below = next(line for line in lines[k + 1:] if "PyFunctionNode::apply" in line or
                 line.lstrip()[:1].isdigit() and "nodes.cpp" in line)
    assert below
    # the outer Python → C++ boundaries keep their plain marks
    assert "── Python → C++ ─" in text
    assert all(len(line) <= 100 for line in lines)


def test_no_crossing_outside_python_calls_and_nested_threads():
    assert opscope._C._python_crossings() == []
    seen = []
    x = opscope.randn(2, requires_grad=True)

    def note(g):
        seen.append(opscope._C._python_crossings())

    x.register_hook(note)

    def run():
        (x * 3).sum().backward()

    th = threading.Thread(target=run, name="worker-7")
    th.start()
    th.join()
    assert seen == [["C++ → Python: tensor hook test_no_crossing_outside_python_calls_and_nested_"
                     "threads.<locals>.note · GIL acquired, was released · thread worker-7"]]
    assert opscope._C._python_crossings() == []


def test_crossing_off_the_main_thread_names_the_thread():
    x = opscope.randn(2, requires_grad=True)
    x.register_hook(double_it)
    box = {}

    def run():
        with opscope.trace() as t:
            (x * 3).sum().backward()
        box["t"] = t

    th = threading.Thread(target=run, name="worker-7")
    th.start()
    th.join()
    names = [item.name for item, _ in crossings_of(box["t"])]
    assert names == ["C++ → Python: tensor hook double_it · GIL acquired, was released"
                     " · thread worker-7"]


def keep(v):
    return v


def test_saved_tensor_hooks_cross():
    with opscope.trace() as t:
        x = opscope.randn(3, requires_grad=True)
        with opscope.autograd.graph.saved_tensors_hooks(keep, keep):
            y = x.sin()
        y.sum().backward()
    names = sorted(item.name.split(" · ")[0] for item, _ in crossings_of(t))
    assert names == ["C++ → Python: saved tensor pack_hook keep",
                     "C++ → Python: saved tensor unpack_hook keep"]
    # pack runs inside the forward op, from Python: the GIL was held
    pack = next(item for item, _ in crossings_of(t) if "pack_hook" in item.name
                and "unpack" not in item.name)
    assert pack.name.endswith("· GIL held")


def test_profiler_op_hooks_cross():
    def on_enter(call):
        if call.name == "aten::sin":
            opscope.ones(1)  # an op the hook runs sits inside its crossing

    h = prof.add_hook(on_enter=on_enter)
    try:
        with opscope.trace() as t:
            opscope.randn(3).sin()
    finally:
        h.remove()
    found = crossings_of(t)
    assert [item.name for item, _ in found] == [
        "C++ → Python: profiler on_enter hook test_profiler_op_hooks_cross.<locals>.on_enter"
        " · GIL held"] * 2
    assert [[c.name for c in item.children] for item, _ in found] == [[], ["aten::ones"]]
