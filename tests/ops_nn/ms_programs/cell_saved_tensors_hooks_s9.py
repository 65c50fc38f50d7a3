import mindspore as ms
import numpy as np
from mindspore import nn, ops


class M(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.array([[1.0, 0.5, -1.0], [2.0, 1.0, 0.0]],
                                                 np.float32)), name="w")

    def construct(self, v):
        return ops.tanh(ops.matmul(v, self.w)).sum()


m = M()
x = ms.Tensor(np.array([[1.0, -2.0]], np.float32))
print(ms.grad(m)(x))
print(ms.value_and_grad(m, None, m.trainable_params())(x))
m.register_saved_tensors_hooks(lambda t: (print("pack", t.shape), t * 2)[1],
                               lambda t: (print("unpack", t.shape), t)[1])
print(m(x))
print(ms.grad(m)(x))
print(ms.value_and_grad(m, None, m.trainable_params())(x))
m.register_saved_tensors_hooks(lambda t: t, lambda t: t + 1)
print(ms.grad(m)(x))
