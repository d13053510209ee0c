"""Python object preservation cases, run with ``m = torch`` (recorded by
make_torch_reference_preservation.py) and with ``m = opscope`` (test_pyobject_preservation.py).

Each case builds a tensor that carries Python state (a subclass, attributes), drops every Python
reference to it while C++ still holds its TensorImpl, then fetches it back through C++ and says
what came back: the same object or not, its class, its attribute.
"""

import gc


def _sub(m):
    class Sub(m.Tensor):
        __torch_function__ = m._C._disabled_torch_function_impl
    return Sub


def _seen(obj, old_id, attr):
    return [id(obj) == old_id, type(obj).__name__, getattr(obj, attr, None)]


def saved_self_plain_with_attribute(m):
    x = m.randn(3, requires_grad=True)
    x.tag = "hello"
    xid = id(x)
    y = x.sin()
    del x
    gc.collect()
    return _seen(y.grad_fn._saved_self, xid, "tag")


def saved_self_subclass(m):
    x = m.Tensor._make_subclass(_sub(m), m.randn(3), True)
    x.tag = "sub"
    xid = id(x)
    y = x.sin()
    del x
    gc.collect()
    return _seen(y.grad_fn._saved_self, xid, "tag")


def saved_self_and_other(m):
    x = m.randn(3, requires_grad=True)
    x.tag = 7
    xid = id(x)
    y = x * x
    del x
    gc.collect()
    return _seen(y.grad_fn._saved_self, xid, "tag") + [y.grad_fn._saved_other is y.grad_fn._saved_self]


def subclass_grad_of_parameter(m):
    p = m.nn.Parameter(m.randn(3))
    g = m.zeros(3).as_subclass(_sub(m))
    g.note = 7
    gid = id(g)
    p.grad = g
    del g
    gc.collect()
    return _seen(p.grad, gid, "note")


def retain_grad_on_subclass(m):
    x = m.randn(3, requires_grad=True)
    y = (x * 2).as_subclass(_sub(m))
    y.retain_grad()
    y.tag = "y"
    yid = id(y)
    z = y.sin().sum()
    del y
    gc.collect()
    z.backward(retain_graph=True)
    s = z.grad_fn.next_functions[0][0]._saved_self
    close = s.grad is not None and (s.grad - s.detach().cos()).abs().max().item() < 1e-6
    return _seen(s, yid, "tag") + [close]


def view_base(m):
    x = m.Tensor._make_subclass(_sub(m), m.randn(4))
    x.tag = "base"
    xid = id(x)
    v = x[1:3]
    del x
    gc.collect()
    return _seen(v._base, xid, "tag")


def custom_function_saved_tensors(m):
    seen = []

    class F(m.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a * 2

        @staticmethod
        def backward(ctx, g):
            (a,) = ctx.saved_tensors
            seen.append(a)
            return g * 2

    x = m.Tensor._make_subclass(_sub(m), m.randn(3), True)
    x.tag = "fn"
    xid = id(x)
    y = F.apply(x)
    del x
    gc.collect()
    y.sum().backward()
    return _seen(seen[0], xid, "tag")


def hook_keeps_tensor_state(m):
    # A gradient hook that closes over a tensor with state, and a hook-made gradient.
    x = m.randn(3, requires_grad=True)
    scale = m.full((3,), 2.0).as_subclass(_sub(m))
    scale.tag = "scale"
    x.register_hook(lambda g, s=scale: g * s)
    w = m.Tensor._make_subclass(_sub(m), m.ones(3), True)
    w.tag = "weight"
    wid = id(w)
    y = (x * w).sum()
    del scale, w
    gc.collect()
    saved_w = y.grad_fn.next_functions[0][0]._saved_other
    y.backward()
    return [x.grad.tolist()] + _seen(saved_w, wid, "tag")


def module_buffer_round_trip(m):
    mod = m.nn.Module()
    b = m.zeros(2).as_subclass(_sub(m))
    b.tag = "buf"
    bid = id(b)
    mod.register_buffer("b", b)
    del b
    gc.collect()
    return _seen(mod.b, bid, "tag") + [[type(t).__name__ for t in mod.buffers()]]


def plain_tensor_without_state(m):
    # Nothing to keep: the object is rebuilt (torch keeps it; only the id tells).
    x = m.randn(3, requires_grad=True)
    y = x.sin()
    del x
    gc.collect()
    s = y.grad_fn._saved_self
    return [type(s).__name__, s.requires_grad]


CASES = [saved_self_plain_with_attribute, saved_self_subclass, saved_self_and_other,
         subclass_grad_of_parameter, retain_grad_on_subclass, view_base,
         custom_function_saved_tensors, hook_keeps_tensor_state, module_buffer_round_trip,
         plain_tensor_without_state]
