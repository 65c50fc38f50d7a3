"""Sparse kernels: the sparse x dense product as an op (forward and backward side by side) and
the index bookkeeping (merges, sorts, row pointers) the sparse tensors' methods share.

Index arithmetic runs on numpy; every value path goes through differentiable ops (getitem,
index_add_zeros, the product below), so gradients reach `values` and dense operands.
"""

import numpy as np

from cellgrad._core._buffer import make_tensor
from cellgrad.ops import _index
from cellgrad.ops._registry import apply, define

__all__ = ["SPARSE_DENSE_MATMUL", "csr_rows", "gather_values", "index_add", "merge_coo",
           "row_pointers", "scatter_add_into", "sparse_dense_matmul"]


def _spmm_fwd(values, dense, rows, cols, out_rows):
    if cols.size and cols.max() >= dense.shape[0]:
        raise ValueError(f"For 'SparseTensorDenseMatmul', a column index {cols.max()} is out "
                         f"of the dense operand's {dense.shape[0]} rows.")
    out = np.zeros((out_rows,) + dense.shape[1:], np.result_type(values, dense))
    np.add.at(out, rows, values.reshape(values.shape + (1,) * (dense.ndim - 1)) * dense[cols])
    return out, (values, dense, rows, cols)


def _spmm_bwd(ctx, g):
    values, dense, rows, cols = ctx.saved
    xp = ctx.xp
    need_values, need_dense = ctx.needs_input_grad
    g_rows = xp.getitem(g, rows)
    gv = gd = None
    if need_values:
        prod = g_rows * xp.getitem(dense, cols)
        gv = prod.sum(axis=tuple(range(1, dense.ndim))) if dense.ndim > 1 else prod
    if need_dense:
        scale = values.reshape(values.shape + (1,) * (dense.ndim - 1))
        gd = xp.index_add_zeros(dense.shape, cols, g_rows * scale)
    return gv, gd


# out[rows[k]] += values[k] * dense[cols[k]]: a sparse (out_rows x dense.shape[0]) matrix times
# `dense`; gradients flow to `values` and `dense`, the integer rows and cols are attributes.
SPARSE_DENSE_MATMUL = define("SparseTensorDenseMatmul", _spmm_fwd, _spmm_bwd)


def sparse_dense_matmul(values, dense, rows, cols, out_rows):
    return apply(SPARSE_DENSE_MATMUL, (values, dense),
                 {"rows": np.asarray(rows, np.int64), "cols": np.asarray(cols, np.int64),
                  "out_rows": int(out_rows)})


def index_add(shape, index, values):
    """Zeros of `shape` with `values` added at `index` (differentiable in `values`)."""
    return apply(_index.INDEX_ADD_ZEROS, (values,), {"shape": tuple(shape), "index": index})


def gather_values(values, positions):
    """`values[positions]` (differentiable)."""
    return apply(_index.GETITEM, (values,), {"index": np.asarray(positions, np.int64)})


def row_pointers(rows, n_rows, dtype):
    """CSR `indptr` of sorted row indices."""
    counts = np.bincount(rows, minlength=n_rows)[:n_rows]
    return np.concatenate([[0], np.cumsum(counts)]).astype(dtype)


def csr_rows(indptr, nnz):
    """The row of each stored value of a CSR tensor."""
    counts = np.diff(indptr.astype(np.int64))
    return np.repeat(np.arange(counts.size), counts)[:nnz]


def merge_coo(ia, ib, va, vb, keep_sum):
    """MindSpore's SparseAdd on CPU: a merge of two index lists taken as sorted (row, col),
    equal indices summed and kept when `keep_sum(sum)`; each value's output position.

    Returns (out_indices, pos_a, pos_b, keep): out = index_add(pos_a, va) + index_add(pos_b, vb)
    at the positions in `keep`.
    """
    na, nb = len(ia), len(ib)
    out, pos_a, pos_b, keep = [], np.empty(na, np.int64), np.empty(nb, np.int64), []
    i = j = 0
    while i < na or j < nb:
        if j >= nb or (i < na and tuple(ia[i]) < tuple(ib[j])):
            pos_a[i] = len(out)
            out.append(ia[i])
            keep.append(True)
            i += 1
        elif i >= na or tuple(ib[j]) < tuple(ia[i]):
            pos_b[j] = len(out)
            out.append(ib[j])
            keep.append(True)
            j += 1
        else:
            pos_a[i] = pos_b[j] = len(out)
            out.append(ia[i])
            keep.append(bool(keep_sum(va[i] + vb[j])))
            i += 1
            j += 1
    indices = np.array(out, ia.dtype).reshape(-1, ia.shape[1] if ia.ndim == 2 else 2)
    return indices, pos_a, pos_b, np.array(keep, bool)


def scalar_tensor(value, dtype):
    return make_tensor(np.asarray(value, dtype.np_dtype), None, 0, dtype)


def scatter_add_into(dense, coords, values):
    """`dense` with `values` added at the (row, col) `coords` (MindSpore's TensorScatterAdd):
    entries not indexed stay as they are, -0.0 included; differentiable in both."""
    flat = coords[:, 0] * dense.shape[1] + coords[:, 1]
    uniq, inverse = np.unique(flat, return_inverse=True)
    summed = index_add((len(uniq),), inverse.reshape(-1), values)
    index = (uniq // dense.shape[1], uniq % dense.shape[1])
    current = apply(_index.GETITEM, (dense,), {"index": index})
    return apply(_index.SETITEM, (dense, current + summed), {"index": index})
