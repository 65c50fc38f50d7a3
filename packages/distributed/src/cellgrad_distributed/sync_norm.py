"""The op of `nn.SyncBatchNorm`: normalisation whose backward all-reduces, per channel, the
two sums the input gradient needs, so it is the gradient of the group-wide batch statistics.
Kept apart from the layer so that registering it imports nothing from cellgrad-ops-nn."""

from __future__ import annotations

import numpy as np

from cellgrad.plugins import PROMOTE_NONE, Op, apply
from cellgrad_distributed import collectives, world


def stat_dtype(x):
    return np.float32 if x.dtype == np.float16 else x.dtype


def _sync_norm_fwd(x, w, b, *, mean, var, eps, axes, group, count):
    invstd = (1.0 / np.sqrt(var + eps)).astype(mean.dtype, copy=False)
    xhat = ((x - mean) * invstd).astype(stat_dtype(x), copy=False)
    y = xhat * w + b
    return y.astype(x.dtype, copy=False), (xhat, invstd, w, axes, group, count)


def _sync_norm_bwd(ctx, g):
    xhat, invstd, w, axes, group, count = ctx.saved
    nx, nw, nb = ctx.needs_input_grad
    g = g.astype(xhat.dtype, copy=False)
    gw = (g * xhat).sum(axis=axes, keepdims=True) if nw else None
    gb = g.sum(axis=axes, keepdims=True) if nb else None
    gx = None
    if nx:
        gxhat = g * w
        c = xhat.shape[1]
        local = np.concatenate([gxhat.sum(axis=axes, dtype=np.float64).ravel(),
                                (gxhat * xhat).sum(axis=axes, dtype=np.float64).ravel()])
        sums = collectives.all_reduce(local, "sum", world.resolve(group, "SyncBatchNorm"),
                                      "SyncBatchNorm")
        shape = invstd.shape
        mean_g = (sums[:c] / count).astype(xhat.dtype).reshape(shape)
        mean_gx = (sums[c:] / count).astype(xhat.dtype).reshape(shape)
        gx = (gxhat - mean_g - xhat * mean_gx) * invstd
    return gx, gw, gb


SYNC_NORM = Op("SyncBatchNorm", _sync_norm_fwd, _sync_norm_bwd, PROMOTE_NONE,
               first_order_only=True)
OPS = (SYNC_NORM,)


def group_moments(x, group):
    """Per-channel mean, biased variance and element count of `x` (N, C, ...) over every
    process of `group`: one float64 all-reduce of the sums of x and x² and the count."""
    c = x.shape[1]
    axes = (0,) + tuple(range(2, x.ndim))
    wide = x._data.astype(np.float64)
    local = np.concatenate([wide.sum(axis=axes), (wide * wide).sum(axis=axes),
                            [wide.size // c]])
    total = collectives.all_reduce(local, "sum", group, "SyncBatchNorm")
    count = total[-1]
    mean = total[:c] / count
    return mean, np.maximum(total[c:2 * c] / count - mean * mean, 0.0), count


def blend_running(stat, new, keep):
    """`stat = keep * stat + (1 - keep) * new` in place, in the statistic's own dtype."""
    running = stat._data
    running *= keep
    running += (new * (1.0 - keep)).astype(running.dtype)


def sync_normalise(x, weight, bias, mean, var, count, eps, group_name):
    """`x` normalised with the group's statistics; the backward all-reduces in `group_name`."""
    shape = (1, x.shape[1]) + (1,) * (x.ndim - 2)
    dtype = stat_dtype(x._data)
    attrs = {"mean": mean.astype(dtype).reshape(shape), "var": var.astype(dtype).reshape(shape),
             "eps": float(eps), "axes": (0,) + tuple(range(2, x.ndim)), "group": group_name,
             "count": float(count)}
    return apply(SYNC_NORM, (x, weight.reshape(shape), bias.reshape(shape)), attrs)
