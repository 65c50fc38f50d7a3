"""ops.jet and ops.derivative: Taylor-mode higher-order forward derivatives."""
import mindspore as ms
import numpy as np
from mindspore import Tensor, ops

np.set_printoptions(precision=5, suppress=True)
x = Tensor(np.array([[1, 2], [3, 4]], np.float32))
y = Tensor(np.array([[0.5, 1], [2, 3]], np.float32))
s1 = Tensor(np.array([[[1, 1], [1, 1]], [[0, 0], [0, 0]], [[0, 0], [0, 0]]], np.float32))
s2 = Tensor(np.array([[[1, 2], [0.5, 1]], [[0.3, 0], [1, 2]], [[0.1, -1], [0, 0.5]]],
                     np.float32))
s3 = Tensor(np.array([[[0.2, 1], [1, -1]], [[1, 0.5], [0, 1]], [[0, 0], [1, 0]]], np.float32))


def sin_exp(a):
    return ops.exp(ops.sin(a))


def sin_times(a):
    return ops.sin(a) * a


def prod(a, b):
    return a * b


def composite(a, b):
    return ops.log(a + ops.exp(b)) / (a * a + 1.0)


def cos_sq(a):
    return ops.cos(a) * ops.cos(a) - ops.log(a)


def two_out(a, b):
    return a * b, ops.exp(a)


def show(tag, res):
    p, o = res
    print(tag, type(p).__name__, type(o).__name__)
    for t in (p if isinstance(p, list) else [p]):
        print(t.dtype, t.shape)
        print(t.asnumpy())
    for t in (o if isinstance(o, list) else [o]):
        print(t.dtype, t.shape)
        print(t.asnumpy())


show("sin_exp", ops.jet(sin_exp, x, s1))
show("sin_exp_s2", ops.jet(sin_exp, x, s2))
show("sin_times", ops.jet(sin_times, x, s2))
show("sin_times_order1", ops.jet(sin_times, x, s2[0]))
show("prod", ops.jet(prod, (x, y), (s2, s3)))
show("composite", ops.jet(composite, (x, y), (s2, s3)))
show("cos_sq", ops.jet(cos_sq, x, s2))
show("two_out", ops.jet(two_out, (x, y), (s2, s3)))
xi = Tensor(np.array([1, 2], np.int32))
si = Tensor(np.array([[1, 0], [0, 1]], np.int32))
show("int", ops.jet(sin_exp, xi, si))
for order in (1, 2, 3, 4):
    show(f"derivative{order}", ops.derivative(sin_exp, x, order))
show("derivative_tuple", ops.derivative(composite, (x, y), 3))
show("derivative_two_out", ops.derivative(two_out, (x, y), 2))
for bad in ((x, (s1,)), ((x,), s1), ((x, y), (s1,)), (x, Tensor(np.ones((3, 3), np.float32))),
            (x, s1.astype(ms.float64))):
    try:
        ops.jet(sin_exp, *bad)
    except (TypeError, ValueError) as e:
        print(type(e).__name__, str(e).splitlines()[0])
