import mindspore as ms
import numpy as np
from mindspore import Tensor, ops
from mindspore.mint.nn.functional import (
    hardshrink,
    hardsigmoid,
    hardswish,
    smooth_l1_loss,
    softshrink,
)
from mindspore.ops.function.nn_func import interpolate_ext

ms.set_context(mode=ms.PYNATIVE_MODE)


def attempt(what, f):
    try:
        print(what, f())
    except Exception as e:  # noqa: BLE001
        print(what, type(e).__name__, str(e).splitlines()[0])


x = Tensor(np.array([[0.2, -1.0, 3.0, -4.5], [0.6, -0.3, 2.5, 0.0]], np.float32))
t = Tensor(np.array([[0.0, 0.5, 1.0, -3.0], [1.0, -1.0, 0.0, 0.5]], np.float32))
for reduction in ("mean", "sum", "none"):
    print(reduction, smooth_l1_loss(x, t, reduction), smooth_l1_loss(x, t, reduction, 0.5))
print(ops.grad(lambda a, b: smooth_l1_loss(a, b, "sum", 0.7), (0, 1))(x, t))
print(hardshrink(x), hardshrink(x, 1.0), hardshrink(x, True), softshrink(x), softshrink(x, 1))
print(softshrink(x, True), softshrink(x, False))
print(hardsigmoid(x), hardswish(x))
print(ops.grad(lambda a: hardswish(a).sum())(x), ops.grad(lambda a: softshrink(a, 0.4).sum())(x))

img = Tensor(np.arange(8, dtype=np.float32).reshape(1, 1, 2, 2, 2))
print(interpolate_ext(img, size=(3, 2, 4)), interpolate_ext(img, scale_factor=(1.0, 1.5, 2.0),
                                                             mode="trilinear"))
print(interpolate_ext(img, size=(3, 3, 3), mode="trilinear", align_corners=True))
gen = ops.auto_generate
g = Tensor(np.arange(0, 2.4, 0.1).reshape((1, 1, 2, 3, 4)).astype(np.float32))
print(gen.UpsampleNearest3DGrad()(g, (1, 1, 2, 2, 2), [2, 3, 4], None))
print(gen.UpsampleNearest3DGrad()(g, (1, 1, 1, 2, 2), None, [2.0, 1.5, 2.0]))
print(gen.UpsampleTrilinear3DGrad(True)(g, (1, 1, 2, 2, 2), [2, 3, 4], None))
print(gen.UpsampleTrilinear3DGrad()(g, (1, 1, 2, 2, 3), [2, 3, 4], None))
