# ms.jit on a whole training step (forward, value_and_grad, optimizer), on construct and on a
# function returning Python values: the numbers eager PyNative gives, call after call.
import mindspore as ms
import numpy as np
from mindspore import Tensor, nn, ops


class MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(6, 8)
        self.bn = nn.BatchNorm1d(8)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(8, 3)

    def construct(self, x):
        return self.fc2(self.relu(self.bn(self.fc1(x))))


def fill(net, seed):
    rng = np.random.default_rng(seed)
    for _, p in net.parameters_and_names():
        if "moving" not in p.name and "gamma" not in p.name:
            p.set_data(Tensor(rng.uniform(-0.5, 0.5, p.shape).astype(np.float32)))


net = MLP()
fill(net, 1)
net.set_train(True)
loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)


def forward(x, y):
    return loss_fn(net(x), y)


grad_fn = ms.value_and_grad(forward, None, opt.parameters)


@ms.jit
def train_step(x, y):
    loss, grads = grad_fn(x, y)
    opt(grads)
    return loss


rng = np.random.default_rng(7)
for step in range(4):
    x = Tensor(rng.uniform(-1, 1, (5, 6)).astype(np.float32))
    y = Tensor(rng.integers(0, 3, 5).astype(np.int32))
    print("step", step, "loss", train_step(x, y))
for name in ("fc1.weight", "fc2.bias", "bn.moving_mean", "bn.moving_variance"):
    p = dict(net.parameters_and_names())[name]
    print(name, p.asnumpy().sum().round(5), p.asnumpy().ravel()[:3])


class Scaled(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(3, 2)

    @ms.jit
    def construct(self, x):
        return ops.tanh(self.fc(x)) * 2 + 1


cell = Scaled()
fill(cell, 2)
for k in range(3):
    print("construct", cell(Tensor(np.full((2, 3), 0.1 * k, np.float32))))


@ms.jit
def stats(x):
    m = ops.reduce_mean(x)
    return m, (x * x).sum(), x.shape, "done"


for k in range(2):
    print("stats", stats(Tensor(np.arange(6, dtype=np.float32).reshape(2, 3) * (k + 1))))
