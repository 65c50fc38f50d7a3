"""Sorting: sort and topk (values differentiable, indices not)."""

import numpy as np

from cellgrad.ops._registry import define


def _sort_fwd(x, axis=-1, descending=False, index_dtype=np.int32):
    if x.ndim == 0:
        raise ValueError("For 'sort', the input must be at least 1-D, got a 0-d tensor.")
    key = -x if descending and x.dtype.kind != "b" else x
    idx = np.argsort(key, axis=axis, kind="stable")
    if descending and x.dtype.kind == "b":
        idx = np.flip(np.argsort(x, axis=axis, kind="stable"), axis)
    values = np.take_along_axis(x, idx, axis)
    return (values, idx.astype(index_dtype)), (x.shape, idx, axis)


def _sort_bwd(ctx, g, g_idx=None):
    shape, idx, axis = ctx.saved
    return ctx.xp.scatter_along_axis(shape, idx, g, axis)


def _topk_fwd(x, k, axis=-1, largest=True, sorted=True, index_dtype=np.int32):
    n = x.shape[axis] if x.ndim else 1
    if not 0 <= k <= n:
        raise ValueError(f"For 'topk', 'k' must be in [0, {n}] for an input of shape {x.shape}, "
                         f"got {k}.")
    key = -x if largest else x
    idx = np.argsort(key, axis=axis, kind="stable")
    idx = np.take(idx, np.arange(k), axis=axis)
    values = np.take_along_axis(x, idx, axis)
    return (values, idx.astype(index_dtype)), (x.shape, idx, axis)


SORT = define("sort", _sort_fwd, _sort_bwd)
TOPK = define("topk", _topk_fwd, _sort_bwd)


def scatter_add_along_axis(shape, idx, g, axis):
    """Zeros of `shape` with `g` added at `idx` along `axis` (the adjoint of take_along_axis;
    repeated indices accumulate)."""
    out = np.zeros(shape, g.dtype)
    index = list(np.indices(idx.shape, sparse=True))
    index[axis] = idx
    np.add.at(out, tuple(index), g)
    return out


def _scatter_along_axis_fwd(g, shape, idx, axis):
    return scatter_add_along_axis(shape, idx, g, axis), (idx, axis)


def _scatter_along_axis_bwd(ctx, gg):
    # The adjoint reads back exactly the places written. `idx` may be smaller than the output
    # outside `axis`, where take_along_axis would broadcast it over the whole output.
    idx, axis = ctx.saved
    axis %= idx.ndim
    if any(i != n for a, (i, n) in enumerate(zip(idx.shape, gg.shape)) if a != axis):
        gg = ctx.xp.getitem(gg, tuple(slice(None) if a == axis else slice(0, i)
                                      for a, i in enumerate(idx.shape)))
    return ctx.xp.take_along_axis(gg, idx, axis)


def _take_along_axis_fwd(x, idx, axis):
    return np.take_along_axis(x, idx, axis), (x.shape, idx, axis)


SCATTER_ALONG_AXIS = define("scatter_along_axis", _scatter_along_axis_fwd,
                            _scatter_along_axis_bwd)
TAKE_ALONG_AXIS = define("take_along_axis", _take_along_axis_fwd, _sort_bwd)
