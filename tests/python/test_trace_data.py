"""What a trace holds beyond the dispatch steps — allocations, user scopes, call stacks at
kernels — and the trace as data: to_json() in the opscope.trace/1 format (share/), load(); and
op hooks (opscope.profiler.add_hook).

    PYTHONPATH=core/python /usr/bin/python3 -m pytest -q tests/python/test_trace_data.py
"""
import json
import pathlib
import sys
import threading

import jsonschema
import pytest

import opscope
from opscope.profiler import ScopeRecord, add_hook, load, record_function

SCHEMA = json.loads((pathlib.Path(__file__).parents[2] / "share" /
                     "opscope.trace-1.schema.json").read_text())


def is_subsequence(wanted, seq):
    it = iter(seq)
    return all(any(w == s for s in it) for w in wanted)


def layer_runs(stack):
    runs = []
    for f in stack:
        if not runs or runs[-1] != f.layer:
            runs.append(f.layer)
    return runs


# --- memory ------------------------------------------------------------------------------------

def test_an_op_owns_the_allocation_of_its_output():
    a, b = opscope.randn(16, 8), opscope.randn(8, 4)
    with opscope.trace() as t:
        c = opscope.mm(a, b)
        del c
    mm = t.find("aten::mm")
    assert [(m.kind, m.bytes, m.device) for m in mm.memory_events] == [("alloc", 16 * 4 * 4, "cpu")]
    assert mm.self_memory_bytes == mm.memory_bytes == 256
    free = t.memory_events[-1]
    assert (free.kind, free.bytes, free.op) == ("free", 256, None)  # `del c`, outside any op
    assert free.total_bytes == mm.memory_events[0].total_bytes - 256


def test_a_composite_counts_its_childrens_memory():
    a, b = opscope.randn(5, 2, 3), opscope.randn(3, 4)
    with opscope.trace() as t:
        opscope.matmul(a, b)
    top = t.roots[0]
    assert top.self_memory_bytes == 0 and top.memory_bytes == 5 * 2 * 4 * 4


def test_memory_false_records_no_allocations():
    with opscope.trace(memory=False) as t:
        opscope.ones(1000)
    assert t.memory_events == [] and t.ops[0].memory_events == []


# --- user scopes ------------------------------------------------------------------------------

def test_record_function_groups_the_ops_inside():
    a = opscope.randn(3, 3)
    with opscope.trace() as t:
        with record_function("outer"):
            a + a
            with record_function("inner"):
                a * a
        a - a
    outer, sub = t.roots
    assert isinstance(outer, ScopeRecord) and outer.name == "outer"
    assert [c.name for c in outer.children] == ["aten::add.Tensor", "inner"]
    assert [c.name for c in outer.children[1].children] == ["aten::mul.Tensor"]
    assert sub.name == "aten::sub.Tensor" and [s.name for s in t.scopes] == ["outer", "inner"]
    assert outer.start_ns <= outer.children[0].start_ns and outer.children[1].end_ns <= outer.end_ns
    assert outer.summary(timed=False) == 'scope "outer": 2 ops'


def test_record_function_as_a_decorator_and_its_errors():
    @record_function("step")
    def step(x):
        return x * 2

    with opscope.trace() as t:
        step(opscope.ones(2))
        step(opscope.ones(2))
    assert [r.name for r in t.roots if isinstance(r, ScopeRecord)] == ["step", "step"]
    with pytest.raises(TypeError, match="name must be a str"):
        record_function(3)


def test_a_scope_left_by_an_exception_is_closed():
    with opscope.trace() as t:
        with pytest.raises(RuntimeError):
            with record_function("failing"):
                opscope.ones(2, 3) + opscope.ones(4)
    scope = t.scopes[0]
    assert scope.end_ns is not None and scope.children[-1].threw


# --- stacks at kernels ------------------------------------------------------------------------

def test_the_stack_of_mm_is_taken_at_its_blas_call():
    a, b = opscope.randn(64, 64), opscope.randn(64, 64)
    opscope.mm(a, b)  # OpenBLAS loaded
    with opscope.trace(with_stack=True) as t:
        opscope.matmul(a, b)
    mm = t.find("aten::mm")
    assert mm.blas_routine == "cblas_sgemm"
    s = t.stack("aten::mm")
    assert s[0].name == "cblas_sgemm" and s[0].layer == "blas"
    assert is_subsequence(["blas", "kernel", "dispatcher", "binding", "python"], layer_runs(s))
    ours = [f for f in s if f.layer in ("kernel", "dispatcher") and not f.inlined]
    assert ours and all(f.file.startswith("core/") and f.line > 0 for f in ours[:3])
    assert any(f.name == "test_the_stack_of_mm_is_taken_at_its_blas_call" for f in s)
    assert t.stack("aten::matmul") is s  # a composite's: its innermost kernel's


def test_ops_without_blas_get_the_stack_at_their_kernel():
    a = opscope.randn(3, requires_grad=True)
    with opscope.trace(with_stack=True) as t:
        (a * 2).sum().backward()
    mul = t.find("aten::mul.Tensor")
    assert mul.blas_routine is None
    runs = layer_runs(mul.stack)
    assert runs[0] == "dispatcher" and is_subsequence(["autograd", "binding", "python"], runs)


def test_without_with_stack_there_is_no_stack():
    with opscope.trace() as t:
        opscope.ones(2) + 1
    assert t.ops[0].stack is None
    with pytest.raises(ValueError, match="with_stack=True"):
        t.stack("aten::add")


# --- the trace as data --------------------------------------------------------------------------

def traced_program():
    a = opscope.randn(4, 3, requires_grad=True)
    w = opscope.randn(3, 2)
    with opscope.trace(with_stack=True) as t:
        with record_function("forward"):
            loss = (a @ w).relu().sum()
        loss.backward()
    return t


def test_to_json_matches_the_schema_and_load_gives_the_same_trace(tmp_path):
    t = traced_program()
    doc = json.loads(t.to_json())
    jsonschema.validate(doc, SCHEMA)
    assert doc["schema"] == "opscope.trace/1"
    path = tmp_path / "trace.json"
    t.save(path)
    u = load(path)
    assert u.summary_lines() == t.summary_lines()
    assert [op.name for op in u.ops] == [op.name for op in t.ops]
    for x, y in zip(t.ops, u.ops):
        assert [s.label for s in x.steps] == [s.label for s in y.steps]
        assert [str(s.key_set) for s in x.steps] == [str(s.key_set) for s in y.steps]
        assert x.inputs == y.inputs and x.outputs == y.outputs
        assert [n.name for n in x.nodes_created] == [n.name for n in y.nodes_created]
        assert x.self_memory_bytes == y.self_memory_bytes
    mm_t, mm_u = t.find("aten::mm"), u.find("aten::mm")
    assert mm_u.steps[0].key_set.has("AutogradCPU")
    assert [(f.name, f.file, f.line, f.layer) for f in mm_u.stack] == \
        [(f.name, f.file, f.line, f.layer) for f in mm_t.stack]
    assert str(mm_u.stack) == str(mm_t.stack)
    assert load(t.to_json()).summary_lines() == t.summary_lines()  # the text itself


def test_load_refuses_other_formats(tmp_path):
    path = tmp_path / "chrome.json"
    path.write_text(json.dumps({"traceEvents": []}))
    with pytest.raises(ValueError, match="opscope.trace/1"):
        load(path)
    with pytest.raises(FileNotFoundError):
        load(tmp_path / "missing.json")


def test_the_schema_rejects_a_broken_trace():
    doc = json.loads(traced_program().to_json())
    enter = next(e for e in doc["events"] if e["kind"] == "enter")
    del enter["op"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, SCHEMA)


# --- op hooks --------------------------------------------------------------------------------

def test_hooks_see_each_op_call_once_with_inputs_and_outputs():
    a = opscope.randn(2, 3, requires_grad=True)
    b = opscope.randn(3, 4)
    seen = []
    with add_hook(on_enter=lambda c: seen.append(("enter", c.name, c.key)),
                  on_exit=lambda c: seen.append(("exit", c.name, tuple(c.outputs[0].shape)))):
        opscope.matmul(a, b)
    assert seen == [("enter", "aten::matmul", "AutogradCPU"), ("enter", "aten::mm", "AutogradCPU"),
                    ("exit", "aten::mm", (2, 4)), ("exit", "aten::matmul", (2, 4))]
    opscope.matmul(a, b)
    assert len(seen) == 4  # removed


def test_a_hook_gets_the_real_tensors_and_ops_it_runs_are_not_reported():
    names = []

    def on_enter(call):
        names.append(call.name)
        if call.name == "aten::neg":
            names.append(float((call.inputs[0] * 1).sum()))  # runs ops: not reported

    h = add_hook(on_enter=on_enter)
    try:
        opscope.ones(2, 2).neg()
    finally:
        h.remove()
    assert names == ["aten::ones", "aten::neg", 4.0]


def test_a_failing_hook_is_reported_and_the_op_goes_on(monkeypatch):
    reported = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: reported.append(u.exc_type))
    with add_hook(on_enter=lambda c: 1 / 0):
        y = opscope.ones(2) * 3
    assert y.tolist() == [3.0, 3.0] and ZeroDivisionError in reported


def test_hooks_see_ops_on_other_threads_and_a_failing_op():
    seen = []
    with add_hook(on_exit=lambda c: seen.append((c.name, c.threw, c.outputs))):
        th = threading.Thread(target=lambda: opscope.zeros(3))
        th.start()
        th.join()
        with pytest.raises(RuntimeError):
            opscope.ones(2, 3) + opscope.ones(4)
    assert seen[0][0] == "aten::zeros" and seen[0][1] is False
    assert seen[-1] == ("aten::add.Tensor", True, None)


def test_add_hook_checks_its_arguments():
    with pytest.raises(TypeError, match="give on_enter, on_exit or both"):
        add_hook()
    with pytest.raises(TypeError, match="on_exit must be callable"):
        add_hook(on_exit=3)


def test_a_boxed_call_through_a_temporary_handle_is_recorded():
    # nll_loss's graph calls ops boxed through handles that live only for the call: the trace
    # keeps the op itself (this crashed when the recorder kept the handle's address).
    w = opscope.randn(4, 3, requires_grad=True)
    y = opscope.tensor([0, 2, 1, 0])
    with opscope.trace() as t:
        opscope.nn.functional.nll_loss(w, y).backward()
    assert t.roots[0].name == "aten::nll_loss_nd"
    run = next(r for r in t.roots if getattr(r, "sequence_nr", None) is not None)
    assert run.name == "NllLossBackward0" and run.children
    kept = []
    with add_hook(on_enter=kept.append):
        opscope.nn.functional.nll_loss(w, y).backward()
    assert all(isinstance(c.name, str) for c in kept)  # read after the calls


def test_saved_result_of_a_node_that_keeps_no_result_is_an_attribute_error():
    a = opscope.randn(3, requires_grad=True)
    node = (a * 2).grad_fn
    with pytest.raises(AttributeError):
        node._saved_result
    assert opscope.allclose(a.exp().grad_fn._saved_result, a.exp())
