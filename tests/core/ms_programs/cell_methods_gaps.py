import mindspore as ms
import numpy as np
from mindspore import Parameter, Tensor, nn

ms.set_context(mode=ms.PYNATIVE_MODE)


class Inner(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([1.0, -2.0, 0.5], np.float32)), name="w")

    def construct(self, x):
        return x * self.w


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = Inner()
        self.seq = nn.SequentialCell([Inner()])

    def construct(self, x):
        return self.seq(self.inner(x))


net = Outer()
print(net.phase, net.inner.phase, net.seq.phase, net.training, net.inner.training)
net.set_train(False)
print(net.phase, net.inner.phase, net.seq.phase, net.training, net.inner.training)
net.inner.set_train(True)
print(net.phase, net.inner.phase, net.seq.phase, net.training, net.inner.training)
net.set_train(True)
net.inner.set_train(False)
print(net.phase, net.inner.phase, net.seq.phase, net.training, net.inner.training)

p = Parameter(Tensor(np.arange(6).reshape(2, 3).astype(np.float32)), name="p")
print(p.data)
print(str(p.data))
print(repr(p.data))
print(type(p.data).__name__, isinstance(p.data, Parameter), p.data is p)
d = p.data
d[0, 0] = 7.0
print(p.asnumpy()[0, 0])
p.data = Tensor(np.ones(4, np.float16))
print(p, p.asnumpy())
q = Parameter(Tensor(np.array([1.5, -2.0], np.float32)), name="q")
print(q.data, q.data.shape, q.data.dtype)


def f(x, y):
    return (x * y * q).sum()


a = Tensor(np.array([2.0, 3.0], np.float32))
b = Tensor(np.array([-1.0, 4.0], np.float32))
for gp, w in [(0, None), (True, None), ((1, 0), None), (None, [q]), (0, a), (0, [a, q]),
              (None, q), (None, ())]:
    print(gp, ms.grad(f, gp, w)(a, b))
for gp in ["0", 1.5, [0], [], (0, "a"), -1, (0, -1), (1, 1), None]:
    try:
        ms.grad(f, gp)
        print("made", gp)
    except (TypeError, ValueError) as e:
        print(gp, type(e).__name__, str(e).splitlines()[0])
for gp, w in [((), None), (5, None), (None, "x"), (0, {"q": 1})]:
    try:
        ms.grad(f, gp, w)(a, b)
    except (TypeError, ValueError, RuntimeError) as e:
        print(gp, isinstance(e, TypeError), isinstance(e, RuntimeError), str(e).splitlines()[0])
try:
    ms.value_and_grad(f, [0])(a, b)
except TypeError as e:
    print("value_and_grad", type(e).__name__, e)
