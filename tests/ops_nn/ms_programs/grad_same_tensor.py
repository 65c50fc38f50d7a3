import numpy as np
import mindspore as ms
from mindspore import Tensor, nn

a = Tensor(np.array([1.0, 2.0], np.float32))
b = Tensor(np.array([0.5, -1.0], np.float32))
f = lambda x, y: (x * y * 3 + x).sum()
# one Tensor at two positions is one variable: its gradient is the total derivative
print(ms.grad(f, 0)(a, a), ms.grad(f, (0, 1))(a, a))
print(ms.grad(f, 0)(a, a.copy()), ms.grad(f, (0, 1))(a, b))
print(ms.grad(f, 1)(a, a), ms.value_and_grad(f, (0, 1))(b, b))
g = lambda x, y, z: (x * y * z).sum()
print(ms.grad(g, (0, 2))(a, b, a), ms.grad(g, 1)(a, b, b))
net = nn.Dense(2, 2, weight_init="ones", bias_init="zeros")
h = lambda x, y: (net(x) * y).sum()
print(ms.grad(h, 0, net.trainable_params())(a.reshape(1, 2), a.reshape(1, 2)))
