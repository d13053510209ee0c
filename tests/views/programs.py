"""The programs whose views tests/views checks and tests/views/snapshot draws: what a lecture
notebook runs (the matmul of the eager-mode lecture, an MLP training step, a loop, an op that
fails, record_function scopes), and each view a user can ask for.

``views()`` returns [(name, title, object)]: objects that display themselves (a Trace, a Stack,
a profile, a Graph, a TextView).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "core", "python"))

import opscope as torch  # noqa: E402
import opscope.nn as nn  # noqa: E402
import opscope.nn.functional as F  # noqa: E402
from opscope import profiler  # noqa: E402


def matmul():
    """x = torch.matmul(y, z), 2D × 2D, with the call stack at the BLAS call."""
    y, z = torch.randn(64, 32, requires_grad=True), torch.randn(32, 16)
    torch.matmul(y, z)
    with torch.trace(with_stack=True) as t:
        torch.matmul(y, z).sum().backward()
    return t


def mlp():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3))
    return model, torch.optim.SGD(model.parameters(), lr=0.1)


def training_step():
    """One traced step of a small MLP: zero_grad, forward, loss, backward, optimizer step."""
    model, opt = mlp()
    x, y = torch.randn(32, 4), torch.randn(32, 3)

    def step():
        opt.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()

    step()  # the first step loads OpenBLAS: trace the second, as a lecture's second cell would
    with torch.trace() as t:
        step()
    return t


def loop(n=1000):
    x = torch.randn(4)
    with torch.trace() as t:
        for _ in range(n):
            x = x * 0.5 + 1
    return t


def failing():
    """An op that raises inside the block: the trace says where and why."""
    a, b = torch.randn(2, 3), torch.randn(4, 5)
    try:
        with torch.trace() as t:
            torch.matmul(a, b)
    except RuntimeError:
        pass
    return t


def scopes():
    a = torch.randn(8, 8, requires_grad=True)
    with torch.trace() as t:
        with profiler.record_function("attention"):
            s = (a @ a.t()).softmax(-1)
            with profiler.record_function("weighted sum"):
                (s @ a).sum().backward()
    return t


def profile():
    model, opt = mlp()
    x, y = torch.randn(32, 4), torch.randn(32, 3)
    with profiler.profile(record_shapes=True, profile_memory=True) as p:
        opt.zero_grad()
        F.mse_loss(model(x), y).backward()
        opt.step()
    return p


def graph():
    model, _ = mlp()
    return profiler.graph(F.mse_loss(model(torch.randn(5, 4)), torch.randn(5, 3)))


def views():
    """[(name, title, view)] for every view a user can type."""
    mm = matmul()
    step = training_step()
    return [
        ("matmul", "torch.matmul(y, z) and backward, with stacks", mm),
        ("stack", "the call stack at mm's BLAS call", mm.stack("aten::mm")),
        ("step", "one MLP training step", step),
        ("tree", "t.tree() of the training step", step.tree()),
        ("loop", "a 1,000-iteration loop", loop()),
        ("failing", "an op that raised", failing()),
        ("scopes", "record_function scopes", scopes()),
        ("profile", "profile() of a training step", profile()),
        ("graph", "the MLP loss's autograd graph", graph()),
    ]


def html_of(view):
    bundle = view._repr_mimebundle_() if hasattr(view, "_repr_mimebundle_") else {
        "text/html": view._repr_html_()}
    return bundle["text/html"]
