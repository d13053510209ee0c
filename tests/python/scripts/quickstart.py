# The official "Quickstart" tutorial's shape (beginner/basics/quickstart_tutorial.py), on a small
# synthetic stand-in for FashionMNIST: Dataset / DataLoader, an nn.Sequential in a Module, the
# train / test loops, save and load of the state_dict.
import os
import tempfile

import opscope as torch
from opscope import nn
from opscope.utils.data import DataLoader, Dataset

device = (
    "cuda"
    if torch.cuda.is_available()
    else "mps"
    if torch.backends.mps.is_available()
    else "cpu"
)
print(f"Using {device} device")


class FakeFashion(Dataset):
    """28x28 images whose class is the quadrant holding the brightest blob (4 classes)."""

    def __init__(self, n, seed):
        g = torch.Generator().manual_seed(seed)
        self.labels = torch.randint(0, 4, (n,), generator=g)
        self.images = torch.rand(n, 1, 28, 28, generator=g) * 0.2
        for i in range(n):
            r, c = divmod(int(self.labels[i]), 2)
            self.images[i, 0, r * 14:(r + 1) * 14, c * 14:(c + 1) * 14] += 0.8

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        return self.images[idx], self.labels[idx]


training_data = FakeFashion(512, 0)
test_data = FakeFashion(128, 1)
batch_size = 64
train_dataloader = DataLoader(training_data, batch_size=batch_size)
test_dataloader = DataLoader(test_data, batch_size=batch_size)

for X, y in test_dataloader:
    print(f"Shape of X [N, C, H, W]: {X.shape}")
    print(f"Shape of y: {y.shape} {y.dtype}")
    break


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(28 * 28, 512),
            nn.ReLU(),
            nn.Linear(512, 512),
            nn.ReLU(),
            nn.Linear(512, 4),
        )

    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits


torch.manual_seed(0)
model = NeuralNetwork().to(device)
print(model)

loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-1)


def train(dataloader, model, loss_fn, optimizer):
    size = len(dataloader.dataset)
    model.train()
    for batch, (X, y) in enumerate(dataloader):
        X, y = X.to(device), y.to(device)
        pred = model(X)
        loss = loss_fn(pred, y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if batch % 4 == 0:
            loss, current = loss.item(), (batch + 1) * len(X)
            print(f"loss: {loss:>7f}  [{current:>5d}/{size:>5d}]")


def test(dataloader, model, loss_fn):
    size = len(dataloader.dataset)
    num_batches = len(dataloader)
    model.eval()
    test_loss, correct = 0, 0
    with torch.no_grad():
        for X, y in dataloader:
            X, y = X.to(device), y.to(device)
            pred = model(X)
            test_loss += loss_fn(pred, y).item()
            correct += (pred.argmax(1) == y).type(torch.float).sum().item()
    test_loss /= num_batches
    correct /= size
    print(f"Test Error: \n Accuracy: {(100*correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")
    return correct


epochs = 3
for t in range(epochs):
    print(f"Epoch {t+1}\n-------------------------------")
    train(train_dataloader, model, loss_fn, optimizer)
    accuracy = test(test_dataloader, model, loss_fn)
print("Done!")
RESULT = {"accuracy": accuracy, "repr": repr(model)}

with torch.no_grad():
    before = model(test_data[0][0])
path = os.path.join(tempfile.mkdtemp(), "model.pth")
torch.save(model.state_dict(), path)
model = NeuralNetwork().to(device)
model.load_state_dict(torch.load(path))
model.eval()
x, y = test_data[0][0], test_data[0][1]
with torch.no_grad():
    pred = model(x)
    predicted = pred[0].argmax(0)
print(f'Predicted: "{int(predicted)}", Actual: "{int(y)}"')
RESULT["reloaded_same_output"] = bool(torch.equal(pred, before))
