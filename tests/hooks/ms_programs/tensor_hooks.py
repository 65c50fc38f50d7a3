# Tensor.register_hook and Parameter.register_hook: the hook sees the gradient, may replace it,
# and its handle removes it.
import numpy as np
import mindspore as ms
from mindspore import Parameter, Tensor

x = Tensor(np.array([1., 2.], np.float32))


def f(a):
    y = a * 2
    y.register_hook(lambda g: g * 100)
    return (y * 3).sum()


print(ms.grad(f)(x))


def hook_fn(grad):
    return grad * 2


def hook_test(x, y):
    z = x * y
    handle = z.register_hook(hook_fn)
    z = z * y
    handle.remove()
    return z


print(ms.grad(hook_test, grad_position=(0, 1))(Tensor(1, ms.float32), Tensor(2, ms.float32)))


def hook_test2(x, y):
    z = x * y
    z.register_hook(hook_fn)
    z = z * y
    return z


print(ms.grad(hook_test2, grad_position=(0, 1))(Tensor(1, ms.float32), Tensor(2, ms.float32)))


def show(g):
    print("hook saw", g)


def f2(a):
    z = a * 2
    z.register_hook(show)
    return (z * 3 + z * 4).sum()


print(ms.grad(f2)(x))


def f3(a):
    z = a * 2
    z.register_hook(lambda g: g * 2)
    z.register_hook(lambda g: g + 1)
    return (z * z).sum()


print(ms.grad(f3)(x))

p = Parameter(Tensor(np.array([1., 2.], np.float32)), name="p")
hp = p.register_hook(lambda g: g * 10)
print(ms.grad(lambda a: (a * p).sum(), None, [p])(x))
print(ms.grad(lambda a: (a * p).sum(), 0, [p])(x))
hp.remove()
hp.remove()
print(ms.grad(lambda a: (a * p).sum(), None, [p])(x))
try:
    x.register_hook(3)
except TypeError as e:
    print(e)
