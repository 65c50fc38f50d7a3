"""Connectionist temporal classification: the `CTCLoss` primitive (TensorFlow's: logits in,
blank = the last class, sparse labels, (loss, gradient) out) and `ops.ctc_loss` (PyTorch's:
log-probabilities in, padded targets, (loss, log_alpha) out), as MindSpore 2.10 computes them.

Both run the forward-backward recursion in log space on float64, one sequence at a time.
`alpha[t, u]` includes frame t's probability, `beta[t, u]` does not, so alpha + beta is the log
probability of all paths through state u at frame t.
"""

import numpy as np

from cellgrad.common.tensor import Tensor
from cellgrad.ops.primitive import Primitive, prim_attr_register
from cellgrad.plugins import PROMOTE_NONE, Op, apply
from cellgrad_nn.functional import _checks

_NEG_INF = -np.inf


def _lse(*xs):
    stacked = np.stack(xs)
    top = stacked.max(0)
    safe = np.where(np.isfinite(top), top, 0)
    with np.errstate(divide="ignore"):
        return np.where(np.isfinite(top), safe + np.log(np.exp(stacked - safe).sum(0)), top)


def _transitions(ext, blank, merge_repeated):
    """Which states may stay put, and which may skip the previous (blank) state."""
    is_blank = ext == blank
    stay = np.ones(len(ext), bool) if merge_repeated else is_blank
    skip = ~is_blank
    skip[:2] = False
    if merge_repeated:
        skip[2:] &= ext[2:] != ext[:-2]
    return stay, skip


def forward_backward(logp, labels, blank, merge_repeated=True):
    """(log_alpha (T, U), log_beta (T, U), log p) for one sequence; logp is (T, C)."""
    t_len = logp.shape[0]
    ext = np.full(2 * len(labels) + 1, blank, np.int64)
    ext[1::2] = labels
    u_len = len(ext)
    stay, skip = _transitions(ext, blank, merge_repeated)
    emit = logp[:, ext]
    alpha = np.full((t_len, u_len), _NEG_INF)
    beta = np.full((t_len, u_len), _NEG_INF)
    if t_len == 0:
        return alpha, beta, _NEG_INF
    alpha[0, :2] = emit[0, :2]
    for t in range(1, t_len):
        prev = alpha[t - 1]
        one = np.concatenate([[_NEG_INF], prev[:-1]])
        two = np.where(skip, np.concatenate([[_NEG_INF] * 2, prev[:-2]]), _NEG_INF)
        alpha[t] = emit[t] + _lse(np.where(stay, prev, _NEG_INF), one, two)
    beta[-1, -2:] = 0.0
    for t in range(t_len - 2, -1, -1):
        nxt = beta[t + 1] + emit[t + 1]
        one = np.concatenate([nxt[1:], [_NEG_INF]])
        two = np.concatenate([nxt[2:], [_NEG_INF] * 2])
        two = np.where(np.concatenate([skip[2:], [False] * 2]), two, _NEG_INF)
        beta[t] = _lse(np.where(stay, nxt, _NEG_INF), one, two)
    return alpha, beta, _lse(*alpha[-1, -2:]) if u_len > 1 else alpha[-1, -1]


def _posterior_grad(logp, alpha, beta, log_p, ext):
    """exp(logp) - P(state with class c at frame t | labels): the gradient with respect to the
    logits of a softmax (TensorFlow's CTC gradient, also PyTorch's for log_softmax inputs)."""
    grad = np.exp(logp)
    if not np.isfinite(log_p):
        return np.zeros_like(logp)
    ab = alpha + beta - log_p
    for c in np.unique(ext):
        grad[:, c] -= np.exp(_lse(*ab[:, ext == c].T)) if (ext == c).sum() > 1 else \
            np.exp(ab[:, ext == c][:, 0])
    return grad


def _extended(labels, blank):
    ext = np.full(2 * len(labels) + 1, blank, np.int64)
    ext[1::2] = labels
    return ext


# ---- CTCLoss (TensorFlow's) ----

def _ctc_fwd(inputs, *, labels, lengths, merge_repeated, skip):
    t_max, batch, classes = inputs.shape
    x = inputs.astype(np.float64)
    logp = x - x.max(-1, keepdims=True)
    logp -= np.log(np.exp(logp).sum(-1, keepdims=True))
    loss = np.empty(batch)
    grad = np.zeros_like(x)
    for b in range(batch):
        n = lengths[b]
        if skip[b]:
            loss[b] = np.inf
            continue
        alpha, beta, log_p = forward_backward(logp[:n, b], labels[b], classes - 1,
                                              merge_repeated)
        loss[b] = -log_p
        grad[:n, b] = _posterior_grad(logp[:n, b], alpha, beta, log_p,
                                      _extended(labels[b], classes - 1))
    grad = grad.astype(inputs.dtype)
    return (loss.astype(inputs.dtype), grad), (grad,)


def _ctc_bwd(ctx, g_loss, g_grad):
    (grad,) = ctx.saved
    return grad * g_loss[None, :, None]


CTC_LOSS = Op("ctc_loss_tf", _ctc_fwd, _ctc_bwd, PROMOTE_NONE, first_order_only=True)


def _collapse(labels):
    keep = np.ones(len(labels), bool)
    keep[1:] = labels[1:] != labels[:-1]
    return labels[keep]


class CTCLoss(Primitive):
    """Mirrors `mindspore.ops.CTCLoss(preprocess_collapse_repeated=False,
    ctc_merge_repeated=True, ignore_longer_outputs_than_inputs=False)(x, labels_indices,
    labels_values, sequence_length)`: x is (max_time, batch, num_classes) logits, the blank is
    class num_classes - 1; returns (loss (batch,), gradient like x). Labels are read in order
    per batch row (the first column of `labels_indices`), as MindSpore does. An infeasible
    sequence (or an ignored too-long one) has an infinite loss and a zero gradient."""

    @prim_attr_register
    def __init__(self, preprocess_collapse_repeated=False, ctc_merge_repeated=True,
                 ignore_longer_outputs_than_inputs=False):
        for name in ("preprocess_collapse_repeated", "ctc_merge_repeated",
                     "ignore_longer_outputs_than_inputs"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"For 'CTCLoss', the '{name}' must be a bool, got "
                                f"{getattr(self, name)!r}.")
        self.init_prim_io_names(
            inputs=["inputs", "labels_indices", "labels_values", "sequence_length"],
            outputs=["loss", "gradient"])

    def _labels(self, x, labels_indices, labels_values, sequence_length):
        op = self.name
        _checks.floating(op, "x", x)
        for name, t, kind in (("labels_indices", labels_indices, np.int64),
                              ("labels_values", labels_values, np.int32),
                              ("sequence_length", sequence_length, np.int32)):
            if not isinstance(t, Tensor) or t.asnumpy().dtype != kind:
                raise TypeError(f"For primitive[CTCLoss], the input argument[{name}] must be a "
                                f"type of {{Tensor[{np.dtype(kind).name.capitalize()}]}}, but "
                                f"got {_checks.describe(t)}.")
        if x.ndim != 3:
            raise ValueError(f"For 'CTCLoss', 'x' must be 3-D (max_time, batch, num_classes), "
                             f"got {_checks.describe(x)}.")
        t_max, batch, classes = x.shape
        rows = labels_indices.asnumpy()[:, 0]
        values = labels_values.asnumpy()
        lengths = sequence_length.asnumpy().astype(np.int64)
        if lengths.shape != (batch,) or (lengths > t_max).any() or (lengths < 0).any():
            raise ValueError(f"For 'CTCLoss', 'sequence_length' must hold {batch} lengths in "
                             f"[0, {t_max}], got {lengths.tolist()}.")
        bad = np.flatnonzero((values < 0) | (values >= classes - 1))
        if bad.size:
            raise RuntimeError(f"For 'CTCLoss', the value of labels_values[{bad[0]}] must be in "
                               f"the range of [0, num_classes - 1) = [0, {classes - 1}) (class "
                               f"{classes - 1} is the blank), but got {values[bad[0]]}.")
        labels, skip = [], []
        for b in range(batch):
            seq = values[rows == b].astype(np.int64)
            if self.preprocess_collapse_repeated:
                seq = _collapse(seq)
            too_long = len(seq) > lengths[b]
            if too_long and not self.ignore_longer_outputs_than_inputs:
                raise RuntimeError(f"For 'CTCLoss, input time(sequence length) must be greater "
                                   f"than output size(label length), but got sequence length: "
                                   f"{lengths[b]} and label length: {len(seq)}")
            labels.append(seq)
            skip.append(too_long)
        return labels, lengths, skip

    def __call__(self, x, labels_indices, labels_values, sequence_length):
        labels, lengths, skip = self._labels(x, labels_indices, labels_values, sequence_length)
        return apply(CTC_LOSS, (x,), {"labels": labels, "lengths": lengths, "skip": skip,
                                      "merge_repeated": self.ctc_merge_repeated})


# ---- ops.ctc_loss (PyTorch's, MindSpore's CTCLossV2) ----

def _ctc_v2_fwd(log_probs, *, targets, in_lens, tg_lens, blank, zero_infinity):
    t_max, batch, _ = log_probs.shape
    s_max = targets.shape[1]
    lp = log_probs.astype(np.float64)
    loss = np.empty(batch)
    log_alpha = np.full((batch, t_max, 2 * s_max + 1), _NEG_INF)
    grad = np.zeros_like(lp)
    for b in range(batch):
        n, labels = in_lens[b], targets[b, :tg_lens[b]]
        alpha, beta, log_p = forward_backward(lp[:n, b], labels, blank)
        log_alpha[b, :n, :alpha.shape[1]] = alpha
        loss[b] = -log_p
        grad[:n, b] = _posterior_grad(lp[:n, b], alpha, beta, log_p, _extended(labels, blank))
        if not (zero_infinity or np.isfinite(log_p)):
            grad[:n, b] = np.nan  # as MindSpore and PyTorch: 0 * inf
    dtype = log_probs.dtype
    return (loss.astype(dtype), log_alpha.astype(dtype)), (grad.astype(dtype),)


def _ctc_v2_bwd(ctx, g_loss, g_alpha):
    (grad,) = ctx.saved
    return grad * g_loss[None, :, None]


CTC_LOSS_V2 = Op("ctc_loss", _ctc_v2_fwd, _ctc_v2_bwd, PROMOTE_NONE, first_order_only=True)
OPS = (CTC_LOSS, CTC_LOSS_V2)


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean",
             zero_infinity=False):
    """Mirrors `mindspore.ops.ctc_loss`: log_probs (T, N, C) (log-softmax output), targets
    (N, S) padded; returns (loss, log_alpha (N, T, 2S + 1)). 'mean' divides each loss by its
    target length, then averages. The gradient is PyTorch's and MindSpore's: exp(log_probs)
    minus the label posteriors, the gradient through a log_softmax. An impossible alignment
    has an infinite loss and a NaN gradient; `zero_infinity` makes that gradient zero (and,
    as in MindSpore 2.10, leaves the loss infinite)."""
    op = "ctc_loss"
    _checks.floating(op, "log_probs", log_probs)
    _checks.integer(op, "targets", targets)
    _checks.reduction(op, reduction)
    if log_probs.ndim != 3 or targets.ndim != 2:
        raise ValueError(f"For '{op}', 'log_probs' must be (T, N, C) and 'targets' (N, S), got "
                         f"{_checks.describe(log_probs)} and {_checks.describe(targets)}.")
    t_max, batch, classes = log_probs.shape
    lens = []
    for name, t, bound in (("input_lengths", input_lengths, t_max),
                           ("target_lengths", target_lengths, targets.shape[1])):
        a = (t.asnumpy() if isinstance(t, Tensor) else np.asarray(t)).astype(np.int64)
        if a.shape != (batch,) or (a < 0).any() or (a > bound).any():
            raise ValueError(f"For '{op}', '{name}' must hold {batch} values in [0, {bound}], "
                             f"got {a.tolist()}.")
        lens.append(a)
    if not 0 <= blank < classes:
        raise ValueError(f"For '{op}', 'blank' must be in [0, {classes}), got {blank}.")
    loss, log_alpha = apply(CTC_LOSS_V2, (log_probs,), {
        "targets": targets.asnumpy().astype(np.int64), "in_lens": lens[0], "tg_lens": lens[1],
        "blank": blank, "zero_infinity": bool(zero_infinity)})
    if reduction == "mean":
        per = Tensor(np.maximum(lens[1], 1).astype(log_probs.asnumpy().dtype))
        loss = (loss / per).mean()
    elif reduction == "sum":
        loss = loss.sum()
    return loss, log_alpha
