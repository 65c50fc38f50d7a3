"""Margin, ranking and likelihood losses composed of recorded ops (their gradients, of any
order, come from those ops): soft_margin_loss, multi_margin_loss, multilabel_soft_margin_loss,
multilabel_margin_loss, triplet_margin_loss, hinge_embedding_loss, gaussian_nll_loss and
poisson_nll_loss."""

import math

import numpy as np

from cellgrad_nn.functional import _checks
from cellgrad_nn.functional.activation import relu
from cellgrad_nn.functional.activation_extra import logsigmoid
from cellgrad_nn.functional.losses import reduce_loss


def _F():
    from cellgrad.ops import functional as F

    return F


def _scores_and_classes(op, input, target):
    """(N, C) or (C,) scores and (N,) or () class indices, as (N, C) and (N,)."""
    _checks.floating(op, "input", input)
    _checks.integer(op, "target", target)
    if input.ndim not in (1, 2) or tuple(target.shape) != tuple(input.shape[:-1]):
        raise ValueError(f"For '{op}', 'input' must be (N, C) or (C,) and 'target' (N,) or (), "
                         f"got {_checks.describe(input)} and {_checks.describe(target)}.")
    F = _F()
    if input.ndim == 1:
        return F.reshape(input, (1, -1)), F.reshape(target, (1,))
    return input, target


def soft_margin_loss(input, target, reduction="mean"):
    """Mirrors `mindspore.ops.soft_margin_loss`: log(1 + exp(-target * input))."""
    op = "soft_margin_loss"
    _checks.floating(op, "input", input)
    _checks.tensor(op, "target", target)
    _checks.same_shape(op, "input", input, "target", target)
    return reduce_loss(-logsigmoid(input * target), _checks.reduction(op, reduction))


def multi_margin_loss(input, target, p=1, margin=1, weight=None, reduction="mean"):
    """Mirrors `mindspore.ops.multi_margin_loss`: per sample, the mean over classes i != y of
    weight[y] * max(0, margin - x[y] + x[i]) ** p."""
    op = "multi_margin_loss"
    if p not in (1, 2) or isinstance(p, bool):
        raise ValueError(f"For '{op}', 'p' must be 1 or 2, got {p!r}.")
    margin = _checks.number(op, "margin", margin)
    reduction = _checks.reduction(op, reduction)
    x, y = _scores_and_classes(op, input, target)
    from cellgrad import Tensor

    F = _F()
    classes = x.shape[1]
    labels = y.asnumpy()
    if labels.size and (labels.min() < 0 or labels.max() >= classes):
        raise ValueError(f"For '{op}', 'target' must hold classes in [0, {classes}), got "
                         f"{labels.min()}..{labels.max()}.")
    is_target = Tensor(np.eye(classes, dtype=x.dtype.np_dtype)[labels])
    picked = F.sum(x * is_target, 1, keepdim=True)
    hinge = relu(x - picked + margin)
    if p == 2:
        hinge = hinge * hinge
    loss = hinge * (1 - is_target)
    if weight is not None:
        _checks.floating(op, "weight", weight)
        if tuple(weight.shape) != (classes,):
            raise ValueError(f"For '{op}', 'weight' must have shape ({classes},), got "
                             f"{_checks.describe(weight)}.")
        loss = loss * F.reshape(F.gather(weight, y, 0), (-1, 1))
    loss = F.sum(loss, 1) / classes
    return reduce_loss(loss if input.ndim == 2 else F.reshape(loss, ()), reduction)


def multilabel_soft_margin_loss(input, target, weight=None, reduction="mean"):
    """Mirrors `mindspore.ops.multilabel_soft_margin_loss`: per sample, the mean over classes
    of -(y log sigmoid(x) + (1 - y) log sigmoid(-x)), times `weight`."""
    op = "multilabel_soft_margin_loss"
    _checks.floating(op, "input", input)
    _checks.tensor(op, "target", target)
    _checks.same_shape(op, "input", input, "target", target)
    reduction = _checks.reduction(op, reduction)
    F = _F()
    y = F.cast(target, input.dtype)
    loss = -(y * logsigmoid(input) + (1 - y) * logsigmoid(-input))
    if weight is not None:
        loss = loss * _checks.tensor(op, "weight", weight)
    return reduce_loss(F.mean(loss, -1), reduction)


def multilabel_margin_loss(input, target, reduction="mean"):
    """Mirrors `mindspore.ops.multilabel_margin_loss`: `target` lists each sample's classes,
    ended by -1; the loss sums max(0, 1 - (x[j] - x[i])) over listed j and unlisted i,
    divided by the number of classes."""
    op = "multilabel_margin_loss"
    _checks.floating(op, "input", input)
    _checks.integer(op, "target", target)
    _checks.same_shape(op, "input", input, "target", target)
    if input.ndim not in (1, 2):
        raise ValueError(f"For '{op}', 'input' must be (N, C) or (C,), got "
                         f"{_checks.describe(input)}.")
    reduction = _checks.reduction(op, reduction)
    F = _F()
    x = F.reshape(input, (1, -1)) if input.ndim == 1 else input
    labels = target.asnumpy().reshape(x.shape)
    # The listed classes come from integer data (no gradient): masks built once in numpy.
    listed = np.zeros(x.shape, bool)
    for row, classes in enumerate(labels):
        for c in classes:
            if c < 0:
                break
            if c >= x.shape[1]:
                raise ValueError(f"For '{op}', 'target' holds class {c}, but 'input' has "
                                 f"{x.shape[1]} classes.")
            listed[row, c] = True
    from cellgrad import Tensor

    pairs = Tensor((listed[:, :, None] & ~listed[:, None, :]).astype(x.dtype.np_dtype))
    gaps = relu(1 - (F.expand_dims(x, 2) - F.expand_dims(x, 1)))  # [n, j, i]
    loss = F.sum(F.sum(gaps * pairs, 2), 1) / x.shape[1]
    return reduce_loss(loss if input.ndim == 2 else F.reshape(loss, ()), reduction)


def _pairwise_distance(a, b, p, eps):
    F = _F()
    diff = F.abs(a - b + eps)
    return F.pow(F.sum(F.pow(diff, p), -1), 1.0 / p)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False,
                        reduction="mean"):
    """Mirrors `mindspore.ops.triplet_margin_loss`: max(d(a, p) - d(a, n) + margin, 0) with
    d the p-norm distance of the last axis (the distance to the negative is the smaller of
    d(a, n) and d(p, n) with `swap`)."""
    op = "triplet_margin_loss"
    for name, t in (("anchor", anchor), ("positive", positive), ("negative", negative)):
        _checks.floating(op, name, t)
    margin = _checks.number(op, "margin", margin)
    p = _checks.number(op, "p", p)
    reduction = _checks.reduction(op, reduction)
    F = _F()
    d_pos = _pairwise_distance(anchor, positive, p, eps)
    d_neg = _pairwise_distance(anchor, negative, p, eps)
    if swap:
        d_neg = F.minimum(d_neg, _pairwise_distance(positive, negative, p, eps))
    return reduce_loss(relu(d_pos - d_neg + margin), reduction)


def hinge_embedding_loss(inputs, targets, margin=1.0, reduction="mean"):
    """Mirrors `mindspore.ops.hinge_embedding_loss`: x where the target is 1,
    max(0, margin - x) where it is -1."""
    op = "hinge_embedding_loss"
    _checks.floating(op, "inputs", inputs)
    _checks.tensor(op, "targets", targets)
    margin = _checks.number(op, "margin", margin)
    reduction = _checks.reduction(op, reduction)
    F = _F()
    y = F.cast(targets, inputs.dtype)
    loss = F.where(y == 1, inputs, 0.0) + F.where(y == -1, relu(margin - inputs), 0.0)
    return reduce_loss(loss, reduction)


def gaussian_nll_loss(x, target, var, full=False, eps=1e-06, reduction="mean"):
    """Mirrors `mindspore.ops.gaussian_nll_loss`: 0.5 * (log(max(var, eps)) +
    (x - target)^2 / max(var, eps)), plus 0.5 * log(2 pi) with `full`."""
    op = "gaussian_nll_loss"
    for name, t in (("x", x), ("target", target), ("var", var)):
        _checks.floating(op, name, t)
    reduction = _checks.reduction(op, reduction)
    F = _F()
    v = F.clamp(var, float(eps), None)
    loss = 0.5 * (F.log(v) + F.square(x - target) / v)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return reduce_loss(loss, reduction)


def poisson_nll_loss(input, target, log_input=True, full=False, eps=1e-08, reduction="mean"):
    """The loss of `nn.PoissonNLLLoss`: exp(x) - y * x (log_input), else x - y * log(x + eps);
    `full` adds Stirling's term y log y - y + 0.5 log(2 pi y) where y > 1."""
    op = "PoissonNLLLoss"
    _checks.floating(op, "input", input)
    _checks.tensor(op, "target", target)
    reduction = _checks.reduction(op, reduction)
    F = _F()
    y = F.cast(target, input.dtype)
    loss = F.exp(input) - y * input if log_input else input - y * F.log(input + eps)
    if full:
        safe = F.where(y > 1, y, 1.0)
        stirling = safe * F.log(safe) - safe + 0.5 * F.log(2 * math.pi * safe)
        loss = loss + F.where(y > 1, stirling, 0.0)
    return reduce_loss(loss, reduction)
