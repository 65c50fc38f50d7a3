# nn.Jvp / nn.Vjp (deprecated cells) on one and two inputs.
import numpy as np, mindspore as ms
from mindspore import nn, Tensor
def f(x, y):
    return x ** 3 + y
def g(x):
    return x ** 3
x = Tensor(np.array([1., 2.], np.float32)); y = Tensor(np.array([3., 4.], np.float32)); v = Tensor(np.array([1., 1.], np.float32))
print(nn.Vjp(f)(x, y, v))
print(nn.Vjp(g)(x, v))
print(nn.Jvp(f)(x, y, (v, v)))
print(nn.Jvp(g)(x, v))
