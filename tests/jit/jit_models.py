"""cellgrad networks the jit tests export (the same layers as fixtures/make_fixtures.py)."""

import numpy as np

import cellgrad as ms
from cellgrad import nn, ops


class MLP(nn.Cell):
    def __init__(self, sizes=(8, 16, 4)):
        super().__init__()
        self.fc1 = nn.Dense(sizes[0], sizes[1])
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(sizes[1], sizes[2])

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


class LeNetBN(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
        self.bn1 = nn.BatchNorm2d(6)
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.bn2 = nn.BatchNorm2d(16)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(2, 2)
        self.flatten = nn.Flatten()
        self.fc1 = nn.Dense(16 * 5 * 5, 120)
        self.fc2 = nn.Dense(120, 84)
        self.fc3 = nn.Dense(84, 10)

    def construct(self, x):
        x = self.pool(self.relu(self.bn1(self.conv1(x))))
        x = self.pool(self.relu(self.bn2(self.conv2(x))))
        x = self.relu(self.fc1(self.flatten(x)))
        return self.fc3(self.relu(self.fc2(x)))


class SmallCNN(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, pad_mode="same", has_bias=True)
        self.relu = nn.ReLU()
        self.pool = nn.AvgPool2d(2, 2)
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(4 * 4 * 4, 5)
        self.softmax = nn.Softmax()

    def construct(self, x):
        x = self.flatten(self.pool(self.relu(self.conv(x))))
        return self.softmax(self.fc(x) * 2.0 + 1.0)


class Lambda(nn.Cell):
    """A Cell running `fn` (the op tests)."""

    def __init__(self, fn, *cells):
        super().__init__()
        self.fn = fn
        self.parts = nn.CellList(list(cells))

    def construct(self, *xs):
        return self.fn(self, *xs)


def randomize_bn(net, seed=0):
    """Non-trivial moving statistics and affine parameters, so eval-mode BN is exercised."""
    rng = np.random.RandomState(seed)
    for name, p in net.parameters_and_names():
        if "moving_variance" in name or "gamma" in name:
            p.set_data(ms.Tensor(rng.uniform(0.5, 1.5, p.shape).astype(np.float32)))
        elif "moving_mean" in name or "beta" in name:
            p.set_data(ms.Tensor(rng.normal(0, 0.3, p.shape).astype(np.float32)))
    return net


__all__ = ["MLP", "LeNetBN", "SmallCNN", "Lambda", "randomize_bn", "ops"]
