"""Softmax cross-entropy fused into one op (forward and backward), and nll_loss.

Class indices or class probabilities as targets, per-class `weight`, `ignore_index`,
`label_smoothing` and the reduction follow MindSpore 2.10's `ops.cross_entropy` /
`ops.nll_loss`: 'mean' divides by the summed weights of the counted targets (indices) or by
the number of samples (probabilities).
"""

import numpy as np

from cellgrad._errors import ValueRangeError
from cellgrad.plugins import PROMOTE_NONE, Op, apply
from cellgrad_nn.functional import _checks
from cellgrad_nn.functional.softmax import log_softmax_array


def _bshape(ndim, cd, n):
    shape = [1] * ndim
    shape[cd] = n
    return tuple(shape)


def _reduce(loss, reduction, denom):
    if reduction == "none":
        return loss
    total = loss.sum()
    if reduction == "sum":
        return np.asarray(total, loss.dtype)
    if denom:
        return np.asarray(total / denom, loss.dtype)
    with np.errstate(invalid="ignore", divide="ignore"):  # every target ignored: nan, as torch
        return np.asarray(total / denom, loss.dtype)


def _index_loss(logp, y, cd, weight, ignore_index, eps):
    """Per-target loss, the counted targets' weights, and the gather index."""
    keep = y != ignore_index if ignore_index is not None else np.ones(y.shape, bool)
    yi = np.expand_dims(np.where(keep, y, 0), cd)
    picked = np.take_along_axis(logp, yi, cd).squeeze(cd)
    wy = (weight[yi.squeeze(cd)] if weight is not None else 1) * keep
    wy = wy.astype(logp.dtype, copy=False)
    loss = wy * picked * -(1.0 - eps)
    if eps:
        wb = logp if weight is None else logp * weight.reshape(_bshape(logp.ndim, cd, -1))
        loss -= wb.sum(axis=cd) * keep * (eps / logp.shape[cd])
    return loss, wy, yi, keep


def _index_grad(logp, s, wy, yi, keep, cd, weight, eps):
    """d loss / d logp for index targets, `s` the upstream gradient per target."""
    d = np.zeros_like(logp)
    np.put_along_axis(d, yi, np.expand_dims(wy * s * -(1.0 - eps), cd), cd)
    if eps:
        w = 1.0 if weight is None else weight.reshape(_bshape(logp.ndim, cd, -1))
        d -= np.expand_dims(keep * s, cd) * w * (eps / logp.shape[cd])
    return d


def _prob_loss(logp, t, cd, weight, eps):
    ts = t * (1.0 - eps) + eps / logp.shape[cd] if eps else t
    wl = logp if weight is None else logp * weight.reshape(_bshape(logp.ndim, cd, -1))
    return -(wl * ts).sum(axis=cd), ts


def _plain(x, y, cd, weight, ignore_index, eps, probs, log_input):
    """Whether the loss is the plain one: class indices along axis 1 of float32/64 rows, no
    weight, label smoothing or ignored target (where the general rule's factors are all 1)."""
    if not (cd == 1 and x.ndim == 2 and weight is None and not eps and not probs
            and not log_input and x.dtype.char in "fd" and type(y) is np.ndarray):
        return False
    if ignore_index is None:
        return True
    # an ignore_index outside the classes (-100 by default) ignores nothing when every target
    # is a class index
    c = x.shape[1]
    return not 0 <= ignore_index < c and (
        y.size == 0 or (np.minimum.reduce(y, None) >= 0 and np.maximum.reduce(y, None) < c))


def _plain_fwd(x, y, cfg, reduction):
    """The plain loss in fewer numpy calls: -logp[i, y[i]] per row (the general rule's
    `1 * picked * -1`, the same numbers)."""
    # log_softmax_array(x, 1)'s operations, called as ufuncs (no numpy wrapper frames)
    logp = np.subtract(x, np.maximum.reduce(x, axis=1, keepdims=True))
    s = np.add.reduce(np.exp(logp), axis=1, keepdims=True)
    logp -= np.log(s, out=s)
    loss = -logp[np.arange(len(y)), y]
    denom = logp.dtype.type(len(y))  # the general rule's sum of ones, exact
    return _reduce(loss, reduction, denom), (x, y, logp, None, loss.shape, denom, cfg)


def _plain_bwd(logp, y, g, denom, reduction):
    """d loss / d x of the plain loss: the general rule's `d - exp(logp) * d.sum(1)` with d
    zero but -s at each target, as -(p * -s) and (-(p * -s)) - s there: the same numbers."""
    s = g / denom if reduction == "mean" else g
    d = np.exp(logp)
    if s.ndim:  # reduction 'none': one upstream gradient per row
        d *= np.negative(s)[:, None]
    else:
        d *= np.negative(s)
    np.negative(d, out=d)
    d[np.arange(len(y)), y] -= s
    d += 0  # -0.0 -> 0.0, as the general rule
    return d


def _loss_fwd(x, target, *, cd, weight, ignore_index, eps, reduction, probs, log_input):
    if _plain(x, target, cd, weight, ignore_index, eps, probs, log_input):
        return _plain_fwd(x, target, (cd, weight, eps, reduction, probs, log_input), reduction)
    logp = x if log_input else log_softmax_array(x, cd)
    if probs:
        loss, aux = _prob_loss(logp, target, cd, weight, eps)
        denom = logp.size // logp.shape[cd]
    else:
        loss, wy, yi, keep = _index_loss(logp, target, cd, weight, ignore_index, eps)
        aux = (wy, yi, keep)
        denom = wy.sum()
    out = _reduce(loss, reduction, denom)
    cfg = (cd, weight, eps, reduction, probs, log_input)
    return out, (x, target, logp, aux, loss.shape, denom, cfg)


def _loss_bwd(ctx, g):
    x, target, logp, aux, shape, denom, cfg = ctx.saved
    if ctx.xp.IS_TENSOR:
        return _loss_bwd_tensor(ctx, g, x, target, logp, aux, shape, denom, cfg)
    cd, weight, eps, reduction, probs, log_input = cfg
    if aux is None:  # the plain loss's forward
        return _plain_bwd(logp, target, g, denom, reduction), None
    s = np.broadcast_to(g / denom if reduction == "mean" else g, shape)
    gt = None
    if probs:
        w = 1.0 if weight is None else weight.reshape(_bshape(logp.ndim, cd, -1))
        se = np.expand_dims(s, cd)
        d = -(aux * w * se)
        if ctx.needs_input_grad[1]:
            gt = -(logp * w * se) * (1.0 - eps)
    else:
        d = _index_grad(logp, s, *aux, cd, weight, eps)
    if not log_input:
        d -= np.exp(logp) * d.sum(axis=cd, keepdims=True)
    d += 0  # ignored targets' rows: -0.0 -> 0.0, as MindSpore prints them
    return d, gt


def _loss_bwd_tensor(ctx, g, x, target, logp_array, aux, shape, denom, cfg):
    """The same rule as recorded Tensor ops (grad of grad): the log-probabilities are
    recomputed from `x`; label-dependent coefficients are constants."""
    from cellgrad import Tensor
    from cellgrad.ops import functional as F
    from cellgrad_nn.functional.softmax import LOG_SOFTMAX

    cd, weight, eps, reduction, probs, log_input = cfg
    xp = ctx.xp
    logp_array = getattr(logp_array, "_data", logp_array)  # saved arrays arrive as Tensors
    if aux is None:  # the plain forward kept no per-target factors: the general rule's
        _, *aux = _index_loss(logp_array, getattr(target, "_data", target), cd, weight, None,
                              eps)
    s = g * (1.0 / float(denom)) if reduction == "mean" else g
    se = xp.expand_dims(F.broadcast_to(s, shape) if reduction != "none" else s, cd)
    logp = x if log_input else apply(LOG_SOFTMAX, (x,), {"axis": cd})
    w = 1.0 if weight is None else Tensor(weight.reshape(_bshape(logp_array.ndim, cd, -1)))
    gt = None
    if probs:
        ts = target * (1.0 - eps) + eps / logp_array.shape[cd] if eps else target
        d = -(ts * w * se)
        if ctx.needs_input_grad[1]:
            gt = -(logp * w * se) * (1.0 - eps)
    else:
        ones = np.ones(shape, logp_array.dtype)
        d = Tensor(_index_grad(logp_array, ones, *aux, cd, weight, eps)) * se
    if not log_input:
        d = d - xp.exp(logp) * d.sum(axis=cd, keepdims=True)
    return d, gt


CROSS_ENTROPY = Op("cross_entropy", _loss_fwd, _loss_bwd, PROMOTE_NONE)
NLL_LOSS = Op("nll_loss", _loss_fwd, _loss_bwd, PROMOTE_NONE)
OPS = (CROSS_ENTROPY, NLL_LOSS)


def _check_target(op, input, target, cd, probs, ignore_index):
    d = _checks.describe
    if probs:
        if tuple(target.shape) != tuple(input.shape):
            raise ValueError(f"For '{op}', class-probability 'target' must have the shape of "
                             f"'input', got input {d(input)} and target {d(target)}.")
        return target
    _checks.integer(op, "target", target)
    expected = tuple(input.shape[:cd]) + tuple(input.shape[cd + 1:])
    if tuple(target.shape) != expected:
        raise ValueError(f"For '{op}', class-index 'target' must have shape {expected} (input "
                         f"{d(input)} without its class dimension {cd}), got {d(target)}.")
    y = target._data
    n = input.shape[cd]
    if y.size and 0 <= np.minimum.reduce(y, None) and np.maximum.reduce(y, None) < n:
        return target
    bad = (y < 0) | (y >= n)
    if ignore_index is not None:
        bad &= y != ignore_index
    if bad.any():
        raise ValueRangeError(f"For '{op}', 'target' values must be class indices in [0, {n}) or "
                         f"ignore_index={ignore_index}, got {y[bad].reshape(-1)[0]}.")
    return target


def _check_weight(op, weight, n, dtype):
    if weight is None:
        return None
    _checks.tensor(op, "weight", weight)
    if tuple(weight.shape) != (n,):
        raise ValueError(f"For '{op}', 'weight' must have shape ({n},) (one per class), got "
                         f"{_checks.describe(weight)}.")
    return weight._data.astype(dtype, copy=False)


def _loss(op_name, op, input, target, weight, ignore_index, reduction, label_smoothing,
          log_input):
    _checks.floating(op_name, "input", input)
    _checks.tensor(op_name, "target", target)
    _checks.reduction(op_name, reduction)
    if ignore_index is not None and (isinstance(ignore_index, bool)
                                     or not isinstance(ignore_index, int)):
        raise TypeError(f"For '{op_name}', 'ignore_index' must be an int, got "
                        f"{type(ignore_index).__name__}.")
    eps = _checks.number(op_name, "label_smoothing", label_smoothing)
    if not 0.0 <= eps <= 1.0:
        raise ValueError(f"For '{op_name}', 'label_smoothing' must be in [0, 1], got {eps}.")
    if input.ndim == 0:
        raise ValueError(f"For '{op_name}', 'input' must be at least 1-D, got "
                         f"{_checks.describe(input)}.")
    cd = 0 if input.ndim == 1 else 1
    probs = target.dtype.is_floating and not log_input
    _check_target(op_name, input, target, cd, probs, ignore_index)
    attrs = {"cd": cd, "weight": _check_weight(op_name, weight, input.shape[cd],
                                               input._data.dtype),
             "ignore_index": ignore_index, "eps": eps, "reduction": reduction, "probs": probs,
             "log_input": log_input}
    if probs and target.dtype != input.dtype:
        from cellgrad.ops import functional as F

        target = F.cast(target, input.dtype)
    return apply(op, (input, target), attrs)


def cross_entropy(input, target, weight=None, ignore_index=-100, reduction="mean",
                  label_smoothing=0.0):
    """Mirrors `mindspore.ops.cross_entropy`: log_softmax over dim 1 (0 for 1-D input) and the
    negative log-likelihood of integer class indices, or of class probabilities when `target`
    is floating; one fused op."""
    return _loss("cross_entropy", CROSS_ENTROPY, input, target, weight, ignore_index, reduction,
                 label_smoothing, False)


def nll_loss(inputs, target, weight=None, ignore_index=-100, reduction="mean",
             label_smoothing=0.0):
    """Mirrors `mindspore.ops.nll_loss`: `inputs` are log-probabilities, class dim 1."""
    return _loss("nll_loss", NLL_LOSS, inputs, target, weight, ignore_index, reduction,
                 label_smoothing, True)


def softmax_cross_entropy(logits, labels, sparse=False, reduction="none"):
    """What `nn.SoftmaxCrossEntropyWithLogits(sparse, reduction)` computes: labels are class
    indices when `sparse`, else per-class probabilities (same shape as logits); no index is
    ignored."""
    op = "SoftmaxCrossEntropyWithLogits"
    _checks.tensor(op, "labels", labels)
    if not sparse:
        _checks.floating(op, "labels", labels)
    return _loss(op, CROSS_ENTROPY, logits, labels, None, None, reduction, 0.0, False)
