"""mint.nn.LayerNorm (MindSpore 2.10's nn.LayerNormExt itself) and mint.nn.CrossEntropyLoss
(its own class over mint.nn.functional.cross_entropy; MindSpore's CPU build cannot run it:
LogSoftmaxExt has no CPU kernel), compared with PyTorch."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import mint, nn
from cellgrad.testing import gradcheck

LOGITS = np.array([[1.0, 2.0, 0.5], [0.1, 0.2, 3.0], [0.3, -1.0, 0.0]])
TARGET = np.array([1, 2, 0], np.int32)


def test_layer_norm_is_nn_layer_norm_ext():
    assert mint.nn.LayerNorm is nn.LayerNormExt
    ln = mint.nn.LayerNorm((3,))
    assert repr(ln) == "LayerNormExt(normalized_shape=(3,), eps=1e-05, elementwise_affine=True)"
    assert [(p.name, p.shape) for p in ln.get_parameters()] == [("weight", (3,)), ("bias", (3,))]


@pytest.mark.parametrize("kwargs", [{}, {"reduction": "none", "label_smoothing": 0.1},
                                    {"reduction": "sum", "ignore_index": 2},
                                    {"weight": np.array([1.0, 2.0, 3.0])}])
def test_cross_entropy_loss_matches_torch(kwargs):
    torch = pytest.importorskip("torch")
    ours = {k: ms.Tensor(v) if isinstance(v, np.ndarray) else v for k, v in kwargs.items()}
    theirs = {k: torch.tensor(v) if isinstance(v, np.ndarray) else v for k, v in kwargs.items()}
    loss = mint.nn.CrossEntropyLoss(**ours)
    got = loss(ms.Tensor(LOGITS), ms.Tensor(TARGET))
    want = torch.nn.CrossEntropyLoss(**theirs)(torch.tensor(LOGITS),
                                               torch.tensor(TARGET.astype(np.int64)))
    np.testing.assert_allclose(got.asnumpy(), want.numpy(), rtol=1e-12)
    assert gradcheck(lambda x: loss(x, ms.Tensor(TARGET)), ms.Tensor(LOGITS))
    assert repr(loss) == "CrossEntropyLoss()"
