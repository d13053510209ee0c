"""Records PyTorch 1.13's gradient layouts into tests/python/data/grad_layout_torch.json.

Each case below takes the library as `T` (torch here, opscope in tests/python/test_grad_layout.py)
and returns what a user can see of a gradient's layout: sizes, strides, is_contiguous(), whether it
views as (-1), grad_fn names. The cases import neither library, so the test runs the very same
code on opscope and compares with what this script recorded.

    /usr/bin/python3 tests/python/make_torch_reference_grad_layout.py
"""
import json
import os

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "grad_layout_torch.json")


def layout(t):
    """What the layout tests compare: None for no gradient."""
    if t is None:
        return None
    try:
        t.view(-1)
        flat = True
    except RuntimeError:
        flat = False
    return {"sizes": list(t.shape), "strides": list(t.stride()), "contiguous": t.is_contiguous(),
            "flat_view": flat}


def leaf(T, t):
    return t.detach().requires_grad_()


def case_linear(T):
    T.manual_seed(0)
    lin = T.nn.Linear(784, 256)
    lin(T.randn(3, 784)).sum().backward()
    return {"weight": layout(lin.weight.grad), "bias": layout(lin.bias.grad)}


def case_linear_batch1_twice(T):
    """Two backwards: the second adds into the first's .grad, keeping its layout."""
    lin = T.nn.Linear(7, 5)
    x = T.randn(1, 7)
    lin(x).sum().backward()
    lin(x).sum().backward()
    return {"weight": layout(lin.weight.grad), "bias": layout(lin.bias.grad)}


def case_matmul_transposed(T):
    a = leaf(T, T.randn(3, 4))
    b = leaf(T, T.randn(5, 4))
    c = leaf(T, T.randn(6, 3))
    (c.t().t() @ a @ b.t()).sum().backward()
    return {"a": layout(a.grad), "b": layout(b.grad), "c": layout(c.grad)}


def case_transposed_parameter(T):
    """A leaf that is a transposed (dense, not contiguous) tensor: .grad has its strides."""
    w = leaf(T, T.randn(4, 3).t())   # (3, 4), strides (1, 3)
    x = T.randn(2, 3)
    (x @ w).sum().backward()
    v = leaf(T, T.randn(5, 3).t())
    (v * 2).sum().backward()
    return {"w": layout(w.grad), "v": layout(v.grad)}


def case_matmul_column_major_operands(T):
    a = leaf(T, T.randn(4, 3).t())   # (3, 4) column-major
    b = leaf(T, T.randn(5, 4).t())   # (4, 5) column-major
    (a @ b).sum().backward()
    return {"a": layout(a.grad), "b": layout(b.grad)}


def case_expand(T):
    x = leaf(T, T.randn(3, 1))
    y = leaf(T, T.randn(1, 4))
    z = leaf(T, T.randn(4))
    s = leaf(T, T.randn(()))
    (x.expand(3, 4) * 2 + y + z + s).sum().backward()
    w = leaf(T, T.randn(5))
    w.sum().backward()       # the gradient reaching w is an expanded scalar (stride 0)
    return {"x": layout(x.grad), "y": layout(y.grad), "z": layout(z.grad), "s": layout(s.grad),
            "w": layout(w.grad)}


def case_channels_last_like(T):
    """A 4-d leaf whose strides are NHWC (a permuted dense tensor)."""
    x = leaf(T, T.randn(2, 4, 5, 3).permute(0, 3, 1, 2))
    (x * 3).sum().backward()
    y = leaf(T, T.randn(2, 4, 5, 3).permute(0, 3, 1, 2))
    y.sum().backward()
    z = leaf(T, T.randn(2, 4, 5, 3).permute(0, 3, 1, 2))
    (z.contiguous() * 2).sum().backward()
    return {"x": layout(x.grad), "y": layout(y.grad), "z": layout(z.grad)}


def case_size_one_dims(T):
    """Dims of size 1 may have any stride; the contract only looks at the others."""
    x = leaf(T, T.randn(3, 1, 4).permute(1, 0, 2))
    (x * 2).sum().backward()
    y = leaf(T, T.randn(1, 5))
    (y.t() * 2).sum().backward()
    return {"x": layout(x.grad), "y": layout(y.grad)}


def case_not_dense(T):
    """A leaf with gaps (a strided slice) or overlap (an expand): .grad is contiguous."""
    x = leaf(T, T.randn(4, 6)[:, ::2])
    (x * 2).sum().backward()
    y = leaf(T, T.randn(3).expand(4, 3))
    (y * 2).sum().backward()
    return {"x": layout(x.grad), "y": layout(y.grad)}


def case_accumulate_keeps_layout(T):
    """A .grad the user set with its own layout keeps it as gradients add in (in place)."""
    x = leaf(T, T.randn(3, 4))
    x.grad = T.zeros(4, 3).t()
    (x * 2).sum().backward()
    y = leaf(T, T.randn(3, 4).t())
    (y * 2).sum().backward()
    (y.t().contiguous() * 2).sum().backward()
    return {"x": layout(x.grad), "y": layout(y.grad),
            "x_value": x.grad.sum().item(), "y_value": y.grad.sum().item()}


def case_create_graph(T):
    x = leaf(T, T.randn(4, 3).t())
    (x * x).sum().backward(create_graph=True)
    first = layout(x.grad)
    fn1 = type(x.grad.grad_fn).__name__ if x.grad.grad_fn is not None else None
    (x * x).sum().backward(create_graph=True)
    fn2 = type(x.grad.grad_fn).__name__ if x.grad.grad_fn is not None else None
    return {"first": first, "first_fn": fn1, "second": layout(x.grad), "second_fn": fn2}


def case_retain_grad(T):
    x = leaf(T, T.randn(3, 4))
    y = x.t() * 2            # (4, 3), strides of x.t() * 2: dense, not contiguous
    y.retain_grad()
    z = x.t()
    z.retain_grad()
    e = x[:, :1].expand(3, 5)
    e.retain_grad()
    (y * 1 + z + e.sum(1, keepdim=True).t().expand(4, 3)).sum().backward()
    return {"y": layout(y.grad), "z": layout(z.grad), "e": layout(e.grad), "x": layout(x.grad)}


def case_autograd_grad(T):
    """autograd.grad returns the gradients as the formulas computed them: no layout contract."""
    w = leaf(T, T.randn(5, 7))
    b = leaf(T, T.randn(5))
    x = leaf(T, T.randn(3, 7))
    out = T.nn.functional.linear(x, w, b).sum()
    gw, gb, gx = T.autograd.grad(out, (w, b, x))
    a = leaf(T, T.randn(3, 4))
    c = leaf(T, T.randn(5, 4))
    ga, gc = T.autograd.grad((a @ c.t()).sum(), (a, c))
    p = leaf(T, T.randn(4, 3).t())
    (gp,) = T.autograd.grad((p * 2).sum(), (p,))
    return {"w": layout(gw), "b": layout(gb), "x": layout(gx), "a": layout(ga), "c": layout(gc),
            "p": layout(gp)}


def case_hook_keeps_tensor(T):
    """A gradient someone else still holds (a hook's returned tensor) is copied, not stolen."""
    x = leaf(T, T.randn(3, 4))
    kept = T.ones(3, 4)
    x.register_hook(lambda g: kept)
    (x * 2).sum().backward()
    x.grad.add_(1)
    return {"x": layout(x.grad), "kept_sum": kept.sum().item(), "grad_sum": x.grad.sum().item()}


CASES = {name[len("case_"):]: fn for name, fn in sorted(globals().items())
         if name.startswith("case_")}


def main():
    import torch
    torch.set_num_threads(1)
    out = {name: fn(torch) for name, fn in CASES.items()}
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {len(out)} cases to {OUT}")


if __name__ == "__main__":
    main()
