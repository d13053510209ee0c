# The PyTorch examples' mnist/main.py shape, on synthetic digits: Conv2d / max_pool2d / Dropout /
# flatten / log_softmax, F.nll_loss, DataLoader over a TensorDataset with shuffle, Adadelta with
# StepLR, the test loop with reduction='sum' and argmax(keepdim=True).eq(view_as), and saving the
# model's state_dict.
import os
import tempfile

import opscope as torch
import opscope.nn as nn
import opscope.nn.functional as F
import opscope.optim as optim
from opscope.optim.lr_scheduler import StepLR
from opscope.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, 1)
        self.conv2 = nn.Conv2d(8, 16, 3, 1)
        self.dropout1 = nn.Dropout(0.25)
        self.dropout2 = nn.Dropout(0.5)
        self.fc1 = nn.Linear(2304, 64)
        self.fc2 = nn.Linear(64, 10)

    def forward(self, x):
        x = self.conv1(x)
        x = F.relu(x)
        x = self.conv2(x)
        x = F.relu(x)
        x = F.max_pool2d(x, 2)
        x = self.dropout1(x)
        x = torch.flatten(x, 1)
        x = self.fc1(x)
        x = F.relu(x)
        x = self.dropout2(x)
        x = self.fc2(x)
        output = F.log_softmax(x, dim=1)
        return output


def train(model, device, train_loader, optimizer, epoch):
    model.train()
    for batch_idx, (data, target) in enumerate(train_loader):
        data, target = data.to(device), target.to(device)
        optimizer.zero_grad()
        output = model(data)
        loss = F.nll_loss(output, target)
        loss.backward()
        optimizer.step()
        if batch_idx % 4 == 0:
            print('Train Epoch: {} [{}/{} ({:.0f}%)]\tLoss: {:.6f}'.format(
                epoch, batch_idx * len(data), len(train_loader.dataset),
                100. * batch_idx / len(train_loader), loss.item()))


def test(model, device, test_loader):
    model.eval()
    test_loss = 0
    correct = 0
    with torch.no_grad():
        for data, target in test_loader:
            data, target = data.to(device), target.to(device)
            output = model(data)
            test_loss += F.nll_loss(output, target, reduction='sum').item()
            pred = output.argmax(dim=1, keepdim=True)
            correct += pred.eq(target.view_as(pred)).sum().item()
    test_loss /= len(test_loader.dataset)
    print('\nTest set: Average loss: {:.4f}, Accuracy: {}/{} ({:.0f}%)\n'.format(
        test_loss, correct, len(test_loader.dataset), 100. * correct / len(test_loader.dataset)))
    return test_loss, correct / len(test_loader.dataset)


def synthetic_digits(n, seed):
    """Class k: a bright horizontal bar at row 2 + 2k of a noisy 28x28 image."""
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 10, (n,), generator=g)
    x = torch.rand(n, 1, 28, 28, generator=g) * 0.3
    for i in range(n):
        row = 2 + 2 * int(y[i])
        x[i, 0, row:row + 2, 4:24] = 1.0
    return TensorDataset((x - 0.1307) / 0.3081, y)


torch.manual_seed(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
train_kwargs = {'batch_size': 32, 'shuffle': True}
test_kwargs = {'batch_size': 100}
train_loader = DataLoader(synthetic_digits(256, 0), **train_kwargs)
test_loader = DataLoader(synthetic_digits(200, 1), **test_kwargs)
model = Net().to(device)
optimizer = optim.Adadelta(model.parameters(), lr=1.0)
scheduler = StepLR(optimizer, step_size=1, gamma=0.7)
for epoch in range(1, 3):
    train(model, device, train_loader, optimizer, epoch)
    test_loss, accuracy = test(model, device, test_loader)
    scheduler.step()
path = os.path.join(tempfile.mkdtemp(), "mnist_cnn.pt")
torch.save(model.state_dict(), path)
RESULT = {"accuracy": accuracy, "test_loss": test_loss, "lr": scheduler.get_last_lr()[0],
          "saved_keys": list(torch.load(path).keys())}
