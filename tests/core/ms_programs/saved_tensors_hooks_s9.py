import mindspore as ms
import numpy as np
from mindspore import ops


def pack(x):
    print("packing", x)
    return x + 1


def unpack(x):
    print("unpacking", x)
    return x


def forward(x, y):
    with ms.saved_tensors_hooks(pack, unpack):
        out = x * y
        z = ops.exp(out).sum()
    print("forward end")
    return z


x = ms.Tensor(np.array([1.0, 2.0], np.float32))
y = ms.Tensor(np.array([0.5, -1.0], np.float32))
print(ms.value_and_grad(forward, grad_position=(0, 1))(x, y))


def nested(x):
    with ms.saved_tensors_hooks(lambda t: (print("outer pack"), t)[1], lambda t: t):
        with ms.saved_tensors_hooks(lambda t: (print("inner pack"), t * 2)[1],
                                    lambda t: (print("inner unpack"), t)[1]):
            a = x * x
        b = ops.sin(a)
    return b.sum()


print(ms.grad(nested)(x))


def outside(x):
    with ms.saved_tensors_hooks(pack, unpack):
        pass
    return (x * x).sum()


print(ms.grad(outside)(x))


def bad_unpack(x):
    with ms.saved_tensors_hooks(lambda t: t, lambda t: t.asnumpy()):
        return (x * x).sum()


try:
    ms.grad(bad_unpack)(x)
except RuntimeError:
    print("RuntimeError")
try:
    with ms.saved_tensors_hooks(1, unpack):
        pass
except TypeError:
    print("TypeError")


def marked(x, y):
    return (x * y).sum()


decorated = ms.register_saved_tensors_hooks(pack, unpack)(marked)
print(decorated is marked, marked._saved_tensors_pack_hook is pack,
      marked._saved_tensors_unpack_hook is unpack)
print(ms.grad(decorated)(x, y))
