"""Mirrors `mindspore.nn.sparse`: the Cell forms of the sparse primitives."""

from cellgrad import log as logger
from cellgrad.nn.cell import Cell
from cellgrad.ops._sparse_prims import SparseTensorDenseMatmul as _Matmul
from cellgrad.ops._sparse_prims import SparseToDense as _ToDense

__all__ = ["SparseTensorDenseMatmul", "SparseToDense"]


class SparseToDense(Cell):
    """Mirrors `mindspore.nn.SparseToDense` (deprecated there since 2.0: it logs a warning):
    the dense tensor of a COOTensor."""

    def __init__(self):
        logger.warning("'nn.SparseToDense' is deprecated from version 2.0 and will be removed in "
                       "a future version. Please use 'COOTensor.to_dense()' instead.")
        super().__init__()
        self.sparse_to_dense = _ToDense()

    def construct(self, sparse_tensor):
        return self.sparse_to_dense(sparse_tensor.indices, sparse_tensor.values,
                                    sparse_tensor.shape)


class SparseTensorDenseMatmul(Cell):
    """Mirrors `mindspore.nn.SparseTensorDenseMatmul`: `ops.SparseTensorDenseMatmul` as a
    Cell."""

    def __init__(self, adjoint_st=False, adjoint_dt=False):
        super().__init__()
        self.adj_st = adjoint_st
        self.adj_dt = adjoint_dt
        self.sparse_dense_matmul = _Matmul(adjoint_st=adjoint_st, adjoint_dt=adjoint_dt)

    def construct(self, indices, values, sparse_shape, dense):
        return self.sparse_dense_matmul(indices, values, sparse_shape, dense)
