# Hooks on nested cells, several hooks in registration order and with prepend, removal
# (idempotent, between forward and backward, of another cell's hook during backward, of the
# hook itself), hooks that raise and the next call after them.
import numpy as np
import mindspore as ms
from mindspore import nn, Parameter, Tensor

x = Tensor(np.array([1., 2.], np.float32))
log = []


class Scale(nn.Cell):
    def __init__(self, name, k):
        super().__init__()
        self.w = Parameter(Tensor(np.full(2, k, np.float32)), name="w")
        self.tag = name

    def construct(self, a):
        log.append("construct " + self.tag)
        return a * self.w


class Pair(nn.Cell):
    def __init__(self):
        super().__init__()
        self.a = Scale("a", 2.0)
        self.b = Scale("b", 3.0)

    def construct(self, t):
        return self.b(self.a(t))


net = Pair()
for name, cell in (("outer", net), ("a", net.a), ("b", net.b)):
    cell.register_forward_pre_hook(lambda c, args, n=name: log.append("pre " + n))
    cell.register_forward_hook(lambda c, args, out, n=name: log.append("fwd " + n))
    cell.register_backward_pre_hook(lambda c, go, n=name: log.append(f"bwd_pre {n} {go[0]}"))
    cell.register_backward_hook(lambda c, gi, go, n=name: log.append(f"bwd {n} {gi[0]} {go[0]}"))
print(ms.grad(lambda t: net(t).sum())(x))
print("\n".join(log))
log.clear()
print(ms.grad(lambda t: net(t).sum(), 0, net.trainable_params())(x))
print("\n".join(log))
log.clear()

s = Scale("s", 1.0)
order = []
s.register_forward_hook(lambda c, args, out: order.append(1))
s.register_forward_hook(lambda c, args, out: order.append(2))
s.register_forward_hook(lambda c, args, out: order.append(0), prepend=True)
s.register_forward_pre_hook(lambda c, args: order.append("p1"))
s.register_forward_pre_hook(lambda c, args: order.append("p0"), prepend=True)
s.register_backward_hook(lambda c, gi, go: order.append("b1"))
s.register_backward_hook(lambda c, gi, go: order.append("b2"))
ms.grad(lambda t: s(t).sum())(x)
print(order)
s2 = Scale("s2", 1.0)
s2.register_forward_hook(lambda c, args, out: out * 2)
s2.register_forward_hook(lambda c, args, out: out + 1)
print(s2(x))
s3 = Scale("s3", 1.0)
s3.register_backward_hook(lambda c, gi, go: (gi[0] * 2,))
s3.register_backward_hook(lambda c, gi, go: (gi[0] + 1,))
print(ms.grad(lambda t: s3(t).sum())(x))

m = Scale("m", 3.0)
h = m.register_forward_hook(lambda c, args, out: out * 10)
print(m(x))
h.remove()
h.remove()
print(m(x))

m = Scale("m", 3.0)
hb = m.register_backward_hook(lambda c, gi, go: print("removed before backward: never"))


def f(t):
    out = m(t)
    hb.remove()
    return out.sum()


print(ms.grad(f)(x))

a = Scale("a", 3.0)
b = Scale("b", 3.0)
handles = {}


def hook_b(c, gi, go):
    print("hook b removes the hook of a")
    handles["a"].remove()


handles["a"] = a.register_backward_hook(lambda c, gi, go: print("hook a: never"))
b.register_backward_hook(hook_b)
print(ms.grad(lambda t: b(a(t)).sum())(x))
print(ms.grad(lambda t: b(a(t)).sum())(x))

m = Scale("m", 3.0)


def once(c, gi, go):
    print("once")
    handles["once"].remove()
    return (gi[0] * 2,)


handles["once"] = m.register_backward_hook(once)
print(ms.grad(lambda t: m(t).sum())(x))
print(ms.grad(lambda t: m(t).sum())(x))


def boom(*args):
    raise ValueError("boom")


for kind in ("forward_pre", "forward", "backward_pre", "backward"):
    m = Scale("m", 3.0)
    getattr(m, f"register_{kind}_hook")(boom)
    try:
        ms.grad(lambda t: m(t).sum())(x)
    except ValueError as e:
        print(kind, "ValueError", "boom" in str(e))
    print(ms.grad(lambda t: (t * 2).sum())(x))
    print(ms.grad(lambda t: Scale("n", 4.0)(t).sum())(x))
