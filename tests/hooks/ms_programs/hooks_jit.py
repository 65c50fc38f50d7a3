# Cell hooks fire the same called from an @ms.jit function and inside a cell whose construct is
# @ms.jit (semantics §16). (HookBackward, which MindSpore skips under jit, is not exercised.)
import numpy as np
import mindspore as ms
from mindspore import nn, Tensor

x = Tensor(np.array([1., 2.], np.float32))


class Dbl(nn.Cell):
    def construct(self, a):
        return a * 3


def forward_hook(cell, args, out):
    return out * 2


def backward_hook(cell, grad_input, grad_output):
    return (grad_input[0] * 10,)


def hooked():
    c = Dbl()
    c.register_forward_hook(forward_hook)
    c.register_backward_hook(backward_hook)
    return c


c = hooked()


@ms.jit
def run(a):
    return c(a)


print(c(x), run(x))
print(ms.grad(lambda a: c(a).sum())(x))
print(ms.grad(lambda a: run(a).sum())(x))


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = hooked()

    @ms.jit
    def construct(self, a):
        return self.inner(a) + 1


o = Outer()
print(o(x))
print(ms.grad(lambda a: o(a).sum())(x))
