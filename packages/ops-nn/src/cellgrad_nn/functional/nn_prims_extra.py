"""Primitive classes of `mindspore.ops` over functional ops cellgrad already has (one table),
plus `MultilabelMarginLoss`, `CTCLossV2`, `RmsNorm`, `soft_shrink` and `lrn`."""

import numpy as np

from cellgrad import ops
from cellgrad.common.tensor import Tensor
from cellgrad.ops.primitive import Primitive
from cellgrad_nn.functional import pool_extra

# name -> (constructor parameters with defaults, call parameters, body over `self` and them)
_TABLE = {
    "CeLU": ("alpha=1.0", "input_x", lambda s, x: ops.celu(x, s.alpha)),
    "SeLU": ("", "input_x", lambda s, x: ops.selu(x)),
    "HShrink": ("lambd=0.5", "input_x", lambda s, x: ops.hardshrink(x, s.lambd)),
    "SoftShrink": ("lambd=0.5", "input_x", lambda s, x: ops.softshrink(x, s.lambd)),
    "GLU": ("axis=-1", "x", lambda s, x: ops.glu(x, s.axis)),
    "PReLU": ("", "x, weight", lambda s, x, w: ops.prelu(x, w)),
    "Dense": ("", "x, w, b=None", lambda s, x, w, b=None: ops.dense(x, w, b)),
    "SoftMarginLoss": ("reduction='mean'", "logits, labels",
                       lambda s, x, y: ops.soft_margin_loss(x, y, s.reduction)),
    "MultiMarginLoss": ("p=1, margin=1.0, reduction='mean'", "inputs, target, weight=None",
                        lambda s, x, t, w=None: ops.multi_margin_loss(x, t, s.p, s.margin, w,
                                                                      s.reduction)),
    "TripletMarginLoss": ("p=2, swap=False, eps=1e-06, reduction='mean'",
                          "x, positive, negative, margin",
                          lambda s, x, p, n, m: ops.triplet_margin_loss(
                              x, p, n, float(m.asnumpy()) if isinstance(m, Tensor) else m, s.p,
                              s.eps, s.swap, s.reduction)),
    "CTCLossV2": ("blank=0, reduction='none', zero_infinity=False",
                  "log_probs, targets, input_lengths, target_lengths",
                  lambda s, lp, t, il, tl: ops.ctc_loss(lp, t, il, tl, s.blank, s.reduction,
                                                        s.zero_infinity)),
}


def _make(name, init_params, call_params, body):
    namespace = {}
    names = ", ".join(p.split("=")[0].strip() for p in call_params.split(","))
    assign = "".join(f"\n    self.{p.split('=')[0].strip()} = {p.split('=')[0].strip()}"
                     for p in init_params.split(",") if p.strip())
    exec(f"def __init__(self{', ' if init_params else ''}{init_params}):\n"  # noqa: S102
         f"    Primitive.__init__(self, {name!r}){assign}\n"
         f"def __call__(self, {call_params}):\n"
         f"    return _body(self, {names})\n",
         {"Primitive": Primitive, "_body": body}, namespace)
    return type(name, (Primitive,), {**namespace, "__module__": __name__,
                                      "__doc__": f"Mirrors `mindspore.ops.{name}`."})


globals().update({name: _make(name, *entry) for name, entry in _TABLE.items()})


class Gelu(ops.GeLU):
    """Mirrors `mindspore.ops.Gelu` (deprecated for `ops.GeLU`; the same numbers)."""


class FastGelu(ops.FastGeLU):
    """Mirrors `mindspore.ops.FastGelu` (deprecated for `ops.FastGeLU`; the same numbers)."""


class ChannelShuffle(Primitive):
    """Mirrors `mindspore.ops.ChannelShuffle`: (N, C, ...) input with more than 3 dims."""

    def __init__(self, group):
        super().__init__("ChannelShuffle")
        if isinstance(group, bool) or not isinstance(group, int) or group <= 0:
            raise ValueError(f"For ChannelShuffle, 'group' must be a positive int, but got "
                             f"{group!r}.")
        self.group = group

    def __call__(self, x):
        if x.ndim <= 3:
            raise TypeError(f"For ChannelShuffle, expect input with > 3 dims, but got {x.ndim}.")
        return ops.channel_shuffle(x, self.group)


class MultilabelMarginLoss(Primitive):
    """Mirrors `mindspore.ops.MultilabelMarginLoss`: (loss, is_target), is_target marking the
    target classes of each row (those before the first -1 of `target`)."""

    def __init__(self, reduction="mean"):
        super().__init__("MultilabelMarginLoss")
        if reduction not in ("none", "mean", "sum"):
            raise ValueError(f"For 'MultilabelMarginLoss', 'reduction' must be 'none', 'mean' "
                             f"or 'sum', but got '{reduction}'.")
        self.reduction = reduction

    def __call__(self, x, target):
        t = target.asnumpy().reshape(-1, x.shape[-1])
        is_target = np.zeros(t.shape, x.asnumpy().dtype)
        for row, labels in zip(is_target, t):
            stop = np.flatnonzero(labels < 0)
            row[labels[:stop[0] if stop.size else None]] = 1
        loss = ops.multilabel_margin_loss(x, target, self.reduction)
        return loss, Tensor(is_target.reshape(x.shape).astype(np.int32), target.dtype)


class RmsNorm(Primitive):
    """Mirrors `mindspore.ops.RmsNorm`: (x / rms(x) * gamma, 1 / rms) over the axes `gamma`
    covers, rms = sqrt(mean(x^2) + epsilon)."""

    def __init__(self, epsilon=1e-6):
        super().__init__("RmsNorm")
        if not isinstance(epsilon, float) or not 0 < epsilon <= 1:
            raise ValueError(f"For 'RmsNorm', 'epsilon' must be a float in (0, 1], but got "
                             f"{epsilon!r}.")
        self.epsilon = epsilon

    def __call__(self, x, gamma):
        axes = tuple(range(x.ndim - gamma.ndim, x.ndim))
        if tuple(x.shape[x.ndim - gamma.ndim:]) != tuple(gamma.shape):
            raise ValueError(f"For 'RmsNorm', the shape of 'gamma' {gamma.shape} must match the "
                             f"last dimensions of 'x' {x.shape}.")
        rstd = ops.rsqrt((x * x).mean(axes, keep_dims=True) + self.epsilon)
        return x * rstd * gamma, rstd


def soft_shrink(input, lambd=0.5):
    """Mirrors `mindspore.ops.soft_shrink` (the same as `ops.softshrink`)."""
    return ops.softshrink(input, lambd)


def lrn(x, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region="ACROSS_CHANNELS"):
    """Mirrors `mindspore.ops.lrn`: local response normalization across channels."""
    return pool_extra.lrn(x, depth_radius, bias, alpha, beta, norm_region)
