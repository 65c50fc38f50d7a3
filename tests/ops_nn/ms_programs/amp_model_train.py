# Model(..., amp_level=...) and amp.build_train_network training a small BatchNorm network:
# the train network built, the loss and parameter dtypes, losses and weights per step (3
# decimals: float16 rounding). Left out on purpose: O2's default DynamicLossScaleManager (MindSpore's
# CPU build refuses it, cellgrad runs it) and O1 with BatchNorm (MindSpore's O1 rewrite runs
# BatchNorm on its moving statistics even in training: a loss of 1.092 where O0 gives 1.112).
import numpy as np
import mindspore as ms
from mindspore import nn, Tensor, amp

rng = np.random.RandomState(3)
W1 = rng.uniform(-0.5, 0.5, (8, 4)).astype(np.float32)
W2 = rng.uniform(-0.5, 0.5, (3, 8)).astype(np.float32)
X = Tensor(rng.uniform(-1, 1, (16, 4)).astype(np.float32))
Y = Tensor(rng.randint(0, 3, 16).astype(np.int32))


def make():
    return nn.SequentialCell([nn.Dense(4, 8, weight_init=Tensor(W1), bias_init='zeros'),
                              nn.BatchNorm1d(8), nn.ReLU(),
                              nn.Dense(8, 3, weight_init=Tensor(W2), bias_init='zeros')])


def r(t):
    return np.round(t.asnumpy().astype(np.float64), 3)


for level, kw in [("O0", {}), ("O2", {"loss_scale_manager": None}),
                  ("O2", {"loss_scale_manager": None, "keep_batchnorm_fp32": False}),
                  ("O3", {}), ("O3", {"loss_scale_manager": ms.FixedLossScaleManager(64.0, False)})]:
    print("==", level, sorted(kw))
    net = make()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9,
                      loss_scale=64.0 if "loss_scale_manager" in kw and kw["loss_scale_manager"] else 1.0)
    try:
        model = ms.train.Model(net, loss, opt, amp_level=level, **kw)
    except ValueError as e:
        print("ValueError", str(e).strip())
        continue
    step = model.train_network
    print(type(step).__name__, type(step.network).__name__, [type(c).__name__ for c in net.cells()])
    for i in range(4):
        out = step(X, Y)
        print(i, out.dtype, r(out), r(net[0].weight.abs().sum()), r(net[3].weight.abs().sum()),
              net[0].weight.dtype)
    pred = model.predict(X)
    print(pred.dtype, r(pred[:2]))

print("== build_train_network O3 with a Fixed manager")
net = make()
opt = nn.SGD(net.trainable_params(), 0.1, loss_scale=8.0)
step = amp.build_train_network(net, opt, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                               "O3", loss_scale_manager=ms.FixedLossScaleManager(8.0, False))
print(type(step).__name__, step.sens if hasattr(step, "sens") else None)
for i in range(3):
    print(i, r(step(X, Y)), r(net[0].weight.abs().sum()))
