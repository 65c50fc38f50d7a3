# nn.AdaFactor (default, beta1=0 + weight decay, fixed lr, warmup) and nn.AdamOffload: three
# steps of a small regression; states' names.
import numpy as np
import mindspore as ms
from mindspore import nn, Tensor, ops
np.set_printoptions(precision=6)
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(Tensor(np.random.RandomState(0).randn(3, 4).astype(np.float32)), name='w')
        self.b = ms.Parameter(Tensor(np.random.RandomState(1).randn(4).astype(np.float32)), name='b')
    def construct(self, x):
        return ((ops.matmul(x, self.w) + self.b) ** 2).mean()
x = Tensor(np.random.RandomState(2).randn(5, 3).astype(np.float32))
for kw in [dict(), dict(beta1=0.0, weight_decay=0.1), dict(learning_rate=0.05, relative_step=False, scale_parameter=False), dict(warmup_init=True), dict(clip_threshold=0.1, decay_rate=0.5)]:
    net = Net(); opt = nn.AdaFactor(net.trainable_params(), **kw)
    gf = ms.value_and_grad(net, None, opt.parameters)
    for _ in range(3):
        loss, g = gf(x); opt(g)
    print(sorted(kw.items()), loss, net.w.asnumpy()[0], net.b.asnumpy())
print(sorted(p.name for p in nn.AdaFactor(Net().trainable_params()).get_parameters()))
net = Net(); opt = nn.AdamOffload(net.trainable_params(), 0.01, weight_decay=0.01)
gf = ms.value_and_grad(net, None, opt.parameters)
for _ in range(3):
    loss, g = gf(x); opt(g)
print(loss, net.w.asnumpy()[0], sorted(p.name for p in opt.get_parameters()))
