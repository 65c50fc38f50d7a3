"""Grids and index arrays of `mindspore.numpy.array_creations`: meshgrid, mgrid/ogrid, indices,
ix_, diag_indices and the triangle indices."""

import math
import operator

import numpy as np

from cellgrad._core._buffer import TensorBuffer
from cellgrad.dtype import float32, int32
from cellgrad.numpy._common import (
    check_dtype,
    check_tensor,
    const_array,
    new,
)
from cellgrad.numpy._joining import stack
from cellgrad.numpy._ranges import arange, linspace
from cellgrad.numpy._shapes import ravel
from cellgrad.ops import functional as F


def meshgrid(*xi, sparse=False, indexing="xy"):
    """Mirrors `mindspore.numpy.meshgrid`: a list of coordinate Tensors."""
    check_tensor("meshgrid", *xi)
    if not isinstance(sparse, bool):
        raise TypeError(f"For 'meshgrid', argument sparse should be boolean, got {sparse!r}.")
    if indexing not in ("xy", "ij"):
        raise TypeError(f"For 'meshgrid', valid values for `indexing` are 'xy' and 'ij', got "
                        f"{indexing!r}.")
    if any(x.size == 0 for x in xi):
        return new(np.ones(tuple(x.size for x in xi), np.float32), float32)
    grids = [x if x.ndim == 1 else ravel(x) for x in xi]
    ndim = len(grids)
    order = list(range(ndim))
    if indexing == "xy" and ndim >= 2:
        order[0], order[1] = 1, 0
    shape = tuple(grids[order[i]].shape[0] for i in range(ndim))
    res = []
    for i, x in enumerate(grids):
        pos = order[i]
        expanded = tuple(shape[pos] if j == pos else 1 for j in range(ndim))
        x = F.reshape(x, expanded)
        if not sparse:
            x = F.tile(x, tuple(s if e != s else 1 for e, s in zip(expanded, shape)))
        res.append(x)
    return res


class NdGrid:
    """MindSpore's `NdGrid`: `grid[a:b:step, ...]` builds coordinate grids (`mgrid`/`ogrid`);
    a complex step is a number of points, as in numpy."""

    def __init__(self, sparse=False):
        self.sparse = sparse

    def __getitem__(self, keys):
        keys = (keys,) if isinstance(keys, slice) else keys
        xi = []
        for k in keys:
            if not isinstance(k, slice):
                raise TypeError(f"grid indices must be slices, got {type(k).__name__}.")
            if not isinstance(k.start, int) or not isinstance(k.stop, int):
                raise TypeError(f"slice indices must be integers, got {k}.")
            step = k.step or 1
            if isinstance(step, complex):
                xi.append(linspace(k.start, k.stop, int(abs(step))))
            else:
                xi.append(arange(k.start, k.stop, step))
        grids = meshgrid(*xi, sparse=self.sparse, indexing="ij")
        if isinstance(grids, TensorBuffer):
            return grids
        if len(grids) == 1:
            return grids[0]
        if self.sparse:
            return grids
        return stack(grids)


class MGridClass(NdGrid):
    """Mirrors `mindspore.numpy.mgrid`'s class: dense grids."""

    def __init__(self):
        super().__init__(sparse=False)


class OGridClass(NdGrid):
    """Mirrors `mindspore.numpy.ogrid`'s class: open (sparse) grids."""

    def __init__(self):
        super().__init__(sparse=True)


mgrid = MGridClass()
ogrid = OGridClass()


def indices(dimensions, dtype=int32, sparse=False):
    """Mirrors `mindspore.numpy.indices`: a list of index grids (not one stacked Tensor)."""
    if not isinstance(dimensions, (tuple, list)):
        raise TypeError(f"For 'indices', shape of the grid must be tuple or list, got "
                        f"{type(dimensions).__name__}.")
    d = check_dtype(dtype, "indices")
    return meshgrid(*(arange(n, dtype=d) for n in dimensions), sparse=sparse, indexing="ij")


def ix_(*args):
    """Mirrors `mindspore.numpy.ix_`: open-mesh index Tensors from 1-D Tensors."""
    check_tensor("ix_", *args)
    res = ()
    for i, arr in enumerate(args):
        if arr.ndim != 1:
            raise ValueError(f"For 'ix_', cross index must be 1 dimensional, got shape "
                             f"{tuple(arr.shape)}.")
        res += (F.reshape(arr, tuple(arr.size if j == i else 1 for j in range(len(args)))),)
    return res


def diag_indices(n, ndim=2):
    """Mirrors `mindspore.numpy.diag_indices`: `ndim` copies of `arange(n)` (Int32)."""
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (n, ndim)):
        raise TypeError(f"For 'diag_indices', input must be integers, got n={n!r}, "
                        f"ndim={ndim!r}.")
    r = arange(0, n)
    return (r,) * ndim


def _tri_indices(op, n, k, m, upper):
    for name, v in (("n", n), ("k", k), ("m", m)):
        if v is not None and not isinstance(v, (int, float, bool)):
            raise TypeError(f"For '{op}', input {name} must be a number, got {v!r}.")
    m = n if m is None else m
    compare = operator.ge if upper else operator.le
    rows, cols = [], []
    for i in range(math.ceil(n)):
        for j in range(math.ceil(m)):
            if compare(j, i + k):
                rows.append(i)
                cols.append(j)
    return new(np.asarray(rows, np.int32), int32), new(np.asarray(cols, np.int32), int32)


def triu_indices(n, k=0, m=None):
    """Mirrors `mindspore.numpy.triu_indices` (Int32 row and column indices)."""
    return _tri_indices("triu_indices", n, k, m, True)


def tril_indices(n, k=0, m=None):
    """Mirrors `mindspore.numpy.tril_indices`."""
    return _tri_indices("tril_indices", n, k, m, False)


def _from(op, arr):
    arr = arr if isinstance(arr, TensorBuffer) else const_array(arr, None, op)
    if arr.ndim != 2:
        raise ValueError(f"For '{op}', input array must be 2-d, got shape {tuple(arr.shape)}.")
    return arr.shape


def triu_indices_from(arr, k=0):
    """Mirrors `mindspore.numpy.triu_indices_from`."""
    rows, cols = _from("triu_indices_from", arr)
    return triu_indices(rows, k, cols)


def tril_indices_from(arr, k=0):
    """Mirrors `mindspore.numpy.tril_indices_from`."""
    rows, cols = _from("tril_indices_from", arr)
    return tril_indices(rows, k, cols)
