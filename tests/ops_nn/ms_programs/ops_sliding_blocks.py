import mindspore as ms
import numpy as np
from mindspore import ops


def t(a, dtype=np.float32):
    return ms.Tensor(np.asarray(a, dtype))


x = t(np.arange(2 * 3 * 5 * 6).reshape(2, 3, 5, 6))
u = ops.unfold(x, kernel_size=2, dilation=1, padding=1, stride=2)
print("unfold", u.shape, u.asnumpy()[0, :3, :5])
u2 = ops.unfold(x, kernel_size=(2, 3), dilation=(1, 2), padding=(0, 1), stride=(1, 2))
print("unfold2", u2.shape, u2.asnumpy()[1, -2:, -4:])
cols = t(np.arange(2 * 12 * 4).reshape(2, 12, 4))
f = ops.fold(cols, ms.Tensor([4, 4], ms.int32), 2, 1, 0, 2)
print("fold", f.shape, f.asnumpy()[0, 0])
print("tensor.unfold", x.unfold(3, 2, 2).shape)
print(ms.grad(lambda a: (ops.unfold(a, 2, 1, 1, 2) ** 2).sum())(x)[0, 0])
w = t(np.arange(30).reshape(5, 3, 2))
print(ops.bidense(t(np.ones((4, 3))), t(np.ones((4, 2))), w, t(np.ones(5))))
print(ops.bidense(t(np.ones((2, 4, 3))), t(np.ones((2, 4, 2))), w).shape)
for bad in [lambda: ops.unfold(t(np.ones((3, 5, 6))), 2),
            lambda: ops.fold(t(np.ones((2, 12, 4))), (4, 4), 2)]:
    try:
        bad()
    except (TypeError, ValueError) as e:
        print(type(e).__name__, str(e).splitlines()[0])
