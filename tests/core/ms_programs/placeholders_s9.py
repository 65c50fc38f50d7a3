import copy

import mindspore as ms
import numpy as np
from mindspore import Symbol, Tensor, nn

ms.set_context(mode=ms.PYNATIVE_MODE)


def attempt(what, f):
    try:
        print(what, f())
    except Exception as e:  # noqa: BLE001
        print(what, type(e).__name__, str(e).splitlines()[0])


s1 = Symbol(divisor=8, remainder=1)
s2 = Symbol(max=32, unique=True)
for kw in [dict(shape=None, dtype=ms.float32), dict(shape=[None, 3], dtype=ms.float32),
           dict(shape=[None], dtype=ms.int64), dict(shape=(2, None, 4), dtype=ms.bool_),
           dict(shape=[-1, 3], dtype=ms.int32), dict(shape=(None, s1, s2), dtype=ms.float16),
           dict(dtype=ms.float32)]:
    t = Tensor(**kw)
    print(repr(t))
    print(t.shape, t.dtype, t.ndim, t.size, t.nbytes, isinstance(t, Tensor))
    print(repr(copy.deepcopy(t)))
    attempt("asnumpy", t.asnumpy)
    attempt("str", lambda t=t: str(t))
    attempt("len", lambda t=t: len(t))

attempt("no data", lambda: Tensor())
attempt("shape only", lambda: Tensor(shape=[None, 3]))
attempt("init", lambda: Tensor(shape=[None, 3], dtype=ms.float32, init="ones"))

print(Symbol(max=8, min=1, divisor=8, remainder=1).to_dict())
print(Symbol(min=4, max=4).to_dict(), Symbol(min=8, max=8, divisor=3).to_dict(), Symbol().to_dict())
print(str(Symbol(max=16, divisor=4)))
print(sorted(Symbol(unique=True).to_dict()))
for kw in [dict(min=0), dict(min=-1), dict(divisor=0), dict(remainder=-1),
           dict(divisor=2, remainder=3), dict(max=1.5), dict(min="1"), dict(divisor=None),
           dict(remainder=0.0), dict(unique=1)]:
    attempt(sorted(kw.items()), lambda kw=kw: Symbol(**kw).to_dict())


class Net(nn.Cell):
    def construct(self, x, y):
        return x * y + 1


net = Net()
net.set_inputs(Tensor(shape=[None, s1], dtype=ms.float32), Tensor(shape=None, dtype=ms.float32))
print([repr(t) for t in net.get_inputs()])
print(net(Tensor(np.arange(18, dtype=np.float32).reshape(2, 9)), Tensor(np.float32(2.0))))
print(net(Tensor(np.ones((3, 4), np.float32)), Tensor(np.full((4,), 3, np.float32))))
# PyNative runs inputs of another rank or dtype than set_inputs declared
print(net(Tensor(np.ones((2, 3, 1), np.int32)), Tensor(np.ones((3,), np.float32))).shape)
