import numpy as np
import mindspore as ms
from mindspore import Tensor, ops

logits = Tensor(np.array([[1.0, 2.0, 0.5], [0.1, -1.0, 2.0], [3.0, 0.0, -2.0],
                          [0.3, 0.2, 0.1]], np.float32))
labels = Tensor(np.array([2, 0, 0, 1], np.int32))
ignored = Tensor(np.array([2, -100, 0, 1], np.int32))
weight = Tensor(np.array([0.5, 2.0, 1.5], np.float32))
probs = Tensor(np.array([[0.2, 0.3, 0.5], [1.0, 0.0, 0.0], [0.1, 0.1, 0.8],
                         [0.4, 0.4, 0.2]], np.float32))

def show(name, fn, x):
    out, g = ms.value_and_grad(lambda t: fn(t).sum())(x)
    print(name, fn(x))
    print("grad", g)

for red in ("mean", "sum", "none"):
    show("ce " + red, lambda t: ops.cross_entropy(t, labels, reduction=red), logits)
    show("ce weighted " + red, lambda t: ops.cross_entropy(t, ignored, weight, reduction=red),
         logits)
    show("ce smooth " + red,
         lambda t: ops.cross_entropy(t, labels, weight, reduction=red, label_smoothing=0.2),
         logits)
    show("ce probs " + red, lambda t: ops.cross_entropy(t, probs, weight, reduction=red), logits)
    show("nll " + red, lambda t: ops.nll_loss(ops.log_softmax(t, 1), ignored, weight,
                                              reduction=red), logits)

p = Tensor(np.array([[0.1, 0.8, 0.5], [0.3, 0.6, 0.95]], np.float32))
t = Tensor(np.array([[0.0, 1.0, 1.0], [1.0, 0.0, 0.5]], np.float32))
bw = Tensor(np.array([[1.0, 2.0, 0.5], [1.5, 1.0, 1.0]], np.float32))
pw = Tensor(np.array([2.0, 0.5, 1.0], np.float32))
for red in ("mean", "sum", "none"):
    show("bce " + red, lambda a: ops.binary_cross_entropy(a, t, bw, red), p)
    show("bce_logits " + red,
         lambda a: ops.binary_cross_entropy_with_logits(a * 4 - 2, t, bw, pw, red), p)
    show("mse " + red, lambda a: ops.mse_loss(a, t, red), p)
    show("l1 " + red, lambda a: ops.l1_loss(a, t, red), p)
    show("smooth_l1 " + red, lambda a: ops.smooth_l1_loss(a * 3, t, 0.5, red), p)
for red in ("mean", "sum", "none", "batchmean"):
    show("kl_div " + red, lambda a: ops.kl_div(ops.log(a), t, red), p)
