"""In-place ops on views (Note [In-place on a view], core/autograd/CopySlices.h) and what autograd
reports to dispatch observers (node creation, the engine's runs), as torch 1.13 behaves.

    PYTHONPATH=core/python /usr/bin/python3 -m pytest -q tests/python/test_autograd_views.py
"""
import pytest

import opscope
from conftest import record_dispatch
from opscope.autograd import gradcheck

F64 = opscope.float64


def test_in_place_on_a_view_rewrites_the_base_history():
    x = opscope.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    v = y[0]
    assert v._base is y and v.grad_fn.name() == "SelectBackward0"
    v.mul_(3)
    # torch 1.13: y.grad_fn is CopySlices over y's old history; v's is remade from y's
    assert y.grad_fn.name() == "torch::autograd::CopySlices"
    assert [f and f.name() for f, _ in y.grad_fn.next_functions] == ["MulBackward0", None]
    assert v.grad_fn.name() == "AsStridedBackward0"
    assert v.grad_fn.next_functions[0][0] is y.grad_fn
    y.sum().backward()
    assert x.grad.tolist() == [6.0, 2.0]


def test_every_view_of_a_written_base_gets_its_grad_fn_remade():
    x = opscope.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    e = y.expand(3, 2)  # made before the write
    assert e.grad_fn.name() == "ExpandBackward0"
    y.add_(1)
    assert e.grad_fn.name() == "AsStridedBackward0"
    e.sum().backward()  # the expanded dim's gradient is summed back
    assert x.grad.tolist() == [6.0, 6.0]


def test_writing_a_gradient_into_a_view_of_a_plain_tensor():
    b = opscope.tensor([2.0], requires_grad=True)
    z = opscope.zeros(3)
    assert z.requires_grad is False
    z[1:2].mul_(0).add_(b * 3)
    assert z.requires_grad and z.grad_fn.name() == "torch::autograd::CopySlices"
    (z * opscope.tensor([1.0, 5.0, 7.0])).sum().backward()
    assert b.grad.tolist() == [15.0]


@pytest.mark.parametrize("case", ["slice", "transposed row", "strided", "chain of views"])
def test_in_place_on_views_matches_finite_differences(case, rng):
    r = opscope.from_numpy(rng.standard_normal((3, 4))).requires_grad_()
    s = opscope.from_numpy(rng.standard_normal((3, 2))).requires_grad_()

    def f(r, s):
        q = r * 1
        if case == "slice":
            q[:, 1:3].mul_(s)
        elif case == "transposed row":
            q.t()[2].exp_()
        elif case == "strided":
            q[::2, ::2].add_(s[::2] * 2)
        else:
            q.view(12)[1:7].view(2, 3).t().mul_(s[:, 0].unsqueeze(1).expand(3, 2))
        return q * q

    assert gradcheck(f, [r, s])


def test_view_errors_as_torch():
    x = opscope.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="a view of a leaf Variable that requires grad is being used in an "
                       "in-place operation."):
        x[0].mul_(2)
    with pytest.raises(RuntimeError, match="Can't detach views in-place. Use detach\\(\\) instead."):
        (x * 2)[0].detach_()


def test_base_and_is_view():
    x = opscope.ones(2, 2)
    assert x._base is None and not x._is_view()
    v = x[0]
    assert v._is_view() and v._base is x
    assert v[1:]._base is x  # the root, as torch
    assert x.detach()._base is None
    m = opscope.ones(2, 3, requires_grad=True)
    p = m @ m.t()  # matmul's result is not a view (it is an _unsafe_view of a fresh product)
    assert p._base is None


def test_unsafe_view_results_are_not_views_for_autograd():
    b = opscope.ones(2, 2, 3, requires_grad=True)
    m = opscope.ones(3, 2, requires_grad=True)
    y = b @ m  # mm + _unsafe_view
    y.add_(1)
    assert y.grad_fn.name() == "AddBackward0"


# --- what observers see ---------------------------------------------------------------------------

def test_observers_see_nodes_created_and_run():
    a = opscope.ones(2, requires_grad=True)
    out = {}
    rec = record_dispatch(lambda: out.update(loss=(a * 2).sum()))
    created = [(e["node"], e["next"], e["depth"]) for e in rec.events if e.get("kind") == "node_created"]
    assert created == [("AccumulateGrad", [], 1), ("MulBackward0", ["AccumulateGrad", ""], 1),
                       ("SumBackward0", ["MulBackward0"], 1)]
    loss = out["loss"]
    assert [e["sequence_nr"] for e in rec.events if e.get("node") == "SumBackward0"] == \
        [loss.grad_fn._sequence_nr()]

    rec = record_dispatch(loss.backward)
    runs = [(e["kind"], e["node"]) for e in rec.events if "node" in e]
    assert runs == [("node_begin", "SumBackward0"), ("node_end", "SumBackward0"),
                    ("node_begin", "MulBackward0"), ("node_end", "MulBackward0"),
                    ("node_begin", "AccumulateGrad"), ("node_end", "AccumulateGrad")]
    # the formula's ops nest under their node
    i = next(i for i, e in enumerate(rec.events) if e.get("node") == "MulBackward0")
    assert rec.events[i + 1]["op"] == "aten::mul.Tensor" and rec.events[i + 1]["depth"] == 1
    # sequence numbers link a backward node to its forward one; AccumulateGrad's is the largest
    seq = {e["node"]: e["sequence_nr"] for e in rec.events if "node" in e}
    assert seq["SumBackward0"] == loss.grad_fn._sequence_nr()
    assert seq["AccumulateGrad"] == 2 ** 64 - 1


def test_no_node_is_reported_without_grad():
    a = opscope.ones(2, requires_grad=True)
    with opscope.no_grad():
        rec = record_dispatch(lambda: (a * 2).sum())
    assert not [e for e in rec.events if "node" in e]


def test_copy_slices_is_reported_inside_the_in_place_op():
    x = opscope.ones(2, requires_grad=True)
    y = x * 2
    v = y[0]
    rec = record_dispatch(lambda: v.mul_(3))
    created = [e["node"] for e in rec.events if e.get("kind") == "node_created"]
    assert created[-2:] == ["MulBackward0", "CopySlices"]  # after the saved copy of self
