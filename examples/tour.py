"""A short tour of what opscope shows: `make run` runs this until the REPL exists.

1. the dispatch table of aten::mm, computed from its registrations (like PyTorch's
   torch._C._dispatch_dump_table), each entry saying where its kernel came from;
2. the dispatch trace of opscope.matmul(a, b) for a 2-D pair — matmul is a
   CompositeImplicitAutograd op that decomposes into mm, and every step says which key was
   chosen from which key set, and why (the tensors' keys, the thread-local sets);
3. the same with requires_grad=True: mm's Autograd kernel records MmBackward0;
4. backward through it.
"""

import sys

import opscope


def section(title):
    print()
    print(title)
    print("=" * len(title))


def traced(fn):
    """Runs fn with the OPSCOPE_LOG=dispatch printer writing to stdout."""
    sys.stdout.flush()
    opscope._C._set_dispatch_log(True, fd=1)
    try:
        return fn()
    finally:
        opscope._C._set_dispatch_log(False)
        sys.stdout.flush()


section('opscope._C._dispatch_dump_table("aten::mm")')
print(opscope._C._dispatch_dump_table("aten::mm"))

section('opscope._C._dispatch_dump("aten::matmul")')
print(opscope._C._dispatch_dump("aten::matmul"))

opscope.manual_seed(0)
a = opscope.randn(2, 3)
b = opscope.randn(3, 4)

section("Dispatch trace of opscope.matmul(a, b), a: f32[2, 3], b: f32[3, 4]")
print("Legend: >Key = the key chosen, Key* = a fallthrough for this op (skipped).\n")
c = traced(lambda: opscope.matmul(a, b))
print(c)

section("The same with a.requires_grad = True")
a.requires_grad_(True)
print(f"a keys: {opscope._C._dispatch_keys(a)}   requires_grad={a.requires_grad}")
c = traced(lambda: opscope.matmul(a, b))
print(f"\nmm's Autograd kernel recorded {type(c.grad_fn).__name__} (next: "
      f"{[None if f is None else f.name() for f, _ in c.grad_fn.next_functions]}).")

section("Backward: c.sum().backward()")
c.sum().backward()
print(f"a.grad (= ones(2, 4) @ b.T):\n{a.grad}")
