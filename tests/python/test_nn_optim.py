"""opscope.nn Modules and opscope.optim: the Module API (parameters, children, state_dict,
train / eval, printing as torch), gradients and optimizer steps against NumPy, and a small MLP
that learns.

    PYTHONPATH=core/python /usr/bin/python3 -m pytest -q tests/python/test_nn_optim.py
"""
import math

import numpy as np
import pytest

import opscope
from opscope import nn
from conftest import assert_close

F = nn.functional


def np_of(t):
    return np.array(t.detach().tolist(), dtype=np.float64)


def test_module_api():
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Dropout(0.1), nn.Linear(8, 2, bias=False))
    assert [n for n, _ in model.named_parameters()] == ["0.weight", "0.bias", "3.weight"]
    assert [type(m).__name__ for m in model.children()] == ["Linear", "ReLU", "Dropout", "Linear"]
    assert repr(model) == (
        "Sequential(\n"
        "  (0): Linear(in_features=4, out_features=8, bias=True)\n"
        "  (1): ReLU()\n"
        "  (2): Dropout(p=0.1, inplace=False)\n"
        "  (3): Linear(in_features=8, out_features=2, bias=False)\n"
        ")")
    assert model.training and not model.eval()[2].training and model.train()[2].training
    sd = model.state_dict()
    assert list(sd) == ["0.weight", "0.bias", "3.weight"] and not sd["0.weight"].requires_grad
    other = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Dropout(0.1), nn.Linear(8, 2, bias=False))
    other.load_state_dict(sd)
    assert other[0].weight.tolist() == model[0].weight.tolist()
    with pytest.raises(RuntimeError, match='Missing key\\(s\\) in state_dict: "0.bias"'):
        other.load_state_dict({k: v for k, v in sd.items() if k != "0.bias"})
    p = model[0].weight
    assert isinstance(p, nn.Parameter) and p.requires_grad and p.is_leaf
    assert repr(p).startswith("Parameter containing:\ntensor(")
    bound = 1 / math.sqrt(4)
    assert np.all(np.abs(np_of(p)) <= bound) and np.all(np.abs(np_of(model[0].bias)) <= bound)


def test_two_layer_mlp_gradients_and_sgd_step_match_numpy(rng):
    x, y = rng.standard_normal((5, 3)), rng.integers(0, 4, 5)
    model = nn.Sequential(nn.Linear(3, 6), nn.Tanh(), nn.Linear(6, 4))
    w1, b1, w2, b2 = (np_of(p) for p in model.parameters())
    opt = opscope.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=0.01)
    loss = F.cross_entropy(model(opscope.tensor(x, dtype=opscope.float32)), opscope.tensor(y))
    opt.zero_grad()
    loss.backward()
    # NumPy: forward, softmax cross-entropy, backward by hand
    h = np.tanh(x @ w1.T + b1)
    z = h @ w2.T + b2
    p = np.exp(z - z.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    assert abs(loss.item() - (-np.log(p[np.arange(5), y]).mean())) < 1e-5
    dz = p.copy()
    dz[np.arange(5), y] -= 1
    dz /= 5
    gw2, gb2 = dz.T @ h, dz.sum(0)
    dh = (dz @ w2) * (1 - h * h)
    gw1, gb1 = dh.T @ x, dh.sum(0)
    for param, want in zip(model.parameters(), [gw1, gb1, gw2, gb2]):
        assert_close(param.grad, want, rtol=1e-4, atol=1e-5, what="MLP gradient")
    opt.step()
    for param, before, g in zip(model.parameters(), [w1, b1, w2, b2], [gw1, gb1, gw2, gb2]):
        assert_close(param, before - 0.1 * (g + 0.01 * before), rtol=1e-4, atol=1e-5, what="SGD step")


def test_adam_and_adamw_follow_torchs_update(rng):
    for cls, decoupled in [(opscope.optim.Adam, False), (opscope.optim.AdamW, True)]:
        w0 = rng.standard_normal(4)
        w = nn.Parameter(opscope.tensor(w0))
        opt = cls([w], lr=0.01, weight_decay=0.1)
        m = v = np.zeros(4)
        ref = w0.copy()
        for step in range(1, 4):
            opt.zero_grad()
            (w * w * w).sum().backward()
            g = 3 * ref ** 2
            if decoupled:
                ref = ref * (1 - 0.01 * 0.1)
            else:
                g = g + 0.1 * ref
            m = 0.9 * m + 0.1 * g
            v = 0.999 * v + 0.001 * g * g
            denom = np.sqrt(v) / math.sqrt(1 - 0.999 ** step) + 1e-8
            ref = ref - 0.01 / (1 - 0.9 ** step) * m / denom
            opt.step()
            assert_close(w, ref, rtol=1e-10, atol=1e-12, what=f"{cls.__name__} step {step}")


def test_a_small_mlp_learns(rng):
    """Two interleaved spirals are not linearly separable: a 2-32-32-2 MLP trained with Adam
    separates them."""
    opscope.manual_seed(0)
    n = 200
    t = rng.uniform(0.25, 3.0, n)
    label = rng.integers(0, 2, n)
    angle = 2.5 * t + np.pi * label
    pts = np.stack([t * np.cos(angle), t * np.sin(angle)], 1) + rng.normal(0, 0.05, (n, 2))
    x = opscope.tensor(pts, dtype=opscope.float32)
    y = opscope.tensor(label)
    model = nn.Sequential(nn.Linear(2, 32), nn.GELU(), nn.Linear(32, 32), nn.GELU(), nn.Linear(32, 2))
    opt = opscope.optim.Adam(model.parameters(), lr=0.02)
    for _ in range(300):
        opt.zero_grad()
        loss = nn.CrossEntropyLoss()(model(x), y)
        loss.backward()
        opt.step()
    with opscope.no_grad():
        accuracy = (model(x).argmax(1) == y).float().mean().item()
    assert accuracy > 0.95, (loss.item(), accuracy)


def test_layer_norm_and_embedding_modules():
    ln = nn.LayerNorm(3)
    emb = nn.Embedding(5, 3, padding_idx=0)
    assert emb.weight[0].tolist() == [0.0, 0.0, 0.0]
    out = ln(emb(opscope.tensor([[1, 0, 4]])))
    out.sum().backward()
    assert ln.weight.grad.shape == (3,) and emb.weight.grad[0].tolist() == [0.0, 0.0, 0.0]
    assert repr(ln) == "LayerNorm((3,), eps=1e-05, elementwise_affine=True)"
    assert repr(emb) == "Embedding(5, 3, padding_idx=0)"


@pytest.mark.parametrize("options", [
    {},
    {"momentum": 0.9},
    {"centered": True, "weight_decay": 0.1},
    {"momentum": 0.5, "centered": True, "alpha": 0.9, "eps": 1e-6, "maximize": True},
])
def test_rmsprop_follows_torchs_update(rng, options):
    """opscope.optim.RMSprop against torch 1.13's update written in NumPy (float64)."""
    lr = 0.01
    alpha, eps = options.get("alpha", 0.99), options.get("eps", 1e-8)
    momentum, weight_decay = options.get("momentum", 0), options.get("weight_decay", 0)
    w0 = rng.standard_normal(4)
    w = nn.Parameter(opscope.tensor(w0))
    opt = opscope.optim.RMSprop([w], lr=lr, **options)
    ref = w0.copy()
    square_avg, grad_avg, buf = np.zeros(4), np.zeros(4), np.zeros(4)
    for step in range(1, 5):
        opt.zero_grad()
        (w * w * w).sum().backward()
        g = 3 * ref ** 2
        if options.get("maximize"):
            g = -g
        g = g + weight_decay * ref
        square_avg = alpha * square_avg + (1 - alpha) * g * g
        if options.get("centered"):
            grad_avg = alpha * grad_avg + (1 - alpha) * g
            avg = np.sqrt(square_avg - grad_avg * grad_avg) + eps
        else:
            avg = np.sqrt(square_avg) + eps
        if momentum:
            buf = momentum * buf + g / avg
            ref = ref - lr * buf
        else:
            ref = ref - lr * g / avg
        opt.step()
        assert_close(w, ref, rtol=1e-10, atol=1e-12, what=f"RMSprop {options} step {step}")
    assert opt.state[w]["step"] == 4
    assert ("momentum_buffer" in opt.state[w]) == bool(momentum)
    assert ("grad_avg" in opt.state[w]) == bool(options.get("centered"))


def test_rmsprop_checks_its_arguments():
    w = nn.Parameter(opscope.zeros(2))
    for kwargs, message in [({"lr": -1}, "Invalid learning rate: -1"),
                            ({"alpha": -0.5}, "Invalid alpha value: -0.5"),
                            ({"eps": -1e-8}, "Invalid epsilon value: -1e-08"),
                            ({"momentum": -1}, "Invalid momentum value: -1"),
                            ({"weight_decay": -1}, "Invalid weight_decay value: -1")]:
        with pytest.raises(ValueError, match=message):
            opscope.optim.RMSprop([w], **kwargs)
    assert repr(opscope.optim.RMSprop([w])).splitlines()[:3] == [
        "RMSprop (", "Parameter Group 0", "    alpha: 0.99"]


def test_flatten_and_unflatten_modules(rng):
    x = rng.standard_normal((2, 3, 4, 5))
    t = opscope.tensor(x)
    assert_close(nn.Flatten()(t), x.reshape(2, 60), what="Flatten()")
    assert_close(nn.Flatten(0, 1)(t), x.reshape(6, 4, 5), what="Flatten(0, 1)")
    assert_close(nn.Unflatten(1, (3, 20))(nn.Flatten()(t)), x.reshape(2, 3, 20), what="Unflatten")
    assert repr(nn.Flatten(0, 1)) == "Flatten(start_dim=0, end_dim=1)"
    assert repr(nn.Unflatten(1, (3, 20))) == "Unflatten(dim=1, unflattened_size=(3, 20))"
    # The tutorials' polynomial model: Linear(3, 1) then Flatten(0, 1) gives one value per row.
    model = nn.Sequential(nn.Linear(3, 1), nn.Flatten(0, 1))
    out = model(opscope.tensor(x[:, :3, 0, 0]).float())
    assert out.shape == (2,)
    out.sum().backward()
    assert_close(model[0].weight.grad, x[:, :3, 0, 0].sum(0, keepdims=True), rtol=1e-6,
                 what="Linear weight grad through Flatten")
