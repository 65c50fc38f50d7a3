import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor


def fill(net, scale=0.05):
    for i, p in enumerate(net.get_parameters()):
        if p.requires_grad:
            values = np.sin(np.arange(p.size, dtype=np.float64) * 0.37 + i) * scale
            p.set_data(Tensor(values.reshape(p.shape).astype(np.float32)))


class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.dense_relu_sequential = nn.SequentialCell(
            nn.Dense(28 * 28, 512), nn.ReLU(), nn.Dense(512, 512), nn.ReLU(), nn.Dense(512, 10))

    def construct(self, x):
        return self.dense_relu_sequential(self.flatten(x))


net = Network()
print(net)
print([p.name for p in net.trainable_params()])
fill(net)
x = Tensor(np.cos(np.arange(2 * 28 * 28) * 0.01).reshape(2, 1, 28, 28).astype(np.float32))
logits = net(x)
print(logits.shape, logits.dtype)
print(np.round(logits.asnumpy(), 4))
loss_fn = nn.CrossEntropyLoss()
label = Tensor(np.array([3, 7], np.int32))
grad_fn = ms.value_and_grad(lambda a, b: loss_fn(net(a), b), None, net.trainable_params())
loss, grads = grad_fn(x, label)
print("loss", round(float(loss.asnumpy()), 5))
print([round(float(g.asnumpy().sum()), 5) for g in grads])


class ConvNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, has_bias=True)
        self.bn = nn.BatchNorm2d(4)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(4, 6, 2, pad_mode="valid")
        self.apool = nn.AdaptiveMaxPool2d((2, 2))

    def construct(self, x):
        return self.apool(self.conv2(self.pool(self.relu(self.bn(self.conv(x))))))


conv_net = ConvNet()
fill(conv_net, 0.3)
print([p.name for p in conv_net.get_parameters()])
img = Tensor(np.sin(np.arange(2 * 3 * 8 * 8) * 0.05).reshape(2, 3, 8, 8).astype(np.float32))
conv_net.set_train(False)
out32 = conv_net(img)
print(out32.shape, out32.dtype, np.round(out32.asnumpy()[0, :2], 3))
conv_net.to_float(ms.float16)
conv_net.bn.to_float(ms.float32)
out16 = conv_net(img)
print(out16.dtype, np.abs(out16.asnumpy().astype(np.float32) - out32.asnumpy()).max() < 0.02)

bn = nn.BatchNorm2d(2, momentum=0.8)
bn.set_train(True)
for k in range(3):
    bn(Tensor((np.arange(2 * 2 * 2 * 3).reshape(2, 2, 2, 3) * (k + 1) * 0.1).astype(np.float32)))
print("moving", np.round(bn.moving_mean.asnumpy(), 5), np.round(bn.moving_variance.asnumpy(), 5))
bn.set_train(False)
print("eval", np.round(bn(Tensor(np.ones((1, 2, 1, 2), np.float32))).asnumpy(), 5))

dense = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
dense.weight.requires_grad = False
xs = Tensor(np.array([[1.0, 2.0]], np.float32))
g = ms.grad(lambda a: dense(a).sum(), None, dense.trainable_params())(xs)
print("frozen", [p.name for p in dense.trainable_params()], g)
dense2 = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
g2 = ms.grad(lambda a: ops.stop_gradient(dense2(a)).sum() + dense2.bias.sum(), None, dense2.trainable_params())(xs)
print("stop_gradient", g2)

small = nn.SequentialCell([nn.Dense(3, 4), nn.Tanh(), nn.Dense(4, 2)])
fill(small, 0.5)
train = nn.TrainOneStepCell(nn.WithLossCell(small, nn.MSELoss()), nn.SGD(small.trainable_params(), 0.1))
data = Tensor(np.array([[0.5, -1.0, 2.0], [1.0, 0.0, -0.5]], np.float32))
target = Tensor(np.array([[1.0, 0.0], [0.0, 1.0]], np.float32))
print("train", [round(float(train(data, target).asnumpy()), 5) for _ in range(4)])
train2 = nn.TrainOneStepCell(nn.WithLossCell(small, nn.MSELoss()), nn.SGD(small.trainable_params(), 0.1), sens=2.0)
print("sens", round(float(train2(data, target).asnumpy()), 5), np.round(small[0].weight.asnumpy()[0], 5))
evalc = nn.WithEvalCell(small, nn.MSELoss())
l, o, t = evalc(data, target)
print("eval cell", round(float(l.asnumpy()), 5), o.shape, t.shape)

for cls, kw, a, b in [(nn.MSELoss, {}, data[:, :2], target), (nn.L1Loss, {}, data[:, :2], target),
                      (nn.SmoothL1Loss, {"beta": 0.5}, data[:, :2], target),
                      (nn.BCEWithLogitsLoss, {}, data[:, :2], target),
                      (nn.CrossEntropyLoss, {"label_smoothing": 0.1}, data, Tensor(np.array([2, 0], np.int32))),
                      (nn.SoftmaxCrossEntropyWithLogits, {"sparse": True}, data, Tensor(np.array([2, 0], np.int32)))]:
    for red in ("none", "sum", "mean"):
        print(cls.__name__, red, np.round(cls(reduction=red, **kw)(a, b).asnumpy(), 5))
