# amp.auto_mixed_precision O0-O3: the dtype at every cell boundary, values within float16
# rounding (printed to 2 decimals), the wrappers O2/O3 add, the white-listed primitives of O1.
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor, amp

rng = np.random.RandomState(0)


def w(*shape):
    return Tensor(rng.uniform(-1, 1, shape).astype(np.float32))


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 2, 3, pad_mode='valid', weight_init=w(2, 1, 3, 3), bias_init='zeros')
        self.bn = nn.BatchNorm2d(2)
        self.relu = nn.ReLU()
        self.flat = nn.Flatten()
        self.fc = nn.Dense(8, 3, weight_init=w(3, 8), bias_init=w(3))
        self.ln = nn.LayerNorm((3,))
        self.sm = nn.Softmax()

    def construct(self, x):
        x = self.conv(x)
        x = self.bn(x)
        x = self.relu(x)
        x = self.flat(x)
        x = self.fc(x)
        x = self.ln(x)
        return self.sm(x)


def show(v):
    return np.round(v.asnumpy().astype(np.float64).ravel()[:4], 2)


def hook(cell, inputs, outputs):
    print(type(cell).__name__.replace("Opt", ""), outputs.dtype, show(outputs))


def top_hook(cell, inputs, outputs):
    print("top", [str(i.dtype) for i in inputs], outputs.dtype)


x = Tensor(np.linspace(-1, 1, 32).reshape(2, 1, 4, 4).astype(np.float32))
for level in ["O0", "O1", "O2", "O3"]:
    print("==", level)
    net = Net()
    out_net = amp.auto_mixed_precision(net, level)
    if level != "O1":  # MindSpore's O1 rewrites the classes (NetOpt, DenseOpt, ...)
        print(type(out_net).__name__, out_net is net)
        print([(n, type(c).__name__) for n, c in net.cells_and_names()])
    print(getattr(out_net, "_amp_level", None) or None)
    print([p.name for p in out_net.trainable_params()], [str(p.dtype) for p in net.get_parameters()])
    for _, c in out_net.cells_and_names():
        c.register_forward_hook(hook)
    out_net.register_forward_hook(top_hook)
    out = out_net(x)
    print(out.dtype, np.round(out.asnumpy().astype(np.float64), 2))


class Blk(nn.Cell):
    def __init__(self):
        super().__init__()
        self.relu = ops.ReLU()
        self.mm = ops.MatMul()
        self.w = ms.Parameter(Tensor(np.full((3, 3), 0.1, np.float32)), name="w")

    def construct(self, x):
        y = self.mm(x, self.w)
        z = self.relu(y)
        print("blk", y.dtype, z.dtype)
        return z * 2 + ops.exp(y)


class Net2(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(3, 3, weight_init='ones', bias_init='zeros')
        self.blk = Blk()
        self.fc2 = nn.Dense(3, 3, weight_init='ones', bias_init='zeros').to_float(ms.float16)
        self.act = nn.ReLU()

    def construct(self, x):
        a = self.fc(x)
        print("a", a.dtype)
        b = self.blk(a)
        c = self.fc2(b)
        print("c", c.dtype)
        d = self.act(c)
        return d, a + 1


x = Tensor(np.array([[0.1, 0.2, 0.3333]], np.float32))
for level in ["O1", "O2", "O3"]:
    print("==", level)
    d, e = amp.auto_mixed_precision(Net2(), level)(x)
    print(d.dtype, e.dtype, np.round(d.asnumpy().astype(np.float64), 2), e.asnumpy())
