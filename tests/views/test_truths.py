"""The details the views must get right (issue 22, item 8): no UINT64_MAX sequence numbers, a
failed op's message and failing step, the backward engine's own ops under its backward(), loop
groups in one order everywhere, OpenBLAS's first load marked as a one-off, and the tour showing
the product's views."""
import os
import re
import subprocess
import sys

import programs
from opscope.profiler import _views

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
SENTINEL = str(2 ** 64 - 1)


def test_no_sentinel_sequence_number():
    t = programs.training_step()
    for text in (str(t), t.tree(width=120), t._repr_html_()):
        assert SENTINEL not in text
    assert "AccumulateGrad" in str(t.tree(width=120))


def test_a_failed_op_says_its_step_and_message():
    t = programs.failing()
    [root] = t.roots
    assert root.threw and root.failing_step() == "mm[CPU]"
    assert root.error.startswith("RuntimeError: ")
    for text in (str(t), str(t.tree(width=100)), t._repr_html_()):
        assert "threw at mm[CPU]: RuntimeError: " in text.replace("&#x27;", "'"), text[:300]


def test_the_engines_ops_are_under_backward():
    t = programs.training_step()
    ops_at_top = [r.name for r in t.top_level if hasattr(r, "steps")]
    assert "aten::ones" not in ops_at_top and "aten::sum.dim_IntList" not in ops_at_top
    [bwd] = [r for r in t.top_level if _views.kind(r) == "pass"]
    names = [c.name for c in bwd.children]
    assert names[0] == "aten::ones_like"                  # the seed gradient, as torch's engine
    assert "aten::sum.dim_IntList" in names               # reducing a broadcast gradient
    assert "backward(): MseLossBackward0" in str(t)


def test_each_backward_call_is_its_own_pass():
    model, opt = programs.mlp()
    x, y = programs.torch.randn(8, 4), programs.torch.randn(8, 3)
    with programs.torch.trace() as t:
        for _ in range(3):
            opt.zero_grad()
            programs.F.mse_loss(model(x), y).backward()
            opt.step()
    passes = [r for r in t.top_level if _views.kind(r) == "pass"]
    assert len(passes) == 3
    assert all(len(p.node_runs) == 10 for p in passes)


def test_loop_groups_in_one_order_everywhere():
    t = programs.loop(300)
    summary = [line.split(" · total")[0].split(None, 1)[1] for line in str(t).splitlines()[1:]]
    tree = [line.split(None, 1)[1].rsplit("total", 1)[0].strip()
            for line in str(t.tree(width=400)).splitlines() if line.startswith("×")]
    html = re.findall(r"<strong>([^<]*)</strong>", t._repr_html_())
    assert [s.split(" → ")[0] for s in summary] == [s.split(" → ")[0] for s in tree] == html


def test_openblas_first_load_is_a_one_off():
    code = ("import opscope\n"
            "a = opscope.randn(8, 8)\n"
            "with opscope.trace() as t:\n"
            "    opscope.matmul(a, a)\n"
            "    opscope.matmul(a, a)\n"
            "print(t.tree(width=200))\n"
            "print('HTML', 'includes loading OpenBLAS' in t._repr_html_())\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, timeout=120, check=True).stdout
    marked = [line for line in out.splitlines() if "includes loading OpenBLAS" in line]
    assert len(marked) == 2, out          # the first matmul and its mm; not the second call
    assert "HTML True" in out


def test_the_tour_shows_the_views():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path), COLUMNS="80")
    out = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "tour.py")],
                         capture_output=True, text=True, env=env, timeout=120, check=True).stdout
    assert SENTINEL not in out
    assert "opscope trace ·" in out and "• call · ↳ redispatch" in out   # t.tree()
    assert "◀ backward(): SumBackward0 → MmBackward0" in out
    assert "Python → C++" in out                                           # the stack
    assert ">Key" not in out                                               # no dispatch log
    views = out[out.index("The dispatch trace"):]
    assert max(len(line) for line in views.splitlines()) <= 80
