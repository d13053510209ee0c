"""The LeNet-style training run that tests/python/test_conv.py compares with torch 1.13's
(recorded by make_torch_reference_conv.py into data/conv_torch.json): the same model, initial
weights and data under either library, given as ``m`` (torch or opscope).

Model (float64): conv 1->4 3x3, relu, max_pool 2, conv 4->8 3x3, relu, max_pool 2, flatten,
linear 32->3; input 1x16x16. Data: 48 images of three classes (a bright row, a bright column,
the diagonal) at random places, with noise. Initial weights come from NumPy, so both runs start
equal; SGD (lr 0.1, momentum 0.9) on mini-batches of 16, cross-entropy loss.
"""
import numpy as np

STEPS = 36
BATCH = 16


def data(seed=0):
    rng = np.random.default_rng(seed)
    n = 48
    x = rng.normal(0.0, 0.3, size=(n, 1, 16, 16))
    y = np.arange(n) % 3
    for i in range(n):
        k = rng.integers(2, 14)
        if y[i] == 0:
            x[i, 0, k, :] += 1.5
        elif y[i] == 1:
            x[i, 0, :, k] += 1.5
        else:
            x[i, 0] += 1.5 * np.eye(16, k=int(k) - 8)
    return x, y


def initial_weights(seed=1):
    rng = np.random.default_rng(seed)

    def u(shape, fan_in):
        b = 1 / np.sqrt(fan_in)
        return rng.uniform(-b, b, size=shape)

    return {"conv1.weight": u((4, 1, 3, 3), 9), "conv1.bias": u((4,), 9),
            "conv2.weight": u((8, 4, 3, 3), 36), "conv2.bias": u((8,), 36),
            "fc.weight": u((3, 32), 32), "fc.bias": u((3,), 32)}


def build(m):
    nn = m.nn

    class LeNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 4, 3, dtype=m.float64)
            self.conv2 = nn.Conv2d(4, 8, 3, dtype=m.float64)
            self.pool = nn.MaxPool2d(2)
            self.fc = nn.Linear(32, 3, dtype=m.float64)

        def forward(self, x):
            x = self.pool(m.relu(self.conv1(x)))
            x = self.pool(m.relu(self.conv2(x)))
            return self.fc(x.flatten(1))

    model = LeNet()
    with m.no_grad():
        for name, p in model.named_parameters():
            p.copy_(m.tensor(initial_weights()[name], dtype=m.float64))
    return model


def train(m):
    """The loss of every step."""
    model = build(m)
    x_np, y_np = data()
    x, y = m.tensor(x_np, dtype=m.float64), m.tensor(y_np, dtype=m.int64)
    opt = m.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    losses = []
    for step in range(STEPS):
        lo = (step * BATCH) % len(y_np)
        opt.zero_grad()
        loss = m.nn.functional.cross_entropy(model(x[lo:lo + BATCH]), y[lo:lo + BATCH])
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses
