"""opscope.trace(): the recorded ops, their dispatch steps and autograd nodes, as data
(profiler/Recorder.h, opscope/profiler/_trace.py). What a trace teaches must be true of
PyTorch: matmul's decompositions are the ops torch 1.13's profiler lists for the same shapes
(the lecture's shape table, ../shared/seeds/003_32ccd6cb4f30e888.txt), minus its kernels'
internal resolve_conj / empty calls.

    PYTHONPATH=core/python /usr/bin/python3 -m pytest -q tests/python/test_trace.py
"""
import pytest

import opscope

# shapes -> the ops torch.matmul runs (torch 1.13's profiler, recorded by hand)
MATMUL_CASES = {
    "1-D · 1-D": (((3,), (3,)), ["matmul", "dot"]),
    "2-D · 1-D": (((2, 3), (3,)), ["matmul", "mv"]),
    "2-D · 2-D": (((2, 3), (3, 4)), ["matmul", "mm"]),
    "batched": (((5, 2, 3), (5, 3, 4)),
                ["matmul", "expand", "as_strided", "reshape", "_reshape_alias", "expand",
                 "as_strided", "reshape", "_reshape_alias", "bmm", "_unsafe_view"]),
    "broadcast": (((5, 2, 3), (3, 4)), ["matmul", "reshape", "_reshape_alias", "mm", "_unsafe_view"]),
}


@pytest.mark.parametrize("case", sorted(MATMUL_CASES))
def test_matmul_runs_the_ops_torch_runs(case):
    (s1, s2), expected = MATMUL_CASES[case]
    a, b = opscope.randn(*s1), opscope.randn(*s2)
    with opscope.trace() as t:
        opscope.matmul(a, b)
    assert [op.name.split("::")[1].split(".")[0] for op in t.ops] == expected
    top, = t.roots
    assert top.name == "aten::matmul" and top.steps[0].provenance == "math kernel"
    assert [c.name for c in top.children][-1].startswith("aten::" + expected[-1])


def test_mm_with_requires_grad_shows_the_autograd_step_and_node():
    a = opscope.randn(2, 3, requires_grad=True)
    b = opscope.randn(3, 4)
    with opscope.trace() as t:
        opscope.matmul(a, b)
    mm = t.find("aten::mm")
    assert [(s.label, s.call, s.provenance) for s in mm.steps] == [
        ("mm[AutogradCPU]", "call", "autograd kernel"), ("mm[CPU]", "redispatchBoxed", "kernel")]
    assert mm.steps[0].key_set.has("AutogradCPU") and mm.steps[1].tls_excluded.has("AutogradCPU")
    assert mm.steps[0].site.startswith("core/autograd/") and mm.steps[1].site.startswith("core/ops/")
    assert [n.name for n in mm.nodes_created] == ["AccumulateGrad", "MmBackward0"]
    assert mm.nodes_created[1].next == ["AccumulateGrad", None]
    assert mm.inputs[0] == {"shape": (2, 3), "strides": (3, 1), "dtype": "f32", "device": "cpu",
                            "requires_grad": True, "keys": mm.inputs[0]["keys"]}
    assert mm.outputs[0]["shape"] == (2, 4) and mm.outputs[0]["requires_grad"]
    line = t.roots[0].summary()
    assert line.startswith("matmul(f32[2,3], f32[3,4]) → mm[AutogradCPU] → mm[CPU] · MmBackward0 · ")
    assert 0 < mm.start_ns <= mm.end_ns <= t.roots[0].end_ns


def test_a_path_leaves_out_the_allocations_below_the_op():
    """Note [A path without its allocations]: rrelu's path is its rrelu_with_noise steps, not the
    empty_like / empty_strided steps that come first; an allocation's own path is whole."""
    x = opscope.randn(4, 5, requires_grad=True)
    with opscope.trace() as t:
        opscope.nn.functional.rrelu(x, training=True)
        opscope.empty_like(x)
    rrelu, empty_like = t.roots
    assert rrelu.path() == ["rrelu_with_noise[AutogradCPU]", "rrelu_with_noise[CPU]"]
    assert any(op.name == "aten::empty_like" for op in rrelu.walk())  # still in the tree
    assert empty_like.path() == ["empty_like[CPU]", "empty_strided[BackendSelect]",
                                 "empty_strided[CPU]"]


def test_a_path_leaves_out_the_views_below_an_op_that_computes():
    """einsum's line is its bmm (its unsqueeze / permute / reshape / view steps and their nodes
    are in the tree only); an op made of views alone keeps its whole path; a reshape that copies
    shows the copy."""
    q = opscope.randn(2, 3, 4, requires_grad=True)
    k, w = opscope.randn(2, 5, 4), opscope.randn(6, 4)
    with opscope.trace() as t:
        opscope.einsum("bij,bkj->bik", q, k)
        opscope.nn.functional.linear(q, w)
        q.transpose(0, 1)
        q.transpose(1, 2).reshape(-1)
    einsum, linear, transpose, transpose2, reshape = t.roots
    assert einsum.path() == ["bmm[AutogradCPU]", "bmm[CPU]"]
    assert einsum.summary_nodes() == ["BmmBackward0"]
    assert "PermuteBackward0" in [n.name for op in einsum.walk() for n in getattr(op, "nodes_created", [])]
    assert "t[AutogradCPU]" not in linear.path() and linear.path()[-1] in ("mm[CPU]", "bmm[CPU]")
    assert transpose.path() == ["transpose[AutogradCPU]", "transpose[CPU]", "as_strided[CPU]"]
    assert transpose.summary_nodes() == ["TransposeBackward0"]
    assert "clone[CPU]" in reshape.path() and "copy_[CPU]" in reshape.path()


def test_under_no_grad_no_node_is_created():
    a = opscope.randn(2, 3, requires_grad=True)
    with opscope.no_grad(), opscope.trace() as t:
        opscope.matmul(a, opscope.randn(3, 4))
    mm = t.find("mm")
    assert mm.nodes_created == [] and t.nodes_created == []
    # the Autograd kernel still runs and falls through, as torch's VariableType does
    assert mm.steps[0].key == "AutogradCPU"
    with opscope.inference_mode(), opscope.trace() as t:
        opscope.matmul(a, opscope.randn(3, 4))
    assert [s.label for s in t.find("mm").steps] == ["mm[CPU]"]


def test_backward_nodes_run_with_their_ops_nested():
    x = opscope.ones(3, requires_grad=True)
    with opscope.trace() as t:
        loss = (x * 2).sum()
        loss.backward()
    runs = [r for r in t.roots if isinstance(r, opscope.profiler.NodeRun)]
    assert [r.name for r in runs] == ["SumBackward0", "MulBackward0", "AccumulateGrad"]
    mul_node = next(n for n in t.nodes_created if n.name == "MulBackward0")
    assert runs[1].sequence_nr == mul_node.sequence_nr  # links backward to forward
    assert [c.name for c in runs[1].children] == ["aten::mul.Tensor"]
    assert runs[1].summary(timed=False) == "backward MulBackward0 #%d: mul[AutogradCPU] → mul[CPU]" \
        % mul_node.sequence_nr


def test_a_python_kernel_shows_its_provenance_and_site():
    lib = opscope._C._Library("FRAGMENT", "opscope_trace")
    d = lib.define("twice(Tensor self) -> Tensor")
    h = lib.impl("twice", "CPU", lambda x: x + x)
    try:
        with opscope.trace() as t:
            opscope.ops.opscope_trace.twice.default(opscope.ones(2))
        op = t.find("opscope_trace::twice")
        assert op.steps[0].kernel.endswith("<lambda>") and op.steps[0].provenance == "python kernel"
        assert "test_trace.py:" in op.steps[0].site
        crossing, = op.children  # C++ → Python: python kernel <lambda> (crossing.h)
        assert crossing.crossing and crossing.name.endswith("<lambda> · GIL held")
        assert [c.name for c in crossing.children] == ["aten::add.Tensor"]  # the lambda's op, nested
    finally:
        h.remove()
        d.remove()


def test_a_loop_is_summarized_by_distinct_paths():
    x = opscope.ones(2)
    with opscope.trace() as t:
        for _ in range(500):
            x = x + 1
        x = x * 2
    lines = str(t).splitlines()
    assert lines[0] == "501 top-level calls, 2 distinct paths:"
    assert lines[1].lstrip().startswith("×500") and "add[CPU]" in lines[1]
    assert len(lines) == 3


def test_errors_are_recorded_and_the_trace_stays_usable():
    with opscope.trace() as t:
        with pytest.raises(RuntimeError):
            opscope.mm(opscope.ones(2, 3), opscope.ones(2, 3))
        opscope.ones(1)
    mm = t.find("mm")
    assert mm.threw and mm.outputs == [] and "threw" in mm.summary()
    assert t.roots[-1].name == "aten::ones" and not t.roots[-1].threw
    with pytest.raises(KeyError, match="no call of aten::bmm was recorded"):
        t.find("aten::bmm")


def test_a_trace_keeps_no_tensor_alive():
    # A recorded training loop must not hold its steps' tensors until the trace is read: tensor
    # lists (the optimizer's _fused_sgd_ / _foreach_* take gradients so) are kept as their text.
    def current():
        return opscope._C._allocator_stats()["current_bytes"]

    before = current()
    with opscope.trace() as t:
        for _ in range(5):
            parts = [opscope.ones(1000, 100), opscope.ones(1000, 100)]
            joined = opscope.cat(parts)
            opscope._foreach_add_(parts, 1.0)
            del parts, joined
        during = current()
    assert during - before < 400_000 * 2, (before, during)  # no more than one step's tensors live
    cat = next(op for op in t.ops if op.name == "aten::cat")
    assert "f32[1000,100]" in str(cat) and "f32[1000,100], f32[1000,100]" in str(t)


def _thread_faults():
    import resource
    return resource.getrusage(resource.RUSAGE_THREAD).ru_minflt


def test_a_long_recording_writes_to_pages_touched_ahead_of_it():
    # Note [Pages touched ahead of the recorder] (profiler/Chunked.cpp): a traced op writes ~1.3
    # KB of records, a fresh page every three ops; a thread of the recorder's keeps chunks mapped
    # and touched ahead, so the recording thread itself takes (almost) no page fault. Between
    # batches of ops the refiller gets time to keep up even on a loaded 2-core machine.
    import time
    a = opscope.ones(1)
    ops = 0
    with opscope.trace():
        for _ in range(20):  # warm-up: the reserve learns the chunk sizes of this recording
            for _ in range(50):
                a + a
            time.sleep(0.002)
        before = _thread_faults()
        for _ in range(40):
            for _ in range(50):
                a + a
            ops += 50
            time.sleep(0.002)
        faults = _thread_faults() - before
    # Without the refiller: ~0.34 faults per op (680 over these 2,000 ops).
    assert faults / ops < 0.05, f"{faults} page faults in the recording thread over {ops} ops"


def test_a_forked_child_records_a_trace():
    # The pool of chunks is made afresh in a forked child (the parent's refiller thread is not
    # there, and may have held its mutex when the parent forked).
    import multiprocessing
    a = opscope.ones(3)
    with opscope.trace():  # the parent's pool and refiller are in use
        for _ in range(300):
            a + a
    ctx = multiprocessing.get_context("fork")

    def child():
        with opscope.trace() as t:
            for _ in range(3000):
                a + a
        raise SystemExit(0 if len(t.ops) == 3000 else 1)
    p = ctx.Process(target=child)
    p.start()
    p.join(60)
    assert p.exitcode == 0


def test_the_first_trace_costs_little_address_space():
    # The pool's refiller is a small thread with no malloc arena of its own (profiler/Chunked.cpp,
    # start_refiller): with std::thread's 8 MB stack and glibc's 64 MB arena the first trace took
    # 76 MB of address space, enough to push the fuzz workers (RLIMIT_AS) out of memory.
    import subprocess
    import sys
    code = """
import opscope, time
def vm():
    return next(int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmSize'))
a = opscope.ones(3)
before = vm()
with opscope.trace():
    a + a
time.sleep(0.2)
print((vm() - before) // 1024)
"""
    grown = int(subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                               text=True).stdout)
    assert grown < 24, f"the first trace took {grown} MB of address space"
