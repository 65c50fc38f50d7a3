# ops.InsertGradientOf, the seeds' examples with 2.10's conventions: clipping the gradients of
# 1.1 and 0.1, a member function, a member function reading an attribute set in construct, a
# constant gradient, and a Cell bprop taking precedence.
import numpy as np
import mindspore as ms
import mindspore.nn as nn
from mindspore import Tensor, ops, jit

a = Tensor(np.array([1.0]).astype(np.float32))
b = Tensor(np.array([0.2]).astype(np.float32))


def clip_gradient(dx):
    ret = dx
    if ret > a:
        ret = a

    if ret < b:
        ret = b

    return ret


clip = ops.InsertGradientOf(clip_gradient)
grad_all = ops.GradOperation(get_all=True)


def InsertGradientOfClipDemo():
    def clip_test(x, y):
        x = clip(x)
        y = clip(y)
        c = x * y
        return c

    @jit
    def f(x, y):
        return clip_test(x, y)

    def fd(x, y):
        return grad_all(clip_test)(x, y)

    print("forward: ", f(Tensor(np.array([1.1]).astype(np.float32)),
                         Tensor(np.array([0.1]).astype(np.float32))))
    print("clip_gradient:", fd(Tensor(np.array([1.1]).astype(np.float32)),
                               Tensor(np.array([0.1]).astype(np.float32))))


InsertGradientOfClipDemo()


class ClipNet(nn.Cell):
    """The hook is a member function."""

    def __init__(self):
        super(ClipNet, self).__init__()
        self.clip = ops.InsertGradientOf(self.clip_gradient)
        self.upper = Tensor(np.array([1.0], np.float32))
        self.lower = Tensor(np.array([0.2], np.float32))

    def clip_gradient(self, dx):
        return ops.clip_by_value(dx, self.lower, self.upper)

    def construct(self, x, y):
        return self.clip(x) * self.clip(y)


x = Tensor(np.array([1.1], np.float32))
y = Tensor(np.array([0.1], np.float32))
print("member:", grad_all(ClipNet())(x, y))


class ScaleNet(nn.Cell):
    """The member function reads an attribute that construct sets."""

    def __init__(self):
        super(ScaleNet, self).__init__()
        self.scale = ops.InsertGradientOf(self.scale_gradient)
        self.factor = Tensor(np.array([1.0], np.float32))

    def scale_gradient(self, dx):
        return dx * self.factor

    def construct(self, x):
        self.factor = Tensor(np.array([0.1], np.float32))
        return self.scale(x) * 1


print("attribute:", grad_all(ScaleNet())(Tensor(np.array([3.0], np.float32))))


def constant_gradient(dx):
    return 100.


const = ops.InsertGradientOf(constant_gradient)


def const_test(x):
    return const(x) * 3


print("constant:", grad_all(const_test)(Tensor(2.0, ms.float32)))


class BpropNet(nn.Cell):
    """A bprop on the enclosing cell wins over InsertGradientOf inside it."""

    def __init__(self):
        super(BpropNet, self).__init__()
        self.double = ops.InsertGradientOf(self.double_gradient)

    def double_gradient(self, dx):
        print("double_gradient called")
        return dx * 2

    def construct(self, x):
        return self.double(x) * 3

    def bprop(self, x, out, dout):
        return (Tensor(np.array([100.0], np.float32)),)


print("bprop:", grad_all(BpropNet())(Tensor(np.array([2.0], np.float32))))


def spy(dx):
    print("spy saw", dx)
    return dx * 2


sp = ops.InsertGradientOf(spy)
v = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
print(ms.grad(lambda t: (sp(t) * 3).sum())(v))
print(ms.grad(lambda t: sp(t).sum() + (sp(t) * 5).sum())(v))
print(sp(v), sp(1.5))
