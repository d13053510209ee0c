"""The ten programs the FX tests trace, written once against a torch-like module.

``programs(torch)`` builds them for ``torch`` (make_torch_reference_fx.py records torch.fx's
graphs) or for ``opscope`` (test_fx.py traces the same source and compares). Each entry:

    name                 key in data/fx_graphs.json
    make()               the module or function to trace
    inputs()             example arguments to run the traced and the original program on
    concrete_args        passed to symbolic_trace
    torch_function       True when tracing needs opscope functions (opscope.relu, F.gelu,
                         tensor-on-the-left operators) to call Proxy.__torch_function__
"""
import math


def programs(torch):
    nn = torch.nn
    F = torch.nn.functional

    class MLP(nn.Module):
        # The seed's MLP: two linear leaves and opscope.relu between them.
        def __init__(self):
            super().__init__()
            self.linear = nn.Linear(4, 8)
            self.linear_1 = nn.Linear(8, 3)

        def forward(self, x):
            return self.linear_1(torch.relu(self.linear(x)))

    def sequential():
        # Sequential is traced through: its children are called by index ('0', '1', '2').
        return nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))

    class Model(nn.Module):
        # Seed 004's walkthrough: torch.relu(proxy) reaches Proxy.__torch_function__.
        def forward(self, x):
            return torch.relu(x)

    def arith_methods(x, y, mask=None):
        # Operators, methods, indexing, attribute reads, a concrete (specialised) argument.
        z = (x + 1) * y - x / 2
        if mask is not None:
            z = z * mask
        return (z.view(-1).sum(dim=0, keepdim=True), -z, z[:, 0], x.size(1),
                z.transpose(0, 1).contiguous() @ y, z[1:, ::2])

    class ParamsBuffers(nn.Module):
        # A parameter, a buffer, a plain tensor attribute and a tensor made during forward.
        def __init__(self):
            super().__init__()
            self.weight = nn.Parameter(torch.randn(4, 3))
            self.register_buffer("scale", torch.full((3,), 0.5))
            self.offset = torch.arange(3.0)

        def forward(self, x):
            return (x @ self.weight) * self.scale + self.offset + torch.ones(3)

    def functional(x, y):
        # Functions of opscope and opscope.nn.functional called on Proxies.
        h = torch.cat([F.relu(x), F.gelu(y)], dim=1)
        return torch.sum(torch.flatten(h, 1), dim=-1), torch.add(x, y, alpha=2)

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.linear = nn.Linear(6, 6)
            self.norm = nn.LayerNorm(6)

        def forward(self, x):
            return self.norm(self.linear(x)) + x

    class Nested(nn.Module):
        # A user module inside a user module is traced through (block.linear, block.norm).
        def __init__(self):
            super().__init__()
            self.block = Block()
            self.head = nn.Linear(6, 2)

        def forward(self, x):
            return self.head(self.block(x)).softmax(dim=-1)

    class CNN(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 4, 3, padding=1)
            self.bn = nn.BatchNorm2d(4)
            self.act = nn.ReLU()
            self.pool = nn.MaxPool2d(2)
            self.fc = nn.Linear(64, 10)

        def forward(self, x):
            x = self.pool(self.act(self.bn(self.conv(x))))
            return self.fc(x.flatten(1))

    def attention(q, k, v):
        # math.sqrt is recorded as a call_function (math is autowrapped).
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        return scores.softmax(dim=-1) @ v

    class TensorLeft(nn.Module):
        # A real tensor on the left of an operator or method: Tensor.add(buffer, proxy) gets to
        # Proxy.__torch_function__ and is recorded as call_method.
        def __init__(self):
            super().__init__()
            self.register_buffer("b", torch.ones(3))

        def forward(self, x):
            return self.b + x, self.b.mul(x), (x * 2).pow(2)

    return [
        dict(name="mlp", make=MLP, inputs=lambda: (torch.randn(2, 4),), torch_function=True),
        dict(name="sequential", make=sequential, inputs=lambda: (torch.randn(2, 4),)),
        dict(name="seed_model", make=Model, inputs=lambda: (torch.randn(5),),
             torch_function=True),
        dict(name="arith_methods", make=lambda: arith_methods,
             inputs=lambda: (torch.randn(3, 3), torch.randn(3, 3)),
             concrete_args={"mask": None}),
        dict(name="params_buffers", make=ParamsBuffers, inputs=lambda: (torch.randn(2, 4),)),
        dict(name="functional", make=lambda: functional,
             inputs=lambda: (torch.randn(2, 3), torch.randn(2, 3)), torch_function=True),
        dict(name="nested", make=Nested, inputs=lambda: (torch.randn(3, 6),)),
        dict(name="cnn", make=lambda: CNN().eval(), inputs=lambda: (torch.randn(2, 3, 8, 8),)),
        dict(name="attention", make=lambda: attention,
             inputs=lambda: (torch.randn(2, 5, 4), torch.randn(2, 5, 4), torch.randn(2, 5, 4))),
        dict(name="tensor_left", make=TensorLeft, inputs=lambda: (torch.randn(3),),
             torch_function=True),
    ]


def rewrites(torch):
    """Graphs rewritten with fx.replace_pattern (operators and methods only): name -> (program,
    pattern, replacement)."""
    def twice(x, w1, w2):
        a = (x + w1).relu()
        b = (a + w2).relu()
        return a * b

    def add_relu(x, y):
        return (x + y).relu()

    def sub_sigmoid(x, y):
        return (x - y).sigmoid()

    def scaled(x):
        return x.mul(2).neg() + x.mul(3).neg()

    def mul2_neg(x):
        return x.mul(2).neg()

    def times_minus_two(x):
        return x * -2

    return {"add_relu_to_sub_sigmoid": (twice, add_relu, sub_sigmoid),
            "constant_must_match": (scaled, mul2_neg, times_minus_two)}


def extras(torch):
    """More traced programs, compared by code and str(graph): name -> (function, inputs())."""
    from typing import Dict, List, Tuple

    class TensorPair(metaclass=torch.fx.ProxyableClassMeta):
        # Built from Proxies during tracing, it becomes a call_function of the class.
        def __init__(self, left, right):
            self.left, self.right = left, right

        def add(self, other):
            return TensorPair(self.left + other.left, self.right + other.right)

    def pair_ctor(x: TensorPair, y: torch.Tensor):
        return x.add(TensorPair(y, y))

    def annotated(x: List[torch.Tensor], d: Dict[str, int], t: Tuple[int, ...]) -> torch.Tensor:
        return x[0] + d["a"] * t[1]

    return {
        "proxyable_class": (pair_ctor, lambda: (TensorPair(torch.ones(2), torch.zeros(2)),
                                                torch.full((2,), 3.0))),
        "annotated": (annotated, lambda: ([torch.ones(2)], {"a": 2}, (1, 5))),
    }
