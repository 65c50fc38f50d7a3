"""Binning and index arithmetic of `mindspore.numpy.math_ops`: searchsorted, digitize,
bincount, histograms, ravel_multi_index. Their outputs are piecewise constant in the data, so
only `bincount`'s and the histograms' weights carry a gradient."""

import builtins
import itertools

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.dtype import float32, int32
from cellgrad.numpy._common import to_tensor
from cellgrad.numpy._math_common import cast
from cellgrad.ops import functional as F


def _int32(arr):
    return make_tensor(np.asarray(arr, np.int32), None, 0, int32)


def searchsorted(a, v, side="left", sorter=None):
    """Mirrors `mindspore.numpy.searchsorted`: Int32 insertion points of `v` in the sorted 1-D
    `a` (compared in Float32, as MindSpore)."""
    op = "mindspore.numpy.searchsorted"
    if side not in ("left", "right"):
        raise ValueError(f"For '{op}', invalid value for keyword 'side': {side!r}.")
    a = cast(to_tensor(a, op=op), float32)
    if a.ndim != 1:
        raise ValueError(f"For '{op}', `a` should be 1-D array, got shape {a.shape}.")
    v = to_tensor(v, op=op)
    arr = a._data
    if sorter is not None:
        sorter = to_tensor(sorter, op=op)
        if sorter.ndim != 1 or sorter.size != a.size:
            raise ValueError(f"For '{op}', sorter must be 1-D array with the same size as `a`.")
        arr = arr[sorter._data]
    return _int32(np.searchsorted(arr, v._data, side=side))


def digitize(x, bins, right=False):
    """Mirrors `mindspore.numpy.digitize`: the Int32 index of the bin of each value, for
    increasing or decreasing `bins`."""
    op = "mindspore.numpy.digitize"
    x, bins = to_tensor(x, bins, op=op)
    if bins.ndim != 1:
        raise ValueError(f"For '{op}', bins should be 1-dimensional, got shape {bins.shape}.")
    if x.size == 0:
        return x
    if bins.size == 0:
        return _int32(np.zeros(x.shape))
    side = "left" if right else "right"
    b = bins._data
    if b[0] <= b[-1]:
        return searchsorted(bins, x, side)
    return _int32(bins.size - searchsorted(F.flip(bins, (0,)), x, side)._data)


def bincount(x, weights=None, minlength=0, length=None):
    """Mirrors `mindspore.numpy.bincount`: Float32 counts (or sums of `weights`) of the
    non-negative ints of `x` (negatives count as 0; values past `length` are dropped)."""
    op = "mindspore.numpy.bincount"
    x = to_tensor(x, op=op)
    if x.ndim != 1:
        raise ValueError(f"For '{op}', `x` should be one-dimensional, got shape {x.shape}.")
    if x.dtype.kind != 1:
        raise TypeError(f"For '{op}', `x` should be an array of ints, got {x.dtype}.")
    idx = np.clip(x._data, 0, None)
    if length is None:
        length = int(max(idx.max() if idx.size else 0, minlength - 1)) + 1
    onehot = make_tensor((idx[None, :] == np.arange(length)[:, None]).astype(np.float32))
    if weights is None:
        return F.sum(onehot, 1)
    weights = to_tensor(weights, op=op)
    if weights.shape != x.shape:
        raise ValueError(f"For '{op}', `x` and `weights` must have the same length, got "
                         f"{x.shape} and {weights.shape}.")
    return F.matmul(onehot, cast(weights, float32))


def _bin_edges(op, a, bins, range):
    """MindSpore's `histogram_bin_edges`: `bins` as given when a sequence, else `bins + 1`
    edges spaced in Float32 arithmetic (start + i * step, the last edge exactly the end)."""
    if isinstance(bins, (TensorBuffer, list, tuple)):
        edges = to_tensor(bins, op=op)
        if edges.ndim != 1:
            raise ValueError(f"For '{op}', `bins` must be 1d, when an array, got shape "
                             f"{edges.shape}.")
        return edges
    if not isinstance(bins, (int, np.integer)) or isinstance(bins, bool) or bins < 1:
        raise ValueError(f"For '{op}', `bins` should be a positive int or a sequence, got "
                         f"{bins!r}.")
    if range is None:
        data = a._data.astype(np.float32)
        lo, hi = (data.min(), data.max()) if data.size else (np.float32(0), np.float32(1))
    else:
        if not isinstance(range, (list, tuple)) or len(range) != 2:
            raise ValueError(f"For '{op}', `range` should take the form (start, end), got "
                             f"{range!r}.")
        lo, hi = np.float32(range[0]), np.float32(range[1])
        if lo > hi:
            raise ValueError(f"For '{op}', max must be larger than min in range parameter.")
    if hi - lo == 0:
        lo, hi = lo - np.float32(0.5), hi + np.float32(0.5)
    step = np.float32((hi - lo) / np.float32(bins))
    edges = (lo + np.arange(bins + 1, dtype=np.float32) * step).astype(np.float32)
    edges[-1] = hi
    return make_tensor(edges)


def _bin_index(a, edges):
    """The bin (1-based, 0 below, len(edges) above) of each value; the last edge is closed."""
    e = edges._data.astype(np.float32)
    pos = np.searchsorted(e, a._data.astype(np.float32), side="right")
    return np.where(a._data == e[-1], e.size - 1, pos)


def histogram(a, bins=10, range=None, weights=None, density=False):
    """Mirrors `mindspore.numpy.histogram`: `(Float32 counts, Float32 bin edges)`."""
    op = "mindspore.numpy.histogram"
    a = to_tensor(a, op=op)
    if weights is not None:
        weights = to_tensor(weights, op=op)
        if weights.shape != a.shape:
            raise ValueError(f"For '{op}', weights should have the same shape as a, got "
                             f"{weights.shape} and {a.shape}.")
        weights = F.reshape(weights, (-1,))
    a = F.reshape(a, (-1,))
    edges = _bin_edges(op, a, bins, range)
    count = bincount(_int32(_bin_index(a, edges)), weights, length=edges.size)[1:]
    if count.size and density:
        count = count / make_tensor(np.diff(edges._data).astype(np.float32)) / F.sum(count)
    return count, edges


def histogramdd(sample, bins=10, range=None, weights=None, density=False):
    """Mirrors `mindspore.numpy.histogramdd`: `(counts, [edges per dimension])` of an (N, D)
    sample (or a sequence of D arrays)."""
    op = "mindspore.numpy.histogramdd"
    if isinstance(sample, (tuple, list)):
        sample = F.stack([cast(to_tensor(s, op=op), float32) for s in sample], -1)
    elif not isinstance(sample, TensorBuffer):
        raise TypeError(f"For '{op}', sample should be (N, D) array, or (D, N) array_like, got "
                        f"{type(sample).__name__}.")
    if sample.ndim != 2:
        raise ValueError(f"For '{op}', when an array, sample should be 2-dimensional, got shape "
                         f"{sample.shape}.")
    ndim = sample.shape[1]
    if isinstance(bins, int):
        bins = [bins] * ndim
    if not isinstance(bins, (tuple, list, TensorBuffer)):
        raise TypeError(f"For '{op}', bins should be int or sequence, got {bins!r}.")
    if len(bins) != ndim:
        raise ValueError(f"For '{op}', the dimension of bins must be equal to the dimension of "
                         f"the sample ({ndim}), got {len(bins)}.")
    if range is None:
        range = [None] * ndim
    elif len(range) != ndim:
        raise ValueError(f"For '{op}', range argument must have one entry per dimension.")
    edges, flat, nbin = [], np.zeros(sample.shape[0], np.int64), []
    for i in builtins.range(ndim):
        e = _bin_edges(op, sample[:, i], bins[i], range[i])
        edges.append(e)
        nbin.append(e.size + 1)
    factor = list(itertools.accumulate(nbin[1:][::-1], lambda x, y: x * y))[::-1] + [1]
    for i, e in enumerate(edges):
        flat += _bin_index(sample[:, i], e) * factor[i]
    if weights is not None:
        weights = to_tensor(weights, op=op)
    count = bincount(_int32(flat), weights, length=int(np.prod(nbin)))
    count = F.reshape(count, tuple(nbin))[(slice(1, -1),) * ndim]
    if density:
        total = F.sum(count)
        for i, e in enumerate(edges):
            shape = tuple(e.size - 1 if j == i else 1 for j in builtins.range(ndim))
            count = count / make_tensor(np.diff(e._data).astype(np.float32).reshape(shape))
        count = count / total
    return count, edges



def histogram2d(x, y, bins=10, range=None, weights=None, density=False):
    """Mirrors `mindspore.numpy.histogram2d`: `(counts, x edges, y edges)`."""
    count, edges = histogramdd((x, y), bins=bins, range=range, weights=weights,
                               density=density)
    return count, edges[0], edges[1]


def ravel_multi_index(multi_index, dims, mode="clip", order="C"):
    """Mirrors `mindspore.numpy.ravel_multi_index`: flat indices (Float32, as MindSpore) of
    index arrays into an array of shape `dims`; out-of-range indices 'clip' or 'wrap'."""
    op = "mindspore.numpy.ravel_multi_index"
    if isinstance(dims, int):
        dims = (dims,)
    dims = to_tensor(dims, op=op)
    if dims.ndim > 1 or dims.dtype.kind != 1:
        raise TypeError(f"For '{op}', only 1-D integer arrays are accepted as dims.")
    multi_index = to_tensor(multi_index, op=op)
    if len(multi_index) != len(dims):
        raise ValueError(f"For '{op}', parameter multi_index must be a sequence of length "
                         f"{len(dims)}.")
    if multi_index.dtype.kind == 2:
        raise TypeError(f"For '{op}', only int indices permitted, got {multi_index.dtype}.")
    if mode == "raise":
        raise NotImplementedError(f"For '{op}', 'raise' mode is not implemented.")
    if mode not in ("clip", "wrap"):
        raise ValueError(f"For '{op}', invalid mode {mode!r}. Expected 'wrap' or 'clip'.")
    if order not in ("C", "F"):
        raise ValueError(f"For '{op}', invalid order {order!r}. Expected 'C' or 'F'.")
    d = dims._data.astype(np.int64).reshape((-1,) + (1,) * (multi_index.ndim - 1))
    idx = multi_index._data.astype(np.int64)
    idx = np.clip(idx, 0, d - 1) if mode == "clip" else np.mod(idx, d)
    sizes = dims._data.astype(np.int64)
    if order == "C":
        strides = np.concatenate([np.cumprod(sizes[::-1])[::-1][1:], [1]])
    else:
        strides = np.concatenate([[1], np.cumprod(sizes)[:-1]])
    strides = strides.reshape(d.shape)
    return make_tensor((idx * strides).astype(np.float32).sum(axis=0))
