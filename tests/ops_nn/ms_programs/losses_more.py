import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops

rng = np.random.default_rng(3)
x = Tensor(rng.standard_normal((4, 5)).astype(np.float32))
x2 = Tensor(rng.standard_normal((4, 5)).astype(np.float32))
sign = Tensor(np.array([[1, -1, 1, 1, -1], [-1, -1, 1, 1, 1], [1, 1, 1, -1, -1],
                        [-1, 1, -1, 1, -1]], np.float32))
cls = Tensor(np.array([3, 0, 4, 1], np.int64))
multi = Tensor(np.array([[1, 0, 0, 1, 0], [0, 0, 1, 0, 1], [1, 1, 1, 1, 0], [0, 0, 0, 0, 1]],
                        np.float32))
listed = Tensor(np.array([[3, 0, -1, 1, 2], [1, 2, 4, -1, 0], [0, -1, 0, 0, 0],
                          [4, 3, 2, 1, -1]], np.int64))
pos = Tensor(np.abs(rng.standard_normal((4, 5))).astype(np.float32) + 0.1)
counts = Tensor(np.array([[0, 1, 2, 3, 4], [5, 0, 1, 2, 1], [3, 3, 0, 1, 2], [1, 2, 7, 0, 1]],
                         np.float32))


def show(name, fn):
    try:
        out = fn()
        print(name, out.shape, out)
    except (RuntimeError, TypeError):  # MindSpore's CPU build lacks some of these kernels
        # (SoftMarginLoss, MultilabelMarginLoss, TripletMarginLoss: PyTorch checks those)
        print(name, "not on CPU")


for red in ["mean", "sum", "none"]:
    show("HuberLoss " + red, lambda: nn.HuberLoss(red, 0.7)(x, x2))
    show("MAELoss " + red, lambda: nn.MAELoss(red)(x, x2))
    show("MultiMarginLoss " + red, lambda: nn.MultiMarginLoss(reduction=red)(x, cls))
    show("MultiLabelSoftMarginLoss " + red, lambda: nn.MultiLabelSoftMarginLoss(reduction=red)(x, multi))
    show("HingeEmbeddingLoss " + red, lambda: nn.HingeEmbeddingLoss(0.5, red)(x, sign))
    show("PoissonNLLLoss " + red, lambda: nn.PoissonNLLLoss(reduction=red)(x, counts))
    show("GaussianNLLLoss " + red, lambda: nn.GaussianNLLLoss(reduction=red)(x, x2, pos))
    show("MarginRankingLoss " + red, lambda: nn.MarginRankingLoss(0.2, red)(x, x2, sign))
show("RMSELoss", lambda: nn.RMSELoss()(x, x2))
show("MultiMarginLoss p2 w", lambda: nn.MultiMarginLoss(2, 0.5, weight=Tensor(np.linspace(0.5, 1.5, 5).astype(np.float32)))(x, cls))
show("MultiLabelSoftMarginLoss w", lambda: nn.MultiLabelSoftMarginLoss(Tensor(np.linspace(0.5, 1.5, 5).astype(np.float32)))(x, multi))
show("PoissonNLLLoss full", lambda: nn.PoissonNLLLoss(log_input=False, full=True)(pos, counts))
show("GaussianNLLLoss full", lambda: nn.GaussianNLLLoss(full=True, eps=0.5)(x, x2, pos))
show("DiceLoss", lambda: nn.DiceLoss()(ops.sigmoid(x), multi))
show("MultiClassDiceLoss", lambda: nn.MultiClassDiceLoss()(x, multi))
show("MultiClassDiceLoss w", lambda: nn.MultiClassDiceLoss(Tensor(np.ones((5, 1), np.float32) * 0.5), 2, "sigmoid")(x, multi))
show("FocalLoss idx", lambda: nn.FocalLoss()(x, Tensor(np.array([[1], [0], [4], [2]], np.int32))))
show("FocalLoss onehot", lambda: nn.FocalLoss(gamma=1.5, reduction="sum")(x, multi))
show("FocalLoss w 4d", lambda: nn.FocalLoss(Tensor(np.linspace(0.2, 1, 3).astype(np.float32)))(
    Tensor(rng.standard_normal((2, 3, 2, 2)).astype(np.float32)),
    Tensor(rng.integers(0, 3, (2, 1, 2, 2)).astype(np.int32))))
for name, fn in [
                 ("multilabel_soft_margin_loss", lambda: ops.multilabel_soft_margin_loss(x, multi)),
                 ("hinge_embedding_loss", lambda: ops.hinge_embedding_loss(x, sign, 0.3)),
                 ("gaussian_nll_loss", lambda: ops.gaussian_nll_loss(x, x2, pos))]:
    show(name, fn)
grads = ms.grad(lambda a: nn.HingeEmbeddingLoss()(a, sign) + nn.MultiMarginLoss()(a, cls)
                + nn.FocalLoss()(a, multi) + nn.DiceLoss()(ops.sigmoid(a), multi))(x)
print(grads)
for bad in [lambda: nn.DiceLoss(1), lambda: nn.FocalLoss(gamma=2), lambda: nn.FocalLoss()(x, cls),
            lambda: nn.MultiClassDiceLoss(activation="gelu")]:
    try:
        bad()
    except (TypeError, ValueError) as e:
        print(type(e).__name__)
