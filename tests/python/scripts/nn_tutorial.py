# "What is torch.nn really?" (beginner/nn_tutorial.py) in its final form, on synthetic 28x28
# digits: a logistic regression from raw tensors (weights / sqrt(784), requires_grad_, the manual
# update under no_grad, grad.zero_()), then nn.Module with nn.Parameter, nn.Linear, optim.SGD with
# momentum, TensorDataset / DataLoader with a validation loader, loss_batch / fit, and the CNN
# built from nn.Sequential with a Lambda module, Conv2d(stride=2, padding=1), AdaptiveAvgPool2d
# and a WrappedDataLoader.
import math

import numpy as np

import opscope as torch
import opscope.nn.functional as F
from opscope import nn, optim
from opscope.utils.data import DataLoader, TensorDataset

rng = np.random.default_rng(0)
n_train, n_valid = 640, 160
labels = rng.integers(0, 10, n_train + n_valid)
images = rng.random((n_train + n_valid, 784), dtype=np.float32) * 0.3
for i, k in enumerate(labels):
    images[i, 28 * (2 + 2 * k): 28 * (4 + 2 * k)] = 1.0
x_train, y_train, x_valid, y_valid = map(
    torch.tensor, (images[:n_train], labels[:n_train], images[n_train:], labels[n_train:]))
n, c = x_train.shape
print(x_train, y_train)
print(x_train.shape)
print(y_train.min(), y_train.max())

torch.manual_seed(0)
weights = torch.randn(784, 10) / math.sqrt(784)
weights.requires_grad_()
bias = torch.zeros(10, requires_grad=True)


def log_softmax(x):
    return x - x.exp().sum(-1).log().unsqueeze(-1)


def model(xb):
    return log_softmax(xb @ weights + bias)


def nll(input, target):
    return -input[range(target.shape[0]), target].mean()


loss_func = nll
bs = 64


def accuracy(out, yb):
    preds = torch.argmax(out, dim=1)
    return (preds == yb).float().mean()


lr, epochs = 0.5, 2
for epoch in range(epochs):
    for i in range((n - 1) // bs + 1):
        start_i = i * bs
        end_i = start_i + bs
        xb = x_train[start_i:end_i]
        yb = y_train[start_i:end_i]
        pred = model(xb)
        loss = loss_func(pred, yb)
        loss.backward()
        with torch.no_grad():
            weights -= weights.grad * lr
            bias -= bias.grad * lr
            weights.grad.zero_()
            bias.grad.zero_()
raw_accuracy = accuracy(model(x_valid), y_valid).item()
print(loss_func(model(x_valid), y_valid), raw_accuracy)


class Mnist_Logistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.weights = nn.Parameter(torch.randn(784, 10) / math.sqrt(784))
        self.bias = nn.Parameter(torch.zeros(10))

    def forward(self, xb):
        return xb @ self.weights + self.bias


loss_func = F.cross_entropy


def loss_batch(model, loss_func, xb, yb, opt=None):
    loss = loss_func(model(xb), yb)
    if opt is not None:
        loss.backward()
        opt.step()
        opt.zero_grad()
    return loss.item(), len(xb)


def fit(epochs, model, loss_func, opt, train_dl, valid_dl):
    for epoch in range(epochs):
        model.train()
        for xb, yb in train_dl:
            loss_batch(model, loss_func, xb, yb, opt)
        model.eval()
        with torch.no_grad():
            losses, nums = zip(*[loss_batch(model, loss_func, xb, yb) for xb, yb in valid_dl])
        val_loss = np.sum(np.multiply(losses, nums)) / np.sum(nums)
        print(epoch, val_loss)
    return val_loss


def get_data(train_ds, valid_ds, bs):
    return (DataLoader(train_ds, batch_size=bs, shuffle=True),
            DataLoader(valid_ds, batch_size=bs * 2))


train_ds, valid_ds = TensorDataset(x_train, y_train), TensorDataset(x_valid, y_valid)
train_dl, valid_dl = get_data(train_ds, valid_ds, bs)
logistic = Mnist_Logistic()
logistic_loss = fit(2, logistic, loss_func, optim.SGD(logistic.parameters(), lr=lr), train_dl, valid_dl)


class Lambda(nn.Module):
    def __init__(self, func):
        super().__init__()
        self.func = func

    def forward(self, x):
        return self.func(x)


def preprocess(x, y):
    return x.view(-1, 1, 28, 28), y


class WrappedDataLoader:
    def __init__(self, dl, func):
        self.dl = dl
        self.func = func

    def __len__(self):
        return len(self.dl)

    def __iter__(self):
        for b in self.dl:
            yield self.func(*b)


train_dl, valid_dl = get_data(train_ds, valid_ds, bs)
train_dl = WrappedDataLoader(train_dl, preprocess)
valid_dl = WrappedDataLoader(valid_dl, preprocess)
cnn = nn.Sequential(
    nn.Conv2d(1, 16, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.Conv2d(16, 16, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.Conv2d(16, 10, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.AdaptiveAvgPool2d(1),
    Lambda(lambda x: x.view(x.size(0), -1)),
)
opt = optim.SGD(cnn.parameters(), lr=0.1, momentum=0.9)
cnn_loss = fit(3, cnn, loss_func, opt, train_dl, valid_dl)
print(cnn)
RESULT = {"raw_accuracy": raw_accuracy, "logistic_loss": float(logistic_loss),
          "cnn_loss": float(cnn_loss), "repr": repr(cnn)}
