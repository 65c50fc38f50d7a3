import numpy as np
import mindspore as ms
from mindspore import Tensor, ops
from mindspore.ops.operations import _grad_ops as G
from mindspore.ops.operations import nn_ops as N

rng = np.random.default_rng(3)
x = Tensor(rng.standard_normal((2, 3, 5, 6)).astype(np.float32))
g = Tensor(rng.standard_normal((2, 3, 5, 6)).astype(np.float32))
for mode in ["VALID", "SAME"]:
    print(G.MaxPoolGradGrad(3, 2, mode)(x, ops.MaxPool(3, 2, mode)(x), g))
out, argmax = ops.MaxPoolWithArgmax(3, 2, "same")(x)
dy = Tensor(rng.standard_normal(out.shape).astype(np.float32))
print(G.MaxPoolGradWithArgmax(3, 2, "SAME")(x, dy, argmax))
print(G.MaxPoolGradGradWithArgmax(3, 2, "SAME")(x, g, argmax))
out2, argmax2 = ops.MaxPoolWithArgmaxV2(2, 2, 1, 1, True)(x)
dy2 = Tensor(rng.standard_normal(out2.shape).astype(np.float32))
print(G.MaxPoolGradWithArgmaxV2(2, 2, 1, 1, True)(x, dy2, argmax2))
x3 = Tensor(rng.standard_normal((1, 2, 4, 4, 5)).astype(np.float32))
g3 = Tensor(rng.standard_normal((1, 2, 4, 4, 5)).astype(np.float32))
print(G.MaxPool3DGradGrad(2, 1, "SAME")(x3, ops.MaxPool3D(2, 1, "SAME")(x3), g3))

xl = Tensor(rng.standard_normal((1, 6, 2, 3)).astype(np.float32))
dl = Tensor(rng.standard_normal((1, 6, 2, 3)).astype(np.float32))
print(G.LRNGrad(2, 1.5, 0.3, 0.75)(dl, xl, ops.LRN(2, 1.5, 0.3, 0.75)(xl)))

gp = Tensor(rng.standard_normal((1, 2, 6, 8)).astype(np.float32))
for mode in ["reflect", "edge", "circular"]:
    print(mode, G.PadV3Grad(mode)(gp, Tensor(np.array([2, 1, 1, 2]))))

feats = Tensor(rng.standard_normal((2, 2, 8, 8)).astype(np.float32))
rois = Tensor(np.array([[0, 1.0, 2.0, 20.0, 26.0], [1, 6.0, 3.0, 30.0, 14.0]], np.float32))
dr = Tensor(rng.standard_normal((2, 2, 3, 3)).astype(np.float32))
print(G.ROIAlignGrad(3, 3, 0.25, 2)(dr, rois, (2, 2, 8, 8)))

rows, cols = Tensor(np.array([0, 2, 3, 5])), Tensor(np.array([0, 1, 3, 4]))
gf = Tensor(rng.standard_normal((2, 3, 3, 2)).astype(np.float32))
# one sample: MindSpore 2.10's FractionalMaxPoolGrad sends a later sample's gradient into the
# first sample's plane (cellgrad keeps each sample's own)
xf = Tensor(rng.standard_normal((1, 5, 4, 2)).astype(np.float32))
for overlapping in [False, True]:
    print(G.FractionalAvgPoolGrad(overlapping)(Tensor(np.array([2, 5, 4, 2])), gf, rows, cols))
    print(G.FractionalMaxPoolGrad(overlapping)(xf, gf[:1], gf[:1], rows, cols))

ps_rois = Tensor(np.array([[[0.0], [15.0], [20.0], [57.9], [60.2]],
                           [[1.0], [6.5], [3.1], [76.2], [56.8]]], np.float32))
ps_x = Tensor(rng.standard_normal((2, 12, 5, 4)).astype(np.float32))
pooled = N.PSROIPooling(1 / 16, 2, 3)(ps_x, ps_rois)
print(pooled.shape, pooled)
ps_dy = Tensor(rng.standard_normal((2, 3, 2, 2)).astype(np.float32))
print(G.PSROIPoolingGrad((5, 4), 1 / 16, 2, 3)(ps_dy, ps_rois))
for bad in [lambda: N.PSROIPooling(-0.1, 2, 3), lambda: N.PSROIPooling(0.1, 2.5, 3),
            lambda: G.PSROIPoolingGrad([5, 4], 0.1, 2, 3),
            lambda: G.PSROIPoolingGrad((5, 4), 1 / 16, 2, 3)(ps_dy, ps_rois, ps_dy)]:
    try:
        bad()
    except (TypeError, ValueError) as e:
        print(type(e).__name__)
