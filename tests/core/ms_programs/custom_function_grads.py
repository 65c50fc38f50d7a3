# A custom _Function's backward with set_materialize_grads: zeros (default) or None for an
# output no gradient reached; attributes set on a Tensor; tuple/list of Tensors in + and -
# keep their gradients (MindSpore 2.10 stacks the sequence to the Tensor's
# dtype); recompute marks get_scope.
import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops
from mindspore import _Function
from mindspore.ops import composite as C


def make(materialize):
    class TwoOut(_Function):
        @staticmethod
        def forward(ctx, x, y):
            ctx.set_materialize_grads(materialize)
            x.extra = x * 3
            ctx.save_for_backward(x)
            return x * y, x + y

        @staticmethod
        def backward(ctx, g0, g1):
            x, = ctx.saved_tensors
            print("  backward sees", None if g0 is None else g0.asnumpy().tolist(),
                  None if g1 is None else g1.asnumpy().tolist(), x.extra.asnumpy().tolist())
            gx = g1 if g0 is None else (g0 if g1 is None else g0 + g1)
            return gx, x.extra
    return TwoOut


x = Tensor(np.array([1.0, 2.0], np.float32))
y = Tensor(np.array([3.0, 5.0], np.float32))
for materialize in (True, False):
    fn = make(materialize)
    print("materialize", materialize)
    grads = C.GradOperation(get_all=True)(lambda a, b: fn.apply(a, b)[0])(x, y)
    print("  grads", [g.asnumpy().tolist() for g in grads])
    grads = C.GradOperation(get_all=True)(lambda a, b: fn.apply(a, b)[1])(x, y)
    print("  grads", [g.asnumpy().tolist() for g in grads])

t = Tensor([1.0])
t.note = "kept"
print("attr", t.note, hasattr(Tensor([2.0]), "note"))


def f(a, b, c):
    return ((a, b) + c * 2).sum() + ([a, b] - c).sum() * 3 + (c * c - (a, b)).sum() * 5


a, b, c = Tensor([1.0, 2.0]), Tensor([3.0, 4.0]), Tensor([1.0, 2.0])
out = f(a, b, c)
print("seq value", out.asnumpy().tolist())
for g in ms.grad(f, grad_position=(0, 1, 2))(a, b, c):
    print("seq grad", g.shape, g.dtype, np.round(g.asnumpy(), 5).tolist())
r = (Tensor([1, 2], ms.int32), Tensor([3, 4], ms.int32)) + Tensor([0.5, 0.5], ms.float16)
print("cast", r.dtype, r.shape, r.asnumpy().tolist())
r = Tensor([1.0, 1.0]) - (Tensor(1.0), 2.0)
print("mixed", r.dtype, r.shape, r.asnumpy().tolist())
for r in (Tensor([1, 2], ms.int32) + (1.5, 2.7), Tensor([1, 2], ms.int32) - [[1.5, -2.7]],
          Tensor([1.0, 2.0], ms.float16) + (1, 2), (1, 2) - Tensor([1.0, 2.0], ms.float64)):
    print("numbers", r.dtype, r.shape, r.asnumpy().tolist())
print("split", ops.ReduceSum()(ops.Split()(Tensor(np.arange(6.0).reshape(2, 3).astype(np.float32)))
                               + Tensor([1.0, 1.0, 1.0]), 0).asnumpy().tolist())


class Double(nn.Cell):
    def construct(self, v):
        return v * 2


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = nn.SequentialCell([Double()])

    def construct(self, v):
        return self.inner(v)


net = Net()
print("scope before", net.get_scope(), net.inner.get_scope())
net.recompute()
print("scope after", net.get_scope(), net.inner.get_scope())
