"""The op of `nn.SyncBatchNorm`: normalisation whose backward all-reduces, per channel, the
two sums the input gradient needs, so it is the gradient of the group-wide batch statistics.
Kept apart from the layer so that registering it imports nothing from cellgrad-ops-nn."""

from __future__ import annotations

import numpy as np

from cellgrad.plugins import PROMOTE_NONE, Op
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
