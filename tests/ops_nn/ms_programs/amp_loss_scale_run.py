# A loss-scaled float16 training run with overflows: the steps MindSpore skips, the scale it
# keeps, the weights after each step (amp.DynamicLossScaler + all_finite, the MindSpore 2.x
# functional style). MindSpore's CPU build cannot run nn.TrainOneStepWithLossScaleCell
# (RuntimeError: Unsupported op [NPUGetFloatStatusV2] on CPU); cellgrad runs it.
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor, amp

rng = np.random.RandomState(1)
W1 = rng.uniform(-0.5, 0.5, (8, 4)).astype(np.float32)
W2 = rng.uniform(-0.5, 0.5, (3, 8)).astype(np.float32)
X = Tensor(rng.uniform(-1, 1, (16, 4)).astype(np.float32))
Y = Tensor(rng.randint(0, 3, 16).astype(np.int32))


def make(level):
    net = nn.SequentialCell([nn.Dense(4, 8, weight_init=Tensor(W1), bias_init='zeros'), nn.ReLU(),
                             nn.Dense(8, 3, weight_init=Tensor(W2), bias_init='zeros')])
    return net, amp.auto_mixed_precision(net, level)


def r(t):
    return np.round(t.asnumpy().astype(np.float64), 3)


for level in ["O2", "O3"]:
    print("==", level)
    net, amp_net = make(level)
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.SGD(net.trainable_params(), 0.5)
    scaler = amp.DynamicLossScaler(scale_value=2 ** 20, scale_factor=2, scale_window=2)

    def forward(x, y):
        loss = loss_fn(amp_net(x), y)
        return scaler.scale(loss), loss

    grad_fn = ms.value_and_grad(forward, None, opt.parameters, has_aux=True)
    for step in range(10):
        (scaled, loss), grads = grad_fn(X, Y)
        grads = scaler.unscale(grads)
        finite = amp.all_finite(grads)
        if finite:
            opt(grads)
        scaler.adjust(finite)
        print(step, r(loss), scaled.dtype, grads[0].dtype, finite, scaler.scale_value.asnumpy(),
              scaler.counter.asnumpy(), r(net[0].weight.abs().sum()), r(net[2].weight.abs().sum()))
