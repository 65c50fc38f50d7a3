import numpy as np
import mindspore as ms
from mindspore import Parameter, Tensor, nn

np.set_printoptions(precision=6)
W0 = np.array([[0.5, -1.2, 0.3], [2.0, -0.7, 0.05]], np.float32)
B0 = np.array([0.1, -0.4], np.float32)
GRADS = [(np.array([[0.3, -0.2, 0.9], [-1.5, 0.4, 0.0]], np.float32), np.array([0.7, -0.1], np.float32)),
         (np.array([[-0.6, 0.1, 0.2], [0.8, -0.3, 0.5]], np.float32), np.array([0.2, 0.3], np.float32)),
         (np.array([[0.05, 0.4, -0.9], [0.1, 0.6, -0.2]], np.float32), np.array([-0.4, 0.0], np.float32))]


def run(label, make):
    w = Parameter(Tensor(W0.copy()), name="w")
    b = Parameter(Tensor(B0.copy()), name="b")
    opt = make([w, b])
    names = [p.name for p in opt.get_parameters()]
    print(label, names)
    try:
        for gw, gb in GRADS:
            opt((Tensor(gw), Tensor(gb)))
            print(w.asnumpy(), b.asnumpy())
    except RuntimeError as e:
        print("RuntimeError", str(e).strip().splitlines()[3][:60])


#run("Lamb", lambda p: nn.Lamb(p, 0.1))
#run("Lamb wd", lambda p: nn.Lamb(p, 0.1, 0.8, 0.9, 1e-4, 0.01))
run("AdaMax", lambda p: nn.AdaMax(p, 0.1))
run("AdaMax wd", lambda p: nn.AdaMax(p, 0.05, 0.8, 0.9, 1e-6, 0.1))
run("Adadelta", lambda p: nn.Adadelta(p))
run("Adadelta wd", lambda p: nn.Adadelta(p, 0.5, 0.8, 1e-4, 1.0, 0.1))
run("FTRL", lambda p: nn.FTRL(p))
run("FTRL l2", lambda p: nn.FTRL(p, 0.2, 0.5, -0.5, 0.0, 0.02))
run("FTRL power", lambda p: nn.FTRL(p, 0.3, 0.2, -0.7, 0.0, 0.0))
run("ProximalAdagrad", lambda p: nn.ProximalAdagrad(p))
run("ProximalAdagrad l1l2", lambda p: nn.ProximalAdagrad(p, 0.2, 0.5, 0.05, 0.02))
run("ASGD", lambda p: nn.ASGD(p))
run("ASGD t0", lambda p: nn.ASGD(p, 0.2, 0.01, 0.5, 1.0, 0.1))
run("Rprop", lambda p: nn.Rprop(p))
run("Rprop custom", lambda p: nn.Rprop(p, 0.3, (0.4, 1.5), (0.01, 0.5), 0.1))
#run("LARS", lambda p: nn.LARS(nn.Momentum(p, 0.1, 0.9)))
#run("LARS clip", lambda p: nn.LARS(nn.Momentum(p, 0.1, 0.9, weight_decay=0.01), 1e-5, 0.01, True))
run("LazyAdam", lambda p: nn.LazyAdam(p, 0.1))
