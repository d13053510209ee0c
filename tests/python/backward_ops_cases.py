"""Training steps whose backward is traced op by op, shared by the recording script
(make_torch_reference_backward_ops.py, run with torch) and test_backward_ops.py (run with
opscope): a small MLP (Linear, ReLU, log_softmax + nll_loss), the same with cross_entropy, and
softmax; and with cross_entropy, the MLP with GELU (erf and tanh), SiLU, Softplus, Sigmoid,
Tanh, LeakyReLU, ReLU6, ELU, SELU, Hardswish + Hardsigmoid, Mish or LogSigmoid in place of
ReLU, or a LayerNorm or GroupNorm before it, or PReLU, Threshold or CELU; and the ReLU MLP with
mse_loss,
with a sigmoid and binary_cross_entropy, with binary_cross_entropy_with_logits (and with weight
and pos_weight) and with l1_loss; and an embedding table before the ReLU.
`backward_ops(torch, case)` runs one step under the library's profiler and returns, in the order
the engine ran them, each autograd node's name with the ops it called directly.

torch's profiler nests by time, and at microsecond resolution it hangs some ops under the wrong
parent (t's transpose and as_strided beside it, TBackward0's t under the AddmmBackward0 before
it); ops that are another op's children in torch (transpose, as_strided, resolve_conj) or the
engine's (AccumulateGrad's detach) are left out, and the test compares the node order, the exact
lists of the nodes whose ops do not move, and the whole step's ops as a multiset."""

PREFIX = "autograd::engine::evaluate_function: "
# ops run inside other ops (t -> transpose -> as_strided; nll_loss_backward's zero_ of its
# result) or by the engine itself
INNER = {"aten::transpose", "aten::as_strided", "aten::resolve_conj", "aten::detach", "detach",
         "aten::zero_"}
# nodes whose op lists torch's profiler keeps in place: compared exactly
EXACT = {"NllLossBackward0", "LogSoftmaxBackward0", "SoftmaxBackward0", "ReluBackward0",
         "MulBackward0", "SumBackward0", "GeluBackward0", "SiluBackward0", "SoftplusBackward0",
         "NativeLayerNormBackward0", "SigmoidBackward0", "TanhBackward0", "MseLossBackward0",
         "BinaryCrossEntropyBackward0", "EmbeddingBackward0", "LeakyReluBackward0",
         "HardtanhBackward0", "EluBackward0", "HardswishBackward0", "HardsigmoidBackward0",
         "MishBackward0", "LogSigmoidBackward0", "PreluBackward0", "ThresholdBackward0",
         "CeluBackward0", "BinaryCrossEntropyWithLogitsBackward0", "AbsBackward0",
         "NativeGroupNormBackward0"}

# case -> the hidden layer between the two Linears
HIDDEN = {"gelu": lambda nn: [nn.GELU()], "gelu_tanh": lambda nn: [nn.GELU(approximate="tanh")],
          "silu": lambda nn: [nn.SiLU()], "softplus": lambda nn: [nn.Softplus(beta=2.0)],
          "layer_norm": lambda nn: [nn.LayerNorm(16), nn.ReLU()],
          "group_norm": lambda nn: [nn.GroupNorm(4, 16), nn.ReLU()],
          "sigmoid": lambda nn: [nn.Sigmoid()], "tanh": lambda nn: [nn.Tanh()],
          "leaky_relu": lambda nn: [nn.LeakyReLU(0.2)], "relu6": lambda nn: [nn.ReLU6()],
          "elu": lambda nn: [nn.ELU(alpha=0.5)], "selu": lambda nn: [nn.SELU()],
          "hardswish": lambda nn: [nn.Hardswish(), nn.Hardsigmoid()],
          "mish": lambda nn: [nn.Mish()], "logsigmoid": lambda nn: [nn.LogSigmoid()],
          "prelu": lambda nn: [nn.PReLU(16)], "threshold": lambda nn: [nn.Threshold(0.1, -1.0)],
          "celu": lambda nn: [nn.CELU(0.5)]}


def mlp_step(torch, loss):
    torch.manual_seed(0)
    F = torch.nn.functional
    hidden = HIDDEN[loss](torch.nn) if loss in HIDDEN else [torch.nn.ReLU()]
    model = torch.nn.Sequential(torch.nn.Linear(8, 16), *hidden, torch.nn.Linear(16, 4))
    x = torch.randn(5, 8)
    if loss == "embedding":  # token ids through an embedding table (a repeated one, a padding one)
        model = torch.nn.Sequential(torch.nn.Embedding(10, 8, padding_idx=0), torch.nn.ReLU(),
                                    torch.nn.Linear(8, 4))
        x = torch.tensor([1, 2, 1, 7, 0])
    target = torch.tensor([0, 3, 1, 2, 3])

    def run():
        out = model(x)
        if loss in ("cross_entropy", "embedding") or loss in HIDDEN:
            value = F.cross_entropy(out, target)
        elif loss == "nll_loss":
            value = F.nll_loss(F.log_softmax(out, dim=1), target)
        elif loss == "mse_loss":
            value = F.mse_loss(out, (torch.arange(20.0) / 20).view(5, 4))
        elif loss == "binary_cross_entropy":
            value = F.binary_cross_entropy(torch.sigmoid(out), (torch.arange(20.0) / 20).view(5, 4))
        elif loss == "bce_with_logits":
            value = F.binary_cross_entropy_with_logits(out, (torch.arange(20.0) / 20).view(5, 4))
        elif loss == "bce_with_logits_weighted":
            value = F.binary_cross_entropy_with_logits(out, (torch.arange(20.0) / 20).view(5, 4),
                                                       weight=torch.arange(1.0, 5.0),
                                                       pos_weight=torch.full((4,), 2.0))
        elif loss == "l1_loss":
            value = F.l1_loss(out, (torch.arange(20.0) / 20).view(5, 4))
        else:  # softmax, then a weighted sum
            value = (F.softmax(out, dim=1) * torch.arange(4.0)).sum()
        value.backward()
    return run


CASES = ["nll_loss", "cross_entropy", "softmax", "mse_loss", "binary_cross_entropy", "embedding",
         "bce_with_logits", "bce_with_logits_weighted", "l1_loss", *HIDDEN]


def saved_names(torch):
    """{node: sorted _saved_* attribute names} of relu, log_softmax, softmax, nll_loss, gelu,
    silu, softplus, layer_norm, sigmoid, tanh, mse_loss and binary_cross_entropy."""
    torch.manual_seed(0)
    F = torch.nn.functional
    x = torch.randn(3, 4, requires_grad=True)
    nodes = [F.relu(x), F.log_softmax(x, 1), F.softmax(x, 1),
             F.nll_loss(x, torch.tensor([0, 3, 1]), weight=torch.ones(4)), F.gelu(x), F.silu(x),
             F.softplus(x), F.layer_norm(x, (4,), torch.ones(4, requires_grad=True),
                                         torch.zeros(4, requires_grad=True)),
             torch.sigmoid(x), torch.tanh(x), F.mse_loss(x, torch.zeros(3, 4)),
             F.binary_cross_entropy(torch.sigmoid(x), torch.ones(3, 4) / 2, weight=torch.ones(4))]
    return {y.grad_fn.name(): sorted(a for a in dir(y.grad_fn) if a.startswith("_saved_"))
            for y in nodes}


def backward_ops(torch, case):
    """[[node, [op, ...]], ...] for one training step's backward."""
    run = mlp_step(torch, case)
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
        run()
    out = []
    for e in prof.events():
        if not e.name.startswith(PREFIX):
            continue
        node = e.name[len(PREFIX):]
        body = [c for c in e.cpu_children if c.name == node]
        ops = [c.name for b in body for c in b.cpu_children if c.name not in INNER]
        out.append([node, ops])
    return out
