# A Cell.bprop gradient whose shape the input broadcasts to is summed back (MindSpore 2.10);
# one the input does not broadcast to is a RuntimeError.
import numpy as np
import mindspore as ms
from mindspore import nn, Tensor


class Net(nn.Cell):
    def __init__(self, shape):
        super().__init__()
        self.shape = shape

    def construct(self, x):
        return x * 2

    def bprop(self, x, out, dout):
        return (Tensor(np.arange(np.prod(self.shape), dtype=np.float32).reshape(self.shape) + 1),)


for xs, gs in [((3,), (2, 3)), ((2, 3), (2, 2, 3)), ((), (3,)), ((4,), (3, 2, 4))]:
    g = ms.grad(Net(gs))(Tensor(np.ones(xs, np.float32)))
    print(xs, gs, g.shape, g.dtype, g.asnumpy().tolist())
for xs, gs in [((2, 3), (3,)), ((2, 3), (1, 3)), ((2, 3), (4,)), ((3,), ())]:
    try:
        ms.grad(Net(gs))(Tensor(np.ones(xs, np.float32)))
        print(xs, gs, "no error")
    except Exception as e:
        print(xs, gs, type(e).__name__)
