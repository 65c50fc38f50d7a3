# Several steps of every mindspore.experimental.optim optimizer on a small network: weight
# decay, maximize, amsgrad, momentum/nesterov and two parameter groups with different lrs.
import mindspore as ms
import numpy as np
from mindspore import Tensor, nn
from mindspore.experimental import optim

x = Tensor(np.linspace(-1.0, 1.0, 12, dtype=np.float32).reshape(4, 3))
y = Tensor(np.array([[0.5, -0.2], [0.1, 0.3], [-0.4, 0.2], [0.3, 0.1]], np.float32))


def make_net():
    net = nn.Dense(3, 2)
    net.weight.set_data(Tensor(np.array([[0.3, -0.2, 0.1], [0.05, 0.4, -0.3]], np.float32)))
    net.bias.set_data(Tensor(np.array([0.1, -0.1], np.float32)))
    return net


def run(name, build, steps=5):
    net = make_net()
    opt = build(net)
    loss_fn = nn.MSELoss()

    def forward(a, b):
        return loss_fn(net(a), b)

    grad_fn = ms.value_and_grad(forward, None, opt.parameters)
    for _ in range(steps):
        loss, grads = grad_fn(x, y)
        opt(grads)
    print(name, "loss", loss)
    print(net.weight.asnumpy())
    print(net.bias.asnumpy())


def groups(net, lr_w, lr_b):
    return [{"params": [net.weight], "lr": lr_w}, {"params": [net.bias], "lr": lr_b}]


run("Adam", lambda n: optim.Adam(n.trainable_params(), lr=0.1))
run("Adam wd", lambda n: optim.Adam(n.trainable_params(), lr=0.1, weight_decay=0.1))
run("Adam amsgrad", lambda n: optim.Adam(n.trainable_params(), lr=0.1, amsgrad=True))
run("Adam maximize", lambda n: optim.Adam(n.trainable_params(), lr=0.05, maximize=True))
run("Adam groups", lambda n: optim.Adam(groups(n, 0.1, 0.01), betas=(0.8, 0.9)))
run("AdamW", lambda n: optim.AdamW(n.trainable_params(), lr=0.1))
run("AdamW amsgrad", lambda n: optim.AdamW(n.trainable_params(), lr=0.1, weight_decay=0.2,
                                           amsgrad=True))
run("AdamW maximize", lambda n: optim.AdamW(n.trainable_params(), lr=0.05, maximize=True))
run("AdamW groups", lambda n: optim.AdamW(groups(n, 0.1, 0.02)))
run("SGD", lambda n: optim.SGD(n.trainable_params(), lr=0.1))
run("SGD momentum", lambda n: optim.SGD(n.trainable_params(), lr=0.1, momentum=0.9,
                                        dampening=0.1, weight_decay=0.05))
run("SGD nesterov", lambda n: optim.SGD(n.trainable_params(), lr=0.1, momentum=0.9,
                                        nesterov=True, maximize=True))
run("SGD groups", lambda n: optim.SGD(groups(n, 0.1, 0.3), lr=0.2, momentum=0.5))
run("Adadelta", lambda n: optim.Adadelta(n.trainable_params(), weight_decay=0.1))
run("Adadelta maximize", lambda n: optim.Adadelta(n.trainable_params(), lr=0.5, rho=0.8,
                                                  maximize=True))
run("Adagrad", lambda n: optim.Adagrad(n.trainable_params(), lr=0.1, lr_decay=0.1,
                                       weight_decay=0.1, initial_accumulator_value=0.1))
run("Adagrad maximize", lambda n: optim.Adagrad(groups(n, 0.1, 0.2), maximize=True))
run("Adamax", lambda n: optim.Adamax(n.trainable_params(), lr=0.1, weight_decay=0.1))
run("Adamax maximize", lambda n: optim.Adamax(groups(n, 0.1, 0.02), maximize=True))
run("ASGD", lambda n: optim.ASGD(n.trainable_params(), lr=0.1, lambd=0.1, t0=2.0,
                                 weight_decay=0.1))
run("ASGD maximize", lambda n: optim.ASGD(groups(n, 0.1, 0.02), maximize=True))
run("NAdam", lambda n: optim.NAdam(n.trainable_params(), lr=0.1, weight_decay=0.1))
run("NAdam groups", lambda n: optim.NAdam(groups(n, 0.1, 0.02), momentum_decay=0.01))
run("RAdam", lambda n: optim.RAdam(n.trainable_params(), lr=0.1, weight_decay=0.1), steps=8)
run("RAdam groups", lambda n: optim.RAdam(groups(n, 0.1, 0.02), betas=(0.8, 0.9)), steps=8)
run("RMSprop", lambda n: optim.RMSprop(n.trainable_params(), lr=0.05, weight_decay=0.1))
run("RMSprop centered", lambda n: optim.RMSprop(n.trainable_params(), lr=0.05, momentum=0.9,
                                                centered=True, maximize=True))
run("Rprop", lambda n: optim.Rprop(n.trainable_params(), lr=0.05), steps=8)
run("Rprop maximize", lambda n: optim.Rprop(groups(n, 0.05, 0.1), etas=(0.4, 1.5),
                                            step_sizes=(0.01, 0.08), maximize=True), steps=8)
