# A hook on a requested weight runs even when no gradient reaches it (used only off the
# output's path, or not at all): it sees zeros and what it returns is the gradient. Hooks on
# inputs without a gradient, and on weights not requested, do not run (MindSpore 2.10).
import mindspore as ms
import numpy as np
from mindspore import Parameter, Tensor, nn

calls = []


def hook(name):
    def fn(g):
        calls.append((name, g.asnumpy().tolist()))
    return fn


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        for n in ("w1", "w2", "w3"):
            setattr(self, n, Parameter(Tensor(np.array([1.0, 2.0, 3.0]), ms.float32), name=n))
            getattr(self, n).register_hook(hook(n))

    def construct(self, x):
        y = x * self.w1
        z = x * self.w2
        print("z", z.asnumpy().tolist())
        return y * self.w1


net = Net()
x = Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
g = ms.grad(net, grad_position=None, weights=net.trainable_params())(x)
print(calls, [t.asnumpy().tolist() for t in g])
calls.clear()
ms.grad(net, grad_position=0, weights=[net.w1])(x)
print(calls)
calls.clear()
ms.grad(net, grad_position=0)(x)
print(calls)
calls.clear()

a = Tensor(np.array([1.0, 2.0]), ms.float32)
b = Tensor(np.array([3.0, 4.0]), ms.float32)
a.register_hook(hook("a"))
b.register_hook(hook("b"))
print(ms.grad(lambda u, v: (u * 2).sum(), grad_position=(0, 1))(a, b), calls)
calls.clear()


def plus_one(g):
    calls.append(("w", g.asnumpy().tolist()))
    return g + 1


w = Parameter(Tensor(np.array([1.0, 2.0]), ms.float32), name="w")
w.register_hook(plus_one)
print(ms.grad(lambda u: (u * 2).sum(), grad_position=None, weights=[w])(a), calls)

frozen = Parameter(Tensor(np.array([2.0, 3.0]), ms.float32), requires_grad=False)
try:
    frozen.register_hook(plus_one)
except RuntimeError as e:
    print("RuntimeError", str(e).splitlines()[0])
w.requires_grad = False  # after registering: allowed
print(ms.grad(lambda u: (u * w).sum(), grad_position=None, weights=[w])(a))
