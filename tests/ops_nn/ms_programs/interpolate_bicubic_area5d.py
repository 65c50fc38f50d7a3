"""ops.interpolate mode 'bicubic' (4-D, with and without align_corners, float16/32/64), mode
'area' on 5-D inputs (size and scale_factor), 5-D nearest and trilinear; values and input
gradients."""

import numpy as np
from mindspore import Tensor, ops

np.set_printoptions(precision=5, suppress=True)
rng = np.random.default_rng(0)
x = rng.normal(size=(2, 2, 4, 5)).astype(np.float32)
w = Tensor(rng.normal(size=(2, 2, 7, 3)).astype(np.float32))
for align in (False, True):
    out = ops.interpolate(Tensor(x), size=(7, 3), mode="bicubic", align_corners=align)
    print("bicubic", align, out.dtype, out.shape, out.asnumpy()[1, 0])
    g = ops.grad(lambda v, a=align: (ops.interpolate(v, size=(7, 3), mode="bicubic",
                                                     align_corners=a) * w).sum())(Tensor(x))
    print("grad", g.asnumpy()[0, 1])
for dt in (np.float16, np.float64):
    out = ops.interpolate(Tensor(x.astype(dt)), size=(3, 8), mode="bicubic")
    print("bicubic", out.dtype, out.asnumpy()[0, 0])
out = ops.interpolate(Tensor(x), scale_factor=(1.5, 0.5), mode="bicubic",
                      recompute_scale_factor=True)
print("recompute", out.shape)

x5 = rng.normal(size=(1, 2, 3, 4, 5)).astype(np.float32)
for kw in ({"size": (2, 4, 3)}, {"scale_factor": (3.0, 0.4, 0.7)}, {"size": (5, 3, 2)}):
    out = ops.interpolate(Tensor(x5), mode="area", **kw)
    print("area", kw, out.shape, out.asnumpy()[0, 1])
g = ops.grad(lambda v: (ops.interpolate(v, size=(2, 3, 2), mode="area") ** 2).sum())(Tensor(x5))
print("area grad", g.asnumpy()[0, 0])

# 5-D nearest and trilinear: with a scale_factor (not recomputed) positions map by the factor
for mode, kw in (("trilinear", {"size": (5, 3, 7)}),
                 ("trilinear", {"size": (5, 3, 7), "align_corners": True}),
                 ("nearest", {"size": (5, 3, 7)}), ("nearest", {"scale_factor": (1.5, 0.5, 2.0)}),
                 ("trilinear", {"scale_factor": (1.5, 0.5, 2.0)})):
    out = ops.interpolate(Tensor(x5), mode=mode, **kw)
    print(mode, kw, out.shape, out.asnumpy()[0, 1, 2])
g = ops.grad(lambda v: (ops.interpolate(v, scale_factor=(1.5, 0.5, 2.0), mode="trilinear")
                        ** 2).sum())(Tensor(x5))
print("trilinear grad", g.asnumpy()[0, 0, 1])
