"""ops.unfold / ops.fold / Tensor.unfold, ops.bidense, ops.adaptive_avg_pool2d_ext and
ops.LogSoftmaxExt: values against PyTorch where it has the op, gradients by gradcheck
(MindSpore's outputs: ms_programs/ops_sliding_blocks.py)."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import ops
from cellgrad.testing import gradcheck

rng = np.random.default_rng(0)
X = rng.standard_normal((2, 3, 5, 6))


def test_unfold_fold_match_torch_and_gradcheck():
    torch = pytest.importorskip("torch")
    x = ms.Tensor(X)
    got = ops.unfold(x, (2, 3), dilation=(1, 2), padding=(0, 1), stride=(1, 2))
    want = torch.nn.functional.unfold(torch.tensor(X), (2, 3), dilation=(1, 2), padding=(0, 1),
                                      stride=(1, 2))
    np.testing.assert_allclose(got.asnumpy(), want.numpy(), atol=1e-12)
    np.testing.assert_array_equal(x.unfold(2, 1, 1, 2).asnumpy(),
                                  ops.unfold(x, 2, 1, 1, 2).asnumpy())
    cols = rng.standard_normal((2, 12, 4))
    folded = ops.fold(ms.Tensor(cols), ms.Tensor([4, 4], ms.int32), 2, 1, 0, 2)
    ref = torch.nn.functional.fold(torch.tensor(cols), (4, 4), 2, 1, 0, 2)
    np.testing.assert_allclose(folded.asnumpy(), ref.numpy(), atol=1e-12)


def test_gradients():
    x = ms.Tensor(X)
    assert gradcheck(lambda t: ops.unfold(t, 2, 1, 1, 2), x)
    assert gradcheck(lambda t: ops.fold(t, ms.Tensor([4, 4], ms.int32), 2, 1, 0, 2),
                     ms.Tensor(rng.standard_normal((2, 12, 4))))
    a, b = ms.Tensor(rng.standard_normal((4, 3))), ms.Tensor(rng.standard_normal((4, 2)))
    w, bias = ms.Tensor(rng.standard_normal((5, 3, 2))), ms.Tensor(rng.standard_normal(5))
    np.testing.assert_allclose(ops.bidense(a, b, w, bias).asnumpy(),
                               np.einsum("ni,oij,nj->no", a.asnumpy(), w.asnumpy(), b.asnumpy())
                               + bias.asnumpy(), atol=1e-12)
    assert gradcheck(ops.bidense, a, b, w, bias)
    assert gradcheck(lambda t: ops.LogSoftmaxExt()(t, 1), x)
    assert gradcheck(lambda t: ops.adaptive_avg_pool2d_ext(t, (2, 3)), x)


def test_log_softmax_ext_and_pool_agree_with_their_functions():
    x = ms.Tensor(X.astype(np.float32))
    np.testing.assert_allclose(ops.LogSoftmaxExt()(x, 1).asnumpy(),
                               ops.log_softmax(x, 1).asnumpy(), atol=1e-6)
    assert ops.LogSoftmaxExt()(x, 1, ms.float64).dtype == ms.float64
    np.testing.assert_allclose(ops.adaptive_avg_pool2d_ext(x, (2, 3)).asnumpy(),
                               ops.adaptive_avg_pool2d(x, (2, 3)).asnumpy(), atol=1e-6)


def test_errors():
    with pytest.raises(ValueError, match="must be equal to 4, but got 3"):
        ops.unfold(ms.Tensor(np.ones((3, 5, 6), np.float32)), 2)
    with pytest.raises(TypeError, match=r"must be Tensor but got Tuple\[Int64\*2\]"):
        ops.fold(ms.Tensor(np.ones((2, 12, 4), np.float32)), (4, 4), 2)
    with pytest.raises(ValueError, match=r"'weight' must be \(out, 3, 2\)"):
        ops.bidense(ms.Tensor(np.ones((4, 3))), ms.Tensor(np.ones((4, 2))),
                    ms.Tensor(np.ones((5, 2, 3))))
