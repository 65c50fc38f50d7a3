"""mint.optim: MindSpore 2.10's mint optimizers are its experimental.optim ones."""

import numpy as np

import cellgrad as ms
from cellgrad import mint, nn
from cellgrad.experimental import optim


def _step(cls, **kw):
    ms.set_seed(0)
    net = nn.Dense(3, 2)
    opt = cls(net.trainable_params(), **kw)
    x = ms.Tensor(np.arange(12, dtype=np.float32).reshape(4, 3) / 10)
    for _ in range(3):
        opt(ms.grad(lambda a: (net(a) ** 2).sum(), None, opt.parameters)(x))
    return net.weight.asnumpy()


def test_mint_optimizers_step_as_the_experimental_ones():
    assert mint.optim.Adam is optim.Adam and mint.optim.AdamW is optim.AdamW
    np.testing.assert_array_equal(_step(mint.optim.FusedAdamW, lr=0.01),
                                  _step(optim.AdamW, lr=0.01))
    np.testing.assert_array_equal(_step(mint.optim.SGD, lr=0.1, momentum=0.9),
                                  _step(optim.SGD, lr=0.1, momentum=0.9))
    assert not np.array_equal(_step(mint.optim.SGD, lr=0.1), _step(mint.optim.SGD, lr=0.2))
