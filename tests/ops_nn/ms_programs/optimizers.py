import numpy as np
import mindspore as ms
from mindspore import nn, Tensor, Parameter


def params():
    return [Parameter(Tensor(np.array([1.0, -2.0, 0.5], np.float32)), name="w"),
            Parameter(Tensor(np.array([[0.5, -0.25]], np.float32)), name="b")]


grads = (Tensor(np.array([0.1, 0.2, -0.4], np.float32)), Tensor(np.array([[-0.3, 0.05]], np.float32)))
makers = [
    ("SGD", lambda p: nn.SGD(p, 0.1)),
    ("SGD momentum nesterov wd", lambda p: nn.SGD(p, 0.1, momentum=0.9, nesterov=True, weight_decay=0.01)),
    ("SGD dampening", lambda p: nn.SGD(p, 0.05, momentum=0.8, dampening=0.3)),
    ("Momentum", lambda p: nn.Momentum(p, 0.1, 0.9)),
    ("Momentum wd", lambda p: nn.Momentum(p, 0.1, 0.9, weight_decay=0.01)),
    ("Adam", lambda p: nn.Adam(p, 0.01)),
    ("Adam wd", lambda p: nn.Adam(p, 0.01, weight_decay=0.01)),
    ("AdamWeightDecay", lambda p: nn.AdamWeightDecay(p, 0.01, weight_decay=0.01)),
    ("RMSProp", lambda p: nn.RMSProp(p, 0.01)),
    ("RMSProp centered momentum", lambda p: nn.RMSProp(p, 0.01, momentum=0.5, centered=True)),
    ("Adagrad", lambda p: nn.Adagrad(p, learning_rate=0.1)),
    ("SGD loss_scale", lambda p: nn.SGD(p, 0.1, loss_scale=4.0)),
    ("Momentum lr list", lambda p: nn.Momentum(p, [0.1, 0.05, 0.01], 0.9)),
    ("Momentum schedule", lambda p: nn.Momentum(p, nn.ExponentialDecayLR(0.1, 0.5, 1), 0.9)),
]
for name, make in makers:
    ps = params()
    opt = make(ps)
    print(name, [q.name for q in opt.get_parameters()])
    for step in range(3):
        opt(grads)
        print(" step", step + 1, [np.round(q.asnumpy(), 5).tolist() for q in ps], opt.global_step.asnumpy())

w1 = Parameter(Tensor(np.array([1.0], np.float32)), name="w1")
w2 = Parameter(Tensor(np.array([2.0], np.float32)), name="w2")
opt = nn.Momentum([{"params": [w1], "lr": 0.5, "weight_decay": 0.1}, {"params": [w2]}, {"order_params": [w2, w1]}], 0.1, 0.9)
print("groups", [q.name for q in opt.parameters])
opt((Tensor(np.array([1.0], np.float32)), Tensor(np.array([1.0], np.float32))))
print("groups", w1.asnumpy(), w2.asnumpy())
