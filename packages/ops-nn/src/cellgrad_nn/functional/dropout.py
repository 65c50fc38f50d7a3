"""dropout, dropout2d and the Dropout / Dropout2D primitives (which also return the mask).

Masks are drawn from the core's seeded streams (`cellgrad.context.generator`) outside the op, so
the op itself is deterministic: out = x * mask / keep_prob.
"""

import numpy as np

from cellgrad import context
from cellgrad.plugins import PROMOTE_NONE, Op, apply
from cellgrad_nn.functional import _checks


def _dropout_fwd(x, *, scale):
    return x * scale, (scale,)


def _dropout_bwd(ctx, g):
    (scale,) = ctx.saved
    return g * scale


DROPOUT = Op("dropout", _dropout_fwd, _dropout_bwd, PROMOTE_NONE)
OPS = (DROPOUT,)


def keep_mask(shape, keep_prob, seed=None, rng=None):
    """A boolean mask of `shape`, each element True with probability `keep_prob`.

    Drawn from `rng`, else from the core's seeded stream for dropout with op seed `seed`.
    """
    if rng is None:
        rng = context.generator("Dropout", seed)
    return rng.random(shape, dtype=np.float32) < keep_prob


def apply_mask(x, mask, keep_prob):
    """x * mask / keep_prob as one recorded op (`mask` broadcasts against x)."""
    scale = mask.astype(x._data.dtype) * (1.0 / keep_prob) if x.dtype.is_floating else mask
    return apply(DROPOUT, (x,), {"scale": scale.astype(x._data.dtype, copy=False)})


def _check_p(op, p):
    if isinstance(p, bool) or not isinstance(p, float):
        raise TypeError(f"For '{op}', 'p' must be a float, got {type(p).__name__} {p!r}.")
    if not 0.0 <= p < 1.0:
        raise ValueError(f"For '{op}', 'p' must be in [0, 1), got {p}.")
    return p


def dropout(input, p=0.5, training=True, seed=None):
    """Mirrors `mindspore.ops.dropout`: zero each element with probability `p`, scale the rest
    by 1 / (1 - p); the identity when not `training` or `p` is 0."""
    _checks.floating("dropout", "input", input)
    p = _check_p("dropout", p)
    if not training or p == 0.0:
        return input
    return apply_mask(input, keep_mask(input.shape, 1.0 - p, seed), 1.0 - p)


_LAYOUTS = {1: "(N, C, L)", 2: "(N, C, H, W)", 3: "(N, C, D, H, W)"}


def channel_dropout(op, input, p, training, spatial, batched_only=False):
    """Zero whole channels: `input` is (N, C, *spatial) or, unless `batched_only`, (C,
    *spatial); returns (output, kept-channel mask broadcastable to the input, or None)."""
    _checks.floating(op, "input", input)
    p = _check_p(op, p)
    ranks = (spatial + 2,) if batched_only else (spatial + 1, spatial + 2)
    if input.ndim not in ranks:
        raise ValueError(f"For '{op}', 'input' must be {' or '.join(f'{r}-D' for r in ranks)} "
                         f"{_LAYOUTS[spatial]}, got {_checks.describe(input)}.")
    if not training or p == 0.0:
        return input, None
    lead = input.ndim - spatial
    mask = keep_mask(tuple(input.shape[:lead]) + (1,) * spatial, 1.0 - p)
    return apply_mask(input, mask, 1.0 - p), mask


def dropout1d(input, p=0.5, training=True):
    """Mirrors `mindspore.ops.dropout1d`: zero whole channels of (N, C, L) or (C, L)."""
    return channel_dropout("dropout1d", input, p, training, 1)[0]


def dropout2d(input, p=0.5, training=True):
    """Mirrors `mindspore.ops.dropout2d`: zero whole channels of an (N, C, H, W) input."""
    return channel_dropout("dropout2d", input, p, training, 2, batched_only=True)[0]


def dropout3d(input, p=0.5, training=True):
    """Mirrors `mindspore.ops.dropout3d`: zero whole channels of (N, C, D, H, W) or
    (C, D, H, W)."""
    return channel_dropout("dropout3d", input, p, training, 3)[0]


def check_keep_prob(op, keep_prob):
    if isinstance(keep_prob, bool) or not isinstance(keep_prob, (int, float)):
        raise TypeError(f"For '{op}', 'keep_prob' must be a float, got "
                        f"{type(keep_prob).__name__} {keep_prob!r}.")
    if not 0.0 < keep_prob <= 1.0:
        raise ValueError(f"For '{op}', 'keep_prob' must be in (0.0, 1.0], got {keep_prob}.")
    return float(keep_prob)
