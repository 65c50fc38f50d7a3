"""Margin, likelihood and segmentation losses: PyTorch's numbers (the ones MindSpore's CPU
build cannot run among them), float64 gradchecks of every functional form, and errors.
(MindSpore's own numbers: ms_programs/losses_more.py.)"""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, nn, ops
from cellgrad.testing import gradcheck

RNG = np.random.default_rng(11)
X = RNG.standard_normal((4, 5))
X2 = RNG.standard_normal((4, 5))
POS = np.abs(RNG.standard_normal((4, 5))) + 0.1
SIGN = np.where(RNG.random((4, 5)) > 0.5, 1.0, -1.0)
CLS = np.array([3, 0, 4, 1])
MULTI = (RNG.random((4, 5)) > 0.5).astype(np.float64)
LISTED = np.array([[3, 0, -1, 1, 2], [1, 2, 4, -1, 0], [0, -1, 0, 0, 0], [4, 3, 2, 1, -1]])
COUNTS = RNG.integers(0, 6, (4, 5)).astype(np.float64)

CASES = [  # (name, cellgrad(x), torch(tx, F))
    ("soft_margin", lambda x: ops.soft_margin_loss(x, Tensor(SIGN)),
     lambda t, F, torch: F.soft_margin_loss(t, torch.tensor(SIGN))),
    ("multi_margin", lambda x: ops.multi_margin_loss(x, Tensor(CLS), 2, 0.7,
                                                     Tensor(np.linspace(0.5, 1.5, 5))),
     lambda t, F, torch: F.multi_margin_loss(t, torch.tensor(CLS), 2, 0.7,
                                             torch.tensor(np.linspace(0.5, 1.5, 5)))),
    ("multilabel_soft_margin", lambda x: ops.multilabel_soft_margin_loss(x, Tensor(MULTI)),
     lambda t, F, torch: F.multilabel_soft_margin_loss(t, torch.tensor(MULTI))),
    ("multilabel_margin", lambda x: ops.multilabel_margin_loss(x, Tensor(LISTED), "sum"),
     lambda t, F, torch: F.multilabel_margin_loss(t, torch.tensor(LISTED), reduction="sum")),
    ("triplet", lambda x: ops.triplet_margin_loss(x, Tensor(X2), Tensor(POS), 0.5),
     lambda t, F, torch: F.triplet_margin_loss(t, torch.tensor(X2), torch.tensor(POS), 0.5)),
    ("triplet_p1_swap", lambda x: ops.triplet_margin_loss(x, Tensor(X2), Tensor(POS), 2.0, 1,
                                                          swap=True, reduction="none"),
     lambda t, F, torch: F.triplet_margin_loss(t, torch.tensor(X2), torch.tensor(POS), 2.0, 1,
                                               swap=True, reduction="none")),
    ("hinge_embedding", lambda x: ops.hinge_embedding_loss(x, Tensor(SIGN), 0.4, "none"),
     lambda t, F, torch: F.hinge_embedding_loss(t, torch.tensor(SIGN), 0.4, reduction="none")),
    ("gaussian_nll", lambda x: ops.gaussian_nll_loss(x, Tensor(X2), Tensor(POS), True),
     lambda t, F, torch: F.gaussian_nll_loss(t, torch.tensor(X2), torch.tensor(POS), True)),
    ("poisson_nll", lambda x: nn.PoissonNLLLoss(full=True)(x, Tensor(COUNTS)),
     lambda t, F, torch: F.poisson_nll_loss(t, torch.tensor(COUNTS), full=True)),
]


@pytest.mark.parametrize("name,ours,theirs", CASES, ids=[c[0] for c in CASES])
def test_against_pytorch(name, ours, theirs):
    torch = pytest.importorskip("torch")
    tx = torch.tensor(X, requires_grad=True)
    expected = theirs(tx, torch.nn.functional, torch)
    expected.sum().backward()
    got, grad = ms.value_and_grad(lambda x: ops.sum(ours(x)))(Tensor(X))
    np.testing.assert_allclose(ours(Tensor(X)).asnumpy(), expected.detach().numpy(),
                               rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(grad.asnumpy(), tx.grad.numpy(), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("name,ours,theirs", CASES, ids=[c[0] for c in CASES])
def test_gradcheck(name, ours, theirs):
    gradcheck(ours, Tensor(X))


def test_cells_reduce_as_their_functions():
    x, x2 = Tensor(X), Tensor(X2)
    np.testing.assert_allclose(nn.MAELoss("sum")(x, x2).asnumpy(), np.abs(X - X2).sum())
    np.testing.assert_allclose(nn.RMSELoss()(x, x2).asnumpy(), np.sqrt(((X - X2) ** 2).mean()))
    np.testing.assert_allclose(nn.SoftMarginLoss("none")(x, Tensor(SIGN)).asnumpy(),
                               np.log1p(np.exp(-SIGN * X)), rtol=1e-12)
    dice = nn.DiceLoss()(x, Tensor(MULTI)).asnumpy()
    np.testing.assert_allclose(dice, 1 - 2 * (X * MULTI).sum() / ((X * X).sum() + MULTI.sum()
                                                                  + 1e-5), rtol=1e-12)


def test_focal_loss_reduces_to_cross_entropy_at_gamma_zero():
    labels = Tensor(CLS.reshape(4, 1).astype(np.int32))
    focal = nn.FocalLoss(gamma=0.0, reduction="none")(Tensor(X), labels).asnumpy()
    log_p = X - np.log(np.exp(X).sum(1, keepdims=True))
    np.testing.assert_allclose(focal, -log_p[np.arange(4), CLS], rtol=1e-12)
    gradcheck(lambda x: nn.FocalLoss()(x, Tensor(MULTI.astype(np.float32))), Tensor(X))


@pytest.mark.parametrize("make,error,text", [
    (lambda: nn.DiceLoss(1), TypeError, "The 'smooth' must be float, but got 'int'"),
    (lambda: nn.FocalLoss(gamma=2), TypeError, "the type of 'gamma' should be 'float'"),
    (lambda: nn.FocalLoss()(Tensor(X), Tensor(CLS)), ValueError, "dimensions of 'labels'"),
    (lambda: nn.MultiClassDiceLoss(activation="gelu"), ValueError, "'activation' must be in"),
    (lambda: ops.multi_margin_loss(Tensor(X), Tensor(CLS + 3)), ValueError, "classes in [0, 5)"),
    (lambda: ops.multi_margin_loss(Tensor(X), Tensor(CLS), p=3), ValueError, "'p' must be 1 or 2"),
    (lambda: ops.multilabel_margin_loss(Tensor(X), Tensor(LISTED + 5)), ValueError,
     "holds class"),
    (lambda: ops.soft_margin_loss(Tensor(X), Tensor(SIGN[:2])), ValueError, "same shape"),
])
def test_errors(make, error, text):
    with pytest.raises(error) as info:
        make()
    assert text in str(info.value)
