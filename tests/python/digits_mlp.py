"""A small MLP trained on scikit-learn's digits, written once for any torch-shaped module.

``train(opscope)`` and ``train(torch)`` run the same program: the same train/test split, the
same initial weights (drawn by NumPy and copied into the model), the same mini-batches in the
same order (a seeded NumPy generator), the same hyper-parameters. With the same float32
arithmetic they follow the same trajectory, so the per-epoch losses of the two can be compared
directly. tests/python/test_digits.py checks opscope against the reference PyTorch run recorded
in data/digits_torch.json by tests/bench/bench_digits.py.

>>> import opscope
>>> result = train(opscope, dict(HYPER, epochs=1))
>>> len(result["losses"]), 0.0 < result["accuracy"] <= 1.0
(1, True)
"""
import time

import numpy as np
from sklearn.datasets import load_digits  # python3-sklearn, installed by tools/setup.sh

# The data: 1797 8x8 images of digits (pixels 0..16, scaled to 0..1), 10 classes.
# The model: 64 -> hidden -> ReLU -> 10, cross-entropy, SGD with momentum.
HYPER = {
    "hidden": 32,
    "epochs": 20,
    "batch_size": 32,
    "lr": 0.05,
    "momentum": 0.9,
    "test_fraction": 0.25,
    "seed": 0,
}


def load_data(hyper=HYPER):
    """(x_train, y_train, x_test, y_test) as NumPy arrays (float32 features in [0, 1], int64
    labels), split by a permutation from NumPy's generator seeded with hyper['seed']."""
    digits = load_digits()
    x = (digits.data / 16.0).astype(np.float32)
    y = digits.target.astype(np.int64)
    order = np.random.default_rng(hyper["seed"]).permutation(len(x))
    n_test = int(round(len(x) * hyper["test_fraction"]))
    test, train = order[:n_test], order[n_test:]
    return x[train], y[train], x[test], y[test]


def initial_weights(hyper=HYPER):
    """[(weight, bias), ...] for the two Linear layers, float32, drawn as torch.nn.Linear draws
    them (U(-1/sqrt(fan_in), 1/sqrt(fan_in))) but from NumPy, so both models start alike."""
    rng = np.random.default_rng(hyper["seed"] + 1)
    shapes = [(hyper["hidden"], 64), (10, hyper["hidden"])]
    layers = []
    for out_features, in_features in shapes:
        bound = 1.0 / np.sqrt(in_features)
        w = rng.uniform(-bound, bound, (out_features, in_features)).astype(np.float32)
        b = rng.uniform(-bound, bound, out_features).astype(np.float32)
        layers.append((w, b))
    return layers


def make_model(torch, hyper=HYPER):
    """The MLP of `torch` (opscope or torch), its Linear layers set to initial_weights()."""
    nn = torch.nn
    model = nn.Sequential(nn.Linear(64, hyper["hidden"]), nn.ReLU(), nn.Linear(hyper["hidden"], 10))
    with torch.no_grad():
        for layer, (w, b) in zip([model[0], model[2]], initial_weights(hyper)):
            layer.weight.copy_(torch.from_numpy(w))
            layer.bias.copy_(torch.from_numpy(b))
    return model


def accuracy(torch, model, x, y):
    """The fraction of rows of x (NumPy) whose arg-max logit is the label in y."""
    with torch.no_grad():
        predicted = model(torch.from_numpy(x)).argmax(1)
        return (predicted == torch.from_numpy(y)).float().mean().item()


def train(torch, hyper=HYPER):
    """Trains the MLP with `torch` (the opscope or the torch module); returns a dict:
    losses (mean training loss of each epoch), accuracy (on the test split after training),
    epoch_seconds (wall time of each epoch)."""
    x_train, y_train, x_test, y_test = load_data(hyper)
    model = make_model(torch, hyper)
    loss_fn = torch.nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=hyper["lr"], momentum=hyper["momentum"])
    batches = np.random.default_rng(hyper["seed"] + 2)
    size = hyper["batch_size"]
    losses, epoch_seconds = [], []
    for _ in range(hyper["epochs"]):
        order = batches.permutation(len(x_train))
        total, count = 0.0, 0
        start = time.perf_counter()
        for first in range(0, len(order), size):
            rows = order[first:first + size]
            x, y = torch.from_numpy(x_train[rows]), torch.from_numpy(y_train[rows])
            loss = loss_fn(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * len(rows)
            count += len(rows)
        epoch_seconds.append(time.perf_counter() - start)
        losses.append(total / count)
    return {"losses": losses, "accuracy": accuracy(torch, model, x_test, y_test),
            "epoch_seconds": epoch_seconds}
