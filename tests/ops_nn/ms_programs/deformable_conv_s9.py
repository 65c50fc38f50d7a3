import mindspore as ms
import numpy as np
from mindspore import Tensor, ops

rng = np.random.default_rng(7)
x = Tensor(rng.standard_normal((2, 4, 6, 7)).astype(np.float32))
weight = Tensor(rng.standard_normal((6, 2, 3, 2)).astype(np.float32))
offsets = Tensor((rng.standard_normal((2, 36, 3, 8)) * 1.5).astype(np.float32))
bias = Tensor(rng.standard_normal((6,)).astype(np.float32))
strides, pads, dilations = (1, 1, 2, 1), (1, 0, 2, 1), (1, 1, 1, 2)

sampled = ops.DeformableOffsets(strides, pads, (3, 2), dilations, "NCHW", 2)(x, offsets)
print(sampled.shape, sampled.dtype)
print(sampled[1, 3, :4])
out = ops.deformable_conv2d(x, weight, offsets, (3, 2), strides, pads, bias, dilations, 2, 2)
print(out.shape, out.dtype)
print(out)


def loss(x, weight, offsets, bias):
    out = ops.deformable_conv2d(x, weight, offsets, (3, 2), strides, pads, bias, dilations, 2, 2)
    return (out * out).sum()


gx, gw, goff, gb = ms.grad(loss, grad_position=(0, 1, 2, 3))(x, weight, offsets, bias)
print(gx)
print(gw)
print(goff[:, :4])
print(goff[:, 24:28])
print(gb)

x1 = Tensor(np.ones((4, 3, 10, 10)), ms.float32)
w1 = Tensor(np.ones((5, 3, 3, 3)), ms.float32)
o1 = Tensor(np.ones((4, 27, 8, 8)), ms.float32)
print(ops.deformable_conv2d(x1, w1, o1, (3, 3), (1, 1, 1, 1), (0, 0, 0, 0)).shape)

for kwargs in [dict(strides=(1, 1)), dict(strides=(2, 1, 1, 1)), dict(pads=(0, 0)),
               dict(ksize=(2, 2, 2)), dict(dilations=(1, 1, 1, 2, 2)),
               dict(deformable_groups=0), dict(modulated=False), dict(modulated=1),
               dict(strides=[1, 1, 1, 1]), dict(data_format="abc")]:
    args = dict(strides=(1, 1, 1, 1), pads=(0, 0, 0, 0), ksize=(2, 2))
    args.update(kwargs)
    try:
        ops.DeformableOffsets(**args)
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
prim = ops.DeformableOffsets((1, 1, 1, 1), (0, 0, 0, 0), (2, 2), deformable_groups=3)
try:
    prim(Tensor(np.ones((1, 2, 5, 5)), ms.float32), Tensor(np.ones((1, 36, 4, 4)), ms.float32))
except (TypeError, ValueError) as e:
    print(type(e).__name__)

from mindspore.ops.operations import _grad_ops as G  # noqa: E402

dout = Tensor(rng.standard_normal((1, 2, 6, 6)).astype(np.float32))
xg = Tensor(rng.standard_normal((1, 2, 5, 5)).astype(np.float32))
og = Tensor((rng.standard_normal((1, 27, 2, 2)) * 0.7).astype(np.float32))
for fmt, perm in (("NCHW", (0, 1, 2, 3)), ("NHWC", (0, 2, 3, 1))):
    grads = G.DeformableOffsetsGrad((1, 1, 1, 1), (0, 0, 1, 0), (3, 3), (1, 1, 2, 1),
                                    data_format=fmt)(dout.transpose(perm), xg.transpose(perm),
                                                     og.transpose(perm))
    print(fmt, grads[0].shape, grads[1].shape)
    print(grads[0])
    print(grads[1])
