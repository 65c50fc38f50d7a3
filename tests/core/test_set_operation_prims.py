"""`sparse_ops.DenseToDenseSetOperation` / `DenseToSparseSetOperation`: per-group set
operations as sparse Tensors, against MindSpore 2.10's recorded results."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad.ops.operations.sparse_ops import DenseToDenseSetOperation, DenseToSparseSetOperation

X1 = [[2, 2, 0], [2, 2, 1], [0, 2, 2]]
X2 = [[2, 2, 1], [0, 2, 0], [0, 1, 1]]


def lists(result):
    return [t.asnumpy().tolist() for t in result]


@pytest.mark.parametrize("op, indices, values, shape", [  # recorded from MindSpore 2.10 CPU
    ("a-b", [[0, 0], [1, 0], [2, 0]], [0, 1, 2], [3, 1]),
    ("b-a", [[0, 0], [1, 0], [2, 0]], [1, 0, 1], [3, 1]),
    ("intersection", [[0, 0], [1, 0], [2, 0]], [2, 2, 0], [3, 1]),
    ("UNION", [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2], [2, 0], [2, 1], [2, 2]],
     [0, 1, 2] * 3, [3, 3]),
])
def test_dense_to_dense(op, indices, values, shape):
    prim = DenseToDenseSetOperation(set_operation=op)
    got = prim(ms.Tensor(X1, ms.int32), ms.Tensor(X2, ms.int32))
    assert lists(got) == [indices, values, shape]
    assert [t.dtype for t in got] == [ms.int64, ms.int32, ms.int64]
    assert repr(prim) == f"Prim[DenseToDenseSetOperation]<set_operation={op}, " \
                         f"validate_indices=True>"


def test_rank_three_groups_and_empty_sets():
    x = ms.Tensor(np.arange(12).reshape(2, 2, 3) % 4, ms.int64)
    zeros = ms.Tensor(np.zeros((2, 2, 3), np.int64))
    assert lists(DenseToDenseSetOperation("intersection")(x, zeros)) == [
        [[0, 0, 0], [0, 1, 0], [1, 0, 0]], [0, 0, 0], [2, 2, 1]]
    got = lists(DenseToDenseSetOperation("a-b")(x, zeros))
    assert got[1] == [1, 2, 1, 3, 2, 3, 1, 2, 3] and got[2] == [2, 2, 3]


def test_dense_to_sparse_equals_dense_to_dense():
    x2 = np.array(X2)
    idx = np.array([[i, j] for i in range(3) for j in range(3)], np.int64)
    for op in ("a-b", "b-a", "intersection", "union"):
        sparse = DenseToSparseSetOperation(op)(
            ms.Tensor(X1, ms.int32), ms.Tensor(idx), ms.Tensor(x2.ravel().astype(np.int32)),
            ms.Tensor(np.array([3, 3], np.int64)))
        dense = DenseToDenseSetOperation(op)(ms.Tensor(X1, ms.int32), ms.Tensor(X2, ms.int32))
        assert lists(sparse) == lists(dense)


def test_errors():
    with pytest.raises(ValueError, match="set_operation"):
        DenseToDenseSetOperation("xor")(ms.Tensor(X1), ms.Tensor(X2))
    with pytest.raises(ValueError, match="at least 2"):
        DenseToDenseSetOperation()(ms.Tensor([1, 2]), ms.Tensor([1, 2]))
    with pytest.raises(TypeError, match="dtype"):
        DenseToDenseSetOperation()(ms.Tensor(X1, ms.int32), ms.Tensor(X2, ms.int64))
    with pytest.raises(ValueError, match="group shape"):
        DenseToDenseSetOperation()(ms.Tensor(X1), ms.Tensor([[1, 2]]))
