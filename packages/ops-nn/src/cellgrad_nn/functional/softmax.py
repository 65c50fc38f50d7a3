"""softmax and log_softmax along one axis, numerically stable (max subtracted first)."""

import numpy as np

from cellgrad.plugins import PROMOTE_NONE, Op, apply
from cellgrad_nn.functional import _checks


def softmax_array(x: np.ndarray, axis: int) -> np.ndarray:
    """Softmax of a numpy array along `axis`, in its dtype."""
    e = x - x.max(axis=axis, keepdims=True)
    np.exp(e, out=e)
    e /= e.sum(axis=axis, keepdims=True)
    return e


def log_softmax_array(x: np.ndarray, axis: int) -> np.ndarray:
    """log(softmax(x)) as x - max - log(sum(exp(x - max))), in x's dtype."""
    shifted = x - x.max(axis=axis, keepdims=True)
    shifted -= np.log(np.exp(shifted).sum(axis=axis, keepdims=True))
    return shifted


def _softmax_fwd(x, *, axis):
    out = softmax_array(x, axis)
    return out, (out, axis)


def _softmax_bwd(ctx, g):
    out, axis = ctx.saved
    gy = g * out
    return gy - out * gy.sum(axis=axis, keepdims=True)


def _log_softmax_fwd(x, *, axis):
    out = log_softmax_array(x, axis)
    return out, (out, axis)


def _log_softmax_bwd(ctx, g):
    out, axis = ctx.saved
    return g - ctx.xp.exp(out) * g.sum(axis=axis, keepdims=True)


SOFTMAX = Op("softmax", _softmax_fwd, _softmax_bwd, PROMOTE_NONE)
LOG_SOFTMAX = Op("log_softmax", _log_softmax_fwd, _log_softmax_bwd, PROMOTE_NONE)
OPS = (SOFTMAX, LOG_SOFTMAX)


def softmax(input, axis=-1, *, dtype=None):
    """Mirrors `mindspore.ops.softmax` (`dtype` casts the input first)."""
    if dtype is not None:
        from cellgrad.ops import functional as F

        _checks.tensor("softmax", "input", input)
        input = F.cast(input, dtype)
    _checks.floating("softmax", "input", input)
    axis = _checks.axis("softmax", axis, input.ndim)
    return apply(SOFTMAX, (input,), {"axis": axis})


def log_softmax(logits, axis=-1):
    """Mirrors `mindspore.ops.log_softmax`."""
    _checks.floating("log_softmax", "logits", logits)
    axis = _checks.axis("log_softmax", axis, logits.ndim)
    return apply(LOG_SOFTMAX, (logits,), {"axis": axis})
