"""Gradients of scatter-add along an axis (`Tensor.scatter(..., reduce='add')`, whose op is
`scatter_along_axis`) when the index is smaller than the output outside the axis: the adjoint
must read back only the places written, not broadcast the index over the output."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor
from cellgrad.testing import gradcheck, gradgradcheck

W = np.arange(12.0).reshape(3, 4)


def scatter_add(x, dim, index, src):
    return x.scatter(dim, Tensor(np.asarray(index, np.int64)), src, reduce="add")


def test_small_index_gradient_matches_mindspore():
    # MindSpore 2.10 printed src's gradient [[0., 1.]] (and x's W) for this program
    x = Tensor(np.zeros((3, 4), np.float32))
    src = Tensor(np.array([[1.0, 2.0]], np.float32))
    w = Tensor(W.astype(np.float32))

    def f(x, s):
        return (scatter_add(x, 1, [[0, 1]], s) * w).sum()

    assert float(f(x, src).asnumpy()) == 2.0
    gx, gs = ms.grad(f, (0, 1))(x, src)
    np.testing.assert_array_equal(gx.asnumpy(), W)
    np.testing.assert_array_equal(gs.asnumpy(), [[0.0, 1.0]])
    assert gs.dtype == ms.float32


def test_small_index_on_both_other_axes_of_a_3d_output():
    index = np.array([[[2, 0, 2]], [[1, 1, 0]]])  # (2, 1, 3) into (3, 2, 4) along 0
    src = Tensor(np.arange(1.0, 7.0).reshape(2, 1, 3))
    w = np.arange(24.0).reshape(3, 2, 4)
    gs = ms.grad(lambda s: (scatter_add(Tensor(np.zeros((3, 2, 4))), 0, index, s)
                            * Tensor(w)).sum())(src)
    expected = np.take_along_axis(w[:, :1, :3], index, 0)
    np.testing.assert_array_equal(gs.asnumpy(), expected)


@pytest.mark.parametrize("dim, index, shape, src_shape", [
    (1, [[0, 1]], (3, 4), (1, 2)),
    (0, [[2, 0], [2, 1]], (3, 4), (2, 2)),  # repeated places accumulate
    (1, [[3, -1, 0]], (2, 4), (2, 3)),  # a negative index; src larger than the index
    (-1, [[[1], [0]]], (2, 3, 2), (1, 2, 1)),
    (-2, [[0], [2]], (3, 2), (2, 1)),
])
def test_gradcheck(dim, index, shape, src_shape):
    rng = np.random.default_rng(1)
    x = Tensor(rng.standard_normal(shape))
    src = Tensor(rng.standard_normal(src_shape))
    assert gradcheck(lambda a, s: scatter_add(a, dim, index, s), x, src)
    assert gradgradcheck(lambda a, s: scatter_add(a, dim, index, s) ** 2, x, src)


@pytest.mark.parametrize("dim, index, shape, src_shape", [
    (1, [[0, 1]], (3, 4), (1, 2)),
    (0, [[2, 0], [2, 1]], (3, 4), (2, 2)),
    (2, [[[3, 3]], [[0, 1]]], (2, 2, 4), (2, 1, 2)),
])
def test_against_pytorch_scatter_add(dim, index, shape, src_shape):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(2)
    x, src = rng.standard_normal(shape), rng.standard_normal(src_shape)
    w = rng.standard_normal(shape)
    tx = torch.tensor(x, requires_grad=True)
    ts = torch.tensor(src, requires_grad=True)
    tout = tx.scatter_add(dim, torch.tensor(index), ts)
    (tout * torch.tensor(w)).sum().backward()
    out = scatter_add(Tensor(x), dim, index, Tensor(src))
    np.testing.assert_allclose(out.asnumpy(), tout.detach().numpy(), rtol=1e-12)
    gx, gs = ms.grad(lambda a, s: (scatter_add(a, dim, index, s) * Tensor(w)).sum(), (0, 1))(
        Tensor(x), Tensor(src))
    np.testing.assert_allclose(gx.asnumpy(), tx.grad.numpy(), rtol=1e-12)
    np.testing.assert_allclose(gs.asnumpy(), ts.grad.numpy(), rtol=1e-12)


def test_scatter_index_smaller_than_input_on_other_axes_writes_only_its_part():
    # PyTorch's rule: index[i][j] addresses out[i][index[i][j]] for the index's own i, j only
    import numpy as np

    import cellgrad as ms
    from cellgrad import Tensor, ops

    x = Tensor(np.zeros((2, 3), np.float32))
    src = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32))
    idx = Tensor(np.array([[1]], np.int64))
    np.testing.assert_array_equal(ops.scatter(x, 1, idx, src).asnumpy(), [[0, 1, 0], [0, 0, 0]])
    w = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    g = ms.grad(lambda s: (ops.scatter(x, 1, idx, s) * w).sum())(src)
    np.testing.assert_array_equal(g.asnumpy(), [[1, 0], [0, 0]])
    out = x.scatter(0, Tensor(np.array([[1, 0]], np.int64)), src)
    np.testing.assert_array_equal(out.asnumpy(), [[0, 2, 0], [1, 0, 0]])
