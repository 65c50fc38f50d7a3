# Cell hooks as MindSpore 2.10 runs them: order, grad_input/grad_output, return values
# (semantics §1-§3). Only core ops: no layer needed.
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

x = Tensor(np.array([1., 2.], np.float32))
y = Tensor(np.array([3., 4.], np.float32))
log = []


class Inner(nn.Cell):
    def construct(self, x, y):
        log.append("construct")
        return x * y, x + y


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = Inner()

    def construct(self, x, y):
        a, b = self.inner(x, y)
        return (a * 2 + b * 3).sum()


net = Outer()
net.inner.register_forward_pre_hook(lambda c, args: log.append(f"pre(nargs={len(args)})"))
net.inner.register_forward_pre_hook(lambda c, args: log.append("pre2"), prepend=True)
net.inner.register_forward_hook(lambda c, args, out: log.append(f"fwd(len={len(out)})"))
net.inner.register_backward_pre_hook(lambda c, go: log.append("bwd_pre"))
net.inner.register_backward_hook(lambda c, gi, go: log.append("bwd"))
net(x, y)
print(log)
log.clear()
print(ms.grad(net, grad_position=(0, 1))(x, y))
print(log)


def bwd(cell, gi, go):
    print("grad_input:", gi)
    print("grad_output:", go)


for ret in (None, lambda gi: tuple(g * 10 for g in gi), lambda gi: (gi[0] * 0, gi[1])):
    n = Outer()
    n.inner.register_backward_hook(bwd if ret is None else (lambda c, gi, go, r=ret: r(gi)))
    print(ms.grad(n, grad_position=(0, 1))(x, y))

for ret in (lambda gi: gi[0], lambda gi: (gi[0],), lambda gi: list(gi), lambda gi: gi + gi[:1]):
    n = Outer()
    n.inner.register_backward_hook(lambda c, gi, go, r=ret: r(gi))
    try:
        ms.grad(n, grad_position=(0, 1))(x, y)
    except TypeError as e:
        print("TypeError", "return value size is" in str(e), "expect grad input size 2" in str(e))

n = Outer()
n.inner.register_backward_pre_hook(lambda c, go: (go[0] * 0, go[1]))
print(ms.grad(n, grad_position=(0, 1))(x, y))
n = Outer()
n.inner.register_backward_pre_hook(lambda c, go: go[0])
try:
    ms.grad(n, grad_position=(0, 1))(x, y)
except TypeError as e:
    print("TypeError", "backward pre hook return value size is 1" in str(e))
n = Outer()
n.inner.register_backward_pre_hook(lambda c, go: (go[0] * 0, go[1] * 10))
n.inner.register_backward_hook(lambda c, gi, go: print("after pre hook go", go))
print(ms.grad(n, grad_position=(0, 1))(x, y))


class Dbl(nn.Cell):
    def construct(self, a):
        return a * 2


c = Dbl()
c.register_forward_hook(lambda cell, args, out: out * 3)
c.register_backward_hook(lambda cell, gi, go: print("gi", gi[0], "go", go[0]))
print(ms.grad(lambda a: c(a).sum())(x))
c2 = Dbl()
c2.register_forward_pre_hook(lambda cell, args: (args[0] * 5,))
c2.register_backward_hook(lambda cell, gi, go: print("gi", gi[0]))
print(ms.grad(lambda a: c2(a).sum())(x))
c3 = Dbl()
c3.register_backward_hook(lambda cell, gi, go: gi[0] * 10)
print(ms.grad(lambda a: c3(a).sum())(x))
c4 = Dbl()
c4.register_backward_pre_hook(lambda cell, go: go[0] * 10)
print(ms.grad(lambda a: c4(a).sum())(x))
c5 = Dbl()
c5.register_backward_hook(lambda cell, gi, go: print("forward only: never"))
print(c5(x))


class Two(nn.Cell):
    def construct(self, a, b=None):
        return a * 10 if b is None else a * 10 + b


t = Two()
t.register_forward_pre_hook(lambda cell, args: args[0] * 10)
print(t(x, y))
t2 = Two()
t2.register_forward_pre_hook(lambda cell, args: print("args seen", len(args)))
print(t2(x, b=y))
t3 = Two()
t3.register_forward_pre_hook(lambda cell, args, kwargs: ((args[0] * 2,), kwargs),
                             with_kwargs=True)
print(t3(x, b=y))
t4 = Two()
t4.register_forward_pre_hook(lambda cell, args, kwargs: (args[0],), with_kwargs=True)
try:
    t4(x, b=y)
except RuntimeError as e:
    print("RuntimeError", str(e).startswith("forward pre hook with kwargs must return None or a tuple"))
t5 = Two()
t5.register_forward_hook(lambda cell, args, kwargs, out: out + kwargs["b"], with_kwargs=True)
print(t5(x, b=y))


class K(nn.Cell):
    def construct(self, x, k, y=None, scale=1.0):
        return x * y * k * scale if y is not None else x * k


kk = K()
kk.register_backward_hook(lambda c, gi, go: print("K gi", len(gi)))
print(ms.grad(lambda a, b: kk(a, 2).sum() + b.sum(), (0, 1))(x, y))
print(ms.grad(lambda a, b: kk(a, 2, b, scale=2.0).sum(), (0, 1))(x, y))

m = Dbl()
m.register_backward_hook(lambda c, gi, go: print("twice gi", gi, "go", go))
print(ms.grad(lambda a: (m(a) * 2 + m(a * 5)).sum())(x))
m2 = Dbl()
m2.register_backward_hook(lambda c, gi, go: print("shared gi", gi))
print(ms.grad(lambda a: (m2(a) * 3 + (m2(a) + a) * 4).sum())(x))


class Mix(nn.Cell):
    def construct(self, a, b):
        return a * 2 + b * 7


p = Mix()
p.register_backward_hook(lambda c, gi, go: print("same tensor twice gi", gi))
print(ms.grad(lambda a: p(a, a).sum())(x))
q = Dbl()
q.register_backward_hook(lambda c, gi, go: print("inside only gi", gi))
print(ms.grad(lambda a: (q(a) + a * 5).sum())(x))


class Bad(nn.Cell):
    def construct(self, a):
        raise RuntimeError("construct failed")


bad = Bad()
bad.register_forward_hook(lambda c, a, o: print("always_call saw", o), always_call=True)
bad.register_forward_hook(lambda c, a, o: print("never"))
try:
    bad(x)
except RuntimeError as e:
    print("RuntimeError", e)
