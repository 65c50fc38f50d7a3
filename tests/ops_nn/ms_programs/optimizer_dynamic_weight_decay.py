# weight_decay given as a Cell (a schedule called with global_step each step), for the whole
# optimizer or one parameter group: the flags MindSpore 2.10 sets, get_weight_decay, and the
# parameters after a few steps of Momentum and AdamWeightDecay.
import numpy as np
import mindspore as ms
from mindspore import Tensor, nn


class Schedule(nn.Cell):
    def __init__(self):
        super().__init__()
        self.values = Tensor([0.5, 0.01, 0.2], ms.float32)

    def construct(self, global_step):
        return self.values[global_step]


def make_net():
    w = Tensor(np.linspace(-1, 1, 6).reshape(2, 3).astype(np.float32))
    return nn.Dense(3, 2, weight_init=w, bias_init=Tensor(np.array([0.5, -0.5], np.float32)))


def run(name, make_opt):
    net = make_net()
    opt = make_opt(net)
    print(name, opt.dynamic_weight_decay, opt.decay_flags, opt.dynamic_decay_flags)
    print("  cells", [n for n, _ in opt.cells_and_names()])
    grads = tuple(Tensor(np.full(p.shape, 0.25, np.float32)) for p in net.trainable_params())
    for _ in range(3):
        wd = opt.get_weight_decay()
        wd = wd if isinstance(wd, tuple) else (wd,)
        print("  wd", [np.round(w.asnumpy(), 6).tolist() for w in wd])
        opt(grads)
        print("  w", np.round(net.weight.asnumpy(), 5).tolist(),
              np.round(net.bias.asnumpy(), 5).tolist())


run("momentum", lambda n: nn.Momentum(n.trainable_params(), 0.1, 0.9, weight_decay=Schedule()))
run("momentum loss_scale", lambda n: nn.Momentum(n.trainable_params(), 0.1, 0.9,
                                                 weight_decay=Schedule(), loss_scale=2.0))
run("adamw", lambda n: nn.AdamWeightDecay(n.trainable_params(), 0.1, weight_decay=Schedule()))
run("momentum group", lambda n: nn.Momentum(
    [{"params": [n.weight], "weight_decay": Schedule()}, {"params": [n.bias]}], 0.1, 0.9,
    weight_decay=0.05))
run("adamw group", lambda n: nn.AdamWeightDecay(
    [{"params": [n.weight], "weight_decay": 0.0}, {"params": [n.bias], "weight_decay": Schedule()}],
    0.1))
try:
    nn.Momentum(make_net().trainable_params(), 0.1, 0.9, weight_decay="0.1")
except TypeError as e:
    print("TypeError", e)
