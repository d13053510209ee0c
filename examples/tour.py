"""A short tour of what opscope shows (`make run` runs it in the opscope REPL), with the views
the product is made of — the same ones a notebook shows:

1. the dispatch table of aten::mm, computed from its registrations (like PyTorch's
   torch._C._dispatch_dump_table), each entry saying where its kernel came from;
2. the dispatch trace of opscope.matmul(a, b) for a 2-D pair, as t.tree() draws it — matmul
   is a CompositeImplicitAutograd op that decomposes into mm, and every step says which key
   was chosen from which key set, and why;
3. the same with requires_grad=True: mm's Autograd kernel records MmBackward0;
4. backward through it: the engine's node runs, under the one backward() call;
5. the call stack at mm's BLAS call, Python and C++ frames merged.

Every view fits the terminal's width (COLUMNS= to choose another).
"""

import opscope


def section(title):
    print()
    print(title)
    print("=" * len(title))


section('opscope._C._dispatch_dump_table("aten::mm")')
print(opscope._C._dispatch_dump_table("aten::mm"))

opscope.manual_seed(0)
a = opscope.randn(2, 3)
b = opscope.randn(3, 4)
opscope.mm(a, b)  # the first product loads OpenBLAS (a one-off): keep it out of the traces

section("The dispatch trace of opscope.matmul(a, b), a: f32[2, 3], b: f32[3, 4]")
with opscope.trace() as t:
    c = opscope.matmul(a, b)
print(t.tree())

section("The same with a.requires_grad = True")
a.requires_grad_(True)
with opscope.trace() as t:
    c = opscope.matmul(a, b)
print(t)  # one line per top-level call: signature → dispatch path · nodes · time
print()
print(t.tree())

section("Backward: c.sum().backward()")
with opscope.trace() as t:
    c.sum().backward()
print(t.tree())
print(f"\na.grad (= ones(2, 4) @ b.T):\n{a.grad}")

section("The call stack at mm's BLAS call")
with opscope.trace(with_stack=True) as t:
    opscope.matmul(a, b)
print(t.stack("aten::mm"))
