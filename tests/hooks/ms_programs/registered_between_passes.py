# Hooks registered between the forward and the backward pass run only on a call that already
# had a backward hook (MindSpore wraps a call's Tensors only then).
import numpy as np, mindspore as ms
from mindspore import nn, Tensor
x = Tensor(np.array([1., 2.], np.float32))
class M(nn.Cell):
    def construct(self, a): return a * 3
m = M(); m.register_backward_hook(lambda c, gi, go: print("first"))
def f(a):
    out = m(a)
    m.register_backward_hook(lambda c, gi, go: print("added after forward"))
    return out.sum()
print(ms.grad(f)(x))
m2 = M(); m2.register_backward_pre_hook(lambda c, go: print("pre"))
def f2(a):
    out = m2(a)
    m2.register_backward_hook(lambda c, gi, go: print("bwd added after forward, only pre before"))
    return out.sum()
print(ms.grad(f2)(x))
m3 = M()
def f3(a):
    out = m3(a)
    m3.register_backward_hook(lambda c, gi, go: print("bwd added after forward, none before"))
    return out.sum()
print(ms.grad(f3)(x))
