"""Image and norm primitives of real MindSpore code (issue 29): ResizeBilinearV2 and
ResizeNearestNeighbor in every align_corners / half_pixel_centers combination, up and down,
with gradients; DepthToSpace; SigmoidCrossEntropyWithLogits, L2Normalize, L2Loss, LpNorm."""

import numpy as np

import mindspore as ms
from mindspore import Tensor, ops


def show(name, f):
    try:
        out = f()
    except Exception as e:  # noqa: BLE001 - the error class is what the replay compares
        print(name, "raises", type(e).__name__)
        return
    for o in out if isinstance(out, tuple) else (out,):
        print(name, o.dtype, o.shape, o)


x = Tensor((np.arange(2 * 2 * 3 * 4, dtype=np.float32).reshape(2, 2, 3, 4) ** 1.3) % 7)
w57 = Tensor(np.arange(2 * 2 * 5 * 7, dtype=np.float32).reshape(2, 2, 5, 7) % 5)
for ac, hp in ((False, False), (False, True), (True, False), (True, True)):
    for size in ((5, 7), (2, 3), (1, 1), (3, 4)):
        show(f"bilinear {ac} {hp} {size}", lambda: ops.ResizeBilinearV2(ac, hp)(x, size))
        show(f"nearest {ac} {hp} {size}", lambda: ops.ResizeNearestNeighbor(size, ac, hp)(x))
    show(f"bilinear grad {ac} {hp}", lambda: ms.grad(
        lambda t: (ops.ResizeBilinearV2(ac, hp)(t, (5, 7)) * w57).sum())(x))
    show(f"nearest grad {ac} {hp}", lambda: ms.grad(
        lambda t: (ops.ResizeNearestNeighbor((5, 7), ac, hp)(t) * w57).sum())(x))
five = Tensor(np.arange(25, dtype=np.float32).reshape(1, 1, 5, 5))
show("nearest half-pixel 5->2", lambda: ops.ResizeNearestNeighbor((2, 2), False, True)(five))
show("bilinear half-pixel 5->2x3", lambda: ops.ResizeBilinearV2(False, True)(five, (2, 3)))
show("bilinear size tensor", lambda: ops.ResizeBilinearV2()(x, Tensor(np.array([2, 2], np.int32))))
show("bilinear float64", lambda: ops.ResizeBilinearV2()(Tensor(np.ones((1, 1, 2, 2))), (3, 3)))
show("bilinear float16", lambda: ops.ResizeBilinearV2()(
    Tensor(np.ones((1, 1, 2, 2), np.float16)), (3, 3)))
show("bilinear int32", lambda: ops.ResizeBilinearV2()(
    Tensor(np.ones((1, 1, 2, 2), np.int32)), (3, 3)))
show("nearest int32", lambda: ops.ResizeNearestNeighbor((3, 3))(
    Tensor(np.arange(4, dtype=np.int32).reshape(1, 1, 2, 2))))
show("bilinear rank 3", lambda: ops.ResizeBilinearV2()(x[0], (2, 2)))
show("nearest rank 3", lambda: ops.ResizeNearestNeighbor((2, 2))(x[0]))
print(ops.ResizeBilinearV2(), ops.ResizeNearestNeighbor((2, 3), True))

y = Tensor(np.arange(2 * 8 * 2 * 3, dtype=np.float32).reshape(2, 8, 2, 3))
show("DepthToSpace", lambda: ops.DepthToSpace(2)(y))
show("DepthToSpace grad", lambda: ms.grad(lambda t: (ops.DepthToSpace(2)(t) * Tensor(
    np.arange(2 * 2 * 4 * 6, dtype=np.float32).reshape(2, 2, 4, 6))).sum())(y))
show("DepthToSpace int32", lambda: ops.DepthToSpace(2)(
    Tensor(np.arange(8, dtype=np.int32).reshape(1, 4, 1, 2))))
show("DepthToSpace 3", lambda: ops.DepthToSpace(3)(y))
show("DepthToSpace 1", lambda: ops.DepthToSpace(1))
show("DepthToSpace channels", lambda: ops.DepthToSpace(2)(Tensor(np.ones((1, 6, 1, 1), np.float32))))
show("DepthToSpace rank", lambda: ops.DepthToSpace(2)(Tensor(np.ones((1, 4, 1), np.float32))))
print(ops.DepthToSpace(2))

lg = Tensor(np.array([[-2.0, 0.5, 3.0], [1.0, -40.0, 50.0]], np.float32))
lb = Tensor(np.array([[0.0, 1.0, 0.3], [1.0, 0.0, 1.0]], np.float32))
show("SigmoidCE", lambda: ops.SigmoidCrossEntropyWithLogits()(lg, lb))
wsce = Tensor(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32))
show("SigmoidCE grad", lambda: ms.grad(
    lambda a, b: (ops.SigmoidCrossEntropyWithLogits()(a, b) * wsce).sum(), (0, 1))(lg, lb))
show("SigmoidCE float64", lambda: ops.SigmoidCrossEntropyWithLogits()(
    Tensor(np.array([0.5, -1.0])), Tensor(np.array([1.0, 0.0]))))
show("SigmoidCE shapes", lambda: ops.SigmoidCrossEntropyWithLogits()(lg, lb[0]))
show("SigmoidCE dtypes", lambda: ops.SigmoidCrossEntropyWithLogits()(
    lg, Tensor(np.ones((2, 3), np.int32))))

v = Tensor(np.array([[1.0, -2.0, 2.0], [0.5, 0.25, 3.0]], np.float32))
small = Tensor(np.array([[1.0, -2.0, 2.0], [0.0, 0.0, 0.001]], np.float32))
for axis in (0, 1, -1, (0,), [1]):
    show(f"L2Normalize {axis}", lambda: ops.L2Normalize(axis)(small))
show("L2Normalize eps", lambda: ops.L2Normalize(1, 0.5)(small))
show("L2Normalize grad", lambda: ms.grad(lambda a: (ops.L2Normalize(1)(a) * Tensor(
    np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32))).sum())(v))
show("L2Normalize grad axis 0", lambda: ms.grad(lambda a: (ops.L2Normalize(0)(a) * Tensor(
    np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32))).sum())(v))
show("L2Normalize two axes", lambda: ops.L2Normalize((0, 1)))
show("L2Normalize axis 2", lambda: ops.L2Normalize(2)(small))
print(ops.L2Normalize(1), ops.L2Normalize(-1, 1e-6).axis)
show("L2Loss", lambda: ops.L2Loss()(v))
show("L2Loss float16", lambda: ops.L2Loss()(Tensor(np.array([1.0, 2.0], np.float16))))
show("L2Loss int32", lambda: ops.L2Loss()(Tensor(np.array([1, 2], np.int32))))
show("L2Loss grad", lambda: ms.grad(lambda a: ops.L2Loss()(a))(v))
show("LpNorm all", lambda: ops.LpNorm([0, 1])(v))
show("LpNorm p1", lambda: ops.LpNorm(1, 1)(small))
show("LpNorm p3 keep", lambda: ops.LpNorm(1, 3, True)(small))
show("LpNorm p0", lambda: ops.LpNorm(0, 0)(small))
show("LpNorm default", lambda: ops.LpNorm(0)(small))
show("LpNorm grad p2", lambda: ms.grad(lambda a: ops.LpNorm(1)(a).sum())(small))
show("LpNorm grad p3", lambda: ms.grad(lambda a: ops.LpNorm(1, 3)(a).sum())(small))
show("LpNorm grad p1", lambda: ms.grad(lambda a: ops.LpNorm(1, 1)(a).sum())(small))
show("LpNorm grad zeros", lambda: ms.grad(lambda a: ops.LpNorm(1)(a).sum())(
    Tensor(np.zeros((2, 2), np.float32))))
print(ops.LpNorm(1), ops.LpNorm((0, 1), 3).p)
