"""The network: LeNet's shape scaled to 8x8 digits."""

from cellgrad import nn


class DigitsNet(nn.Cell):
    """conv 16@3 -> BN -> ReLU -> pool 2 -> conv 32@3 -> BN -> ReLU -> pool 2 -> 128 -> 64 -> 10."""

    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.SequentialCell(
            nn.Conv2d(1, 16, 3, pad_mode="same"), nn.BatchNorm2d(16), nn.ReLU(),
            nn.MaxPool2d(kernel_size=2, stride=2),
            nn.Conv2d(16, 32, 3, pad_mode="same"), nn.BatchNorm2d(32), nn.ReLU(),
            nn.MaxPool2d(kernel_size=2, stride=2),
        )
        self.flatten = nn.Flatten()
        self.fc1 = nn.Dense(32 * 2 * 2, 64)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(64, num_classes)

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(self.flatten(self.features(x)))))
