"""Stateful cases: what a session does around ops rather than in one call — Python code that
C++ calls back (tensor hooks, custom autograd Functions, saved-tensor hooks, op hooks), graphs
used twice, autograd nodes poked at, tensors whose .data was swapped under their views.

Each scenario is a template whose holes are filled from the case's random stream, mostly with
callbacks that misbehave: raise, return the wrong type / shape / dtype / count, mutate what
autograd saved, start a backward from inside a backward. Like every case, a scenario prints as a
standalone snippet; cases.py lists them as targets "scenario:<name>".
"""
import re


HOOK_BODIES = [
    "return None", "return g * 2", "raise ValueError('hook failed')", "return 'x'",
    "return torch.ones(100)", "return torch.ones(())", "return g.int()",
    "raise KeyboardInterrupt", "return g.expand(2, *g.shape)", "return g[:1]",
    "return g.double()", "t.grad = None\n    return g", "t.data.add_(1)\n    return g",
    "g.add_(1)\n    return g", "return torch.ones_like(g).requires_grad_()",
    "(t * 2).sum().backward()\n    return g", "import gc\n    gc.collect()\n    return g",
    "return (g, g)", "return np.ones(3)", "return g.detach().t() if g.dim() == 2 else g",
    "h.remove()\n    return g", "return t",
]
FORWARD_BODIES = [
    "ctx.save_for_backward(x)\n        return x * 2",
    "return x",
    "return x.view(-1)",
    "ctx.mark_dirty(x)\n        return x.add_(1)",
    "return x * 2, x * 3",
    "return 3",
    "return None",
    "ctx.save_for_backward(x * 2)\n        return x + 1",
    "out = x * 2\n        ctx.mark_non_differentiable(out)\n        return out",
    "ctx.save_for_backward(None, x)\n        return x.exp()",
    "ctx.set_materialize_grads(False)\n        return x.clone()",
    "ctx.mark_dirty(x)\n        return x * 2",
    "raise ValueError('forward failed')",
    "return x.detach()",
    "ctx.save_for_backward(x)\n        x.add_(1)\n        return x * 1",
]
BACKWARD_BODIES = [
    "return g", "return None", "return g, g", "return g.sum()", "raise ValueError('backward')",
    "return 'x'", "x, = ctx.saved_tensors\n        return g * x", "return torch.ones(5)",
    "return g.int()", "return g.double()", "return ()", "return g.expand(3, *g.shape)",
    "x = ctx.saved_tensors\n        return g", "ctx.saved_tensors[0].add_(1)\n        return g",
    "return torch.ones(()).requires_grad_()", "raise SystemExit", "return np.ones(2)",
]
PACK = ["lambda x: x", "lambda x: None", "lambda x: 1 / 0", "lambda x: 'x'",
        "lambda x: x.detach()[:1]", "lambda x: torch.ones(100)", "lambda x: x.int()",
        "lambda x: (x, x)", "lambda x: x.clone().add_(1)"]
UNPACK = ["lambda x: x", "lambda x: None", "lambda x: 1 / 0", "lambda x: x.t()",
          "lambda x: torch.ones(100)", "lambda x: 'x'", "lambda x: x[0]",
          "lambda x: x.double()", "lambda x: torch.ones(())"]
UNARY = ["x.exp()", "x * x", "x.sin()", "x.sum()", "x[1:]", "x.t() if x.dim() == 2 else x",
         "x.view(-1)", "x.relu()", "x.pow(2)", "x / 3", "x.mean(0) if x.dim() else x",
         "x.expand(2, *x.shape)", "x.unsqueeze(0)", "x.clone()", "x.tanh()", "x.log_softmax(-1)",
         "x.mm(x.t()) if x.dim() == 2 else x.dot(x) if x.dim() == 1 else x * 2"]
NODE_POKES = [
    "r = y.grad_fn.next_functions", "r = y.grad_fn(torch.ones(()))",
    "r = y.grad_fn(torch.ones(y.shape))", "r = y.grad_fn(None)", "r = y.grad_fn()",
    "r = y.grad_fn('x')", "r = y.grad_fn.name()", "r = y.grad_fn.metadata",
    "r = [getattr(y.grad_fn, a) for a in dir(y.grad_fn) if a.startswith('_saved')]",
    "r = y.grad_fn.register_hook(lambda gi, go: 1 / 0)\ny.sum().backward()",
    "r = y.grad_fn.register_prehook(lambda go: 'x')\ny.sum().backward()",
    "r = y.grad_fn.next_functions[0][0](torch.ones(3)) if y.grad_fn.next_functions and "
    "y.grad_fn.next_functions[0][0] is not None else None",
    "r = type(y.grad_fn)()",
]


def _on_t(expr):
    return re.sub(r"\bx\b", "t", expr)


def _indent(body, n):
    return "\n".join((" " * n + ln.lstrip()) if i else ln for i, ln in enumerate(body.split("\n")))


def _leaf(m):
    """A float tensor that requires grad (any shape the case wanted), bound to t."""
    shape = m.ctx.shape if m.chance(0.7) else m.v.random_shape()
    dtype = m.pick(["float32", "float32", "float64", "float16", "bfloat16"])
    src = m.v.data_expr(shape, dtype)
    return f"t = {src}.requires_grad_()"


def hook(m):
    body = m.pick(HOOK_BODIES)
    op = _on_t(m.pick(UNARY))
    finish = m.pick(["y.sum().backward()", "r = torch.autograd.grad(y.sum(), [t])",
                     "y.sum().backward(retain_graph=True)\ny.sum().backward()",
                     "y.backward(torch.ones_like(y))"])
    return [_leaf(m), "def hook(g):", f"    {_indent(body, 4)}", "h = t.register_hook(hook)",
            f"y = {op}", finish, "r = t.grad"]


def custom_function(m):
    fwd = m.pick(FORWARD_BODIES)
    bwd = m.pick(BACKWARD_BODIES)
    apply = m.pick(["F.apply(t)", "F.apply(t.detach())", "F.apply(t * 1)", "F.apply(t, t)",
                    "F.apply()", "F.apply(3)", "F()(t)", "F.apply(t[1:] if t.dim() else t)"])
    finish = m.pick(["y.sum().backward()", "y[0].sum().backward()",
                     "r = torch.autograd.grad(y.sum(), [t], allow_unused=True)",
                     "y.sum().backward(create_graph=True)\nr = t.grad.sum().backward()",
                     "r = y.grad_fn"])
    return [_leaf(m), "class F(torch.autograd.Function):", "    @staticmethod",
            "    def forward(ctx, x):", f"        {_indent(fwd, 8)}", "    @staticmethod",
            "    def backward(ctx, g):", f"        {_indent(bwd, 8)}", f"y = {apply}",
            "y = y if isinstance(y, torch.Tensor) else y[0] if isinstance(y, tuple) and y and "
            "isinstance(y[0], torch.Tensor) else t * 1",
            finish, "r = t.grad"]


def saved_hooks(m):
    op = _on_t(m.pick(UNARY))
    finish = m.pick(["y.sum().backward()", "r = [getattr(y.grad_fn, a) for a in dir(y.grad_fn) "
                     "if a.startswith('_saved')]", "r = torch.autograd.grad(y.sum(), [t])"])
    return [_leaf(m),
            f"with torch.autograd.graph.saved_tensors_hooks({m.pick(PACK)}, {m.pick(UNPACK)}):",
            f"    y = {op}", finish, "r = t.grad"]


def grad_call(m):
    outputs = m.pick(["y", "[y, y]", "y * 0 + 1", "t", "[]", "torch.ones(2)", "(y,)", "None",
                      "[y, None]", "y.detach()", "3"])
    inputs = m.pick(["[t]", "t", "[t, t]", "[]", "[t * 2]", "[torch.ones(2, requires_grad=True)]",
                     "[t.detach()]", "None", "[y]", "(t,)", "['x']"])
    grad_outputs = m.pick(["None", "torch.ones(())", "torch.ones(5)", "[None]",
                           "torch.ones((), dtype=torch.int64)", "'x'", "[torch.ones(()), 1]"])
    kw = m.pick(["", ", retain_graph=True", ", create_graph=True", ", allow_unused=True",
                 ", retain_graph=False, create_graph=True", ", only_inputs=False"])
    op = _on_t(m.pick(UNARY))
    return [_leaf(m), f"y = ({op}).sum()",
            f"r = torch.autograd.grad({outputs}, {inputs}, {grad_outputs}{kw})"]


def graph_reuse(m):
    op = _on_t(m.pick(UNARY))
    steps = m.pick([
        ["y = ({op}).sum()", "y.backward()", "y.backward()"],
        ["y = ({op}).sum()", "y.backward(create_graph=True)", "r = t.grad.sum().backward()"],
        ["y = ({op}).sum()", "g, = torch.autograd.grad(y, [t], create_graph=True)",
         "r = torch.autograd.grad(g.sum(), [t])"],
        ["y = {op}", "t.data = torch.ones(7)", "y.sum().backward()"],
        ["y = {op}", "t.add_(1) if not t.requires_grad else t.data.add_(1)",
         "y.sum().backward()"],
        ["y = {op}", "del t", "import gc", "gc.collect()", "y.sum().backward()", "t = y"],
        ["y = {op}", "t.requires_grad_(False)", "y.sum().backward()"],
        ["y = {op}", "t.grad = torch.ones(9)", "y.sum().backward()"],
        ["y = {op}", "t.detach_()", "y.sum().backward()"],
        ["y = {op}", "y.retain_grad()", "y.sum().backward()", "r = y.grad"],
        ["with torch.no_grad():", "    y = {op}", "y.sum().backward()"],
        ["with torch.inference_mode():", "    u = torch.ones(t.shape)", "y = t * u",
         "y.sum().backward()", "u.add_(1)"],
        ["with torch.inference_mode():", "    y = {op}", "y.requires_grad_()",
         "y.sum().backward()"],
        ["y = {op}", "y.backward(torch.ones(3, 3))"],
        ["y = {op}", "y.backward(inputs=[y])"],
        ["y = {op}", "y.backward(inputs=[])"],
    ])
    return [_leaf(m)] + [s.format(op=op) for s in steps] + ["r = t.grad"]


def node_poke(m):
    op = _on_t(m.pick(UNARY))
    return [_leaf(m), f"y = {op}"] + m.pick(NODE_POKES).split("\n")


def data_swap(m):
    """Views and results of a tensor whose .data was replaced by one of another shape / dtype."""
    new = m.pick(["torch.ones(1)", "torch.ones(100)", "torch.ones(2, 3, dtype=torch.int64)",
                  "torch.empty(0)", "torch.ones(()).expand(5)", "'x'", "None"])
    use = m.pick(["r = v + 1", "r = v.sum()", "v.add_(1)\nr = t", "r = v.view(-1)",
                  "r = t + v", "r = v.tolist()"])
    return [f"t = {m.v.data_expr(m.ctx.shape or [3], 'float32')}",
            f"v = t{m.pick(['[1:]', '.view(-1)', '.t()', '[...]', '.unsqueeze(0)', '.expand(2, *t.shape)'])}",
            f"t.data = {new}"] + use.split("\n")


def op_hooks(m):
    """opscope.profiler.add_hook callbacks that misbehave, around a few ops."""
    cb = m.pick(["lambda c: 1 / 0", "lambda c: None", "lambda c: c", "lambda c: str(c)",
                 "lambda c: torch.ones(2) + 1", "lambda c: setattr(c, 'x', 1)",
                 "lambda c: c.args", "lambda c: [a for a in c.args]",
                 "lambda c: (_ for _ in ()).throw(KeyboardInterrupt)"])
    where = m.pick(["on_enter", "on_exit"])
    op = _on_t(m.pick(UNARY))
    return [_leaf(m), f"with torch.profiler.add_hook({where}={cb}):", f"    y = {op}",
            "    y.sum().backward()", "r = t.grad"]


def python_kernel(m):
    """A Python kernel registered for an aten op (opscope._C._Library) that misbehaves."""
    body = m.pick(["1 / 0", "None", "'x'", "torch.ones(100)", "(args[0], args[0])",
                   "args[0]", "torch.ones(3, dtype=torch.int64)", "torch.neg(args[0])",
                   "args[0].add_(1)", "3", "torch.ones(())", "torch.empty(0)"])
    op = m.pick([("neg", "torch.neg(x)"), ("add.Tensor", "x + x"), ("sum", "x.sum()"),
                 ("mm", "x.view(1, -1).mm(x.view(-1, 1))"), ("max", "x.max()"),
                 ("sort", "x.sort()"), ("exp", "x.exp()"), ("mul.Tensor", "(x * 2).sum()")])
    key = m.pick(["CPU", "CPU", "AutogradCPU", "CompositeImplicitAutograd", "Python", "garbage",
                  "BackendSelect", ""])
    kind = m.pick(["IMPL", "FRAGMENT", "DEF", "garbage"])
    call = op[1]
    if m.chance(0.5):
        call = f"({call})"
    finish = m.pick(["r = {c}", "x.requires_grad_()\n    r = {c}\n    r.sum().backward()",
                     "r = {c}\n    h.remove()\n    r = {c}"]).format(c=call)
    return [f"x = {m.v.data_expr(m.ctx.shape or [3], m.pick(['float32', 'float64', 'int64']))}",
            f"lib = torch._C._Library({kind!r}, 'aten')",
            f"h = lib.impl({op[0]!r}, {key!r}, lambda *args: {body})",
            "try:", f"    {finish}", "finally:", "    h.remove()"]


SCENARIOS = {"hook": hook, "custom_function": custom_function, "saved_tensors_hooks": saved_hooks,
             "autograd.grad": grad_call, "graph_reuse": graph_reuse, "node_poke": node_poke,
             "data_swap": data_swap, "profiler.add_hook": op_hooks,
             "library.impl": python_kernel}
