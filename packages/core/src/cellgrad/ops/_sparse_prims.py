"""Mirrors MindSpore's sparse primitives that run on its CPU: `SparseTensorDenseMatmul`,
`SparseToDense`, `SparseTensorDenseAdd` (a sparse tensor given as indices, values, shape)."""

import numpy as np

from cellgrad import ops
from cellgrad._core._buffer import TensorBuffer as Tensor  # the base of every Tensor
from cellgrad.ops._sparse_ops import index_add, sparse_dense_matmul
from cellgrad.ops.primitive import Primitive, prim_attr_register

__all__ = ["SparseTensorDenseAdd", "SparseTensorDenseMatmul", "SparseToDense"]


def _shape_tuple(prim, shape):
    if isinstance(shape, Tensor):
        shape = shape.asnumpy().tolist()
    if not isinstance(shape, (tuple, list)) or not all(isinstance(n, (int, np.integer))
                                                        for n in shape):
        raise TypeError(f"For '{prim}', the 'sparse_shape' must be a tuple of int or a Tensor, "
                        f"but got {shape!r}.")
    return tuple(int(n) for n in shape)


def _coords(prim, indices, shape):
    if not isinstance(indices, Tensor) or indices.asnumpy().dtype.kind not in "iu":
        raise TypeError(f"For '{prim}', the 'indices' must be an integer Tensor, but got "
                        f"{indices!r}.")
    coords = indices.asnumpy().astype(np.int64)
    if coords.ndim != 2 or coords.shape[1] != len(shape):
        raise ValueError(f"For '{prim}', the 'indices' must have shape (N, {len(shape)}), but "
                         f"got {indices.shape}.")
    bad = ((coords < 0) | (coords >= np.array(shape))).any(axis=1)
    if bad.any():
        row, col = coords[np.argmax(bad)][:2]
        raise ValueError(f"For '{prim}', the indices including out of bounds index, row range: "
                         f"[0, {shape[0]}), col range: [0, {shape[1]}), but got row: {row}, "
                         f"col: {col}")
    return coords


class SparseTensorDenseMatmul(Primitive):
    """Mirrors `mindspore.ops.SparseTensorDenseMatmul`: a 2-D COO sparse matrix (indices,
    values, sparse_shape) times a dense matrix; differentiable in `values` and `dense`."""

    @prim_attr_register
    def __init__(self, adjoint_st=False, adjoint_dt=False):
        for name, flag in (("adjoint_st", adjoint_st), ("adjoint_dt", adjoint_dt)):
            if not isinstance(flag, bool):
                raise TypeError(f"For 'SparseTensorDenseMatmul', the type of '{name}' should "
                                f"be bool, but got {type(flag).__name__}.")
        self.add_prim_attr("adjoint_a", adjoint_st)
        self.add_prim_attr("adjoint_b", adjoint_dt)

    def __call__(self, indices, values, sparse_shape, dense):
        name = "SparseTensorDenseMatmul"
        shape = _shape_tuple(name, sparse_shape)
        if values.dtype != dense.dtype:
            raise TypeError(f"For primitive[{name}], the input type must be same.")
        coords = _coords(name, indices, shape)
        rows, cols = coords[:, 0], coords[:, 1]
        out_rows = shape[0]
        if self.adjoint_st:
            rows, cols, out_rows = cols, rows, shape[1]
        if self.adjoint_dt:
            dense = ops.transpose(dense, (1, 0))
        return sparse_dense_matmul(values, dense, rows, cols, out_rows)


class SparseToDense(Primitive):
    """Mirrors `mindspore.ops.SparseToDense`: the dense tensor of (indices, values, shape)."""

    def __call__(self, indices, values, sparse_shape):
        shape = _shape_tuple("SparseToDense", sparse_shape)
        coords = _coords("SparseToDense", indices, shape)
        return index_add(shape, tuple(coords.T), values)


class SparseTensorDenseAdd(Primitive):
    """Mirrors `mindspore.ops.SparseTensorDenseAdd`: a sparse tensor added to a dense one."""

    def __call__(self, x1_indices, x1_values, x1_shape, x2):
        shape = _shape_tuple("SparseTensorDenseAdd", x1_shape)
        if shape != tuple(x2.shape):
            raise ValueError(f"For 'SparseTensorDenseAdd', 'x1_shape' {shape} must equal the "
                             f"shape of 'x2' {x2.shape}.")
        coords = _coords("SparseTensorDenseAdd", x1_indices, shape)
        return x2 + index_add(shape, tuple(coords.T), x1_values)
