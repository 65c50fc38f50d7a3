"""clip_by_global_norm and clip_by_norm, built from core ops (so they differentiate too)."""

import math

from cellgrad_nn.functional import _checks


def _tensors(op, x):
    items = tuple(x) if isinstance(x, (tuple, list)) else (x,)
    if not items:
        raise ValueError(f"For '{op}', 'x' must hold at least one Tensor, got an empty "
                         f"{type(x).__name__}.")
    for i, t in enumerate(items):
        _checks.floating(op, f"x[{i}]", t)
    return items


def _total_norm(items, norm_type):
    from cellgrad.ops import functional as F

    if math.isinf(norm_type):
        maxima = [F.amax(F.abs(t)) for t in items]
        total = maxima[0]
        for m in maxima[1:]:
            total = F.maximum(total, m)
        return total
    total = None
    for t in items:
        part = F.sum(F.abs(t) ** norm_type) if norm_type != 2 else F.sum(t * t)
        total = part if total is None else total + part
    return total ** (1.0 / norm_type)


def clip_by_global_norm(x, clip_norm=1.0, use_norm=None):
    """Mirrors `mindspore.ops.clip_by_global_norm`: scale every tensor of `x` by
    clip_norm / max(global_norm, clip_norm); returns a tuple like MindSpore."""
    from cellgrad.ops import functional as F

    op = "clip_by_global_norm"
    clip_norm = _checks.number(op, "clip_norm", clip_norm)
    if clip_norm <= 0:
        raise ValueError(f"For '{op}', 'clip_norm' must be positive, got {clip_norm}.")
    if use_norm is not None:
        raise ValueError(f"For '{op}', 'use_norm' must be None (as in MindSpore), got "
                         f"{use_norm!r}.")
    items = _tensors(op, x)
    norm = _total_norm(items, 2.0)
    denom = F.maximum(norm, clip_norm)
    return tuple(t * clip_norm / F.cast(denom, t.dtype) for t in items)


def clip_by_norm(x, max_norm, norm_type=2.0, error_if_nonfinite=False):
    """Mirrors `mindspore.ops.clip_by_norm`: scale `x` (a Tensor, or a tuple/list clipped by
    their total norm) by max_norm / (total_norm + 1e-6) when that is below 1."""
    from cellgrad.ops import functional as F

    op = "clip_by_norm"
    max_norm = _checks.number(op, "max_norm", max_norm)
    norm_type = _checks.number(op, "norm_type", norm_type)
    items = _tensors(op, x)
    total = _total_norm(items, norm_type)
    if error_if_nonfinite and not math.isfinite(float(total.asnumpy())):
        raise RuntimeError(f"For '{op}', the total norm of order {norm_type} is "
                           f"{float(total.asnumpy())}: non-finite while "
                           f"'error_if_nonfinite' is True.")
    coef = F.clamp(max_norm / (total + 1e-6), None, 1.0)
    out = tuple(t * F.cast(coef, t.dtype) for t in items)
    return out if isinstance(x, (tuple, list)) else out[0]
