"""`ops.gather(..., batch_dims=b)`: each of the first `b` batch entries gathers from its own
slice (checked against a per-batch numpy loop; values recorded from MindSpore 2.10 in the first
case), its gradient by gradcheck, and MindSpore's errors."""

import numpy as np
import pytest

from cellgrad import Tensor, ops
from cellgrad.testing import gradcheck


def _loop(x, idx, axis, b):
    if b == 0:
        return np.take(x, idx, axis=axis)
    return np.stack([_loop(x[k], idx[k], axis - 1, b - 1) for k in range(x.shape[0])])


def test_mindspores_example():
    x = np.arange(27).reshape(3, 3, 3).astype(np.int32)
    idx = np.array([[0, 0], [1, 1], [1, 1]], np.int32)
    out = ops.gather(Tensor(x), Tensor(idx), 1, 1)
    assert out.asnumpy().tolist() == [[[0, 1, 2], [0, 1, 2]], [[12, 13, 14], [12, 13, 14]],
                                      [[21, 22, 23], [21, 22, 23]]]


@pytest.mark.parametrize("axis, b, negative_b", [(3, 2, False), (-2, 2, False), (3, 2, True),
                                                 (2, 2, False), (2, 1, False), (4, 2, False)])
def test_matches_per_batch_loop(axis, b, negative_b):
    rng = np.random.default_rng(1)
    x = rng.normal(size=(2, 3, 4, 5, 2)).astype(np.float32)
    ax = axis % x.ndim
    idx = rng.integers(0, x.shape[ax], x.shape[:b] + (2, 2)).astype(np.int32)
    out = ops.gather(Tensor(x), Tensor(idx), axis, b - idx.ndim if negative_b else b)
    np.testing.assert_array_equal(out.asnumpy(), _loop(x, idx, ax, b))


def test_gradient():
    rng = np.random.default_rng(2)
    x = Tensor(rng.normal(size=(2, 3, 4)))
    idx = Tensor(np.array([[0, 3, 3], [1, 1, 2]], np.int32))
    assert gradcheck(lambda v: ops.gather(v, idx, 2, 1), x)
    assert gradcheck(lambda v: ops.gather(v, idx, 2, 1) ** 2, x)


def test_errors():
    x = Tensor(np.zeros((2, 3, 4), np.float32))
    with pytest.raises(RuntimeError, match=r"should be in the range \[0, 4\), but got 4"):
        ops.gather(x, Tensor(np.array([[0], [4]], np.int32)), 2, 1)
    with pytest.raises(ValueError, match="first 1 dims"):
        ops.gather(x, Tensor(np.zeros((3, 1), np.int32)), 2, 1)
    with pytest.raises(ValueError, match="no greater than axis"):
        ops.gather(x, Tensor(np.zeros((2, 1), np.int32)), 0, 1)
