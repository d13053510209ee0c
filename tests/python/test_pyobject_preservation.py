"""Python object preservation: a tensor's Python object (its class, its attributes) outlives
Python's last reference while C++ holds the tensor, and comes back as the same object
(Note [Python object preservation] in core/python/tensor_type.cpp). The cases are compared with
what torch 1.13 gives back (data/preservation_torch.json, make_torch_reference_preservation.py).
"""

import gc
import json
import os
import subprocess
import sys
import threading

import pytest

import opscope
from preservation_cases import CASES

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "data", "preservation_torch.json")) as f:
    TORCH = json.load(f)


@pytest.mark.parametrize("case", CASES, ids=[c.__name__ for c in CASES])
def test_same_as_torch(case):
    assert case(opscope) == TORCH[case.__name__]


class Tagged(opscope.Tensor):
    __torch_function__ = opscope._C._disabled_torch_function_impl


def live(cls):
    gc.collect()
    return sum(1 for o in gc.get_objects() if type(o) is cls)


def allocated():
    s = opscope._C._allocator_stats("cpu")
    return s["current_bytes"], s["num_allocs"] - s["num_frees"]


def test_released_when_the_graph_goes():
    x = opscope.Tensor._make_subclass(Tagged, opscope.randn(3), True)
    x.tag = "t"
    y = x.exp().sum()
    del x
    assert live(Tagged) == 1  # preserved: only the graph holds it
    y.backward()              # frees the graph: the TensorImpl releases the object
    del y
    assert live(Tagged) == 0


def test_no_leak_over_many_iterations():
    # 10^4 times: a subclass tensor with attributes (one of them a tensor, one the object itself),
    # used in a graph after Python dropped it, backward, dropped. Live objects and the allocator's
    # live blocks come back to where they started.
    def step(i):
        x = opscope.Tensor._make_subclass(Tagged, opscope.randn(4), True)
        x.meta = {"i": i}
        x.other = opscope.ones(4)
        if i % 2:
            x.me = x  # a cycle through __dict__: collected once C++ lets go
        other = x.other
        y = x.sin()  # saves x
        del x
        assert y.grad_fn._saved_self.meta["i"] == i
        (y * other).sum().backward()

    for i in range(50):  # warm caches (allocator, op tables)
        step(i)
    gc.collect()
    base_objects = len(gc.get_objects())
    base_tagged = live(Tagged)
    base_bytes, base_blocks = allocated()
    for i in range(10_000):
        step(i)
    gc.collect()
    assert live(Tagged) == base_tagged == 0
    assert len(gc.get_objects()) - base_objects < 50
    assert allocated() == (base_bytes, base_blocks)


def test_identity_over_many_round_trips():
    # The object goes back and forth between Python and the TensorImpl without losing anything.
    x = opscope.Tensor._make_subclass(Tagged, opscope.randn(3), True)
    x.tag = "rt"
    y = x.sin()
    for _ in range(1000):
        del x
        x = y.grad_fn._saved_self
    assert type(x) is Tagged and x.tag == "rt"
    assert sys.getrefcount(x) == 2  # x and the argument: the TensorImpl holds no extra reference


def test_released_on_another_thread():
    # The graph (and the object it preserved) dies on a thread that does not hold the GIL at first.
    x = opscope.Tensor._make_subclass(Tagged, opscope.randn(3), True)
    x.tag = "thread"
    box = [x.exp().sum()]
    del x
    assert live(Tagged) == 1

    def run():
        box.pop().backward()

    t = threading.Thread(target=run)
    t.start()
    t.join()
    assert live(Tagged) == 0


def test_weak_references_die_when_preserved():
    # A difference from torch 1.13 (which keeps them alive): see the Note.
    import weakref
    x = opscope.Tensor._make_subclass(Tagged, opscope.randn(3), True)
    w = weakref.ref(x)
    y = x.sin()
    del x
    gc.collect()
    assert w() is None
    assert type(y.grad_fn._saved_self) is Tagged


def test_interpreter_exit_with_preserved_objects():
    # Graphs that still preserve objects when the interpreter finalizes: no crash, no hang.
    code = (
        "import opscope\n"
        "class T(opscope.Tensor):\n"
        "    __torch_function__ = opscope._C._disabled_torch_function_impl\n"
        "keep = []\n"
        "for i in range(100):\n"
        "    x = opscope.Tensor._make_subclass(T, opscope.randn(3), True)\n"
        "    x.tag = i\n"
        "    x.me = x\n"
        "    keep.append(x.sin())\n"
        "    del x\n"
        "print('ok')\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                       env=os.environ)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "ok"
