# A hook registered on a Tensor outside any gradient transform runs when the Tensor is an input
# being differentiated, and only then.
import numpy as np
import mindspore as ms
from mindspore import Tensor

x = Tensor(np.array([1., 2.], np.float32))
h = x.register_hook(lambda g: g * 2)
print(ms.grad(lambda a: (a * 3).sum())(x))
h.remove()
print(ms.grad(lambda a: (a * 3).sum())(x))
h.remove()
y = Tensor(np.array([1., 2.], np.float32))
y.register_hook(lambda g: print("y hook", g))
print(ms.grad(lambda a, b: (a * b).sum(), 1)(x, y))
print(ms.grad(lambda a, b: (a * b).sum(), 0)(x, y))
print(y * 2)
