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
from cellgrad_nn.functional._prim_attrs import of_type

_NEG_INF = -np.inf


def _lse(*xs):
    stacked = np.stack(xs)
    top = stacked.max(0)
    safe = np.where(np.isfinite(top), top, 0)
    with np.errstate(divide="ignore"):
        return np.where(np.isfinite(top), safe + np.log(np.exp(stacked - safe).sum(0)), top)


def _shift(a, k):
    """`a` moved k states up the last axis (positive k) or down (negative), -inf filled."""
    out = np.full_like(a, _NEG_INF)
    if k > 0:
        out[..., k:] = a[..., :-k]
    else:
        out[..., :k] = a[..., -k:]
    return out


def forward_backward(logp, labels, lengths, blank, merge_repeated=True):
    """The recursion for a batch at once: logp (T, B, C), `labels` B int arrays, `lengths` the
    frames of each sequence. Returns alpha and beta (T, B, U), -inf outside each sequence's
    frames and states; log p (B,); the label sequences with blanks around each label (B, U)."""
    t_max, batch, _ = logp.shape
    u_len = np.array([2 * len(seq) + 1 for seq in labels], np.int64)
    u_max = int(u_len.max(initial=1))
    ext = np.full((batch, u_max), blank, np.int64)
    for b, seq in enumerate(labels):
        ext[b, 1:2 * len(seq):2] = seq
    valid = np.arange(u_max)[None, :] < u_len[:, None]
    is_blank = ext == blank
    stay = np.ones_like(is_blank) if merge_repeated else is_blank
    skip = ~is_blank  # a label may follow the previous label directly, past their blank
    skip[:, :2] = False
    if merge_repeated:
        skip[:, 2:] &= ext[:, 2:] != ext[:, :-2]
    emit = logp[:, np.arange(batch)[:, None], ext]
    alpha = np.full((t_max, batch, u_max), _NEG_INF)
    beta = np.full((t_max, batch, u_max), _NEG_INF)
    if t_max:
        alpha[0, :, :2] = emit[0, :, :2]
        alpha[0][~valid] = _NEG_INF
    for t in range(1, t_max):
        prev = alpha[t - 1]
        step = _lse(np.where(stay, prev, _NEG_INF), _shift(prev, 1),
                    np.where(skip, _shift(prev, 2), _NEG_INF))
        alpha[t] = np.where(valid, emit[t] + step, _NEG_INF)
    last = (np.arange(u_max)[None, :] >= u_len[:, None] - 2) & valid
    after_skip = _shift(skip.astype(float), -2) > 0
    for t in range(t_max - 1, -1, -1):
        if t < t_max - 1:
            nxt = beta[t + 1] + emit[t + 1]
            beta[t] = _lse(np.where(stay, nxt, _NEG_INF), _shift(nxt, -1),
                           np.where(after_skip, _shift(nxt, -2), _NEG_INF))
        ends = lengths == t + 1
        beta[t, ends] = np.where(last[ends], 0.0, _NEG_INF)
    frames = np.arange(t_max)[:, None] < lengths[None, :]
    alpha[~frames] = _NEG_INF
    beta[~frames] = _NEG_INF
    rows = np.arange(batch)
    end = alpha[np.maximum(lengths - 1, 0), rows]
    log_p = _lse(end[rows, u_len - 1], np.where(u_len > 1, end[rows, np.maximum(u_len - 2, 0)],
                                                _NEG_INF))
    log_p = np.where(lengths > 0, log_p, _NEG_INF)
    return alpha, beta, log_p, ext


def _posterior_grad(logp, alpha, beta, log_p, ext, lengths):
    """exp(logp) - P(a path is in a state of class c at frame t | labels): the gradient with
    respect to the logits of a softmax (TensorFlow's CTC gradient; PyTorch's and MindSpore's
    for log_softmax inputs). Zero past each sequence's frames and for impossible ones."""
    t_max, batch, _ = logp.shape
    feasible = np.isfinite(log_p)
    with np.errstate(invalid="ignore"):
        post = np.exp(alpha + beta - np.where(feasible, log_p, 0.0)[None, :, None])
    frames = np.arange(t_max)[:, None] < lengths[None, :]
    grad = np.where(frames[..., None], np.exp(logp), 0.0)
    np.add.at(grad, (np.arange(t_max)[:, None, None], np.arange(batch)[None, :, None],
                     ext[None]), -post)
    grad[:, ~feasible] = 0.0
    return grad


# ---- CTCLoss (TensorFlow's) ----

def _ctc_fwd(inputs, *, labels, lengths, merge_repeated, skip):
    x = inputs.astype(np.float64)
    logp = x - x.max(-1, keepdims=True)
    logp -= np.log(np.exp(logp).sum(-1, keepdims=True))
    blank = x.shape[2] - 1
    alpha, beta, log_p, ext = forward_backward(logp, labels, lengths, blank, merge_repeated)
    log_p = np.where(skip, _NEG_INF, log_p)
    grad = _posterior_grad(logp, alpha, beta, log_p, ext, lengths).astype(inputs.dtype)
    return ((-log_p).astype(inputs.dtype), grad), (grad,)


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
            of_type(self.name, name, getattr(self, name), bool)
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
    lp = log_probs.astype(np.float64)
    labels = [targets[b, :tg_lens[b]] for b in range(batch)]
    alpha, beta, log_p, ext = forward_backward(lp, labels, in_lens, blank)
    log_alpha = np.full((batch, t_max, 2 * targets.shape[1] + 1), _NEG_INF)
    log_alpha[:, :, :alpha.shape[2]] = alpha.transpose(1, 0, 2)
    grad = _posterior_grad(lp, alpha, beta, log_p, ext, in_lens)
    if not zero_infinity:  # as MindSpore and PyTorch: an impossible sequence's 0 * inf
        frames = np.arange(t_max)[:, None] < in_lens[None, :]
        grad[:, ~np.isfinite(log_p)] = np.where(frames[:, ~np.isfinite(log_p), None], np.nan, 0)
    dtype = log_probs.dtype
    return ((-log_p).astype(dtype), log_alpha.astype(dtype)), (grad.astype(dtype),)


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
