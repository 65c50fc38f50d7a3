# ops.HookBackward: the seed example (hook sees (2,), gradients (4, 4)) and the return rules.
import numpy as np
import mindspore as ms
from mindspore import Tensor, ops
from mindspore.ops import GradOperation


def hook_fn(grad):
    print(grad)


hook = ops.HookBackward(hook_fn)


def hook_test(x, y):
    z = x * y
    z = hook(z)
    z = z * y
    return z


grad_all = GradOperation(get_all=True)


def backward(x, y):
    return grad_all(hook_test)(x, y)


output = backward(Tensor(1, ms.float32), Tensor(2, ms.float32))
print(output)

x = Tensor(np.array([1., 2.], np.float32))
y = Tensor(np.array([3., 4.], np.float32))


def run(fn):
    h = ops.HookBackward(fn)

    def f(a, b):
        z = h(a * b)
        return (z * b).sum()
    try:
        print(ms.grad(f, grad_position=(0, 1))(x, y))
    except (TypeError, ValueError) as e:
        print(type(e).__name__)


def hook_tensor(g):
    return g[0] * 2


def hook_tuple(g):
    return (g[0] * 2,)


def hook_same(g):
    return g


def hook_repeated(g):
    return g * 2


def hook_float(g):
    return 5.0


def hook_wrongshape(g):
    return Tensor(np.ones(3, np.float32))


def hook_int(g):
    return Tensor(np.ones(2, np.int32))


for fn in (hook_tensor, hook_tuple, hook_same, hook_repeated, hook_float, hook_wrongshape,
           hook_int):
    run(fn)

# two inputs: the hook gets both gradients and returns both
def two(g):
    print("two got", len(g))
    return (g[0] * 10, g[1] * 0)


h2 = ops.HookBackward(two)


def f2(a, b):
    p, q = h2(a, b)
    return (p * q).sum()


print(ms.grad(f2, grad_position=(0, 1))(x, y))


def one_for_two(g):
    return g[0]


h3 = ops.HookBackward(one_for_two)


def f3(a, b):
    p, q = h3(a, b)
    return (p * q).sum()


try:
    ms.grad(f3, grad_position=(0, 1))(x, y)
except TypeError as e:
    print("TypeError", "should be a tuple" in str(e))

# used twice: the hook runs once with the summed gradient
def show(g):
    print("summed", g[0])


h4 = ops.HookBackward(show)


def f4(a):
    z = h4(a * 2)
    return (z * 3 + z * 4).sum()


print(ms.grad(f4)(x))

# forward: identity; non-Tensor inputs are rejected
print(h4(x))
print(len(h2(x, y)))
try:
    h4(1.0)
except TypeError as e:
    print("TypeError", "must be Tensor, but got Float32" in str(e))
try:
    ops.HookBackward(3)
except TypeError as e:
    print(e)
