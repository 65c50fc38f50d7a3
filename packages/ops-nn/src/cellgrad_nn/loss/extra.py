"""`nn.TripletMarginWithDistanceLoss`, `nn.CTCLoss` and `nn.SampledSoftmaxLoss`."""

import math

import numpy as np

from cellgrad import ops
from cellgrad.common import dtype as mstype
from cellgrad.common.tensor import Tensor
from cellgrad.ops import constexpr  # noqa: F401 (MindSpore's loss module has it)
from cellgrad_nn.loss.losses import LossBase


def get_half_ln_2_pi(*args, **kwargs):
    """Mirrors `mindspore.nn.loss.loss.get_half_ln_2_pi`: 0.5 * ln(2 pi)."""
    return 0.5 * math.log(2 * math.pi)


def _check_tensor(cell, arg, x):
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{cell}', the '{arg}' must be a Tensor, but got "
                        f"{type(x).__name__}.")


def _pairwise_distance(x, y):
    d = ops.abs(x - y)
    if d.ndim == 0:
        raise ValueError("For 'pairwise_distance' in 'TripletMarginWithDistanceLoss', 'ndim' of "
                         f"the input must be positive, but got {d.ndim}")
    return ops.sqrt((d * d).sum(1))


class TripletMarginWithDistanceLoss(LossBase):
    """Mirrors `mindspore.nn.TripletMarginWithDistanceLoss`: max(d(x, p) - d(x, n) + margin, 0)
    with `distance_function` (the L2 distance along axis 1 by default), `swap` taking
    min(d(x, n), d(p, n))."""

    def __init__(self, distance_function=None, swap=False, reduction="mean", margin=1.0):
        super().__init__(reduction=reduction)
        if not isinstance(margin, float):
            raise TypeError(f"For 'TripletMarginWithDistanceLoss', the type of 'margin' must be "
                            f"float, but got {type(margin).__name__}.")
        if not isinstance(swap, bool):
            raise TypeError(f"For 'TripletMarginWithDistanceLoss', the type of 'swap' must be "
                            f"bool, but got {type(swap).__name__}.")
        self.distance_function = distance_function or _pairwise_distance
        self.swap, self.reduction, self.margin = swap, reduction, margin

    def construct(self, x, positive, negative):
        for arg, value in (("x", x), ("positive", positive), ("negative", negative)):
            _check_tensor("TripletMarginWithDistanceLoss", arg, value)
        d1 = self.distance_function(x, positive)
        d2 = self.distance_function(x, negative)
        if self.swap:
            d2 = ops.minimum(d2, self.distance_function(positive, negative))
        return self.get_loss(ops.relu(d1 - d2 + self.margin))


class CTCLoss(LossBase):
    """Mirrors `mindspore.nn.CTCLoss`: `ops.ctc_loss`'s negative log-likelihood for (T, N, C)
    or unbatched (T, C) log-probabilities."""

    def __init__(self, blank=0, reduction="mean", zero_infinity=False):
        super().__init__()
        self.blank, self.reduction, self.zero_infinity = blank, reduction, zero_infinity

    def construct(self, log_probs, targets, input_lengths, target_lengths):
        _check_tensor("CTCLoss", "log_probs", log_probs)
        _check_tensor("CTCLoss", "targets", targets)
        if log_probs.ndim == 2:
            if targets.ndim not in (1, 2) or (targets.ndim == 2 and targets.shape[0] != 1):
                raise ValueError("For CTCLoss, when the shape of log_probs is (T, C), the "
                                 "dimension of targets should be equal to 1 or 2 with a first "
                                 f"dimension of 1, but got shape {targets.shape}.")
            if targets.ndim == 1:
                targets = targets.expand_dims(0)
            loss, _ = ops.ctc_loss(log_probs.expand_dims(-2), targets, input_lengths,
                                   target_lengths, self.blank, self.reduction,
                                   self.zero_infinity)
            return loss.squeeze(0) if loss.ndim else loss
        loss, _ = ops.ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank,
                               self.reduction, self.zero_infinity)
        return loss


class SampledSoftmaxLoss(LossBase):
    """Mirrors `mindspore.nn.SampledSoftmaxLoss` (deprecated in MindSpore 2.8): the softmax
    cross-entropy over the true classes and `num_sampled` classes drawn uniformly without
    replacement (those among the batch's labels left out when `remove_accidental_hits`),
    logits corrected by log of the expected counts (num_sampled / num_classes for both). Pass
    `sampled_values=(sampled, true_expected_count, sampled_expected_count)` to fix the draw."""

    def __init__(self, num_sampled, num_classes, num_true=1, sampled_values=None,
                 remove_accidental_hits=True, seed=0, reduction="none"):
        super().__init__(reduction)
        name = "SampledSoftmaxLoss"
        if num_true < 1:
            raise ValueError(f"For '{name}', the 'num_true' must be greater than or equal to 1, "
                             f"but got {num_true}.")
        if seed < 0:
            raise ValueError(f"For '{name}', the 'seed' must be greater than or equal to 0, but "
                             f"got {seed}.")
        if num_sampled > num_classes:
            raise ValueError(f"For '{name}', the 'num_sampled' must be smaller than or equal to "
                             f"'num_classes', but got 'num_sampled': {num_sampled} and "
                             f"'num_classes': {num_classes}.")
        if num_true > num_classes:
            raise ValueError(f"For '{name}', the 'num_true' must be smaller than or equal to "
                             f"'num_classes', but got 'num_true': {num_true} amd 'num_classes': "
                             f"{num_classes}.")
        if sampled_values is not None:
            if not isinstance(sampled_values, (list, tuple)):
                raise TypeError(f"For '{name}', the type of 'sampled_values' must be a list or "
                                f"tuple, but got {type(sampled_values).__name__}.")
            if len(sampled_values) != 3:
                raise ValueError(f"For '{name}', the length of 'sampled_values' must be equal to "
                                 f"3,but got {len(sampled_values)}.")
        self.num_sampled, self.num_classes, self.num_true = num_sampled, num_classes, num_true
        self.sampled_values = sampled_values
        self.remove_accidental_hits, self.seed = remove_accidental_hits, seed
        self._rng = np.random.default_rng(seed or None)

    def _sample(self, labels):
        pool = np.arange(self.num_classes)
        if self.remove_accidental_hits:
            left = np.setdiff1d(pool, labels)
            pool = left if left.size >= self.num_sampled else pool
        sampled = self._rng.choice(pool, self.num_sampled, replace=False).astype(np.int32)
        expected = np.float32(self.num_sampled / self.num_classes)
        return (Tensor(sampled), Tensor(np.full((labels.size // self.num_true, self.num_true),
                                                expected, np.float32)),
                Tensor(np.full(sampled.shape, expected, np.float32)))

    def construct(self, weights, biases, labels, logits):
        name = "SampledSoftmaxLoss"
        for arg, value in (("weights", weights), ("biases", biases), ("labels", labels),
                           ("logits", logits)):
            _check_tensor(name, arg, value)
        if labels.asnumpy().dtype.kind not in "iu":
            raise TypeError(f"For '{name}', the dtype of 'labels' must be int32 or int64, but "
                            f"got {labels.dtype}.")
        labels = ops.cast(labels, mstype.int32).reshape(-1, self.num_true)
        flat = labels.reshape(-1)
        sampled, true_count, sampled_count = self.sampled_values or \
            self._sample(flat.asnumpy())
        sampled = ops.cast(sampled, mstype.int32)
        true_w = ops.gather(weights, flat, 0).reshape(-1, self.num_true, weights.shape[1])
        true_logits = (ops.expand_dims(logits, 1) * true_w).sum(-1) \
            + ops.gather(biases, flat, 0).reshape(-1, self.num_true) \
            - ops.log(ops.cast(true_count, logits.dtype))
        sampled_logits = ops.matmul(logits, ops.gather(weights, sampled, 0).T) \
            + ops.gather(biases, sampled, 0) - ops.log(ops.cast(sampled_count, logits.dtype))
        out_logits = ops.concat((true_logits, sampled_logits), 1)
        targets = ops.concat((ops.ones_like(true_logits) / self.num_true,
                              ops.zeros_like(sampled_logits)), 1)
        stable = ops.exp(out_logits - out_logits.max(1, keepdims=True))
        pred = stable / stable.sum(1, keepdims=True)
        # MindSpore returns the per-sample losses whatever `reduction` says
        return -(targets * ops.log(pred + 1.0e-20)).sum(1)
