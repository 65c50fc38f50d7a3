"""Elementwise losses and their reductions: binary_cross_entropy(_with_logits), mse_loss,
l1_loss, smooth_l1_loss, kl_div. The elementwise term is one op (or core ops); the reduction
is core's mean/sum."""

import numpy as np

from cellgrad.plugins import PROMOTE_NONE, Op, apply
from cellgrad_nn.functional import _checks
from cellgrad_nn.functional._math import sigmoid_xp

_BCE_EPS = 1e-12  # MindSpore clamps the probabilities before the log


def _bce_fwd(x, t, w=None):
    lx = np.log(np.maximum(x, _BCE_EPS))
    l1x = np.log(np.maximum(1 - x, _BCE_EPS))
    plain = -(t * lx + (1 - t) * l1x)
    loss = plain if w is None else plain * w
    return loss.astype(x.dtype, copy=False), (x, t, w, lx, l1x, plain)


def _bce_bwd(ctx, g):
    x, t, w, lx, l1x, plain = ctx.saved
    gw = g if w is None else g * w
    gx = gw * (x - t) / np.maximum(x * (1 - x), _BCE_EPS)
    need = tuple(ctx.needs_input_grad) + (False,)
    gt = gw * (l1x - lx) if need[1] else None
    return (gx, gt, g * plain if need[2] else None)[:len(ctx.needs_input_grad)]


def _bce_logits_fwd(x, t, w=None, pw=None):
    sp = np.log1p(np.exp(-np.abs(x))) + np.maximum(-x, 0)  # softplus(-x), stable
    lw = 1 if pw is None else (pw - 1) * t + 1
    loss = (1 - t) * x + lw * sp
    if w is not None:
        loss = loss * w
    return loss.astype(x.dtype, copy=False), (x, t, w, pw)


def _bce_logits_bwd(ctx, g):
    x, t, w, pw = ctx.saved
    xp = ctx.xp
    need = tuple(ctx.needs_input_grad) + (False, False)
    gw = g if w is None else g * w
    s = sigmoid_xp(xp, x)
    if pw is None:
        gx = gw * (s - t)
    else:
        gx = gw * ((1 - t) - ((pw - 1) * t + 1) * (1 - s))
    gt = g_w = g_pw = None
    if need[1] or need[2] or need[3]:
        sp_neg = _softplus_neg(xp, x)
        if need[1]:
            gt = gw * (-x if pw is None else (pw - 1) * sp_neg - x)
        if need[2]:
            lw = 1 if pw is None else (pw - 1) * t + 1
            g_w = g * ((1 - t) * x + lw * sp_neg)
        if need[3]:
            g_pw = gw * t * sp_neg
    return gx, gt, g_w, g_pw


def _softplus_neg(xp, x):
    """softplus(-x) without overflow, on arrays or (recorded) on Tensors."""
    if xp.IS_TENSOR:
        from cellgrad_nn.functional.activation import SOFTPLUS

        return apply(SOFTPLUS, (-x,), {"beta": 1.0, "threshold": 20.0})
    return np.log1p(np.exp(-np.abs(x))) + np.maximum(-x, 0)


def _smooth_l1_fwd(x, t, *, beta):
    d = x - t
    a = np.abs(d)
    loss = np.where(a < beta, d * d * (0.5 / beta), a - 0.5 * beta)
    return loss.astype(x.dtype, copy=False), (x, t, beta)


def _smooth_l1_bwd(ctx, g):
    x, t, beta = ctx.saved
    d = x - t
    gd = g * ctx.xp.where(ctx.xp.sign(d) * d < beta, d * (1.0 / beta), ctx.xp.sign(d))
    return gd, -gd


def _kl_fwd(x, t):
    pos = t > 0
    loss = np.where(pos, t * (np.log(np.where(pos, t, 1)) - x), 0)
    return loss.astype(x.dtype, copy=False), (x, t)


def _kl_bwd(ctx, g):
    x, t = ctx.saved
    xp = ctx.xp
    pos = t > 0
    gt = None
    if ctx.needs_input_grad[1]:
        gt = xp.where(pos, g * (xp.log(xp.where(pos, t, t * 0 + 1)) + 1 - x), g * 0)
    return -g * t, gt


BCE = Op("binary_cross_entropy", _bce_fwd, _bce_bwd, PROMOTE_NONE, first_order_only=True)
BCE_LOGITS = Op("binary_cross_entropy_with_logits", _bce_logits_fwd, _bce_logits_bwd,
                PROMOTE_NONE)
SMOOTH_L1 = Op("smooth_l1_loss", _smooth_l1_fwd, _smooth_l1_bwd, PROMOTE_NONE)
KL_DIV = Op("kl_div", _kl_fwd, _kl_bwd, PROMOTE_NONE)
OPS = (BCE, BCE_LOGITS, SMOOTH_L1, KL_DIV)


def reduce_loss(loss, reduction):
    """'none' keeps the elementwise loss, 'mean'/'sum' reduce every axis (core ops)."""
    from cellgrad.ops import functional as F

    if reduction == "mean":
        return F.mean(loss)
    if reduction == "sum":
        return F.sum(loss)
    return loss


def _pair(op, a_name, a, b_name, b, reduction):
    _checks.floating(op, a_name, a)
    _checks.floating(op, b_name, b)
    _checks.same_shape(op, a_name, a, b_name, b)
    return _checks.reduction(op, reduction)


def _optional(op, name, t, like):
    if t is None:
        return None
    _checks.tensor(op, name, t)
    try:
        np.broadcast_shapes(tuple(t.shape), tuple(like.shape))
    except ValueError:
        raise ValueError(f"For '{op}', '{name}' must broadcast to the shape "
                         f"{tuple(like.shape)} of the input, got {_checks.describe(t)}.") from None
    return t


def binary_cross_entropy(logits, labels, weight=None, reduction="mean"):
    """Mirrors `mindspore.ops.binary_cross_entropy`: `logits` are probabilities in [0, 1]."""
    op = "binary_cross_entropy"
    reduction = _pair(op, "logits", logits, "labels", labels, reduction)
    inputs = (logits, labels) if weight is None else \
        (logits, labels, _optional(op, "weight", weight, logits))
    return reduce_loss(apply(BCE, inputs), reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None,
                                     reduction="mean"):
    """Mirrors `mindspore.ops.binary_cross_entropy_with_logits` (stable for large |input|)."""
    op = "binary_cross_entropy_with_logits"
    reduction = _pair(op, "input", input, "target", target, reduction)
    w = _optional(op, "weight", weight, input)
    pw = _optional(op, "pos_weight", pos_weight, input)
    return reduce_loss(apply(BCE_LOGITS, (input, target, w, pw)), reduction)


def _difference(op, input, target, reduction):
    _checks.tensor(op, "input", input)
    _checks.tensor(op, "target", target)
    _checks.reduction(op, reduction)
    try:
        np.broadcast_shapes(tuple(input.shape), tuple(target.shape))
    except ValueError:
        raise ValueError(f"For '{op}', 'input' and 'target' must broadcast together, got "
                         f"{_checks.describe(input)} and {_checks.describe(target)}.") from None
    return input - target


def mse_loss(input, target, reduction="mean"):
    """Mirrors `mindspore.ops.mse_loss` (broadcasts; integer inputs give Float32)."""
    from cellgrad.ops import functional as F

    d = _difference("mse_loss", input, target, reduction)
    if not d.dtype.is_floating:
        d = F.cast(d, _float32())
    return reduce_loss(d * d, reduction)


def _float32():
    import cellgrad

    return cellgrad.float32


def l1_loss(input, target, reduction="mean"):
    """Mirrors `mindspore.ops.l1_loss`: |input - target|, reduced."""
    from cellgrad.ops import functional as F

    return reduce_loss(F.abs(_difference("l1_loss", input, target, reduction)), reduction)


def smooth_l1_loss(input, target, beta=1.0, reduction="none"):
    """Mirrors `mindspore.ops.smooth_l1_loss`: 0.5 d^2 / beta where |d| < beta, else
    |d| - 0.5 beta; `beta=0` is the L1 loss."""
    op = "smooth_l1_loss"
    reduction = _pair(op, "input", input, "target", target, reduction)
    beta = _checks.number(op, "beta", beta)
    if beta < 0:
        raise ValueError(f"For '{op}', 'beta' must be non-negative, got {beta}.")
    if beta == 0:
        return l1_loss(input, target, reduction)
    return reduce_loss(apply(SMOOTH_L1, (input, target), {"beta": beta}), reduction)


def kl_div(logits, labels, reduction="mean"):
    """Mirrors `mindspore.ops.kl_div`: labels * (log(labels) - logits), `logits` being
    log-probabilities; reduction 'none', 'mean' (over elements), 'batchmean', 'sum'."""
    op = "kl_div"
    if reduction not in ("none", "mean", "batchmean", "sum"):
        raise ValueError(f"For '{op}', 'reduction' must be one of 'none', 'mean', "
                         f"'batchmean', 'sum', got {reduction!r}.")
    _checks.floating(op, "logits", logits)
    _checks.floating(op, "labels", labels)
    _checks.same_shape(op, "logits", logits, "labels", labels)
    loss = apply(KL_DIV, (logits, labels))
    if reduction == "batchmean":
        from cellgrad.ops import functional as F

        return F.sum(loss) / (logits.shape[0] if logits.ndim else 1)
    return reduce_loss(loss, reduction)



def huber_loss(input, target, reduction="mean", delta=1.0):
    """Mirrors `mindspore.ops.huber_loss`: 0.5 d^2 where |d| < delta, else
    delta * (|d| - 0.5 delta); that is delta * smooth_l1(beta=delta)."""
    op = "huber_loss"
    reduction = _pair(op, "input", input, "target", target, reduction)
    delta = _checks.number(op, "delta", delta)
    if delta <= 0:
        raise ValueError(f"For '{op}', 'delta' must be positive, got {delta}.")
    return reduce_loss(apply(SMOOTH_L1, (input, target), {"beta": delta}) * delta, reduction)


def cosine_similarity(x1, x2, dim=1, eps=1e-08):
    """Mirrors `mindspore.ops.cosine_similarity`: x1 . x2 / max(|x1| |x2|, eps) along `dim`."""
    from cellgrad.ops import functional as F

    op = "cosine_similarity"
    _checks.floating(op, "x1", x1)
    _checks.floating(op, "x2", x2)
    try:
        shape = np.broadcast_shapes(tuple(x1.shape), tuple(x2.shape))
    except ValueError:
        raise ValueError(f"For '{op}', 'x1' and 'x2' must broadcast together, got "
                         f"{_checks.describe(x1)} and {_checks.describe(x2)}.") from None
    dim = _checks.axis(op, dim, len(shape), "dim")
    dot = F.sum(x1 * x2, dim)
    norms = F.sum(x1 * x1, dim) * F.sum(x2 * x2, dim)
    return dot / F.sqrt(F.clamp(norms, float(eps) ** 2, None))


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction="mean"):
    """Mirrors `mindspore.ops.margin_ranking_loss`: max(0, -target * (input1 - input2) +
    margin)."""
    from cellgrad_nn.functional.activation import relu

    op = "margin_ranking_loss"
    for name, t in (("input1", input1), ("input2", input2), ("target", target)):
        _checks.floating(op, name, t)
    _checks.same_shape(op, "input1", input1, "input2", input2)
    _checks.same_shape(op, "input1", input1, "target", target)
    margin = _checks.number(op, "margin", margin)
    return reduce_loss(relu(-target * (input1 - input2) + margin), _checks.reduction(op, reduction))


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction="mean"):
    """Mirrors `mindspore.ops.cosine_embedding_loss`: 1 - cos where target is 1, else
    max(0, cos - margin), cos taken along dimension 1."""
    from cellgrad.ops import functional as F
    from cellgrad_nn.functional.activation import relu

    op = "cosine_embedding_loss"
    _checks.same_shape(op, "input1", _checks.floating(op, "input1", input1),
                       "input2", _checks.floating(op, "input2", input2))
    _checks.tensor(op, "target", target)
    if input1.ndim < 1 or tuple(target.shape) != tuple(input1.shape[:1] + input1.shape[2:]):
        raise ValueError(f"For '{op}', 'target' must have the shape of 'input1' without "
                         f"dimension 1, got input1 {_checks.describe(input1)} and target "
                         f"{_checks.describe(target)}.")
    margin = _checks.number(op, "margin", margin)
    reduction = _checks.reduction(op, reduction)
    cos = cosine_similarity(input1, input2, 1 if input1.ndim > 1 else 0)
    positive = F.cast(target > 0, cos.dtype)
    loss = positive * (1 - cos) + (1 - positive) * relu(cos - margin)
    return reduce_loss(loss, reduction)
